//! A canonical text rendering of every table of the index, for tests that compare an index
//! updated file by file with one built from scratch.
//!
//! Invariant: the rendering names files by `(root, path)` and definitions by their path and
//! position in the file, never by `FileId`, and sorts every table, so two indexes over the
//! same files render identically whatever order the files were added, changed or removed in.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{DefId, Index};
use crate::base::FileId;

/// Symbol queries rendered by [`Index::canonical_dump`].
const DUMP_QUERIES: &[&str] = &["a", "get", "order", "Service", "test", "x_y", "New"];

impl Index {
    /// Every file's definitions, referenced names and manifests, sorted, one line each: a
    /// compact identity of the index, compared across processes (the server's
    /// `codectx.test.fingerprint` and the end-to-end tests' fresh builds).
    pub fn fingerprint(&self) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        for (_, data) in self.files() {
            for def in &data.syntax.defs {
                lines.push(format!(
                    "{}:{} def {} {} {}..{}",
                    data.root,
                    data.path,
                    def.kind.name(),
                    def.name,
                    def.range.start,
                    def.range.end
                ));
            }
            lines.push(format!(
                "{}:{} refs {}",
                data.root,
                data.path,
                data.ref_names.join(",")
            ));
        }
        for manifest in self.manifests() {
            lines.push(format!(
                "{}:{} manifest {}",
                manifest.root,
                manifest.path,
                manifest.text.len()
            ));
        }
        lines.sort();
        lines
    }

    /// Every table (files with their definitions, imports and references; definitions by
    /// name; names by lower case; the sorted names symbol search scans; files by referenced name; manifests; the import graph) and
    /// the answers to a few symbol searches, in a canonical, path-sorted form.
    pub fn canonical_dump(&self) -> String {
        self.canonical_dump_with_queries(DUMP_QUERIES)
    }

    /// [`Index::canonical_dump`] with the given symbol queries.
    pub fn canonical_dump_with_queries(&self, queries: &[&str]) -> String {
        let mut out = String::new();
        writeln!(out, "n_files: {}", self.n_files()).unwrap();

        let mut files: Vec<(String, FileId)> = self
            .files()
            .map(|(file, _)| (self.file_key(file), file))
            .collect();
        files.sort();
        for (key, file) in &files {
            let data = self.file(*file).expect("live file");
            writeln!(
                out,
                "file {key} {} test={} bytes={}",
                data.lang.name(),
                data.is_test,
                data.text.len()
            )
            .unwrap();
            for def in &data.syntax.defs {
                writeln!(out, "  def {def:?}").unwrap();
            }
            for import in &data.syntax.imports {
                writeln!(out, "  import {import:?}").unwrap();
            }
            for reference in &data.syntax.refs {
                writeln!(out, "  ref {:?} {reference:?}", data.ref_text(reference)).unwrap();
            }
            for issue in &data.syntax.issues {
                writeln!(out, "  issue {issue:?}").unwrap();
            }
            writeln!(out, "  ref_names {:?}", data.ref_names).unwrap();
        }
        // The id tables must point at live files only.
        let live_ids: Vec<FileId> = files.iter().map(|(_, file)| *file).collect();
        let mut by_path: Vec<String> = self
            .by_path
            .iter()
            .map(|((root, path), file)| {
                let live = live_ids.contains(file);
                format!("{root}:{path} live={live}")
            })
            .collect();
        by_path.sort();
        writeln!(out, "by_path {by_path:?}").unwrap();

        for (table, by_name) in [
            ("defs_by_name", &self.defs_by_name),
            ("defs_by_container", &self.defs_by_container),
        ] {
            let sorted: BTreeMap<&str, Vec<String>> = by_name
                .iter()
                .map(|(name, defs)| {
                    let mut rendered: Vec<String> =
                        defs.iter().map(|def| self.def_key(*def)).collect();
                    rendered.sort();
                    (&**name, rendered)
                })
                .collect();
            for (name, defs) in &sorted {
                writeln!(out, "{table} {name:?} {defs:?}").unwrap();
            }
        }
        let names_by_lower: BTreeMap<&str, Vec<&str>> = self
            .names_by_lower
            .iter()
            .map(|(lower, names)| {
                let mut names: Vec<&str> = names.iter().map(|name| &**name).collect();
                names.sort_unstable();
                (&**lower, names)
            })
            .collect();
        for (lower, names) in &names_by_lower {
            writeln!(out, "names_by_lower {lower:?} {names:?}").unwrap();
        }
        writeln!(out, "symbol_names {:?}", self.symbol_names().names).unwrap();
        let refs_by_name: BTreeMap<&str, Vec<String>> = self
            .refs_by_name
            .iter()
            .map(|(name, files)| (&**name, self.file_keys(files)))
            .collect();
        for (name, files) in &refs_by_name {
            writeln!(out, "refs_by_name {name:?} {files:?}").unwrap();
        }
        for manifest in self.manifests() {
            writeln!(
                out,
                "manifest {}:{} bytes={}",
                manifest.root,
                manifest.path,
                manifest.text.len()
            )
            .unwrap();
        }

        let graph = self.import_graph();
        for (key, file) in &files {
            writeln!(
                out,
                "graph {key} imports {:?} importers {:?}",
                self.file_keys_in_order(graph.imports(*file)),
                self.file_keys_in_order(graph.importers(*file))
            )
            .unwrap();
        }
        for query in queries {
            let hits: Vec<String> = self
                .search_symbols(query, 20)
                .iter()
                .map(|hit| {
                    format!(
                        "{} {} {}",
                        self.def_key(hit.def),
                        hit.tier.label(),
                        hit.score
                    )
                })
                .collect();
            writeln!(out, "search {query:?} {hits:?}").unwrap();
        }
        out
    }

    /// `root:path` of a file, or a marker for a dangling id.
    fn file_key(&self, file: FileId) -> String {
        match self.file(file) {
            Some(data) => format!("{}:{}", data.root, data.path),
            None => format!("<dead {file:?}>"),
        }
    }

    /// Sorted `root:path` keys of files, so that id order does not show.
    fn file_keys(&self, files: &[FileId]) -> Vec<String> {
        let mut keys: Vec<String> = files.iter().map(|file| self.file_key(*file)).collect();
        keys.sort();
        keys
    }

    /// `root:path` keys of files, in the given order (for lists whose order is defined).
    fn file_keys_in_order(&self, files: &[FileId]) -> Vec<String> {
        files.iter().map(|file| self.file_key(*file)).collect()
    }

    /// `root:path#idx name` of a definition.
    fn def_key(&self, def: DefId) -> String {
        let name = self.def(def).map_or("<dead>", |data| &data.name);
        format!("{}#{} {name}", self.file_key(def.file), def.idx)
    }
}
