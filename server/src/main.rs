//! The `codectx` binary: logging setup and the command-line entry point.

fn main() {
    codectx::cli::init_tracing();
    std::process::exit(codectx::cli::run(std::env::args_os().collect()));
}
