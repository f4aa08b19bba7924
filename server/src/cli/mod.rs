//! The command-line interface: `serve` (the language server), `index`, `symbols`,
//! `definition`, `implementations`, `references`, `outline`, `context`, `bench`.
//!
//! Invariant: bad arguments and missing paths print a message on stderr and exit with 2;
//! human output by default, stable JSON with `--json`.

mod bench;
pub mod commands;
pub mod context;

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

pub use commands::CliError;

#[derive(Parser, Debug)]
#[command(
    name = "codectx",
    version,
    about = "Code context for AI coding assistants: a definition index and language server"
)]
struct Cli {
    /// Run the language server over stdio (same as `codectx serve`).
    #[arg(long, hide = true)]
    stdio: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

/// A name's position in a file, for the commands that navigate from it.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// The file (relative to the root, or absolute), the 1-based line and the 1-based column
    /// in characters.
    #[arg(value_name = "PATH:LINE:COL")]
    location: String,
    #[command(flatten)]
    root: RootArgs,
    /// Print a JSON array.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug, Clone)]
pub struct RootArgs {
    /// The repository root (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Skip files larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 1024 * 1024)]
    pub max_file_size: u64,
    /// Leave out paths matching this gitignore-style glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Parse every file instead of reusing the syntax cache of earlier runs (kept in
    /// $CODECTX_CACHE_DIR, else $XDG_CACHE_HOME/codectx or ~/.cache/codectx).
    #[arg(long)]
    pub no_cache: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Index a repository and print counts per language, skipped files, time and memory.
    Index {
        #[command(flatten)]
        root: RootArgs,
        #[arg(long)]
        json: bool,
    },
    /// Search definitions by name: exact, prefix, camel/snake humps, then fuzzy.
    Symbols {
        query: String,
        #[command(flatten)]
        root: RootArgs,
        #[arg(long, default_value_t = 20)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
    /// Go to the definition of the name at PATH:LINE:COL (1-based, as editors show them).
    Definition(PositionArgs),
    /// The implementations of the type or method named at PATH:LINE:COL: the types that
    /// extend or implement it, or the overrides of the method.
    Implementations(PositionArgs),
    /// The references to the name at PATH:LINE:COL in the files that can see its definition,
    /// one `path:line:col  line` per reference (its declaration included).
    References {
        #[command(flatten)]
        at: PositionArgs,
        /// Leave out the declaration of the name.
        #[arg(long)]
        no_declaration: bool,
    },
    /// Print the definitions of one file as a tree.
    Outline {
        path: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// The code an assistant needs for a task, under a token budget.
    Context {
        /// The task in plain words, possibly with a pasted stack trace.
        task: String,
        #[command(flatten)]
        root: RootArgs,
        /// Token budget (256 to 200000).
        #[arg(long, default_value_t = crate::engine::DEFAULT_BUDGET, value_parser = parse_budget, allow_negative_numbers = true)]
        budget: u32,
        /// Output format of the context text: xml, markdown or json.
        #[arg(long, default_value = "xml")]
        format: String,
        /// Override the detected intent (bug_fix, test_writing, refactor, implementation, usage_exploration, definition_lookup).
        #[arg(long)]
        intent: Option<String>,
        /// Tokenizer that counts the budget: o200k_base or cl100k_base.
        #[arg(long, default_value = "o200k_base")]
        tokenizer: String,
        /// The file the user is working in (relative to the root).
        #[arg(long, value_name = "PATH")]
        active: Option<PathBuf>,
        /// A file already in the conversation (relative to the root; repeatable): its code is
        /// not repeated, but it still steers the ranking. Pin the files of an answer to ask
        /// for what comes after them.
        #[arg(long, value_name = "PATH")]
        pinned: Vec<PathBuf>,
        /// Also print, on stderr, why each item was chosen, the file ranking and timings.
        #[arg(long)]
        explain: bool,
        /// Print the whole result object (as the codectx.context command returns it).
        #[arg(long)]
        json: bool,
    },
    /// Run the language server over stdio (LSP; clients may also pass `--stdio`).
    Serve {
        /// Accepted and ignored: stdio is the only transport.
        #[arg(long, hide = true)]
        stdio: bool,
    },
    /// Benchmarks (medians over several runs, with a reference measured in the same run).
    Bench {
        #[command(subcommand)]
        what: bench::BenchCommand,
    },
}

/// Writes command output to stdout. A reader that goes away (`codectx context ... | head`)
/// ends the output quietly instead of with a panic.
pub(crate) fn emit(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(err) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if err.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("codectx: cannot write the output: {err}");
        std::process::exit(1);
    }
}

/// Sets up `tracing` to stderr, filtered by `CODECTX_LOG` (default: warnings).
/// A `--budget`: a whole number of tokens the engine accepts. Zero, a negative number, one
/// too large for any type and a word all get the same message, naming the range.
pub(crate) fn parse_budget(value: &str) -> Result<u32, String> {
    let range = crate::engine::MIN_BUDGET..=crate::engine::MAX_BUDGET;
    value
        .trim()
        .parse::<i128>()
        .ok()
        .and_then(|budget| u32::try_from(budget).ok())
        .filter(|budget| range.contains(budget))
        .ok_or_else(|| {
            format!(
                "must be a whole number of tokens from {} to {}",
                range.start(),
                range.end()
            )
        })
}

pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("CODECTX_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}

/// Runs the CLI; returns the process exit code.
pub fn run(args: Vec<OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() { 2 } else { 0 };
            let _ = err.print();
            return code;
        }
    };
    let res = match cli.command {
        None if cli.stdio => return crate::lsp::run_stdio(),
        Some(Command::Serve { .. }) => return crate::lsp::run_stdio(),
        None => Err(CliError::Usage(
            "no command given; see `codectx --help`".into(),
        )),
        Some(Command::Index { root, json }) => commands::index(&root, json),
        Some(Command::Symbols {
            query,
            root,
            limit,
            json,
        }) => commands::symbols(&query, &root, limit, json),
        Some(Command::Definition(at)) => commands::definition(&at.location, &at.root, at.json),
        Some(Command::Implementations(at)) => {
            commands::implementations(&at.location, &at.root, at.json)
        }
        Some(Command::References { at, no_declaration }) => {
            commands::references(&at.location, &at.root, at.json, !no_declaration)
        }
        Some(Command::Outline { path, json }) => commands::outline(&path, json),
        Some(Command::Context {
            task,
            root,
            budget,
            format,
            intent,
            tokenizer,
            active,
            pinned,
            explain,
            json,
        }) => context::context(
            &task,
            &root,
            budget,
            &format,
            intent.as_deref(),
            &tokenizer,
            active.as_deref(),
            &pinned,
            explain,
            json,
        ),
        Some(Command::Bench { what }) => bench::run(what),
    };
    match res {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("codectx: {err}");
            err.exit_code()
        }
    }
}
