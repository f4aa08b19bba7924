//! `textDocument/documentSymbol`: the file's definitions as a tree (or flat, for clients
//! without hierarchical support).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{DocumentSymbolParams, DocumentSymbolResponse};

use crate::lsp::dispatch::run_request;
use crate::lsp::from_proto;
use crate::lsp::state::Shared;
use crate::lsp::to_proto;

pub async fn handle(
    shared: &Arc<Shared>,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    let hierarchical = shared.flags().hierarchical_symbols;
    run_request(
        shared,
        "textDocument/documentSymbol",
        move |world, _cancel| {
            let Some(file) = from_proto::file_id(world, &params.text_document.uri) else {
                return Ok(None);
            };
            let Some(data) = world.index.file(file) else {
                return Ok(None);
            };
            Ok(Some(if hierarchical {
                DocumentSymbolResponse::Nested(to_proto::document_symbols(data, world.encoding))
            } else {
                DocumentSymbolResponse::Flat(to_proto::flat_document_symbols(world, file))
            }))
        },
    )
    .await
}
