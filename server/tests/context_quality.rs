//! Retrieval quality of the context engine over the fixtures' `[[context]]` cases: symbol
//! recall, wrong-file rate, recall per 1k tokens and intent accuracy, with floors that
//! fail the build when quality drops (raise them as the engine improves; never lower them
//! to pass).

use std::collections::BTreeSet;

use codectx::engine::{ContextRequest, ContextResult, Engine, Format, Tokenizer};
use codectx::index::{Index, IndexConfig};

mod common;

const MIN_SYMBOL_RECALL: f64 = 0.91;
const MAX_WRONG_FILE_RATE: f64 = 0.31;
const MIN_RECALL_PER_1K: f64 = 0.97;
const MIN_INTENT_ACCURACY: f64 = 0.95;

#[derive(serde::Deserialize)]
struct Cases {
    #[serde(default)]
    context: Vec<ContextCase>,
}

#[derive(serde::Deserialize)]
struct ContextCase {
    name: String,
    query: String,
    intent: Option<String>,
    #[serde(default)]
    expect_files: Vec<String>,
    #[serde(default)]
    expect_symbols: Vec<String>,
    budget: Option<u32>,
}

struct Score {
    recall: f64,
    wrong_file_rate: f64,
    recall_per_1k: f64,
    intent_ok: Option<bool>,
}

/// Whether `path:Container.name` is covered by an item: same path, and an item range that
/// covers the definition's name line.
fn symbol_found(index: &Index, result: &ContextResult, expected: &str) -> bool {
    let Some((path, qualified)) = expected.split_once(':') else {
        return false;
    };
    let mut segments: Vec<&str> = qualified.split('.').collect();
    let name = segments.pop().unwrap_or(qualified);
    let container = segments.last().copied();
    let Some(file) = index.file_id(0, path) else {
        return false;
    };
    let data = index.file(file).unwrap();
    // Top-level statements have no name to look up: `path:(top-level code)` is any of the
    // file's runs of them.
    let named: Vec<codectx::index::DefId> = if name == codectx::syntax::STATEMENTS_NAME {
        (0..data.syntax.defs.len() as u32)
            .map(|idx| codectx::index::DefId { file, idx })
            .filter(|def| index.def(*def).unwrap().kind == codectx::languages::DefKind::Statements)
            .collect()
    } else {
        index.defs_named(name).to_vec()
    };
    let start_lines: Vec<u32> = named
        .iter()
        .filter(|def| def.file == file)
        .filter(|def| container.is_none() || index.container_name(**def) == container)
        .map(|def| {
            data.line_index
                .line_col(index.def(*def).unwrap().name_range.start)
                .line
        })
        .collect();
    result
        .items
        .iter()
        .filter(|item| item.path == path)
        .any(|item| {
            let first = data.line_index.line_col(item.range.start).line;
            let last = data
                .line_index
                .line_col(item.range.end.saturating_sub(1).max(item.range.start))
                .line;
            start_lines
                .iter()
                .any(|line| first <= *line && *line <= last)
        })
}

fn score_case(index: &Index, engine: &Engine, case: &ContextCase) -> (Score, String) {
    let mut request = ContextRequest::new(case.query.clone());
    if let Some(budget) = case.budget {
        request.budget = budget;
    }
    let result = engine
        .assemble_context(index, &request)
        .expect("valid request");
    assert!(
        result.used <= result.limit,
        "{}: used {} > limit {}",
        case.name,
        result.used,
        result.limit
    );
    assert_eq!(
        result.used,
        request.tokenizer.count(&result.text),
        "{}: used is not the exact count",
        case.name
    );
    // The other formats, tokenizers and tight budgets keep the same promise.
    for (format, tokenizer, budget) in [
        (Format::Markdown, Tokenizer::Cl100kBase, request.budget),
        (Format::Json, Tokenizer::O200kBase, request.budget),
        (Format::Xml, Tokenizer::Cl100kBase, 300),
        (Format::Markdown, Tokenizer::O200kBase, 256),
    ] {
        let mut other = request.clone();
        other.format = format;
        other.tokenizer = tokenizer;
        other.budget = budget;
        let other_result = engine
            .assemble_context(index, &other)
            .expect("valid request");
        assert!(
            other_result.used <= budget,
            "{}: {format:?} used {} > {budget}",
            case.name,
            other_result.used
        );
        assert_eq!(
            other_result.used,
            tokenizer.count(&other_result.text),
            "{}: {format:?} {tokenizer}: used is not the exact count",
            case.name
        );
    }
    let found: Vec<&String> = case
        .expect_symbols
        .iter()
        .filter(|symbol| symbol_found(index, &result, symbol))
        .collect();
    let recall = if case.expect_symbols.is_empty() {
        1.0
    } else {
        found.len() as f64 / case.expect_symbols.len() as f64
    };
    let files: BTreeSet<&str> = result.items.iter().map(|item| item.path.as_str()).collect();
    let wrong = files
        .iter()
        .filter(|path| !case.expect_files.iter().any(|expected| expected == *path))
        .count();
    let wrong_file_rate = if files.is_empty() {
        0.0
    } else {
        wrong as f64 / files.len() as f64
    };
    let k_tokens = result.text.len() as f64 / 4.0 / 1000.0;
    let recall_per_1k = if k_tokens > 0.0 {
        recall / k_tokens
    } else {
        0.0
    };
    let intent_ok = case
        .intent
        .as_deref()
        .map(|expected| expected == result.intent.kind.name());
    let missed: Vec<&String> = case
        .expect_symbols
        .iter()
        .filter(|symbol| !found.contains(symbol))
        .collect();
    let line =
        format!(
        "{:<40} recall {:.2} wrong {:.2} r/1k {:>5.2} tokens {:>5} files {:>2} intent {:<17} {}{}",
        case.name,
        recall,
        wrong_file_rate,
        recall_per_1k,
        result.used,
        files.len(),
        result.intent.kind.name(),
        if intent_ok == Some(false) {
            format!("(expected {}) ", case.intent.as_deref().unwrap_or(""))
        } else {
            String::new()
        },
        if missed.is_empty() { String::new() } else { format!("missed {missed:?}") },
    );
    (
        Score {
            recall,
            wrong_file_rate,
            recall_per_1k,
            intent_ok,
        },
        line,
    )
}

#[test]
fn context_quality_over_fixture_cases_meets_the_floors() {
    let engine = Engine::new();
    let mut scores = Vec::new();
    let mut report = String::new();
    for fixture in common::fixture_dirs() {
        let cases: Cases =
            toml::from_str(&std::fs::read_to_string(fixture.join("cases.toml")).unwrap()).unwrap();
        let root = fixture.join("repo").canonicalize().unwrap();
        let index = Index::build(vec![root], &IndexConfig::default());
        report.push_str(&format!(
            "== {}\n",
            fixture.file_name().unwrap().to_string_lossy()
        ));
        for case in &cases.context {
            let (score, line) = score_case(&index, &engine, case);
            report.push_str(&line);
            report.push('\n');
            scores.push(score);
        }
    }
    let n = scores.len() as f64;
    let recall = scores.iter().map(|s| s.recall).sum::<f64>() / n;
    let wrong = scores.iter().map(|s| s.wrong_file_rate).sum::<f64>() / n;
    let per_1k = scores.iter().map(|s| s.recall_per_1k).sum::<f64>() / n;
    let with_intent: Vec<bool> = scores.iter().filter_map(|s| s.intent_ok).collect();
    let intent =
        with_intent.iter().filter(|ok| **ok).count() as f64 / with_intent.len().max(1) as f64;
    report.push_str(&format!(
        "overall: {} cases, symbol recall {recall:.3}, wrong-file rate {wrong:.3}, recall per 1k tokens {per_1k:.3}, intent accuracy {intent:.3}\n",
        scores.len()
    ));
    println!("{report}");
    assert!(
        recall >= MIN_SYMBOL_RECALL,
        "symbol recall {recall:.3} < {MIN_SYMBOL_RECALL}\n{report}"
    );
    assert!(
        wrong <= MAX_WRONG_FILE_RATE,
        "wrong-file rate {wrong:.3} > {MAX_WRONG_FILE_RATE}\n{report}"
    );
    assert!(
        per_1k >= MIN_RECALL_PER_1K,
        "recall per 1k tokens {per_1k:.3} < {MIN_RECALL_PER_1K}\n{report}"
    );
    assert!(
        intent >= MIN_INTENT_ACCURACY,
        "intent accuracy {intent:.3} < {MIN_INTENT_ACCURACY}\n{report}"
    );
}
