//! One file per request or notification: convert from the protocol, call the index, convert
//! back. Shared helpers for locating the identifier under the cursor live here.
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

use crate::base::TextRange;

/// The identifier touching `offset` (a cursor right after a name still counts).
pub fn identifier_at(text: &str, offset: u32) -> Option<TextRange> {
    let offset = (offset as usize).min(text.len());
    let is_ident = |ch: char| ch.is_alphanumeric() || ch == '_' || ch == '$';
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, ch)| is_ident(*ch))
        .last()
        .map_or(offset, |(idx, _)| idx);
    let end = text[offset..]
        .char_indices()
        .take_while(|(_, ch)| is_ident(*ch))
        .last()
        .map_or(offset, |(idx, ch)| offset + idx + ch.len_utf8());
    (start < end).then(|| TextRange::new(start, end))
}

#[cfg(test)]
mod tests {
    use super::identifier_at;

    #[test]
    fn identifier_at_cursor_inside_and_after_names() {
        let text = "x = café_au(lait)";
        let range = |offset| identifier_at(text, offset).map(|range| &text[range.as_usize()]);
        assert_eq!(range(5), Some("café_au"));
        assert_eq!(range(12), Some("café_au"));
        assert_eq!(range(13), Some("lait"));
        assert_eq!(range(2), None);
        assert_eq!(range(17), Some("lait"));
        assert_eq!(range(18), None);
    }
}
