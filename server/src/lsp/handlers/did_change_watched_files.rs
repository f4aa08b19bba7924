//! `workspace/didChangeWatchedFiles`: files created, changed or deleted outside the editor
//! (a `git checkout`, a formatter) are re-read from disk; open buffers keep winning.

use tower_lsp_server::ls_types::DidChangeWatchedFilesParams;

use crate::lsp::from_proto;
use crate::lsp::indexer;
use crate::lsp::state::{guarded, Shared};

pub fn handle(shared: &Shared, params: DidChangeWatchedFilesParams) {
    guarded("didChangeWatchedFiles", || {
        let targets: Vec<_> = params
            .changes
            .iter()
            .filter_map(|change| from_proto::file_path(&change.uri))
            .collect();
        let mut world = shared.write();
        indexer::refresh_paths(&mut world, &targets);
    });
}
