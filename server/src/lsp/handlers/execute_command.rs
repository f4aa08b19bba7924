//! `workspace/executeCommand`: `codectx.status`, `codectx.reindex`, `codectx.context`, and the
//! test-only commands enabled by `CODECTX_TEST_COMMANDS=1`.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{ExecuteCommandParams, LSPAny};

use crate::lsp::dispatch::{internal_error, invalid_params, run_request};
use crate::lsp::ext::{self, SleepParams, StatusParams};
use crate::lsp::indexer;
use crate::lsp::state::Shared;

/// Waits (bounded by `indexWaitMs`) for the first index of the workspace; returns whether it
/// is ready.
pub async fn wait_for_initial_index(shared: &Shared) -> bool {
    let wait_ms = shared.read().config.index_wait_ms;
    let mut ready = shared.ready.subscribe();
    let res = tokio::time::timeout(
        Duration::from_millis(wait_ms),
        ready.wait_for(|ready| *ready),
    )
    .await;
    matches!(res, Ok(Ok(_)))
}

fn parse_arg<T: serde::de::DeserializeOwned + Default>(
    command: &str,
    arguments: &[Value],
) -> Result<T> {
    match arguments.first() {
        None | Some(Value::Null) => Ok(T::default()),
        Some(value) => serde_json::from_value(value.clone())
            .map_err(|err| invalid_params(format!("{command}: invalid arguments: {err}"))),
    }
}

async fn status(shared: &Arc<Shared>) -> Result<Option<LSPAny>> {
    let shared_for_status = Arc::clone(shared);
    run_request(shared, ext::STATUS, move |world, _cancel| {
        let status = indexer::status(&shared_for_status, world);
        serde_json::to_value(status)
            .map(Some)
            .map_err(|err| internal_error(err.to_string()))
    })
    .await
}

fn test_commands_enabled() -> bool {
    std::env::var("CODECTX_TEST_COMMANDS").is_ok_and(|value| value == "1")
}

pub async fn handle(shared: &Arc<Shared>, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
    let arguments = params.arguments;
    match params.command.as_str() {
        ext::STATUS => {
            let status_params: StatusParams = parse_arg(ext::STATUS, &arguments)?;
            if status_params.wait {
                wait_for_initial_index(shared).await;
            }
            status(shared).await
        }
        ext::REINDEX => {
            indexer::index_workspace(Arc::clone(shared), false).await;
            status(shared).await
        }
        ext::CONTEXT => super::context::handle(shared, arguments).await,
        ext::TEST_SLEEP if test_commands_enabled() => {
            let Some(sleep) = arguments
                .first()
                .and_then(|value| serde_json::from_value::<SleepParams>(value.clone()).ok())
            else {
                return Err(invalid_params(
                    "codectx.test.sleep: expected {\"ms\": number}",
                ));
            };
            run_request(shared, ext::TEST_SLEEP, move |_world, cancel| {
                for _ in 0..sleep.ms {
                    cancel.check()?;
                    std::thread::sleep(Duration::from_millis(1));
                }
                Ok(Some(Value::Bool(true)))
            })
            .await
        }
        ext::TEST_PANIC if test_commands_enabled() => {
            run_request(
                shared,
                ext::TEST_PANIC,
                |_world, _cancel| -> Result<Option<LSPAny>> { panic!("a test panic") },
            )
            .await
        }
        ext::TEST_FINGERPRINT if test_commands_enabled() => {
            run_request(shared, ext::TEST_FINGERPRINT, |world, _cancel| {
                Ok(Some(Value::from(world.index.fingerprint())))
            })
            .await
        }
        other => Err(invalid_params(format!("unknown command {other:?}"))),
    }
}
