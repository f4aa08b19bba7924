//! `codectx context`: the context engine from the command line; `--json` prints the same
//! result object as the `codectx.context` command.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::commands::{
    cache_dir, file_for_cli_path, open_index_at, resolve_root, save_syntax_cache,
};
use super::{CliError, RootArgs};
use crate::engine::{
    ContextRequest, ContextResult, Engine, FileTerms, Format, IntentKind, Tokenizer,
};
use crate::index::{CacheFile, CacheKind, FilePosition, Index};
use crate::languages::Language;

#[allow(clippy::too_many_arguments)]
pub(super) fn context(
    task: &str,
    root: &RootArgs,
    budget: u32,
    format: &str,
    intent: Option<&str>,
    tokenizer: &str,
    active: Option<&Path>,
    pinned: &[PathBuf],
    explain: bool,
    json_out: bool,
) -> Result<(), CliError> {
    let format = Format::from_name(format).ok_or_else(|| {
        CliError::Usage(format!(
            "--format: expected xml, markdown or json, got {format:?}"
        ))
    })?;
    let intent = match intent {
        Some(name) => Some(IntentKind::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = IntentKind::ALL.iter().map(|kind| kind.name()).collect();
            CliError::Usage(format!(
                "--intent: expected one of {}, got {name:?}",
                names.join(", ")
            ))
        })?),
        None => None,
    };
    let tokenizer = Tokenizer::from_name(tokenizer).ok_or_else(|| {
        CliError::Usage(format!(
            "--tokenizer: expected o200k_base or cl100k_base, got {tokenizer:?}"
        ))
    })?;
    let started = Instant::now();
    let dir = resolve_root(root)?;
    // The split's regex and the search tables' term counts of an earlier run load while the
    // repository is indexed.
    let terms_file = cache_dir(root).and_then(|cache_dir| {
        CacheFile::new(&cache_dir, std::slice::from_ref(&dir), CacheKind::Terms)
    });
    let mut timings = RunTimings::default();
    let (index, syntax_cache, seed) = std::thread::scope(|scope| {
        let warm = scope.spawn(|| {
            crate::engine::tokens::warm_up(tokenizer);
            terms_file.as_ref().map(CacheFile::read_map::<FileTerms>)
        });
        let (index, syntax_cache) = open_index_at(&dir, root);
        timings.index = ms(started);
        let seed = warm.join().ok().flatten();
        timings.wait = ms(started) - timings.index;
        (index, syntax_cache, seed)
    });
    if index.n_files() == 0 {
        eprintln!(
            "codectx: no Python, TypeScript, JavaScript, Go or Rust file to index under {} ({} skipped): the answer is empty",
            dir.display(),
            index.skipped().len()
        );
    }
    let seed = Arc::new(seed.unwrap_or_default());
    let mut request = ContextRequest::new(task);
    request.budget = budget;
    request.format = format;
    request.intent = intent;
    request.tokenizer = tokenizer;
    if let Some(active) = active {
        let file = file_for_cli_path(&index, &dir, active, Some("--active"))?;
        request.active = Some(FilePosition { file, offset: 0 });
    }
    for path in pinned {
        let file = file_for_cli_path(&index, &dir, path, Some("--pinned"))?;
        if !request.pinned.contains(&file) {
            request.pinned.push(file);
        }
    }
    let engine = Engine::new();
    engine.seed_terms(Arc::clone(&seed));
    // The search tables and the import graph (which every answer reads) are built side by
    // side, as the server does before it reports ready, rather than one after the other by
    // the engine's stages.
    let building = Instant::now();
    let (search, _) = rayon::join(|| engine.search_index(&index), || index.import_graph());
    timings.tables = ms(building);
    let answering = Instant::now();
    let result = engine
        .assemble_context(&index, &request)
        .map_err(|err| CliError::Usage(err.to_string()))?;
    timings.answer = ms(answering);
    let printing = Instant::now();
    let printed = print_result(&index, &result, json_out, explain);
    timings.print = ms(printing);
    // After the answer is out: the caches for the next run, when they changed.
    let saving = Instant::now();
    if let Some(syntax_cache) = syntax_cache {
        save_syntax_cache(&index, &syntax_cache);
    }
    if let Some(file) = terms_file {
        if let Some(entries) = search.terms_to_save(&seed, |_| true) {
            if let Err(err) = file.write(&entries) {
                eprintln!(
                    "codectx: cannot write the cache {}: {err}",
                    file.path().display()
                );
            }
        }
    }
    timings.save = ms(saving);
    timings.total = ms(started);
    if explain {
        eprintln!(
            "run (ms): index {:.2}, waiting for the term counts {:.2}, search tables and import graph {:.2}, answer {:.2}, print {:.2}, caches saved {:.2}, total {:.2}",
            timings.index,
            timings.wait,
            timings.tables,
            timings.answer,
            timings.print,
            timings.save,
            timings.total
        );
        let compiled: Vec<&str> = Language::compiled()
            .into_iter()
            .map(Language::name)
            .collect();
        eprintln!(
            "queries compiled: {}",
            if compiled.is_empty() {
                "none".to_owned()
            } else {
                compiled.join(", ")
            }
        );
        let skipped: Vec<String> = super::commands::skipped_by_reason(&index)
            .into_iter()
            .map(|(reason, n)| format!("{reason} {n}"))
            .collect();
        eprintln!(
            "files: {} indexed, skipped: {}",
            index.n_files(),
            if skipped.is_empty() {
                "none".to_owned()
            } else {
                skipped.join(", ")
            }
        );
    }
    // The process ends here: freeing the index and the tables piece by piece would take
    // longer than the answer did on a large repository (0.6 s of 3.4 s on 20,000 files).
    std::mem::forget((index, engine, search, seed));
    printed
}

/// Where the wall-clock time of a run went, in milliseconds from the start of the command
/// (`--explain` prints them after the engine's own stages, which `answer` holds).
#[derive(Default)]
struct RunTimings {
    /// Walking the root, reading its files and the syntax cache, building the index.
    index: f64,
    /// Then waiting for the term counts and the tokenizer, which load beside the index.
    wait: f64,
    /// The search tables and the import graph, built side by side.
    tables: f64,
    /// The engine's stages (`timings (ms)` above).
    answer: f64,
    print: f64,
    /// Writing the syntax cache and the term counts, when they changed.
    save: f64,
    total: f64,
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

fn print_result(
    index: &Index,
    result: &ContextResult,
    json_out: bool,
    explain: bool,
) -> Result<(), CliError> {
    if json_out {
        let text = serde_json::to_string_pretty(&crate::lsp::ext::context_result_json(
            index,
            result,
            crate::lsp::state::Encoding::Utf16,
        ))
        .map_err(|err| CliError::Failed(err.to_string()))?;
        super::emit(&format!("{text}\n"));
    } else {
        super::emit(&result.text);
    }
    if explain {
        eprintln!(
            "intent: {} (confidence {:.2}; {})",
            result.intent.kind,
            result.intent.confidence,
            result.intent.signals.join(", ")
        );
        eprintln!(
            "budget: {} of {} {} tokens",
            result.used, result.limit, result.tokenizer
        );
        eprintln!("items:");
        for item in &result.items {
            eprintln!(
                "  {:<11} {:<8} {:>5} tok  {:>7.4}  {}  {}  [{}]",
                item.section.name(),
                item.fidelity.name(),
                item.tokens,
                item.score,
                item.path,
                item.symbol.as_deref().unwrap_or("-"),
                item.reasons.join(", ")
            );
        }
        eprintln!("files (* shown in the answer):");
        for file in result.files.iter().take(10) {
            eprintln!(
                "  {} {:>7.4}  {}  [{}]",
                if file.shown { '*' } else { ' ' },
                file.score,
                file.path,
                file.reasons.join(", ")
            );
        }
        if !result.omitted.is_empty() {
            eprintln!("omitted:");
            for (item, omission) in result.omitted.iter().take(10) {
                eprintln!(
                    "  {:<13} {:<11} {:>5} tok  {:>7.4}  {}  {}",
                    omission.name(),
                    item.section.name(),
                    item.tokens,
                    item.score,
                    item.path,
                    item.symbol.as_deref().unwrap_or("-")
                );
            }
        }
        for uses in &result.uses_left {
            eprintln!("uses of {} not shown: {}", uses.of, uses.uses.len());
        }
        if !result.unresolved.is_empty() {
            eprintln!(
                "not defined in the workspace: {}",
                result.unresolved.join(", ")
            );
        }
        let timings: Vec<String> = result
            .timings_ms
            .iter()
            .map(|(stage, ms)| format!("{stage} {ms:.2}"))
            .collect();
        eprintln!("timings (ms): {}", timings.join(", "));
    }
    Ok(())
}
