//! The editor clients and the agent example, each driven by its real client software against
//! the server binary: `examples/agent_client.py` (Python), the Neovim plugin in
//! `editors/nvim` (headless Neovim) and the VS Code extension's tests in `editors/vscode`
//! (`npm test`, which starts the server through vscode-languageclient's node API).
//!
//! A test is skipped, with a printed message, only when its client software is missing
//! (`python3`, `nvim`, or `node`/`npm`/`editors/vscode/node_modules`); `.ci/run` installs all.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use codectx_e2e::{fixture_copy, fixtures_dir, server_bin, TempDir};
use serde_json::Value;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn bin() -> PathBuf {
    server_bin(env!("CARGO_BIN_EXE_codectx-e2e-server"))
}

fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// Runs a command to completion within `limit`, capturing its output.
fn run_with_limit(command: &mut Command, limit: Duration) -> Output {
    let mut child = command
        // The servers the clients start keep their syntax cache out of the user's home.
        .env(
            "CODECTX_CACHE_DIR",
            std::env::temp_dir().join("codectx-e2e-cache"),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|err| panic!("start {command:?}: {err}"));
    // Drain both pipes on threads so a chatty child cannot block on a full pipe.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let stdout_thread = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut buf).unwrap();
        buf
    });
    let stderr_thread = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut buf).unwrap();
        buf
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            let stdout = String::from_utf8_lossy(&stdout_thread.join().unwrap()).into_owned();
            let stderr = String::from_utf8_lossy(&stderr_thread.join().unwrap()).into_owned();
            panic!("{command:?} did not finish in {limit:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: stdout_thread.join().unwrap(),
        stderr: stderr_thread.join().unwrap(),
    }
}

fn assert_success(output: &Output, what: &str) {
    assert!(
        output.status.success(),
        "{what} failed ({})\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

// Headless agents: examples/agent_client.py.

#[test]
fn agent_example_prints_context_for_a_task() {
    if !have("python3") {
        println!("SKIPPED agent_example_prints_context_for_a_task: `python3` is not installed");
        return;
    }
    let root = fixtures_dir().join("py_shop/repo");
    let output = run_with_limit(
        Command::new("python3")
            .arg(repo_root().join("examples/agent_client.py"))
            .arg("--root")
            .arg(&root)
            .args(["--budget", "1500", "--server"])
            .arg(bin())
            .arg("fix the crash in DatabaseClient.connect when the URL is empty"),
        Duration::from_secs(120),
    );
    assert_success(&output, "agent_client.py");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("<context intent=\"bug_fix\""), "{text}");
    assert!(text.contains("def connect(self)"), "{text}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("files,") && stderr.contains("definitions indexed"),
        "{stderr}"
    );

    // --json prints the whole result object of codectx.context.
    let output = run_with_limit(
        Command::new("python3")
            .arg(repo_root().join("examples/agent_client.py"))
            .arg("--root")
            .arg(&root)
            .args(["--budget", "1500", "--format", "markdown", "--json"])
            .env("CODECTX_BIN", bin())
            .arg("fix the crash in DatabaseClient.connect when the URL is empty"),
        Duration::from_secs(120),
    );
    assert_success(&output, "agent_client.py --json");
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["budget"]["limit"], 1500);
    assert_eq!(result["items"][0]["path"], "shop/db.py", "{result}");
    assert!(result["text"].as_str().unwrap().contains("```"), "{result}");
}

#[test]
fn agent_example_reports_a_missing_server() {
    if !have("python3") {
        println!("SKIPPED agent_example_reports_a_missing_server: `python3` is not installed");
        return;
    }
    let output = run_with_limit(
        Command::new("python3")
            .arg(repo_root().join("examples/agent_client.py"))
            .args(["--root", ".", "--server", "/nonexistent/codectx", "task"]),
        Duration::from_secs(30),
    );
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot start /nonexistent/codectx"),
        "{stderr}"
    );
}

#[test]
fn agent_example_keeps_the_index_fresh_after_edits() {
    if !have("python3") {
        println!(
            "SKIPPED agent_example_keeps_the_index_fresh_after_edits: `python3` is not installed"
        );
        return;
    }
    let root = fixture_copy("py_shop");
    let output = run_with_limit(
        Command::new("python3")
            .arg(repo_root().join("tests/agent/freshness.py"))
            .arg("--server")
            .arg(bin())
            .arg("--root")
            .arg(root.path()),
        Duration::from_secs(120),
    );
    assert_success(&output, "tests/agent/freshness.py");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("ok all"), "{stdout}");
}

// Neovim: editors/nvim, driven by headless Neovim.

#[test]
fn neovim_plugin_navigates_and_shows_context() {
    if !have("nvim") {
        println!("SKIPPED neovim_plugin_navigates_and_shows_context: `nvim` is not installed (apt-get install -y neovim)");
        return;
    }
    let root = fixture_copy("py_shop");
    let out_dir = TempDir::new("nvim-plugin");
    let out = out_dir.path().join("answers.json");
    let script = repo_root().join("editors/nvim/tests/headless.lua");
    let output = run_with_limit(
        Command::new("nvim")
            .args(["--headless", "--clean", "-n", "-c"])
            .arg(format!("luafile {}", script.display()))
            .current_dir(root.path())
            .env("CODECTX_BIN", bin())
            .env("CODECTX_PLUGIN", repo_root().join("editors/nvim"))
            .env("CODECTX_ROOT", root.path())
            .env("CODECTX_OUT", &out),
        Duration::from_secs(240),
    );
    let answers: Value = serde_json::from_str(
        &std::fs::read_to_string(&out)
            .unwrap_or_else(|err| panic!("no answers ({}): {err}\n{output:?}", output.status)),
    )
    .unwrap();
    assert_eq!(answers["ok"], true, "{answers:#}");
    assert_success(&output, "nvim");
    let root_dir = root.path().to_str().unwrap();

    assert_eq!(answers["root_dir"], root_dir);
    assert_eq!(answers["status"]["state"], "ready");
    assert_eq!(answers["status"]["files"], 17);
    assert!(answers["invalid_setup"]
        .as_str()
        .unwrap()
        .contains("context.format"));

    let definition = &answers["definition"];
    assert_eq!(
        definition["file"],
        format!("{root_dir}/shop/services/order_service.py")
    );
    assert!(definition["text"]
        .as_str()
        .unwrap()
        .contains("def place_order("));

    assert_eq!(
        answers["symbol"]["file"],
        format!("{root_dir}/shop/services/order_service.py")
    );
    assert!(answers["symbol"]["text"]
        .as_str()
        .unwrap()
        .contains("OrderService"));

    let context = &answers["context"];
    assert_eq!(context["filetype"], "markdown");
    assert_eq!(context["buftype"], "nofile");
    assert_eq!(context["modifiable"], false);
    let text = context["text"].as_str().unwrap();
    assert!(text.starts_with("# Context\nintent: bug_fix"), "{text}");
    assert!(text.contains("def connect(self)"), "{text}");
    assert!(context["message"]
        .as_str()
        .unwrap()
        .starts_with("codectx: context: bug_fix"));

    let yank = &answers["yank"];
    assert!(yank["register"]
        .as_str()
        .unwrap()
        .starts_with("# Context\n"));
    assert!(yank["message"]
        .as_str()
        .unwrap()
        .contains("yanked to register"));

    assert!(answers["status_message"]
        .as_str()
        .unwrap()
        .starts_with("codectx: ready, 17 files"));

    let health = answers["health"].as_str().unwrap();
    for line in [
        "OK: setup() was called",
        "OK: server version: codectx ",
        "OK: index: ready, 17 files",
    ] {
        assert!(health.contains(line), "{line:?} not in\n{health}");
    }
}

// VS Code: editors/vscode's `npm test` (unit tests, the protocol and manifest checks, and a
// client test against this server through vscode-jsonrpc).

#[test]
fn vscode_extension_tests_pass() {
    let extension_dir = repo_root().join("editors/vscode");
    if !have("node") || !have("npm") {
        println!("SKIPPED vscode_extension_tests_pass: `node` or `npm` is not installed");
        return;
    }
    if !extension_dir.join("node_modules").is_dir() {
        println!("SKIPPED vscode_extension_tests_pass: run `npm ci` in editors/vscode first (.ci/run does)");
        return;
    }
    let output = run_with_limit(
        Command::new("npm")
            .args(["test", "--silent"])
            .current_dir(&extension_dir)
            .env("CODECTX_BIN", bin()),
        Duration::from_secs(300),
    );
    assert_success(&output, "npm test in editors/vscode");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("# fail 0"), "{stdout}");
    assert!(
        stdout.contains("# skipped 0"),
        "the client test was skipped:\n{stdout}"
    );
    assert!(
        stdout.contains("ok 2 - answers codectx.context with the fields of lsp_ext.ts"),
        "{stdout}"
    );
}
