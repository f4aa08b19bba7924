// This file mirrors server/src/lsp/ext.rs (and the argument checks of
// server/src/lsp/handlers/context.rs): the custom commands of `codectx serve` and their JSON
// shapes. docs/protocol.md documents them; src/test/protocol.test.ts fails when its tables and
// the field lists below disagree.
//
// Invariant: no `vscode` import, so the node tests can load this file.

/** Assembles code context for a task (answered by the context engine). */
export const CONTEXT = "codectx.context";
/** Reports the index state; `{ wait: true }` waits for the first index. */
export const STATUS = "codectx.status";
/** Rebuilds the index from disk and reports the status. */
export const REINDEX = "codectx.reindex";

export type Format = "xml" | "markdown" | "json";
export type Tokenizer = "o200k_base" | "cl100k_base";
export type IntentKind =
  | "bug_fix"
  | "test_writing"
  | "refactor"
  | "implementation"
  | "usage_exploration"
  | "definition_lookup";
export type Section = "definitions" | "code" | "callers" | "tests" | "imports";
export type Fidelity = "full" | "standard" | "compact";

/** The bounds of `ContextParams.budget` (`engine::MIN_BUDGET`, `engine::MAX_BUDGET`). */
export const MIN_BUDGET = 256;
export const MAX_BUDGET = 200_000;

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** The argument object of `codectx.context`; only `query` is required. */
export interface ContextParams {
  query: string;
  budget?: number;
  format?: Format;
  intent?: IntentKind;
  activeUri?: string;
  /** Needs `activeUri`; in the position encoding negotiated at `initialize`. */
  position?: Position;
  pinnedUris?: string[];
  tokenizer?: Tokenizer;
}

export interface Intent {
  kind: IntentKind;
  confidence: number;
  signals: string[];
}

export interface Budget {
  limit: number;
  used: number;
  tokenizer: Tokenizer;
}

export interface ContextItem {
  section: Section;
  path: string;
  uri: string | null;
  range: Range | null;
  symbol: string | null;
  kind: string | null;
  fidelity: Fidelity;
  tokens: number;
  score: number;
  reasons: string[];
  /** The whole lines of the definition a code block shows part of (a window), else null. */
  partOf: Range | null;
}

/** Why an omitted item was left out. */
export type Omission = "budget" | "overlap" | "relevance" | "unnamed-cards";

/** A candidate left out of the answer: an item, and why. */
export interface OmittedItem extends ContextItem {
  omission: Omission;
}

export interface ContextFile {
  path: string;
  score: number;
  reasons: string[];
  /** Some item of the answer is from this file. */
  shown: boolean;
}

/** A use of a target that the answer does not show. */
export interface Use {
  symbol: string;
  path: string;
  uri: string | null;
  /** 0-based. */
  line: number;
}

/** The uses of one target that the answer does not show. */
export interface UsesLeft {
  of: string;
  uses: Use[];
}

/** The result of `codectx.context`. */
export interface ContextResult {
  intent: Intent;
  budget: Budget;
  items: ContextItem[];
  files: ContextFile[];
  omitted: OmittedItem[];
  /** Names the task writes as code that the workspace neither defines nor uses. */
  unresolved: string[];
  /** For usage questions, refactors and renames: the uses of each named target not shown. */
  usesLeft: UsesLeft[];
  /** The context, rendered in the requested format. */
  text: string;
  /** Milliseconds per engine stage. */
  timingsMs: Record<string, number>;
}

/** The argument object of `codectx.status`. */
export interface StatusParams {
  wait?: boolean;
}

/** The result of `codectx.status` and `codectx.reindex`. */
export interface StatusResult {
  state: "indexing" | "ready";
  roots: string[];
  files: number;
  definitions: number;
  references: number;
  openDocuments: number;
  skipped: Record<string, number>;
  indexMs: number;
  memoryBytes: number | null;
}

// The field lists, at run time, for the protocol test. The type checks under each list make
// `tsc` fail when a list and its interface disagree.

type Exhaustive<Keys, Listed> = [Exclude<Keys, Listed>] extends [never] ? true : never;

export const CONTEXT_PARAMS_FIELDS = [
  "query",
  "budget",
  "format",
  "intent",
  "activeUri",
  "position",
  "pinnedUris",
  "tokenizer",
] as const satisfies readonly (keyof ContextParams)[];
export const contextParamsExhaustive: Exhaustive<keyof ContextParams, (typeof CONTEXT_PARAMS_FIELDS)[number]> = true;

export const CONTEXT_RESULT_FIELDS = [
  "intent",
  "budget",
  "items",
  "files",
  "omitted",
  "unresolved",
  "usesLeft",
  "text",
  "timingsMs",
] as const satisfies readonly (keyof ContextResult)[];
export const contextResultExhaustive: Exhaustive<keyof ContextResult, (typeof CONTEXT_RESULT_FIELDS)[number]> = true;

export const INTENT_FIELDS = ["kind", "confidence", "signals"] as const satisfies readonly (keyof Intent)[];
export const intentExhaustive: Exhaustive<keyof Intent, (typeof INTENT_FIELDS)[number]> = true;

export const BUDGET_FIELDS = ["limit", "used", "tokenizer"] as const satisfies readonly (keyof Budget)[];
export const budgetExhaustive: Exhaustive<keyof Budget, (typeof BUDGET_FIELDS)[number]> = true;

export const ITEM_FIELDS = [
  "section",
  "path",
  "uri",
  "range",
  "symbol",
  "kind",
  "fidelity",
  "tokens",
  "score",
  "reasons",
  "partOf",
] as const satisfies readonly (keyof ContextItem)[];
export const itemExhaustive: Exhaustive<keyof ContextItem, (typeof ITEM_FIELDS)[number]> = true;

export const OMITTED_ITEM_FIELDS = [...ITEM_FIELDS, "omission"] as const satisfies readonly (keyof OmittedItem)[];
export const omittedItemExhaustive: Exhaustive<keyof OmittedItem, (typeof OMITTED_ITEM_FIELDS)[number]> = true;

export const USES_LEFT_FIELDS = ["of", "uses"] as const satisfies readonly (keyof UsesLeft)[];
export const usesLeftExhaustive: Exhaustive<keyof UsesLeft, (typeof USES_LEFT_FIELDS)[number]> = true;

export const USE_FIELDS = ["symbol", "path", "uri", "line"] as const satisfies readonly (keyof Use)[];
export const useExhaustive: Exhaustive<keyof Use, (typeof USE_FIELDS)[number]> = true;

export const FILE_FIELDS = ["path", "score", "reasons", "shown"] as const satisfies readonly (keyof ContextFile)[];
export const fileExhaustive: Exhaustive<keyof ContextFile, (typeof FILE_FIELDS)[number]> = true;
