//! The documented protocol matches the code: the `### Arguments` and `### Result` tables of
//! `docs/protocol.md` list exactly the fields of `codectx.context`, and
//! `docs/lsp-extensions.md` records the hash of `server/src/lsp/ext.rs` (as rust-analyzer's
//! tidy test does), so a changed protocol without reviewed docs fails the build.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use codectx::engine::{ContextRequest, Engine};
use codectx::index::{Index, IndexConfig};
use codectx::lsp::ext;
use codectx::lsp::state::Encoding;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("server/ has a parent")
        .to_owned()
}

fn read(relative: &str) -> String {
    let path = repo_root().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The lines of a Markdown section: from the line `heading` (which must occur exactly once)
/// to the next heading of the same or a higher level.
fn section<'a>(doc: &'a str, heading: &str) -> Vec<&'a str> {
    let level = heading.chars().take_while(|ch| *ch == '#').count();
    let n_headings = doc
        .lines()
        .filter(|line| line.trim_end() == heading)
        .count();
    assert_eq!(
        n_headings, 1,
        "docs/protocol.md must have exactly one line {heading:?}"
    );
    let mut lines = doc
        .lines()
        .skip_while(|line| line.trim_end() != heading)
        .skip(1);
    let mut res = Vec::new();
    for line in lines.by_ref() {
        let hashes = line.chars().take_while(|ch| *ch == '#').count();
        if hashes > 0 && hashes <= level && line[hashes..].starts_with(' ') {
            break;
        }
        res.push(line);
    }
    res
}

/// The field names (first column, in backticks) of each Markdown table in `lines`, in order,
/// paired with the nearest heading above the table (empty before any heading).
fn tables<'a>(lines: &[&'a str]) -> Vec<(&'a str, Vec<String>)> {
    let mut res: Vec<(&str, Vec<String>)> = Vec::new();
    let mut heading = "";
    let mut in_table = false;
    for line in lines {
        let line = line.trim();
        if line.starts_with('#') {
            heading = line.trim_start_matches('#').trim();
        }
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        if !in_table {
            res.push((heading, Vec::new()));
            in_table = true;
        }
        let first_cell = line
            .trim_matches('|')
            .split('|')
            .next()
            .unwrap_or("")
            .trim();
        if let Some(name) = first_cell
            .strip_prefix('`')
            .and_then(|rest| rest.strip_suffix('`'))
        {
            res.last_mut().expect("a table").1.push(name.to_owned());
        }
    }
    res
}

fn table_under<'a>(tables: &'a [(&str, Vec<String>)], heading_prefix: &str) -> &'a [String] {
    let matches: Vec<&(&str, Vec<String>)> = tables
        .iter()
        .filter(|(heading, _)| heading.starts_with(heading_prefix))
        .collect();
    assert_eq!(
        matches.len(),
        1,
        "docs/protocol.md: expected one table under a heading starting with {heading_prefix:?} in `### Result`"
    );
    &matches[0].1
}

fn sorted(names: impl IntoIterator<Item = impl Into<String>>) -> BTreeSet<String> {
    names.into_iter().map(Into::into).collect()
}

fn keys(value: &serde_json::Value) -> BTreeSet<String> {
    value
        .as_object()
        .unwrap_or_else(|| panic!("expected an object, got {value}"))
        .keys()
        .cloned()
        .collect()
}

#[track_caller]
fn check_fields(what: &str, documented: &[String], actual: BTreeSet<String>) {
    let documented_set = sorted(documented.iter().cloned());
    assert_eq!(
        documented.len(),
        documented_set.len(),
        "docs/protocol.md: {what} lists a field twice: {documented:?}"
    );
    assert_eq!(
        documented_set, actual,
        "docs/protocol.md: the documented {what} (left) differ from the code's (right); update the doc or the code"
    );
}

#[test]
fn protocol_doc_arguments_table_lists_every_context_field() {
    let doc = read("docs/protocol.md");
    let arguments = tables(&section(&doc, "### Arguments"));
    assert!(
        !arguments.is_empty(),
        "docs/protocol.md: no table under `### Arguments`"
    );
    // The order is the doc's too: clients show the fields in this order.
    let expected: Vec<String> = ext::CONTEXT_FIELDS
        .iter()
        .map(|field| (*field).to_owned())
        .collect();
    assert_eq!(
        arguments[0].1, expected,
        "docs/protocol.md: the `### Arguments` table (left) differs from `lsp::ext::CONTEXT_FIELDS` (right)"
    );
}

#[test]
fn protocol_doc_result_tables_list_every_key_of_a_real_result() {
    let fixture = repo_root().join("fixtures/py_shop/repo");
    let index = Index::build(vec![fixture], &IndexConfig::default());
    let mut request =
        ContextRequest::new("fix the crash in DatabaseClient.connect when the URL is empty");
    request.budget = 1200;
    let result = Engine::new()
        .assemble_context(&index, &request)
        .expect("a valid request");
    let json = ext::context_result_json(&index, &result, Encoding::Utf16);

    let doc = read("docs/protocol.md");
    let result_tables = tables(&section(&doc, "### Result"));
    assert!(
        !result_tables.is_empty(),
        "docs/protocol.md: no table under `### Result`"
    );
    check_fields("top-level result fields", &result_tables[0].1, keys(&json));

    let items = json["items"].as_array().expect("items is an array");
    let omitted = json["omitted"].as_array().expect("omitted is an array");
    let files = json["files"].as_array().expect("files is an array");
    assert!(
        !items.is_empty() && !files.is_empty(),
        "the fixture query found nothing"
    );
    let item_table = table_under(&result_tables, "Item");
    for item in items {
        check_fields("item fields", item_table, keys(item));
    }
    let omitted_table: Vec<String> = item_table
        .iter()
        .chain(table_under(&result_tables, "Omitted item"))
        .cloned()
        .collect();
    for item in omitted {
        check_fields("omitted item fields", &omitted_table, keys(item));
    }
    check_fields(
        "intent fields",
        table_under(&result_tables, "Intent"),
        keys(&json["intent"]),
    );
    check_fields(
        "budget fields",
        table_under(&result_tables, "Budget"),
        keys(&json["budget"]),
    );
    for file in files {
        check_fields(
            "file fields",
            table_under(&result_tables, "File"),
            keys(file),
        );
    }

    // A usage question at a budget too small for every caller lists the uses left.
    let mut request = ContextRequest::new("Where is DatabaseClient.connect called?");
    request.budget = 300;
    let result = Engine::new()
        .assemble_context(&index, &request)
        .expect("a valid request");
    let json = ext::context_result_json(&index, &result, Encoding::Utf16);
    check_fields("top-level result fields", &result_tables[0].1, keys(&json));
    let uses_left = json["usesLeft"].as_array().expect("usesLeft is an array");
    assert!(
        !uses_left.is_empty(),
        "the fixture usage query left no use out"
    );
    for uses in uses_left {
        check_fields(
            "uses left fields",
            table_under(&result_tables, "Uses left"),
            keys(uses),
        );
        for site in uses["uses"].as_array().expect("uses is an array") {
            check_fields(
                "use fields",
                table_under(&result_tables, "Use fields"),
                keys(site),
            );
        }
    }
}

/// FNV-1a, 64 bits, over the text with `\r\n` read as `\n` (so a checkout with CRLF line
/// ends hashes the same).
fn fnv1a_64(text: &str) -> u64 {
    let normalized = text.replace("\r\n", "\n");
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in normalized.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[test]
fn fnv1a_64_matches_the_reference_values() {
    assert_eq!(fnv1a_64(""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a_64("a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a_64("a\r\nb"), fnv1a_64("a\nb"));
}

#[test]
fn lsp_extensions_doc_records_the_hash_of_ext_rs() {
    let actual = format!("{:016x}", fnv1a_64(&read("server/src/lsp/ext.rs")));
    let doc = read("docs/lsp-extensions.md");
    let prefix = "<!-- ext.rs hash: ";
    let recorded = doc
        .lines()
        .find_map(|line| line.trim().strip_prefix(prefix)?.strip_suffix(" -->"))
        .map(str::trim);
    assert_eq!(
        recorded,
        Some(actual.as_str()),
        "server/src/lsp/ext.rs has changed (its hash is {actual}): review docs/lsp-extensions.md and \
         docs/protocol.md for the change, then record the new hash there as the line \
         `{prefix}{actual} -->`"
    );
}
