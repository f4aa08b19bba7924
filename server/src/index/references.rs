//! Find references: the occurrences of the name at a position in the files that reference
//! it, narrowed to the files that can see its definitions (their own files, their
//! importers, through package barrels, and a Go package's directory) when any is known, less
//! the uses that resolve to other definitions.
//!
//! Invariant: no LSP types; offsets are bytes; answers are sorted and without duplicates.

use super::{module_name, FilePosition, Index};
use crate::base::{identifier_at, FileId, FxHashSet, TextRange};
use crate::languages::Language;

/// How many files are searched between two calls of the caller's cancellation check.
const CHECK_EVERY_N_FILES: usize = 64;

/// Files whose imports re-export what they import (package `__init__.py`, `index.ts`, ...).
fn is_barrel(path: &str) -> bool {
    matches!(module_name(path), "__init__" | "index" | "mod" | "lib")
}

impl Index {
    /// The references to the name at `pos` (`textDocument/references`), as (file, name range)
    /// pairs sorted by file and then position: its occurrences in the files that can see the
    /// definitions [`Index::goto_definition`] gives for it, or, when it gives none, in every
    /// file referencing the name; a use that [`Index::resolves_elsewhere`] to definitions
    /// other than those is left out. `include_declaration` adds the definitions' names.
    /// `None` when no identifier is at `pos`.
    ///
    /// `check` is called before the first file searched and then every
    /// [`CHECK_EVERY_N_FILES`]; its error (a cancelled request) ends the search.
    pub fn references<E>(
        &self,
        pos: FilePosition,
        include_declaration: bool,
        mut check: impl FnMut() -> Result<(), E>,
    ) -> Result<Option<Vec<(FileId, TextRange)>>, E> {
        let Some(data) = self.file(pos.file) else {
            return Ok(None);
        };
        let Some(name_range) = identifier_at(&data.text, pos.offset) else {
            return Ok(None);
        };
        let targets = self.goto_definition(pos);
        // On a definition named after its module, the cursor is on the node standing for its
        // name (`default`); its uses spell the name.
        let name = targets
            .iter()
            .filter(|target| target.file == pos.file && target.name_range == name_range)
            .filter_map(|target| self.def(target.def))
            .find(|def| def.named_after_module)
            .map_or(&data.text[name_range.as_usize()], |def| &*def.name);
        let visible: Option<FxHashSet<FileId>> = (!targets.is_empty()).then(|| {
            let mut acc = FxHashSet::default();
            acc.insert(pos.file);
            for target in &targets {
                self.visible_from(target.file, &mut acc);
            }
            acc
        });
        let mut res: Vec<(FileId, TextRange)> = Vec::new();
        for (file_idx, file) in self.files_referencing(name).iter().enumerate() {
            if file_idx % CHECK_EVERY_N_FILES == 0 {
                check()?;
            }
            if visible
                .as_ref()
                .is_some_and(|visible| !visible.contains(file))
            {
                continue;
            }
            let Some(file_data) = self.file(*file) else {
                continue;
            };
            for reference in file_data.refs_named(name) {
                // A use of the name that resolves to other definitions (another type's method
                // of the same name, a library module's function) is not a reference.
                let elsewhere = !targets.is_empty()
                    && targets
                        .iter()
                        .all(|target| self.resolves_elsewhere(*file, reference, target.def));
                if !elsewhere {
                    res.push((*file, reference.range));
                }
            }
        }
        if include_declaration {
            res.extend(
                targets
                    .iter()
                    .map(|target| (target.file, target.name_range)),
            );
        }
        res.sort_unstable();
        res.dedup();
        Ok(Some(res))
    }

    /// Adds to `acc` the files that can see the definitions in `def_file`: the file itself, its
    /// importers, the importers of the barrels that import it (at any depth) and, for Go, every
    /// file of its package (directory) under the same root.
    fn visible_from(&self, def_file: FileId, acc: &mut FxHashSet<FileId>) {
        let graph = self.import_graph();
        // The walk keeps its own visited set: a file already in `acc` (the file asked from,
        // which is the definition's own when the cursor is on its name) still has importers.
        let mut walked: FxHashSet<FileId> = FxHashSet::default();
        let mut stack = vec![def_file];
        while let Some(file) = stack.pop() {
            if !walked.insert(file) {
                continue;
            }
            acc.insert(file);
            for importer in graph.importers(file) {
                let through_barrel = self
                    .file(*importer)
                    .is_some_and(|data| is_barrel(&data.path));
                if through_barrel {
                    stack.push(*importer);
                } else {
                    acc.insert(*importer);
                }
            }
        }
        let Some(data) = self.file(def_file) else {
            return;
        };
        if data.lang == Language::Go {
            acc.extend(
                self.resolution()
                    .modules
                    .go_package_files(data.root, &data.path),
            );
        }
    }
}
