//! `codectx.context`: token-budgeted code context for a task, answered by the context engine.
//!
//! Invariant: every argument is validated here and a bad one is an `InvalidParams` error that
//! names the field; the engine only sees a well-formed `ContextRequest`.

use std::sync::Arc;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{Position, Uri};

use crate::engine::{self, ContextRequest, Format, IntentKind, Tokenizer};
use crate::index::FilePosition;
use crate::lsp::dispatch::{invalid_params, run_request};
use crate::lsp::ext;
use crate::lsp::from_proto;
use crate::lsp::handlers::execute_command::wait_for_initial_index;
use crate::lsp::state::{Shared, World};

const KNOWN_FIELDS: &[&str] = &[
    "query",
    "budget",
    "format",
    "intent",
    "activeUri",
    "position",
    "pinnedUris",
    "tokenizer",
];

/// The arguments as sent, before they are resolved against the index.
struct RawParams {
    query: String,
    budget: Option<u32>,
    format: Format,
    intent: Option<IntentKind>,
    tokenizer: Tokenizer,
    active_uri: Option<Uri>,
    position: Option<Position>,
    pinned_uris: Vec<Uri>,
}

fn field_error(field: &str, message: impl std::fmt::Display) -> Error {
    invalid_params(format!("codectx.context: {field}: {message}"))
}

fn parse_uri(field: &str, value: &Value) -> Result<Uri> {
    let text = value
        .as_str()
        .ok_or_else(|| field_error(field, "expected a URI string"))?;
    text.parse::<Uri>()
        .map_err(|_| field_error(field, format!("{text:?} is not a valid URI")))
}

fn parse(arguments: &[Value]) -> Result<RawParams> {
    let Some(Value::Object(object)) = arguments.first() else {
        return Err(invalid_params(
            "codectx.context: expected one argument object with at least {\"query\": string}",
        ));
    };
    for key in object.keys() {
        if !KNOWN_FIELDS.contains(&key.as_str()) {
            return Err(field_error(key, format!("unknown field (known: {})", KNOWN_FIELDS.join(", "))));
        }
    }
    let query = match object.get("query") {
        Some(Value::String(query)) if !query.trim().is_empty() => query.clone(),
        Some(Value::String(_)) => return Err(field_error("query", "must not be empty")),
        Some(_) => return Err(field_error("query", "expected a string")),
        None => return Err(field_error("query", "is required")),
    };
    if query.len() > engine::MAX_QUERY_BYTES {
        return Err(field_error("query", format!("must be at most {} bytes", engine::MAX_QUERY_BYTES)));
    }
    let budget = match object.get("budget") {
        None | Some(Value::Null) => None,
        Some(value) => {
            let budget = value
                .as_u64()
                .filter(|budget| (u64::from(engine::MIN_BUDGET)..=u64::from(engine::MAX_BUDGET)).contains(budget))
                .ok_or_else(|| {
                    field_error(
                        "budget",
                        format!("expected an integer between {} and {}, got {value}", engine::MIN_BUDGET, engine::MAX_BUDGET),
                    )
                })?;
            Some(budget as u32)
        }
    };
    let string_field = |field: &str| -> Result<Option<&str>> {
        match object.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.as_str())),
            Some(_) => Err(field_error(field, "expected a string")),
        }
    };
    let format = match string_field("format")? {
        None => Format::Xml,
        Some(name) => Format::from_name(name)
            .ok_or_else(|| field_error("format", format!("expected \"xml\", \"markdown\" or \"json\", got {name:?}")))?,
    };
    let intent = match string_field("intent")? {
        None => None,
        Some(name) => Some(IntentKind::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = IntentKind::ALL.iter().map(|kind| kind.name()).collect();
            field_error("intent", format!("expected one of {}, got {name:?}", names.join(", ")))
        })?),
    };
    let tokenizer = match string_field("tokenizer")? {
        None => Tokenizer::O200kBase,
        Some(name) => Tokenizer::from_name(name)
            .ok_or_else(|| field_error("tokenizer", format!("expected \"o200k_base\" or \"cl100k_base\", got {name:?}")))?,
    };
    let active_uri = match object.get("activeUri") {
        None | Some(Value::Null) => None,
        Some(value) => Some(parse_uri("activeUri", value)?),
    };
    let position = match object.get("position") {
        None | Some(Value::Null) => None,
        Some(value) => Some(
            serde_json::from_value::<Position>(value.clone())
                .map_err(|_| field_error("position", "expected {\"line\": integer, \"character\": integer}"))?,
        ),
    };
    if position.is_some() && active_uri.is_none() {
        return Err(field_error("position", "needs activeUri"));
    }
    let pinned_uris = match object.get("pinnedUris") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(values)) => values
            .iter()
            .map(|value| parse_uri("pinnedUris", value))
            .collect::<Result<Vec<_>>>()?,
        Some(_) => return Err(field_error("pinnedUris", "expected an array of URI strings")),
    };
    Ok(RawParams { query, budget, format, intent, tokenizer, active_uri, position, pinned_uris })
}

/// Resolves URIs against the index: a URI of a file the index does not hold (outside the
/// workspace, or never opened) is an error naming the field.
fn resolve(world: &World, raw: RawParams) -> Result<ContextRequest> {
    let mut request = ContextRequest::new(raw.query);
    request.budget = raw.budget.unwrap_or(world.config.context_default_budget);
    request.format = raw.format;
    request.intent = raw.intent;
    request.tokenizer = raw.tokenizer;
    if let Some(uri) = &raw.active_uri {
        let file = from_proto::file_id(world, uri)
            .ok_or_else(|| field_error("activeUri", format!("{} is not a file of the workspace", uri.as_str())))?;
        let offset = match raw.position {
            Some(position) => from_proto::file_position(world, uri, position).map_or(0, |pos| pos.offset),
            None => 0,
        };
        request.active = Some(FilePosition { file, offset });
    }
    for uri in &raw.pinned_uris {
        let file = from_proto::file_id(world, uri)
            .ok_or_else(|| field_error("pinnedUris", format!("{} is not a file of the workspace", uri.as_str())))?;
        request.pinned.push(file);
    }
    Ok(request)
}

pub async fn handle(shared: &Arc<Shared>, arguments: Vec<Value>) -> Result<Option<Value>> {
    let raw = parse(&arguments)?;
    // Agents call this right after startup: answer from the whole index.
    if !wait_for_initial_index(shared).await {
        return Err(Error {
            code: ErrorCode::ServerError(-32002),
            message: "codectx.context: the workspace is still being indexed; try again later".into(),
            data: None,
        });
    }
    run_request(shared, ext::CONTEXT, move |world, _cancel| {
        let request = resolve(world, raw)?;
        let encoding = world.encoding;
        let result = world
            .engine
            .assemble_context(&world.index, &request)
            .map_err(|err| invalid_params(format!("codectx.context: {err}")))?;
        Ok(Some(ext::context_result_json(&world.index, &result, encoding)))
    })
    .await
}
