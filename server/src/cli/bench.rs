//! `codectx bench`: index throughput and memory against a bare tree-sitter parse of the
//! same files measured in the same run (the floor), medians over several runs; the
//! language server through the protocol; warm context latency per stage; and one-shot
//! `codectx context` processes, as scripts and agents run the command line.
//!
//! Invariant: timing lives here, never in tests.

use std::path::Path;
use std::time::{Duration, Instant};

use clap::Subcommand;
use rayon::prelude::*;
use serde::Serialize;

use super::commands::{
    build_index_at, count_by_language, index_config, peak_rss_bytes, print_json, resolve_root,
};
use super::{CliError, RootArgs};
use crate::index::{walk, Index, IndexConfig, SyntaxCache};

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Cold index time, MB/s, definitions/s and peak memory, against a bare parse.
    Index {
        #[command(flatten)]
        root: RootArgs,
        /// Number of runs (the median is reported).
        #[arg(long, default_value_t = 5)]
        runs: usize,
        #[arg(long)]
        json: bool,
    },
    /// The language server through the protocol (in process): edit-to-visible latency,
    /// workspace/symbol and definition latency, and a burst of didChange notifications.
    Lsp {
        #[command(flatten)]
        root: RootArgs,
        /// Number of edits measured for edit-to-visible.
        #[arg(long, default_value_t = 1000)]
        edits: usize,
        /// Number of didChange notifications in the burst.
        #[arg(long, default_value_t = 10_000)]
        burst: usize,
        #[arg(long)]
        json: bool,
    },
    /// Warm `codectx.context` latency per stage: each query once (after one warm-up query),
    /// p50 and p95 over the queries, at the given budget, and the ratio to a reference timed
    /// just before each query (query analysis + BM25 over files)
    Context {
        #[command(flatten)]
        root: RootArgs,
        /// A file with one task per line (default: a built-in set of generic tasks).
        #[arg(long, value_name = "FILE")]
        queries: Option<std::path::PathBuf>,
        #[arg(long, default_value_t = crate::engine::DEFAULT_BUDGET, value_parser = super::parse_budget, allow_negative_numbers = true)]
        budget: u32,
        #[arg(long)]
        json: bool,
    },
    /// One-shot `codectx context` processes, as a script or an agent runs them: the first
    /// run with an empty syntax cache, then each task `--runs` times with the caches warm,
    /// with the wall clock of each process and where its time went (`--explain`), against
    /// the start of a process that does nothing (`codectx --version`) timed before each run.
    /// The caches go to a scratch directory, removed afterwards.
    Cli {
        #[command(flatten)]
        root: RootArgs,
        /// A file with one task per line (default: a built-in set of generic tasks).
        #[arg(long, value_name = "FILE")]
        queries: Option<std::path::PathBuf>,
        /// Warm runs of each task.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        #[arg(long)]
        json: bool,
    },
}

/// Generic tasks for `bench context` when no query file is given: they name no identifier
/// of a particular repository, so they exercise the natural-language path.
const DEFAULT_CONTEXT_QUERIES: &[&str] = &[
    "fix the crash when the configuration file is missing",
    "add a retry with exponential backoff to the HTTP client",
    "write tests for the parser error handling",
    "where is the cache invalidated",
    "refactor the request handling into smaller functions",
    "what does the main entry point do",
    "fix wrong path handling on windows",
    "support reading options from environment variables",
    "who calls the logger setup",
    "the timeout is ignored when a proxy is used",
];

fn percentile(samples: &mut [f64], quantile: f64) -> f64 {
    samples.sort_by(f64::total_cmp);
    let idx = ((samples.len() as f64 - 1.0) * quantile).round() as usize;
    samples.get(idx).copied().unwrap_or(0.0)
}

/// Tasks timed after an edit by `bench context`.
const AFTER_EDIT_TASKS: usize = 25;

fn bench_context(
    root: &RootArgs,
    queries: Option<&std::path::Path>,
    budget: u32,
    json: bool,
) -> Result<(), CliError> {
    let dir = resolve_root(root)?;
    let queries = read_queries(queries)?;
    let (index, _) = build_index_at(&dir, root);
    let engine = crate::engine::Engine::new();
    let started = Instant::now();
    crate::engine::tokens::warm_up(crate::engine::Tokenizer::O200kBase);
    index.warm_up();
    let search = engine.search_index(&index);
    let warm_up_ms = started.elapsed().as_secs_f64() * 1e3;
    let mut request = crate::engine::ContextRequest::new("warm up the context engine");
    request.budget = budget;
    engine
        .assemble_context(&index, &request)
        .map_err(|err| CliError::Usage(err.to_string()))?;
    let mut totals = Vec::new();
    let mut stages: std::collections::BTreeMap<&'static str, Vec<f64>> =
        std::collections::BTreeMap::new();
    let mut used = Vec::new();
    // The reference, timed just before each task so both see the machine in the same state:
    // what a keyword search does with the task (analysis, then BM25 over files, top 15).
    let mut reference = Vec::new();
    for query in &queries {
        let started = Instant::now();
        let analysis = crate::engine::query::analyze(query);
        std::hint::black_box(search.search_files(&analysis.terms, 15));
        reference.push(started.elapsed().as_secs_f64() * 1e3);
        request.query = query.clone();
        let started = Instant::now();
        let result = engine
            .assemble_context(&index, &request)
            .map_err(|err| CliError::Usage(format!("{query:?}: {err}")))?;
        totals.push(started.elapsed().as_secs_f64() * 1e3);
        used.push(f64::from(result.used));
        for (stage, ms) in result.timings_ms {
            stages.entry(stage).or_default().push(ms);
        }
    }
    // After an edit: an agent edits the file the previous answer ranked first (a comment
    // line with new words), then asks the next task. The search tables are refreshed by the
    // task that first sees the edit; both are timed, the refresh also on its own.
    let mut index = index;
    let mut after_edit = Vec::new();
    let mut refresh = Vec::new();
    let mut edit_target = None;
    for (n, query) in queries.iter().enumerate().take(AFTER_EDIT_TASKS) {
        if let Some(data) = edit_target.and_then(|file| index.file(file)).cloned() {
            let comment = match data.lang {
                crate::languages::Language::Python => "#",
                _ => "//",
            };
            let text = format!("{}\n{comment} edited for task {n}\n", data.text);
            index.set_file(data.root, &data.path, data.lang, text.into());
        }
        request.query = query.clone();
        let started = Instant::now();
        std::hint::black_box(engine.search_index(&index));
        refresh.push(started.elapsed().as_secs_f64() * 1e3);
        let result = engine
            .assemble_context(&index, &request)
            .map_err(|err| CliError::Usage(format!("{query:?}: {err}")))?;
        after_edit.push(started.elapsed().as_secs_f64() * 1e3);
        edit_target = result.files.first().map(|file| file.file);
    }
    let (_, counts) = count_by_language(&index);
    let total_p50 = percentile(&mut totals.clone(), 0.5);
    let reference_p50 = percentile(&mut reference, 0.5);
    let report = serde_json::json!({
        "root": dir.display().to_string(),
        "files": counts.files,
        "queries": queries.len(),
        "budget": budget,
        "warm_up_ms": warm_up_ms,
        "total_p50_ms": total_p50,
        "total_p95_ms": percentile(&mut totals.clone(), 0.95),
        "used_tokens_p50": percentile(&mut used, 0.5),
        "reference_bm25_p50_ms": reference_p50,
        "ratio_p50_to_reference": total_p50 / reference_p50.max(1e-6),
        "after_edit_tasks": after_edit.len(),
        "after_edit_p50_ms": percentile(&mut after_edit.clone(), 0.5),
        "after_edit_p95_ms": percentile(&mut after_edit, 0.95),
        "refresh_p50_ms": percentile(&mut refresh.clone(), 0.5),
        "refresh_p95_ms": percentile(&mut refresh, 0.95),
        "stages_p50_ms": stages.iter_mut().map(|(stage, samples)| ((*stage).to_owned(), serde_json::json!(percentile(samples, 0.5)))).collect::<serde_json::Map<_, _>>(),
        "stages_p95_ms": stages.iter_mut().map(|(stage, samples)| ((*stage).to_owned(), serde_json::json!(percentile(samples, 0.95)))).collect::<serde_json::Map<_, _>>(),
    });
    if json {
        return print_json(&report);
    }
    println!(
        "{}: {} files, {} queries, budget {budget}",
        report["root"].as_str().unwrap_or(""),
        counts.files,
        queries.len()
    );
    println!("warm-up (BPE tables, import graph, symbol names, search tables): {warm_up_ms:.1} ms");
    println!(
        "codectx.context p50 {:.2} ms, p95 {:.2} ms; tokens used p50 {}",
        report["total_p50_ms"].as_f64().unwrap_or(f64::NAN),
        report["total_p95_ms"].as_f64().unwrap_or(f64::NAN),
        report["used_tokens_p50"]
    );
    println!(
        "reference (query analysis + BM25 over files, top 15) p50 {:.3} ms: context p50 = {:.1}x the reference",
        report["reference_bm25_p50_ms"].as_f64().unwrap_or(f64::NAN),
        report["ratio_p50_to_reference"].as_f64().unwrap_or(f64::NAN)
    );
    println!(
        "after an edit of the previous answer's first file ({} tasks): p50 {:.2} ms, p95 {:.2} ms, of which search tables p50 {:.2} ms, p95 {:.2} ms",
        report["after_edit_tasks"],
        report["after_edit_p50_ms"].as_f64().unwrap_or(f64::NAN),
        report["after_edit_p95_ms"].as_f64().unwrap_or(f64::NAN),
        report["refresh_p50_ms"].as_f64().unwrap_or(f64::NAN),
        report["refresh_p95_ms"].as_f64().unwrap_or(f64::NAN)
    );
    for (stage, samples) in &mut stages {
        println!(
            "  {stage:<18} p50 {:>7.3} ms  p95 {:>7.3} ms",
            percentile(samples, 0.5),
            percentile(samples, 0.95)
        );
    }
    Ok(())
}

/// The tasks of `--queries`, one a line, or the built-in generic tasks.
fn read_queries(queries: Option<&std::path::Path>) -> Result<Vec<String>, CliError> {
    let queries: Vec<String> = match queries {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|err| CliError::Usage(format!("--queries {}: {err}", path.display())))?
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(str::to_owned)
            .collect(),
        None => DEFAULT_CONTEXT_QUERIES
            .iter()
            .map(|query| (*query).to_owned())
            .collect(),
    };
    if queries.is_empty() {
        return Err(CliError::Usage("--queries: the file has no tasks".into()));
    }
    Ok(queries)
}

/// The `label number` pairs of an `--explain` line that starts with `prefix` (`run (ms): index
/// 12.50, answer 3.10`), in order.
fn explained_ms(stderr: &str, prefix: &str) -> Vec<(String, f64)> {
    let Some(line) = stderr.lines().find_map(|line| line.strip_prefix(prefix)) else {
        return Vec::new();
    };
    line.split(", ")
        .filter_map(|part| {
            let (label, value) = part.trim().rsplit_once(' ')?;
            Some((label.to_owned(), value.parse().ok()?))
        })
        .collect()
}

/// One `codectx context` process: its wall clock (ms) and its `--explain` lines' timings.
struct CliRun {
    wall_ms: f64,
    phases: Vec<(String, f64)>,
    stages: Vec<(String, f64)>,
}

fn bench_cli(
    root: &RootArgs,
    queries: Option<&std::path::Path>,
    runs: usize,
    json: bool,
) -> Result<(), CliError> {
    use std::process::{Command, Stdio};
    let dir = resolve_root(root)?;
    let queries = read_queries(queries)?;
    let exe = std::env::current_exe()
        .map_err(|err| CliError::Failed(format!("cannot find this executable: {err}")))?;
    let cache_dir = std::env::temp_dir().join(format!("codectx-bench-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache_dir);
    let mut args: Vec<std::ffi::OsString> = vec![
        "context".into(),
        "--explain".into(),
        "--root".into(),
        dir.clone().into(),
        "--max-file-size".into(),
        root.max_file_size.to_string().into(),
    ];
    for glob in &root.exclude {
        args.extend(["--exclude".into(), glob.into()]);
    }
    if root.no_cache {
        args.push("--no-cache".into());
    }
    let run = |task: &str| -> Result<CliRun, CliError> {
        let started = Instant::now();
        let output = Command::new(&exe)
            .args(&args)
            .arg(task)
            .env(crate::index::cache::CACHE_DIR_ENV, &cache_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|err| CliError::Failed(format!("cannot run {}: {err}", exe.display())))?;
        let wall_ms = started.elapsed().as_secs_f64() * 1e3;
        let stderr = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() {
            return Err(CliError::Failed(format!("{task:?}: {stderr}")));
        }
        Ok(CliRun {
            wall_ms,
            phases: explained_ms(&stderr, "run (ms): "),
            stages: explained_ms(&stderr, "timings (ms): "),
        })
    };
    let start_process = || -> Result<f64, CliError> {
        let started = Instant::now();
        Command::new(&exe)
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .map_err(|err| CliError::Failed(format!("cannot run {}: {err}", exe.display())))?;
        Ok(started.elapsed().as_secs_f64() * 1e3)
    };
    let first = run(&queries[0]);
    let mut warm: Vec<CliRun> = Vec::new();
    let mut reference = Vec::new();
    let mut failed = first.as_ref().err().map(|err| err.to_string());
    for _ in 0..runs.max(1) {
        for query in &queries {
            if failed.is_some() {
                break;
            }
            match start_process().and_then(|ms| Ok((ms, run(query)?))) {
                Ok((ms, sample)) => {
                    reference.push(ms);
                    warm.push(sample);
                }
                Err(err) => failed = Some(err.to_string()),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&cache_dir);
    if let Some(err) = failed {
        return Err(CliError::Failed(err));
    }
    let first = first?;
    let mut phases: Vec<(String, Vec<f64>)> = Vec::new();
    for (label, ms) in warm
        .iter()
        .flat_map(|sample| sample.phases.iter().chain(&sample.stages))
    {
        match phases.iter_mut().find(|(known, _)| known == label) {
            Some((_, samples)) => samples.push(*ms),
            None => phases.push((label.clone(), vec![*ms])),
        }
    }
    let mut walls: Vec<f64> = warm.iter().map(|sample| sample.wall_ms).collect();
    let warm_p50 = percentile(&mut walls, 0.5);
    let reference_p50 = percentile(&mut reference, 0.5);
    let report = serde_json::json!({
        "root": dir.display().to_string(),
        "queries": queries.len(),
        "warm_runs": warm.len(),
        "first_run_ms": first.wall_ms,
        "first_run_phases_ms": first.phases.iter().map(|(label, ms)| (label.clone(), serde_json::json!(ms))).collect::<serde_json::Map<_, _>>(),
        "warm_p50_ms": warm_p50,
        "warm_p95_ms": percentile(&mut walls, 0.95),
        "process_start_p50_ms": reference_p50,
        "ratio_warm_p50_to_process_start": warm_p50 / reference_p50.max(1e-6),
        "warm_phases_p50_ms": phases.iter_mut().map(|(label, samples)| (label.clone(), serde_json::json!(percentile(samples, 0.5)))).collect::<serde_json::Map<_, _>>(),
    });
    if json {
        return print_json(&report);
    }
    println!(
        "{}: {} tasks, {} warm runs",
        dir.display(),
        queries.len(),
        warm.len()
    );
    println!("first run (empty syntax cache): {:.1} ms", first.wall_ms);
    println!(
        "warm run p50 {warm_p50:.1} ms, p95 {:.1} ms; a process that does nothing p50 {reference_p50:.1} ms ({:.1}x)",
        report["warm_p95_ms"].as_f64().unwrap_or(f64::NAN),
        report["ratio_warm_p50_to_process_start"].as_f64().unwrap_or(f64::NAN)
    );
    println!("where a warm run's time went (p50, ms; the engine's stages are inside `answer`):");
    for (label, samples) in &mut phases {
        println!("  {label:<36} {:>8.2}", percentile(samples, 0.5));
    }
    Ok(())
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

#[derive(Serialize)]
struct IndexBench {
    root: String,
    runs: usize,
    threads: usize,
    files: usize,
    bytes: u64,
    definitions: usize,
    references: usize,
    index_median_ms: f64,
    index_mb_per_s: f64,
    definitions_per_s: f64,
    parse_only_median_ms: f64,
    parse_only_mb_per_s: f64,
    ratio_to_parse_only: f64,
    /// Opening the syntax cache and indexing with every file's extraction in it (`null`
    /// with `--no-cache`).
    cached_index_median_ms: Option<f64>,
    ratio_cached_to_cold: Option<f64>,
    cache_bytes: Option<u64>,
    cache_write_ms: Option<f64>,
    reindex_largest_file_median_ms: f64,
    largest_file: String,
    largest_file_lines: u32,
    peak_rss_bytes: Option<u64>,
    peak_rss_per_source_byte: Option<f64>,
}

pub(super) fn run(what: BenchCommand) -> Result<(), CliError> {
    match what {
        BenchCommand::Index { root, runs, json } => bench_index(&root, runs.max(1), json),
        BenchCommand::Lsp {
            root,
            edits,
            burst,
            json,
        } => bench_lsp(&root, edits, burst, json),
        BenchCommand::Context {
            root,
            queries,
            budget,
            json,
        } => bench_context(&root, queries.as_deref(), budget, json),
        BenchCommand::Cli {
            root,
            queries,
            runs,
            json,
        } => bench_cli(&root, queries.as_deref(), runs, json),
    }
}

fn bench_index(root: &RootArgs, runs: usize, json: bool) -> Result<(), CliError> {
    let dir = resolve_root(root)?;
    let config = index_config(root);
    // The floor: read and parse every file the index would, on the same thread pool.
    let (candidates, _) = walk::discover(std::slice::from_ref(&dir), &config);
    // One untimed pass warms the page cache for both measurements.
    for candidate in &candidates {
        std::hint::black_box(walk::read_source(&candidate.abs_path, config.max_file_size).ok());
    }

    let mut index_samples = Vec::new();
    let mut parse_samples = Vec::new();
    let mut last_index = None;
    for _ in 0..runs {
        let started = Instant::now();
        let n_nodes: usize = candidates
            .par_iter()
            .filter_map(|candidate| {
                let lang = candidate.lang?;
                let text = walk::read_source_of(
                    &candidate.abs_path,
                    &candidate.rel_path,
                    Some(lang),
                    config.max_file_size,
                )
                .ok()?;
                Some(
                    crate::syntax::parse(lang, &text, None)
                        .root_node()
                        .child_count() as usize,
                )
            })
            .sum();
        std::hint::black_box(n_nodes);
        parse_samples.push(started.elapsed());

        drop(last_index.take());
        let started = Instant::now();
        let index = Index::build(vec![dir.clone()], &config);
        index_samples.push(started.elapsed());
        last_index = Some(index);
    }
    let mut index = last_index.expect("runs >= 1");
    let (_, total) = count_by_language(&index);
    let cached = match root.no_cache {
        true => None,
        false => Some(bench_cached_index(&dir, &config, &index, runs)?),
    };

    // Re-indexing the largest file, as an editor save would.
    let largest = index
        .files()
        .max_by_key(|(_, data)| data.text.len())
        .map(|(_, data)| {
            (
                data.root,
                data.path.to_string(),
                data.lang,
                data.text.clone(),
                data.line_index.n_lines(),
            )
        });
    let mut reindex_samples = Vec::new();
    let (largest_path, largest_lines) = match &largest {
        Some((file_root, path, lang, text, n_lines)) => {
            for _ in 0..runs.max(5) * 4 {
                let started = Instant::now();
                index.set_file(*file_root, path, *lang, text.clone());
                reindex_samples.push(started.elapsed());
            }
            (path.clone(), *n_lines)
        }
        None => (String::new(), 0),
    };

    let index_median = median(index_samples);
    let parse_median = median(parse_samples);
    let peak = peak_rss_bytes();
    let report = IndexBench {
        root: dir.display().to_string(),
        runs,
        threads: rayon::current_num_threads(),
        files: total.files,
        bytes: total.bytes,
        definitions: total.definitions,
        references: total.references,
        index_median_ms: index_median.as_secs_f64() * 1e3,
        index_mb_per_s: total.bytes as f64 / 1e6 / index_median.as_secs_f64(),
        definitions_per_s: total.definitions as f64 / index_median.as_secs_f64(),
        parse_only_median_ms: parse_median.as_secs_f64() * 1e3,
        parse_only_mb_per_s: total.bytes as f64 / 1e6 / parse_median.as_secs_f64(),
        ratio_to_parse_only: index_median.as_secs_f64() / parse_median.as_secs_f64(),
        cached_index_median_ms: cached
            .as_ref()
            .map(|cached| cached.median.as_secs_f64() * 1e3),
        ratio_cached_to_cold: cached
            .as_ref()
            .map(|cached| cached.median.as_secs_f64() / index_median.as_secs_f64()),
        cache_bytes: cached.as_ref().map(|cached| cached.bytes),
        cache_write_ms: cached
            .as_ref()
            .map(|cached| cached.write.as_secs_f64() * 1e3),
        reindex_largest_file_median_ms: if reindex_samples.is_empty() {
            0.0
        } else {
            median(reindex_samples).as_secs_f64() * 1e3
        },
        largest_file: largest_path,
        largest_file_lines: largest_lines,
        peak_rss_bytes: peak,
        peak_rss_per_source_byte: peak.map(|bytes| bytes as f64 / total.bytes.max(1) as f64),
    };
    if json {
        return print_json(&report);
    }
    println!(
        "{}: {} files, {:.1} MB, {} definitions, {} references ({} threads, {} runs)",
        report.root,
        report.files,
        report.bytes as f64 / 1e6,
        report.definitions,
        report.references,
        report.threads,
        report.runs
    );
    println!(
        "index (cold, median):      {:>9.1} ms  {:>6.1} MB/s  {:>9.0} definitions/s",
        report.index_median_ms, report.index_mb_per_s, report.definitions_per_s
    );
    println!(
        "bare parse (floor, median): {:>8.1} ms  {:>6.1} MB/s",
        report.parse_only_median_ms, report.parse_only_mb_per_s
    );
    println!(
        "ratio index / bare parse:   {:>8.2}x",
        report.ratio_to_parse_only
    );
    if let (Some(median), Some(ratio), Some(bytes), Some(write)) = (
        report.cached_index_median_ms,
        report.ratio_cached_to_cold,
        report.cache_bytes,
        report.cache_write_ms,
    ) {
        println!(
            "index from the syntax cache (median): {median:.1} ms  ({ratio:.2}x cold; cache {:.1} MB, written in {write:.0} ms)",
            bytes as f64 / 1e6
        );
    }
    println!(
        "re-index largest file ({}, {} lines, median): {:.2} ms",
        report.largest_file, report.largest_file_lines, report.reindex_largest_file_median_ms
    );
    if let (Some(peak), Some(ratio)) = (report.peak_rss_bytes, report.peak_rss_per_source_byte) {
        println!(
            "peak RSS: {:.1} MB ({:.1}x the source bytes)",
            peak as f64 / 1e6,
            ratio
        );
    }
    Ok(())
}

struct CachedIndexBench {
    median: Duration,
    bytes: u64,
    write: Duration,
}

/// Writes a syntax cache of `index` into a scratch directory, then times opening it and
/// building the index from it `runs` times (the scratch directory is removed afterwards).
fn bench_cached_index(
    dir: &Path,
    config: &IndexConfig,
    index: &Index,
    runs: usize,
) -> Result<CachedIndexBench, CliError> {
    let scratch = std::env::temp_dir().join(format!("codectx-bench-cache-{}", std::process::id()));
    let roots = vec![dir.to_owned()];
    let measured = (|| {
        let open = || {
            SyntaxCache::open(&scratch, &roots)
                .ok_or_else(|| "this executable's identity is unknown".to_owned())
        };
        let cache = open()?;
        let started = Instant::now();
        cache
            .save(index.files().map(|(_, file)| &**file))
            .map_err(|err| format!("{}: {err}", cache.path().display()))?;
        let write = started.elapsed();
        let bytes = std::fs::metadata(cache.path()).map_or(0, |meta| meta.len());
        let mut samples = Vec::new();
        for _ in 0..runs {
            let started = Instant::now();
            let cache = open()?;
            let built = Index::build_cached(roots.clone(), config, Some(&cache));
            samples.push(started.elapsed());
            if cache.stats().hits == 0 && built.n_files() > 0 {
                return Err("the cache was not used".to_owned());
            }
        }
        Ok(CachedIndexBench {
            median: median(samples),
            bytes,
            write,
        })
    })();
    let _ = std::fs::remove_dir_all(&scratch);
    measured.map_err(|err| CliError::Failed(format!("syntax cache: {err}")))
}

fn bench_lsp(root: &RootArgs, n_edits: usize, burst: usize, json: bool) -> Result<(), CliError> {
    let dir = resolve_root(root)?;
    let report = crate::lsp::bench::run(&dir, n_edits, burst, !root.no_cache)
        .map_err(|err| CliError::Failed(format!("{err:#}")))?;
    if json {
        return print_json(&report);
    }
    println!(
        "{}: {} files indexed in {:.0} ms (through the protocol)",
        report.root, report.files, report.initial_index_ms
    );
    println!(
        "edit-to-visible ({} edits in {}, {} lines): p50 {:.2} ms, p95 {:.2} ms",
        report.n_edits,
        report.edited_file,
        report.edited_file_lines,
        report.edit_to_visible_p50_ms,
        report.edit_to_visible_p95_ms
    );
    println!(
        "workspace/symbol ({} queries): p50 {:.2} ms, p95 {:.2} ms",
        report.n_symbol_queries, report.workspace_symbol_p50_ms, report.workspace_symbol_p95_ms
    );
    println!(
        "definition ({} requests): p50 {:.2} ms, p95 {:.2} ms",
        report.n_definitions, report.definition_p50_ms, report.definition_p95_ms
    );
    println!(
        "codectx.context after an edit ({} each): at once p50 {:.2} ms, p95 {:.2} ms; after a 200 ms pause p50 {:.2} ms, p95 {:.2} ms",
        report.n_context_after_edit,
        report.context_at_once_p50_ms,
        report.context_at_once_p95_ms,
        report.context_after_pause_p50_ms,
        report.context_after_pause_p95_ms
    );
    let mb = |bytes: Option<u64>| {
        bytes.map_or("unknown".to_owned(), |b| {
            format!("{:.1} MB", b as f64 / 1e6)
        })
    };
    println!(
        "burst of {} didChange: absorbed in {:.0} ms; RSS {} -> {}",
        report.burst_changes,
        report.burst_absorb_ms,
        mb(report.rss_before_burst_bytes),
        mb(report.rss_after_burst_bytes)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explain_lines_are_read_as_labelled_milliseconds() {
        let stderr = "intent: usage_exploration (confidence 0.80; where)\n\
            timings (ms): search_index 0.00, rank 1.25\n\
            run (ms): index 12.50, waiting for the term counts 0.00, total 20.75\n";
        assert_eq!(
            explained_ms(stderr, "run (ms): "),
            [
                ("index".to_owned(), 12.5),
                ("waiting for the term counts".to_owned(), 0.0),
                ("total".to_owned(), 20.75)
            ]
        );
        assert_eq!(
            explained_ms(stderr, "timings (ms): "),
            [("search_index".to_owned(), 0.0), ("rank".to_owned(), 1.25)]
        );
        assert!(explained_ms("no such line", "run (ms): ").is_empty());
    }
}
