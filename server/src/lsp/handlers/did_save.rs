//! `textDocument/didSave`: the open buffer already holds the saved text, so nothing changes;
//! a saved manifest that is not open is re-read from disk.

use tower_lsp_server::ls_types::DidSaveTextDocumentParams;

use crate::lsp::from_proto;
use crate::lsp::indexer;
use crate::lsp::state::{guarded, Shared};

pub fn handle(shared: &Shared, params: DidSaveTextDocumentParams) {
    guarded("didSave", || {
        let uri = params.text_document.uri;
        let mut world = shared.write();
        if world.documents.get(uri.as_str()).is_some() {
            return;
        }
        if let Some(path) = from_proto::file_path(&uri) {
            indexer::refresh_paths(&mut world, &[path]);
        }
    });
}
