//! End-to-end with a real client: Neovim's built-in LSP client (headless) starts
//! `codectx serve` on the `py_shop` fixture, opens a file, asks for a definition,
//! implementations and workspace symbols; the answers are checked here. Skipped, with a
//! message, only when `nvim` is not installed (CI installs Debian's `neovim`).

use std::process::Command;
use std::time::{Duration, Instant};

use codectx_e2e::{file_uri, fixtures_dir, server_bin, TempDir};
use serde_json::Value;

#[test]
fn neovim_finds_definition_and_workspace_symbols() {
    if Command::new("nvim").arg("--version").output().is_err() {
        println!("SKIPPED neovim_finds_definition_and_workspace_symbols: `nvim` is not installed (apt-get install -y neovim)");
        return;
    }
    let root = fixtures_dir().join("py_shop/repo").canonicalize().unwrap();
    let script = fixtures_dir()
        .join("../tests/nvim/lsp_smoke.lua")
        .canonicalize()
        .unwrap();
    let views = std::fs::read_to_string(root.join("shop/api/views.py")).unwrap();
    let line_idx = views
        .lines()
        .position(|line| line.contains("service.place_order(cart)"))
        .unwrap();
    let col = views
        .lines()
        .nth(line_idx)
        .unwrap()
        .find("place_order")
        .unwrap()
        + 3;
    let out_dir = TempDir::new("nvim");
    let out = out_dir.path().join("answers.json");
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .current_dir(&root)
        .env(
            "CODECTX_CACHE_DIR",
            std::env::temp_dir().join("codectx-e2e-cache"),
        )
        .env(
            "CODECTX_BIN",
            server_bin(env!("CARGO_BIN_EXE_codectx-e2e-server")),
        )
        .env("CODECTX_ROOT", &root)
        .env("CODECTX_FILE", "shop/api/views.py")
        .env("CODECTX_LINE", (line_idx + 1).to_string())
        .env("CODECTX_COL", col.to_string())
        .env("CODECTX_OUT", &out)
        .spawn()
        .expect("start nvim");
    let deadline = Instant::now() + Duration::from_secs(90);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("nvim did not finish in time");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let answers: Value = serde_json::from_str(
        &std::fs::read_to_string(&out).unwrap_or_else(|err| panic!("no answers ({status}): {err}")),
    )
    .unwrap();
    assert_eq!(answers["ok"], true, "{answers}");
    assert!(status.success(), "{status}");
    assert_eq!(answers["status"]["state"], "ready");
    // The client saw the implementation capability and its request was answered.
    assert_eq!(answers["implementation_answered"], true, "{answers}");
    let definition = &answers["definition"][0];
    let target_uri = definition["uri"]
        .as_str()
        .or(definition["targetUri"].as_str())
        .unwrap();
    assert_eq!(
        target_uri,
        file_uri(&root.join("shop/services/order_service.py"))
    );
    let symbols = answers["symbols"].as_array().unwrap();
    assert_eq!(symbols[0]["name"], "OrderService", "{answers}");
}
