//! Import resolution: module specifiers to the files they name, per language's module
//! system (Python packages, Node-style specifiers with workspace packages, Go modules,
//! Rust crates and module files).
//!
//! Invariant: pure over the index's files and manifests (no IO); unresolvable specifiers
//! (standard library, third-party packages) resolve to nothing.
//! Manifests are parsed here (JSON for `package.json`, a line scan for `go.mod` and
//! `Cargo.toml`); this is the one place outside `lsp` that reads JSON.

use super::{parent_dir, Index, Manifest};
use crate::base::{FileId, FxHashMap};
use crate::languages::Language;
use crate::syntax::Import;

const JS_EXTENSIONS: &[&str] = &[
    ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts",
];

/// Tables that map module names to files, rebuilt when the set of files changes.
#[derive(Default)]
pub(crate) struct ModuleMap {
    /// Dotted module name (and each of its suffixes) -> Python files.
    python: FxHashMap<String, Vec<FileId>>,
    /// Package name -> (root, package directory, entry candidates from package.json).
    js_packages: FxHashMap<String, (u32, String, Vec<String>)>,
    /// (root, module path, directory of go.mod).
    go_modules: Vec<(u32, String, String)>,
    /// (root, directory) -> Go files in it.
    go_dirs: FxHashMap<(u32, String), Vec<FileId>>,
    /// Crate name (with `_`) -> (root, crate directory).
    rust_crates: FxHashMap<String, (u32, String)>,
    /// Binary name (with `_`; `[[bin]]` targets and a package with `src/main.rs`) -> (root,
    /// crate directory, the binary's root file from the crate directory).
    rust_bins: FxHashMap<String, (u32, String, String)>,
    /// (root, crate directory, module path joined by `::`) -> module file.
    rust_modules: FxHashMap<(u32, String, String), FileId>,
    /// Rust file -> (crate directory, module path).
    rust_file_modules: FxHashMap<FileId, (String, Vec<String>)>,
}

fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() {
        rest.to_owned()
    } else if rest.is_empty() {
        dir.to_owned()
    } else {
        format!("{dir}/{rest}")
    }
}

/// Joins and normalizes `.` and `..` segments; `None` when the path climbs above the root.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

fn common_prefix_len(a: &str, b: &str) -> usize {
    a.split('/')
        .zip(b.split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

impl ModuleMap {
    pub(crate) fn build(index: &Index) -> ModuleMap {
        let mut map = ModuleMap::default();
        for manifest in index.manifests() {
            map.add_manifest(manifest);
        }
        // Crate directories sorted deepest first, so the nearest Cargo.toml wins.
        let mut crate_dirs: Vec<(u32, String)> = map.rust_crates.values().cloned().collect();
        crate_dirs.sort_by_key(|(root, dir)| (std::cmp::Reverse(dir.len()), *root, dir.clone()));
        for (file, data) in index.files() {
            let path = &*data.path;
            match data.lang {
                Language::Python => {
                    let module = path
                        .strip_suffix(".py")
                        .or_else(|| path.strip_suffix(".pyi"))
                        .unwrap_or(path);
                    let module = module.strip_suffix("/__init__").unwrap_or(module);
                    let module = if module == "__init__" { "" } else { module };
                    let segments: Vec<&str> = module.split('/').filter(|s| !s.is_empty()).collect();
                    for start in 0..segments.len() {
                        map.python
                            .entry(segments[start..].join("."))
                            .or_default()
                            .push(file);
                    }
                }
                Language::Go => map
                    .go_dirs
                    .entry((data.root, parent_dir(path).to_owned()))
                    .or_default()
                    .push(file),
                Language::Rust => {
                    if let Some((crate_dir, module)) = rust_module_of(&crate_dirs, data.root, path)
                    {
                        // Two files can claim one module (`lib.rs` and `main.rs`, `a.rs`
                        // and `a/mod.rs`); the first path wins, whatever the id order.
                        let key = (data.root, crate_dir.clone(), module.join("::"));
                        let slot = map.rust_modules.entry(key).or_insert(file);
                        let holder = index.file(*slot).map(|holder| &holder.path);
                        if holder.is_some_and(|holder| **holder > *data.path) {
                            *slot = file;
                        }
                        map.rust_file_modules.insert(file, (crate_dir, module));
                    }
                }
                _ => {}
            }
        }
        // Path order, not id order, so that resolution does not depend on the order files
        // were added in.
        let by_path = |files: &mut Vec<FileId>| {
            files.sort_by_cached_key(|file| index.file(*file).map(|data| data.path.clone()));
        };
        map.python.values_mut().for_each(by_path);
        map.go_dirs.values_mut().for_each(by_path);
        map
    }

    fn add_manifest(&mut self, manifest: &Manifest) {
        let dir = parent_dir(&manifest.path).to_owned();
        let file_name = manifest.path.rsplit('/').next().unwrap_or(&manifest.path);
        match file_name {
            "package.json" => {
                let Ok(json) = serde_json::from_str::<serde_json::Value>(&manifest.text) else {
                    tracing::debug!(path = %manifest.path, "unparsable package.json");
                    return;
                };
                let Some(name) = json.get("name").and_then(|name| name.as_str()) else {
                    return;
                };
                let entries = ["source", "types", "typings", "module", "main"]
                    .iter()
                    .filter_map(|field| json.get(*field).and_then(|value| value.as_str()))
                    .map(|entry| entry.trim_start_matches("./").to_owned())
                    .collect();
                self.js_packages
                    .insert(name.to_owned(), (manifest.root, dir, entries));
            }
            "go.mod" => {
                let module = manifest
                    .text
                    .lines()
                    .find_map(|line| line.trim().strip_prefix("module "))
                    .map(|module| module.trim().trim_matches('"').to_owned());
                if let Some(module) = module {
                    self.go_modules.push((manifest.root, module, dir));
                }
            }
            "Cargo.toml" => {
                for (name, path) in cargo_bins(&manifest.text) {
                    self.rust_bins
                        .insert(name.replace('-', "_"), (manifest.root, dir.clone(), path));
                }
                if let Some(name) = cargo_package_name(&manifest.text) {
                    let name = name.replace('-', "_");
                    self.rust_bins
                        .entry(name.clone())
                        .or_insert_with(|| (manifest.root, dir.clone(), "src/main.rs".to_owned()));
                    self.rust_crates.insert(name, (manifest.root, dir));
                }
            }
            _ => {}
        }
    }

    /// The files an import refers to (the module, not the imported names).
    pub(crate) fn resolve(&self, index: &Index, file: FileId, import: &Import) -> Vec<FileId> {
        let Some(data) = index.file(file) else {
            return Vec::new();
        };
        match data.lang {
            Language::Python => self.resolve_python(index, file, &import.source),
            Language::JavaScript | Language::TypeScript | Language::Tsx => self
                .resolve_js(index, data.root, &data.path, &import.source)
                .into_iter()
                .collect(),
            Language::Go => self.resolve_go(data.root, &import.source),
            Language::Rust => self
                .resolve_rust(index, file, &import.source)
                .into_iter()
                .collect(),
        }
    }

    /// Resolves `source` joined with one of its imported names, for names that are modules
    /// themselves (`from pkg import submodule`, `use crate::{codec}`).
    pub(crate) fn resolve_submodule(
        &self,
        index: &Index,
        file: FileId,
        source: &str,
        name: &str,
    ) -> Vec<FileId> {
        let Some(data) = index.file(file) else {
            return Vec::new();
        };
        match data.lang {
            Language::Python => {
                let joined = if source.ends_with('.') {
                    format!("{source}{name}")
                } else {
                    format!("{source}.{name}")
                };
                self.resolve_python(index, file, &joined)
            }
            Language::Rust => {
                let joined = if name == "self" {
                    source.to_owned()
                } else {
                    format!("{source}::{name}")
                };
                self.resolve_rust_exact(index, file, &joined)
                    .into_iter()
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    fn resolve_python(&self, index: &Index, file: FileId, source: &str) -> Vec<FileId> {
        let Some(data) = index.file(file) else {
            return Vec::new();
        };
        let n_dots = source.chars().take_while(|&ch| ch == '.').count();
        if n_dots > 0 {
            let mut dir = parent_dir(&data.path).to_owned();
            for _ in 1..n_dots {
                if dir.is_empty() {
                    return Vec::new();
                }
                dir = parent_dir(&dir).to_owned();
            }
            let rest = source[n_dots..].replace('.', "/");
            let base = join(&dir, &rest);
            let candidates = [
                format!("{base}.py"),
                format!("{base}.pyi"),
                join(&base, "__init__.py"),
            ];
            return candidates
                .iter()
                .find_map(|candidate| index.file_id(data.root, candidate))
                .into_iter()
                .collect();
        }
        let Some(files) = self.python.get(source) else {
            return Vec::new();
        };
        // Several files can end in the same dotted name; the one nearest the importer wins,
        // then the one whose full path spells the name (a top-level package).
        let best = files.iter().copied().max_by_key(|candidate| {
            let Some(candidate_data) = index.file(*candidate) else {
                return (0, 0, std::cmp::Reverse(usize::MAX));
            };
            let full = candidate_data
                .path
                .trim_end_matches(".py")
                .trim_end_matches("/__init__");
            let spells_name = full.replace('/', ".") == source;
            (
                common_prefix_len(&candidate_data.path, &data.path),
                usize::from(spells_name),
                std::cmp::Reverse(candidate_data.path.len()),
            )
        });
        best.into_iter().collect()
    }

    fn js_file(&self, index: &Index, root: u32, base: &str) -> Option<FileId> {
        if let Some(file) = index.file_id(root, base) {
            if Language::from_path(base).is_some() {
                return Some(file);
            }
        }
        // `./x.js` in TypeScript sources names `./x.ts`.
        let stripped = [".js", ".jsx", ".mjs", ".cjs"]
            .iter()
            .find_map(|ext| base.strip_suffix(ext));
        for stem in [Some(base), stripped].into_iter().flatten() {
            for ext in JS_EXTENSIONS {
                if let Some(file) = index.file_id(root, &format!("{stem}{ext}")) {
                    return Some(file);
                }
            }
        }
        for ext in JS_EXTENSIONS {
            if let Some(file) = index.file_id(root, &format!("{base}/index{ext}")) {
                return Some(file);
            }
        }
        None
    }

    fn resolve_js(&self, index: &Index, root: u32, path: &str, source: &str) -> Option<FileId> {
        if source.starts_with('.') {
            let base = normalize(&join(parent_dir(path), source))?;
            return self.js_file(index, root, &base);
        }
        if source.starts_with('/') {
            return None;
        }
        let mut parts = source.splitn(3, '/');
        let first = parts.next()?;
        let (package, subpath) = if first.starts_with('@') {
            let second = parts.next()?;
            (format!("{first}/{second}"), parts.next().unwrap_or(""))
        } else {
            let rest = source
                .strip_prefix(first)
                .unwrap_or("")
                .trim_start_matches('/');
            (first.to_owned(), rest)
        };
        let (package_root, dir, entries) = self.js_packages.get(&package)?;
        if !subpath.is_empty() {
            return self
                .js_file(index, *package_root, &join(dir, subpath))
                .or_else(|| {
                    self.js_file(index, *package_root, &join(dir, &format!("src/{subpath}")))
                });
        }
        for entry in entries {
            if let Some(file) = self.js_file(index, *package_root, &join(dir, entry)) {
                return Some(file);
            }
            // Built entries (`dist/index.js`) usually mirror sources under `src/`.
            if let Some(rest) = entry
                .strip_prefix("dist/")
                .or_else(|| entry.strip_prefix("lib/"))
            {
                if let Some(file) =
                    self.js_file(index, *package_root, &join(dir, &format!("src/{rest}")))
                {
                    return Some(file);
                }
            }
        }
        self.js_file(index, *package_root, &join(dir, "src/index"))
            .or_else(|| self.js_file(index, *package_root, &join(dir, "index")))
    }

    fn resolve_go(&self, root: u32, source: &str) -> Vec<FileId> {
        for (module_root, module, dir) in &self.go_modules {
            if *module_root != root {
                continue;
            }
            let rest = if source == module {
                ""
            } else if let Some(rest) = source
                .strip_prefix(module.as_str())
                .and_then(|rest| rest.strip_prefix('/'))
            {
                rest
            } else {
                continue;
            };
            if let Some(files) = self.go_dirs.get(&(root, join(dir, rest))) {
                return files.clone();
            }
        }
        Vec::new()
    }

    /// The files of the Go package `file` belongs to (its directory).
    pub(crate) fn go_package_files(&self, root: u32, path: &str) -> &[FileId] {
        self.go_dirs
            .get(&(root, parent_dir(path).to_owned()))
            .map_or(&[], Vec::as_slice)
    }

    /// The module file a Rust path names, or of its longest prefix that is a module.
    fn resolve_rust(&self, index: &Index, file: FileId, source: &str) -> Option<FileId> {
        let (root, crate_dir, segments) = self.rust_path(index, file, source)?;
        (0..=segments.len()).rev().find_map(|len| {
            self.rust_modules
                .get(&(root, crate_dir.clone(), segments[..len].join("::")))
                .copied()
        })
    }

    fn resolve_rust_exact(&self, index: &Index, file: FileId, source: &str) -> Option<FileId> {
        let (root, crate_dir, segments) = self.rust_path(index, file, source)?;
        self.rust_modules
            .get(&(root, crate_dir, segments.join("::")))
            .copied()
    }

    /// The module file a Rust path from its crate's root names, by the crate's package name
    /// (`-` read as `_`) and the file layout, and the rest of the path, the items inside that
    /// module: `app::util::min_max::max` -> (`src/util/min_max.rs`, `["max"]`).
    /// A binary's crate (`[[bin]] name = "kv"`, or a package with `src/main.rs` beside its
    /// `lib.rs`) has its own root file and shares the package's other modules; each
    /// candidate is tried in turn.
    pub(crate) fn rust_item_modules<'p>(
        &self,
        index: &Index,
        segments: &'p [&'p str],
    ) -> Vec<(FileId, &'p [&'p str])> {
        let mut found = Vec::new();
        let Some((first, rest)) = segments.split_first() else {
            return found;
        };
        let module = |root: u32, crate_dir: &str, min_len: usize| {
            (min_len..=rest.len()).rev().find_map(|len| {
                self.rust_modules
                    .get(&(root, crate_dir.to_owned(), rest[..len].join("::")))
                    .map(|file| (*file, &rest[len..]))
            })
        };
        if let Some((root, crate_dir)) = self.rust_crates.get(*first) {
            found.extend(module(*root, crate_dir, 0));
        }
        if let Some((root, crate_dir, main)) = self.rust_bins.get(*first) {
            let in_root = index
                .file_id(*root, &join(crate_dir, main))
                .map(|file| (file, rest));
            for candidate in module(*root, crate_dir, 1).into_iter().chain(in_root) {
                if !found.contains(&candidate) {
                    found.push(candidate);
                }
            }
        }
        found
    }

    /// The crate and absolute module path a Rust path names, from `file`'s point of view.
    fn rust_path(
        &self,
        index: &Index,
        file: FileId,
        source: &str,
    ) -> Option<(u32, String, Vec<String>)> {
        let data = index.file(file)?;
        let (crate_dir, current) = self.rust_file_modules.get(&file)?;
        let mut segments: Vec<&str> = source.split("::").filter(|s| !s.is_empty()).collect();
        let mut base: Vec<String>;
        let mut crate_dir = crate_dir.clone();
        match segments.first().copied() {
            Some("crate") => {
                base = Vec::new();
                segments.remove(0);
            }
            Some("self") => {
                base = current.clone();
                segments.remove(0);
            }
            Some("super") => {
                base = current.clone();
                while segments.first() == Some(&"super") {
                    base.pop();
                    segments.remove(0);
                }
            }
            Some(first) => {
                if let Some((_, other_dir)) = self.rust_crates.get(first) {
                    crate_dir = other_dir.clone();
                    base = Vec::new();
                    segments.remove(0);
                } else {
                    // A module declared in the current module (2018 paths), else the crate root.
                    let mut child = current.clone();
                    child.push(first.to_owned());
                    let is_child = self.rust_modules.contains_key(&(
                        data.root,
                        crate_dir.clone(),
                        child.join("::"),
                    ));
                    base = if is_child {
                        current.clone()
                    } else {
                        Vec::new()
                    };
                    let from_root = self.rust_modules.contains_key(&(
                        data.root,
                        crate_dir.clone(),
                        first.to_owned(),
                    ));
                    if !is_child && !from_root {
                        return None;
                    }
                }
            }
            None => return None,
        }
        base.extend(segments.iter().map(|s| (*s).to_owned()));
        Some((data.root, crate_dir, base))
    }
}

fn cargo_package_name(text: &str) -> Option<String> {
    let mut in_package = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
            continue;
        }
        if in_package {
            if let Some(value) = line.strip_prefix("name").map(str::trim_start) {
                if let Some(value) = value.strip_prefix('=') {
                    return Some(value.trim().trim_matches('"').to_owned());
                }
            }
        }
    }
    None
}

/// The `[[bin]]` targets of a `Cargo.toml`: each one's name and root file (`src/main.rs` for
/// the one named after the package, `src/bin/<name>.rs` for the others, unless a `path` says).
fn cargo_bins(text: &str) -> Vec<(String, String)> {
    let package = cargo_package_name(text);
    let mut bins: Vec<(Option<String>, Option<String>)> = Vec::new();
    let mut in_bin = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
            if in_bin {
                bins.push((None, None));
            }
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim().trim_matches('"').to_owned();
        match (in_bin, bins.last_mut(), key.trim()) {
            (true, Some(bin), "name") => bin.0 = Some(value),
            (true, Some(bin), "path") => bin.1 = Some(value),
            _ => {}
        }
    }
    bins.into_iter()
        .filter_map(|(name, path)| {
            let name = name?;
            let path = path.unwrap_or_else(|| {
                if package.as_deref() == Some(name.as_str()) {
                    "src/main.rs".to_owned()
                } else {
                    format!("src/bin/{name}.rs")
                }
            });
            Some((name, path))
        })
        .collect()
}

/// The crate directory and module path of a Rust file by the file-layout conventions
/// (`src/lib.rs` is the crate root, `src/a/mod.rs` and `src/a.rs` are `a`; files under
/// `tests/`, `examples/`, `benches/` and `src/bin/` are crate roots of their own).
fn rust_module_of(
    crate_dirs: &[(u32, String)],
    root: u32,
    path: &str,
) -> Option<(String, Vec<String>)> {
    let (_, crate_dir) = crate_dirs
        .iter()
        .find(|(crate_root, dir)| {
            *crate_root == root && (dir.is_empty() || path.starts_with(&format!("{dir}/")))
        })
        .cloned()
        .or_else(|| Some((root, String::new())))?;
    let rel = if crate_dir.is_empty() {
        path
    } else {
        &path[crate_dir.len() + 1..]
    };
    let stem = rel.strip_suffix(".rs")?;
    for own_root in ["tests/", "examples/", "benches/", "src/bin/"] {
        if stem.starts_with(own_root) {
            return Some((join(&crate_dir, stem), Vec::new()));
        }
    }
    let in_src = stem.strip_prefix("src/").unwrap_or(stem);
    let mut segments: Vec<String> = in_src.split('/').map(str::to_owned).collect();
    match segments.last().map(String::as_str) {
        Some("lib" | "main") if segments.len() == 1 => segments.clear(),
        Some("mod") => {
            segments.pop();
        }
        _ => {}
    }
    Some((crate_dir, segments))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_normalize_and_never_climb_above_the_root() {
        assert_eq!(normalize("a/b/../c/./d").as_deref(), Some("a/c/d"));
        assert_eq!(normalize("../x"), None);
    }

    #[test]
    fn cargo_names_come_from_the_package_section() {
        let text =
            "[workspace]\nmembers = []\n[package]\nname = \"kv-core\"\nversion = \"0.1.0\"\n";
        assert_eq!(cargo_package_name(text).as_deref(), Some("kv-core"));
        assert_eq!(cargo_package_name("[dependencies]\nname = \"x\"\n"), None);
        let bins = "[package]\nname = \"kv-cli\"\n[[bin]]\nname = \"kv\"\npath = \"src/main.rs\"\n[[bin]]\nname = \"kv-dump\"\n[[bin]]\nname = \"kv-cli\"\n[dependencies]\nname = \"x\"\n";
        assert_eq!(
            cargo_bins(bins),
            [
                ("kv".to_owned(), "src/main.rs".to_owned()),
                ("kv-dump".to_owned(), "src/bin/kv-dump.rs".to_owned()),
                ("kv-cli".to_owned(), "src/main.rs".to_owned()),
            ]
        );
    }

    #[test]
    fn rust_module_paths_follow_the_file_layout() {
        let crates = vec![(0, "crates/core".to_owned())];
        let module = |path| {
            rust_module_of(&crates, 0, path).map(|(dir, segs)| format!("{dir}:{}", segs.join("::")))
        };
        assert_eq!(
            module("crates/core/src/lib.rs").as_deref(),
            Some("crates/core:")
        );
        assert_eq!(
            module("crates/core/src/codec/mod.rs").as_deref(),
            Some("crates/core:codec")
        );
        assert_eq!(
            module("crates/core/src/codec/varint.rs").as_deref(),
            Some("crates/core:codec::varint")
        );
        assert_eq!(
            module("crates/core/tests/it.rs").as_deref(),
            Some("crates/core/tests/it:")
        );
    }
}
