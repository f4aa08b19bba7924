//! Token-budgeted assembly: per-intent shares of the budget across sections, filled by
//! score with the richest rendering that fits, unused share flowing to sections that still
//! have candidates, and a relevance floor so the budget is a ceiling, not a target.
//!
//! Invariant: the rendered text never exceeds the budget (checked by an exact count of the
//! final text; items are dropped from the lowest score until it fits); items never overlap.

use super::expand::{CallSites, Fallback};
use super::items::{Candidate, Fidelity, Rendering, Section};
use super::render::{self, Block, Format};
use super::{UseLeft, UsesLeft};
use crate::base::{FileId, FxHashMap, FxHashSet};
use crate::index::{DefId, Index};
use rayon::prelude::*;

/// A chosen item: one of its candidate's renderings, its block and exact token count.
#[derive(Clone, Debug)]
pub struct Chosen {
    pub candidate_idx: usize,
    pub rendering_idx: usize,
    pub block: String,
    pub tokens: u32,
}

impl Chosen {
    /// The rendering chosen among its candidate's.
    pub fn rendering<'c>(&self, candidates: &'c [Candidate]) -> &'c Rendering {
        &candidates[self.candidate_idx].renderings[self.rendering_idx]
    }
}

/// Why a candidate was left out of the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Omission {
    /// Above the relevance floor, but no room was left for it.
    Budget,
    /// Below the relevance floor: scoring under a fifth of the best candidate (after the
    /// penalty for lying outside the focus files), not worth its tokens.
    Relevance,
    /// A card in a file the answer would show only as cards of definitions the task does
    /// not name (see `unnamed_card_files`).
    UnnamedCards,
    /// Relevant, but each of its renderings shares lines with an item the answer shows (a
    /// function whose window is shown, code around a trace's frame): shown in part.
    Overlap,
}

impl Omission {
    pub fn name(self) -> &'static str {
        match self {
            Omission::Budget => "budget",
            Omission::Relevance => "relevance",
            Omission::UnnamedCards => "unnamed-cards",
            Omission::Overlap => "overlap",
        }
    }
}

/// A candidate left out: the token cost of its cheapest rendering, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Left {
    pub candidate_idx: usize,
    pub tokens: u32,
    pub omission: Omission,
}

pub struct Assembly {
    pub chosen: Vec<Chosen>,
    /// The best candidates left out (see [`omitted`]).
    pub omitted: Vec<Left>,
    pub text: String,
    pub used: u32,
    /// The uses of the targets whose uses the task is about that the answer does not show
    /// (the text names as many as fit).
    pub uses_left: Vec<UsesLeft>,
}

pub struct AssembleInput<'a> {
    pub index: &'a Index,
    pub candidates: &'a [Candidate],
    pub shares: [u32; 5],
    pub limit: u32,
    pub format: Format,
    /// Exact token counts (the engine caches them by text across requests).
    pub count: &'a (dyn Fn(&str) -> u32 + Sync),
    pub intent: &'a str,
    /// Names the task writes as code that no definition in the workspace has (stated in
    /// the document's first part).
    pub unresolved: &'a [String],
    /// For a task that changes the targets' own code, the best-ranked file: another file
    /// shown only as cards nothing in the task names leaves the answer (see
    /// `unnamed_card_files`).
    pub best_file: Option<FileId>,
    /// Set when the candidates are the safety net's (see [`render::Heading::fallback`]).
    pub fallback: Option<Fallback>,
    /// Every use of the targets whose uses the task is about: those the answer does not
    /// show are listed in its first part (see [`render::UsesLeft`]).
    pub call_sites: &'a [CallSites],
}

/// A rendering with more bytes than this many times the tokens left cannot fit in practice
/// (code averages 3 to 4 bytes per token), so it is not counted. This only saves work: the
/// final text is counted exactly.
const MAX_BYTES_PER_TOKEN: usize = 8;
/// How many of the best left-out candidates are listed.
const MAX_OMITTED: usize = 12;
/// How many of a target's uses the answer does not show are named (the rest are counted).
const MAX_USES_LISTED: usize = 40;

/// Candidates scoring below this share of the best one are not worth their tokens.
const RELEVANCE_FLOOR: f32 = 0.2;
/// The code of the best targets (their candidates in the code section scoring at least this
/// share of the best) is placed whole before the sections share the budget, when it takes
/// at most [`LEAD_SHARE`] of it: at a tight budget the code the task is about is worth more
/// than the cards that would otherwise fill the definitions' share first.
const LEAD_RATIO: f32 = 0.9;
const LEAD_SHARE: f32 = 0.5;
const MAX_LEADS: usize = 2;
/// A target shown as a window of its lines comes whole at the end when that takes at most
/// this share of the budget left (see `Packer::widen`).
const WHOLE_SHARE: f32 = 0.25;

fn render_block(input: &AssembleInput<'_>, candidate: &Candidate, rendering: &Rendering) -> String {
    let data = input.index.file(candidate.file).expect("live file");
    if render::groups(input.format, candidate.section) {
        // Labelled with the definition's name line (its range may start at docs), or the
        // first line of what it shows.
        let (line, depth) = candidate.def.map_or_else(
            || (data.line_index.line_col(rendering.range.start).line + 1, 0),
            |def| super::items::outline_position(input.index, def),
        );
        return render::entry(line, depth, &rendering.body);
    }
    let lines_of = |range| {
        let (first, last) = data.line_index.lines(range);
        (first + 1, last + 1)
    };
    let (first, last) = lines_of(rendering.range);
    render::block(
        input.format,
        &Block {
            section: candidate.section,
            path: &data.path,
            lang: Some(data.lang),
            lines: (first, last),
            symbol: candidate.symbol.as_deref(),
            kind: candidate.kind.map(|kind| kind.name()),
            fidelity: rendering.fidelity.name(),
            of: candidate.of.as_deref(),
            part_of: super::items::part_of(input.index, candidate.def, rendering).map(lines_of),
            body: &rendering.body,
        },
    )
}

/// The lines that open and close one file's entries in a grouped section.
fn group_wrapper(input: &AssembleInput<'_>, file: FileId) -> (String, &'static str) {
    let data = input.index.file(file).expect("live file");
    (
        render::group_open(input.format, &data.path, Some(data.lang)),
        render::group_close(input.format),
    )
}

/// A candidate's rendering as a block of the answer, with its exact token count.
fn counted(input: &AssembleInput<'_>, idx: usize, rendering_idx: usize) -> (String, u32) {
    let candidate = &input.candidates[idx];
    let block = render_block(input, candidate, &candidate.renderings[rendering_idx]);
    let tokens = (input.count)(&block);
    (block, tokens)
}

/// Whether `card` is the heading, among its file's definitions, of a container `shown` as
/// a standard card in the code: the same definition's compact card.
fn heads_standard_card(card: (&Candidate, &Rendering), shown: (&Candidate, &Rendering)) -> bool {
    card.0.section == Section::Definitions
        && card.1.fidelity == Fidelity::Compact
        && shown.0.section == Section::Code
        && shown.1.fidelity == Fidelity::Standard
        && card.0.def.is_some()
        && card.0.def == shown.0.def
}

/// The positions of the chosen items a rendering would overlap: items of one file sharing
/// lines, in any section (a caller's lines around a call inside a code window of the same
/// function would print the lines they share twice).
fn overlapping(
    chosen: &[Chosen],
    candidates: &[Candidate],
    candidate: &Candidate,
    rendering: &Rendering,
) -> Vec<usize> {
    (0..chosen.len())
        .filter(|pos| {
            let other_candidate = &candidates[chosen[*pos].candidate_idx];
            let other = chosen[*pos].rendering(candidates);
            other_candidate.file == candidate.file
                && other.range.start < rendering.range.end
                && rendering.range.start < other.range.end
        })
        .collect()
}

/// Chooses the items of an answer and renders it: the candidates above the relevance floor,
/// by score, within their sections' shares and then within what is left (see [`Packer`]);
/// other files shown only as unnamed cards leave a fix (see `unnamed_card_files`); the
/// lowest-scoring items leave until the exact count of the text is within the limit.
pub fn assemble(input: &AssembleInput<'_>) -> Assembly {
    let candidates = input.candidates;
    let top = candidates.iter().map(|c| c.score).fold(0.0f32, f32::max);
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|a, b| {
        candidates[*b]
            .score
            .total_cmp(&candidates[*a].score)
            .then(a.cmp(b))
    });
    let (relevant, irrelevant): (Vec<usize>, Vec<usize>) = order
        .into_iter()
        .partition(|idx| candidates[*idx].score >= top * RELEVANCE_FLOOR);

    let mut packer = Packer::new(input, &relevant);
    // Pass 0: the best targets' code, whole. Pass 1: each section within its share of the
    // rest. Pass 2: what is left, to anyone, by score.
    packer.lead(&relevant, top);
    packer.fill(&relevant, Pass::WithinShares);
    packer.fill(&relevant, Pass::Leftover);
    let Packer {
        mut chosen,
        mut costs,
        ..
    } = packer;

    let unnamed = unnamed_card_files(input, &chosen);
    if !unnamed.is_empty() {
        let (left, kept): (Vec<Chosen>, Vec<Chosen>) = chosen
            .into_iter()
            .partition(|c| unnamed.contains(&candidates[c.candidate_idx].file));
        chosen = kept;
        // Their counts stay at hand for the list of omitted items.
        for item in left {
            costs.insert(
                (item.candidate_idx, item.rendering_idx),
                (item.block, item.tokens),
            );
        }
    }

    trim_shown_members(input, &mut chosen);

    // Render and enforce the limit on the exact count of the final text.
    loop {
        let body = render_body(input, &chosen);
        let used = if input.format == Format::Json {
            finish(input, &body, Notes::default()).1
        } else {
            settle(input, &body, Notes::default()).1
        };
        if used <= input.limit || chosen.is_empty() {
            let (omitted, left_for_budget) =
                omitted(input, &chosen, &relevant, &irrelevant, &unnamed, &costs);
            if used > input.limit {
                // Even the empty document does not fit: nothing can be returned.
                return Assembly {
                    chosen: Vec::new(),
                    omitted,
                    text: String::new(),
                    used: 0,
                    uses_left: uses_left(input, &[]),
                };
            }
            let uses_left = uses_left(input, &chosen);
            let uses_notes = fit_uses_notes(input, &body, uses_notes(&uses_left));
            let notes = Notes {
                left_out: None,
                uses_left: &uses_notes,
            };
            let (text, used) = with_left_out_note(input, &body, &omitted, left_for_budget, notes)
                .unwrap_or_else(|| finish(input, &body, notes));
            // In the order of the text.
            let order = display_order(input, &chosen);
            let mut slots: Vec<Option<Chosen>> = chosen.into_iter().map(Some).collect();
            let chosen = order
                .into_iter()
                .map(|pos| slots[pos].take().expect("each position once"))
                .collect();
            return Assembly {
                chosen,
                omitted,
                text,
                used,
                uses_left,
            };
        }
        // Drop the lowest-scoring item and try again.
        let worst = chosen
            .iter()
            .enumerate()
            .min_by(|a, b| {
                candidates[a.1.candidate_idx]
                    .score
                    .total_cmp(&candidates[b.1.candidate_idx].score)
                    .then(b.0.cmp(&a.0))
            })
            .map(|(pos, _)| pos)
            .expect("non-empty");
        chosen.remove(worst);
    }
}

/// The document with the note of what the budget left out (`items` relevant candidates,
/// see [`render::LeftOut`]), naming as many of the best of them as fit the budget (the
/// note's bare figure is reserved by the packer); `None` when nothing relevant was left out
/// or the note does not fit.
fn with_left_out_note(
    input: &AssembleInput<'_>,
    body: &Body,
    omitted: &[Left],
    items: usize,
    notes: Notes<'_>,
) -> Option<(String, u32)> {
    if input.format == Format::Json {
        return None;
    }
    let names: Vec<String> = omitted
        .iter()
        .filter(|left| left.omission == Omission::Budget)
        .map(|left| {
            let candidate = &input.candidates[left.candidate_idx];
            let data = input.index.file(candidate.file).expect("live file");
            let range = candidate
                .renderings
                .last()
                .expect("candidates have renderings")
                .range;
            let line = data.line_index.line_col(range.start).line + 1;
            match &candidate.symbol {
                Some(symbol) => format!("{symbol} ({}:{line})", data.path),
                None => format!("{} ({}:{line})", candidate.section.name(), data.path),
            }
        })
        .collect();
    if names.is_empty() {
        return None;
    }
    let note = |named: usize| render::LeftOut {
        items,
        names: &names[..named],
    };
    let named = most_names_that_fit(names.len(), |named| {
        let left_out = note(named);
        let notes = Notes {
            left_out: Some(&left_out),
            ..notes
        };
        settle(input, body, notes).1 <= input.limit
    })?;
    let left_out = note(named);
    Some(finish(
        input,
        body,
        Notes {
            left_out: Some(&left_out),
            ..notes
        },
    ))
}

/// The most names, of `most`, that a note may hold and the document still fit its budget
/// (`fits` says whether it does with so many; the text grows with the names), found by
/// bisection; none when not even the bare note fits.
fn most_names_that_fit(most: usize, fits: impl Fn(usize) -> bool) -> Option<usize> {
    if fits(most) {
        return Some(most);
    }
    if !fits(0) {
        return None;
    }
    // `fits(low)` holds, `fits(high + 1)` does not.
    let (mut low, mut high) = (0, most - 1);
    while low < high {
        let mid = (low + high).div_ceil(2);
        if fits(mid) {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    Some(low)
}

/// The notes of the document's first part, besides what it always states.
#[derive(Clone, Copy, Default)]
struct Notes<'a> {
    /// What the budget left out (see [`render::LeftOut`]).
    left_out: Option<&'a render::LeftOut<'a>>,
    uses_left: &'a [render::UsesLeft],
}

/// The uses of each target in `input.call_sites` that no chosen item shows: its lines do
/// not hold the use (a caller's card does not).
fn uses_left(input: &AssembleInput<'_>, chosen: &[Chosen]) -> Vec<UsesLeft> {
    let index = input.index;
    // The lines each chosen item shows, by file.
    let shown_lines: Vec<(FileId, u32, u32)> = chosen
        .iter()
        .filter_map(|item| {
            let file = input.candidates[item.candidate_idx].file;
            let data = index.file(file)?;
            let (first, last) = data
                .line_index
                .lines(item.rendering(input.candidates).range);
            Some((file, first, last))
        })
        .collect();
    let shown = |file: FileId, line: u32| {
        shown_lines
            .iter()
            .any(|(at, first, last)| *at == file && (*first..=*last).contains(&line))
    };
    input
        .call_sites
        .iter()
        .map(|uses| UsesLeft {
            of: uses.of.clone(),
            uses: uses
                .sites
                .iter()
                .filter(|site| !shown(site.file, site.line))
                .map(|site| UseLeft {
                    symbol: super::items::qualified_name(index, site.caller),
                    file: site.file,
                    path: index
                        .file(site.file)
                        .map(|data| data.path.to_string())
                        .unwrap_or_default(),
                    line: site.line,
                })
                .collect(),
        })
        .filter(|uses| !uses.uses.is_empty())
        .collect()
}

/// The notes of uses left out: each use named by its caller and the line of the use
/// (1-based), at most [`MAX_USES_LISTED`] of a target's.
fn uses_notes(uses_left: &[UsesLeft]) -> Vec<render::UsesLeft> {
    uses_left
        .iter()
        .map(|uses| render::UsesLeft {
            of: uses.of.clone(),
            items: uses.uses.len(),
            names: uses
                .uses
                .iter()
                .take(MAX_USES_LISTED)
                .map(|site| format!("{} ({}:{})", site.symbol, site.path, site.line + 1))
                .collect(),
        })
        .collect()
}

/// The notes of uses left out with as many names as fit the budget beside `body` (the same
/// number of each target's at most; the packer reserved their bare figures).
fn fit_uses_notes(
    input: &AssembleInput<'_>,
    body: &Body,
    uses_left: Vec<render::UsesLeft>,
) -> Vec<render::UsesLeft> {
    if uses_left.is_empty() || input.format == Format::Json {
        return uses_left;
    }
    let most = uses_left
        .iter()
        .map(|uses| uses.names.len())
        .max()
        .unwrap_or(0);
    let cut = |uses_left: &[render::UsesLeft], named: usize| -> Vec<render::UsesLeft> {
        uses_left
            .iter()
            .map(|uses| render::UsesLeft {
                of: uses.of.clone(),
                items: uses.items,
                names: uses.names.iter().take(named).cloned().collect(),
            })
            .collect()
    };
    let fits = |notes: &[render::UsesLeft]| {
        settle(
            input,
            body,
            Notes {
                left_out: None,
                uses_left: notes,
            },
        )
        .1 <= input.limit
    };
    match most_names_that_fit(most, |named| fits(&cut(&uses_left, named))) {
        Some(named) if named == most => uses_left,
        Some(named) => cut(&uses_left, named),
        None => Vec::new(),
    }
}

/// The passes over the candidates: first the best targets' code within a share of the
/// whole budget (see [`LEAD_SHARE`]), then each section within its share of the rest, then
/// what is left, to any section, by score.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Lead,
    WithinShares,
    Leftover,
}

/// Rendered blocks and their exact token counts, by candidate and rendering.
type Costs = FxHashMap<(usize, usize), (String, u32)>;

/// The items chosen so far and what they cost, section by section.
struct Packer<'i, 'a> {
    input: &'i AssembleInput<'a>,
    /// Renderings counted so far; a block leaves when its rendering is chosen.
    costs: Costs,
    chosen: Vec<Chosen>,
    taken: Vec<bool>,
    /// The tokens each section may spend in the first pass.
    allowance: [u32; 5],
    /// The tokens not taken by the header and the sections' wrappers.
    available: u32,
    /// The tokens each section spent, the lead's code aside (see [`Pass::Lead`]).
    spent: [u32; 5],
    /// The tokens the best targets' code took before the sections shared the rest.
    lead: u32,
    /// The candidates placed by the lead pass.
    leads: FxHashSet<usize>,
    /// The (section, file) groups with an entry: the first entry of a file in a grouped
    /// section also pays for the file's heading.
    grouped: FxHashSet<(usize, FileId)>,
    group_costs: FxHashMap<FileId, u32>,
}

impl<'i, 'a> Packer<'i, 'a> {
    fn new(input: &'i AssembleInput<'a>, relevant: &[usize]) -> Packer<'i, 'a> {
        let candidates = input.candidates;
        // Most answers fit their budget with every relevant candidate's first rendering, so
        // those are rendered and counted up front, in parallel (counting is most of the
        // stage).
        let costs: Costs = relevant
            .par_iter()
            .filter(|idx| {
                candidates[**idx].renderings[0].body.len()
                    <= input.limit as usize * MAX_BYTES_PER_TOKEN
            })
            .map(|idx| ((*idx, 0), counted(input, *idx, 0)))
            .collect::<Vec<_>>()
            .into_iter()
            .collect();
        // The header as it states the most: the budget as the figure used, and the bare
        // note of what the budget left out (the names in it take only what is left).
        let bare = render::LeftOut {
            items: input.candidates.len(),
            names: &[],
        };
        let bare_uses: Vec<render::UsesLeft> = input
            .call_sites
            .iter()
            .map(|uses| render::UsesLeft {
                of: uses.of.clone(),
                items: uses.sites.len(),
                names: Vec::new(),
            })
            .collect();
        let notes = Notes {
            left_out: Some(&bare),
            uses_left: &bare_uses,
        };
        let header = render::document(input.format, heading(input, notes), input.limit, &[]);
        let overhead = (input.count)(&header)
            + Section::ALL
                .iter()
                .map(|section| (input.count)(&render::section_overhead(input.format, *section)))
                .sum::<u32>()
            + 8;
        let available = input.limit.saturating_sub(overhead);
        Packer {
            input,
            costs,
            chosen: Vec::new(),
            taken: vec![false; candidates.len()],
            allowance: allowances(&input.shares, available),
            available,
            spent: [0; 5],
            lead: 0,
            leads: FxHashSet::default(),
            grouped: FxHashSet::default(),
            group_costs: FxHashMap::default(),
        }
    }

    /// Renders and counts a candidate's rendering once; the block stays in `costs` until
    /// the rendering is chosen.
    fn cost(&mut self, idx: usize, rendering_idx: usize) -> u32 {
        let input = self.input;
        self.costs
            .entry((idx, rendering_idx))
            .or_insert_with(|| counted(input, idx, rendering_idx))
            .1
    }

    /// The code of the best targets, whole, within [`LEAD_SHARE`] of the budget; the
    /// sections then share what it leaves.
    fn lead(&mut self, relevant: &[usize], top: f32) {
        let candidates = self.input.candidates;
        let mut pool = (self.available as f32 * LEAD_SHARE) as u32;
        // Each lead with its code: the whole, else the lines of it that matter (a trace
        // frame's, those holding the task's words: see `expand::focus_window`).
        let leads: Vec<(usize, usize)> = relevant
            .iter()
            .copied()
            .take_while(|idx| candidates[*idx].score >= top * LEAD_RATIO)
            .filter(|idx| candidates[*idx].section == Section::Code)
            .map(|idx| {
                let code = candidates[idx]
                    .renderings
                    .iter()
                    .take_while(|rendering| rendering.fidelity == Fidelity::Full)
                    .count();
                (idx, code)
            })
            .filter(|(_, code)| *code > 0)
            .take(MAX_LEADS)
            .collect();
        for (idx, code) in leads {
            for rendering_idx in 0..code {
                if self.place(idx, rendering_idx, Pass::Lead, &mut pool) {
                    self.taken[idx] = true;
                    break;
                }
            }
        }
        if self.lead > 0 {
            self.allowance = allowances(&self.input.shares, self.available - self.lead);
        }
    }

    /// Each candidate not chosen yet, by score, with its richest rendering that fits; in the
    /// leftover pass, a candidate its section's share held to less than its code gets the
    /// code when it fits now (the body of the function at fault, placed as a signature while
    /// the code section's share was spent, is not left a signature with the budget unused).
    fn fill(&mut self, relevant: &[usize], pass: Pass) {
        let total_spent: u32 = self.spent.iter().sum::<u32>() + self.lead;
        let mut pool = self.available.saturating_sub(total_spent);
        for &idx in relevant {
            if self.taken[idx] {
                if pass == Pass::Leftover {
                    self.upgrade(idx, &mut pool);
                }
                continue;
            }
            for rendering_idx in 0..self.input.candidates[idx].renderings.len() {
                if self.place(idx, rendering_idx, pass, &mut pool) {
                    self.taken[idx] = true;
                    break;
                }
            }
        }
    }

    /// Replaces a chosen candidate's card with its richest code rendering that fits the
    /// `pool` (the card's tokens come back to it).
    fn upgrade(&mut self, idx: usize, pool: &mut u32) {
        let candidates = self.input.candidates;
        let Some(current) = self
            .chosen
            .iter()
            .find(|chosen| chosen.candidate_idx == idx)
            .map(|chosen| chosen.rendering_idx)
        else {
            return;
        };
        if candidates[idx].renderings[current].fidelity == Fidelity::Full {
            self.widen(idx, current, pool);
            return;
        }
        for rendering_idx in 0..current {
            if candidates[idx].renderings[rendering_idx].fidelity == Fidelity::Full
                && self.place(idx, rendering_idx, Pass::Leftover, pool)
            {
                return;
            }
        }
    }

    /// Replaces a target's window of lines (see `expand::focus_window`) with the whole
    /// function when that costs at most [`WHOLE_SHARE`] of the `pool` left: the lines that
    /// matter came first, and with most of the budget unused the rest of the function is
    /// worth reading (the fix is often a few lines past the window).
    fn widen(&mut self, idx: usize, current: usize, pool: &mut u32) {
        if self.input.candidates[idx].section != Section::Code {
            return;
        }
        let renderings = &self.input.candidates[idx].renderings;
        let window = renderings[current].range;
        let Some(whole) = (current + 1..renderings.len()).find(|at| {
            renderings[*at].fidelity == Fidelity::Full
                && renderings[*at].range != window
                && renderings[*at].range.contains_range(window)
        }) else {
            return;
        };
        if self.cost(idx, whole) as f32 <= *pool as f32 * WHOLE_SHARE {
            // In the window's place among the chosen items (their order is the text's).
            let after: Vec<usize> = self
                .chosen
                .iter()
                .skip_while(|chosen| chosen.candidate_idx != idx)
                .skip(1)
                .map(|chosen| chosen.candidate_idx)
                .collect();
            if self.place(idx, whole, Pass::Leftover, pool) {
                let placed = self.chosen.pop().expect("just placed");
                let at = after
                    .iter()
                    .find_map(|next| {
                        self.chosen
                            .iter()
                            .position(|chosen| chosen.candidate_idx == *next)
                    })
                    .unwrap_or(self.chosen.len());
                self.chosen.insert(at, placed);
            }
        }
    }

    /// Chooses the rendering when it may replace what it overlaps and fits: within its
    /// section's share in the first pass, within the `pool` left in the second.
    fn place(&mut self, idx: usize, rendering_idx: usize, pass: Pass, pool: &mut u32) -> bool {
        let input = self.input;
        let candidates = input.candidates;
        let candidate = &candidates[idx];
        let section = candidate.section.idx();
        let rendering = &candidate.renderings[rendering_idx];
        // Code that holds chosen items replaces them: a card says less than the code it
        // sums up (a member's card must not keep out the member's code as a caller), and a
        // function's code shows the functions inside it (a closure's `setState`, an inner
        // callback). A class's code does not swallow the method the task is about, the same
        // code does not come twice (a caller already shown as code), and a pasted trace's
        // frame stays as focused as the trace put it (its own whole function aside, with the
        // budget mostly unused). Any other overlap rules the rendering out.
        let is_function = candidate.kind.is_some_and(|kind| kind.is_callable());
        let mut overlapped = overlapping(&self.chosen, candidates, candidate, rendering);
        // A container shown as a standard card in the code keeps its line among its file's
        // definitions, where its members' cards are listed under it (without it they would
        // sit under whatever definition comes before).
        overlapped.retain(|pos| {
            let chosen = &self.chosen[*pos];
            let other = (
                &candidates[chosen.candidate_idx],
                chosen.rendering(candidates),
            );
            !(heads_standard_card((candidate, rendering), other)
                || heads_standard_card(other, (candidate, rendering)))
        });
        let replaces = overlapped.iter().all(|pos| {
            let other = self.chosen[*pos].rendering(candidates);
            // A frame's own window gives way to its whole function (see `widen`).
            let holds_code = || {
                let other_idx = self.chosen[*pos].candidate_idx;
                is_function
                    && rendering.range != other.range
                    && (!candidates[other_idx].frame || other_idx == idx)
            };
            rendering.fidelity == Fidelity::Full
                && (other.fidelity != Fidelity::Full || holds_code())
                && rendering.range.contains_range(other.range)
        });
        if !replaces {
            return false;
        }
        let refund: u32 = overlapped.iter().map(|pos| self.chosen[*pos].tokens).sum();
        let room = match pass {
            Pass::WithinShares => self.allowance[section].saturating_sub(self.spent[section]),
            Pass::Lead | Pass::Leftover => *pool + refund,
        };
        if rendering.body.len() > room as usize * MAX_BYTES_PER_TOKEN {
            return false;
        }
        let group_key = (section, candidate.file);
        let heading = if render::groups(input.format, candidate.section)
            && !self.grouped.contains(&group_key)
        {
            *self.group_costs.entry(candidate.file).or_insert_with(|| {
                let (open, close) = group_wrapper(input, candidate.file);
                (input.count)(&open) + (input.count)(close)
            })
        } else {
            0
        };
        let tokens = self.cost(idx, rendering_idx) + heading;
        let fits = match pass {
            Pass::WithinShares => self.spent[section] + tokens <= self.allowance[section],
            Pass::Lead | Pass::Leftover => tokens <= *pool + refund,
        };
        if !fits {
            return false;
        }
        for pos in overlapped.into_iter().rev() {
            let replaced = self.chosen.remove(pos);
            if self.leads.remove(&replaced.candidate_idx) {
                self.lead = self.lead.saturating_sub(replaced.tokens);
            } else {
                let spent = &mut self.spent[candidates[replaced.candidate_idx].section.idx()];
                *spent = spent.saturating_sub(replaced.tokens);
            }
            if pass != Pass::WithinShares {
                *pool += replaced.tokens;
            }
        }
        match pass {
            // The lead's tokens are the whole budget's, not its section's (see `lead`).
            Pass::Lead => {
                *pool -= tokens;
                self.lead += tokens;
                self.leads.insert(idx);
            }
            Pass::WithinShares => self.spent[section] += tokens,
            Pass::Leftover => {
                self.spent[section] += tokens;
                *pool -= tokens;
            }
        }
        let (block, block_tokens) = self
            .costs
            .remove(&(idx, rendering_idx))
            .expect("counted just above");
        if render::groups(input.format, candidate.section) {
            self.grouped.insert(group_key);
        }
        self.chosen.push(Chosen {
            candidate_idx: idx,
            rendering_idx,
            block,
            tokens: block_tokens,
        });
        true
    }
}

/// A container's skeleton (a standard card) beside the whole code of some of its members
/// lists only the others: their signatures are in their code. Without any left, it is its
/// header. Only fewer tokens: the budget still holds.
fn trim_shown_members(input: &AssembleInput<'_>, chosen: &mut [Chosen]) {
    let candidates = input.candidates;
    let whole: FxHashSet<DefId> = chosen
        .iter()
        .filter(|item| {
            let rendering = item.rendering(candidates);
            let def = candidates[item.candidate_idx].def;
            rendering.fidelity == Fidelity::Full
                && super::items::part_of(input.index, def, rendering).is_none()
        })
        .filter_map(|item| candidates[item.candidate_idx].def)
        .collect();
    for item in chosen.iter_mut() {
        let candidate = &candidates[item.candidate_idx];
        let rendering = item.rendering(candidates);
        let Some(def) = candidate.def else {
            continue;
        };
        if rendering.fidelity != Fidelity::Standard
            || !input
                .index
                .members(def)
                .any(|member| whole.contains(&member))
        {
            continue;
        }
        let body =
            super::items::standard_except(input.index, def, super::items::MAX_MEMBERS, |member| {
                whole.contains(&member)
            })
            .unwrap_or_else(|| super::items::compact(input.index, def))
            .body;
        let trimmed = Rendering {
            body,
            ..rendering.clone()
        };
        item.block = render_block(input, candidate, &trimmed);
        item.tokens = (input.count)(&item.block);
    }
}

/// Each section's share of `available` tokens.
fn allowances(shares: &[u32; 5], available: u32) -> [u32; 5] {
    let share_total: u32 = shares.iter().sum::<u32>().max(1);
    let mut allowance: [u32; 5] = [0; 5];
    for section in Section::ALL {
        allowance[section.idx()] = available * shares[section.idx()] / share_total;
    }
    allowance
}

/// The best candidates left out (at most [`MAX_OMITTED`]: neither chosen nor held by a
/// chosen item, as a card its code replaced), the relevant before the rest, each with the
/// cost of its cheapest rendering (counted in parallel where not counted already) and why it
/// was left out; and how many relevant candidates in all the budget left out.
fn omitted(
    input: &AssembleInput<'_>,
    chosen: &[Chosen],
    relevant: &[usize],
    irrelevant: &[usize],
    unnamed: &FxHashSet<FileId>,
    costs: &Costs,
) -> (Vec<Left>, usize) {
    let candidates = input.candidates;
    let held = |idx: usize| {
        let candidate = &candidates[idx];
        chosen.iter().any(|c| {
            c.candidate_idx == idx
                || (candidates[c.candidate_idx].file == candidate.file
                    && candidate
                        .renderings
                        .iter()
                        .any(|r| c.rendering(candidates).range.contains_range(r.range)))
        })
    };
    // A definition several candidates show (a test of two targets, a card and the code
    // that fell back to it, a caller's card and its lines) is listed once, as its best; a
    // file's imports block (no definition) is one candidate already.
    let mut listed: FxHashSet<(FileId, Option<DefId>)> = FxHashSet::default();
    // Why: computed only for those listed (the overlap check scans the chosen items).
    let left_out: Vec<(usize, Omission)> = relevant
        .iter()
        .map(|idx| (*idx, true))
        .chain(irrelevant.iter().map(|idx| (*idx, false)))
        .filter(|(idx, _)| !held(*idx))
        .filter(|(idx, _)| listed.insert((candidates[*idx].file, candidates[*idx].def)))
        .map(|(idx, relevant)| {
            let candidate = &candidates[idx];
            let omission =
                if !relevant {
                    Omission::Relevance
                } else if unnamed.contains(&candidate.file) {
                    Omission::UnnamedCards
                } else if candidate.renderings.iter().all(|rendering| {
                    !overlapping(chosen, candidates, candidate, rendering).is_empty()
                }) {
                    Omission::Overlap
                } else {
                    Omission::Budget
                };
            (idx, omission)
        })
        .collect();
    let budget = left_out
        .iter()
        .filter(|(_, omission)| *omission == Omission::Budget)
        .count();
    let listed = left_out[..left_out.len().min(MAX_OMITTED)]
        .par_iter()
        .map(|(idx, omission)| {
            let cheapest = candidates[*idx].renderings.len() - 1;
            let tokens = match costs.get(&(*idx, cheapest)) {
                Some((_, tokens)) => *tokens,
                None => counted(input, *idx, cheapest).1,
            };
            Left {
                candidate_idx: *idx,
                tokens,
                omission: *omission,
            }
        })
        .collect();
    (listed, budget)
}

/// The files other than the best one that the chosen items would show only as cards of
/// definitions nothing in the task names: BM25 matches, a focus file's map, the neighbours
/// of the targets (what they call, their containers and types). When a task changes the
/// targets' own code, such a file is almost never one the change touches (none of 22 on the
/// benchmark's three sets, against a quarter of the other files after the best), yet it
/// costs the reader a file: it is left out, and its cards are listed as omitted. Code that
/// uses other definitions (an implementation, tests) needs their signatures, so `best_file`
/// is only set for such tasks. Only while the best file has items of its own, so that an
/// answer is never emptied (the safety net's cards, a pinned best file).
fn unnamed_card_files(input: &AssembleInput<'_>, chosen: &[Chosen]) -> FxHashSet<FileId> {
    let Some(best) = input.best_file else {
        return FxHashSet::default();
    };
    let mut unnamed: FxHashMap<FileId, bool> = FxHashMap::default();
    for item in chosen {
        let candidate = &input.candidates[item.candidate_idx];
        let is_unnamed_card = candidate.section == Section::Definitions
            && item.rendering(input.candidates).fidelity != Fidelity::Full
            && !candidate.named;
        *unnamed.entry(candidate.file).or_insert(true) &= is_unnamed_card;
    }
    if !unnamed.contains_key(&best) {
        return FxHashSet::default();
    }
    unnamed
        .into_iter()
        .filter(|(file, only_unnamed_cards)| *file != best && *only_unnamed_cards)
        .map(|(file, _)| file)
        .collect()
}

/// The chosen items in the order of the text: by section, then by file (in the order of
/// each file's first chosen item) and by position within a file; outside the grouped
/// sections, a long target's card comes right before the lines of its body it introduces
/// (see `expand::focus_window`).
fn display_order(input: &AssembleInput<'_>, chosen: &[Chosen]) -> Vec<usize> {
    let candidates = input.candidates;
    let file_of = |pos: usize| candidates[chosen[pos].candidate_idx].file;
    let def_of = |pos: usize| candidates[chosen[pos].candidate_idx].def;
    let is_card = |pos: usize| chosen[pos].rendering(candidates).fidelity == Fidelity::Compact;
    let mut order = Vec::with_capacity(chosen.len());
    for section in Section::ALL {
        let mut in_section: Vec<usize> = (0..chosen.len())
            .filter(|pos| candidates[chosen[*pos].candidate_idx].section == section)
            .collect();
        // One file's items together, in the order of their lines, the files in the order of
        // their first chosen items (the packer chose by score): the code reads as its files
        // do, the best file first.
        let mut file_rank: FxHashMap<FileId, usize> = FxHashMap::default();
        for pos in &in_section {
            let next = file_rank.len();
            file_rank.entry(file_of(*pos)).or_insert(next);
        }
        in_section.sort_by_key(|pos| {
            (
                file_rank[&file_of(*pos)],
                chosen[*pos].rendering(candidates).range.start,
            )
        });
        if render::groups(input.format, section) {
            order.extend(in_section);
        } else {
            // The cards of the definitions also shown as lines, each placed once, right
            // before the first of those lines.
            let shown_as_lines: FxHashSet<DefId> = in_section
                .iter()
                .filter(|pos| !is_card(**pos))
                .filter_map(|pos| def_of(*pos))
                .collect();
            let mut cards: FxHashMap<DefId, Vec<usize>> = FxHashMap::default();
            for &pos in &in_section {
                match def_of(pos) {
                    Some(def) if is_card(pos) && shown_as_lines.contains(&def) => {
                        cards.entry(def).or_default().push(pos);
                    }
                    _ => {}
                }
            }
            for &pos in &in_section {
                match def_of(pos) {
                    // Placed with the lines.
                    Some(def) if is_card(pos) && shown_as_lines.contains(&def) => {}
                    Some(def) => {
                        order.extend(cards.remove(&def).unwrap_or_default());
                        order.push(pos);
                    }
                    None => order.push(pos),
                }
            }
        }
    }
    order
}

/// The chosen items rendered by section, in [`display_order`], with the tokens of all the
/// document but its header (counted apart: it states the figure used, and the note of what
/// the budget left out).
struct Body {
    sections: Vec<(Section, Vec<String>)>,
    tokens: u32,
}

fn render_body(input: &AssembleInput<'_>, chosen: &[Chosen]) -> Body {
    let candidates = input.candidates;
    let order = display_order(input, chosen);
    // Each section's parts: its blocks, and in a grouped section each file's heading and
    // closing line around the file's entries. Wrapper tokens are counted here; the blocks'
    // are counted already.
    let mut wrapper_tokens = 0;
    let sections: Vec<(Section, Vec<String>)> = Section::ALL
        .iter()
        .map(|section| {
            let mut parts: Vec<String> = Vec::new();
            let mut open_file: Option<FileId> = None;
            for pos in order
                .iter()
                .filter(|pos| candidates[chosen[**pos].candidate_idx].section == *section)
            {
                let file = candidates[chosen[*pos].candidate_idx].file;
                if render::groups(input.format, *section) && open_file != Some(file) {
                    if open_file.is_some() {
                        let close = render::group_close(input.format);
                        wrapper_tokens += (input.count)(close);
                        parts.push(close.to_owned());
                    }
                    let (open, _) = group_wrapper(input, file);
                    wrapper_tokens += (input.count)(&open);
                    parts.push(open);
                    open_file = Some(file);
                }
                parts.push(chosen[*pos].block.clone());
            }
            if open_file.is_some() {
                let close = render::group_close(input.format);
                wrapper_tokens += (input.count)(close);
                parts.push(close.to_owned());
            }
            (*section, parts)
        })
        .collect();
    // The count of the document is the sum of its parts' (see `render::document_parts`):
    // the blocks are counted already and the wrappers are short.
    let tokens = sections
        .iter()
        .filter(|(_, blocks)| !blocks.is_empty())
        .map(|(section, _)| {
            (input.count)(&render::section_open(input.format, *section))
                + (input.count)(&render::section_close(input.format, *section))
        })
        .sum::<u32>()
        + chosen.iter().map(|c| c.tokens).sum::<u32>()
        + wrapper_tokens
        + (input.count)(render::footer(input.format));
    Body { sections, tokens }
}

/// The figure the header of a document of `body` states, settled on the header alone (only
/// it depends on the figure), and the document's exact count with it: they differ only if
/// the figure could not settle, by the tokens of its own digits. Not for JSON, which states
/// no figure.
fn settle(input: &AssembleInput<'_>, body: &Body, notes: Notes<'_>) -> (u32, u32) {
    let total_with = |stated: u32| {
        (input.count)(&render::header(input.format, heading(input, notes), stated)) + body.tokens
    };
    let mut stated = body.tokens;
    for _ in 0..8 {
        let total = total_with(stated);
        if total == stated {
            break;
        }
        stated = total;
    }
    (stated, total_with(stated))
}

/// The whole text of a document of `body`, and its exact count.
fn finish(input: &AssembleInput<'_>, body: &Body, notes: Notes<'_>) -> (String, u32) {
    if input.format == Format::Json {
        let text = render::document(
            input.format,
            heading(input, Notes::default()),
            0,
            &body.sections,
        );
        let used = (input.count)(&text);
        return (text, used);
    }
    let (stated, used) = settle(input, body, notes);
    (
        render::document(input.format, heading(input, notes), stated, &body.sections),
        used,
    )
}

/// What the document's first part states besides the figures.
fn heading<'a>(input: &AssembleInput<'a>, notes: Notes<'a>) -> render::Heading<'a> {
    render::Heading {
        intent: input.intent,
        limit: input.limit,
        unresolved: input.unresolved,
        left_out: notes.left_out,
        fallback: input.fallback,
        uses_left: notes.uses_left,
    }
}

#[cfg(test)]
mod tests {
    use super::{assemble, AssembleInput, Assembly, Omission};
    use crate::base::FileId;
    use crate::engine::items::{compact, full, lines, Candidate, Fidelity};
    use crate::engine::{ContextRequest, Engine, Format, Section};
    use crate::index::Index;

    /// The assembly of a fix's candidates in XML, counting a token per four bytes.
    fn assembled(
        index: &Index,
        candidates: &[Candidate],
        shares: [u32; 5],
        limit: u32,
        best_file: Option<FileId>,
    ) -> Assembly {
        assemble(&AssembleInput {
            index,
            candidates,
            shares,
            limit,
            format: Format::Xml,
            count: &|text: &str| text.len() as u32 / 4,
            intent: "bug_fix",
            unresolved: &[],
            best_file,
            fallback: None,
            call_sites: &[],
        })
    }

    /// A candidate showing `def` one way, in a section.
    fn shown_as(
        index: &Index,
        def: crate::index::DefId,
        section: Section,
        score: f32,
        rendering: crate::engine::items::Rendering,
    ) -> Candidate {
        Candidate {
            section,
            file: def.file,
            def: Some(def),
            symbol: index.def(def).map(|data| data.name.to_string()),
            kind: None,
            score,
            reasons: Vec::new(),
            named: false,
            frame: false,
            of: None,
            renderings: vec![rendering],
        }
    }

    /// A module whose `execute` calls `connect`.
    const SHOP_DB: &str = r#"
//- /shop/db.py
def execute(sql, params):
    conn = connect()
    rows = conn.run(sql, params)
    conn.commit()
    return rows
def connect():
    return 1
"#;

    #[test]
    fn a_definition_left_out_is_listed_once() {
        let (index, _) = crate::index::tests::index_fixture(SHOP_DB);
        let execute = index.defs_named("execute")[0];
        let connect = index.defs_named("connect")[0];
        let candidates = [
            shown_as(&index, connect, Section::Code, 1.0, full(&index, connect)),
            shown_as(&index, execute, Section::Code, 0.9, full(&index, execute)),
            shown_as(
                &index,
                execute,
                Section::Tests,
                0.8,
                compact(&index, execute),
            ),
            shown_as(
                &index,
                execute,
                Section::Definitions,
                0.7,
                compact(&index, execute),
            ),
        ];
        // Room for `connect` alone: `execute` is left out, under its best candidate.
        let assembly = assembled(&index, &candidates, [0, 1, 0, 0, 0], 85, None);
        let chosen: Vec<usize> = assembly.chosen.iter().map(|c| c.candidate_idx).collect();
        let omitted: Vec<usize> = assembly
            .omitted
            .iter()
            .map(|left| left.candidate_idx)
            .collect();
        assert_eq!(chosen, vec![0], "{}", assembly.text);
        assert_eq!(omitted, vec![1]);
        assert_eq!(assembly.omitted[0].omission, Omission::Budget);
        // The text says so, naming it, in the room the packer kept for the note.
        assert!(
            assembly.text.contains(
                "<omitted reason=\"budget\" items=\"1\">execute (shop/db.py:1)</omitted>"
            ),
            "{}",
            assembly.text
        );
    }

    #[test]
    fn code_sharing_lines_with_code_shown_is_left_out_as_an_overlap_not_for_the_budget() {
        let (index, _) = crate::index::tests::index_fixture(SHOP_DB);
        let execute = index.defs_named("execute")[0];
        // Two callers' lines of `execute`, the second starting inside the first: with all
        // the room in the world, the second cannot come, and the text does not say that the
        // budget left it out.
        let candidates = [
            shown_as(
                &index,
                execute,
                Section::Callers,
                1.0,
                lines(&index, execute.file, 0, 2),
            ),
            shown_as(
                &index,
                execute,
                Section::Callers,
                0.9,
                lines(&index, execute.file, 1, 4),
            ),
        ];
        let assembly = assembled(&index, &candidates, [0, 0, 1, 0, 0], 4000, None);
        let chosen: Vec<usize> = assembly.chosen.iter().map(|c| c.candidate_idx).collect();
        assert_eq!(chosen, vec![0], "{}", assembly.text);
        assert_eq!(assembly.omitted.len(), 1);
        assert_eq!(assembly.omitted[0].omission, Omission::Overlap);
        assert!(!assembly.text.contains("<omitted"), "{}", assembly.text);
        // In another section too: a function's code window and a caller's lines around a
        // call further down the same function (ofetch's `$fetchRaw` had printed the lines
        // they share twice).
        let mut window = candidates[0].clone();
        window.section = Section::Code;
        let candidates = [window, candidates[1].clone()];
        let assembly = assembled(&index, &candidates, [0, 1, 1, 0, 0], 4000, None);
        let chosen: Vec<usize> = assembly.chosen.iter().map(|c| c.candidate_idx).collect();
        assert_eq!(chosen, vec![0], "{}", assembly.text);
        assert_eq!(assembly.omitted[0].omission, Omission::Overlap);
    }

    #[test]
    fn a_card_gives_way_to_the_code_it_sums_up() {
        let (index, _) = crate::index::tests::index_fixture(SHOP_DB);
        let def = index.defs_named("execute")[0];
        let candidate =
            |section, score, rendering| shown_as(&index, def, section, score, rendering);
        let candidates = [
            candidate(Section::Callers, 0.5, full(&index, def)),
            candidate(Section::Definitions, 1.0, compact(&index, def)),
        ];
        // The card scores better and is chosen first; the code, in what is left of the
        // budget, replaces it.
        let assembly = assembled(&index, &candidates, [1, 0, 1, 0, 0], 400, None);
        let chosen: Vec<usize> = assembly.chosen.iter().map(|c| c.candidate_idx).collect();
        assert_eq!(chosen, vec![0], "{}", assembly.text);
        // The card is not listed as left out: its code holds it.
        assert!(assembly.omitted.is_empty());
        assert!(assembly.text.contains("conn.commit()"), "{}", assembly.text);
    }

    #[test]
    fn a_card_its_sections_share_held_to_a_signature_becomes_code_when_the_budget_allows() {
        let (index, _) = crate::index::tests::index_fixture(SHOP_DB);
        let execute = index.defs_named("execute")[0];
        let connect = index.defs_named("connect")[0];
        let mut code = shown_as(&index, execute, Section::Code, 0.6, full(&index, execute));
        code.renderings.push(compact(&index, execute));
        let candidates = [
            shown_as(
                &index,
                connect,
                Section::Definitions,
                1.0,
                compact(&index, connect),
            ),
            code,
        ];
        // The code section's share (a tenth) holds `execute`'s card, not its code; the rest
        // of the budget, unused by the cards, takes the code.
        let assembly = assembled(&index, &candidates, [9, 1, 0, 0, 0], 400, None);
        let execute_shown = assembly
            .chosen
            .iter()
            .find(|chosen| chosen.candidate_idx == 1)
            .map(|chosen| candidates[1].renderings[chosen.rendering_idx].fidelity);
        assert_eq!(execute_shown, Some(Fidelity::Full), "{}", assembly.text);
        assert!(assembly.text.contains("conn.commit()"), "{}", assembly.text);
        assert!(assembly.used <= 400);
    }

    #[test]
    fn the_best_targets_code_comes_whole_before_the_sections_share_the_budget() {
        let mut text = String::from("def execute(sql, params):\n");
        for line in 0..30 {
            text.push_str(&format!(
                "    rows_{line} = run(sql, params, attempt={line})\n"
            ));
        }
        text.push_str("    return rows_0\n");
        for card in 0..40 {
            text.push_str(&format!("\ndef helper_{card}(value):\n    return value\n"));
        }
        let (index, _) = crate::index::tests::index_fixture(&format!("//- /shop/db.py\n{text}"));
        let def = |name: &str| index.defs_named(name)[0];
        let execute = def("execute");
        let mut candidates = vec![Candidate {
            section: Section::Code,
            file: execute.file,
            def: Some(execute),
            symbol: Some("execute".to_owned()),
            kind: index.def(execute).map(|def| def.kind),
            score: 1.0,
            reasons: Vec::new(),
            named: true,
            frame: false,
            of: None,
            renderings: vec![full(&index, execute), compact(&index, execute)],
        }];
        for card in 0..40 {
            let helper = def(&format!("helper_{card}"));
            candidates.push(Candidate {
                section: Section::Definitions,
                file: helper.file,
                def: Some(helper),
                symbol: Some(format!("helper_{card}")),
                kind: index.def(helper).map(|def| def.kind),
                score: 0.9 - card as f32 * 0.001,
                reasons: Vec::new(),
                named: false,
                frame: false,
                of: None,
                renderings: vec![compact(&index, helper)],
            });
        }
        // The code's own share (a quarter of 1,000 tokens) is too small for the function,
        // which would otherwise come as a card while the cards fill their larger share.
        let assembly = assembled(&index, &candidates, [3, 1, 0, 0, 0], 1000, None);
        let target = assembly
            .chosen
            .iter()
            .find(|chosen| chosen.candidate_idx == 0)
            .expect("the target is chosen");
        assert_eq!(target.rendering_idx, 0, "{}", assembly.text);
        assert!(assembly.text.contains("attempt=29"), "{}", assembly.text);
        assert!(assembly.used <= 1000);
        // The cards share what is left.
        assert!(assembly.chosen.len() > 5, "{}", assembly.text);
    }

    #[test]
    fn a_functions_code_gives_way_to_the_code_of_the_function_holding_it() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /src/store.ts
export function create(createState) {
  let state;
  const listeners = new Set();
  function setState(partial) {
    state = Object.assign({}, state, partial);
    listeners.forEach((listener) => listener(state));
  }
  function subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }
  return { setState, subscribe };
}

export class Store {
  get() {
    return this.state;
  }
  set(state) {
    this.state = state;
  }
}
"#,
        );
        let code = |name: &str, score: f32, frame: bool| {
            let def = index.defs_named(name)[0];
            Candidate {
                section: Section::Code,
                file: def.file,
                def: Some(def),
                symbol: Some(name.to_owned()),
                kind: index.def(def).map(|def| def.kind),
                score,
                reasons: Vec::new(),
                named: false,
                frame,
                of: None,
                renderings: vec![full(&index, def)],
            }
        };
        let chosen = |candidates: &[Candidate]| -> Vec<usize> {
            let assembly = assembled(&index, candidates, [0, 1, 0, 0, 0], 1000, None);
            assembly.chosen.iter().map(|c| c.candidate_idx).collect()
        };
        // The inner function is chosen first; the whole function, which shows it and its
        // neighbour, replaces it.
        assert_eq!(
            chosen(&[code("setState", 1.0, false), code("create", 0.8, false)]),
            vec![1]
        );
        // A class's code does not swallow the method the task is about, and a pasted
        // trace's frame stays as the trace put it.
        assert_eq!(
            chosen(&[code("set", 1.0, false), code("Store", 0.8, false)]),
            vec![0]
        );
        assert_eq!(
            chosen(&[code("setState", 1.0, true), code("create", 0.8, false)]),
            vec![0]
        );
    }

    #[test]
    fn another_file_shown_only_as_cards_the_task_does_not_name_leaves_a_fix() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /shop/db.py
def connect(url):
    return open_connection(url)
//- /shop/pool.py
def open_connection(url):
    return url
def close_connection(conn):
    return conn
"#,
        );
        let best = index.defs_named("connect")[0].file;
        let candidate = |name: &str, section, is_code: bool, score, named| {
            let def = index.defs_named(name)[0];
            let rendering = if is_code {
                full(&index, def)
            } else {
                compact(&index, def)
            };
            Candidate {
                section,
                file: def.file,
                def: Some(def),
                symbol: Some(name.to_owned()),
                kind: None,
                score,
                reasons: Vec::new(),
                named,
                frame: false,
                of: None,
                renderings: vec![rendering],
            }
        };
        let paths = |candidates: &[Candidate], best_file| -> (Vec<String>, usize) {
            let assembly = assembled(&index, candidates, [1, 1, 1, 1, 1], 2000, best_file);
            let mut paths: Vec<String> = assembly
                .chosen
                .iter()
                .map(|c| {
                    index
                        .file(candidates[c.candidate_idx].file)
                        .unwrap()
                        .path
                        .to_string()
                })
                .collect();
            paths.sort();
            paths.dedup();
            (paths, assembly.omitted.len())
        };
        let code = candidate("connect", Section::Code, true, 1.0, true);
        let callee = candidate("open_connection", Section::Definitions, false, 0.5, false);
        let matched = candidate("close_connection", Section::Definitions, false, 0.4, false);
        // The other file's cards (a callee, a BM25 match) leave the answer and are listed as
        // left out.
        let cards = [code.clone(), callee.clone(), matched.clone()];
        assert_eq!(
            paths(&cards, Some(best)),
            (vec!["shop/db.py".to_owned()], 2)
        );
        // Not when a card is named by the task, nor when the file shows code, nor for a task
        // that does not change the targets' own code (no best file given).
        let named = candidate("close_connection", Section::Definitions, false, 0.4, true);
        let with_code = candidate("close_connection", Section::Code, true, 0.4, false);
        for candidates in [
            [code.clone(), callee.clone(), named],
            [code.clone(), callee.clone(), with_code],
        ] {
            assert_eq!(paths(&candidates, Some(best)).0.len(), 2);
        }
        assert_eq!(paths(&cards, None).0.len(), 2);
        // Nor when the best file has nothing in the answer: it is never emptied.
        assert_eq!(
            paths(&[callee, matched], Some(best)).0,
            vec!["shop/pool.py".to_owned()]
        );
    }

    #[test]
    fn a_long_callers_card_comes_once_before_the_lines_around_each_call() {
        let body: String = (0..80).map(|i| format!("    step_{i} = {i}\n")).collect();
        let (index, _) = crate::index::tests::index_fixture(&format!(
            "//- /app/loader.py\ndef build_graph(graph):\n{body}    return graph\n"
        ));
        let def = index.defs_named("build_graph")[0];
        // A caller of two targets: its card, and the lines around each call.
        let candidate =
            |score, rendering| shown_as(&index, def, Section::Callers, score, rendering);
        let candidates = [
            candidate(0.5, lines(&index, def.file, 20, 24)),
            candidate(0.5, compact(&index, def)),
            candidate(0.4, lines(&index, def.file, 60, 64)),
        ];
        let assembly = assembled(&index, &candidates, [0, 0, 1, 0, 0], 2000, None);
        let order: Vec<usize> = assembly.chosen.iter().map(|c| c.candidate_idx).collect();
        assert_eq!(order, [1, 0, 2], "{}", assembly.text);
        assert_eq!(
            assembly.text.matches("def build_graph(graph)\n").count(),
            1,
            "{}",
            assembly.text
        );
    }

    #[test]
    fn the_exception_a_trace_reports_is_shown_beside_its_frames() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /net/errors.py
class TransportError(Exception):
    pass


class ConnectError(TransportError):
    """The connection was refused or timed out."""
//- /net/transport.py
from net.errors import ConnectError


def open_socket(host):
    if not host:
        raise ConnectError(host)
    return host


def send(host, payload):
    sock = open_socket(host)
    return sock, payload
//- /net/client.py
from net.transport import send


class Client:
    def __init__(self, host):
        self.host = host

    def request(self, payload):
        return send(self.host, payload)

    def get(self):
        return self.request(None)
"#,
        );
        let trace = "Traceback (most recent call last):\n  \
            File \"/srv/app/net/client.py\", line 12, in get\n    return self.request(None)\n  \
            File \"/srv/app/net/client.py\", line 9, in request\n    return send(self.host, payload)\n  \
            File \"/srv/app/net/transport.py\", line 11, in send\n    sock = open_socket(host)\n  \
            File \"/srv/app/net/transport.py\", line 6, in open_socket\n    raise ConnectError(host)\n\
            net.errors.ConnectError: None\n";
        let result = Engine::new()
            .assemble_context(&index, &ContextRequest::new(trace))
            .expect("valid request");
        let thrown = result
            .items
            .iter()
            .find(|item| item.symbol.as_deref() == Some("ConnectError"))
            .unwrap_or_else(|| panic!("the exception's class: {}", result.text));
        assert!(thrown
            .reasons
            .iter()
            .any(|r| r == "thrown:net.errors.ConnectError"));
        assert_eq!(thrown.path, "net/errors.py");
    }

    /// A module whose `create` runs `filler` lines before its check of the batch size.
    fn long_create(filler: usize) -> String {
        let filler: String = (0..filler)
            .map(|i| format!("    total_{i} = compute_{i}(objs, {i})\n"))
            .collect();
        format!(
            "//- /db/query.py\ndef create(objs, options):\n{filler}    batch_size = options.batch_size\n    if batch_size is not None and batch_size <= 0:\n        raise ValueError(\"Batch size must be positive\")\n    return objs\n"
        )
    }

    #[test]
    fn a_long_targets_card_comes_right_before_the_lines_of_its_body_it_introduces() {
        let (index, _) = crate::index::tests::index_fixture(&long_create(400));
        let mut request = ContextRequest::new("fix `create` when the batch size is zero");
        request.budget = 1500;
        let result = Engine::new()
            .assemble_context(&index, &request)
            .expect("valid request");
        let text = &result.text;
        let card = text
            .find("\ndef create(objs, options)\n")
            .unwrap_or_else(|| panic!("the card: {text}"));
        let lines = text.find("batch_size <= 0").expect("the window");
        assert!(!text[lines..].contains("def create("), "{text}");
        assert!(card < lines, "{text}");
        // The items are in the order of the text.
        let created: Vec<Fidelity> = result
            .items
            .iter()
            .filter(|item| item.symbol.as_deref() == Some("create"))
            .map(|item| item.fidelity)
            .collect();
        assert_eq!(created, [Fidelity::Compact, Fidelity::Full], "{text}");
    }

    #[test]
    fn a_targets_window_comes_whole_when_most_of_the_budget_is_left() {
        let (index, _) = crate::index::tests::index_fixture(&long_create(70));
        let shown = |budget: u32| {
            let mut request =
                ContextRequest::new("fix the crash when the batch size is zero or negative");
            request.budget = budget;
            let result = Engine::new()
                .assemble_context(&index, &request)
                .expect("valid request");
            let data = index
                .file(index.defs_named("create")[0].file)
                .expect("live file");
            let line = |offset: u32| data.line_index.line_col(offset).line;
            // Each item's fidelity, first line and the lines of the whole it is part of.
            type Shown = (Fidelity, u32, Option<(u32, u32)>);
            let lines: Vec<Shown> = result
                .items
                .iter()
                .filter(|item| item.symbol.as_deref() == Some("create"))
                .map(|item| {
                    let part_of = item
                        .part_of
                        .map(|whole| (line(whole.start), line(whole.end - 1)));
                    (item.fidelity, line(item.range.start), part_of)
                })
                .collect();
            (lines, result.text)
        };
        // With most of the budget left, the whole function, from its header.
        let (lines, text) = shown(8000);
        assert_eq!(lines, [(Fidelity::Full, 0, None)], "{text}");
        assert!(text.contains("total_0 = compute_0") && text.contains("batch_size <= 0"));
        assert!(!text.contains("part-of="), "{text}");
        // At a tight budget, its card and the lines that matter, which say they are part of
        // the function's 75 lines.
        let (lines, text) = shown(700);
        assert_eq!(lines.len(), 2, "{text}");
        assert_eq!(lines[0], (Fidelity::Compact, 0, None), "{text}");
        assert_eq!(lines[1].0, Fidelity::Full, "{text}");
        assert!(lines[1].1 > 0, "{text}");
        assert_eq!(lines[1].2, Some((0, 74)), "{text}");
        assert!(text.contains(" part-of=\"1-75\">"), "{text}");
    }

    #[test]
    fn a_frames_window_comes_whole_when_most_of_the_budget_is_left() {
        let (index, _) = crate::index::tests::index_fixture(&long_create(70));
        let trace = "Traceback (most recent call last):\n  File \"/app/db/query.py\", line 74, in create\n    raise ValueError(\"Batch size must be positive\")\nValueError: Batch size must be positive";
        let shown = |budget: u32| {
            let mut request = ContextRequest::new(trace);
            request.budget = budget;
            let result = Engine::new()
                .assemble_context(&index, &request)
                .expect("valid request");
            let parts: Vec<bool> = result
                .items
                .iter()
                .filter(|item| item.symbol.as_deref() == Some("create"))
                .filter(|item| item.fidelity == Fidelity::Full)
                .map(|item| item.part_of.is_some())
                .collect();
            (parts, result.text)
        };
        // The frame's lines first; with the budget mostly unused, its whole function.
        let (parts, text) = shown(8000);
        assert_eq!(parts, [false], "{text}");
        assert!(text.contains("total_0 = compute_0"), "{text}");
        let (parts, text) = shown(700);
        assert_eq!(parts, [true], "{text}");
    }

    #[test]
    fn the_files_say_which_of_them_the_answer_shows() {
        let (index, _) = crate::index::tests::index_fixture(&long_create(70));
        let result = Engine::new()
            .assemble_context(&index, &ContextRequest::new("fix the batch size check"))
            .expect("valid request");
        assert!(!result.files.is_empty());
        for file in &result.files {
            let in_items = result.items.iter().any(|item| item.file == file.file);
            assert_eq!(file.shown, in_items, "{}", file.path);
        }
        assert!(result.files.iter().any(|file| file.shown));
    }

    #[test]
    fn a_skeleton_beside_its_members_code_lists_only_the_others_and_code_is_by_file_and_line() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /shop/session.py
class Session:
    def open(self):
        return 1

    def clear(self):
        return 2

    def close(self):
        return 3
//- /shop/store.py
def keep(data):
    return data
"#,
        );
        let session = index.defs_named("Session")[0];
        let clear = index.defs_named("clear")[0];
        let close = index.defs_named("close")[0];
        let keep = index.defs_named("keep")[0];
        let standard = crate::engine::items::standard(&index, session, 10).expect("members");
        let candidates = [
            shown_as(&index, close, Section::Code, 1.0, full(&index, close)),
            shown_as(&index, keep, Section::Code, 0.9, full(&index, keep)),
            shown_as(&index, session, Section::Code, 0.8, standard),
            shown_as(&index, clear, Section::Code, 0.7, full(&index, clear)),
        ];
        let assembly = assembled(&index, &candidates, [0, 1, 0, 0, 0], 1000, None);
        let text = &assembly.text;
        // The skeleton lists `open` only: the others are shown whole.
        assert!(
            text.contains("class Session\n  2: def open(self)\n</code>"),
            "{text}"
        );
        assert!(!text.contains("  5: def clear(self)"), "{text}");
        // The best item's file first, its items by line, then the other file.
        let at = |needle: &str| {
            text.find(needle)
                .unwrap_or_else(|| panic!("{needle}: {text}"))
        };
        assert!(at("class Session") < at("return 2"), "{text}");
        assert!(at("return 2") < at("return 3"), "{text}");
        assert!(at("return 3") < at("return data"), "{text}");
        // The count is the trimmed text's.
        let item = assembly
            .chosen
            .iter()
            .find(|item| candidates[item.candidate_idx].def == Some(session))
            .expect("the skeleton is shown");
        assert_eq!(item.tokens, item.block.len() as u32 / 4);
        // With every member shown whole, the skeleton is the class's header.
        let open = index.defs_named("open")[0];
        let all = [
            candidates[0].clone(),
            candidates[2].clone(),
            candidates[3].clone(),
            shown_as(&index, open, Section::Code, 0.6, full(&index, open)),
        ];
        let assembly = assembled(&index, &all, [0, 1, 0, 0, 0], 1000, None);
        assert!(
            assembly.text.contains("\">\nclass Session\n</code>"),
            "{}",
            assembly.text
        );
    }

    #[test]
    fn a_container_shown_as_a_standard_card_heads_its_members_cards() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /shop/routes.py
class Route:
    def handle(self):
        pass


class Mount:
    def matches(self, scope):
        return scope
"#,
        );
        let route = index.defs_named("Route")[0];
        let mount = index.defs_named("Mount")[0];
        let matches = index.defs_named("matches")[0];
        let standard = crate::engine::items::standard(&index, mount, 10).expect("members");
        let candidates = [
            shown_as(&index, mount, Section::Code, 1.0, standard),
            shown_as(
                &index,
                route,
                Section::Definitions,
                0.5,
                compact(&index, route),
            ),
            shown_as(
                &index,
                mount,
                Section::Definitions,
                0.5,
                compact(&index, mount),
            ),
            shown_as(
                &index,
                matches,
                Section::Definitions,
                0.5,
                compact(&index, matches),
            ),
        ];
        let assembly = assembled(&index, &candidates, [1, 1, 0, 0, 0], 1000, None);
        // `matches` is listed under `Mount`, not under `Route`, the definition before it.
        assert!(
            assembly
                .text
                .contains("1: class Route\n6: class Mount\n  7: def matches(self, scope)\n"),
            "{}",
            assembly.text
        );
    }

    #[test]
    fn cards_of_one_file_are_listed_under_one_heading_by_line_in_the_order_of_the_items() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /shop/db.py
class RetryPolicy:
    """Decides whether a failed statement is retried."""

    def should_retry(self, attempt):
        return attempt < 3


class DatabaseClient:
    """Talks to the database."""

    def __init__(self, url, retry_policy=None):
        self.url = url
        self.retry_policy = retry_policy or RetryPolicy()

    def connect(self):
        if not self.url:
            raise ValueError("empty url")
        return open_connection(self.url)


def open_connection(url):
    return url
"#,
        );
        let engine = Engine::new();
        let request = ContextRequest::new("fix the crash in DatabaseClient.connect");
        let result = engine
            .assemble_context(&index, &request)
            .expect("valid request");
        let text = &result.text;
        assert_eq!(
            text.matches("<defs path=\"shop/db.py\">\n").count(),
            1,
            "{text}"
        );
        // One entry per card, labelled with its name's line and indented by nesting; no
        // per-card element.
        assert!(!text.contains("<def "), "{text}");
        assert!(
            text.contains("\n8: class DatabaseClient\n  Talks to the database."),
            "{text}"
        );
        assert!(
            text.contains("\n  4: def should_retry(self, attempt)\n"),
            "{text}"
        );
        // Items come in the order of the text: the definitions' cards by line.
        let cards: Vec<u32> = result
            .items
            .iter()
            .filter(|item| item.section == Section::Definitions)
            .map(|item| item.range.start)
            .collect();
        assert!(cards.len() >= 3, "{text}");
        assert!(cards.windows(2).all(|pair| pair[0] < pair[1]), "{cards:?}");
        assert_eq!(result.used, request.tokenizer.count(text));
        // JSON keeps one object per item.
        let mut json = request.clone();
        json.format = Format::Json;
        let result = engine
            .assemble_context(&index, &json)
            .expect("valid request");
        assert!(!result.text.contains("<defs"));
        assert!(result.text.contains("\"section\":\"definitions\""));
    }

    #[test]
    fn names_the_workspace_does_not_define_are_stated_and_counted() {
        let (index, _) = crate::index::tests::index_fixture(
            "//- /shop/db.py\ndef connect(url):\n    return url\n",
        );
        let engine = Engine::new();
        let mut request = ContextRequest::new(
            "fix `FooClient.frobnicate` and `parse_config` when `connect` gets `None` (issue_1293)",
        );
        for format in [Format::Xml, Format::Markdown] {
            request.format = format;
            let result = engine
                .assemble_context(&index, &request)
                .expect("valid request");
            // `connect` is defined; `None` is a single plain word, no name's shape; issue_1293,
            // outside backticks, is prose.
            assert_eq!(result.unresolved, ["FooClient.frobnicate", "parse_config"]);
            assert!(
                result.text.contains("FooClient.frobnicate, parse_config")
                    || result
                        .text
                        .contains("`FooClient.frobnicate`, `parse_config`"),
                "{}",
                result.text
            );
            assert_eq!(
                result.used,
                engine.count_tokens(request.tokenizer, &result.text)
            );
        }
        // Outside backticks, prose names products in the shapes of code.
        let result = engine
            .assemble_context(
                &index,
                &ContextRequest::new("improve TypeScript types of `parse_cfg`"),
            )
            .expect("valid request");
        assert_eq!(result.unresolved, ["parse_cfg"]);
        let result = engine
            .assemble_context(&index, &ContextRequest::new("fix `connect`"))
            .expect("valid request");
        assert!(result.unresolved.is_empty());
        assert!(!result.text.contains("unresolved"), "{}", result.text);
    }

    #[test]
    fn every_use_of_a_target_a_usage_question_names_is_shown_or_listed() {
        // `lookup` has 16 callers, more than come as code.
        let mut fixture = String::from("//- /flags/core.py\ndef lookup(name):\n    return name\n");
        for n in 0..16 {
            fixture.push_str(&format!(
                "//- /flags/kind_{n}.py\nfrom flags.core import lookup\ndef get_kind_{n}(name):\n    value = lookup(name)\n    return value\n"
            ));
        }
        let (index, _) = crate::index::tests::index_fixture(&fixture);
        let engine = Engine::new();
        for (format, budget) in [
            (Format::Xml, 8000),
            (Format::Markdown, 8000),
            (Format::Xml, 700),
        ] {
            let mut request = ContextRequest::new("Where is `lookup` called?");
            request.format = format;
            request.budget = budget;
            let result = engine
                .assemble_context(&index, &request)
                .expect("valid request");
            assert!(result.used <= budget);
            assert_eq!(
                result.used,
                engine.count_tokens(request.tokenizer, &result.text)
            );
            // Each caller's use (line 3 of its file) is in an item's lines or listed as left
            // out, not both.
            let shown: Vec<&str> = result
                .items
                .iter()
                .filter(|item| {
                    let data = index.file(item.file).expect("live file");
                    let (first, last) = data.line_index.lines(item.range);
                    item.path.contains("kind_") && (first..=last).contains(&2)
                })
                .map(|item| item.path.as_str())
                .collect();
            let left: Vec<&str> = result
                .uses_left
                .iter()
                .filter(|uses| uses.of == "lookup")
                .flat_map(|uses| uses.uses.iter())
                .map(|site| {
                    assert_eq!(site.line, 2);
                    assert!(site.symbol.starts_with("get_kind_"), "{}", site.symbol);
                    site.path.as_str()
                })
                .collect();
            assert_eq!(shown.len() + left.len(), 16, "{shown:?} {left:?}");
            assert!(!left.is_empty() && !shown.is_empty(), "{}", result.text);
            assert!(left.iter().all(|path| !shown.contains(path)));
            let note = match format {
                Format::Markdown => format!("uses of `lookup` not shown: {}", left.len()),
                _ => format!(
                    "<omitted reason=\"uses\" of=\"lookup\" items=\"{}\">",
                    left.len()
                ),
            };
            assert!(result.text.contains(&note), "{}", result.text);
            if budget == 8000 {
                // Named with the line of the use, as many as fit.
                let first = &result.uses_left[0].uses[0];
                assert!(
                    result
                        .text
                        .contains(&format!("{} ({}:3)", first.symbol, first.path)),
                    "{}",
                    result.text
                );
            }
        }
        // A bug fix is not about the uses: no note.
        let result = engine
            .assemble_context(
                &index,
                &ContextRequest::new("fix the crash in `lookup` when the name is empty"),
            )
            .expect("valid request");
        assert!(result.uses_left.is_empty());
        assert!(!result.text.contains("reason=\"uses\""), "{}", result.text);
    }
}
