//! `initialized`: reports configuration errors from `initializationOptions`, registers the
//! file watchers and starts the first indexing of the workspace in the background.

use std::sync::Arc;

use tower_lsp_server::ls_types::{
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern, InitializedParams,
    MessageType, Registration,
};

use crate::lsp::capabilities;
use crate::lsp::indexer;
use crate::lsp::state::Shared;

pub async fn handle(shared: &Arc<Shared>, _params: InitializedParams) {
    // Start indexing first so requests see files as soon as possible.
    tokio::spawn(indexer::index_workspace(Arc::clone(shared), true));
    let messages = std::mem::take(&mut shared.write().pending_messages);
    for message in messages {
        shared
            .client
            .show_message(MessageType::WARNING, &message)
            .await;
        shared
            .client
            .log_message(MessageType::WARNING, message)
            .await;
    }
    if shared.flags().watched_files_dynamic {
        let watchers = capabilities::watched_globs()
            .into_iter()
            .map(|glob| FileSystemWatcher {
                glob_pattern: GlobPattern::String(glob),
                kind: None,
            })
            .collect();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let registration = Registration {
            id: "codectx-watched-files".into(),
            method: "workspace/didChangeWatchedFiles".into(),
            register_options: serde_json::to_value(options).ok(),
        };
        if let Err(err) = shared.client.register_capability(vec![registration]).await {
            tracing::warn!("the client refused the file watcher registration: {err}");
        }
    }
}
