//! Indexing the workspace from disk: the background build (chunked, with `$/progress`,
//! answering requests from what is indexed so far), rebuilds that are swapped in when done,
//! and the targeted refresh of paths that changed on disk.
//!
//! Invariant: after `refresh_paths(targets)` the index holds, under each target, exactly what
//! a fresh build would (same walk rules), except where an open buffer wins over the disk.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use tower_lsp_server::ls_types::{MessageType, ProgressToken, Uri};

use super::ext::{StatusResult, SyntaxCacheStatus};
use super::state::{Shared, World};
use crate::base::is_test_path;
use crate::documents::DETACHED_ROOT;
use crate::engine::TermsSeed;
use crate::index::walk::{self, Candidate, Loaded, MANIFEST_NAMES};
use crate::index::{CacheFile, CacheKind, FileData, Index, IndexConfig, Skipped, SyntaxCache};

const CHUNK_SIZE: usize = 256;

/// Reads and analyzes one discovered file ([`walk::load`]), logging why it was left out.
fn load(
    candidate: &Candidate,
    config: &IndexConfig,
    cache: Option<&SyntaxCache>,
) -> Result<Loaded, Skipped> {
    walk::load(candidate, config, cache).inspect_err(|skip| {
        tracing::info!(path = %skip.path.display(), reason = %skip.reason, "skipped file");
    })
}

/// Puts loaded files into an index, leaving files that are open in `world` to their buffers.
fn insert_loaded(
    index: &mut Index,
    world_documents: &crate::documents::Documents,
    loaded: Vec<Result<Loaded, Skipped>>,
    skipped: &mut Vec<Skipped>,
) {
    for item in loaded {
        match item {
            Ok(Loaded::Source(data)) => {
                if !world_documents.is_open_at(data.root, &data.path) {
                    index.set_file_data(*data);
                }
            }
            Ok(Loaded::Manifest(manifest)) => {
                index.set_manifest(manifest.root, &manifest.path, Some(manifest.text))
            }
            Err(skip) => skipped.push(skip),
        }
    }
}

fn thousands(number: usize) -> String {
    let digits = number.to_string();
    let mut out = String::new();
    for (idx, ch) in digits.chars().enumerate() {
        if idx > 0 && (digits.len() - idx) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Indexes the workspace roots from disk. The first build (`live`) fills the index in place
/// so that requests see files as they are indexed; later builds are made aside and swapped
/// in. A build stops early when a newer one starts.
pub async fn index_workspace(shared: Arc<Shared>, live: bool) {
    let generation = shared.generation.fetch_add(1, Ordering::SeqCst) + 1;
    shared.n_jobs.fetch_add(1, Ordering::SeqCst);
    // The BPE tables (once per process; later calls return at once) and the search tables'
    // term counts of an earlier run load while the files are read, so that the first
    // `codectx.context` (agents send it right after startup) costs what later ones do.
    let terms_file = {
        let world = shared.read();
        world
            .config
            .cache_dir()
            .and_then(|dir| CacheFile::new(&dir, &world.roots, CacheKind::Terms))
    };
    let preload = tokio::task::spawn_blocking(move || {
        crate::engine::tokens::warm_up(crate::engine::Tokenizer::O200kBase);
        let seed: TermsSeed = terms_file
            .as_ref()
            .map(CacheFile::read_map)
            .unwrap_or_default();
        (terms_file, seed)
    });
    let (finished, cache) = index_workspace_inner(&shared, generation, live).await;
    let (terms_file, seed) = preload.await.unwrap_or_default();
    let seed = Arc::new(seed);
    if finished {
        // For the same reason, the index's lazy tables and the engine's search tables are built
        // now, side by side.
        let warm = Arc::clone(&shared);
        let warm_seed = Arc::clone(&seed);
        let _ = tokio::task::spawn_blocking(move || {
            let world = warm.read();
            world.engine.seed_terms(warm_seed);
            rayon::join(
                || world.index.warm_up(),
                || {
                    world.engine.search_index(&world.index);
                },
            );
        })
        .await;
    }
    shared.n_jobs.fetch_sub(1, Ordering::SeqCst);
    if finished || live {
        // Even a superseded first build ends the wait: the newer build answers from then on.
        shared.ready.send_replace(true);
    }
    if !finished {
        return;
    }
    // Only what was read from disk: an open buffer's extraction comes from incremental
    // reparses, and the caches hold fresh extractions alone.
    let (files, search, open) = {
        let world = shared.read();
        let open: Vec<(u32, Box<str>)> = world
            .documents
            .iter()
            .map(|(_, document)| document.location.clone())
            .collect();
        let files: Vec<Arc<FileData>> = world
            .index
            .files()
            .filter(|(_, file)| read_from_disk(&open, file))
            .map(|(_, file)| Arc::clone(file))
            .collect();
        (files, world.engine.search_index(&world.index), open)
    };
    let _ = tokio::task::spawn_blocking(move || {
        if let Some(cache) = cache {
            save_cache(&cache, &files);
        }
        if let Some(file) = terms_file {
            let keep = |data: &FileData| read_from_disk(&open, data);
            if let Some(entries) = search.terms_to_save(&seed, keep) {
                if let Err(err) = file.write(&entries) {
                    tracing::warn!(path = %file.path().display(), "cannot write the term cache: {err}");
                }
            }
        }
    })
    .await;
}

/// Whether a file's data came from the disk, not from one of the `open` buffers.
fn read_from_disk(open: &[(u32, Box<str>)], file: &FileData) -> bool {
    !open
        .iter()
        .any(|(root, path)| *root == file.root && *path == file.path)
}

/// Writes the syntax cache after a build (outside the world's lock), logging what it reused.
fn save_cache(cache: &SyntaxCache, files: &[Arc<FileData>]) {
    let stats = cache.stats();
    match cache.save(files.iter().map(|file| &**file)) {
        Ok(wrote) => tracing::info!(
            path = %cache.path().display(),
            reused = stats.hits,
            parsed = stats.misses,
            wrote,
            "syntax cache"
        ),
        Err(err) => {
            tracing::warn!(path = %cache.path().display(), "cannot write the syntax cache: {err}")
        }
    }
}

/// Builds the index; returns whether the build finished, and the syntax cache it read (to be
/// saved once the index is warm).
async fn index_workspace_inner(
    shared: &Arc<Shared>,
    generation: u64,
    live: bool,
) -> (bool, Option<Arc<SyntaxCache>>) {
    let started = Instant::now();
    let (roots, config, cache_dir) = {
        let mut world = shared.write();
        if live {
            world.index = rebuild_empty(&world);
            // Buffers opened before this build keep their place: the disk copies of open
            // files are skipped below, so the buffers must be indexed again here.
            reindex_documents(&mut world);
        }
        (
            world.roots.clone(),
            world.config.index_config(),
            world.config.cache_dir(),
        )
    };
    let flags = shared.flags();
    let progress = if flags.work_done_progress {
        let token = ProgressToken::String(format!("codectx/indexing/{generation}"));
        match shared.client.create_work_done_progress(token.clone()).await {
            Ok(()) => Some(
                shared
                    .client
                    .progress(token, "Indexing")
                    .with_percentage(0)
                    .with_message("discovering files")
                    .begin()
                    .await,
            ),
            Err(err) => {
                tracing::warn!("the client refused a progress token: {err}");
                None
            }
        }
    } else {
        None
    };

    let discover_roots = roots.clone();
    let discover_config = config.clone();
    let discovered = tokio::task::spawn_blocking(move || {
        let cache = cache_dir
            .and_then(|dir| SyntaxCache::open(&dir, &discover_roots))
            .map(Arc::new);
        (walk::discover(&discover_roots, &discover_config), cache)
    })
    .await;
    let Ok(((candidates, mut skipped), cache)) = discovered else {
        tracing::error!("file discovery failed");
        return (false, None);
    };
    let total = candidates.len();
    let mut aside = (!live).then(|| Index::new(roots.clone()));
    let candidates = Arc::new(candidates);
    let mut n_done = 0;
    while n_done < total {
        if shared.generation.load(Ordering::SeqCst) != generation {
            tracing::info!("indexing superseded by a newer build");
            if let Some(progress) = progress {
                progress.finish_with_message("superseded").await;
            }
            return (false, None);
        }
        let chunk_end = (n_done + CHUNK_SIZE).min(total);
        let chunk_candidates = Arc::clone(&candidates);
        let chunk_config = config.clone();
        let chunk_cache = cache.clone();
        let chunk_start = n_done;
        let loaded = tokio::task::spawn_blocking(move || {
            chunk_candidates[chunk_start..chunk_end]
                .par_iter()
                .map(|candidate| load(candidate, &chunk_config, chunk_cache.as_deref()))
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_default();
        {
            let mut world = shared.write();
            let world = &mut *world;
            let index = aside.as_mut().unwrap_or(&mut world.index);
            insert_loaded(index, &world.documents, loaded, &mut skipped);
        }
        n_done = chunk_end;
        if let Some(progress) = &progress {
            let percentage = (n_done * 100 / total.max(1)) as u32;
            progress
                .report_with_message(
                    format!("Indexing {}/{} files", thousands(n_done), thousands(total)),
                    percentage,
                )
                .await;
        }
    }

    let summary = {
        let mut world = shared.write();
        if shared.generation.load(Ordering::SeqCst) != generation {
            return (false, None);
        }
        if let Some(index) = aside {
            world.index = index;
            reindex_documents(&mut world);
        }
        world.skipped = skipped;
        world.index_ms = started.elapsed().as_millis() as u64;
        world.cache_stats = cache.as_ref().map(|cache| cache.stats());
        skipped_summary(&world)
    };
    if let Some(progress) = progress {
        progress
            .finish_with_message(format!("Indexed {} files", thousands(total)))
            .await;
    }
    if let Some(summary) = summary {
        shared.client.log_message(MessageType::INFO, summary).await;
    }
    (true, cache)
}

/// An empty index over the world's roots.
fn rebuild_empty(world: &World) -> Index {
    Index::new(world.roots.clone())
}

/// Re-locates every open buffer against the index's roots and indexes its current text.
pub fn reindex_documents(world: &mut World) {
    let uris: Vec<String> = world
        .documents
        .iter()
        .map(|(uri, _)| uri.to_owned())
        .collect();
    for uri_text in uris {
        let Ok(uri) = uri_text.parse::<Uri>() else {
            continue;
        };
        let location = world.locate_uri(&uri);
        let Some(document) = world.documents.get_mut(&uri_text) else {
            continue;
        };
        document.location = location.clone();
        document.dirty = false;
        let Some(lang) = document.lang else {
            continue;
        };
        let text = document.text();
        let Some(syntax) = document.reparse(&text, is_test_path(&location.1)) else {
            continue;
        };
        world.index.set_file_data(FileData::from_syntax(
            location.0,
            location.1,
            lang,
            Arc::from(text),
            syntax,
        ));
    }
}

fn skipped_summary(world: &World) -> Option<String> {
    if world.skipped.is_empty() {
        return None;
    }
    let mut by_reason: BTreeMap<&str, usize> = BTreeMap::new();
    for skip in &world.skipped {
        *by_reason.entry(skip.reason.label()).or_default() += 1;
    }
    let parts: Vec<String> = by_reason
        .iter()
        .map(|(reason, count)| format!("{reason}: {count}"))
        .collect();
    Some(format!(
        "codectx: indexed {} files; skipped {} ({})",
        world.index.n_files(),
        world.skipped.len(),
        parts.join(", ")
    ))
}

/// Makes the index match the disk under each target path (files or directories, existing or
/// deleted), applying the walk's rules; open buffers are left alone.
pub fn refresh_paths(world: &mut World, targets: &[PathBuf]) {
    if targets.is_empty() {
        return;
    }
    let roots = world.index.roots().to_vec();
    let config = world.config.index_config();
    let targets: Vec<PathBuf> = targets
        .iter()
        .filter(|target| roots.iter().any(|root| target.starts_with(root)))
        .cloned()
        .collect();
    if targets.is_empty() {
        return;
    }
    let (candidates, new_skips) = walk::discover_within(&roots, &config, &targets);
    let under_targets = |path: &Path| targets.iter().any(|target| path.starts_with(target));

    // What is indexed under the targets now.
    let mut stale_files: Vec<(u32, Box<str>)> = world
        .index
        .files()
        .filter(|(_, data)| (data.root as usize) < roots.len())
        .filter(|(_, data)| under_targets(&roots[data.root as usize].join(&*data.path)))
        .map(|(_, data)| (data.root, data.path.clone()))
        .collect();
    let mut stale_manifests: Vec<(u32, Box<str>)> = world
        .index
        .manifests()
        .iter()
        .filter(|manifest| (manifest.root as usize) < roots.len())
        .filter(|manifest| under_targets(&roots[manifest.root as usize].join(&*manifest.path)))
        .map(|manifest| (manifest.root, manifest.path.clone()))
        .collect();
    world.skipped.retain(|skip| !under_targets(&skip.path));
    world.skipped.extend(
        new_skips
            .into_iter()
            .filter(|skip| under_targets(&skip.path)),
    );

    let loaded: Vec<Result<Loaded, Skipped>> = candidates
        .par_iter()
        .filter(|candidate| {
            !world
                .documents
                .is_open_at(candidate.root, &candidate.rel_path)
        })
        .map(|candidate| load(candidate, &config, None))
        .collect();
    for item in &loaded {
        match item {
            Ok(Loaded::Source(data)) => {
                stale_files.retain(|(root, path)| !(*root == data.root && *path == data.path))
            }
            Ok(Loaded::Manifest(manifest)) => stale_manifests.retain(|(other_root, other)| {
                !(*other_root == manifest.root && *other == manifest.path)
            }),
            Err(_) => {}
        }
    }
    let mut skipped = std::mem::take(&mut world.skipped);
    insert_loaded(&mut world.index, &world.documents, loaded, &mut skipped);
    world.skipped = skipped;
    for (root, path) in stale_files {
        if !world.documents.is_open_at(root, &path) {
            world.index.remove_file(root, &path);
        }
    }
    for (root, path) in stale_manifests {
        world.index.set_manifest(root, &path, None);
    }
}

/// The status report.
pub fn status(shared: &Shared, world: &World) -> StatusResult {
    let mut skipped: BTreeMap<&'static str, usize> = BTreeMap::new();
    for skip in &world.skipped {
        *skipped.entry(skip.reason.label()).or_default() += 1;
    }
    let (mut n_defs, mut n_refs) = (0, 0);
    for (_, data) in world.index.files() {
        n_defs += data.syntax.named_defs().count();
        n_refs += data.syntax.refs.len();
    }
    let indexing = !shared.is_ready() || shared.n_jobs.load(Ordering::SeqCst) > 0;
    StatusResult {
        state: if indexing { "indexing" } else { "ready" },
        roots: world
            .roots
            .iter()
            .map(|root| root.display().to_string())
            .collect(),
        files: world.index.n_files(),
        definitions: n_defs,
        references: n_refs,
        open_documents: world.documents.len(),
        skipped,
        index_ms: world.index_ms,
        memory_bytes: current_rss_bytes(),
        syntax_cache: world.cache_stats.map(|stats| SyntaxCacheStatus {
            reused: stats.hits,
            parsed: stats.misses,
        }),
    }
}

/// Resident memory of this process in bytes (Linux), if known.
fn current_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Re-indexes every open document edited since it was last indexed.
pub fn flush_dirty(world: &mut World) {
    let dirty: Vec<String> = world
        .documents
        .iter()
        .filter(|(_, document)| document.dirty)
        .map(|(uri, _)| uri.to_owned())
        .collect();
    for uri in dirty {
        index_document(world, &uri);
    }
}

/// Reparses an open buffer (incrementally) and replaces its file's entries in the index.
pub fn index_document(world: &mut World, uri: &str) {
    let Some(document) = world.documents.get_mut(uri) else {
        return;
    };
    document.dirty = false;
    let (root, path) = document.location.clone();
    let text = document.text();
    let Some(lang) = document.lang else {
        let file_name = path.rsplit('/').next().unwrap_or(&path);
        if root != DETACHED_ROOT && MANIFEST_NAMES.contains(&file_name) {
            world.index.set_manifest(root, &path, Some(Arc::from(text)));
        }
        return;
    };
    let Some(syntax) = document.reparse(&text, is_test_path(&path)) else {
        return;
    };
    world.index.set_file_data(FileData::from_syntax(
        root,
        path,
        lang,
        Arc::from(text),
        syntax,
    ));
}
