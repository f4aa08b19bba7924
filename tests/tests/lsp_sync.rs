//! End-to-end: keeping the index current. A scripted session of incremental edits (both
//! position encodings, non-ASCII text), saves, closes, untitled buffers, external file changes,
//! renames and deletions, after which the server's index must equal a fresh index of the
//! workspace plus the open buffers.

use std::path::Path;

use codectx::index::{Index, IndexConfig};
use codectx::languages::Language;
use codectx_e2e::{file_uri, fixture_copy, server_bin, Buffer, Server};
use serde_json::{json, Value};

fn bin() -> std::path::PathBuf {
    server_bin(env!("CARGO_BIN_EXE_codectx-e2e-server"))
}

fn symbol_names(server: &mut Server, query: &str) -> Vec<String> {
    server
        .call("workspace/symbol", json!({"query": query}))
        .as_array()
        .unwrap()
        .iter()
        .map(|symbol| symbol["name"].as_str().unwrap().to_owned())
        .collect()
}

fn server_fingerprint(server: &mut Server) -> Vec<String> {
    let value = server
        .execute("codectx.test.fingerprint", json!([]))
        .unwrap();
    serde_json::from_value(value).unwrap()
}

fn watched(server: &mut Server, changes: &[(&Path, u32)]) {
    let changes: Vec<Value> = changes
        .iter()
        .map(|(path, kind)| json!({"uri": file_uri(path), "type": kind}))
        .collect();
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": changes}),
    );
}

fn scripted_session(utf8: bool) {
    let repo = fixture_copy("py_shop");
    let root = repo.path();
    let mut server = Server::spawn(&bin(), root);
    let encodings = if utf8 {
        json!(["utf-8", "utf-16"])
    } else {
        json!(["utf-16"])
    };
    let init = server.initialize(
        &[root],
        json!({"general": {"positionEncodings": encodings}}),
        Value::Null,
    );
    assert_eq!(
        init["capabilities"]["positionEncoding"],
        if utf8 { "utf-8" } else { "utf-16" }
    );
    server.wait_ready();

    // Incremental edits with non-ASCII text before the edited spots.
    let pricing_path = root.join("shop/services/pricing.py");
    let pricing_text = std::fs::read_to_string(&pricing_path).unwrap();
    let mut pricing = Buffer::open(
        &mut server,
        file_uri(&pricing_path),
        "python",
        pricing_text,
        utf8,
    );
    pricing.edit(
        &mut server,
        0,
        0,
        "# Prix réduits 😀 naïve\nLABEL = \"€😀\"\n",
    );
    pricing.replace(
        &mut server,
        "Prix réduits 😀 naïve",
        "Prix réduits 😀😀 naïve ✓",
    );
    let end = pricing.text.len();
    pricing.edit(
        &mut server,
        end,
        end,
        "\n\ndef zz_added_function():\n    return \"é😀\"\n",
    );
    pricing.replace(
        &mut server,
        "def coupon_discount(",
        "def coupon_discount_v2(",
    );
    // An edit after an emoji on the same line: only right if columns are converted.
    pricing.replace(&mut server, "\"€😀\"", "\"€😀\"; LABEL_AFTER_EMOJI = 1");
    assert_eq!(
        symbol_names(&mut server, "zz_added_function"),
        ["zz_added_function"]
    );
    assert!(
        symbol_names(&mut server, "coupon_discount_v2").contains(&"coupon_discount_v2".to_owned())
    );
    assert!(!symbol_names(&mut server, "coupon_discount").contains(&"coupon_discount".to_owned()));
    // Save: the editor writes the buffer; the buffer stays the truth.
    std::fs::write(&pricing_path, &pricing.text).unwrap();
    server.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": pricing.uri}}),
    );

    // Out-of-range positions are clamped.
    let version = pricing.version + 1;
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": pricing.uri, "version": version},
               "contentChanges": [{"range": {"start": {"line": 100000, "character": 5}, "end": {"line": 100000, "character": 9}}, "text": ""}]}),
    );
    pricing.version = version;

    // An untitled buffer is indexed while open, and only then.
    let untitled = Buffer::open(
        &mut server,
        "untitled:Untitled-1".into(),
        "python",
        "def untitled_only_fn():\n    pass\n".into(),
        utf8,
    );
    assert_eq!(
        symbol_names(&mut server, "untitled_only_fn"),
        ["untitled_only_fn"]
    );
    untitled.close(&mut server);
    assert!(symbol_names(&mut server, "untitled_only_fn").is_empty());

    // A buffer closed without saving falls back to the disk.
    let models_path = root.join("shop/models.py");
    let models_text = std::fs::read_to_string(&models_path).unwrap();
    let mut models = Buffer::open(
        &mut server,
        file_uri(&models_path),
        "python",
        models_text,
        utf8,
    );
    models.edit(&mut server, 0, 0, "def temp_in_buffer():\n    pass\n");
    assert_eq!(
        symbol_names(&mut server, "temp_in_buffer"),
        ["temp_in_buffer"]
    );
    models.close(&mut server);
    assert!(symbol_names(&mut server, "temp_in_buffer").is_empty());

    // An unsaved buffer that stays open.
    let service_path = root.join("shop/services/order_service.py");
    let service_text = std::fs::read_to_string(&service_path).unwrap();
    let mut service = Buffer::open(
        &mut server,
        file_uri(&service_path),
        "python",
        service_text,
        utf8,
    );
    service.replace(
        &mut server,
        "class OrderService",
        "class OrderServiceRenamed",
    );
    // The disk changes under the open buffer: the buffer wins.
    std::fs::write(&service_path, "def from_disk_only():\n    pass\n").unwrap();
    watched(&mut server, &[(&service_path, 2)]);
    assert!(symbol_names(&mut server, "from_disk_only").is_empty());

    // External changes (a git checkout): created, changed, deleted, vendored.
    std::fs::write(
        root.join("shop/new_module.py"),
        "def brand_new():\n    return 1\n",
    )
    .unwrap();
    std::fs::remove_file(root.join("shop/db.py")).unwrap();
    std::fs::write(
        root.join("shop/config.py"),
        "TAX_RATE = 7\n\ndef changed_config():\n    pass\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("node_modules/pkg")).unwrap();
    std::fs::write(
        root.join("node_modules/pkg/vendored.py"),
        "def vendored_fn():\n    pass\n",
    )
    .unwrap();
    watched(
        &mut server,
        &[
            (&root.join("shop/new_module.py"), 1),
            (&root.join("shop/db.py"), 3),
            (&root.join("shop/config.py"), 2),
            (&root.join("node_modules/pkg/vendored.py"), 1),
        ],
    );
    assert_eq!(symbol_names(&mut server, "brand_new"), ["brand_new"]);
    assert_eq!(
        symbol_names(&mut server, "changed_config"),
        ["changed_config"]
    );
    assert!(symbol_names(&mut server, "vendored_fn").is_empty());

    // A rename and a folder deletion through workspace file operations.
    std::fs::rename(root.join("shop/money.py"), root.join("shop/currency.py")).unwrap();
    server.notify(
        "workspace/didRenameFiles",
        json!({"files": [{"oldUri": file_uri(&root.join("shop/money.py")), "newUri": file_uri(&root.join("shop/currency.py"))}]}),
    );
    std::fs::remove_dir_all(root.join("shop/api")).unwrap();
    server.notify(
        "workspace/didDeleteFiles",
        json!({"files": [{"uri": file_uri(&root.join("shop/api"))}]}),
    );

    // The index equals a fresh index of the workspace plus the open buffers.
    let mut expected = Index::build(vec![root.to_owned()], &IndexConfig::default());
    expected.set_file(
        0,
        "shop/services/order_service.py",
        Language::Python,
        service.text.clone().into(),
    );
    expected.set_file(
        0,
        "shop/services/pricing.py",
        Language::Python,
        pricing.text.clone().into(),
    );
    let actual = server_fingerprint(&mut server);
    let expected = expected.fingerprint();
    assert!(actual.len() > 100, "{actual:?}");
    let missing: Vec<_> = expected
        .iter()
        .filter(|line| !actual.contains(line))
        .collect();
    let extra: Vec<_> = actual
        .iter()
        .filter(|line| !expected.contains(line))
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing: {missing:#?}\nextra: {extra:#?}"
    );

    // Closing the unsaved buffer returns to the disk version.
    service.close(&mut server);
    assert_eq!(
        symbol_names(&mut server, "from_disk_only"),
        ["from_disk_only"]
    );
    assert!(server.shutdown().success());
}

#[test]
fn scripted_session_matches_a_fresh_index_utf16() {
    scripted_session(false);
}

#[test]
fn scripted_session_matches_a_fresh_index_utf8() {
    scripted_session(true);
}

#[test]
fn workspace_folders_and_configuration_changes_reindex() {
    let first = fixture_copy("py_shop");
    let second = codectx_e2e::TempDir::new("second-root");
    std::fs::write(
        second.path().join("extra.py"),
        "def in_second_root():\n    pass\n",
    )
    .unwrap();
    let mut server = Server::spawn(&bin(), first.path());
    server.initialize(&[first.path()], json!({}), json!({"maxFileSize": "big"}));
    // The invalid initialization option is reported with a warning.
    let warning = server.notification("window/showMessage", |params| params["type"] == 2);
    assert!(
        warning["message"].as_str().unwrap().contains("maxFileSize"),
        "{warning}"
    );
    server.wait_ready();
    server.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [{"uri": file_uri(second.path()), "name": "second"}], "removed": []}}),
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while symbol_names(&mut server, "in_second_root").is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "second root never indexed"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = server.execute("codectx.status", json!([])).unwrap();
    assert_eq!(status["roots"].as_array().unwrap().len(), 2);
    // Excluding a directory by configuration drops its files.
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"codectx": {"exclude": ["shop/services/**"], "symbols": {"limit": 0}}}}),
    );
    let warning = server.notification("window/showMessage", |params| {
        params["message"]
            .as_str()
            .is_some_and(|message| message.contains("symbols.limit"))
    });
    assert_eq!(warning["type"], 2);
    while !symbol_names(&mut server, "OrderService").is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "exclude never applied"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!symbol_names(&mut server, "in_second_root").is_empty());
    assert!(server.shutdown().success());
}

/// A buffer opened between `initialize` and `initialized` (editors do this for the file that
/// launched them) stays indexed with its unsaved text once the first build has run.
#[test]
fn buffer_opened_before_the_first_index_stays_indexed() {
    let root = fixture_copy("py_shop");
    let mut server = Server::spawn(&bin(), root.path());
    server.call(
        "initialize",
        json!({
            "processId": std::process::id(),
            "rootUri": file_uri(root.path()),
            "capabilities": {},
            "workspaceFolders": [{"uri": file_uri(root.path()), "name": "py_shop"}],
        }),
    );
    let path = root.path().join("shop/api/views.py");
    let text = std::fs::read_to_string(&path).unwrap()
        + "\n\ndef unsaved_buffer_marker():\n    return 1\n";
    Buffer::open(&mut server, file_uri(&path), "python", text, false);
    server.notify("initialized", json!({}));
    let status = server.wait_ready();
    assert_eq!(status["state"], "ready", "{status}");
    assert_eq!(
        symbol_names(&mut server, "unsaved_buffer_marker"),
        ["unsaved_buffer_marker"]
    );
    // The file's other definitions come from the buffer too, not lost with the disk copy.
    assert!(!symbol_names(&mut server, "create_order").is_empty());
    assert!(server.shutdown().success());
}
