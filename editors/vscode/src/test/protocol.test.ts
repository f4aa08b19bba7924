// src/lsp_ext.ts must agree with docs/protocol.md, the contract of codectx.context: the
// `### Arguments` table lists the fields of ContextParams, the `### Result` table those of
// ContextResult, and the optional `#### Intent/Budget/Item/Omitted item/File fields` tables
// those of the nested objects (an omitted item's table lists what it adds to an item's). Dotted names in the Result table (`intent.kind`, `items[].path`) are
// checked against the nested objects too.

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";

import * as ext from "../lsp_ext";
import { difference, fieldTables } from "./protocol_doc";

const PROTOCOL_MD = path.resolve(__dirname, "../../../../docs/protocol.md");

const NESTED: Record<string, readonly string[]> = {
  intent: ext.INTENT_FIELDS,
  budget: ext.BUDGET_FIELDS,
  items: ext.ITEM_FIELDS,
  omitted: ext.OMITTED_ITEM_FIELDS,
  files: ext.FILE_FIELDS,
  usesLeft: ext.USES_LEFT_FIELDS,
};

const NESTED_TABLES: Record<string, readonly string[]> = {
  "Intent fields": ext.INTENT_FIELDS,
  "Budget fields": ext.BUDGET_FIELDS,
  "Item fields": ext.ITEM_FIELDS,
  "Omitted item fields": ["omission"],
  "File fields": ext.FILE_FIELDS,
  "Uses left fields": ext.USES_LEFT_FIELDS,
  "Use fields": ext.USE_FIELDS,
};

function agree(documented: readonly string[] | undefined, mirrored: readonly string[], what: string): void {
  assert.ok(documented, `docs/protocol.md has no ${what} table`);
  assert.deepEqual(difference(documented, mirrored), [], `${what}: docs/protocol.md and src/lsp_ext.ts disagree`);
}

describe("docs/protocol.md and src/lsp_ext.ts", () => {
  const tables = fieldTables(fs.readFileSync(PROTOCOL_MD, "utf8"));

  it("list the same codectx.context arguments", () => {
    agree(tables.get("Arguments"), ext.CONTEXT_PARAMS_FIELDS, "### Arguments");
  });

  it("list the same codectx.context result fields", () => {
    const names = tables.get("Result") ?? [];
    agree(
      names.filter((name) => !name.includes(".")),
      ext.CONTEXT_RESULT_FIELDS,
      "### Result",
    );
    const nested = new Map<string, string[]>();
    for (const name of names.filter((name) => name.includes("."))) {
      const [parent, ...rest] = name.replace("[]", "").split(".");
      nested.set(parent, [...(nested.get(parent) ?? []), rest.join(".")]);
    }
    for (const [parent, fields] of nested) {
      assert.ok(NESTED[parent], `### Result: ${parent} has no nested fields in src/lsp_ext.ts`);
      agree(fields, NESTED[parent], `### Result (${parent}.*)`);
    }
  });

  it("list the same fields of the nested result objects", () => {
    for (const [heading, fields] of Object.entries(NESTED_TABLES)) {
      if (tables.has(heading)) {
        agree(tables.get(heading), fields, `#### ${heading}`);
      }
    }
  });
});

describe("fieldTables", () => {
  it("reads the first table after each heading of the codectx.context section, outside code", () => {
    const markdown = [
      "# Protocol",
      "## `codectx.status`",
      "### Arguments",
      "| field | meaning |",
      "| --- | --- |",
      "| `wait` | waits |",
      "## `codectx.context`",
      "### Arguments",
      "",
      "| field | type |",
      "| --- | --- |",
      "| `query` | string |",
      "| `budget` (optional) | integer |",
      "",
      "Some text.",
      "",
      "| other | table |",
      "| --- | --- |",
      "| `ignored` | x |",
      "```markdown",
      "### Result",
      "| a | b |",
      "| --- | --- |",
      "| `fenced` | x |",
      "```",
      "### Result",
      "| field | meaning |",
      "|---|---|",
      "| `text` | the context |",
      "| `intent.kind` | the intent |",
    ].join("\n");
    const tables = fieldTables(markdown);
    assert.deepEqual(tables.get("Arguments"), ["query", "budget"]);
    assert.deepEqual(tables.get("Result"), ["text", "intent.kind"]);
  });
});
