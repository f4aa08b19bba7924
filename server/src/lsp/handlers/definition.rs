//! `textDocument/definition`: the index's candidates, best first, as `LocationLink`s when the
//! client supports them.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{GotoDefinitionParams, GotoDefinitionResponse};

use crate::base::identifier_at;
use crate::lsp::dispatch::run_request;
use crate::lsp::from_proto;
use crate::lsp::state::Shared;
use crate::lsp::to_proto;

pub async fn handle(
    shared: &Arc<Shared>,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let links = shared.flags().location_links;
    run_request(shared, "textDocument/definition", move |world, _cancel| {
        let at = params.text_document_position_params;
        let Some(position) = from_proto::file_position(world, &at.text_document.uri, at.position)
        else {
            return Ok(None);
        };
        let targets = world.index.goto_definition(position);
        if targets.is_empty() {
            return Ok(None);
        }
        if links {
            let origin = world.index.file(position.file).and_then(|data| {
                identifier_at(&data.text, position.offset).map(|range| (position.file, range))
            });
            let links = targets
                .iter()
                .filter_map(|target| to_proto::location_link(world, origin, target.def))
                .collect();
            return Ok(Some(GotoDefinitionResponse::Link(links)));
        }
        Ok(Some(GotoDefinitionResponse::Array(
            to_proto::name_locations(world, &targets),
        )))
    })
    .await
}
