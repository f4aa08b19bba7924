// The commands of the command palette. Ids differ from the server's commands
// (`codectx.context`, `codectx.status`, `codectx.reindex`), which vscode-languageclient
// registers itself.

import * as vscode from "vscode";

import { contextSummary, documentPath, renderingFor, statusSummary } from "./context";
import { Ctx } from "./ctx";

/** Read-only virtual documents holding rendered contexts. */
export class ContextDocuments implements vscode.TextDocumentContentProvider {
  static readonly scheme = "codectx-context";
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function contextForTask(ctx: Ctx, documents: ContextDocuments): () => Promise<void> {
  let lastQuery = "";
  return async () => {
    const query = await vscode.window.showInputBox({
      title: "codectx: Context for a task",
      prompt: "Describe the task: a bug report, a stack trace, or what to build",
      placeHolder: "fix the crash in DatabaseClient.connect when the URL is empty",
      value: lastQuery,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === "" ? "Describe the task" : undefined),
    });
    if (query === undefined) {
      return;
    }
    lastQuery = query;
    const format = ctx.config.contextFormat;
    let result;
    try {
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: "codectx: assembling context..." },
        () => ctx.getContext(query, { format }),
      );
    } catch (err) {
      void vscode.window.showErrorMessage(`codectx: ${errorMessage(err)}`);
      return;
    }
    const uri = vscode.Uri.from({ scheme: ContextDocuments.scheme, path: documentPath(query, format) });
    documents.set(uri, result.text);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, renderingFor(format).languageId);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    const choice = await vscode.window.showInformationMessage(`codectx: ${contextSummary(result)}`, "Copy");
    if (choice === "Copy") {
      await vscode.env.clipboard.writeText(result.text);
    }
  };
}

export function showStatus(ctx: Ctx): () => Promise<void> {
  return async () => {
    try {
      const status = await ctx.status(false);
      void vscode.window.showInformationMessage(`codectx: ${statusSummary(status)}`);
    } catch (err) {
      void vscode.window.showErrorMessage(`codectx: ${errorMessage(err)}`);
    }
  };
}

export function reindexWorkspace(ctx: Ctx): () => Promise<void> {
  return async () => {
    try {
      const status = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: "codectx: reindexing" },
        () => ctx.reindex(),
      );
      void vscode.window.showInformationMessage(`codectx: ${statusSummary(status)}`);
    } catch (err) {
      void vscode.window.showErrorMessage(`codectx: ${errorMessage(err)}`);
    }
  };
}

export function restartServer(ctx: Ctx): () => Promise<void> {
  return () => ctx.restart();
}
