//! Properties of `codectx.context` over generated tasks on every fixture: whatever the task
//! (names of the repository, paths, stack frames of every language, code punctuation, any
//! Unicode), the budget, format, tokenizer, intent, cursor and pinned files, the engine
//! answers without panicking, within the budget counted exactly on its text, and the same
//! request gives the same answer.

use std::path::PathBuf;
use std::sync::Arc;

use codectx::base::FileId;
use codectx::engine::{ContextRequest, Engine, Format, IntentKind, Tokenizer};
use codectx::index::{FilePosition, Index, IndexConfig};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

mod common;

/// Cases per fixture (each builds a context, so the run stays a few seconds); the
/// `PROPTEST_CASES` environment variable asks for more.
const CASES: u32 = 48;

/// What a repository gives the generator and the checks: its definitions' names, its files'
/// paths, and the files (id and text) in the order of their paths.
struct Repo {
    names: Vec<String>,
    paths: Vec<String>,
    files: Vec<(FileId, Arc<str>)>,
}

fn repo_of(index: &Index) -> Repo {
    let mut names = Vec::new();
    let mut files: Vec<(&str, FileId, Arc<str>)> = Vec::new();
    for (file, data) in index.files() {
        files.push((&data.path, file, data.text.clone()));
        names.extend(data.syntax.named_defs().map(|def| def.name.to_string()));
    }
    names.sort();
    names.dedup();
    files.sort_by(|a, b| a.0.cmp(b.0));
    Repo {
        names,
        paths: files.iter().map(|(path, _, _)| path.to_string()).collect(),
        files: files
            .into_iter()
            .map(|(_, file, text)| (file, text))
            .collect(),
    }
}

/// One piece of a task.
fn fragment(repo: &Repo) -> BoxedStrategy<String> {
    let name = proptest::sample::select(repo.names.clone());
    let path = proptest::sample::select(repo.paths.clone());
    let words = proptest::sample::select(vec![
        "fix",
        "the",
        "crash",
        "in",
        "when",
        "is",
        "empty",
        "write",
        "tests",
        "for",
        "rename",
        "refactor",
        "add",
        "support",
        "where",
        "called",
        "how",
        "does",
        "work",
        "what",
        "feat:",
        "fix(core):",
        "`",
        "``",
        "::",
        ".",
        "(",
        ")",
        "->",
        "=>",
        "\"",
        "'",
        "--flag",
        "$",
        "#",
        "\n",
        "\t",
        "...",
        "e.g.",
        "N/A",
        "100%",
        "—",
        "Ü",
    ]);
    prop_oneof![
        3 => name.clone(),
        1 => name.clone().prop_map(|name| format!("`{name}`")),
        1 => (name.clone(), name.clone()).prop_map(|(a, b)| format!("{a}.{b}")),
        1 => (name.clone(), name.clone()).prop_map(|(a, b)| format!("{a}::{b}()")),
        1 => path.clone(),
        1 => (path.clone(), 0u32..400).prop_map(|(path, line)| format!("{path}:{line}")),
        1 => (path.clone(), 0u32..400, name.clone()).prop_map(|(path, line, name)| {
            format!(
                "Traceback (most recent call last):\n  File \"/srv/app/{path}\", line {line}, in {name}\n    x = y\nValueError: empty"
            )
        }),
        1 => (path.clone(), 0u32..400, name.clone()).prop_map(|(path, line, name)| {
            format!("TypeError: x is undefined\n    at {name} ({path}:{line}:7)\n    at Object.<anonymous> (node:internal/x:1:1)")
        }),
        1 => (path.clone(), 0u32..400, name.clone()).prop_map(|(path, line, name)| {
            format!("panic: runtime error\n\ngoroutine 1 [running]:\nmain.{name}(0x0)\n\t/home/u/{path}:{line} +0x1d")
        }),
        1 => (path, 0u32..400, name).prop_map(|(path, line, name)| {
            format!("thread 'main' panicked at {path}:{line}:5:\nboom\n   3: crate::{name}\n             at ./{path}:{line}:9")
        }),
        3 => words.prop_map(str::to_owned),
        1 => "[a-zA-Z_][a-zA-Z0-9_]{0,24}",
        1 => "\\PC{0,24}",
        1 => "[ -~]{0,40}",
    ]
    .boxed()
}

fn task(repo: &Repo) -> impl Strategy<Value = String> {
    let separator = proptest::sample::select(vec![" ", " ", "\n", "", ", "]);
    proptest::collection::vec((fragment(repo), separator), 1..12).prop_map(|pieces| {
        pieces
            .into_iter()
            .map(|(piece, separator)| piece + separator)
            .collect()
    })
}

#[derive(Debug, Clone)]
struct Request {
    query: String,
    budget: u32,
    format: Format,
    tokenizer: Tokenizer,
    intent: Option<IntentKind>,
    /// A file (by rank in the file list) and a share of its length for the cursor.
    active: Option<(usize, f64)>,
    pinned: Vec<usize>,
}

fn request(repo: &Repo) -> impl Strategy<Value = Request> {
    (
        task(repo),
        prop_oneof![256u32..1024, 1024u32..16_000, Just(200_000u32)],
        proptest::sample::select(vec![Format::Xml, Format::Markdown, Format::Json]),
        proptest::sample::select(vec![Tokenizer::O200kBase, Tokenizer::Cl100kBase]),
        proptest::option::of(proptest::sample::select(IntentKind::ALL.to_vec())),
        proptest::option::of((0usize..64, 0.0f64..=1.0)),
        proptest::collection::vec(0usize..64, 0..3),
    )
        .prop_map(
            |(query, budget, format, tokenizer, intent, active, pinned)| Request {
                query,
                budget,
                format,
                tokenizer,
                intent,
                active,
                pinned,
            },
        )
}

fn check(
    index: &Index,
    repo: &Repo,
    engine: &Engine,
    generated: &Request,
) -> Result<(), TestCaseError> {
    let files = &repo.files;
    let mut request = ContextRequest::new(generated.query.clone());
    request.budget = generated.budget;
    request.format = generated.format;
    request.tokenizer = generated.tokenizer;
    request.intent = generated.intent;
    request.active = generated.active.map(|(at, share)| {
        let (file, text) = &files[at % files.len()];
        let mut offset = (text.len() as f64 * share) as usize;
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        FilePosition {
            file: *file,
            offset: offset as u32,
        }
    });
    request.pinned = generated
        .pinned
        .iter()
        .map(|at| files[at % files.len()].0)
        .collect();
    let result = match engine.assemble_context(index, &request) {
        Ok(result) => result,
        Err(error) => {
            // The only refusal a generated task can earn: nothing but white space.
            prop_assert!(
                generated.query.trim().is_empty(),
                "refused {:?}: {error}",
                generated.query
            );
            return Ok(());
        }
    };
    prop_assert!(
        result.used <= result.limit,
        "used {} > {}",
        result.used,
        result.limit
    );
    prop_assert_eq!(result.limit, generated.budget);
    prop_assert_eq!(result.used, generated.tokenizer.count(&result.text));
    if generated.format == Format::Json {
        prop_assert!(
            serde_json::from_str::<serde_json::Value>(&result.text).is_ok(),
            "JSON text does not parse"
        );
    }
    for item in &result.items {
        let data = index.file(item.file).expect("an item's file is indexed");
        prop_assert!(item.range.end as usize <= data.text.len());
        prop_assert!(
            !request.pinned.contains(&item.file),
            "pinned file {} repeated",
            item.path
        );
    }
    let again = engine
        .assemble_context(index, &request)
        .map_err(|error| TestCaseError::fail(error.to_string()))?;
    prop_assert_eq!(&again.text, &result.text, "not deterministic");
    Ok(())
}

#[test]
fn any_task_gets_an_answer_within_the_budget_and_the_same_one_twice() {
    let engine = Engine::new();
    for dir in common::fixture_dirs() {
        let index = Index::build(
            vec![dir.join("repo").canonicalize().unwrap()],
            &IndexConfig::default(),
        );
        let repo = repo_of(&index);
        let mut runner = TestRunner::new(Config {
            cases: std::env::var("PROPTEST_CASES")
                .ok()
                .and_then(|cases| cases.parse().ok())
                .unwrap_or(CASES),
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&request(&repo), |generated| {
                check(&index, &repo, &engine, &generated)
            })
            .unwrap_or_else(|error| panic!("{}: {error}", dir.display()));
    }
}

/// A task that names nothing falls back to the best files' definitions, but never to a
/// pinned file's (found by the property above).
#[test]
fn the_safety_net_leaves_pinned_files_out() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/go_kvstore/repo")
        .canonicalize()
        .unwrap();
    let index = Index::build(vec![root], &IndexConfig::default());
    let engine = Engine::new();
    let unpinned = engine
        .assemble_context(&index, &ContextRequest::new("refactor"))
        .unwrap();
    let fallback_files: Vec<_> = unpinned.items.iter().map(|item| item.file).collect();
    assert!(!fallback_files.is_empty());
    for file in fallback_files {
        let mut request = ContextRequest::new("refactor");
        request.pinned = vec![file];
        let result = engine.assemble_context(&index, &request).unwrap();
        assert!(!result.items.is_empty());
        assert!(result.items.iter().all(|item| item.file != file));
    }
}
