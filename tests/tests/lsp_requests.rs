//! End-to-end: the requests of a language server session on the `py_shop` fixture, over the
//! real binary's stdio: initialize, progress, workspace/symbol, definition, references,
//! documentSymbol, hover, the custom commands, protocol errors and shutdown.

use codectx_e2e::{file_uri, fixtures_dir, position_of, server_bin, Server};
use serde_json::{json, Value};

fn bin() -> std::path::PathBuf {
    server_bin(env!("CARGO_BIN_EXE_codectx-e2e-server"))
}

fn capabilities() -> Value {
    json!({
        "general": {"positionEncodings": ["utf-16"]},
        "window": {"workDoneProgress": true},
        "textDocument": {
            "definition": {"linkSupport": true},
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": true},
            "hover": {"contentFormat": ["markdown", "plaintext"]}
        },
        "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}, "workspaceFolders": true}
    })
}

fn py_shop() -> std::path::PathBuf {
    fixtures_dir().join("py_shop/repo").canonicalize().unwrap()
}

fn start() -> (Server, std::path::PathBuf) {
    let root = py_shop();
    let mut server = Server::spawn(&bin(), &root);
    let init = server.initialize(&[&root], capabilities(), json!({"symbols": {"limit": 50}}));
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    let status = server.wait_ready();
    assert_eq!(status["state"], "ready", "{status}");
    (server, root)
}

fn read(root: &std::path::Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap()
}

#[test]
fn initialize_advertises_capabilities_and_reports_progress() {
    let root = py_shop();
    let mut server = Server::spawn(&bin(), &root);
    let init = server.initialize(&[&root], capabilities(), Value::Null);
    let caps = &init["capabilities"];
    assert_eq!(caps["textDocumentSync"]["change"], 2);
    assert_eq!(caps["textDocumentSync"]["save"]["includeText"], false);
    for provider in [
        "workspaceSymbolProvider",
        "definitionProvider",
        "referencesProvider",
        "documentSymbolProvider",
        "hoverProvider",
    ] {
        assert_eq!(caps[provider], true, "{provider}");
    }
    let commands = caps["executeCommandProvider"]["commands"].clone();
    assert_eq!(
        commands,
        json!(["codectx.context", "codectx.status", "codectx.reindex"])
    );
    assert_eq!(
        caps["workspace"]["workspaceFolders"],
        json!({"supported": true, "changeNotifications": true})
    );
    let status = server.wait_ready();
    assert_eq!(status["state"], "ready");
    assert!(status["files"].as_u64().unwrap() >= 15, "{status}");
    assert!(status["definitions"].as_u64().unwrap() > 50, "{status}");
    // Progress: a token was created, then begin, report and end were sent on it.
    let end = server.notification("$/progress", |params| params["value"]["kind"] == "end");
    let token = end["token"].clone();
    assert!(server
        .server_requests
        .iter()
        .any(
            |request| request["method"] == "window/workDoneProgress/create"
                && request["params"]["token"] == token
        ));
    let report = server.notification("$/progress", |params| params["value"]["kind"] == "report");
    let message = report["value"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Indexing ") && message.ends_with(" files"),
        "{message}"
    );
    // The watcher registration covers the source extensions and manifests.
    let registration = server
        .server_requests
        .iter()
        .find(|request| request["method"] == "client/registerCapability")
        .expect("registerCapability")
        .clone();
    let watchers =
        registration["params"]["registrations"][0]["registerOptions"]["watchers"].to_string();
    assert!(
        watchers.contains("py") && watchers.contains("go.mod"),
        "{watchers}"
    );
    assert!(server.shutdown().success());
}

#[test]
fn workspace_symbol_is_ranked_capped_and_shows_containers() {
    let (mut server, root) = start();
    let symbols = server.call("workspace/symbol", json!({"query": "place_order"}));
    let first = &symbols[0];
    assert_eq!(first["name"], "place_order");
    assert_eq!(first["containerName"], "OrderService");
    assert_eq!(first["kind"], 6, "method");
    assert_eq!(
        first["location"]["uri"],
        file_uri(&root.join("shop/services/order_service.py"))
    );
    // Fuzzy: an abbreviation finds the class; the cap holds.
    let fuzzy = server.call("workspace/symbol", json!({"query": "OrdSvc"}));
    assert_eq!(fuzzy[0]["name"], "OrderService");
    let many = server.call("workspace/symbol", json!({"query": "e"}));
    assert!(many.as_array().unwrap().len() <= 50);
    assert_eq!(
        server.call("workspace/symbol", json!({"query": ""})),
        json!([])
    );
    assert!(server.shutdown().success());
}

#[test]
fn definition_returns_location_links_to_the_method() {
    let (mut server, root) = start();
    let views = read(&root, "shop/api/views.py");
    let uri = file_uri(&root.join("shop/api/views.py"));
    let position = position_of(&views, "service.place_order(cart)", 12, false);
    let links = server.call(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri}, "position": position}),
    );
    let link = &links[0];
    assert_eq!(
        link["targetUri"],
        file_uri(&root.join("shop/services/order_service.py"))
    );
    let target = read(&root, "shop/services/order_service.py");
    assert_eq!(
        link["targetSelectionRange"]["start"],
        position_of(&target, "place_order(self", 0, false)
    );
    // The origin is the identifier under the cursor.
    assert_eq!(
        link["originSelectionRange"]["start"],
        position_of(&views, "place_order(cart)", 0, false)
    );
    // Nothing under the cursor: null. Out-of-range positions are clamped, not errors.
    let none = server.call(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
    );
    assert!(none.is_null() || none == json!([]), "{none}");
    server.call(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri}, "position": {"line": 99999, "character": 99999}}),
    );
    assert!(server.shutdown().success());
}

fn references(server: &mut Server, uri: &str, position: &Value, declaration: bool) -> Value {
    server.call(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": position, "context": {"includeDeclaration": declaration}}),
    )
}

#[test]
fn references_are_narrowed_to_files_that_see_the_definition() {
    let (mut server, root) = start();
    let pricing = read(&root, "shop/services/pricing.py");
    let uri = file_uri(&root.join("shop/services/pricing.py"));
    let position = position_of(&pricing, "def coupon_discount", 4, false);
    let with_decl = references(&mut server, &uri, &position, true);
    let without = references(&mut server, &uri, &position, false);
    let n_with = with_decl.as_array().unwrap().len();
    let n_without = without.as_array().unwrap().len();
    assert_eq!(n_with, n_without + 1, "{with_decl}");
    assert!(n_without >= 1);
    let uris: Vec<&str> = without
        .as_array()
        .unwrap()
        .iter()
        .map(|location| location["uri"].as_str().unwrap())
        .collect();
    // The call inside pricing.py is there; every file is pricing.py or imports it.
    assert!(uris.contains(&uri.as_str()), "{uris:?}");

    // `DatabaseClient.connect` is called as `self.connect()` and `client.connect()`;
    // `sqlite3.connect(database)` is the library's function, not a reference.
    let db = read(&root, "shop/db.py");
    let db_uri = file_uri(&root.join("shop/db.py"));
    let position = position_of(&db, "def connect", 4, false);
    let refs = references(&mut server, &db_uri, &position, false);
    let lines_in_db: Vec<u64> = refs
        .as_array()
        .unwrap()
        .iter()
        .filter(|location| location["uri"] == db_uri.as_str())
        .map(|location| location["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    let sqlite_line = db[..db.find("sqlite3.connect(").unwrap()]
        .matches('\n')
        .count() as u64;
    assert!(!lines_in_db.is_empty(), "{refs}");
    assert!(!lines_in_db.contains(&sqlite_line), "{refs}");
    assert!(server.shutdown().success());
}

#[test]
fn document_symbols_are_hierarchical_and_hover_shows_the_card() {
    let (mut server, root) = start();
    let uri = file_uri(&root.join("shop/services/order_service.py"));
    let symbols = server.call(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let class = symbols
        .as_array()
        .unwrap()
        .iter()
        .find(|symbol| symbol["name"] == "OrderService")
        .expect("OrderService");
    let children: Vec<&str> = class["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|child| child["name"].as_str().unwrap())
        .collect();
    assert!(children.contains(&"place_order"), "{children:?}");

    let views = read(&root, "shop/api/views.py");
    let views_uri = file_uri(&root.join("shop/api/views.py"));
    let hover = server.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": views_uri}, "position": position_of(&views, "service.place_order(cart)", 10, false)}),
    );
    let value = hover["contents"]["value"].as_str().unwrap();
    assert_eq!(hover["contents"]["kind"], "markdown");
    assert!(value.starts_with("```python\ndef place_order("), "{value}");
    assert!(value.contains("method in `OrderService`"), "{value}");
    assert!(value.contains("shop/services/order_service.py:"), "{value}");
    assert!(server.shutdown().success());
}

#[test]
fn commands_report_status_reindex_and_assemble_context() {
    let (mut server, _root) = start();
    let status = server.execute("codectx.status", json!([])).unwrap();
    for key in [
        "state",
        "roots",
        "files",
        "definitions",
        "references",
        "skipped",
        "indexMs",
        "memoryBytes",
        "syntaxCache",
    ] {
        assert!(status.get(key).is_some(), "{key} missing from {status}");
    }
    let reindexed = server.execute("codectx.reindex", json!([])).unwrap();
    assert_eq!(reindexed["files"], status["files"]);
    assert_eq!(reindexed["definitions"], status["definitions"]);
    // The context command answers from the engine, within its budget.
    let context = server
        .execute(
            "codectx.context",
            json!([{"query": "fix the crash in DatabaseClient.connect when the URL is empty", "budget": 2000}]),
        )
        .unwrap();
    assert_eq!(context["intent"]["kind"], "bug_fix", "{context}");
    assert_eq!(context["budget"]["limit"], 2000);
    assert!(context["budget"]["used"].as_u64().unwrap() <= 2000);
    assert!(context["text"]
        .as_str()
        .unwrap()
        .starts_with("<context intent=\"bug_fix\""));
    let items = context["items"].as_array().unwrap();
    assert!(
        items
            .iter()
            .any(|item| item["symbol"] == "DatabaseClient.connect" && item["path"] == "shop/db.py"),
        "{context}"
    );
    assert!(items
        .iter()
        .all(|item| item["uri"].as_str().unwrap().starts_with("file://")));
    // Bad arguments are InvalidParams errors that name the field.
    for (arguments, field) in [
        (json!([{"query": ""}]), "query"),
        (json!([{"query": 3}]), "query"),
        (json!([{}]), "query"),
        (json!([{"query": "x", "budget": 10}]), "budget"),
        (json!([{"query": "x", "budget": "big"}]), "budget"),
        (json!([{"query": "x", "format": "html"}]), "format"),
        (json!([{"query": "x", "intent": "dance"}]), "intent"),
        (
            json!([{"query": "x", "activeUri": "file:///elsewhere/a.py"}]),
            "activeUri",
        ),
        (
            json!([{"query": "x", "pinnedUris": "file:///a.py"}]),
            "pinnedUris",
        ),
        (json!([{"query": "x", "colour": "red"}]), "colour"),
    ] {
        let error = server
            .execute("codectx.context", arguments.clone())
            .unwrap_err();
        assert_eq!(error["code"], -32602, "{arguments}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("{field}:")),
            "{arguments}: {message}"
        );
    }
    let bad = server
        .execute("codectx.status", json!([{"wait": "yes"}]))
        .unwrap_err();
    assert_eq!(bad["code"], -32602);
    let unknown = server.execute("codectx.nope", json!([])).unwrap_err();
    assert_eq!(unknown["code"], -32602);
    assert!(server.shutdown().success());
}

#[test]
fn protocol_errors_are_answered_and_the_server_keeps_running() {
    let (mut server, root) = start();
    // Unknown method.
    let unknown = server
        .request("codectx/unknownMethod", json!({}))
        .unwrap_err();
    assert_eq!(unknown["code"], -32601);
    // Wrong params: a message says what is wrong.
    let wrong = server
        .request("textDocument/definition", json!({"textDocument": 42}))
        .unwrap_err();
    assert_eq!(wrong["code"], -32602);
    assert!(!wrong["message"].as_str().unwrap().is_empty());
    // Bad JSON: a parse error without an id.
    server.send_raw(b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
    let parse_error = server.response_without_id();
    assert_eq!(parse_error["error"]["code"], -32700, "{parse_error}");
    // A panicking handler is an internal error, and the server still answers.
    let panic = server.execute("codectx.test.panic", json!([])).unwrap_err();
    assert_eq!(panic["code"], -32603);
    assert!(panic["message"].as_str().unwrap().contains("a test panic"));
    // Cancellation: a long request is cancelled and answered with RequestCancelled.
    let id = server.send_request(
        "workspace/executeCommand",
        json!({"command": "codectx.test.sleep", "arguments": [{"ms": 20000}]}),
    );
    std::thread::sleep(std::time::Duration::from_millis(100));
    let started = std::time::Instant::now();
    server.notify("$/cancelRequest", json!({"id": id}));
    let cancelled = server.response(id).unwrap_err();
    assert_eq!(cancelled["code"], -32800);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // Edits to unknown documents are ignored.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": file_uri(&root.join("nope.py")), "version": 2},
               "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x"}]}),
    );
    let symbols = server.call("workspace/symbol", json!({"query": "OrderService"}));
    assert_eq!(symbols[0]["name"], "OrderService");
    assert!(server.shutdown().success());
}

#[test]
fn stdio_flag_starts_the_server_too() {
    let root = py_shop();
    let mut server = Server::spawn_with_args(&bin(), &root, &["--stdio"]);
    server.initialize(&[&root], json!({}), Value::Null);
    assert_eq!(server.wait_ready()["state"], "ready");
    assert!(server.shutdown().success());
}

/// The definitions the context for `query` shows.
fn context_symbols(server: &mut Server, query: &str) -> Vec<String> {
    let context = server
        .execute("codectx.context", json!([{"query": query, "budget": 2000}]))
        .unwrap();
    context["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|item| item["symbol"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn context_follows_edits_whether_asked_at_once_or_after_the_background_refresh() {
    let (mut server, root) = start();
    let uri = file_uri(&root.join("shop/db.py"));
    let text = read(&root, "shop/db.py");
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}),
    );
    let with = |name: &str| {
        format!("{text}\n\ndef {name}(ledger):\n    return ledger.entries_for_the_quarter()\n")
    };
    let change = |server: &mut Server, version: u32, text: String| {
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    };
    // Asked at once: the request itself brings the index and the search tables up to date.
    change(&mut server, 2, with("audit_quarterly_ledger"));
    let symbols = context_symbols(&mut server, "why does audit_quarterly_ledger fail");
    assert!(
        symbols.iter().any(|s| s == "audit_quarterly_ledger"),
        "{symbols:?}"
    );
    // Asked after a pause: the server refreshed in the background first, and answers alike.
    change(&mut server, 3, with("reconcile_monthly_ledger"));
    std::thread::sleep(std::time::Duration::from_millis(400));
    let symbols = context_symbols(&mut server, "why does reconcile_monthly_ledger fail");
    assert!(
        symbols.iter().any(|s| s == "reconcile_monthly_ledger"),
        "{symbols:?}"
    );
    let symbols = context_symbols(&mut server, "why does audit_quarterly_ledger fail");
    assert!(
        !symbols.iter().any(|s| s == "audit_quarterly_ledger"),
        "{symbols:?}"
    );
    // Closing the buffer brings back the file on disk, with neither function.
    server.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    std::thread::sleep(std::time::Duration::from_millis(400));
    let symbols = context_symbols(&mut server, "why does reconcile_monthly_ledger fail");
    assert!(
        !symbols.iter().any(|s| s == "reconcile_monthly_ledger"),
        "{symbols:?}"
    );
    assert!(server.shutdown().success());
}

#[test]
fn a_restarted_server_reuses_the_syntax_cache_of_the_last_one() {
    let root = py_shop();
    let cache = codectx_e2e::TempDir::new("server-cache");
    let start_with = |options: Value| {
        let mut server = Server::spawn_with_cache(&bin(), &root, &["serve"], cache.path());
        server.initialize(&[&root], capabilities(), options);
        let status = server.wait_ready();
        assert_eq!(status["state"], "ready", "{status}");
        (server, status)
    };
    let start = || start_with(Value::Null);
    let (first, cold) = start();
    let files = cold["files"].as_u64().unwrap();
    assert_eq!(cold["syntaxCache"], json!({"reused": 0, "parsed": files}));
    // The cache is written after the server reports ready.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let written = || {
        std::fs::read_dir(cache.path()).unwrap().any(|entry| {
            let name = entry.unwrap().file_name();
            let name = name.to_string_lossy();
            name.starts_with("syntax-") && name.ends_with(".bin")
        })
    };
    while !written() {
        assert!(std::time::Instant::now() < deadline, "no cache written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(first.shutdown().success());

    let (second, warm) = start();
    for key in ["files", "definitions", "references"] {
        assert_eq!(warm[key], cold[key], "{key}");
    }
    assert_eq!(warm["syntaxCache"], json!({"reused": files, "parsed": 0}));
    assert!(second.shutdown().success());

    // The `syntaxCache` setting turns it off.
    let (third, off) = start_with(json!({"syntaxCache": false}));
    assert!(off["syntaxCache"].is_null(), "{off}");
    assert_eq!(off["definitions"], cold["definitions"]);
    assert!(third.shutdown().success());
}

#[test]
fn implementation_lists_a_traits_impls_and_a_methods_overrides() {
    let root = fixtures_dir()
        .join("rust_workspace/repo")
        .canonicalize()
        .unwrap();
    let mut server = Server::spawn(&bin(), &root);
    let init = server.initialize(&[&root], capabilities(), json!({}));
    assert_eq!(init["capabilities"]["implementationProvider"], true);
    assert_eq!(server.wait_ready()["state"], "ready");
    let path = root.join("crates/kv-core/src/store.rs");
    let store = read(&root, "crates/kv-core/src/store.rs");
    let uri = file_uri(&path);
    let at = |needle: &str, delta: usize| position_of(&store, needle, delta, false);
    let implementation = |server: &mut Server, position: Value| {
        server.call(
            "textDocument/implementation",
            json!({"textDocument": {"uri": uri}, "position": position}),
        )
    };
    // The trait: its impl for `MemStore`, at the impl's name.
    let impls = implementation(&mut server, at("pub trait Store", 10));
    let impls = impls.as_array().expect("locations");
    assert!(
        impls.iter().any(|location| location["uri"] == json!(uri)
            && location["range"]["start"] == at("impl Store for MemStore", 15)),
        "{impls:?}"
    );
    // A method of the trait: the impl's method.
    let overrides = implementation(
        &mut server,
        at("fn get(&self, key: &[u8]) -> Option<&[u8]>;", 3),
    );
    assert_eq!(
        overrides[0]["range"]["start"],
        at("fn get(&self, key: &[u8]) -> Option<&[u8]> {", 3),
        "{overrides}"
    );
    // Nothing implements a local variable: null.
    let none = implementation(&mut server, json!({"line": 0, "character": 0}));
    assert!(none.is_null() || none == json!([]), "{none}");
    assert!(server.shutdown().success());
}
