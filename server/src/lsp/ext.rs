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

/// The fields of the `codectx.context` argument object, in the order `docs/protocol.md`
/// lists them; any other field is an `InvalidParams` error.
pub const CONTEXT_FIELDS: &[&str] = &[
    "query",
    "budget",
    "format",
    "intent",
    "activeUri",
    "position",
    "pinnedUris",
    "tokenizer",
];

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
    /// How the last finished build used the syntax cache; `null` when the cache is off.
    pub syntax_cache: Option<SyntaxCacheStatus>,
}

/// Files of a build whose extraction came from the syntax cache, and files parsed.
#[derive(Debug, Serialize)]
pub struct SyntaxCacheStatus {
    pub reused: usize,
    pub parsed: usize,
}

/// Arguments of `codectx.test.sleep`.
#[derive(Debug, Deserialize)]
pub struct SleepParams {
    pub ms: u64,
}

/// A score as a short decimal (`0.5438`, not the `0.5437999963760376` of a widened `f32`).
fn decimal(value: f32, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (f64::from(value) * scale).round() / scale
}

/// The result object of `codectx.context` (documented in `docs/protocol.md`).
pub fn context_result_json(
    index: &crate::index::Index,
    result: &crate::engine::ContextResult,
    encoding: super::state::Encoding,
) -> serde_json::Value {
    use serde_json::json;
    let item_json = |item: &crate::engine::ContextItem| {
        let uri = super::to_proto::uri_of(index, item.file).map(|uri| uri.as_str().to_owned());
        let data = index.file(item.file);
        let range = data.map(|data| super::to_proto::range(data, item.range, encoding));
        let part_of = data
            .zip(item.part_of)
            .map(|(data, part_of)| super::to_proto::range(data, part_of, encoding));
        json!({
            "section": item.section.name(),
            "path": item.path,
            "uri": uri,
            "range": range,
            "symbol": item.symbol,
            "kind": item.kind.map(|kind| kind.name()),
            "fidelity": item.fidelity.name(),
            "tokens": item.tokens,
            "score": decimal(item.score, 4),
            "reasons": item.reasons,
            "partOf": part_of,
        })
    };
    let timings: serde_json::Map<String, serde_json::Value> = result
        .timings_ms
        .iter()
        .map(|(stage, ms)| ((*stage).to_owned(), json!((ms * 1000.0).round() / 1000.0)))
        .collect();
    json!({
        "intent": {
            "kind": result.intent.kind.name(),
            "confidence": decimal(result.intent.confidence, 2),
            "signals": result.intent.signals,
        },
        "budget": {"limit": result.limit, "used": result.used, "tokenizer": result.tokenizer.name()},
        "items": result.items.iter().map(item_json).collect::<Vec<_>>(),
        "files": result
            .files
            .iter()
            .map(|file| {
                json!({
                    "path": file.path,
                    "score": decimal(file.score, 4),
                    "reasons": file.reasons,
                    "shown": file.shown,
                })
            })
            .collect::<Vec<_>>(),
        "omitted": result
            .omitted
            .iter()
            .map(|(item, omission)| {
                let mut value = item_json(item);
                value["omission"] = json!(omission.name());
                value
            })
            .collect::<Vec<_>>(),
        "unresolved": result.unresolved,
        "usesLeft": result
            .uses_left
            .iter()
            .map(|uses| {
                json!({
                    "of": uses.of,
                    "uses": uses
                        .uses
                        .iter()
                        .map(|site| {
                            let uri = super::to_proto::uri_of(index, site.file)
                                .map(|uri| uri.as_str().to_owned());
                            json!({
                                "symbol": site.symbol,
                                "path": site.path,
                                "uri": uri,
                                "line": site.line,
                            })
                        })
                        .collect::<Vec<_>>(),
                })
            })
            .collect::<Vec<_>>(),
        "text": result.text,
        "timingsMs": serde_json::Value::Object(timings),
    })
}
