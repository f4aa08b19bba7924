//! The repo-wide index: every file's definitions, imports and references, plus the tables
//! built from them (definitions by name, files by referenced name, the import graph).
//!
//! Invariant: per-file data is replaceable; after any sequence of `set_file`/`remove_file`
//! calls the tables equal those of a fresh build over the same files (checked by a
//! property test). No LSP types; offsets are bytes; no IO outside `walk` and `cache`.

pub mod cache;
mod dump;
mod file;
mod graph;
mod navigate;
mod references;
mod resolve;
mod symbols;
pub mod walk;

#[cfg(test)]
pub(crate) mod tests;

pub use cache::{CacheFile, CacheKind, CacheStats, SyntaxCache};
pub use file::FileData;
pub use graph::ImportGraph;
pub use navigate::NavTarget;
pub use symbols::{split_identifier, MatchTier, SymbolHit};
pub use walk::{IndexConfig, SkipReason};

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::base::{FileId, FxHashMap, FxHashSet, TextRange};
use crate::languages::Language;
use crate::syntax::Def;

/// A definition in the index: a file and the definition's position in that file's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DefId {
    pub file: FileId,
    pub idx: u32,
}

/// A position in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FilePosition {
    pub file: FileId,
    pub offset: u32,
}

/// A project manifest the resolvers read (`package.json`, `go.mod`, `Cargo.toml`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    pub root: u32,
    pub path: Box<str>,
    pub text: Arc<str>,
}

/// A file left out of the index, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    pub reason: SkipReason,
}

/// The directory part of a root-relative path (`""` at the root).
pub(crate) fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// A file's module name: its file name up to the first dot (`src/click/_compat.py` ->
/// `_compat`, `index.test.ts` -> `index`).
pub fn module_name(path: &str) -> &str {
    let file_name = path.rsplit('/').next().unwrap_or(path);
    file_name.split('.').next().unwrap_or(file_name)
}

/// A file's stem, the key of [`Index::files_with_stem`]: its module name without leading
/// underscores (`_compat.py` -> `compat`), as code names a private module.
pub fn file_stem(path: &str) -> &str {
    module_name(path).trim_start_matches('_')
}

/// The index. Cheap to query; mutated one file at a time.
#[derive(Default)]
pub struct Index {
    roots: Vec<PathBuf>,
    files: Vec<Option<Arc<FileData>>>,
    by_path: FxHashMap<(u32, Box<str>), FileId>,
    /// Live files by their stem (see [`file_stem`]).
    by_stem: FxHashMap<Box<str>, Vec<FileId>>,
    defs_by_name: FxHashMap<Box<str>, Vec<DefId>>,
    /// Definitions declared outside the type they belong to (a Go method, a JavaScript
    /// `res.send = function`), by the name of that type.
    defs_by_container: FxHashMap<Box<str>, Vec<DefId>>,
    /// Lower-cased name -> the exact names that lower-case to it.
    names_by_lower: FxHashMap<Box<str>, Vec<Box<str>>>,
    /// Name -> files that reference it.
    refs_by_name: FxHashMap<Box<str>, Vec<FileId>>,
    manifests: Vec<Manifest>,
    skipped: Vec<Skipped>,
    n_live_files: usize,
    /// Changes on every mutation; unique across all indexes of the process.
    generation: u64,
    /// The module map and import graph, built lazily; dropped when the set of files, a
    /// file's imports or a manifest changes (an edit that keeps the imports keeps them).
    resolution: OnceLock<Resolution>,
    /// The sorted definition names, built lazily and then kept up to date by `link` and
    /// `unlink` (only names whose definition count goes between 0 and 1 change).
    symbol_names: OnceLock<symbols::SymbolNames>,
}

struct Resolution {
    modules: resolve::ModuleMap,
    graph: ImportGraph,
}

/// What `link` and `unlink` changed in the set of defined names.
#[derive(Default)]
struct NameChanges {
    added: Vec<Box<str>>,
    removed: Vec<Box<str>>,
}

static NEXT_GENERATION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn next_generation() -> u64 {
    NEXT_GENERATION.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Index {
    pub fn new(roots: Vec<PathBuf>) -> Index {
        Index {
            roots,
            generation: next_generation(),
            ..Index::default()
        }
    }

    /// A value that changes whenever the index does (and differs between indexes), for
    /// caches built on top of it.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Indexes every supported file under the roots, in parallel.
    pub fn build(roots: Vec<PathBuf>, config: &IndexConfig) -> Index {
        Index::build_with_progress(roots, config, None, &|_, _| {})
    }

    /// Like [`Index::build`], taking the extraction of files the cache has seen from it.
    pub fn build_cached(
        roots: Vec<PathBuf>,
        config: &IndexConfig,
        cache: Option<&SyntaxCache>,
    ) -> Index {
        Index::build_with_progress(roots, config, cache, &|_, _| {})
    }

    /// Like [`Index::build_cached`], with the cache that `open_cache` opens (reading and
    /// decoding it, the longest part of a run that finds every file in it) on another
    /// thread while the roots are walked. Returns the cache too, to save it.
    pub fn build_opening_cache(
        roots: Vec<PathBuf>,
        config: &IndexConfig,
        open_cache: impl FnOnce() -> Option<SyntaxCache> + Send,
    ) -> (Index, Option<SyntaxCache>) {
        let mut index = Index::new(roots);
        let (discovered, cache) = std::thread::scope(|scope| {
            let opening = scope.spawn(open_cache);
            let discovered = walk::discover(&index.roots, config);
            let cache = opening
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (discovered, cache)
        });
        let crawl = walk::crawl_discovered(discovered, config, cache.as_ref(), &|_, _| {});
        index.take_crawl(crawl);
        (index, cache)
    }

    /// Like [`Index::build_cached`], calling `progress(done, total)` as files are analyzed.
    pub fn build_with_progress(
        roots: Vec<PathBuf>,
        config: &IndexConfig,
        cache: Option<&SyntaxCache>,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Index {
        let mut index = Index::new(roots);
        let crawl = walk::crawl(&index.roots, config, cache, progress);
        index.take_crawl(crawl);
        index
    }

    fn take_crawl(&mut self, crawl: walk::Crawl) {
        self.skipped = crawl.skipped;
        self.manifests = crawl.manifests;
        for file in crawl.files {
            self.insert(Arc::new(file));
        }
    }

    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    pub fn manifests(&self) -> &[Manifest] {
        &self.manifests
    }

    pub fn n_files(&self) -> usize {
        self.n_live_files
    }

    /// Every live file, in id order.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &Arc<FileData>)> + '_ {
        self.files
            .iter()
            .enumerate()
            .filter_map(|(idx, file)| Some((FileId(idx as u32), file.as_ref()?)))
    }

    pub fn file(&self, file: FileId) -> Option<&Arc<FileData>> {
        self.files.get(file.0 as usize)?.as_ref()
    }

    pub fn file_id(&self, root: u32, path: &str) -> Option<FileId> {
        self.by_path.get(&(root, Box::from(path))).copied()
    }

    /// The file id of an absolute path inside one of the roots.
    pub fn file_id_for_path(&self, abs_path: &Path) -> Option<FileId> {
        let (root, rel) = self.relativize(abs_path)?;
        self.file_id(root, &rel)
    }

    /// The root index and `/`-separated relative path of an absolute path inside a root.
    pub fn relativize(&self, abs_path: &Path) -> Option<(u32, String)> {
        // The deepest root wins when roots nest.
        self.roots
            .iter()
            .enumerate()
            .filter_map(|(idx, root)| {
                let rel = abs_path.strip_prefix(root).ok()?;
                Some((idx, root.components().count(), rel))
            })
            .max_by_key(|(_, depth, _)| *depth)
            .map(|(idx, _, rel)| {
                let rel = rel
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                (idx as u32, rel)
            })
    }

    pub fn abs_path(&self, file: FileId) -> Option<PathBuf> {
        let data = self.file(file)?;
        let root = self.roots.get(data.root as usize)?;
        Some(root.join(&*data.path))
    }

    pub fn def(&self, def: DefId) -> Option<&Def> {
        self.file(def.file)?.syntax.defs.get(def.idx as usize)
    }

    /// Definitions with exactly this name, in no defined order (it depends on the order
    /// files were added in); sort them if it matters.
    pub fn defs_named(&self, name: &str) -> &[DefId] {
        self.defs_by_name.get(name).map_or(&[], Vec::as_slice)
    }

    /// Definitions whose name equals `name` ignoring case, in path order.
    pub fn defs_named_ignore_case(&self, name: &str) -> Vec<DefId> {
        let lower = name.to_lowercase();
        let mut res: Vec<DefId> = self
            .names_by_lower
            .get(lower.as_str())
            .into_iter()
            .flatten()
            .flat_map(|exact| self.defs_named(exact).iter().copied())
            .collect();
        res.sort_by_cached_key(|def| {
            let path = self
                .file(def.file)
                .map(|data| (data.root, data.path.clone()));
            (path, def.idx)
        });
        res
    }

    /// Files containing a reference to `name`, in no defined order (it depends on the order
    /// files were added in); sort them if it matters.
    pub fn files_referencing(&self, name: &str) -> &[FileId] {
        self.refs_by_name.get(name).map_or(&[], Vec::as_slice)
    }

    /// The references to `name` in `files`, in the order of `files` and then of position,
    /// each with its file's data.
    pub fn references_named<'a>(
        &'a self,
        files: &'a [FileId],
        name: &'a str,
    ) -> impl Iterator<Item = (FileId, &'a FileData, &'a crate::syntax::Ref)> + 'a {
        files
            .iter()
            .filter_map(|file| Some((*file, self.file(*file)?)))
            .flat_map(move |(file, data)| {
                data.refs_named(name)
                    .map(move |reference| (file, &**data, reference))
            })
    }

    /// Replaces (or adds) a file's contents and re-analyzes it. `root` and `path` locate it.
    pub fn set_file(&mut self, root: u32, path: &str, lang: Language, text: Arc<str>) -> FileId {
        let data = FileData::analyze(root, path.into(), lang, text);
        self.insert(Arc::new(data))
    }

    /// Replaces (or adds) a file with data analyzed elsewhere (an editor buffer's tree).
    pub fn set_file_data(&mut self, data: FileData) -> FileId {
        self.insert(Arc::new(data))
    }

    /// The live files of a stem (see [`file_stem`]), in the order they were added.
    pub fn files_with_stem(&self, stem: &str) -> &[FileId] {
        self.by_stem.get(stem).map_or(&[], Vec::as_slice)
    }

    /// Removes a file; returns whether it was there.
    pub fn remove_file(&mut self, root: u32, path: &str) -> bool {
        let Some(file) = self.by_path.remove(&(root, Box::from(path))) else {
            return false;
        };
        let stem = file_stem(path);
        if let Some(files) = self.by_stem.get_mut(stem) {
            files.retain(|other| *other != file);
            if files.is_empty() {
                self.by_stem.remove(stem);
            }
        }
        let mut changes = NameChanges::default();
        if let Some(old) = self.files[file.0 as usize].take() {
            self.unlink_defs(file, &old, &mut changes);
            self.unlink_refs(file, &old.ref_names);
            self.n_live_files -= 1;
        }
        self.apply_name_changes(changes);
        self.resolution = OnceLock::new();
        self.generation = next_generation();
        true
    }

    /// Replaces a manifest's text (`None` removes it).
    pub fn set_manifest(&mut self, root: u32, path: &str, text: Option<Arc<str>>) {
        self.manifests
            .retain(|manifest| !(manifest.root == root && &*manifest.path == path));
        if let Some(text) = text {
            self.manifests.push(Manifest {
                root,
                path: path.into(),
                text,
            });
            self.manifests
                .sort_by(|a, b| (a.root, &a.path).cmp(&(b.root, &b.path)));
        }
        self.resolution = OnceLock::new();
        self.generation = next_generation();
    }

    fn insert(&mut self, data: Arc<FileData>) -> FileId {
        let key = (data.root, data.path.clone());
        let mut changes = NameChanges::default();
        let file = match self.by_path.get(&key) {
            Some(&file) => {
                match self.files[file.0 as usize].take() {
                    Some(old) => {
                        self.unlink_defs(file, &old, &mut changes);
                        self.relink_refs(file, &old.ref_names, &data.ref_names);
                        self.n_live_files -= 1;
                        if !same_resolution_inputs(&old, &data) {
                            self.resolution = OnceLock::new();
                        }
                    }
                    None => {
                        self.link_refs(file, &data.ref_names);
                        self.resolution = OnceLock::new();
                    }
                }
                file
            }
            None => {
                let file = FileId(self.files.len() as u32);
                self.files.push(None);
                self.by_stem
                    .entry(file_stem(&key.1).into())
                    .or_default()
                    .push(file);
                self.by_path.insert(key, file);
                self.link_refs(file, &data.ref_names);
                self.resolution = OnceLock::new();
                file
            }
        };
        self.link_defs(file, &data, &mut changes);
        self.apply_name_changes(changes);
        self.files[file.0 as usize] = Some(data);
        self.n_live_files += 1;
        self.generation = next_generation();
        file
    }

    fn link_defs(&mut self, file: FileId, data: &FileData, changes: &mut NameChanges) {
        for (idx, def) in data.syntax.defs.iter().enumerate() {
            if !def.kind.is_named() {
                continue;
            }
            let entry = self.defs_by_name.entry(def.name.clone()).or_default();
            if entry.is_empty() {
                self.names_by_lower
                    .entry(def.name.to_lowercase().into_boxed_str())
                    .or_default()
                    .push(def.name.clone());
                changes.added.push(def.name.clone());
            }
            let def_id = DefId {
                file,
                idx: idx as u32,
            };
            entry.push(def_id);
            if let (None, Some(container)) = (def.parent, &def.container) {
                self.defs_by_container
                    .entry(container.clone())
                    .or_default()
                    .push(def_id);
            }
        }
    }

    fn unlink_defs(&mut self, file: FileId, data: &FileData, changes: &mut NameChanges) {
        for def in data.syntax.named_defs() {
            if let (None, Some(container)) = (def.parent, &def.container) {
                if let Some(entry) = self.defs_by_container.get_mut(container) {
                    entry.retain(|def_id| def_id.file != file);
                    if entry.is_empty() {
                        self.defs_by_container.remove(container);
                    }
                }
            }
            let Some(entry) = self.defs_by_name.get_mut(&def.name) else {
                continue;
            };
            entry.retain(|def_id| def_id.file != file);
            if entry.is_empty() {
                self.defs_by_name.remove(&def.name);
                let lower = def.name.to_lowercase();
                if let Some(names) = self.names_by_lower.get_mut(lower.as_str()) {
                    names.retain(|name| name != &def.name);
                    if names.is_empty() {
                        self.names_by_lower.remove(lower.as_str());
                    }
                }
                changes.removed.push(def.name.clone());
            }
        }
    }

    fn link_refs(&mut self, file: FileId, names: &[Box<str>]) {
        for name in names {
            self.refs_by_name
                .entry(name.clone())
                .or_default()
                .push(file);
        }
    }

    fn unlink_refs(&mut self, file: FileId, names: &[Box<str>]) {
        for name in names {
            if let Some(entry) = self.refs_by_name.get_mut(name) {
                entry.retain(|other| *other != file);
                if entry.is_empty() {
                    self.refs_by_name.remove(name);
                }
            }
        }
    }

    /// Moves `file` from the reference lists of `old` to those of `new` (both sorted),
    /// touching only the names that differ.
    fn relink_refs(&mut self, file: FileId, old: &[Box<str>], new: &[Box<str>]) {
        let (mut old_idx, mut new_idx) = (0, 0);
        let (mut gone, mut fresh) = (Vec::new(), Vec::new());
        while old_idx < old.len() || new_idx < new.len() {
            match (old.get(old_idx), new.get(new_idx)) {
                (Some(a), Some(b)) if a == b => {
                    old_idx += 1;
                    new_idx += 1;
                }
                (Some(a), Some(b)) if a < b => {
                    gone.push(a.clone());
                    old_idx += 1;
                }
                (Some(a), None) => {
                    gone.push(a.clone());
                    old_idx += 1;
                }
                (_, Some(b)) => {
                    fresh.push(b.clone());
                    new_idx += 1;
                }
                (None, None) => unreachable!("loop condition"),
            }
        }
        self.unlink_refs(file, &gone);
        self.link_refs(file, &fresh);
    }

    /// Brings the sorted name list (when it has been built) up to date: a name removed and
    /// added again by one replacement is left alone.
    fn apply_name_changes(&mut self, changes: NameChanges) {
        let Some(names) = self.symbol_names.get_mut() else {
            return;
        };
        if changes.added.is_empty() && changes.removed.is_empty() {
            return;
        }
        let removed: FxHashSet<&str> = changes.removed.iter().map(|name| &**name).collect();
        let added: FxHashSet<&str> = changes.added.iter().map(|name| &**name).collect();
        let mut net_removed: Vec<&str> = removed.difference(&added).copied().collect();
        let mut net_added: Vec<&str> = added.difference(&removed).copied().collect();
        net_removed.sort_unstable();
        net_added.sort_unstable();
        names.update(&net_removed, &net_added);
    }

    /// Builds the tables otherwise built on first use (import resolution, the sorted symbol
    /// names), so that the first request after indexing costs what later ones do.
    pub fn warm_up(&self) {
        self.resolution();
        self.symbol_names().warm_up();
    }

    fn resolution(&self) -> &Resolution {
        self.resolution.get_or_init(|| {
            let modules = resolve::ModuleMap::build(self);
            let graph = ImportGraph::build(self, &modules);
            Resolution { modules, graph }
        })
    }

    fn symbol_names(&self) -> &symbols::SymbolNames {
        self.symbol_names
            .get_or_init(|| symbols::SymbolNames::new(self.defs_by_name.keys().cloned().collect()))
    }

    /// The resolved import graph (files importing and imported by each file).
    pub fn import_graph(&self) -> &ImportGraph {
        &self.resolution().graph
    }

    /// The files an import of `file` refers to.
    pub fn resolve_import(&self, file: FileId, import: &crate::syntax::Import) -> Vec<FileId> {
        self.resolution().modules.resolve(self, file, import)
    }

    /// The function a Rust path from its crate's root names, as a backtrace writes it
    /// (`app::benchmark::Benchmark::run`): the module file by the crate's name and the file
    /// layout (see `ModuleMap::rust_item_module`), then the function in it by its name and
    /// its type or inline module (`Benchmark`), or at the module's top level.
    pub fn rust_path_def(&self, path: &str) -> Option<DefId> {
        let segments: Vec<&str> = path.split("::").collect();
        let modules = self.resolution().modules.rust_item_modules(self, &segments);
        modules.into_iter().find_map(|(file, items)| {
            let (name, outer) = items.split_last()?;
            self.file_defs(file).find(|def_id| {
                self.def(*def_id).is_some_and(|def| {
                    &*def.name == *name
                        && def.kind.is_callable()
                        && match outer.last() {
                            Some(container) => self.container_name(*def_id) == Some(*container),
                            None => def.parent.is_none(),
                        }
                })
            })
        })
    }

    /// The definition with this name in `file`'s top level (or inside a module).
    pub fn top_level_def(&self, file: FileId, name: &str) -> Option<DefId> {
        let data = self.file(file)?;
        // A definition named after its module is also found under what the node standing for
        // its name spells: `import resolveConfig from './resolveConfig.js'` imports `default`.
        let is_named = |def: &Def| {
            &*def.name == name
                || (def.named_after_module
                    && data.text.get(def.name_range.as_usize()) == Some(name))
        };
        data.syntax
            .defs
            .iter()
            .position(|def| def.parent.is_none() && is_named(def))
            .map(|idx| DefId {
                file,
                idx: idx as u32,
            })
    }

    /// Every definition of a file, in file order.
    pub fn file_defs(&self, file: FileId) -> impl Iterator<Item = DefId> + '_ {
        let n_defs = self
            .file(file)
            .map_or(0, |data| data.syntax.defs.len() as u32);
        (0..n_defs).map(move |idx| DefId { file, idx })
    }

    /// The definitions at the top of a file (no enclosing definition), in file order.
    pub fn top_level_defs(&self, file: FileId) -> impl Iterator<Item = DefId> + '_ {
        self.defs_in(file, None)
    }

    /// The definitions directly inside `def` (a class's methods and fields), in file order.
    pub fn members(&self, def: DefId) -> impl Iterator<Item = DefId> + '_ {
        self.defs_in(def.file, Some(def.idx))
    }

    /// The definition `def` belongs to: its parent or, for a definition declared outside
    /// its type (see [`Index::container_name`]), the top-level definition of that name in
    /// its file or else the type of that name in its directory (a Go package).
    pub fn owner(&self, def: DefId) -> Option<DefId> {
        let data = self.file(def.file)?;
        let target = data.syntax.defs.get(def.idx as usize)?;
        if let Some(parent) = target.parent {
            return Some(DefId {
                file: def.file,
                idx: parent,
            });
        }
        let container = target.container.as_deref()?;
        let dir = parent_dir(&data.path);
        let candidates = self.defs_named(container);
        let top_level = |candidate: &DefId| {
            self.def(*candidate)
                .is_some_and(|other| other.parent.is_none() && other.container.is_none())
        };
        candidates
            .iter()
            .copied()
            .find(|candidate| candidate.file == def.file && top_level(candidate))
            .or_else(|| {
                // The first by path, so that the answer does not depend on the order files
                // were added in.
                candidates
                    .iter()
                    .copied()
                    .filter(|candidate| {
                        top_level(candidate)
                            && self
                                .def(*candidate)
                                .is_some_and(|other| other.kind.is_type())
                    })
                    .filter_map(|candidate| {
                        let other = self.file(candidate.file)?;
                        (other.root == data.root && parent_dir(&other.path) == dir)
                            .then_some((&*other.path, candidate))
                    })
                    .min()
                    .map(|(_, candidate)| candidate)
            })
    }

    /// The definitions declared outside `def` that belong to it (see [`Index::owner`]):
    /// a Go type's methods across its package, its own file's first, then by path.
    pub fn declared_members(&self, def: DefId) -> Vec<DefId> {
        let Some(name) = self.def(def).map(|data| &data.name) else {
            return Vec::new();
        };
        let mut found: Vec<DefId> = self
            .defs_by_container
            .get(name)
            .into_iter()
            .flatten()
            .copied()
            .filter(|member| self.owner(*member) == Some(def))
            .collect();
        found.sort_by_cached_key(|member| {
            let path = self.file(member.file).map(|data| &*data.path);
            (member.file != def.file, path, member.idx)
        });
        found
    }

    /// The definitions of a file whose parent is `parent`, in file order.
    fn defs_in(&self, file: FileId, parent: Option<u32>) -> impl Iterator<Item = DefId> + '_ {
        self.file(file).into_iter().flat_map(move |data| {
            data.syntax
                .defs
                .iter()
                .enumerate()
                .filter(move |(_, def)| def.parent == parent)
                .map(move |(idx, _)| DefId {
                    file,
                    idx: idx as u32,
                })
        })
    }

    /// Whether a definition is test code: in a test file, or marked test where it stands
    /// (a `#[test]` function, a `describe` block).
    pub fn is_test_def(&self, def: DefId) -> bool {
        self.file(def.file).is_some_and(|data| data.is_test)
            || self.def(def).is_some_and(|d| d.test)
    }

    /// The name of the type (or module) a definition belongs to: its parent's name, or the
    /// receiver type of a method declared outside its type (Go).
    pub fn container_name(&self, def: DefId) -> Option<&str> {
        let data = self.file(def.file)?;
        let target = data.syntax.defs.get(def.idx as usize)?;
        match target.parent {
            Some(parent) => Some(&data.syntax.defs[parent as usize].name),
            None => target.container.as_deref(),
        }
    }

    /// The definitions enclosing `offset` in `file`, innermost first.
    pub fn enclosing_defs(&self, file: FileId, offset: u32) -> Vec<DefId> {
        let Some(data) = self.file(file) else {
            return Vec::new();
        };
        let mut res: Vec<DefId> = data
            .syntax
            .defs
            .iter()
            .enumerate()
            .filter(|(_, def)| def.range.contains_inclusive(offset))
            .map(|(idx, _)| DefId {
                file,
                idx: idx as u32,
            })
            .collect();
        res.reverse();
        res
    }

    /// The text of a range of a file.
    pub fn text(&self, file: FileId, range: TextRange) -> &str {
        self.file(file)
            .and_then(|data| data.text.get(range.as_usize()))
            .unwrap_or("")
    }
}

/// Whether the module map and import graph built with `old` hold for `new`: the same file
/// (path and language) with the same imports apart from where they are.
fn same_resolution_inputs(old: &FileData, new: &FileData) -> bool {
    old.lang == new.lang
        && old.syntax.imports.len() == new.syntax.imports.len()
        && old
            .syntax
            .imports
            .iter()
            .zip(&new.syntax.imports)
            .all(|(a, b)| {
                a.source == b.source
                    && a.names == b.names
                    && a.module_binding == b.module_binding
                    && a.wildcard == b.wildcard
                    && a.reexport == b.reexport
            })
}
