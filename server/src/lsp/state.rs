//! The server's state: the index, the open documents, the configuration and what the client
//! negotiated, behind one lock, plus the signals background indexing publishes.
//!
//! Invariant: the world lock is never held across an `.await`; writers hold it only for a
//! synchronous change (one notification, one chunk of indexed files, a swap of the index).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::{OnceLock, RwLock, RwLockReadGuard, RwLockWriteGuard};

use tower_lsp_server::Client;

use super::config::Config;
use crate::documents::{Documents, DETACHED_ROOT};
use crate::index::{Index, Skipped};

/// How positions count columns, as negotiated in `initialize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Encoding {
    Utf8,
    #[default]
    Utf16,
}

/// What the client supports, fixed at `initialize`.
#[derive(Clone, Debug, Default)]
pub struct ClientFlags {
    pub encoding: Encoding,
    pub location_links: bool,
    pub hierarchical_symbols: bool,
    pub work_done_progress: bool,
    pub watched_files_dynamic: bool,
    pub configuration_dynamic: bool,
    pub markdown_hover: bool,
}

/// Everything requests read and notifications change.
#[derive(Default)]
pub struct World {
    pub index: Index,
    pub documents: Documents,
    /// The workspace roots, in the order of the index's root ids (the index of a running
    /// rebuild may still have the previous roots until it is swapped in).
    pub roots: Vec<PathBuf>,
    pub config: Config,
    pub skipped: Vec<Skipped>,
    pub index_ms: u64,
    /// How the last finished build used the syntax cache (`None` when it was off).
    pub cache_stats: Option<crate::index::CacheStats>,
    pub encoding: Encoding,
    /// Configuration errors found before the client could be told (shown in `initialized`).
    pub pending_messages: Vec<String>,
    /// The context engine and its caches (search tables of the current index generation).
    pub engine: crate::engine::Engine,
}

impl World {
    /// Where the file at `path` is indexed: its root and relative path, or `None` when it is
    /// outside every root of the index.
    pub fn locate_path(&self, path: &std::path::Path) -> Option<(u32, Box<str>)> {
        self.index
            .relativize(path)
            .map(|(root, rel)| (root, rel.into_boxed_str()))
    }

    /// Where a document URI is indexed (detached buffers use their URI as path).
    pub fn locate_uri(&self, uri: &tower_lsp_server::ls_types::Uri) -> (u32, Box<str>) {
        super::from_proto::file_path(uri)
            .and_then(|path| self.locate_path(&path))
            .unwrap_or_else(|| (DETACHED_ROOT, uri.as_str().into()))
    }
}

/// State shared by all handlers.
pub struct Shared {
    pub client: Client,
    world: RwLock<World>,
    pub flags: OnceLock<ClientFlags>,
    /// `true` once the first indexing of the workspace finished.
    pub ready: tokio::sync::watch::Sender<bool>,
    /// Bumped by every indexing job; a job stops when it is no longer the newest.
    pub generation: AtomicU64,
    /// Indexing jobs running now.
    pub n_jobs: AtomicUsize,
    pub shutting_down: AtomicBool,
    /// Some open document was edited and not yet re-indexed. Set under the world's write
    /// lock; cleared, with the re-indexing, under the write lock too.
    pub dirty: AtomicBool,
    /// Bumped by every notification that changes the workspace (see `schedule_refresh`).
    pub changes: AtomicU64,
    /// A background refresh is waiting for the changes to stop.
    pub refresh_pending: AtomicBool,
}

impl Shared {
    pub fn new(client: Client) -> Shared {
        Shared {
            client,
            world: RwLock::new(World::default()),
            flags: OnceLock::new(),
            ready: tokio::sync::watch::Sender::new(false),
            generation: AtomicU64::new(0),
            n_jobs: AtomicUsize::new(0),
            shutting_down: AtomicBool::new(false),
            dirty: AtomicBool::new(false),
            changes: AtomicU64::new(0),
            refresh_pending: AtomicBool::new(false),
        }
    }

    /// A read lock. A panic elsewhere never makes the state unreadable.
    pub fn read(&self) -> RwLockReadGuard<'_, World> {
        self.world
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn write(&self) -> RwLockWriteGuard<'_, World> {
        self.world
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A read lock on a world whose edited documents are re-indexed: pending edits are
    /// flushed first, so every request sees every change received before it.
    pub fn read_current(&self) -> RwLockReadGuard<'_, World> {
        if self.dirty.load(std::sync::atomic::Ordering::SeqCst) {
            let mut world = self.write();
            if self.dirty.swap(false, std::sync::atomic::Ordering::SeqCst) {
                super::indexer::flush_dirty(&mut world);
            }
        }
        self.read()
    }

    pub fn flags(&self) -> ClientFlags {
        self.flags.get().cloned().unwrap_or_default()
    }

    pub fn is_ready(&self) -> bool {
        *self.ready.borrow()
    }
}

/// Runs `f` on the state under `catch_unwind`, logging a panic instead of unwinding into the
/// protocol loop (for notifications, which have no response to carry an error).
pub fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Option<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(value) => Some(value),
        Err(panic) => {
            tracing::error!(
                "{what} panicked: {}",
                super::dispatch::panic_message(&panic)
            );
            None
        }
    }
}
