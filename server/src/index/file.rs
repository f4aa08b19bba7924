//! One indexed file: its text, line index and extracted syntax.
//!
//! Invariant: immutable once built; a change builds a new `FileData`.

use std::sync::Arc;

use super::{cache, SyntaxCache};
use crate::base::{auxiliary_kind, is_test_path, FxHashMap, LineIndex};
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
    /// Shared by the files with the same text that the syntax cache gave it to (but for a
    /// file with definitions named after it, see [`syntax::name_after_module`]).
    pub syntax: Arc<FileSyntax>,
    /// The distinct names referenced in the file, sorted.
    pub ref_names: Vec<Box<str>>,
    /// The indexes of `syntax.refs` grouped by name: those spelling `ref_names[i]` are
    /// `refs_by_name[ref_name_starts[i]..ref_name_starts[i + 1]]`, in the order of `refs`.
    refs_by_name: Vec<u32>,
    ref_name_starts: Vec<u32>,
    pub is_test: bool,
    /// The kind of auxiliary code its path puts it in (see [`auxiliary_kind`]).
    pub auxiliary: Option<&'static str>,
    /// The file declares types and nothing that runs (see [`declares_types_only`]).
    pub declarations_only: bool,
    /// See [`FileData::content_key`]; hashed once, when the file is read.
    content_key: u128,
}

impl FileData {
    /// Parses and extracts a file's text.
    pub fn analyze(root: u32, path: Box<str>, lang: Language, text: Arc<str>) -> FileData {
        FileData::analyze_cached(root, path, lang, text, None)
    }

    /// Like [`FileData::analyze`], taking the extraction from the cache when it has seen the
    /// text.
    pub fn analyze_cached(
        root: u32,
        path: Box<str>,
        lang: Language,
        text: Arc<str>,
        cache: Option<&SyntaxCache>,
    ) -> FileData {
        let is_test = is_test_path(&path);
        let content_key = cache::content_key(lang, is_test, &text);
        let syntax = cache
            .and_then(|cache| cache.get_keyed(content_key, &text))
            .unwrap_or_else(|| Arc::new(syntax::analyze(lang, &text, is_test)));
        FileData::from_keyed_syntax(root, path, lang, text, syntax, content_key)
    }

    /// The key of this file's extraction in the syntax cache (see [`cache::content_key`]).
    pub fn content_key(&self) -> u128 {
        self.content_key
    }

    /// Wraps a syntax extracted elsewhere (from an editor buffer's incrementally parsed tree).
    pub fn from_syntax(
        root: u32,
        path: Box<str>,
        lang: Language,
        text: Arc<str>,
        syntax: impl Into<Arc<FileSyntax>>,
    ) -> FileData {
        let content_key = cache::content_key(lang, is_test_path(&path), &text);
        FileData::from_keyed_syntax(root, path, lang, text, syntax.into(), content_key)
    }

    fn from_keyed_syntax(
        root: u32,
        path: Box<str>,
        lang: Language,
        text: Arc<str>,
        syntax: Arc<FileSyntax>,
        content_key: u128,
    ) -> FileData {
        let syntax = syntax::name_after_module(lang, &path, syntax);
        let is_test = is_test_path(&path);
        let (ref_names, refs_by_name, ref_name_starts) = group_refs(&text, &syntax.refs);
        let declarations_only = declares_types_only(&path, &syntax.defs);
        FileData {
            root,
            auxiliary: auxiliary_kind(&path),
            declarations_only,
            line_index: LineIndex::new(&text),
            path,
            lang,
            syntax,
            ref_names,
            refs_by_name,
            ref_name_starts,
            is_test,
            text,
            content_key,
        }
    }

    /// The name a reference spells.
    pub fn ref_text(&self, reference: &syntax::Ref) -> &str {
        self.text.get(reference.range.as_usize()).unwrap_or("")
    }

    /// The references spelling `name`, in position order.
    pub fn refs_named(&self, name: &str) -> impl Iterator<Item = &syntax::Ref> + '_ {
        let group = self
            .ref_names
            .binary_search_by(|probe| (**probe).cmp(name))
            .map_or(0..0, |at| {
                self.ref_name_starts[at] as usize..self.ref_name_starts[at + 1] as usize
            });
        self.refs_by_name[group]
            .iter()
            .map(|idx| &self.syntax.refs[*idx as usize])
    }
}

/// The distinct names `refs` spell in `text`, sorted, and the references' indexes grouped by
/// name (each group in the order of `refs`), with each group's start in that list.
fn group_refs(text: &str, refs: &[syntax::Ref]) -> (Vec<Box<str>>, Vec<u32>, Vec<u32>) {
    let mut by_name: FxHashMap<&str, Vec<u32>> = FxHashMap::default();
    for (idx, reference) in refs.iter().enumerate() {
        if let Some(name) = text.get(reference.range.as_usize()) {
            by_name.entry(name).or_default().push(idx as u32);
        }
    }
    let mut groups: Vec<(&str, Vec<u32>)> = by_name.into_iter().collect();
    groups.sort_unstable_by_key(|(name, _)| *name);
    let mut names = Vec::with_capacity(groups.len());
    let mut grouped = Vec::with_capacity(refs.len());
    let mut starts = Vec::with_capacity(groups.len() + 1);
    starts.push(0);
    for (name, indexes) in groups {
        names.push(Box::from(name));
        grouped.extend(indexes);
        starts.push(grouped.len() as u32);
    }
    (names, grouped, starts)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_found_by_name_in_position_order() {
        let text: Arc<str> =
            Arc::from("def f(db):\n    g(db)\n    db.close()\n    h = g\n    return f(h)\n");
        let data = FileData::analyze(0, "m.py".into(), Language::Python, text);
        let starts = |name: &str| -> Vec<u32> {
            data.refs_named(name)
                .map(|reference| reference.range.start)
                .collect()
        };
        for name in data.ref_names.iter() {
            let scanned: Vec<u32> = data
                .syntax
                .refs
                .iter()
                .filter(|reference| data.ref_text(reference) == &**name)
                .map(|reference| reference.range.start)
                .collect();
            assert!(!scanned.is_empty());
            assert_eq!(starts(name), scanned, "{name}");
        }
        assert!(data.ref_names.windows(2).all(|pair| pair[0] < pair[1]));
        assert_eq!(starts("g").len(), 2);
        assert!(starts("missing").is_empty());
        assert!(starts("").is_empty());
    }
}
