//! Candidate generation and ranking: trace frames, explicit identifiers, natural-language
//! name candidates and BM25 lists fused by weighted reciprocal rank, then adjusted for
//! tests, the import-graph neighbourhood and the user's active and pinned files.
//!
//! Invariant: deterministic (every sort has a total tie-break); every score carries the
//! reasons that made it.

use super::intent::{renames, IntentKind};
use super::items::def_lines;
use super::query::{compound_candidates, flag_relatives, last_segment, name_forms, QueryAnalysis};
use super::search::SearchIndex;
use super::text::{
    agent_nouns, for_each_path_word, for_each_word, identifier_terms, normalize_name, stem, term,
};
use crate::base::{FileId, FxHashMap, FxHashSet, TextRange};
use crate::index::{file_stem, module_name, DefId, FileData, FilePosition, Index, MatchTier};
use crate::languages::DefKind;

/// Reciprocal-rank-fusion constant: small, so the head of each list dominates.
const RRF_K: f32 = 5.0;
/// An exception a trace reports is looked up when at most this many types have its name.
const MAX_THROWN_TYPES: usize = 2;
const W_TRACE: f32 = 4.0;
const W_MENTION: f32 = 3.0;
const W_MENTION_FUZZY: f32 = 1.0;
const W_USED_MENTION: f32 = 1.5;
const W_USAGE: f32 = 2.0;
/// An identifier used in more files than this says little about where the task is.
const MAX_USAGE_FILES: usize = 20;
const W_PATH: f32 = 2.0;
const W_COMPOUND: f32 = 2.0;
const W_WORD_NAME: f32 = 1.2;
const W_BM25_DEF: f32 = 1.5;
const W_BM25_FILE: f32 = 2.0;
/// The share of a file's BM25 contribution to its definitions that follows the file's score
/// relative to the best file's (the rest follows its rank).
const FILE_SCORE_SHARE: f32 = 0.5;
const W_PATH_WORDS: f32 = 1.5;
const TEST_PENALTY: f32 = 0.35;
/// A task about tests is about the code they test first: the tests that exist come as its
/// tests (`test-of:`), so test code ranks a little below the code it tests
/// (`write tests for slugify` is about `slugify`, then `test_slugify.py`).
const WRITING_TEST_PENALTY: f32 = 0.6;
/// Examples, benchmarks, docs and vendored code (see `base::auxiliary_kind`) rank below the
/// project's own code unless the task names them.
const AUXILIARY_PENALTY: f32 = 0.5;
/// Query words (stemmed) that ask for auxiliary code, each with the kind it asks for (see
/// `auxiliary_kind`): `vendored` lifts the penalty of vendored code, not of the docs.
const AUXILIARY_WORDS: &[(&str, &str)] = &[
    ("example", "example"),
    ("sample", "sample"),
    ("demo", "demo"),
    ("sandbox", "demo"),
    ("playground", "demo"),
    ("bench", "bench"),
    ("benchmark", "bench"),
    ("doc", "doc"),
    ("documentation", "doc"),
    ("website", "doc"),
    ("vendor", "vendor"),
];
/// Files that only declare types (see `declares_types_only`) rank below code that runs when
/// the task changes behaviour, unless the query asks about types.
const DECLARATIONS_PENALTY: f32 = 0.6;
/// Query words that ask about declarations.
const DECLARATION_WORDS: &[&str] = &[
    "type",
    "types",
    "typing",
    "typings",
    "interface",
    "interfaces",
    "declaration",
    "declarations",
    "dts",
    "typescript",
    "namespace",
    "namespaces",
];
/// Files outside the directories and files a commit-style scope names (see
/// `QueryAnalysis::scope_words`) rank below those inside.
const OUT_OF_SCOPE_PENALTY: f32 = 0.7;
const NEIGHBOUR_BOOST: f32 = 1.15;
/// Quoted text found verbatim in the code (a message, a heading).
const W_LITERAL: f32 = 2.0;
/// A literal found in more files than this names none of them.
const MAX_LITERAL_FILES: usize = 4;
/// Files checked for a literal at most (those holding all of its words).
const MAX_LITERAL_CANDIDATES: usize = 100;
/// Places in one file a quote's start is checked at.
const MAX_LITERAL_OCCURRENCES: usize = 16;
/// Bytes of file text a task's literals may scan in all: a bound on the search's time
/// (about a millisecond) whatever the task quotes and the repository holds.
const MAX_LITERAL_SCAN_BYTES: usize = 2 << 20;
/// A constant longer than this many lines that holds a quote is documentation.
const MAX_LITERAL_CONSTANT_LINES: u32 = 20;
/// A mirrored copy of a file (see `SearchIndex::mirror_of`) ranks well below the copy that
/// stands for it: the two would match equally, and the second adds nothing.
const MIRROR_PENALTY: f32 = 0.3;
const ACTIVE_FILE_BOOST: f32 = 1.3;
const MAX_PER_NAME: usize = 8;
/// A capitalized word opening a sentence counts when this many types at most have its name.
const MAX_OPENING_TYPES: usize = 2;
/// A file's score adds up its best candidates' own evidence with these weights: a file where
/// several definitions match the task is a likelier target than one with a single match.
const FILE_EVIDENCE_WEIGHTS: [f32; 3] = [1.0, 0.7, 0.4];
/// How many of the task's words on either side of a word may name its container, in a
/// window of twice as many and the word (see `members_of_named_containers`).
const CONTAINER_WORDS_REACH: usize = 2;
/// Words found in more than this share of files are too common to name a target.
const COMMON_WORD_FILE_SHARE: f32 = 0.25;

#[derive(Clone, Debug)]
pub struct Ranked {
    pub def: DefId,
    pub score: f32,
    pub reasons: Vec<String>,
    /// Named by the query, a trace frame or a path: certainly relevant.
    pub direct: bool,
    /// Pointed at by a trace frame or a path: the task shows where it is.
    pub located: bool,
    /// Found through what the task names (`direct`, or a name, words that are names, a
    /// literal, a use of a name) or in the file at the cursor, not by BM25 alone.
    pub named: bool,
    /// The part of `score` that comes from the definition's file (its BM25 and path words).
    pub from_file: f32,
    /// What the evidence marks it as, for expansion to act on.
    pub marks: Marks,
}

/// What a ranked definition's evidence marks it as (read from its reasons where rank
/// writes them, so that no later stage parses reason strings).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The one definition of a name the task writes as code.
    pub unique_name: bool,
    /// Ranked as the qualifier of a named member (`ZodObject` in `ZodObject.strict`).
    pub qualifier: bool,
    /// The exception class a pasted trace ends with.
    pub thrown: bool,
    /// The line (1-based) a pasted trace's frame points at inside it.
    pub frame_line: Option<u32>,
    /// Holds text the task quotes (a message of a pasted log or panic), found verbatim.
    pub literal: bool,
}

const REASON_EXACT_NAME: &str = "exact-name";
const REASON_QUALIFIER: &str = "container-of:";
const REASON_THROWN: &str = "thrown:";
const REASON_FRAME: &str = "traceback-frame:";
const REASON_LITERAL: &str = "literal:";
const REASON_USES: &str = "uses:";

impl Ranked {
    /// The last parts of the names the task writes whose uses found this definition
    /// (`uses:meta.items` -> `items`).
    pub fn used_names(&self) -> impl Iterator<Item = &str> {
        self.reasons.iter().filter_map(|reason| {
            let used = reason.strip_prefix(REASON_USES)?;
            used.rsplit(['.', ':']).next()
        })
    }
}

impl Marks {
    pub fn of(reasons: &[String]) -> Marks {
        let mut marks = Marks::default();
        for reason in reasons {
            if reason == REASON_EXACT_NAME {
                marks.unique_name = true;
            } else if reason.starts_with(REASON_QUALIFIER) {
                marks.qualifier = true;
            } else if reason.starts_with(REASON_THROWN) {
                marks.thrown = true;
            } else if reason.starts_with(REASON_LITERAL) {
                marks.literal = true;
            } else if let Some(at) = reason.strip_prefix(REASON_FRAME) {
                // `traceback-frame:PATH:LINE`, the first frame into it.
                if marks.frame_line.is_none() {
                    marks.frame_line = at
                        .rsplit_once(':')
                        .and_then(|(_, line)| line.parse::<u32>().ok());
                }
            }
        }
        marks
    }
}

#[derive(Clone, Debug)]
pub struct RankedFile {
    pub file: FileId,
    pub score: f32,
    pub reasons: Vec<String>,
}

/// A file's score as it is added up from its definitions and its own matches.
#[derive(Default)]
struct FileTally {
    score: f32,
    reasons: Vec<String>,
    /// How many ranked definitions the file holds.
    n_defs: usize,
    /// The largest file-level part of any of its definitions' scores.
    from_file: f32,
}

pub struct Ranking {
    pub defs: Vec<Ranked>,
    pub files: Vec<RankedFile>,
}

/// How the definitions of a fused list were found, weakest first.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
enum Found {
    /// By BM25 over the definitions' words.
    #[default]
    ByWords,
    /// Through what the task writes: names, words that are names, literals, uses of names.
    ByName,
    /// Named by the task for certain: a name written as code.
    Directly,
    /// Pointed at by the task: a trace frame, a path.
    Located,
}

/// A definition's fused evidence: its score, reasons, and the strongest way it was found.
#[derive(Default)]
struct Fused {
    score: f32,
    reasons: Vec<String>,
    found: Found,
}

#[derive(Default)]
struct Fusion {
    scores: FxHashMap<DefId, Fused>,
}

impl Fusion {
    fn add_list(&mut self, weight: f32, list: &[(DefId, String)], found: Found) {
        for (rank, (def, reason)) in list.iter().enumerate() {
            let entry = self.scores.entry(*def).or_default();
            entry.score += weight / (RRF_K + rank as f32 + 1.0);
            if entry.reasons.len() < 6 && !entry.reasons.contains(reason) {
                entry.reasons.push(reason.clone());
            }
            entry.found = entry.found.max(found);
        }
    }
}

pub struct RankInput<'a> {
    pub index: &'a Index,
    pub search: &'a SearchIndex,
    pub analysis: &'a QueryAnalysis,
    pub intent: IntentKind,
    pub active_file: Option<FileId>,
    pub active_offset: Option<u32>,
    pub pinned: &'a [FileId],
}

/// Orders definitions of one name: non-test, exported, not a field, not a trait's `impl`,
/// shorter paths first.
fn order_same_name(index: &Index, defs: &mut [DefId]) {
    defs.sort_by_cached_key(|def_id| {
        let def = index.def(*def_id);
        let path = index
            .file(def_id.file)
            .map(|data| data.path.clone())
            .unwrap_or_default();
        (
            index.is_test_def(*def_id),
            def.is_some_and(|d| !d.exported),
            def.is_some_and(|d| d.kind == DefKind::Field),
            // A trait's `impl` for a type says how it fits another interface; the type's own
            // definition and methods come first.
            def.is_some_and(|d| d.kind == DefKind::Impl && !d.bases.is_empty()),
            path.len(),
            path,
            def_id.idx,
        )
    });
}

/// At most this many names written as code are looked for as module names.
const MAX_MODULE_MENTIONS: usize = 4;
/// A file the task names (a path, a module) stands for this many of its top-level definitions.
const MAX_MENTIONED_FILE_DEFS: usize = 6;
/// More translation files than this for the languages a task names (every package of a
/// monorepo has its own): they do not say which is meant.
const MAX_TRANSLATION_FILES: usize = 4;
/// Directories that hold translations.
const TRANSLATION_DIRS: &[&str] = &[
    "i18n",
    "l10n",
    "lang",
    "langs",
    "language",
    "languages",
    "locale",
    "locales",
    "translation",
    "translations",
];

/// Receivers too generic to abbreviate a module.
const GENERIC_RECEIVERS: &[&str] = &["self", "this", "cls", "super", "obj", "val", "value"];

/// How a qualifier of three or more letters abbreviates a module name, ignoring case: 1 when
/// it starts it (`res` -> `response`, `app` -> `application`), 2 when its letters appear
/// in order from the first (`ctx` -> `context`), 3 when not at all.
fn abbreviation(qualifier: &str, module: &str) -> u8 {
    let qualifier = qualifier.to_ascii_lowercase();
    let module = module.trim_start_matches('_').to_ascii_lowercase();
    if qualifier.len() < 3
        || qualifier.len() >= module.len()
        || GENERIC_RECEIVERS.contains(&qualifier.as_str())
    {
        return 3;
    }
    if module.starts_with(&qualifier) {
        return 1;
    }
    let mut letters = module.chars();
    let in_order = qualifier.chars().all(|ch| letters.any(|other| other == ch));
    if in_order && qualifier.chars().next() == module.chars().next() {
        2
    } else {
        3
    }
}

/// Translation files of languages other than the ones a task names keep this share of
/// their score: a task about the Italian messages is not about the other forty.
const OTHER_LANGUAGE_PENALTY: f32 = 0.5;

/// The language code a translation file is named by (`it` for `locales/it.ts`, `zh` for
/// `i18n/zh-CN.ts`, `pt` for `Locale/pt_BR.py`): a stem of two or three lower-case letters,
/// alone or with a region (`-CN`, `_BR`, `-Hant-TW`, `-419`), in a translations directory.
fn translation_code(path: &str) -> Option<&str> {
    let (dirs, name) = path.rsplit_once('/')?;
    let stem = name.split_once('.').map_or(name, |(stem, _)| stem);
    let (code, region) = match stem.find(['-', '_']) {
        Some(at) => (&stem[..at], Some(&stem[at + 1..])),
        None => (stem, None),
    };
    let is_code = (2..=3).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_lowercase());
    let is_region = region.is_none_or(|region| {
        (2..=10).contains(&region.len())
            && region
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    });
    let in_translations = dirs
        .split('/')
        .any(|dir| TRANSLATION_DIRS.contains(&dir.to_ascii_lowercase().as_str()));
    (is_code && is_region && in_translations).then_some(code)
}

/// Whether `path` is the translation file of the language `code` (see [`translation_code`]).
fn is_translation_file(path: &str, code: &str) -> bool {
    translation_code(path) == Some(code)
}

/// A directory of a package manager's cache without its version: Cargo's `axum-0.8.4`
/// and Go's `viper@v1.18.2` are the repository's `axum` and `viper`.
fn unversioned(component: &str) -> &str {
    if let Some((name, version)) = component.split_once('@') {
        if version.starts_with(|ch: char| ch == 'v' || ch.is_ascii_digit()) {
            return name;
        }
    }
    match component.rsplit_once('-') {
        Some((name, version)) if !name.is_empty() => match version.split_once('.') {
            Some((major, _)) if !major.is_empty() && major.bytes().all(|b| b.is_ascii_digit()) => {
                name
            }
            _ => component,
        },
        _ => component,
    }
}

/// Files whose path ends with `path` (component-wise, a package cache's versioned directory
/// matching the unversioned one: see [`unversioned`]), best (longest match) first.
pub fn files_matching_path(index: &Index, path: &str) -> Vec<FileId> {
    let wanted: Vec<&str> = path
        .trim_start_matches("./")
        .split(['/', '\\'])
        .filter(|s| !s.is_empty())
        .collect();
    let Some(file_name) = wanted.last() else {
        return Vec::new();
    };
    // The file name must match, plus as much of the directory as the path gives.
    let mut best: Vec<(usize, FileId)> = Vec::new();
    for file in index.files_with_stem(file_stem(file_name)) {
        let Some(data) = index.file(*file) else {
            continue;
        };
        let n_common = wanted
            .iter()
            .rev()
            .zip(data.path.split('/').rev())
            .take_while(|(a, b)| **a == *b || unversioned(a) == *b)
            .count();
        if n_common > 0 {
            best.push((n_common, *file));
        }
    }
    let Some(max_common) = best.iter().map(|(n, _)| *n).max() else {
        return Vec::new();
    };
    let mut res: Vec<FileId> = best
        .into_iter()
        .filter(|(n, _)| *n == max_common)
        .map(|(_, file)| file)
        .collect();
    res.sort_by_key(|file| index.file(*file).map(|data| data.path.clone()));
    res
}

/// Named identifiers that no file of the repository defines (a library's API:
/// `Reflect.ownKeys`, `os.environ`), that the query names as a tool of the change (`raise
/// InvalidURL`), or that the repository defines only as fields (`options.credentials`: the
/// behaviour is in the code reading it, not in the declaration; not with a pasted trace,
/// whose code lines name fields all along the call chain): the definitions that use them,
/// innermost first, uses on the named receiver (`Reflect` of `Reflect.ownKeys`) before other
/// uses, then by path.
fn external_usages(index: &Index, analysis: &QueryAnalysis) -> Vec<(DefId, String)> {
    let mut list = Vec::new();
    let mut seen: FxHashSet<DefId> = FxHashSet::default();
    let only_fields = |defs: &[DefId]| {
        defs.iter()
            .all(|def| index.def(*def).is_some_and(|d| d.kind == DefKind::Field))
    };
    let fields_too = analysis.frames.is_empty();
    // What the change replaces first: the code using it now is where the change goes
    // (`use file_stem instead of file_name`: the code using `file_name`).
    let mut mentions: Vec<&super::query::Mention> = analysis.mentions.iter().collect();
    mentions.sort_by_key(|mention| !mention.replaced);
    for mention in mentions {
        let last = mention.segments.last().expect("mentions have segments");
        if last.chars().count() < 3 {
            continue;
        }
        let exact = index.defs_named(last);
        let ignoring_case;
        let defined = match exact {
            [] => {
                ignoring_case = index.defs_named_ignore_case(last);
                ignoring_case.as_slice()
            }
            exact => exact,
        };
        // A word of prose that may be a name (`None` in `returns None`) is not written as
        // code: what it may name is not the repository's to look up. A name written as code
        // that only another casing defines (`recomputeInvalidatedAtoms`, a value of the
        // type `RecomputeInvalidatedAtoms`) is used as written where the code uses it.
        let usable = (exact.is_empty() && mention.certain)
            || mention.used
            || (fields_too && mention.certain && only_fields(defined));
        if !usable {
            continue;
        }
        let files = index.files_referencing(last);
        if files.is_empty() || files.len() > MAX_USAGE_FILES {
            continue;
        }
        let qualifier = mention
            .segments
            .len()
            .checked_sub(2)
            .map(|idx| mention.segments[idx].as_str());
        let mut sites: Vec<(bool, &str, u32, DefId)> = Vec::new();
        for (file, data, reference) in index.references_named(files, last) {
            // A qualified name is a member: a bare use of its last part (a parameter or a
            // variable of that name: `name` for `state.user.name`) is something else.
            if qualifier.is_some() && reference.receiver.is_none() {
                continue;
            }
            let Some(&def) = index.enclosing_defs(file, reference.range.start).first() else {
                continue;
            };
            let on_receiver = qualifier.is_some_and(|qualifier| {
                reference.receiver.is_some_and(|receiver| {
                    data.text
                        .get(receiver.as_usize())
                        .is_some_and(|text| text.rsplit('.').next() == Some(qualifier))
                })
            });
            sites.push((!on_receiver, &data.path, reference.range.start, def));
        }
        // A qualified name none of whose uses is on its receiver (`meta.items` where the
        // code calls `.items()` on everything but `meta`) is not what those uses use.
        if qualifier.is_some() && !sites.iter().any(|(elsewhere, ..)| !elsewhere) {
            continue;
        }
        sites.sort();
        for (_, _, _, def) in sites {
            if seen.insert(def) {
                list.push((def, format!("{REASON_USES}{}", mention.text)));
            }
            if list.len() >= MAX_PER_NAME * 2 {
                return list;
            }
        }
    }
    list
}

/// Code lines at most of an accessor: a method reading or setting the field of its name.
const MAX_ACCESSOR_LINES: u32 = 6;
const MAX_ACCESSORS: usize = 4;
/// Each reader of a field a task configures through its accessor, as one list of its own.
const W_READS: f32 = 3.0;
/// A configured accessor whose field has readers keeps this share of its score: the
/// behaviour is in the readers.
const ACCESSOR_SHARE: f32 = 0.6;
/// A definition reading this many members of one receiver or more prints or copies them
/// all (a `Debug` impl, a `__repr__`): it is not where one of them matters.
const MIN_DUMP_MEMBERS: usize = 6;
/// Fields read in more places than this are read everywhere: where one is read says
/// nothing of where a behaviour is.
const MAX_READERS: usize = 8;

/// The field a short method named `def` reads or sets on a receiver (`self.opts.contents_first
/// = yes` in the builder method `contents_first`): the method is an accessor, and the
/// field's definition, where the index resolves it.
fn accessed_field(index: &Index, def: DefId) -> Option<Option<DefId>> {
    let data = index.file(def.file)?;
    let def_data = index.def(def)?;
    if !def_data.kind.is_callable() || (def_data.container.is_none() && def_data.parent.is_none()) {
        return None;
    }
    // From its name: a doc comment above it does not count.
    let first = data.line_index.line_col(def_data.name_range.start).line;
    let (_, last) = data.line_index.lines(def_data.range);
    if last.saturating_sub(first) > MAX_ACCESSOR_LINES + 1 {
        return None;
    }
    let own = data.refs_named(&def_data.name).find(|reference| {
        !reference.call
            && reference.receiver.is_some()
            && def_data.range.contains_range(reference.range)
    })?;
    let field = index
        .goto_definition_within(
            FilePosition {
                file: def.file,
                offset: own.range.start,
            },
            1,
        )
        .first()
        .map(|target| target.def)
        .filter(|field| *field != def);
    Some(field)
}

/// The code reading the fields that the accessors a task calls with literal arguments set
/// (`With contents_first(true) combined with min_depth(1), ...`: the builder stores
/// `self.opts.contents_first`, the iterator's `handle_entry` reads it), and those accessors:
/// the task says how it configured what it reports, and nothing happens in an accessor; the
/// behaviour is where the field is read. Not other accessors, nor code reading every member
/// of its receiver (a `Debug` impl), nor a member of that name of another type (the demo's
/// `args.min_depth`); none when a field is read in more than [`MAX_READERS`] places; the
/// readers in an accessor's file first, then those reading the most of the fields.
fn accessor_readers(
    index: &Index,
    analysis: &QueryAnalysis,
    exact: &Candidates,
) -> (Candidates, Vec<DefId>) {
    let configured = |name: &str| {
        analysis.mentions.iter().any(|mention| {
            mention.configured && mention.segments.last().is_some_and(|last| last == name)
        })
    };
    let accessors: Vec<(DefId, &str, Option<DefId>)> = exact
        .iter()
        .filter_map(|(def, _)| {
            let name = &*index.def(*def)?.name;
            if !configured(name) {
                return None;
            }
            let field = accessed_field(index, *def)?;
            Some((*def, name, field))
        })
        .take(MAX_ACCESSORS)
        .collect();
    let mut readers: Vec<(DefId, Vec<&str>)> = Vec::new();
    let mut dumps: FxHashSet<DefId> = FxHashSet::default();
    for (accessor, name, field) in &accessors {
        let files = index.files_referencing(name);
        if files.len() > MAX_USAGE_FILES {
            continue;
        }
        for (file, data, reference) in index.references_named(files, name) {
            let Some(receiver) = reference.receiver.filter(|_| !reference.call) else {
                continue;
            };
            if field.is_some_and(|field| index.resolves_elsewhere(file, reference, field)) {
                continue;
            }
            let Some(&reader) = index
                .enclosing_defs(file, reference.range.start)
                .iter()
                .find(|d| index.def(**d).is_some_and(|d| d.kind.is_callable()))
            else {
                continue;
            };
            if reader == *accessor
                || dumps.contains(&reader)
                || index.is_test_def(reader)
                || is_test_file(index, file)
                || accessed_field(index, reader).is_some()
            {
                continue;
            }
            match readers.iter_mut().find(|(def, _)| *def == reader) {
                Some((_, names)) => {
                    if !names.contains(name) {
                        names.push(name);
                    }
                }
                None => {
                    let receiver_text = data.text.get(receiver.as_usize()).unwrap_or("");
                    if reads_every_member(index, reader, receiver_text) {
                        dumps.insert(reader);
                    } else {
                        readers.push((reader, vec![name]));
                    }
                }
            }
        }
    }
    if readers.len() > MAX_READERS || readers.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let files: FxHashSet<FileId> = accessors.iter().map(|(def, _, _)| def.file).collect();
    // Stable: the order met within equal keys.
    readers
        .sort_by_key(|(def, names)| (!files.contains(&def.file), std::cmp::Reverse(names.len())));
    let readers = readers
        .into_iter()
        .map(|(def, names)| (def, format!("reads:{}", names.join("+"))))
        .collect();
    (readers, accessors.iter().map(|(def, _, _)| *def).collect())
}

/// Whether `def` reads [`MIN_DUMP_MEMBERS`] or more members of a receiver written `receiver`.
fn reads_every_member(index: &Index, def: DefId, receiver: &str) -> bool {
    let (Some(data), Some(def_data)) = (index.file(def.file), index.def(def)) else {
        return false;
    };
    let mut names: FxHashSet<&str> = FxHashSet::default();
    for reference in data.syntax.refs_in(def_data.range) {
        let on_receiver = reference
            .receiver
            .is_some_and(|r| data.text.get(r.as_usize()) == Some(receiver));
        if on_receiver && !reference.call {
            names.insert(data.ref_text(reference));
        }
    }
    names.len() >= MIN_DUMP_MEMBERS
}

/// At most this many uses of a receiver's member are looked at to read the receiver's type.
const MAX_RECEIVER_SITES: usize = 48;
/// Enough uses agreeing on one definition.
const ENOUGH_RECEIVER_VOTES: usize = 5;

/// The definition that a member on a receiver the task writes means where the code writes
/// the same (`c.json` in handlers whose `c` is a `Context` is `Context.json`): the
/// definition among `candidates` that most of the uses of `qualifier.member` resolving to
/// exactly one of them resolve to, when at least two do and two thirds of them agree.
fn member_as_used(
    index: &Index,
    qualifier: &str,
    member: &str,
    candidates: &[DefId],
) -> Option<DefId> {
    // `self.x` and `this.x` mean the type of the code they are written in, which the
    // task does not show.
    if candidates.len() < 2 || GENERIC_RECEIVERS.contains(&qualifier) {
        return None;
    }
    let mut votes: FxHashMap<DefId, usize> = FxHashMap::default();
    let (mut sites, mut resolved) = (0, 0);
    // Only the files that declare a variable of the receiver's name with a type can say
    // what it is; the code outside tests first (it declares its types more often).
    let declares_receiver = |file: &FileId| {
        index.file(*file).is_some_and(|data| {
            data.syntax.bindings.iter().any(|binding| {
                !binding.member && data.text.get(binding.name.as_usize()) == Some(qualifier)
            })
        })
    };
    let mut files: Vec<FileId> = index
        .files_referencing(member)
        .iter()
        .copied()
        .filter(declares_receiver)
        .collect();
    files.sort_by_key(|file| is_test_file(index, *file));
    for (file, data, reference) in index.references_named(&files, member) {
        let Some(receiver) = reference.receiver else {
            continue;
        };
        let receiver_text = data.text.get(receiver.as_usize()).unwrap_or("");
        if last_segment(receiver_text) != qualifier {
            continue;
        }
        let position = FilePosition {
            file,
            offset: reference.range.start,
        };
        // No guess among all the definitions of the name: only what the receiver says.
        if let [target] = index.goto_definition_within(position, 0).as_slice() {
            if candidates.contains(&target.def) {
                *votes.entry(target.def).or_default() += 1;
                resolved += 1;
            }
        }
        sites += 1;
        if sites >= MAX_RECEIVER_SITES || resolved >= ENOUGH_RECEIVER_VOTES {
            break;
        }
    }
    let (best, n) = votes
        .into_iter()
        .max_by_key(|(def, n)| (*n, std::cmp::Reverse(*def)))?;
    (n >= 2 && 3 * n >= 2 * resolved).then_some(best)
}

/// The types named `name`.
fn types_named(index: &Index, name: &str) -> Vec<DefId> {
    index
        .defs_named(name)
        .iter()
        .copied()
        .filter(|def| index.def(*def).is_some_and(|d| d.kind.is_type()))
        .collect()
}

/// A new type's tail names its kind when at most this many types have that name.
const MAX_KIND_TYPES: usize = 2;

/// The kind a type name no definition has may be named after: the longest tail of its parts
/// that one or two types have (`TemplateResponse` -> `Response`, `SliceValidationError` ->
/// `Error`), with those types. Only for a capitalized name of two parts or more.
fn kind_of_new_type<'n>(index: &Index, name: &'n str) -> Option<(&'n str, Vec<DefId>)> {
    if !name.chars().next().is_some_and(char::is_uppercase) {
        return None;
    }
    let parts = crate::index::split_identifier(name);
    parts.iter().skip(1).find_map(|part| {
        // The parts are slices of `name`: the tail starts where the part does.
        let tail = &name[part.as_ptr() as usize - name.as_ptr() as usize..];
        let types = types_named(index, tail);
        (1..=MAX_KIND_TYPES)
            .contains(&types.len())
            .then_some((tail, types))
    })
}

/// Names the query mentions that a definition must reference, at least, to be where they meet.
const MIN_CO_REFERENCED: usize = 2;
/// A name referenced from more files than this is too common to say where others meet it.
const MAX_CO_REFERENCE_FILES: usize = 30;
const MAX_CO_REFERENCE_NAMES: usize = 8;

/// Definitions that reference several of the names the query writes as code (`handled by
/// HandleExitCoder as After errors are`: the code where `HandleExitCoder` and `After` meet),
/// most names first, then by path and position.
fn co_references(index: &Index, mentions: &[super::query::Mention]) -> Vec<(DefId, String)> {
    let mut names: Vec<&str> = Vec::new();
    for mention in mentions {
        let last = mention.segments.last().expect("mentions have segments");
        if mention.certain
            && last.chars().count() >= 3
            && !names.contains(&last.as_str())
            && names.len() < MAX_CO_REFERENCE_NAMES
        {
            names.push(last);
        }
    }
    if names.len() < MIN_CO_REFERENCED {
        return Vec::new();
    }
    let mut met: FxHashMap<DefId, Vec<usize>> = FxHashMap::default();
    for (idx, name) in names.iter().enumerate() {
        let files = index.files_referencing(name);
        if files.len() > MAX_CO_REFERENCE_FILES {
            continue;
        }
        for (file, _, reference) in index.references_named(files, name) {
            if let Some(&def) = index.enclosing_defs(file, reference.range.start).first() {
                let seen = met.entry(def).or_default();
                if !seen.contains(&idx) {
                    seen.push(idx);
                }
            }
        }
    }
    let mut sites: Vec<(usize, &str, u32, DefId, Vec<usize>)> = met
        .into_iter()
        .filter(|(_, seen)| seen.len() >= MIN_CO_REFERENCED)
        .filter_map(|(def, seen)| {
            let path = &*index.file(def.file)?.path;
            let start = index.def(def)?.range.start;
            Some((seen.len(), path, start, def, seen))
        })
        .collect();
    sites.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)).then(a.2.cmp(&b.2)));
    // Reasons only for the sites kept, names in the query's order.
    sites
        .into_iter()
        .take(MAX_PER_NAME * 2)
        .map(|(_, _, _, def, mut seen)| {
            seen.sort_unstable();
            let joined: Vec<&str> = seen.iter().map(|idx| names[*idx]).collect();
            (def, format!("co-uses:{}", joined.join("+")))
        })
        .collect()
}

/// The shortest start of a quote worth looking for: two words and this many bytes.
const MIN_LITERAL_START: usize = 12;
/// How many shorter starts of a quote are tried.
const MAX_LITERAL_STARTS: usize = 4;

/// A quote, then the [`MAX_LITERAL_STARTS`] longest of its starts that end a word before a
/// space, longest first (`Invalid input: expected number, received number` -> `Invalid
/// input: expected number, received` -> ... -> `Invalid input:`), none shorter than two
/// words and [`MIN_LITERAL_START`] bytes.
fn literal_starts(literal: &str) -> impl Iterator<Item = &str> {
    let cuts = literal
        .char_indices()
        .filter(|(_, ch)| *ch == ' ')
        .map(|(at, _)| literal[..at].trim_end())
        .filter(|start| start.len() >= MIN_LITERAL_START && start.contains(' '))
        .collect::<Vec<_>>();
    std::iter::once(literal).chain(cuts.into_iter().rev().take(MAX_LITERAL_STARTS))
}

/// A file that holds a quote, and where (the offsets of its occurrences, in order).
type LiteralHit = (FileId, Vec<usize>);

/// Where the code holds a quote, tests aside: the longest of its starts (see
/// [`literal_starts`]) that some file holds, with the files that hold it (at most
/// [`MAX_LITERAL_FILES`]) and where. A message the code builds from parts (`expected ${x}`)
/// holds only the quote's start. The whole quote is looked for first (its words are in the
/// fewest files); then the shortest start tried, which every longer one begins with, so that
/// one scan finds the longest start each file holds. `scan_left` bounds the bytes scanned.
fn find_literal<'q>(
    index: &Index,
    search: &SearchIndex,
    literal: &'q str,
    scan_left: &mut usize,
) -> Option<(&'q str, Vec<LiteralHit>)> {
    let starts: Vec<&str> = literal_starts(literal).collect();
    let sought = if starts.len() > 1 {
        vec![starts[0], starts[starts.len() - 1]]
    } else {
        vec![starts[0]]
    };
    for text in sought {
        let mut terms: Vec<String> = Vec::new();
        for_each_word(text, |_, word| {
            identifier_terms(word, |term| terms.push(term.to_owned()))
        });
        if terms.is_empty() {
            return None;
        }
        // Tests repeat the messages they check: the code that builds one is sought.
        let candidates: Vec<(FileId, &str)> = search
            .files_with_all_terms(&terms)
            .into_iter()
            .filter_map(|file| {
                let data = index.file(file).filter(|data| !data.is_test)?;
                Some((file, &*data.text))
            })
            .collect();
        let bytes: usize = candidates.iter().map(|(_, code)| code.len()).sum();
        if candidates.len() > MAX_LITERAL_CANDIDATES || bytes > *scan_left {
            return None;
        }
        *scan_left -= bytes;
        // Each file's longest start (its position in `starts`) and where the file holds it.
        let mut found: Vec<(usize, FileId, Vec<usize>)> = Vec::new();
        for (file, code) in candidates {
            let occurrences: Vec<(usize, usize)> = code
                .match_indices(text)
                .take(MAX_LITERAL_OCCURRENCES)
                .filter_map(|(offset, _)| {
                    let rest = &code[offset..];
                    let longest = starts.iter().position(|start| rest.starts_with(start))?;
                    Some((longest, offset))
                })
                .collect();
            if let Some(longest) = occurrences.iter().map(|(longest, _)| *longest).min() {
                let offsets = occurrences
                    .into_iter()
                    .filter(|(at, _)| *at == longest)
                    .map(|(_, offset)| offset)
                    .collect();
                found.push((longest, file, offsets));
            }
        }
        let Some(longest) = found.iter().map(|(longest, _, _)| *longest).min() else {
            continue;
        };
        let hits: Vec<LiteralHit> = found
            .into_iter()
            .filter(|(at, _, _)| *at == longest)
            .map(|(_, file, offsets)| (file, offsets))
            .collect();
        if hits.len() > MAX_LITERAL_FILES {
            return None;
        }
        return Some((starts[longest], hits));
    }
    None
}

/// Candidate definitions, each with the reason it was found: one list of the fusion.
type Candidates = Vec<(DefId, String)>;

/// Ranks a task's candidate definitions and their files. Each kind of evidence (trace
/// frames, names, quoted text, uses of names, mentioned files, words that are names, BM25)
/// gives a list, fused by weighted reciprocal rank; then each definition adds its file's
/// BM25 and path words and takes the penalties and boosts of its file (see
/// `score_definitions`), and files add up their best definitions (see `rank_files`).
pub fn rank(input: &RankInput<'_>) -> Ranking {
    let index = input.index;
    let analysis = input.analysis;
    let mut fusion = Fusion::default();

    let traces = trace_targets(index, analysis);
    fusion.add_list(W_TRACE, &traces.defs, Found::Located);
    fusion.add_list(0.0, &traces.notes, Found::Located);
    let frames = FrameNames::new(index, &traces);
    let named = named_targets(index, analysis, &frames);
    fusion.add_list(W_LITERAL, &literal_holders(input), Found::ByName);
    fusion.add_list(W_USAGE, &external_usages(index, analysis), Found::ByName);
    fusion.add_list(
        W_USAGE,
        &co_references(index, &analysis.mentions),
        Found::ByName,
    );
    let mentions_found = if analysis.mentions.iter().any(|mention| mention.certain) {
        Found::Directly
    } else {
        Found::ByName
    };
    fusion.add_list(W_MENTION, &named.exact, mentions_found);
    // Each reader of a configured field as strongly as any other: they are where the
    // configured behaviour happens, in no order of their own.
    let (readers, read_accessors) = accessor_readers(index, analysis, &named.exact);
    for reader in readers {
        fusion.add_list(W_READS, &[reader], Found::ByName);
    }
    fusion.add_list(W_MENTION_FUZZY, &named.fuzzy, Found::ByName);
    fusion.add_list(W_USED_MENTION, &named.used, Found::ByName);
    let located: FxHashSet<FileId> = traces
        .files
        .iter()
        .copied()
        .chain(named.exact.iter().map(|(def, _)| def.file))
        .collect();
    let mentioned = mentioned_files(input, &located);
    fusion.add_list(W_PATH, &mentioned.defs, Found::Located);
    fusion.add_list(W_COMPOUND, &word_pair_names(input), Found::ByName);
    let mut word_names = words_that_are_names(input);
    word_names.retain(|(def, _)| !frames.claims(index, *def));
    fusion.add_list(W_WORD_NAME, &word_names, Found::ByName);
    fusion.add_list(
        W_COMPOUND,
        &members_of_named_containers(input),
        Found::ByName,
    );
    let bm25_list: Candidates = input
        .search
        .search_defs(&analysis.terms, 60)
        .iter()
        .map(|(def, score)| (*def, format!("bm25:{score:.2}")))
        .collect();
    fusion.add_list(W_BM25_DEF, &bm25_list, Found::ByWords);

    let penalties = FilePenalties::new(input);
    let bm25_files = file_bm25(input, &penalties);
    let path_words = path_word_matches(input, &penalties);
    // Primary files: where direct evidence points; their import neighbourhood gets a boost.
    let primary_files: FxHashSet<FileId> = traces
        .files
        .iter()
        .chain(&mentioned.files)
        .copied()
        .chain(named.exact.iter().take(4).map(|(def, _)| def.file))
        .collect();
    let neighbourhood = Neighbourhood::new(input, primary_files);
    let defs = score_definitions(
        input,
        fusion,
        &file_bm25_shares(&bm25_files),
        &path_words,
        &penalties,
        &neighbourhood,
        &read_accessors,
    );
    let files = rank_files(input, &defs, &bm25_files, &path_words, &penalties);
    Ranking { defs, files }
}

/// The name a trace gives a frame's function, without its module, type or closure
/// wrapping (`main.(*Server).handle` -> `handle`, `Store.get` -> `get`); none for Python's
/// `<module>` and `<lambda>` or JavaScript's `Object.<anonymous>`.
fn frame_function_name(function: &str) -> Option<&str> {
    // `<module>`, `Object.<anonymous>`: no name of the code.
    if function.trim_end().ends_with('>') {
        return None;
    }
    function
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '$'))
        .rfind(|part| !part.is_empty() && !part.chars().all(|ch| ch.is_ascii_digit()))
}

/// The definitions a task's trace frames point at (the innermost one holding each in-repo
/// frame's line), and the frames' files.
struct TraceTargets {
    defs: Candidates,
    files: Vec<FileId>,
    /// Why a frame's definition is not the one holding its line (`frame-function:get`).
    notes: Candidates,
}

fn trace_targets(index: &Index, analysis: &QueryAnalysis) -> TraceTargets {
    let mut targets = TraceTargets {
        defs: Vec::new(),
        files: Vec::new(),
        notes: Vec::new(),
    };
    for frame in &analysis.frames {
        let Some((path, line)) = &frame.at else {
            // A Rust frame named only by its function's path from the crate's root.
            let def = frame
                .function
                .as_deref()
                .and_then(|f| index.rust_path_def(f));
            if let Some((def, data)) = def.and_then(|def| Some((def, index.file(def.file)?))) {
                if !targets.defs.iter().any(|(known, _)| *known == def) {
                    targets.files.push(def.file);
                    targets
                        .defs
                        .push((def, format!("{REASON_FRAME}{}", data.path)));
                }
            }
            continue;
        };
        let files = files_matching_path(index, path);
        let Some(&file) = files.first() else { continue };
        let Some(data) = index.file(file) else {
            continue;
        };
        if files.len() > 1 && !path.contains('/') {
            continue;
        }
        targets.files.push(file);
        let offset = data.line_index.line_start(line.saturating_sub(1));
        let line_end = data.line_index.line_end(line.saturating_sub(1));
        let mut enclosing = index.enclosing_defs(file, offset);
        if enclosing.is_empty() {
            enclosing = index.enclosing_defs(file, line_end.saturating_sub(1));
        }
        let reason = format!("{REASON_FRAME}{}:{line}", data.path);
        // A trace from another version of the file (a deployed release, an installed
        // package) has its lines elsewhere: when the frame's function is not what holds the
        // line, the nearest definition of that name in the file is.
        let function = frame.function.as_deref().and_then(frame_function_name);
        let named = |def: &DefId| {
            function.is_some_and(|name| index.def(*def).is_some_and(|d| &*d.name == name))
        };
        let moved = function
            .filter(|_| !enclosing.iter().any(named))
            .and_then(|_| {
                let line = TextRange {
                    start: offset,
                    end: offset,
                };
                index
                    .file_defs(file)
                    .filter(|def| named(def))
                    .filter(|def| index.def(*def).is_some_and(|d| d.kind.is_callable()))
                    .min_by_key(|def| index.def(*def).expect("live def").range.gap(line))
            });
        if let Some(def) = moved {
            targets.defs.push((def, reason));
            targets
                .notes
                .push((def, format!("frame-function:{}", function.unwrap_or(""))));
        } else if let Some(def) = enclosing.first() {
            targets.defs.push((*def, reason));
        }
    }
    // The exception a trace ends with is what went wrong: its class, when the repository
    // defines it (not a builtin's `ValueError`) and the name is not common to many types.
    for name in &analysis.thrown {
        let last = last_segment(name);
        let types = types_named(index, last);
        if (1..=MAX_THROWN_TYPES).contains(&types.len()) {
            for def in types {
                targets.defs.push((def, format!("{REASON_THROWN}{name}")));
            }
        }
    }
    targets
}

/// The definitions a pasted trace's frames point at, and their names: a name of one of
/// them, written as code or as a word of prose, is that frame's definition (`evolve()`
/// under a traceback through the function `evolve` is not the method `Attribute.evolve`).
#[derive(Default)]
struct FrameNames<'a> {
    defs: FxHashSet<DefId>,
    names: FxHashSet<&'a str>,
}

impl<'a> FrameNames<'a> {
    fn new(index: &'a Index, traces: &TraceTargets) -> Self {
        let defs: FxHashSet<DefId> = traces.defs.iter().map(|(def, _)| *def).collect();
        let names = defs
            .iter()
            .filter_map(|def| index.def(*def))
            .map(|def| &*def.name)
            .collect();
        FrameNames { defs, names }
    }

    /// Whether `def` is another definition of a frame's name, which the name does not mean.
    fn claims(&self, index: &Index, def: DefId) -> bool {
        !self.defs.contains(&def)
            && index
                .def(def)
                .is_some_and(|data| self.names.contains(&*data.name))
    }
}

/// The definitions of the names a task writes, by how much they say.
#[derive(Default)]
struct NamedTargets {
    /// Named as the task's subject, exactly (qualified by their container when given).
    exact: Candidates,
    /// Perhaps meant: a name of several definitions written in prose or on an unknown
    /// receiver, the containers of qualified names, close spellings, types a new name is a
    /// kind of, types named by a sentence's opening word.
    fuzzy: Candidates,
    /// Named as tools of the change (`raise InvalidURL`).
    used: Candidates,
}

fn named_targets(index: &Index, analysis: &QueryAnalysis, frames: &FrameNames<'_>) -> NamedTargets {
    let mut named = NamedTargets::default();
    // A capitalized word opening a sentence is grammar (`Add`, `Make`), unless it is the name
    // of one or two types (`Option calls cleandoc on help`): then it may be the subject.
    for word in &analysis.opening_words {
        let types = types_named(index, word);
        if (1..=MAX_OPENING_TYPES).contains(&types.len()) {
            for def in types {
                named.fuzzy.push((def, format!("opening-word:{word}")));
            }
        }
    }
    for mention in &analysis.mentions {
        let last = mention.segments.last().expect("mentions have segments");
        let mut exact: Vec<DefId> = index.defs_named(last).to_vec();
        // A word that only may be a name (`OLD`, `Session` in prose) names it as written;
        // a name of one or two letters in another case (`i`, `I`) is another name.
        if exact.is_empty() && mention.certain && last.chars().count() >= 3 {
            exact = index.defs_named_ignore_case(last);
        }
        let mut unresolved_qualifier = false;
        // How the uses of a receiver's member in the code chose its definition.
        let mut as_used: Option<String> = None;
        if mention.segments.len() > 1 {
            let qualifier = &mention.segments[mention.segments.len() - 2];
            // The qualifier names the container or module (`Session.send`, `utils.quote`), or
            // abbreviates the module as receivers do (`ctx.throw` in `context.js`, `res.send`
            // in `response.js`): the closest reading that some definition has wins.
            // A type's member it inherits (`ModelAdmin.get_queryset`, defined by its base
            // `BaseModelAdmin`) is qualified by the type too, when the type has none of its own
            // (outside tests, whose local types may share its name).
            let inherited: Vec<DefId> = if exact.iter().any(|def_id| {
                index.container_name(*def_id) == Some(qualifier.as_str())
                    && !index.is_test_def(*def_id)
            }) {
                Vec::new()
            } else {
                index.inherited_among(qualifier, &exact)
            };
            let reading = |def_id: DefId| -> u8 {
                if index.container_name(def_id) == Some(qualifier.as_str())
                    || inherited.contains(&def_id)
                {
                    return 0;
                }
                let Some(data) = index.file(def_id.file) else {
                    return 3;
                };
                let module = module_name(&data.path);
                if module == qualifier {
                    0
                } else {
                    abbreviation(qualifier, module)
                }
            };
            let readings: Vec<(DefId, u8)> = exact
                .iter()
                .map(|def_id| (*def_id, reading(*def_id)))
                .collect();
            let closest = readings.iter().map(|(_, reading)| *reading).min();
            let qualified: Vec<DefId> = readings
                .iter()
                .filter(|(_, reading)| *reading < 3 && Some(*reading) == closest)
                .map(|(def_id, _)| *def_id)
                .collect();
            if !qualified.is_empty() {
                exact = qualified;
            } else if let Some(def) = member_as_used(index, qualifier, last, &exact) {
                // `c.json` where the code writes it: `c` is a `Context` there.
                exact = vec![def];
                as_used = index
                    .container_name(def)
                    .map(|container| format!("receiver-as-used:{}~{container}", mention.text));
            } else {
                // `res.app`: a receiver the index cannot type.
                unresolved_qualifier = true;
            }
            // The qualifier itself (the class of a method) is context too: the type holding
            // the member it qualifies, else the types of its name (not a method or field of
            // that name: `Engine` in `Engine.handleHTTPRequest` is not `Validator.Engine`).
            let holders: Vec<DefId> = if unresolved_qualifier {
                Vec::new()
            } else {
                exact
                    .iter()
                    .filter_map(|def_id| index.owner(*def_id))
                    .filter(|owner| {
                        index
                            .def(*owner)
                            .is_some_and(|data| &*data.name == qualifier.as_str())
                    })
                    .collect()
            };
            let mut containers = if holders.is_empty() {
                types_named(index, qualifier)
            } else {
                holders
            };
            order_same_name(index, &mut containers);
            containers.dedup();
            for def in containers.into_iter().take(2) {
                named
                    .fuzzy
                    .push((def, format!("{REASON_QUALIFIER}{}", mention.text)));
            }
        }
        if exact.len() > MAX_PER_NAME * 4 && !mention.certain {
            continue;
        }
        // A frame's name is its definition (see `FrameNames`), `attrs.evolve(c)` too,
        // unless the task qualifies it by a type.
        if (mention.segments.len() == 1 || unresolved_qualifier)
            && exact.iter().any(|def| frames.defs.contains(def))
        {
            exact.retain(|def| !frames.claims(index, *def));
        }
        order_same_name(index, &mut exact);
        if !exact.is_empty() {
            let n_exact = exact.len();
            // A name written as a tool of the change (`raise InvalidURL`) counts less for its
            // definition, and the code using it ranks too (see `external_usages`). A
            // capitalized word of prose that names several definitions (`Match` in `on every
            // Match request`: eight methods), or a member of a receiver that is none of their
            // containers (`c.json` with `json` methods on four types), may mean any of them,
            // or none: it counts as a fuzzy match (not in a pasted trace, whose names are
            // code).
            let list = if mention.used {
                &mut named.used
            } else if (!mention.certain || unresolved_qualifier)
                && n_exact > 1
                && analysis.frames.is_empty()
            {
                &mut named.fuzzy
            } else {
                &mut named.exact
            };
            for def in exact.into_iter().take(MAX_PER_NAME) {
                let reason = if let Some(as_used) = &as_used {
                    as_used.clone()
                } else if n_exact == 1 {
                    REASON_EXACT_NAME.to_owned()
                } else {
                    format!("exact-name:{last}")
                };
                list.push((def, reason));
            }
            continue;
        }
        // A new type named after the kind it is (`TemplateResponse` beside `Response`).
        if let Some((kind, types)) = kind_of_new_type(index, last) {
            for def in types {
                named.fuzzy.push((def, format!("kind-of:{last}~{kind}")));
            }
        }
        // A name of one or two letters abbreviates too many names to point anywhere.
        if mention.certain && last.chars().count() >= 3 {
            for hit in index.search_symbols_up_to(last, 4, MatchTier::Hump) {
                let name = index
                    .def(hit.def)
                    .map(|d| d.name.to_string())
                    .unwrap_or_default();
                named.fuzzy.push((hit.def, format!("fuzzy:{last}~{name}")));
            }
        }
    }
    // The name a rename gives, where it is defined beside a named target (a rename half
    // done, or the sibling it must not collide with); elsewhere it is another definition.
    let target_files: FxHashSet<FileId> = named.exact.iter().map(|(def, _)| def.file).collect();
    for name in &analysis.new_names {
        let last = last_segment(name);
        for def in index.defs_named(last) {
            if target_files.contains(&def.file) {
                named.fuzzy.push((*def, format!("renamed-to:{name}")));
            }
        }
    }
    named
}

/// Quoted text the code holds verbatim: the innermost definition holding it, in each of the
/// few files that do.
fn literal_holders(input: &RankInput<'_>) -> Candidates {
    let index = input.index;
    let mut holders: Candidates = Vec::new();
    let mut scan_left = MAX_LITERAL_SCAN_BYTES;
    // Text inside a long constant (a usage message, a table) is documentation.
    let is_documentation = |def: DefId| {
        index.def(def).is_some_and(|d| {
            matches!(d.kind, DefKind::Constant | DefKind::Variable)
                && def_lines(index, def) > MAX_LITERAL_CONSTANT_LINES
        })
    };
    for literal in &input.analysis.literals {
        // A flag the code does not have yet (`--pcre2-version`) is declared and read beside
        // the flag it varies (`"pcre2"`).
        let relatives = flag_relatives(literal);
        let found = find_literal(index, input.search, literal, &mut scan_left).or_else(|| {
            relatives
                .iter()
                .find_map(|relative| find_literal(index, input.search, relative, &mut scan_left))
        });
        let Some((text, hits)) = found else {
            continue;
        };
        let shown: String = text.chars().take(40).collect();
        // In each file, the innermost definition holding the first occurrence that is code.
        for (file, offsets) in hits {
            let holder = offsets.iter().find_map(|offset| {
                index
                    .enclosing_defs(file, *offset as u32)
                    .first()
                    .copied()
                    .filter(|def| !is_documentation(*def))
            });
            if let Some(def) = holder {
                holders.push((def, format!("{REASON_LITERAL}{shown}")));
            }
        }
    }
    holders
}

/// The files a task names, each standing for its first top-level definitions: paths,
/// modules written as code, the translation files of human languages.
struct MentionedFiles {
    defs: Candidates,
    files: Vec<FileId>,
}

/// `located`: files where the task already points at definitions (a trace's frames, the
/// names it writes). A path to one of them says where those are (`add tests for cleanPath
/// in mux.go`, a traceback's `File "..."` lines), not that its first definitions matter.
fn mentioned_files(input: &RankInput<'_>, located: &FxHashSet<FileId>) -> MentionedFiles {
    let index = input.index;
    let analysis = input.analysis;
    let mut mentioned = MentionedFiles {
        defs: Vec::new(),
        files: Vec::new(),
    };
    let mut mention = |file: FileId, reason: String| {
        mentioned.files.push(file);
        if located.contains(&file) {
            return;
        }
        for def in index.top_level_defs(file).take(MAX_MENTIONED_FILE_DEFS) {
            mentioned.defs.push((def, reason.clone()));
        }
    };
    for path in &analysis.paths {
        for file in files_matching_path(index, path).into_iter().take(2) {
            mention(file, format!("path:{path}"));
        }
    }
    // Names written as code that no definition has but a module does (`formatting` for
    // `formatting.py`, `compat` for a private `_compat.py`): that module, as a mentioned path.
    let module_names = analysis
        .mentions
        .iter()
        .filter(|mention| mention.certain && mention.segments.len() == 1)
        .map(|mention| mention.segments[0].as_str())
        .filter(|name| name.len() >= 3 && index.defs_named(name).is_empty())
        .take(MAX_MODULE_MENTIONS);
    for name in module_names {
        let modules: Vec<FileId> = index
            .files_with_stem(name)
            .iter()
            .copied()
            .filter(|file| index.file(*file).is_some_and(|data| !data.is_test))
            .take(3)
            .collect();
        // More than two modules of that name: it does not say which.
        if modules.len() > 2 {
            continue;
        }
        for file in modules {
            mention(file, format!("module:{name}"));
        }
    }
    // A human language the task names (`Italian`): its translation files (`locales/it.ts`,
    // `i18n/zh-CN.ts`). The files with the code among their path words are the candidates.
    if !analysis.languages.is_empty() {
        let codes: Vec<String> = analysis
            .languages
            .iter()
            .map(|(_, code)| term(code))
            .collect();
        let translations: Vec<(FileId, &str)> = input
            .search
            .files_with_path_words(codes.iter().map(String::as_str))
            .into_iter()
            .filter_map(|file| {
                let data = index.file(file).filter(|data| !data.is_test)?;
                let (name, _) = analysis
                    .languages
                    .iter()
                    .find(|(_, code)| is_translation_file(&data.path, code))?;
                Some((file, &name[..]))
            })
            .take(MAX_TRANSLATION_FILES + 1)
            .collect();
        if translations.len() <= MAX_TRANSLATION_FILES {
            for (file, name) in translations {
                mention(file, format!("language:{name}"));
            }
        }
    }
    mentioned
}

/// Pairs of the task's words that are names as an identifier (`tree building` ->
/// `build_tree`), and words it joins by hyphens (`string-to-int64` -> `StringToInt64`).
fn word_pair_names(input: &RankInput<'_>) -> Candidates {
    let mut found: Candidates = Vec::new();
    let hyphenated = input.analysis.hyphenated.iter().cloned();
    for candidate in compound_candidates(&input.analysis.content_words)
        .into_iter()
        .chain(hyphenated)
    {
        let mut defs = input.search.defs_normalized(&candidate);
        if defs.len() > MAX_PER_NAME * 4 {
            continue;
        }
        order_same_name(input.index, &mut defs);
        for def in defs.into_iter().take(MAX_PER_NAME) {
            let name = input
                .index
                .def(def)
                .map(|d| d.name.to_string())
                .unwrap_or_default();
            found.push((def, format!("words:{candidate}~{name}")));
        }
    }
    found
}

/// Single words of the task that are names of a few definitions (`printer`, `parsing` ->
/// `parse`).
/// Names as the task's words are kept: lower-cased and stemmed (`ZodObject` -> `zodobject`).
fn as_words<'a>(names: impl Iterator<Item = &'a String>) -> FxHashSet<String> {
    names.map(|name| stem(&name.to_lowercase())).collect()
}

fn words_that_are_names(input: &RankInput<'_>) -> Candidates {
    let analysis = input.analysis;
    let mut found: Candidates = Vec::new();
    let mut seen_words = FxHashSet::default();
    // The names written as tools of the change (`raise InvalidURL`): their definitions are
    // not looked up again as words that are names.
    let tool_names = as_words(
        analysis
            .mentions
            .iter()
            .filter(|mention| mention.used)
            .filter_map(|mention| mention.segments.last()),
    );
    // Nor the names a rename gives.
    let new_names = as_words(analysis.new_names.iter());
    // Nor the qualifiers of qualified names (`ZodObject` in `ZodObject.strict`): they say
    // whose member is meant, and count as its container (see `named_targets`), not as
    // targets of their own, whose callers the answer would list.
    let qualifiers = as_words(analysis.mentions.iter().flat_map(|mention| {
        mention
            .segments
            .split_last()
            .map_or(&[][..], |(_, rest)| rest)
    }));
    for (word, term) in analysis.content_words.iter().zip(&analysis.content_terms) {
        if word.len() < 3 || !seen_words.insert(word.clone()) {
            continue;
        }
        if tool_names.contains(word.as_str())
            || new_names.contains(word.as_str())
            || qualifiers.contains(word.as_str())
        {
            continue;
        }
        // The verb opening a sentence or a list item (`* Remove unnecessary comment`) is
        // the task's grammar, not a name of its subject.
        if analysis.opening_only.contains(word) {
            continue;
        }
        // A word found in many files (`store` in a key-value store) says little.
        if input.search.file_frequency(term) > COMMON_WORD_FILE_SHARE {
            continue;
        }
        let Some(mut defs) = defs_named_by_word(input.search, word) else {
            continue;
        };
        if defs.len() > MAX_PER_NAME {
            continue;
        }
        // A word of prose does not name a constant written in capitals (`enumerable` is no
        // mention of `ENUMERABLE`, `prototype` of `PROTOTYPE`): the task would write it so,
        // as it writes `URL` for httpx's `URL`.
        if !analysis.capitals.contains(word) {
            defs.retain(|def| {
                input
                    .index
                    .def(*def)
                    .is_none_or(|data| !is_screaming_case(&data.name))
            });
        }
        order_same_name(input.index, &mut defs);
        for def in defs.into_iter().take(3) {
            found.push((def, format!("word-is-name:{word}")));
        }
    }
    found
}

/// Whether `name` is written in capitals (`ENUMERABLE`, `MAX_RETRIES`), as constants are.
fn is_screaming_case(name: &str) -> bool {
    name.chars().any(|ch| ch.is_ascii_uppercase()) && !name.chars().any(|ch| ch.is_lowercase())
}

/// The definitions a word of the task names: as written, or with the `e` its stem lost
/// (`parsing` -> `parse`).
fn defs_named_by_word(search: &SearchIndex, word: &str) -> Option<Vec<DefId>> {
    name_forms(word)
        .iter()
        .map(|form| search.defs_normalized(&normalize_name(form)))
        .find(|defs| !defs.is_empty())
}

/// Members named by one of the task's words whose container the words beside it name, as a
/// qualified name in words (`the app context is pushed` -> `AppContext.push`, `the
/// request's timeout` -> `Request.timeout`). The container makes a common member name
/// specific, so the word's frequency does not rule it out.
fn members_of_named_containers(input: &RankInput<'_>) -> Candidates {
    let index = input.index;
    let analysis = input.analysis;
    let words = &analysis.content_words;
    let mut found: Candidates = Vec::new();
    // A name written as code (`handleSet` in a trace frame) is looked up as written (see
    // `named_targets`), with the qualifier written beside it.
    let written = as_words(
        analysis
            .mentions
            .iter()
            .flat_map(|mention| mention.segments.iter()),
    );
    let mut seen_words = FxHashSet::default();
    for (at, word) in words.iter().enumerate() {
        if word.len() < 3
            || analysis.opening_only.contains(word)
            || written.contains(word.as_str())
            || !seen_words.insert(word)
        {
            continue;
        }
        // The members of that name, with their containers' names (most definitions of a
        // name belong to none: nothing more to read then).
        let Some(defs) = defs_named_by_word(input.search, word) else {
            continue;
        };
        let members: Vec<(DefId, &str)> = defs
            .into_iter()
            .filter_map(|def| Some((def, index.container_name(def)?)))
            .collect();
        if members.is_empty() {
            continue;
        }
        // The container is named by the words beside it, the five around it (the task's
        // first five for its first two): a pair as one identifier, or one word. Words
        // further away belong to other phrases of the task. (Only two words after the
        // task's first ones changed three held-out answers for the worse.)
        let from = at.saturating_sub(CONTAINER_WORDS_REACH);
        let beside = &words[from..(from + 2 * CONTAINER_WORDS_REACH + 1).min(words.len())];
        let others: Vec<String> = beside
            .iter()
            .filter(|other| *other != word)
            .cloned()
            .collect();
        let containers: FxHashSet<String> = compound_candidates(&others)
            .into_iter()
            .chain(
                others
                    .iter()
                    .filter(|other| other.len() >= 3)
                    .flat_map(|other| name_forms(other)),
            )
            .collect();
        let mut named: Vec<DefId> = members
            .into_iter()
            .filter(|(_, container)| containers.contains(&normalize_name(container)))
            .map(|(def, _)| def)
            .collect();
        if named.is_empty() || named.len() > MAX_PER_NAME {
            continue;
        }
        order_same_name(index, &mut named);
        for def in named {
            let container = index.container_name(def).unwrap_or_default();
            found.push((def, format!("member-in-words:{container}.{word}")));
        }
    }
    found
}

/// The files of auxiliary directories (see `base::auxiliary_kind`) that the product's own
/// code imports, directly or through other such files: a benchmarking tool's
/// `src/benchmark/` (hyperfine), which its `main.rs` uses, is its code, where a library's
/// `benchmarks/`, which import the library, are not. Vendored code stays auxiliary: the
/// product uses it, but it is another project's.
fn product_auxiliary(index: &Index) -> FxHashSet<FileId> {
    let graph = index.import_graph();
    let own_auxiliary =
        |data: &FileData| data.auxiliary.is_some_and(|kind| kind != "vendor") && !data.is_test;
    let auxiliary: Vec<FileId> = index
        .files()
        .filter(|(_, data)| own_auxiliary(data))
        .map(|(file, _)| file)
        .collect();
    let is_product = |file: FileId| {
        index
            .file(file)
            .is_some_and(|data| data.auxiliary.is_none() && !data.is_test)
    };
    let mut used: FxHashSet<FileId> = FxHashSet::default();
    let mut queue: Vec<FileId> = auxiliary
        .into_iter()
        .filter(|file| graph.importers(*file).iter().any(|by| is_product(*by)))
        .collect();
    while let Some(file) = queue.pop() {
        if !used.insert(file) {
            continue;
        }
        for imported in graph.imports(file) {
            let auxiliary = index
                .file(*imported)
                .is_some_and(|data| own_auxiliary(data));
            if auxiliary && !used.contains(imported) {
                queue.push(*imported);
            }
        }
    }
    used
}

/// What a file's code is scored down for, with the reasons: auxiliary code, other
/// languages' translations, declarations only, outside the task's scope. The penalties
/// apply to its definitions' scores and to its file-level scores alike.
struct FilePenalties<'a> {
    index: &'a Index,
    analysis: &'a QueryAnalysis,
    /// The kinds of auxiliary code the task asks for (see `AUXILIARY_WORDS`).
    wanted_auxiliary: Vec<&'static str>,
    /// Files in auxiliary directories that the product's own code imports (see
    /// [`product_auxiliary`]): not auxiliary. Walked for the first auxiliary file met.
    product_auxiliary: std::cell::OnceCell<FxHashSet<FileId>>,
    /// The task changes behaviour and does not ask about types.
    behaviour_change: bool,
    /// The files inside the directories a commit-style scope names, if it names any.
    scope_files: FxHashSet<FileId>,
    /// The task is about tests: about the code under test first (see
    /// [`WRITING_TEST_PENALTY`]).
    writing_tests: bool,
}

impl<'a> FilePenalties<'a> {
    fn new(input: &RankInput<'a>) -> FilePenalties<'a> {
        let index = input.index;
        let analysis = input.analysis;
        // A rename changes the declarations of the name too (`rename
        // InterceptorManager.use to register` edits `index.d.ts`).
        let behaviour_change = matches!(
            input.intent,
            IntentKind::BugFix | IntentKind::Implementation | IntentKind::Refactor
        ) && !renames(&analysis.words)
            && !analysis
                .words
                .iter()
                .chain(&analysis.scope_words)
                .any(|word| DECLARATION_WORDS.contains(&word.as_str()));
        // A commit-style scope (`printer: ...`, `fix(router): ...`) that names directories of
        // the repository puts the change inside them: the files outside rank lower. A scope
        // naming only a file's stem (`walk: ...`) stays a path word (see
        // `path_word_matches`).
        let scope_files: FxHashSet<FileId> = input
            .search
            .files_with_path_words(analysis.scope_words.iter().map(String::as_str))
            .into_iter()
            .filter(|file| {
                index.file(*file).is_some_and(|data| {
                    let dirs = data.path.rsplit_once('/').map_or("", |(dirs, _)| dirs);
                    let mut named = false;
                    for_each_path_word(dirs, |word| named |= analysis.scope_words.contains(&word));
                    named
                })
            })
            .collect();
        FilePenalties {
            index,
            analysis,
            wanted_auxiliary: AUXILIARY_WORDS
                .iter()
                .filter(|(word, _)| analysis.content_words.iter().any(|w| w == word))
                .map(|(_, kind)| *kind)
                .collect(),
            product_auxiliary: std::cell::OnceCell::new(),
            behaviour_change,
            scope_files,
            writing_tests: wants_tests(input),
        }
    }

    fn is_auxiliary(&self, file: FileId) -> bool {
        self.index.file(file).is_some_and(|data| {
            data.auxiliary
                .is_some_and(|kind| !self.wanted_auxiliary.contains(&kind))
        }) && !self
            .product_auxiliary
            .get_or_init(|| product_auxiliary(self.index))
            .contains(&file)
    }

    /// A translation file of a language the task does not name, when it names one.
    fn is_other_language(&self, file: FileId) -> bool {
        let languages = &self.analysis.languages;
        !languages.is_empty()
            && self.index.file(file).is_some_and(|data| {
                translation_code(&data.path)
                    .is_some_and(|code| !languages.iter().any(|(_, named)| *named == code))
            })
    }

    fn is_declarations(&self, file: FileId) -> bool {
        self.behaviour_change
            && self
                .index
                .file(file)
                .is_some_and(|data| data.declarations_only)
    }

    fn is_out_of_scope(&self, file: FileId) -> bool {
        !self.scope_files.is_empty() && !self.scope_files.contains(&file)
    }

    /// The penalties that apply to `file`, with their reasons.
    fn of(&self, file: FileId) -> impl Iterator<Item = (f32, &'static str)> {
        [
            (self.is_auxiliary(file), AUXILIARY_PENALTY, "auxiliary-code"),
            (
                self.is_other_language(file),
                OTHER_LANGUAGE_PENALTY,
                "other-language",
            ),
            (
                self.is_declarations(file),
                DECLARATIONS_PENALTY,
                "declarations-only",
            ),
            (
                self.is_out_of_scope(file),
                OUT_OF_SCOPE_PENALTY,
                "out-of-scope",
            ),
            (
                self.writing_tests && is_test_file(self.index, file),
                WRITING_TEST_PENALTY,
                "test-code",
            ),
        ]
        .into_iter()
        .filter(|(applies, _, _)| *applies)
        .map(|(_, penalty, reason)| (penalty, reason))
    }

    /// `score` with the penalties of `file` applied.
    fn demote(&self, file: FileId, score: f32) -> f32 {
        self.of(file)
            .fold(score, |score, (penalty, _)| score * penalty)
    }
}

/// Whether the task is about tests, so test code keeps its full score.
fn wants_tests(input: &RankInput<'_>) -> bool {
    input.intent == IntentKind::TestWriting
}

fn is_test_file(index: &Index, file: FileId) -> bool {
    index.file(file).is_some_and(|data| data.is_test)
}

/// The best 40 files by BM25 as `(file, score, adjusted score)`, best first: test files rank
/// below the code they test unless the task is about tests, and the file penalties apply.
fn file_bm25(input: &RankInput<'_>, penalties: &FilePenalties<'_>) -> Vec<(FileId, f32, f32)> {
    let wants_tests = wants_tests(input);
    let mut files: Vec<(FileId, f32, f32)> = input
        .search
        .search_files(&input.analysis.terms, 60)
        .into_iter()
        .map(|(file, score)| {
            let mut adjusted = score;
            if !wants_tests && is_test_file(input.index, file) {
                adjusted *= TEST_PENALTY;
            }
            (file, score, penalties.demote(file, adjusted))
        })
        .collect();
    files.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
    files.truncate(40);
    files
}

/// Each file's rank by BM25 and the share of its BM25 its definitions get: half by the
/// file's rank, half by its score against the best file's, so that a file far behind the
/// first counts for less than one just behind it.
fn file_bm25_shares(bm25_files: &[(FileId, f32, f32)]) -> FxHashMap<FileId, (usize, f32)> {
    let top_file_score = bm25_files.first().map_or(1.0, |file| file.2.max(1e-6));
    let mut shares: FxHashMap<FileId, (usize, f32)> = FxHashMap::default();
    for (rank, (file, _, adjusted)) in bm25_files.iter().enumerate() {
        let by_rank = 1.0 / (RRF_K + rank as f32 + 1.0);
        let by_score = adjusted / top_file_score / (RRF_K + 1.0);
        let weight = W_BM25_FILE * (1.0 - FILE_SCORE_SHARE) * by_rank
            + W_BM25_FILE * FILE_SCORE_SHARE * by_score;
        shares.insert(*file, (rank, weight));
    }
    shares
}

/// The best 20 files by the task's words among their path words, best first, with each
/// one's rank and the words it matched.
struct PathWordMatches {
    scores: Vec<(FileId, f32)>,
    ranks: FxHashMap<FileId, (usize, String)>,
}

/// Path words the query names: `zsh completion` -> `zsh_completions.go`, a commit scope
/// `walk:` -> `src/walk.rs`; a query word that a path word begins counts half (`manpage` ~
/// `man_docs.go`).
fn path_word_matches(input: &RankInput<'_>, penalties: &FilePenalties<'_>) -> PathWordMatches {
    let analysis = input.analysis;
    let wants_tests = wants_tests(input);
    // Looked up once per path word of every file: sets, not scans of the query's words.
    let scope_words: FxHashSet<&str> = analysis.scope_words.iter().map(String::as_str).collect();
    let content_terms: FxHashSet<&str> =
        analysis.content_terms.iter().map(String::as_str).collect();
    let content_prefixes: FxHashSet<&str> = analysis
        .content_terms
        .iter()
        .flat_map(|word| {
            (3..word.len())
                .filter(|end| word.is_char_boundary(*end))
                .map(|end| &word[..end])
        })
        .collect();
    // A path word that is the agent noun of a task's verb stands for the verb: `parse errors`
    // -> `parser.ts`, `routing` -> `router/index.js`, `print a header line` -> `printer.rs`.
    let agent_verbs: FxHashMap<String, &str> = content_terms
        .iter()
        .flat_map(|verb| agent_nouns(verb).into_iter().map(move |noun| (noun, *verb)))
        .filter(|(noun, _)| !content_terms.contains(noun.as_str()))
        .collect();
    // A word in a large share of the files (`command` in a command-line library) names the
    // repository's subject, not a file: it counts as a partial match, and not for the stem.
    let common_words: FxHashSet<&str> = content_terms
        .iter()
        .copied()
        .filter(|word| input.search.file_frequency(word) > COMMON_WORD_FILE_SHARE)
        .collect();
    // A path word's weight in its file's path score, and whether it may count for the
    // file's stem (see `common_words`); none for a word the task does not have.
    let weigh = |word: &str| -> Option<(f32, bool)> {
        let word = agent_verbs.get(word).copied().unwrap_or(word);
        let scoped = scope_words.contains(word);
        let exact = scoped || content_terms.contains(word);
        if !exact && (word.len() < 3 || !content_prefixes.contains(word)) {
            return None;
        }
        let common = !scoped && common_words.contains(word);
        let weight = if scoped {
            2.0
        } else if exact && !common {
            1.0
        } else {
            0.5
        };
        Some((weight, !common))
    };
    let candidates = input.search.files_with_path_words(
        scope_words
            .iter()
            .chain(&content_terms)
            .chain(&content_prefixes)
            .copied()
            .chain(agent_verbs.keys().map(String::as_str)),
    );
    let mut scores: Vec<(FileId, f32)> = Vec::new();
    for file in &candidates {
        if !wants_tests && is_test_file(input.index, *file) {
            continue;
        }
        let words = input.search.path_words(*file);
        let mut score = 0.0;
        let mut stem_matched = false;
        for (pos, word) in words.iter().enumerate() {
            if let Some((weight, names_stem)) = weigh(word) {
                score += weight;
                stem_matched |= pos + 1 == words.len() && names_stem;
            }
        }
        if score > 0.0 {
            // The file name counts more than the directories above it.
            let score = score + if stem_matched { 1.0 } else { 0.0 } - 0.05 * words.len() as f32;
            scores.push((*file, penalties.demote(*file, score)));
        }
    }
    scores.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scores.truncate(20);
    // The words matched, for the reasons of the files kept only.
    let mut ranks: FxHashMap<FileId, (usize, String)> = FxHashMap::default();
    for (rank, (file, _)) in scores.iter().enumerate() {
        let matched: Vec<&str> = input
            .search
            .path_words(*file)
            .iter()
            .map(String::as_str)
            .filter(|word| weigh(word).is_some())
            .collect();
        ranks.insert(*file, (rank, matched.join("+")));
    }
    PathWordMatches { scores, ranks }
}

/// The files where direct evidence points (trace frames, mentioned files, the first exact
/// names), and the files next to them and to the active file in the import graph.
struct Neighbourhood {
    primary: FxHashSet<FileId>,
    neighbours: FxHashSet<FileId>,
    active_neighbours: FxHashSet<FileId>,
}

impl Neighbourhood {
    fn new(input: &RankInput<'_>, primary: FxHashSet<FileId>) -> Neighbourhood {
        let graph = input.index.import_graph();
        let mut neighbours: FxHashSet<FileId> = FxHashSet::default();
        for file in &primary {
            neighbours.extend(graph.imports(*file).iter().copied());
            neighbours.extend(graph.importers(*file).iter().copied());
        }
        let active_neighbours: FxHashSet<FileId> = input
            .active_file
            .map(|file| {
                graph
                    .imports(file)
                    .iter()
                    .chain(graph.importers(file))
                    .copied()
                    .collect()
            })
            .unwrap_or_default();
        Neighbourhood {
            primary,
            neighbours,
            active_neighbours,
        }
    }
}

/// The fused definitions with their file-level evidence (their file's rank and share of
/// BM25, see `file_bm25_shares`, and its rank among the files matching path words),
/// penalties and boosts, best first.
fn score_definitions(
    input: &RankInput<'_>,
    fusion: Fusion,
    bm25_shares: &FxHashMap<FileId, (usize, f32)>,
    path_words: &PathWordMatches,
    penalties: &FilePenalties<'_>,
    neighbourhood: &Neighbourhood,
    read_accessors: &[DefId],
) -> Vec<Ranked> {
    let index = input.index;
    let wants_tests = wants_tests(input);
    let mut ranked: Vec<Ranked> = fusion
        .scores
        .into_iter()
        .map(|(def, fused)| {
            let Fused {
                mut score,
                mut reasons,
                found,
            } = fused;
            // The file-level evidence is added first; every later adjustment multiplies the
            // whole score, so the file's share of it stays the same to the end.
            let own = score;
            if let Some((rank, weight)) = bm25_shares.get(&def.file) {
                score += weight;
                reasons.push(format!("file-bm25-rank:{}", rank + 1));
            }
            if let Some((rank, matched)) = path_words.ranks.get(&def.file) {
                score += W_PATH_WORDS / (RRF_K + *rank as f32 + 1.0);
                reasons.push(format!("path-words:{matched}"));
            }
            let file_share = if score > 0.0 {
                (score - own) / score
            } else {
                0.0
            };
            if !wants_tests && index.is_test_def(def) {
                score *= TEST_PENALTY;
                reasons.push("test-code".to_owned());
            } else if wants_tests && !is_test_file(index, def.file) && index.is_test_def(def) {
                // A test module beside the code (`#[cfg(test)] mod tests`); a test file's
                // code is scored down with the file (see `FilePenalties`).
                score *= WRITING_TEST_PENALTY;
                reasons.push("test-code".to_owned());
            }
            for (penalty, reason) in penalties.of(def.file) {
                score *= penalty;
                reasons.push(reason.to_owned());
            }
            if let Some(canonical) = input.search.mirror_of.get(&def.file) {
                score *= MIRROR_PENALTY;
                let path = index.file(*canonical).map(|data| data.path.to_string());
                reasons.push(format!("mirror-of:{}", path.unwrap_or_default()));
            }
            if neighbourhood.neighbours.contains(&def.file)
                && !neighbourhood.primary.contains(&def.file)
            {
                score *= NEIGHBOUR_BOOST;
                reasons.push("import-neighbour".to_owned());
            }
            if Some(def.file) == input.active_file {
                let inside = input
                    .active_offset
                    .and_then(|offset| index.def(def).map(|d| d.range.contains_inclusive(offset)))
                    .unwrap_or(false);
                score *= if inside {
                    ACTIVE_FILE_BOOST * 1.5
                } else {
                    ACTIVE_FILE_BOOST
                };
                reasons.push(if inside {
                    "at-cursor".to_owned()
                } else {
                    "active-file".to_owned()
                });
            } else if neighbourhood.active_neighbours.contains(&def.file) {
                score *= NEIGHBOUR_BOOST;
                reasons.push("near-active-file".to_owned());
            }
            if read_accessors.contains(&def) {
                score *= ACCESSOR_SHARE;
                reasons.push("accessor".to_owned());
            }
            if input.pinned.contains(&def.file) {
                reasons.push("pinned".to_owned());
            }
            let marks = Marks::of(&reasons);
            Ranked {
                def,
                score,
                reasons,
                marks,
                direct: found >= Found::Directly,
                located: found == Found::Located,
                named: found > Found::ByWords || Some(def.file) == input.active_file,
                from_file: score * file_share,
            }
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.def.cmp(&b.def)));
    ranked
}

/// Files, best first: the evidence of their best definitions (see `FILE_EVIDENCE_WEIGHTS`),
/// the file-level evidence those definitions carry counted once, plus the file's own BM25
/// and path-word ranks. A mirror's, auxiliary or declarations-only file's definitions are
/// already scored down; its BM25 and path-word ranks are scored down the same way here.
fn rank_files(
    input: &RankInput<'_>,
    ranked: &[Ranked],
    bm25_files: &[(FileId, f32, f32)],
    path_words: &PathWordMatches,
    penalties: &FilePenalties<'_>,
) -> Vec<RankedFile> {
    let file_factor = |file: &FileId| {
        let mirror = if input.search.mirror_of.contains_key(file) {
            MIRROR_PENALTY
        } else {
            1.0
        };
        penalties.demote(*file, mirror)
    };
    let mut files: FxHashMap<FileId, FileTally> = FxHashMap::default();
    for candidate in ranked {
        let tally = files.entry(candidate.def.file).or_default();
        if tally.n_defs == 0 {
            tally.reasons = candidate.reasons.iter().take(3).cloned().collect();
        }
        if let Some(weight) = FILE_EVIDENCE_WEIGHTS.get(tally.n_defs) {
            tally.score += weight * (candidate.score - candidate.from_file);
        }
        tally.from_file = tally.from_file.max(candidate.from_file);
        tally.n_defs += 1;
    }
    // The file's own evidence (its BM25 and path words, which every definition of it
    // carries) counts once, as much as all weighted definitions would carry it: a file with
    // one large definition (a table of file types) is not outranked by a file with many small
    // ones on the strength of the same file-level match.
    let file_evidence_weight: f32 = FILE_EVIDENCE_WEIGHTS.iter().sum();
    for tally in files.values_mut() {
        tally.score += file_evidence_weight * tally.from_file;
    }
    for (rank, (file, score, _)) in bm25_files.iter().enumerate() {
        let tally = files.entry(*file).or_default();
        tally.score += W_BM25_FILE / (RRF_K + rank as f32 + 1.0) * 0.5 * file_factor(file);
        tally.reasons.push(format!("file-bm25:{score:.2}"));
    }
    for (file, _) in &path_words.scores {
        let (rank, matched) = &path_words.ranks[file];
        let tally = files.entry(*file).or_default();
        tally.score += W_PATH_WORDS / (RRF_K + *rank as f32 + 1.0) * 0.5 * file_factor(file);
        tally.reasons.push(format!("path-words:{matched}"));
    }
    let mut files: Vec<RankedFile> = files
        .into_iter()
        .map(|(file, mut tally)| {
            if tally.n_defs > 1 {
                tally
                    .reasons
                    .push(format!("matching-defs:{}", tally.n_defs));
            }
            if let Some(canonical) = input.search.mirror_of.get(&file) {
                if let Some(data) = input.index.file(*canonical) {
                    let reason = format!("mirror-of:{}", data.path);
                    if !tally.reasons.contains(&reason) {
                        tally.reasons.push(reason);
                    }
                }
            }
            RankedFile {
                file,
                score: tally.score,
                reasons: tally.reasons,
            }
        })
        .collect();
    files.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.file.cmp(&b.file)));
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_read_from_the_reasons_rank_writes() {
        let reasons = |list: &[&str]| list.iter().map(|r| r.to_string()).collect::<Vec<_>>();
        assert_eq!(
            Marks::of(&reasons(&[
                "exact-name",
                "traceback-frame:src/a.py:12",
                "traceback-frame:src/a.py:30",
            ])),
            Marks {
                unique_name: true,
                frame_line: Some(12),
                ..Marks::default()
            }
        );
        // One of several definitions of a name is no unique name.
        assert_eq!(
            Marks::of(&reasons(&[
                "exact-name:get",
                "container-of:Store.get",
                "thrown:E"
            ])),
            Marks {
                qualifier: true,
                thrown: true,
                ..Marks::default()
            }
        );
    }
    use crate::engine::query::analyze;

    /// The index of a fixture (see `index_fixture`) and its search index.
    fn indexed(fixture: &str) -> (Index, SearchIndex) {
        let (index, _) = crate::index::tests::index_fixture(fixture);
        let search = SearchIndex::build(&index, index.generation(), None);
        (index, search)
    }

    /// The ranking of a task with no active or pinned file.
    fn rank_task(index: &Index, search: &SearchIndex, query: &str, intent: IntentKind) -> Ranking {
        rank(&RankInput {
            index,
            search,
            analysis: &analyze(query),
            intent,
            active_file: None,
            active_offset: None,
            pinned: &[],
        })
    }

    /// The reasons of the best-ranked definition named `name` for an implementation task.
    fn reasons_of(index: &Index, search: &SearchIndex, query: &str, name: &str) -> Vec<String> {
        let ranking = rank_task(index, search, query, IntentKind::Implementation);
        ranked_named(index, &ranking, name)
            .map(|ranked| ranked.reasons.clone())
            .unwrap_or_default()
    }

    /// The best-ranked definition named `name`.
    fn ranked_named<'a>(index: &Index, ranking: &'a Ranking, name: &str) -> Option<&'a Ranked> {
        ranking
            .defs
            .iter()
            .find(|ranked| &*index.def(ranked.def).unwrap().name == name)
    }

    /// The ranked files of a task, as (path, reasons), best first.
    fn ranked_files(
        index: &Index,
        search: &SearchIndex,
        query: &str,
        intent: IntentKind,
    ) -> Vec<(String, Vec<String>)> {
        rank_task(index, search, query, intent)
            .files
            .iter()
            .map(|file| {
                let path = index.file(file.file).unwrap().path.to_string();
                (path, file.reasons.clone())
            })
            .collect()
    }

    #[test]
    fn a_package_caches_versioned_directory_is_the_repositorys_own() {
        assert_eq!(unversioned("axum-0.8.4"), "axum");
        assert_eq!(unversioned("tokio-util-0.7.10"), "tokio-util");
        assert_eq!(unversioned("viper@v1.18.2"), "viper");
        assert_eq!(unversioned("axum-extra"), "axum-extra");
        assert_eq!(unversioned("python-3.12"), "python");
        assert_eq!(
            unversioned("index.crates.io-6f17d22bba15001f"),
            "index.crates.io-6f17d22bba15001f"
        );
        let (index, _) = indexed(
            r#"
//- /axum-extra/src/routing/mod.rs
pub fn typed_post() {}
//- /axum/src/routing/mod.rs
pub fn route() {}
"#,
        );
        let files = files_matching_path(
            &index,
            "/root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/axum-0.8.4/src/routing/mod.rs",
        );
        let paths: Vec<&str> = files
            .iter()
            .map(|file| &*index.file(*file).unwrap().path)
            .collect();
        assert_eq!(paths, ["axum/src/routing/mod.rs"]);
    }

    #[test]
    fn a_path_to_the_file_of_a_named_definition_says_where_it_is() {
        let (index, search) = indexed(
            r#"
//- /mux.go
package mux

var ErrNotFound = errors.New("no route")

type Router struct{}

func cleanPath(p string) string { return p }
//- /route.go
package mux

func (r *Route) Match() bool { return true }
"#,
        );
        let path_reasons = |query: &str| -> Vec<String> {
            rank_task(&index, &search, query, IntentKind::TestWriting)
                .defs
                .iter()
                .filter(|ranked| ranked.reasons.iter().any(|r| r.starts_with("path:")))
                .map(|ranked| index.def(ranked.def).unwrap().name.to_string())
                .collect()
        };
        // The file's first definitions are no targets when the task names one of its own.
        assert!(path_reasons("add tests for cleanPath in mux.go").is_empty());
        // Naming the file alone, they stand for it.
        assert!(
            path_reasons("add tests for the functions in mux.go").contains(&"Router".to_owned())
        );
    }

    #[test]
    fn a_rust_backtrace_without_locations_points_at_its_functions_innermost_first() {
        let (index, search) = indexed(
            r#"
//- /Cargo.toml
[package]
name = "bench-tool"
[[bin]]
name = "bt"
path = "src/main.rs"
//- /src/lib.rs
pub mod util;
pub mod runner;
//- /src/main.rs
fn main() {
    bench_tool::runner::Runner::new().run();
}
//- /src/util.rs
pub fn max(values: &[f64]) -> f64 {
    *values.iter().max_by(|a, b| a.partial_cmp(b).unwrap()).unwrap()
}
//- /src/runner.rs
pub struct Runner;
impl Runner {
    pub fn new() -> Runner { Runner }
    pub fn run(&self) -> f64 { crate::util::max(&[]) }
}
//- /build.rs
fn main() {}
"#,
        );
        // A release build: no `at path:line` below the frames.
        let trace = "it crashed\nthread 'main' panicked at library/core/src/option.rs:2:9:\n\
            stack backtrace:\n   0: rust_begin_unwind\n   1: core::option::unwrap_failed\n   \
            2: bench_tool::util::max\n   3: bench_tool::runner::Runner::run\n   \
            4: bt::main\n   5: std::rt::lang_start\n";
        let ranking = rank_task(&index, &search, trace, IntentKind::BugFix);
        let framed: Vec<String> = ranking
            .defs
            .iter()
            .filter(|ranked| ranked.reasons.iter().any(|r| r.starts_with(REASON_FRAME)))
            .map(|ranked| {
                let def = index.def(ranked.def).unwrap();
                format!("{}:{}", index.file(ranked.def.file).unwrap().path, def.name)
            })
            .collect();
        // `bt` is the binary's name: its `main` is `src/main.rs`'s, not the build script's.
        assert_eq!(
            framed,
            ["src/util.rs:max", "src/runner.rs:run", "src/main.rs:main"]
        );
    }

    #[test]
    fn a_frame_from_another_version_of_a_file_points_at_its_function() {
        let (index, search) = indexed(
            r#"
//- /shop/query.py
class QuerySet:
    def count(self):
        return 0

    def get(self, pk):
        if pk is None:
            raise LookupError("no pk")
        return pk

    def create(self, **kwargs):
        return kwargs
"#,
        );
        // Line 10 is `create`'s here: the trace comes from a version where `get` was longer.
        let trace = "Traceback (most recent call last):\n  \
            File \"/venv/site-packages/shop/query.py\", line 10, in get\n    \
            raise LookupError(\"no pk\")\nLookupError: no pk";
        let ranking = rank_task(&index, &search, trace, IntentKind::BugFix);
        let best = &ranking.defs[0];
        assert_eq!(&*index.def(best.def).unwrap().name, "get");
        assert!(best.reasons.iter().any(|r| r == "frame-function:get"));
        assert!(best
            .reasons
            .iter()
            .any(|r| r == "traceback-frame:shop/query.py:10"));
        // A frame whose line is in its function is read as before.
        let trace = trace.replace("line 10", "line 7");
        let ranking = rank_task(&index, &search, &trace, IntentKind::BugFix);
        assert_eq!(&*index.def(ranking.defs[0].def).unwrap().name, "get");
        assert!(!ranking.defs[0]
            .reasons
            .iter()
            .any(|r| r.starts_with("frame-function")));
        assert_eq!(frame_function_name("main.(*Server).handle"), Some("handle"));
        assert_eq!(frame_function_name("<module>"), None);
        assert_eq!(frame_function_name("Object.<anonymous>"), None);
        assert_eq!(frame_function_name("Store.get"), Some("get"));
    }

    #[test]
    fn auxiliary_code_the_product_imports_is_the_products() {
        let (index, _) = indexed(
            r#"
//- /tool/main.py
from benchmark.runner import run
from vendor.colors import paint
def main():
    return paint(run())
//- /benchmark/__init__.py
//- /benchmark/runner.py
from benchmark.stats import mean
def run():
    return mean([1])
//- /benchmark/stats.py
def mean(xs):
    return sum(xs)
//- /benchmarks/suite.py
from tool.main import main
def bench_main():
    return main()
//- /vendor/__init__.py
//- /vendor/colors.py
def paint(x):
    return x
"#,
        );
        let used: Vec<&str> = {
            let mut paths: Vec<&str> = product_auxiliary(&index)
                .into_iter()
                .filter_map(|file| index.file(file).map(|data| &*data.path))
                .collect();
            paths.sort_unstable();
            paths
        };
        assert_eq!(used, ["benchmark/runner.py", "benchmark/stats.py"]);
    }

    #[test]
    fn words_joined_by_hyphens_name_the_definition_they_spell() {
        let (index, search) = indexed(
            r#"
//- /string_to_int64.go
package pflag
func StringToInt64(name string) *map[string]int64 { return nil }
//- /float64.go
package pflag
func Float64(name string) *float64 { return nil }
"#,
        );
        let ranking = rank_task(
            &index,
            &search,
            "Add a map flag like the existing string-to-int64 flag",
            IntentKind::Implementation,
        );
        let reasons = ranked_named(&index, &ranking, "StringToInt64")
            .map(|ranked| ranked.reasons.clone())
            .unwrap_or_default();
        assert!(
            reasons.contains(&"words:stringtoint64~StringToInt64".to_owned()),
            "{reasons:?}"
        );
    }

    #[test]
    fn the_name_a_rename_gives_counts_only_beside_the_renamed_definition() {
        let (index, search) = indexed(
            r#"
//- /app/config.py
def load_settings(path):
    return path

def read_settings(path):
    return path
//- /app/forms.py
def load_config(form):
    return form
"#,
        );
        let ranking = rank_task(
            &index,
            &search,
            "rename load_settings to load_config",
            IntentKind::Refactor,
        );
        let reasons = |name: &str| {
            ranked_named(&index, &ranking, name)
                .map(|ranked| ranked.reasons.clone())
                .unwrap_or_default()
        };
        assert!(reasons("load_settings").iter().any(|r| r == "exact-name"));
        // Another file's `load_config` is not what the task is about.
        assert!(!reasons("load_config")
            .iter()
            .any(|r| r.starts_with("exact-name") || r.starts_with("renamed-to")));
        // Beside the renamed definition, a definition of the new name is one it may clash
        // with.
        let ranking = rank_task(
            &index,
            &search,
            "rename load_settings to read_settings",
            IntentKind::Refactor,
        );
        let beside = ranked_named(&index, &ranking, "read_settings").unwrap();
        assert!(beside
            .reasons
            .iter()
            .any(|r| r == "renamed-to:read_settings"));
    }

    #[test]
    fn a_task_about_tests_ranks_the_code_under_test_above_its_tests() {
        let (index, search) = indexed(
            r#"
//- /django/utils/text.py
def slugify(value, allow_unicode=False):
    """Convert to ASCII and lowercase, dropping what is not a letter or a digit."""
    return value.lower()
//- /tests/utils_tests/test_slugify.py
from django.utils.text import slugify

def test_slugify():
    assert slugify("Hello World") == "hello-world"

def test_slugify_unicode():
    assert slugify("Héllo", allow_unicode=True) == "héllo"
//- /django/utils/html.py
def escape(text):
    return text
//- /django/utils/dates.py
def parse_date(value):
    return value
//- /django/utils/encoding.py
def force_str(value):
    return str(value)
//- /django/utils/timezone.py
def now():
    return 0
//- /django/utils/http.py
def urlencode(query):
    return query
//- /django/utils/crypto.py
def salted_hmac(key):
    return key
"#,
        );
        let ranking = rank_task(
            &index,
            &search,
            "write tests for slugify",
            IntentKind::TestWriting,
        );
        let subject = ranked_named(&index, &ranking, "slugify").unwrap();
        let test = ranked_named(&index, &ranking, "test_slugify").unwrap();
        assert!(subject.score > test.score, "{subject:?} {test:?}");
        assert!(test.reasons.iter().any(|reason| reason == "test-code"));
        assert_eq!(
            ranking
                .files
                .first()
                .map(|file| index.file(file.file).unwrap().path.as_ref()),
            Some("django/utils/text.py")
        );
    }

    #[test]
    fn a_definition_found_by_bm25_alone_is_not_named() {
        let (index, search) = indexed(
            r#"
//- /shop/db.py
def connect(url):
    """Opens the pool."""
    return url
//- /shop/pool.py
def drain():
    """Empties the pool."""
    return 1
"#,
        );
        let ranking = rank_task(
            &index,
            &search,
            "fix `connect` when the pool is empty",
            IntentKind::BugFix,
        );
        let named = |name: &str| ranked_named(&index, &ranking, name).map(|ranked| ranked.named);
        assert_eq!(named("connect"), Some(true));
        assert_eq!(named("drain"), Some(false));
        assert_eq!(
            index
                .file(index.defs_named("drain")[0].file)
                .unwrap()
                .path
                .as_ref(),
            "shop/pool.py"
        );
    }

    #[test]
    fn the_verb_opening_a_list_item_names_nothing() {
        let (index, search) = indexed(
            "//- /lib/parser.js\nfunction remove(parser) { return parser.pop() }\n\
             //- /lib/a.js\nfunction a() {}\n//- /lib/b.js\nfunction b() {}\n\
             //- /lib/c.js\nfunction c() {}\n//- /lib/d.js\nfunction d() {}\n",
        );
        let named = |query: &str| {
            reasons_of(&index, &search, query, "remove").contains(&"word-is-name:remove".to_owned())
        };
        assert!(!named(
            "fix: handle the type\n\n* remove unnecessary comment"
        ));
        assert!(named("the parser should remove the last item"));
    }

    #[test]
    fn a_name_a_traces_frame_is_in_is_that_frames_definition() {
        let (index, search) = indexed(
            "//- /src/attr/_make.py\n\
             def evolve(inst, **changes):\n    cls = inst.__class__\n    return cls(**changes)\n\n\
             class Attribute:\n    def evolve(self, **changes):\n        return self\n\
             //- /src/a.py\ndef a():\n    pass\n//- /src/b.py\ndef b():\n    pass\n",
        );
        let trace = "Traceback (most recent call last):\n  \
            File \"repro.py\", line 9, in <module>\n    attrs.evolve(c, _secret=3)\n  \
            File \"/home/me/attrs/src/attr/_make.py\", line 3, in evolve\n    \
            return cls(**changes)\nTypeError: unexpected keyword argument\n\n\
            evolve() on a class with a private attribute fails";
        let ranking = rank_task(&index, &search, trace, IntentKind::BugFix);
        let exact = |container: Option<&str>| {
            ranking.defs.iter().any(|ranked| {
                index.def(ranked.def).unwrap().name.as_ref() == "evolve"
                    && index.container_name(ranked.def) == container
                    && ranked.reasons.iter().any(|r| r.starts_with("exact-name"))
            })
        };
        assert!(exact(None));
        assert!(!exact(Some("Attribute")));
        // Nor is the word `evolve` of the task's prose the method's name.
        let method = ranking
            .defs
            .iter()
            .find(|ranked| index.container_name(ranked.def) == Some("Attribute"));
        assert!(method
            .is_none_or(|ranked| !ranked.reasons.iter().any(|r| r.starts_with("word-is-name"))));
    }

    #[test]
    fn a_word_of_prose_names_no_constant_written_in_capitals() {
        let (index, search) = indexed(
            "//- /src/utils.ts\nexport const PROTOTYPE = Object.getPrototypeOf({});\n\
             export function each(obj) { return obj; }\n\
             //- /src/a.ts\nexport function a() {}\n//- /src/b.ts\nexport function b() {}\n\
             //- /src/c.ts\nexport function c() {}\n",
        );
        let named = |query: &str| {
            reasons_of(&index, &search, query, "PROTOTYPE")
                .iter()
                .any(|r| r.starts_with("word-is-name"))
        };
        assert!(!named("each should skip keys from the prototype chain"));
        // Written in capitals, it is the constant's name.
        assert!(named("each should skip keys of PROTOTYPE"));
    }

    #[test]
    fn the_qualifier_of_a_named_member_is_its_container_not_a_word_that_is_a_name() {
        let (index, search) = indexed(
            "//- /src/store.ts\nexport class Store {\n  strict() { return this; }\n}\n\
             //- /src/a.ts\nexport function a() {}\n//- /src/b.ts\nexport function b() {}\n\
             //- /src/c.ts\nexport function c() {}\n",
        );
        let qualified = reasons_of(&index, &search, "where is Store.strict used", "Store");
        assert!(qualified.iter().any(|r| r == "container-of:Store.strict"));
        assert!(!qualified.iter().any(|r| r.starts_with("word-is-name")));
        // Written alone, the word is the name of its subject.
        let alone = reasons_of(&index, &search, "where is the store used", "Store");
        assert!(alone.iter().any(|r| r == "word-is-name:store"));
    }

    #[test]
    fn the_qualifier_of_a_named_member_is_the_type_holding_it() {
        let (index, search) = indexed(
            "//- /gin.go\npackage gin\n\ntype Engine struct{}\n\n\
             func (engine *Engine) handleHTTPRequest() {}\n\
             //- /binding/binding.go\npackage binding\n\n\
             type StructValidator interface {\n\tEngine() any\n}\n\
             //- /a.go\npackage gin\n\nfunc a() {}\n//- /b.go\npackage gin\n\nfunc b() {}\n",
        );
        let ranking = rank_task(
            &index,
            &search,
            "who calls Engine.handleHTTPRequest",
            IntentKind::UsageExploration,
        );
        let containers: Vec<String> = ranking
            .defs
            .iter()
            .filter(|ranked| {
                ranked
                    .reasons
                    .iter()
                    .any(|r| r.starts_with("container-of:"))
            })
            .map(|ranked| {
                let path = &index.file(ranked.def.file).unwrap().path;
                format!("{path}:{}", index.def(ranked.def).unwrap().name)
            })
            .collect();
        assert_eq!(containers, ["gin.go:Engine"]);
    }

    #[test]
    fn a_member_whose_container_the_other_words_name_is_named_by_them() {
        let (index, search) = indexed(
            r#"
//- /src/ctx.py
class AppContext:
    def push(self): self.stack.append(self)
    def pop(self): self.stack.pop()
//- /src/queue.py
class Queue:
    def push(self, item): self.items.append(item)
//- /src/app.py
class App:
    def run(self): pass
"#,
        );
        let ranking = rank_task(
            &index,
            &search,
            "where is the app context pushed",
            IntentKind::UsageExploration,
        );
        let position = |container: &str| {
            ranking.defs.iter().position(|ranked| {
                &*index.def(ranked.def).unwrap().name == "push"
                    && index.container_name(ranked.def) == Some(container)
            })
        };
        let pushed = &ranking.defs[position("AppContext").unwrap()];
        assert!(pushed
            .reasons
            .contains(&"member-in-words:AppContext.push".to_owned()));
        // The queue's `push` has no container in the task's words.
        if let Some(queue) = position("Queue") {
            assert!(position("AppContext") < Some(queue));
            assert!(!ranking.defs[queue]
                .reasons
                .iter()
                .any(|reason| reason.starts_with("member-in-words")));
        }
    }

    #[test]
    fn a_types_own_impl_ranks_above_its_trait_impls() {
        let (index, _) = indexed(
            r#"
//- /src/router.rs
use std::fmt;
impl fmt::Debug for Router {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str("Router") }
}
impl Router {
    pub fn route(mut self, path: &str) -> Self { self.routes.push(path.into()); self }
}
pub struct Router { routes: Vec<String> }
"#,
        );
        let mut defs = index.defs_named("Router").to_vec();
        order_same_name(&index, &mut defs);
        let order: Vec<String> = defs
            .iter()
            .map(|def| index.def(*def).unwrap().signature.to_string())
            .collect();
        assert_eq!(
            order,
            [
                "pub struct Router",
                "impl Router",
                "impl fmt::Debug for Router"
            ],
        );
    }

    #[test]
    fn a_receivers_member_means_what_the_code_writing_it_resolves_to() {
        let (index, search) = indexed(
            r#"
//- /src/context.ts
export class Context {
  json(value: unknown) { return new Response(JSON.stringify(value)) }
}
//- /src/request.ts
export class HonoRequest {
  json() { return this.raw.json() }
}
//- /src/handlers.ts
import { Context } from './context'
export const list = (c: Context) => c.json([])
export const show = (c: Context) => c.json({})
export const fail = (c: Context) => c.json({ error: true })
"#,
        );
        let ranking = rank_task(
            &index,
            &search,
            "c.json() sets the wrong header",
            IntentKind::BugFix,
        );
        let named: Vec<(Option<&str>, &Vec<String>)> = ranking
            .defs
            .iter()
            .filter(|ranked| &*index.def(ranked.def).unwrap().name == "json")
            .map(|ranked| (index.container_name(ranked.def), &ranked.reasons))
            .collect();
        assert_eq!(named[0].0, Some("Context"), "{named:?}");
        assert!(named[0]
            .1
            .contains(&"receiver-as-used:c.json~Context".to_owned()));
        // The request's `json` is not named.
        assert!(named
            .iter()
            .all(|(container, reasons)| *container == Some("Context")
                || !reasons.iter().any(|reason| reason.starts_with("exact-name")
                    || reason.starts_with("receiver-as-used"))));
        // Where no use says what `r` is, `r.json` may mean either.
        let ranking = rank_task(
            &index,
            &search,
            "r.json() sets the wrong header",
            IntentKind::BugFix,
        );
        assert!(!ranking.defs.iter().any(|ranked| ranked
            .reasons
            .iter()
            .any(|reason| reason.starts_with("receiver-as-used"))));
    }

    #[test]
    fn a_files_agent_noun_stands_for_the_tasks_verb() {
        let (index, search) = indexed(
            r#"
//- /src/errors.ts
export class Issue { message: string; code: string; path: string[] }
//- /src/parser.ts
export function check(input: unknown, expected: string) {
  if (typeof input !== "bigint") return new Issue(expected)
}
//- /src/printer.ts
export function line(text: string) { return text }
//- /src/a.ts
export function a() {}
//- /src/b.ts
export function b() {}
//- /src/c.ts
export function c() {}
//- /src/d.ts
export function d() {}
"#,
        );
        let files = |query: &str| ranked_files(&index, &search, query, IntentKind::BugFix);
        let ranked = files("Correct the expected type name in bigint parse errors");
        assert_eq!(ranked[0].0, "src/parser.ts", "{ranked:?}");
        assert!(ranked[0].1.contains(&"path-words:parser".to_owned()));
        // Another verb: the file name says nothing.
        let ranked = files("Correct the expected type name in bigint check errors");
        let parser = ranked
            .iter()
            .find(|(path, _)| path == "src/parser.ts")
            .unwrap();
        assert!(!parser
            .1
            .iter()
            .any(|reason| reason.starts_with("path-words")));
    }

    #[test]
    fn a_new_type_named_after_its_kind_points_at_the_kind() {
        let (index, search) = indexed(
            r#"
//- /app/responses.py
class Response:
    def render(self, content): return content
class JSONResponse(Response):
    def render(self, content): return dumps(content)
//- /app/environment.py
def get_template(env, name): return env.get_template(name)
//- /app/a.py
def a(): pass
//- /app/b.py
def b(): pass
"#,
        );
        let ranked = ranked_files(
            &index,
            &search,
            "Add TemplateResponse",
            IntentKind::Implementation,
        );
        assert_eq!(ranked[0].0, "app/responses.py");
        assert!(ranked[0]
            .1
            .contains(&"kind-of:TemplateResponse~Response".to_owned()));
        // Only a tail is a kind: a name is not its own.
        assert!(kind_of_new_type(&index, "JSONResponse").is_some());
        assert!(kind_of_new_type(&index, "Response").is_none());
        assert!(kind_of_new_type(&index, "templateResponse").is_none());
    }

    #[test]
    fn a_task_lifts_the_penalty_of_the_auxiliary_code_it_names_alone() {
        let (index, search) = indexed(
            r#"
//- /docs/conf.py
def setup_packages(app): return app.packages
//- /lib/packages/urllib3/pool.py
def connection_packages(pool): return pool.packages
"#,
        );
        let demoted = |query: &str, name: &str| {
            reasons_of(&index, &search, query, name).contains(&"auxiliary-code".to_owned())
        };
        let task = "remove the vendored packages";
        assert!(!demoted(task, "connection_packages"));
        assert!(demoted(task, "setup_packages"));
        let task = "remove the packages from the docs";
        assert!(demoted(task, "connection_packages"));
        assert!(!demoted(task, "setup_packages"));
    }

    #[test]
    fn a_word_that_only_may_be_a_name_names_it_as_written() {
        let (index, search) = indexed(
            r#"
//- /src/store.rs
pub struct Session {}
pub struct I {}
impl Session {
    pub fn new() -> Session { Session {} }
}
"#,
        );
        let reasons_of = |query: &str, name: &str| reasons_of(&index, &search, query, name);
        let exact = |reasons: Vec<String>| reasons.iter().any(|r| r.starts_with("exact-name"));
        // Capitalized prose (`OLD NEW`) is not the method `new`; `Session` is the type.
        let query = "add a rename command taking OLD NEW for the Session type";
        assert!(exact(reasons_of(query, "Session")));
        assert!(!exact(reasons_of(query, "new")));
        // Written as code, the name matches whatever its case.
        assert!(exact(reasons_of("call `NEW` on it", "new")));
        // Not a name of one or two letters: `i` is a variable, not the type `I`.
        assert!(!exact(reasons_of("whether `i` is the position", "I")));
    }

    #[test]
    fn a_capitalized_word_opening_a_sentence_may_name_a_type() {
        let (index, search) = indexed(
            r#"
//- /src/click/core.py
class Option:
    def __init__(self, help=None):
        self.help = help
class Command:
    pass
//- /src/click/decorators.py
def option(*param_decls, **attrs):
    return attrs
"#,
        );
        let reasons_of = |query: &str, name: &str| reasons_of(&index, &search, query, name);
        let opening = |reasons: Vec<String>| reasons.iter().any(|r| r.starts_with("opening-word"));
        assert!(opening(reasons_of(
            "Option calls cleandoc on help instead of @option",
            "Option"
        )));
        // Grammar names no type; a function of that name is not the subject.
        assert!(!opening(reasons_of(
            "Make sure output is flushed",
            "Command"
        )));
        assert!(!opening(reasons_of("Option. calls", "option")));
    }

    #[test]
    fn a_configured_accessor_points_at_the_code_reading_its_field() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /src/lib.rs
pub struct Options {
    contents_first: bool,
    a: bool,
    b: bool,
    c: bool,
    d: bool,
    e: bool,
}
pub struct WalkDir {
    opts: Options,
}
impl WalkDir {
    pub fn contents_first(mut self, yes: bool) -> Self {
        self.opts.contents_first = yes;
        self
    }
}
pub struct Iter {
    opts: Options,
}
impl Iter {
    fn handle_entry(&mut self) -> bool {
        if self.opts.contents_first {
            return true;
        }
        false
    }
    fn dump(&self) -> (bool, bool, bool, bool, bool, bool) {
        (self.opts.contents_first, self.opts.a, self.opts.b, self.opts.c, self.opts.d,
            self.opts.e)
    }
}
//- /demo/main.rs
pub struct Args {
    contents_first: bool,
}
fn run(args: Args) -> bool {
    args.contents_first
}
"#,
        );
        let readers = |task: &str| -> Vec<String> {
            let analysis = analyze(task);
            let named = named_targets(&index, &analysis, &FrameNames::default());
            let (readers, accessors) = accessor_readers(&index, &analysis, &named.exact);
            assert_eq!(accessors.is_empty(), readers.is_empty());
            readers
                .iter()
                .map(|(def, reason)| format!("{} {reason}", index.def(*def).unwrap().name))
                .collect()
        };
        // Not the dump of every field, nor another type's field of that name.
        assert_eq!(
            readers("With contents_first(true) some directories are never yielded"),
            ["handle_entry reads:contents_first"]
        );
        // Named, not configured: the accessor may be what changes.
        assert!(readers("contents_first should return a Result").is_empty());
    }

    #[test]
    fn a_name_only_another_casing_defines_points_at_the_code_using_it_as_written() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /src/store.ts
export type RecomputeAtoms = (store: number) => void
export function flush(blocks: any[]) {
  const recomputeAtoms = blocks[3]
  recomputeAtoms(1)
}
export function unrelated() {}
"#,
        );
        let usages = |task: &str| -> Vec<String> {
            external_usages(&index, &analyze(task))
                .iter()
                .map(|(def, reason)| format!("{} {reason}", index.def(*def).unwrap().name))
                .collect()
        };
        // `recomputeAtoms` is a value here, not the type `RecomputeAtoms`.
        assert_eq!(
            usages("Rename recomputeAtoms to recomputeStaleAtoms"),
            ["flush uses:recomputeAtoms"]
        );
        // The type's own name is defined: no uses of it come this way.
        assert!(usages("Rename RecomputeAtoms to RecomputeStaleAtoms").is_empty());
    }

    #[test]
    fn identifiers_defined_nowhere_point_at_the_code_that_uses_them() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /src/record.ts
export function parseRecord(input: object) {
  for (const key of Reflect.ownKeys(input)) { check(key); }
}
export function check(key: unknown) {}
//- /src/other.ts
export function keysOf(map: Map<string, number>) { return map.ownKeys(); }
export function unrelated() {}
export function replace(ownKeys: string) { return ownKeys; }
//- /src/first.rs
pub fn first(keys: &[u8]) -> Option<u8> { if keys.is_empty() { None } else { Some(keys[0]) } }
"#,
        );
        let analysis = analyze("skip non-enumerable keys: `Reflect.ownKeys` returns them too");
        let usages = external_usages(&index, &analysis);
        let names: Vec<&str> = usages
            .iter()
            .map(|(def, _)| &*index.def(*def).unwrap().name)
            .collect();
        // The use on the named receiver first, then other uses of the name as a member;
        // not a parameter or a variable of that name (`replace`).
        assert_eq!(names, ["parseRecord", "keysOf"]);
        assert_eq!(usages[0].1, "uses:Reflect.ownKeys");
        // A name the repository defines is a mention, not an external identifier.
        let analysis = analyze("why does `check` reject symbols");
        assert!(external_usages(&index, &analysis).is_empty());
        // A qualified name none of whose uses is on its receiver is not what they use
        // (`attribute='meta.ownKeys'` is a value), nor is a capitalized word of prose.
        for task in [
            "skip non-enumerable keys: `meta.ownKeys` returns them too",
            "the key check returns None for Symbols",
        ] {
            assert!(external_usages(&index, &analyze(task)).is_empty(), "{task}");
        }
        // Written as code, it is one.
        let usages = external_usages(&index, &analyze("the key check returns `None`"));
        assert_eq!(usages.len(), 1, "{usages:?}");
    }

    #[test]
    fn the_code_using_what_a_change_replaces_comes_before_the_code_using_its_replacement() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /src/help.ts
export function pad(text: string) { return text.trimEnd(); }
//- /src/wrap.ts
export function wrap(text: string) { return text.trimRight(); }
"#,
        );
        for task in [
            "Use `trimEnd` instead of `trimRight`",
            "Replace `trimRight` with `trimEnd` in the help text",
        ] {
            let usages = external_usages(&index, &analyze(task));
            let names: Vec<&str> = usages
                .iter()
                .map(|(def, _)| &*index.def(*def).unwrap().name)
                .collect();
            assert_eq!(names, ["wrap", "pad"], "{task}");
        }
    }

    #[test]
    fn a_name_the_change_uses_ranks_the_code_using_it_above_its_definition() {
        let (index, search) = indexed(
            r#"
//- /requests/exceptions.py
class RequestException(IOError):
    """There was an ambiguous exception that occurred while handling your request."""
class InvalidURL(RequestException, ValueError):
    """The URL provided was somehow invalid."""
class InvalidHeader(RequestException, ValueError):
    """The header value provided was somehow invalid."""
//- /requests/models.py
from .exceptions import InvalidURL
class PreparedRequest:
    def prepare_url(self, url):
        host = parse(url)
        if not host:
            raise InvalidURL("Invalid URL: No host supplied")
//- /requests/utils.py
def unrelated(url):
    return url
//- /requests/hooks.py
def dispatch_hook(key, hooks):
    return hooks
//- /requests/cookies.py
def merge_cookies(jar, cookies):
    return jar
//- /requests/status.py
def lookup(code):
    return code
//- /requests/auth.py
def basic_auth(user, password):
    return user
//- /requests/structures.py
class CaseInsensitiveDict(dict):
    pass
//- /requests/compat.py
def to_native(text):
    return text
"#,
        );
        let ranking_of = |query: &str| rank_task(&index, &search, query, IntentKind::BugFix);
        let first_file = |query: &str| {
            let ranking = ranking_of(query);
            index.file(ranking.files[0].file).unwrap().path.to_string()
        };
        let reasons = |query: &str, name: &str| {
            ranked_named(&index, &ranking_of(query), name)
                .map(|ranked| ranked.reasons.clone())
                .unwrap_or_default()
        };
        // Raised by the change: the code raising it comes first, the class still ranks.
        let raised = "Raise InvalidURL if the host starts with a dot";
        assert_eq!(first_file(raised), "requests/models.py");
        assert!(reasons(raised, "prepare_url").contains(&"uses:InvalidURL".to_owned()));
        assert!(reasons(raised, "InvalidURL").contains(&"exact-name".to_owned()));
        // The subject of the change: its definition comes first.
        let changed = "InvalidURL should say which URL was invalid";
        assert_eq!(first_file(changed), "requests/exceptions.py");
        assert!(!reasons(changed, "prepare_url").contains(&"uses:InvalidURL".to_owned()));
        // A tool's name is not looked up again as a word that is a name.
        let word_is_name = |query: &str| {
            reasons(query, "InvalidURL")
                .iter()
                .any(|reason| reason.starts_with("word-is-name"))
        };
        assert!(!word_is_name(raised));
        assert!(word_is_name(changed));
    }

    #[test]
    fn a_name_that_may_mean_several_definitions_counts_as_a_fuzzy_match() {
        let (index, search) = indexed(
            r#"
//- /route.go
package mux
type methodMatcher []string
func (m methodMatcher) Match(r *Request) bool { return true }
type schemeMatcher []string
func (m schemeMatcher) Match(r *Request) bool { return true }
type headerMatcher map[string]string
func (m headerMatcher) Match(r *Request) bool { return true }
//- /regexp.go
package mux
type routeRegexp struct { template string }
func (r *routeRegexp) Match(req *Request) bool { return r.template != "" }
"#,
        );
        let first_file = |query: &str| {
            let ranking = rank_task(&index, &search, query, IntentKind::BugFix);
            index.file(ranking.files[0].file).unwrap().path.to_string()
        };
        // Three `Match` methods in route.go do not outweigh the one name written as code.
        assert_eq!(
            first_file("Instead of checking the template on every Match request, a bool is added to the routeRegexp"),
            "regexp.go"
        );
        // Nor do they as a member of a receiver that is none of their types.
        assert_eq!(
            first_file("Check the template before `req.Match` is called on the routeRegexp"),
            "regexp.go"
        );
    }

    #[test]
    fn a_name_written_as_code_that_only_a_module_has_points_at_the_module() {
        let (index, search) = indexed(
            r#"
//- /src/click/formatting.py
class HelpFormatter:
    def __init__(self, width=None):
        self.width = width
    def write_dl(self, rows):
        pass
//- /src/click/_compat.py
def get_text_stdout():
    pass
//- /src/click/core.py
class Context:
    def __init__(self, command, parent=None):
        self.command = command
        self.parent = parent
        self.instance_attributes = {}
//- /tests/test_formatting.py
def test_write_dl():
    pass
"#,
        );
        let first = |query: &str| {
            let ranking = rank_task(&index, &search, query, IntentKind::Refactor);
            let best = &ranking.files[0];
            let path = index.file(best.file).unwrap().path.to_string();
            (path, best.reasons.clone())
        };
        let (path, reasons) = first("Add type annotations for instance attributes in `formatting`");
        assert_eq!(path, "src/click/formatting.py");
        assert!(
            reasons.contains(&"module:formatting".to_owned()),
            "{reasons:?}"
        );
        // A private module's name without its underscore.
        let (path, _) = first("Move the stream helpers out of `compat`");
        assert_eq!(path, "src/click/_compat.py");
        // A name some definition has is that definition, not a module.
        let (path, _) = first("Rename `HelpFormatter` attributes");
        assert_eq!(path, "src/click/formatting.py");
    }

    #[test]
    fn definitions_where_named_things_meet_rank_by_how_many_they_reference() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /errors.go
package cli
func HandleExitCoder(err error) {}
//- /command.go
package cli
type Command struct { Before func() error; After func() error }
func (c *Command) Run() error {
	if err := c.Before(); err != nil { HandleExitCoder(err) }
	if err := c.After(); err != nil { HandleExitCoder(err) }
	return nil
}
func (c *Command) Setup() { c.After = nil }
"#,
        );
        let met = |query: &str| -> Vec<String> {
            co_references(&index, &analyze(query).mentions)
                .iter()
                .map(|(def, reason)| format!("{} {reason}", index.def(*def).unwrap().name))
                .collect()
        };
        assert_eq!(
            met(
                "errors from `Before` should be handled by `HandleExitCoder` as `After` errors are"
            ),
            ["Run co-uses:Before+HandleExitCoder+After"]
        );
        // One name written as code meets nothing; prose words are not names.
        assert!(met("errors from Before are handled by `HandleExitCoder`").is_empty());
    }

    #[test]
    fn names_defined_only_as_fields_point_at_the_code_that_reads_them() {
        let (index, _) = crate::index::tests::index_fixture(
            r#"
//- /source/types/options.ts
export interface Options {
  credentials?: string;
  timeout?: number;
}
//- /source/core/client.ts
export class Client {
  constructor(input: Request, options: Options) {
    this.request = new Request(input, { credentials: options.credentials });
  }
  timeoutOf(options: Options) { return options.timeout; }
}
"#,
        );
        let usages_of = |query: &str| -> Vec<String> {
            external_usages(&index, &analyze(query))
                .iter()
                .map(|(def, reason)| format!("{} {reason}", index.def(*def).unwrap().name))
                .collect()
        };
        // Written as code, a field's name points at the code reading it too.
        assert_eq!(
            usages_of("copying `options.credentials` over is unnecessary"),
            ["constructor uses:options.credentials"]
        );
        // A name that is also a function or a type is a mention only.
        assert!(usages_of("when `Client` times out").is_empty());
        // A plain word that happens to name a field is not code.
        assert!(usages_of("pass the credentials on").is_empty());
        // With a pasted trace the frames point at the code; its lines name fields everywhere.
        let trace = "`options.credentials` is undefined\nTypeError: boom\n    at new Client (source/core/client.ts:3:5)";
        assert!(!analyze(trace).frames.is_empty());
        assert!(usages_of(trace).is_empty());
    }

    #[test]
    fn a_qualified_member_the_type_inherits_names_its_bases_member() {
        let (index, search) = indexed(
            r#"
//- /admin/options.py
class BaseModelAdmin:
    def get_queryset(self, request):
        return self.model.objects.all()

class ModelAdmin(BaseModelAdmin):
    def changelist_view(self, request):
        return self.get_queryset(request)
//- /admin/views.py
class ListView:
    def get_queryset(self):
        return []
//- /tests/test_admin.py
class ModelAdmin(admin.ModelAdmin):
    def get_queryset(self, request):
        return []
"#,
        );
        let ranking = rank_task(
            &index,
            &search,
            "what does ModelAdmin.get_queryset return",
            IntentKind::DefinitionLookup,
        );
        let best = &ranking.defs[0];
        let def = index.def(best.def).unwrap();
        assert_eq!(
            index.file(best.def.file).unwrap().path.as_ref(),
            "admin/options.py"
        );
        assert_eq!(&*def.name, "get_queryset");
        assert!(
            best.reasons.iter().any(|r| r.starts_with("exact-name")),
            "{:?}",
            best.reasons
        );
    }

    #[test]
    fn files_that_only_declare_types_rank_below_code_when_behaviour_changes() {
        let (index, search) = indexed(
            r#"
//- /source/types/retry.ts
/** Retry options: the retry limit, the retry methods and the retry status codes. */
export interface RetryOptions {
  /** The retry limit. */
  limit?: number;
  /** Methods to retry. */
  methods?: string[];
  /** Status codes to retry. */
  statusCodes?: number[];
}
//- /source/core/client.ts
export function send(request: Request, options: RetryOptions) {
  let attempts = 0;
  while (attempts < options.limit) { attempts += 1; }
  return fetch(request);
}
"#,
        );
        let top_file = |query: &str, intent: IntentKind| -> (String, Vec<String>) {
            let ranking = rank_task(&index, &search, query, intent);
            let best = &ranking.files[0];
            let path = index.file(best.file).unwrap().path.to_string();
            let declarations = ranking
                .defs
                .iter()
                .filter(|ranked| ranked.reasons.iter().any(|r| r == "declarations-only"))
                .map(|ranked| index.def(ranked.def).unwrap().name.to_string())
                .collect();
            (path, declarations)
        };
        let query = "fix the retry limit being ignored when retrying attempts";
        let (path, declarations) = top_file(query, IntentKind::BugFix);
        assert_eq!(path, "source/core/client.ts");
        assert!(declarations.contains(&"RetryOptions".to_owned()));
        // Looking a name up, or a task about the types themselves, does not score them down.
        let (_, declarations) = top_file(query, IntentKind::DefinitionLookup);
        assert!(declarations.is_empty());
        let (path, declarations) = top_file("add a type for the retry limit", IntentKind::BugFix);
        assert_eq!(path, "source/types/retry.ts");
        assert!(declarations.is_empty());
        // A rename changes the name's declarations too.
        let (_, declarations) =
            top_file("rename the retry limit to maxRetries", IntentKind::Refactor);
        assert!(declarations.is_empty());
        // Naming the language of the declarations, or their namespace, asks about them too.
        let (_, declarations) = top_file(
            "fix the retry limit of the TypeScript namespace",
            IntentKind::BugFix,
        );
        assert!(declarations.is_empty());
    }

    #[test]
    fn a_commit_scope_naming_a_directory_puts_the_change_inside_it() {
        let (index, search) = indexed(
            r#"
//- /crates/matcher/src/lib.rs
/// Finds matches; the line terminator ends a line, and a line terminator is never matched.
pub fn find_line_terminator(haystack: &[u8], line_terminator: u8) -> Option<usize> {
    haystack.iter().position(|byte| *byte == line_terminator)
}
//- /crates/printer/src/standard.rs
pub fn write_line(line: &[u8], terminator: u8) {
    let trimmed = line.strip_suffix(&[terminator]).unwrap_or(line);
    print(trimmed);
}
"#,
        );
        let top_file = |query: &str| {
            ranked_files(&index, &search, query, IntentKind::BugFix)[0]
                .0
                .clone()
        };
        let task = "trim the line terminator before finding matches";
        assert_eq!(top_file(task), "crates/matcher/src/lib.rs");
        assert_eq!(
            top_file(&format!("printer: {task}")),
            "crates/printer/src/standard.rs"
        );
        // A scope that names only a file, or a kind of change, leaves the other files be;
        // so does a path or a URL opening the task, which no colon and space end.
        for scoped in [
            format!("standard: {task}"),
            format!("doc: {task}"),
            format!("printer::write_line: {task}"),
            format!("printer://{task}"),
        ] {
            let ranking = rank_task(&index, &search, &scoped, IntentKind::BugFix);
            assert!(
                ranking
                    .defs
                    .iter()
                    .all(|ranked| !ranked.reasons.iter().any(|r| r == "out-of-scope")),
                "{scoped}"
            );
        }
    }

    #[test]
    fn a_flag_points_past_the_usage_text_to_the_code_that_reads_it() {
        let mut app = String::from("//- /src/app.rs\nconst USAGE: &str = \"\n");
        app.push_str("    -X, --exec-batch <cmd>   Run a command for all results at once\n");
        for idx in 0..25 {
            app.push_str(&format!("    line {idx} of the usage text\n"));
        }
        app.push_str(
            "\";\npub fn build() -> App { App::new().arg(Arg::with_name(\"exec-batch\")) }\n",
        );
        app.push_str("//- /src/main.rs\nfn run(matches: &Matches) { if matches.is_present(\"exec-batch\") { batch() } }\n");
        let (index, search) = indexed(&app);
        let ranking = rank_task(
            &index,
            &search,
            "Error out if no args provided to --exec-batch",
            IntentKind::BugFix,
        );
        let literal_holders: Vec<&str> = ranking
            .defs
            .iter()
            .filter(|ranked| ranked.reasons.iter().any(|r| r.starts_with("literal:")))
            .map(|ranked| &*index.def(ranked.def).unwrap().name)
            .collect();
        assert!(literal_holders.contains(&"build"), "{literal_holders:?}");
        assert!(literal_holders.contains(&"run"), "{literal_holders:?}");
        assert!(!literal_holders.contains(&"USAGE"), "{literal_holders:?}");
    }

    #[test]
    fn quoted_text_points_at_the_code_that_holds_it() {
        let (index, search) = indexed(
            r##"
//- /doc/man_docs.go
package doc

func genMan(cmd *Command, buf *bytes.Buffer) {
	buf.WriteString("# SEE ALSO\n")
	for _, c := range cmd.Commands() {
		buf.WriteString(c.Name() + ", ")
	}
}
//- /command.go
package cobra

// Commands returns the sub-commands.
func (c *Command) Commands() []*Command { return c.commands }

// Name returns the command's name.
func (c *Command) Name() string { return c.use }
//- /doc/man_docs_test.go
func TestGenManSeeAlso(t *testing.T) { check(t, "SEE ALSO") }
//- /doc/md_docs_test.go
func TestGenMdSeeAlso(t *testing.T) { check(t, "SEE ALSO") }
//- /doc/rest_docs_test.go
func TestGenRestSeeAlso(t *testing.T) { check(t, "SEE ALSO") }
//- /doc/yaml_docs_test.go
func TestGenYamlSeeAlso(t *testing.T) { check(t, "SEE ALSO") }
"##,
        );
        let ranking = rank_task(
            &index,
            &search,
            "Ensure SEE ALSO list has no leading comma",
            IntentKind::BugFix,
        );
        let best = &ranking.defs[0];
        assert_eq!(&*index.def(best.def).unwrap().name, "genMan");
        assert!(best.reasons.contains(&"literal:SEE ALSO".to_owned()));
        assert_eq!(
            index.file(ranking.files[0].file).unwrap().path.as_ref(),
            "doc/man_docs.go"
        );
    }

    #[test]
    fn a_quote_is_tried_whole_then_by_shorter_starts() {
        let starts: Vec<&str> =
            literal_starts("Invalid input: expected number, received number").collect();
        assert_eq!(
            starts,
            [
                "Invalid input: expected number, received number",
                "Invalid input: expected number, received",
                "Invalid input: expected number,",
                "Invalid input: expected",
                "Invalid input:",
            ]
        );
        assert_eq!(literal_starts("SEE ALSO").collect::<Vec<_>>(), ["SEE ALSO"]);
    }

    #[test]
    fn translation_files_are_named_by_the_language_code() {
        assert!(is_translation_file("src/v4/locales/it.ts", "it"));
        assert!(is_translation_file("app/i18n/zh-CN.ts", "zh"));
        assert!(is_translation_file("pkg/Locale/pt_BR.py", "pt"));
        assert!(!is_translation_file("src/v4/locales/ita.ts", "it"));
        assert!(!is_translation_file("src/utils/it.ts", "it"));
        assert!(!is_translation_file("it.ts", "it"));
        assert_eq!(translation_code("src/v4/locales/it.ts"), Some("it"));
        assert_eq!(translation_code("app/i18n/zh-CN.ts"), Some("zh"));
        assert_eq!(translation_code("pkg/Locale/pt_BR.py"), Some("pt"));
        assert_eq!(translation_code("src/locales/index.ts"), None);
        assert_eq!(translation_code("src/locales/It.ts"), None);
        assert_eq!(translation_code("src/utils/it.ts"), None);
        assert_eq!(translation_code("i18n/zh-Hant-TW.json.ts"), Some("zh"));
        assert_eq!(translation_code("i18n/es-419.ts"), Some("es"));
    }

    #[test]
    fn a_human_language_the_task_names_points_at_its_translation_file() {
        let mut source = String::new();
        for code in ["az", "en", "fr", "it"] {
            source.push_str(&format!(
                "//- /src/locales/{code}.ts\nexport const error = (issue) => {{ if (issue.code === 'invalid_format') return 'invalid format message'; }};\nexport default function () {{ return {{ localeError: error() }}; }}\n"
            ));
        }
        let (index, search) = indexed(&source);
        let ranking = rank_task(
            &index,
            &search,
            "Update Italian locale error messages for invalid format",
            IntentKind::Implementation,
        );
        let best = &ranking.files[0];
        assert_eq!(
            index.file(best.file).unwrap().path.as_ref(),
            "src/locales/it.ts"
        );
        assert!(
            best.reasons.contains(&"language:Italian".to_owned()),
            "{:?}",
            best.reasons
        );
        // The other languages' files rank down.
        for ranked in &ranking.defs {
            let path = &index.file(ranked.def.file).unwrap().path;
            let other = ranked.reasons.contains(&"other-language".to_owned());
            assert_eq!(other, path.as_ref() != "src/locales/it.ts", "{path}");
        }
    }

    #[test]
    fn receivers_abbreviate_modules() {
        assert_eq!(abbreviation("res", "response"), 1);
        assert_eq!(abbreviation("app", "application"), 1);
        assert_eq!(abbreviation("ctx", "context"), 2);
        assert_eq!(abbreviation("res", "request"), 2);
        assert_eq!(abbreviation("req", "response"), 3);
        assert_eq!(abbreviation("self", "selfish"), 3);
        assert_eq!(abbreviation("c", "context"), 3);
        assert_eq!(abbreviation("context", "context"), 3);
    }
}
