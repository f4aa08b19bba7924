//! `textDocument/didChange`: applies the range edits in order (converted from the negotiated
//! encoding against the rope as it is before each edit) and records them on the syntax tree,
//! before the handler's first (and only) suspension point. The reparse and the replacement of
//! the file's index entries happen once for a run of changes, before the next request reads
//! the index (`Shared::read_current`), so a burst of keystrokes costs one reparse.

use std::sync::atomic::Ordering;

use tower_lsp_server::ls_types::DidChangeTextDocumentParams;

use crate::lsp::from_proto;
use crate::lsp::state::{guarded, Shared};

pub fn handle(shared: &Shared, params: DidChangeTextDocumentParams) {
    guarded("didChange", || {
        let uri = params.text_document.uri;
        let mut world = shared.write();
        let encoding = world.encoding;
        let Some(document) = world.documents.get_mut(uri.as_str()) else {
            tracing::warn!(
                uri = uri.as_str(),
                "ignoring a change to a document that is not open"
            );
            return;
        };
        if params.text_document.version <= document.version {
            tracing::debug!(
                uri = uri.as_str(),
                "document version went from {} to {}",
                document.version,
                params.text_document.version
            );
        }
        for change in &params.content_changes {
            let range = change
                .range
                .map(|range| from_proto::rope_range(&document.rope, range, encoding));
            document.apply_edit(range, &change.text);
        }
        document.version = params.text_document.version;
        document.dirty = true;
        shared.dirty.store(true, Ordering::SeqCst);
    });
}
