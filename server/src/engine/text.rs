//! Words and identifiers: tokenizing code and queries into search terms, stop words and
//! light stemming.
//!
//! Invariant: the same function turns code and queries into terms, so they always agree.

use crate::index::split_identifier;

/// English words too common to say anything about what a task is about.
const ENGLISH_STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "could", "do", "does",
    "for", "from", "has", "have", "he", "how", "i", "if", "in", "into", "is", "it", "its", "me",
    "my", "no", "not", "of", "on", "or", "our", "should", "so", "some", "than", "that", "the",
    "their", "them", "then", "there", "these", "they", "this", "those", "to", "too", "up", "us",
    "was", "we", "were", "what", "when", "where", "which", "while", "who", "why", "will", "with",
    "would", "you", "your", "also", "all", "any", "each", "more", "most", "other", "such", "only",
    "own", "same", "very", "just", "now", "via", "instead", "about", "after", "before", "again",
    "both",
];

/// Words of code and of tasks about code too common to say what a task is about, though
/// they are parts of names (`file_name`, `set_cookie`).
const CODE_STOP_WORDS: &[&str] = &[
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
    is_english_stop_word(word) || CODE_STOP_WORDS.contains(&word)
}

pub fn is_english_stop_word(word: &str) -> bool {
    ENGLISH_STOP_WORDS.contains(&word)
}

/// A word's search term: its stem with a final silent `e` dropped and a final `y` after a
/// consonant made `i`, so that every form of a word meets (`parse`, `parsed`, `parsing` ->
/// `pars`; `merge`, `merging` -> `merg`; `cookie`, `cookies` -> `cooki`; `retry`, `retries`
/// -> `retri`). Terms match terms (BM25, path words); names are matched with [`stem`]'s
/// forms, which stay words.
pub fn term(word: &str) -> String {
    let mut stemmed = stem(word);
    if stemmed.len() < 4 || !stemmed.is_ascii() {
        return stemmed;
    }
    let bytes = stemmed.as_bytes();
    let (last, before) = (bytes[bytes.len() - 1], bytes[bytes.len() - 2]);
    let is_vowel = |byte: u8| matches!(byte, b'a' | b'e' | b'i' | b'o' | b'u');
    if last == b'e' && before != b'e' {
        stemmed.pop();
    } else if last == b'y' && !is_vowel(before) {
        stemmed.pop();
        stemmed.push('i');
    }
    stemmed
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

/// The spans a text writes between backticks (a fence's code too), each with its byte
/// offset, in order; a lone last backtick (an apostrophe typed as one) opens none.
pub fn code_spans(text: &str) -> Vec<(usize, &str)> {
    let mut spans = Vec::new();
    let mut open: Option<usize> = None;
    for (at, _) in text.match_indices('`') {
        match open.take() {
            None => open = Some(at + 1),
            Some(start) => spans.push((start, &text[start..at])),
        }
    }
    spans
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

/// Calls `acc` with every fragment of code `text` writes: three tokens in a row (a word,
/// or one character of punctuation), as written (a space where whitespace parted two),
/// punctuation between two tokens of which one is a word with a letter (`count - 1`,
/// `opts.max_runs`, `run(self`). A task quoting such a fragment points at the line holding
/// it more surely than its words do; prose (`number of runs`) has none.
pub fn for_each_fragment(text: &str, mut acc: impl FnMut(&str)) {
    // Each token, with whether whitespace came before it.
    let mut tokens: Vec<(&str, bool)> = Vec::new();
    let mut spaced = false;
    let mut word_start: Option<usize> = None;
    for (idx, ch) in text.char_indices() {
        if ch.is_alphanumeric() || ch == '_' {
            word_start.get_or_insert(idx);
            continue;
        }
        if let Some(begin) = word_start.take() {
            tokens.push((&text[begin..idx], spaced));
            spaced = false;
        }
        if ch.is_whitespace() {
            spaced = true;
        } else {
            tokens.push((&text[idx..idx + ch.len_utf8()], spaced));
            spaced = false;
        }
    }
    if let Some(begin) = word_start {
        tokens.push((&text[begin..], spaced));
    }
    let is_word = |token: &str| token.chars().all(|ch| ch.is_alphanumeric() || ch == '_');
    let mut key = String::with_capacity(32);
    for run in tokens.windows(3) {
        let named = |token: &str| {
            token.len() >= 2 && is_word(token) && token.chars().any(char::is_alphabetic)
        };
        if is_word(run[1].0) || !(named(run[0].0) || named(run[2].0)) {
            continue;
        }
        key.clear();
        for (at, (token, spaced)) in run.iter().enumerate() {
            if at > 0 && *spaced {
                key.push(' ');
            }
            key.push_str(token);
        }
        acc(&key);
    }
}

/// The search terms of one identifier: its lower-cased parts as terms (see [`term`]) and, for compound
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
        acc(&normalize_name(word));
    }
    for part in parts {
        if part.len() < 2 || part.bytes().all(|byte| byte.is_ascii_digit()) {
            continue;
        }
        let lower = part.to_lowercase();
        if is_stop_word(&lower) {
            continue;
        }
        acc(&term(&lower));
    }
}

/// Calls `acc` with the search terms of a path's words (directories and file name, split at
/// separators, case changes and underscores), repeats included. A word with digits (`v4`,
/// `http2`, `base64`) names something whole and is also given whole: its parts (`v`, `4`)
/// would not.
pub fn for_each_path_word(path: &str, mut acc: impl FnMut(String)) {
    for_each_word(path, |_, word| {
        let parts = split_identifier(word);
        if parts.len() > 1 && word.bytes().any(|byte| byte.is_ascii_digit()) {
            acc(word.to_lowercase());
        }
        for part in parts {
            let lower = part.to_lowercase();
            if lower.len() > 1 {
                acc(term(&lower));
            }
        }
    });
}

/// The agent nouns a term's verb may name a module by, as terms: `pars` (`parse`) ->
/// `parser`, `format` -> `formatter`, `validat` -> `validator`, `print` -> `printer`. A term
/// of fewer than four letters has none (`us` is not the verb of `user`).
pub fn agent_nouns(term: &str) -> Vec<String> {
    let Some(last) = term
        .chars()
        .last()
        .filter(|_| term.len() >= 4 && term.is_ascii())
    else {
        return Vec::new();
    };
    vec![
        format!("{term}er"),
        format!("{term}or"),
        format!("{term}{last}er"),
    ]
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
    fn terms_meet_across_the_forms_of_a_word() {
        for forms in [
            &["parse", "parsed", "parsing", "parses"][..],
            &["merge", "merging", "merged"],
            &["handle", "handling", "handled", "handles"],
            &["cookie", "cookies"],
            &["retry", "retries", "retried"],
            &["cache", "caching", "caches", "cached"],
            &["create", "creating", "created"],
        ] {
            let terms: Vec<String> = forms.iter().map(|form| term(form)).collect();
            assert!(
                terms.iter().all(|t| *t == terms[0]),
                "{forms:?} -> {terms:?}"
            );
        }
        // Short words and doubled vowels keep their ending.
        assert_eq!(term("use"), "use");
        assert_eq!(term("tree"), "tree");
        assert_eq!(term("key"), "key");
    }

    #[test]
    fn agent_nouns_meet_the_terms_of_their_verbs() {
        for (verb, noun) in [
            ("parse", "parser"),
            ("parsing", "parser"),
            ("format", "formatter"),
            ("validate", "validator"),
            ("print", "printer"),
            ("routing", "router"),
            ("handles", "handler"),
            ("serialize", "serializer"),
        ] {
            assert!(
                agent_nouns(&term(verb)).contains(&term(noun)),
                "{verb} -> {noun}: {:?}",
                agent_nouns(&term(verb))
            );
        }
        assert!(agent_nouns(&term("use")).is_empty());
        assert!(!agent_nouns(&term("head")).contains(&term("heading")));
    }

    #[test]
    fn identifiers_yield_parts_and_the_whole() {
        let mut terms = Vec::new();
        identifier_terms("parseHTTPRequests", |term| terms.push(term.to_owned()));
        assert_eq!(terms, ["parsehttprequests", "pars", "http", "request"]);
        terms.clear();
        identifier_terms("self", |term| terms.push(term.to_owned()));
        assert!(terms.is_empty());
        // The whole without separators, as two words of prose written together make it.
        identifier_terms("build_tree", |term| terms.push(term.to_owned()));
        assert_eq!(terms, ["buildtree", "build", "tree"]);
    }

    #[test]
    fn fragments_are_code_a_text_writes_as_written() {
        let mut found = Vec::new();
        super::for_each_fragment("we compute count - 1 over the number of runs", |key| {
            found.push(key.to_owned())
        });
        assert_eq!(found, ["count - 1"]);
        let mut found = Vec::new();
        super::for_each_fragment("let rest = count - 1;", |key| found.push(key.to_owned()));
        assert_eq!(found, ["rest = count", "count - 1"]);
        let mut found = Vec::new();
        super::for_each_fragment("self.options.max_runs", |key| found.push(key.to_owned()));
        assert_eq!(found, ["self.options", "options.max_runs"]);
    }
}
