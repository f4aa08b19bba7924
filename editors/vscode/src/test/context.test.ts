// Unit tests of argument building and rendering choice (src/context.ts).

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { buildContextArguments, contextSummary, documentPath, EditorState, renderingFor, statusSummary } from "../context";
import { ContextResult, StatusResult } from "../lsp_ext";

const pythonEditor: EditorState = {
  uri: "file:///repo/shop/db.py",
  languageId: "python",
  scheme: "file",
  line: 66,
  character: 8,
};

describe("buildContextArguments", () => {
  it("sends the trimmed query alone when there is no editor and no option", () => {
    assert.deepEqual(buildContextArguments("  fix the crash \n"), { query: "fix the crash" });
  });

  it("adds the active editor's file and cursor", () => {
    assert.deepEqual(buildContextArguments("fix it", { format: "markdown" }, pythonEditor), {
      query: "fix it",
      format: "markdown",
      activeUri: "file:///repo/shop/db.py",
      position: { line: 66, character: 8 },
    });
  });

  it("keeps a file named in the options over the active editor", () => {
    const args = buildContextArguments("fix it", { activeUri: "file:///repo/shop/app.py" }, pythonEditor);
    assert.deepEqual(args, { query: "fix it", activeUri: "file:///repo/shop/app.py" });
  });

  it("leaves out editors the server does not index", () => {
    const readme = { ...pythonEditor, uri: "file:///repo/README.md", languageId: "markdown" };
    assert.deepEqual(buildContextArguments("fix it", {}, readme), { query: "fix it" });
    const untitled = { ...pythonEditor, uri: "untitled:Untitled-1", scheme: "untitled" };
    assert.deepEqual(buildContextArguments("fix it", {}, untitled), { query: "fix it" });
  });

  it("passes every option and drops undefined ones", () => {
    const args = buildContextArguments("add a test", {
      budget: 1200,
      intent: "test_writing",
      tokenizer: "cl100k_base",
      pinnedUris: ["file:///repo/a.py"],
      format: undefined,
    });
    assert.deepEqual(args, {
      query: "add a test",
      budget: 1200,
      intent: "test_writing",
      tokenizer: "cl100k_base",
      pinnedUris: ["file:///repo/a.py"],
    });
  });

  it("refuses an empty query and a budget out of range", () => {
    assert.throws(() => buildContextArguments("   "), /the task is empty/);
    assert.throws(() => buildContextArguments("x", { budget: 100 }), /between 256 and 200000/);
    assert.throws(() => buildContextArguments("x", { budget: 1000.5 }), /between 256 and 200000/);
  });
});

describe("renderingFor", () => {
  it("maps each format to a document language and extension", () => {
    assert.deepEqual(renderingFor("markdown"), { languageId: "markdown", extension: ".md" });
    assert.deepEqual(renderingFor("json"), { languageId: "json", extension: ".json" });
    assert.deepEqual(renderingFor("xml"), { languageId: "xml", extension: ".xml" });
    assert.deepEqual(renderingFor(undefined), { languageId: "xml", extension: ".xml" }, "the server's default is xml");
  });

  it("names the virtual document after the task", () => {
    assert.equal(
      documentPath("Fix the crash in DatabaseClient.connect when the URL is empty", "markdown"),
      "/context-fix-the-crash-in-databaseclient-connect.md",
    );
    assert.equal(documentPath("???", "xml"), "/context-task.xml");
  });
});

describe("summaries", () => {
  it("describes a context result", () => {
    const result = {
      intent: { kind: "bug_fix", confidence: 0.9, signals: [] },
      budget: { limit: 8000, used: 904, tokenizer: "o200k_base" },
      items: [{}, {}],
    } as unknown as ContextResult;
    assert.equal(contextSummary(result), "bug_fix, 2 items, 904/8000 tokens");
  });

  it("describes a status", () => {
    const status = { state: "ready", files: 17, definitions: 143, references: 900, indexMs: 55 } as StatusResult;
    assert.equal(statusSummary(status), "ready: 17 files, 143 definitions, 900 references (indexed in 55 ms)");
    assert.equal(statusSummary({ ...status, state: "indexing" }), "indexing: 17 files, 143 definitions, 900 references");
  });
});
