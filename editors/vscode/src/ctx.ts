// The extension's state: the language client (started, stopped, restarted), the status bar
// item, and the requests the commands, the language model tool and the API make.

import * as vscode from "vscode";
import * as lc from "vscode-languageclient/node";

import { createClient } from "./client";
import { Config } from "./config";
import { buildContextArguments, ContextOptions, EditorState } from "./context";
import * as ext from "./lsp_ext";
import { findServer, notFoundMessage } from "./server";

export class Ctx implements vscode.Disposable {
  readonly config = new Config();
  readonly outputChannel = vscode.window.createOutputChannel("codectx");
  private readonly statusBar = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
  private client: lc.LanguageClient | undefined;
  private starting: Promise<lc.LanguageClient | undefined> | undefined;

  constructor(private readonly extensionContext: vscode.ExtensionContext) {
    this.statusBar.name = "codectx";
    this.statusBar.command = "codectx.showStatus";
  }

  /** The running client, started on first use; undefined (after an error message) when none can run. */
  async getClient(): Promise<lc.LanguageClient | undefined> {
    if (this.client?.isRunning()) {
      return this.client;
    }
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async start(): Promise<lc.LanguageClient | undefined> {
    const configured = this.config.serverPath;
    const { found, tried } = findServer({
      configured,
      extensionPath: this.extensionContext.extensionPath,
      envPath: process.env.PATH,
    });
    if (!found) {
      this.outputChannel.appendLine(`codectx server not found; tried: ${tried.join(", ")}`);
      this.setStatus("$(error) codectx", "The codectx server was not found", true);
      void vscode.window.showErrorMessage(notFoundMessage(configured), "Open Settings").then((choice) => {
        if (choice) {
          void vscode.commands.executeCommand("workbench.action.openSettings", "codectx.server.path");
        }
      });
      return undefined;
    }
    this.outputChannel.appendLine(`starting ${found.path} serve (${found.source})`);
    this.setStatus("$(sync~spin) codectx", "Starting the codectx server");
    const client = createClient(found.path, this.config, this.outputChannel);
    try {
      await client.start();
    } catch (err) {
      this.setStatus("$(error) codectx", `The codectx server failed to start: ${err}`, true);
      void vscode.window.showErrorMessage(`codectx: the server failed to start: ${err}. See the codectx output.`);
      return undefined;
    }
    this.client = client;
    void this.refreshStatus(true);
    return client;
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.dispose();
    }
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.getClient();
  }

  /** Sends the server's settings after the user changed them. */
  async settingsChanged(): Promise<void> {
    if (!this.client?.isRunning()) {
      return;
    }
    await this.client.sendNotification(lc.DidChangeConfigurationNotification.type, {
      settings: { codectx: this.config.serverSettings() },
    });
    void this.refreshStatus(true);
  }

  async executeCommand<T>(command: string, args: unknown[]): Promise<T> {
    const client = await this.getClient();
    if (!client) {
      throw new Error("the codectx server is not running");
    }
    return client.sendRequest(lc.ExecuteCommandRequest.type, { command, arguments: args }) as Promise<T>;
  }

  /** `codectx.status`; `wait` waits for the first index. */
  async status(wait = false): Promise<ext.StatusResult> {
    const params: ext.StatusParams = { wait };
    return this.executeCommand<ext.StatusResult>(ext.STATUS, [params]);
  }

  async reindex(): Promise<ext.StatusResult> {
    this.setStatus("$(sync~spin) codectx: indexing", "Rebuilding the index");
    const status = await this.executeCommand<ext.StatusResult>(ext.REINDEX, []);
    this.showStatus(status);
    return status;
  }

  /**
   * `codectx.context` for a query: the active editor's file and cursor are sent unless the
   * options name a file. This is also the extension API's `getContext`.
   */
  async getContext(query: string, options: ContextOptions = {}): Promise<ext.ContextResult> {
    const args = buildContextArguments(query, options, activeEditorState());
    return this.executeCommand<ext.ContextResult>(ext.CONTEXT, [args]);
  }

  /** Shows "indexing" until the index is built, then the file and definition counts. */
  async refreshStatus(wait: boolean): Promise<void> {
    this.setStatus("$(sync~spin) codectx: indexing", "codectx is indexing the workspace");
    try {
      this.showStatus(await this.status(wait));
    } catch (err) {
      this.setStatus("$(warning) codectx", `codectx.status failed: ${err}`, true);
    }
  }

  private showStatus(status: ext.StatusResult): void {
    if (status.state !== "ready") {
      this.setStatus("$(sync~spin) codectx: indexing", "codectx is indexing the workspace");
      return;
    }
    const tooltip = new vscode.MarkdownString(
      `**codectx** ${status.state}\n\n` +
        `${status.files} files, ${status.definitions} definitions, ${status.references} references\n\n` +
        `indexed in ${status.indexMs} ms; roots: ${status.roots.join(", ")}`,
    );
    this.setStatus(`$(database) ${status.files} files, ${status.definitions} defs`, tooltip);
  }

  private setStatus(text: string, tooltip: string | vscode.MarkdownString, error = false): void {
    this.statusBar.text = text;
    this.statusBar.tooltip = tooltip;
    this.statusBar.backgroundColor = error ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    this.statusBar.show();
  }

  dispose(): void {
    void this.stop();
    this.statusBar.dispose();
    this.outputChannel.dispose();
  }
}

function activeEditorState(): EditorState | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    return undefined;
  }
  const cursor = editor.selection.active;
  return {
    uri: editor.document.uri.toString(),
    languageId: editor.document.languageId,
    scheme: editor.document.uri.scheme,
    line: cursor.line,
    character: cursor.character,
  };
}
