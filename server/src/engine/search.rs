//! BM25 over definitions (name, signature, doc and body terms, identifier parts) and over
//! files (path terms weighted up), plus a table of normalized symbol names.
//!
//! Invariant: built from an index snapshot and tagged with its generation; per-file analyses
//! are cached by file contents, and a rebuild after an edit re-indexes only the changed files
//! (a delta segment beside a shared base, see [`SearchIndex`]) yet answers exactly like a
//! fresh build. Scores come with their explanation (`bm25:<score>`).

use std::borrow::Cow;
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_128;

use super::text::{for_each_path_word, for_each_word, identifier_terms, normalize_name};
use crate::base::{FileId, FxHashMap, FxHashSet};
use crate::index::{DefId, FileData, Index};

const K1: f32 = 1.2;
const B: f32 = 0.75;
const NAME_WEIGHT: u16 = 4;
const SIGNATURE_WEIGHT: u16 = 2;
const PATH_WEIGHT: u16 = 4;

/// Term counts of one file: per definition (by index in the file) and for the whole file,
/// by the file's own term numbers (indexes in `terms`), sorted by them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileTerms {
    /// The file's distinct terms, numbered as met.
    terms: Vec<String>,
    defs: Vec<Vec<(u32, u16)>>,
    file: Vec<(u32, u16)>,
}

/// The distinct terms of one file, numbered as met, with the terms of each distinct word
/// remembered: a word repeats (`self`, `return`, a local name) far more often than it is new.
#[derive(Default)]
struct LocalTerms<'a> {
    ids: FxHashMap<String, u32>,
    terms: Vec<String>,
    /// Word -> its terms' range in `word_terms`.
    words: FxHashMap<&'a str, (u32, u32)>,
    word_terms: Vec<u32>,
}

impl<'a> LocalTerms<'a> {
    fn intern(&mut self, term: &str) -> u32 {
        if let Some(id) = self.ids.get(term) {
            return *id;
        }
        let id = self.terms.len() as u32;
        self.terms.push(term.to_owned());
        self.ids.insert(term.to_owned(), id);
        id
    }

    /// The terms of `word` (see [`identifier_terms`]), as local ids.
    fn word(&mut self, word: &'a str) -> &[u32] {
        let (start, end) = match self.words.get(word) {
            Some(range) => *range,
            None => {
                let start = self.word_terms.len() as u32;
                identifier_terms(word, |term| {
                    let id = self.intern(term);
                    self.word_terms.push(id);
                });
                let range = (start, self.word_terms.len() as u32);
                self.words.insert(word, range);
                range
            }
        };
        &self.word_terms[start as usize..end as usize]
    }
}

/// Occurrences `(local id, weight)` -> counts per id, sorted by id (weights add, saturating).
fn tally(mut occurrences: Vec<(u32, u16)>) -> Vec<(u32, u16)> {
    occurrences.sort_unstable_by_key(|&(term, _)| term);
    let mut counts: Vec<(u32, u16)> = Vec::with_capacity(occurrences.len());
    for (term, weight) in occurrences {
        match counts.last_mut() {
            Some((last, count)) if *last == term => *count = count.saturating_add(weight),
            _ => counts.push((term, weight)),
        }
    }
    counts
}

/// The term counts of files from an earlier run, by [`terms_key`]: a build takes a file's
/// counts from here instead of counting its words again.
pub type TermsSeed = FxHashMap<u128, FileTerms>;

/// The key of a file's term counts: its text (with its language and test flag) and its path,
/// whose words count too.
pub fn terms_key(data: &FileData) -> u128 {
    data.content_key() ^ xxh3_128(data.path.as_bytes()).rotate_left(64)
}

impl FileTerms {
    /// Whether these counts can be those of `data`: one list per definition, and every term
    /// number in range.
    fn fits(&self, data: &FileData) -> bool {
        let n_terms = self.terms.len();
        let in_range =
            |counts: &Vec<(u32, u16)>| counts.iter().all(|&(term, _)| (term as usize) < n_terms);
        self.defs.len() == data.syntax.defs.len()
            && self.defs.iter().all(in_range)
            && in_range(&self.file)
    }

    /// The counts of an analysis, numbered again by the file's own terms (`names` gives each
    /// term id's text).
    fn of_analysis(analysis: &FileAnalysis, names: &[&str]) -> FileTerms {
        let mut local: FxHashMap<u32, u32> = FxHashMap::default();
        let mut terms: Vec<String> = Vec::new();
        let mut renumber = |counts: &[(u32, u16)]| -> Vec<(u32, u16)> {
            let mut out: Vec<(u32, u16)> = counts
                .iter()
                .map(|&(id, n)| {
                    let next = terms.len() as u32;
                    let number = *local.entry(id).or_insert(next);
                    if number == next {
                        terms.push(names[id as usize].to_owned());
                    }
                    (number, n)
                })
                .collect();
            out.sort_unstable_by_key(|&(term, _)| term);
            out
        };
        let file = renumber(&analysis.file);
        let defs = analysis
            .defs
            .iter()
            .map(|counts| renumber(counts))
            .collect();
        FileTerms { terms, defs, file }
    }

    fn compute(data: &FileData) -> FileTerms {
        let defs = &data.syntax.defs;
        let text = &*data.text;
        let mut local = LocalTerms::default();
        let mut def_counts: Vec<Vec<(u32, u16)>> = vec![Vec::new(); defs.len()];
        let mut file_counts: Vec<(u32, u16)> = Vec::new();
        // Each word goes to the innermost definition containing it (definitions are sorted by
        // start; a stack holds the ones open at the current word).
        let mut stack: Vec<usize> = Vec::new();
        let mut next_def = 0;
        for_each_word(text, |offset, word| {
            let offset = offset as u32;
            while let Some(&top) = stack.last() {
                if defs[top].range.end > offset {
                    break;
                }
                stack.pop();
            }
            while next_def < defs.len() && defs[next_def].range.start <= offset {
                if defs[next_def].range.end > offset {
                    stack.push(next_def);
                }
                next_def += 1;
            }
            let owner = stack.last().copied();
            for &term in local.word(word) {
                file_counts.push((term, 1));
                if let Some(def_idx) = owner {
                    def_counts[def_idx].push((term, 1));
                }
            }
        });
        for (def_idx, def) in defs.iter().enumerate() {
            let mut name_terms = Vec::new();
            if def.kind.is_named() {
                identifier_terms(&def.name, |term| name_terms.push(local.intern(term)));
            }
            for term in name_terms {
                def_counts[def_idx].push((term, NAME_WEIGHT));
            }
            let mut signature_terms = Vec::new();
            for_each_word(&def.signature, |_, word| {
                identifier_terms(word, |term| signature_terms.push(local.intern(term)))
            });
            for term in signature_terms {
                def_counts[def_idx].push((term, SIGNATURE_WEIGHT));
            }
        }
        let mut path_terms = Vec::new();
        for_each_word(&data.path, |_, word| {
            identifier_terms(word, |term| path_terms.push(local.intern(term)))
        });
        for term in path_terms {
            file_counts.push((term, PATH_WEIGHT));
        }
        FileTerms {
            defs: def_counts.into_iter().map(tally).collect(),
            file: tally(file_counts),
            terms: local.terms,
        }
    }
}

/// Term ids shared by successive builds. A build that meets new terms appends them, so an
/// id keeps its meaning along a chain of builds and the id lists of the files that did not
/// change stay valid. Terms that no file has any more keep their id and an empty posting
/// list, which scores and counts like an unknown term.
type TermTable = FxHashMap<Box<str>, u32>;

/// What the search tables keep of one file, computed once per file contents and reused by
/// every later build while the file does not change.
struct FileAnalysis {
    /// Term ids and counts per definition (by index in the file) and for the whole file.
    defs: Vec<Vec<(u32, u16)>>,
    file: Vec<(u32, u16)>,
    /// Each definition's normalized name (`buildtree`).
    normalized: Vec<Box<str>>,
    /// The path's words (directories and file stem, split and stemmed).
    path_words: Arc<[String]>,
    /// Grouping key of [`find_mirrors`], for files with enough definitions to be a copy.
    mirror_key: Option<u64>,
}

impl FileAnalysis {
    fn of(terms: &Terms, file_terms: &FileTerms, data: &FileData) -> FileAnalysis {
        let global: Vec<Option<u32>> = file_terms.terms.iter().map(|term| terms.id(term)).collect();
        let ids = |counts: &[(u32, u16)]| -> Vec<(u32, u16)> {
            counts
                .iter()
                .filter_map(|&(local, n)| Some((global[local as usize]?, n)))
                .collect()
        };
        let stem_path = data
            .path
            .rsplit_once('.')
            .map_or(&*data.path, |(stem, _)| stem);
        let mut path_words: Vec<String> = Vec::new();
        for_each_path_word(stem_path, |word| {
            if !path_words.contains(&word) {
                path_words.push(word);
            }
        });
        FileAnalysis {
            defs: file_terms.defs.iter().map(|counts| ids(counts)).collect(),
            file: ids(&file_terms.file),
            normalized: data
                .syntax
                .defs
                .iter()
                .map(|def| {
                    if def.kind.is_named() {
                        normalize_name(&def.name).into_boxed_str()
                    } else {
                        Box::from("")
                    }
                })
                .collect(),
            path_words: path_words.into(),
            mirror_key: mirror_key(data),
        }
    }
}

/// The term tables of a chain of builds: `base` is the one the base segment was built with;
/// `recent` holds the terms met since, numbered after it. Only a merge copies `base`.
#[derive(Clone, Default)]
struct Terms {
    base: Arc<TermTable>,
    recent: Arc<TermTable>,
}

impl Terms {
    fn id(&self, term: &str) -> Option<u32> {
        self.base
            .get(term)
            .or_else(|| self.recent.get(term))
            .copied()
    }

    fn len(&self) -> usize {
        self.base.len() + self.recent.len()
    }

    fn add(&mut self, term: &str) {
        if self.id(term).is_none() {
            let id = self.len() as u32;
            Arc::make_mut(&mut self.recent).insert(Box::from(term), id);
        }
    }

    /// Moves the recent terms into the base table (ids unchanged).
    fn fold(&mut self) {
        if self.recent.is_empty() {
            return;
        }
        let base = Arc::make_mut(&mut self.base);
        for (term, id) in self.recent.iter() {
            base.insert(term.clone(), *id);
        }
        self.recent = Arc::default();
    }
}

/// Posting lists of one segment, with document lengths.
struct Postings {
    /// Term id (or its local number, see `local`) -> (document, term frequency).
    lists: Vec<Vec<(u32, u16)>>,
    /// Term id -> index in `lists`, for a small segment; `None` when indexed by term id.
    local: Option<FxHashMap<u32, u32>>,
    doc_len: Vec<u32>,
    total_len: u64,
}

impl Postings {
    /// Lists indexed by term id, for a segment that holds most terms.
    fn dense(n_terms: usize) -> Postings {
        Postings {
            lists: vec![Vec::new(); n_terms],
            local: None,
            doc_len: Vec::new(),
            total_len: 0,
        }
    }

    /// Lists for the terms it meets only, for a segment of a few files.
    fn sparse() -> Postings {
        Postings {
            lists: Vec::new(),
            local: Some(FxHashMap::default()),
            doc_len: Vec::new(),
            total_len: 0,
        }
    }

    fn list(&self, term: u32) -> &[(u32, u16)] {
        let slot = match &self.local {
            None => Some(term as usize),
            Some(local) => local.get(&term).map(|slot| *slot as usize),
        };
        slot.and_then(|slot| self.lists.get(slot))
            .map_or(&[], Vec::as_slice)
    }

    fn add_doc(&mut self, counts: &[(u32, u16)]) {
        let doc = self.doc_len.len() as u32;
        let mut len = 0u32;
        for &(term, n) in counts {
            len += u32::from(n);
            let slot = match &mut self.local {
                None => term as usize,
                Some(local) => {
                    let next = self.lists.len() as u32;
                    let slot = *local.entry(term).or_insert(next);
                    if slot == next {
                        self.lists.push(Vec::new());
                    }
                    slot as usize
                }
            };
            self.lists[slot].push((doc, n));
        }
        self.doc_len.push(len);
        self.total_len += u64::from(len);
    }

    fn n_docs(&self) -> u32 {
        self.doc_len.len() as u32
    }
}

/// Documents of the base segment whose file changed or went away since it was built.
#[derive(Default)]
struct DeadDocs {
    /// Bit set over the base segment's documents (empty when none is dead).
    bits: Vec<u64>,
    /// Term id -> dead documents containing it.
    df: FxHashMap<u32, u32>,
    docs: u32,
    len: u64,
}

impl DeadDocs {
    fn kill(&mut self, postings: &Postings, doc: u32, counts: &[(u32, u16)]) {
        if self.bits.is_empty() {
            self.bits = vec![0; (postings.doc_len.len()).div_ceil(64)];
        }
        self.bits[doc as usize / 64] |= 1 << (doc % 64);
        self.docs += 1;
        self.len += u64::from(postings.doc_len[doc as usize]);
        for &(term, _) in counts {
            *self.df.entry(term).or_insert(0) += 1;
        }
    }

    fn is_dead(&self, doc: u32) -> bool {
        !self.bits.is_empty() && self.bits[doc as usize / 64] & (1 << (doc % 64)) != 0
    }
}

/// One kind of document (definitions or files, identified by `Id`) across the base and
/// delta segments. Its documents are numbered base first, then delta.
struct Corpus<'a, Id> {
    base: &'a Postings,
    base_ids: &'a [Id],
    dead: &'a DeadDocs,
    delta: &'a Postings,
    delta_ids: &'a [Id],
}

impl<Id: Copy + Ord> Corpus<'_, Id> {
    fn id(&self, doc: u32) -> Id {
        let base_docs = self.base.n_docs();
        if doc < base_docs {
            self.base_ids[doc as usize]
        } else {
            self.delta_ids[(doc - base_docs) as usize]
        }
    }

    fn n_docs(&self) -> u32 {
        self.base.n_docs() - self.dead.docs + self.delta.n_docs()
    }

    /// Live documents containing `term`.
    fn df(&self, term: u32) -> u32 {
        let dead = self.dead.df.get(&term).copied().unwrap_or(0);
        self.base.list(term).len() as u32 - dead + self.delta.list(term).len() as u32
    }

    /// Live documents containing every one of `terms` (in document order).
    fn containing_all(&self, terms: &[u32]) -> Vec<Id> {
        let Some(&rarest) = terms.iter().min_by_key(|term| self.df(**term)) else {
            return Vec::new();
        };
        let has = |list: &[(u32, u16)], doc: u32| {
            list.binary_search_by_key(&doc, |(doc, _)| *doc).is_ok()
        };
        let base_docs = self.base.n_docs();
        let in_base = self
            .base
            .list(rarest)
            .iter()
            .map(|(doc, _)| *doc)
            .filter(|doc| !self.dead.is_dead(*doc))
            .filter(|doc| terms.iter().all(|term| has(self.base.list(*term), *doc)));
        let in_delta = self
            .delta
            .list(rarest)
            .iter()
            .map(|(doc, _)| *doc)
            .filter(|doc| terms.iter().all(|term| has(self.delta.list(*term), *doc)))
            .map(|doc| base_docs + doc);
        in_base.chain(in_delta).map(|doc| self.id(doc)).collect()
    }

    /// The `limit` best documents for the query terms (best first, ties by id, which orders
    /// documents as a fresh build numbers them); the weights count repeated query terms.
    /// Scores accumulate in a dense table (every score is positive, so zero marks an
    /// untouched document): long tasks touch a large share of the documents.
    fn top(&self, term_ids: &[(u32, f32)], limit: usize) -> Vec<(Id, f32)> {
        thread_local! {
            /// The score table, kept between calls (all zero between them) so that a large
            /// corpus does not cost a fresh table, zeroed page by page, per task.
            static SCORES: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        if limit == 0 {
            return Vec::new();
        }
        let n_docs = self.n_docs();
        let total_len = self.base.total_len - self.dead.len + self.delta.total_len;
        let avg_len = (total_len as f32 / n_docs.max(1) as f32).max(1.0);
        let base_docs = self.base.n_docs();
        SCORES.with_borrow_mut(|acc| {
            let n_slots = (base_docs + self.delta.n_docs()) as usize;
            if acc.len() < n_slots {
                acc.resize(n_slots, 0.0);
            }
            let mut touched: Vec<u32> = Vec::new();
            for &(term, query_weight) in term_ids {
                let df = self.df(term);
                if df == 0 {
                    continue;
                }
                let df = df as f32;
                let idf = (1.0 + (n_docs as f32 - df + 0.5) / (df + 0.5)).ln();
                let mut add = |doc: u32, tf: u16, len: u32| {
                    let tf = f32::from(tf);
                    let norm = 1.0 - B + B * len as f32 / avg_len;
                    let score = idf * tf * (K1 + 1.0) / (tf + K1 * norm);
                    let slot = &mut acc[doc as usize];
                    if *slot == 0.0 {
                        touched.push(doc);
                    }
                    *slot += query_weight * score;
                };
                for &(doc, tf) in self.base.list(term) {
                    if !self.dead.is_dead(doc) {
                        add(doc, tf, self.base.doc_len[doc as usize]);
                    }
                }
                for &(doc, tf) in self.delta.list(term) {
                    add(base_docs + doc, tf, self.delta.doc_len[doc as usize]);
                }
            }
            // Only documents scoring at least the `limit`-th best score can be among the
            // best (ties are broken by id when sorting): select that score over the scores
            // alone, then sort the few documents that reach it.
            let threshold = (touched.len() > limit).then(|| {
                let mut scores: Vec<f32> = touched.iter().map(|doc| acc[*doc as usize]).collect();
                *scores
                    .select_nth_unstable_by(limit - 1, |a, b| b.total_cmp(a))
                    .1
            });
            let mut scored: Vec<(Id, f32)> = touched
                .iter()
                .map(|doc| (*doc, acc[*doc as usize]))
                .filter(|(_, score)| {
                    threshold.is_none_or(|at_least| score.total_cmp(&at_least).is_ge())
                })
                .map(|(doc, score)| (self.id(doc), score))
                .collect();
            for doc in touched {
                acc[doc as usize] = 0.0;
            }
            scored.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            scored.truncate(limit);
            scored
        })
    }
}

/// Where a segment holds a file: the analysis it was built from and its documents.
struct Held {
    data: Arc<FileData>,
    analysis: Arc<FileAnalysis>,
    file_doc: u32,
    first_def_doc: u32,
}

/// Search tables over a set of files.
struct Segment {
    defs: Postings,
    def_ids: Vec<DefId>,
    files: Postings,
    file_ids: Vec<FileId>,
    /// Normalized name -> definitions whose name normalizes to it.
    normalized: FxHashMap<Box<str>, Vec<DefId>>,
    /// Path word -> the files whose path has it, in file order.
    by_path_word: FxHashMap<Box<str>, Vec<FileId>>,
    held: FxHashMap<FileId, Held>,
}

impl Segment {
    /// `n_terms`: lists indexed by term id (a segment of most files); `None`: sparse lists.
    fn build(
        files: &[(FileId, &Arc<FileData>, &Arc<FileAnalysis>)],
        n_terms: Option<usize>,
    ) -> Segment {
        let postings = || n_terms.map_or_else(Postings::sparse, Postings::dense);
        let mut segment = Segment {
            defs: postings(),
            def_ids: Vec::new(),
            files: postings(),
            file_ids: Vec::new(),
            normalized: FxHashMap::default(),
            by_path_word: FxHashMap::default(),
            held: FxHashMap::default(),
        };
        for (file, data, analysis) in files {
            segment.held.insert(
                *file,
                Held {
                    data: Arc::clone(data),
                    analysis: Arc::clone(analysis),
                    file_doc: segment.files.n_docs(),
                    first_def_doc: segment.defs.n_docs(),
                },
            );
            segment.files.add_doc(&analysis.file);
            segment.file_ids.push(*file);
            for word in analysis.path_words.iter() {
                segment
                    .by_path_word
                    .entry(word.as_str().into())
                    .or_default()
                    .push(*file);
            }
            for (idx, (counts, normalized)) in
                analysis.defs.iter().zip(&analysis.normalized).enumerate()
            {
                let def = DefId {
                    file: *file,
                    idx: idx as u32,
                };
                segment.defs.add_doc(counts);
                segment.def_ids.push(def);
                if !normalized.is_empty() {
                    segment
                        .normalized
                        .entry(normalized.clone())
                        .or_default()
                        .push(def);
                }
            }
        }
        segment
    }

    fn empty() -> Segment {
        Segment::build(&[], None)
    }
}

/// Files with fewer definitions than this are called mirrors only when their whole paths
/// agree below the top directory (`src/middleware/cache/index.ts` and
/// `deno_dist/middleware/cache/index.ts`): small files elsewhere (an `index.ts` re-exporting
/// two names) look alike without being copies.
const MIN_MIRROR_DEFS: usize = 4;

/// The key that groups candidate copies: every definition's name, kind and parent, with the
/// file name's stem (a package's `index.d.ts` and `index.d.cts`, `index.js` and `index.mjs`
/// are one module's declarations or builds), or for a small file its path below the top
/// directory.
fn mirror_key(data: &FileData) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let defs = &data.syntax.defs;
    let place = if defs.len() >= MIN_MIRROR_DEFS {
        crate::index::module_name(&data.path)
    } else {
        match below_top_dir(&data.path) {
            Some(below_top) if !defs.is_empty() => below_top,
            _ => return None,
        }
    };
    let mut hasher = rustc_hash::FxHasher::default();
    place.hash(&mut hasher);
    for def in defs.iter() {
        def.name.hash(&mut hasher);
        def.kind.hash(&mut hasher);
        def.parent.hash(&mut hasher);
    }
    Some(hasher.finish())
}

/// A path without its top directory (`deno_dist/middleware/cache/index.ts` ->
/// `middleware/cache/index.ts`); none for a file at the top.
fn below_top_dir(path: &str) -> Option<&str> {
    path.split_once('/').map(|(_, rest)| rest)
}

/// The mirrors of a build from `prev`: its groups where no file came, changed or went (a
/// group depends on its files alone), and the groups of the keys of the files that did,
/// found again. `files`: every live file with its key; `reanalyzed`: which of them changed
/// or came since `prev`.
fn update_mirrors(
    prev: &SearchIndex,
    index: &Index,
    files: &[(FileId, &Arc<FileData>, Option<u64>)],
    reanalyzed: &[bool],
) -> FxHashMap<FileId, FileId> {
    let old_key = |file: &FileId| {
        prev.analyses
            .get(file)
            .and_then(|(_, analysis)| analysis.mirror_key)
    };
    let mut affected: FxHashSet<u64> = FxHashSet::default();
    let mut n_new = 0;
    for ((file, _, key), _) in files.iter().zip(reanalyzed).filter(|(_, again)| **again) {
        affected.extend(*key);
        affected.extend(old_key(file));
        n_new += usize::from(!prev.analyses.contains_key(file));
    }
    // Every live file is an old one or a new one: any other old one went away.
    if prev.analyses.len() + n_new > files.len() {
        for file in prev.analyses.keys() {
            if index.file(*file).is_none() {
                affected.extend(old_key(file));
            }
        }
    }
    let mut mirror_of = prev.mirror_of.clone();
    if affected.is_empty() {
        return mirror_of;
    }
    mirror_of.retain(|file, _| old_key(file).is_none_or(|key| !affected.contains(&key)));
    let regrouped: Vec<(FileId, &Arc<FileData>, Option<u64>)> = files
        .iter()
        .filter(|(_, _, key)| key.is_some_and(|key| affected.contains(&key)))
        .copied()
        .collect();
    mirror_of.extend(find_mirrors(&regrouped));
    mirror_of
}

/// Groups files that are copies of each other (see [`SearchIndex::mirror_of`]). The copy
/// that stands for a group is the shallowest path, then the shortest, then the first.
fn find_mirrors(files: &[(FileId, &Arc<FileData>, Option<u64>)]) -> FxHashMap<FileId, FileId> {
    let mut groups: FxHashMap<u64, Vec<(FileId, &Arc<FileData>)>> = FxHashMap::default();
    for (file, data, key) in files {
        if let Some(key) = key {
            groups.entry(*key).or_default().push((*file, data));
        }
    }
    let mut mirror_of = FxHashMap::default();
    for mut group in groups.into_values().filter(|group| group.len() > 1) {
        group.sort_by_cached_key(|(file, data)| {
            let path = &*data.path;
            (path.matches('/').count(), path.len(), path, *file)
        });
        let (canonical, canonical_data) = group[0];
        let same_defs = |data: &FileData| {
            data.syntax.defs.len() == canonical_data.syntax.defs.len()
                && (data.syntax.defs.len() >= MIN_MIRROR_DEFS
                    || below_top_dir(&data.path) == below_top_dir(&canonical_data.path))
                && data
                    .syntax
                    .defs
                    .iter()
                    .zip(canonical_data.syntax.defs.iter())
                    .all(|(a, b)| a.name == b.name && a.kind == b.kind && a.parent == b.parent)
        };
        for (file, data) in &group[1..] {
            // The hash is only a grouping key: a collision must not make a mirror.
            if same_defs(data) {
                mirror_of.insert(*file, canonical);
            }
        }
    }
    mirror_of
}

/// The search tables of one index generation: a base segment shared along a chain of
/// builds, minus the documents of files changed since, plus a delta segment holding those
/// files as they are now. A build rebuilds only the delta, and merges everything into a
/// new base once the delta holds more than [`max_delta_files`] files.
pub struct SearchIndex {
    pub generation: u64,
    terms: Terms,
    base: Arc<Segment>,
    dead_defs: DeadDocs,
    dead_files: DeadDocs,
    /// Files of the base segment that changed or went away.
    dead: FxHashSet<FileId>,
    delta: Segment,
    /// Every live file's analysis, with the file it was computed from (held, so that
    /// pointer identity means same contents).
    analyses: FxHashMap<FileId, (Arc<FileData>, Arc<FileAnalysis>)>,
    /// Mirrored files (the same file name defining the same names in the same order, such as
    /// a generated `deno/lib/types.ts` beside `src/types.ts`) -> the copy that stands for them.
    pub mirror_of: FxHashMap<FileId, FileId>,
}

/// Files the delta segment may hold before a build merges it into a new base: small next
/// to the base, so that queries stay as fast, and large enough that typing in a few files
/// never merges.
fn max_delta_files(n_files: usize) -> usize {
    16 + n_files / 32
}

/// Terms met since the last merge that a build may hold before it merges: a long session of
/// typing in one file keeps adding terms (every prefix of a new name), and each build that
/// meets a new one copies this table.
fn max_recent_terms(base_terms: usize) -> usize {
    4096 + base_terms / 16
}

impl SearchIndex {
    pub fn build(index: &Index, generation: u64, previous: Option<&SearchIndex>) -> SearchIndex {
        SearchIndex::build_seeded(index, generation, previous, None)
    }

    /// Like [`SearchIndex::build`], taking the term counts of files `seed` has from it.
    pub fn build_seeded(
        index: &Index,
        generation: u64,
        previous: Option<&SearchIndex>,
        seed: Option<&TermsSeed>,
    ) -> SearchIndex {
        let files: Vec<(FileId, &Arc<FileData>)> = index.files().collect();
        // Files that did not change keep their analysis; the others are analyzed again (from
        // the seed's counts, borrowed, when it has them).
        let analyzed: Vec<Result<Arc<FileAnalysis>, Cow<FileTerms>>> = files
            .par_iter()
            .map(|(file, data)| {
                previous
                    .and_then(|prev| prev.analyses.get(file))
                    .filter(|(prev_data, _)| Arc::ptr_eq(prev_data, data))
                    .map(|(_, analysis)| Arc::clone(analysis))
                    .ok_or_else(|| {
                        seed.and_then(|seed| seed.get(&terms_key(data)))
                            .filter(|terms| terms.fits(data))
                            .map_or_else(|| Cow::Owned(FileTerms::compute(data)), Cow::Borrowed)
                    })
            })
            .collect();
        // The previous tables, extended with the new terms of the files analyzed again (in
        // file order, so a first build numbers terms as it meets them).
        let mut terms = previous.map_or_else(Terms::default, |prev| prev.terms.clone());
        for analysis in &analyzed {
            let Err(file_terms) = analysis else { continue };
            for term in &file_terms.terms {
                terms.add(term);
            }
        }
        // Files whose base documents are stale: changed or gone.
        let mut changed: Vec<usize> = Vec::new();
        let mut dead: FxHashSet<FileId> = FxHashSet::default();
        let mut removed = 0;
        if let Some(prev) = previous {
            for (pos, (file, data)) in files.iter().enumerate() {
                match prev.base.held.get(file) {
                    Some(held) if Arc::ptr_eq(&held.data, data) => {}
                    Some(_) => {
                        changed.push(pos);
                        dead.insert(*file);
                    }
                    None => changed.push(pos),
                }
            }
            for file in prev.base.held.keys() {
                if index.file(*file).is_none() {
                    dead.insert(*file);
                    removed += 1;
                }
            }
        }
        let merge = previous.is_none()
            || changed.len() + removed > max_delta_files(files.len())
            || terms.recent.len() > max_recent_terms(terms.base.len());
        if merge {
            terms.fold();
        }
        let reanalyzed: Vec<bool> = analyzed.iter().map(Result::is_err).collect();
        let analyses: Vec<Arc<FileAnalysis>> = analyzed
            .into_par_iter()
            .zip(files.par_iter())
            .map(|(analysis, (_, data))| {
                analysis.unwrap_or_else(|file_terms| {
                    Arc::new(FileAnalysis::of(&terms, &file_terms, data))
                })
            })
            .collect();
        let with_analysis: Vec<(FileId, &Arc<FileData>, &Arc<FileAnalysis>)> = files
            .iter()
            .zip(&analyses)
            .map(|((file, data), analysis)| (*file, *data, analysis))
            .collect();
        let (base, delta, dead_defs, dead_files, dead) = match previous {
            Some(prev) if !merge => {
                let base = Arc::clone(&prev.base);
                let delta_files: Vec<_> = changed.iter().map(|pos| with_analysis[*pos]).collect();
                let delta = Segment::build(&delta_files, None);
                let mut dead_defs = DeadDocs::default();
                let mut dead_files = DeadDocs::default();
                // Order does not matter: bits and counts add up the same.
                for file in &dead {
                    let held = &base.held[file];
                    dead_files.kill(&base.files, held.file_doc, &held.analysis.file);
                    for (offset, counts) in held.analysis.defs.iter().enumerate() {
                        let doc = held.first_def_doc + offset as u32;
                        dead_defs.kill(&base.defs, doc, counts);
                    }
                }
                (base, delta, dead_defs, dead_files, dead)
            }
            _ => (
                Arc::new(Segment::build(&with_analysis, Some(terms.len()))),
                Segment::empty(),
                DeadDocs::default(),
                DeadDocs::default(),
                FxHashSet::default(),
            ),
        };
        let mirror_keys: Vec<(FileId, &Arc<FileData>, Option<u64>)> = with_analysis
            .iter()
            .map(|(file, data, analysis)| (*file, *data, analysis.mirror_key))
            .collect();
        let mirror_of = match previous {
            Some(prev) => update_mirrors(prev, index, &mirror_keys, &reanalyzed),
            None => find_mirrors(&mirror_keys),
        };
        SearchIndex {
            generation,
            mirror_of,
            analyses: with_analysis
                .iter()
                .map(|(file, data, analysis)| (*file, (Arc::clone(data), Arc::clone(analysis))))
                .collect(),
            terms,
            base,
            dead_defs,
            dead_files,
            dead,
            delta,
        }
    }

    /// The term counts of the files `keep` accepts, by [`terms_key`], to seed a later run's
    /// build; `None` when they are those of `seed` (nothing to write).
    pub fn terms_to_save(
        &self,
        seed: &TermsSeed,
        keep: impl Fn(&FileData) -> bool + Sync,
    ) -> Option<Vec<(u128, FileTerms)>> {
        let kept: Vec<(u128, &FileAnalysis)> = self
            .analyses
            .par_iter()
            .filter(|(_, (data, _))| keep(data))
            .map(|(_, (data, analysis))| (terms_key(data), &**analysis))
            .collect();
        if kept.len() == seed.len() && kept.iter().all(|(key, _)| seed.contains_key(key)) {
            return None;
        }
        let mut names: Vec<&str> = vec![""; self.terms.len()];
        for (term, id) in self.terms.base.iter().chain(self.terms.recent.iter()) {
            names[*id as usize] = term;
        }
        let mut out: Vec<(u128, FileTerms)> = kept
            .into_par_iter()
            .map(|(key, analysis)| (key, FileTerms::of_analysis(analysis, &names)))
            .collect();
        out.sort_unstable_by_key(|(key, _)| *key);
        out.dedup_by_key(|(key, _)| *key);
        Some(out)
    }

    fn term_ids(&self, query_terms: &[String]) -> Vec<(u32, f32)> {
        let mut counts: Vec<(u32, f32)> = Vec::new();
        for term in query_terms {
            let Some(id) = self.terms.id(term) else {
                continue;
            };
            match counts.iter_mut().find(|(known, _)| *known == id) {
                Some((_, weight)) => *weight += 0.5,
                None => counts.push((id, 1.0)),
            }
        }
        counts
    }

    fn def_corpus(&self) -> Corpus<'_, DefId> {
        Corpus {
            base: &self.base.defs,
            base_ids: &self.base.def_ids,
            dead: &self.dead_defs,
            delta: &self.delta.defs,
            delta_ids: &self.delta.def_ids,
        }
    }

    fn file_corpus(&self) -> Corpus<'_, FileId> {
        Corpus {
            base: &self.base.files,
            base_ids: &self.base.file_ids,
            dead: &self.dead_files,
            delta: &self.delta.files,
            delta_ids: &self.delta.file_ids,
        }
    }

    /// Definitions ranked by BM25 (best first, at most `limit`).
    pub fn search_defs(&self, query_terms: &[String], limit: usize) -> Vec<(DefId, f32)> {
        self.def_corpus().top(&self.term_ids(query_terms), limit)
    }

    /// Files ranked by BM25 (best first, at most `limit`).
    pub fn search_files(&self, query_terms: &[String], limit: usize) -> Vec<(FileId, f32)> {
        self.file_corpus().top(&self.term_ids(query_terms), limit)
    }

    /// Files whose text holds every one of `terms` (none when a term is unknown).
    pub fn files_with_all_terms(&self, terms: &[String]) -> Vec<FileId> {
        let mut ids: Vec<u32> = Vec::with_capacity(terms.len());
        for term in terms {
            match self.terms.id(term) {
                Some(id) => ids.push(id),
                None => return Vec::new(),
            }
        }
        self.file_corpus().containing_all(&ids)
    }

    /// A file's path words (directories and file stem, split and stemmed), in path order.
    pub fn path_words(&self, file: FileId) -> &[String] {
        self.analyses
            .get(&file)
            .map_or(&[], |(_, analysis)| &analysis.path_words)
    }

    /// The live files whose path has one of `words`, in file order.
    pub fn files_with_path_words<'w>(
        &self,
        words: impl IntoIterator<Item = &'w str>,
    ) -> Vec<FileId> {
        let mut files: Vec<FileId> = Vec::new();
        for word in words {
            if let Some(base) = self.base.by_path_word.get(word) {
                files.extend(base.iter().filter(|file| !self.dead.contains(file)));
            }
            if let Some(delta) = self.delta.by_path_word.get(word) {
                files.extend(delta);
            }
        }
        files.sort_unstable();
        files.dedup();
        files
    }

    /// The share of files that contain `term` (0 when unknown).
    pub fn file_frequency(&self, term: &str) -> f32 {
        let Some(id) = self.terms.id(term) else {
            return 0.0;
        };
        let files = self.file_corpus();
        files.df(id) as f32 / files.n_docs().max(1) as f32
    }

    /// Definitions whose normalized name equals `normalized`, in id order.
    pub fn defs_normalized(&self, normalized: &str) -> Vec<DefId> {
        let mut defs: Vec<DefId> = Vec::new();
        if let Some(base) = self.base.normalized.get(normalized) {
            defs.extend(base.iter().filter(|def| !self.dead.contains(&def.file)));
        }
        if let Some(delta) = self.delta.normalized.get(normalized) {
            defs.extend(delta);
            defs.sort_unstable();
        }
        defs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that `chain` (built from earlier builds) answers exactly like a fresh build.
    fn assert_answers_like_a_fresh_build(index: &Index, chain: &SearchIndex, step: &str) {
        let fresh = SearchIndex::build(index, chain.generation, None);
        for query in [
            "charge payment",
            "refund",
            "gateway capture",
            "order total cart",
            "invoice",
            "module helper",
        ] {
            let terms: Vec<String> = query.split(' ').map(str::to_owned).collect();
            assert_eq!(
                chain.search_defs(&terms, 10),
                fresh.search_defs(&terms, 10),
                "{step}: defs for {query}"
            );
            assert_eq!(
                chain.search_files(&terms, 10),
                fresh.search_files(&terms, 10),
                "{step}: files for {query}"
            );
        }
        for term in [
            "gateway", "refund", "payment", "invoice", "helper", "unknown",
        ] {
            assert_eq!(
                chain.file_frequency(term),
                fresh.file_frequency(term),
                "{step}: frequency of {term}"
            );
        }
        for name in [
            "charge",
            "placeorder",
            "refundorcharge",
            "invoice",
            "helper",
        ] {
            assert_eq!(
                chain.defs_normalized(name),
                fresh.defs_normalized(name),
                "{step}: defs named {name}"
            );
        }
        for (file, _) in index.files() {
            assert_eq!(
                chain.path_words(file),
                fresh.path_words(file),
                "{step}: path words"
            );
        }
        for word in ["shop", "order", "payment", "invoic", "cart", "modul"] {
            assert_eq!(
                chain.files_with_path_words([word]),
                fresh.files_with_path_words([word]),
                "{step}: files with path word {word}"
            );
        }
        assert_eq!(chain.mirror_of, fresh.mirror_of, "{step}: mirrors");
    }

    #[test]
    fn a_build_from_the_previous_one_answers_like_a_fresh_build() {
        use crate::languages::Language::Python;
        let (mut index, _) = crate::index::tests::index_fixture(
            r#"
//- /shop/orders.py
def place_order(cart, payment):
    """Charge the payment and create the order."""
    return charge(payment, cart.total)
//- /shop/payments.py
def charge(payment, amount):
    return gateway.capture(payment, amount)
//- /shop/cart.py
class Cart:
    def total(self):
        return sum(item.price for item in self.items)
"#,
        );
        let mut chain = SearchIndex::build(&index, index.generation(), None);
        let mut step = |index: &Index, what: &str| {
            chain = SearchIndex::build(index, index.generation(), Some(&chain));
            assert_answers_like_a_fresh_build(index, &chain, what);
            [
                chain.delta.held.len(),
                chain.dead.len(),
                chain.mirror_of.len(),
            ]
        };
        // An edit that drops terms (`gateway`, `capture`) and brings new ones (`refund`).
        index.set_file(
            0,
            "shop/payments.py",
            Python,
            "def charge(payment, amount):\n    return refund_or_charge(payment, amount)\n".into(),
        );
        assert_eq!(step(&index, "edit")[..2], [1, 1]);
        // The same file again: the delta holds its latest contents only.
        index.set_file(
            0,
            "shop/payments.py",
            Python,
            "def charge(payment, amount):\n    return invoice(payment)\n\ndef invoice(p):\n    return p\n".into(),
        );
        assert_eq!(step(&index, "second edit")[..2], [1, 1]);
        index.set_file(
            0,
            "shop/invoice.py",
            Python,
            "class Invoice:\n    pass\n".into(),
        );
        assert_eq!(step(&index, "new file")[..2], [2, 1]);
        assert!(index.remove_file(0, "shop/cart.py"));
        assert_eq!(step(&index, "removed file")[..2], [2, 2]);
        assert!(index.remove_file(0, "shop/invoice.py"));
        assert_eq!(step(&index, "new file removed")[..2], [1, 2]);
        // More files than a delta holds: merged into a new base.
        for n in 0..=max_delta_files(3) {
            let text = format!("def helper_{n}(payment):\n    return charge(payment, {n})\n");
            index.set_file(0, &format!("shop/module_{n}.py"), Python, text.into());
        }
        assert_eq!(step(&index, "merged")[..2], [0, 0]);
        index.set_file(
            0,
            "shop/orders.py",
            Python,
            "def place_order():\n    pass\n".into(),
        );
        assert_eq!(step(&index, "edit after a merge")[..2], [1, 1]);
        // Copies come, change and go: the mirrors follow.
        let four = "def a():\n    pass\n\ndef b():\n    pass\n\ndef c():\n    pass\n\ndef d():\n    pass\n";
        index.set_file(0, "lib/util.py", Python, four.into());
        index.set_file(0, "dist/lib/util.py", Python, four.into());
        assert_eq!(step(&index, "a copy")[2], 1);
        index.set_file(0, "vendor/dist/lib/util.py", Python, four.into());
        assert_eq!(step(&index, "a second copy")[2], 2);
        index.set_file(0, "dist/lib/util.py", Python, "def a():\n    pass\n".into());
        assert_eq!(step(&index, "a copy changed")[2], 1);
        assert!(index.remove_file(0, "lib/util.py"));
        assert_eq!(step(&index, "the original removed")[2], 0);
        assert_eq!(chain.file_frequency("gateway"), 0.0);
    }

    #[test]
    fn the_best_documents_at_any_limit_are_the_first_of_the_full_ranking() {
        // Copies tie on score, so the limit often falls inside a run of ties.
        let mut fixture = String::new();
        for copy in 0..6 {
            fixture.push_str(&format!(
                "//- /app{copy}/orders.py\ndef place_order(cart, payment):\n    return charge(payment, cart.total)\n\ndef cancel_order(order):\n    return refund(order.payment)\n//- /app{copy}/payments.py\ndef charge(payment, amount):\n    return gateway.capture(payment, amount)\n"
            ));
        }
        let (index, _) = crate::index::tests::index_fixture(&fixture);
        let search = SearchIndex::build(&index, 0, None);
        let terms: Vec<String> = ["order", "payment", "charg", "refund"]
            .iter()
            .map(|term| term.to_string())
            .collect();
        let all_defs = search.search_defs(&terms, usize::MAX);
        let all_files = search.search_files(&terms, usize::MAX);
        assert!(all_defs.len() > 12 && all_files.len() == 12, "{all_defs:?}");
        for limit in 0..=all_defs.len() + 1 {
            assert_eq!(
                search.search_defs(&terms, limit),
                all_defs[..limit.min(all_defs.len())],
                "limit {limit}"
            );
        }
        for limit in 0..=all_files.len() {
            assert_eq!(search.search_files(&terms, limit), all_files[..limit]);
        }
        // Asked again, the same (the score table is left clean).
        assert_eq!(search.search_defs(&terms, usize::MAX), all_defs);
    }

    #[test]
    fn path_words_keep_words_with_digits_whole() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /packages/zod/src/v4/core/jsonSchemas.ts
export function toJSONSchema() {}
"#,
        );
        let search = SearchIndex::build(&index, 0, None);
        let file = index.files().next().expect("one file").0;
        let words: Vec<&str> = search.path_words(file).iter().map(String::as_str).collect();
        assert_eq!(search.files_with_path_words(["json", "nothing"]), [file]);
        assert_eq!(
            words,
            ["packag", "zod", "src", "v4", "cor", "json", "schema"]
        );
    }

    #[test]
    fn copies_of_a_file_are_mirrors_of_the_shallowest_one() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /deno/lib/types.ts
export class ZodString { parse() {} }
export class ZodNumber {}
export function string() {}
//- /src/types.ts
export class ZodString { parse() {} }
export class ZodNumber {}
export function string() {}
//- /src/other/types.ts
export class ZodString { parse() {} }
export class ZodNumber {}
export function number() {}
//- /src/a/index.ts
export function a() {}
//- /src/b/index.ts
export function a() {}
//- /src/middleware/cache/index.ts
export const cache = () => {}
//- /deno_dist/middleware/cache/index.ts
export const cache = () => {}
//- /lib/middleware/etag/index.ts
export const cache = () => {}
//- /index.d.ts
export class Axios { get(): void; post(): void }
export function create(): Axios;
//- /index.d.cts
export class Axios { get(): void; post(): void }
export function create(): Axios;
"#,
        );
        let search = SearchIndex::build(&index, 0, None);
        let path = |file: &FileId| index.file(*file).unwrap().path.to_string();
        let mut mirrors: Vec<(String, String)> = search
            .mirror_of
            .iter()
            .map(|(copy, canonical)| (path(copy), path(canonical)))
            .collect();
        mirrors.sort();
        // Different definitions are not copies, and small files are copies only when their
        // paths agree below the top directory.
        assert_eq!(
            mirrors,
            [
                ("deno/lib/types.ts".to_owned(), "src/types.ts".to_owned()),
                (
                    "deno_dist/middleware/cache/index.ts".to_owned(),
                    "src/middleware/cache/index.ts".to_owned()
                ),
                // One module's declarations for two module systems.
                ("index.d.cts".to_owned(), "index.d.ts".to_owned()),
            ]
        );
    }

    #[test]
    fn a_build_seeded_with_saved_term_counts_answers_like_a_fresh_build() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /shop/orders.py
def place_order(cart, payment):
    """Charge the payment and create the order."""
    return charge(payment, cart.total)
//- /shop/payments.py
def charge(payment, amount):
    return gateway.capture(payment, amount)
//- /shop/copy/payments.py
def charge(payment, amount):
    return gateway.capture(payment, amount)
"#,
        );
        let fresh = SearchIndex::build(&index, index.generation(), None);
        let saved: TermsSeed = fresh
            .terms_to_save(&TermsSeed::default(), |_| true)
            .expect("nothing was saved before")
            .into_iter()
            .collect();
        // One entry per file: the copy's path words differ.
        assert_eq!(saved.len(), 3);
        for (_, data) in index.files() {
            let counted = FileTerms::compute(data);
            let restored = &saved[&terms_key(data)];
            // The same counts, whatever the numbering.
            let named = |terms: &FileTerms, counts: &[(u32, u16)]| {
                let mut named: Vec<(String, u16)> = counts
                    .iter()
                    .map(|&(term, n)| (terms.terms[term as usize].clone(), n))
                    .collect();
                named.sort();
                named
            };
            assert_eq!(
                named(&counted, &counted.file),
                named(restored, &restored.file)
            );
            for (a, b) in counted.defs.iter().zip(&restored.defs) {
                assert_eq!(named(&counted, a), named(restored, b), "{}", data.path);
            }
        }
        let seeded = SearchIndex::build_seeded(&index, fresh.generation, None, Some(&saved));
        assert_answers_like_a_fresh_build(&index, &seeded, "seeded");
        assert!(
            seeded.terms_to_save(&saved, |_| true).is_none(),
            "unchanged"
        );
        // A file left out, or a seed that does not fit its file, is counted again.
        assert_eq!(
            seeded
                .terms_to_save(&saved, |data| !data.path.contains("copy"))
                .map(|entries| entries.len()),
            Some(2)
        );
        let mut damaged = saved.clone();
        for terms in damaged.values_mut() {
            terms.defs.pop();
            if let Some(first) = terms.file.first_mut() {
                first.0 = u32::MAX;
            }
        }
        let (_, data) = index.files().next().unwrap();
        assert!(!damaged[&terms_key(data)].fits(data));
        let rebuilt = SearchIndex::build_seeded(&index, fresh.generation, None, Some(&damaged));
        assert_answers_like_a_fresh_build(&index, &rebuilt, "damaged seed");
    }
}
