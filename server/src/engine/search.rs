//! BM25 over definitions (name, signature, doc and body terms, identifier parts) and over
//! files (path terms weighted up), plus a table of normalized symbol names.
//!
//! Invariant: built from an index snapshot and tagged with its generation; per-file term
//! counts are cached by file contents so a rebuild after an edit re-tokenizes only changed
//! files. Scores come with their explanation (`bm25:<score>`).

use std::sync::Arc;

use rayon::prelude::*;

use super::text::{for_each_word, identifier_terms, normalize_name};
use crate::base::{FileId, FxHashMap};
use crate::index::{DefId, FileData, Index};

const K1: f32 = 1.2;
const B: f32 = 0.75;
const NAME_WEIGHT: u16 = 4;
const SIGNATURE_WEIGHT: u16 = 2;
const PATH_WEIGHT: u16 = 4;

/// Term counts of one file: per definition (by index in the file) and for the whole file.
struct FileTerms {
    defs: Vec<Vec<(Box<str>, u16)>>,
    file: Vec<(Box<str>, u16)>,
}

fn counts_to_vec(counts: FxHashMap<&str, u16>) -> Vec<(Box<str>, u16)> {
    let mut res: Vec<(Box<str>, u16)> = counts
        .into_iter()
        .map(|(term, n)| (Box::from(term), n))
        .collect();
    res.sort_unstable();
    res
}

fn bump<'a>(counts: &mut FxHashMap<&'a str, u16>, term: &'a str, by: u16) {
    let slot = counts.entry(term).or_insert(0);
    *slot = slot.saturating_add(by);
}

impl FileTerms {
    fn compute(data: &FileData) -> FileTerms {
        let defs = &data.syntax.defs;
        let text = &*data.text;
        // Each word goes to the innermost definition containing it.
        let mut words: Vec<(usize, String)> = Vec::new();
        for_each_word(text, |offset, word| {
            identifier_terms(word, |term| words.push((offset, term.to_owned())));
        });
        let mut owner: Vec<Option<usize>> = Vec::with_capacity(words.len());
        let mut stack: Vec<usize> = Vec::new();
        let mut next_def = 0;
        for (offset, _) in &words {
            let offset = *offset as u32;
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
            owner.push(stack.last().copied());
        }
        let mut def_counts: Vec<FxHashMap<&str, u16>> = vec![FxHashMap::default(); defs.len()];
        let mut file_counts: FxHashMap<&str, u16> = FxHashMap::default();
        for ((_, term), owner) in words.iter().zip(&owner) {
            bump(&mut file_counts, term, 1);
            if let Some(def_idx) = owner {
                bump(&mut def_counts[*def_idx], term, 1);
            }
        }
        let mut name_terms: Vec<Vec<String>> = Vec::with_capacity(defs.len());
        for def in defs {
            let mut terms = Vec::new();
            identifier_terms(&def.name, |term| terms.push(term.to_owned()));
            let mut signature_terms = Vec::new();
            for_each_word(&def.signature, |_, word| {
                identifier_terms(word, |term| signature_terms.push(term.to_owned()))
            });
            terms.extend(
                signature_terms
                    .into_iter()
                    .map(|term| format!("\u{1}{term}")),
            );
            name_terms.push(terms);
        }
        for (def_idx, terms) in name_terms.iter().enumerate() {
            for term in terms {
                match term.strip_prefix('\u{1}') {
                    Some(signature_term) => {
                        bump(&mut def_counts[def_idx], signature_term, SIGNATURE_WEIGHT)
                    }
                    None => bump(&mut def_counts[def_idx], term, NAME_WEIGHT),
                }
            }
        }
        let mut path_terms = Vec::new();
        for_each_word(&data.path, |_, word| {
            identifier_terms(word, |term| path_terms.push(term.to_owned()))
        });
        for term in &path_terms {
            bump(&mut file_counts, term, PATH_WEIGHT);
        }
        FileTerms {
            defs: def_counts.into_iter().map(counts_to_vec).collect(),
            file: counts_to_vec(file_counts),
        }
    }
}

/// Term ids shared by successive builds: a build that meets new terms copies the table and
/// appends them, so an id keeps its meaning along a chain of builds and the id lists of the
/// files that did not change stay valid. Terms that no file has any more keep their id and
/// an empty posting list, which scores and counts like an unknown term.
type TermTable = FxHashMap<Box<str>, u32>;

/// A file's term ids when it did not change since the previous build, else its terms.
type Analysis = Result<Arc<FileIds>, FileTerms>;

/// [`FileTerms`] as term ids of one [`TermTable`] chain.
struct FileIds {
    defs: Vec<Vec<(u32, u16)>>,
    file: Vec<(u32, u16)>,
}

impl FileIds {
    fn of(table: &TermTable, terms: &FileTerms) -> FileIds {
        let ids = |counts: &[(Box<str>, u16)]| -> Vec<(u32, u16)> {
            counts.iter().map(|(term, n)| (table[term], *n)).collect()
        };
        FileIds {
            defs: terms.defs.iter().map(|counts| ids(counts)).collect(),
            file: ids(&terms.file),
        }
    }
}

#[derive(Default)]
struct Postings {
    /// Term id -> (document, term frequency).
    lists: Vec<Vec<(u32, u16)>>,
    doc_len: Vec<u32>,
    avg_len: f32,
}

impl Postings {
    fn add_doc(&mut self, counts: &[(u32, u16)]) {
        let doc = self.doc_len.len() as u32;
        let mut len = 0u32;
        for &(term_id, n) in counts {
            len += u32::from(n);
            self.lists[term_id as usize].push((doc, n));
        }
        self.doc_len.push(len);
    }

    fn finish(&mut self) {
        let total: u64 = self.doc_len.iter().map(|len| u64::from(*len)).sum();
        self.avg_len = total as f32 / self.doc_len.len().max(1) as f32;
    }

    /// The `limit` best documents for the query terms (best first, ties by document); the
    /// weights count repeated query terms. Scores accumulate in a dense table (every score is
    /// positive, so zero marks an untouched document): long tasks touch a large share of the
    /// documents.
    fn top(&self, term_ids: &[(u32, f32)], limit: usize) -> Vec<(u32, f32)> {
        let n_docs = self.doc_len.len();
        let mut acc = vec![0.0f32; n_docs];
        let mut touched: Vec<u32> = Vec::new();
        for &(term_id, query_weight) in term_ids {
            let list = &self.lists[term_id as usize];
            if list.is_empty() {
                continue;
            }
            let df = list.len() as f32;
            let idf = (1.0 + (n_docs as f32 - df + 0.5) / (df + 0.5)).ln();
            for &(doc, tf) in list {
                let tf = f32::from(tf);
                let norm = 1.0 - B + B * self.doc_len[doc as usize] as f32 / self.avg_len.max(1.0);
                let score = idf * tf * (K1 + 1.0) / (tf + K1 * norm);
                let slot = &mut acc[doc as usize];
                if *slot == 0.0 {
                    touched.push(doc);
                }
                *slot += query_weight * score;
            }
        }
        let mut scored: Vec<(u32, f32)> = touched
            .into_iter()
            .map(|doc| (doc, acc[doc as usize]))
            .collect();
        let order = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if scored.len() > limit {
            scored.select_nth_unstable_by(limit, order);
            scored.truncate(limit);
        }
        scored.sort_unstable_by(order);
        scored
    }
}

/// The search tables of one index generation.
pub struct SearchIndex {
    pub generation: u64,
    terms: Arc<TermTable>,
    defs: Postings,
    def_ids: Vec<DefId>,
    files: Postings,
    file_ids: Vec<FileId>,
    /// Normalized name (`buildtree`) -> definitions whose name normalizes to it.
    normalized: FxHashMap<String, Vec<DefId>>,
    /// Each file's path words (directories and file stem, split and stemmed).
    pub path_words: Vec<(FileId, Vec<String>)>,
    /// Per-file term ids, with the file they were computed from (held, so that pointer
    /// identity means same contents), reused by the next build for files that did not change.
    file_terms: FxHashMap<FileId, (Arc<FileData>, Arc<FileIds>)>,
    /// Mirrored files (the same file name defining the same names in the same order, such as
    /// a generated `deno/lib/types.ts` beside `src/types.ts`) -> the copy that stands for them.
    pub mirror_of: FxHashMap<FileId, FileId>,
}

/// Files with fewer definitions than this are never called mirrors: small files (an
/// `index.ts` re-exporting two names) look alike without being copies.
const MIN_MIRROR_DEFS: usize = 4;

/// Groups files that are copies of each other (see [`SearchIndex::mirror_of`]). The copy
/// that stands for a group is the shallowest path, then the shortest, then the first.
fn find_mirrors(files: &[(FileId, &Arc<FileData>)]) -> FxHashMap<FileId, FileId> {
    use std::hash::{Hash, Hasher};
    let mut groups: FxHashMap<u64, Vec<(FileId, &Arc<FileData>)>> = FxHashMap::default();
    for (file, data) in files {
        let defs = &data.syntax.defs;
        if defs.len() < MIN_MIRROR_DEFS {
            continue;
        }
        let mut hasher = rustc_hash::FxHasher::default();
        let file_name = data.path.rsplit('/').next().unwrap_or(&data.path);
        file_name.hash(&mut hasher);
        for def in defs.iter() {
            def.name.hash(&mut hasher);
            def.kind.hash(&mut hasher);
            def.parent.hash(&mut hasher);
        }
        groups
            .entry(hasher.finish())
            .or_default()
            .push((*file, data));
    }
    let mut mirror_of = FxHashMap::default();
    for mut group in groups.into_values().filter(|group| group.len() > 1) {
        group.sort_by_key(|(file, data)| {
            let path = &data.path;
            (path.matches('/').count(), path.len(), path.clone(), *file)
        });
        let (canonical, canonical_data) = group[0];
        let same_defs = |data: &FileData| {
            data.syntax.defs.len() == canonical_data.syntax.defs.len()
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

impl SearchIndex {
    pub fn build(index: &Index, generation: u64, previous: Option<&SearchIndex>) -> SearchIndex {
        let files: Vec<(FileId, &Arc<FileData>)> = index.files().collect();
        // Files that did not change keep their term ids; the others are analyzed again.
        let analyzed: Vec<(FileId, Arc<FileData>, Analysis)> = files
            .par_iter()
            .map(|(file, data)| {
                let cached = previous
                    .and_then(|prev| prev.file_terms.get(file))
                    .filter(|(prev_data, _)| Arc::ptr_eq(prev_data, data))
                    .map(|(_, ids)| Arc::clone(ids));
                let terms = cached.ok_or_else(|| FileTerms::compute(data));
                (*file, Arc::clone(data), terms)
            })
            .collect();
        // The previous table, extended with the new terms of the files analyzed again (in
        // file order, so a first build numbers terms as it meets them).
        let mut terms: Arc<TermTable> =
            previous.map_or_else(Arc::default, |prev| Arc::clone(&prev.terms));
        for (_, _, analysis) in &analyzed {
            let Err(file_terms) = analysis else { continue };
            for (term, _) in file_terms
                .file
                .iter()
                .chain(file_terms.defs.iter().flatten())
            {
                if !terms.contains_key(term) {
                    let table = Arc::make_mut(&mut terms);
                    let id = table.len() as u32;
                    table.insert(term.clone(), id);
                }
            }
        }
        let table: &TermTable = &terms;
        let file_terms: Vec<(FileId, Arc<FileData>, Arc<FileIds>)> = analyzed
            .into_par_iter()
            .map(|(file, data, analysis)| {
                let ids =
                    analysis.unwrap_or_else(|file_terms| Arc::new(FileIds::of(table, &file_terms)));
                (file, data, ids)
            })
            .collect();
        let mut defs = Postings {
            lists: vec![Vec::new(); terms.len()],
            ..Postings::default()
        };
        let mut file_postings = Postings {
            lists: vec![Vec::new(); terms.len()],
            ..Postings::default()
        };
        let mut def_ids = Vec::new();
        let mut file_ids = Vec::new();
        for (file, _, ids) in &file_terms {
            file_postings.add_doc(&ids.file);
            file_ids.push(*file);
            for (idx, counts) in ids.defs.iter().enumerate() {
                defs.add_doc(counts);
                def_ids.push(DefId {
                    file: *file,
                    idx: idx as u32,
                });
            }
        }
        defs.finish();
        file_postings.finish();
        let mut normalized: FxHashMap<String, Vec<DefId>> = FxHashMap::default();
        for (file, data) in &files {
            for (idx, def) in data.syntax.defs.iter().enumerate() {
                normalized
                    .entry(normalize_name(&def.name))
                    .or_default()
                    .push(DefId {
                        file: *file,
                        idx: idx as u32,
                    });
            }
        }
        let path_words = files
            .iter()
            .map(|(file, data)| {
                let stem_path = data
                    .path
                    .rsplit_once('.')
                    .map_or(&*data.path, |(stem, _)| stem);
                let mut words = Vec::new();
                for_each_word(stem_path, |_, word| {
                    for part in crate::index::split_identifier(word) {
                        let lower = part.to_lowercase();
                        if lower.len() > 1 && !words.contains(&super::text::stem(&lower)) {
                            words.push(super::text::stem(&lower));
                        }
                    }
                });
                (*file, words)
            })
            .collect();
        SearchIndex {
            mirror_of: find_mirrors(&files),
            path_words,
            generation,
            terms,
            defs,
            def_ids,
            files: file_postings,
            file_ids,
            normalized,
            file_terms: file_terms
                .into_iter()
                .map(|(file, data, terms)| (file, (data, terms)))
                .collect(),
        }
    }

    fn term_ids(&self, query_terms: &[String]) -> Vec<(u32, f32)> {
        let mut counts: Vec<(u32, f32)> = Vec::new();
        for term in query_terms {
            let Some(&id) = self.terms.get(term.as_str()) else {
                continue;
            };
            match counts.iter_mut().find(|(known, _)| *known == id) {
                Some((_, weight)) => *weight += 0.5,
                None => counts.push((id, 1.0)),
            }
        }
        counts
    }

    /// Definitions ranked by BM25 (best first, at most `limit`).
    pub fn search_defs(&self, query_terms: &[String], limit: usize) -> Vec<(DefId, f32)> {
        self.defs
            .top(&self.term_ids(query_terms), limit)
            .into_iter()
            .map(|(doc, score)| (self.def_ids[doc as usize], score))
            .collect()
    }

    /// Files ranked by BM25 (best first, at most `limit`).
    pub fn search_files(&self, query_terms: &[String], limit: usize) -> Vec<(FileId, f32)> {
        self.files
            .top(&self.term_ids(query_terms), limit)
            .into_iter()
            .map(|(doc, score)| (self.file_ids[doc as usize], score))
            .collect()
    }

    /// The share of files that contain `term` (0 when unknown).
    pub fn file_frequency(&self, term: &str) -> f32 {
        let Some(&id) = self.terms.get(term) else {
            return 0.0;
        };
        self.files.lists[id as usize].len() as f32 / self.files.doc_len.len().max(1) as f32
    }

    /// Definitions whose normalized name equals `normalized`.
    pub fn defs_normalized(&self, normalized: &str) -> &[DefId] {
        self.normalized.get(normalized).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_from_the_previous_one_answers_like_a_fresh_build() {
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
        let first = SearchIndex::build(&index, 1, None);
        // An edit that drops terms (`gateway`, `capture`) and brings new ones (`refund`).
        index.set_file(
            0,
            "shop/payments.py",
            crate::languages::Language::Python,
            "def charge(payment, amount):\n    return refund_or_charge(payment, amount)\n".into(),
        );
        let next = SearchIndex::build(&index, 2, Some(&first));
        let fresh = SearchIndex::build(&index, 2, None);
        for query in [
            "charge payment",
            "refund",
            "gateway capture",
            "order total cart",
        ] {
            let terms: Vec<String> = query.split(' ').map(str::to_owned).collect();
            assert_eq!(
                next.search_defs(&terms, 10),
                fresh.search_defs(&terms, 10),
                "{query}"
            );
            assert_eq!(
                next.search_files(&terms, 10),
                fresh.search_files(&terms, 10),
                "{query}"
            );
        }
        for term in ["gateway", "refund", "payment", "unknown"] {
            assert_eq!(
                next.file_frequency(term),
                fresh.file_frequency(term),
                "{term}"
            );
        }
        assert_eq!(next.file_frequency("gateway"), 0.0);
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
"#,
        );
        let search = SearchIndex::build(&index, 0, None);
        let path = |file: &FileId| index.file(*file).unwrap().path.to_string();
        let mirrors: Vec<(String, String)> = search
            .mirror_of
            .iter()
            .map(|(copy, canonical)| (path(copy), path(canonical)))
            .collect();
        // Different definitions are not copies, and small files are never called copies.
        assert_eq!(
            mirrors,
            [("deno/lib/types.ts".to_owned(), "src/types.ts".to_owned())]
        );
    }
}
