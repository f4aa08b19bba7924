//! `workspace/symbol`: ranked fuzzy search over definition names, capped by
//! `symbols.limit`; an empty query is answered with nothing.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{WorkspaceSymbolParams, WorkspaceSymbolResponse};

use crate::lsp::dispatch::run_request;
use crate::lsp::state::Shared;
use crate::lsp::to_proto;

pub async fn handle(
    shared: &Arc<Shared>,
    params: WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>> {
    run_request(shared, "workspace/symbol", move |world, cancel| {
        let hits = world
            .index
            .search_symbols(&params.query, world.config.symbols_limit);
        cancel.check()?;
        let symbols = hits
            .iter()
            .filter_map(|hit| to_proto::symbol_information(world, hit.def))
            .collect();
        Ok(Some(WorkspaceSymbolResponse::Flat(symbols)))
    })
    .await
}
