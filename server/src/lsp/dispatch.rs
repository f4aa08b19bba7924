//! Running requests: on a read lock of the world, in `spawn_blocking`, under `catch_unwind`,
//! with a cancellation flag that is raised when the client cancels (tower-lsp-server then
//! drops the request's future).
//!
//! Invariant: a panicking request is answered with an internal error and leaves the server
//! running; the world lock is taken inside the blocking task, never across an `.await`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};

use super::state::{Shared, World};

/// Raised when the request was cancelled or abandoned; long loops poll it.
#[derive(Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `Err(RequestCancelled)` once cancelled, for `?` in loops.
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(Error::request_cancelled())
        } else {
            Ok(())
        }
    }
}

/// Raises the flag when dropped: a cancelled request's future is dropped mid-`.await`.
struct CancelOnDrop(Option<Cancel>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(cancel) = self.0.take() {
            cancel.0.store(true, Ordering::Relaxed);
        }
    }
}

/// The message of a caught panic.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(message) = panic.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = panic.downcast_ref::<String>() {
        message.clone()
    } else {
        "unknown panic".to_owned()
    }
}

/// An internal error response with a message.
pub fn internal_error(message: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::InternalError,
        message: message.into().into(),
        data: None,
    }
}

pub fn invalid_params(message: impl Into<String>) -> Error {
    Error::invalid_params(message.into())
}

/// Runs a read-only request on the world.
pub async fn run_request<R, F>(shared: &Arc<Shared>, name: &'static str, f: F) -> Result<R>
where
    R: Send + 'static,
    F: FnOnce(&World, &Cancel) -> Result<R> + Send + 'static,
{
    let cancel = Cancel::default();
    let mut guard = CancelOnDrop(Some(cancel.clone()));
    let shared = Arc::clone(shared);
    let task = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let world = shared.read_current();
            f(&world, &cancel)
        }))
    });
    let res = task.await;
    guard.0 = None;
    match res {
        Ok(Ok(res)) => res,
        Ok(Err(panic)) => {
            let message = panic_message(&*panic);
            tracing::error!("request {name} panicked: {message}");
            Err(internal_error(format!("{name} failed: {message}")))
        }
        Err(err) => {
            tracing::error!("request {name} did not complete: {err}");
            Err(internal_error(format!("{name} did not complete")))
        }
    }
}
