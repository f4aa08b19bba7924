//! The language server: the only module that knows LSP, JSON-RPC and `tower-lsp-server`.
//!
//! `Backend` implements `LanguageServer` with one-line delegations to `handlers/` (one file per
//! request or notification). State lives in [`state::Shared`]: the index, the open documents
//! and the configuration behind one lock.
//!
//! Invariants:
//! - Notifications that change documents or the index apply their change synchronously, before
//!   their first `.await`, so changes are applied in the order received even though
//!   `tower-lsp-server` runs up to four handlers concurrently (tower-lsp issue #284).
//!   Edited buffers are re-indexed before the next request reads the index.
//! - Requests run on a read lock inside `spawn_blocking`, under `catch_unwind`; the lock is
//!   never held across an `.await`.
//! - Positions are converted only in `from_proto`/`to_proto`; everything else uses bytes.

mod capabilities;
mod config;
mod dispatch;
pub mod ext;
mod from_proto;
mod handlers;
mod indexer;
pub mod state;
pub(crate) mod to_proto;
mod transport;

pub mod bench;

use std::sync::atomic::Ordering;
use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::request::{GotoImplementationParams, GotoImplementationResponse};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService};

pub use transport::serve;

pub use state::Shared;

/// The `LanguageServer` implementation.
pub struct Backend {
    shared: Arc<Shared>,
}

/// How long the workspace must stay unchanged before the background refresh runs.
const REFRESH_DELAY: std::time::Duration = std::time::Duration::from_millis(50);

impl Backend {
    /// Once changes stop for [`REFRESH_DELAY`], brings the index (pending buffer edits, its
    /// lazy tables) and the context engine's search tables up to date in the background, so
    /// that the next `codectx.context` (an agent edits, then asks) does not pay for the
    /// refresh. One waiting task serves a whole burst of changes.
    fn schedule_refresh(&self) {
        self.shared.changes.fetch_add(1, Ordering::SeqCst);
        if self.shared.refresh_pending.swap(true, Ordering::SeqCst) {
            return;
        }
        let shared = Arc::clone(&self.shared);
        tokio::spawn(async move {
            loop {
                let seen = shared.changes.load(Ordering::SeqCst);
                tokio::time::sleep(REFRESH_DELAY).await;
                if shared.changes.load(Ordering::SeqCst) == seen {
                    break;
                }
            }
            // A change from now on schedules a refresh of its own; the ones before it are
            // flushed by this one.
            shared.refresh_pending.store(false, Ordering::SeqCst);
            if shared.shutting_down.load(Ordering::SeqCst) || !shared.is_ready() {
                return;
            }
            let _ = tokio::task::spawn_blocking(move || {
                state::guarded("background refresh", || {
                    let world = shared.read_current();
                    world.index.warm_up();
                    world.engine.search_index(&world.index);
                });
            })
            .await;
        });
    }

    pub fn new(client: Client) -> Backend {
        Backend {
            shared: Arc::new(Shared::new(client)),
        }
    }
}

/// Builds the service (the server plus the custom methods it answers).
pub fn service() -> (LspService<Backend>, tower_lsp_server::ClientSocket) {
    LspService::build(Backend::new).finish()
}

/// Runs the server over stdin/stdout until the client exits; returns the exit code.
pub fn run_stdio() -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("codectx: cannot start the async runtime: {err}");
            return 1;
        }
    };
    runtime.block_on(transport::serve(tokio::io::stdin(), tokio::io::stdout()));
    // Background work (indexing, blocking requests) must not keep the process alive after
    // `exit`.
    runtime.shutdown_background();
    0
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        handlers::initialize::handle(&self.shared, params)
    }

    async fn initialized(&self, params: InitializedParams) {
        handlers::initialized::handle(&self.shared, params).await
    }

    async fn shutdown(&self) -> Result<()> {
        handlers::shutdown::handle(&self.shared)
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        handlers::did_open::handle(&self.shared, params)
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        handlers::did_change::handle(&self.shared, params);
        self.schedule_refresh();
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        handlers::did_save::handle(&self.shared, params);
        self.schedule_refresh();
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        handlers::did_close::handle(&self.shared, params);
        self.schedule_refresh();
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        handlers::did_change_watched_files::handle(&self.shared, params);
        self.schedule_refresh();
    }

    async fn did_rename_files(&self, params: RenameFilesParams) {
        handlers::file_operations::did_rename(&self.shared, params);
        self.schedule_refresh();
    }

    async fn did_delete_files(&self, params: DeleteFilesParams) {
        handlers::file_operations::did_delete(&self.shared, params);
        self.schedule_refresh();
    }

    async fn did_create_files(&self, params: CreateFilesParams) {
        handlers::file_operations::did_create(&self.shared, params);
        self.schedule_refresh();
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        handlers::did_change_workspace_folders::handle(&self.shared, params).await
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        handlers::did_change_configuration::handle(&self.shared, params).await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        handlers::workspace_symbol::handle(&self.shared, params).await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        handlers::definition::handle(&self.shared, params).await
    }

    async fn goto_implementation(
        &self,
        params: GotoImplementationParams,
    ) -> Result<Option<GotoImplementationResponse>> {
        handlers::implementation::handle(&self.shared, params).await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        handlers::references::handle(&self.shared, params).await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        handlers::document_symbol::handle(&self.shared, params).await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        handlers::hover::handle(&self.shared, params).await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        handlers::execute_command::handle(&self.shared, params).await
    }
}
