//! Tree-sitter parsing and query execution: turns a file's text into definitions, imports,
//! references and syntax issues.
//!
//! Invariant: knows nothing about the index or LSP; never fails on user code (a file with
//! syntax errors yields what can be recovered, plus issues); offsets are bytes.

mod doc;
mod extract;
mod imports;

pub use extract::{extract, extract_incremental, TextChange, STATEMENTS_NAME};

use std::cell::RefCell;
use std::ops::Range;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::base::{LineIndex, TextRange};
use crate::languages::{DefKind, Language};

/// A definition found in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Def {
    pub name: Box<str>,
    pub kind: DefKind,
    /// The whole definition, including its doc comments, attributes, decorators and `export`.
    pub range: TextRange,
    /// The name's range (the place a cursor jumps to).
    pub name_range: TextRange,
    /// The index (in the file's `defs`) of the innermost definition containing this one.
    pub parent: Option<u32>,
    /// The declaration up to its body, on one line with whitespace normalized.
    pub signature: Box<str>,
    /// The first sentence of its documentation.
    pub doc: Option<Box<str>>,
    pub exported: bool,
    pub test: bool,
    /// The type the definition belongs to when it is declared outside it (a Go method's
    /// receiver type), as a bare name (`Store` for `func (s *Store[T]) Get()`).
    pub container: Option<Box<str>>,
    /// The bare name of the type a function returns (`Store` for `-> Result<Store>` or
    /// `(*Store, error)`, `Self` in an `impl`), for bindings to what it returns.
    pub returns: Option<Box<str>>,
    /// The bare names of the types a type extends, in the order written (`BaseModelAdmin`
    /// for `class ModelAdmin(BaseModelAdmin)`, `Emitter` for `class App extends Emitter`).
    pub bases: Box<[Box<str>]>,
    /// The definition has no name of its own (`export default (config) => {}`): `name` is its
    /// module's, set by [`name_after_module`] from the file's path (extraction, which sees no
    /// path, leaves the text of the node standing for it, `default`), and `name_range` is that
    /// node, whose text is the name an import finds it under.
    pub named_after_module: bool,
}

/// One imported name of an import statement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportedName {
    pub name: Box<str>,
    pub alias: Option<Box<str>>,
}

impl ImportedName {
    /// The name the import binds in the importing file.
    pub fn local_name(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

/// An import (or re-export) statement, one per module specifier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    pub range: TextRange,
    /// The module specifier as written (`.models`, `./cart`, `crate::store`, `github.com/a/b`).
    pub source: Box<str>,
    pub names: Vec<ImportedName>,
    /// The name the module itself is bound to (`import a.b as m`, Go imports, `import * as ns`).
    pub module_binding: Option<Box<str>>,
    pub wildcard: bool,
    pub reexport: bool,
}

/// An identifier that is used, not defined. Its text is `text[range]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ref {
    pub range: TextRange,
    pub call: bool,
    /// What the name is accessed on, for `obj.name`, `pkg.Name` or `Type::name`.
    pub receiver: Option<TextRange>,
    /// The builtin type of a literal receiver (`", ".join`), as the language's query names it:
    /// an index into its `Language::receiver_type` names (a byte, so that a reference takes
    /// no more room).
    pub receiver_type: Option<u8>,
}

/// A name bound to a value of a known type: a typed parameter or variable (`s *Store`,
/// `client: Client`), a variable set to a constructed value (`x = Foo()`, `new Foo()`,
/// `Foo::new()`, `&Foo{}`), or a member of a type (a struct field, `self.x = Foo()`). It
/// lets `x.method()` be resolved to the type's method.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    /// The bound name's range.
    pub name: TextRange,
    /// The bare name of the type (`Store` for `*pkg.Store[T]`, `Foo` for `Optional[Foo]`).
    pub type_name: Box<str>,
    /// A member of the type around it (a field, `self.x = ...`, `this.x = ...`), not a
    /// variable or a parameter.
    pub member: bool,
    /// `type_name` names a function, not a type: the binding holds what it returns
    /// (`s := NewServer()`, `client = make_client()`).
    pub call: bool,
    /// The bare name of the type inside a wrapper `type_name` names (`Store` for
    /// `Option<Store>`): what `?`, `.unwrap()` and `.expect(..)` take out of the value.
    pub held: Option<Box<str>>,
    /// What qualifies the type's name, when a `.` path does (`http` for `*http.Request`):
    /// the index tells a type of a package imported from outside the repository from the
    /// repository's own of the same name.
    pub qualifier: Option<Box<str>>,
}

/// A syntax error recovered from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyntaxIssue {
    pub range: TextRange,
    pub message: Box<str>,
}

/// Everything extracted from one file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileSyntax {
    /// Sorted by start, parents before children.
    pub defs: Vec<Def>,
    /// Sorted by start.
    pub imports: Vec<Import>,
    /// Sorted by start.
    pub refs: Vec<Ref>,
    /// Sorted by the start of their names.
    pub bindings: Vec<Binding>,
    pub issues: Vec<SyntaxIssue>,
    /// The parser could not recover from an error before later statements, so the file was
    /// read statement by statement (see `extract`).
    pub read_by_statements: bool,
}

impl FileSyntax {
    /// The references inside `range`, in order: a binary search, not a scan of the file's.
    pub fn refs_in(&self, range: TextRange) -> impl Iterator<Item = &Ref> + '_ {
        refs_within(&self.refs, range)
    }

    /// The definitions that have a name (see [`DefKind::is_named`]).
    pub fn named_defs(&self) -> impl Iterator<Item = &Def> + '_ {
        self.defs.iter().filter(|def| def.kind.is_named())
    }

    /// The container path of one of this file's definitions (`Outer.Inner`), following its
    /// parents (an impl block named by its signature), or else the type a Go method's
    /// receiver names; `None` at the top level.
    pub fn container_path(&self, def: &Def) -> Option<String> {
        let mut names = Vec::new();
        let mut parent = def.parent;
        while let Some(parent_def) = parent.and_then(|idx| self.defs.get(idx as usize)) {
            names.push(if parent_def.kind == DefKind::Impl {
                parent_def.signature.to_string()
            } else {
                parent_def.name.to_string()
            });
            parent = parent_def.parent;
        }
        names.reverse();
        if let (None, Some(container)) = (def.parent, def.container.as_deref()) {
            names.push(container.to_owned());
        }
        (!names.is_empty()).then(|| names.join("."))
    }
}

/// The references of `refs` (sorted by start) inside `range`, in order.
fn refs_within(refs: &[Ref], range: TextRange) -> impl Iterator<Item = &Ref> + '_ {
    let first = refs.partition_point(|reference| reference.range.start < range.start);
    refs[first..]
        .iter()
        .take_while(move |reference| reference.range.start < range.end)
        .filter(move |reference| range.contains_range(reference.range))
}

thread_local! {
    static PARSERS: RefCell<Vec<(Language, tree_sitter::Parser)>> = const { RefCell::new(Vec::new()) };
}

/// The thread's parser for `lang`, made on first use.
fn parser_for(
    parsers: &mut Vec<(Language, tree_sitter::Parser)>,
    lang: Language,
) -> &mut tree_sitter::Parser {
    let slot = match parsers.iter().position(|(candidate, _)| *candidate == lang) {
        Some(slot) => slot,
        None => {
            let mut parser = tree_sitter::Parser::new();
            parser
                .set_language(&lang.grammar())
                .expect("grammars are checked by a test");
            parsers.push((lang, parser));
            parsers.len() - 1
        }
    };
    &mut parsers[slot].1
}

/// Parses `text`, reusing `old_tree` (already `edit`ed) for an incremental reparse.
/// Parsers are reused per thread and language.
pub fn parse(
    lang: Language,
    text: &str,
    old_tree: Option<&tree_sitter::Tree>,
) -> tree_sitter::Tree {
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let parser = parser_for(&mut parsers, lang);
        match parser.parse(text, old_tree) {
            Some(tree) => tree,
            None => {
                // Only a cancellation or timeout makes tree-sitter give up; retry from scratch.
                parser.reset();
                parser
                    .parse(text, None)
                    .expect("a parser without timeout or cancellation always returns a tree")
            }
        }
    })
}

/// Parses only `range` of `text` (its offsets and positions stay those of the whole text;
/// `lines` is the text's line index), with the thread's parser for `lang`, which then reads
/// whole texts again.
pub(crate) fn parse_range(
    lang: Language,
    text: &str,
    lines: &LineIndex,
    range: Range<usize>,
) -> tree_sitter::Tree {
    let point = |offset: usize| {
        let line_col = lines.line_col(offset as u32);
        tree_sitter::Point {
            row: line_col.line as usize,
            column: line_col.col as usize,
        }
    };
    let included = tree_sitter::Range {
        start_byte: range.start,
        end_byte: range.end,
        start_point: point(range.start),
        end_point: point(range.end),
    };
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let parser = parser_for(&mut parsers, lang);
        // A single range inside the text is always valid.
        let _ = parser.set_included_ranges(&[included]);
        let tree = parser.parse(text, None).or_else(|| {
            parser.reset();
            parser.parse(text, None)
        });
        let _ = parser.set_included_ranges(&[]);
        tree.expect("a parser without timeout or cancellation always returns a tree")
    })
}

/// Parses and extracts in one step (for files that are not open in an editor).
pub fn analyze(lang: Language, text: &str, is_test_file: bool) -> FileSyntax {
    let tree = parse(lang, text, None);
    extract(lang, &tree, text, is_test_file)
}

/// Names the definitions of a file that have no name of their own (see
/// [`Def::named_after_module`]) after its module, as the code importing it names it: the
/// file's stem (`resolveConfig` for `lib/helpers/resolveConfig.js`), or the directory's name
/// for a file that stands for its directory (`platform` for `lib/platform/index.js`, see
/// `Language::directory_stems`), with the words of a stem that is no identifier joined
/// in camel case (`parseLinkHeader` for `parse-link-header.ts`, as got imports it).
///
/// An extraction depends on the text alone (files with the same text share one, and the
/// syntax cache keys it by text), so the index names these definitions when it takes a file
/// in; a file without them keeps the shared extraction, and naming again is harmless.
pub fn name_after_module(lang: Language, path: &str, syntax: Arc<FileSyntax>) -> Arc<FileSyntax> {
    let unnamed = |def: &Def| def.named_after_module;
    if !syntax.defs.iter().any(unnamed) {
        return syntax;
    }
    let Some(name) = module_def_name(lang, path) else {
        return syntax;
    };
    if syntax
        .defs
        .iter()
        .filter(|def| unnamed(def))
        .all(|def| *def.name == *name)
    {
        return syntax;
    }
    let mut syntax = Arc::unwrap_or_clone(syntax);
    for def in syntax.defs.iter_mut().filter(|def| unnamed(def)) {
        def.name = name.as_str().into();
    }
    Arc::new(syntax)
}

/// The name of the module at `path` for [`name_after_module`]; `None` when the path gives no
/// word (`.eslintrc.js`).
fn module_def_name(lang: Language, path: &str) -> Option<String> {
    let mut segments = path.rsplit(['/', '\\']);
    let file_name = segments.next().unwrap_or(path);
    let stem = file_name.split('.').next().unwrap_or(file_name);
    let stem = if lang.directory_stems().contains(&stem) {
        segments
            .find(|dir| !matches!(*dir, "" | "." | ".."))
            .unwrap_or(stem)
    } else {
        stem
    };
    let mut name = String::with_capacity(stem.len());
    for word in stem
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '$'))
        .filter(|word| !word.is_empty())
    {
        let mut chars = word.chars();
        match chars.next() {
            Some(first) if !name.is_empty() => {
                name.extend(first.to_uppercase());
                name.extend(chars);
            }
            _ => name.push_str(word),
        }
    }
    (!name.is_empty()).then_some(name)
}

/// Collapses whitespace runs to one space and cuts at `max_chars` (on a char boundary).
pub fn one_line(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_chars + 4));
    let mut n_chars = 0;
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
            n_chars += 1;
        }
        for ch in word.chars() {
            if n_chars >= max_chars {
                out.push('…');
                return out;
            }
            out.push(ch);
            n_chars += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests;
