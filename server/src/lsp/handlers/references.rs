//! `textDocument/references`: occurrences of the name under the cursor in the files that
//! reference it, narrowed to the files that can see the definition (its file, its importers,
//! through package barrels, and its Go package directory) when the definition is known.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{Location, ReferenceParams};

use super::identifier_at;
use crate::base::{FileId, FxHashSet};
use crate::index::Index;
use crate::languages::Language;
use crate::lsp::dispatch::run_request;
use crate::lsp::from_proto;
use crate::lsp::state::Shared;
use crate::lsp::to_proto;

/// Files whose imports re-export what they import (package `__init__.py`, `index.ts`, ...).
fn is_barrel(path: &str) -> bool {
    let file_name = path.rsplit('/').next().unwrap_or(path);
    let stem = file_name.split('.').next().unwrap_or(file_name);
    matches!(stem, "__init__" | "index" | "mod" | "lib")
}

/// The files that can see definitions in `def_file`.
fn visible_from(index: &Index, def_file: FileId, acc: &mut FxHashSet<FileId>) {
    let graph = index.import_graph();
    let mut stack = vec![def_file];
    while let Some(file) = stack.pop() {
        if !acc.insert(file) {
            continue;
        }
        for importer in graph.importers(file) {
            let through_barrel = index
                .file(*importer)
                .is_some_and(|data| is_barrel(&data.path));
            if through_barrel {
                stack.push(*importer);
            } else {
                acc.insert(*importer);
            }
        }
    }
    // Go: every file of the package (directory) sees the package's names.
    let Some(data) = index.file(def_file) else {
        return;
    };
    if data.lang == Language::Go {
        let dir = data.path.rsplit_once('/').map_or("", |(dir, _)| dir);
        for (file, other) in index.files() {
            let other_dir = other.path.rsplit_once('/').map_or("", |(dir, _)| dir);
            if other.root == data.root && other.lang == Language::Go && other_dir == dir {
                acc.insert(file);
            }
        }
    }
}

pub async fn handle(
    shared: &Arc<Shared>,
    params: ReferenceParams,
) -> Result<Option<Vec<Location>>> {
    run_request(shared, "textDocument/references", move |world, cancel| {
        let at = params.text_document_position;
        let Some(position) = from_proto::file_position(world, &at.text_document.uri, at.position)
        else {
            return Ok(None);
        };
        let index = &world.index;
        let Some(data) = index.file(position.file) else {
            return Ok(None);
        };
        let Some(name_range) = identifier_at(&data.text, position.offset) else {
            return Ok(None);
        };
        let name = &data.text[name_range.as_usize()];
        let targets = index.goto_definition(position);
        let visible: Option<FxHashSet<FileId>> = (!targets.is_empty()).then(|| {
            let mut acc = FxHashSet::default();
            acc.insert(position.file);
            for target in &targets {
                visible_from(index, target.file, &mut acc);
            }
            acc
        });
        let mut locations: Vec<(FileId, crate::base::TextRange)> = Vec::new();
        for (file_idx, file) in index.files_referencing(name).iter().enumerate() {
            if file_idx % 64 == 0 {
                cancel.check()?;
            }
            if visible
                .as_ref()
                .is_some_and(|visible| !visible.contains(file))
            {
                continue;
            }
            let Some(file_data) = index.file(*file) else {
                continue;
            };
            for reference in file_data.refs_named(name) {
                // A use of the name that resolves to other definitions (another type's method
                // of the same name, a library module's function) is not a reference.
                let elsewhere = !targets.is_empty()
                    && targets
                        .iter()
                        .all(|target| index.resolves_elsewhere(*file, reference, target.def));
                if !elsewhere {
                    locations.push((*file, reference.range));
                }
            }
        }
        if params.context.include_declaration {
            for target in &targets {
                locations.push((target.file, target.name_range));
            }
        }
        locations.sort_unstable();
        locations.dedup();
        let res = locations
            .into_iter()
            .filter_map(|(file, range)| to_proto::location(world, file, range))
            .collect();
        Ok(Some(res))
    })
    .await
}
