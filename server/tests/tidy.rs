//! House rules that are checked, not only written down (STYLE.md 2.1 and 2.4, as
//! rust-analyzer's `tidy.rs`): module docs, the direction of dependencies between layers,
//! no ignored or `should_panic` tests, and the capture vocabulary of the queries.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("server/ has a parent")
        .to_owned()
}

/// Every file under `dir` whose name ends with `extension`, sorted.
fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut res = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|name| name == "target") {
                    continue;
                }
                stack.push(path);
            } else if path.extension().is_some_and(|ext| ext == extension) {
                res.push(path);
            }
        }
    }
    res.sort();
    res
}

/// A Rust source file of `server/src`, with its path relative to `server/src` (`lsp/ext.rs`).
struct SourceFile {
    relative: String,
    text: String,
}

fn server_sources() -> Vec<SourceFile> {
    let src = repo_root().join("server/src");
    files_with_extension(&src, "rs")
        .into_iter()
        .map(|path| SourceFile {
            relative: path
                .strip_prefix(&src)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/"),
            text: std::fs::read_to_string(&path).expect("readable source"),
        })
        .collect()
}

/// The text with the contents of raw string literals (`r#"..."#`, fixtures of the code the
/// tests index) blanked out.
fn without_raw_strings(text: &str) -> String {
    let mut res = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("r#\"") {
        let hashes = rest[start + 1..]
            .chars()
            .take_while(|ch| *ch == '#')
            .count();
        let open_len = 1 + hashes + 1;
        let close = format!("\"{}", "#".repeat(hashes));
        res.push_str(&rest[..start]);
        let body_start = start + open_len;
        match rest[body_start..].find(&close) {
            Some(body_len) => {
                // Keep the line structure so line numbers in messages stay right.
                let n_lines = rest[body_start..body_start + body_len]
                    .matches('\n')
                    .count();
                res.push_str("r\"");
                res.push_str(&"\n".repeat(n_lines));
                res.push('"');
                rest = &rest[body_start + body_len + close.len()..];
            }
            None => {
                rest = &rest[start..];
                break;
            }
        }
    }
    res.push_str(rest);
    res
}

/// The lines that are code: comments (`//`, `//!`, `///`) and raw string fixtures dropped.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    without_raw_strings(text)
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .map(|(line_idx, line)| (line_idx + 1, line.to_owned()))
        .collect()
}

/// `needle` as a path segment: not preceded by an identifier character (so `ls_types` does
/// not match inside `tls_types`).
fn mentions(line: &str, needle: &str) -> bool {
    line.match_indices(needle).any(|(idx, _)| {
        !line[..idx]
            .chars()
            .next_back()
            .is_some_and(|ch| ch.is_alphanumeric() || ch == '_')
    })
}

/// Fails with every line of `server/src` that mentions one of `needles` in a file for which
/// `allowed(relative_path)` is false.
#[track_caller]
fn check_confined(rule: &str, needles: &[&str], allowed: impl Fn(&str) -> bool) {
    let mut violations = Vec::new();
    for file in server_sources() {
        if allowed(&file.relative) {
            continue;
        }
        for (line_no, line) in code_lines(&file.text) {
            if needles.iter().any(|needle| mentions(&line, needle)) {
                violations.push(format!(
                    "server/src/{}:{line_no}: {}",
                    file.relative,
                    line.trim()
                ));
            }
        }
    }
    assert!(violations.is_empty(), "{rule}:\n{}", violations.join("\n"));
}

#[test]
fn every_source_file_starts_with_a_module_doc() {
    let missing: Vec<String> = server_sources()
        .into_iter()
        .filter(|file| !file.text.trim_start_matches('\u{feff}').starts_with("//!"))
        .map(|file| format!("server/src/{}", file.relative))
        .collect();
    assert!(
        missing.is_empty(),
        "these files do not start with a `//!` module doc (what the module owns, then its invariants):\n{}",
        missing.join("\n")
    );
}

#[test]
fn lsp_types_stay_in_lsp() {
    check_confined(
        "LSP types are used only in server/src/lsp/ (ARCHITECTURE.md, \"LSP types only in `lsp`\")",
        &["tower_lsp_server", "ls_types", "lsp_types"],
        |path| path.starts_with("lsp/"),
    );
}

#[test]
fn cli_calls_into_lsp_only_to_serve_bench_and_render_context() {
    // `Encoding` is an argument of `context_result_json`: `codectx context --json` prints
    // the result object the way the server sends it to a client that counts UTF-16 columns.
    const ALLOWED: &[&str] = &[
        "crate::lsp::run_stdio(",
        "crate::lsp::bench::run(",
        "crate::lsp::ext::context_result_json(",
        "crate::lsp::state::Encoding::Utf16",
    ];
    let mut violations = Vec::new();
    for file in server_sources()
        .iter()
        .filter(|file| file.relative.starts_with("cli/"))
    {
        for (line_no, line) in code_lines(&file.text) {
            let mut rest = line.replace("codectx::lsp", "crate::lsp");
            for allowed in ALLOWED {
                rest = rest.replace(allowed, "");
            }
            if mentions(&rest, "lsp::") {
                violations.push(format!(
                    "server/src/{}:{line_no}: {}",
                    file.relative,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "cli/ may call into lsp only for `serve`, `bench` and `context_result_json`:\n{}",
        violations.join("\n")
    );
}

#[test]
fn serde_json_stays_at_the_edges() {
    check_confined(
        "serde_json is used only in lsp/, cli/ and index/resolve.rs (package manifests)",
        &["serde_json"],
        |path| path.starts_with("lsp/") || path.starts_with("cli/") || path == "index/resolve.rs",
    );
}

#[test]
fn only_lsp_and_cli_use_the_engine() {
    check_confined(
        "crate::engine is used only in lsp/, cli/ and engine/ (dependencies point one way)",
        &["crate::engine"],
        |path| path.starts_with("lsp/") || path.starts_with("cli/") || path.starts_with("engine/"),
    );
}

#[test]
fn lower_layers_do_not_use_the_index() {
    check_confined(
        "syntax/, languages/ and base/ never use crate::index (dependencies point one way)",
        &["crate::index"],
        |path| {
            !(path.starts_with("syntax/")
                || path.starts_with("languages/")
                || path.starts_with("base/"))
        },
    );
}

#[test]
fn no_ignored_or_should_panic_tests() {
    // Split so that this file does not match itself.
    let attributes = [concat!("#[", "ignore"), concat!("#[", "should_panic")];
    let root = repo_root();
    let mut violations = Vec::new();
    for dir in ["server", "tests"] {
        for path in files_with_extension(&root.join(dir), "rs") {
            let text = std::fs::read_to_string(&path).expect("readable source");
            for (line_no, line) in code_lines(&text) {
                let line = line.trim_start();
                let hit = attributes.iter().any(|attribute| {
                    line.strip_prefix(attribute)
                        .is_some_and(|rest| rest.starts_with([']', '(', ' ', '=']))
                });
                if hit {
                    let relative = path
                        .strip_prefix(&root)
                        .unwrap_or(&path)
                        .display()
                        .to_string();
                    violations.push(format!("{relative}:{line_no}: {line}"));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "no ignored and no should_panic tests: assert the current wrong behaviour with a `// FIXME:` instead (STYLE.md 2.3):\n{}",
        violations.join("\n")
    );
}

/// The capture vocabulary of `server/queries/README.md`: exact names, and prefixes that
/// take any suffix (`reference.`).
struct Vocabulary {
    exact: BTreeSet<String>,
    any_suffix: BTreeSet<String>,
}

impl Vocabulary {
    fn from_readme(readme: &str) -> Vocabulary {
        let mut vocabulary = Vocabulary {
            exact: BTreeSet::new(),
            any_suffix: BTreeSet::new(),
        };
        let mut in_vocabulary = false;
        for line in readme.lines() {
            if line.starts_with("## ") {
                in_vocabulary = line.trim() == "## Capture vocabulary";
                continue;
            }
            if !in_vocabulary || !line.starts_with("- `@") {
                continue;
            }
            let code_spans: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
            let Some(capture) = code_spans.first().and_then(|span| span.strip_prefix('@')) else {
                continue;
            };
            match capture.split_once('<') {
                // `@definition.<kind>`: `<kind>` is one of the code spans after "one of".
                Some((prefix, _)) if line.contains("one of") => {
                    let after = line.split_once("one of").expect("checked").1;
                    for kind in after.split('`').skip(1).step_by(2) {
                        vocabulary.exact.insert(format!("{prefix}{kind}"));
                    }
                }
                // `@reference.<other>`: any suffix.
                Some((prefix, _)) => {
                    vocabulary.any_suffix.insert(prefix.to_owned());
                }
                None => {
                    vocabulary.exact.insert(capture.to_owned());
                }
            }
        }
        vocabulary
    }

    fn contains(&self, capture: &str) -> bool {
        // A capture that starts with `_` is a helper for predicates (documented there too).
        capture.starts_with('_')
            || self.exact.contains(capture)
            || self.any_suffix.iter().any(|prefix| {
                capture
                    .strip_prefix(prefix.as_str())
                    .is_some_and(|kind| !kind.is_empty())
            })
    }
}

/// The capture names of a query (`@name` tokens outside comments and strings).
fn capture_names(query: &str) -> Vec<String> {
    let mut res = Vec::new();
    for line in query.lines() {
        let mut in_string = false;
        let mut chars = line.char_indices().peekable();
        while let Some((idx, ch)) = chars.next() {
            match ch {
                '\\' if in_string => {
                    chars.next();
                }
                '"' => in_string = !in_string,
                ';' if !in_string => break,
                '@' if !in_string => {
                    let name: String = line[idx + 1..]
                        .chars()
                        .take_while(|ch| ch.is_alphanumeric() || matches!(ch, '_' | '.' | '-'))
                        .collect();
                    res.push(name);
                }
                _ => {}
            }
        }
    }
    res
}

#[test]
fn every_query_capture_is_in_the_documented_vocabulary() {
    let queries = repo_root().join("server/queries");
    let readme = std::fs::read_to_string(queries.join("README.md")).expect("queries/README.md");
    let vocabulary = Vocabulary::from_readme(&readme);
    assert!(
        vocabulary.exact.contains("name") && vocabulary.exact.contains("definition.function"),
        "could not read the capture vocabulary from server/queries/README.md"
    );
    let query_files = files_with_extension(&queries, "scm");
    assert!(!query_files.is_empty(), "no queries under server/queries");
    let mut violations = Vec::new();
    for path in query_files {
        let text = std::fs::read_to_string(&path).expect("readable query");
        for capture in capture_names(&text) {
            if !vocabulary.contains(&capture) {
                violations.push(format!("{}: @{capture}", path.display()));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "captures missing from the vocabulary in server/queries/README.md (document them there, or rename them):\n{}",
        violations.join("\n")
    );
}

#[test]
fn tidy_helpers_see_through_comments_and_fixtures() {
    let text =
        "//! use serde_json;\nlet a = r#\"\nuse crate::index;\n\"#;\nuse crate::index::Index;\n";
    let lines: Vec<(usize, String)> = code_lines(text);
    assert_eq!(
        lines
            .iter()
            .filter(|(_, line)| mentions(line, "crate::index"))
            .map(|(no, _)| *no)
            .collect::<Vec<_>>(),
        vec![5]
    );
    assert!(!mentions("use tls_types::X;", "ls_types"));
    assert_eq!(
        capture_names("(a) @definition.function ; @not.this\n(#eq? @_x \"@no\") @name"),
        vec!["definition.function", "_x", "name"]
    );
}
