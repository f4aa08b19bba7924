//! The CLI's index, symbols, definition, implementations, references and outline commands.
//!
//! Invariant: reads only under the given root (or the one file given to `outline`).

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use super::RootArgs;
use crate::base::{FileId, LineCol};
use crate::index::{cache, FileData, FilePosition, Index, IndexConfig, NavTarget, SyntaxCache};
use crate::languages::Language;
use crate::syntax::{self, Def};

/// A failed command: usage errors exit with 2, the rest with 1.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Failed(String),
}

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failed(_) => 1,
        }
    }
}

pub(super) fn resolve_root(root: &RootArgs) -> Result<PathBuf, CliError> {
    let dir = match &root.root {
        Some(dir) => dir.clone(),
        None => std::env::current_dir()
            .map_err(|err| CliError::Failed(format!("cannot read the current directory: {err}")))?,
    };
    let canonical = dir
        .canonicalize()
        .map_err(|err| CliError::Usage(format!("root {}: {err}", dir.display())))?;
    if !canonical.is_dir() {
        return Err(CliError::Usage(format!(
            "root {} is not a directory",
            dir.display()
        )));
    }
    Ok(canonical)
}

pub(super) fn index_config(root: &RootArgs) -> IndexConfig {
    IndexConfig {
        max_file_size: root.max_file_size,
        exclude: root.exclude.clone(),
        languages: Vec::new(),
    }
}

pub(super) fn build_index(root: &RootArgs) -> Result<Index, CliError> {
    let dir = resolve_root(root)?;
    Ok(build_index_at(&dir, root).0)
}

/// The cache directory, unless `--no-cache` (or `CODECTX_CACHE_DIR=off`).
pub(super) fn cache_dir(root: &RootArgs) -> Option<PathBuf> {
    (!root.no_cache).then(cache::default_dir).flatten()
}

/// How an index build used the syntax cache.
#[derive(Debug, Serialize)]
pub(super) struct CacheReport {
    path: String,
    /// Files whose extraction came from the cache.
    reused: usize,
    /// Files parsed.
    parsed: usize,
    /// Whether the cache was rewritten (it is left alone when nothing changed).
    wrote: bool,
}

/// Indexes a resolved root, reusing and then updating the syntax cache unless `--no-cache`
/// (or `CODECTX_CACHE_DIR=off`). A cache that cannot be written is reported on stderr.
pub(super) fn build_index_at(dir: &Path, root: &RootArgs) -> (Index, Option<CacheReport>) {
    let (index, cache) = open_index_at(dir, root);
    let report = cache.map(|cache| save_syntax_cache(&index, &cache));
    (index, report)
}

/// Indexes a resolved root, reusing the syntax cache unless `--no-cache` (or
/// `CODECTX_CACHE_DIR=off`); returns the cache, to be saved with [`save_syntax_cache`].
pub(super) fn open_index_at(dir: &Path, root: &RootArgs) -> (Index, Option<SyntaxCache>) {
    let roots = vec![dir.to_owned()];
    let cache_dir = cache_dir(root);
    Index::build_opening_cache(roots.clone(), &index_config(root), || {
        SyntaxCache::open(cache_dir.as_deref()?, &roots)
    })
}

/// Writes the syntax cache of an index when its files differ from what was read. A cache
/// that cannot be written is reported on stderr.
pub(super) fn save_syntax_cache(index: &Index, cache: &SyntaxCache) -> CacheReport {
    let stats = cache.stats();
    let wrote = cache
        .save(index.files().map(|(_, file)| &**file))
        .unwrap_or_else(|err| {
            eprintln!(
                "codectx: cannot write the syntax cache {}: {err}",
                cache.path().display()
            );
            false
        });
    CacheReport {
        path: cache.path().display().to_string(),
        reused: stats.hits,
        parsed: stats.misses,
        wrote,
    }
}

pub(super) fn print_json<T: Serialize>(value: &T) -> Result<(), CliError> {
    let text =
        serde_json::to_string_pretty(value).map_err(|err| CliError::Failed(err.to_string()))?;
    super::emit(&format!("{text}\n"));
    Ok(())
}

/// Peak resident memory of this process in bytes (Linux), if known.
pub(crate) fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[derive(Serialize, Default, Clone)]
pub struct LanguageCounts {
    pub files: usize,
    pub bytes: u64,
    pub definitions: usize,
    pub imports: usize,
    pub references: usize,
    pub files_with_syntax_errors: usize,
    /// Definitions by kind (`function`, `method`, `field`, ...).
    pub kinds: BTreeMap<&'static str, usize>,
    /// Of those, the definitions declared inside a function or method body (nested
    /// functions, local types), by kind; ctags counts these apart.
    pub nested_kinds: BTreeMap<&'static str, usize>,
}

#[derive(Serialize)]
struct IndexReport {
    root: String,
    languages: BTreeMap<&'static str, LanguageCounts>,
    total: LanguageCounts,
    skipped: BTreeMap<&'static str, usize>,
    wall_ms: f64,
    mb_per_s: f64,
    peak_rss_bytes: Option<u64>,
    /// `null` with `--no-cache` or when no cache directory is known.
    cache: Option<CacheReport>,
}

/// Whether a definition has a function or method among its enclosing definitions.
fn in_function_body(defs: &[crate::syntax::Def], def: &crate::syntax::Def) -> bool {
    let mut parent = def.parent;
    while let Some(parent_idx) = parent {
        let Some(parent_def) = defs.get(parent_idx as usize) else {
            return false;
        };
        if matches!(
            parent_def.kind,
            crate::languages::DefKind::Function | crate::languages::DefKind::Method
        ) {
            return true;
        }
        parent = parent_def.parent;
    }
    false
}

pub fn count_by_language(
    index: &Index,
) -> (BTreeMap<&'static str, LanguageCounts>, LanguageCounts) {
    let mut languages: BTreeMap<&'static str, LanguageCounts> = BTreeMap::new();
    let mut total = LanguageCounts::default();
    for (_, data) in index.files() {
        for counts in [languages.entry(data.lang.name()).or_default(), &mut total] {
            counts.files += 1;
            counts.bytes += data.text.len() as u64;
            counts.definitions += data.syntax.named_defs().count();
            counts.imports += data.syntax.imports.len();
            counts.references += data.syntax.refs.len();
            counts.files_with_syntax_errors += usize::from(!data.syntax.issues.is_empty());
            for def in data.syntax.named_defs() {
                *counts.kinds.entry(def.kind.name()).or_default() += 1;
                if in_function_body(&data.syntax.defs, def) {
                    *counts.nested_kinds.entry(def.kind.name()).or_default() += 1;
                }
            }
        }
    }
    (languages, total)
}

/// How many files the index skipped, by reason (see `SkipReason::label`).
pub(super) fn skipped_by_reason(index: &Index) -> BTreeMap<&'static str, usize> {
    let mut skipped: BTreeMap<&'static str, usize> = BTreeMap::new();
    for skip in index.skipped() {
        *skipped.entry(skip.reason.label()).or_default() += 1;
    }
    skipped
}

pub(super) fn index(root: &RootArgs, json: bool) -> Result<(), CliError> {
    let dir = resolve_root(root)?;
    let started = Instant::now();
    let (index, cache) = build_index_at(&dir, root);
    let wall = started.elapsed();
    let (languages, total) = count_by_language(&index);
    let total_bytes = total.bytes;
    let skipped = skipped_by_reason(&index);
    let report = IndexReport {
        root: dir.display().to_string(),
        languages,
        total,
        skipped,
        wall_ms: wall.as_secs_f64() * 1000.0,
        mb_per_s: total_bytes as f64 / 1e6 / wall.as_secs_f64().max(1e-9),
        peak_rss_bytes: peak_rss_bytes(),
        cache,
    };
    if json {
        return print_json(&report);
    }
    let mut out = String::new();
    writeln!(out, "{}", report.root).unwrap();
    writeln!(
        out,
        "{:<12} {:>7} {:>10} {:>12} {:>9} {:>12}",
        "language", "files", "bytes", "definitions", "imports", "references"
    )
    .unwrap();
    for (lang, counts) in report.languages.iter().chain([(&"total", &report.total)]) {
        writeln!(
            out,
            "{:<12} {:>7} {:>10} {:>12} {:>9} {:>12}",
            lang, counts.files, counts.bytes, counts.definitions, counts.imports, counts.references
        )
        .unwrap();
    }
    if report.total.files_with_syntax_errors > 0 {
        writeln!(
            out,
            "files with syntax errors (partially indexed): {}",
            report.total.files_with_syntax_errors
        )
        .unwrap();
    }
    if report.skipped.is_empty() {
        writeln!(out, "skipped: none").unwrap();
    } else {
        let parts: Vec<String> = report
            .skipped
            .iter()
            .map(|(reason, n)| format!("{reason} {n}"))
            .collect();
        writeln!(out, "skipped: {}", parts.join(", ")).unwrap();
    }
    match &report.cache {
        Some(cache) => writeln!(
            out,
            "syntax cache: {} files reused, {} parsed, {} ({})",
            cache.reused,
            cache.parsed,
            if cache.wrote {
                "rewritten"
            } else {
                "unchanged"
            },
            cache.path
        )
        .unwrap(),
        None => writeln!(out, "syntax cache: off").unwrap(),
    }
    writeln!(
        out,
        "time: {:.1} ms, {:.1} MB/s, peak memory: {}",
        report.wall_ms,
        report.mb_per_s,
        report
            .peak_rss_bytes
            .map_or("unknown".to_owned(), |bytes| format!(
                "{:.1} MB",
                bytes as f64 / 1e6
            ))
    )
    .unwrap();
    super::emit(&out);
    Ok(())
}

#[derive(Serialize)]
struct SymbolOut {
    name: String,
    kind: &'static str,
    container: Option<String>,
    path: String,
    line: u32,
    column: u32,
    signature: String,
    #[serde(rename = "match")]
    tier: &'static str,
}

pub(super) fn symbols(
    query: &str,
    root: &RootArgs,
    limit: usize,
    json: bool,
) -> Result<(), CliError> {
    let index = build_index(root)?;
    let hits = index.search_symbols(query, limit);
    let out: Vec<SymbolOut> = hits
        .iter()
        .filter_map(|hit| {
            let data = index.file(hit.def.file)?;
            let def = index.def(hit.def)?;
            let pos = data.line_index.line_col(def.name_range.start);
            Some(SymbolOut {
                name: def.name.to_string(),
                kind: def.kind.name(),
                container: data.syntax.container_path(def),
                path: data.path.to_string(),
                line: pos.line + 1,
                column: pos.col + 1,
                signature: def.signature.to_string(),
                tier: hit.tier.label(),
            })
        })
        .collect();
    if json {
        return print_json(&out);
    }
    let mut text = String::new();
    for symbol in &out {
        let container = symbol
            .container
            .as_deref()
            .map(|c| format!(" in {c}"))
            .unwrap_or_default();
        writeln!(
            text,
            "{:<9} {}{}  {}:{}",
            symbol.kind, symbol.name, container, symbol.path, symbol.line
        )
        .unwrap();
    }
    super::emit(&text);
    Ok(())
}

fn parse_location(location: &str) -> Result<(String, u32, u32), CliError> {
    let bad = || {
        CliError::Usage(format!(
            "expected PATH:LINE:COL with 1-based line and column, got {location:?}"
        ))
    };
    let (rest, col) = location.rsplit_once(':').ok_or_else(bad)?;
    let (path, line) = rest.rsplit_once(':').ok_or_else(bad)?;
    let line: u32 = line.parse().map_err(|_| bad())?;
    let col: u32 = col.parse().map_err(|_| bad())?;
    if line == 0 || col == 0 || path.is_empty() {
        return Err(bad());
    }
    Ok((path.to_owned(), line, col))
}

#[derive(Serialize)]
struct LocationOut {
    path: String,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    name: String,
    kind: &'static str,
    container: Option<String>,
    signature: String,
}

/// A file named on the command line (absolute, or relative to the root), as the index knows
/// it; an error naming `flag` (when given) and the path when it is not an indexed file.
pub(super) fn file_for_cli_path(
    index: &Index,
    root: &Path,
    path: &Path,
    flag: Option<&str>,
) -> Result<FileId, CliError> {
    let abs = if path.is_absolute() {
        path.to_owned()
    } else {
        root.join(path)
    };
    let abs = abs.canonicalize().unwrap_or(abs);
    index
        .file_id_for_path(&abs)
        .or_else(|| {
            let relative = path.to_str()?.trim_start_matches("./");
            index.file_id(0, relative)
        })
        .ok_or_else(|| {
            let flag = flag.map(|flag| format!("{flag}: ")).unwrap_or_default();
            CliError::Usage(format!(
                "{flag}{} is not an indexed file under {}",
                path.display(),
                root.display()
            ))
        })
}

pub(super) fn definition(location: &str, root: &RootArgs, json: bool) -> Result<(), CliError> {
    navigate(location, root, json, Index::goto_definition, "definition")
}

pub(super) fn implementations(location: &str, root: &RootArgs, json: bool) -> Result<(), CliError> {
    navigate(
        location,
        root,
        json,
        Index::implementations,
        "implementation",
    )
}

/// The index of the root and the position `location` (`PATH:LINE:COL`, 1-based, the column
/// in characters as editors show them) names in it; a line past the end of the file is a
/// usage error, a column past the end of its line is its end.
fn index_at_location(location: &str, root: &RootArgs) -> Result<(Index, FilePosition), CliError> {
    let (path, line, col) = parse_location(location)?;
    let dir = resolve_root(root)?;
    let (index, _) = build_index_at(&dir, root);
    let file = file_for_cli_path(&index, &dir, Path::new(&path), None)?;
    let data = index.file(file).expect("file id from the index");
    let n_lines = data.line_index.n_lines();
    if line > n_lines {
        return Err(CliError::Usage(format!(
            "line {line} is past the end of {path} ({n_lines} lines)"
        )));
    }
    let offset = char_position_offset(data, line - 1, col - 1);
    Ok((index, FilePosition { file, offset }))
}

/// The byte offset of a zero-based line and character column, clamped to the end of the line
/// (before its line end: a column past it is not on the next line).
fn char_position_offset(data: &FileData, line: u32, char_col: u32) -> u32 {
    let line_start = data.line_index.line_start(line);
    let line_end = data.line_index.line_end(line);
    let line_text = &data.text[line_start as usize..line_end as usize];
    let line_text = line_text.strip_suffix('\n').unwrap_or(line_text);
    let line_text = line_text.strip_suffix('\r').unwrap_or(line_text);
    let byte_col: usize = line_text
        .chars()
        .take(char_col as usize)
        .map(char::len_utf8)
        .sum();
    data.line_index.offset(LineCol {
        line,
        col: byte_col as u32,
    })
}

/// The one-based line and character column of a byte offset: [`char_position_offset`] the
/// other way.
fn char_position(data: &FileData, offset: u32) -> (u32, u32) {
    let at = data.line_index.line_col(offset);
    let line_start = data.line_index.line_start(at.line) as usize;
    let char_col = data
        .text
        .get(line_start..line_start + at.col as usize)
        .map_or(at.col as usize, |before| before.chars().count());
    (at.line + 1, char_col as u32 + 1)
}

/// The text of a zero-based line, without its indentation and line end.
fn line_text(data: &FileData, line: u32) -> &str {
    let line_start = data.line_index.line_start(line) as usize;
    let line_end = data.line_index.line_end(line) as usize;
    data.text[line_start..line_end].trim()
}

/// The definitions `find` gives for the name at `location` (`PATH:LINE:COL`, 1-based), as
/// lines or JSON; none found is a failure, saying no `what` was found.
fn navigate(
    location: &str,
    root: &RootArgs,
    json: bool,
    find: fn(&Index, FilePosition) -> Vec<NavTarget>,
    what: &str,
) -> Result<(), CliError> {
    let (index, position) = index_at_location(location, root)?;
    let targets = find(&index, position);
    let out: Vec<LocationOut> = targets
        .iter()
        .filter_map(|target| {
            let data = index.file(target.file)?;
            let def = index.def(target.def)?;
            let (line, column) = char_position(data, target.name_range.start);
            let (end_line, end_column) = char_position(data, target.range.end);
            Some(LocationOut {
                path: data.path.to_string(),
                line,
                column,
                end_line,
                end_column,
                name: def.name.to_string(),
                kind: def.kind.name(),
                container: data.syntax.container_path(def),
                signature: def.signature.to_string(),
            })
        })
        .collect();
    if json {
        return print_json(&out);
    }
    if out.is_empty() {
        return Err(CliError::Failed(format!("no {what} found at {location}")));
    }
    let mut text = String::new();
    for target in &out {
        writeln!(
            text,
            "{}:{}:{}  {} {}  `{}`",
            target.path, target.line, target.column, target.kind, target.name, target.signature
        )
        .unwrap();
    }
    super::emit(&text);
    Ok(())
}

#[derive(Serialize)]
struct ReferenceOut {
    path: String,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    /// The line the reference starts on, trimmed.
    text: String,
}

/// The references to the name at `location` (`PATH:LINE:COL`, 1-based; see
/// [`Index::references`]), with its declaration unless `include_declaration` is false, as
/// `path:line:col  line text` lines (grep's shape, 1-based, columns in characters) or JSON;
/// none found is a failure, as for `definition`.
pub(super) fn references(
    location: &str,
    root: &RootArgs,
    json: bool,
    include_declaration: bool,
) -> Result<(), CliError> {
    let (index, position) = index_at_location(location, root)?;
    let Ok(references) =
        index.references(position, include_declaration, || Ok::<(), Infallible>(()));
    let out: Vec<ReferenceOut> = references
        .unwrap_or_default()
        .iter()
        .filter_map(|(file, range)| {
            let data = index.file(*file)?;
            let (line, column) = char_position(data, range.start);
            let (end_line, end_column) = char_position(data, range.end);
            Some(ReferenceOut {
                path: data.path.to_string(),
                line,
                column,
                end_line,
                end_column,
                text: line_text(data, line - 1).to_owned(),
            })
        })
        .collect();
    if json {
        return print_json(&out);
    }
    if out.is_empty() {
        return Err(CliError::Failed(format!(
            "no reference found at {location}"
        )));
    }
    let mut text = String::new();
    for reference in &out {
        writeln!(
            text,
            "{}:{}:{}  {}",
            reference.path, reference.line, reference.column, reference.text
        )
        .unwrap();
    }
    super::emit(&text);
    Ok(())
}

#[derive(Serialize)]
pub struct OutlineNode {
    name: String,
    kind: &'static str,
    line: u32,
    end_line: u32,
    signature: String,
    doc: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    test: bool,
    children: Vec<OutlineNode>,
}

pub fn outline_tree(defs: &[Def], line_index: &crate::base::LineIndex) -> Vec<OutlineNode> {
    fn build(
        defs: &[Def],
        line_index: &crate::base::LineIndex,
        parent: Option<u32>,
    ) -> Vec<OutlineNode> {
        defs.iter()
            .enumerate()
            .filter(|(_, def)| def.parent == parent && def.kind.is_named())
            .map(|(idx, def)| OutlineNode {
                name: def.name.to_string(),
                kind: def.kind.name(),
                line: line_index.line_col(def.name_range.start).line + 1,
                end_line: line_index.line_col(def.range.end).line + 1,
                signature: def.signature.to_string(),
                doc: def.doc.as_deref().map(str::to_owned),
                test: def.test,
                children: build(defs, line_index, Some(idx as u32)),
            })
            .collect()
    }
    build(defs, line_index, None)
}

pub fn render_outline(nodes: &[OutlineNode], depth: usize, out: &mut String) {
    for node in nodes {
        writeln!(
            out,
            "{:indent$}{} {}  {}-{}  `{}`",
            "",
            node.kind,
            node.name,
            node.line,
            node.end_line,
            node.signature,
            indent = depth * 2
        )
        .unwrap();
        render_outline(&node.children, depth + 1, out);
    }
}

pub(super) fn outline(path: &Path, json: bool) -> Result<(), CliError> {
    let lang = Language::from_path(&path.to_string_lossy()).ok_or_else(|| {
        CliError::Usage(format!(
            "{}: not a supported source file (python, javascript, typescript, tsx, go, rust)",
            path.display()
        ))
    })?;
    let text = crate::index::walk::read_source(path, u64::MAX)
        .map_err(|reason| CliError::Usage(format!("{}: {reason}", path.display())))?;
    let text: Arc<str> = Arc::from(text);
    let path_text = path.to_string_lossy();
    let syntax = syntax::name_after_module(
        lang,
        &path_text,
        Arc::new(syntax::analyze(
            lang,
            &text,
            crate::base::is_test_path(&path_text),
        )),
    );
    let line_index = crate::base::LineIndex::new(&text);
    let tree = outline_tree(&syntax.defs, &line_index);
    if json {
        return print_json(&tree);
    }
    let mut out = String::new();
    render_outline(&tree, 0, &mut out);
    super::emit(&out);
    Ok(())
}
