//! Runs a language's query over a syntax tree and assembles definitions, references and
//! imports from the captures.
//!
//! Invariant: every language rule comes from the query or the language's config; this file
//! only knows the capture vocabulary.

use std::cell::RefCell;
use std::ops::{ControlFlow, Range};

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, QueryCursor, Tree};

use super::{
    doc, imports::ImportBuilder, refs_within, Binding, Def, FileSyntax, Import, Ref, SyntaxIssue,
};
use crate::base::{FxHashMap, LineIndex, TextRange};
use crate::languages::{CaptureRole, DefKind, Language, LanguageConfig, VisibilityRule};

const MAX_SIGNATURE_CHARS: usize = 240;
const MAX_ISSUES: usize = 20;
/// A file read statement by statement is cut in at most this many pieces.
const MAX_PIECES: usize = 1000;

thread_local! {
    static CURSOR: RefCell<QueryCursor> = RefCell::new(QueryCursor::new());
}

/// What the matches of one definition node collected. When several patterns give the node a
/// kind or a name, the pattern that comes first in the query wins (whatever order the matches
/// arrive in), so a query can list specific patterns before general fallbacks.
#[derive(Default)]
struct DefBuilder<'tree> {
    node: Option<Node<'tree>>,
    /// The kind and the index of the pattern that set it.
    kind: Option<(usize, DefKind)>,
    is_test_block: bool,
    /// The name and the index of the pattern that set it.
    name: Option<(usize, Node<'tree>)>,
    /// The name was captured as `@name.module`: the definition is named after its module.
    named_after_module: bool,
    body: Option<Node<'tree>>,
    signature_end: Option<Node<'tree>>,
    container: Option<Node<'tree>>,
    /// The node the definition spans when it is larger than the definition's own node (a
    /// name inside a chained assignment spans the whole chain).
    extent: Option<Node<'tree>>,
    /// The bare name of the returned type and the index of the pattern that set it.
    returns: Option<(usize, Box<str>)>,
    /// The bare names of the extended types, in the order met.
    bases: Vec<Box<str>>,
    doc: Option<Node<'tree>>,
    exported: bool,
    test: bool,
    test_always: bool,
}

struct RefBuilder {
    range: TextRange,
    call: bool,
    receiver: Option<TextRange>,
    /// The receiver's builtin type, with the pattern that gave it.
    receiver_type: Option<(usize, u8)>,
}

/// What the matches of one bound name collected; the type set by the first pattern in the
/// query wins, as for definitions.
struct BindingBuilder {
    name: TextRange,
    member: bool,
    call: bool,
    type_name: Option<(usize, Box<str>)>,
    held: Option<Box<str>>,
    qualifier: Option<Box<str>>,
}

/// Extracts definitions, imports, references and issues from a parsed file.
pub fn extract(lang: Language, tree: &Tree, text: &str, is_test_file: bool) -> FileSyntax {
    let config = lang.config();
    let root = tree.root_node();
    if let Some(starts) = swallowing_error(config, root, text) {
        return extract_by_statements(lang, text, is_test_file, &starts);
    }
    let extracted = extract_range(config, root, text, is_test_file, None);
    FileSyntax {
        defs: extracted.defs,
        imports: extracted.imports,
        refs: extracted.refs,
        bindings: extracted.bindings,
        issues: issues(root),
        read_by_statements: false,
    }
}

/// Where top-level statements may start: byte offsets of the lines that begin at column 0
/// with a word (`export`, `def`, `func`, `pub`, a name), each moved up over the comment,
/// attribute and decorator lines right above it, which belong to it. The first is 0. In
/// every language indexed here, such a line starts a statement unless it sits inside a
/// string or a bracket that some line above left open, or opens with one of the language's
/// `continuation_words` (Python's top-level `else:`, `elif`, `except`, `finally:`).
pub(super) fn statement_starts(text: &str, continuation_words: &[&str]) -> Vec<usize> {
    let mut starts = vec![0];
    // The start of the run of comment or attribute lines just above the current line.
    let mut prefix_start: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let first = line.as_bytes().first().copied().unwrap_or(b'\n');
        let is_prefix =
            matches!(first, b'#' | b'@' | b'/') || line.starts_with(" *") || line.starts_with("*/");
        let continues = continuation_words.iter().any(|word| {
            line.strip_prefix(word)
                .is_some_and(|rest| !rest.starts_with(|ch: char| ch.is_alphanumeric() || ch == '_'))
        });
        if continues {
            prefix_start = None;
        } else if first.is_ascii_alphabetic() || first == b'_' || first == b'$' {
            let start = prefix_start.unwrap_or(offset);
            if start > *starts.last().unwrap_or(&0) {
                starts.push(start);
            }
            prefix_start = None;
        } else if is_prefix {
            prefix_start.get_or_insert(offset);
        } else {
            prefix_start = None;
        }
        offset += line.len();
    }
    starts
}

/// The statement starts of the file when the parser could not recover from an error before
/// later statements (an error node runs over the start of a statement after its own line):
/// tree-sitter-typescript 0.23 reads three call signatures in an interface as one error that
/// swallows the rest of the file. `None` when the errors, if any, stay local.
pub(super) fn swallowing_error(
    config: &LanguageConfig,
    root: Node<'_>,
    text: &str,
) -> Option<Vec<usize>> {
    if !root.has_error() {
        return None;
    }
    let starts = statement_starts(text, config.continuation_words);
    let mut swallows = false;
    visit_errors(root, |node| {
        if node.is_error() {
            // The first statement start after the error's own line.
            let line_end = text[node.start_byte()..]
                .find('\n')
                .map_or(text.len(), |at| node.start_byte() + at);
            let next = starts.partition_point(|start| *start <= line_end);
            swallows = starts
                .get(next)
                .is_some_and(|start| *start < node.end_byte());
        }
        if swallows {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    swallows.then_some(starts)
}

/// Extracts a file statement by statement, for a file whose errors swallow later statements
/// (see [`swallowing_error`]). Each piece between two statement starts is parsed alone; runs
/// of pieces that parse cleanly are parsed again together (so a definition keeps the comments
/// above it), and a piece with an error yields what its own parse recovers. The parser reads
/// only a piece's bytes of the whole text, so every offset is the file's.
fn extract_by_statements(
    lang: Language,
    text: &str,
    is_test_file: bool,
    starts: &[usize],
) -> FileSyntax {
    let config = lang.config();
    let lines = LineIndex::new(text);
    // Every few starts when there are very many (a generated file), so that the parses stay
    // few.
    let starts: Vec<usize> = starts
        .iter()
        .copied()
        .step_by(starts.len().div_ceil(MAX_PIECES))
        .collect();
    let pieces: Vec<Range<usize>> = starts
        .iter()
        .enumerate()
        .map(|(idx, start)| *start..starts.get(idx + 1).copied().unwrap_or(text.len()))
        .collect();
    // Runs of clean pieces, and broken pieces alone, each with its parse while it is one
    // piece (a run of several is parsed again as a whole).
    let mut groups: Vec<(Range<usize>, bool, Option<Tree>)> = Vec::new();
    for piece in pieces {
        let tree = super::parse_range(lang, text, &lines, piece.clone());
        let clean = !tree.root_node().has_error();
        match groups.last_mut() {
            Some((group, true, group_tree)) if clean => {
                group.end = piece.end;
                *group_tree = None;
            }
            _ => groups.push((piece, clean, Some(tree))),
        }
    }
    let mut syntax = FileSyntax {
        read_by_statements: true,
        ..FileSyntax::default()
    };
    for (group, _, tree) in groups {
        let tree = tree.unwrap_or_else(|| super::parse_range(lang, text, &lines, group));
        let root = tree.root_node();
        let piece = extract_range(config, root, text, is_test_file, None);
        let base = syntax.defs.len() as u32;
        syntax.defs.extend(piece.defs.into_iter().map(|mut def| {
            def.parent = def.parent.map(|parent| parent + base);
            def
        }));
        syntax.refs.extend(piece.refs);
        syntax.imports.extend(piece.imports);
        syntax.bindings.extend(piece.bindings);
        if syntax.issues.len() < MAX_ISSUES {
            syntax.issues.extend(issues(root));
            syntax.issues.truncate(MAX_ISSUES);
        }
    }
    syntax
}

fn issues(root: Node<'_>) -> Vec<SyntaxIssue> {
    if root.has_error() {
        collect_issues(root)
    } else {
        Vec::new()
    }
}

/// What changed since a [`FileSyntax`] was extracted: the text's length then, and the range
/// of the current text outside of which the text is unchanged (the bytes before
/// `edited.start` are the same, and so are the `text.len() - edited.end` last bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextChange {
    pub old_len: usize,
    pub edited: Range<usize>,
}

/// Extracts a file after an incremental reparse, re-running the query only over the top-level
/// items around what changed and keeping (shifted) everything else from `previous`.
///
/// `old_tree` is the tree `previous` was extracted from, `edit`ed to match the new text, and
/// `new_tree` the tree parsed from `text` with it. The result equals
/// `extract(lang, new_tree, text, is_test_file)` (a property test checks it).
pub fn extract_incremental(
    lang: Language,
    old_tree: &Tree,
    new_tree: &Tree,
    text: &str,
    is_test_file: bool,
    previous: FileSyntax,
    change: &TextChange,
) -> FileSyntax {
    let config = lang.config();
    let root = new_tree.root_node();
    // A file read statement by statement before or after is extracted whole.
    if previous.read_by_statements || swallowing_error(config, root, text).is_some() {
        return extract(lang, new_tree, text, is_test_file);
    }
    let Some(region) = reextracted_region(config, old_tree, new_tree, text.len(), change) else {
        return extract(lang, new_tree, text, is_test_file);
    };
    let delta = text.len() as i64 - change.old_len as i64;
    let old_region = region.start..(region.end as i64 - delta) as usize;
    let Extracted {
        defs: region_defs,
        refs: region_refs,
        imports: region_imports,
        bindings: region_bindings,
    } = extract_range(config, root, text, is_test_file, Some(region.clone()));
    let shift = |range: TextRange| {
        TextRange::new(
            (range.start as i64 + delta) as usize,
            (range.end as i64 + delta) as usize,
        )
    };
    let FileSyntax {
        defs: old_defs,
        imports: old_imports,
        refs: old_refs,
        bindings: old_bindings,
        issues: _,
        read_by_statements: _,
    } = previous;

    // Definitions: before the region, in it, after it (a definition and its parent are in
    // the same top-level item, so parents never cross the region's bounds).
    let n_before = old_defs
        .iter()
        .take_while(|def| (def.name_range.start as usize) < old_region.start)
        .count();
    let n_old_region = old_defs[n_before..]
        .iter()
        .take_while(|def| (def.name_range.start as usize) < old_region.end)
        .count();
    let idx_shift = region_defs.len() as i64 - n_old_region as i64;
    let mut defs = Vec::with_capacity(old_defs.len() + region_defs.len() - n_old_region);
    let mut old_defs = old_defs.into_iter();
    defs.extend(old_defs.by_ref().take(n_before));
    defs.extend(region_defs.into_iter().map(|mut def| {
        def.parent = def.parent.map(|parent| parent + n_before as u32);
        def
    }));
    defs.extend(old_defs.skip(n_old_region).map(|mut def| {
        def.range = shift(def.range);
        def.name_range = shift(def.name_range);
        def.parent = def.parent.map(|parent| (parent as i64 + idx_shift) as u32);
        def
    }));

    let refs = splice(
        old_refs,
        region_refs,
        &old_region,
        |reference| reference.range,
        |reference| {
            reference.range = shift(reference.range);
            reference.receiver = reference.receiver.map(shift);
        },
    );
    let bindings = splice(
        old_bindings,
        region_bindings,
        &old_region,
        |binding| binding.name,
        |binding| binding.name = shift(binding.name),
    );
    let imports = splice(
        old_imports,
        region_imports,
        &old_region,
        |import| import.range,
        |import| import.range = shift(import.range),
    );

    FileSyntax {
        defs,
        imports,
        refs,
        bindings,
        issues: issues(root),
        read_by_statements: false,
    }
}

/// Items sorted by start after an edit: `old`'s before the re-extracted region, the region's
/// own, then `old`'s after it, moved by `shift` (those that started in the region are gone).
fn splice<T>(
    old: Vec<T>,
    region: Vec<T>,
    old_region: &Range<usize>,
    range: impl Fn(&T) -> TextRange,
    shift: impl Fn(&mut T),
) -> Vec<T> {
    let mut spliced = Vec::with_capacity(old.len() + region.len());
    let mut after = Vec::new();
    for mut item in old {
        let start = range(&item).start as usize;
        if start < old_region.start {
            spliced.push(item);
        } else if !old_region.contains(&start) {
            shift(&mut item);
            after.push(item);
        }
    }
    spliced.extend(region);
    spliced.extend(after);
    spliced
}

/// The byte range (in the new text) of the top-level items to extract again, or `None` when a
/// full extraction is as cheap or the trees do not allow a partial one.
fn reextracted_region(
    config: &LanguageConfig,
    old_tree: &Tree,
    new_tree: &Tree,
    text_len: usize,
    change: &TextChange,
) -> Option<Range<usize>> {
    let old_root = old_tree.root_node();
    let root = new_tree.root_node();
    if old_root.kind_id() != root.kind_id() || change.edited.end > text_len {
        return None;
    }
    let (mut start, mut end) = (change.edited.start, change.edited.end);
    for range in old_tree.changed_ranges(new_tree) {
        start = start.min(range.start_byte);
        end = end.max(range.end_byte);
    }
    let mut cursor = root.walk();
    let children: Vec<Node<'_>> = root.children(&mut cursor).collect();
    if children.is_empty() {
        return None;
    }
    // The items touching the changed span, plus one neighbour on each side (an edit between
    // two items can change how either reads its surroundings).
    let mut first = children
        .iter()
        .position(|child| child.end_byte() >= start)
        .unwrap_or(children.len() - 1)
        .saturating_sub(1);
    let mut last = children
        .iter()
        .rposition(|child| child.start_byte() <= end)
        .unwrap_or(0)
        .max(first);
    last = (last + 1).min(children.len() - 1);
    // Comments and attributes belong to the item after them (its range, doc and test flag),
    // and patterns may match them together with it.
    let is_trivia = |node: &Node<'_>| {
        config.comment_kinds.contains(&node.kind())
            || matches!(node.kind(), "attribute_item" | "decorator")
    };
    // Top-level statements merge into runs (see `with_statements`) that an edit may join,
    // split or cut differently up to the ends of their sequence: the region also covers the
    // statements on either side and what may stand between two of them in a run (comments,
    // anonymous nodes such as a `;`), so that no run crosses its bounds, before the edit or
    // after it.
    let joins_a_run = |node: &Node<'_>| {
        !config.statement_kinds.is_empty()
            && (!node.is_named()
                || config.statement_kinds.contains(&node.kind())
                || config.comment_kinds.contains(&node.kind()))
    };
    while first > 0 && (is_trivia(&children[first - 1]) || joins_a_run(&children[first - 1])) {
        first -= 1;
    }
    while last + 1 < children.len()
        && (is_trivia(&children[last]) || joins_a_run(&children[last + 1]))
    {
        last += 1;
    }
    let region = children[first].start_byte()..children[last].end_byte();
    // Leading text (before the first item) and trailing text are outside every item.
    let region = if first == 0 { 0 } else { region.start }..if last + 1 == children.len() {
        text_len
    } else {
        region.end
    };
    if region.end <= region.start || (region.end - region.start) * 2 > text_len {
        return None;
    }
    Some(region)
}

/// What the matches of one run of the query collected, by the id of each item's main node.
#[derive(Default)]
struct Builders<'tree> {
    defs: FxHashMap<usize, DefBuilder<'tree>>,
    refs: FxHashMap<usize, RefBuilder>,
    imports: FxHashMap<usize, ImportBuilder<'tree>>,
    bindings: FxHashMap<usize, BindingBuilder>,
}

/// What one run of the query yields.
struct Extracted {
    defs: Vec<Def>,
    refs: Vec<Ref>,
    imports: Vec<Import>,
    bindings: Vec<Binding>,
}

/// Runs the query over the whole tree, or over the matches whose main node starts in `range`.
fn extract_range(
    config: &LanguageConfig,
    root: Node<'_>,
    text: &str,
    is_test_file: bool,
    range: Option<Range<usize>>,
) -> Extracted {
    let mut builders = Builders::default();

    CURSOR.with(|cursor| {
        let mut cursor = cursor.borrow_mut();
        cursor.set_byte_range(range.clone().unwrap_or(0..usize::MAX));
        let mut matches = cursor.matches(&config.query, root, text.as_bytes());
        while let Some(query_match) = matches.next() {
            collect_match(config, query_match, text, range.as_ref(), &mut builders);
        }
    });

    let Builders {
        defs,
        refs,
        imports,
        bindings,
    } = builders;
    let defs = assemble_defs(config, defs, text, is_test_file);
    let refs = assemble_refs(refs, &defs);
    let mut imports: Vec<_> = imports
        .into_values()
        .flat_map(ImportBuilder::finish)
        .collect();
    imports.sort_by(|a, b| (a.range, &a.source).cmp(&(b.range, &b.source)));
    let mut bindings: Vec<Binding> = bindings
        .into_values()
        .filter_map(|builder| {
            let (_, type_name) = builder.type_name?;
            Some(Binding {
                name: builder.name,
                type_name,
                member: builder.member,
                call: builder.call,
                held: builder.held,
                qualifier: builder.qualifier,
            })
        })
        .collect();
    bindings.sort_unstable_by_key(|binding| binding.name);
    let (defs, refs, imports) = with_statements(
        config,
        root,
        range.as_ref(),
        (defs, refs, imports),
        text,
        is_test_file,
    );
    Extracted {
        defs,
        refs,
        imports,
        bindings,
    }
}

/// Adjacent top-level statements make one definition while it spans fewer lines than this
/// (a longer statement is one definition alone): a script is found and shown in parts.
const MAX_STATEMENTS_LINES: usize = 60;

/// The name of every `statements` definition (see [`DefKind::Statements`]).
pub const STATEMENTS_NAME: &str = "(top-level code)";

/// Adds the runs of adjacent top-level statements (in `range`) that run code to the
/// extracted definitions, as `statements` definitions in start order. A statement holding a
/// definition or an import, or no reference (a docstring, `"use strict"`), is not code a task
/// is about and ends a run.
fn with_statements(
    config: &LanguageConfig,
    root: Node<'_>,
    range: Option<&Range<usize>>,
    (defs, refs, imports): (Vec<Def>, Vec<Ref>, Vec<Import>),
    text: &str,
    is_test_file: bool,
) -> (Vec<Def>, Vec<Ref>, Vec<Import>) {
    if config.statement_kinds.is_empty() {
        return (defs, refs, imports);
    }
    // The top-level statements (in `range`), each with its place among the top-level nodes
    // that are not comments: two statements are adjacent when their places follow each
    // other.
    let mut cursor = root.walk();
    let statements: Vec<(u32, Node<'_>)> = root
        .named_children(&mut cursor)
        .filter(|child| !config.comment_kinds.contains(&child.kind()))
        .enumerate()
        .filter(|(_, child)| config.statement_kinds.contains(&child.kind()))
        .filter(|(_, child)| range.is_none_or(|range| range.contains(&child.start_byte())))
        .map(|(place, child)| (place as u32, child))
        .collect();
    if statements.is_empty() {
        return (defs, refs, imports);
    }
    // A definition or import inside a top-level statement starts inside it (its name, for a
    // definition): sorted starts answer in a binary search.
    let mut starts: Vec<u32> = defs
        .iter()
        .map(|def| def.name_range.start)
        .chain(imports.iter().map(|import| import.range.start))
        .collect();
    starts.sort_unstable();
    let holds = |range: TextRange| {
        let first = starts.partition_point(|start| *start < range.start);
        starts.get(first).is_some_and(|start| *start < range.end)
    };
    let runs_code = |(_, node): &(u32, Node<'_>)| {
        let range = node_range(*node);
        refs_within(&refs, range).next().is_some() && !holds(range)
    };
    // (first, last, last's place)
    let mut runs: Vec<(Node<'_>, Node<'_>, u32)> = Vec::new();
    for (place, node) in statements.into_iter().filter(runs_code) {
        match runs.last_mut() {
            Some((first, last, last_place))
                if place == *last_place + 1
                    && node.end_position().row - first.start_position().row
                        < MAX_STATEMENTS_LINES =>
            {
                *last = node;
                *last_place = place;
            }
            _ => runs.push((node, node, place)),
        }
    }
    if runs.is_empty() {
        return (defs, refs, imports);
    }
    let blocks: Vec<Def> = runs
        .into_iter()
        .map(|(first, last, _)| {
            let range = TextRange::new(first.start_byte(), last.end_byte());
            let first_line = text[first.byte_range()].lines().next().unwrap_or("").trim();
            Def {
                name: STATEMENTS_NAME.into(),
                kind: DefKind::Statements,
                range,
                name_range: TextRange::new(first.start_byte(), first.start_byte()),
                parent: None,
                signature: first_line.into(),
                doc: None,
                exported: false,
                test: is_test_file,
                container: None,
                returns: None,
                bases: Box::default(),
                named_after_module: false,
            }
        })
        .collect();
    // Merged in start order; a statement holds no definition, so no parent moves but by the
    // blocks before it.
    let mut merged: Vec<Def> = Vec::with_capacity(defs.len() + blocks.len());
    let mut new_index: Vec<u32> = Vec::with_capacity(defs.len());
    let mut blocks = blocks.into_iter().peekable();
    for def in defs {
        while let Some(block) = blocks.next_if(|block| block.range.start <= def.range.start) {
            merged.push(block);
        }
        new_index.push(merged.len() as u32);
        merged.push(def);
    }
    merged.extend(blocks);
    for def in &mut merged {
        def.parent = def.parent.map(|parent| new_index[parent as usize]);
    }
    (merged, refs, imports)
}

fn collect_match<'tree>(
    config: &LanguageConfig,
    query_match: &tree_sitter::QueryMatch<'_, 'tree>,
    text: &str,
    range: Option<&Range<usize>>,
    builders: &mut Builders<'tree>,
) {
    // The primary capture decides what the match is about.
    let mut primary: Option<(CaptureRole, Node<'tree>)> = None;
    let mut name = None;
    let mut name_is_module = false;
    for capture in query_match.captures() {
        let role = config.roles[capture.index as usize];
        match role {
            CaptureRole::Definition(_)
            | CaptureRole::DefinitionTest
            | CaptureRole::Reference { .. }
            | CaptureRole::Import
            | CaptureRole::Binding { .. }
                if primary.is_none() =>
            {
                primary = Some((role, capture.node));
            }
            CaptureRole::Name | CaptureRole::NameModule if name.is_none() => {
                name = Some(capture.node);
                name_is_module = role == CaptureRole::NameModule;
            }
            _ => {}
        }
    }
    let Some((primary_role, primary_node)) = primary else {
        return;
    };
    let home = match primary_role {
        CaptureRole::Reference { .. } | CaptureRole::Binding { .. } => name.unwrap_or(primary_node),
        _ => primary_node,
    };
    if range.is_some_and(|range| !range.contains(&home.start_byte())) {
        return;
    }
    let found = Found {
        config,
        query_match,
        text,
        name,
        name_is_module,
    };
    match primary_role {
        CaptureRole::Definition(_) | CaptureRole::DefinitionTest => {
            found.definition(primary_role, primary_node, &mut builders.defs);
        }
        CaptureRole::Reference { call } => {
            found.reference(call, primary_node, &mut builders.refs);
        }
        CaptureRole::Import => {
            let builder = builders
                .imports
                .entry(primary_node.id())
                .or_insert_with(|| ImportBuilder::new(primary_node));
            builder.add_match(config, query_match, text);
        }
        CaptureRole::Binding { member } => found.binding(member, &mut builders.bindings),
        _ => {}
    }
}

/// A query match whose primary capture is known, with its `@name` (or `@name.module`)
/// capture if any.
struct Found<'m, 'q, 'tree> {
    config: &'m LanguageConfig,
    query_match: &'m tree_sitter::QueryMatch<'q, 'tree>,
    text: &'m str,
    name: Option<Node<'tree>>,
    /// The name is a `@name.module` capture.
    name_is_module: bool,
}

impl<'tree> Found<'_, '_, 'tree> {
    fn role(&self, capture: &tree_sitter::QueryCapture<'tree>) -> CaptureRole {
        self.config.roles[capture.index as usize]
    }

    /// A match earlier in the query file takes precedence over later ones for the same node.
    fn takes_precedence(&self, set: Option<usize>) -> bool {
        set.is_none_or(|set| self.query_match.pattern_index < set)
    }

    /// What the match says of a definition: its kind, name, body, signature, container,
    /// return type, doc, and whether it is exported or a test.
    fn definition(
        &self,
        role: CaptureRole,
        node: Node<'tree>,
        defs: &mut FxHashMap<usize, DefBuilder<'tree>>,
    ) {
        let pattern = self.query_match.pattern_index;
        if is_inside_excluded(self.config, pattern, node) {
            return;
        }
        let builder = defs.entry(node.id()).or_default();
        builder.node = Some(node);
        match role {
            CaptureRole::Definition(kind) => {
                if self.takes_precedence(builder.kind.map(|(set, _)| set)) {
                    builder.kind = Some((pattern, kind));
                }
            }
            _ => {
                builder.is_test_block = true;
                builder.kind.get_or_insert((usize::MAX, DefKind::Function));
            }
        }
        if let Some(name) = self.name {
            if self.takes_precedence(builder.name.map(|(set, _)| set)) {
                builder.name = Some((pattern, name));
                builder.named_after_module = self.name_is_module;
            }
        }
        for capture in self.query_match.captures() {
            match self.role(capture) {
                CaptureRole::Body => builder.body = Some(capture.node),
                CaptureRole::Signature => builder.signature_end = Some(capture.node),
                CaptureRole::Container => builder.container = Some(capture.node),
                CaptureRole::Extent => builder.extent = Some(capture.node),
                CaptureRole::Base => {
                    let base = binding_type_name(&self.text[capture.node.byte_range()]);
                    if !base.is_empty() && !builder.bases.iter().any(|known| &**known == base) {
                        builder.bases.push(base.into());
                    }
                }
                CaptureRole::Type => {
                    let returns = binding_type_name(&self.text[capture.node.byte_range()]);
                    if !returns.is_empty()
                        && self.takes_precedence(builder.returns.as_ref().map(|(set, _)| *set))
                    {
                        builder.returns = Some((pattern, returns.into()));
                    }
                }
                CaptureRole::Doc => builder.doc = Some(capture.node),
                CaptureRole::Exported => builder.exported = true,
                CaptureRole::Test => builder.test = true,
                CaptureRole::TestAlways => builder.test_always = true,
                _ => {}
            }
        }
    }

    /// A reference at its name (or the whole capture), a call if any match says so, with
    /// the first receiver a match gives and the type of a literal receiver (the first
    /// pattern's that gives one).
    fn reference(&self, call: bool, node: Node<'tree>, refs: &mut FxHashMap<usize, RefBuilder>) {
        let name_node = self.name.unwrap_or(node);
        let receiver = self
            .query_match
            .captures()
            .iter()
            .find(|capture| self.role(capture) == CaptureRole::Receiver)
            .map(|capture| node_range(capture.node));
        let builder = refs.entry(name_node.id()).or_insert(RefBuilder {
            range: node_range(name_node),
            call: false,
            receiver: None,
            receiver_type: None,
        });
        builder.call |= call;
        if builder.receiver.is_none() {
            builder.receiver = receiver;
        }
        let pattern = self.query_match.pattern_index;
        if let Some(receiver_type) = self.config.receiver_type_by_pattern[pattern] {
            if self.takes_precedence(builder.receiver_type.map(|(set, _)| set)) {
                builder.receiver_type = Some((pattern, receiver_type));
            }
        }
    }

    /// A name bound to a type (`x: Pool`, `x = Pool()`), or to what a call returns, and the
    /// type a container type holds (`Option<Pool>`).
    fn binding(&self, member: bool, bindings: &mut FxHashMap<usize, BindingBuilder>) {
        let typed_by =
            self.query_match
                .captures()
                .iter()
                .find_map(|capture| match self.role(capture) {
                    CaptureRole::Type => Some((capture.node, false)),
                    CaptureRole::Call => Some((capture.node, true)),
                    _ => None,
                });
        let (Some(name_node), Some((type_node, call))) = (self.name, typed_by) else {
            return;
        };
        let type_text = &self.text[type_node.byte_range()];
        let type_name = binding_type_name(type_text);
        if type_name.is_empty() {
            return;
        }
        let qualifier = (!call).then(|| binding_qualifier(type_text)).flatten();
        let held = self
            .query_match
            .captures()
            .iter()
            .find(|capture| self.role(capture) == CaptureRole::TypeHeld)
            .map(|capture| binding_type_name(&self.text[capture.node.byte_range()]))
            .filter(|held| !held.is_empty());
        let builder = bindings.entry(name_node.id()).or_insert(BindingBuilder {
            name: node_range(name_node),
            member,
            call,
            type_name: None,
            held: None,
            qualifier: None,
        });
        if self.takes_precedence(builder.type_name.as_ref().map(|(set, _)| *set)) {
            builder.type_name = Some((self.query_match.pattern_index, type_name.into()));
            builder.member = member;
            builder.call = call;
            builder.held = held.map(Into::into);
            builder.qualifier = qualifier.map(Into::into);
        }
    }
}

/// Whether a pattern's `(#set! definition.outside "kind ...")` excludes the definition: one of
/// its ancestors has one of those node kinds (a JavaScript object handed to a call defines
/// methods at the top of a module, but inside a function it is a value).
fn is_inside_excluded(config: &LanguageConfig, pattern: usize, node: Node<'_>) -> bool {
    let Some(kinds) = config
        .query
        .property_settings(pattern)
        .iter()
        .find(|property| &*property.key == "definition.outside")
        .and_then(|property| property.value.as_deref())
    else {
        return false;
    };
    let mut ancestor = node.parent();
    while let Some(current) = ancestor {
        if kinds.split_whitespace().any(|kind| kind == current.kind()) {
            return true;
        }
        ancestor = current.parent();
    }
    false
}

fn assemble_defs(
    config: &LanguageConfig,
    builders: FxHashMap<usize, DefBuilder<'_>>,
    text: &str,
    is_test_file: bool,
) -> Vec<Def> {
    let mut builders: Vec<DefBuilder<'_>> = builders
        .into_values()
        .filter(|builder| builder.name.is_some() && builder.node.is_some())
        .filter(|builder| !builder.is_test_block || is_test_file)
        .collect();
    /// The node a definition spans: its `@extent` when that holds its node, else its node.
    fn node_of<'tree>(builder: &DefBuilder<'tree>) -> Node<'tree> {
        let node = builder.node.expect("filtered above");
        builder
            .extent
            .filter(|extent| {
                extent.start_byte() <= node.start_byte() && node.end_byte() <= extent.end_byte()
            })
            .unwrap_or(node)
    }
    // Definitions spanning the same node (the names of one chained assignment) come in the
    // order of their names.
    builders.sort_by_key(|builder| {
        let node = node_of(builder);
        let name_start = builder.name.map_or(0, |(_, name)| name.start_byte());
        (
            node.start_byte(),
            std::cmp::Reverse(node.end_byte()),
            name_start,
        )
    });

    let mut defs: Vec<Def> = Vec::with_capacity(builders.len());
    // The definitions enclosing the current one that may contain others (fields, constants
    // and variables never do: in Go `x, y = 1, 2`, `y` is not `x`'s member), as indices into
    // `defs` with the id of the node each spans: definitions spanning the same node are
    // siblings, not one inside the other.
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for mut builder in builders {
        let node = node_of(&builder);
        let (_, name_node) = builder.name.expect("filtered above");
        let def_node_range = node_range(node);
        while let Some(&(top, top_node)) = stack.last() {
            if top_node != node.id() && defs[top as usize].range.contains_range(def_node_range) {
                break;
            }
            stack.pop();
        }
        let parent = stack.last().map(|&(idx, _)| idx);
        let parent_def = parent.map(|idx| &defs[idx as usize]);

        let mut kind = builder.kind.map_or(DefKind::Function, |(_, kind)| kind);
        if kind == DefKind::Function
            && parent_def.is_some_and(|parent| parent.kind.is_type_or_impl())
        {
            kind = DefKind::Method;
        }
        let outer = outermost_wrapper(config, node);
        let (leading_start, comments) = leading_trivia(config, outer, text);
        let doc = match builder.doc {
            Some(doc_node) => doc::docstring_summary(&text[doc_node.byte_range()]),
            None => doc::comment_summary(&comments),
        };
        let name = text[name_node.byte_range()].to_owned();
        let exported = match config.visibility {
            VisibilityRule::UnderscorePrivate => {
                !name.starts_with('_') || (name.starts_with("__") && name.ends_with("__"))
            }
            VisibilityRule::Capitalized => name.chars().next().is_some_and(char::is_uppercase),
            VisibilityRule::Marked => builder.exported || wrapper_is_export(config, node),
        };
        let test = (builder.test && is_test_file)
            || builder.test_always
            || builder.is_test_block
            || parent_def.is_some_and(|parent| parent.test);
        let def = Def {
            name: name.into_boxed_str(),
            kind,
            range: TextRange::new(leading_start, outer.end_byte()),
            name_range: node_range(name_node),
            parent,
            signature: signature(config, node, outer, &builder, text).into_boxed_str(),
            doc: doc.map(String::into_boxed_str),
            exported,
            test,
            container: builder
                .container
                .map(|container| type_name(&text[container.byte_range()]).into()),
            returns: builder.returns.take().map(|(_, name)| name),
            bases: std::mem::take(&mut builder.bases).into_boxed_slice(),
            named_after_module: builder.named_after_module,
        };
        // A pattern may capture the same name twice through different nodes (for example
        // a wrapper and the definition inside it); keep the outer one.
        if defs
            .iter()
            .rev()
            .take(4)
            .any(|other| other.name_range == def.name_range)
        {
            continue;
        }
        if def.kind.can_contain_definitions() {
            stack.push((defs.len() as u32, node.id()));
        }
        defs.push(def);
    }
    defs
}

fn node_range(node: Node<'_>) -> TextRange {
    TextRange::new(node.start_byte(), node.end_byte())
}

/// Climbs from a definition node through wrappers that belong to it (decorators, `export`,
/// Go's `type` keyword), as long as the definition is their only named content.
fn outermost_wrapper<'tree>(config: &LanguageConfig, node: Node<'tree>) -> Node<'tree> {
    let mut outer = node;
    while let Some(parent) = outer.parent() {
        if !config.wrapper_kinds.contains(&parent.kind()) {
            break;
        }
        // A grouped declaration (`const (...)`, `let a = 1, b = 2`) wraps several
        // definitions; its comments are not one definition's. (A cursor, and no counting
        // past two: a generated `const (...)` block holds thousands of specs.)
        let mut cursor = parent.walk();
        let n_defining_children = parent
            .named_children(&mut cursor)
            .filter(|child| !config.comment_kinds.contains(&child.kind()))
            .filter(|child| child.kind() != "decorator")
            .take(2)
            .count();
        if n_defining_children > 1 {
            break;
        }
        outer = parent;
    }
    outer
}

fn wrapper_is_export(config: &LanguageConfig, node: Node<'_>) -> bool {
    let mut current = node;
    while let Some(parent) = current.parent() {
        if !config.wrapper_kinds.contains(&parent.kind()) {
            return false;
        }
        if parent.kind() == "export_statement" {
            return true;
        }
        current = parent;
    }
    false
}

/// The start of the comments and attributes directly above `node` (no blank line between),
/// and the texts of the documentation comments among them, in order.
fn leading_trivia<'text>(
    config: &LanguageConfig,
    node: Node<'_>,
    text: &'text str,
) -> (usize, Vec<&'text str>) {
    let mut start = node.start_byte();
    let mut start_row = node.start_position().row;
    let mut comments = Vec::new();
    let mut sibling = node.prev_sibling();
    while let Some(prev) = sibling {
        let is_comment = config.comment_kinds.contains(&prev.kind());
        let is_attribute = prev.kind() == "attribute_item" || prev.kind() == "decorator";
        if !(is_comment || is_attribute) || prev.end_position().row + 1 < start_row {
            break;
        }
        // A trailing comment on the previous statement's line is not documentation.
        if is_comment {
            let line_start = text[..prev.start_byte()]
                .rfind('\n')
                .map_or(0, |idx| idx + 1);
            if !text[line_start..prev.start_byte()].trim().is_empty() {
                break;
            }
            let comment = &text[prev.byte_range()];
            let is_doc = config.doc_prefixes.is_empty()
                || config
                    .doc_prefixes
                    .iter()
                    .any(|prefix| comment.starts_with(prefix));
            if !is_doc {
                break;
            }
            comments.push(comment);
        }
        start = prev.start_byte();
        start_row = prev.start_position().row;
        sibling = prev.prev_sibling();
    }
    comments.reverse();
    (start, comments)
}

/// The declaration up to its body (or up to its `@signature` node, or its first line), on
/// one line. It starts with the wrappers that belong to the definition (`export`, Go's
/// `type`), after their decorators, attributes and comments. Comments between the header and
/// the body are left out; the body may be nested (the block in `const f = () => {}`).
fn signature(
    config: &LanguageConfig,
    node: Node<'_>,
    outer: Node<'_>,
    builder: &DefBuilder<'_>,
    text: &str,
) -> String {
    let start = signature_start(config, outer);
    let within = |inner: Node<'_>| {
        inner.start_byte() >= node.start_byte() && inner.end_byte() <= node.end_byte()
    };
    let raw = match (builder.body, builder.signature_end) {
        (Some(body), _) if within(body) => {
            let header_end = header_end(config, node, body).max(start);
            &text[start..header_end]
        }
        (_, Some(end)) if within(end) => &text[start..end.end_byte().max(start)],
        _ => {
            let full = &text[start..node.end_byte()];
            full.split('\n').next().unwrap_or(full)
        }
    };
    let raw = raw.trim_end();
    let raw = raw
        .strip_suffix(':')
        .or_else(|| raw.strip_suffix('{'))
        .or_else(|| raw.strip_suffix("=>"))
        .or_else(|| raw.strip_suffix('='))
        .unwrap_or(raw)
        .trim_end();
    let raw = raw.strip_suffix(';').unwrap_or(raw);
    super::one_line(raw, MAX_SIGNATURE_CHARS)
}

/// Where a definition's signature starts: at its outermost wrapper (or itself), skipping
/// leading decorators, attributes and comments (they are not part of the declaration line).
fn signature_start(config: &LanguageConfig, outer: Node<'_>) -> usize {
    let mut cursor = outer.walk();
    let first = outer.children(&mut cursor).find(|child| {
        !config.comment_kinds.contains(&child.kind())
            && !matches!(child.kind(), "decorator" | "attribute_item")
    });
    first.map_or(outer.start_byte(), |child| child.start_byte())
}

/// The end of the last non-comment token of `node` before `body`, descending into the child
/// that contains the body.
fn header_end(config: &LanguageConfig, node: Node<'_>, body: Node<'_>) -> usize {
    let mut end = node.start_byte();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.start_byte() >= body.start_byte() {
            break;
        }
        if child.end_byte() > body.start_byte() {
            // The body is inside this child.
            return end.max(header_end(config, child, body));
        }
        if !config.comment_kinds.contains(&child.kind()) {
            end = child.end_byte();
        }
    }
    end
}

/// The bare name of a type as written in a receiver or `impl`: `*Store` -> `Store`,
/// `List[T]` -> `List`, `&'a mut Foo<T>` -> `Foo`, `&'a dyn Executor` -> `Executor`.
fn type_name(text: &str) -> &str {
    let mut rest = text.trim();
    loop {
        let trimmed = rest.trim_start_matches(['*', '&', '(', ' ', '\t']);
        let trimmed = ["mut ", "dyn ", "impl "]
            .iter()
            .find_map(|keyword| trimmed.strip_prefix(keyword))
            .unwrap_or(trimmed);
        let trimmed = match trimmed.strip_prefix('\'') {
            // A lifetime: `'a Foo`.
            Some(after) => after
                .trim_start_matches(|ch: char| ch.is_alphanumeric() || ch == '_')
                .trim_start(),
            None => trimmed,
        };
        if trimmed.len() == rest.len() {
            break;
        }
        rest = trimmed;
    }
    let end = rest
        .find(['[', '<', '(', ')', ' ', '\t', '\n'])
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The bare name of a binding's type: [`type_name`] of the text without quotes (a Python
/// forward reference), then its last path segment (`pkg.Store`,
/// `crate::a::Store`).
fn binding_type_name(text: &str) -> &str {
    let bare = binding_type_path(text);
    let last = bare.rsplit(['.', ':']).next().unwrap_or(bare);
    if last.chars().all(|ch| ch.is_alphanumeric() || ch == '_') {
        last
    } else {
        ""
    }
}

/// A binding's type as [`type_name`] gives it, path included, from its text without quotes
/// (`&'a dyn Executor`, `&mut impl Write`, a Python forward reference `"Store"`).
fn binding_type_path(text: &str) -> &str {
    type_name(text.trim().trim_matches(['"', '\'']))
}

/// What qualifies a binding's type with a `.` path: `http` for `*http.Request`, `a.b` for
/// `a.b.Store`; none for a bare name or a Rust `::` path.
fn binding_qualifier(text: &str) -> Option<&str> {
    let path = binding_type_path(text);
    if path.contains(':') {
        return None;
    }
    let (qualifier, _) = path.rsplit_once('.')?;
    let is_path = !qualifier.is_empty()
        && qualifier.split('.').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$')
        });
    is_path.then_some(qualifier)
}

fn assemble_refs(builders: FxHashMap<usize, RefBuilder>, defs: &[Def]) -> Vec<Ref> {
    let mut def_names: Vec<TextRange> = defs.iter().map(|def| def.name_range).collect();
    def_names.sort_unstable();
    let mut refs: Vec<Ref> = builders
        .into_values()
        .filter(|builder| !builder.range.is_empty())
        .filter(|builder| def_names.binary_search(&builder.range).is_err())
        .map(|builder| Ref {
            range: builder.range,
            call: builder.call,
            receiver: builder.receiver,
            receiver_type: builder
                .receiver_type
                .map(|(_, receiver_type)| receiver_type),
        })
        .collect();
    refs.sort_unstable_by_key(|reference| reference.range);
    refs
}

fn collect_issues(root: Node<'_>) -> Vec<SyntaxIssue> {
    let mut issues = Vec::new();
    visit_errors(root, |node| {
        let message = if node.is_missing() {
            format!("missing {}", node.kind())
        } else {
            "syntax error".to_owned()
        };
        issues.push(SyntaxIssue {
            range: node_range(node),
            message: message.into_boxed_str(),
        });
        if issues.len() >= MAX_ISSUES {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    issues
}

/// Calls `visit` on the error and missing nodes under `root`, in order, descending only into
/// subtrees that contain an error (and not into error nodes), until it breaks.
fn visit_errors<'tree>(root: Node<'tree>, mut visit: impl FnMut(Node<'tree>) -> ControlFlow<()>) {
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        if (node.is_error() || node.is_missing()) && visit(node).is_break() {
            return;
        }
        if node.has_error() && !node.is_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}
