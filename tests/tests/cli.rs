//! End-to-end tests of the `codectx` command line: the built binary run on fixture repos and
//! on scratch repos made in a temp directory, checking output, exit codes and what discovery
//! skips.

use codectx_e2e::cli_support::{
    copy_tree, fixture_repo, line_col_of, run, run_in, run_with_cache, TempDir,
};

fn py_shop() -> String {
    fixture_repo("py_shop").display().to_string()
}

#[track_caller]
fn assert_usage_error(args: &[&str], message: &str) {
    let out = run(args);
    assert_eq!(out.code, 2, "exit code of {args:?}: {out:#?}");
    assert!(
        out.stderr.contains(message),
        "stderr of {args:?} should contain {message:?}: {out:#?}"
    );
    assert!(out.stdout.is_empty(), "stdout of {args:?}: {out:#?}");
}

#[test]
fn index_json_counts_languages_and_skipped_vendored_dirs() {
    let repo = TempDir::new("index");
    copy_tree(&fixture_repo("py_shop"), repo.path());
    repo.write("vendor/six.py", "def vendored_marker():\n    pass\n");
    repo.write("node_modules/left-pad/index.js", "function leftPad() {}\n");
    let out = run(&[
        "index",
        "--json",
        "--root",
        &repo.path().display().to_string(),
    ]);
    assert_eq!(out.code, 0, "{out:#?}");
    let report = out.json();
    let python = &report["languages"]["python"];
    assert!(python["files"].as_u64().unwrap() > 10, "{report:#}");
    assert!(python["definitions"].as_u64().unwrap() > 100, "{report:#}");
    assert_eq!(report["total"]["files"], python["files"], "{report:#}");
    for field in ["bytes", "imports", "references", "files_with_syntax_errors"] {
        assert!(python[field].is_u64(), "{field}: {report:#}");
    }
    assert_eq!(report["skipped"]["vendored-dir"], 2, "{report:#}");
    assert!(report["wall_ms"].is_f64(), "{report:#}");
}

#[test]
fn output_directories_are_pruned_where_a_build_puts_them_and_indexed_elsewhere() {
    let repo = TempDir::new("output-dirs");
    repo.write("Cargo.toml", "[package]\nname = \"app\"\n");
    repo.write("packages/web/package.json", "{}\n");
    repo.write("py/setup.py", "");
    // (file, its definition's name, indexed): source in directories named like build output
    // (clap's `src/build/app/mod.rs`), then build output below the root or beside a manifest.
    let files = [
        ("src/build/app.rs", "kept_in_src_build", true),
        ("src/dist/mod.rs", "kept_in_src_dist", true),
        ("pkg/target/aim.go", "KeptInPkgTarget", true),
        ("target/debug/gen.rs", "output_below_root", false),
        ("build/lib/app.py", "output_below_root_py", false),
        ("packages/web/dist/index.js", "outputBesideManifest", false),
        ("py/build/lib/mod.py", "output_beside_setup", false),
        // Dependencies where a package manager puts them, and code a package copied into
        // its own source (chalk's `source/vendor/supports-color`).
        ("vendor/github.com/x/y/y.go", "VendoredBelowRoot", false),
        (
            "packages/web/vendor/dep.js",
            "vendoredBesideManifest",
            false,
        ),
        (
            "packages/web/source/vendor/colors.js",
            "copiedIntoSource",
            true,
        ),
    ];
    for (path, name, _) in files {
        let text = match path.rsplit_once('.').map(|(_, ext)| ext) {
            Some("rs") => format!("pub fn {name}() {{}}\n"),
            Some("go") => format!("package target\n\nfunc {name}() {{}}\n"),
            Some("py") => format!("def {name}():\n    pass\n"),
            _ => format!("function {name}() {{}}\n"),
        };
        repo.write(path, &text);
    }
    let root = repo.path().display().to_string();
    let out = run(&["index", "--json", "--root", &root]);
    assert_eq!(out.code, 0, "{out:#?}");
    let report = out.json();
    assert_eq!(report["skipped"]["vendored-dir"], 6, "{report:#}");
    for (_, name, indexed) in files {
        let out = run(&["symbols", name, "--root", &root, "--json"]);
        assert_eq!(out.code, 0, "{out:#?}");
        let found = out
            .json()
            .as_array()
            .is_some_and(|hits| hits.iter().any(|hit| hit["name"] == name));
        assert_eq!(found, indexed, "{name}: {out:#?}");
    }
}

#[test]
fn index_human_output_lists_languages_and_skips() {
    let out = run(&["index", "--root", &py_shop()]);
    assert_eq!(out.code, 0, "{out:#?}");
    assert!(out.stdout.contains("python"), "{out:#?}");
    assert!(out.stdout.contains("total"), "{out:#?}");
    assert!(out.stdout.contains("skipped: none"), "{out:#?}");
}

#[test]
fn symbols_ranks_the_exact_match_first_in_human_and_json_output() {
    let out = run(&["symbols", "OrderService", "--root", &py_shop()]);
    assert_eq!(out.code, 0, "{out:#?}");
    let first = out.stdout.lines().next().unwrap_or("");
    assert!(
        first.starts_with("class")
            && first.contains("OrderService")
            && first.contains("shop/services/order_service.py:"),
        "{out:#?}"
    );

    let out = run(&["symbols", "plc_ord", "--root", &py_shop(), "--json"]);
    assert_eq!(out.code, 0, "{out:#?}");
    let hits = out.json();
    assert_eq!(hits[0]["name"], "place_order", "{hits:#}");
    assert_eq!(hits[0]["kind"], "method", "{hits:#}");
    assert_eq!(hits[0]["container"], "OrderService", "{hits:#}");
    assert_eq!(
        hits[0]["path"], "shop/services/order_service.py",
        "{hits:#}"
    );
    assert_eq!(hits[0]["match"], "hump", "{hits:#}");
}

#[test]
fn definition_jumps_across_files_in_human_and_json_output() {
    let views = std::fs::read_to_string(fixture_repo("py_shop").join("shop/api/views.py")).unwrap();
    let (line, col) = line_col_of(&views, "service.place_or$0der(cart)");
    let location = format!("shop/api/views.py:{line}:{col}");
    let service =
        std::fs::read_to_string(fixture_repo("py_shop").join("shop/services/order_service.py"))
            .unwrap();
    let (def_line, def_col) = line_col_of(&service, "def $0place_order(");

    let out = run(&["definition", &location, "--root", &py_shop()]);
    assert_eq!(out.code, 0, "{out:#?}");
    let expected =
        format!("shop/services/order_service.py:{def_line}:{def_col}  method place_order");
    assert!(
        out.stdout.starts_with(&expected),
        "expected {expected:?}: {out:#?}"
    );

    let out = run(&["definition", &location, "--root", &py_shop(), "--json"]);
    assert_eq!(out.code, 0, "{out:#?}");
    let targets = out.json();
    assert_eq!(
        targets[0]["path"], "shop/services/order_service.py",
        "{targets:#}"
    );
    assert_eq!(targets[0]["line"], def_line, "{targets:#}");
    assert_eq!(targets[0]["column"], def_col, "{targets:#}");
    assert_eq!(targets[0]["container"], "OrderService", "{targets:#}");
}

#[test]
fn implementations_list_a_traits_impls_and_fail_with_exit_1_when_there_are_none() {
    let root = fixture_repo("rust_workspace");
    let root = root.to_str().unwrap();
    let store =
        std::fs::read_to_string(fixture_repo("rust_workspace").join("crates/kv-core/src/store.rs"))
            .unwrap();
    let (line, col) = line_col_of(&store, "pub trait St$0ore");
    let location = format!("crates/kv-core/src/store.rs:{line}:{col}");
    let (impl_line, impl_col) = line_col_of(&store, "impl Store for $0MemStore");
    let out = run(&["implementations", &location, "--root", root]);
    assert_eq!(out.code, 0, "{out:#?}");
    assert_eq!(
        out.stdout,
        format!("crates/kv-core/src/store.rs:{impl_line}:{impl_col}  impl MemStore  `impl Store for MemStore`\n")
    );
    let out = run(&["implementations", &location, "--root", root, "--json"]);
    assert_eq!(out.json()[0]["kind"], "impl", "{out:#?}");
    // A function implements nothing: no implementation, exit 1 with a message.
    let (line, col) = line_col_of(&store, "fn g$0et(&self, key: &[u8]) -> Option<&[u8]> {");
    let out = run(&[
        "implementations",
        &format!("crates/kv-core/src/store.rs:{line}:{col}"),
        "--root",
        root,
    ]);
    assert_eq!(out.code, 1, "{out:#?}");
    assert!(out.stderr.contains("no implementation found"), "{out:#?}");
}

#[test]
fn references_print_a_grep_like_line_per_use_of_the_definition() {
    let db = std::fs::read_to_string(fixture_repo("py_shop").join("shop/db.py")).unwrap();
    let (line, col) = line_col_of(&db, "def conn$0ect(self)");
    let out = run(&[
        "references",
        &format!("shop/db.py:{line}:{col}"),
        "--root",
        &py_shop(),
    ]);
    assert_eq!(out.code, 0, "{out:#?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    let (decl_line, decl_col) = line_col_of(&db, "def $0connect(self)");
    assert_eq!(
        lines[0],
        format!("shop/db.py:{decl_line}:{decl_col}  def connect(self) -> sqlite3.Connection:"),
        "{out:#?}"
    );
    let (use_line, use_col) = line_col_of(&db, "self.$0connect().executescript(SCHEMA)");
    assert!(
        lines.contains(
            &format!("shop/db.py:{use_line}:{use_col}  self.connect().executescript(SCHEMA)")
                .as_str()
        ),
        "{out:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("tests/test_db.py:")),
        "{out:#?}"
    );
    // `sqlite3.connect(...)` is the library's function.
    assert!(!out.stdout.contains("sqlite3.connect("), "{out:#?}");
    // Every line is `path:line:col  text`: the trimmed source line, with `connect` at the column.
    for printed in &lines {
        let (location, text) = printed
            .split_once("  ")
            .expect("two spaces after the location");
        let mut parts = location.split(':');
        let (path, line, col) = (
            parts.next().unwrap(),
            parts.next().unwrap().parse::<usize>().unwrap(),
            parts.next().unwrap().parse::<usize>().unwrap(),
        );
        let source = std::fs::read_to_string(fixture_repo("py_shop").join(path)).unwrap();
        let source_line = source.lines().nth(line - 1).unwrap();
        assert_eq!(text, source_line.trim(), "{printed}");
        let from_col: String = source_line.chars().skip(col - 1).collect();
        assert!(from_col.starts_with("connect"), "{printed}");
    }
}

#[test]
fn references_json_counts_characters_and_leaves_out_the_declaration_when_asked() {
    let repo = TempDir::new("references");
    let helpers = "def helper():\n    return 1\n";
    let main = "from app.helpers import helper\n\nlabel = \"héllo wörld ✓\" + str(helper())\n";
    repo.write("app/helpers.py", helpers);
    repo.write("app/main.py", main);
    // A call of a `helper` this file neither defines nor imports: not a reference.
    repo.write("other.py", "print(helper())\n");
    let root = repo.path().display().to_string();
    let (line, col) = line_col_of(helpers, "def hel$0per");
    let location = format!("app/helpers.py:{line}:{col}");
    let (import_line, import_col) = line_col_of(main, "import $0helper");
    let (call_line, call_col) = line_col_of(main, "str($0helper())");
    let reference = |path: &str, line: usize, col: usize, text: &str| {
        serde_json::json!({
            "path": path,
            "line": line,
            "column": col,
            "end_line": line,
            "end_column": col + "helper".len(),
            "text": text,
        })
    };
    let declaration = reference("app/helpers.py", 1, 5, "def helper():");
    let uses = [
        reference(
            "app/main.py",
            import_line,
            import_col,
            "from app.helpers import helper",
        ),
        reference(
            "app/main.py",
            call_line,
            call_col,
            "label = \"héllo wörld ✓\" + str(helper())",
        ),
    ];

    let out = run(&["references", &location, "--root", &root, "--json"]);
    assert_eq!(out.code, 0, "{out:#?}");
    let mut expected = vec![declaration];
    expected.extend(uses.iter().cloned());
    assert_eq!(out.json(), serde_json::Value::from(expected));

    let out = run(&[
        "references",
        &location,
        "--root",
        &root,
        "--json",
        "--no-declaration",
    ]);
    assert_eq!(out.code, 0, "{out:#?}");
    assert_eq!(out.json(), serde_json::Value::from(uses.to_vec()));

    // No name at the position: exit 1 with a message, or an empty array with `--json`.
    let blank = "app/main.py:2:1";
    let out = run(&["references", blank, "--root", &root]);
    assert_eq!(out.code, 1, "{out:#?}");
    assert!(
        out.stderr.contains("no reference found at app/main.py:2:1"),
        "{out:#?}"
    );
    let out = run(&["references", blank, "--root", &root, "--json"]);
    assert_eq!(out.code, 0, "{out:#?}");
    assert_eq!(out.json(), serde_json::json!([]));

    // Bad locations are usage errors.
    let outside = TempDir::new("references-outside");
    let outside_file = outside.write("elsewhere.py", "def helper():\n    pass\n");
    for (location, message) in [
        ("app/main.py:x:1".to_owned(), "expected PATH:LINE:COL"),
        ("app/main.py:3".to_owned(), "expected PATH:LINE:COL"),
        ("app/nope.py:1:1".to_owned(), "not an indexed file"),
        (
            format!("{}:1:5", outside_file.display()),
            "not an indexed file",
        ),
    ] {
        assert_usage_error(&["references", &location, "--root", &root], message);
    }
}

#[test]
fn definition_columns_count_characters_not_bytes() {
    let repo = TempDir::new("columns");
    let text = "def helper():\n    return 1\n\n\nlabel = \"héllo wörld ✓\" + str(helper())\n";
    repo.write("app.py", text);
    let (line, col) = line_col_of(text, "str(hel$0per())");
    let byte_col = text
        .lines()
        .nth(line - 1)
        .unwrap()
        .find("helper()")
        .unwrap()
        + 1;
    assert!(
        byte_col > col,
        "the line has multi-byte characters before the name"
    );
    let root = repo.path().display().to_string();

    let out = run(&[
        "definition",
        &format!("app.py:{line}:{col}"),
        "--root",
        &root,
        "--json",
    ]);
    assert_eq!(out.code, 0, "{out:#?}");
    let targets = out.json();
    assert_eq!(targets[0]["name"], "helper", "{targets:#}");
    assert_eq!(targets[0]["line"], 1, "{targets:#}");
    assert_eq!(targets[0]["column"], 5, "{targets:#}");

    // A definition after multi-byte characters on its line is printed at its character
    // column too.
    let ts = "const label = \"héllo ✓\"; export function helper() { return 1 }\nhelper();\n";
    repo.write("app.ts", ts);
    let (def_line, def_col) = line_col_of(ts, "function $0helper");
    let (call_line, call_col) = line_col_of(ts, "\n$0helper();");
    let out = run(&[
        "definition",
        &format!("app.ts:{call_line}:{call_col}"),
        "--root",
        &root,
        "--json",
    ]);
    assert_eq!(out.code, 0, "{out:#?}");
    let targets = out.json();
    assert_eq!(targets[0]["line"], def_line, "{targets:#}");
    assert_eq!(targets[0]["column"], def_col, "{targets:#}");
    let printed = run(&[
        "definition",
        &format!("app.ts:{call_line}:{call_col}"),
        "--root",
        &root,
    ]);
    assert!(
        printed
            .stdout
            .starts_with(&format!("app.ts:{def_line}:{def_col}  ")),
        "{printed:#?}"
    );
}

#[test]
fn definition_accepts_absolute_and_dot_relative_paths() {
    let repo = fixture_repo("py_shop");
    let db = std::fs::read_to_string(repo.join("shop/db.py")).unwrap();
    let (line, col) = line_col_of(&db, "def conn$0ect(self)");
    for path in [
        repo.join("shop/db.py").display().to_string(),
        "./shop/db.py".to_owned(),
    ] {
        let out = run_in(
            &repo,
            &["definition", &format!("{path}:{line}:{col}"), "--json"],
        );
        assert_eq!(out.code, 0, "{path}: {out:#?}");
        assert_eq!(out.json()[0]["name"], "connect", "{path}: {out:#?}");
    }
}

#[test]
fn outline_prints_the_definition_tree_of_one_file() {
    let path = fixture_repo("py_shop").join("shop/db.py");
    let out = run(&["outline", &path.display().to_string()]);
    assert_eq!(out.code, 0, "{out:#?}");
    assert!(out.stdout.contains("\nclass DatabaseClient  "), "{out:#?}");
    assert!(out.stdout.contains("\n  method connect  "), "{out:#?}");

    let out = run(&["outline", &path.display().to_string(), "--json"]);
    assert_eq!(out.code, 0, "{out:#?}");
    let tree = out.json();
    let client = tree
        .as_array()
        .unwrap()
        .iter()
        .find(|node| node["name"] == "DatabaseClient")
        .expect("DatabaseClient is a top-level node");
    assert!(
        client["children"]
            .as_array()
            .unwrap()
            .iter()
            .any(|child| child["name"] == "connect" && child["kind"] == "method"),
        "{tree:#}"
    );
}

#[test]
fn bad_arguments_exit_with_2_and_say_why_on_stderr() {
    let missing = std::env::temp_dir().join("codectx-e2e-no-such-root");
    assert_usage_error(
        &["index", "--root", &missing.display().to_string()],
        "root ",
    );
    assert_usage_error(
        &["definition", "shop/db.py:x:1", "--root", &py_shop()],
        "expected PATH:LINE:COL",
    );
    assert_usage_error(
        &["definition", "shop/db.py:0:1", "--root", &py_shop()],
        "expected PATH:LINE:COL",
    );
    assert_usage_error(
        &["definition", "shop/db.py", "--root", &py_shop()],
        "expected PATH:LINE:COL",
    );
    assert_usage_error(
        &["definition", "shop/nope.py:1:1", "--root", &py_shop()],
        "not an indexed file",
    );
    let readme = fixture_repo("py_shop").join("README.md");
    assert_usage_error(
        &["outline", &readme.display().to_string()],
        "not a supported source file",
    );
    // Any budget out of range, or not a number, gets the same message, naming the range.
    for budget in ["0", "-5", "99999999999", "abc", "100"] {
        assert_usage_error(
            &[
                "context",
                "fix it",
                "--root",
                &py_shop(),
                "--budget",
                budget,
            ],
            "must be a whole number of tokens from 256 to 200000",
        );
    }
    assert_usage_error(&["index", "--bogus"], "unexpected argument '--bogus'");
    assert_usage_error(&[], "no command given");
}

#[test]
fn a_line_past_the_end_of_the_file_is_a_usage_error_for_every_position_command() {
    let repo = TempDir::new("past-the-end");
    repo.write(
        "app.py",
        "def helper():\n    return 1\n\n\nvalue = helper\nprint(helper())\n",
    );
    let root = repo.path().display().to_string();
    for command in ["definition", "implementations", "references"] {
        assert_usage_error(
            &[command, "app.py:8:1", "--root", &root],
            "line 8 is past the end of app.py (7 lines)",
        );
        assert_usage_error(
            &[command, "app.py:8:1", "--root", &root, "--json"],
            "line 8 is past the end of app.py",
        );
    }
    // The empty line after the last line end is a line, as editors show it.
    let out = run(&["references", "app.py:7:1", "--root", &root, "--json"]);
    assert_eq!(
        (out.code, out.json()),
        (0, serde_json::json!([])),
        "{out:#?}"
    );
    // A column past the end of a line is its end: on `helper` in `value = helper`, not on
    // `print` at the start of the next line.
    let out = run(&["references", "app.py:5:99", "--root", &root]);
    assert_eq!(out.code, 0, "{out:#?}");
    assert_eq!(
        out.stdout,
        "app.py:1:5  def helper():\napp.py:5:9  value = helper\napp.py:6:7  print(helper())\n"
    );
}

/// A scratch repo with one good file and one file of each kind discovery must skip.
#[cfg(unix)]
#[test]
fn large_binary_non_utf8_and_outside_symlinked_files_are_skipped_unread() {
    let outside = TempDir::new("outside");
    let secret = outside.write("secret.py", "def outside_marker():\n    pass\n");
    let fifo = outside.path().join("fifo.py");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());

    let repo = TempDir::new("skips");
    repo.write("ok.py", "def ok_marker():\n    pass\n");
    let mut big = String::from("def big_marker():\n    pass\n");
    while big.len() <= 1024 * 1024 {
        big.push_str("# padding padding padding padding padding padding padding padding\n");
    }
    repo.write("big.py", big);
    repo.write("blob.py", b"def binary_marker():\n    pass\n\x00\x01\x02\n");
    // A Latin-1 accent is read as `?` and the file indexed; a file mostly not UTF-8 is in
    // another encoding, and skipped.
    repo.write("latin1.py", b"def latin_marker():\n    return 'caf\xe9'\n");
    let mut other = b"def other_encoding_marker():\n    return '".to_vec();
    other.extend([0x82, 0xa0].repeat(20));
    other.extend(b"'\n");
    repo.write("sjis.py", other);
    std::os::unix::fs::symlink(&secret, repo.path().join("linked.py")).unwrap();
    // Opening a FIFO blocks until someone writes to it, so reading it would hang the run.
    std::os::unix::fs::symlink(&fifo, repo.path().join("pipe.py")).unwrap();
    std::os::unix::fs::symlink(outside.path(), repo.path().join("outside_dir")).unwrap();
    let root = repo.path().display().to_string();

    let out = run(&["index", "--json", "--root", &root]);
    assert_eq!(out.code, 0, "{out:#?}");
    let report = out.json();
    assert_eq!(report["languages"]["python"]["files"], 2, "{report:#}");
    let skipped = &report["skipped"];
    assert_eq!(skipped["too-large"], 1, "{report:#}");
    assert_eq!(skipped["binary"], 1, "{report:#}");
    assert_eq!(skipped["not-utf8"], 1, "{report:#}");
    assert_eq!(skipped["symlink"], 2, "{report:#}");

    let out = run(&["symbols", "marker", "--json", "--root", &root]);
    assert_eq!(out.code, 0, "{out:#?}");
    let hits = out.json();
    let names: Vec<&str> = hits
        .as_array()
        .unwrap()
        .iter()
        .map(|hit| hit["name"].as_str().unwrap())
        .collect();
    let mut names = names;
    names.sort_unstable();
    assert_eq!(names, ["latin_marker", "ok_marker"], "{out:#?}");
}

#[test]
fn context_that_matches_nothing_falls_back_to_top_level_definitions_and_lists_their_files() {
    let repo = TempDir::new("fallback");
    repo.write(
        "cli.go",
        "package cli\n\ntype App struct {\n\tName string\n}\n\nfunc (a *App) Run() error {\n\treturn nil\n}\n",
    );
    let root = repo.path().display().to_string();
    let out = run(&[
        "context",
        "--json",
        "--root",
        &root,
        "more renaming, keep it consistent",
    ]);
    assert_eq!(out.code, 0, "{out:#?}");
    let result = out.json();
    let items = result["items"].as_array().unwrap();
    assert!(!items.is_empty(), "{result:#}");
    assert!(
        items
            .iter()
            .all(|item| item["reasons"][0] == "fallback:top-level"
                && item["reasons"].as_array().unwrap().len() == 1),
        "{result:#}"
    );
    // Every file in the answer is listed in `files`, ranked or not.
    let files: Vec<&str> = result["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file["path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["cli.go"], "{result:#}");
    // The text says that nothing matched, so the cards are not read as relevant.
    let out = run(&[
        "context",
        "--root",
        &root,
        "more renaming, keep it consistent",
    ]);
    assert_eq!(out.code, 0, "{out:#?}");
    assert!(
        out.stdout
            .contains("<note>Nothing in the workspace matched the task: "),
        "{out:#?}"
    );
}

/// The paths of an answer's items, in order, each once.
fn answer_files(result: &serde_json::Value) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for item in result["items"].as_array().unwrap() {
        let path = item["path"].as_str().unwrap().to_owned();
        if !files.contains(&path) {
            files.push(path);
        }
    }
    files
}

#[test]
fn context_explains_on_stderr_with_text_or_json_on_stdout() {
    let task = "fix the crash in OrderService.place_order when the cart is empty";
    let root = py_shop();
    for json in [false, true] {
        let mut args = vec!["context", "--explain", "--root", &root, task];
        if json {
            args.insert(1, "--json");
        }
        let out = run(&args);
        assert_eq!(out.code, 0, "{out:#?}");
        if json {
            assert_eq!(out.json()["intent"]["kind"], "bug_fix", "{out:#?}");
        } else {
            assert!(out.stdout.starts_with("<context"), "{out:#?}");
        }
        for line in [
            "intent: bug_fix",
            "items:",
            "files (* shown in the answer):",
            "timings (ms):",
            "run (ms):",
            "files: 17 indexed, skipped: none",
        ] {
            assert!(out.stderr.contains(line), "{line}: {out:#?}");
        }
        assert!(
            out.stderr.contains("shop/services/order_service.py"),
            "{out:#?}"
        );
    }
}

#[test]
fn context_in_a_repository_without_source_files_says_so() {
    let repo = TempDir::new("no-source");
    repo.write("README.md", "# Notes\n");
    repo.write("blob.py", b"\x00\x01\x02");
    let root = repo.path().display().to_string();
    let out = run(&["context", "--root", &root, "fix the crash"]);
    assert_eq!(out.code, 0, "{out:#?}");
    assert!(out.stdout.starts_with("<context"), "{out:#?}");
    assert!(
        out.stderr
            .contains("no Python, TypeScript, JavaScript, Go or Rust file to index under")
            && out.stderr.contains("(1 skipped)"),
        "{out:#?}"
    );
}

#[test]
fn a_run_from_the_syntax_cache_compiles_no_query() {
    let repo = TempDir::new("warm-run");
    let cache = TempDir::new("warm-run-cache");
    // A module's default export takes its directory's name (`platform`), which a run from
    // the cache gives it again.
    repo.write(
        "lib/platform/index.js",
        "export default function () { return 1 }\n",
    );
    repo.write(
        "src/app.ts",
        "export function boot(): number { return 2 }\n",
    );
    repo.write("src/main.py", "def main():\n    return 3\n");
    let args = [
        "context",
        "--explain",
        "--root",
        ".",
        "where is platform defined",
    ];
    let first = run_with_cache(repo.path(), &args, cache.path());
    assert_eq!(first.code, 0, "{first:#?}");
    assert!(
        !first.stderr.contains("queries compiled: none"),
        "{first:#?}"
    );
    let warm = run_with_cache(repo.path(), &args, cache.path());
    assert_eq!(warm.code, 0, "{warm:#?}");
    assert!(warm.stderr.contains("queries compiled: none"), "{warm:#?}");
    assert!(warm.stdout.contains("lib/platform/index.js"), "{warm:#?}");
}

#[test]
fn context_with_the_first_answers_files_pinned_answers_with_what_comes_after_them() {
    let task = "fix the crash in OrderService.place_order when the cart is empty";
    let root = py_shop();
    let first = run(&["context", "--json", "--root", &root, task]);
    assert_eq!(first.code, 0, "{first:#?}");
    let first = first.json();
    let pinned = answer_files(&first);
    assert_eq!(
        pinned,
        ["shop/services/order_service.py"],
        "the first answer: {first:#}"
    );
    let mut args = vec!["context", "--json", "--root", &root];
    for path in &pinned {
        args.extend(["--pinned", path.as_str()]);
    }
    args.push(task);
    let second = run(&args);
    assert_eq!(second.code, 0, "{second:#?}");
    let second = second.json();
    let files = answer_files(&second);
    // Nothing of the pinned file is repeated; what it calls, who calls it and its tests come.
    assert!(!files.is_empty(), "{second:#}");
    assert!(files.iter().all(|path| !pinned.contains(path)), "{files:?}");
    let has = |reason: &str, path: &str| {
        second["items"].as_array().unwrap().iter().any(|item| {
            item["path"] == path
                && item["reasons"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|r| r.as_str().unwrap().starts_with(reason))
        })
    };
    assert!(has("test-of:", "tests/test_order_service.py"), "{second:#}");
    assert!(
        has("caller-of:place_order", "shop/api/views.py"),
        "{second:#}"
    );
    assert!(has("callee-of:", "shop/models.py"), "{second:#}");
    // The pinned file still steers the ranking: it is still the best file.
    assert_eq!(
        second["files"][0]["path"], "shop/services/order_service.py",
        "{second:#}"
    );
    assert_usage_error(
        &[
            "context",
            "--root",
            &py_shop(),
            "--pinned",
            "shop/nope.py",
            task,
        ],
        "--pinned: shop/nope.py is not an indexed file",
    );
    assert_usage_error(
        &[
            "context",
            "--root",
            &py_shop(),
            "--pinned",
            "../README.md",
            task,
        ],
        "not an indexed file",
    );
}

#[test]
fn context_output_into_a_closed_pipe_ends_quietly() {
    let bin = codectx_e2e::cli_support::codectx_bin();
    let mut child = std::process::Command::new(bin)
        .args(["context", "--root"])
        .arg(fixture_repo("py_shop"))
        .arg("fix the crash in DatabaseClient.connect when the URL is empty")
        .env(
            "CODECTX_CACHE_DIR",
            codectx_e2e::cli_support::test_cache_dir(),
        )
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end at once, as `| head -0` would.
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

#[test]
fn bench_index_times_a_cold_build_a_bare_parse_and_a_build_from_the_cache() {
    let out = run(&[
        "bench",
        "index",
        "--root",
        &py_shop(),
        "--runs",
        "2",
        "--json",
    ]);
    assert_eq!(out.code, 0, "{out:#?}");
    let report = out.json();
    assert!(report["files"].as_u64().unwrap() > 10, "{report:#}");
    for field in [
        "index_median_ms",
        "parse_only_median_ms",
        "cached_index_median_ms",
        "ratio_cached_to_cold",
        "cache_write_ms",
    ] {
        assert!(report[field].as_f64().unwrap() > 0.0, "{field}: {report:#}");
    }
    assert!(report["cache_bytes"].as_u64().unwrap() > 1000, "{report:#}");
}

#[test]
fn bench_cli_runs_context_processes_with_a_scratch_cache() {
    let tasks = TempDir::new("bench-cli");
    let queries = tasks.path().join("tasks.txt");
    std::fs::write(&queries, "where is the discount applied\n").unwrap();
    let out = run(&[
        "bench",
        "cli",
        "--root",
        &py_shop(),
        "--queries",
        &queries.display().to_string(),
        "--runs",
        "1",
        "--json",
    ]);
    assert_eq!(out.code, 0, "{out:#?}");
    let report = out.json();
    assert_eq!(report["warm_runs"], 1, "{report:#}");
    for field in ["first_run_ms", "warm_p50_ms", "process_start_p50_ms"] {
        assert!(report[field].as_f64().unwrap() > 0.0, "{field}: {report:#}");
    }
    // Where the time went, from the runs' own `--explain` lines.
    let phases = &report["warm_phases_p50_ms"];
    for phase in ["index", "answer", "total", "rank"] {
        assert!(phases[phase].as_f64().is_some(), "{phase}: {report:#}");
    }
    assert!(
        report["first_run_phases_ms"]["total"].as_f64().unwrap() > 0.0,
        "{report:#}"
    );
}

#[test]
fn bench_lsp_drives_the_server_through_edits_and_context_requests() {
    let out = run(&[
        "bench",
        "lsp",
        "--root",
        &py_shop(),
        "--edits",
        "5",
        "--burst",
        "10",
        "--json",
    ]);
    assert_eq!(out.code, 0, "{out:#?}");
    let report = out.json();
    assert!(report["files"].as_u64().unwrap() > 10, "{report:#}");
    assert_eq!(report["n_edits"], 5, "{report:#}");
    assert_eq!(report["n_context_after_edit"], 20, "{report:#}");
    for field in [
        "edit_to_visible_p50_ms",
        "workspace_symbol_p95_ms",
        "definition_p95_ms",
        "context_at_once_p50_ms",
        "context_at_once_p95_ms",
        "context_after_pause_p50_ms",
        "context_after_pause_p95_ms",
        "burst_absorb_ms",
    ] {
        assert!(report[field].as_f64().unwrap() > 0.0, "{field}: {report:#}");
    }
}

#[test]
fn a_second_run_reuses_the_syntax_cache_and_answers_the_same() {
    let repo = TempDir::new("cache-repo");
    copy_tree(&fixture_repo("py_shop"), repo.path());
    let cache = TempDir::new("cache-dir");
    let root = repo.path().display().to_string();
    let index = |extra: &[&str]| {
        let mut args = vec!["index", "--json", "--root", &root];
        args.extend_from_slice(extra);
        let out = run_with_cache(repo.path(), &args, cache.path());
        assert_eq!(out.code, 0, "{out:#?}");
        out.json()
    };
    let task = "fix the crash in DatabaseClient.connect when the URL is empty";
    let context = || {
        let out = run_with_cache(
            repo.path(),
            &["context", "--root", &root, task],
            cache.path(),
        );
        assert_eq!(out.code, 0, "{out:#?}");
        out.stdout
    };

    let cold = index(&[]);
    let files = cold["total"]["files"].as_u64().unwrap();
    assert_eq!(cold["cache"]["reused"], 0, "{cold:#}");
    assert_eq!(cold["cache"]["parsed"], files, "{cold:#}");
    assert_eq!(cold["cache"]["wrote"], true, "{cold:#}");
    let cold_answer = context();
    // `context` also keeps the search tables' term counts for the next run.
    let cache_files = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(cache.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .map(|name| name.split('-').next().unwrap().to_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(cache_files(), ["syntax", "terms"]);

    let warm = index(&[]);
    assert_eq!(
        warm["total"], cold["total"],
        "the same counts from the cache"
    );
    // Every file is reused, the empty ones from one shared entry.
    assert_eq!(warm["cache"]["reused"], files, "{warm:#}");
    assert_eq!(warm["cache"]["parsed"], 0, "{warm:#}");
    assert_eq!(warm["cache"]["wrote"], false, "{warm:#}");
    assert_eq!(
        context(),
        cold_answer,
        "the cache does not change the answer"
    );

    // An edited file is parsed again, and what it now defines is found.
    repo.write(
        "shop/db.py",
        "class DatabaseClient:\n    def reconnect_later(self):\n        pass\n",
    );
    let edited = index(&[]);
    assert_eq!(edited["cache"]["parsed"], 1, "{edited:#}");
    assert_eq!(edited["cache"]["wrote"], true, "{edited:#}");
    let out = run_with_cache(
        repo.path(),
        &["symbols", "reconnect_later", "--root", &root],
        cache.path(),
    );
    assert!(out.stdout.contains("shop/db.py"), "{out:#?}");

    // A damaged cache is ignored, and `--no-cache` neither reads nor writes one.
    for entry in std::fs::read_dir(cache.path()).unwrap() {
        std::fs::write(entry.unwrap().path(), b"garbage").unwrap();
    }
    let damaged = index(&[]);
    assert_eq!(damaged["cache"]["reused"], 0, "{damaged:#}");
    assert_eq!(damaged["total"]["files"], files, "{damaged:#}");
    let off = index(&["--no-cache"]);
    assert!(off["cache"].is_null(), "{off:#}");
    assert_eq!(off["total"], index(&[])["total"]);
}
