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

use std::sync::OnceLock;

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::{DefId, Index};
use crate::base::FxHashSet;
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

/// How many matches of a qualified query's member are looked through for those of the
/// types it names.
const MAX_MEMBER_POOL: usize = 2000;

/// A qualified query's type and member: `QuerySet.bulk_create` -> (`QuerySet`,
/// `bulk_create`), `a::Store::new` -> (`a::Store`, `new`), `Cart#` -> (`Cart`, ``). Both
/// sides are identifiers (the member may be empty); anything else is a plain query.
fn split_qualified(query: &str) -> Option<(&str, &str)> {
    let (qualifier, member) = ["::", ".", "#"]
        .iter()
        .filter_map(|sep| query.rsplit_once(sep))
        .max_by_key(|(qualifier, _)| qualifier.len())?;
    let identifier = |text: &str| {
        !text.is_empty()
            && text
                .chars()
                .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$')
    };
    let qualifier_ok = qualifier
        .split(['.', ':', '#'])
        .filter(|segment| !segment.is_empty())
        .all(identifier)
        && !qualifier.is_empty();
    (qualifier_ok && (member.is_empty() || identifier(member))).then_some((qualifier, member))
}

/// Splits an identifier into its words: `parseHTTPRequest` -> parse, HTTP, Request;
/// `place_order` -> place, order.
pub fn split_identifier(name: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    split_identifier_into(name, &mut parts);
    parts
}

/// [`split_identifier`] into `parts`, cleared first (a loop over names reuses one list).
fn split_identifier_into<'a>(name: &'a str, parts: &mut Vec<&'a str>) {
    parts.clear();
    let mut start: Option<usize> = None;
    let mut prev = '\0';
    let mut chars = name.char_indices().peekable();
    while let Some((idx, ch)) = chars.next() {
        if !ch.is_alphanumeric() {
            if let Some(begin) = start.take() {
                parts.push(&name[begin..idx]);
            }
        } else if let Some(begin) = start {
            // Inside a word, `prev` is alphanumeric too.
            let next_is_lower = chars.peek().is_some_and(|(_, next)| next.is_lowercase());
            let boundary = (ch.is_uppercase() && prev.is_lowercase())
                || (ch.is_uppercase() && prev.is_uppercase() && next_is_lower)
                || (prev.is_alphabetic() && ch.is_ascii_digit())
                || (prev.is_ascii_digit() && ch.is_alphabetic());
            if boundary {
                parts.push(&name[begin..idx]);
                start = Some(idx);
            }
        } else {
            start = Some(idx);
        }
        prev = ch;
    }
    if let Some(begin) = start {
        parts.push(&name[begin..]);
    }
}

/// Whether the bytes of `needle` occur in `haystack` in order, ASCII case ignored unless
/// `case_sensitive`.
fn is_ascii_subsequence(needle: &[u8], haystack: &[u8], case_sensitive: bool) -> bool {
    let mut hay = haystack.iter();
    needle.iter().all(|&ch| {
        hay.any(|&other| {
            if case_sensitive {
                other == ch
            } else {
                other.eq_ignore_ascii_case(&ch)
            }
        })
    })
}

/// Whether two characters are equal ignoring case (without allocating).
fn same_char_ignore_case(a: char, b: char) -> bool {
    a == b || a.to_lowercase().eq(b.to_lowercase())
}

/// Whether the characters of `needle` occur in `haystack` in order, ignoring case.
fn is_subsequence_ignore_case(needle: &str, haystack: &str) -> bool {
    let mut hay = haystack.chars();
    needle
        .chars()
        .all(|ch| hay.any(|other| same_char_ignore_case(ch, other)))
}

/// Whether the query's words each start a word of the name, in order, as abbreviations
/// (`OrdSvc` ~ `OrderService`, `plc_ord` ~ `place_order`, `ms` ~ `MemStore`). Case is
/// ignored.
fn hump_match(query_parts: &[&str], name_parts: &[&str]) -> bool {
    fn first_chars_equal(a: &str, b: &str) -> bool {
        match (a.chars().next(), b.chars().next()) {
            (Some(a), Some(b)) => same_char_ignore_case(a, b),
            _ => false,
        }
    }
    fn go(query: &[&str], name: &[&str]) -> bool {
        let Some((first, rest)) = query.split_first() else {
            return true;
        };
        name.iter().enumerate().any(|(idx, part)| {
            first_chars_equal(first, part)
                && is_subsequence_ignore_case(first, part)
                && go(rest, &name[idx + 1..])
        })
    }
    if let ([query], [first_part, _, ..]) = (query_parts, name_parts) {
        // A single word may be the initials (`ms`, `gsv`).
        let mut initials = name_parts.iter().filter_map(|part| part.chars().next());
        if query.chars().count() >= 2
            && first_chars_equal(query, first_part)
            && query
                .chars()
                .all(|ch| initials.any(|other| same_char_ignore_case(ch, other)))
        {
            return true;
        }
    }
    go(query_parts, name_parts)
}

/// The sorted names of all definitions, each with its [`name_mask`].
pub(super) struct SymbolNames {
    pub(super) names: Vec<Box<str>>,
    masks: Vec<u64>,
    /// For each ASCII letter, the positions (ascending) of the names with a word starting
    /// with it (non-ASCII names in every list): a search up to hump matches reads only the
    /// list of the query's first letter. Built on first use, dropped by [`Self::update`].
    by_initial: OnceLock<Vec<Vec<u32>>>,
}

/// Bits for the ASCII letters (case folded), digits and `_` a text contains. A name with
/// other non-ASCII characters gets every bit: the matcher may fold them to ASCII letters
/// (and only they do: `u64::MAX` marks a non-ASCII name).
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

/// The bit of `a` in [`initials_mask`], above those of [`char_mask`].
const FIRST_INITIAL_BIT: u8 = 37;

/// The initial of a word (see [`split_identifier`]) when it is an ASCII letter, lower-cased.
fn initial(word: &str) -> Option<u8> {
    word.bytes()
        .next()
        .filter(u8::is_ascii_alphabetic)
        .map(|byte| byte.to_ascii_lowercase())
}

/// The bit of an initial (a lower-case ASCII letter) in [`initials_mask`].
fn initial_bit(letter: u8) -> u64 {
    1 << (FIRST_INITIAL_BIT + letter - b'a')
}

/// Bits above those of [`char_mask`] for the ASCII letters (case folded) that start a word of
/// `parts` (see [`split_identifier`]): a name's hump match starts at one of them.
fn initials_mask(parts: &[&str]) -> u64 {
    parts
        .iter()
        .filter_map(|part| initial(part))
        .fold(0, |mask, letter| mask | initial_bit(letter))
}

/// [`char_mask`] with the [`initials_mask`] of the name's words.
fn name_mask(name: &str) -> u64 {
    match char_mask(name) {
        u64::MAX => u64::MAX,
        mask => mask | initials_mask(&split_identifier(name)),
    }
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
        let masks = names.iter().map(|name| name_mask(name)).collect();
        SymbolNames {
            names,
            masks,
            by_initial: OnceLock::new(),
        }
    }

    /// The positions of the names with a word starting with `letter` (an ASCII letter,
    /// lower case), and of the non-ASCII names.
    fn with_initial(&self, letter: u8) -> &[u32] {
        let lists = self.by_initial.get_or_init(|| {
            let mut lists: Vec<Vec<u32>> = vec![Vec::new(); 26];
            for (pos, mask) in self.masks.iter().enumerate() {
                // The set initial bits, lowest first (`a` is bit 0 here).
                let mut initials = (mask >> FIRST_INITIAL_BIT) & ((1 << 26) - 1);
                while initials != 0 {
                    lists[initials.trailing_zeros() as usize].push(pos as u32);
                    initials &= initials - 1;
                }
            }
            lists
        });
        &lists[usize::from(letter - b'a')]
    }

    /// Builds the lists of [`Self::with_initial`] ahead of the first search.
    pub(super) fn warm_up(&self) {
        self.with_initial(b'a');
    }

    /// Removes the names of `removed` and inserts those of `added` (both sorted, disjoint,
    /// `removed` present and `added` absent).
    pub(super) fn update(&mut self, removed: &[&str], added: &[&str]) {
        const MAX_SINGLE_UPDATES: usize = 16;
        self.by_initial = OnceLock::new();
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
                    self.masks.insert(pos, name_mask(name));
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
        self.masks = names.iter().map(|name| name_mask(name)).collect();
        self.names = names;
    }

    #[cfg(test)]
    fn names(&self) -> Vec<&str> {
        self.names.iter().map(|name| &**name).collect()
    }
}

/// The tiers decided by comparing strings (exact, exact ignoring case, prefix), through
/// [`ascii_tier`] when both are ASCII; `None` leaves hump or fuzzy (see [`hump_tier`]).
fn cheap_tier(name: &str, query: &str, query_lower: &str) -> Option<MatchTier> {
    if name.is_ascii() && query.is_ascii() {
        return ascii_tier(name, query);
    }
    if name == query {
        return Some(MatchTier::Exact);
    }
    let name_lower = name.to_lowercase();
    if name_lower == query_lower {
        Some(MatchTier::ExactIgnoreCase)
    } else if name_lower.starts_with(query_lower) {
        Some(MatchTier::Prefix)
    } else {
        None
    }
}

/// [`cheap_tier`] for an ASCII name and query, without allocating (ASCII lower-casing is
/// byte-wise).
fn ascii_tier(name: &str, query: &str) -> Option<MatchTier> {
    if name == query {
        Some(MatchTier::Exact)
    } else if name.eq_ignore_ascii_case(query) {
        Some(MatchTier::ExactIgnoreCase)
    } else if name.len() >= query.len()
        && name.as_bytes()[..query.len()].eq_ignore_ascii_case(query.as_bytes())
    {
        Some(MatchTier::Prefix)
    } else {
        None
    }
}

/// Hump or fuzzy, for names that are not exact or prefix matches; `name_parts` is scratch
/// space for the name's words.
fn hump_tier<'a>(name: &'a str, query_parts: &[&str], name_parts: &mut Vec<&'a str>) -> MatchTier {
    split_identifier_into(name, name_parts);
    if hump_match(query_parts, name_parts) {
        MatchTier::Hump
    } else {
        MatchTier::Fuzzy
    }
}

/// A name that matched, before its definitions are listed.
struct Candidate<'a> {
    tier: MatchTier,
    /// The fuzzy matcher's score; computed for every hump and fuzzy match, and for exact and
    /// prefix matches only once they are known to be listed.
    score: Option<u32>,
    name: &'a str,
}

/// Result order: tier; within the hump and fuzzy tiers the higher fuzzy score; then the
/// shorter name (the closer completion); then the name. Exact and prefix matches ignore the
/// fuzzy score: it says nothing more than the tier does about a contiguous match.
fn candidate_order(a: &Candidate, b: &Candidate) -> std::cmp::Ordering {
    let fuzzy_rank = |c: &Candidate| match c.tier {
        MatchTier::Hump | MatchTier::Fuzzy => std::cmp::Reverse(c.score.unwrap_or(0)),
        _ => std::cmp::Reverse(0),
    };
    a.tier
        .cmp(&b.tier)
        .then_with(|| fuzzy_rank(a).cmp(&fuzzy_rank(b)))
        .then_with(|| a.name.len().cmp(&b.name.len()))
        .then_with(|| a.name.cmp(b.name))
}

/// Sorts `candidates` by [`candidate_order`], keeping only the first `keep`.
fn top_candidates(candidates: &mut Vec<Candidate>, keep: usize) {
    if candidates.len() > keep {
        candidates.select_nth_unstable_by(keep, candidate_order);
        candidates.truncate(keep);
    }
    candidates.sort_unstable_by(candidate_order);
}

fn kind_rank(kind: DefKind) -> u8 {
    match kind {
        DefKind::Class | DefKind::Struct | DefKind::Interface | DefKind::Trait | DefKind::Enum => 0,
        DefKind::Function | DefKind::Method | DefKind::Type | DefKind::Macro => 1,
        DefKind::Constant | DefKind::Module => 2,
        DefKind::Impl | DefKind::Variable => 3,
        DefKind::Field | DefKind::Statements => 4,
    }
}

impl Index {
    /// Ranked definitions matching `query` (at most `limit`). An empty query matches nothing.
    ///
    /// A name matches when the fuzzy matcher accepts it (smart case: a query with an upper-case
    /// letter is matched case-sensitively). For a plain identifier query, an ASCII name that
    /// is an exact or prefix match is accepted by a subsequence test instead of the matcher
    /// (the same answer, much cheaper), and the remaining names are scored by the matcher only
    /// when the exact and prefix matches do not fill `limit`: every one of them ranks higher.
    pub fn search_symbols(&self, query: &str, limit: usize) -> Vec<SymbolHit> {
        self.search_symbols_up_to(query, limit, MatchTier::Fuzzy)
    }

    /// [`Index::search_symbols`] keeping only matches of tier `worst` or better (the fuzzy
    /// matcher then scores only those). A qualified query (`QuerySet.bulk_create`,
    /// `Store::new`, `Cart#total`, `QuerySet.`) matches the members of the types it names
    /// (see [`Index::search_members`]).
    pub fn search_symbols_up_to(
        &self,
        query: &str,
        limit: usize,
        worst: MatchTier,
    ) -> Vec<SymbolHit> {
        match split_qualified(query.trim()) {
            Some((qualifier, member)) => self.search_members(qualifier, member, limit, worst),
            None => self.search_names(query, limit, worst),
        }
    }

    /// The members matching `member` (all of them when it is empty) of the types whose name
    /// matches `qualifier` (exactly, ignoring case or as a prefix), and, unless such a type
    /// has a member of exactly that name, of the nearest types it extends that have matching
    /// members (`ModelAdmin.get_queryset` finds `BaseModelAdmin.get_queryset`). Tests' members
    /// come last; the others by how the member matched, then how the type did.
    fn search_members(
        &self,
        qualifier: &str,
        member: &str,
        limit: usize,
        worst: MatchTier,
    ) -> Vec<SymbolHit> {
        if limit == 0 {
            return Vec::new();
        }
        let owner = qualifier
            .rsplit(['.', ':', '#'])
            .next()
            .unwrap_or(qualifier);
        let pool: Vec<SymbolHit> = if member.is_empty() {
            // Every member of the types named exactly so (ignoring case).
            let mut types: Vec<DefId> = self.defs_named_ignore_case(owner);
            types.retain(|def| self.def(*def).is_some_and(|d| d.kind.is_type_or_impl()));
            types
                .into_iter()
                .flat_map(|def| self.members(def))
                .map(|def| SymbolHit {
                    def,
                    tier: MatchTier::Prefix,
                    score: 0,
                })
                .collect()
        } else {
            self.search_names(member, MAX_MEMBER_POOL, worst)
        };
        let owner_lower = owner.to_lowercase();
        let owner_tier = |container: &str| -> Option<u8> {
            if container == owner {
                Some(0)
            } else if container.eq_ignore_ascii_case(owner) {
                Some(1)
            } else if container.to_lowercase().starts_with(&owner_lower) {
                Some(3)
            } else {
                None
            }
        };
        let mut ranked: Vec<(u8, usize, SymbolHit)> = pool
            .iter()
            .enumerate()
            .filter_map(|(order, hit)| {
                let tier = owner_tier(self.container_name(hit.def)?)?;
                Some((tier, order, *hit))
            })
            .collect();
        // Tests' local types may share a type's name (`class ModelAdmin(admin.ModelAdmin)`):
        // their members do not keep the type's inherited ones out, and rank after the rest.
        if !member.is_empty()
            && !ranked.iter().any(|(tier, _, hit)| {
                *tier == 0 && hit.tier == MatchTier::Exact && !self.is_test_def(hit.def)
            })
        {
            let defs: Vec<DefId> = pool.iter().map(|hit| hit.def).collect();
            let inherited: FxHashSet<DefId> =
                self.inherited_among(owner, &defs).into_iter().collect();
            ranked.extend(
                pool.iter()
                    .enumerate()
                    .filter(|(_, hit)| inherited.contains(&hit.def))
                    .map(|(order, hit)| (2, order, *hit)),
            );
        }
        ranked
            .sort_by_key(|(tier, order, hit)| (self.is_test_def(hit.def), hit.tier, *tier, *order));
        // A member both inherited and of a type whose name the query's begins keeps its best
        // place.
        let mut listed: FxHashSet<DefId> = FxHashSet::default();
        ranked.retain(|(_, _, hit)| listed.insert(hit.def));
        ranked
            .into_iter()
            .take(limit)
            .map(|(_, _, hit)| hit)
            .collect()
    }

    /// Ranked definitions whose name matches `query` (see [`Index::search_symbols`]).
    fn search_names(&self, query: &str, limit: usize, worst: MatchTier) -> Vec<SymbolHit> {
        let query = query.trim();
        if query.is_empty() || limit == 0 {
            return Vec::new();
        }
        let query_lower = query.to_lowercase();
        let query_parts = split_identifier(query);
        // Without pattern syntax (`^`, `$`, `'`, `!`, spaces) the matcher's test is: the query
        // is a subsequence of the name (case-sensitive if the query has an upper-case letter).
        let plain = query
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_');
        let case_sensitive = query.chars().any(char::is_uppercase);
        let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut buf = Vec::new();
        let mut fuzzy_score =
            |name: &str| pattern.score(Utf32Str::new(name, &mut buf), &mut matcher);
        // Every match up to a hump match has a word starting with the query's first letter.
        let initial = query_parts
            .first()
            .filter(|_| worst <= MatchTier::Hump)
            .and_then(|part| initial(part));
        let required = query_mask(query) | initial.map_or(0, initial_bit);
        let table = self.symbol_names();
        let positions: Box<dyn Iterator<Item = usize>> = match initial {
            Some(letter) => Box::new(table.with_initial(letter).iter().map(|pos| *pos as usize)),
            None => Box::new(0..table.names.len()),
        };

        let mut decided: Vec<Candidate> = Vec::new();
        let mut rest: Vec<&str> = Vec::new();
        let mut n_decided_defs = 0;
        for pos in positions {
            let (name, mask) = (&table.names[pos], &table.masks[pos]);
            if mask & required != required {
                continue;
            }
            let name: &str = name;
            // Only non-ASCII names have every bit set.
            let ascii = *mask != u64::MAX;
            if !(plain && ascii) {
                rest.push(name);
                continue;
            }
            let Some(tier) = ascii_tier(name, query) else {
                // The matcher's verdict for a plain query on an ASCII name, cheaply first.
                if is_ascii_subsequence(query.as_bytes(), name.as_bytes(), case_sensitive) {
                    rest.push(name);
                }
                continue;
            };
            if tier > worst
                || (case_sensitive
                    && !is_ascii_subsequence(query.as_bytes(), name.as_bytes(), true))
            {
                continue;
            }
            if n_decided_defs < limit {
                n_decided_defs += self.defs_named(name).len();
            }
            decided.push(Candidate {
                tier,
                score: None,
                name,
            });
        }
        top_candidates(&mut decided, limit);
        let mut named = decided;
        if n_decided_defs < limit {
            let mut others = Vec::new();
            let mut name_parts: Vec<&str> = Vec::new();
            let mut tier_of = |name| {
                cheap_tier(name, query, &query_lower)
                    .unwrap_or_else(|| hump_tier(name, &query_parts, &mut name_parts))
            };
            for name in rest {
                // Classify first when that can spare the matcher, else only what it accepts.
                let early_tier = (worst < MatchTier::Fuzzy).then(|| tier_of(name));
                if early_tier.is_some_and(|tier| tier > worst) {
                    continue;
                }
                let Some(fuzzy) = fuzzy_score(name) else {
                    continue;
                };
                let tier = match early_tier {
                    Some(tier) => tier,
                    None => tier_of(name),
                };
                others.push(Candidate {
                    tier,
                    score: Some(fuzzy),
                    name,
                });
            }
            top_candidates(&mut others, limit);
            named.extend(others);
            named.sort_by(candidate_order);
        }

        let mut hits = Vec::new();
        for candidate in named {
            let score = candidate
                .score
                .or_else(|| fuzzy_score(candidate.name))
                .unwrap_or(0);
            let mut defs: Vec<DefId> = self.defs_named(candidate.name).to_vec();
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
                hits.push(SymbolHit {
                    def,
                    tier: candidate.tier,
                    score,
                });
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
        assert_eq!(
            split_identifier("HTTPServer2Go"),
            ["HTTP", "Server", "2", "Go"]
        );
        assert_eq!(
            split_identifier("a_b__cD9x"),
            ["a", "b", "c", "D", "9", "x"]
        );
        assert_eq!(split_identifier(""), Vec::<&str>::new());
    }

    #[test]
    fn humps_are_ordered_word_abbreviations() {
        let parts = split_identifier;
        assert!(hump_match(&parts("OrdSvc"), &parts("OrderService")));
        assert!(hump_match(&parts("plc_ord"), &parts("place_order")));
        assert!(hump_match(&parts("ms"), &parts("MemStore")));
        assert!(!hump_match(&parts("SvcOrd"), &parts("OrderService")));
        assert!(!hump_match(&parts("rder"), &parts("OrderService")));
    }

    const NAMES: &str = r#"
//- /shop/orders.py
class OrderService: pass
class Order: pass
class ORDER_STATE: pass
def order(): pass
def order_service(): pass
def place_order(): pass
def placeholder(): pass
def reorder(): pass
def ordinal(): pass
def größe_order(): pass
def test_order(): pass
//- /shop/mem.ts
export class MemStore {}
export function Ordr() {}
export const PLACE_ORDER = 1;
"#;

    fn names_of(index: &Index, hits: &[SymbolHit]) -> Vec<String> {
        hits.iter()
            .map(|hit| index.def(hit.def).unwrap().name.to_string())
            .collect()
    }

    #[test]
    fn the_fast_path_accepts_exactly_what_the_fuzzy_matcher_accepts() {
        let (index, _) = crate::index::tests::index_fixture(NAMES);
        let all: Vec<&str> = index.symbol_names().names.iter().map(|n| &**n).collect();
        for query in [
            "order", "Order", "ORDER", "ord", "Ord", "OrdSvc", "pl", "PLACE", "ordr", "ms", "r",
            "größe", "gro", "o r", "^ord", "order$", "'der", "!order",
        ] {
            let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
            let mut matcher = Matcher::new(Config::DEFAULT);
            let mut buf = Vec::new();
            let mut expected: Vec<&str> = all
                .iter()
                .copied()
                .filter(|name| {
                    pattern
                        .score(Utf32Str::new(name, &mut buf), &mut matcher)
                        .is_some()
                })
                .collect();
            expected.sort_unstable();
            let hits = index.search_symbols(query, 1000);
            let mut got = names_of(&index, &hits);
            got.sort_unstable();
            got.dedup();
            assert_eq!(got, expected, "query {query:?}");
        }
    }

    #[test]
    fn a_worst_tier_keeps_the_same_hits_as_filtering_the_full_search() {
        let (index, _) = crate::index::tests::index_fixture(NAMES);
        for query in [
            "order", "Ord", "OrdSvc", "ms", "plc_ord", "ordr", "o r", "größe", "svc", "state",
            "_ord", "ORD", "2", "$ord",
        ] {
            for worst in [MatchTier::Exact, MatchTier::Prefix, MatchTier::Hump] {
                let full: Vec<SymbolHit> = index
                    .search_symbols(query, 1000)
                    .into_iter()
                    .filter(|hit| hit.tier <= worst)
                    .collect();
                assert_eq!(
                    index.search_symbols_up_to(query, 1000, worst),
                    full,
                    "{query:?} up to {worst:?}"
                );
            }
        }
    }

    #[test]
    fn qualified_queries_match_the_members_of_the_types_they_name() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /admin/options.py
class BaseModelAdmin:
    def get_queryset(self, request):
        return None
    def get_field_queryset(self, db, field):
        return None

class ModelAdmin(BaseModelAdmin):
    def get_list_editable_queryset(self, request):
        return None
    def changelist_view(self, request):
        return None

class InlineModelAdmin(BaseModelAdmin):
    def get_queryset(self, request):
        return None
//- /tests/test_admin.py
class ModelAdmin(admin.ModelAdmin):
    def get_queryset(self, request):
        return []
//- /src/store.rs
pub struct Store;
impl Store {
    pub fn new() -> Store { Store }
    pub fn get(&self) {}
}
"#,
        );
        let shown = |query: &str| -> Vec<String> {
            index
                .search_symbols(query, 10)
                .iter()
                .map(|hit| {
                    let path = &index.file(hit.def.file).unwrap().path;
                    let container = index.container_name(hit.def).unwrap_or("-");
                    format!("{path}:{container}.{}", index.def(hit.def).unwrap().name)
                })
                .collect()
        };
        // The type's own member; a name of several types picks the named one.
        assert_eq!(
            shown("InlineModelAdmin.get_queryset")[0],
            "admin/options.py:InlineModelAdmin.get_queryset"
        );
        assert_eq!(shown("Store::new")[0], "src/store.rs:Store.new");
        // A member the type inherits comes from its base, before the type's own fuzzy
        // matches; a test's local class of the same name comes last.
        let inherited = shown("ModelAdmin.get_queryset");
        assert_eq!(inherited[0], "admin/options.py:BaseModelAdmin.get_queryset");
        assert_eq!(
            inherited.last().map(String::as_str),
            Some("tests/test_admin.py:ModelAdmin.get_queryset")
        );
        assert!(!inherited.contains(&"admin/options.py:InlineModelAdmin.get_queryset".to_owned()));
        // A type and a separator list its members.
        assert_eq!(
            shown("modeladmin."),
            [
                "admin/options.py:ModelAdmin.get_list_editable_queryset",
                "admin/options.py:ModelAdmin.changelist_view",
                "tests/test_admin.py:ModelAdmin.get_queryset"
            ]
        );
        // Not a qualified name: searched as a pattern, as before.
        assert!(split_qualified("a b.c").is_none());
        assert!(split_qualified(".get").is_none());
        assert_eq!(split_qualified("a::Store::new"), Some(("a::Store", "new")));
    }

    #[test]
    fn tiers_rank_exact_then_prefix_then_hump_then_fuzzy_and_limits_cut_the_same_order() {
        let (index, _) = crate::index::tests::index_fixture(NAMES);
        let hits = index.search_symbols("order", 1000);
        let tiers: Vec<MatchTier> = hits.iter().map(|hit| hit.tier).collect();
        assert!(tiers.windows(2).all(|pair| pair[0] <= pair[1]), "{tiers:?}");
        let names = names_of(&index, &hits);
        assert_eq!(
            names[..5],
            [
                "order",
                "Order",
                "ORDER_STATE",
                "OrderService",
                "order_service"
            ]
        );
        assert!(names.contains(&"place_order".to_owned()));
        for limit in 1..names.len() {
            let cut = index.search_symbols("order", limit);
            assert_eq!(cut, hits[..limit], "limit {limit}");
        }
        let humps = index.search_symbols("OrdSvc", 10);
        assert_eq!(names_of(&index, &humps)[0], "OrderService");
        assert_eq!(humps[0].tier, MatchTier::Hump);
    }

    #[test]
    fn masks_hold_the_letters_digits_and_underscores_of_a_name() {
        assert_eq!(char_mask("aB_1"), 0b11 | 1 << 36 | 1 << 27);
        // With the initials of its words: a, B and 1 (a digit is no initial).
        assert_eq!(name_mask("aB_1"), char_mask("aB_1") | 0b11 << 37);
        assert_eq!(char_mask("Café"), u64::MAX);
        assert_eq!(query_mask("a b"), char_mask("ab"));
        assert_eq!(query_mask("^get$"), char_mask("get"));
        assert_eq!(query_mask("!get"), 0);
    }

    #[test]
    fn name_updates_keep_the_list_sorted() {
        let mut table = SymbolNames::new(vec!["b".into(), "d".into(), "a".into()]);
        assert_eq!(table.with_initial(b'b'), [1]);
        table.update(&["b"], &["c", "e"]);
        assert_eq!(table.names(), ["a", "c", "d", "e"]);
        // The lists by initial follow the update.
        assert!(table.with_initial(b'b').is_empty());
        assert_eq!(table.with_initial(b'e'), [3]);
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
            .all(|(name, mask)| *mask == name_mask(name)));
        assert_eq!(table.with_initial(b'n').len(), 40);
    }

    #[test]
    fn names_are_listed_under_the_initials_of_their_words() {
        let table = SymbolNames::new(vec![
            "OrderService".into(),
            "place_order".into(),
            "größe".into(),
            "x".into(),
        ]);
        // Sorted: OrderService, größe, place_order, x.
        assert_eq!(table.with_initial(b'o'), [0, 1, 2]);
        assert_eq!(table.with_initial(b's'), [0, 1]);
        assert_eq!(table.with_initial(b'p'), [1, 2]);
        assert_eq!(table.with_initial(b'x'), [1, 3]);
        assert_eq!(table.with_initial(b'q'), [1]);
    }
}
