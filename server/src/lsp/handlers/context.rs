//! `codectx.context`: token-budgeted code context for a task, answered by the context engine
//! (`engine::assemble_context`).
//!
//! The engine is not in this build yet, so the command is advertised and answered with an
//! error; nothing is faked. To plug it in: parse `ContextParams` (in `lsp/ext.rs`) from the
//! arguments, `wait_for_initial_index` (agents call this right after startup), then
//! `run_request(shared, "codectx.context", |world, cancel| engine::assemble_context(&world.index,
//! &request))` and convert the result to `ContextResultDto`.

use std::sync::Arc;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};

use crate::lsp::state::Shared;

pub async fn handle(_shared: &Arc<Shared>, _arguments: Vec<Value>) -> Result<Option<Value>> {
    Err(Error {
        code: ErrorCode::InvalidRequest,
        message: "codectx.context is not available in this build".into(),
        data: None,
    })
}
