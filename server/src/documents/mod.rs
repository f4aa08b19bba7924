//! Open editor buffers: a rope, the client's version and the last syntax tree per document,
//! with edits applied strictly in the order they are given.
//!
//! Invariant: no LSP types; every offset is a UTF-8 byte offset into the rope (callers convert
//! protocol positions first); after `apply_edit` the stored tree has been `edit`ed to match the
//! rope, so `reparse` is always a valid incremental parse.

use ropey::Rope;
use tree_sitter::{InputEdit, Point, Tree};

use crate::base::FxHashMap;
use crate::languages::Language;
use crate::syntax::{self, FileSyntax};

/// The index key of a buffer without a workspace file (an `untitled:` buffer, a file outside
/// every root): such buffers are indexed under this pseudo-root with their URI as the path.
pub const DETACHED_ROOT: u32 = u32::MAX;

/// One open buffer.
pub struct Document {
    /// Where the buffer is indexed: a root index and relative path, or [`DETACHED_ROOT`] and
    /// the URI text.
    pub location: (u32, Box<str>),
    pub rope: Rope,
    pub version: i32,
    pub lang: Option<Language>,
    /// Edited since its syntax was last put into the index.
    pub dirty: bool,
    tree: Option<Tree>,
    /// What was extracted from `tree` before its edits, and whether as a test file.
    extracted: Option<(FileSyntax, bool)>,
    /// The text's length when `tree` was parsed, and the span of the current text the edits
    /// since then touched (see [`syntax::TextChange`]).
    change: Option<syntax::TextChange>,
}

impl Document {
    pub fn new(
        location: (u32, Box<str>),
        text: &str,
        version: i32,
        lang: Option<Language>,
    ) -> Document {
        Document {
            location,
            rope: Rope::from_str(text),
            version,
            lang,
            dirty: false,
            tree: None,
            extracted: None,
            change: None,
        }
    }

    /// Replaces `range` (bytes, clamped to the text and to char boundaries) with `text`, or the
    /// whole text when `range` is `None`, and records the edit on the syntax tree.
    pub fn apply_edit(&mut self, range: Option<std::ops::Range<usize>>, text: &str) {
        let Some(range) = range else {
            self.rope = Rope::from_str(text);
            self.tree = None;
            self.extracted = None;
            self.change = None;
            return;
        };
        let len = self.rope.len_bytes();
        let start = self.floor_char_boundary(range.start.min(len));
        let end = self.floor_char_boundary(range.end.min(len)).max(start);
        let start_position = self.point(start);
        let old_end_position = self.point(end);
        let start_char = self.rope.byte_to_char(start);
        let end_char = self.rope.byte_to_char(end);
        self.rope.remove(start_char..end_char);
        self.rope.insert(start_char, text);
        let new_end = start + text.len();
        let new_end_position = self.point(new_end);
        // The untouched prefix ends at the earliest edit start; the untouched suffix is the
        // shortest one any edit left.
        let new_len = self.rope.len_bytes();
        self.change = Some(match self.change.take() {
            None => syntax::TextChange {
                old_len: len,
                edited: start..new_end,
            },
            Some(previous) => {
                let suffix = (len - previous.edited.end).min(len - end);
                syntax::TextChange {
                    old_len: previous.old_len,
                    edited: previous.edited.start.min(start)..new_len - suffix,
                }
            }
        });
        if let Some(tree) = &mut self.tree {
            tree.edit(&InputEdit {
                start_byte: start,
                old_end_byte: end,
                new_end_byte: new_end,
                start_position,
                old_end_position,
                new_end_position,
            });
        }
    }

    /// The largest char boundary at or before `offset`.
    fn floor_char_boundary(&self, offset: usize) -> usize {
        let char_idx = self.rope.byte_to_char(offset);
        self.rope.char_to_byte(char_idx)
    }

    /// The tree-sitter point (row, byte column) of a byte offset. Rows are rope lines; they
    /// differ from tree-sitter's `\n`-only rows only after a lone `\r`, which affects node
    /// points but never the byte offsets we read.
    fn point(&self, offset: usize) -> Point {
        let line = self.rope.byte_to_line(offset);
        Point {
            row: line,
            column: offset - self.rope.line_to_byte(line),
        }
    }

    /// The syntax tree of the last `reparse`, `edit`ed since by `apply_edit`.
    pub fn tree(&self) -> Option<&Tree> {
        self.tree.as_ref()
    }

    /// The whole text.
    pub fn text(&self) -> String {
        String::from(&self.rope)
    }

    /// Parses the current text (incrementally when a tree exists) and extracts its syntax,
    /// again only around the edits when the previous extraction is at hand. Returns `None`
    /// for buffers of unsupported languages.
    pub fn reparse(&mut self, text: &str, is_test_file: bool) -> Option<FileSyntax> {
        let lang = self.lang?;
        let tree = syntax::parse(lang, text, self.tree.as_ref());
        let change = self.change.take();
        let res = match (self.tree.as_ref(), self.extracted.take(), change) {
            (Some(old_tree), Some((previous, was_test)), change) if was_test == is_test_file => {
                match change {
                    Some(change) => syntax::extract_incremental(
                        lang,
                        old_tree,
                        &tree,
                        text,
                        is_test_file,
                        previous,
                        &change,
                    ),
                    // Nothing was edited since.
                    None => previous,
                }
            }
            _ => syntax::extract(lang, &tree, text, is_test_file),
        };
        self.tree = Some(tree);
        self.extracted = Some((res.clone(), is_test_file));
        Some(res)
    }
}

/// Every open buffer, by URI text.
#[derive(Default)]
pub struct Documents {
    by_uri: FxHashMap<Box<str>, Document>,
}

impl Documents {
    pub fn open(&mut self, uri: &str, document: Document) -> &mut Document {
        self.by_uri.insert(uri.into(), document);
        self.by_uri.get_mut(uri).expect("just inserted")
    }

    pub fn get(&self, uri: &str) -> Option<&Document> {
        self.by_uri.get(uri)
    }

    pub fn get_mut(&mut self, uri: &str) -> Option<&mut Document> {
        self.by_uri.get_mut(uri)
    }

    pub fn close(&mut self, uri: &str) -> Option<Document> {
        self.by_uri.remove(uri)
    }

    /// Whether an open buffer is indexed at this location (it then wins over the disk).
    pub fn is_open_at(&self, root: u32, path: &str) -> bool {
        self.by_uri
            .values()
            .any(|document| document.location.0 == root && &*document.location.1 == path)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Document)> {
        self.by_uri.iter().map(|(uri, document)| (&**uri, document))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&str, &mut Document)> {
        self.by_uri
            .iter_mut()
            .map(|(uri, document)| (&**uri, document))
    }

    pub fn len(&self) -> usize {
        self.by_uri.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_uri.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document of `text`, parsed once (so that the next parse is incremental).
    fn parsed_document(path: &str, text: &str, lang: Language) -> Document {
        let mut document = Document::new((0, path.into()), text, 1, Some(lang));
        let first = document.text();
        document.reparse(&first, false);
        document
    }

    #[test]
    fn incremental_edits_match_a_fresh_parse() {
        let text = "def a():\n    return 1\n\nclass Café:\n    def b(self): pass\n";
        let mut document = parsed_document("a.py", text, Language::Python);
        // Insert a function after the class, then rename `a` to `alpha`.
        let at = text.len();
        document.apply_edit(Some(at..at), "def zz():\n    pass\n");
        document.apply_edit(Some(4..5), "alpha");
        let edited = document.text();
        let incremental = document.reparse(&edited, false).unwrap();
        let fresh = syntax::analyze(Language::Python, &edited, false);
        assert_eq!(incremental, fresh);
        let names: Vec<&str> = fresh.defs.iter().map(|def| &*def.name).collect();
        assert_eq!(names, ["alpha", "Café", "b", "zz"]);
    }

    /// Applies one edit, reparses and checks the incremental result against a fresh parse.
    fn edit_matches_a_fresh_parse(
        document: &mut Document,
        lang: Language,
        range: std::ops::Range<usize>,
        new_text: &str,
    ) -> FileSyntax {
        document.apply_edit(Some(range), new_text);
        let edited = document.text();
        let incremental = document.reparse(&edited, false).unwrap();
        assert_eq!(incremental, syntax::analyze(lang, &edited, false));
        incremental
    }

    #[test]
    fn edits_join_and_split_runs_of_top_level_statements() {
        // Statements merge into runs that an edit may join or split: the runs around an edit
        // are extracted again, and the file answers as a fresh parse does.
        let text = "import sys\n\nfor m in list(sys.modules):\n    print(m)\n\ndef f():\n    pass\n\nsys.exit(0)\n";
        let mut document = parsed_document("a.py", text, Language::Python);
        let kinds = |syntax: &FileSyntax| -> Vec<&str> {
            syntax.defs.iter().map(|def| def.kind.name()).collect()
        };
        // Removing the function joins the loop and the exit into one run.
        let (start, end) = (text.find("def f").unwrap(), text.find("sys.exit").unwrap());
        let joined = edit_matches_a_fresh_parse(&mut document, Language::Python, start..end, "");
        assert_eq!(kinds(&joined), ["statements"]);
        // A new function in the middle splits them again.
        let at = document.text().find("sys.exit").unwrap();
        let split = edit_matches_a_fresh_parse(
            &mut document,
            Language::Python,
            at..at,
            "def g():\n    pass\n\n",
        );
        assert_eq!(kinds(&split), ["statements", "function", "statements"]);
    }

    #[test]
    fn a_file_read_statement_by_statement_is_extracted_whole_after_an_edit() {
        // Three call signatures make tree-sitter-typescript 0.23 swallow what follows them:
        // the file is read statement by statement, before an edit, after it, and once fixed.
        let signature = "  <P extends string>(\n    ...h: [H<P>]\n  ): R<P, I['in']>\n\n";
        let text = format!(
            "export interface Handlers {{\n{}}}\n\nexport type After = {{ b: number }}\n",
            signature.repeat(3)
        );
        let mut document = Document::new((0, "a.ts".into()), &text, 1, Some(Language::TypeScript));
        let first = document.text();
        assert!(document.reparse(&first, false).unwrap().read_by_statements);
        let at = text.len();
        let incremental = edit_matches_a_fresh_parse(
            &mut document,
            Language::TypeScript,
            at..at,
            "export function later(): void {}\n",
        );
        let edited = document.text();
        let names: Vec<&str> = incremental.defs.iter().map(|def| &*def.name).collect();
        assert_eq!(names, ["Handlers", "After", "b", "later"]);
        // Semicolons after the signatures: the grammar reads them.
        let fixed = edited.replace("['in']>\n", "['in']>;\n");
        document.apply_edit(Some(0..edited.len()), &fixed);
        let incremental = document.reparse(&fixed, false).unwrap();
        assert!(!incremental.read_by_statements);
        assert_eq!(
            incremental,
            syntax::analyze(Language::TypeScript, &fixed, false)
        );
    }

    #[test]
    fn out_of_range_and_mid_char_edits_are_clamped() {
        let mut document = Document::new((0, "a.py".into()), "é\nx", 1, None);
        document.apply_edit(Some(1..100), "Z");
        assert_eq!(document.text(), "Z");
    }

    #[test]
    fn points_are_rows_and_byte_columns() {
        let document = Document::new((0, "a.py".into()), "a\r\nbé\nd", 1, None);
        assert_eq!(document.point(3), Point { row: 1, column: 0 });
        assert_eq!(document.point(6), Point { row: 1, column: 3 });
        assert_eq!(document.point(7), Point { row: 2, column: 0 });
    }
}
