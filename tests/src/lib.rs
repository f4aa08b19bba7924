//! A small JSON-RPC client that speaks LSP to a `codectx serve` child process over stdio, plus
//! fixture helpers, for the end-to-end tests in `tests/tests/lsp_*.rs`.
//!
//! Invariant: every wait is bounded (a hung server fails the test instead of hanging it);
//! requests the server sends to the client are answered like an editor would.

pub mod cli_support;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long any single wait may take.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The server binary: `CODECTX_BIN` when set, else the one cargo built for the test.
pub fn server_bin(built: &str) -> PathBuf {
    std::env::var_os("CODECTX_BIN").map_or_else(|| PathBuf::from(built), PathBuf::from)
}

/// The repository's `fixtures/` directory.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// A directory removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "codectx-e2e-{label}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir.canonicalize().expect("canonical temp dir"))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Copies a directory tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("dir entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

/// A copy of `fixtures/<name>/repo` in a fresh temp dir.
pub fn fixture_copy(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    copy_dir(&fixtures_dir().join(name).join("repo"), dir.path());
    dir
}

/// The `file:` URI of an absolute path.
pub fn file_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for byte in path.to_str().expect("UTF-8 path").bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// The position (line, UTF-16 or UTF-8 column) of the first `needle` in `text`, plus `delta`
/// characters.
pub fn position_of(text: &str, needle: &str, delta: usize, utf8: bool) -> Value {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    let offset = offset
        + needle[..]
            .chars()
            .take(delta)
            .map(char::len_utf8)
            .sum::<usize>();
    position_at(text, offset, utf8)
}

/// A running server.
pub struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// Notifications received and not yet consumed, in order.
    pub notifications: Vec<Value>,
    /// Requests the server sent to the client (answered automatically).
    pub server_requests: Vec<Value>,
    /// Responses received while waiting for another one.
    responses: Vec<Value>,
    /// The answer to `workspace/configuration`.
    pub configuration: Value,
}

impl Server {
    /// Starts `BIN serve` in `cwd` with the test commands enabled.
    pub fn spawn(bin: &Path, cwd: &Path) -> Server {
        Server::spawn_with_args(bin, cwd, &["serve"])
    }

    pub fn spawn_with_args(bin: &Path, cwd: &Path, args: &[&str]) -> Server {
        let cache_dir = std::env::temp_dir().join("codectx-e2e-cache");
        Server::spawn_with_cache(bin, cwd, args, &cache_dir)
    }

    /// Like [`Server::spawn_with_args`], with the syntax cache in `cache_dir` (the tests
    /// otherwise share one under the temp directory, never the user's own).
    pub fn spawn_with_cache(bin: &Path, cwd: &Path, args: &[&str], cache_dir: &Path) -> Server {
        let mut child = Command::new(bin)
            .args(args)
            .current_dir(cwd)
            .env("CODECTX_CACHE_DIR", cache_dir)
            .env("CODECTX_TEST_COMMANDS", "1")
            .env(
                "CODECTX_LOG",
                std::env::var("CODECTX_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start {}: {err}", bin.display()));
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut content_length = None;
                loop {
                    let mut line = String::new();
                    match reader.read_line(&mut line) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(value) = line.strip_prefix("Content-Length:") {
                        content_length = value.trim().parse::<usize>().ok();
                    }
                }
                let Some(len) = content_length else { return };
                let mut body = vec![0; len];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let Ok(message) = serde_json::from_slice::<Value>(&body) else {
                    return;
                };
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Server {
            child,
            stdin,
            messages,
            next_id: 0,
            notifications: Vec::new(),
            server_requests: Vec::new(),
            responses: Vec::new(),
            configuration: Value::Null,
        }
    }

    /// Writes raw bytes as one framed message body.
    pub fn send_raw(&mut self, body: &[u8]) {
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        self.stdin
            .write_all(header.as_bytes())
            .expect("write header");
        self.stdin.write_all(body).expect("write body");
        self.stdin.flush().expect("flush");
    }

    pub fn send(&mut self, message: &Value) {
        let body = serde_json::to_vec(message).expect("serialize");
        self.send_raw(&body);
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its id without waiting.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Sends a request and waits for its result (`Err` holds the error object).
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        let id = self.send_request(method, params);
        self.response(id)
    }

    /// Like `request`, panicking on an error response.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.request(method, params)
            .unwrap_or_else(|err| panic!("{method} failed: {err}"))
    }

    pub fn execute(&mut self, command: &str, arguments: Value) -> Result<Value, Value> {
        self.request(
            "workspace/executeCommand",
            json!({"command": command, "arguments": arguments}),
        )
    }

    fn next_message(&mut self, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server in time"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    /// Sorts one incoming message into responses, notifications and server requests.
    fn dispatch(&mut self, message: Value) {
        let has_method = message.get("method").is_some();
        let has_id = message.get("id").is_some();
        match (has_method, has_id) {
            (true, true) => {
                let result = match message["method"].as_str() {
                    Some("workspace/configuration") => {
                        let n_items = message["params"]["items"].as_array().map_or(1, Vec::len);
                        Value::Array(vec![self.configuration.clone(); n_items])
                    }
                    _ => Value::Null,
                };
                let id = message["id"].clone();
                self.server_requests.push(message);
                self.send(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
            }
            (true, false) => self.notifications.push(message),
            _ => self.responses.push(message),
        }
    }

    /// Waits for the response with this id.
    pub fn response(&mut self, id: i64) -> Result<Value, Value> {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(idx) = self
                .responses
                .iter()
                .position(|response| response["id"] == json!(id))
            {
                let response = self.responses.remove(idx);
                return match response.get("error") {
                    Some(error) => Err(error.clone()),
                    None => Ok(response["result"].clone()),
                };
            }
            let message = self.next_message(deadline);
            self.dispatch(message);
        }
    }

    /// Waits for a response without an id (`null`), as sent for unparsable messages.
    pub fn response_without_id(&mut self) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(idx) = self
                .responses
                .iter()
                .position(|response| response["id"].is_null())
            {
                return self.responses.remove(idx);
            }
            let message = self.next_message(deadline);
            self.dispatch(message);
        }
    }

    /// Waits for a notification matching `pred` and removes it from `notifications`.
    pub fn notification(&mut self, method: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(idx) = self
                .notifications
                .iter()
                .position(|message| message["method"] == method && pred(&message["params"]))
            {
                return self.notifications.remove(idx)["params"].clone();
            }
            let message = self.next_message(deadline);
            self.dispatch(message);
        }
    }

    /// `initialize` + `initialized` over the given roots.
    pub fn initialize(&mut self, roots: &[&Path], capabilities: Value, options: Value) -> Value {
        let folders: Vec<Value> = roots
            .iter()
            .map(|root| json!({"uri": file_uri(root), "name": root.file_name().unwrap().to_string_lossy()}))
            .collect();
        let result = self.call(
            "initialize",
            json!({
                "processId": std::process::id(),
                "rootUri": roots.first().map(|root| file_uri(root)),
                "capabilities": capabilities,
                "workspaceFolders": folders,
                "initializationOptions": options,
            }),
        );
        self.notify("initialized", json!({}));
        result
    }

    /// Waits for the first index and returns the status.
    pub fn wait_ready(&mut self) -> Value {
        self.execute("codectx.status", json!([{"wait": true}]))
            .expect("codectx.status")
    }

    /// `shutdown` then `exit`; returns the exit status.
    pub fn shutdown(mut self) -> ExitStatus {
        self.call("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The LSP position of a byte offset in `text` (UTF-8 or UTF-16 columns).
pub fn position_at(text: &str, offset: usize, utf8: bool) -> Value {
    let line = text[..offset].matches('\n').count();
    let line_start = text[..offset].rfind('\n').map_or(0, |idx| idx + 1);
    let prefix = &text[line_start..offset];
    let character = if utf8 {
        prefix.len()
    } else {
        prefix.chars().map(char::len_utf16).sum()
    };
    json!({"line": line, "character": character})
}

/// An open buffer mirrored on the test side: edits are applied here and sent as incremental
/// `didChange` notifications in the negotiated encoding.
pub struct Buffer {
    pub uri: String,
    pub text: String,
    pub version: i64,
    pub utf8: bool,
}

impl Buffer {
    pub fn open(
        server: &mut Server,
        uri: String,
        language_id: &str,
        text: String,
        utf8: bool,
    ) -> Buffer {
        server.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language_id, "version": 1, "text": text}}),
        );
        Buffer {
            uri,
            text,
            version: 1,
            utf8,
        }
    }

    /// Replaces bytes `start..end` with `new_text`.
    pub fn edit(&mut self, server: &mut Server, start: usize, end: usize, new_text: &str) {
        let range = json!({
            "start": position_at(&self.text, start, self.utf8),
            "end": position_at(&self.text, end, self.utf8),
        });
        self.text.replace_range(start..end, new_text);
        self.version += 1;
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": self.uri, "version": self.version},
                   "contentChanges": [{"range": range, "text": new_text}]}),
        );
    }

    /// Replaces the first occurrence of `needle`.
    pub fn replace(&mut self, server: &mut Server, needle: &str, new_text: &str) {
        let start = self
            .text
            .find(needle)
            .unwrap_or_else(|| panic!("{needle:?} not in buffer"));
        self.edit(server, start, start + needle.len(), new_text);
    }

    pub fn close(self, server: &mut Server) {
        server.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": self.uri}}),
        );
    }
}
