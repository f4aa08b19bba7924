//! `codectx context`: the context engine from the command line; `--json` prints the same
//! result object as the `codectx.context` command.

use std::path::{Path, PathBuf};

use super::commands::{build_index_at, file_for_cli_path, resolve_root};
use super::{CliError, RootArgs};
use crate::engine::{ContextRequest, Engine, Format, IntentKind, Tokenizer};
use crate::index::FilePosition;

#[allow(clippy::too_many_arguments)]
pub(super) fn context(
    task: &str,
    root: &RootArgs,
    budget: u32,
    format: &str,
    intent: Option<&str>,
    tokenizer: &str,
    active: Option<&Path>,
    pinned: &[PathBuf],
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
    let (index, _) = build_index_at(&dir, root);
    let _ = warm.join();
    let mut request = ContextRequest::new(task);
    request.budget = budget;
    request.format = format;
    request.intent = intent;
    request.tokenizer = tokenizer;
    if let Some(active) = active {
        let file = file_for_cli_path(&index, &dir, active, Some("--active"))?;
        request.active = Some(FilePosition { file, offset: 0 });
    }
    for path in pinned {
        let file = file_for_cli_path(&index, &dir, path, Some("--pinned"))?;
        if !request.pinned.contains(&file) {
            request.pinned.push(file);
        }
    }
    let engine = Engine::new();
    let result = engine
        .assemble_context(&index, &request)
        .map_err(|err| CliError::Usage(err.to_string()))?;
    if json_out {
        let text = serde_json::to_string_pretty(&crate::lsp::ext::context_result_json(
            &index,
            &result,
            crate::lsp::state::Encoding::Utf16,
        ))
        .map_err(|err| CliError::Failed(err.to_string()))?;
        super::emit(&format!("{text}\n"));
        return Ok(());
    }
    super::emit(&result.text);
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
