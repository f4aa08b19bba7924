//! Data-driven fixture tests: every `fixtures/<name>/cases.toml` is checked against an index
//! built over `fixtures/<name>/repo`, so adding a fixture needs no Rust.
//!
//! - `[[definition]]`: the unique `cursor` snippet (`$0` marks the offset) goes to `expect`,
//!   in order, at the top of the results. A case with `fixme = "why"` is known wrong: the
//!   current answer `actual` is asserted instead, and `expect` stays the right answer.
//! - `[[symbols]]`: `search_symbols(query, 20)` starts with `expect_top`, in order.
//! - `[[outline]]`: the CLI's outline tree of the file, snapshotted.
//! - `[[context]]`: parsed (the schema is checked) but run by the context engine's tests.
//!
//! Per fixture, the `codectx index` counts and the skipped files are snapshotted too, so a
//! change in discovery shows up in review. All failures of all fixtures are reported
//! together, with the full result lists, before the test fails.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use codectx::cli::commands::{count_by_language, outline_tree, render_outline};
use codectx::index::{FilePosition, Index, IndexConfig};
use serde::Deserialize;

/// One `cases.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    #[serde(default)]
    definition: Vec<DefinitionCase>,
    #[serde(default)]
    symbols: Vec<SymbolsCase>,
    #[serde(default)]
    outline: Vec<OutlineCase>,
    #[serde(default)]
    context: Vec<ContextCase>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DefinitionCase {
    name: String,
    /// Relative to the fixture's `repo/`.
    file: String,
    /// A snippet occurring exactly once in `file`, with `$0` at the cursor.
    cursor: String,
    /// `path:name (kind)` entries expected in this order at the top of the results.
    expect: Vec<String>,
    /// Set when the index is known to answer wrongly: why, and what to fix.
    fixme: Option<String>,
    /// With `fixme`: the current (wrong) top results, asserted so a fix is noticed.
    actual: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SymbolsCase {
    name: String,
    query: String,
    expect_top: Vec<String>,
    fixme: Option<String>,
    actual: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OutlineCase {
    file: String,
}

/// Run by the context engine's tests; only the schema is checked here.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct ContextCase {
    name: String,
    query: String,
    intent: Option<String>,
    budget_tokens: Option<u32>,
    #[serde(default)]
    expect_files: Vec<String>,
    #[serde(default)]
    expect_symbols: Vec<String>,
}

/// `path:name (kind)`, the form expectations are written in.
fn describe(index: &Index, def: codectx::index::DefId) -> String {
    let Some(data) = index.file(def.file) else {
        return format!("<dead file {def:?}>");
    };
    let Some(def) = index.def(def) else {
        return format!("<dead def {def:?}>");
    };
    format!("{}:{} ({})", data.path, def.name, def.kind)
}

/// Compares the top of `got` with `expect` (or, for a fixme case, with `actual`); returns a
/// failure message, if any.
fn check_top(
    got: &[String],
    expect: &[String],
    fixme: Option<&str>,
    actual: Option<&[String]>,
) -> Option<String> {
    let top = |n: usize| &got[..n.min(got.len())];
    match (fixme, actual) {
        (None, None) => (top(expect.len()) != expect).then(|| format!("expected {expect:?}")),
        (Some(why), Some(actual)) => {
            if top(expect.len()) == expect {
                Some(format!(
                    "FIXED (remove `fixme` and `actual`): now answers {expect:?}; fixme was {why:?}"
                ))
            } else if top(actual.len()) != actual {
                Some(format!(
                    "fixme case changed: expected the known wrong answer {actual:?} (right answer {expect:?}; fixme: {why})"
                ))
            } else {
                None
            }
        }
        _ => Some("`fixme` and `actual` go together".to_owned()),
    }
}

/// The full result list of a failed case, numbered.
fn render_results(got: &[String]) -> String {
    if got.is_empty() {
        return "    got: nothing".to_owned();
    }
    let mut out = String::from("    got:");
    for (idx, entry) in got.iter().enumerate() {
        write!(out, "\n      {}. {entry}", idx + 1).unwrap();
    }
    out
}

/// The byte offset of `$0` in the single occurrence of `cursor` in `text`.
fn cursor_offset(text: &str, cursor: &str) -> Result<u32, String> {
    let marker = cursor
        .find("$0")
        .ok_or_else(|| format!("cursor {cursor:?} has no $0"))?;
    let needle = cursor.replacen("$0", "", 1);
    let starts: Vec<usize> = text
        .match_indices(&needle)
        .map(|(start, _)| start)
        .collect();
    match starts.as_slice() {
        [start] => Ok((start + marker) as u32),
        [] => Err(format!("cursor {needle:?} not found")),
        _ => Err(format!(
            "cursor {needle:?} occurs {} times; make it unique",
            starts.len()
        )),
    }
}

fn check_definitions(index: &Index, cases: &[DefinitionCase], failures: &mut Vec<String>) {
    for case in cases {
        let Some(file) = index.file_id(0, &case.file) else {
            failures.push(format!(
                "definition {}: {} is not indexed",
                case.name, case.file
            ));
            continue;
        };
        let data = index.file(file).expect("live file");
        let offset = match cursor_offset(&data.text, &case.cursor) {
            Ok(offset) => offset,
            Err(err) => {
                failures.push(format!("definition {}: {}: {err}", case.name, case.file));
                continue;
            }
        };
        let got: Vec<String> = index
            .goto_definition(FilePosition { file, offset })
            .iter()
            .map(|target| describe(index, target.def))
            .collect();
        if let Some(problem) = check_top(
            &got,
            &case.expect,
            case.fixme.as_deref(),
            case.actual.as_deref(),
        ) {
            failures.push(format!(
                "definition {} ({} at {:?}): {problem}\n{}",
                case.name,
                case.file,
                case.cursor,
                render_results(&got)
            ));
        }
    }
}

fn check_symbols(index: &Index, cases: &[SymbolsCase], failures: &mut Vec<String>) {
    for case in cases {
        let got: Vec<String> = index
            .search_symbols(&case.query, 20)
            .iter()
            .map(|hit| format!("{} [{}]", describe(index, hit.def), hit.tier.label()))
            .collect();
        let names: Vec<String> = got
            .iter()
            .map(|entry| {
                entry
                    .rsplit_once(" [")
                    .map_or(entry.as_str(), |(name, _)| name)
            })
            .map(str::to_owned)
            .collect();
        if let Some(problem) = check_top(
            &names,
            &case.expect_top,
            case.fixme.as_deref(),
            case.actual.as_deref(),
        ) {
            failures.push(format!(
                "symbols {} (query {:?}): {problem}\n{}",
                case.name,
                case.query,
                render_results(&got)
            ));
        }
    }
}

/// The `codectx index` counts per language and the skipped files, relative to `repo`.
fn index_report(index: &Index, repo: &Path) -> String {
    let (languages, total) = count_by_language(index);
    let mut out = String::new();
    for (lang, counts) in languages.iter().chain([(&"total", &total)]) {
        writeln!(
            out,
            "{lang}: files {}, bytes {}, definitions {}, imports {}, references {}, files with syntax errors {}",
            counts.files,
            counts.bytes,
            counts.definitions,
            counts.imports,
            counts.references,
            counts.files_with_syntax_errors
        )
        .unwrap();
    }
    let mut skipped: BTreeMap<String, &str> = BTreeMap::new();
    for skip in index.skipped() {
        let rel = skip.path.strip_prefix(repo).unwrap_or(&skip.path);
        skipped.insert(rel.display().to_string(), skip.reason.label());
    }
    writeln!(out, "skipped: {}", skipped.len()).unwrap();
    for (path, reason) in &skipped {
        writeln!(out, "  {path}: {reason}").unwrap();
    }
    let mut manifests: Vec<&str> = index.manifests().iter().map(|m| &*m.path).collect();
    manifests.sort_unstable();
    writeln!(out, "manifests: {manifests:?}").unwrap();
    out
}

fn outline_of(index: &Index, file: &str) -> Result<String, String> {
    let file_id = index
        .file_id(0, file)
        .ok_or_else(|| format!("{file} is not indexed"))?;
    let data = index.file(file_id).expect("live file");
    let mut out = String::new();
    render_outline(
        &outline_tree(&data.syntax.defs, &data.line_index),
        0,
        &mut out,
    );
    Ok(out)
}

#[test]
fn fixture_cases_match_their_expectations() {
    let mut failures: Vec<String> = Vec::new();
    insta::glob!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures"),
        "*/cases.toml",
        |cases_path| {
            let fixture_dir = cases_path.parent().expect("cases.toml is in a fixture dir");
            let fixture = fixture_dir
                .file_name()
                .expect("fixture dir has a name")
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(cases_path).expect("cases.toml is readable");
            let cases: Cases = match toml::from_str(&text) {
                Ok(cases) => cases,
                Err(err) => {
                    failures.push(format!("{fixture}/cases.toml does not parse: {err}"));
                    return;
                }
            };
            let repo: PathBuf = fixture_dir.join("repo");
            let index = Index::build(vec![repo.clone()], &IndexConfig::default());
            let mut fixture_failures = Vec::new();
            check_definitions(&index, &cases.definition, &mut fixture_failures);
            check_symbols(&index, &cases.symbols, &mut fixture_failures);
            // Shown now, so that a snapshot failure below does not hide them.
            for failure in &fixture_failures {
                eprintln!("[{fixture}] {failure}");
            }
            failures.extend(
                fixture_failures
                    .into_iter()
                    .map(|failure| format!("[{fixture}] {failure}")),
            );

            for case in &cases.context {
                for path in &case.expect_files {
                    if index.file_id(0, path).is_none() {
                        failures.push(format!(
                            "[{fixture}] context {}: expected file {path} is not indexed",
                            case.name
                        ));
                    }
                }
            }

            // Named by fixture, not by the glob's suffix, which depends on how many
            // fixtures there are.
            let mut settings = insta::Settings::clone_current();
            settings.set_snapshot_suffix(fixture.as_str());
            settings.bind(|| {
                insta::assert_snapshot!("index", index_report(&index, &repo));
                for case in &cases.outline {
                    match outline_of(&index, &case.file) {
                        Ok(outline) => insta::assert_snapshot!(
                            format!("outline_{}", case.file.replace(['/', '.'], "_")),
                            outline,
                            &case.file
                        ),
                        Err(err) => failures.push(format!("[{fixture}] outline: {err}")),
                    }
                }
            });
        }
    );
    assert!(
        failures.is_empty(),
        "{} fixture case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn cursor_snippets_must_be_unique() {
    assert_eq!(
        cursor_offset("ab ab", "a$0b"),
        Err("cursor \"ab\" occurs 2 times; make it unique".to_owned())
    );
    assert_eq!(cursor_offset("xx ab", "a$0b"), Ok(4));
    assert!(cursor_offset("xx", "y$0").is_err());
}
