//! `workspace/didChangeConfiguration`: applies the `codectx` section (pulled with
//! `workspace/configuration` when the notification carries no settings), warns about invalid
//! values and rebuilds the index when the indexed file set may change.

use std::sync::Arc;

use tower_lsp_server::ls_types::{ConfigurationItem, DidChangeConfigurationParams, MessageType};

use crate::lsp::indexer;
use crate::lsp::state::Shared;

pub async fn handle(shared: &Arc<Shared>, params: DidChangeConfigurationParams) {
    let mut settings = params.settings;
    if settings.is_null() {
        let item = ConfigurationItem {
            scope_uri: None,
            section: Some("codectx".into()),
        };
        match shared.client.configuration(vec![item]).await {
            Ok(mut values) if !values.is_empty() => settings = values.swap_remove(0),
            Ok(_) => return,
            Err(err) => {
                tracing::warn!("workspace/configuration failed: {err}");
                return;
            }
        }
    }
    let change = shared.write().config.apply(&settings);
    for key in &change.unknown {
        let message = format!("codectx: unknown setting codectx.{key} ignored");
        shared
            .client
            .log_message(MessageType::WARNING, message)
            .await;
    }
    for error in change.errors {
        shared
            .client
            .show_message(MessageType::WARNING, &error)
            .await;
        shared.client.log_message(MessageType::WARNING, error).await;
    }
    if change.reindex {
        tokio::spawn(indexer::index_workspace(Arc::clone(shared), false));
    }
}
