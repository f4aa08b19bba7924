//! Words and identifiers: tokenizing code and queries into search terms, stop words and
//! light stemming.
//!
//! Invariant: the same function turns code and queries into terms, so they always agree.

use crate::index::split_identifier;

/// English and code words too common to say anything about what a task is about.
const STOP_WORDS: &[&str] = &[
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "been",
    "but",
    "by",
    "can",
    "could",
    "do",
    "does",
    "for",
    "from",
    "has",
    "have",
    "he",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "me",
    "my",
    "no",
    "not",
    "of",
    "on",
    "or",
    "our",
    "should",
    "so",
    "some",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "to",
    "too",
    "up",
    "us",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "also",
    "all",
    "any",
    "each",
    "more",
    "most",
    "other",
    "such",
    "only",
    "own",
    "same",
    "very",
    "just",
    "now",
    "via",
    "instead",
    "about",
    "after",
    "before",
    "again",
    "both",
    "def",
    "fn",
    "func",
    "let",
    "var",
    "const",
    "self",
    "cls",
    "this",
    "return",
    "returns",
    "import",
    "package",
    "pub",
    "mut",
    "impl",
    "class",
    "function",
    "method",
    "none",
    "null",
    "nil",
    "true",
    "false",
    "undefined",
    "else",
    "elif",
    "new",
    "code",
    "file",
    "files",
    "use",
    "using",
    "make",
    "makes",
    "get",
    "set",
    "value",
    "fix",
    "fixes",
    "fixed",
    "add",
    "adds",
    "added",
    "bug",
    "issue",
    "issues",
    "write",
    "tests",
    "test",
    "support",
    "implement",
    "refactor",
    "where",
    "defined",
    "used",
    "called",
    "callers",
    "call",
    "calls",
    "str",
    "int",
    "string",
    "bool",
    "type",
    "object",
    "err",
    "ok",
    "e",
    "x",
    "s",
    "t",
    "v",
    "n",
    "i",
];

pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.contains(&word)
}

/// A light stemmer: plurals, gerunds and past tenses (`queries` -> `query`,
/// `building` -> `build`, `parsed` -> `pars`, `running` -> `run`).
pub fn stem(word: &str) -> String {
    let n_chars = word.chars().count();
    if n_chars <= 3 || !word.is_ascii() {
        return word.to_owned();
    }
    let undouble = |stem: &str| -> String {
        let bytes = stem.as_bytes();
        let n = bytes.len();
        if n >= 3 && bytes[n - 1] == bytes[n - 2] && !matches!(bytes[n - 1], b'l' | b's' | b'z') {
            stem[..n - 1].to_owned()
        } else {
            stem.to_owned()
        }
    };
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    if let Some(stem) = word.strip_suffix("ied") {
        return format!("{stem}y");
    }
    if let Some(stem) = word.strip_suffix("ing") {
        if stem.len() >= 3 {
            return undouble(stem);
        }
    }
    if let Some(stem) = word.strip_suffix("ed") {
        if stem.len() >= 3 {
            return undouble(stem);
        }
    }
    for suffix in ["sses", "shes", "ches", "xes"] {
        if let Some(stem) = word.strip_suffix(suffix) {
            return format!("{stem}{}", &suffix[..suffix.len() - 2]);
        }
    }
    if word.ends_with("ss") || word.ends_with("us") || word.ends_with("is") {
        return word.to_owned();
    }
    if let Some(stem) = word.strip_suffix('s') {
        return stem.to_owned();
    }
    word.to_owned()
}

/// Calls `acc` with every identifier-like word of `text` and its byte offset.
pub fn for_each_word<'t>(text: &'t str, mut acc: impl FnMut(usize, &'t str)) {
    let mut start: Option<usize> = None;
    for (idx, ch) in text.char_indices() {
        let is_word = ch.is_alphanumeric() || ch == '_';
        match (is_word, start) {
            (true, None) => start = Some(idx),
            (false, Some(begin)) => {
                acc(begin, &text[begin..idx]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(begin) = start {
        acc(begin, &text[begin..]);
    }
}

/// The search terms of one identifier: its lower-cased, stemmed parts and, for compound
/// identifiers, the whole identifier lower-cased.
pub fn identifier_terms(word: &str, mut acc: impl FnMut(&str)) {
    if word.len() > 64
        || word
            .bytes()
            .all(|byte| byte.is_ascii_digit() || byte == b'_')
    {
        return;
    }
    let parts = split_identifier(word);
    if parts.len() > 1 {
        let whole = word.to_lowercase();
        acc(&whole);
    }
    for part in parts {
        if part.len() < 2 || part.bytes().all(|byte| byte.is_ascii_digit()) {
            continue;
        }
        let lower = part.to_lowercase();
        if is_stop_word(&lower) {
            continue;
        }
        acc(&stem(&lower));
    }
}

/// A name with case and separators removed, for matching `build tree` to `build_tree`,
/// `buildTree` and `BuildTree` alike.
pub fn normalize_name(name: &str) -> String {
    name.chars()
        .filter(|ch| ch.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_cover_plurals_gerunds_and_past_tenses() {
        for (word, stemmed) in [
            ("queries", "query"),
            ("building", "build"),
            ("running", "run"),
            ("retries", "retry"),
            ("proxies", "proxy"),
            ("classes", "class"),
            ("status", "status"),
            ("handlers", "handler"),
            ("parsed", "pars"),
            ("parse", "parse"),
            ("dfs", "dfs"),
        ] {
            assert_eq!(stem(word), stemmed, "{word}");
        }
    }

    #[test]
    fn identifiers_yield_parts_and_the_whole() {
        let mut terms = Vec::new();
        identifier_terms("parseHTTPRequests", |term| terms.push(term.to_owned()));
        assert_eq!(terms, ["parsehttprequests", "parse", "http", "request"]);
        terms.clear();
        identifier_terms("self", |term| terms.push(term.to_owned()));
        assert!(terms.is_empty());
    }
}
