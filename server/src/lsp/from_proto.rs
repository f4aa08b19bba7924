//! Protocol values to internal ones: URIs to paths and index locations, positions (UTF-8 or
//! UTF-16 columns, as negotiated) to byte offsets.
//!
//! Invariant: the only place (with `to_proto`) that knows about UTF-16; positions past the end
//! of a line or of the text are clamped, never rejected.

use std::path::PathBuf;

use ropey::Rope;
use tower_lsp_server::ls_types::{Position, Range, Uri};

use super::state::{Encoding, World};
use crate::base::{FileId, LineIndex};
use crate::index::FilePosition;

/// The local path of a `file:` URI.
pub fn file_path(uri: &Uri) -> Option<PathBuf> {
    let is_file = uri.scheme().as_str().eq_ignore_ascii_case("file");
    if !is_file {
        return None;
    }
    uri.to_file_path().map(|path| path.into_owned())
}

/// The indexed file of a document URI (open buffer or file on disk).
pub fn file_id(world: &World, uri: &Uri) -> Option<FileId> {
    let (root, path) = world.locate_uri(uri);
    world.index.file_id(root, &path)
}

/// The byte offset of `position` in a text with its line index.
pub fn offset(text: &str, line_index: &LineIndex, position: Position, encoding: Encoding) -> u32 {
    if position.line >= line_index.n_lines() {
        return text.len() as u32;
    }
    let line_start = line_index.line_start(position.line) as usize;
    let line_end = line_index.line_end(position.line) as usize;
    let line = text[line_start..line_end].trim_end_matches(['\n', '\r']);
    (line_start + column_to_byte(line, position.character, encoding)) as u32
}

/// A file position for a request.
pub fn file_position(world: &World, uri: &Uri, position: Position) -> Option<FilePosition> {
    let file = file_id(world, uri)?;
    let data = world.index.file(file)?;
    Some(FilePosition {
        file,
        offset: offset(&data.text, &data.line_index, position, world.encoding),
    })
}

/// The byte within `line` (without its terminator) of a column, clamped to the line and to a
/// char boundary.
fn column_to_byte(line: &str, column: u32, encoding: Encoding) -> usize {
    let column = column as usize;
    match encoding {
        Encoding::Utf8 => {
            let mut byte = column.min(line.len());
            while !line.is_char_boundary(byte) {
                byte -= 1;
            }
            byte
        }
        Encoding::Utf16 => {
            let mut n_units = 0;
            for (byte, ch) in line.char_indices() {
                if n_units >= column {
                    return byte;
                }
                n_units += ch.len_utf16();
                if n_units > column {
                    // Inside a surrogate pair: stay before the char.
                    return byte;
                }
            }
            line.len()
        }
    }
}

/// The byte offset of `position` in an open buffer (lines end at `\n`, `\r\n` or `\r`).
pub fn rope_offset(rope: &Rope, position: Position, encoding: Encoding) -> usize {
    let line_idx = position.line as usize;
    if line_idx >= rope.len_lines() {
        return rope.len_bytes();
    }
    let line_start = rope.line_to_byte(line_idx);
    let line = rope.line(line_idx);
    // Clamp to the line's content, before its terminator.
    let mut content_len = line.len_bytes();
    for terminator in [b'\n', b'\r'] {
        if content_len > 0 && line.byte(content_len - 1) == terminator {
            content_len -= 1;
        }
    }
    let content = line.byte_slice(..content_len);
    let column = position.character as usize;
    let byte = match encoding {
        Encoding::Utf8 => {
            let byte = column.min(content_len);
            content.char_to_byte(content.byte_to_char(byte))
        }
        Encoding::Utf16 => {
            let column = column.min(content.len_utf16_cu());
            content.char_to_byte(content.utf16_cu_to_char(column))
        }
    };
    line_start + byte
}

/// The byte range of an edit's range in an open buffer.
pub fn rope_range(rope: &Rope, range: Range, encoding: Encoding) -> std::ops::Range<usize> {
    let start = rope_offset(rope, range.start, encoding);
    let end = rope_offset(rope, range.end, encoding);
    start.min(end)..end.max(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn utf16_and_utf8_columns_map_to_the_same_bytes() {
        let text = "aé😀b\r\nx\n";
        let line_index = LineIndex::new(text);
        let rope = Rope::from_str(text);
        // `b` is at UTF-16 column 4 (a, é, two units for 😀) and UTF-8 column 7.
        for (position, encoding) in [(pos(0, 4), Encoding::Utf16), (pos(0, 7), Encoding::Utf8)] {
            assert_eq!(offset(text, &line_index, position, encoding), 7);
            assert_eq!(rope_offset(&rope, position, encoding), 7);
        }
        // Inside the surrogate pair / inside a multi-byte char: before the char.
        assert_eq!(offset(text, &line_index, pos(0, 3), Encoding::Utf16), 3);
        assert_eq!(offset(text, &line_index, pos(0, 2), Encoding::Utf8), 1);
        assert_eq!(rope_offset(&rope, pos(0, 2), Encoding::Utf8), 1);
        // Past the end of a line: its end, before `\r\n`; past the last line: the end.
        assert_eq!(offset(text, &line_index, pos(0, 99), Encoding::Utf16), 8);
        assert_eq!(rope_offset(&rope, pos(0, 99), Encoding::Utf16), 8);
        assert_eq!(offset(text, &line_index, pos(9, 0), Encoding::Utf16), 12);
        assert_eq!(rope_offset(&rope, pos(9, 0), Encoding::Utf16), 12);
    }
}
