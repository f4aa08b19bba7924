//! The `codectx` binary as the end-to-end tests run it: the same two lines as
//! `server/src/main.rs`.

fn main() {
    codectx::cli::init_tracing();
    std::process::exit(codectx::cli::run(std::env::args_os().collect()));
}
