//! The context engine: given a task in plain words (possibly with a stack trace), returns
//! the code an assistant needs, under a hard token budget.
//!
//! Pipeline, one module per stage: `intent` (kind of task) -> `query` (identifiers, words,
//! frames) -> `rank` (candidates fused by reciprocal rank, with reasons) -> `expand`
//! (code, containers, callees, callers, tests, imports) -> `assemble` (budget shares,
//! fidelities, exact token counts) -> `render` (XML, Markdown or JSON).
//!
//! Invariant: no IO, no LSP types, no network; the same request on the same index gives
//! byte-identical output; `used <= limit` always, counted on the final text.

mod assemble;
mod expand;
pub mod intent;
mod items;
pub mod query;
mod rank;
pub mod render;
mod search;
pub mod text;
pub mod tokens;
pub mod trace;

use std::sync::{Arc, Mutex};
use std::time::Instant;

pub use assemble::Omission;
pub use intent::{Intent, IntentKind};
pub use items::{Fidelity, Section};
pub use render::Format;
pub use search::{terms_key, FileTerms, SearchIndex, TermsSeed};
pub use tokens::Tokenizer;

use crate::base::{FileId, FxHashSet, TextRange};
use crate::index::{FilePosition, Index};
use crate::languages::DefKind;

pub const DEFAULT_BUDGET: u32 = 8000;
pub const MIN_BUDGET: u32 = 256;
pub const MAX_BUDGET: u32 = 200_000;
pub const MAX_QUERY_BYTES: usize = 64 * 1024;

/// What the caller asks for.
#[derive(Clone, Debug)]
pub struct ContextRequest {
    pub query: String,
    pub budget: u32,
    pub format: Format,
    pub intent: Option<IntentKind>,
    pub tokenizer: Tokenizer,
    /// The file and cursor the user is at.
    pub active: Option<FilePosition>,
    /// Files already in the conversation: not repeated.
    pub pinned: Vec<FileId>,
}

impl ContextRequest {
    pub fn new(query: impl Into<String>) -> ContextRequest {
        ContextRequest {
            query: query.into(),
            budget: DEFAULT_BUDGET,
            format: Format::Xml,
            intent: None,
            tokenizer: Tokenizer::O200kBase,
            active: None,
            pinned: Vec::new(),
        }
    }
}

/// A request the engine refuses, naming the field at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ContextError {
    #[error("query: must not be empty")]
    EmptyQuery,
    #[error("query: must be at most {MAX_QUERY_BYTES} bytes, got {0}")]
    QueryTooLong(usize),
    #[error("budget: must be between {MIN_BUDGET} and {MAX_BUDGET} tokens, got {0}")]
    BudgetOutOfRange(u64),
}

#[derive(Clone, Debug)]
pub struct ContextItem {
    pub section: Section,
    pub file: FileId,
    pub path: String,
    pub range: TextRange,
    pub symbol: Option<String>,
    pub kind: Option<DefKind>,
    pub fidelity: Fidelity,
    pub tokens: u32,
    pub score: f32,
    pub reasons: Vec<String>,
    /// The lines of the whole definition when the item shows part of it (see
    /// [`items::part_of`]).
    pub part_of: Option<TextRange>,
}

/// The uses of one target that the answer does not show.
#[derive(Clone, Debug)]
pub struct UsesLeft {
    /// The target's name.
    pub of: String,
    pub uses: Vec<UseLeft>,
}

/// A use of a target: the definition using it, and the line of the use.
#[derive(Clone, Debug)]
pub struct UseLeft {
    /// The using definition's qualified name.
    pub symbol: String,
    pub file: FileId,
    pub path: String,
    /// 0-based.
    pub line: u32,
}

#[derive(Clone, Debug)]
pub struct ContextFile {
    pub file: FileId,
    pub path: String,
    pub score: f32,
    pub reasons: Vec<String>,
    /// Some item of the answer is from this file.
    pub shown: bool,
}

#[derive(Clone, Debug)]
pub struct ContextResult {
    pub intent: Intent,
    pub limit: u32,
    pub used: u32,
    pub tokenizer: Tokenizer,
    pub items: Vec<ContextItem>,
    pub files: Vec<ContextFile>,
    /// The best candidates left out, each with why (see [`Omission`]).
    pub omitted: Vec<(ContextItem, Omission)>,
    /// Names the task writes as code that no definition in the workspace has and no code
    /// uses: the answer cannot show them (see [`unresolved_names`]).
    pub unresolved: Vec<String>,
    /// The uses of targets the task asks about (a usage question, a refactor, a rename)
    /// that the answer does not show: the text names as many as fit, this lists all.
    pub uses_left: Vec<UsesLeft>,
    pub text: String,
    /// Milliseconds per stage, in pipeline order.
    pub timings_ms: Vec<(&'static str, f64)>,
}

/// The engine: stateless but for caches of the search tables, keyed by index generation.
#[derive(Default)]
pub struct Engine {
    search: Mutex<Option<Arc<SearchIndex>>>,
    /// Term counts of an earlier run for the next build of the search tables (taken by it).
    terms_seed: Mutex<Option<Arc<TermsSeed>>>,
    /// Token counts of rendered blocks, by tokenizer and a hash of the text.
    token_counts: Mutex<crate::base::FxHashMap<(Tokenizer, u64), u32>>,
}

/// Entries kept in the token-count cache before it is cleared.
const MAX_CACHED_COUNTS: usize = 200_000;

fn round_score(score: f32) -> f32 {
    (score * 10_000.0).round() / 10_000.0
}

impl Engine {
    pub fn new() -> Engine {
        Engine::default()
    }

    /// Gives the next build of the search tables the term counts of an earlier run (read from
    /// the term cache), so that it counts the words of only the files `seed` lacks.
    pub fn seed_terms(&self, seed: Arc<TermsSeed>) {
        *self
            .terms_seed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(seed);
    }

    /// The search tables for this index, built (or incrementally refreshed) when stale.
    pub fn search_index(&self, index: &Index) -> Arc<SearchIndex> {
        let mut slot = self
            .search
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(search) = slot.as_ref() {
            if search.generation == index.generation() {
                return Arc::clone(search);
            }
        }
        let seed = self
            .terms_seed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        let fresh = Arc::new(SearchIndex::build_seeded(
            index,
            index.generation(),
            slot.as_deref(),
            seed.as_deref(),
        ));
        if let Some(stale) = slot.replace(Arc::clone(&fresh)) {
            // Freeing the old tables (a large share of a rebuild's time) is nobody's wait.
            rayon::spawn(move || drop(stale));
        }
        fresh
    }

    /// The exact token count of `text`, remembered for the next request.
    fn count_tokens(&self, tokenizer: Tokenizer, text: &str) -> u32 {
        use std::hash::{Hash, Hasher};
        // Short texts cost less to count than to look up.
        if text.len() < 64 {
            return tokenizer.count(text);
        }
        let mut hasher = rustc_hash::FxHasher::default();
        text.hash(&mut hasher);
        let key = (tokenizer, hasher.finish());
        if let Some(count) = self
            .token_counts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            return *count;
        }
        let count = tokenizer.count(text);
        let mut cache = self.token_counts.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= MAX_CACHED_COUNTS {
            cache.clear();
        }
        cache.insert(key, count);
        count
    }

    pub fn assemble_context(
        &self,
        index: &Index,
        request: &ContextRequest,
    ) -> Result<ContextResult, ContextError> {
        if request.query.trim().is_empty() {
            return Err(ContextError::EmptyQuery);
        }
        if request.query.len() > MAX_QUERY_BYTES {
            return Err(ContextError::QueryTooLong(request.query.len()));
        }
        if !(MIN_BUDGET..=MAX_BUDGET).contains(&request.budget) {
            return Err(ContextError::BudgetOutOfRange(u64::from(request.budget)));
        }
        let mut timings: Vec<(&'static str, f64)> = Vec::new();
        let mut clock = Instant::now();
        let mut lap = |name: &'static str, timings: &mut Vec<(&'static str, f64)>| {
            let now = Instant::now();
            timings.push((name, (now - clock).as_secs_f64() * 1000.0));
            clock = now;
        };

        let search = self.search_index(index);
        lap("search_index", &mut timings);
        let analysis = query::analyze(&request.query);
        let detected = intent::detect(&request.query, &analysis.frames);
        let intent = match request.intent {
            Some(kind) => Intent {
                kind,
                confidence: 1.0,
                signals: vec!["override".to_owned()],
            },
            None => detected,
        };
        let unresolved = unresolved_names(index, &request.query, &analysis);
        lap("intent_and_query", &mut timings);
        let ranking = rank::rank(&rank::RankInput {
            index,
            search: &search,
            analysis: &analysis,
            intent: intent.kind,
            active_file: request.active.map(|pos| pos.file),
            active_offset: request.active.map(|pos| pos.offset),
            pinned: &request.pinned,
        });
        lap("rank", &mut timings);
        // Callers from outside the answer's focus files are worth their tokens when the task
        // is about usages, or changes an interface their code has to follow.
        let wants_callers = match intent.kind {
            IntentKind::UsageExploration => true,
            IntentKind::Refactor => {
                request.intent.is_some() || intent::changes_interface(&analysis.words)
            }
            _ => false,
        };
        let expansion = expand::expand(
            index,
            &ranking,
            intent.kind,
            wants_callers,
            &request.pinned,
            expand::TaskText {
                terms: &analysis.terms,
                fragments: &analysis.fragments,
                renamed: &analysis.renamed,
                renamed_in: &analysis.renamed_in,
            },
        );
        lap("expand", &mut timings);
        let assembly = assemble::assemble(&assemble::AssembleInput {
            index,
            candidates: &expansion.candidates,
            shares: intent.kind.shares(),
            limit: request.budget,
            format: request.format,
            count: &|text| self.count_tokens(request.tokenizer, text),
            intent: intent.kind.name(),
            unresolved: &unresolved,
            best_file: ranking
                .files
                .first()
                .filter(|_| intent.kind.changes_targets())
                .map(|file| file.file),
            fallback: expansion.fallback,
            call_sites: &expansion.call_sites,
        });
        lap("assemble", &mut timings);

        let to_item =
            |candidate: &items::Candidate, rendering: &items::Rendering, tokens: u32| ContextItem {
                section: candidate.section,
                file: candidate.file,
                path: index
                    .file(candidate.file)
                    .map(|data| data.path.to_string())
                    .unwrap_or_default(),
                range: rendering.range,
                symbol: candidate.symbol.clone(),
                kind: candidate.kind,
                fidelity: rendering.fidelity,
                tokens,
                score: round_score(candidate.score),
                reasons: candidate.reasons.clone(),
                part_of: items::part_of(index, candidate.def, rendering),
            };
        // Items in the order they appear in the text: by section, then as chosen.
        let mut items: Vec<ContextItem> = Vec::new();
        for section in Section::ALL {
            for chosen in assembly
                .chosen
                .iter()
                .filter(|chosen| expansion.candidates[chosen.candidate_idx].section == section)
            {
                let candidate = &expansion.candidates[chosen.candidate_idx];
                let rendering = chosen.rendering(&expansion.candidates);
                items.push(to_item(candidate, rendering, chosen.tokens));
            }
        }
        let omitted = assembly
            .omitted
            .iter()
            .map(|left| {
                let candidate = &expansion.candidates[left.candidate_idx];
                let cheapest = candidate
                    .renderings
                    .last()
                    .expect("candidates have renderings");
                let item = to_item(candidate, cheapest, left.tokens);
                (item, left.omission)
            })
            .collect();
        let shown: FxHashSet<FileId> = items.iter().map(|item| item.file).collect();
        let mut files: Vec<ContextFile> = ranking
            .files
            .iter()
            .map(|ranked| ContextFile {
                file: ranked.file,
                path: index
                    .file(ranked.file)
                    .map(|data| data.path.to_string())
                    .unwrap_or_default(),
                score: round_score(ranked.score),
                reasons: ranked.reasons.clone(),
                shown: shown.contains(&ranked.file),
            })
            .collect();
        // Files that reached the answer without ranking (a caller's file, the safety net's
        // files) are listed after the ranked ones, with the reason of their first item.
        let mut listed: FxHashSet<FileId> = files.iter().map(|file| file.file).collect();
        for item in &items {
            if listed.insert(item.file) {
                files.push(ContextFile {
                    file: item.file,
                    path: item.path.clone(),
                    score: 0.0,
                    reasons: item.reasons.iter().take(1).cloned().collect(),
                    shown: true,
                });
            }
        }
        lap("render", &mut timings);
        Ok(ContextResult {
            intent,
            limit: request.budget,
            used: assembly.used,
            tokenizer: request.tokenizer,
            items,
            files,
            omitted,
            unresolved,
            uses_left: assembly.uses_left,
            text: assembly.text,
            timings_ms: timings,
        })
    }
}

/// Whether a name written as code is shaped as a definition's name: qualified
/// (`Client.connect`), with an underscore or capitals inside (`parse_config`, `FooBar`). A
/// single plain word (`timeout`, `None`, `utf16le`) is as likely a parameter, a keyword or
/// a value, which no definition names.
fn shaped_as_name(segments: &[String]) -> bool {
    segments.len() > 1
        || segments
            .iter()
            .any(|segment| segment.contains('_') || segment.chars().skip(1).any(char::is_uppercase))
}

/// At most this many names are listed as unresolved.
const MAX_UNRESOLVED: usize = 5;

/// The names a task writes as code (`FooClient.frobnicate`, `parse_config`) whose last part
/// no definition in the workspace has, in any case, and no code uses: a misspelling, a name
/// from another version of the code, or one the change is to add. A pasted trace names the
/// standard library's and dependencies' functions too: none is listed then.
fn unresolved_names(index: &Index, query: &str, analysis: &query::QueryAnalysis) -> Vec<String> {
    if !analysis.frames.is_empty() {
        return Vec::new();
    }
    // Prose names products and platforms in the shapes of code (`TypeScript`, `FreeBSD`,
    // `issue_1293`): outside backticks only a qualified name counts.
    let quoted: Vec<&str> = text::code_spans(query)
        .into_iter()
        .map(|(_, chunk)| chunk.trim().trim_end_matches("()"))
        .collect();
    analysis
        .mentions
        .iter()
        .filter(|mention| mention.certain && shaped_as_name(&mention.segments))
        .filter(|mention| mention.segments.len() > 1 || quoted.contains(&mention.text.as_str()))
        .filter(|mention| {
            // A file name (`cobra.go`, `History.md`) is a path, not a name.
            !analysis
                .paths
                .iter()
                .any(|path| path.ends_with(mention.text.as_str()))
        })
        .filter(|mention| {
            // Neither defined nor used anywhere: a name used but not defined (a parameter,
            // a keyword argument, an attribute set in a constructor, a builtin) exists.
            mention.segments.last().is_some_and(|last| {
                last.len() >= 3
                    && index.defs_named(last).is_empty()
                    && index.defs_named_ignore_case(last).is_empty()
                    && index.files_referencing(last).is_empty()
            })
        })
        .map(|mention| mention.text.clone())
        .take(MAX_UNRESOLVED)
        .collect()
}
