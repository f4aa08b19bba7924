//! The in-process LSP benchmark behind `codectx bench lsp`: the real server (`transport::serve`)
//! on in-memory pipes, driven with framed JSON-RPC like an editor would.
//!
//! Invariant: measures only through the protocol (what a client sees); returns plain figures,
//! so `cli` needs no LSP knowledge.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

use crate::index::walk;

/// What `codectx bench lsp` reports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LspBench {
    pub root: String,
    pub files: u64,
    pub initial_index_ms: f64,
    pub edited_file: String,
    pub edited_file_lines: usize,
    pub n_edits: usize,
    pub edit_to_visible_p50_ms: f64,
    pub edit_to_visible_p95_ms: f64,
    pub n_symbol_queries: usize,
    pub workspace_symbol_p50_ms: f64,
    pub workspace_symbol_p95_ms: f64,
    pub n_definitions: usize,
    pub definition_p50_ms: f64,
    pub definition_p95_ms: f64,
    /// `codectx.context` right after a `didChange`, and after a pause of [`PAUSE_MS`].
    pub n_context_after_edit: usize,
    pub context_at_once_p50_ms: f64,
    pub context_at_once_p95_ms: f64,
    pub context_after_pause_p50_ms: f64,
    pub context_after_pause_p95_ms: f64,
    pub burst_changes: usize,
    pub burst_absorb_ms: f64,
    pub rss_before_burst_bytes: Option<u64>,
    pub rss_after_burst_bytes: Option<u64>,
}

/// Rounds of `codectx.context` after an edit (each asks once at once, once after a pause).
const CONTEXT_ROUNDS: usize = 20;
/// The pause before the second ask of a round: longer than the server's refresh delay.
const PAUSE_MS: u64 = 200;
/// Tasks that name no identifier of any repository.
const CONTEXT_TASKS: &[&str] = &[
    "fix the crash when the value is empty",
    "write tests for the parser",
    "where is the cache invalidated",
    "rename the helper that builds the query",
];

struct Client {
    writer: DuplexStream,
    incoming: mpsc::UnboundedReceiver<Value>,
    next_id: i64,
}

impl Client {
    async fn send(&mut self, message: Value) {
        let body = serde_json::to_vec(&message).expect("serializable");
        let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        bytes.extend_from_slice(&body);
        self.writer
            .write_all(&bytes)
            .await
            .expect("server pipe open");
    }

    async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let message = self.incoming.recv().await.expect("server running");
            if message.get("method").is_some() && message.get("id").is_some() {
                // A request from the server (progress token, registration): accept it.
                let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": null});
                self.send(reply).await;
                continue;
            }
            if message["id"] == json!(id) {
                return message.get("result").cloned().unwrap_or(Value::Null);
            }
        }
    }
}

fn percentile(samples: &mut [Duration], pct: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.sort();
    let idx = ((samples.len() as f64 * pct).ceil() as usize).clamp(1, samples.len()) - 1;
    samples[idx].as_secs_f64() * 1e3
}

fn rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn file_uri(path: &Path) -> String {
    tower_lsp_server::ls_types::Uri::from_file_path(path)
        .map(|uri| uri.as_str().to_owned())
        .unwrap_or_default()
}

fn position(text: &str, offset: usize) -> Value {
    let line = text[..offset].matches('\n').count();
    let line_start = text[..offset].rfind('\n').map_or(0, |idx| idx + 1);
    json!({"line": line, "character": offset - line_start})
}

/// The source file whose line count is closest to `target_lines`.
fn pick_file(root: &Path, target_lines: usize) -> Option<(PathBuf, String)> {
    let (candidates, _) = walk::discover(&[root.to_owned()], &Default::default());
    candidates
        .into_iter()
        .filter(|candidate| candidate.lang.is_some())
        .filter_map(|candidate| {
            let text = std::fs::read_to_string(&candidate.abs_path).ok()?;
            Some((candidate.abs_path, text))
        })
        .min_by_key(|(_, text)| text.lines().count().abs_diff(target_lines))
}

/// Runs the benchmark on `root` with `n_edits` edits and a burst of `burst` changes; the
/// server reads and writes the syntax cache when `syntax_cache` is set.
pub fn run(
    root: &Path,
    n_edits: usize,
    burst: usize,
    syntax_cache: bool,
) -> anyhow::Result<LspBench> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run_async(root, n_edits, burst, syntax_cache))
}

async fn run_async(
    root: &Path,
    n_edits: usize,
    burst: usize,
    syntax_cache: bool,
) -> anyhow::Result<LspBench> {
    let mut client = connect();
    let started = Instant::now();
    client
        .request(
            "initialize",
            json!({
                "capabilities": {"general": {"positionEncodings": ["utf-8"]}},
                "workspaceFolders": [{"uri": file_uri(root), "name": "bench"}],
                "initializationOptions": {"syntaxCache": syntax_cache},
            }),
        )
        .await;
    client.notify("initialized", json!({})).await;
    let status = client
        .request(
            "workspace/executeCommand",
            json!({"command": "codectx.status", "arguments": [{"wait": true}]}),
        )
        .await;
    let initial_index_ms = started.elapsed().as_secs_f64() * 1e3;

    let (path, text) =
        pick_file(root, 5000).ok_or_else(|| anyhow::anyhow!("no source file under the root"))?;
    let uri = file_uri(&path);
    let lang_id = crate::languages::Language::from_path(&path.to_string_lossy())
        .map_or("plaintext", |lang| lang.name());
    client
        .notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": lang_id, "version": 1, "text": text}}),
        )
        .await;
    let mut session = Session {
        client,
        uri,
        text,
        version: 1,
    };
    let (mut edit_samples, current) = session.edits_to_visible(n_edits).await?;
    let mut symbol_samples = session.workspace_symbols().await;
    let mut definition_samples = session.definitions().await;
    let (mut context_at_once, mut context_after_pause) = session.contexts_after_edits().await?;
    let rss_before_burst_bytes = rss_bytes();
    let burst_absorb_ms = session.burst(burst, &current).await?;
    let rss_after_burst_bytes = rss_bytes();
    session.client.request("shutdown", Value::Null).await;
    session.client.notify("exit", Value::Null).await;

    Ok(LspBench {
        root: root.display().to_string(),
        files: status["files"].as_u64().unwrap_or(0),
        initial_index_ms,
        edited_file: path.display().to_string(),
        edited_file_lines: session.text.lines().count(),
        n_edits,
        edit_to_visible_p50_ms: percentile(&mut edit_samples, 0.5),
        edit_to_visible_p95_ms: percentile(&mut edit_samples, 0.95),
        n_symbol_queries: symbol_samples.len(),
        workspace_symbol_p50_ms: percentile(&mut symbol_samples, 0.5),
        workspace_symbol_p95_ms: percentile(&mut symbol_samples, 0.95),
        n_definitions: definition_samples.len(),
        definition_p50_ms: percentile(&mut definition_samples, 0.5),
        definition_p95_ms: percentile(&mut definition_samples, 0.95),
        n_context_after_edit: context_at_once.len(),
        context_at_once_p50_ms: percentile(&mut context_at_once, 0.5),
        context_at_once_p95_ms: percentile(&mut context_at_once, 0.95),
        context_after_pause_p50_ms: percentile(&mut context_after_pause, 0.5),
        context_after_pause_p95_ms: percentile(&mut context_after_pause, 0.95),
        burst_changes: burst,
        burst_absorb_ms,
        rss_before_burst_bytes,
        rss_after_burst_bytes,
    })
}

/// The real server on in-memory pipes, and a client reading its framed messages.
fn connect() -> Client {
    let (client_side, server_side) = tokio::io::duplex(1 << 22);
    let (server_read, server_write) = tokio::io::split(server_side);
    let (client_read, client_write) = tokio::io::split(client_side);
    tokio::spawn(super::transport::serve(server_read, server_write));
    let (sender, incoming) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut reader = BufReader::new(client_read);
        loop {
            let mut len = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(value) = line.strip_prefix("Content-Length:") {
                    len = value.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; len];
            if reader.read_exact(&mut body).await.is_err() {
                return;
            }
            if let Ok(message) = serde_json::from_slice::<Value>(&body) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        }
    });
    // The writer half must be a DuplexStream for `Client`; wrap the split half in a pipe.
    let (writer, mut pipe_read) = tokio::io::duplex(1 << 22);
    let mut client_write = client_write;
    tokio::spawn(async move {
        let _ = tokio::io::copy(&mut pipe_read, &mut client_write).await;
    });
    Client {
        writer,
        incoming,
        next_id: 0,
    }
}

/// The client, and the file it opened and edits (`text` follows the edits that rename the
/// marker function; the blank lines and characters typed at the top are not kept in it).
struct Session {
    client: Client,
    uri: String,
    text: String,
    version: i64,
}

impl Session {
    /// Sends one `didChange` of the file, at its next version.
    async fn change(&mut self, range: Value, new_text: &str) {
        self.version += 1;
        self.client
            .notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": self.uri, "version": self.version},
                       "contentChanges": [{"range": range, "text": new_text}]}),
            )
            .await;
    }

    /// Edit-to-visible: rename a function appended at the end, then search for the new name.
    /// Returns the samples and the function's last name.
    async fn edits_to_visible(
        &mut self,
        n_edits: usize,
    ) -> anyhow::Result<(Vec<Duration>, String)> {
        let marker = "\n\ndef zz_bench_0():\n    pass\n";
        let end_pos = position(&self.text, self.text.len());
        self.text.push_str(marker);
        self.change(json!({"start": end_pos, "end": end_pos}), marker)
            .await;
        let mut samples = Vec::with_capacity(n_edits);
        let mut current = "zz_bench_0".to_owned();
        for idx in 1..=n_edits {
            let name = format!("zz_bench_{idx}");
            let start = self.text.rfind(&current).expect("marker present");
            let range = json!({"start": position(&self.text, start),
                               "end": position(&self.text, start + current.len())});
            self.text.replace_range(start..start + current.len(), &name);
            let sent = Instant::now();
            self.change(range, &name).await;
            let res = self
                .client
                .request("workspace/symbol", json!({"query": name}))
                .await;
            samples.push(sent.elapsed());
            anyhow::ensure!(
                res[0]["name"] == json!(name),
                "edit {idx} not visible to the next workspace/symbol: {res}"
            );
            current = name;
        }
        Ok((samples, current))
    }

    /// Workspace symbol queries, as typed and in lower case.
    async fn workspace_symbols(&mut self) -> Vec<Duration> {
        let queries = [
            "QuerySet",
            "get_queryset",
            "Model",
            "render",
            "HttpResponse",
            "clean",
            "save",
            "ForeignKey",
            "as_sql",
            "migrate",
            "frm",
            "qs",
            "get_ctx",
            "Field",
            "test_",
            "url",
            "Cache",
            "Widget",
            "validate",
            "serialize",
        ];
        let mut samples = Vec::new();
        for round in 0..50 {
            for query in queries {
                let query = if round % 2 == 0 {
                    query.to_owned()
                } else {
                    query.to_lowercase()
                };
                let sent = Instant::now();
                self.client
                    .request("workspace/symbol", json!({"query": query}))
                    .await;
                samples.push(sent.elapsed());
            }
        }
        samples
    }

    /// Definitions at the call sites of the edited file.
    async fn definitions(&mut self) -> Vec<Duration> {
        let mut positions = Vec::new();
        let bytes = self.text.as_bytes();
        for (idx, _) in self.text.match_indices('(') {
            let mut start = idx;
            while start > 0
                && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_')
            {
                start -= 1;
            }
            if start < idx {
                positions.push(position(&self.text, start));
            }
        }
        let mut samples = Vec::new();
        for pos in positions
            .iter()
            .cycle()
            .take(1000.min(positions.len() * 50))
        {
            let sent = Instant::now();
            self.client
                .request(
                    "textDocument/definition",
                    json!({"textDocument": {"uri": self.uri}, "position": pos}),
                )
                .await;
            samples.push(sent.elapsed());
        }
        samples
    }

    /// `codectx.context` after an edit (a blank line at the top of the file): asked at once,
    /// the request re-indexes the edit and refreshes the search tables itself; asked after a
    /// pause, as an agent that edits and then thinks would, the background refresh did it.
    async fn contexts_after_edits(&mut self) -> anyhow::Result<(Vec<Duration>, Vec<Duration>)> {
        let mut at_once = Vec::new();
        let mut after_pause = Vec::new();
        for round in 0..CONTEXT_ROUNDS {
            for pause in [false, true] {
                self.change(
                    json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}),
                    "\n",
                )
                .await;
                if pause {
                    tokio::time::sleep(Duration::from_millis(PAUSE_MS)).await;
                }
                let task = CONTEXT_TASKS[round % CONTEXT_TASKS.len()];
                let sent = Instant::now();
                let res = self
                    .client
                    .request(
                        "workspace/executeCommand",
                        json!({"command": "codectx.context", "arguments": [{"query": task}]}),
                    )
                    .await;
                let elapsed = sent.elapsed();
                anyhow::ensure!(res["budget"].is_object(), "codectx.context failed: {res}");
                if pause {
                    after_pause.push(elapsed);
                } else {
                    at_once.push(elapsed);
                }
            }
        }
        Ok((at_once, after_pause))
    }

    /// A burst of changes, typing and deleting a character at the top of the file, then a
    /// search for `current`: the milliseconds until its answer.
    async fn burst(&mut self, burst: usize, current: &str) -> anyhow::Result<f64> {
        let started = Instant::now();
        for idx in 0..burst {
            let (range, new_text) = if idx % 2 == 0 {
                (
                    json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}),
                    "#",
                )
            } else {
                (
                    json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}),
                    "",
                )
            };
            self.change(range, new_text).await;
        }
        let res = self
            .client
            .request("workspace/symbol", json!({"query": current}))
            .await;
        let absorb_ms = started.elapsed().as_secs_f64() * 1e3;
        anyhow::ensure!(
            res[0]["name"] == json!(current),
            "index lost the edits: {res}"
        );
        Ok(absorb_ms)
    }
}
