//! Byte offset <-> line/column conversion for a text.
//!
//! Invariant: lines end at `\n` only (a `\r` before it belongs to the line's text), as in
//! LSP and tree-sitter; columns here are bytes. UTF-16 columns are derived from the line text.

/// A zero-based line and byte column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// Start offsets of every line of a text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    len: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = Vec::with_capacity(text.len() / 32 + 1);
        line_starts.push(0);
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, byte)| *byte == b'\n')
                .map(|(idx, _)| idx as u32 + 1),
        );
        LineIndex {
            line_starts,
            len: text.len() as u32,
        }
    }

    pub fn n_lines(&self) -> u32 {
        self.line_starts.len() as u32
    }

    /// The line and byte column of `offset` (clamped to the text).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.len);
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        LineCol {
            line: line as u32,
            col: offset - self.line_starts[line],
        }
    }

    /// The zero-based first and last lines `range` touches (an empty range: its start's).
    pub fn lines(&self, range: super::TextRange) -> (u32, u32) {
        (
            self.line_col(range.start).line,
            self.line_col(range.end.saturating_sub(1).max(range.start))
                .line,
        )
    }

    /// The byte offset of the start of `line` (clamped to the end of the text).
    pub fn line_start(&self, line: u32) -> u32 {
        self.line_starts
            .get(line as usize)
            .copied()
            .unwrap_or(self.len)
    }

    /// The byte offset just past the end of `line`, including its `\n`.
    pub fn line_end(&self, line: u32) -> u32 {
        self.line_starts
            .get(line as usize + 1)
            .copied()
            .unwrap_or(self.len)
    }

    /// The byte offset of a line and byte column, clamped to the line and the text.
    pub fn offset(&self, line_col: LineCol) -> u32 {
        let start = self.line_start(line_col.line);
        let end = self.line_end(line_col.line);
        (start + line_col.col).min(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_touches_the_lines_of_its_first_and_last_bytes() {
        let index = LineIndex::new("ab\ncd\n\nxyz");
        let range = |start, end| crate::base::TextRange { start, end };
        // Ending with a line's `\n`, a range does not touch the next line.
        assert_eq!(index.lines(range(0, 6)), (0, 1));
        assert_eq!(index.lines(range(4, 9)), (1, 3));
        assert_eq!(index.lines(range(6, 6)), (2, 2));
    }

    #[test]
    fn offsets_round_trip_and_clamp() {
        let text = "ab\ncd\r\n\nxyz";
        let index = LineIndex::new(text);
        assert_eq!(index.n_lines(), 4);
        assert_eq!(index.line_col(0), LineCol { line: 0, col: 0 });
        assert_eq!(index.line_col(4), LineCol { line: 1, col: 1 });
        assert_eq!(index.line_col(8), LineCol { line: 3, col: 0 });
        assert_eq!(index.line_col(100), LineCol { line: 3, col: 3 });
        assert_eq!(index.offset(LineCol { line: 1, col: 1 }), 4);
        assert_eq!(index.offset(LineCol { line: 1, col: 99 }), 7);
        assert_eq!(index.offset(LineCol { line: 9, col: 0 }), text.len() as u32);
    }
}
