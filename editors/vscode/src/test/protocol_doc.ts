// Reads the field tables of docs/protocol.md: in the `## codectx.context` section (the whole
// file when there is none), every `###`/`####` heading followed by a Markdown table whose
// first column is the field name in backticks. Fenced code blocks are skipped.

export type FieldTables = Map<string, string[]>;

export function fieldTables(markdown: string): FieldTables {
  const lines = markdown.split(/\r?\n/);
  const hasContextSection = lines.some((line) => /^## .*codectx\.context/.test(line));
  const tables: FieldTables = new Map();
  let inSection = !hasContextSection;
  let fence: string | undefined;
  let heading: string | undefined;
  let rowIdx = 0;
  for (const line of lines) {
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      if (fence === undefined) {
        fence = fenceMatch[1];
      } else if (fenceMatch[1].startsWith(fence)) {
        fence = undefined;
      }
      continue;
    }
    if (fence !== undefined) {
      continue;
    }
    if (/^## /.test(line) && hasContextSection) {
      inSection = /codectx\.context/.test(line);
      heading = undefined;
      continue;
    }
    if (!inSection) {
      continue;
    }
    const headingMatch = /^#{3,4} (.*)$/.exec(line);
    if (headingMatch) {
      heading = headingMatch[1].trim();
      rowIdx = 0;
      continue;
    }
    if (heading === undefined || !line.startsWith("|")) {
      if (line.trim() !== "" && rowIdx > 0) {
        // The first table after a heading is the one that counts.
        heading = undefined;
      }
      continue;
    }
    rowIdx += 1;
    if (rowIdx <= 2) {
      continue; // The header row and the separator.
    }
    const firstCell = line.split("|")[1] ?? "";
    const name = /`([^`]+)`/.exec(firstCell);
    if (!name) {
      continue;
    }
    const fields = tables.get(heading) ?? [];
    fields.push(name[1]);
    tables.set(heading, fields);
  }
  return tables;
}

/** What is in one list and not the other, for a readable failure. */
export function difference(documented: readonly string[], mirrored: readonly string[]): string[] {
  const res: string[] = [];
  for (const name of documented) {
    if (!mirrored.includes(name)) {
      res.push(`${name} is in docs/protocol.md but not in src/lsp_ext.ts`);
    }
  }
  for (const name of mirrored) {
    if (!documented.includes(name)) {
      res.push(`${name} is in src/lsp_ext.ts but not in docs/protocol.md`);
    }
  }
  return res;
}
