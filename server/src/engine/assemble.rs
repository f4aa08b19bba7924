//! Token-budgeted assembly: per-intent shares of the budget across sections, filled by
//! score with the richest rendering that fits, unused share flowing to sections that still
//! have candidates, and a relevance floor so the budget is a ceiling, not a target.
//!
//! Invariant: the rendered text never exceeds the budget (checked by an exact count of the
//! final text; items are dropped from the lowest score until it fits); items never overlap.

use super::items::{line_span, Candidate, Rendering, Section};
use super::render::{self, Block, Format};
use crate::base::FxHashMap;
use crate::index::Index;
use rayon::prelude::*;

/// A chosen item with its rendering and exact token count.
#[derive(Clone, Debug)]
pub struct Chosen {
    pub candidate_idx: usize,
    pub rendering: Rendering,
    pub block: String,
    pub tokens: u32,
}

pub struct Assembly {
    pub chosen: Vec<Chosen>,
    /// Candidates left out, with the token cost of their cheapest rendering.
    pub omitted: Vec<(usize, u32)>,
    pub text: String,
    pub used: u32,
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
}

/// A rendering with more bytes than this many times the tokens left cannot fit in practice
/// (code averages 3 to 4 bytes per token), so it is not counted. This only saves work: the
/// final text is counted exactly.
const MAX_BYTES_PER_TOKEN: usize = 8;
/// How many of the best left-out candidates are listed.
const MAX_OMITTED: usize = 12;

/// Candidates scoring below this share of the best one are not worth their tokens.
const RELEVANCE_FLOOR: f32 = 0.2;

fn render_block(input: &AssembleInput<'_>, candidate: &Candidate, rendering: &Rendering) -> String {
    let data = input.index.file(candidate.file).expect("live file");
    let span = line_span(input.index, candidate.file, rendering.range);
    let first = data.line_index.line_col(span.start).line + 1;
    let last = data
        .line_index
        .line_col(span.end.saturating_sub(1).max(span.start))
        .line
        + 1;
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
            body: &rendering.body,
        },
    )
}

/// A candidate's rendering as a block of the answer, with its exact token count.
fn counted(input: &AssembleInput<'_>, idx: usize, rendering_idx: usize) -> (String, u32) {
    let candidate = &input.candidates[idx];
    let block = render_block(input, candidate, &candidate.renderings[rendering_idx]);
    let tokens = (input.count)(&block);
    (block, tokens)
}

fn overlaps(
    chosen: &[Chosen],
    candidates: &[Candidate],
    candidate: &Candidate,
    rendering: &Rendering,
) -> bool {
    chosen.iter().any(|other| {
        let other_candidate = &candidates[other.candidate_idx];
        other_candidate.file == candidate.file
            && other.rendering.range.start < rendering.range.end
            && rendering.range.start < other.rendering.range.end
            && (other.rendering.range.contains_range(rendering.range)
                || rendering.range.contains_range(other.rendering.range)
                || other_candidate.section == candidate.section)
    })
}

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

    // Token counts of each rendering, counted once.
    let mut costs: FxHashMap<(usize, usize), (String, u32)> = FxHashMap::default();
    // Renders and counts a candidate's rendering once; the block stays in `costs` until
    // the rendering is chosen.
    let cost = |costs: &mut FxHashMap<(usize, usize), (String, u32)>,
                idx: usize,
                rendering_idx: usize|
     -> u32 {
        costs
            .entry((idx, rendering_idx))
            .or_insert_with(|| counted(input, idx, rendering_idx))
            .1
    };

    // Most answers fit their budget with every relevant candidate's first rendering, so
    // those are rendered and counted up front, in parallel (counting is most of the stage).
    costs.extend(
        relevant
            .par_iter()
            .filter(|idx| {
                candidates[**idx].renderings[0].body.len()
                    <= input.limit as usize * MAX_BYTES_PER_TOKEN
            })
            .map(|idx| ((*idx, 0), counted(input, *idx, 0)))
            .collect::<Vec<_>>(),
    );

    let header = render::document(input.format, input.intent, input.limit, input.limit, &[]);
    let overhead = (input.count)(&header)
        + Section::ALL
            .iter()
            .map(|section| (input.count)(&render::section_overhead(input.format, *section)))
            .sum::<u32>()
        + 8;
    let available = input.limit.saturating_sub(overhead);
    let share_total: u32 = input.shares.iter().sum::<u32>().max(1);
    let mut allowance: [u32; 5] = [0; 5];
    for section in Section::ALL {
        allowance[section.idx()] = available * input.shares[section.idx()] / share_total;
    }

    let mut chosen: Vec<Chosen> = Vec::new();
    let mut taken = vec![false; candidates.len()];
    let mut spent: [u32; 5] = [0; 5];
    // Pass 1: each section within its share. Pass 2: what is left, to anyone, by score.
    for pass in 0..2 {
        let total_spent: u32 = spent.iter().sum();
        let mut pool = available.saturating_sub(total_spent);
        for &idx in &relevant {
            if taken[idx] {
                continue;
            }
            let candidate = &candidates[idx];
            let section = candidate.section.idx();
            for rendering_idx in 0..candidate.renderings.len() {
                let rendering = &candidate.renderings[rendering_idx];
                if overlaps(&chosen, candidates, candidate, rendering) {
                    continue;
                }
                let room = if pass == 0 {
                    allowance[section].saturating_sub(spent[section])
                } else {
                    pool
                };
                if rendering.body.len() > room as usize * MAX_BYTES_PER_TOKEN {
                    continue;
                }
                let tokens = cost(&mut costs, idx, rendering_idx);
                let fits = if pass == 0 {
                    spent[section] + tokens <= allowance[section]
                } else {
                    tokens <= pool
                };
                if !fits {
                    continue;
                }
                spent[section] += tokens;
                if pass == 1 {
                    pool -= tokens;
                }
                let (block, _) = costs
                    .remove(&(idx, rendering_idx))
                    .expect("counted just above");
                chosen.push(Chosen {
                    candidate_idx: idx,
                    rendering: rendering.clone(),
                    block,
                    tokens,
                });
                taken[idx] = true;
                break;
            }
        }
    }

    // Render and enforce the limit on the exact count of the final text.
    loop {
        let (text, used) = render_document(input, candidates, &chosen);
        if used <= input.limit || chosen.is_empty() {
            let omitted: Vec<usize> = relevant
                .iter()
                .chain(&irrelevant)
                .filter(|idx| !chosen.iter().any(|c| c.candidate_idx == **idx))
                .take(MAX_OMITTED)
                .copied()
                .collect();
            // The cost of each left-out item's cheapest rendering, counted in parallel.
            let omitted: Vec<(usize, u32)> = omitted
                .par_iter()
                .map(|idx| {
                    let cheapest = candidates[*idx].renderings.len() - 1;
                    let tokens = match costs.get(&(*idx, cheapest)) {
                        Some((_, tokens)) => *tokens,
                        None => counted(input, *idx, cheapest).1,
                    };
                    (*idx, tokens)
                })
                .collect();
            if used > input.limit {
                // Even the empty document does not fit: nothing can be returned.
                return Assembly {
                    chosen: Vec::new(),
                    omitted,
                    text: String::new(),
                    used: 0,
                };
            }
            return Assembly {
                chosen,
                omitted,
                text,
                used,
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

/// Renders the chosen items grouped by section (in section order, each by position in the
/// file within the section's score order) and counts the tokens of the whole text,
/// including the `used` figure it states.
fn render_document(
    input: &AssembleInput<'_>,
    candidates: &[Candidate],
    chosen: &[Chosen],
) -> (String, u32) {
    let sections: Vec<(Section, Vec<String>)> = Section::ALL
        .iter()
        .map(|section| {
            let blocks = chosen
                .iter()
                .filter(|c| candidates[c.candidate_idx].section == *section)
                .map(|c| c.block.clone())
                .collect();
            (*section, blocks)
        })
        .collect();
    if input.format == Format::Json {
        let text = render::document(input.format, input.intent, input.limit, 0, &sections);
        let used = (input.count)(&text);
        return (text, used);
    }
    // The count of the document is the sum of its parts' (see `render::document_parts`):
    // the blocks are counted already, the wrappers are short, and only the header depends on
    // the figure it states, so the figure is settled on the header alone.
    let body: u32 = sections
        .iter()
        .filter(|(_, blocks)| !blocks.is_empty())
        .map(|(section, _)| {
            (input.count)(&render::section_open(input.format, *section))
                + (input.count)(&render::section_close(input.format, *section))
        })
        .sum::<u32>()
        + chosen.iter().map(|c| c.tokens).sum::<u32>()
        + (input.count)(render::footer(input.format));
    let total_with = |stated: u32| {
        (input.count)(&render::header(
            input.format,
            input.intent,
            input.limit,
            stated,
        )) + body
    };
    let mut stated = body;
    for _ in 0..8 {
        let total = total_with(stated);
        if total == stated {
            break;
        }
        stated = total;
    }
    // `used` is the exact count of the text returned, even if the stated figure could not
    // settle (it can only differ by the tokens of its own digits).
    (
        render::document(input.format, input.intent, input.limit, stated, &sections),
        total_with(stated),
    )
}
