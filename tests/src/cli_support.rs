//! Support for the CLI end-to-end tests: finding the built `codectx` binary, running it with a
//! time limit, and scratch directories.
//!
//! The binary is `<target dir>/<profile>/codectx`, next to the directory holding this test
//! executable (so `CARGO_TARGET_DIR` and the profile are respected); `CODECTX_BIN` names
//! another one when that is missing. Depending on the `codectx` package makes cargo build it.
//!
//! Invariant: writes only under the system temp directory.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long one run of the binary may take before it counts as hung.
pub const RUN_TIME_LIMIT: Duration = Duration::from_secs(120);

/// The workspace root (the parent of this crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the e2e crate is inside the workspace")
        .to_owned()
}

/// A fixture's repo directory (`fixtures/<name>/repo`).
pub fn fixture_repo(name: &str) -> PathBuf {
    workspace_root().join("fixtures").join(name).join("repo")
}

/// The `codectx` binary to test.
pub fn codectx_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("CODECTX_BIN") {
        return PathBuf::from(bin);
    }
    let name = format!("codectx{}", std::env::consts::EXE_SUFFIX);
    let mut candidates = Vec::new();
    // `<target>/<profile>/deps/cli-<hash>`: the binaries sit in `<target>/<profile>`. This
    // package's own `codectx-e2e-server` (the same `main` as `codectx`) is built fresh for its
    // tests, so it comes first; a `codectx` there may be stale.
    if let Ok(exe) = std::env::current_exe() {
        if let Some(profile_dir) = exe.parent().and_then(Path::parent) {
            candidates.push(profile_dir.join(format!(
                "codectx-e2e-server{}",
                std::env::consts::EXE_SUFFIX
            )));
            candidates.push(profile_dir.join(&name));
        }
    }
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    let target_dir = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => workspace_root().join(dir),
        None => workspace_root().join("target"),
    };
    candidates.push(target_dir.join(profile).join(&name));
    if let Some(bin) = candidates.iter().find(|candidate| candidate.is_file()) {
        return bin.clone();
    }
    match std::env::var_os("CODECTX_BIN") {
        Some(bin) => PathBuf::from(bin),
        None => panic!(
            "codectx binary not found at {candidates:?}; build it (cargo build -p codectx) or set CODECTX_BIN"
        ),
    }
}

/// What a run printed and how it exited.
#[derive(Debug)]
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    /// The standard output parsed as JSON.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|err| panic!("stdout is not JSON ({err}): {self:#?}"))
    }
}

/// Runs `codectx` with `args` in `cwd`; fails the test if it runs longer than
/// [`RUN_TIME_LIMIT`] (a hung run means it blocked reading something it should not read).
#[track_caller]
pub fn run_in(cwd: &Path, args: &[&str]) -> Output {
    run_with_cache(cwd, args, &test_cache_dir())
}

/// The syntax cache the tests' runs share (never the user's own).
pub fn test_cache_dir() -> PathBuf {
    std::env::temp_dir().join("codectx-e2e-cache")
}

/// Like [`run_in`], with the syntax cache in `cache_dir`.
#[track_caller]
pub fn run_with_cache(cwd: &Path, args: &[&str], cache_dir: &Path) -> Output {
    let mut child = Command::new(codectx_bin())
        .args(args)
        .current_dir(cwd)
        .env_remove("CODECTX_LOG")
        .env("CODECTX_CACHE_DIR", cache_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|err| panic!("cannot run {}: {err}", codectx_bin().display()));
    let mut stdout_pipe = child.stdout.take().expect("piped");
    let mut stderr_pipe = child.stderr.take().expect("piped");
    let stdout_reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout_pipe.read_to_string(&mut text).map(|_| text)
    });
    let stderr_reader = std::thread::spawn(move || {
        let mut text = String::new();
        stderr_pipe.read_to_string(&mut text).map(|_| text)
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for codectx") {
            break status;
        }
        if started.elapsed() > RUN_TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("codectx {args:?} did not finish within {RUN_TIME_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        code: status.code().unwrap_or(-1),
        stdout: stdout_reader
            .join()
            .expect("reader thread")
            .expect("stdout is UTF-8"),
        stderr: stderr_reader
            .join()
            .expect("reader thread")
            .expect("stderr is UTF-8"),
    }
}

/// Runs `codectx` with `args` in the workspace root.
#[track_caller]
pub fn run(args: &[&str]) -> Output {
    run_in(&workspace_root(), args)
}

/// A fresh directory under the system temp directory, removed when dropped.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "codectx-e2e-{}-{}-{label}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        if path.exists() {
            std::fs::remove_dir_all(&path).expect("stale temp dir is removable");
        }
        std::fs::create_dir_all(&path).expect("temp dir is creatable");
        TempDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` to `rel_path`, creating parent directories.
    pub fn write(&self, rel_path: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path.join(rel_path);
        std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
        std::fs::write(&path, bytes).expect("write");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Copies a directory tree (regular files and directories only).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("readable dir") {
        let entry = entry.expect("dir entry");
        let kind = entry.file_type().expect("file type");
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The 1-based line and character column of the `$0` marker's place in the single
/// occurrence of `snippet` (which contains `$0`) in `text`.
#[track_caller]
pub fn line_col_of(text: &str, snippet: &str) -> (usize, usize) {
    let marker = snippet.find("$0").expect("snippet has $0");
    let needle = snippet.replacen("$0", "", 1);
    let starts: Vec<usize> = text
        .match_indices(&needle)
        .map(|(start, _)| start)
        .collect();
    assert_eq!(starts.len(), 1, "{needle:?} must occur exactly once");
    let offset = starts[0] + marker;
    let line_start = text[..offset].rfind('\n').map_or(0, |idx| idx + 1);
    let line = text[..offset].matches('\n').count() + 1;
    let col = text[line_start..offset].chars().count() + 1;
    (line, col)
}
