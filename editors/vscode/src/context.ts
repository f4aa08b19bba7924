// The pure parts of the context command: building the arguments of `codectx.context` from
// the user's input and the active editor, and choosing how its text is shown.
//
// Invariant: no `vscode` import (unit-tested with node's test runner).

import { ContextParams, ContextResult, Format, MAX_BUDGET, MIN_BUDGET, StatusResult } from "./lsp_ext";

/** VS Code language ids of the files the server indexes (the client's document selector). */
export const LANGUAGE_IDS = [
  "python",
  "javascript",
  "javascriptreact",
  "typescript",
  "typescriptreact",
  "go",
  "rust",
] as const;

/** The active editor, as far as the context request cares. */
export interface EditorState {
  uri: string;
  languageId: string;
  /** The URI scheme: only `file` documents are in the index. */
  scheme: string;
  line: number;
  character: number;
}

/** Options of a context request (the extension API's `getContext(query, options)`). */
export type ContextOptions = Omit<ContextParams, "query">;

/**
 * The argument object of `codectx.context`: the trimmed query, the options given, and the
 * active editor's file and cursor unless the options name a file (or the editor shows a file
 * the server does not index, which it would refuse).
 * Throws on an empty query or a budget out of range, before a request is sent.
 */
export function buildContextArguments(query: string, options: ContextOptions = {}, editor?: EditorState): ContextParams {
  const trimmed = query.trim();
  if (trimmed === "") {
    throw new Error("the task is empty");
  }
  if (options.budget !== undefined) {
    if (!Number.isInteger(options.budget) || options.budget < MIN_BUDGET || options.budget > MAX_BUDGET) {
      throw new Error(`the budget must be an integer between ${MIN_BUDGET} and ${MAX_BUDGET}`);
    }
  }
  const res: ContextParams = { query: trimmed };
  for (const [key, value] of Object.entries(options) as [keyof ContextOptions, unknown][]) {
    if (value !== undefined && value !== null) {
      (res as unknown as Record<string, unknown>)[key] = value;
    }
  }
  if (res.activeUri === undefined && editor && isIndexed(editor)) {
    res.activeUri = editor.uri;
    res.position = { line: editor.line, character: editor.character };
  }
  return res;
}

function isIndexed(editor: EditorState): boolean {
  return editor.scheme === "file" && (LANGUAGE_IDS as readonly string[]).includes(editor.languageId);
}

/** How a rendered context is shown: the document language and the file extension. */
export interface Rendering {
  languageId: string;
  extension: string;
}

export function renderingFor(format: Format | undefined): Rendering {
  switch (format) {
    case "markdown":
      return { languageId: "markdown", extension: ".md" };
    case "json":
      return { languageId: "json", extension: ".json" };
    case "xml":
    case undefined:
      return { languageId: "xml", extension: ".xml" };
  }
}

/** The path of the virtual document showing the context for a task. */
export function documentPath(query: string, format: Format | undefined): string {
  const slug =
    query
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/, "") || "task";
  return `/context-${slug}${renderingFor(format).extension}`;
}

/** One line describing a result: intent, items and tokens. */
export function contextSummary(result: ContextResult): string {
  const n_items = result.items.length;
  return `${result.intent.kind}, ${n_items} item${n_items === 1 ? "" : "s"}, ${result.budget.used}/${result.budget.limit} tokens`;
}

/** A one-line description of a codectx.status answer. */
export function statusSummary(status: StatusResult): string {
  let text = `${status.state}: ${status.files} files, ${status.definitions} definitions, ${status.references} references`;
  if (status.state === "ready") {
    text += ` (indexed in ${status.indexMs} ms)`;
  }
  return text;
}
