//! codectx: a code-context engine and language server for AI coding assistants.
//!
//! The layers, each depending only on those after it:
//! `lsp` (protocol) -> `engine` (context assembly, ranking) -> `index` (repo-wide tables,
//! discovery, resolution, navigation) -> `syntax` (tree-sitter extraction) -> `languages`
//! (grammars and `.scm` queries) -> `base` (ids, ranges, line indexes).
//!
//! `cli` is the command-line front end over `index` and `engine`.

pub mod base;
pub mod cli;
pub mod engine;
pub mod index;
pub mod languages;
pub mod syntax;
