//! `textDocument/implementation`: the types that extend or implement the type under the
//! cursor, or the overrides of the method under it (see `Index::implementations`), as
//! locations of their names.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::request::{GotoImplementationParams, GotoImplementationResponse};

use crate::lsp::dispatch::run_request;
use crate::lsp::from_proto;
use crate::lsp::state::Shared;
use crate::lsp::to_proto;

pub async fn handle(
    shared: &Arc<Shared>,
    params: GotoImplementationParams,
) -> Result<Option<GotoImplementationResponse>> {
    run_request(
        shared,
        "textDocument/implementation",
        move |world, _cancel| {
            let at = params.text_document_position_params;
            let Some(position) =
                from_proto::file_position(world, &at.text_document.uri, at.position)
            else {
                return Ok(None);
            };
            let targets = world.index.implementations(position);
            if targets.is_empty() {
                return Ok(None);
            }
            Ok(Some(GotoImplementationResponse::Array(
                to_proto::name_locations(world, &targets),
            )))
        },
    )
    .await
}
