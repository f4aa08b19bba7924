//! `textDocument/references`: the index's references to the name under the cursor (see
//! `Index::references`), as locations.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{Location, ReferenceParams};

use crate::lsp::dispatch::run_request;
use crate::lsp::from_proto;
use crate::lsp::state::Shared;
use crate::lsp::to_proto;

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
        let include_declaration = params.context.include_declaration;
        let Some(references) = world
            .index
            .references(position, include_declaration, || cancel.check())?
        else {
            return Ok(None);
        };
        let res = references
            .into_iter()
            .filter_map(|(file, range)| to_proto::location(world, file, range))
            .collect();
        Ok(Some(res))
    })
    .await
}
