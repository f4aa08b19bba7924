//! Workspace symbol search: exact, prefix, camel/snake-hump and fuzzy matches of a query
//! against every definition name, ranked in that order.
//!
//! Invariant: deterministic (ties broken by name, path and position); the query is parsed
//! once and names are borrowed, not copied, while matching.
//!
//! The names are kept sorted in [`SymbolNames`] with a bitmask of the ASCII letters, digits
//! and underscores each contains; a name lacking one of the query's letters cannot match
//! (every character of a fuzzy pattern must occur), so it is skipped before the fuzzy matcher
//! runs. The prefilter never changes the result.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::{DefId, Index};
use crate::languages::DefKind;

/// How a name matched the query; earlier variants rank higher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchTier {
    Exact,
    ExactIgnoreCase,
    Prefix,
    Hump,
    Fuzzy,
}

impl MatchTier {
    pub fn label(self) -> &'static str {
        match self {
            MatchTier::Exact => "exact",
            MatchTier::ExactIgnoreCase => "exact-ignore-case",
            MatchTier::Prefix => "prefix",
            MatchTier::Hump => "hump",
            MatchTier::Fuzzy => "fuzzy",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymbolHit {
    pub def: DefId,
    pub tier: MatchTier,
    /// The fuzzy matcher's score (higher is better), for ties within a tier.
    pub score: u32,
}

/// Splits an identifier into its words: `parseHTTPRequest` -> parse, HTTP, Request;
/// `place_order` -> place, order.
pub fn split_identifier(name: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let chars: Vec<(usize, char)> = name.char_indices().collect();
    let mut start: Option<usize> = None;
    for (pos, &(idx, ch)) in chars.iter().enumerate() {
        if !ch.is_alphanumeric() {
            if let Some(begin) = start.take() {
                parts.push(&name[begin..idx]);
            }
            continue;
        }
        let Some(begin) = start else {
            start = Some(idx);
            continue;
        };
        let prev = chars[pos - 1].1;
        let next_is_lower = chars
            .get(pos + 1)
            .is_some_and(|(_, next)| next.is_lowercase());
        let boundary = (ch.is_uppercase() && prev.is_lowercase())
            || (ch.is_uppercase() && prev.is_uppercase() && next_is_lower)
            || (prev.is_alphabetic() && ch.is_ascii_digit())
            || (prev.is_ascii_digit() && ch.is_alphabetic());
        if boundary {
            parts.push(&name[begin..idx]);
            start = Some(idx);
        }
    }
    if let Some(begin) = start {
        parts.push(&name[begin..]);
    }
    parts
}

/// Whether the query's words each start a word of the name, in order, as abbreviations
/// (`OrdSvc` ~ `OrderService`, `plc_ord` ~ `place_order`, `ms` ~ `MemStore`).
fn hump_match(query_parts: &[String], name_parts: &[String]) -> bool {
    fn is_subsequence(needle: &str, haystack: &str) -> bool {
        let mut hay = haystack.chars();
        needle.chars().all(|ch| hay.any(|other| other == ch))
    }
    fn go(query: &[String], name: &[String]) -> bool {
        let Some((first, rest)) = query.split_first() else {
            return true;
        };
        name.iter().enumerate().any(|(idx, part)| {
            part.chars().next() == first.chars().next()
                && is_subsequence(first, part)
                && go(rest, &name[idx + 1..])
        })
    }
    if query_parts.len() == 1 && name_parts.len() > 1 {
        // A single lower-case word may be the initials (`ms`, `gsv`).
        let query = &query_parts[0];
        let initials: String = name_parts
            .iter()
            .filter_map(|part| part.chars().next())
            .collect();
        if query.len() >= 2
            && is_subsequence(query, &initials)
            && query.chars().next() == initials.chars().next()
        {
            return true;
        }
    }
    go(query_parts, name_parts)
}

/// The sorted names of all definitions, each with its [`char_mask`].
pub(super) struct SymbolNames {
    pub(super) names: Vec<Box<str>>,
    masks: Vec<u64>,
}

/// Bits for the ASCII letters (case folded), digits and `_` a text contains. A name with
/// other non-ASCII characters gets every bit: the matcher may fold them to ASCII letters.
fn char_mask(text: &str) -> u64 {
    let mut mask = 0u64;
    for byte in text.bytes() {
        mask |= match byte {
            b'a'..=b'z' => 1 << (byte - b'a'),
            b'A'..=b'Z' => 1 << (byte - b'A'),
            b'0'..=b'9' => 1 << (26 + byte - b'0'),
            b'_' => 1 << 36,
            0x80.. => return u64::MAX,
            _ => 0,
        };
    }
    mask
}

/// The bits every name matching `query` has: those of the query's ASCII letters, digits and
/// underscores, or none when an atom is negated (`!foo` matches names without `foo`).
fn query_mask(query: &str) -> u64 {
    if query.contains('!') {
        return 0;
    }
    let required: String = query
        .chars()
        .filter(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
        .collect();
    char_mask(&required)
}

impl SymbolNames {
    pub(super) fn new(mut names: Vec<Box<str>>) -> SymbolNames {
        names.sort_unstable();
        let masks = names.iter().map(|name| char_mask(name)).collect();
        SymbolNames { names, masks }
    }

    /// Removes the names of `removed` and inserts those of `added` (both sorted, disjoint,
    /// `removed` present and `added` absent).
    pub(super) fn update(&mut self, removed: &[&str], added: &[&str]) {
        const MAX_SINGLE_UPDATES: usize = 16;
        if removed.len() + added.len() <= MAX_SINGLE_UPDATES {
            for name in removed {
                if let Ok(pos) = self.names.binary_search_by(|probe| (**probe).cmp(name)) {
                    self.names.remove(pos);
                    self.masks.remove(pos);
                }
            }
            for name in added {
                if let Err(pos) = self.names.binary_search_by(|probe| (**probe).cmp(name)) {
                    self.names.insert(pos, Box::from(*name));
                    self.masks.insert(pos, char_mask(name));
                }
            }
            return;
        }
        // Many changes: one merge.
        let old = std::mem::take(&mut self.names);
        let mut names = Vec::with_capacity(old.len() + added.len());
        let mut added = added.iter().peekable();
        for name in old {
            if removed.binary_search(&&*name).is_ok() {
                continue;
            }
            while let Some(next) = added.next_if(|next| **next < &*name) {
                names.push(Box::from(*next));
            }
            names.push(name);
        }
        names.extend(added.map(|name| Box::from(*name)));
        self.masks = names.iter().map(|name| char_mask(name)).collect();
        self.names = names;
    }

    #[cfg(test)]
    fn names(&self) -> Vec<&str> {
        self.names.iter().map(|name| &**name).collect()
    }
}

/// How `name` matched a query that the fuzzy matcher accepted it for.
/// The tiers decided by comparing strings: exact, exact ignoring case, prefix.
fn cheap_tier(name: &str, query: &str, query_lower: &str) -> Option<MatchTier> {
    if name == query {
        return Some(MatchTier::Exact);
    }
    if name.is_ascii() && query.is_ascii() {
        // The same tests as below without allocating (ASCII lower-casing is byte-wise).
        if name.eq_ignore_ascii_case(query) {
            return Some(MatchTier::ExactIgnoreCase);
        }
        if name.len() >= query.len()
            && name.as_bytes()[..query.len()].eq_ignore_ascii_case(query.as_bytes())
        {
            return Some(MatchTier::Prefix);
        }
    } else {
        let name_lower = name.to_lowercase();
        if name_lower == query_lower {
            return Some(MatchTier::ExactIgnoreCase);
        }
        if name_lower.starts_with(query_lower) {
            return Some(MatchTier::Prefix);
        }
    }
    None
}

/// Hump or fuzzy, for names that are not exact or prefix matches.
fn hump_tier(name: &str, query_parts: &[String]) -> MatchTier {
    let name_parts: Vec<String> = split_identifier(name)
        .into_iter()
        .map(str::to_lowercase)
        .collect();
    if hump_match(query_parts, &name_parts) {
        MatchTier::Hump
    } else {
        MatchTier::Fuzzy
    }
}

fn kind_rank(kind: DefKind) -> u8 {
    match kind {
        DefKind::Class | DefKind::Struct | DefKind::Interface | DefKind::Trait | DefKind::Enum => 0,
        DefKind::Function | DefKind::Method | DefKind::Type | DefKind::Macro => 1,
        DefKind::Constant | DefKind::Module => 2,
        DefKind::Impl | DefKind::Variable => 3,
        DefKind::Field => 4,
    }
}

impl Index {
    /// Ranked definitions matching `query` (at most `limit`). An empty query matches nothing.
    pub fn search_symbols(&self, query: &str, limit: usize) -> Vec<SymbolHit> {
        let query = query.trim();
        if query.is_empty() || limit == 0 {
            return Vec::new();
        }
        let query_lower = query.to_lowercase();
        let query_parts: Vec<String> = split_identifier(query)
            .into_iter()
            .map(str::to_lowercase)
            .collect();
        let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut buf = Vec::new();
        let required = query_mask(query);
        let mut named: Vec<(MatchTier, u32, &str)> = Vec::new();
        let mut undecided: Vec<usize> = Vec::new();
        let mut n_decided_defs = 0;
        let table = self.symbol_names();
        for (name, mask) in table.names.iter().zip(&table.masks) {
            if mask & required != required {
                continue;
            }
            let name: &str = name;
            let Some(score) = pattern.score(Utf32Str::new(name, &mut buf), &mut matcher) else {
                // The hump rule accepts what the fuzzy matcher does, plus nothing else.
                continue;
            };
            match cheap_tier(name, query, &query_lower) {
                Some(tier) => {
                    n_decided_defs += self.defs_named(name).len();
                    named.push((tier, score, name));
                }
                None => {
                    undecided.push(named.len());
                    named.push((MatchTier::Fuzzy, score, name));
                }
            }
        }
        // Hump or fuzzy only matters when the exact and prefix matches do not fill the limit
        // (both rank below every one of them).
        if n_decided_defs < limit {
            for idx in undecided {
                named[idx].0 = hump_tier(named[idx].2, &query_parts);
            }
        }
        named.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then(b.1.cmp(&a.1))
                .then(a.2.len().cmp(&b.2.len()))
                .then(a.2.cmp(b.2))
        });
        let mut hits = Vec::new();
        for (tier, score, name) in named {
            let mut defs: Vec<DefId> = self.defs_named(name).to_vec();
            defs.sort_by_cached_key(|def_id| {
                let def = self.def(*def_id).expect("tables point at live defs");
                let data = self.file(def_id.file).expect("live file");
                (
                    data.is_test || def.test,
                    kind_rank(def.kind),
                    !def.exported,
                    data.path.clone(),
                    def.range.start,
                )
            });
            for def in defs {
                hits.push(SymbolHit { def, tier, score });
                if hits.len() >= limit {
                    return hits;
                }
            }
        }
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_on_case_digits_and_separators() {
        assert_eq!(
            split_identifier("parseHTTPRequest"),
            ["parse", "HTTP", "Request"]
        );
        assert_eq!(split_identifier("place_order"), ["place", "order"]);
        assert_eq!(split_identifier("__init__"), ["init"]);
        assert_eq!(split_identifier("utf8Decode"), ["utf", "8", "Decode"]);
        assert_eq!(split_identifier("größeBerechnen"), ["größe", "Berechnen"]);
    }

    #[test]
    fn humps_are_ordered_word_abbreviations() {
        let parts = |name: &str| {
            split_identifier(name)
                .into_iter()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        };
        assert!(hump_match(&parts("OrdSvc"), &parts("OrderService")));
        assert!(hump_match(&parts("plc_ord"), &parts("place_order")));
        assert!(hump_match(&parts("ms"), &parts("MemStore")));
        assert!(!hump_match(&parts("SvcOrd"), &parts("OrderService")));
        assert!(!hump_match(&parts("rder"), &parts("OrderService")));
    }

    #[test]
    fn masks_hold_the_letters_digits_and_underscores_of_a_name() {
        assert_eq!(char_mask("aB_1"), 0b11 | 1 << 36 | 1 << 27);
        assert_eq!(char_mask("Café"), u64::MAX);
        assert_eq!(query_mask("a b"), char_mask("ab"));
        assert_eq!(query_mask("^get$"), char_mask("get"));
        assert_eq!(query_mask("!get"), 0);
    }

    #[test]
    fn name_updates_keep_the_list_sorted() {
        let mut table = SymbolNames::new(vec!["b".into(), "d".into(), "a".into()]);
        table.update(&["b"], &["c", "e"]);
        assert_eq!(table.names(), ["a", "c", "d", "e"]);
        let added: Vec<String> = (0..40).map(|idx| format!("n{idx:02}")).collect();
        let added: Vec<&str> = added.iter().map(String::as_str).collect();
        table.update(&["a", "e"], &added);
        let mut expected = vec!["c", "d"];
        expected.extend(&added);
        expected.sort_unstable();
        assert_eq!(table.names(), expected);
        assert_eq!(table.masks.len(), table.names.len());
        assert!(table
            .names
            .iter()
            .zip(&table.masks)
            .all(|(name, mask)| *mask == char_mask(name)));
    }
}
