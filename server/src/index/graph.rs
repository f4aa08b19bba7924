//! The resolved import graph: which files each file imports, and which import it.
//!
//! Invariant: derived from the index's files and manifests only; rebuilt after changes.

use super::resolve::ModuleMap;
use super::Index;
use crate::base::FileId;

#[derive(Default)]
pub struct ImportGraph {
    imports: Vec<Vec<FileId>>,
    importers: Vec<Vec<FileId>>,
}

impl ImportGraph {
    pub(crate) fn build(index: &Index, modules: &ModuleMap) -> ImportGraph {
        let n_slots = index.files.len();
        let mut graph = ImportGraph {
            imports: vec![Vec::new(); n_slots],
            importers: vec![Vec::new(); n_slots],
        };
        for (file, data) in index.files() {
            let mut targets: Vec<FileId> = Vec::new();
            for import in &data.syntax.imports {
                targets.extend(modules.resolve(index, file, import));
                for name in &import.names {
                    targets.extend(modules.resolve_submodule(
                        index,
                        file,
                        &import.source,
                        &name.name,
                    ));
                }
            }
            targets.sort_unstable();
            targets.dedup();
            targets.retain(|target| *target != file);
            for target in &targets {
                graph.importers[target.0 as usize].push(file);
            }
            graph.imports[file.0 as usize] = targets;
        }
        // Lists are in path order, so that they do not depend on the order files were
        // added in.
        let path_of = |file: &FileId| index.file(*file).map(|data| (data.root, data.path.clone()));
        for files in graph.imports.iter_mut().chain(graph.importers.iter_mut()) {
            files.sort_by_cached_key(path_of);
        }
        graph
    }

    /// Files that `file` imports, in path order.
    pub fn imports(&self, file: FileId) -> &[FileId] {
        self.imports.get(file.0 as usize).map_or(&[], Vec::as_slice)
    }

    /// Files that import `file`, in path order.
    pub fn importers(&self, file: FileId) -> &[FileId] {
        self.importers
            .get(file.0 as usize)
            .map_or(&[], Vec::as_slice)
    }
}
