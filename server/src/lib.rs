//! codectx: a code-context engine and language server for AI coding assistants.
//!
//! The layers, each depending only on those after it:
//! `lsp` (protocol) -> `engine` (context assembly, ranking) -> `index` (repo-wide tables,
//! discovery, resolution, navigation) -> `syntax` (tree-sitter extraction) -> `languages`
//! (grammars and `.scm` queries) -> `base` (ids, ranges, line indexes).
//!
//! `documents` holds the open editor buffers (ropes, versions, trees) that `lsp` applies
//! edits to; `lsp` is the language server, the only module that knows the protocol.
//! `cli` is the command-line front end over `index`, `engine` and `lsp` (`codectx serve`).

pub mod base;
pub mod cli;
pub mod engine;
pub mod documents;
pub mod index;
pub mod languages;
pub mod lsp;
pub mod syntax;
