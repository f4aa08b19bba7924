//! One file per request or notification: convert from the protocol, call the index, convert
//! back.
//!
//! Invariant: notification handlers are synchronous up to their change of the world (see the
//! `lsp` module doc); request handlers go through `dispatch::run_request`.

pub mod context;
pub mod definition;
pub mod did_change;
pub mod did_change_configuration;
pub mod did_change_watched_files;
pub mod did_change_workspace_folders;
pub mod did_close;
pub mod did_open;
pub mod did_save;
pub mod document_symbol;
pub mod execute_command;
pub mod file_operations;
pub mod hover;
pub mod implementation;
pub mod initialize;
pub mod initialized;
pub mod references;
pub mod shutdown;
pub mod workspace_symbol;
