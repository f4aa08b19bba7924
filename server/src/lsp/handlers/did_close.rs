//! `textDocument/didClose`: the file on disk becomes the truth again (or the entry goes away
//! for buffers without a workspace file).

use tower_lsp_server::ls_types::DidCloseTextDocumentParams;

use crate::documents::DETACHED_ROOT;
use crate::lsp::indexer;
use crate::lsp::state::{guarded, Shared};

pub fn handle(shared: &Shared, params: DidCloseTextDocumentParams) {
    guarded("didClose", || {
        let uri = params.text_document.uri;
        let mut world = shared.write();
        let Some(document) = world.documents.close(uri.as_str()) else {
            tracing::warn!(
                uri = uri.as_str(),
                "ignoring close of a document that is not open"
            );
            return;
        };
        let (root, path) = document.location;
        if root == DETACHED_ROOT {
            world.index.remove_file(root, &path);
            return;
        }
        let Some(abs_path) = world
            .index
            .roots()
            .get(root as usize)
            .map(|dir| dir.join(&*path))
        else {
            return;
        };
        indexer::refresh_paths(&mut world, &[abs_path]);
    });
}
