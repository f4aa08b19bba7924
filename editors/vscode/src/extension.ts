// Activation: wires the client, the commands, the language model tool and the API together.
// Everything else lives in the other modules.

import * as vscode from "vscode";

import * as commands from "./commands";
import { Config } from "./config";
import { ContextOptions } from "./context";
import { Ctx } from "./ctx";
import { ContextTool, TOOL_NAME } from "./lm_tool";
import { ContextResult } from "./lsp_ext";

/** The API other extensions get from `vscode.extensions.getExtension("codectx.codectx").exports`. */
export interface CodectxApi {
  /** Runs codectx.context; the active editor's file and cursor are sent unless `options` name a file. */
  getContext(query: string, options?: ContextOptions): Promise<ContextResult>;
}

let activeCtx: Ctx | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<CodectxApi> {
  const ctx = new Ctx(context);
  activeCtx = ctx;
  const documents = new commands.ContextDocuments();
  context.subscriptions.push(
    ctx,
    vscode.workspace.registerTextDocumentContentProvider(commands.ContextDocuments.scheme, documents),
    vscode.commands.registerCommand("codectx.contextForTask", commands.contextForTask(ctx, documents)),
    vscode.commands.registerCommand("codectx.showStatus", commands.showStatus(ctx)),
    vscode.commands.registerCommand("codectx.reindexWorkspace", commands.reindexWorkspace(ctx)),
    vscode.commands.registerCommand("codectx.restartServer", commands.restartServer(ctx)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (Config.needsRestart(event)) {
        void ctx.restart();
      } else if (Config.affectsServer(event)) {
        void ctx.settingsChanged();
      }
    }),
  );
  if (vscode.lm?.registerTool) {
    context.subscriptions.push(vscode.lm.registerTool(TOOL_NAME, new ContextTool(ctx)));
  }
  await ctx.getClient();
  return { getContext: (query, options) => ctx.getContext(query, options) };
}

export async function deactivate(): Promise<void> {
  // Shut the server down cleanly (shutdown, exit) before VS Code kills the extension host.
  await activeCtx?.stop();
  activeCtx = undefined;
}
