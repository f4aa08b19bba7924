//! Query analysis: explicit identifiers (backticks, CamelCase, snake_case, `a.b.c`,
//! `Type::method`, file paths), natural-language words turned into search terms and into
//! identifier candidates in every casing and word order, and stack-trace frames.
//!
//! Invariant: pure over the query text; matching against the symbol table happens in `rank`.

use super::text::{
    for_each_word, identifier_terms, is_english_stop_word, is_stop_word, normalize_name, stem, term,
};
use super::trace::{parse_frames, TraceFrame};
use crate::base::{is_identifier_like, FxHashSet};

/// An identifier the query names explicitly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mention {
    /// As written, e.g. `DatabaseClient.connect`.
    pub text: String,
    /// The segments of a qualified name (`DatabaseClient`, `connect`).
    pub segments: Vec<String>,
    /// Written in backticks or with code punctuation: certainly an identifier.
    pub certain: bool,
    /// Named as a tool the change uses (`raise InvalidURL`, `handled by HandleExitCoder`,
    /// `use file_stem instead of file_name`): the code using it is as likely to change as
    /// its definition.
    pub used: bool,
    /// Named as what the change replaces (`use file_stem instead of file_name`, `replace
    /// trimRight with trimEnd`): the code using it now is where the change goes.
    pub replaced: bool,
    /// Written as a call with literal arguments (`contents_first(true)`, `min_depth(1)`):
    /// how the user configured what they report, not where it goes wrong.
    pub configured: bool,
}

#[derive(Clone, Debug, Default)]
pub struct QueryAnalysis {
    /// Every word, lower-cased, in order (for the words that make a task a rename or an
    /// interface change; intent cues come from the prose alone, see `intent::detect`).
    pub words: Vec<String>,
    pub mentions: Vec<Mention>,
    /// File paths or file names mentioned (`shop/db.py`, `store.go`).
    pub paths: Vec<String>,
    /// Search terms (stemmed, no stop words), with repeats.
    pub terms: Vec<String>,
    /// Natural-language words that are not stop words, stemmed, in order: the forms names
    /// are built from (`building tree` -> `build_tree`).
    pub content_words: Vec<String>,
    /// The same words as search terms (see `text::term`), for matching terms and path words.
    pub content_terms: Vec<String>,
    /// The content words written in capitals (`URL`, `MAX_SIZE`), as `content_words` has
    /// them: only these name a constant written so.
    pub capitals: Vec<String>,
    pub frames: Vec<TraceFrame>,
    /// The exceptions the task reports by name, as written (`httpx.ConnectError` on a
    /// trace's last line; see `trace::exception_name`).
    pub thrown: Vec<String>,
    /// The scope of a `scope: message` or `type(scope): message` prefix, split into
    /// search terms (`fix(json-schema): ...` -> `json`, `schema`; `walk: ...` -> `walk`).
    pub scope_words: Vec<String>,
    /// Text the task quotes, which the code may hold verbatim (see [`literals`]).
    pub literals: Vec<String>,
    /// Capitalized words that open a sentence (`Option` in `Option calls cleandoc on help`):
    /// grammar, or the name of a type the sentence is about.
    pub opening_words: Vec<String>,
    /// Words (stemmed, lower-cased) that only ever open a sentence or a list item: the
    /// task's verbs (`Update`, `Remove`, `fix`), not names of its subject.
    pub opening_only: Vec<String>,
    /// Human languages the task names, with their ISO 639-1 codes (`Italian` -> `it`): the
    /// names of translation files (`locales/it.ts`).
    pub languages: Vec<(String, &'static str)>,
    /// The names a rename gives, as written (`prepare_value`; see [`new_names`]): not
    /// targets, nor words that name them.
    pub new_names: Vec<String>,
    /// The last part of each name a rename changes (`getResponse` in `rename
    /// HTTPException's getResponse() to toResponse()`): its callers change with it, those of
    /// the type the task names to say where it is do not.
    pub renamed: Vec<String>,
    /// The type a rename writes its name in, with the name (`("MultiState", "mark_zombie")`
    /// for `rename MultiState::mark_zombie to ...`): of the definitions of that name, those
    /// of that type and its relatives are renamed, not an unrelated type's method.
    pub renamed_in: Vec<(String, String)>,
    /// The fragments of code the task writes (see [`super::text::for_each_fragment`]),
    /// sorted, each once.
    pub fragments: Vec<String>,
    /// Words joined by hyphens (`string-to-int64`, `max-runs`), as one name normalized
    /// (`stringtoint64`): prose's way of writing a name whose parts it spells out.
    pub hyphenated: Vec<String>,
}

/// Human languages by name, with the code translation files are named by.
const LANGUAGES: &[(&str, &str)] = &[
    ("Arabic", "ar"),
    ("Armenian", "hy"),
    ("Azerbaijani", "az"),
    ("Belarusian", "be"),
    ("Bengali", "bn"),
    ("Bulgarian", "bg"),
    ("Catalan", "ca"),
    ("Chinese", "zh"),
    ("Croatian", "hr"),
    ("Czech", "cs"),
    ("Danish", "da"),
    ("Dutch", "nl"),
    ("English", "en"),
    ("Esperanto", "eo"),
    ("Estonian", "et"),
    ("Finnish", "fi"),
    ("French", "fr"),
    ("Georgian", "ka"),
    ("German", "de"),
    ("Greek", "el"),
    ("Hebrew", "he"),
    ("Hindi", "hi"),
    ("Hungarian", "hu"),
    ("Icelandic", "is"),
    ("Indonesian", "id"),
    ("Italian", "it"),
    ("Japanese", "ja"),
    ("Khmer", "km"),
    ("Korean", "ko"),
    ("Latvian", "lv"),
    ("Lithuanian", "lt"),
    ("Macedonian", "mk"),
    ("Malay", "ms"),
    ("Norwegian", "no"),
    ("Pashto", "ps"),
    ("Persian", "fa"),
    ("Polish", "pl"),
    ("Portuguese", "pt"),
    ("Romanian", "ro"),
    ("Russian", "ru"),
    ("Serbian", "sr"),
    ("Slovak", "sk"),
    ("Slovenian", "sl"),
    ("Spanish", "es"),
    ("Swedish", "sv"),
    ("Tamil", "ta"),
    ("Thai", "th"),
    ("Turkish", "tr"),
    ("Ukrainian", "uk"),
    ("Urdu", "ur"),
    ("Uzbek", "uz"),
    ("Vietnamese", "vi"),
    ("Yoruba", "yo"),
];

/// The human language a word names, capitalized as names are (`Italian`, not `italian`),
/// with its code.
fn language(word: &str) -> Option<(&'static str, &'static str)> {
    if !word.starts_with(|ch: char| ch.is_ascii_uppercase()) {
        return None;
    }
    LANGUAGES.iter().find(|(name, _)| *name == word).copied()
}

const PATH_EXTENSIONS: &[&str] = &[
    "py", "pyi", "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "go", "rs",
];

/// Extensions of files that hold no code the index reads and that no member is named after
/// (not `json`, `lock` or `html`: `res.json`, `mu.lock`): `podman.exe`, `Cargo.toml` and
/// `History.md` name files, not a member of `podman`.
const OTHER_FILE_EXTENSIONS: &[&str] = &[
    "exe", "dll", "dylib", "md", "rst", "txt", "toml", "yaml", "yml", "ini", "cfg", "csv", "png",
    "svg", "jpg", "jpeg", "gif", "zip", "gz", "tgz", "whl", "sh", "ps1", "bat",
];

/// Whether a bare word is written like code: snake_case, camelCase or PascalCase with
/// several humps (an acronym's among them: `JSONRenderer`), or SCREAMING_CASE.
fn looks_like_code(word: &str) -> bool {
    let inner_underscore = word.trim_matches('_').contains('_');
    let chars: Vec<char> = word.chars().collect();
    let camel = chars
        .windows(2)
        .any(|pair| pair[0].is_lowercase() && pair[1].is_uppercase());
    // A word after an acronym (`JSONRenderer`, `HTTPError`), not a plural one (`URLs`).
    let after_acronym = chars.windows(4).any(|run| {
        run[0].is_uppercase()
            && run[1].is_uppercase()
            && run[2].is_lowercase()
            && run[3].is_lowercase()
    });
    let acronym_word = chars.len() > 1
        && chars
            .iter()
            .all(|ch| ch.is_uppercase() || ch.is_ascii_digit());
    inner_underscore
        || camel
        || after_acronym
        || (acronym_word && chars.len() > 3 && chars.contains(&'_'))
}

/// Whether a token is a qualified name (`Type::new`, `$fetch.create`, `a.b.c`): code, however
/// it is written.
pub fn is_qualified_name(token: &str) -> bool {
    token.contains("::") || (token.contains('.') && token.split('.').all(is_identifier_like))
}

/// The identifiers a name written as code is made of (`Field`, `get_prep_value` for
/// `Field.get_prep_value`; `MultiState`, `mark_zombie` for `MultiState::mark_zombie`).
fn name_segments(text: &str) -> Vec<String> {
    text.split(['.', ':'])
        .filter(|segment| !segment.is_empty())
        .map(|segment| segment.trim_end_matches("()").to_owned())
        .filter(|segment| is_identifier_like(segment))
        .collect()
}

pub fn analyze(query: &str) -> QueryAnalysis {
    // The standard library's unwrap messages name its own `Option::unwrap()` and `None`.
    let query = &*super::trace::without_std_unwrap_messages(query);
    let mut res = QueryAnalysis {
        frames: parse_frames(query),
        ..QueryAnalysis::default()
    };
    // Backticked spans are certain identifiers.
    for (_, chunk) in super::text::code_spans(query) {
        if !chunk.trim().is_empty() && chunk.len() < 200 {
            add_mention(&mut res, chunk.trim().trim_end_matches("()"), true);
        }
    }
    res.scope_words = scope_words(query);
    res.literals = literals(query, !res.frames.is_empty());
    super::text::for_each_fragment(query, |fragment| res.fragments.push(fragment.to_owned()));
    res.fragments.sort_unstable();
    res.fragments.dedup();
    let mut openers: Vec<String> = Vec::new();
    let mut inner: FxHashSet<String> = FxHashSet::default();
    // Whitespace-separated tokens: qualified names, paths, code-looking words.
    let all_tokens = tokens(query);
    for (at, &(raw, sentence_start)) in all_tokens.iter().enumerate() {
        // A verb whose object is the code around the change (`update every caller`, `fix
        // the tests`) is the task's grammar as much as one opening a sentence.
        let mut first = sentence_start
            || (!INSTRUCTION_DETERMINERS.contains(&raw.to_lowercase().as_str())
                && instructs(&all_tokens[at + 1..]));
        for_each_word(raw, |_, word| {
            let lower = word.to_lowercase();
            // A verb is a plain word (`Update`, `remove`); a commit's scope (`logging:`), a
            // word in capitals (`OPTIONS`) and an identifier (`InvalidURL`) name things.
            let scoped = res.scope_words.contains(&term(&lower));
            let plain = word.chars().skip(1).all(|ch| ch.is_ascii_lowercase());
            let stemmed = stem(&lower);
            if first && !scoped && plain {
                openers.push(stemmed);
            } else {
                inner.insert(stemmed);
            }
            first = false;
        });
        let token = raw.trim_matches(|ch: char| ch == '.' || ch == ':' || ch == '#');
        if token.is_empty() || token.len() > 200 {
            continue;
        }
        if let Some(joined) = hyphen_joined(token) {
            if !res.hyphenated.contains(&joined) {
                res.hyphenated.push(joined);
            }
        }
        // A member called on a call's result (`email` in `z.string().email()`): code, though
        // written in lower case (not a Go trace's `(*MemoryStore).Set`, whose parentheses
        // hold a receiver's type).
        let at = raw.as_ptr() as usize - query.as_ptr() as usize;
        if raw.starts_with('.') && follows_call(&query[..at]) && is_identifier_like(token) {
            add_mention(&mut res, token, true);
            continue;
        }
        if let Some((_, ext)) = token.rsplit_once('.') {
            if PATH_EXTENSIONS.contains(&ext)
                && (token.contains('/')
                    || is_identifier_like(token.split('.').next().unwrap_or("")))
            {
                let path = token.split(':').next().unwrap_or(token);
                if !res.paths.iter().any(|known| known == path) {
                    res.paths.push(path.to_owned());
                }
                continue;
            }
            if OTHER_FILE_EXTENSIONS.contains(&ext) {
                continue;
            }
        }
        if token.contains('/') {
            continue;
        }
        if is_qualified_name(token) || (is_identifier_like(token) && looks_like_code(token)) {
            add_mention(&mut res, token, true);
        } else if is_identifier_like(token)
            && token.chars().next().is_some_and(char::is_uppercase)
            && token.len() > 2
        {
            // A capitalized word inside a sentence may be a type name (`Session`); the
            // first word of a sentence (`Add`, `Set`, `This`) is capitalized for grammar,
            // unless the ranking finds a type of that name (`Option calls cleandoc`).
            if !sentence_start {
                add_mention(&mut res, token, false);
            } else if token.chars().skip(1).any(char::is_lowercase) {
                res.opening_words.push(token.to_owned());
            }
        }
    }
    // The exceptions the task reports (a trace's last line) say what went wrong, where the
    // names on a trace's lines of code say where: they come first among the names.
    for name in query.lines().filter_map(super::trace::exception_name) {
        if !res.thrown.iter().any(|known| known == name) {
            res.thrown.push(name.to_owned());
        }
    }
    res.mentions
        .sort_by_key(|mention| !res.thrown.contains(&mention.text));
    for opener in openers {
        if !inner.contains(&opener) && !res.opening_only.contains(&opener) {
            res.opening_only.push(opener);
        }
    }
    let tools = tool_names(query);
    let replaced = replaced_names(query);
    for mention in &mut res.mentions {
        mention.used = tools.contains(mention.text.as_str());
        mention.replaced = replaced.contains(mention.text.as_str());
        mention.configured = called_with_literals(query, &mention.text);
    }
    // The name a rename gives (`rename get_prep_value to prepare_value`) is not in the
    // repository yet, or is another definition's: not a target, nor a word naming one.
    let (renamed, renamed_to) = renames(query);
    res.mentions
        .retain(|mention| !renamed_to.contains(mention.text.as_str()));
    res.new_names = renamed_to.iter().map(|name| (*name).to_owned()).collect();
    res.new_names.sort_unstable();
    res.renamed = renamed
        .iter()
        .map(|name| last_segment(name).to_owned())
        .collect();
    res.renamed.sort_unstable();
    res.renamed.dedup();
    res.renamed_in = renamed
        .iter()
        .filter_map(|name| match name_segments(name).as_slice() {
            [.., owner, last] => Some((owner.clone(), last.clone())),
            _ => None,
        })
        .collect();
    res.renamed_in.sort_unstable();
    res.renamed_in.dedup();
    // The lines of a trace that locate its frames, and the function line above a
    // backtrace's location line (a Go goroutine dump's `pkg.(*Type).method(0xc0, ...)`, a
    // Rust backtrace's `3: crate::module::function`): their words are no words of the
    // task's (`github`, `home`, `pkg`), and the frames point at their code themselves.
    let mut frame_lines: Vec<(usize, usize)> = Vec::new();
    let mut line_start = 0;
    // The line above, where it starts, and whether it locates a frame.
    let mut above: Option<(usize, &str, bool)> = None;
    for line in query.split_inclusive('\n') {
        let locates = super::trace::is_frame_location(line);
        if locates {
            if let Some((start, above, false)) = above {
                if super::trace::is_backtrace_location(line) {
                    frame_lines.push((start, start + above.len()));
                }
            }
            frame_lines.push((line_start, line_start + line.len()));
        }
        above = Some((line_start, line, locates));
        line_start += line.len();
    }
    let locates_frame = |start: usize| {
        frame_lines
            .iter()
            .any(|(from, to)| (*from..*to).contains(&start))
    };
    // The previous word, when it is a plain prose word: (where it ends, lower-cased).
    let mut previous: Option<(usize, String)> = None;
    for_each_word(query, |start, word| {
        let lower = word.to_lowercase();
        if let Some((name, code)) = language(word) {
            if !res.languages.iter().any(|(known, _)| known == name) {
                res.languages.push((name.to_owned(), code));
            }
        }
        res.words.push(lower.clone());
        let in_frame = locates_frame(start);
        if !in_frame {
            identifier_terms(word, |term| res.terms.push(term.to_owned()));
        }
        // A plain word: letters only, capitalized at most.
        let plain = word.len() > 1
            && word.as_bytes()[0].is_ascii_alphabetic()
            && word.bytes().skip(1).all(|byte| byte.is_ascii_lowercase())
            && !is_english_stop_word(&lower);
        // Two prose words in a row are also the identifier they would make together
        // (`content type` -> `content_type`, `contentType`).
        if plain && !in_frame {
            if let Some((end, first)) = &previous {
                let gap = &query[*end..start];
                if gap.chars().all(|ch| ch == ' ' || ch == '-') && gap.len() <= 2 {
                    res.terms.push(format!("{first}{lower}"));
                    let stemmed = term(&lower);
                    if stemmed != lower {
                        res.terms.push(format!("{first}{stemmed}"));
                    }
                }
            }
        }
        previous = plain.then(|| (start + word.len(), lower.clone()));
        if !in_frame
            && !is_stop_word(&lower)
            && lower.len() > 1
            && !lower.bytes().all(|byte| byte.is_ascii_digit())
        {
            let stemmed = stem(&lower);
            if !word.chars().any(char::is_lowercase) {
                res.capitals.push(stemmed.clone());
            }
            res.content_words.push(stemmed);
            res.content_terms.push(term(&lower));
        }
    });
    res
}

/// The name a qualified name ends with (`prepare_value` in `Field.prepare_value`,
/// `ConnectError` in `httpx.ConnectError`).
pub fn last_segment(name: &str) -> &str {
    name.rsplit(['.', ':']).next().unwrap_or(name)
}

/// Whether `before` ends with a call: a name, then parentheses (`z.string()`,
/// `find(x, y)`).
fn follows_call(before: &str) -> bool {
    if !before.ends_with(')') {
        return false;
    }
    let mut depth = 0usize;
    for (at, ch) in before.char_indices().rev() {
        match ch {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return before[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$');
                }
            }
            '\n' => return false,
            _ => {}
        }
    }
    false
}

/// The query's tokens (split at whitespace and at punctuation that never belongs to an
/// identifier, path or qualified name), each with whether it begins a sentence: the first
/// of a line (after a list marker), or after a token that ends one (`.`, `!`, `?`, `:`).
/// What a task asks to change besides its subject: the code around it.
const INSTRUCTION_OBJECTS: &[&str] = &[
    "caller",
    "callers",
    "callsite",
    "callsites",
    "usage",
    "usages",
    "uses",
    "reference",
    "references",
    "importer",
    "importers",
    "imports",
    "test",
    "tests",
    "doc",
    "docs",
    "documentation",
];
const INSTRUCTION_DETERMINERS: &[&str] = &[
    "every", "all", "each", "any", "the", "its", "their", "other", "existing", "affected",
];

/// Whether `rest`, the tokens after a word, make it a verb whose object is the code around
/// the change (`[update] every caller`, `[fix] the call sites`, `[adjust] all tests`).
fn instructs(rest: &[(&str, bool)]) -> bool {
    let lower = |at: usize| {
        rest.get(at)
            .map(|(raw, _)| raw.trim_end_matches(['.', ':']).to_lowercase())
    };
    // A determiner first: without one the word before is as likely a noun naming the
    // object (`msgpack usage`, `parser tests`).
    let mut at = 0;
    while lower(at).is_some_and(|word| INSTRUCTION_DETERMINERS.contains(&word.as_str())) && at < 2 {
        at += 1;
    }
    if at == 0 {
        return false;
    }
    match lower(at) {
        Some(word) if word == "call" => {
            lower(at + 1).is_some_and(|next| next == "site" || next == "sites")
        }
        Some(word) => INSTRUCTION_OBJECTS.contains(&word.as_str()),
        None => false,
    }
}

fn tokens(query: &str) -> Vec<(&str, bool)> {
    let mut res = Vec::new();
    for line in query.lines() {
        let mut sentence_start = true;
        for raw in line.split(|ch: char| ch.is_whitespace() || "`,;\"'()[]{}<>!?".contains(ch)) {
            if raw.is_empty() {
                continue;
            }
            let is_marker = raw.chars().all(|ch| "-*+•>#".contains(ch))
                || (raw.ends_with('.') && raw[..raw.len() - 1].bytes().all(|b| b.is_ascii_digit()));
            if is_marker && sentence_start {
                continue;
            }
            res.push((raw, sentence_start));
            sentence_start = raw.ends_with(['.', ':']);
        }
    }
    res
}

/// The kinds of change a commit-style prefix may give instead of a scope (`feat:`,
/// `doc: ...`, `breaking: ...`): no part of the repository.
const COMMIT_TYPES: &[&str] = &[
    "fix", "feat", "feature", "chore", "refactor", "perf", "test", "doc", "docs", "style", "build",
    "ci", "breaking", "revert", "deps", "release",
];

/// The scope words of a commit-style prefix: the text before the first `:` when it is short
/// and has no spaces, or the parenthesized part of `type(scope):`. The colon ends the prefix:
/// a path (`Benchmark::run panics`) or a URL (`https://...`) opening the task is no scope.
fn scope_words(query: &str) -> Vec<String> {
    let trimmed = query.trim_start();
    let Some((head, rest)) = trimmed.split_once(':') else {
        return Vec::new();
    };
    if rest.starts_with(|ch: char| !ch.is_whitespace()) {
        return Vec::new();
    }
    if head.len() > 40 || head.contains(char::is_whitespace) && !head.contains('(') {
        return Vec::new();
    }
    let scope = match (head.find('('), head.rfind(')')) {
        (Some(open), Some(close)) if open < close => &head[open + 1..close],
        _ if head.contains(char::is_whitespace) => return Vec::new(),
        _ => head,
    };
    let mut words = Vec::new();
    for_each_word(scope, |_, word| {
        let lower = word.to_lowercase();
        if lower.len() > 1 && !is_stop_word(&lower) && !COMMIT_TYPES.contains(&lower.as_str()) {
            words.push(term(&lower));
        }
    });
    words
}

/// Words that, just before a name, make it a tool of the change rather than its subject.
const TOOL_WORDS: &[&str] = &[
    "raise",
    "raises",
    "raising",
    "throw",
    "throws",
    "throwing",
    "call",
    "calls",
    "calling",
    "use",
    "uses",
    "using",
    "via",
    "by",
    "replace",
    "replacing",
];

/// What prose puts around a name it writes (`raise InvalidURL(...).`, `"load",`): not part
/// of it.
const NAME_PUNCTUATION: &str = ",;)\"'[]{}<>!?";

/// The names written right after a word that makes them tools (see [`TOOL_WORDS`]) or after
/// `instead of`, articles and backticks skipped; a call's arguments and the punctuation
/// around a name are not part of it (`raise InvalidURL("...")` names `InvalidURL`). One pass
/// over the query, however many names it holds.
fn tool_names(query: &str) -> FxHashSet<&str> {
    names_after(query, |word, previous| {
        TOOL_WORDS.contains(&word) || (word == "of" && previous == "instead")
    })
}

/// The names written right after `instead of`, or after `replace`: what the change
/// replaces.
fn replaced_names(query: &str) -> FxHashSet<&str> {
    names_after(query, |word, previous| {
        (word == "of" && previous == "instead")
            || matches!(word, "replace" | "replaces" | "replacing")
    })
}

/// The names written right after the words that `arms` (given a lower-cased word and the
/// one before it), articles and backticks skipped, without a call's arguments or the
/// punctuation around them.
fn names_after(query: &str, arms: impl Fn(&str, &str) -> bool) -> FxHashSet<&str> {
    let mut names = FxHashSet::default();
    let mut armed = false;
    let mut previous = String::new();
    for raw in query.split(|ch: char| ch.is_whitespace() || ch == '`') {
        if raw.is_empty() {
            continue;
        }
        let lower = raw.to_lowercase();
        if ["the", "a", "an"].contains(&lower.as_str()) {
            continue;
        }
        if armed {
            let name = raw
                .split('(')
                .next()
                .unwrap_or(raw)
                .trim_matches(|ch: char| NAME_PUNCTUATION.contains(ch))
                .trim_end_matches(['.', ':']);
            if !name.is_empty() {
                names.insert(name);
            }
        }
        armed = arms(&lower, &previous);
        previous = lower;
    }
    names
}

/// The names a rename changes and the names it gives: in a sentence that has said `rename`,
/// the last name written as code before `to`, `as` or `into`, and the word after it (`rename
/// X to Y`, `X is renamed to Y`, `renaming X as Y`).
fn renames(query: &str) -> (FxHashSet<&str>, FxHashSet<&str>) {
    let mut old_names = FxHashSet::default();
    let mut names = FxHashSet::default();
    // Code, not prose (`rename it to match the server`): written as code, or in backticks.
    fn as_code<'r>(raw: &'r str, query: &str) -> Option<&'r str> {
        let name = raw
            .trim_matches(|ch: char| NAME_PUNCTUATION.contains(ch))
            .trim_end_matches(['.', ':'])
            .trim_end_matches("'s")
            .trim_end_matches("()")
            .trim_end_matches('(');
        let last = last_segment(name);
        let code = looks_like_code(last)
            || name.contains(['.', ':'])
            || raw.contains("()")
            || query.contains(&format!("`{name}`"));
        (is_identifier_like(last) && code).then_some(name)
    }
    for sentence in query
        .split(['\n', ';', '!', '?'])
        .flat_map(|line| line.split(". "))
    {
        let mut renaming = false;
        let mut armed = false;
        let mut last_code: Option<&str> = None;
        for raw in sentence.split(|ch: char| ch.is_whitespace() || ch == '`') {
            if raw.is_empty() {
                continue;
            }
            let lower = raw.to_lowercase();
            if armed {
                if let Some(name) = as_code(raw, query) {
                    names.insert(name);
                    old_names.extend(last_code.take());
                }
                armed = ["the", "a", "an"].contains(&lower.as_str());
                continue;
            }
            renaming |= lower.starts_with("renam");
            armed = renaming && ["to", "as", "into"].contains(&lower.as_str());
            if !armed {
                if let Some(name) = as_code(raw, query) {
                    last_code = Some(name);
                }
            }
        }
    }
    (old_names, names)
}

/// Whether `query` writes `name` as a call whose arguments are all literals (`true`,
/// `false`, `None`, `nil`, `null`, numbers, quoted strings): `SetReportCaller(true)`,
/// `min_depth(1)`.
fn called_with_literals(query: &str, name: &str) -> bool {
    query.match_indices(name).any(|(at, _)| {
        let before = query[..at].chars().next_back();
        if before.is_some_and(|ch| ch.is_alphanumeric() || ch == '_') {
            return false;
        }
        let Some(rest) = query[at + name.len()..].strip_prefix('(') else {
            return false;
        };
        let Some(close) = rest.find(')') else {
            return false;
        };
        let args = &rest[..close];
        !args.trim().is_empty()
            && args.split(',').all(|arg| {
                let arg = arg.trim();
                ["true", "false", "True", "False", "None", "nil", "null"].contains(&arg)
                    || (!arg.is_empty() && arg.parse::<f64>().is_ok())
                    || (arg.len() >= 2
                        && ((arg.starts_with('"') && arg.ends_with('"'))
                            || (arg.starts_with('\'') && arg.ends_with('\''))))
            })
    })
}

fn add_mention(res: &mut QueryAnalysis, text: &str, certain: bool) {
    let segments = name_segments(text);
    if segments.is_empty() {
        return;
    }
    if let Some(existing) = res.mentions.iter_mut().find(|mention| mention.text == text) {
        existing.certain |= certain;
        return;
    }
    res.mentions.push(Mention {
        text: text.to_owned(),
        segments,
        certain,
        used: false,
        replaced: false,
        configured: false,
    });
}

/// A word of hyphen-joined parts (`string-to-int64`, `max-runs`, not `--max-runs`'s
/// dashes nor `a-b`), as one normalized name (`stringtoint64`) when it is long enough to
/// name something.
fn hyphen_joined(token: &str) -> Option<String> {
    if token.starts_with('-') || token.ends_with('-') || !token.contains('-') {
        return None;
    }
    let parts: Vec<&str> = token.split('-').collect();
    let wordy = parts
        .iter()
        .all(|part| !part.is_empty() && part.chars().all(|ch| ch.is_alphanumeric() || ch == '_'))
        && parts
            .iter()
            .any(|part| part.len() >= 2 && part.chars().any(char::is_alphabetic));
    let joined = normalize_name(&parts.concat());
    (wordy && joined.len() >= 6).then_some(joined)
}

/// Identifier candidates for adjacent word pairs in both orders, normalized (no case, no
/// separators), in each word's name forms (see [`name_forms`]): `tree building` ->
/// `treebuild`, `buildtree`, `treebuilder`; `parsing config` -> `parsconfig`, `parseconfig`.
pub fn compound_candidates(content_words: &[String]) -> Vec<String> {
    let mut res = Vec::new();
    let mut seen: FxHashSet<String> = FxHashSet::default();
    let mut push = |candidate: String| {
        if seen.insert(candidate.clone()) {
            res.push(candidate);
        }
    };
    let forms: Vec<Vec<String>> = content_words.iter().map(|word| name_forms(word)).collect();
    for pair in forms.windows(2) {
        if pair[0][0] == pair[1][0] {
            continue;
        }
        for first in &pair[0] {
            for second in &pair[1] {
                push(format!("{first}{second}"));
                push(format!("{second}{first}"));
                push(format!("{first}{second}er"));
                push(format!("{second}{first}er"));
                push(format!("{first}{second}s"));
            }
        }
    }
    for triple in forms.windows(3) {
        push(format!("{}{}{}", triple[0][0], triple[1][0], triple[2][0]));
    }
    res
}

/// The forms a stemmed word may take in a name: itself and, when the stemmer may have cut a
/// silent `e` (`parsing` -> `pars`), the word with it (`parse`).
pub fn name_forms(word: &str) -> Vec<String> {
    let mut forms = vec![word.to_owned()];
    let ends_in_consonant = word
        .bytes()
        .last()
        .is_some_and(|byte| byte.is_ascii_lowercase() && !b"aeiouwxy".contains(&byte));
    if word.len() >= 3 && ends_in_consonant {
        forms.push(format!("{word}e"));
    }
    forms
}

/// Quoted text at most this long is looked for verbatim.
const MAX_LITERAL_CHARS: usize = 120;
/// At most this many literals are taken from a task.
const MAX_LITERALS: usize = 8;

/// A message as a literal: unquoted, and at most [`MAX_LITERAL_CHARS`], cut at a space.
fn message_start(message: &str) -> Option<&str> {
    let message = message
        .trim()
        .trim_matches(|ch: char| matches!(ch, '\'' | '"' | '`'));
    if message.chars().count() <= MAX_LITERAL_CHARS {
        return Some(message);
    }
    // A long message: its start, cut at a space.
    let end = message
        .char_indices()
        .nth(MAX_LITERAL_CHARS)
        .map_or(message.len(), |(at, _)| at);
    message[..end].rfind(' ').map(|at| &message[..at])
}

/// Text the task quotes, which the code may hold verbatim: a message or heading in double
/// or single quotes (`"SEE ALSO"`, `'Not enough space'`), a phrase in backticks with a space
/// in it (`` `rg --files` ``), or a run of two or more words in capitals (`GLOBAL OPTIONS`).
/// A quote never spans lines; a single quote opens only where a word cannot go on
/// (`don't` opens nothing); a quoted path is a path, not a literal. In a task with a stack
/// trace, indented lines (its frames and the source lines they echo) are not read: their
/// frames already point at that code.
pub fn literals(query: &str, has_trace: bool) -> Vec<String> {
    let mut res: Vec<String> = Vec::new();
    let mut push = |text: &str| {
        let text = text.trim();
        let chars = text.chars().count();
        let path = !text.contains(' ') && (text.contains('/') || text.contains('\\'));
        if (4..=MAX_LITERAL_CHARS).contains(&chars)
            && !path
            && text.chars().any(char::is_alphabetic)
            && !res.iter().any(|known| known == text)
            && res.len() < MAX_LITERALS
        {
            res.push(text.to_owned());
        }
    };
    let mut after_panic = false;
    for line in query.lines() {
        if has_trace && line.starts_with(char::is_whitespace) {
            continue;
        }
        // A Rust panic's message, on the line below its location: the code that panics
        // holds it (as much of it as comes before what it formats in, see `find_literal`).
        if std::mem::replace(&mut after_panic, super::trace::opens_panic_message(line)) {
            if let Some(message) = message_start(line) {
                push(message);
            }
        }
        // A frame's location line quotes its syntax (`thread 'main' panicked at`).
        if super::trace::is_frame_location(line) {
            continue;
        }
        let bytes = line.as_bytes();
        let mut pos = 0;
        while pos < bytes.len() {
            let quote = bytes[pos];
            if !matches!(quote, b'"' | b'\'' | b'`') {
                pos += 1;
                continue;
            }
            let opens = quote != b'\''
                || pos == 0
                || !(bytes[pos - 1].is_ascii_alphanumeric() || bytes[pos - 1] == b'_');
            let close = line[pos + 1..].find(quote as char).map(|at| pos + 1 + at);
            let Some(close) = close.filter(|_| opens) else {
                pos += 1;
                continue;
            };
            let closes = quote != b'\''
                || bytes
                    .get(close + 1)
                    .is_none_or(|next| !(next.is_ascii_alphanumeric() || *next == b'_'));
            if !closes {
                pos += 1;
                continue;
            }
            let inner = &line[pos + 1..close];
            if quote != b'`' || inner.trim().contains(char::is_whitespace) {
                push(inner);
            }
            pos = close + 1;
        }
        // An error's message (`ValueError: Invalid URL`, `panic: store is closed`,
        // `error[E0308]: mismatched types`): code that raises it holds it.
        if let Some(message) = super::trace::error_message(line).and_then(message_start) {
            push(message);
        }
        // Command-line flags (`--exec-batch`, `--viper=false`): the code that declares a
        // flag and the code that reads it both spell its name as a string, which a
        // hyphenated name is on its own and a one-word name is between double quotes.
        for flag in line.split(|ch: char| ch.is_whitespace() || matches!(ch, '`' | '(' | ',')) {
            let Some(name) = flag.strip_prefix("--") else {
                continue;
            };
            let end = name
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '-'))
                .unwrap_or(name.len());
            let name = name[..end].trim_end_matches('-');
            if !name.starts_with(|ch: char| ch.is_ascii_alphabetic()) {
                continue;
            }
            if name.contains('-') {
                push(name);
            } else {
                push(&format!("\"{name}\""));
            }
        }
        // Runs of words in capitals.
        let mut run: Vec<&str> = Vec::new();
        let mut flush = |run: &mut Vec<&str>| {
            if run.len() >= 2 {
                push(&run.join(" "));
            }
            run.clear();
        };
        for word in line.split(' ') {
            let capitals = word.len() >= 2 && word.bytes().all(|byte| byte.is_ascii_uppercase());
            if capitals {
                run.push(word);
            } else {
                flush(&mut run);
            }
        }
        flush(&mut run);
    }
    res
}

/// How many existing flags a new flag's name is looked for as.
const MAX_FLAG_RELATIVES: usize = 6;

/// For a flag's name as [`literals`] spells it (`pcre2-version`, `no-ignore-messages`), the
/// names of the flags it is likely a variant of: the runs of its hyphen-separated words
/// shorter than the whole, longest first, each between double quotes as the code declares
/// a flag (`"no-ignore"`, `"ignore-messages"`, `"ignore"`, `"messages"`). A flag the task
/// adds is not in the code yet; the flag it varies is, where the new one is declared and
/// read. Runs of fewer than three letters, or of a stop word alone (`no`), are left out.
pub fn flag_relatives(name: &str) -> Vec<String> {
    let is_flag_name = name.contains('-')
        && name.starts_with(|ch: char| ch.is_ascii_alphabetic())
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-');
    if !is_flag_name {
        return Vec::new();
    }
    let parts: Vec<&str> = name.split('-').filter(|part| !part.is_empty()).collect();
    let mut res = Vec::new();
    for len in (1..parts.len()).rev() {
        for start in 0..=parts.len() - len {
            let run = parts[start..start + len].join("-");
            if run.len() < 3 || (len == 1 && is_stop_word(&run)) {
                continue;
            }
            res.push(format!("\"{run}\""));
        }
    }
    res.truncate(MAX_FLAG_RELATIVES);
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_called_with_literal_arguments_is_configured() {
        let configured = |query: &str, name: &str| {
            analyze(query)
                .mentions
                .iter()
                .find(|mention| mention.text == name)
                .unwrap_or_else(|| panic!("{name} in {query}"))
                .configured
        };
        let report = "With contents_first(true) combined with min_depth(1), some directories \
                      are never yielded; set_name(\"x\") and max_open(None, 2.5) too, \
                      but not walk_dir(root) nor sort_by(|a| a)";
        for name in ["contents_first", "min_depth", "set_name", "max_open"] {
            assert!(configured(report, name), "{name}");
        }
        assert!(!configured(report, "sort_by"));
        assert!(!configured(
            "fix contents_first() when it is empty",
            "contents_first"
        ));
        assert!(!configured("the walk_dir(root) call hangs", "walk_dir"));
    }

    #[test]
    fn the_name_a_rename_gives_is_not_a_mention() {
        let mentions = |query: &str| -> Vec<String> {
            analyze(query)
                .mentions
                .into_iter()
                .map(|mention| mention.text)
                .collect()
        };
        assert_eq!(
            mentions("rename Field.get_prep_value to prepare_value"),
            ["Field.get_prep_value"]
        );
        assert_eq!(
            mentions("`parse_args` is renamed as `parse_argv`"),
            ["parse_args"]
        );
        assert_eq!(
            analyze("Rename `load` to `load_config`").new_names,
            ["load_config"]
        );
        // What it changes: the name right before `to`, not the type saying where it is.
        let analysis =
            analyze("Rename HTTPException's getResponse() method to toResponse() everywhere");
        assert_eq!(analysis.renamed, ["getResponse"]);
        assert_eq!(analysis.new_names, ["toResponse"]);
        let analysis = analyze("rename Field.get_prep_value to prepare_value");
        assert_eq!(analysis.renamed, ["get_prep_value"]);
        assert_eq!(
            analysis.renamed_in,
            [("Field".to_owned(), "get_prep_value".to_owned())]
        );
        assert_eq!(
            analyze("Rename MultiState::mark_zombie to retire_zombie").renamed_in,
            [("MultiState".to_owned(), "mark_zombie".to_owned())]
        );
        assert_eq!(
            analyze("`parse_args` is renamed as `parse_argv`").renamed,
            ["parse_args"]
        );
        // Not a rename: both are names of the task.
        assert_eq!(
            mentions("convert read_header to parse_header"),
            ["read_header", "parse_header"]
        );
        // Prose after `to` is not a new name.
        assert!(analyze("rename the flag to match the server")
            .new_names
            .is_empty());
    }

    #[test]
    fn explicit_identifiers_paths_and_words_are_separated() {
        let analysis = analyze("fix the crash in `DatabaseClient.connect` when shop/db.py gets an empty URL; see place_order and retryPolicy");
        let mentions: Vec<&str> = analysis.mentions.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(
            mentions,
            [
                "DatabaseClient.connect",
                "URL",
                "place_order",
                "retryPolicy"
            ]
        );
        assert_eq!(analysis.mentions[0].segments, ["DatabaseClient", "connect"]);
        assert_eq!(analysis.paths, ["shop/db.py"]);
        assert!(analysis.content_words.contains(&"crash".to_owned()));
        // Files that hold no code are no names.
        let analysis =
            analyze("podman.exe fails to start; see Cargo.toml, History.md and `res.json`");
        let mentions: Vec<&str> = analysis.mentions.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(mentions, ["res.json"]);
        assert!(!analysis.content_words.contains(&"the".to_owned()));
        // JavaScript names may hold `$`; a price does not.
        let mentions: Vec<String> = analyze("`$ZodNumber` writes it, and $scope.apply; costs $5")
            .mentions
            .into_iter()
            .map(|m| m.text)
            .collect();
        assert_eq!(mentions, ["$ZodNumber", "$scope.apply"]);
        // A member called on a call's result is code, though in lower case; a sentence's
        // next word after a parenthesis is not.
        let mentions: Vec<String> =
            analyze("z.string().email() rejects a plus sign (in the local part). then fails")
                .mentions
                .into_iter()
                .map(|m| m.text)
                .collect();
        assert_eq!(mentions, ["z.string", "email"]);
        assert!(follows_call("app.use(compose(a, b))"));
        assert!(!follows_call("store.(*MemoryStore)"));
        assert!(!follows_call("(see above)"));
    }

    #[test]
    fn names_written_as_tools_of_the_change_are_told_from_its_subject() {
        let used = |query: &str| -> Vec<(String, bool)> {
            analyze(query)
                .mentions
                .into_iter()
                .map(|m| (m.text, m.used))
                .collect()
        };
        let pairs = |list: &[(&str, bool)]| -> Vec<(String, bool)> {
            list.iter().map(|(t, u)| (t.to_string(), *u)).collect()
        };
        assert_eq!(
            used("Raise InvalidURL if hosts start with '.'"),
            pairs(&[("InvalidURL", true)])
        );
        assert_eq!(
            used("Use file_stem instead of file_name for completions"),
            pairs(&[("file_stem", true), ("file_name", true)])
        );
        assert_eq!(
            used("errors from Before should be handled by `HandleExitCoder` as `After` errors are"),
            pairs(&[
                ("HandleExitCoder", true),
                ("After", false),
                ("Before", false)
            ])
        );
        assert_eq!(
            used("then raise InvalidURL(\"no host\"), calling `Reflect.ownKeys()`."),
            pairs(&[("Reflect.ownKeys", true), ("InvalidURL", true)])
        );
        // The subject of the change, or a name inside a longer one, is not a tool.
        assert_eq!(
            used("Fix InvalidURL message; make_user_id uses a counter"),
            pairs(&[("InvalidURL", false), ("make_user_id", false)])
        );
        assert_eq!(
            used("a list of file_names"),
            pairs(&[("file_names", false)])
        );
    }

    #[test]
    fn a_trace_gives_the_exception_it_reports_first_and_no_words_of_its_locations() {
        let analysis = analyze(
            "requests hang\nTraceback (most recent call last):\n  \
             File \"/app/main.py\", line 3, in <module>\n    client.fetch(url)\n  \
             File \"/usr/lib/site-packages/web/client.py\", line 9, in fetch\n    \
             return self.transport.send(req)\nweb.errors.ConnectError: refused\n",
        );
        assert_eq!(analysis.thrown, ["web.errors.ConnectError"]);
        assert_eq!(analysis.mentions[0].text, "web.errors.ConnectError");
        for word in ["main", "usr", "site", "module", "line"] {
            assert!(
                !analysis.content_words.iter().any(|w| w == word),
                "{word}: {:?}",
                analysis.content_words
            );
        }
        // The words of the task and of the trace's code are still its words.
        for word in ["request", "hang", "transport", "fetch"] {
            assert!(
                analysis.content_words.iter().any(|w| w == word),
                "{word}: {:?}",
                analysis.content_words
            );
        }
    }

    #[test]
    fn a_goroutine_dumps_frame_lines_give_no_words_to_search() {
        let analysis = analyze(
            "panic: runtime error: invalid memory address or nil pointer dereference\n\n\
             goroutine 1 [running]:\n\
             github.com/urfave/cli/v3.(*Command).set(0xc000166008, {0xc00001e0b0, 0x4})\n\
             \t/home/me/go/pkg/mod/github.com/urfave/cli/v3@v3.3.2/command.go:359 +0x8c\n\
             main.main()\n\
             \t/home/me/src/tool/main.go:41 +0x2c5\n",
        );
        assert_eq!(analysis.frames.len(), 2);
        for word in ["github", "urfave", "home", "pkg", "command", "main"] {
            assert!(
                !analysis.terms.iter().any(|t| t == word),
                "{word}: {:?}",
                analysis.terms
            );
            assert!(
                !analysis.content_words.iter().any(|w| w == word),
                "{word}: {:?}",
                analysis.content_words
            );
        }
        // The panic's message is what the task says.
        for word in ["memori", "pointer", "nilpointer"] {
            assert!(
                analysis.terms.iter().any(|t| t == word),
                "{word}: {:?}",
                analysis.terms
            );
        }
    }

    #[test]
    fn adjacent_prose_words_are_also_searched_as_one_identifier() {
        let terms = analyze("Set content type before authentication; retry-limit headers").terms;
        assert!(terms.contains(&"contenttype".to_owned()), "{terms:?}");
        assert!(terms.contains(&"retrylimit".to_owned()), "{terms:?}");
        // Plural: as written and as its term (`limit headers` -> `limitheader`).
        assert!(terms.contains(&"limitheaders".to_owned()), "{terms:?}");
        assert!(terms.contains(&"limitheader".to_owned()), "{terms:?}");
        // Not with English stop words, nor across punctuation.
        assert!(!terms.contains(&"typebefore".to_owned()), "{terms:?}");
        assert!(
            !terms.contains(&"authenticationretry".to_owned()),
            "{terms:?}"
        );
        // Nor with names written as code.
        let terms = analyze("the retryPolicy limit").terms;
        assert!(
            !terms.iter().any(|term| term.ends_with("policylimit")),
            "{terms:?}"
        );
    }

    /// The names a task mentions, each with whether it writes it as code for certain.
    fn mentions_of(query: &str) -> Vec<(String, bool)> {
        analyze(query)
            .mentions
            .into_iter()
            .map(|m| (m.text, m.certain))
            .collect()
    }

    fn as_strs(mentions: &[(String, bool)]) -> Vec<(&str, bool)> {
        mentions
            .iter()
            .map(|(text, certain)| (text.as_str(), *certain))
            .collect()
    }

    #[test]
    fn the_first_word_of_a_sentence_is_not_a_type_name() {
        let mentions = mentions_of(
            "Set inst.shape in zod mini. Correct the Session type\n- Add Parser support\nThis fixes `Add`",
        );
        assert_eq!(
            as_strs(&mentions),
            [
                ("Add", true),
                ("inst.shape", true),
                ("Session", false),
                ("Parser", false)
            ]
        );
    }

    #[test]
    fn a_name_after_an_acronym_is_code_a_plural_acronym_is_not() {
        let mentions =
            mentions_of("Add key order support to JSONRenderer and the HTTPError, see the URLs");
        assert_eq!(
            as_strs(&mentions),
            [("JSONRenderer", true), ("HTTPError", true), ("URLs", false)]
        );
    }

    #[test]
    fn words_joined_by_hyphens_are_one_name() {
        let analysis =
            analyze("Follow the string-to-int64 flag; --max-runs and a-b stay, as does built-in.");
        assert_eq!(analysis.hyphenated, ["stringtoint64", "builtin"]);
    }

    #[test]
    fn word_pairs_become_identifier_candidates() {
        let words = vec!["tree".to_owned(), "build".to_owned()];
        let candidates = compound_candidates(&words);
        assert!(candidates.contains(&"buildtree".to_owned()));
        assert!(candidates.contains(&"treebuilder".to_owned()));
        // A stem that lost its `e` is tried with it.
        let words = vec![stem("parsing"), "config".to_owned()];
        assert!(compound_candidates(&words).contains(&"parseconfig".to_owned()));
    }

    #[test]
    fn command_line_flags_are_literals_as_the_code_spells_them() {
        assert_eq!(
            literals(
                "Error out if no args provided to --exec or --exec-batch, (--viper=false); not -x or --",
                false
            ),
            ["\"exec\"", "exec-batch", "\"viper\""]
        );
    }

    #[test]
    fn words_that_only_open_sentences_are_the_tasks_verbs() {
        let analysis = analyze(
            "fix: OPTIONS handling\n\n* Remove unnecessary comment\n* add tests\n\
             Update docs. The remove step must update the cache",
        );
        // `remove` and `update` also stand inside a sentence; `OPTIONS` is in capitals.
        assert_eq!(analysis.opening_only, ["fix", "add"]);
        let analysis = analyze("logging: add a flag");
        assert_eq!(analysis.opening_only, ["add"]);
        // A verb whose object is the code around the change is no name either.
        let analysis = analyze("Rename `merge_setting` and update every caller");
        assert_eq!(analysis.opening_only, ["rename", "update"]);
        let analysis = analyze("adjust the call sites; the update handler drops headers");
        assert_eq!(analysis.opening_only, ["adjust"]);
        assert!(!instructs(&tokens("the update handler")));
        let analysis = analyze("render: update msgpack usage");
        assert_eq!(analysis.opening_only, ["update"]);
    }

    #[test]
    fn human_languages_are_named_by_their_codes() {
        assert_eq!(
            analyze("Update Italian locale; the English message, not english or Italians")
                .languages,
            [("Italian".to_owned(), "it"), ("English".to_owned(), "en")]
        );
    }

    #[test]
    fn a_new_flag_is_looked_for_as_the_flags_it_varies() {
        assert_eq!(
            flag_relatives("pcre2-version"),
            ["\"pcre2\"", "\"version\""]
        );
        assert_eq!(
            flag_relatives("no-ignore-messages"),
            [
                "\"no-ignore\"",
                "\"ignore-messages\"",
                "\"ignore\"",
                "\"messages\""
            ]
        );
        // Not a flag's name: one word, quoted text, prose.
        assert!(flag_relatives("exec").is_empty());
        assert!(flag_relatives("\"exec\"").is_empty());
        assert!(flag_relatives("SEE ALSO").is_empty());
    }

    #[test]
    fn quoted_text_and_runs_of_capitals_are_literals() {
        let literals = literals(
            "Ensure SEE ALSO has no comma\nthe message read \"Invalid input: expected number\", \
             don't wrap 'Not enough space' or `rg --files`; `z.record`, 'x' and \"src/app.py\" are not",
            false,
        );
        assert_eq!(
            literals,
            [
                "SEE ALSO",
                "Invalid input: expected number",
                "Not enough space",
                "rg --files",
                "\"files\""
            ]
        );
        assert!(super::literals("it's the user's choice", false).is_empty());
        // In a stack trace, the frames' lines are not read; its message is.
        let trace = "Traceback (most recent call last):\n  File \"app.py\", line 3, in run\n    \
                     db.execute(\"SELECT quantity FROM stock\")\nKeyError: 'missing claim'";
        assert_eq!(super::literals(trace, true), ["missing claim"]);
        // An error's message is quoted by the error.
        assert_eq!(
            super::literals(
                "requests.exceptions.InvalidURL: Invalid URL: No host supplied",
                false
            ),
            ["Invalid URL: No host supplied"]
        );
        assert_eq!(
            super::literals("panic: store is closed\n\ngoroutine 1 [running]:", false),
            ["store is closed"]
        );
        assert_eq!(
            super::literals("error[E0308]: mismatched types", false),
            ["mismatched types"]
        );
        // A Rust panic's message is the line below its location.
        assert_eq!(
            super::literals(
                "thread 'main' panicked at src/routing/mod.rs:194:13:\nOverlapping route. Handler for `GET /users/{id}` already exists\nstack backtrace:",
                true
            ),
            [
                "Overlapping route. Handler for `GET /users/{id}` already exists",
                "GET /users/{id}"
            ]
        );
        assert!(super::literals("Note: this is not an error", false).is_empty());
        assert_eq!(
            super::literals(
                "[09:12:44] WARNING app: shop.PayloadError: missing customer",
                false
            ),
            ["missing customer"]
        );
    }

    #[test]
    fn the_standard_librarys_unwrap_message_names_nothing_of_the_repository() {
        let panic = "thread 'main' panicked at src/util/min_max.rs:5:35:\n\
                     called `Option::unwrap()` on a `None` value\n";
        let analysis = analyze(&format!("hyperfine crashed:\n{panic}"));
        assert!(analysis.mentions.is_empty(), "{:?}", analysis.mentions);
        assert!(!analysis.terms.iter().any(|term| term == "unwrap"));
        // The frame above it stays.
        assert_eq!(analysis.frames.len(), 1);
        // A name the task writes elsewhere stays a name.
        let mentions = mentions_of(&format!("`max` returns `None` for no times:\n{panic}"));
        assert_eq!(as_strs(&mentions), [("max", true), ("None", true)]);
        assert!(super::super::trace::is_std_unwrap_message(
            "called `Result::unwrap()` on an `Err` value: Os { code: 2 }"
        ));
    }
}
