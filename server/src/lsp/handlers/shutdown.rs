//! `shutdown`: stops background indexing; `exit` is handled by tower-lsp-server.

use std::sync::atomic::Ordering;

use tower_lsp_server::jsonrpc::Result;

use crate::lsp::state::Shared;

pub fn handle(shared: &Shared) -> Result<()> {
    shared.shutting_down.store(true, Ordering::SeqCst);
    // A running build sees a newer generation and stops at its next chunk.
    shared.generation.fetch_add(1, Ordering::SeqCst);
    Ok(())
}
