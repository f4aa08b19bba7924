//! `textDocument/hover`: the definition card of the name under the cursor (signature in a
//! fenced block, doc summary, container, location).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use crate::base::identifier_at;
use crate::lsp::dispatch::run_request;
use crate::lsp::from_proto;
use crate::lsp::state::Shared;
use crate::lsp::to_proto;

pub async fn handle(shared: &Arc<Shared>, params: HoverParams) -> Result<Option<Hover>> {
    let markdown = shared.flags().markdown_hover;
    run_request(shared, "textDocument/hover", move |world, _cancel| {
        let at = params.text_document_position_params;
        let Some(position) = from_proto::file_position(world, &at.text_document.uri, at.position)
        else {
            return Ok(None);
        };
        let Some(target) = world.index.goto_definition(position).into_iter().next() else {
            return Ok(None);
        };
        let Some(value) = to_proto::hover_markdown(world, target.def) else {
            return Ok(None);
        };
        let range = world.index.file(position.file).and_then(|data| {
            let range = identifier_at(&data.text, position.offset)?;
            Some(to_proto::range(data, range, world.encoding))
        });
        Ok(Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: if markdown {
                    MarkupKind::Markdown
                } else {
                    MarkupKind::PlainText
                },
                value,
            }),
            range,
        }))
    })
    .await
}
