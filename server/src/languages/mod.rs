//! The supported languages: detection by file name, grammars, and the compiled queries
//! that hold all language knowledge (`server/queries/<lang>/*.scm`).
//!
//! Invariant: queries are compiled once per process and their capture names are resolved to
//! [`CaptureRole`]s once; nothing on a hot path looks a capture up by string.

mod registry;

pub use registry::{CaptureRole, LanguageConfig, VisibilityRule};

use std::fmt;

use serde::{Deserialize, Serialize};

/// A language the index understands. TypeScript and TSX are separate grammars.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Rust,
}

impl Language {
    pub const ALL: [Language; 6] = [
        Language::Python,
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Go,
        Language::Rust,
    ];

    /// The language of a file, by its extension.
    pub fn from_path(path: &str) -> Option<Language> {
        let file_name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let (_, ext) = file_name.rsplit_once('.')?;
        Some(match ext {
            "py" | "pyi" => Language::Python,
            "js" | "jsx" | "mjs" | "cjs" => Language::JavaScript,
            "ts" | "mts" | "cts" => Language::TypeScript,
            "tsx" => Language::Tsx,
            "go" => Language::Go,
            "rs" => Language::Rust,
            _ => return None,
        })
    }

    /// The stable lower-case name used in output and configuration.
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Go => "go",
            Language::Rust => "rust",
        }
    }

    pub fn from_name(name: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|lang| lang.name() == name)
    }

    /// The file extensions of the language, for file watchers and filters.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Language::Python => &["py", "pyi"],
            Language::JavaScript => &["js", "jsx", "mjs", "cjs"],
            Language::TypeScript => &["ts", "mts", "cts"],
            Language::Tsx => &["tsx"],
            Language::Go => &["go"],
            Language::Rust => &["rs"],
        }
    }

    /// Whether two languages share a module system (imports between them resolve).
    pub fn is_ecmascript(self) -> bool {
        matches!(
            self,
            Language::JavaScript | Language::TypeScript | Language::Tsx
        )
    }

    /// The names that stand for the value of the enclosing type in a method (`self.x`,
    /// `this.x`, `Self::new()`); none in Go, whose receivers are named parameters.
    pub fn self_receivers(self) -> &'static [&'static str] {
        match self {
            Language::Python => &["self", "cls"],
            Language::JavaScript | Language::TypeScript | Language::Tsx => &["this"],
            Language::Rust => &["self", "Self"],
            Language::Go => &[],
        }
    }

    /// Whether code in one language can name definitions in the other: the same language,
    /// or two of JavaScript, TypeScript and TSX.
    pub fn shares_names_with(self, other: Language) -> bool {
        self == other || (self.is_ecmascript() && other.is_ecmascript())
    }

    pub fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::Go => tree_sitter_go::LANGUAGE.into(),
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
        }
    }

    /// The compiled queries and settings of the language.
    pub fn config(self) -> &'static LanguageConfig {
        registry::config(self)
    }

    /// The languages whose query this process has compiled so far (compiling one takes 30 to
    /// 100 ms, which a run from the syntax cache should not spend).
    pub fn compiled() -> Vec<Language> {
        registry::compiled()
    }

    /// File stems that stand for their directory (`index` in JavaScript, `__init__` in
    /// Python), without compiling the language's query.
    pub fn directory_stems(self) -> &'static [&'static str] {
        registry::directory_stems(self)
    }

    /// The builtin type a reference's `receiver_type` names, read from the query's text without compiling the query: a run whose extractions all
    /// come from the syntax cache compiles none (30 to 100 ms for each language).
    pub fn receiver_type(self, idx: u8) -> Option<&'static str> {
        registry::receiver_type_names(self)
            .get(usize::from(idx))
            .map(|name| &**name)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a definition is. The names follow tree-sitter's `@definition.<kind>` vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DefKind {
    Function,
    Method,
    Class,
    Struct,
    Enum,
    Interface,
    Trait,
    Impl,
    Type,
    Constant,
    Variable,
    Module,
    Macro,
    Field,
    /// Top-level statements that run code (a script's loop, `app.listen(3000)`, `if __name__
    /// == "__main__":`): not a definition a name finds, but code a task may be about.
    Statements,
}

impl DefKind {
    pub const ALL: [DefKind; 15] = [
        DefKind::Function,
        DefKind::Method,
        DefKind::Class,
        DefKind::Struct,
        DefKind::Enum,
        DefKind::Interface,
        DefKind::Trait,
        DefKind::Impl,
        DefKind::Type,
        DefKind::Constant,
        DefKind::Variable,
        DefKind::Module,
        DefKind::Macro,
        DefKind::Field,
        DefKind::Statements,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DefKind::Function => "function",
            DefKind::Method => "method",
            DefKind::Class => "class",
            DefKind::Struct => "struct",
            DefKind::Enum => "enum",
            DefKind::Interface => "interface",
            DefKind::Trait => "trait",
            DefKind::Impl => "impl",
            DefKind::Type => "type",
            DefKind::Constant => "constant",
            DefKind::Variable => "variable",
            DefKind::Module => "module",
            DefKind::Macro => "macro",
            DefKind::Field => "field",
            DefKind::Statements => "statements",
        }
    }

    pub fn from_name(name: &str) -> Option<DefKind> {
        DefKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Kinds whose members are other definitions (methods, fields, nested items).
    pub fn is_container(self) -> bool {
        matches!(
            self,
            DefKind::Class
                | DefKind::Struct
                | DefKind::Enum
                | DefKind::Interface
                | DefKind::Trait
                | DefKind::Impl
                | DefKind::Module
        )
    }

    /// Kinds whose range may hold other definitions (a constant's, variable's or field's value
    /// never defines members: `y` in Go's `var x, y = 1, 2` is not `x`'s child).
    pub fn can_contain_definitions(self) -> bool {
        !matches!(
            self,
            DefKind::Constant | DefKind::Variable | DefKind::Field | DefKind::Statements
        )
    }

    /// Definitions that have a name to find them by (all but top-level statements).
    pub fn is_named(self) -> bool {
        self != DefKind::Statements
    }

    /// Kinds that name a type (a receiver of methods).
    pub fn is_type(self) -> bool {
        matches!(
            self,
            DefKind::Class
                | DefKind::Struct
                | DefKind::Enum
                | DefKind::Interface
                | DefKind::Trait
                | DefKind::Type
        )
    }

    /// Kinds whose name is a type's: a type, or an `impl` of one (the container of methods).
    pub fn is_type_or_impl(self) -> bool {
        self.is_type() || self == DefKind::Impl
    }

    pub fn is_callable(self) -> bool {
        matches!(self, DefKind::Function | DefKind::Method | DefKind::Macro)
    }
}

impl fmt::Display for DefKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grammar_loads_and_every_query_compiles() {
        for lang in Language::ALL {
            let mut parser = tree_sitter::Parser::new();
            parser
                .set_language(&lang.grammar())
                .unwrap_or_else(|err| panic!("{lang}: grammar ABI mismatch: {err}"));
            // Compiling happens inside `config`; it panics with the query error on failure.
            let config = lang.config();
            assert!(config.query.pattern_count() > 0, "{lang}: empty query");
        }
    }

    #[test]
    fn receiver_types_read_from_the_query_text_are_the_compiled_querys() {
        for lang in Language::ALL {
            let config = lang.config();
            for pattern in 0..config.query.pattern_count() {
                let property = config
                    .query
                    .property_settings(pattern)
                    .iter()
                    .find(|property| &*property.key == "receiver.type")
                    .and_then(|property| property.value.as_deref());
                assert_eq!(
                    config.receiver_type_by_pattern[pattern]
                        .and_then(|idx| lang.receiver_type(idx)),
                    property,
                    "{lang}: pattern {pattern}"
                );
            }
        }
        assert_eq!(Language::Python.receiver_type(1), Some("str"));
    }

    #[test]
    fn languages_are_detected_by_extension() {
        assert_eq!(Language::from_path("a/b.py"), Some(Language::Python));
        assert_eq!(Language::from_path("x.test.tsx"), Some(Language::Tsx));
        assert_eq!(Language::from_path("lib.rs"), Some(Language::Rust));
        assert_eq!(Language::from_path("a.mjs"), Some(Language::JavaScript));
        assert_eq!(Language::from_path("Makefile"), None);
        assert_eq!(Language::from_path("notes.txt"), None);
    }
}
