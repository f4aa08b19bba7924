//! The custom commands (`workspace/executeCommand`) and their JSON shapes, documented for
//! clients in `docs/lsp-extensions.md`.
//!
//! Invariant: the serde types here are the protocol; the engine and index never see them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Assembles code context for a task (answered by the context engine).
pub const CONTEXT: &str = "codectx.context";
/// Reports the index state; `{"wait": true}` waits for the first index.
pub const STATUS: &str = "codectx.status";
/// Rebuilds the index from disk and reports the status.
pub const REINDEX: &str = "codectx.reindex";

/// The commands advertised in `executeCommandProvider`.
pub const COMMANDS: &[&str] = &[CONTEXT, STATUS, REINDEX];

/// Test-only commands, answered only when `CODECTX_TEST_COMMANDS=1` is set in the server's
/// environment: `codectx.test.sleep {ms}` (a cancellable long request), `codectx.test.panic`
/// (a panicking handler) and `codectx.test.fingerprint` (every indexed definition, sorted, to
/// compare the index with a fresh build).
pub const TEST_SLEEP: &str = "codectx.test.sleep";
pub const TEST_PANIC: &str = "codectx.test.panic";
pub const TEST_FINGERPRINT: &str = "codectx.test.fingerprint";

/// Arguments of `codectx.status`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusParams {
    #[serde(default)]
    pub wait: bool,
}

/// The answer of `codectx.status` and `codectx.reindex`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusResult {
    /// `"indexing"` or `"ready"`.
    pub state: &'static str,
    pub roots: Vec<String>,
    pub files: usize,
    pub definitions: usize,
    pub references: usize,
    pub open_documents: usize,
    pub skipped: BTreeMap<&'static str, usize>,
    pub index_ms: u64,
    pub memory_bytes: Option<u64>,
}

/// Arguments of `codectx.test.sleep`.
#[derive(Debug, Deserialize)]
pub struct SleepParams {
    pub ms: u64,
}
