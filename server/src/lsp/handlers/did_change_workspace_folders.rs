//! `workspace/didChangeWorkspaceFolders`: the roots change at once; the index is rebuilt over
//! the new roots in the background and swapped in (requests use the old one until then).

use std::sync::Arc;

use tower_lsp_server::ls_types::DidChangeWorkspaceFoldersParams;

use crate::lsp::from_proto;
use crate::lsp::indexer;
use crate::lsp::state::{guarded, Shared};

pub async fn handle(shared: &Arc<Shared>, params: DidChangeWorkspaceFoldersParams) {
    let changed = guarded("didChangeWorkspaceFolders", || {
        let mut world = shared.write();
        let removed: Vec<_> = params
            .event
            .removed
            .iter()
            .filter_map(|folder| from_proto::file_path(&folder.uri))
            .collect();
        let before = world.roots.clone();
        world.roots.retain(|root| !removed.contains(root));
        for folder in &params.event.added {
            if let Some(path) = from_proto::file_path(&folder.uri) {
                if !world.roots.contains(&path) {
                    world.roots.push(path);
                }
            }
        }
        world.roots != before
    });
    if changed == Some(true) {
        tokio::spawn(indexer::index_workspace(Arc::clone(shared), false));
    }
}
