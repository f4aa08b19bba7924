//! Expansion of the primary targets into candidates: their code, containers, the
//! definitions they call, their callers, their tests and their files' imports; plus cards
//! for the rest of the ranking and the safety net when nothing resolved.
//!
//! Invariant: only in-repo code; candidates carry scores derived from their target's score
//! and reasons that say how they relate (`caller-of:x`, `test-of:x`, `callee-of:x`).

use super::intent::IntentKind;
use super::items::{
    compact, compact_with, def_lines, full, lines, listed_under, qualified_name, standard,
    Candidate, Fidelity, Rendering, Section, MAX_MEMBERS,
};
use super::rank::{Ranked, Ranking};
use super::text::{for_each_fragment, for_each_word, identifier_terms, is_stop_word};
use crate::base::{tested_stem, FileId, FxHashMap, FxHashSet, TextRange};
use crate::index::{DefId, FilePosition, Index};
use crate::languages::DefKind;

/// Targets scoring below this share of the best are not primary.
const PRIMARY_RATIO: f32 = 0.35;
const MAX_PRIMARY: usize = 6;
/// A pasted trace's innermost frames, up to this many, are primary targets at any score.
const MAX_FRAME_TARGETS: usize = 3;
/// A primary target's container card, and its other members' cards, score this share of
/// the target, the members each a little below the one before.
const CONTAINER_SHARE: f32 = 0.6;
const MEMBER_DECAY: f32 = 0.005;
/// A refactored method's overrides score this share of it (as callers of a refactor do).
const OVERRIDE_SHARE: f32 = 0.55;
/// A ranked member's container card scores this share of the member when the member is not
/// inside its code (a Go method and its receiver type); see `containers_follow_members`.
const CONTAINER_CARD_SHARE: f32 = 0.5;
/// Cards scoring below this share of the best are left out (listed as omitted).
const CARD_RATIO: f32 = 0.12;
/// For a usage question, a function ranked beyond the targets at this share of the best or
/// more comes as code (then a card), not as a card only.
const MECHANISM_RATIO: f32 = 0.6;
const MAX_CARDS: usize = 30;
const MAX_CALLEES: usize = 8;
/// A callee or type a target names counts when it resolves to at most this many definitions.
const MAX_GUESSES: usize = 2;
const CALLEE_SHARE: f32 = 0.45;
/// The types a target names: at most this many, at this share of the target's score.
const MAX_TYPES: usize = 4;
const TYPE_SHARE: f32 = 0.4;
const MAX_CALLERS: usize = 12;
/// A caller's share of its target's score when callers are what the task is about (a usage
/// question, a refactor).
const WANTED_CALLER_WEIGHT: f32 = 0.55;
const MAX_TESTS: usize = 6;
const MAX_FULL_LINES: u32 = 220;
const MAX_CALLER_LINES: u32 = 30;
/// A test of at least this many lines (a compile check naming every handler type) is shown
/// as the lines around its use of the target, as a long caller is: a whole one would cost
/// more than the example of the target's use it is there for.
const MAX_TEST_LINES: u32 = 60;
/// A long caller's lines around a call start at its header when at most this many lines
/// lie between its name and them.
const CALLER_HEADER_GAP: u32 = 6;
/// A trace frame's lines: this many before the frame's line and after it.
const FRAME_LINES_BEFORE: u32 = 12;
const FRAME_LINES_AFTER: u32 = 6;
/// A window of a target's lines starting at most this many lines below its name starts at
/// its header.
const WINDOW_HEADER_GAP: u32 = 8;
/// A function longer than this many lines that cannot be shown whole may show the lines that
/// hold the task's words (see [`focus_window`]), this many of them.
const FOCUS_MIN_LINES: u32 = 40;
const FOCUS_WINDOW_LINES: u32 = 30;
/// A definition this long (two windows) shows what matters in it before its whole: a
/// function the window of its relevant lines, a container its members' signatures.
const LONG_LINES: u32 = 2 * FOCUS_WINDOW_LINES;
/// A function the task names (not a trace's frame, which points at its lines) is long at
/// this many lines: its whole code is what a fix or a test of it needs to read, while it
/// fits.
const LONG_NAMED_LINES: u32 = 150;
/// The card of a target whose window of lines starts below its header scores this share of
/// the target.
const WINDOW_CARD_SHARE: f32 = 0.99;
/// Cards for the rest of the best file's definitions, scored just above the relevance floor
/// (a fifth of the best candidate, see `assemble`), each a little below the one before;
/// then up to [`MAX_FOCUS_OUTLINE_CARDS`] for each other focus file: the 48th still clears
/// it.
const MAX_OUTLINE_CARDS: usize = 40;
const MAX_FOCUS_OUTLINE_CARDS: usize = 8;
const OUTLINE_SCORE: f32 = 0.21;
const OUTLINE_DECAY: f32 = 0.001;
const MAX_CALLER_FILES_SCANNED: usize = 40;
/// A target's name (or its file's stem) this long at least names the tests of it in a path.
const MIN_TEST_NAME_LEN: usize = 4;
/// Files scoring at least this share of the best file are the focus of the answer (below it,
/// a file is seldom one the task changes); usage questions and tests reach further (callers
/// and tests live in other files).
const FOCUS_RATIO: f32 = 0.65;
const FOCUS_RATIO_WIDE: f32 = 0.5;
const MAX_FOCUS_FILES: usize = 3;
/// Candidates from outside the focus files keep this share of their score, unless the
/// task asks for exactly that kind of candidate (callers when exploring usages or changing an
/// interface, tests when writing tests).
const OFF_FOCUS: f32 = 0.25;
/// A renamed name with at most this many definitions has them all renamed (a class's method
/// and the interface declaring it): none is off the focus. More (`get`) are other things.
const MAX_RENAMED_DEFINITIONS: usize = 3;
/// A renamed name written in a type with more definitions than this is not sorted by type.
const MAX_RENAMED_SCAN: usize = 64;

/// What the expansion reads of the task's text (see `QueryAnalysis`).
#[derive(Clone, Copy, Default)]
pub struct TaskText<'a> {
    /// The task's search terms, for the lines of a long target that hold them.
    pub terms: &'a [String],
    /// The fragments of code the task writes (see [`text::for_each_fragment`]), for the
    /// lines of a long target that hold them.
    pub fragments: &'a [String],
    /// The names a rename changes (see `QueryAnalysis::renamed`).
    pub renamed: &'a [String],
    /// The types a rename writes its names in (see `QueryAnalysis::renamed_in`).
    pub renamed_in: &'a [(String, String)],
}

pub struct Expansion {
    pub candidates: Vec<Candidate>,
    /// Set when nothing matched the task and the candidates are the safety net's.
    pub fallback: Option<Fallback>,
    /// Every use of each target whose uses the task is about (see [`CallSites`]).
    pub call_sites: Vec<CallSites>,
}

/// The uses of a target when its uses are what the task is about (a usage question, a
/// refactor or a rename): all of them, in the order callers come, so that the answer can
/// say which of them it does not show. Only some come as code (see [`MAX_CALLERS`],
/// [`MAX_TESTS`]), and the budget may leave out more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSites {
    /// The target's name.
    pub of: String,
    pub sites: Vec<CallSite>,
}

/// A definition using a target, and the first line (0-based) it uses it on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallSite {
    pub caller: DefId,
    pub file: FileId,
    pub line: u32,
}

/// What the safety net shows when nothing matched the task, so that the answer can say so
/// rather than pass the files off as relevant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// The top-level definitions of the best-ranked files: only weak matches ranked them.
    BestFiles,
    /// The top-level definitions of the files nearest the root: nothing ranked any file.
    NearestRoot,
}

/// A candidate for a definition, with its renderings richest first.
fn def_candidate(
    index: &Index,
    def: DefId,
    section: Section,
    score: f32,
    reasons: Vec<String>,
    renderings: Vec<Rendering>,
) -> Candidate {
    Candidate {
        section,
        file: def.file,
        def: Some(def),
        symbol: Some(qualified_name(index, def)),
        kind: index.def(def).map(|def_data| def_data.kind),
        score,
        reasons,
        named: false,
        frame: false,
        of: None,
        renderings,
    }
}

/// A definition's compact card.
fn card(
    index: &Index,
    def: DefId,
    section: Section,
    score: f32,
    reasons: Vec<String>,
) -> Candidate {
    def_candidate(
        index,
        def,
        section,
        score,
        reasons,
        vec![compact(index, def)],
    )
}

/// A definition's card in an outline (a class's other members, the best file's map): its
/// signature alone.
fn outline_card(index: &Index, def: DefId, score: f32, reasons: Vec<String>) -> Candidate {
    def_candidate(
        index,
        def,
        Section::Definitions,
        score,
        reasons,
        vec![compact_with(index, def, false)],
    )
}

/// A definition's code, falling back to its standard and compact cards when it is too big.
fn code(
    index: &Index,
    def: DefId,
    section: Section,
    score: f32,
    reasons: Vec<String>,
) -> Candidate {
    let is_container = index
        .def(def)
        .is_some_and(|def_data| def_data.kind.is_container());
    let lines = def_lines(index, def);
    let mut renderings = Vec::new();
    if lines <= MAX_FULL_LINES || !is_container {
        renderings.push(full(index, def));
    }
    // A long container shows its members' signatures before its whole code, as a long
    // function shows its relevant lines first: the members the task is about come as
    // targets of their own.
    let at = if is_container && lines >= LONG_LINES {
        0
    } else {
        renderings.len()
    };
    if let Some(card) = standard(index, def, MAX_MEMBERS) {
        renderings.insert(at, card);
    }
    renderings.push(compact(index, def));
    def_candidate(index, def, section, score, reasons, renderings)
}

/// Whether `text` holds `word` between non-alphanumeric characters (`bulk_create` in
/// `tests/bulk_create/tests.py`, not `send` in `test_sender.py`).
fn holds_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// A fragment of code the task writes, found on more lines than this of a long function,
/// does not choose its window.
const FRAGMENT_MAX_LINES: u32 = 3;
/// For a function of more than [`FOCUS_MIN_LINES`] lines, the [`FOCUS_WINDOW_LINES`] lines
/// that hold the most fragments of code the task writes (`count - 1`), then the most
/// distinct terms of the task, then the most of their occurrences (the middle one of the
/// first such windows in a row), when any does, and whether they start below its header
/// (then its card comes as an item of its own). A fragment found on more than
/// [`FRAGMENT_MAX_LINES`] lines of the function (`err != nil`) points at none of them.
fn focus_window(
    index: &Index,
    def: DefId,
    terms: &FxHashSet<&str>,
    fragments: &FxHashSet<&str>,
) -> Option<(Rendering, bool)> {
    let data = index.file(def.file)?;
    let def_data = index.def(def)?;
    if terms.is_empty() || !def_data.kind.is_callable() {
        return None;
    }
    let span = LineSpan::of(index, def)?;
    // The code from the name's line: a long doc comment above it holds the task's words
    // too, but says less about where to change it.
    let (header_line, end_line) = (span.name, span.end);
    if end_line - header_line < FOCUS_MIN_LINES {
        return None;
    }
    // The task's terms on each line of the body, with repeats, and its fragments once.
    let mut fragment_lines: FxHashMap<&str, u32> = FxHashMap::default();
    let mut line_terms: Vec<Vec<&str>> = (header_line..=end_line)
        .map(|line| {
            let range = TextRange {
                start: data.line_index.line_start(line),
                end: data.line_index.line_end(line),
            };
            let text = index.text(def.file, range);
            let mut found: Vec<&str> = Vec::new();
            for_each_word(text, |_, word| {
                identifier_terms(word, |term| {
                    if let Some(known) = terms.get(term) {
                        found.push(known);
                    }
                });
            });
            if !fragments.is_empty() {
                let words = found.len();
                for_each_fragment(text, |fragment| {
                    if let Some(known) = fragments.get(fragment) {
                        if !found[words..].contains(known) {
                            found.push(known);
                            *fragment_lines.entry(known).or_default() += 1;
                        }
                    }
                });
            }
            found
        })
        .collect();
    // A fragment counts as a term of its own only where few lines hold it.
    if fragment_lines
        .values()
        .any(|lines| *lines > FRAGMENT_MAX_LINES)
    {
        for found in &mut line_terms {
            found.retain(|term| {
                fragment_lines
                    .get(term)
                    .is_none_or(|n| *n <= FRAGMENT_MAX_LINES)
            });
        }
    }
    let is_fragment = |term: &str| fragments.contains(term);
    // A window's worth: its distinct fragments, its distinct terms, then how often they
    // occur.
    let mut counts: FxHashMap<&str, u32> = FxHashMap::default();
    let mut occurrences = 0usize;
    let (mut best, mut best_start) = ((0usize, 0usize, 0usize), 0usize);
    // The starts after `best_start` that are worth as much, in a row.
    let mut best_run = 0usize;
    for (idx, found) in line_terms.iter().enumerate() {
        for term in found {
            *counts.entry(term).or_default() += 1;
        }
        occurrences += found.len();
        if idx >= FOCUS_WINDOW_LINES as usize {
            let leaving = &line_terms[idx - FOCUS_WINDOW_LINES as usize];
            occurrences -= leaving.len();
            for term in leaving {
                let count = counts.get_mut(term).expect("counted when it entered");
                *count -= 1;
                if *count == 0 {
                    counts.remove(term);
                }
            }
        }
        let start = (idx + 1).saturating_sub(FOCUS_WINDOW_LINES as usize);
        let quoted = counts.keys().filter(|term| is_fragment(term)).count();
        let worth = (quoted, counts.len(), occurrences);
        if worth > best {
            (best, best_start, best_run) = (worth, start, 0);
        } else if worth == best && start == best_start + best_run + 1 {
            best_run += 1;
        }
    }
    if best.1 == 0 {
        return None;
    }
    // The middle of the best windows in a row: the lines that matter in the middle, not
    // at an edge. A window holding code the task quotes is laid around the lines holding
    // it: the line to change with what leads to it and what follows.
    let window = FOCUS_WINDOW_LINES as usize;
    let mut start = best_start + best_run / 2;
    let quoting: Vec<usize> = (best_start..(best_start + window).min(line_terms.len()))
        .filter(|idx| line_terms[*idx].iter().any(|term| is_fragment(term)))
        .collect();
    if let (Some(first), Some(last)) = (quoting.first(), quoting.last()) {
        let middle = (first + last) / 2;
        start = middle
            .saturating_sub(window / 2)
            .min(line_terms.len().saturating_sub(window));
    }
    let first = header_line + start as u32;
    span.window(
        index,
        def,
        (first, first + FOCUS_WINDOW_LINES - 1),
        WINDOW_HEADER_GAP,
    )
}

/// The lines of a definition: where it starts (its header), where its name ends, its last.
struct LineSpan {
    header: u32,
    name: u32,
    end: u32,
}

impl LineSpan {
    fn of(index: &Index, def: DefId) -> Option<LineSpan> {
        let data = index.file(def.file)?;
        let def_data = index.def(def)?;
        let (header, end) = data.line_index.lines(def_data.range);
        Some(LineSpan {
            header,
            name: data.line_index.line_col(def_data.name_range.end).line,
            end,
        })
    }

    /// Lines `first..=last` within the definition, from its header when they start at most
    /// `gap` lines below its name; none when that is the whole definition. With whether they
    /// start below the header (then its card comes as an item of its own).
    fn window(
        &self,
        index: &Index,
        def: DefId,
        (first, last): (u32, u32),
        gap: u32,
    ) -> Option<(Rendering, bool)> {
        let (first, last) = self.whole_statements(index, def.file, (first, last));
        let mut first = first.max(self.header);
        let last = last.min(self.end);
        if first <= self.name + gap {
            first = self.header;
        }
        if first == self.header && last == self.end {
            return None;
        }
        Some((lines(index, def.file, first, last), first > self.header))
    }

    /// Lines `first..=last` widened (within the definition) so that they neither start nor
    /// end inside a statement (see [`whole_statements`]).
    fn whole_statements(
        &self,
        index: &Index,
        file: FileId,
        (first, last): (u32, u32),
    ) -> (u32, u32) {
        let Some(data) = index.file(file) else {
            return (first, last);
        };
        let (first, last) = (
            first.clamp(self.header, self.end),
            last.clamp(self.header, self.end),
        );
        let text: Vec<&str> = (self.header..=self.end)
            .map(|line| {
                index.text(
                    file,
                    TextRange {
                        start: data.line_index.line_start(line),
                        end: data.line_index.line_end(line),
                    },
                )
            })
            .collect();
        let (start, end) = whole_statements(
            &text,
            (first - self.header) as usize,
            (last - self.header) as usize,
        );
        (self.header + start as u32, self.header + end as u32)
    }
}

/// At most this many lines are added above or below a window to keep its statements whole.
const MAX_STATEMENT_LINES: usize = 8;

/// Lines `first..=last` of `lines` widened, by at most [`MAX_STATEMENT_LINES`] each way, so
/// that they do not start in the middle of a statement (a condition's second line, a call's
/// arguments, a method chain) or end before its last line. The rule is lexical and the same
/// for every language: a line continues the one above when that one ends in an operator, a
/// comma or an opening bracket other than `{`, or when it starts with a closing bracket, an
/// operator or a `.`. A line ending in `.` or `:` continues nothing: that is how a comment's
/// sentence ends. A clause continuing a statement (a line starting with `}`, `else`,
/// `elif`, `except`, `catch` or `finally`) comes with the line opening the statement, the
/// nearest one above at its indentation that is not such a clause. The first statement of
/// a block comes with the line opening it (the line above, indented less or ending in `{`),
/// once.
fn whole_statements(lines: &[&str], first: usize, last: usize) -> (usize, usize) {
    fn indent(line: &str) -> usize {
        line.len() - line.trim_start().len()
    }
    fn ends_open(line: &str) -> bool {
        let line = line.trim_end();
        line.ends_with("=>")
            || line.ends_with("->")
            || line.ends_with(['(', '[', ',', '\\', '=', '+', '*', '|', '&', '?'])
    }
    fn starts_closing(line: &str) -> bool {
        let line = line.trim_start();
        line.starts_with([')', ']', '.', '?']) || line.starts_with("||") || line.starts_with("&&")
    }
    fn continues_above(line: &str) -> bool {
        let line = line.trim_start();
        line.starts_with('}')
            || ["else", "elif", "except", "catch", "finally"]
                .iter()
                .any(|word| {
                    line.strip_prefix(word).is_some_and(|rest| {
                        !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                    })
                })
    }
    if lines.is_empty() {
        return (first, last);
    }
    let last_line = lines.len() - 1;
    let blank = |idx: usize| lines[idx].trim().is_empty();
    let above = |idx: usize| (0..idx).rev().find(|above| !blank(*above));
    let (mut first, mut last) = (first.min(last_line), last.min(last_line));
    let mut climbed = 0;
    let mut climb = |first: &mut usize, opener: bool| {
        while climbed < MAX_STATEMENT_LINES && !blank(*first) {
            let Some(prev) = above(*first) else {
                break;
            };
            let continues = ends_open(lines[prev]) || starts_closing(lines[*first]);
            let opens = opener
                && (indent(lines[prev]) < indent(lines[*first])
                    || lines[prev].trim_end().ends_with('{'));
            if !(continues || opens) {
                break;
            }
            *first = prev;
            climbed += 1;
            if opens && !continues {
                break;
            }
        }
    };
    climb(&mut first, false);
    // A clause continuing a statement above (`} else if`, `elif`, `except`) comes with
    // the line at its indentation that opened the statement.
    if continues_above(lines[first]) {
        let opener = (first.saturating_sub(MAX_STATEMENT_LINES)..first)
            .rev()
            .filter(|above| !blank(*above) && indent(lines[*above]) <= indent(lines[first]))
            .find(|above| {
                indent(lines[*above]) < indent(lines[first]) || !continues_above(lines[*above])
            });
        if let Some(opener) = opener.filter(|opener| indent(lines[*opener]) == indent(lines[first]))
        {
            first = opener;
            climb(&mut first, false);
        }
    }
    let start = first;
    climb(&mut first, true);
    if first != start {
        climb(&mut first, false);
    }
    for _ in 0..MAX_STATEMENT_LINES {
        let next = last + 1;
        if next > last_line || blank(next) || blank(last) {
            break;
        }
        if !(ends_open(lines[last]) || starts_closing(lines[next])) {
            break;
        }
        last = next;
    }
    (first, last)
}

/// For a target a trace frame points into, the lines around the frame's line (see
/// [`FRAME_LINES_BEFORE`]), when the definition is longer than them, and whether they start
/// below its header (then its card comes as an item of its own).
fn frame_window(index: &Index, target: &Ranked) -> Option<(Rendering, bool)> {
    let frame_line = target.marks.frame_line?;
    let span = LineSpan::of(index, target.def)?;
    let line = frame_line.saturating_sub(1).clamp(span.header, span.end);
    span.window(
        index,
        target.def,
        (
            line.saturating_sub(FRAME_LINES_BEFORE),
            line + FRAME_LINES_AFTER,
        ),
        WINDOW_HEADER_GAP,
    )
}

/// The candidates of an answer: each primary target's code and neighbours (see
/// [`Expander::target`]), the targets' files' imports, the rest of the ranking as cards, the
/// focus files' maps, and the safety net when nothing else came; candidates outside the
/// focus files are then scored down unless the task asks for them.
pub fn expand(
    index: &Index,
    ranking: &Ranking,
    intent: IntentKind,
    wants_callers: bool,
    pinned: &[FileId],
    task: TaskText<'_>,
) -> Expansion {
    let TaskText {
        terms,
        fragments,
        renamed,
        renamed_in,
    } = task;
    let renamed_elsewhere = renamed_elsewhere(index, renamed_in);
    let top_score = ranking.defs.first().map_or(0.0, |best| best.score);
    // A rename's use sites (see `Expander::renamed_use_sites`) are not targets: they
    // leave the targets' places to the definitions the rename changes.
    let use_site = |ranked: &Ranked| renamed_use(intent, renamed, ranked).is_some();
    let primary = primary_targets(index, ranking, top_score, &use_site);
    let primary_ids: Vec<DefId> = primary.iter().map(|ranked| ranked.def).collect();
    // A task naming its targets as code is about their uses: a definition found by its
    // words alone brings no callers then (`rename Mux.handle` lists the callers of `handle`,
    // not of `Mux.Get`, whose body shares the task's words). One found by its name still
    // does (the implementations of a trait method the task names).
    let words_only_callers = !primary.iter().any(|target| target.direct);
    // A rename of something no target is (a name the task's code does not have yet) leaves
    // every target's callers.
    let renames_a_target = primary.iter().any(|target| {
        !renamed_elsewhere.contains(&target.def)
            && index
                .def(target.def)
                .is_some_and(|def| renames(renamed, &def.name))
    });
    let written_renamed = renamed;
    let renamed = if renames_a_target { renamed } else { &[] };
    let mut expander = Expander {
        index,
        intent,
        pinned,
        words_only_callers,
        renamed,
        written_renamed,
        renamed_elsewhere: &renamed_elsewhere,
        candidates: Vec::new(),
        carded: FxHashSet::default(),
        call_sites: Vec::new(),
        lists_uses: intent == IntentKind::UsageExploration
            || (intent == IntentKind::Refactor && wants_callers),
        terms: terms
            .iter()
            .filter(|term| term.chars().count() >= 3 && !is_stop_word(term))
            .map(|term| term.as_str())
            .collect(),
        fragments: fragments.iter().map(String::as_str).collect(),
    };
    for target in &primary {
        expander.target(target, &primary_ids);
    }
    imports(
        index,
        &primary_ids,
        top_score,
        pinned,
        &mut expander.candidates,
    );
    expander.ranking_cards(ranking, top_score);
    let focus = focus_files(ranking, &primary, intent);
    expander.outlines(ranking, &primary, &focus, top_score);
    let fallback = if expander.candidates.is_empty() {
        expander.safety_net(ranking)
    } else {
        None
    };
    let call_sites = std::mem::take(&mut expander.call_sites);
    let mut candidates = expander.candidates;
    // The one definition of a name the task writes as code is shown wherever it is
    // (`cmd.Bool("verbose") returns false`), as a tool of the change too (`u.Path is built by
    // routeRegexp.url`, in a file ranked below the route's): its own code, not what
    // surrounds it. (A name of several definitions, a mirror's or a declaration's, stays
    // where its file ranks.)
    // So is a target holding text the task quotes, when one file alone holds it: where a
    // pasted panic's or log's message is made (axum's `Overlapping method route. Handler
    // for ...`, raised in `method_routing.rs` for a panic located in the caller's
    // `Router::route`). Words quoted from several files (`"SEE ALSO"` in the man and the
    // markdown generators) say less.
    let literal_files: FxHashSet<FileId> = ranking
        .defs
        .iter()
        .filter(|ranked| ranked.marks.literal)
        .map(|ranked| ranked.def.file)
        .collect();
    let written: FxHashSet<DefId> = primary
        .iter()
        .filter(|target| {
            target.marks.unique_name || (target.marks.literal && literal_files.len() == 1)
        })
        .map(|target| target.def)
        .collect();
    // The few definitions of the name a rename changes are all renamed, wherever they are
    // (`HTTPException.getResponse` and the `HTTPResponseError` interface declaring it).
    let renamed_defs: FxHashSet<DefId> = renamed
        .iter()
        .map(|name| index.defs_named(name))
        .filter(|defs| defs.len() <= MAX_RENAMED_DEFINITIONS)
        .flatten()
        .copied()
        .filter(|def| !renamed_elsewhere.contains(def))
        .collect();
    // New code is written like the definitions the task names: the card of the one
    // definition of such a name keeps its score too (a field or an interface's member is no
    // target, and only its card can show it: `like onRequest and onResponse`, ofetch's
    // `FetchHooks` members, the models of the hook to add).
    let written_cards: FxHashSet<DefId> = if intent == IntentKind::Implementation {
        ranking
            .defs
            .iter()
            .filter(|ranked| ranked.marks.unique_name)
            .map(|ranked| ranked.def)
            .collect()
    } else {
        FxHashSet::default()
    };
    // Precision: candidates outside the focus files must earn their place.
    for candidate in &mut candidates {
        if focus.is_empty()
            || focus.contains(&candidate.file)
            || (candidate.section == Section::Code
                && candidate.def.is_some_and(|def| written.contains(&def)))
            || (candidate.section == Section::Definitions
                && candidate
                    .def
                    .is_some_and(|def| written_cards.contains(&def)))
            || (candidate.section != Section::Callers
                && candidate.def.is_some_and(|def| renamed_defs.contains(&def)))
        {
            continue;
        }
        // A rename changes the tests that use the renamed name too.
        let wanted = match candidate.section {
            Section::Callers => wants_callers,
            Section::Tests => {
                intent == IntentKind::TestWriting
                    || candidate
                        .of
                        .as_deref()
                        .is_some_and(|of| renames(renamed, of))
            }
            _ => false,
        };
        if !wanted {
            candidate.score *= OFF_FOCUS;
            candidate.reasons.push("off-focus".to_owned());
        }
    }
    containers_follow_members(index, &mut candidates);
    Expansion {
        candidates,
        fallback,
        call_sites,
    }
}

/// A card inside another definition's code is listed indented under it, in its file's
/// entries of the definitions, so the definitions holding it score at least as well as it
/// (cards are added for those without one): alone, the indent would put it under whatever
/// is listed above it (`Path string` under `type HandlersChain` instead of `type RouteInfo
/// struct`).
fn containers_follow_members(index: &Index, candidates: &mut Vec<Candidate>) {
    let mut carded: FxHashMap<DefId, usize> = candidates
        .iter()
        .enumerate()
        .filter(|(_, candidate)| candidate.section == Section::Definitions)
        .filter_map(|(idx, candidate)| candidate.def.map(|def| (def, idx)))
        .collect();
    for idx in 0..candidates.len() {
        let (Some(def), Section::Definitions) = (candidates[idx].def, candidates[idx].section)
        else {
            continue;
        };
        let score = candidates[idx].score;
        for outer in listed_under(index, def) {
            match carded.get(&outer) {
                Some(&at) => {
                    candidates[at].score = candidates[at].score.max(score);
                }
                None => {
                    let name = index.def(def).map_or("", |data| &data.name);
                    let reasons = vec![format!("container-of:{name}")];
                    carded.insert(outer, candidates.len());
                    candidates.push(card(index, outer, Section::Definitions, score, reasons));
                }
            }
        }
    }
}

/// The targets the answer is built around: the best-ranked definitions (at most
/// [`MAX_PRIMARY`]) scoring at least [`PRIMARY_RATIO`] of the best, or named by the task
/// for certain among the first three. Fields are context for their types, and the
/// qualifier of a named member (`ZodObject` in `ZodObject.strict`) for the member, which
/// brings it as its container: neither is a target, whose callers and tests the answer
/// would list. Nor is a definition only the task's words found in a file other than the
/// best-ranked whose only match it is: that file ranks on its own words (its BM25), and a
/// lone function sharing some of them is seldom where the change is (none of 15 on the
/// benchmark's sets, against a quarter of the other files shown).
fn primary_targets<'r>(
    index: &Index,
    ranking: &'r Ranking,
    top_score: f32,
    use_site: &dyn Fn(&Ranked) -> bool,
) -> Vec<&'r Ranked> {
    let mut matches_in_file: FxHashMap<FileId, usize> = FxHashMap::default();
    for ranked in &ranking.defs {
        *matches_in_file.entry(ranked.def.file).or_default() += 1;
    }
    let best_file = ranking.files.first().map(|file| file.file);
    let best_def = ranking.defs.first().map(|best| best.def);
    let lone_word_match = |ranked: &Ranked| {
        !ranked.named
            && Some(ranked.def) != best_def
            && Some(ranked.def.file) != best_file
            && matches_in_file.get(&ranked.def.file) == Some(&1)
    };
    let mut primary: Vec<&Ranked> = Vec::new();
    let mut frames = 0;
    for ranked in &ranking.defs {
        if primary.len() >= MAX_PRIMARY {
            break;
        }
        let qualifier_only = !ranked.direct && ranked.marks.qualifier;
        if qualifier_only || use_site(ranked) || lone_word_match(ranked) {
            continue;
        }
        // The innermost frames of a pasted trace are where it went wrong, whatever else
        // the task names (walkdir's `<IntoIter as Iterator>::next`, the third frame, had
        // come as a card below the names the task's sentence wrote).
        let frame = ranked.marks.frame_line.is_some() && frames < MAX_FRAME_TARGETS;
        frames += usize::from(ranked.marks.frame_line.is_some());
        if ranked.score >= top_score * PRIMARY_RATIO
            || (ranked.direct && primary.len() < 3)
            || frame
        {
            if index
                .def(ranked.def)
                .is_some_and(|def| def.kind == DefKind::Field)
            {
                continue;
            }
            primary.push(ranked);
        }
    }
    primary
}

/// The candidates of an expansion as they are added, and the definitions they show, so
/// that none is carded twice. Nothing of a pinned file is added.
struct Expander<'a> {
    index: &'a Index,
    intent: IntentKind,
    pinned: &'a [FileId],
    /// No target is named directly: those found by their words bring their callers.
    words_only_callers: bool,
    /// The names a rename changes (see `QueryAnalysis::renamed`): of the targets, only
    /// those bring their callers.
    renamed: &'a [String],
    /// The names the task renames, whether or not a target has one of them.
    written_renamed: &'a [String],
    /// The definitions of a renamed name in other types than the one the task writes it in.
    renamed_elsewhere: &'a FxHashSet<DefId>,
    candidates: Vec<Candidate>,
    carded: FxHashSet<DefId>,
    call_sites: Vec<CallSites>,
    /// The task is about the uses of what it names (see [`CallSites`]).
    lists_uses: bool,
    /// The task's search terms (see `QueryAnalysis::terms`), for the lines of a long target
    /// that hold them.
    terms: FxHashSet<&'a str>,
    /// The fragments of code the task writes, for the lines of a long target that hold them.
    fragments: FxHashSet<&'a str>,
}

impl Expander<'_> {
    /// A primary target's code, its container and the container's other members, what it
    /// calls and the types it names, its callers and its tests.
    fn target(&mut self, target: &Ranked, primary_ids: &[DefId]) {
        let index = self.index;
        let def = target.def;
        let Some(def_data) = index.def(def) else {
            return;
        };
        if !self.pinned.contains(&def.file) {
            let mut candidate = Candidate {
                named: target.named,
                frame: target.marks.frame_line.is_some(),
                ..code(
                    index,
                    def,
                    Section::Code,
                    target.score,
                    target.reasons.clone(),
                )
            };
            // A pasted trace's frame in a long function shows the lines around the frame's
            // line, and a long function the lines that hold most of the task's words, after
            // the function's card when they start far from its header: instead of its whole
            // body when that is more than twice as long, else when the body does not fit.
            let window = frame_window(index, target)
                .or_else(|| focus_window(index, def, &self.terms, &self.fragments));
            if let Some((window, header_card)) = window {
                // Longer than two windows, it shows the window before its whole body: the
                // lines that matter, not a screenful of others. A refactor of a function the
                // task writes as code changes all of it: its whole body first, while it fits.
                let rewrites_all = self.intent == IntentKind::Refactor && target.direct;
                let long_at = if target.direct && !target.located {
                    LONG_NAMED_LINES
                } else {
                    LONG_LINES
                };
                let long = !rewrites_all
                    && LineSpan::of(index, def).is_some_and(|span| span.end - span.name >= long_at);
                let at = if long {
                    0
                } else {
                    candidate
                        .renderings
                        .iter()
                        .position(|rendering| rendering.fidelity != Fidelity::Full)
                        .unwrap_or(candidate.renderings.len())
                };
                candidate.renderings.insert(at, window);
                if header_card {
                    self.candidates.push(Candidate {
                        named: target.named,
                        frame: target.marks.frame_line.is_some(),
                        ..def_candidate(
                            index,
                            def,
                            Section::Code,
                            target.score * WINDOW_CARD_SHARE,
                            target.reasons.clone(),
                            vec![compact(index, def)],
                        )
                    });
                }
            }
            self.candidates.push(candidate);
            self.carded.insert(def);
        }
        self.container(target, &def_data.name, primary_ids);
        // What it calls, and the types it names.
        for (link, share) in [(Link::Callee, CALLEE_SHARE), (Link::Type, TYPE_SHARE)] {
            linked_cards(
                index,
                def,
                link,
                target.score * share,
                &mut self.carded,
                self.pinned,
                &mut self.candidates,
            );
        }
        // Who calls it, and the tests that exercise it; of a rename's targets, the renamed
        // definition's (not the callers of the type the task names to say where it is).
        // A type's uses (its constructions, subclasses, the signatures naming it) are its
        // callers when the task names it as its subject. Named to say whose member the task
        // is about (`where is AxiosHeaders normalize used`), it brings none: they would bury
        // the member's calls. Found by its words, it brings the functions using it (a
        // `save_snapshot` taking the store), not the types naming it (`class Raw(Field)`).
        let is_renamed =
            renames(self.renamed, &def_data.name) && !self.renamed_elsewhere.contains(&target.def);
        let names_a_member = || {
            primary_ids
                .iter()
                .any(|other| index.container_name(*other) == Some(&*def_data.name))
        };
        let uses = if !(target.named || self.words_only_callers)
            || (!self.renamed.is_empty() && !is_renamed)
        {
            Uses::None
        } else if is_renamed || !def_data.kind.is_type_or_impl() {
            Uses::All
        } else if !target.direct {
            Uses::InFunctions
        } else if names_a_member() {
            Uses::None
        } else {
            Uses::All
        };
        let sites = callers_and_tests(
            index,
            target,
            self.intent,
            uses,
            is_renamed,
            self.pinned,
            &mut self.candidates,
        );
        // Uses are what a usage question, a refactor of an interface and a rename are
        // about: the answer says which of a target the task names it leaves out.
        let about_uses = is_renamed || self.lists_uses;
        if about_uses && target.named && uses != Uses::None && !sites.is_empty() {
            self.add_call_sites(&def_data.name, sites);
        }
        // A refactor of a method (its name, its signature) changes its overrides too (those
        // of a method the task names, as with callers: `rename StreamDeserializer::byte_offset`
        // is not about the implementations of the trait method `Read::byte_offset`).
        if self.intent == IntentKind::Refactor && (target.direct || self.words_only_callers) {
            self.overrides(target, &def_data.name, primary_ids);
        }
    }

    /// Records the uses of a target named `name`; definitions of one name (an overload, the
    /// same method on two types) are one name's uses, each caller once.
    fn add_call_sites(&mut self, name: &str, sites: Vec<CallSite>) {
        let at = match self.call_sites.iter().position(|known| known.of == name) {
            Some(at) => at,
            None => {
                self.call_sites.push(CallSites {
                    of: name.to_owned(),
                    sites: Vec::new(),
                });
                self.call_sites.len() - 1
            }
        };
        let known = &mut self.call_sites[at].sites;
        for site in sites {
            if !known.iter().any(|seen| seen.caller == site.caller) {
                known.push(site);
            }
        }
    }

    /// For a rename, a long definition found as code using a renamed name that no
    /// definition has (`uses:recomputeInvalidatedAtoms`: a value named after the renamed
    /// type, an alias bound to it) shows the lines around each line naming it, as a long
    /// caller does (see [`around_uses`]; a short one comes whole): every one of them
    /// changes, the rest of the function does not. Lines, not resolved references: the declaration of an alias
    /// (`const recomputeInvalidatedAtoms = buildingBlocks[13]`) is renamed too. Whether it
    /// was shown so.
    fn renamed_use_sites(&mut self, ranked: &Ranked) -> bool {
        let index = self.index;
        let def = ranked.def;
        let Some(name) = renamed_use(self.intent, self.written_renamed, ranked) else {
            return false;
        };
        let (Some(data), Some(span)) = (index.file(def.file), LineSpan::of(index, def)) else {
            return false;
        };
        let lines: Vec<u32> = (span.header..=span.end)
            .filter(|line| {
                let range = TextRange {
                    start: data.line_index.line_start(*line),
                    end: data.line_index.line_end(*line),
                };
                holds_word(index.text(def.file, range), name)
            })
            .collect();
        if lines.is_empty() {
            return false;
        }
        // A short one is shown whole.
        let (windows, below_header) = around_uses(index, def, &lines, MAX_CALLER_LINES)
            .unwrap_or_else(|| (vec![full(index, def)], false));
        let candidate = Candidate {
            named: ranked.named,
            ..def_candidate(
                index,
                def,
                Section::Code,
                ranked.score,
                ranked.reasons.clone(),
                Vec::new(),
            )
        };
        push_around_uses(
            index,
            &candidate,
            (windows, below_header),
            ranked.score * WINDOW_CARD_SHARE,
            &mut self.candidates,
        );
        self.carded.insert(def);
        true
    }

    /// The overrides of a method, with the callers, as code (see [`Index::overrides_of`]),
    /// each a little below the one before; those shown as callers already (a `super()`
    /// call) are not repeated.
    fn overrides(&mut self, target: &Ranked, name: &str, primary_ids: &[DefId]) {
        let index = self.index;
        let shown: FxHashSet<DefId> = self
            .candidates
            .iter()
            .filter(|candidate| candidate.section == Section::Callers)
            .filter_map(|candidate| candidate.def)
            .collect();
        let overrides = index
            .overrides_of(target.def)
            .into_iter()
            .filter(|def| !shown.contains(def) && !primary_ids.contains(def))
            .filter(|def| !self.pinned.contains(&def.file))
            .take(MAX_CALLERS);
        for (rank, def) in overrides.enumerate() {
            let score = target.score * OVERRIDE_SHARE / (1.0 + rank as f32 * 0.15);
            self.candidates.push(code(
                index,
                def,
                Section::Callers,
                score,
                vec![format!("override-of:{name}")],
            ));
        }
    }

    /// The container of a method (its class, or the type a Go method's receiver names),
    /// and its other members as cards of their own (listed under the container by line,
    /// they read as its outline).
    fn container(&mut self, target: &Ranked, name: &str, primary_ids: &[DefId]) {
        let index = self.index;
        let def = target.def;
        let Some(owner) = index.owner(def) else {
            return;
        };
        if !self.carded.insert(owner) || self.pinned.contains(&owner.file) {
            return;
        }
        let score = target.score * CONTAINER_SHARE;
        self.candidates.push(card(
            index,
            owner,
            Section::Definitions,
            score,
            vec![format!("container-of:{name}")],
        ));
        let reason = format!(
            "member-of:{}",
            index.def(owner).map_or("", |owner| &owner.name)
        );
        // A test's siblings (the other cases of its `describe` block or test class) are an
        // outline only for a task about tests.
        let siblings = if self.intent == IntentKind::TestWriting || !index.is_test_def(owner) {
            MAX_MEMBERS
        } else {
            0
        };
        let mut members: Vec<DefId> = index
            .members(owner)
            .chain(index.declared_members(owner))
            // A Go type's methods in the files at hand, not across its package.
            .filter(|member| member.file == def.file || member.file == owner.file)
            .filter(|member| !primary_ids.contains(member) && !self.pinned.contains(&member.file))
            .collect();
        // The type's data first (its fields, in order), then its functions nearest the
        // target: in a class of a hundred methods, those beside the one at hand (`bulk_create`
        // beside `bulk_update`) rather than the first thirty (`__deepcopy__`, `__repr__`).
        let target_range = index.def(def).map(|data| data.range);
        members.sort_by_key(|member| {
            let member_data = index.def(*member);
            let callable = member_data.is_some_and(|data| data.kind.is_callable());
            let distance = match (member_data, target_range) {
                (Some(data), Some(target)) if callable && member.file == def.file => {
                    target.gap(data.range)
                }
                _ => u32::MAX,
            };
            (callable, distance)
        });
        members.truncate(siblings);
        for (rank, member) in members.into_iter().enumerate() {
            if self.carded.insert(member) {
                self.candidates.push(outline_card(
                    index,
                    member,
                    score * (1.0 - rank as f32 * MEMBER_DECAY),
                    vec![reason.clone()],
                ));
            }
        }
    }

    /// The rest of the ranking as cards, then the class of each carded member as a
    /// one-line card (a method is read in its class), after the ranking's cards, so that a
    /// class that ranks on its own keeps its own card.
    fn ranking_cards(&mut self, ranking: &Ranking, top_score: f32) {
        let index = self.index;
        let mut n_cards = 0;
        let mut members: Vec<(&Ranked, Section)> = Vec::new();
        // Writing tests, the best-ranked test comes whole when no test of a target does: a
        // test to write is modelled on one that exists (its imports, fixtures, client), which
        // a card does not show.
        let mut wants_model_test = self.intent == IntentKind::TestWriting
            && !self.candidates.iter().any(|candidate| {
                candidate.section == Section::Tests
                    && candidate.renderings.first().map(|r| r.fidelity) == Some(Fidelity::Full)
            });
        for ranked in &ranking.defs {
            if n_cards >= MAX_CARDS || ranked.score < top_score * CARD_RATIO {
                break;
            }
            if self.carded.contains(&ranked.def) || self.pinned.contains(&ranked.def.file) {
                continue;
            }
            if self.renamed_use_sites(ranked) {
                continue;
            }
            self.carded.insert(ranked.def);
            let is_test = index.file(ranked.def.file).is_some_and(|data| data.is_test);
            let section = if is_test && self.intent == IntentKind::TestWriting {
                Section::Tests
            } else {
                Section::Definitions
            };
            let model = wants_model_test
                && section == Section::Tests
                && index
                    .def(ranked.def)
                    .is_some_and(|def| def.kind.is_callable());
            // Explaining how something works, a function ranked near the best beyond the
            // targets is part of the mechanism: its code, where the budget has room.
            let mechanism = !is_test
                && self.intent == IntentKind::UsageExploration
                && ranked.score >= top_score * MECHANISM_RATIO
                && index
                    .def(ranked.def)
                    .is_some_and(|def| def.kind.is_callable());
            let shown = if model || mechanism {
                wants_model_test &= !model;
                code
            } else {
                card
            };
            self.candidates.push(Candidate {
                named: ranked.named,
                frame: ranked.marks.frame_line.is_some(),
                ..shown(
                    index,
                    ranked.def,
                    if mechanism { Section::Code } else { section },
                    ranked.score,
                    ranked.reasons.clone(),
                )
            });
            n_cards += 1;
            members.push((ranked, section));
        }
        for (member, section) in members {
            let Some(member_data) = index.def(member.def) else {
                continue;
            };
            let Some(parent_id) = index.owner(member.def) else {
                continue;
            };
            if !self.pinned.contains(&parent_id.file) && self.carded.insert(parent_id) {
                self.candidates.push(card(
                    index,
                    parent_id,
                    section,
                    member.score * CONTAINER_CARD_SHARE,
                    vec![format!("container-of:{}", member_data.name)],
                ));
            }
        }
    }

    /// A map of the best file: cards for its other definitions, nearest the targets first,
    /// scored just above the relevance floor (after everything else), so the assistant sees
    /// what the file holds around the targets and what it may also have to change. The
    /// other focus files get a shorter map, after the best file's.
    fn outlines(
        &mut self,
        ranking: &Ranking,
        primary: &[&Ranked],
        focus: &FxHashSet<FileId>,
        top_score: f32,
    ) {
        let index = self.index;
        let outlined = ranking
            .files
            .iter()
            .take(MAX_FOCUS_FILES)
            .enumerate()
            .filter(|(rank, file)| *rank == 0 || focus.contains(&file.file));
        for (file_rank, ranked_file) in outlined {
            let file = ranked_file.file;
            let Some(data) = index.file(file).filter(|_| !self.pinned.contains(&file)) else {
                continue;
            };
            // Another focus file is mapped when it has candidates already (a map brings no
            // file of its own), and not when it is a test file.
            if file_rank > 0
                && (data.is_test
                    || !self
                        .candidates
                        .iter()
                        .any(|candidate| candidate.file == file))
            {
                continue;
            }
            let mut anchors: Vec<TextRange> = primary
                .iter()
                .filter(|target| target.def.file == file)
                .filter_map(|target| index.def(target.def).map(|def| def.range))
                .collect();
            // A target holding another (`QuerySet` and its `bulk_update`) would put all its
            // members at distance 0: the map is laid around the innermost targets.
            let innermost: Vec<TextRange> = anchors
                .iter()
                .copied()
                .filter(|outer| {
                    !anchors
                        .iter()
                        .any(|inner| inner != outer && outer.contains_range(*inner))
                })
                .collect();
            anchors = innermost;
            let distance = |range: TextRange| {
                anchors
                    .iter()
                    .map(|anchor| anchor.gap(range))
                    .min()
                    .unwrap_or(0)
            };
            let mut outline: Vec<(u32, DefId)> = index
                .file_defs(file)
                .filter(|def| !self.carded.contains(def))
                .filter_map(|def| {
                    index
                        .def(def)
                        .filter(|d| {
                            !matches!(
                                d.kind,
                                DefKind::Field | DefKind::Variable | DefKind::Statements
                            )
                        })
                        // What a function declares inside it other than functions (Rust's
                        // `const LONG` in `fn flag_x`) is its insides, not the file's; a
                        // nested function may be a target.
                        .filter(|d| {
                            d.kind.is_callable()
                                || !d.parent.is_some_and(|parent| {
                                    index
                                        .def(DefId { file, idx: parent })
                                        .is_some_and(|p| p.kind.is_callable())
                                })
                        })
                        .map(|d| (distance(d.range), def))
                })
                .collect();
            outline.sort_by_key(|(distance, def)| (*distance, def.idx));
            // The other focus files' maps continue the best file's decay, after it.
            let (first_rank, max_cards, reason) = if file_rank == 0 {
                (0, MAX_OUTLINE_CARDS, "outline-of-best-file")
            } else {
                (
                    MAX_OUTLINE_CARDS,
                    MAX_FOCUS_OUTLINE_CARDS,
                    "outline-of-focus-file",
                )
            };
            for (rank, (_, def)) in outline.into_iter().take(max_cards).enumerate() {
                self.carded.insert(def);
                let rank = first_rank + rank;
                let score = top_score * OUTLINE_SCORE * (1.0 - rank as f32 * OUTLINE_DECAY);
                self.candidates
                    .push(outline_card(index, def, score, vec![reason.to_owned()]));
            }
        }
    }

    /// Safety net: never answer with nothing on a non-empty repository: the top-level
    /// definitions of the best-ranked files, or else of the files nearest the root; never
    /// of a pinned file, which the conversation holds already. Says which, when it added
    /// any.
    fn safety_net(&mut self, ranking: &Ranking) -> Option<Fallback> {
        let index = self.index;
        let pinned = self.pinned;
        let mut fallback: Vec<(FileId, f32, &str)> = ranking
            .files
            .iter()
            .filter(|file| !pinned.contains(&file.file))
            .take(3)
            .map(|file| (file.file, file.score * 0.5, "fallback:top-file"))
            .collect();
        let mut kind = Fallback::BestFiles;
        if fallback
            .iter()
            .all(|(file, _, _)| index.top_level_defs(*file).next().is_none())
        {
            let mut files: Vec<(FileId, &str)> = index
                .files()
                .filter(|(file, _)| !pinned.contains(file))
                .map(|(file, data)| (file, &*data.path))
                .collect();
            files.sort_by_key(|(_, path)| (path.matches('/').count(), path.len(), *path));
            fallback = files
                .into_iter()
                .take(3)
                .map(|(file, _)| (file, 0.01, "fallback:top-level"))
                .collect();
            kind = Fallback::NearestRoot;
        }
        let before = self.candidates.len();
        for (file, score, reason) in fallback {
            for def in index.top_level_defs(file).take(8) {
                self.candidates.push(card(
                    index,
                    def,
                    Section::Definitions,
                    score,
                    vec![reason.to_owned()],
                ));
            }
        }
        (self.candidates.len() > before).then_some(kind)
    }
}

/// The files the answer is about: the best-ranked files close to the top score (closer for
/// the intents that change or explain the targets' own code), the files a trace frame or a
/// path points at, and, when the task asks where something is or how it is used, the files
/// of the targets it names. A task that changes code often names what the change calls or
/// passes rather than what it edits: files far below the best one that were in focus anyway,
/// mostly through a named target, were gold once in 44 on the benchmark's sets (see
/// docs/benchmarks.md), so a named target's file must earn its place by its score.
fn focus_files(ranking: &Ranking, primary: &[&Ranked], intent: IntentKind) -> FxHashSet<FileId> {
    let ratio = match intent {
        IntentKind::UsageExploration | IntentKind::TestWriting => FOCUS_RATIO_WIDE,
        _ => FOCUS_RATIO,
    };
    let top = ranking.files.first().map_or(0.0, |file| file.score);
    let mut focus: FxHashSet<FileId> = ranking
        .files
        .iter()
        .take(MAX_FOCUS_FILES)
        .filter(|file| file.score >= top * ratio)
        .map(|file| file.file)
        .collect();
    let named_subject = matches!(
        intent,
        IntentKind::DefinitionLookup | IntentKind::UsageExploration
    );
    for target in primary
        .iter()
        .filter(|target| target.located || (target.direct && named_subject))
        .take(MAX_FOCUS_FILES)
    {
        focus.insert(target.def.file);
    }
    // The exception a trace reports: what went wrong, beside where.
    for thrown in ranking.defs.iter().filter(|ranked| ranked.marks.thrown) {
        focus.insert(thrown.def.file);
    }
    focus
}

/// How a definition links to the ones [`linked_cards`] adds for it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Link {
    /// The repository's definitions it calls.
    Callee,
    /// The repository's types it names (parameters, results, annotations): a function is
    /// read with the types of its parameters and result at hand.
    Type,
}

/// Cards for the definitions `def` links to, first referenced first, each a little below
/// the one before.
fn linked_cards(
    index: &Index,
    def: DefId,
    link: Link,
    score: f32,
    carded: &mut FxHashSet<DefId>,
    pinned: &[FileId],
    acc: &mut Vec<Candidate>,
) {
    let (Some(data), Some(def_data)) = (index.file(def.file), index.def(def)) else {
        return;
    };
    let (max, reason) = match link {
        Link::Callee => (MAX_CALLEES, "callee-of"),
        Link::Type => (MAX_TYPES, "type-in"),
    };
    let name = &*def_data.name;
    let mut n_added = 0;
    let mut seen_names = FxHashSet::default();
    for reference in data
        .syntax
        .refs_in(def_data.range)
        .filter(|r| r.call == (link == Link::Callee))
    {
        if n_added >= max {
            break;
        }
        let linked = data.ref_text(reference);
        if !seen_names.insert(linked) {
            continue;
        }
        // Resolving costs more than asking whether a type of that name exists at all.
        if link == Link::Type && !index.defines_type(linked) {
            continue;
        }
        // A unique or resolved target only: a guess among many same-named definitions is
        // noise (a called name without a receiver is taken at its best guess).
        let max_guesses = if link == Link::Callee && reference.receiver.is_none() {
            usize::MAX
        } else {
            MAX_GUESSES
        };
        let targets = index.goto_definition_within(
            FilePosition {
                file: def.file,
                offset: reference.range.start,
            },
            max_guesses,
        );
        let Some(target) = targets.first() else {
            continue;
        };
        let resolved = match link {
            Link::Callee => targets.len() <= MAX_GUESSES || reference.receiver.is_none(),
            Link::Type => {
                targets.len() <= MAX_GUESSES
                    && target.def != def
                    && index.def(target.def).is_some_and(|d| d.kind.is_type())
            }
        };
        // A call of its own name is a recursion unless it resolves elsewhere (a method
        // `wrap` calling `wrapper.wrap`).
        if !resolved
            || target.def == def
            || pinned.contains(&target.file)
            || !carded.insert(target.def)
        {
            continue;
        }
        let rank_penalty = 1.0 / (1.0 + n_added as f32 * 0.15);
        acc.push(card(
            index,
            target.def,
            Section::Definitions,
            score * rank_penalty,
            vec![format!("{reason}:{name}")],
        ));
        n_added += 1;
    }
}

/// A definition using a target, with the lines of its uses in the order met.
struct Caller {
    def: DefId,
    file: FileId,
    is_test: bool,
    lines: Vec<u32>,
}

/// Which uses of a target come as its callers (its tests come whatever this is).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Uses {
    None,
    /// Those in functions and methods.
    InFunctions,
    All,
}

/// Adds a target's callers and tests to `acc`; returns every use wanted (see
/// [`CallSites`]): the callers `uses_wanted` asks for and the tests, in the order they come,
/// outside the pinned files.
fn callers_and_tests(
    index: &Index,
    target: &Ranked,
    intent: IntentKind,
    uses_wanted: Uses,
    renamed: bool,
    pinned: &[FileId],
    acc: &mut Vec<Candidate>,
) -> Vec<CallSite> {
    let (def, score) = (target.def, target.score);
    let Some(def_data) = index.def(def) else {
        return Vec::new();
    };
    let name = def_data.name.to_string();
    if name.len() < 3 {
        return Vec::new();
    }
    let mut callers: Vec<Caller> = Vec::new();
    let mut seen_callers: FxHashMap<DefId, usize> = FxHashMap::default();
    let usage = intent == IntentKind::UsageExploration;
    // A common name is referenced all over a large repository: look where the definition is
    // visible (its file, its importers, its directory) rather than everywhere.
    let referencing = index.files_referencing(&name);
    // Tests named for the target or its module (`tests/bulk_create/`, `test_query.py`,
    // `store_test.go`) are its tests by convention: looked in whatever the name's spread, and
    // listed first.
    let target_stem = index
        .file(def.file)
        .map(|data| crate::index::file_stem(&data.path).to_lowercase())
        .unwrap_or_default();
    // A module's test file may drop the words its name opens with (`tests/test_registry.py`
    // for `class_registry.py`), unless a module of the shorter name exists.
    let target_tail = target_stem
        .rsplit_once(['_', '-'])
        .map(|(_, tail)| tail)
        .filter(|tail| tail.len() >= MIN_TEST_NAME_LEN)
        .filter(|tail| {
            !index
                .files_with_stem(tail)
                .iter()
                .any(|file| index.file(*file).is_some_and(|data| !data.is_test))
        });
    let name_lower = name.to_lowercase();
    let names_target = |file: FileId| -> bool {
        index.file(file).is_some_and(|data| {
            if !data.is_test {
                return false;
            }
            let path = data.path.to_lowercase();
            (name_lower.len() >= MIN_TEST_NAME_LEN && holds_word(&path, &name_lower))
                || (target_stem.len() >= MIN_TEST_NAME_LEN
                    && path
                        .split(['/', '.', '_', '-'])
                        .any(|word| word == target_stem))
                || tested_stem(crate::index::file_stem(&path)) == target_stem
                || target_tail
                    .is_some_and(|tail| tested_stem(crate::index::file_stem(&path)) == tail)
        })
    };
    let visible: Vec<FileId> = if referencing.len() > MAX_CALLER_FILES_SCANNED {
        let importers = index.import_graph().importers(def.file);
        let dir = index
            .file(def.file)
            .map(|data| {
                data.path
                    .rsplit_once('/')
                    .map_or("", |(dir, _)| dir)
                    .to_owned()
            })
            .unwrap_or_default();
        referencing
            .iter()
            .copied()
            .filter(|file| {
                *file == def.file
                    || importers.contains(file)
                    || index.file(*file).is_some_and(|data| {
                        data.path.rsplit_once('/').map_or("", |(d, _)| d) == dir
                    })
            })
            .take(MAX_CALLER_FILES_SCANNED)
            .chain(
                referencing
                    .iter()
                    .copied()
                    .filter(|file| names_target(*file))
                    .take(MAX_CALLER_FILES_SCANNED),
            )
            .fold(Vec::new(), |mut files, file| {
                if !files.contains(&file) {
                    files.push(file);
                }
                files
            })
    } else {
        referencing.to_vec()
    };
    // Code in another language names other definitions.
    let visible: Vec<FileId> = visible
        .into_iter()
        .filter(|file| index.shares_names(*file, def.file))
        .collect();
    // A method is named on what holds it (`router.route`, `Type::route`): a bare name that
    // is not called is a variable of that name (`for route in routes`, a parameter `app` of
    // another method), except in the body of its own type outside its functions
    // (`bulk_update.alters_data = True` in the class). A field is not: a struct literal
    // names it bare (`Config { wrap: true }`).
    let owner_range = index
        .owner(def)
        .filter(|_| def_data.kind == DefKind::Method)
        .and_then(|owner| index.def(owner).map(|data| (owner.file, data.range)));
    let bare_variable = |file: FileId, reference: &crate::syntax::Ref| {
        owner_range.is_some_and(|(owner_file, range)| {
            let in_type_body = || {
                file == owner_file
                    && range.contains_range(reference.range)
                    && !index
                        .enclosing_defs(file, reference.range.start)
                        .iter()
                        .any(|d| index.def(*d).is_some_and(|d| d.kind.is_callable()))
            };
            !reference.call && reference.receiver.is_none() && !in_type_body()
        })
    };
    // `self.app` and `this.app` (see `Language::self_receivers`) in the body of another
    // type are that type's (`self.app = app` in `Route.__init__` is not a use of
    // `Router.app`), unless one of the two types extends the other (or this one is written
    // outside any type's body).
    let container = index.container_name(def);
    let own_member_of_another_type =
        |file: FileId, data: &crate::index::FileData, reference: &crate::syntax::Ref| {
            let Some(container) = container else {
                return false;
            };
            let on_self = reference.receiver.is_some_and(|receiver| {
                data.text
                    .get(receiver.as_usize())
                    .is_some_and(|text| data.lang.self_receivers().contains(&text.trim()))
            });
            on_self
                && index
                    .enclosing_defs(file, reference.range.start)
                    .iter()
                    .find_map(|d| index.def(*d).filter(|d| d.kind.is_type_or_impl()))
                    .is_some_and(|holder| !index.types_related(&holder.name, container))
        };
    // A use is a call; exploring usages, or renaming the target (every mention changes:
    // a property read, a value passed on), any reference.
    for (file, data, reference) in index
        .references_named(&visible, &name)
        .filter(|(_, _, r)| r.call || usage || renamed)
        .filter(|(file, _, r)| !bare_variable(*file, r))
        .filter(|(file, data, r)| !own_member_of_another_type(*file, data, r))
    {
        // A call that resolves to another definition of the name (another type's `new`)
        // is not a use of this one.
        if index.resolves_elsewhere(file, reference, def) {
            continue;
        }
        let enclosing = index.enclosing_defs(file, reference.range.start);
        let Some(&caller) = enclosing
            .iter()
            .find(|d| index.def(**d).is_some_and(|d| d.kind.is_callable()))
            .or(enclosing.first())
        else {
            continue;
        };
        if caller == def {
            continue;
        }
        let line = data.line_index.line_col(reference.range.start).line;
        if let Some(&at) = seen_callers.get(&caller) {
            callers[at].lines.push(line);
            continue;
        }
        seen_callers.insert(caller, callers.len());
        callers.push(Caller {
            def: caller,
            file,
            is_test: data.is_test || index.def(caller).is_some_and(|d| d.test),
            lines: vec![line],
        });
    }
    // Callers that import the target's file first, then by path, the library's before
    // examples, benchmarks and docs (see `base::auxiliary_kind`); tests named for the
    // target first, then those whose file uses it most.
    let importers = index.import_graph().importers(def.file);
    let mut tests_in_file: FxHashMap<FileId, u32> = FxHashMap::default();
    for caller in callers.iter().filter(|caller| caller.is_test) {
        *tests_in_file.entry(caller.file).or_default() += 1;
    }
    let named: FxHashSet<FileId> = tests_in_file
        .keys()
        .copied()
        .filter(|file| names_target(*file))
        .collect();
    callers.sort_by_key(|caller| {
        let (is_test, file) = (caller.is_test, caller.file);
        (
            is_test,
            is_test && !named.contains(&file),
            std::cmp::Reverse(if is_test { tests_in_file[&file] } else { 0 }),
            index
                .file(file)
                .is_some_and(|data| data.auxiliary.is_some()),
            !importers.contains(&file) && file != def.file,
            index.file(file).map(|d| d.path.clone()),
            caller.lines.first().copied(),
        )
    });
    // Callers are what usage questions and refactors are about; for other tasks they are
    // context that rarely needs to change.
    let caller_weight = match intent {
        IntentKind::UsageExploration | IntentKind::Refactor => WANTED_CALLER_WEIGHT,
        _ => 0.3,
    };
    if renamed {
        renamed_imports(index, def, &name, score, pinned, acc);
    }
    let mut n_callers = 0;
    let mut n_tests = 0;
    // A usage question about a definition it names that only tests use: their uses are its
    // usages.
    let only_tests_use = usage && target.named && callers.iter().all(|caller| caller.is_test);
    // A refactor changes every use: a long caller shows the lines around each of them;
    // otherwise the first use tells how the target is used.
    let every_use = renamed || intent == IntentKind::Refactor;
    let mut sites = Vec::new();
    for Caller {
        def: caller,
        file,
        is_test,
        mut lines,
    } in callers
    {
        if !every_use {
            lines.truncate(1);
        }
        let wanted = match uses_wanted {
            Uses::None => false,
            Uses::InFunctions => index.def(caller).is_some_and(|d| d.kind.is_callable()),
            Uses::All => true,
        };
        if pinned.contains(&file) || (!is_test && !wanted) {
            continue;
        }
        sites.push(CallSite {
            caller,
            file,
            line: lines.first().copied().unwrap_or_default(),
        });
        if is_test && !only_tests_use {
            if n_tests >= MAX_TESTS {
                continue;
            }
            let rank_penalty = 1.0 / (1.0 + n_tests as f32 * 0.2);
            let mut test = code(
                index,
                caller,
                Section::Tests,
                score * 0.5 * rank_penalty,
                vec![format!("test-of:{name}")],
            );
            test.of = Some(name.clone());
            // A model for the test to write is read whole while the budget allows (go-chi's
            // 60-line `TestThrottleRetryAfter` checks the header the task is about after its
            // first use of the target), then as the lines around that use.
            let model = intent == IntentKind::TestWriting
                && LineSpan::of(index, caller)
                    .is_some_and(|span| span.end - span.header <= MAX_FULL_LINES);
            match around_uses(index, caller, &lines, MAX_TEST_LINES) {
                Some((mut windows, _)) if model => {
                    let at = test.renderings.len().saturating_sub(1);
                    test.renderings.insert(at, windows.swap_remove(0));
                    acc.push(test);
                }
                Some(windows) => push_around_uses(index, &test, windows, test.score, acc),
                None => acc.push(test),
            }
            n_tests += 1;
        } else {
            if n_callers >= MAX_CALLERS {
                continue;
            }
            let caller_data = index.def(caller).expect("live def");
            let rank_penalty = 1.0 / (1.0 + n_callers as f32 * 0.15);
            let caller_candidate = |renderings| Candidate {
                section: Section::Callers,
                file,
                def: Some(caller),
                symbol: Some(qualified_name(index, caller)),
                kind: Some(caller_data.kind),
                score: score * caller_weight * rank_penalty,
                reasons: vec![format!("caller-of:{name}")],
                named: false,
                frame: false,
                of: Some(name.clone()),
                renderings,
            };
            match around_uses(index, caller, &lines, MAX_CALLER_LINES) {
                Some(windows) => {
                    let shown = caller_candidate(Vec::new());
                    push_around_uses(index, &shown, windows, shown.score, acc);
                }
                None => acc.push(caller_candidate(vec![full(index, caller)])),
            }
            n_callers += 1;
        }
    }
    sites
}

/// The lines importing a renamed definition's name (`from .encoding import want_bytes`, a
/// package's re-export, `use crate::speed::Result`), which no function holds: a rename
/// changes them too. As callers, at most [`MAX_CALLERS`], in the languages that can name it.
fn renamed_imports(
    index: &Index,
    def: DefId,
    name: &str,
    score: f32,
    pinned: &[FileId],
    acc: &mut Vec<Candidate>,
) {
    let mut n_added = 0;
    for (file, data) in index.files() {
        if pinned.contains(&file) || !index.shares_names(file, def.file) {
            continue;
        }
        for import in &data.syntax.imports {
            if n_added >= MAX_CALLERS {
                return;
            }
            if !import.names.iter().any(|imported| &*imported.name == name) {
                continue;
            }
            let (first, last) = data.line_index.lines(import.range);
            acc.push(Candidate {
                section: Section::Callers,
                file,
                def: None,
                symbol: None,
                kind: None,
                score: score * WANTED_CALLER_WEIGHT / (1.0 + n_added as f32 * 0.15),
                reasons: vec![format!("imports:{name}")],
                named: false,
                frame: false,
                of: Some(name.to_owned()),
                renderings: vec![lines(index, file, first, last)],
            });
            n_added += 1;
        }
    }
}

/// For a refactor, the renamed name (of `renamed`) whose uses found `ranked`, a definition
/// the task does not name: the code using the name, to show where it names it.
fn renamed_use<'r>(intent: IntentKind, renamed: &[String], ranked: &'r Ranked) -> Option<&'r str> {
    if intent != IntentKind::Refactor || ranked.direct {
        return None;
    }
    ranked.used_names().find(|name| renames(renamed, name))
}

/// The candidates showing `shown`'s definition as the lines around its uses (see
/// [`around_uses`]), each as `shown` in all else: its card first, at `card_score`, when the
/// lines start below its header, then each window.
fn push_around_uses(
    index: &Index,
    shown: &Candidate,
    (windows, below_header): (Vec<Rendering>, bool),
    card_score: f32,
    acc: &mut Vec<Candidate>,
) {
    if let (true, Some(def)) = (below_header, shown.def) {
        acc.push(Candidate {
            renderings: vec![compact_with(index, def, false)],
            score: card_score,
            ..shown.clone()
        });
    }
    for window in windows {
        acc.push(Candidate {
            renderings: vec![window],
            ..shown.clone()
        });
    }
}

/// The definitions of a name a rename writes in a type (`MultiState::mark_zombie`) that
/// belong to no type related to it, when some do: another type's method of that name is
/// not renamed (`ProgressDrawTarget::mark_zombie`), an interface declaring it or an
/// override is. A name of more than [`MAX_RENAMED_SCAN`] definitions is not looked at.
fn renamed_elsewhere(index: &Index, renamed_in: &[(String, String)]) -> FxHashSet<DefId> {
    let mut elsewhere = FxHashSet::default();
    for (owner, name) in renamed_in {
        let defs = index.defs_named(name);
        if defs.len() > MAX_RENAMED_SCAN {
            continue;
        }
        let (owned, others): (Vec<DefId>, Vec<DefId>) = defs.iter().partition(|def| {
            index
                .container_name(**def)
                .is_some_and(|container| index.types_related(container, owner))
        });
        if !owned.is_empty() {
            elsewhere.extend(others);
        }
    }
    elsewhere
}

/// Whether a rename of the names `renamed` renames a definition named `name`.
fn renames(renamed: &[String], name: &str) -> bool {
    renamed.iter().any(|renamed| renamed == name)
}

/// Uses at most this many lines apart are shown as one window.
const USES_APART: u32 = 8;
/// A long caller's window: this many lines before its use of the target, and after it,
/// where what the call returns is used (a fix of the target often changes what that code
/// gets).
const USE_LINES_BEFORE: u32 = 2;
const USE_LINES_AFTER: u32 = 5;

/// A long caller or test (at least `max_lines` from its header) as the lines around its
/// uses of the target on `lines` (one window for uses close together): from the header
/// when a use is near it, else after the caller's card (its signature: which function
/// calls, taking what, which the bool asks for), so a reader knows where the lines stand
/// and each item still covers exactly the lines it shows; with whether any window starts
/// below the header. `None` for a short one, shown whole.
fn around_uses(
    index: &Index,
    caller: DefId,
    lines: &[u32],
    max_lines: u32,
) -> Option<(Vec<Rendering>, bool)> {
    let span = LineSpan::of(index, caller)?;
    if span.end - span.header < max_lines {
        return None;
    }
    // In a class's body (`bulk_update.alters_data = True`) the lines around are other
    // members' (the target's own last line, the next method's header): the line alone.
    let (before, after) = if index.def(caller)?.kind.is_callable() {
        (USE_LINES_BEFORE, USE_LINES_AFTER)
    } else {
        (0, 0)
    };
    let mut sorted = lines.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut clusters: Vec<(u32, u32)> = Vec::new();
    for line in sorted {
        match clusters.last_mut() {
            Some((_, last)) if line <= *last + USES_APART => *last = line,
            _ => clusters.push((line, line)),
        }
    }
    // Windows widened to whole statements can reach the one before: then they are one.
    let mut spans: Vec<(u32, u32)> = Vec::new();
    for (first, last) in clusters {
        let (first, last) = span.whole_statements(
            index,
            caller.file,
            (first.saturating_sub(before), last + after),
        );
        let first = if first <= span.name + CALLER_HEADER_GAP {
            span.header
        } else {
            first
        };
        match spans.last_mut() {
            Some((_, before)) if first <= *before + 1 => *before = (*before).max(last),
            _ => spans.push((first, last)),
        }
    }
    let mut windows = Vec::new();
    let mut below_header = false;
    for lines in spans {
        let (window, below) = span.window(index, caller, lines, CALLER_HEADER_GAP)?;
        below_header |= below;
        windows.push(window);
    }
    Some((windows, below_header))
}

fn imports(
    index: &Index,
    primary: &[DefId],
    top_score: f32,
    pinned: &[FileId],
    acc: &mut Vec<Candidate>,
) {
    let mut seen: FxHashSet<FileId> = FxHashSet::default();
    for (rank, def) in primary.iter().enumerate() {
        if !seen.insert(def.file) || pinned.contains(&def.file) {
            continue;
        }
        let Some(data) = index.file(def.file) else {
            continue;
        };
        let in_repo: Vec<&crate::syntax::Import> = data
            .syntax
            .imports
            .iter()
            .filter(|import| !index.resolve_import(def.file, import).is_empty())
            .collect();
        if in_repo.is_empty() {
            continue;
        }
        // The block of import lines around the first in-repo import, shown as it stands
        // (the other imports in it too): it goes on to a later in-repo import while only
        // imports, blank lines and comments lie between, so the item covers exactly the
        // lines it shows (a re-export at the end of the file is another block).
        let import_lines: FxHashSet<u32> = data
            .syntax
            .imports
            .iter()
            .flat_map(|import| {
                let (first, last) = data.line_index.lines(import.range);
                first..=last
            })
            .collect();
        let between_imports = |line: u32| {
            if import_lines.contains(&line) {
                return true;
            }
            let start = data.line_index.line_start(line);
            let end = data.line_index.line_end(line);
            let text = index.text(def.file, TextRange { start, end }).trim();
            text.is_empty() || text.starts_with('#') || text.starts_with("//")
        };
        let (first, mut last) = data.line_index.lines(in_repo[0].range);
        for import in &in_repo[1..] {
            let (start, end) = data.line_index.lines(import.range);
            if start <= last {
                last = last.max(end);
                continue;
            }
            if !(last + 1..start).all(between_imports) {
                break;
            }
            last = end;
        }
        let rendering = lines(index, def.file, first, last);
        acc.push(Candidate {
            section: Section::Imports,
            file: def.file,
            def: None,
            symbol: None,
            kind: None,
            score: top_score * 0.3 / (1.0 + rank as f32),
            reasons: vec![format!("imports-of:{}", data.path)],
            named: false,
            frame: false,
            of: None,
            renderings: vec![rendering],
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::items::Fidelity;
    use crate::engine::rank::{Marks, RankedFile};

    #[test]
    fn a_window_keeps_its_statements_whole() {
        let go = [
            "func (v *Viper) WatchConfig() {",     // 0
            "\tfor {",                             // 1
            "\t\tif (event.Name == configFile &&", // 2
            "\t\t\t(event.Has(Write))) ||",        // 3
            "\t\t\t(current != real) {",           // 4
            "\t\t\terr := v.ReadInConfig()",       // 5
            "\t\t}",                               // 6
            "",                                    // 7
            "\t\tcall(first,",                     // 8
            "\t\t\tsecond)",                       // 9
            "\t\tdone() // the last one.",         // 10
            "\t\tnext()",                          // 11
            "\t}",                                 // 12
            "}",                                   // 13
        ];
        // Starting on a condition's third line, the window starts at the `if` and, the first
        // statement of its block, the line opening the block.
        assert_eq!(whole_statements(&go, 4, 5), (1, 5));
        // Ending on a call's first line, it ends with the call.
        assert_eq!(whole_statements(&go, 5, 8), (2, 9));
        // A block's first statement comes with the line opening the block; the statement
        // after a closed one starts where it is; a comment's full stop continues nothing.
        assert_eq!(whole_statements(&go, 10, 11), (10, 11));
        assert_eq!(whole_statements(&go, 5, 6), (2, 6));
        // A blank line ends a climb.
        assert_eq!(whole_statements(&go, 8, 10), (8, 10));
        let python = [
            "def create(self, items,", // 0
            "           batch_size):", // 1
            "    result = compute(",   // 2
            "        items,",          // 3
            "        batch_size,",     // 4
            "    ).total",             // 5
            "    return result",       // 6
        ];
        assert_eq!(whole_statements(&python, 4, 6), (2, 6));
        assert_eq!(whole_statements(&python, 1, 1), (0, 1));
        assert_eq!(whole_statements(&python, 6, 6), (6, 6));
        // A clause comes with the statement it continues, past the clauses before it.
        let js = [
            "function request(config) {",        // 0
            "  config = merge(config);",         // 1
            "  if (config.allowAbsoluteUrls) {", // 2
            "    one();",                        // 3
            "  } else if (config.baseURL) {",    // 4
            "    two();",                        // 5
            "  } else {",                        // 6
            "    three();",                      // 7
            "  }",                               // 8
            "  return config;",                  // 9
            "}",                                 // 10
        ];
        assert_eq!(whole_statements(&js, 6, 7), (2, 7));
        assert_eq!(whole_statements(&js, 4, 5), (2, 5));
        assert_eq!(whole_statements(&js, 9, 9), (9, 9));
        let python = [
            "def load(self, data):", // 0
            "    data = dict(data)", // 1
            "    try:",              // 2
            "        run(data)",     // 3
            "    except KeyError:",  // 4
            "        pass",          // 5
            "    elsewhere = 1",     // 6
        ];
        assert_eq!(whole_statements(&python, 4, 5), (2, 5));
        // A name starting with a clause's word is no clause.
        assert_eq!(whole_statements(&python, 6, 6), (6, 6));
        // The widening stops after a few lines each way.
        let chain: Vec<String> = std::iter::once("let x = start(".to_owned())
            .chain((0..20).map(|n| format!("    arg{n},")))
            .chain(std::iter::once(");".to_owned()))
            .collect();
        let chain: Vec<&str> = chain.iter().map(String::as_str).collect();
        assert_eq!(
            whole_statements(&chain, 10, 11),
            (10 - MAX_STATEMENT_LINES, 11 + MAX_STATEMENT_LINES)
        );
    }

    /// The first definition named `name`, ranked by BM25 alone.
    fn ranked_by_bm25(index: &Index, name: &str, score: f32) -> Ranked {
        Ranked {
            def: index.defs_named(name)[0],
            score,
            reasons: vec!["bm25:1.00".to_owned()],
            marks: Marks::default(),
            direct: false,
            located: false,
            named: false,
            from_file: 0.0,
        }
    }

    /// The file of the first definition named `name`, ranked at `score`.
    fn file_of(index: &Index, name: &str, score: f32) -> RankedFile {
        RankedFile {
            file: index.defs_named(name)[0].file,
            score,
            reasons: Vec::new(),
        }
    }

    /// The one definition of a name the task writes as code, ranked at `score`.
    fn written_ranked(def: DefId, score: f32) -> Ranked {
        Ranked {
            def,
            score,
            reasons: vec!["exact-name".to_owned()],
            marks: Marks {
                unique_name: true,
                ..Marks::default()
            },
            direct: true,
            located: false,
            named: true,
            from_file: 0.0,
        }
    }

    /// A ranking with one direct target, named exactly, and one file ranked first.
    fn one_target(def: DefId, best_file: FileId) -> Ranking {
        Ranking {
            defs: vec![written_ranked(def, 1.0)],
            files: vec![RankedFile {
                file: best_file,
                score: 1.0,
                reasons: Vec::new(),
            }],
        }
    }

    /// Adds to `ranking` the one definition of a name the task writes, at half the best
    /// score, in a file of its own ranked at `file_score`.
    fn add_written(ranking: &mut Ranking, def: DefId, file_score: f32) {
        ranking.defs.push(written_ranked(def, 0.5));
        ranking.files.push(RankedFile {
            file: def.file,
            score: file_score,
            reasons: Vec::new(),
        });
    }

    /// The candidates of an expansion with a reason.
    fn with_reason<'a>(expansion: &'a Expansion, reason: &str) -> Vec<&'a Candidate> {
        expansion
            .candidates
            .iter()
            .filter(|candidate| candidate.reasons.iter().any(|r| r == reason))
            .collect()
    }

    /// The symbols of the candidates with a reason, sorted.
    fn symbols_with_reason<'a>(expansion: &'a Expansion, reason: &str) -> Vec<&'a str> {
        let mut symbols: Vec<&str> = with_reason(expansion, reason)
            .into_iter()
            .filter_map(|candidate| candidate.symbol.as_deref())
            .collect();
        symbols.sort_unstable();
        symbols
    }

    /// The definition named `name` whose container is `container`.
    fn member(index: &Index, container: &str, name: &str) -> DefId {
        index
            .defs_named(name)
            .iter()
            .copied()
            .find(|def| index.container_name(*def) == Some(container))
            .unwrap_or_else(|| panic!("{container}.{name} is defined"))
    }

    /// The symbols of the callers found for `target`, sorted.
    fn callers_of(index: &Index, target: DefId, intent: IntentKind) -> Vec<String> {
        callers_of_target(index, target, true, intent)
    }

    /// The symbols of the callers found for `target`, named by the task or not, sorted.
    fn callers_of_target(
        index: &Index,
        target: DefId,
        named: bool,
        intent: IntentKind,
    ) -> Vec<String> {
        let mut callers = callers_in_order(index, target, named, intent);
        callers.sort();
        callers
    }

    /// The symbols of the callers found for `target`, in the order they come.
    fn callers_in_order(
        index: &Index,
        target: DefId,
        named: bool,
        intent: IntentKind,
    ) -> Vec<String> {
        let mut candidates = Vec::new();
        let ranked = Ranked {
            def: target,
            score: 1.0,
            reasons: Vec::new(),
            marks: Marks::default(),
            direct: named,
            located: false,
            named,
            from_file: 0.0,
        };
        callers_and_tests(
            index,
            &ranked,
            intent,
            Uses::All,
            false,
            &[],
            &mut candidates,
        );
        candidates
            .iter()
            .filter(|candidate| candidate.section == Section::Callers)
            .filter_map(|candidate| candidate.symbol.clone())
            .collect()
    }

    /// A ranking of files alone, best first.
    fn files_ranked(scores: &[f32]) -> Ranking {
        Ranking {
            defs: Vec::new(),
            files: (0..)
                .zip(scores)
                .map(|(idx, score)| RankedFile {
                    file: FileId(idx),
                    score: *score,
                    reasons: Vec::new(),
                })
                .collect(),
        }
    }

    #[test]
    fn usage_questions_and_tests_reach_further_from_the_best_file() {
        let ranking = files_ranked(&[1.0, 0.7, 0.6, 0.3]);
        let focus = |intent| {
            let mut files: Vec<u32> = focus_files(&ranking, &[], intent)
                .into_iter()
                .map(|file| file.0)
                .collect();
            files.sort_unstable();
            files
        };
        assert_eq!(focus(IntentKind::BugFix), [0, 1]);
        assert_eq!(focus(IntentKind::Implementation), [0, 1]);
        assert_eq!(focus(IntentKind::UsageExploration), [0, 1, 2]);
        assert_eq!(focus(IntentKind::TestWriting), [0, 1, 2]);
    }

    #[test]
    fn named_targets_far_below_the_best_file_are_its_focus_only_when_asked_about() {
        let ranking = files_ranked(&[1.0, 0.3]);
        let target = |direct, located| Ranked {
            def: DefId {
                file: FileId(1),
                idx: 0,
            },
            score: 0.3,
            reasons: Vec::new(),
            marks: Marks::default(),
            direct,
            located,
            named: true,
            from_file: 0.0,
        };
        let in_focus =
            |target: &Ranked, intent| focus_files(&ranking, &[target], intent).contains(&FileId(1));
        let named = target(true, false);
        assert!(!in_focus(&named, IntentKind::BugFix));
        assert!(!in_focus(&named, IntentKind::Implementation));
        assert!(in_focus(&named, IntentKind::DefinitionLookup));
        assert!(in_focus(&named, IntentKind::UsageExploration));
        // A trace frame or a path shows where the task is.
        assert!(in_focus(&target(true, true), IntentKind::BugFix));
        assert!(!in_focus(
            &target(false, false),
            IntentKind::DefinitionLookup
        ));
    }

    #[test]
    fn a_long_containers_members_come_before_its_whole_code() {
        let mut long = String::from("//- /app/store.py\nclass Store:\n");
        for n in 0..35 {
            long.push_str(&format!("    def get_{n}(self):\n        return {n}\n"));
        }
        long.push_str("class Small:\n    def one(self):\n        return 1\n");
        let (index, _) = crate::index::tests::index_fixture(&long);
        let fidelities = |name: &str| -> Vec<Fidelity> {
            let def = index.defs_named(name)[0];
            code(&index, def, Section::Code, 1.0, Vec::new())
                .renderings
                .iter()
                .map(|rendering| rendering.fidelity)
                .collect()
        };
        // 71 lines: the members' signatures first, the whole code if they do not fit.
        assert_eq!(
            fidelities("Store"),
            [Fidelity::Standard, Fidelity::Full, Fidelity::Compact]
        );
        assert_eq!(
            fidelities("Small"),
            [Fidelity::Full, Fidelity::Standard, Fidelity::Compact]
        );
    }

    #[test]
    fn a_run_of_functions_of_one_name_is_one_member_of_a_standard_card() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /app/cli.py
from typing import overload
class Command:
    @overload
    def main(self, args: list[str]) -> None: ...
    @overload
    def main(self, args: None = None) -> None: ...
    def main(self, args=None):
        return args
    def invoke(self, ctx):
        return ctx
"#,
        );
        let def = index.defs_named("Command")[0];
        let card = standard(&index, def, MAX_MEMBERS).unwrap();
        let lines: Vec<&str> = card.body.lines().skip(1).collect();
        assert_eq!(
            lines,
            [
                "  4: def main(self, args: list[str]) -> None (+2 of this name)",
                "  9: def invoke(self, ctx)"
            ],
            "{}",
            card.body
        );
    }

    #[test]
    fn a_call_on_a_value_of_unknown_type_is_of_the_method_its_file_sees() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /db/models/query.py
class QuerySet:
    def bulk_update(self, objs, fields):
        return objs

    def abulk_update(self, objs, fields):
        return self.bulk_update(objs, fields)
//- /db/migrations/state.py
class StateApps:
    def bulk_update(self):
        return self

class ProjectState:
    def reload(self):
        with self.apps.bulk_update():
            pass
//- /db/commands/migrate.py
from db.migrations.state import ProjectState

def handle(state):
    with state.apps.bulk_update():
        pass
//- /db/models/base.py
def set_order(manager, objs):
    manager.filter().bulk_update(objs, ["order"])
"#,
        );
        let target = member(&index, "QuerySet", "bulk_update");
        let callers = callers_of(&index, target, IntentKind::UsageExploration);
        // `state.py` defines another `bulk_update` and `migrate.py` imports its module, and
        // neither sees `query.py`; `base.py` sees neither, so its call may be of the target.
        assert_eq!(callers, ["QuerySet.abulk_update", "set_order"]);
    }

    #[test]
    fn a_refactored_method_brings_its_overrides_down_the_hierarchy() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /fields/base.py
class Field:
    def get_prep_value(self, value):
        return value
//- /fields/text.py
from fields.base import Field

class CharField(Field):
    def get_prep_value(self, value):
        return str(value)

class TextField(CharField):
    def get_prep_value(self, value):
        return value.strip()
//- /forms/widgets.py
class Widget:
    def get_prep_value(self, value):
        return value
"#,
        );
        let target = member(&index, "Field", "get_prep_value");
        let overrides = |intent: IntentKind| {
            let expansion = expand(
                &index,
                &one_target(target, target.file),
                intent,
                false,
                &[],
                TaskText::default(),
            );
            symbols_with_reason(&expansion, "override-of:get_prep_value")
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        // Two levels down; not another hierarchy's method of the name.
        assert_eq!(
            overrides(IntentKind::Refactor),
            ["CharField.get_prep_value", "TextField.get_prep_value"]
        );
        assert!(overrides(IntentKind::BugFix).is_empty());
    }

    #[test]
    fn a_call_of_another_types_method_of_the_same_name_is_not_a_caller() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /src/sub.rs
pub struct SubMatches {}
impl SubMatches {
    pub fn new() -> SubMatches { SubMatches {} }
}
pub struct Builder {}
impl Builder {
    pub fn new() -> Builder { Builder {} }
}
pub fn uses_sub() { let _ = SubMatches::new(); }
pub fn uses_builder() { let _ = Builder::new(); }
pub fn uses_vec() { let _: Vec<u8> = Vec::new(); }
pub fn on_a_value() { let maker = make(); maker.new(); }
pub fn on_a_foreign_type(maker: &Maker) { maker.new(); }
"#,
        );
        let target = member(&index, "SubMatches", "new");
        let callers = callers_of(&index, target, IntentKind::BugFix);
        // `Builder::new` and `Vec::new` are other types' constructors, and `maker: &Maker`
        // is of a type the repository does not define; a value of unknown type may be a
        // `SubMatches`.
        assert_eq!(callers, ["on_a_value", "uses_sub"]);
    }

    #[test]
    fn a_target_brings_the_repository_types_it_names() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /src/config.rs
pub struct Config { pub path: String }
pub enum Mode { Fast, Slow }
pub struct Unused {}
//- /src/load.rs
use crate::config::{Config, Mode};
pub fn load(path: &str, mode: Mode) -> Config {
    let _ = String::new();
    Config { path: path.to_owned() }
}
"#,
        );
        let load = index.defs_named("load")[0];
        let ranking = one_target(load, load.file);
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        let typed = symbols_with_reason(&expansion, "type-in:load");
        assert_eq!(typed, ["Config", "Mode"]);
    }

    #[test]
    fn a_method_calling_its_name_on_a_typed_value_brings_that_types_method() {
        // `Text::wrap` calls `wrapper.wrap()`: not a recursion, but `LineWrapper::wrap`,
        // which the binding of `wrapper` tells apart from the other `wrap`s.
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /src/wrap.rs
pub struct LineWrapper;
impl LineWrapper {
    pub fn new() -> Self { LineWrapper }
    pub fn wrap(&mut self) {}
}
pub fn wrap() {}
//- /src/text.rs
pub struct Text;
impl Text {
    pub fn wrap(&mut self) {
        let mut wrapper = crate::wrap::LineWrapper::new();
        wrapper.wrap();
        self.wrap();
    }
}
"#,
        );
        let text_wrap = *index
            .defs_named("wrap")
            .iter()
            .find(|def| index.container_name(**def) == Some("Text"))
            .unwrap();
        let ranking = one_target(text_wrap, text_wrap.file);
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        let callees: Vec<String> = with_reason(&expansion, "callee-of:wrap")
            .iter()
            .map(|candidate| crate::index::tests::member_name(&index, candidate.def.unwrap()))
            .collect();
        assert_eq!(callees, ["LineWrapper.new", "LineWrapper.wrap"]);
    }

    #[test]
    fn a_trace_frame_in_a_long_function_can_show_the_lines_around_the_frame() {
        let filler: String = (0..60).map(|i| format!("    x{i} = {i}\n")).collect();
        // `handle` spans lines 1-64; the frame is line 50, `x48 = 48`.
        let source = format!(
            "//- /app/migrate.py\ndef handle(options):\n{filler}    executor = run(options)\n    return executor\n"
        );
        let (index, _) = crate::index::tests::index_fixture(&source);
        let target = index.defs_named("handle")[0];
        let mut ranking = one_target(target, target.file);
        ranking.defs[0].reasons = vec!["traceback-frame:app/migrate.py:50".to_owned()];
        ranking.defs[0].marks = Marks::of(&ranking.defs[0].reasons);
        ranking.defs[0].located = true;
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        let candidates = with_reason(&expansion, "traceback-frame:app/migrate.py:50");
        // The lines around the frame, which start far below the header, so the function's
        // card comes as a candidate of its own; then (longer than two windows) the whole
        // function.
        let code = candidates
            .iter()
            .find(|candidate| candidate.renderings.len() > 1)
            .expect("the frame's code");
        assert_eq!(code.renderings[1].fidelity, Fidelity::Full);
        assert!(code.renderings[1].body.starts_with("def handle(options):"));
        let window = &code.renderings[0];
        assert_eq!(window.fidelity, Fidelity::Full);
        assert!(window.body.starts_with("    x36 = 36\n"), "{}", window.body);
        assert!(window.body.contains("    x48 = 48\n"));
        assert!(window.body.ends_with("    x54 = 54\n"), "{}", window.body);
        assert_eq!(
            index.text(code.file, window.range).trim_end(),
            window.body.trim_end()
        );
        let card = candidates
            .iter()
            .find(|candidate| candidate.renderings.len() == 1)
            .expect("the function's card");
        assert_eq!(card.renderings[0].fidelity, Fidelity::Compact);
        assert_eq!(card.renderings[0].body, "def handle(options)\n");
        // A frame near the header shows the lines from the header: no card of its own.
        ranking.defs[0].reasons = vec!["traceback-frame:app/migrate.py:5".to_owned()];
        ranking.defs[0].marks = Marks::of(&ranking.defs[0].reasons);
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        let candidates = with_reason(&expansion, "traceback-frame:app/migrate.py:5");
        assert_eq!(candidates.len(), 1);
        assert!(candidates[0].renderings[0]
            .body
            .starts_with("def handle(options):\n"));
        assert!(candidates[0].renderings[0].body.lines().count() < 30);
    }

    /// A fixture whose `create` has `filler` lines before its batch size check, with the
    /// ranking that targets it.
    fn long_create(filler: usize) -> (Index, Ranking) {
        let filler: String = (0..filler).map(|i| format!("    x{i} = {i}\n")).collect();
        let source = format!(
            "//- /db/query.py\ndef create(objs, batch_size=None):\n{filler}    if batch_size is not None and batch_size <= 0:\n        raise ValueError(\"Batch size must be positive\")\n    return objs\n\ndef other():\n    return 1\n"
        );
        let (index, _) = crate::index::tests::index_fixture(&source);
        let target = index.defs_named("create")[0];
        let ranking = one_target(target, target.file);
        (index, ranking)
    }

    /// A fix's expansion with the words of `long_create`'s check.
    fn batch_size_fix(index: &Index, ranking: &Ranking) -> Expansion {
        let terms: Vec<String> = ["batch", "size", "zero"].map(String::from).to_vec();
        expand(
            index,
            ranking,
            IntentKind::BugFix,
            false,
            &[],
            TaskText {
                terms: &terms,
                ..TaskText::default()
            },
        )
    }

    #[test]
    fn a_long_doc_comment_counts_neither_for_the_window_nor_for_the_length() {
        // Forty lines of doc comment about the batch size above a 45-line function whose
        // check is at its end: the window holds the check, not the comment.
        let doc: String = (0..40)
            .map(|i| format!("/// The batch size {i} must not be zero.\n"))
            .collect();
        let filler: String = (0..40).map(|i| format!("    let x{i} = {i};\n")).collect();
        let source = format!(
            "//- /src/query.rs\n{doc}fn create(batch_size: usize) {{\n{filler}    if batch_size == 0 {{\n        panic!(\"zero\");\n    }}\n}}\n"
        );
        let (index, _) = crate::index::tests::index_fixture(&source);
        let target = index.defs_named("create")[0];
        let ranking = one_target(target, target.file);
        let expansion = batch_size_fix(&index, &ranking);
        let code = with_reason(&expansion, "exact-name")
            .into_iter()
            .find(|candidate| candidate.renderings.len() > 1)
            .expect("the target's code");
        // 86 lines with the comment, 45 without: the whole function comes first.
        assert!(code.renderings[0].body.starts_with("/// The batch size 0"));
        let window = &code.renderings[1];
        assert!(
            window.body.contains("if batch_size == 0"),
            "{}",
            window.body
        );
        assert!(!window.body.contains("///"), "{}", window.body);
    }

    #[test]
    fn a_window_of_a_long_target_is_laid_around_the_code_the_task_quotes() {
        // The task's words fill `run`'s first lines; the line it quotes is line 62.
        let filler = |from: usize, to: usize| -> String {
            (from..to).map(|i| format!("    x{i} = {i}\n")).collect()
        };
        let source = format!(
            "//- /bench/run.py\ndef run(options):\n    count = options.max_runs\n    runs = options.min_runs\n{}    remaining = count - 1\n{}    return remaining\n",
            filler(3, 62),
            filler(63, 120),
        );
        let (index, _) = crate::index::tests::index_fixture(&source);
        let target = index.defs_named("run")[0];
        let ranking = one_target(target, target.file);
        let terms: Vec<String> = ["count", "max", "runs"].map(String::from).to_vec();
        let window_of = |fragments: &[String]| -> String {
            let task = TaskText {
                terms: &terms,
                fragments,
                ..TaskText::default()
            };
            let expansion = expand(&index, &ranking, IntentKind::BugFix, false, &[], task);
            let code = with_reason(&expansion, "exact-name")
                .into_iter()
                .find(|candidate| candidate.renderings.len() > 1)
                .expect("the target's code");
            let window = code
                .renderings
                .iter()
                .find(|rendering| rendering.body.lines().count() == 30)
                .expect("a window");
            window.body.clone()
        };
        // By its words alone, the window holds the first lines.
        assert!(window_of(&[]).contains("options.max_runs"));
        // Quoting `count - 1` lays it around that line: 15 lines before it, 14 after.
        let quoted = window_of(&["count - 1".to_owned()]);
        let lines: Vec<&str> = quoted.lines().collect();
        assert_eq!(lines.len(), 30, "{quoted}");
        assert_eq!(lines[15], "    remaining = count - 1", "{quoted}");
    }

    #[test]
    fn a_long_target_can_show_the_lines_that_hold_the_tasks_words() {
        // `create` spans lines 1-56; the batch size check is on lines 52-53.
        let (index, ranking) = long_create(50);
        let expansion = batch_size_fix(&index, &ranking);
        let candidates = with_reason(&expansion, "exact-name");
        let code = candidates
            .iter()
            .find(|candidate| candidate.renderings.len() > 1)
            .expect("the target's code");
        assert!(code.renderings[0].body.starts_with("def create("));
        // The words' lines, after the function's card (they start far below its header).
        let window = &code.renderings[1];
        assert_eq!(window.fidelity, Fidelity::Full);
        assert!(window.body.contains("batch_size <= 0"), "{}", window.body);
        assert!(!window.body.starts_with("def create("), "{}", window.body);
        assert_eq!(window.body.lines().count(), 30);
        assert!(candidates.iter().any(|candidate| {
            candidate.renderings.len() == 1 && candidate.renderings[0].fidelity == Fidelity::Compact
        }));
        // Without the task's words on its lines, no window.
        let unrelated: Vec<String> = vec!["network".to_owned()];
        let expansion = expand(
            &index,
            &ranking,
            IntentKind::BugFix,
            false,
            &[],
            TaskText {
                terms: &unrelated,
                ..TaskText::default()
            },
        );
        let code = &with_reason(&expansion, "exact-name")[0];
        assert!(code
            .renderings
            .iter()
            .all(|rendering| rendering.fidelity != Fidelity::Full
                || rendering.body.starts_with("def create(")));
    }

    #[test]
    fn a_target_longer_than_two_windows_shows_its_window_before_its_whole_body() {
        let first_rendering = |ranking: &Ranking, index: &Index, intent| {
            let terms: Vec<String> = ["batch", "size", "zero"].map(String::from).to_vec();
            let expansion = expand(
                index,
                ranking,
                intent,
                false,
                &[],
                TaskText {
                    terms: &terms,
                    ..TaskText::default()
                },
            );
            let code = expansion
                .candidates
                .iter()
                .find(|candidate| {
                    candidate.section == Section::Code && candidate.renderings.len() > 1
                })
                .expect("the target's code");
            (
                code.renderings[0].body.lines().count(),
                code.renderings[1].body.lines().count(),
            )
        };
        // Found by its words, an 84-line function shows its window before its whole body.
        let (index, mut ranking) = long_create(80);
        ranking.defs[0] = Ranked {
            def: ranking.defs[0].def,
            ..ranked_by_bm25(&index, "create", 1.0)
        };
        assert_eq!(
            first_rendering(&ranking, &index, IntentKind::BugFix),
            (30, 84)
        );
        // Named by the task, it comes whole first while it fits; past 150 lines of code,
        // its window first.
        let (index, ranking) = long_create(80);
        assert_eq!(
            first_rendering(&ranking, &index, IntentKind::BugFix),
            (84, 30)
        );
        let (index, ranking) = long_create(160);
        assert_eq!(
            first_rendering(&ranking, &index, IntentKind::BugFix),
            (30, 164)
        );
        // A refactor of it, written as code, rewrites all of it: the whole body first.
        assert_eq!(
            first_rendering(&ranking, &index, IntentKind::Refactor),
            (164, 30)
        );
    }

    #[test]
    fn a_path_holds_a_name_as_a_word_of_its_own() {
        assert!(holds_word("tests/bulk_create/tests.py", "bulk_create"));
        assert!(holds_word("tests/test_send.py", "send"));
        assert!(!holds_word("tests/test_sender.py", "send"));
        assert!(!holds_word("tests/resend.py", "send"));
    }

    #[test]
    fn tests_named_for_the_target_or_its_module_come_first() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /shop/db.py
def connect(url):
    return url
//- /tests/test_api.py
from shop.db import connect

def test_listing():
    connect("sqlite://")
//- /tests/test_db.py
from shop.db import connect

def test_connect_memory():
    connect("sqlite://")

def test_connect_file():
    connect("sqlite:///x.db")
"#,
        );
        let target = index.defs_named("connect")[0];
        let ranking = one_target(target, target.file);
        let expansion = expand_plain(&index, &ranking, IntentKind::TestWriting);
        let mut tests: Vec<(f32, &str)> = with_reason(&expansion, "test-of:connect")
            .into_iter()
            .map(|candidate| {
                (
                    candidate.score,
                    candidate.symbol.as_deref().unwrap_or_default(),
                )
            })
            .collect();
        tests.sort_by(|a, b| b.0.total_cmp(&a.0));
        let names: Vec<&str> = tests.iter().map(|(_, name)| *name).collect();
        // `test_db.py` is named for the target's module; `test_api.py` comes first by path.
        assert_eq!(
            names,
            ["test_connect_memory", "test_connect_file", "test_listing"]
        );
        // A test file may drop the words opening its module's name (`test_registry.py` for
        // `class_registry.py`), when no module has the shorter name.
        let source = r#"
//- /shop/class_registry.py
def get_class(name):
    return name
//- /tests/test_api.py
from shop.class_registry import get_class

def test_listing():
    get_class("A")
//- /tests/test_registry.py
from shop.class_registry import get_class

def test_lookup():
    get_class("B")
"#;
        let first_test = |source: &str| {
            let (index, _) = crate::index::tests::index_fixture(source);
            let target = index.defs_named("get_class")[0];
            let ranking = one_target(target, target.file);
            let expansion = expand_plain(&index, &ranking, IntentKind::TestWriting);
            let mut tests = with_reason(&expansion, "test-of:get_class");
            tests.sort_by(|a, b| b.score.total_cmp(&a.score));
            tests[0].symbol.clone().unwrap_or_default()
        };
        assert_eq!(first_test(source), "test_lookup");
        let with_registry = format!("{source}//- /shop/registry.py\ndef other():\n    pass\n");
        assert_eq!(first_test(&with_registry), "test_listing");
    }

    #[test]
    fn callers_are_in_languages_that_can_name_the_target() {
        let (index, _) = crate::index::tests::index_fixture(
            "//- /bench/query.js\nexport function map(items, callback) { return items }\n\
             //- /bench/use.js\nimport { map } from './query'\nfunction run(xs) { return map(xs, 1) }\n\
             //- /src/app.rs\nfn double(v: Vec<u8>) -> Vec<u8> {\n    map(v)\n}\n",
        );
        let map = index.defs_named("map")[0];
        assert_eq!(
            callers_of(&index, map, IntentKind::UsageExploration),
            ["run"]
        );
    }

    #[test]
    fn a_call_through_a_trait_object_calls_each_implementation() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /src/executor.rs
pub trait Executor {
    fn measure(&self) -> u32;
}
pub struct Shell;
impl Executor for Shell {
    fn measure(&self) -> u32 {
        1
    }
}
//- /src/bench.rs
use crate::executor::Executor;
pub struct Bench<'a> {
    executor: &'a dyn Executor,
}
impl Bench<'_> {
    fn run(&self) -> u32 {
        self.executor.measure()
    }
}
"#,
        );
        let measure = member(&index, "Shell", "measure");
        assert_eq!(
            callers_of(&index, measure, IntentKind::UsageExploration),
            ["Bench.run"]
        );
    }

    #[test]
    fn a_bare_name_of_a_method_outside_its_type_is_a_variable_not_a_use() {
        let (index, _) = crate::index::tests::index_fixture(
            "//- /app/routing.py\n\
             class Router:\n    def route(self, path):\n        return path\n\n    route.public = True\n\n\
             def url_path_for(routes):\n    for route in routes:\n        print(route)\n\n\
             def mount(router):\n    return router.route\n",
        );
        let route = member(&index, "Router", "route");
        // The method read on a value, and named in its class's body; not the loop variable.
        assert_eq!(
            callers_of(&index, route, IntentKind::UsageExploration),
            ["Router", "mount"]
        );
    }

    #[test]
    fn a_member_on_self_in_another_types_body_or_a_parameter_of_its_name_is_no_use() {
        let (index, _) = crate::index::tests::index_fixture(
            "//- /app/routing.py\n\
             class Router:\n    def app(self, scope):\n        return scope\n\n\
             \x20   def mount(self, path, app):\n        return Route(path, app=app)\n\n\
             \x20   def dispatch(self, scope):\n        return self.app(scope)\n\n\
             class Route:\n    def __init__(self, path, app):\n        self.app = app\n\n\
             class SubRouter(Router):\n    def run(self, scope):\n        return self.app(scope)\n\n\
             def serve(router):\n    return router.app(None)\n",
        );
        let app = member(&index, "Router", "app");
        // Not `Route.__init__`'s own attribute, nor `mount`'s parameter; a subclass's
        // `self.app` is the method it inherits.
        assert_eq!(
            callers_of(&index, app, IntentKind::UsageExploration),
            ["Router.dispatch", "SubRouter.run", "serve"]
        );
    }

    #[test]
    fn a_named_definition_only_tests_use_has_their_uses_for_its_usages() {
        let (index, _) = crate::index::tests::index_fixture(
            "//- /lib/context.js\nexport function fail(status) { throw new Error(status) }\n\
             export function done() { return 1 }\n\
             //- /lib/app.js\nimport { done } from './context'\nexport function run() { return done() }\n\
             //- /__tests__/context/fail.test.js\nimport { fail, done } from '../../lib/context'\n\
             function failsWith500() { fail(500) }\nfunction isDone() { done() }\n",
        );
        let fail = index.defs_named("fail")[0];
        assert_eq!(
            callers_of(&index, fail, IntentKind::UsageExploration),
            ["failsWith500"]
        );
        // Not for other tasks, whose tests are the target's tests, nor for a definition the
        // task does not name; nor while code other than tests uses it.
        assert!(callers_of(&index, fail, IntentKind::BugFix).is_empty());
        assert!(callers_of_target(&index, fail, false, IntentKind::UsageExploration).is_empty());
        let done = index.defs_named("done")[0];
        assert_eq!(
            callers_of(&index, done, IntentKind::UsageExploration),
            ["run"]
        );
    }

    #[test]
    fn a_long_caller_shows_its_header_with_the_lines_around_the_call() {
        // Two long callers: one calls four lines below its header, one at its end.
        let filler: String = (0..40).map(|i| format!("    x{i} = {i}\n")).collect();
        let source = format!(
            "//- /src/app.py\ndef connect(url):\n    return url\n\n\
             def early(url):\n    a = 1\n    b = 2\n    c = 3\n    connect(url)\n{filler}    return None\n\n\
             def late(url):\n{filler}    connect(url)\n    return None\n"
        );
        let (index, _) = crate::index::tests::index_fixture(&source);
        let target = index.defs_named("connect")[0];
        let ranking = one_target(target, target.file);
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        let shown: Vec<(&str, Fidelity, String)> = with_reason(&expansion, "caller-of:connect")
            .into_iter()
            .map(|candidate| {
                let rendering = &candidate.renderings[0];
                (
                    candidate.symbol.as_deref().unwrap_or_default(),
                    rendering.fidelity,
                    rendering.body.clone(),
                )
            })
            .collect();
        let lines_of = |body: &str| body.lines().count();
        // Near the header: one block from the header to five lines past the call, where
        // what it returns would be used.
        assert_eq!(shown[0].0, "early");
        assert!(shown[0].2.starts_with("def early(url):\n    a = 1\n"));
        assert!(shown[0].2.contains("    connect(url)\n"));
        assert!(shown[0].2.ends_with("    x4 = 4\n"));
        assert_eq!(lines_of(&shown[0].2), 10);
        // Far from it: the caller's card, then the lines around the call.
        assert_eq!(shown[1].0, "late");
        assert_eq!(shown[1].1, Fidelity::Compact);
        assert_eq!(shown[1].2, "def late(url)\n");
        assert_eq!(shown[2].0, "late");
        assert_eq!(shown[2].1, Fidelity::Full);
        assert!(shown[2].2.contains("    connect(url)\n"));
        assert_eq!(lines_of(&shown[2].2), 4);
        assert_eq!(shown.len(), 3);
        // Each covers exactly the lines it shows.
        for candidate in with_reason(&expansion, "caller-of:connect") {
            let rendering = &candidate.renderings[0];
            if rendering.fidelity == Fidelity::Full {
                assert_eq!(
                    index.text(candidate.file, rendering.range).trim_end(),
                    rendering.body.trim_end()
                );
            }
        }
    }

    #[test]
    fn a_refactor_shows_the_lines_around_every_use_in_a_long_caller() {
        // Two uses close together and one far below, in a caller of 60 lines.
        let filler = |from: usize| -> String {
            (from..from + 20)
                .map(|i| format!("    x{i} = {i}\n"))
                .collect()
        };
        let source = format!(
            "//- /src/app.py\ndef store(errors):\n    return errors\n\n\
             def load(data):\n{}    store(data)\n    y = 1\n    store(y)\n{}    store(None)\n{}    return data\n",
            filler(0),
            filler(20),
            filler(40)
        );
        let (index, _) = crate::index::tests::index_fixture(&source);
        let target = index.defs_named("store")[0];
        let ranking = one_target(target, target.file);
        let windows = |expansion: &Expansion| -> Vec<String> {
            with_reason(expansion, "caller-of:store")
                .into_iter()
                .map(|candidate| &candidate.renderings[0])
                .filter(|rendering| rendering.fidelity == Fidelity::Full)
                .map(|rendering| rendering.body.clone())
                .collect()
        };
        let renamed = windows(&renaming(&index, &ranking, &["store".to_owned()]));
        assert_eq!(renamed.len(), 2, "{renamed:?}");
        assert!(renamed[0].contains("    store(data)\n    y = 1\n    store(y)\n"));
        assert!(renamed[1].contains("    store(None)\n"));
        // A bug fix needs to see how the target is called, once.
        let fixing = windows(&expand_plain(&index, &ranking, IntentKind::BugFix));
        assert_eq!(fixing.len(), 1, "{fixing:?}");
        assert!(fixing[0].contains("    store(data)\n"));
    }

    #[test]
    fn a_types_uses_come_only_when_the_task_is_about_the_type() {
        let source = "//- /lib/headers.js\n\
            export class Headers {\n  normalize(format) { return format }\n}\n\
            //- /lib/fetch.js\n\
            import { Headers } from './headers'\n\
            export class FetchHeaders extends Headers {}\n\
            export function build(init) { return new Headers(init) }\n\
            export function send(headers) { return headers.normalize(true) }\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let headers = index.defs_named("Headers")[0];
        let normalize = member(&index, "Headers", "normalize");
        let callers = |ranking: &Ranking| {
            let expansion = expand_plain(&index, ranking, IntentKind::UsageExploration);
            let mut found: Vec<String> = expansion
                .candidates
                .iter()
                .filter(|candidate| candidate.section == Section::Callers)
                .filter_map(|candidate| candidate.symbol.clone())
                .collect();
            found.sort();
            found.dedup();
            found
        };
        // Named alone, the type's uses are the answer.
        assert_eq!(
            callers(&one_target(headers, headers.file)),
            ["FetchHeaders", "build"]
        );
        // Named beside its member, it says whose member: the member's calls.
        let mut both = one_target(headers, headers.file);
        both.defs.push(Ranked {
            def: normalize,
            named: true,
            ..ranked_by_bm25(&index, "normalize", 0.9)
        });
        assert_eq!(callers(&both), ["send"]);
        // Found by its words, the functions using it, not the types naming it.
        let mut by_words = one_target(headers, headers.file);
        by_words.defs[0].direct = false;
        assert_eq!(callers(&by_words), ["build"]);
    }

    #[test]
    fn a_use_in_a_long_class_body_shows_its_own_line() {
        let methods: String = (0..12)
            .map(|i| format!("    def m{i}(self):\n        return {i}\n\n"))
            .collect();
        let source = format!(
            "//- /src/query.py\nclass QuerySet:\n{methods}    def bulk_update(self):\n        return 1\n\n\
             \x20   bulk_update.alters_data = True\n\n    def after(self):\n        return 2\n"
        );
        let (index, _) = crate::index::tests::index_fixture(&source);
        let target = index.defs_named("bulk_update")[0];
        let ranking = one_target(target, target.file);
        let expansion = expand(
            &index,
            &ranking,
            IntentKind::UsageExploration,
            true,
            &[],
            TaskText::default(),
        );
        let lines: Vec<&str> = with_reason(&expansion, "caller-of:bulk_update")
            .into_iter()
            .filter(|candidate| candidate.renderings[0].fidelity == Fidelity::Full)
            .map(|candidate| candidate.renderings[0].body.as_str())
            .collect();
        // Not the target's last line or the next method's header around it.
        assert_eq!(lines, ["    bulk_update.alters_data = True\n"]);
    }

    #[test]
    fn a_ranked_member_brings_its_container_as_a_card() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /src/app.py
def handle(request):
    return request

class Session:
    def close(self):
        return None
"#,
        );
        let ranked = |name: &str, score: f32| ranked_by_bm25(&index, name, score);
        let handle = ranked("handle", 1.0);
        let ranking = Ranking {
            files: vec![RankedFile {
                file: handle.def.file,
                score: 1.0,
                reasons: Vec::new(),
            }],
            // `close` ranks too low to be a target: it becomes a card.
            defs: vec![handle, ranked("close", 0.3)],
        };
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        let container = expansion
            .candidates
            .iter()
            .find(|candidate| candidate.reasons.iter().any(|r| r == "container-of:close"))
            .expect("Session carded as close's container");
        assert_eq!(container.symbol.as_deref(), Some("Session"));
        // Listed with `close` indented under it, the class scores as well as its member.
        assert!((container.score - 0.3).abs() < 1e-6);
    }

    #[test]
    fn a_targets_siblings_come_by_their_distance_to_it_after_the_types_data() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /query.py
class QuerySet:
    ordered = False

    def __repr__(self):
        return "qs"

    def count(self):
        return 0

    def bulk_create(self, objs):
        return objs

    def bulk_update(self, objs, fields):
        return objs

    def abulk_update(self, objs, fields):
        return objs

    def delete(self):
        return None
"#,
        );
        let target = index.defs_named("bulk_update")[0];
        let expansion = expand(
            &index,
            &one_target(target, target.file),
            IntentKind::BugFix,
            false,
            &[],
            TaskText::default(),
        );
        let siblings: Vec<(&str, f32)> = {
            let mut listed: Vec<(&str, f32)> = with_reason(&expansion, "member-of:QuerySet")
                .into_iter()
                .map(|c| (c.symbol.as_deref().unwrap_or(""), c.score))
                .collect();
            listed.sort_by(|a, b| b.1.total_cmp(&a.1));
            listed
        };
        let order: Vec<&str> = siblings.iter().map(|(symbol, _)| *symbol).collect();
        // The field first, then the methods by their distance (in bytes) to `bulk_update`,
        // and the earliest of two at the same distance.
        assert_eq!(
            order,
            [
                "QuerySet.ordered",
                "QuerySet.bulk_create",
                "QuerySet.abulk_update",
                "QuerySet.count",
                "QuerySet.delete",
                "QuerySet.__repr__",
            ]
        );
    }

    #[test]
    fn a_files_map_is_laid_around_the_innermost_targets() {
        let methods: String = (0..40)
            .map(|n| format!("    def m{n:02}(self):\n        return {n}\n\n"))
            .collect();
        let (index, _) = crate::index::tests::index_fixture(&format!(
            "//- /query.py\nclass QuerySet:\n{methods}"
        ));
        let named = |name: &str, score: f32| Ranked {
            score,
            direct: true,
            named: true,
            ..ranked_by_bm25(&index, name, score)
        };
        let target = named("m35", 1.0);
        let file = target.def.file;
        // The class is a target too (`QuerySet.m35`): its range holds every method.
        let ranking = Ranking {
            defs: vec![target, named("QuerySet", 0.9)],
            files: vec![RankedFile {
                file,
                score: 1.0,
                reasons: Vec::new(),
            }],
        };
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        let score_of = |symbol: &str| {
            with_reason(&expansion, "outline-of-best-file")
                .into_iter()
                .find(|c| c.symbol.as_deref() == Some(symbol))
                .map(|c| c.score)
        };
        // The siblings carded with the class are the thirty nearest m35; the map goes on
        // from the nearest of the rest, not from the top of the class.
        let (near, far) = (score_of("QuerySet.m08"), score_of("QuerySet.m00"));
        assert!(near.is_some() && far.is_some(), "{near:?} {far:?}");
        assert!(near > far, "{near:?} {far:?}");
    }

    #[test]
    fn a_carded_member_lifts_the_card_of_the_type_holding_it_to_its_score() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /gin.go
package gin

type HandlersChain []int

type RouteInfo struct {
	Method string
	Path   string
}

func handle() {}
"#,
        );
        let ranked = |name: &str, score: f32| ranked_by_bm25(&index, name, score);
        let handle = ranked("handle", 1.0);
        let ranking = Ranking {
            files: vec![RankedFile {
                file: handle.def.file,
                score: 1.0,
                reasons: Vec::new(),
            }],
            // `RouteInfo` ranks far below its field `Path`, and is carded first.
            defs: vec![handle, ranked("RouteInfo", 0.13), ranked("Path", 0.3)],
        };
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        let score_of = |symbol: &str| {
            expansion
                .candidates
                .iter()
                .find(|c| c.section == Section::Definitions && c.symbol.as_deref() == Some(symbol))
                .map(|c| c.score)
        };
        assert_eq!(score_of("RouteInfo.Path"), Some(0.3));
        assert_eq!(score_of("RouteInfo"), Some(0.3));
        // A type holding no carded member keeps its own score.
        assert!(score_of("HandlersChain").is_none_or(|score| score < 0.3));
    }

    #[test]
    fn a_go_method_brings_its_receiver_type_and_the_methods_beside_it_as_an_outline() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /mux/route.go
package mux

// Route stores information to match a request.
type Route struct {
	name string
}

// Name sets the name for the route.
func (r *Route) Name(name string) *Route { r.name = name; return r }

// GetName returns the name for the route.
func (r *Route) GetName() string { return r.name }
//- /mux/regexp.go
package mux

func (r *Route) addRegexpMatcher(tpl string) error { return nil }
//- /mux/mux.go
package mux

// Router matches requests against its routes.
type Router struct{}

func (r *Router) Handle() {}
"#,
        );
        let target = index.defs_named("GetName")[0];
        let ranking = one_target(target, index.defs_named("Router")[0].file);
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        let container = with_reason(&expansion, "container-of:GetName");
        assert_eq!(container.len(), 1);
        assert_eq!(container[0].symbol.as_deref(), Some("Route"));
        // Its field and the other method of its file, as an outline: signatures without
        // their doc sentence; not the method in another file of the package.
        let members = with_reason(&expansion, "member-of:Route");
        let symbols: Vec<&str> = members
            .iter()
            .filter_map(|candidate| candidate.symbol.as_deref())
            .collect();
        assert_eq!(symbols, ["Route.name", "Route.Name"]);
        let name = members[1].renderings[0].body.as_str();
        assert!(
            name.starts_with("func (r *Route) Name(name string) *Route"),
            "{name}"
        );
        assert!(!name.contains("sets the name"), "{name}");
    }

    #[test]
    fn a_test_target_brings_its_siblings_only_for_a_task_about_tests() {
        // A `describe('FormData')` block found by its name: its block is its container, and
        // the other cases of that block are an outline only when the task writes tests.
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /test/http.test.js
describe('http adapter', () => {
  it('should redirect', () => {})
  it('should support proxies', () => {})
  describe('FormData', () => {})
})
"#,
        );
        let target = index.defs_named("FormData")[0];
        let ranking = one_target(target, target.file);
        for (intent, siblings) in [(IntentKind::BugFix, 0), (IntentKind::TestWriting, 2)] {
            let expansion = expand_plain(&index, &ranking, intent);
            assert_eq!(
                with_reason(&expansion, "container-of:FormData").len(),
                1,
                "{intent:?}"
            );
            assert_eq!(
                with_reason(&expansion, "member-of:http adapter").len(),
                siblings,
                "{intent:?}"
            );
        }
    }

    #[test]
    fn a_files_map_leaves_out_the_constants_inside_its_functions() {
        let source = "//- /src/app.rs\n\
            pub fn target() -> u32 { 1 }\n\
            pub fn flag_color() -> &'static str { const LONG: &str = \"color\"; LONG }\n\
            pub fn outer() -> u32 { fn inner() -> u32 { 2 } inner() }\n\
            pub const TOP: u32 = 3;\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let target = index.defs_named("target")[0];
        let ranking = one_target(target, target.file);
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        let map = symbols_with_reason(&expansion, "outline-of-best-file");
        assert_eq!(map, ["TOP", "flag_color", "outer", "outer.inner"]);
    }

    #[test]
    fn the_one_definition_of_a_name_written_as_code_is_in_focus_wherever_it_is() {
        let source = "//- /src/command.py\n\
            def setup_defaults():\n    pass\n\
            //- /src/flags.py\n\
            def bool_flag(name):\n    return name\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let setup = index.defs_named("setup_defaults")[0];
        let flag = index.defs_named("bool_flag")[0];
        let mut ranking = one_target(setup, setup.file);
        add_written(&mut ranking, flag, 0.1);
        let code_of = |ranking: &Ranking| {
            let expansion = expand_plain(&index, ranking, IntentKind::BugFix);
            expansion
                .candidates
                .into_iter()
                .find(|candidate| candidate.def == Some(flag) && candidate.section == Section::Code)
                .expect("the named function's code")
        };
        assert!(!code_of(&ranking).reasons.contains(&"off-focus".to_owned()));
        // So does a name written as a tool of the change (`built by flags.bool_flag`), which
        // the ranking counts as named, not direct.
        ranking.defs[1].direct = false;
        assert!(!code_of(&ranking).reasons.contains(&"off-focus".to_owned()));
        // One of several definitions of the name must earn its place by its file's rank.
        ranking.defs[1].reasons = vec!["exact-name:bool_flag".to_owned()];
        ranking.defs[1].marks = Marks::of(&ranking.defs[1].reasons);
        assert!(code_of(&ranking).reasons.contains(&"off-focus".to_owned()));
    }

    #[test]
    fn writing_tests_the_best_ranked_test_comes_whole_when_no_test_of_a_target_does() {
        let source = "//- /app/static.py\n\
            def is_not_modified(headers):\n    return False\n\
            //- /tests/test_static.py\n\
            def test_etag_match(client):\n    response = client.get('/x')\n    assert response.status_code == 304\n\
            def test_missing(client):\n    assert client.get('/y').status_code == 404\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let target = index.defs_named("is_not_modified")[0];
        let mut ranking = one_target(target, target.file);
        ranking
            .defs
            .push(ranked_by_bm25(&index, "test_etag_match", 0.2));
        ranking
            .defs
            .push(ranked_by_bm25(&index, "test_missing", 0.15));
        let expansion = expand_plain(&index, &ranking, IntentKind::TestWriting);
        let fidelity_of = |name: &str| {
            let def = index.defs_named(name)[0];
            expansion
                .candidates
                .iter()
                .find(|candidate| candidate.def == Some(def) && candidate.section == Section::Tests)
                .map(|candidate| candidate.renderings[0].fidelity)
        };
        assert_eq!(fidelity_of("test_etag_match"), Some(Fidelity::Full));
        assert_eq!(fidelity_of("test_missing"), Some(Fidelity::Compact));
        // Other tasks list tests found by their words as cards among the definitions.
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        assert!(expansion
            .candidates
            .iter()
            .all(
                |candidate| candidate.renderings[0].fidelity != Fidelity::Full
                    || candidate.def == Some(target)
            ));
    }

    #[test]
    fn a_javascript_object_a_variable_is_named_after_tells_whose_method_is_called() {
        // Express: `res.render` calls `app.render`; the examples call `res.render` on a
        // handler's `res` parameter, which the repository's `res` object stands for.
        let source = "//- /lib/application.js\n\
            var app = exports = module.exports = {};\n\
            app.render = function render(name, options, callback) { return tryRender(name); };\n\
            function tryRender(name) { return name; }\n\
            //- /lib/response.js\n\
            var res = module.exports = {};\n\
            res.render = function render(view, options) {\n  var app = this.req.app;\n  app.render(view, options);\n};\n\
            //- /examples/mvc/index.js\n\
            function show(req, res) {\n  res.render('show');\n}\n\
            function boot(app) {\n  app.render('boot');\n}\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let of = |path: &str| {
            let file = index.file_id(0, path).unwrap();
            *index
                .defs_named("render")
                .iter()
                .find(|def| def.file == file)
                .unwrap()
        };
        // The library's callers come before the examples'.
        assert_eq!(
            callers_in_order(&index, of("lib/application.js"), true, IntentKind::Refactor),
            ["res.render", "boot"]
        );
        assert_eq!(
            callers_of(&index, of("lib/response.js"), IntentKind::Refactor),
            ["show"]
        );
    }

    #[test]
    fn a_target_found_by_words_brings_callers_only_when_none_is_written_as_code() {
        let source = "//- /src/mux.py\n\
            class Mux:\n    def handle(self):\n        pass\n    def get(self):\n        return self.handle()\n\
            //- /src/app.py\n\
            def serve(mux):\n    return mux.get()\n\
            def post(mux):\n    return mux.handle()\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let handle = member(&index, "Mux", "handle");
        let by_words = |score| Ranked {
            def: member(&index, "Mux", "get"),
            ..ranked_by_bm25(&index, "get", score)
        };
        let callers = |ranking: &Ranking| {
            let expansion = expand(
                &index,
                ranking,
                IntentKind::Refactor,
                true,
                &[],
                TaskText::default(),
            );
            let mut symbols = symbols_with_reason(&expansion, "caller-of:get");
            symbols.extend(symbols_with_reason(&expansion, "caller-of:handle"));
            symbols.into_iter().map(str::to_owned).collect::<Vec<_>>()
        };
        // `rename Mux.handle`: the callers of `handle`, not of `get`, found by its words.
        let mut ranking = one_target(handle, handle.file);
        ranking.defs.push(by_words(0.9));
        assert_eq!(callers(&ranking), ["Mux.get", "post"]);
        // Nothing named: what the words found is all there is to go on.
        let mut ranking = one_target(handle, handle.file);
        ranking.defs = vec![by_words(1.0)];
        assert_eq!(callers(&ranking), ["serve"]);
    }

    /// A type's method, called by one function; the type, constructed by another.
    const STORE_STRICT: &str = "//- /src/store.py\n\
        class Store:\n    def strict(self):\n        return self\n\
        //- /src/app.py\n\
        from src.store import Store\n\
        def make():\n    return Store()\n\
        def tighten(store):\n    return store.strict()\n";

    #[test]
    fn the_qualifier_of_a_named_member_brings_no_callers_of_its_own() {
        let (index, _) = crate::index::tests::index_fixture(STORE_STRICT);
        let strict = member(&index, "Store", "strict");
        let mut ranking = one_target(strict, strict.file);
        ranking.defs.push(Ranked {
            reasons: vec!["container-of:Store.strict".to_owned()],
            marks: Marks {
                qualifier: true,
                ..Marks::default()
            },
            named: true,
            ..ranked_by_bm25(&index, "Store", 0.9)
        });
        let expansion = expand(
            &index,
            &ranking,
            IntentKind::UsageExploration,
            true,
            &[],
            TaskText::default(),
        );
        assert_eq!(
            symbols_with_reason(&expansion, "caller-of:strict"),
            ["tighten"]
        );
        assert!(with_reason(&expansion, "caller-of:Store").is_empty());
        // It is still there, as the member's container.
        assert!(!with_reason(&expansion, "container-of:strict").is_empty());
    }

    /// The expansion of a task that wants no callers from outside its focus, with no pinned
    /// files, no search terms and no rename.
    fn expand_plain(index: &Index, ranking: &Ranking, intent: IntentKind) -> Expansion {
        expand(index, ranking, intent, false, &[], TaskText::default())
    }

    /// The expansion of a refactor that wants callers and renames `renamed`.
    #[test]
    fn a_usage_question_shows_the_code_of_functions_ranked_near_the_best_beyond_the_targets() {
        // In two files: a file's lone match by words alone is no target.
        let source: String = (0..10)
            .map(|i| {
                format!(
                    "//- /src/step{i}.py\ndef step{i}(x):\n    return x + {i}\ndef step{i}b(x):\n    return x\n"
                )
            })
            .collect();
        let (index, _) = crate::index::tests::index_fixture(&source);
        // 1.0 down to 0.68, then 0.5.
        let score = |i: usize| if i < 9 { 1.0 - 0.04 * i as f32 } else { 0.5 };
        let ranking = Ranking {
            defs: (0..10)
                .map(|i| ranked_by_bm25(&index, &format!("step{i}"), score(i)))
                .chain((0..10).map(|i| ranked_by_bm25(&index, &format!("step{i}b"), 0.1)))
                .collect(),
            files: Vec::new(),
        };
        let shown_as_code = |intent: IntentKind| -> Vec<String> {
            let mut names: Vec<String> =
                expand(&index, &ranking, intent, false, &[], TaskText::default())
                    .candidates
                    .into_iter()
                    .filter(|candidate| candidate.section == Section::Code)
                    .filter(|candidate| candidate.renderings[0].fidelity == Fidelity::Full)
                    .filter_map(|candidate| candidate.symbol)
                    .collect();
            names.sort();
            names.dedup();
            names
        };
        // Six targets, then the three next (at least 0.6 of the best) as code too, not the
        // last.
        assert_eq!(shown_as_code(IntentKind::UsageExploration).len(), 9);
        // A fix shows the targets' code and the rest as cards.
        assert_eq!(shown_as_code(IntentKind::BugFix).len(), 6);
    }

    #[test]
    fn a_rename_shows_the_lines_importing_the_renamed_name() {
        let (index, _) = crate::index::tests::index_fixture(
            "//- /pkg/db.py\ndef store(data):\n    return data\n\
             //- /pkg/__init__.py\nfrom .db import store\n\
             //- /pkg/app.py\nimport os\nfrom .db import store\n\n\ndef run():\n    return store(1)\n\
             //- /pkg/other.py\nfrom .db import load\n",
        );
        let target = index.defs_named("store")[0];
        let ranking = one_target(target, target.file);
        let imports = |renamed: &[String]| -> Vec<(String, String)> {
            let expansion = renaming(&index, &ranking, renamed);
            let mut found: Vec<(String, String)> = with_reason(&expansion, "imports:store")
                .into_iter()
                .map(|candidate| {
                    let path = index.file(candidate.file).unwrap().path.to_string();
                    (path, candidate.renderings[0].body.clone())
                })
                .collect();
            found.sort();
            found
        };
        assert_eq!(
            imports(&["store".to_owned()]),
            [
                (
                    "pkg/__init__.py".to_owned(),
                    "from .db import store\n".to_owned()
                ),
                (
                    "pkg/app.py".to_owned(),
                    "from .db import store\n".to_owned()
                ),
            ]
        );
        // A refactor that renames nothing leaves the imports as they are.
        assert!(imports(&[]).is_empty());
    }

    #[test]
    fn a_rename_shows_the_lines_naming_it_in_code_that_uses_it_as_a_value() {
        // `Rename recomputeAtoms ...`: only the type of another casing is a definition;
        // the code binds the value to a local of the renamed name and calls it far below.
        let filler = |from: usize| -> String {
            (from..from + 30)
                .map(|i| format!("  const x{i} = {i}\n"))
                .collect()
        };
        let source = format!(
            "//- /src/store.ts\n\
             export type RecomputeAtoms = (store: number) => void\n\
             export function writeAtom(blocks: any[]) {{\n  const recomputeAtoms = blocks[3]\n{}  recomputeAtoms(1)\n{}  return blocks\n}}\n\
             export function readAtom(blocks: any[]) {{\n  const recomputeAtoms = blocks[3]\n  recomputeAtoms(2)\n}}\n",
            filler(0),
            filler(30)
        );
        let (index, _) = crate::index::tests::index_fixture(&source);
        let ty = index.defs_named("RecomputeAtoms")[0];
        let mut ranking = one_target(ty, ty.file);
        for (name, score) in [("writeAtom", 0.8), ("readAtom", 0.7)] {
            ranking.defs.push(Ranked {
                reasons: vec!["uses:recomputeAtoms".to_owned()],
                named: true,
                ..ranked_by_bm25(&index, name, score)
            });
        }
        let renamed = ["recomputeAtoms".to_owned(), "RecomputeAtoms".to_owned()];
        let expansion = renaming(&index, &ranking, &renamed);
        let shown = |symbol: &str| -> Vec<String> {
            expansion
                .candidates
                .iter()
                .filter(|candidate| candidate.symbol.as_deref() == Some(symbol))
                .filter(|candidate| candidate.section == Section::Code)
                .map(|candidate| &candidate.renderings[0])
                .filter(|rendering| rendering.fidelity == Fidelity::Full)
                .map(|rendering| rendering.body.clone())
                .collect()
        };
        // The long one: its header with the alias, then the call 30 lines below (after its
        // card), not the lines between.
        let long = shown("writeAtom");
        assert_eq!(long.len(), 2, "{long:?}");
        assert!(
            long[0].contains("const recomputeAtoms = blocks[3]"),
            "{long:?}"
        );
        assert!(long[1].contains("  recomputeAtoms(1)\n"), "{long:?}");
        assert!(
            long.iter().all(|body| !body.contains("x15 = 15")),
            "{long:?}"
        );
        // The short one whole.
        assert_eq!(shown("readAtom").len(), 1);
        assert!(shown("readAtom")[0].contains("recomputeAtoms(2)"));
        // Without the rename, the long one is a target of its own, its body whole.
        let plain = renaming(&index, &ranking, &[]);
        assert!(plain.candidates.iter().any(|candidate| {
            candidate.symbol.as_deref() == Some("writeAtom")
                && candidate.renderings[0].body.contains("x15 = 15")
        }));
    }

    fn renaming(index: &Index, ranking: &Ranking, renamed: &[String]) -> Expansion {
        expand(
            index,
            ranking,
            IntentKind::Refactor,
            true,
            &[],
            TaskText {
                renamed,
                ..TaskText::default()
            },
        )
    }

    #[test]
    fn a_rename_brings_the_callers_of_what_it_renames_only() {
        let (index, _) = crate::index::tests::index_fixture(STORE_STRICT);
        let strict = member(&index, "Store", "strict");
        // `Rename Store's strict() to tightened()`: both are named, the type as itself.
        let mut ranking = one_target(strict, strict.file);
        ranking.defs.push(Ranked {
            named: true,
            direct: true,
            ..ranked_by_bm25(&index, "Store", 0.9)
        });
        let callers = |renamed: &[String]| {
            let expansion = renaming(&index, &ranking, renamed);
            let mut symbols = symbols_with_reason(&expansion, "caller-of:strict");
            symbols.extend(symbols_with_reason(&expansion, "caller-of:Store"));
            symbols.into_iter().map(str::to_owned).collect::<Vec<_>>()
        };
        assert_eq!(callers(&["strict".to_owned()]), ["tighten"]);
        // Without a rename, or of a name no target has, the type named beside its member
        // says whose member the task is about: the member's callers come, not the type's.
        assert_eq!(callers(&[]), ["tighten"]);
        assert_eq!(callers(&["loose".to_owned()]), ["tighten"]);
    }

    #[test]
    fn new_code_sees_the_cards_of_the_names_it_is_written_like_wherever_they_are() {
        let source = "//- /src/fetch.ts\n\
            export function fetchRaw(options) {\n  return options.onRequest(options);\n}\n\
            //- /src/types.ts\n\
            export interface FetchHooks {\n  onRequest?: Hook;\n  onResponse?: Hook;\n}\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let raw = index.defs_named("fetchRaw")[0];
        let hook = index.defs_named("onRequest")[0];
        let mut ranking = one_target(raw, raw.file);
        add_written(&mut ranking, hook, 0.3);
        let off_focus = |intent| {
            let expansion = expand_plain(&index, &ranking, intent);
            let card = expansion
                .candidates
                .iter()
                .find(|candidate| candidate.def == Some(hook))
                .expect("the member's card");
            card.reasons.iter().any(|reason| reason == "off-focus")
        };
        // `Add an onRetry hook ... like onRequest and onResponse`.
        assert!(!off_focus(IntentKind::Implementation));
        // A fix goes where the code is: the other file's card stays off the focus.
        assert!(off_focus(IntentKind::BugFix));
    }

    #[test]
    fn a_traces_innermost_frames_are_targets_at_any_score() {
        let source = "//- /src/walk.py\n\
            def push(d):\n    return d\n\n\
            def handle(d):\n    return push(d)\n\n\
            def step(d):\n    return handle(d)\n\n\
            def a():\n    pass\n\ndef b():\n    pass\n\ndef c():\n    pass\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let def = |name: &str| index.defs_named(name)[0];
        let ranked = |name: &str, score: f32, frame: Option<u32>| Ranked {
            def: def(name),
            score,
            reasons: Vec::new(),
            marks: Marks {
                frame_line: frame,
                ..Marks::default()
            },
            direct: true,
            located: frame.is_some(),
            named: true,
            from_file: 0.0,
        };
        // The innermost frame first, three names the task writes, then the outer frame, far
        // below the best.
        let mut ranking = one_target(def("push"), def("push").file);
        ranking.defs = vec![
            ranked("push", 3.0, Some(2)),
            ranked("a", 1.0, None),
            ranked("b", 1.0, None),
            ranked("c", 1.0, None),
            ranked("step", 0.8, Some(8)),
        ];
        let primary: Vec<String> = primary_targets(&index, &ranking, 3.0, &|_| false)
            .iter()
            .map(|target| index.def(target.def).unwrap().name.to_string())
            .collect();
        assert_eq!(primary, ["push", "a", "b", "step"]);
    }

    #[test]
    fn a_rename_written_in_its_type_leaves_another_types_method_of_that_name() {
        let source = r#"
//- /src/multi.rs
pub struct MultiState {
    zombies: Vec<usize>,
}

impl MultiState {
    pub fn mark_zombie(&mut self, index: usize) {
        self.zombies.push(index);
    }
}

pub struct DrawTarget {
    state: MultiState,
}

impl DrawTarget {
    pub fn mark_zombie(&mut self) {
        self.state.mark_zombie(0);
    }
}

pub struct Bar {
    target: DrawTarget,
}

impl Bar {
    pub fn drop(&mut self) {
        self.target.mark_zombie();
    }
}
"#;
        let (index, _) = crate::index::tests::index_fixture(source);
        let multi = member(&index, "MultiState", "mark_zombie");
        let draw = member(&index, "DrawTarget", "mark_zombie");
        // Both rank (the task's words find the other), the written one first.
        let mut ranking = one_target(multi, multi.file);
        ranking.defs.push(Ranked {
            named: true,
            direct: true,
            def: draw,
            ..ranked_by_bm25(&index, "mark_zombie", 0.9)
        });
        let callers = |renamed_in: &[(String, String)]| {
            let expansion = expand(
                &index,
                &ranking,
                IntentKind::Refactor,
                true,
                &[],
                TaskText {
                    renamed: &["mark_zombie".to_owned()],
                    renamed_in,
                    ..TaskText::default()
                },
            );
            let mut symbols: Vec<String> = symbols_with_reason(&expansion, "caller-of:mark_zombie")
                .into_iter()
                .map(str::to_owned)
                .collect();
            symbols.sort();
            symbols
        };
        // `rename MultiState::mark_zombie`: the call in `DrawTarget.mark_zombie`, not the
        // calls of `DrawTarget`'s method of that name.
        let written = [("MultiState".to_owned(), "mark_zombie".to_owned())];
        assert_eq!(callers(&written), ["DrawTarget.mark_zombie"]);
        // Unqualified, both are renamed.
        assert_eq!(callers(&[]), ["Bar.drop", "DrawTarget.mark_zombie"]);
        // A type the name has no definition in says nothing of which is meant.
        let unknown = [("Elsewhere".to_owned(), "mark_zombie".to_owned())];
        assert_eq!(callers(&unknown), ["Bar.drop", "DrawTarget.mark_zombie"]);
    }

    #[test]
    fn a_long_test_is_shown_as_the_lines_around_its_use_of_the_target() {
        let mut source = String::from(
            "//- /shop/db.py\ndef connect(url):\n    return url\n//- /tests/test_db.py\nfrom shop.db import connect\n\ndef test_everything_compiles():\n",
        );
        for line in 0..70 {
            source.push_str(&format!("    check_{line}()\n"));
        }
        source.push_str("    connect(\"sqlite://\")\n");
        let (index, _) = crate::index::tests::index_fixture(&source);
        let target = index.defs_named("connect")[0];
        let tests_of = |intent| {
            let expansion = expand(
                &index,
                &one_target(target, target.file),
                intent,
                false,
                &[],
                TaskText::default(),
            );
            with_reason(&expansion, "test-of:connect")
                .into_iter()
                .cloned()
                .collect::<Vec<Candidate>>()
        };
        let tests = tests_of(IntentKind::BugFix);
        // Its card (which test, where) and the lines around the call, not its 72 lines.
        let shown: Vec<(Fidelity, String)> = tests
            .iter()
            .map(|candidate| {
                let rendering = &candidate.renderings[0];
                (rendering.fidelity, rendering.body.clone())
            })
            .collect();
        assert_eq!(shown.len(), 2, "{shown:?}");
        assert_eq!(shown[0].0, Fidelity::Compact, "{shown:?}");
        assert!(shown[1].1.contains("connect(\"sqlite://\")"), "{shown:?}");
        assert!(!shown[1].1.contains("check_10()"), "{shown:?}");
        assert!(tests
            .iter()
            .all(|candidate| candidate.renderings.len() == 1));
        // Writing tests, it is a model to read whole while the budget allows, then the lines
        // around the call, then its card.
        let tests = tests_of(IntentKind::TestWriting);
        assert_eq!(tests.len(), 1);
        let renderings = &tests[0].renderings;
        assert_eq!(renderings.len(), 3);
        assert!(renderings[0].body.contains("check_10()"));
        assert!(renderings[1].body.contains("connect(\"sqlite://\")"));
        assert!(!renderings[1].body.contains("check_10()"));
        assert_eq!(renderings[2].fidelity, Fidelity::Compact);
    }

    #[test]
    fn the_one_file_holding_a_quoted_message_is_never_off_the_focus() {
        let source = "//- /src/routing/mod.rs\n\
            pub fn route(path: &str) { merge(path) }\n\
            //- /src/routing/method_routing.rs\n\
            pub fn merge(path: &str) { panic!(\"Overlapping method route. Handler for {path}\") }\n\
            //- /src/routing/md.rs\n\
            pub fn render() -> &'static str { \"Overlapping method route. Handler for\" }\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let route = index.defs_named("route")[0];
        let merge = index.defs_named("merge")[0];
        let render = index.defs_named("render")[0];
        // A panic located in `route`, its message made in `merge` (and, in the second
        // ranking, quoted by `render` of a third file too).
        let off_focus = |holders: &[DefId]| {
            let mut ranking = one_target(route, route.file);
            ranking.defs[0].marks.frame_line = Some(1);
            for (n, holder) in holders.iter().enumerate() {
                ranking.defs.push(Ranked {
                    def: *holder,
                    reasons: vec!["literal:Overlapping method route. Handler for".to_owned()],
                    marks: Marks {
                        literal: true,
                        ..Marks::default()
                    },
                    named: true,
                    ..ranked_by_bm25(&index, "merge", 0.8 - n as f32 * 0.01)
                });
            }
            let expansion = expand(
                &index,
                &ranking,
                IntentKind::BugFix,
                false,
                &[],
                TaskText::default(),
            );
            let code: Vec<&Candidate> = expansion
                .candidates
                .iter()
                .filter(|candidate| {
                    candidate.def == Some(merge) && candidate.section == Section::Code
                })
                .collect();
            assert!(!code.is_empty());
            code.iter()
                .all(|candidate| candidate.reasons.iter().any(|r| r == "off-focus"))
        };
        assert!(!off_focus(&[merge]));
        assert!(off_focus(&[merge, render]));
    }

    #[test]
    fn a_rename_brings_every_use_of_the_renamed_name_and_its_tests() {
        let source = "//- /source/index.js\n\
            export const chalkStderr = createChalk({level: 2});\n\
            export function createChalk(options) { return options; }\n\
            //- /source/util.js\n\
            import {chalkStderr} from './index.js';\n\
            export function log(message) { return [chalkStderr, message]; }\n\
            //- /test/chalk.test.js\n\
            import {chalkStderr} from '../source/index.js';\n\
            export function test_stderr_level() { return chalkStderr.level === 2; }\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let target = index.defs_named("chalkStderr")[0];
        let ranking = one_target(target, target.file);
        let uses = |renamed: &[String]| {
            let expansion = renaming(&index, &ranking, renamed);
            let mut shown: Vec<(String, bool)> = expansion
                .candidates
                .iter()
                .filter(|candidate| {
                    candidate.reasons.iter().any(|reason| {
                        reason == "caller-of:chalkStderr" || reason == "test-of:chalkStderr"
                    })
                })
                .map(|candidate| {
                    let off_focus = candidate.reasons.iter().any(|r| r == "off-focus");
                    (candidate.symbol.clone().unwrap_or_default(), off_focus)
                })
                .collect();
            shown.sort();
            shown.dedup();
            shown
        };
        // Renamed, the function passing it on and the test reading it change too, and the
        // test is not off the focus.
        assert_eq!(
            uses(&["chalkStderr".to_owned()]),
            [
                ("log".to_owned(), false),
                ("test_stderr_level".to_owned(), false)
            ]
        );
        // Otherwise only calls are uses: there are none.
        assert!(uses(&[]).is_empty(), "{:?}", uses(&[]));
    }

    #[test]
    fn the_few_definitions_of_a_renamed_name_are_all_in_the_answer() {
        let source = "//- /src/http-exception.ts\n\
            export class HTTPException {\n  getResponse(): Response { return new Response() }\n}\n\
            //- /src/types.ts\n\
            export interface HTTPResponseError {\n  getResponse: () => Response\n}\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let class_method = member(&index, "HTTPException", "getResponse");
        let declared = member(&index, "HTTPResponseError", "getResponse");
        let mut ranking = one_target(class_method, class_method.file);
        ranking.defs.push(Ranked {
            def: declared,
            ..ranked_by_bm25(&index, "getResponse", 0.5)
        });
        let off_focus = |renamed: &[String]| {
            let expansion = renaming(&index, &ranking, renamed);
            expansion
                .candidates
                .iter()
                .filter(|candidate| candidate.def == Some(declared))
                .all(|candidate| candidate.reasons.iter().any(|r| r == "off-focus"))
        };
        assert!(!off_focus(&["getResponse".to_owned()]));
        // Without a rename, the other file's declaration must earn its place.
        assert!(off_focus(&[]));
    }

    #[test]
    fn a_files_imports_are_shown_as_the_block_of_lines_they_stand_in() {
        let source = "//- /src/app.ts\n\
            import { Cart } from \"./cart\";\n\
            import fs from \"fs\";\n\
            \n\
            // local helpers\n\
            import { total } from \"./total\";\n\
            export function checkout(cart: Cart) { return total(cart); }\n\
            export { Cart } from \"./cart\";\n\
            //- /src/cart.ts\nexport class Cart {}\n\
            //- /src/total.ts\nexport function total(cart) { return 0; }\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let target = index.defs_named("checkout")[0];
        let file = target.file;
        let ranking = one_target(target, file);
        let expansion = expand_plain(&index, &ranking, IntentKind::Implementation);
        let imports: Vec<&Rendering> = expansion
            .candidates
            .iter()
            .filter(|candidate| candidate.section == Section::Imports)
            .map(|candidate| &candidate.renderings[0])
            .collect();
        assert_eq!(imports.len(), 1);
        // The first five lines, as they stand; not the re-export after the code.
        let shown = index.text(file, imports[0].range);
        assert_eq!(imports[0].body, shown);
        assert_eq!(
            shown,
            "import { Cart } from \"./cart\";\nimport fs from \"fs\";\n\n// local helpers\n\
             import { total } from \"./total\";\n"
        );
    }

    #[test]
    fn a_lone_match_by_words_in_another_file_is_no_target() {
        let source = "//- /src/app.py\ndef handle(request):\n    return request\n\
                      def respond(request):\n    return request\n\
                      //- /src/util.py\ndef pad(text):\n    return text\n\
                      //- /src/fmt.py\ndef indent(text):\n    return text\n\
                      def dedent(text):\n    return text\n";
        let (index, _) = crate::index::tests::index_fixture(source);
        let ranked = |name: &str, score: f32| ranked_by_bm25(&index, name, score);
        let file = |name: &str, score: f32| file_of(&index, name, score);
        let targets = |pad_named: bool| -> Vec<String> {
            let ranking = Ranking {
                defs: vec![
                    ranked("handle", 1.0),
                    Ranked {
                        named: pad_named,
                        ..ranked("pad", 0.9)
                    },
                    ranked("indent", 0.85),
                    ranked("respond", 0.8),
                    ranked("dedent", 0.7),
                ],
                files: vec![file("handle", 1.6), file("indent", 1.2), file("pad", 1.1)],
            };
            let mut names: Vec<String> = expand_plain(&index, &ranking, IntentKind::BugFix)
                .candidates
                .into_iter()
                .filter(|candidate| candidate.section == Section::Code)
                .filter_map(|candidate| candidate.symbol)
                .collect();
            names.sort();
            names.dedup();
            names
        };
        // `pad`, util.py's only match, found by its words: not a target. `indent` has a
        // second match in its file, and the best file's are targets whatever they are.
        assert_eq!(targets(false), ["dedent", "handle", "indent", "respond"]);
        // Found by a name the task writes, it is one.
        assert_eq!(
            targets(true),
            ["dedent", "handle", "indent", "pad", "respond"]
        );
    }

    #[test]
    fn the_other_focus_files_get_a_short_map_after_the_best_files() {
        let mut source =
            String::from("//- /src/app.py\ndef handle(request):\n    return request\n");
        source.push_str("//- /src/models.py\n");
        for idx in 0..12 {
            source.push_str(&format!("def helper_{idx}():\n    return {idx}\n"));
        }
        source.push_str("def prepare(request):\n    return request\n");
        source.push_str("//- /src/other.py\ndef unrelated():\n    return 1\n");
        let (index, _) = crate::index::tests::index_fixture(&source);
        let ranked = |name: &str, score: f32| ranked_by_bm25(&index, name, score);
        let file = |name: &str, score: f32| file_of(&index, name, score);
        let ranking = Ranking {
            defs: vec![
                ranked("handle", 1.0),
                Ranked {
                    named: true,
                    ..ranked("prepare", 0.9)
                },
            ],
            // `other.py` is in focus but has nothing in the answer: no map of it.
            files: vec![
                file("handle", 1.0),
                file("prepare", 0.9),
                file("unrelated", 0.8),
            ],
        };
        let expansion = expand_plain(&index, &ranking, IntentKind::BugFix);
        let map: Vec<(&str, f32)> = expansion
            .candidates
            .iter()
            .filter(|candidate| {
                candidate
                    .reasons
                    .iter()
                    .any(|r| r == "outline-of-focus-file")
            })
            .map(|candidate| (candidate.symbol.as_deref().unwrap_or(""), candidate.score))
            .collect();
        // The definitions nearest the target first, at most eight, each below the one
        // before and below every card of the best file's map.
        let names: Vec<&str> = map.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            names,
            [
                "helper_11",
                "helper_10",
                "helper_9",
                "helper_8",
                "helper_7",
                "helper_6",
                "helper_5",
                "helper_4"
            ]
        );
        assert!(map.windows(2).all(|pair| pair[0].1 > pair[1].1), "{map:?}");
        let best_map_floor = OUTLINE_SCORE * (1.0 - (MAX_OUTLINE_CARDS - 1) as f32 * OUTLINE_DECAY);
        assert!(map[0].1 < best_map_floor, "{map:?}");
        assert!(!expansion
            .candidates
            .iter()
            .any(|candidate| candidate.symbol.as_deref() == Some("unrelated")));
    }
}
