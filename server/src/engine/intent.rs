//! Intent detection: which of six kinds of task a query is, by rules over its words and
//! patterns, with a confidence and the signals that decided it.
//!
//! Invariant: deterministic and explainable; a stack trace or error log forces `bug_fix`.

use std::fmt;

use super::trace::TraceFrame;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntentKind {
    BugFix,
    TestWriting,
    Refactor,
    Implementation,
    UsageExploration,
    DefinitionLookup,
}

impl IntentKind {
    pub const ALL: [IntentKind; 6] = [
        IntentKind::BugFix,
        IntentKind::TestWriting,
        IntentKind::Refactor,
        IntentKind::Implementation,
        IntentKind::UsageExploration,
        IntentKind::DefinitionLookup,
    ];

    pub fn name(self) -> &'static str {
        match self {
            IntentKind::BugFix => "bug_fix",
            IntentKind::TestWriting => "test_writing",
            IntentKind::Refactor => "refactor",
            IntentKind::Implementation => "implementation",
            IntentKind::UsageExploration => "usage_exploration",
            IntentKind::DefinitionLookup => "definition_lookup",
        }
    }

    /// Parses a name; accepts `bug_fix`, `bug-fix` and `bugFix`.
    pub fn from_name(name: &str) -> Option<IntentKind> {
        let normalized: String = name
            .chars()
            .filter(|ch| *ch != '_' && *ch != '-')
            .flat_map(char::to_lowercase)
            .collect();
        IntentKind::ALL
            .into_iter()
            .find(|kind| kind.name().replace('_', "") == normalized)
    }

    /// The task changes the targets' own code (a fix, a refactor), rather than writing code
    /// that uses other definitions (an implementation, tests) or reading them (usages, a
    /// definition): the signatures of other files' definitions matter less to it.
    pub fn changes_targets(self) -> bool {
        matches!(self, IntentKind::BugFix | IntentKind::Refactor)
    }

    /// Shares of the budget for definitions / code / callers / tests / imports, in percent.
    pub fn shares(self) -> [u32; 5] {
        match self {
            IntentKind::DefinitionLookup => [50, 30, 0, 10, 10],
            IntentKind::UsageExploration => [20, 10, 65, 0, 5],
            IntentKind::Implementation => [40, 35, 0, 10, 15],
            IntentKind::BugFix => [30, 25, 15, 20, 10],
            IntentKind::Refactor => [25, 20, 30, 15, 10],
            IntentKind::TestWriting => [40, 15, 0, 40, 5],
        }
    }
}

impl fmt::Display for IntentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Intent {
    pub kind: IntentKind,
    pub confidence: f32,
    pub signals: Vec<String>,
}

/// Cue phrases per intent with their weights. A cue at the start of the query (the verb
/// of a commit message or a request) counts double.
const CUES: &[(IntentKind, &str, f32)] = &[
    (IntentKind::BugFix, "fix", 3.0),
    (IntentKind::BugFix, "fixes", 3.0),
    (IntentKind::BugFix, "fixed", 3.0),
    (IntentKind::BugFix, "fixing", 3.0),
    (IntentKind::BugFix, "bugfix", 3.0),
    (IntentKind::BugFix, "bugfixes", 3.0),
    (IntentKind::BugFix, "hotfix", 3.0),
    (IntentKind::BugFix, "do not", 2.0),
    (IntentKind::BugFix, "don't", 1.5),
    (IntentKind::BugFix, "ensure", 1.5),
    (IntentKind::BugFix, "previously", 1.5),
    (IntentKind::BugFix, "bug", 3.0),
    (IntentKind::BugFix, "crash", 3.0),
    (IntentKind::BugFix, "crashes", 3.0),
    (IntentKind::BugFix, "error", 1.5),
    (IntentKind::BugFix, "errors", 1.5),
    (IntentKind::BugFix, "exception", 2.0),
    (IntentKind::BugFix, "fail", 2.0),
    (IntentKind::BugFix, "fails", 2.0),
    (IntentKind::BugFix, "failing", 2.0),
    (IntentKind::BugFix, "failure", 2.0),
    (IntentKind::BugFix, "broken", 2.5),
    (IntentKind::BugFix, "wrong", 2.0),
    (IntentKind::BugFix, "incorrect", 2.0),
    (IntentKind::BugFix, "incorrectly", 2.0),
    (IntentKind::BugFix, "regression", 2.5),
    (IntentKind::BugFix, "panic", 2.5),
    (IntentKind::BugFix, "panics", 2.5),
    (IntentKind::BugFix, "leak", 2.0),
    (IntentKind::BugFix, "hang", 2.0),
    (IntentKind::BugFix, "hangs", 2.0),
    (IntentKind::BugFix, "typo", 2.0),
    (IntentKind::BugFix, "correct", 1.5),
    (IntentKind::BugFix, "prevent", 1.5),
    (IntentKind::BugFix, "avoid", 1.0),
    (IntentKind::BugFix, "issue", 1.0),
    (IntentKind::BugFix, "unexpected", 1.5),
    (IntentKind::BugFix, "doesn't", 1.5),
    (IntentKind::BugFix, "does not", 1.5),
    (IntentKind::BugFix, "didn't", 1.5),
    (IntentKind::BugFix, "did not", 1.5),
    (IntentKind::BugFix, "not working", 2.0),
    (IntentKind::BugFix, "resolve", 1.0),
    (IntentKind::BugFix, "handle", 1.0),
    (IntentKind::BugFix, "still", 2.0),
    (IntentKind::BugFix, "instead of", 1.5),
    (IntentKind::BugFix, "should", 1.0),
    // What the code was meant to do, against what it does (`is supposed to drop the value,
    // but the value stays`).
    (IntentKind::BugFix, "supposed to", 3.0),
    // A user's expectation against what happened (`I expected one log entry per line`).
    (IntentKind::BugFix, "i expected", 3.0),
    (IntentKind::BugFix, "i expect", 2.0),
    (IntentKind::BugFix, "no longer", 2.5),
    (IntentKind::BugFix, "never", 1.0),
    (IntentKind::BugFix, "missing", 1.0),
    // What a user reports losing (`my per-request headers get lost`).
    (IntentKind::BugFix, "lost", 2.0),
    (IntentKind::BugFix, "isn't", 1.5),
    (IntentKind::BugFix, "is not", 1.5),
    (IntentKind::BugFix, "are not", 1.5),
    (IntentKind::BugFix, "aren't", 1.5),
    (IntentKind::BugFix, "was not", 1.5),
    (IntentKind::BugFix, "wasn't", 1.5),
    (IntentKind::BugFix, "were not", 1.5),
    (IntentKind::BugFix, "weren't", 1.5),
    (IntentKind::BugFix, "can't", 1.5),
    (IntentKind::BugFix, "cannot", 1.5),
    (IntentKind::BugFix, "won't", 1.5),
    (IntentKind::BugFix, "will not", 1.5),
    (IntentKind::BugFix, "wrongly", 2.0),
    (IntentKind::BugFix, "invalid", 1.0),
    // A declarative third person reports what the code does wrong (`Json rejects a body
    // with a charset`); the imperative (`reject empty names`) asks for a feature.
    (IntentKind::BugFix, "rejects", 2.0),
    (IntentKind::BugFix, "throws", 1.5),
    (IntentKind::BugFix, "raises", 1.5),
    (IntentKind::BugFix, "ignores", 1.5),
    (IntentKind::BugFix, "drops", 1.5),
    (IntentKind::BugFix, "strips", 1.5),
    (IntentKind::BugFix, "loses", 2.0),
    (IntentKind::BugFix, "leaks", 2.0),
    // What quits working (`watching stops after the file is replaced`); the imperative
    // (`stop the server on SIGTERM`) asks for a feature.
    (IntentKind::BugFix, "stops", 2.0),
    (IntentKind::BugFix, "stopped", 1.5),
    (IntentKind::BugFix, "is ignored", 2.0),
    (IntentKind::BugFix, "are ignored", 2.0),
    // What it does where it should not (`proposes --help even when HideHelp is set`).
    (IntentKind::BugFix, "even when", 1.5),
    (IntentKind::BugFix, "even though", 1.5),
    // What happens once too often, or out of line (`invokes the callback twice when the
    // client aborts`, `misaligns command names`); not a test's `posting a file twice`.
    (IntentKind::BugFix, "twice when", 1.5),
    (IntentKind::BugFix, "called twice", 1.5),
    (IntentKind::BugFix, "mismatch", 2.0),
    (IntentKind::BugFix, "mismatched", 2.0),
    (IntentKind::BugFix, "misaligns", 2.0),
    (IntentKind::BugFix, "misaligned", 2.0),
    (IntentKind::BugFix, "mishandles", 2.0),
    (IntentKind::BugFix, "caused by", 1.5),
    // A value that is nobody's answer (`header() returns undefined for a header set twice`).
    (IntentKind::BugFix, "returns undefined", 2.0),
    (IntentKind::BugFix, "returns null", 2.0),
    (IntentKind::BugFix, "returns nil", 2.0),
    (IntentKind::BugFix, "returns none", 2.0),
    (IntentKind::TestWriting, "test", 2.0),
    (IntentKind::TestWriting, "tests", 2.5),
    (IntentKind::TestWriting, "unit test", 3.0),
    (IntentKind::TestWriting, "unit tests", 3.0),
    (IntentKind::TestWriting, "write tests", 4.0),
    (IntentKind::TestWriting, "add tests", 4.0),
    (IntentKind::TestWriting, "add test", 4.0),
    (IntentKind::TestWriting, "test coverage", 4.0),
    (IntentKind::TestWriting, "coverage", 2.0),
    (IntentKind::TestWriting, "testing", 2.0),
    (IntentKind::TestWriting, "spec", 1.5),
    (IntentKind::TestWriting, "pytest", 3.0),
    (IntentKind::TestWriting, "test case", 3.0),
    (IntentKind::TestWriting, "test cases", 3.0),
    (IntentKind::Refactor, "refactor", 4.0),
    (IntentKind::Refactor, "refactoring", 4.0),
    (IntentKind::Refactor, "rename", 3.0),
    (IntentKind::Refactor, "renamed", 3.0),
    (IntentKind::Refactor, "renames", 3.0),
    (IntentKind::Refactor, "renaming", 3.0),
    (IntentKind::Refactor, "perf", 2.0),
    (IntentKind::Refactor, "performance", 2.0),
    (IntentKind::Refactor, "extract", 2.0),
    (IntentKind::Refactor, "move", 2.0),
    (IntentKind::Refactor, "moved", 2.0),
    (IntentKind::Refactor, "moving", 2.0),
    (IntentKind::Refactor, "clean up", 3.0),
    (IntentKind::Refactor, "cleanup", 3.0),
    (IntentKind::Refactor, "simplify", 3.0),
    (IntentKind::Refactor, "reorganize", 3.0),
    (IntentKind::Refactor, "restructure", 3.0),
    (IntentKind::Refactor, "split", 2.0),
    (IntentKind::Refactor, "deduplicate", 3.0),
    (IntentKind::Refactor, "inline", 2.0),
    (IntentKind::Refactor, "replace", 1.5),
    (IntentKind::Refactor, "remove", 1.5),
    (IntentKind::Refactor, "consolidate", 3.0),
    (IntentKind::Refactor, "tidy", 2.0),
    (IntentKind::Refactor, "convert", 1.5),
    (IntentKind::Refactor, "migrate", 1.5),
    (IntentKind::Refactor, "change", 2.0),
    (IntentKind::Refactor, "generalize", 2.5),
    (IntentKind::Implementation, "add", 2.5),
    (IntentKind::Implementation, "adds", 2.5),
    (IntentKind::Implementation, "added", 2.0),
    (IntentKind::Implementation, "implement", 3.5),
    (IntentKind::Implementation, "implements", 3.0),
    (IntentKind::Implementation, "support", 2.5),
    (IntentKind::Implementation, "create", 2.0),
    (IntentKind::Implementation, "introduce", 2.5),
    (IntentKind::Implementation, "new", 1.5),
    (IntentKind::Implementation, "allow", 2.0),
    (IntentKind::Implementation, "enable", 2.0),
    (IntentKind::Implementation, "feature", 2.0),
    (IntentKind::Implementation, "option", 1.5),
    (IntentKind::Implementation, "build", 1.0),
    (IntentKind::Implementation, "expose", 2.0),
    (IntentKind::Implementation, "extend", 2.0),
    (IntentKind::Implementation, "update", 1.0),
    (IntentKind::Implementation, "improve", 1.0),
    (IntentKind::UsageExploration, "uses of", 4.0),
    (IntentKind::UsageExploration, "who calls", 5.0),
    (IntentKind::UsageExploration, "what calls", 5.0),
    (IntentKind::UsageExploration, "callers", 5.0),
    (IntentKind::UsageExploration, "call sites", 5.0),
    (IntentKind::UsageExploration, "references", 3.0),
    (IntentKind::UsageExploration, "how does", 2.0),
    (IntentKind::UsageExploration, "how do", 2.0),
    (IntentKind::UsageExploration, "depends on", 3.0),
    (IntentKind::UsageExploration, "consumers", 3.0),
    (IntentKind::DefinitionLookup, "defined", 4.0),
    (IntentKind::DefinitionLookup, "definition", 4.0),
    (IntentKind::DefinitionLookup, "declared", 3.0),
    (IntentKind::DefinitionLookup, "what is", 3.0),
    (IntentKind::DefinitionLookup, "what does", 3.0),
    (IntentKind::DefinitionLookup, "show me", 2.5),
    (IntentKind::DefinitionLookup, "explain", 3.0),
    (IntentKind::DefinitionLookup, "how is", 2.5),
    (IntentKind::DefinitionLookup, "how are", 2.5),
    (IntentKind::DefinitionLookup, "what fields", 3.0),
    (IntentKind::DefinitionLookup, "what options", 3.0),
    (IntentKind::DefinitionLookup, "what variants", 3.0),
    (IntentKind::DefinitionLookup, "signature", 3.0),
    (IntentKind::DefinitionLookup, "find", 1.5),
    (IntentKind::DefinitionLookup, "look up", 2.5),
    (IntentKind::DefinitionLookup, "implemented", 2.0),
    (IntentKind::DefinitionLookup, "docs", 1.0),
];

/// Each cue of [`CUES`] as the words it matches, between spaces (words split at apostrophes:
/// `don't` is `don`, `t`, so cues are matched that way), and an automaton finding them all.
struct CueNeedles {
    needles: Vec<String>,
    automaton: aho_corasick::AhoCorasick,
}

impl CueNeedles {
    fn get() -> &'static CueNeedles {
        static NEEDLES: std::sync::LazyLock<CueNeedles> = std::sync::LazyLock::new(|| {
            let needles: Vec<String> = CUES
                .iter()
                .map(|(_, cue, _)| format!(" {} ", cue.replace('\'', " ")))
                .collect();
            let automaton = aho_corasick::AhoCorasick::new(&needles).expect("cue needles");
            CueNeedles { needles, automaton }
        });
        &NEEDLES
    }

    /// Where each cue first occurs in `text` (what `text.find(needle)` gives), in one pass.
    fn first_positions(&self, text: &str) -> Vec<Option<usize>> {
        let mut first: Vec<Option<usize>> = vec![None; self.needles.len()];
        for found in self.automaton.find_overlapping_iter(text) {
            let at = &mut first[found.pattern().as_usize()];
            *at = Some(at.map_or(found.start(), |before| before.min(found.start())));
        }
        first
    }
}

/// Question words that open a query, with the intent they suggest (not doubled as a
/// starting verb is).
const OPENERS: &[(IntentKind, &str, f32)] = &[
    (IntentKind::UsageExploration, "where", 3.0),
    (IntentKind::UsageExploration, "who", 3.0),
    (IntentKind::DefinitionLookup, "what", 2.5),
    (IntentKind::DefinitionLookup, "which", 1.5),
];

/// Words that are cues only in a question, with the intent they suggest and its weight:
/// about usages (as a task, `use X instead of Y` or `call close() on exit` says nothing
/// about usages), and how code works (a task to `make the hook work async` reports that it
/// does not; they outweigh the opening `how does`, a usage cue: `how does the server write
/// to disk`).
const QUESTION_CUES: &[(IntentKind, &[&str], f32)] = &[
    (
        IntentKind::UsageExploration,
        &["call", "calls", "use", "uses", "using", "usage", "usages"],
        2.5,
    ),
    (IntentKind::DefinitionLookup, &["work", "works"], 5.0),
];
/// The weight of a passive usage cue after a question word: `how is X used` asks for its
/// uses, and outweighs the opening `how is` (a look-up cue: `how is X implemented`).
const PASSIVE_USAGE_WEIGHT: f32 = 6.0;
/// Passive forms that ask about usages after a question word (`where is X called`).
const PASSIVE_USAGE_CUES: &[&str] = &["called", "used"];
const USAGE_QUESTION_WORDS: &[&str] = &["where", "how", "who", "which", "what"];
const QUESTION_WORDS: &[&str] = &[
    "where", "which", "who", "what", "how", "does", "do", "is", "are",
];

/// Conventional-commit types (`fix(scope): ...`) and the intent each declares.
const COMMIT_TYPES: &[(&str, IntentKind)] = &[
    ("fix", IntentKind::BugFix),
    ("bugfix", IntentKind::BugFix),
    ("hotfix", IntentKind::BugFix),
    ("feat", IntentKind::Implementation),
    ("feature", IntentKind::Implementation),
    ("refactor", IntentKind::Refactor),
    ("perf", IntentKind::Refactor),
    ("style", IntentKind::Refactor),
    ("chore", IntentKind::Refactor),
    ("test", IntentKind::TestWriting),
    ("tests", IntentKind::TestWriting),
    // The labels of an issue's title (`Feature request: let users pass a handler ...`).
    ("feature request", IntentKind::Implementation),
    ("enhancement", IntentKind::Implementation),
    ("bug", IntentKind::BugFix),
    ("bug report", IntentKind::BugFix),
];

/// The conventional-commit type or issue label a query starts with, if any (`fix(v4)!: ...`
/// -> `fix`, `Feature request: ...`).
fn commit_type(query: &str) -> Option<IntentKind> {
    let head = query.trim_start().split(':').next()?;
    if head.len() > 30 || !query.trim_start()[head.len()..].starts_with(':') {
        return None;
    }
    let kind = head.split('(').next()?.trim_end_matches('!').to_lowercase();
    COMMIT_TYPES
        .iter()
        .find(|(name, _)| *name == kind)
        .map(|(_, intent)| *intent)
}

/// How far after the opening verb a test word makes tests its object (`add a regression
/// test for`, `write more unit tests`).
const MAX_TEST_OBJECT_WORDS: usize = 4;
/// Verbs that, opening a query whose object is tests, ask for tests to be written.
const TEST_VERBS: &[&str] = &[
    "add", "write", "create", "cover", "need", "generate", "extend",
];
const TEST_WORDS: &[&str] = &[
    "test",
    "tests",
    "testing",
    "testcase",
    "testcases",
    "spec",
    "specs",
];

/// Words that make a task a rename.
const RENAME_WORDS: &[&str] = &["rename", "renamed", "renames", "renaming"];

/// Words that say a change reaches past a definition's body (its signature or place; a
/// rename's too, see [`RENAME_WORDS`]), so its callers have to change with it.
const INTERFACE_WORDS: &[&str] = &[
    "signature",
    "argument",
    "arguments",
    "parameter",
    "parameters",
    "param",
    "params",
    "takes",
    "return",
    "returns",
    "caller",
    "callers",
    "everywhere",
    "move",
    "moves",
    "moved",
    "extract",
    "extracts",
    "inline",
    "delete",
    "deletes",
    "deprecate",
];

/// Whether the task changes an interface (renames, signatures, moves), so that the callers
/// of what it changes are part of the change. `words` are the query's lower-cased words.
pub fn changes_interface(words: &[String]) -> bool {
    renames(words)
        || words
            .iter()
            .any(|word| INTERFACE_WORDS.contains(&word.as_str()))
}

/// Whether the task renames something. `words` are the query's lower-cased words.
pub fn renames(words: &[String]) -> bool {
    words
        .iter()
        .any(|word| RENAME_WORDS.contains(&word.as_str()))
}

/// Whether a word is a name in the shape of an HTTP header's (`Content-Type`,
/// `Access-Control-Allow-Origin`): capitalized words joined by hyphens.
fn is_header_name(word: &str) -> bool {
    let word = word.trim_matches(|ch: char| !ch.is_alphanumeric());
    word.contains('-')
        && word.split('-').all(|part| {
            part.chars().next().is_some_and(char::is_uppercase)
                && part.chars().all(char::is_alphanumeric)
        })
}

/// Whether a word of the task is code written without backticks: a qualified name
/// (`$fetch.create`, `Type::new`; see [`super::query::is_qualified_name`]), a call
/// (`create()`) or a `$` name.
fn is_unquoted_code(word: &str) -> bool {
    let word = word
        .trim()
        .trim_start_matches(['(', '"', '\''])
        .trim_end_matches(['.', ',', ';', ':', '!', '?', '"', '\'']);
    word.contains("()")
        || word.starts_with('$')
        || super::query::is_qualified_name(word.trim_end_matches(')'))
}

/// The task with what it writes as code (in backticks, or qualified names and calls) and
/// the header names it mentions blanked out, so that only its prose gives cues: `` Fix
/// `ky.extend` not inheriting its parent and add `ky.create` `` fixes, and so does `the
/// instance from $fetch.create loses my headers`; `Access-Control-Allow-Origin` allows
/// nothing.
/// A lone backtick (an apostrophe typed as one) hides nothing after it.
fn prose_of(query: &str) -> String {
    let mut hidden = vec![false; query.len()];
    let mut hide = |start: usize, end: usize| hidden[start..end].fill(true);
    for (start, span) in super::text::code_spans(query) {
        hide(start, start + span.len());
    }
    let mut at = 0;
    for piece in query.split_inclusive(char::is_whitespace) {
        if is_header_name(piece) || is_unquoted_code(piece) {
            hide(at, at + piece.len());
        }
        at += piece.len();
    }
    query
        .char_indices()
        .map(|(at, ch)| {
            if ch == '`' || (ch != '\n' && hidden[at]) {
                ' '
            } else {
                ch
            }
        })
        .collect()
}

/// Detects the intent of `query`, from its prose (see [`prose_of`]) and any trace frames.
pub fn detect(query: &str, frames: &[TraceFrame]) -> Intent {
    if !frames.is_empty() {
        return Intent {
            kind: IntentKind::BugFix,
            confidence: 0.95,
            signals: vec![format!("stack-trace:{}-frames", frames.len())],
        };
    }
    if super::trace::looks_like_error_log(query) {
        return Intent {
            kind: IntentKind::BugFix,
            confidence: 0.9,
            signals: vec!["error-log".to_owned()],
        };
    }
    let prose = prose_of(query);
    let query = prose.as_str();
    let mut words: Vec<String> = Vec::new();
    super::text::for_each_word(query, |_, word| words.push(word.to_lowercase()));
    let words = words.as_slice();
    let mut votes = Votes::default();
    vote_cues(&mut votes, query, words);
    if let Some(kind) = commit_type(query) {
        votes.add(kind, 8.0, "commit-type".to_owned());
    }
    if let Some(first) = words.first() {
        vote_questions(&mut votes, query, words, first);
        // `Add a regression test for ...`: the tests are what the opening verb makes when
        // they come within its first few words; `Add X and its tests` adds X.
        let asks_for_tests = words
            .iter()
            .skip(1)
            .take(MAX_TEST_OBJECT_WORDS)
            .any(|word| TEST_WORDS.contains(&word.as_str()));
        if asks_for_tests && TEST_VERBS.contains(&first.as_str()) {
            votes.add(IntentKind::TestWriting, 6.0, format!("{first}-tests"));
        }
    }
    votes.decide()
}

/// Each kind's score and the signals that gave it.
#[derive(Default)]
struct Votes {
    scores: [f32; 6],
    signals: [Vec<String>; 6],
    /// The kind the cue opening the task voted for: the instruction, which wins a tie.
    opening: Option<IntentKind>,
}

impl Votes {
    fn add(&mut self, kind: IntentKind, weight: f32, signal: String) {
        self.scores[kind as usize] += weight;
        self.signals[kind as usize].push(signal);
    }

    /// The kind with the highest score (on a tie, the kind the task's opening cue voted
    /// for, else the first of `IntentKind::ALL`), with a confidence from its share of all
    /// scores; implementation, unsure, when nothing voted.
    fn decide(mut self) -> Intent {
        let scores = self.scores;
        let mut best = (0..6)
            .max_by(|a, b| scores[*a].total_cmp(&scores[*b]).then(b.cmp(a)))
            .expect("six kinds");
        if let Some(opening) = self.opening {
            if scores[opening as usize] >= scores[best] {
                best = opening as usize;
            }
        }
        let total: f32 = scores.iter().sum();
        if scores[best] <= 0.0 {
            return Intent {
                kind: IntentKind::Implementation,
                confidence: 0.3,
                signals: vec!["default".to_owned()],
            };
        }
        let confidence = (0.4 + 0.6 * scores[best] / total.max(1e-6)).min(0.95);
        Intent {
            kind: IntentKind::ALL[best],
            confidence: (confidence * 100.0).round() / 100.0,
            signals: std::mem::take(&mut self.signals[best]),
        }
    }
}

/// The cue phrases of [`CUES`] found in the task's words, each weighed double when it opens
/// the task.
/// The weight of a cue found only below the task's first line.
const BODY_CUE_SHARE: f32 = 0.5;

fn vote_cues(votes: &mut Votes, query: &str, words: &[String]) {
    let joined = format!(" {} ", words.join(" "));
    // Multi-word cues also match with stop words left out (`add a test` ~ `add test`).
    let content: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .filter(|word| !matches!(*word, "a" | "an" | "the" | "some" | "more"))
        .collect();
    let joined_content = format!(" {} ", content.join(" "));
    // Each line's words: a test cue past the first line counts only where it asks for tests
    // at the start of a line (`Write tests for ...`), not in a commit message's list of what
    // else changed (`* Test for multipart POST`); a look-up cue only where it opens a line
    // (`Explain how ...`), not in a description (`... if the option is not defined`).
    let lines: Vec<String> = query
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut line_words: Vec<String> = Vec::new();
            super::text::for_each_word(line, |_, word| line_words.push(word.to_lowercase()));
            format!(" {} ", line_words.join(" "))
        })
        .collect();
    let cue_needles = CueNeedles::get();
    let in_joined = cue_needles.first_positions(&joined);
    let in_content = cue_needles.first_positions(&joined_content);
    for (cue_idx, (kind, cue, weight)) in CUES.iter().enumerate() {
        let needle = cue_needles.needles[cue_idx].as_str();
        let Some(position) = in_joined[cue_idx].or(in_content[cue_idx]) else {
            continue;
        };
        // A user telling what they did (`even though I added the header`, `if I add a
        // field`) asks for no feature and no refactor: the report is of what went wrong.
        if matches!(kind, IntentKind::Implementation | IntentKind::Refactor) {
            let text = if in_joined[cue_idx].is_some() {
                &joined
            } else {
                &joined_content
            };
            let before = text[..position].trim_end().rsplit(' ').next().unwrap_or("");
            if matches!(before, "i" | "we") {
                continue;
            }
        }
        let at_start = position == 0;
        let in_title = lines.first().is_some_and(|line| line.contains(needle));
        if matches!(kind, IntentKind::TestWriting | IntentKind::DefinitionLookup) && !at_start {
            let asks = *kind == IntentKind::DefinitionLookup
                || cue
                    .split(' ')
                    .next()
                    .is_some_and(|verb| TEST_VERBS.contains(&verb));
            let opens_a_line = asks && lines.iter().skip(1).any(|line| line.starts_with(needle));
            if !in_title && !opens_a_line {
                continue;
            }
        }
        // Tests mentioned in passing (`..., and add tests`) do not make a test-writing task.
        let weight = match (at_start, *kind == IntentKind::TestWriting) {
            (true, _) => weight * 2.0,
            (false, true) => weight * 0.5,
            (false, false) => *weight,
        };
        // The first line states the task; the lines below explain it (or list what else a
        // commit did), so their cues count for less.
        let weight = if at_start || in_title {
            weight
        } else {
            weight * BODY_CUE_SHARE
        };
        let signal = if at_start {
            votes.opening.get_or_insert(*kind);
            format!("starts-with:{cue}")
        } else {
            format!("word:{cue}")
        };
        votes.add(*kind, weight, signal);
    }
}

/// Questions: an opening question word ([`OPENERS`]), and the words that make a question
/// about usages (`where is X called`, `how is Y used`, `what calls Z?`).
fn vote_questions(votes: &mut Votes, query: &str, words: &[String], first: &str) {
    for (kind, opener, weight) in OPENERS {
        if first == *opener {
            votes.opening.get_or_insert(*kind);
            votes.add(*kind, *weight, format!("question:{opener}"));
        }
    }
    // `where is X called`, `how is Y used`: a usage question; `fails when X is called`
    // describes when something happens.
    for cue in PASSIVE_USAGE_CUES {
        let asked = words.iter().position(|word| word == cue).is_some_and(|at| {
            words[..at]
                .iter()
                .any(|word| USAGE_QUESTION_WORDS.contains(&word.as_str()))
        });
        if asked {
            votes.add(
                IntentKind::UsageExploration,
                PASSIVE_USAGE_WEIGHT,
                format!("question-word:{cue}"),
            );
        }
    }
    // A task opening with a question word is a question; one ending with `?` asks only its
    // last sentence (`... works fine on Linux. Can we allow negative timestamps?` reports,
    // then asks for a change).
    let asked: Vec<String> = if QUESTION_WORDS.contains(&first) {
        words.iter().skip(1).cloned().collect()
    } else if let Some(body) = query.trim_end().strip_suffix('?') {
        let start = body.rfind(['.', '!', '?', '\n']).map_or(0, |at| at + 1);
        body[start..]
            .split(|ch: char| !ch.is_alphanumeric() && ch != '_')
            .filter(|word| !word.is_empty())
            .map(str::to_lowercase)
            .collect()
    } else {
        Vec::new()
    };
    for (kind, cues, weight) in QUESTION_CUES {
        for cue in *cues {
            if asked.iter().any(|word| word == cue) {
                votes.add(*kind, *weight, format!("question-word:{cue}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cues_are_found_where_a_search_for_each_finds_them() {
        let needles = CueNeedles::get();
        for text in [
            " fix the bug and add a test for the retry policy ",
            " where is it used where is it called how does it work ",
            " rename rename to to refactor clean up cleanup ",
            " ",
        ] {
            let expected: Vec<Option<usize>> = needles
                .needles
                .iter()
                .map(|needle| text.find(needle.as_str()))
                .collect();
            assert_eq!(needles.first_positions(text), expected, "{text:?}");
        }
    }

    fn kind_of(query: &str) -> IntentKind {
        detect(query, &[]).kind
    }

    #[test]
    fn intents_follow_the_cue_words() {
        assert_eq!(
            kind_of("fix the crash in DatabaseClient.connect when the URL is empty"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("write tests for the retry policy"),
            IntentKind::TestWriting
        );
        assert_eq!(
            kind_of("refactor the pricing module into smaller functions"),
            IntentKind::Refactor
        );
        assert_eq!(
            kind_of("add support for gzip compression in the server"),
            IntentKind::Implementation
        );
        assert_eq!(
            kind_of("who calls place_order"),
            IntentKind::UsageExploration
        );
        assert_eq!(
            kind_of("where is OrderService defined"),
            IntentKind::DefinitionLookup
        );
        assert_eq!(kind_of("the cart"), IntentKind::Implementation);
        assert_eq!(
            kind_of("[bugfix] change how the method subrouter matches handlers"),
            IntentKind::BugFix
        );
        // A test listed among a commit's changes does not make it test writing.
        assert_eq!(
            kind_of("Always rewind files on uploads\n\n* Test for posting a file twice\n* Lint"),
            IntentKind::Implementation
        );
        assert_eq!(
            kind_of("The retry policy has no coverage.\nWrite tests for RetryPolicy.delay"),
            IntentKind::TestWriting
        );
        // Tests are what the opening verb makes only when they are its object.
        assert_eq!(
            kind_of("Add a regression test for the empty URL in connect"),
            IntentKind::TestWriting
        );
        assert_eq!(
            kind_of("Add prevent moving into itself and its tests"),
            IntentKind::Implementation
        );
        assert_eq!(
            kind_of(
                "Add support of pointers in form binding\n\n* Add tests for pointer form binding"
            ),
            IntentKind::Implementation
        );
        assert_eq!(
            kind_of("Remove the credentials option\n\nfetch uses it if the option is not defined"),
            IntentKind::Refactor
        );
        // Cues with an apostrophe match words split at it.
        assert_eq!(
            kind_of("Don't use pyOpenSSL unless no SNI is detected"),
            IntentKind::BugFix
        );
        // Their spelled-out forms too.
        assert_eq!(
            kind_of("retry does not respect the Retry-After header when it is a date"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("the config parser cannot read a file with a BOM"),
            IntentKind::BugFix
        );
        // A declarative third person reports a fault; the imperative asks for a feature.
        assert_eq!(
            kind_of("Json extractor rejects a body with charset in the content type"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("parse_duration throws on an empty string"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("watching stops after the deploy writes a new config file"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("a field declared with attribute= is supposed to drop the value, but it stays"),
            IntentKind::BugFix
        );
        // A user telling what they did, and what they expected, reports a fault.
        assert_eq!(
            kind_of("my preflight gets a 400 even though I added the header to allow_headers"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("lines longer than 64KB come out chopped; I expected one entry per line"),
            IntentKind::BugFix
        );
        // Not so when asked for.
        assert_eq!(
            kind_of("add the header to allow_headers"),
            IntentKind::Implementation
        );
        // An issue's label decides, whatever its text reports.
        assert_eq!(
            kind_of("Feature request: call a custom handler instead of writing the fixed 429 text"),
            IntentKind::Implementation
        );
        assert_eq!(
            kind_of("Bug report: the throttle adds a new header"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("c.req.header() returns undefined for a header set twice"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("the form field clean method raises for empty values"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("the session middleware drops cookies set by the handler"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("the decompress option is ignored for zstd responses"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("the suggestion proposes --help even when HideHelp is set"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("cookies set by a 302 response are not sent on the next request"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("res.sendFile invokes the callback twice when the client aborts"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("the usage output misaligns command names with multibyte characters"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("reject names longer than 64 characters in the form"),
            IntentKind::Implementation
        );
        assert_eq!(
            kind_of("strip trailing slashes from mounted paths"),
            IntentKind::Implementation
        );
        assert_eq!(
            kind_of("where is MemStore::new called"),
            IntentKind::UsageExploration
        );
        assert_eq!(
            kind_of("which modules is the retry policy used in"),
            IntentKind::UsageExploration
        );
        // What a task writes as code gives no cues: `create` and `extend` are names here.
        assert_eq!(
            kind_of("Fix `Client.extend` not inheriting its parent and add `Client.create`"),
            IntentKind::BugFix
        );
        // `work` asks how code works only in a question.
        assert_eq!(
            kind_of("does the retry policy work across processes?"),
            IntentKind::DefinitionLookup
        );
        assert_eq!(
            kind_of("How does the from_fn middleware work?"),
            IntentKind::DefinitionLookup
        );
        assert_eq!(
            kind_of("how is get_route_path used"),
            IntentKind::UsageExploration
        );
        assert_eq!(
            kind_of("how is formatMoney implemented"),
            IntentKind::DefinitionLookup
        );
        assert_ne!(
            kind_of("Make the `beforeSend` hook work async"),
            IntentKind::DefinitionLookup
        );
        assert_eq!(
            kind_of("cors sends Access-Control-Allow-Origin: * even when credentials are on"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("Moved the json import out of the try block"),
            IntentKind::Refactor
        );
        assert_eq!(
            kind_of("More renaming, to keep consistent with the Flags API"),
            IntentKind::Refactor
        );
        assert_eq!(
            kind_of("the handler runs twice, which is caused by registering the logger twice"),
            IntentKind::BugFix
        );
        // A passive that says when something happens is not a usage question.
        assert_ne!(
            kind_of("Restore the original app when out is called"),
            IntentKind::UsageExploration
        );
    }

    #[test]
    fn the_first_line_states_the_task_and_the_lines_below_explain_it() {
        let query = "Add getOptionValue and setOptionValue\n\n\
            * Simplify typings by removing the default export\n\n\
            * Change any to unknown";
        assert_eq!(kind_of(query), IntentKind::Implementation);
        // The same cues in the title decide it.
        assert_eq!(
            kind_of("Simplify typings and change any to unknown"),
            IntentKind::Refactor
        );
    }

    #[test]
    fn the_opening_instruction_wins_a_tie_and_a_question_is_its_last_sentence() {
        // `Add` votes as much as the fault words describing the wanted behaviour.
        assert_eq!(
            kind_of("Add a Slug field: it strips whitespace on load and should raise its own invalid error like Email does"),
            IntentKind::Implementation
        );
        assert_eq!(
            kind_of("who creates and stops the Ticker?"),
            IntentKind::UsageExploration
        );
        // `works` asks how code works only inside the question.
        assert_eq!(
            kind_of("DateTime rejects dates before 1970. datetime.fromtimestamp works fine on Linux. Can we allow negative timestamps?"),
            IntentKind::BugFix
        );
        assert_eq!(
            kind_of("The flag parser: how does it work with repeated flags?"),
            IntentKind::DefinitionLookup
        );
    }

    #[test]
    fn prose_is_the_task_without_its_code() {
        assert_eq!(prose_of("fix `a.add` now"), "fix         now");
        assert_eq!(prose_of("```\nadd()\n```\nfix"), "   \n     \n   \nfix");
        // A lone backtick hides nothing.
        assert_eq!(prose_of("don`t add"), "don t add");
        assert_eq!(prose_of("`a` and `b"), "    and  b");
        assert_eq!(prose_of("sets Cache-Control: no"), "sets                no");
        // Code without backticks: a qualified name, a call, a `$` name.
        let words = |query: &str| {
            prose_of(query)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(
            words("the instance from $fetch.create, lost"),
            "the instance from lost"
        );
        assert_eq!(words("add() fails"), "fails");
        assert_eq!(words("Type::new fails."), "fails.");
        assert_eq!(words("version 1.2 fails."), "version 1.2 fails.");
        assert_eq!(
            kind_of("When the instance from $fetch.create also has default headers, my per-request headers get lost"),
            IntentKind::BugFix
        );
        assert_eq!(prose_of("a well-known bug"), "a well-known bug");
    }

    #[test]
    fn interface_changes_are_told_from_local_ones() {
        let words = |query: &str| -> Vec<String> {
            query
                .split_whitespace()
                .map(|word| {
                    word.trim_matches(|ch: char| !ch.is_alphanumeric())
                        .to_lowercase()
                })
                .collect()
        };
        assert!(changes_interface(&words(
            "rename formatPrice to formatAmount everywhere"
        )));
        assert!(changes_interface(&words(
            "change Store::get to return Result instead of an Option"
        )));
        assert!(!changes_interface(&words(
            "Remove the trailing white space in the short option"
        )));
    }

    #[test]
    fn intent_names_parse_in_every_casing() {
        assert_eq!(IntentKind::from_name("bug_fix"), Some(IntentKind::BugFix));
        assert_eq!(IntentKind::from_name("bugFix"), Some(IntentKind::BugFix));
        assert_eq!(
            IntentKind::from_name("usage-exploration"),
            Some(IntentKind::UsageExploration)
        );
        assert_eq!(IntentKind::from_name("nonsense"), None);
    }
}
