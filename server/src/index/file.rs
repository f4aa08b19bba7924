//! One indexed file: its text, line index and extracted syntax.
//!
//! Invariant: immutable once built; a change builds a new `FileData`.

use std::sync::Arc;

use crate::base::{is_test_path, FxHashSet, LineIndex};
use crate::languages::{DefKind, Language};
use crate::syntax::{self, FileSyntax};

#[derive(Debug)]
pub struct FileData {
    pub root: u32,
    /// Relative to its root, `/`-separated.
    pub path: Box<str>,
    pub lang: Language,
    pub text: Arc<str>,
    pub line_index: LineIndex,
    pub syntax: FileSyntax,
    /// The distinct names referenced in the file, sorted.
    pub ref_names: Vec<Box<str>>,
    pub is_test: bool,
    /// The file declares types and nothing that runs (see [`declares_types_only`]).
    pub declarations_only: bool,
}

impl FileData {
    /// Parses and extracts a file's text.
    pub fn analyze(root: u32, path: Box<str>, lang: Language, text: Arc<str>) -> FileData {
        let is_test = is_test_path(&path);
        let syntax = syntax::analyze(lang, &text, is_test);
        FileData::from_syntax(root, path, lang, text, syntax)
    }

    /// Wraps a syntax extracted elsewhere (from an editor buffer's incrementally parsed tree).
    pub fn from_syntax(
        root: u32,
        path: Box<str>,
        lang: Language,
        text: Arc<str>,
        syntax: FileSyntax,
    ) -> FileData {
        let is_test = is_test_path(&path);
        let mut seen: FxHashSet<&str> = FxHashSet::default();
        for reference in &syntax.refs {
            if let Some(name) = text.get(reference.range.as_usize()) {
                seen.insert(name);
            }
        }
        let mut ref_names: Vec<Box<str>> = seen.into_iter().map(Box::from).collect();
        ref_names.sort_unstable();
        let declarations_only = declares_types_only(&path, &syntax.defs);
        FileData {
            root,
            declarations_only,
            line_index: LineIndex::new(&text),
            path,
            lang,
            syntax,
            ref_names,
            is_test,
            text,
        }
    }

    /// The name a reference spells.
    pub fn ref_text(&self, reference: &syntax::Ref) -> &str {
        self.text.get(reference.range.as_usize()).unwrap_or("")
    }
}

/// Whether a file only declares types: a TypeScript declaration file (`index.d.ts`), or a file
/// whose every definition is a type (interface, type alias, struct, enum, trait) or a member
/// declared inside one (a field, an interface's method signature), like a `types/options.ts`.
/// Such a file changes with an interface, not with what the code does.
pub fn declares_types_only(path: &str, defs: &[syntax::Def]) -> bool {
    let file_name = path.rsplit('/').next().unwrap_or(path);
    if [".d.ts", ".d.mts", ".d.cts"]
        .iter()
        .any(|suffix| file_name.ends_with(suffix))
    {
        return true;
    }
    let declared_in_type = |def: &syntax::Def| {
        def.parent
            .and_then(|parent| defs.get(parent as usize))
            .is_some_and(|parent| {
                matches!(
                    parent.kind,
                    DefKind::Interface | DefKind::Type | DefKind::Trait
                )
            })
    };
    !defs.is_empty()
        && defs.iter().all(|def| match def.kind {
            DefKind::Interface
            | DefKind::Type
            | DefKind::Struct
            | DefKind::Enum
            | DefKind::Trait
            | DefKind::Field => true,
            DefKind::Method | DefKind::Function => declared_in_type(def),
            _ => false,
        })
}
