//! `initialize`: negotiates the position encoding, reads the client's capabilities, the
//! workspace folders and `initializationOptions`, and advertises the server's capabilities.

use std::path::PathBuf;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{InitializeParams, InitializeResult, ServerInfo};

use crate::index::Index;
use crate::lsp::capabilities;
use crate::lsp::from_proto;
use crate::lsp::state::Shared;

pub fn handle(shared: &Shared, params: InitializeParams) -> Result<InitializeResult> {
    let flags = capabilities::client_flags(&params.capabilities);
    let mut roots: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|folder| from_proto::file_path(&folder.uri))
        .collect();
    #[allow(deprecated)] // Older clients send only `rootUri` or `rootPath`.
    if roots.is_empty() {
        if let Some(path) = params.root_uri.as_ref().and_then(from_proto::file_path) {
            roots.push(path);
        } else if let Some(path) = params.root_path.as_ref() {
            roots.push(PathBuf::from(path));
        }
    }
    roots.dedup();
    let server_capabilities = capabilities::server_capabilities(&flags);
    {
        let mut world = shared.write();
        world.encoding = flags.encoding;
        if let Some(options) = &params.initialization_options {
            let change = world.config.apply(options);
            world.pending_messages.extend(change.errors);
            for key in change.unknown {
                tracing::warn!("unknown setting codectx.{key}");
            }
        }
        world.index = Index::new(roots.clone());
        world.roots = roots;
    }
    let _ = shared.flags.set(flags);
    Ok(InitializeResult {
        capabilities: server_capabilities,
        server_info: Some(ServerInfo {
            name: "codectx".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
        offset_encoding: None,
    })
}
