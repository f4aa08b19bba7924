//! Context items: what can go into a context (a definition card, a definition's code, a
//! call site, a test, a file's imports), at which fidelity, and their rendered bodies.
//!
//! Invariant: a body never cuts a line in half; ranges are bytes and cover exactly the
//! lines shown.

use std::fmt;

use crate::base::{FileId, TextRange};
use crate::index::{DefId, Index};
use crate::languages::DefKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Section {
    Definitions,
    Code,
    Callers,
    Tests,
    Imports,
}

impl Section {
    pub const ALL: [Section; 5] = [
        Section::Definitions,
        Section::Code,
        Section::Callers,
        Section::Tests,
        Section::Imports,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Section::Definitions => "definitions",
            Section::Code => "code",
            Section::Callers => "callers",
            Section::Tests => "tests",
            Section::Imports => "imports",
        }
    }

    pub fn idx(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fidelity {
    Compact,
    Standard,
    Full,
}

impl Fidelity {
    pub fn name(self) -> &'static str {
        match self {
            Fidelity::Compact => "compact",
            Fidelity::Standard => "standard",
            Fidelity::Full => "full",
        }
    }
}

/// One rendering of a candidate at one fidelity.
#[derive(Clone, Debug)]
pub struct Rendering {
    pub fidelity: Fidelity,
    pub range: TextRange,
    /// The content (code or card text), ending with a newline.
    pub body: String,
}

/// Something that may go into the context.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub section: Section,
    pub file: FileId,
    /// The definition it shows, or shows lines of (a long caller); an imports block has none.
    pub def: Option<DefId>,
    pub symbol: Option<String>,
    pub kind: Option<DefKind>,
    pub score: f32,
    pub reasons: Vec<String>,
    /// A ranked definition the task names (see `Ranked::named`), not one found by BM25
    /// alone or through another candidate (its container, callee, caller, file map).
    pub named: bool,
    /// Shows a definition a pasted trace's frame points into: its rendering stays as
    /// focused as the trace put it.
    pub frame: bool,
    /// Extra attribute for callers (`of="connect"`).
    pub of: Option<String>,
    /// Renderings, richest first; assembly takes the richest that fits.
    pub renderings: Vec<Rendering>,
}

/// Whole lines covering `range`: from the start of its first line to the end of its last.
pub fn line_span(index: &Index, file: FileId, range: TextRange) -> TextRange {
    let Some(data) = index.file(file) else {
        return range;
    };
    let (first, last) = data.line_index.lines(range);
    TextRange {
        start: data.line_index.line_start(first),
        end: data.line_index.line_end(last),
    }
}

fn with_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The definitions a definition nests in, innermost first, leaving out a module at the root
/// of its file (a Rust file's own module, not a `mod` block).
fn enclosing<'a>(
    defs: &'a [crate::syntax::Def],
    target: &crate::syntax::Def,
) -> impl Iterator<Item = (u32, &'a crate::syntax::Def)> + 'a {
    std::iter::successors(target.parent, move |idx| defs[*idx as usize].parent)
        .map(move |idx| (idx, &defs[idx as usize]))
        .filter(|(_, def)| def.kind != DefKind::Module || def.parent.is_some())
}

/// The definitions a grouped entry is listed indented under (see [`outline_position`]): those
/// whose code holds `def`, innermost first.
pub fn listed_under(index: &Index, def: DefId) -> Vec<DefId> {
    let (Some(data), Some(def_data)) = (index.file(def.file), index.def(def)) else {
        return Vec::new();
    };
    enclosing(&data.syntax.defs, def_data)
        .map(|(idx, _)| DefId {
            file: def.file,
            idx,
        })
        .collect()
}

/// The qualified display name of a definition (`DatabaseClient.connect`).
pub fn qualified_name(index: &Index, def: DefId) -> String {
    let Some(data) = index.file(def.file) else {
        return String::new();
    };
    let Some(target) = data.syntax.defs.get(def.idx as usize) else {
        return String::new();
    };
    let mut names = vec![target.name.to_string()];
    if let (None, Some(container)) = (target.parent, target.container.as_deref()) {
        names.push(container.to_owned());
    }
    names.extend(enclosing(&data.syntax.defs, target).map(|(_, parent)| parent.name.to_string()));
    names.reverse();
    names.join(".")
}

/// The lines from a definition's start (docs and attributes included) to the end of its
/// name's line: what a card stands for.
fn header_range(index: &Index, def: DefId) -> TextRange {
    let def_data = index.def(def).expect("live def");
    line_span(
        index,
        def.file,
        TextRange {
            start: def_data.range.start,
            end: def_data.name_range.end.max(def_data.range.start),
        },
    )
}

/// Where a definition's card stands in a list of its file's cards: the 1-based line of its
/// name (a card's range may start at docs or attributes) and how deep it nests in
/// definitions other than modules (a method in a class: 1).
pub fn outline_position(index: &Index, def: DefId) -> (u32, usize) {
    let (Some(data), Some(def_data)) = (index.file(def.file), index.def(def)) else {
        return (0, 0);
    };
    let line = data.line_index.line_col(def_data.name_range.start).line + 1;
    (line, enclosing(&data.syntax.defs, def_data).count())
}

/// A compact card: kind, signature and the doc's first sentence.
pub fn compact(index: &Index, def: DefId) -> Rendering {
    compact_with(index, def, true)
}

/// A compact card, with or without the doc's first sentence.
pub fn compact_with(index: &Index, def: DefId, with_doc: bool) -> Rendering {
    let def_data = index.def(def).expect("live def");
    let mut body = def_data.signature.to_string();
    if let Some(doc) = def_data.doc.as_ref().filter(|_| with_doc) {
        body.push_str("\n  ");
        body.push_str(doc);
    }
    Rendering {
        fidelity: Fidelity::Compact,
        range: header_range(index, def),
        body: with_newline(body),
    }
}

/// The members a standard card lists at most.
pub const MAX_MEMBERS: usize = 30;

/// A standard card: the compact card plus the signatures of the definition's members, each
/// after its name's 1-based line number (`  57: def connect(self)`).
pub fn standard(index: &Index, def: DefId, max_members: usize) -> Option<Rendering> {
    standard_except(index, def, max_members, |_| false)
}

/// [`standard`] without the members `shown` says the answer shows whole (their signatures
/// are in their code); `None` when no member is left.
pub fn standard_except(
    index: &Index,
    def: DefId,
    max_members: usize,
    shown: impl Fn(DefId) -> bool,
) -> Option<Rendering> {
    let data = index.file(def.file)?;
    let mut rendering = compact(index, def);
    // A run of functions of one name (`@overload` stubs, TypeScript overload signatures, a
    // property's getter and setter) is one member: its first signature, with how many more
    // follow.
    let mut members: Vec<(&crate::syntax::Def, usize)> = Vec::new();
    for member in index
        .members(def)
        .filter(|member| !shown(*member))
        .filter_map(|member| index.def(member))
    {
        match members.last_mut() {
            Some((first, more)) if first.name == member.name && member.kind.is_callable() => {
                *more += 1;
            }
            _ => members.push((member, 0)),
        }
    }
    if members.is_empty() {
        return None;
    }
    for (member, more) in members.iter().take(max_members) {
        let line = data.line_index.line_col(member.name_range.start).line + 1;
        let more = match more {
            0 => String::new(),
            n => format!(" (+{n} of this name)"),
        };
        rendering
            .body
            .push_str(&format!("  {line}: {}{more}\n", member.signature));
    }
    if members.len() > max_members {
        rendering.body.push_str(&format!(
            "  … {} more members\n",
            members.len() - max_members
        ));
    }
    rendering.fidelity = Fidelity::Standard;
    Some(rendering)
}

/// The definition's code, whole lines.
pub fn full(index: &Index, def: DefId) -> Rendering {
    let def_data = index.def(def).expect("live def");
    let range = line_span(index, def.file, def_data.range);
    Rendering {
        fidelity: Fidelity::Full,
        range,
        body: with_newline(index.text(def.file, range).to_owned()),
    }
}

/// For a rendering showing part of its definition's code (a window of a long function, the
/// lines around a call or a trace's frame), the whole definition's lines; `None` for one
/// showing all of it, a card, or lines of no definition.
pub fn part_of(index: &Index, def: Option<DefId>, rendering: &Rendering) -> Option<TextRange> {
    if rendering.fidelity != Fidelity::Full {
        return None;
    }
    let def = def?;
    let whole = line_span(index, def.file, index.def(def)?.range);
    let shown = line_span(index, def.file, rendering.range);
    (whole != shown && whole.contains_range(shown)).then_some(whole)
}

/// Lines `first..=last` (0-based) of a file.
pub fn lines(index: &Index, file: FileId, first: u32, last: u32) -> Rendering {
    let data = index.file(file).expect("live file");
    let range = TextRange {
        start: data.line_index.line_start(first),
        end: data.line_index.line_end(last),
    };
    Rendering {
        fidelity: Fidelity::Full,
        range,
        body: with_newline(index.text(file, range).to_owned()),
    }
}

/// How many lines a definition spans.
pub(super) fn def_lines(index: &Index, def: DefId) -> u32 {
    let (Some(data), Some(def_data)) = (index.file(def.file), index.def(def)) else {
        return 0;
    };
    data.line_index.line_col(def_data.range.end).line
        - data.line_index.line_col(def_data.range.start).line
        + 1
}
