//! What the server advertises in `initialize`, and what it reads from the client's
//! capabilities.
//!
//! Invariant: every capability advertised here has a handler in `handlers/`.

use tower_lsp_server::ls_types::*;

use super::ext;
use super::state::{ClientFlags, Encoding};
use crate::index::walk::MANIFEST_NAMES;
use crate::languages::Language;

pub fn client_flags(capabilities: &ClientCapabilities) -> ClientFlags {
    let offers_utf8 = capabilities
        .general
        .as_ref()
        .and_then(|general| general.position_encodings.as_ref())
        .is_some_and(|encodings| encodings.contains(&PositionEncodingKind::UTF8));
    let text_document = capabilities.text_document.as_ref();
    let workspace = capabilities.workspace.as_ref();
    ClientFlags {
        encoding: if offers_utf8 {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        },
        location_links: text_document
            .and_then(|td| td.definition.as_ref())
            .and_then(|definition| definition.link_support)
            .unwrap_or(false),
        hierarchical_symbols: text_document
            .and_then(|td| td.document_symbol.as_ref())
            .and_then(|symbols| symbols.hierarchical_document_symbol_support)
            .unwrap_or(false),
        work_done_progress: capabilities
            .window
            .as_ref()
            .and_then(|window| window.work_done_progress)
            .unwrap_or(false),
        watched_files_dynamic: workspace
            .and_then(|ws| ws.did_change_watched_files.as_ref())
            .and_then(|watched| watched.dynamic_registration)
            .unwrap_or(false),
        configuration_dynamic: workspace
            .and_then(|ws| ws.did_change_configuration.as_ref())
            .and_then(|config| config.dynamic_registration)
            .unwrap_or(false),
        markdown_hover: text_document
            .and_then(|td| td.hover.as_ref())
            .and_then(|hover| hover.content_format.as_ref())
            .is_none_or(|formats| formats.contains(&MarkupKind::Markdown)),
    }
}

fn source_file_filters() -> Vec<FileOperationFilter> {
    let mut globs: Vec<String> = vec![format!("**/*.{{{}}}", extensions().join(","))];
    globs.push(format!("**/{{{}}}", MANIFEST_NAMES.join(",")));
    let mut filters: Vec<FileOperationFilter> = globs
        .into_iter()
        .map(|glob| FileOperationFilter {
            scheme: Some("file".into()),
            pattern: FileOperationPattern {
                glob,
                matches: Some(FileOperationPatternKind::File),
                options: None,
            },
        })
        .collect();
    // Folders: renaming or deleting a directory moves every file in it.
    filters.push(FileOperationFilter {
        scheme: Some("file".into()),
        pattern: FileOperationPattern {
            glob: "**/*".into(),
            matches: Some(FileOperationPatternKind::Folder),
            options: None,
        },
    });
    filters
}

/// Every supported source extension.
pub fn extensions() -> Vec<&'static str> {
    Language::ALL
        .iter()
        .flat_map(|lang| lang.extensions().iter().copied())
        .collect()
}

/// The globs registered for `workspace/didChangeWatchedFiles`.
pub fn watched_globs() -> Vec<String> {
    vec![
        format!("**/*.{{{}}}", extensions().join(",")),
        format!("**/{{{}}}", MANIFEST_NAMES.join(",")),
    ]
}

pub fn server_capabilities(flags: &ClientFlags) -> ServerCapabilities {
    let file_operations = FileOperationRegistrationOptions {
        filters: source_file_filters(),
    };
    ServerCapabilities {
        position_encoding: Some(match flags.encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                will_save: None,
                will_save_wait_until: None,
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
            },
        )),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        definition_provider: Some(OneOf::Left(true)),
        implementation_provider: Some(ImplementationProviderCapability::Simple(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: ext::COMMANDS
                .iter()
                .map(|name| (*name).to_owned())
                .collect(),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: Some(WorkspaceFileOperationsServerCapabilities {
                did_create: Some(file_operations.clone()),
                did_rename: Some(file_operations.clone()),
                did_delete: Some(file_operations),
                ..WorkspaceFileOperationsServerCapabilities::default()
            }),
        }),
        ..ServerCapabilities::default()
    }
}
