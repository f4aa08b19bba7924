//! `codectx context`: the context engine from the command line, and the JSON shape of its
//! result (the same as the `codectx.context` command's).
//!
//! Invariant: the JSON field names here are the protocol's (documented in docs/protocol.md).

use std::path::Path;

use serde_json::{json, Value};

use super::commands::{index_config, resolve_root};
use super::{CliError, RootArgs};
use crate::base::{FileId, TextRange};
use crate::engine::{
    ContextItem, ContextRequest, ContextResult, Engine, Format, IntentKind, Tokenizer,
};
use crate::index::{FilePosition, Index};

/// A 0-based line and UTF-16 character, as LSP counts them.
fn lsp_position(index: &Index, file: FileId, offset: u32) -> Value {
    let Some(data) = index.file(file) else {
        return json!({"line": 0, "character": 0});
    };
    let line_col = data.line_index.line_col(offset);
    let line_start = data.line_index.line_start(line_col.line) as usize;
    let prefix = data.text.get(line_start..offset as usize).unwrap_or("");
    json!({"line": line_col.line, "character": prefix.encode_utf16().count()})
}

pub fn lsp_range(index: &Index, file: FileId, range: TextRange) -> Value {
    json!({"start": lsp_position(index, file, range.start), "end": lsp_position(index, file, range.end)})
}

pub fn file_uri(index: &Index, file: FileId) -> String {
    match index.abs_path(file) {
        Some(path) => format!("file://{}", path.display()),
        None => String::new(),
    }
}

fn item_json(index: &Index, item: &ContextItem) -> Value {
    json!({
        "section": item.section.name(),
        "path": item.path,
        "uri": file_uri(index, item.file),
        "range": lsp_range(index, item.file, item.range),
        "symbol": item.symbol,
        "kind": item.kind.map(|kind| kind.name()),
        "fidelity": item.fidelity.name(),
        "tokens": item.tokens,
        "score": item.score,
        "reasons": item.reasons,
    })
}

/// The result object of `codectx.context`.
pub fn result_json(index: &Index, result: &ContextResult) -> Value {
    let timings: serde_json::Map<String, Value> = result
        .timings_ms
        .iter()
        .map(|(stage, ms)| ((*stage).to_owned(), json!((ms * 1000.0).round() / 1000.0)))
        .collect();
    json!({
        "intent": {
            "kind": result.intent.kind.name(),
            "confidence": result.intent.confidence,
            "signals": result.intent.signals,
        },
        "budget": {"limit": result.limit, "used": result.used, "tokenizer": result.tokenizer.name()},
        "items": result.items.iter().map(|item| item_json(index, item)).collect::<Vec<_>>(),
        "files": result.files.iter().map(|file| json!({"path": file.path, "score": file.score, "reasons": file.reasons})).collect::<Vec<_>>(),
        "omitted": result.omitted.iter().map(|item| item_json(index, item)).collect::<Vec<_>>(),
        "text": result.text,
        "timingsMs": Value::Object(timings),
    })
}

#[allow(clippy::too_many_arguments)]
pub(super) fn context(
    task: &str,
    root: &RootArgs,
    budget: u32,
    format: &str,
    intent: Option<&str>,
    tokenizer: &str,
    active: Option<&Path>,
    explain: bool,
    json_out: bool,
) -> Result<(), CliError> {
    let format = Format::from_name(format).ok_or_else(|| {
        CliError::Usage(format!(
            "--format: expected xml, markdown or json, got {format:?}"
        ))
    })?;
    let intent = match intent {
        Some(name) => Some(IntentKind::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = IntentKind::ALL.iter().map(|kind| kind.name()).collect();
            CliError::Usage(format!(
                "--intent: expected one of {}, got {name:?}",
                names.join(", ")
            ))
        })?),
        None => None,
    };
    let tokenizer = Tokenizer::from_name(tokenizer).ok_or_else(|| {
        CliError::Usage(format!(
            "--tokenizer: expected o200k_base or cl100k_base, got {tokenizer:?}"
        ))
    })?;
    let dir = resolve_root(root)?;
    // The BPE tables load while the repository is indexed.
    let warm = std::thread::spawn(move || crate::engine::tokens::warm_up(tokenizer));
    let index = Index::build(vec![dir.clone()], &index_config(root));
    let _ = warm.join();
    let mut request = ContextRequest::new(task);
    request.budget = budget;
    request.format = format;
    request.intent = intent;
    request.tokenizer = tokenizer;
    if let Some(active) = active {
        let abs = if active.is_absolute() {
            active.to_owned()
        } else {
            dir.join(active)
        };
        let file = index
            .file_id_for_path(&abs.canonicalize().unwrap_or(abs))
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "--active: {} is not an indexed file under {}",
                    active.display(),
                    dir.display()
                ))
            })?;
        request.active = Some(FilePosition { file, offset: 0 });
    }
    let engine = Engine::new();
    let result = engine
        .assemble_context(&index, &request)
        .map_err(|err| CliError::Usage(err.to_string()))?;
    if json_out {
        let text = serde_json::to_string_pretty(&result_json(&index, &result))
            .map_err(|err| CliError::Failed(err.to_string()))?;
        println!("{text}");
        return Ok(());
    }
    print!("{}", result.text);
    if explain {
        eprintln!(
            "intent: {} (confidence {:.2}; {})",
            result.intent.kind,
            result.intent.confidence,
            result.intent.signals.join(", ")
        );
        eprintln!(
            "budget: {} of {} {} tokens",
            result.used, result.limit, result.tokenizer
        );
        eprintln!("items:");
        for item in &result.items {
            eprintln!(
                "  {:<11} {:<8} {:>5} tok  {:>7.4}  {}  {}  [{}]",
                item.section.name(),
                item.fidelity.name(),
                item.tokens,
                item.score,
                item.path,
                item.symbol.as_deref().unwrap_or("-"),
                item.reasons.join(", ")
            );
        }
        eprintln!("files:");
        for file in result.files.iter().take(10) {
            eprintln!(
                "  {:>7.4}  {}  [{}]",
                file.score,
                file.path,
                file.reasons.join(", ")
            );
        }
        if !result.omitted.is_empty() {
            eprintln!("omitted:");
            for item in result.omitted.iter().take(10) {
                eprintln!(
                    "  {:<11} {:>5} tok  {:>7.4}  {}  {}",
                    item.section.name(),
                    item.tokens,
                    item.score,
                    item.path,
                    item.symbol.as_deref().unwrap_or("-")
                );
            }
        }
        let timings: Vec<String> = result
            .timings_ms
            .iter()
            .map(|(stage, ms)| format!("{stage} {ms:.2}"))
            .collect();
        eprintln!("timings (ms): {}", timings.join(", "));
    }
    Ok(())
}
