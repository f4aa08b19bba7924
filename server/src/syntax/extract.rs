//! Runs a language's query over a syntax tree and assembles definitions, references and
//! imports from the captures.
//!
//! Invariant: every language rule comes from the query or the language's config; this file
//! only knows the capture vocabulary.

use std::cell::RefCell;

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, QueryCursor, Tree};

use super::{doc, imports::ImportBuilder, Def, FileSyntax, Ref, SyntaxIssue};
use crate::base::{FxHashMap, TextRange};
use crate::languages::{CaptureRole, DefKind, Language, LanguageConfig, VisibilityRule};

const MAX_SIGNATURE_CHARS: usize = 240;
const MAX_ISSUES: usize = 20;

thread_local! {
    static CURSOR: RefCell<QueryCursor> = RefCell::new(QueryCursor::new());
}

#[derive(Default)]
struct DefBuilder<'tree> {
    node: Option<Node<'tree>>,
    kind: Option<DefKind>,
    is_test_block: bool,
    name: Option<Node<'tree>>,
    body: Option<Node<'tree>>,
    doc: Option<Node<'tree>>,
    exported: bool,
    test: bool,
    test_always: bool,
}

struct RefBuilder {
    range: TextRange,
    call: bool,
    receiver: Option<TextRange>,
}

/// Extracts definitions, imports, references and issues from a parsed file.
pub fn extract(lang: Language, tree: &Tree, text: &str, is_test_file: bool) -> FileSyntax {
    let config = lang.config();
    let root = tree.root_node();
    let mut defs: FxHashMap<usize, DefBuilder<'_>> = FxHashMap::default();
    let mut refs: FxHashMap<usize, RefBuilder> = FxHashMap::default();
    let mut imports: FxHashMap<usize, ImportBuilder<'_>> = FxHashMap::default();

    CURSOR.with(|cursor| {
        let mut cursor = cursor.borrow_mut();
        let mut matches = cursor.matches(&config.query, root, text.as_bytes());
        while let Some(query_match) = matches.next() {
            collect_match(
                config,
                query_match,
                text,
                &mut defs,
                &mut refs,
                &mut imports,
            );
        }
    });

    let defs = assemble_defs(config, defs, text, is_test_file);
    let refs = assemble_refs(refs, &defs);
    let mut imports: Vec<_> = imports
        .into_values()
        .flat_map(|builder| builder.finish(text))
        .collect();
    imports.sort_by(|a, b| (a.range, &a.source).cmp(&(b.range, &b.source)));
    let issues = if root.has_error() {
        collect_issues(root)
    } else {
        Vec::new()
    };
    FileSyntax {
        defs,
        imports,
        refs,
        issues,
    }
}

fn collect_match<'tree>(
    config: &LanguageConfig,
    query_match: &tree_sitter::QueryMatch<'_, 'tree>,
    text: &str,
    defs: &mut FxHashMap<usize, DefBuilder<'tree>>,
    refs: &mut FxHashMap<usize, RefBuilder>,
    imports: &mut FxHashMap<usize, ImportBuilder<'tree>>,
) {
    // The primary capture decides what the match is about.
    let mut primary: Option<(CaptureRole, Node<'tree>)> = None;
    let mut name = None;
    for capture in query_match.captures() {
        let role = config.roles[capture.index as usize];
        match role {
            CaptureRole::Definition(_)
            | CaptureRole::DefinitionTest
            | CaptureRole::Reference { .. }
            | CaptureRole::Import
                if primary.is_none() =>
            {
                primary = Some((role, capture.node));
            }
            CaptureRole::Name if name.is_none() => name = Some(capture.node),
            _ => {}
        }
    }
    let Some((primary_role, primary_node)) = primary else {
        return;
    };
    match primary_role {
        CaptureRole::Definition(_) | CaptureRole::DefinitionTest => {
            let builder = defs.entry(primary_node.id()).or_default();
            builder.node = Some(primary_node);
            match primary_role {
                CaptureRole::Definition(kind) => {
                    if builder.kind.is_none() {
                        builder.kind = Some(kind);
                    }
                }
                _ => {
                    builder.is_test_block = true;
                    builder.kind.get_or_insert(DefKind::Function);
                }
            }
            if builder.name.is_none() {
                builder.name = name;
            }
            for capture in query_match.captures() {
                match config.roles[capture.index as usize] {
                    CaptureRole::Body => builder.body = Some(capture.node),
                    CaptureRole::Doc => builder.doc = Some(capture.node),
                    CaptureRole::Exported => builder.exported = true,
                    CaptureRole::Test => builder.test = true,
                    CaptureRole::TestAlways => builder.test_always = true,
                    _ => {}
                }
            }
        }
        CaptureRole::Reference { call } => {
            let name_node = name.unwrap_or(primary_node);
            let receiver = query_match
                .captures()
                .iter()
                .find(|capture| config.roles[capture.index as usize] == CaptureRole::Receiver)
                .map(|capture| node_range(capture.node));
            let builder = refs.entry(name_node.id()).or_insert(RefBuilder {
                range: node_range(name_node),
                call: false,
                receiver: None,
            });
            builder.call |= call;
            if builder.receiver.is_none() {
                builder.receiver = receiver;
            }
        }
        CaptureRole::Import => {
            let builder = imports
                .entry(primary_node.id())
                .or_insert_with(|| ImportBuilder::new(primary_node));
            builder.add_match(config, query_match, text);
        }
        _ => {}
    }
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
    fn node_of<'tree>(builder: &DefBuilder<'tree>) -> Node<'tree> {
        builder.node.expect("filtered above")
    }
    builders.sort_by_key(|builder| {
        let node = node_of(builder);
        (node.start_byte(), std::cmp::Reverse(node.end_byte()))
    });

    let mut defs: Vec<Def> = Vec::with_capacity(builders.len());
    // Indices (into `defs`) of the definitions enclosing the current one.
    let mut stack: Vec<u32> = Vec::new();
    for builder in &builders {
        let node = node_of(builder);
        let name_node = builder.name.expect("filtered above");
        let node_range = node_range(node);
        while let Some(&top) = stack.last() {
            if defs[top as usize].range.contains_range(node_range) {
                break;
            }
            stack.pop();
        }
        let parent = stack.last().copied();
        let parent_def = parent.map(|idx| &defs[idx as usize]);

        let mut kind = builder.kind.unwrap_or(DefKind::Function);
        if kind == DefKind::Function
            && parent_def
                .is_some_and(|parent| parent.kind.is_type() || parent.kind == DefKind::Impl)
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
            name_range: node_range_of(name_node),
            parent,
            signature: signature(config, node, builder.body, text).into_boxed_str(),
            doc: doc.map(String::into_boxed_str),
            exported,
            test,
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
        stack.push(defs.len() as u32);
        defs.push(def);
    }
    defs
}

fn node_range_of(node: Node<'_>) -> TextRange {
    node_range(node)
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
        // definitions; its comments are not one definition's.
        let n_defining_children = (0..parent.named_child_count())
            .filter_map(|idx| parent.named_child(idx as u32))
            .filter(|child| !config.comment_kinds.contains(&child.kind()))
            .filter(|child| child.kind() != "decorator")
            .count();
        if n_defining_children > 2 {
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

/// The declaration up to its body (or its first line when it has none), on one line.
/// Comments between the header and the body are left out.
fn signature(
    config: &LanguageConfig,
    node: Node<'_>,
    body: Option<Node<'_>>,
    text: &str,
) -> String {
    let start = node.start_byte();
    let raw = match body {
        Some(body) if body.start_byte() >= start => {
            let mut header_end = start;
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                if child.start_byte() >= body.start_byte() {
                    break;
                }
                if !config.comment_kinds.contains(&child.kind()) {
                    header_end = child.end_byte();
                }
            }
            &text[start..header_end]
        }
        _ => {
            let full = &text[node.byte_range()];
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
        })
        .collect();
    refs.sort_unstable_by_key(|reference| reference.range);
    refs
}

fn collect_issues(root: Node<'_>) -> Vec<SyntaxIssue> {
    let mut issues = Vec::new();
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
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
                return issues;
            }
        }
        // Descend only into subtrees that contain an error.
        if node.has_error() && !node.is_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                return issues;
            }
        }
    }
}
