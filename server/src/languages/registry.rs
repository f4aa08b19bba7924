//! Compiles each language's queries once and resolves their capture names to roles.
//!
//! Invariant: an unknown capture name is a programming error caught by the query test.

use std::sync::OnceLock;

use tree_sitter::Query;

use super::{DefKind, Language};

/// What a capture means to the extractor. Capture names starting with `_` are helpers for
/// predicates and carry no role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureRole {
    /// `@definition.<kind>`: the whole definition node.
    Definition(DefKind),
    /// `@definition.test`: a test block (JS `describe`/`it`/`test`), kept only in test files.
    DefinitionTest,
    /// `@name`: the name of a definition or reference.
    Name,
    /// `@name.module`: the node standing for the name of a definition that has none of its
    /// own (the `default` of `export default (config) => {}`): the definition is named after
    /// its module (see `syntax::name_after_module`), the cursor goes to this node, and an
    /// import finds the definition under what this node spells.
    NameModule,
    /// `@doc`: a documentation node (a Python docstring; comments are found by position).
    Doc,
    /// `@body`: the body; the signature is the definition's text before it.
    Body,
    /// `@signature`: a declaration without a body whose signature ends where this node ends
    /// (a TypeScript overload, a trait method signature); without `@body` or `@signature`
    /// the signature is the first line.
    Signature,
    /// `@exported`: the definition is public (`pub`, `export`).
    Exported,
    /// `@test`: test code when the file is a test file (`test_*` in Python, `TestXxx` in Go).
    Test,
    /// `@test.always`: test code wherever it is (Rust `#[test]`, `#[cfg(test)]`).
    TestAlways,
    /// `@reference.call` / `@reference.<other>`: an identifier that is used, not defined.
    Reference { call: bool },
    /// `@receiver`: the object or path a member reference is accessed on.
    Receiver,
    /// `@container`: the name of the type a definition belongs to when it is declared
    /// outside it (a Go method's receiver type); `*`, `&` and generic arguments are stripped.
    Container,
    /// `@extent`: the node a definition spans when it is larger than the definition's own
    /// node (a name inside a chained assignment, `res.set = res.header = function () {}`,
    /// spans the whole chain); definitions spanning the same node are siblings.
    Extent,
    /// `@base`: a type the definition extends, whose members it has unless it defines them
    /// (a Python base class, a JavaScript or TypeScript `extends`, a Go embedded struct).
    Base,
    /// `@import`: a whole import statement.
    Import,
    /// `@import.source`: the module specifier (path, dotted name or string).
    ImportSource,
    /// `@import.name`: one imported name. A pattern can instead set the name with
    /// `(#set! import.name "default")` when no node spells it (JS default imports).
    ImportName,
    /// `@import.alias`: the local alias of the import's name (or of the module).
    ImportAlias,
    /// `@import.wildcard`: imports every name (`*`).
    ImportWildcard,
    /// `@import.reexport`: the statement re-exports what it imports.
    ImportReexport,
    /// `@import.module`: the statement binds the module itself (`import a.b`, Go imports).
    ImportModule,
    /// `@import.tree`: a Rust `use` tree, flattened by the extractor.
    ImportTree,
    /// `@binding.local` / `@binding.member`: a node that binds `@name` to a value of the
    /// type `@type` names, as a variable or parameter or as a member of the type around it.
    Binding { member: bool },
    /// `@type`: the node that names a binding's type, or in a definition the type a
    /// function returns (`*`, `&`, type arguments, quotes and module paths are stripped).
    Type,
    /// `@call`: in a binding, the name of the function whose returned value it holds.
    Call,
    /// `@type.held`: in a binding whose `@type` is a wrapper (Rust's `Option`, `Result`), the
    /// type of the value inside it, which `?`, `.unwrap()` and `.expect(..)` take out.
    TypeHeld,
    /// A helper capture for predicates.
    Helper,
}

impl CaptureRole {
    fn from_capture_name(name: &str) -> Option<CaptureRole> {
        if name.starts_with('_') {
            return Some(CaptureRole::Helper);
        }
        if let Some(kind) = name.strip_prefix("definition.") {
            if kind == "test" {
                return Some(CaptureRole::DefinitionTest);
            }
            return DefKind::from_name(kind).map(CaptureRole::Definition);
        }
        if let Some(kind) = name.strip_prefix("binding.") {
            return match kind {
                "local" => Some(CaptureRole::Binding { member: false }),
                "member" => Some(CaptureRole::Binding { member: true }),
                _ => None,
            };
        }
        if let Some(kind) = name.strip_prefix("reference.") {
            return Some(CaptureRole::Reference {
                call: kind == "call",
            });
        }
        Some(match name {
            "name" => CaptureRole::Name,
            "name.module" => CaptureRole::NameModule,
            "doc" => CaptureRole::Doc,
            "body" => CaptureRole::Body,
            "signature" => CaptureRole::Signature,
            "exported" => CaptureRole::Exported,
            "test" => CaptureRole::Test,
            "test.always" => CaptureRole::TestAlways,
            "receiver" => CaptureRole::Receiver,
            "container" => CaptureRole::Container,
            "extent" => CaptureRole::Extent,
            "base" => CaptureRole::Base,
            "type" => CaptureRole::Type,
            "call" => CaptureRole::Call,
            "type.held" => CaptureRole::TypeHeld,
            "import" => CaptureRole::Import,
            "import.source" => CaptureRole::ImportSource,
            "import.name" => CaptureRole::ImportName,
            "import.alias" => CaptureRole::ImportAlias,
            "import.wildcard" => CaptureRole::ImportWildcard,
            "import.reexport" => CaptureRole::ImportReexport,
            "import.module" => CaptureRole::ImportModule,
            "import.tree" => CaptureRole::ImportTree,
            _ => return None,
        })
    }
}

/// How a language marks a definition public.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VisibilityRule {
    /// Public unless the name starts with `_` (Python).
    UnderscorePrivate,
    /// Public when the name starts with an upper-case letter (Go).
    Capitalized,
    /// Public when the query marks it with `@exported` (Rust `pub`, JS/TS `export`).
    Marked,
}

/// One language's compiled query and extraction settings.
pub struct LanguageConfig {
    pub language: Language,
    pub query: Query,
    /// The role of each capture, by capture index.
    pub roles: Vec<CaptureRole>,
    /// Comment node kinds whose text may document the definition that follows them.
    pub comment_kinds: &'static [&'static str],
    /// Comment prefixes that make a comment documentation (empty: every comment does).
    pub doc_prefixes: &'static [&'static str],
    /// Node kinds that wrap a definition and carry its comments, decorators or `export`.
    pub wrapper_kinds: &'static [&'static str],
    pub visibility: VisibilityRule,
    /// Words that, opening a line at column 0, go on with the statement above rather than
    /// start one (Python's top-level `else:`, a JavaScript `catch` below its `}`).
    pub continuation_words: &'static [&'static str],
    /// Node kinds of top-level statements that run code (a script's loop, `app.use(...)`):
    /// adjacent ones holding references and no definition or import make one `statements`
    /// definition. Go and Rust have none at the top level.
    pub statement_kinds: &'static [&'static str],
    /// For each pattern, the index of the type it gives its receiver (`(#set! receiver.type
    /// "str")` on a pattern whose `@receiver` is a string literal) in the types the query's
    /// text names (see [`receiver_type_names`], which `Language::receiver_type` reads).
    pub receiver_type_by_pattern: Vec<Option<u8>>,
}

/// Each pattern's index in [`receiver_type_names`] of the type its `receiver.type` property
/// names.
fn receiver_type_by_pattern(lang: Language, query: &Query) -> Vec<Option<u8>> {
    let names = receiver_type_names(lang);
    (0..query.pattern_count())
        .map(|pattern| {
            let name = query
                .property_settings(pattern)
                .iter()
                .find(|property| &*property.key == "receiver.type")?
                .value
                .as_deref()
                .unwrap_or_else(|| panic!("{lang}: receiver.type without a type"));
            let idx = names
                .iter()
                .position(|known| &**known == name)
                .unwrap_or_else(|| panic!("{lang}: receiver.type {name} not read from the text"));
            Some(u8::try_from(idx).unwrap_or_else(|_| panic!("{lang}: too many receiver types")))
        })
        .collect()
}

macro_rules! query_file {
    ($lang:literal, $file:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/queries/",
            $lang,
            "/",
            $file
        ))
    };
}

fn query_source(lang: Language) -> String {
    let parts: &[&str] = match lang {
        Language::Python => &[
            query_file!("python", "tags.scm"),
            query_file!("python", "imports.scm"),
            query_file!("python", "bindings.scm"),
        ],
        Language::JavaScript => &[
            query_file!("javascript", "tags.scm"),
            query_file!("javascript", "imports.scm"),
            query_file!("javascript", "jsx.scm"),
            query_file!("javascript", "bindings.scm"),
        ],
        Language::TypeScript => &[
            query_file!("typescript", "functions.scm"),
            query_file!("javascript", "tags.scm"),
            query_file!("javascript", "imports.scm"),
            query_file!("typescript", "tags.scm"),
            query_file!("typescript", "bindings.scm"),
            query_file!("javascript", "bindings.scm"),
        ],
        Language::Tsx => &[
            query_file!("typescript", "functions.scm"),
            query_file!("javascript", "tags.scm"),
            query_file!("javascript", "imports.scm"),
            query_file!("typescript", "tags.scm"),
            query_file!("javascript", "jsx.scm"),
            query_file!("typescript", "bindings.scm"),
            query_file!("javascript", "bindings.scm"),
        ],
        Language::Go => &[
            query_file!("go", "tags.scm"),
            query_file!("go", "imports.scm"),
            query_file!("go", "bindings.scm"),
        ],
        Language::Rust => &[
            query_file!("rust", "tags.scm"),
            query_file!("rust", "imports.scm"),
            query_file!("rust", "bindings.scm"),
        ],
    };
    parts.join("\n")
}

fn build(lang: Language) -> LanguageConfig {
    let source = query_source(lang);
    let query = Query::new(&lang.grammar(), &source)
        .unwrap_or_else(|err| panic!("{lang}: query does not compile: {err}"));
    let roles = query
        .capture_names()
        .iter()
        .map(|name| {
            CaptureRole::from_capture_name(name)
                .unwrap_or_else(|| panic!("{lang}: unknown capture name @{name}"))
        })
        .collect();
    let (comment_kinds, doc_prefixes, wrapper_kinds, visibility): (
        &'static [&'static str],
        &'static [&'static str],
        &'static [&'static str],
        VisibilityRule,
    ) = match lang {
        Language::Python => (
            &["comment"],
            &["#"],
            &["decorated_definition"],
            VisibilityRule::UnderscorePrivate,
        ),
        Language::JavaScript | Language::TypeScript | Language::Tsx => (
            &["comment"],
            &["/**"],
            &[
                "export_statement",
                "lexical_declaration",
                "variable_declaration",
                "ambient_declaration",
            ],
            VisibilityRule::Marked,
        ),
        Language::Go => (
            &["comment"],
            &[],
            &["type_declaration", "const_declaration", "var_declaration"],
            VisibilityRule::Capitalized,
        ),
        Language::Rust => (
            &["line_comment", "block_comment"],
            &["///", "/**"],
            &[],
            VisibilityRule::Marked,
        ),
    };
    let continuation_words: &'static [&'static str] = match lang {
        Language::Python => &["else", "elif", "except", "finally"],
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            &["else", "catch", "finally"]
        }
        Language::Rust => &["else"],
        Language::Go => &[],
    };
    let statement_kinds: &'static [&'static str] = match lang {
        Language::Python => &[
            "expression_statement",
            "if_statement",
            "for_statement",
            "while_statement",
            "try_statement",
            "with_statement",
        ],
        Language::JavaScript | Language::TypeScript | Language::Tsx => &[
            "expression_statement",
            "if_statement",
            "for_statement",
            "for_in_statement",
            "while_statement",
            "do_statement",
            "try_statement",
            "switch_statement",
        ],
        Language::Go | Language::Rust => &[],
    };
    let receiver_type_by_pattern = receiver_type_by_pattern(lang, &query);
    LanguageConfig {
        language: lang,
        query,
        roles,
        comment_kinds,
        doc_prefixes,
        wrapper_kinds,
        visibility,
        continuation_words,
        statement_kinds,
        receiver_type_by_pattern,
    }
}

static CONFIGS: [OnceLock<LanguageConfig>; 6] = [const { OnceLock::new() }; 6];

/// The languages whose query this process has compiled so far.
pub(super) fn compiled() -> Vec<Language> {
    Language::ALL
        .into_iter()
        .filter(|lang| CONFIGS[slot(*lang)].get().is_some())
        .collect()
}

/// File stems that stand for their directory, as code imports them (`./helpers` is
/// `./helpers/index.js`): a definition named after such a module takes the directory's name.
/// Outside [`LanguageConfig`], so that naming a cached file's definitions compiles no query.
pub(super) fn directory_stems(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::Python => &["__init__"],
        Language::JavaScript | Language::TypeScript | Language::Tsx => &["index"],
        Language::Rust => &["mod"],
        Language::Go => &[],
    }
}

/// The builtin types the `(#set! receiver.type "..")` properties of a language's query name,
/// each once, in the order of the patterns that first name them, read from the query's text
/// (comments left out) without compiling it: a reference's `receiver_type` is an index into
/// them.
pub(super) fn receiver_type_names(lang: Language) -> &'static [Box<str>] {
    static TYPES: [OnceLock<Vec<Box<str>>>; 6] = [const { OnceLock::new() }; 6];
    const PROPERTY: &str = "receiver.type \"";
    TYPES[slot(lang)].get_or_init(|| {
        let mut types: Vec<Box<str>> = Vec::new();
        for line in query_source(lang).lines() {
            let code = line.split(';').next().unwrap_or_default();
            let Some(at) = code.find(PROPERTY) else {
                continue;
            };
            let rest = &code[at + PROPERTY.len()..];
            let name = &rest[..rest.find('"').unwrap_or(rest.len())];
            if !types.iter().any(|known| &**known == name) {
                types.push(name.into());
            }
        }
        types
    })
}

fn slot(lang: Language) -> usize {
    Language::ALL
        .iter()
        .position(|candidate| *candidate == lang)
        .expect("every language is in ALL")
}

pub(super) fn config(lang: Language) -> &'static LanguageConfig {
    CONFIGS[slot(lang)].get_or_init(|| build(lang))
}
