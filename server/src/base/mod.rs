//! Plain value types shared by every layer: file ids, byte ranges, line indexes, and the text
//! and path conventions they all read (the identifier at an offset, test and auxiliary paths).
//!
//! Invariant: depends on nothing else in the crate; offsets are UTF-8 byte offsets.

mod line_index;

pub use line_index::{LineCol, LineIndex};
pub use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};

/// A file known to the index. Ids are never reused while the index lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A half-open byte range `[start, end)` into a file's UTF-8 text.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct TextRange {
    pub start: u32,
    pub end: u32,
}

impl TextRange {
    pub fn new(start: usize, end: usize) -> TextRange {
        debug_assert!(start <= end);
        TextRange {
            start: start as u32,
            end: end as u32,
        }
    }

    pub fn len(self) -> u32 {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// Whether `offset` lies inside the range; the end is included so that a cursor
    /// right after an identifier still counts as on it.
    pub fn contains_inclusive(self, offset: u32) -> bool {
        self.start <= offset && offset <= self.end
    }

    pub fn contains_range(self, other: TextRange) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// The bytes between the two ranges: 0 when they touch or overlap.
    pub fn gap(self, other: TextRange) -> u32 {
        self.start
            .saturating_sub(other.end)
            .max(other.start.saturating_sub(self.end))
    }

    pub fn as_usize(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Whether a word can be an identifier: letters, digits, `_` and `$` (JavaScript's
/// `$ZodType`, `$scope`), not starting with a digit, with a letter somewhere.
pub fn is_identifier_like(word: &str) -> bool {
    let mut chars = word.chars();
    chars
        .next()
        .is_some_and(|ch| ch.is_alphabetic() || ch == '_' || ch == '$')
        && chars.all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$')
        && word.chars().any(char::is_alphabetic)
}

/// The identifier touching `offset` in `text` (a cursor right after a name still counts):
/// letters, digits, `_` and `$`.
pub fn identifier_at(text: &str, offset: u32) -> Option<TextRange> {
    let offset = (offset as usize).min(text.len());
    let is_ident = |ch: char| ch.is_alphanumeric() || ch == '_' || ch == '$';
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, ch)| is_ident(*ch))
        .last()
        .map_or(offset, |(idx, _)| idx);
    let end = text[offset..]
        .char_indices()
        .take_while(|(_, ch)| is_ident(*ch))
        .last()
        .map_or(offset, |(idx, ch)| offset + idx + ch.len_utf8());
    (start < end).then(|| TextRange::new(start, end))
}

/// Directories of tests and what only tests use.
const TEST_DIRS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "__mocks__",
    "testing",
    "testdata",
    "spec",
    "specs",
];
/// Directories of test helpers: `test-helpers`, `test_utils`.
const TEST_DIR_PREFIXES: &[&str] = &["test-", "test_", "tests-", "tests_"];

/// Whether a path (relative, `/`-separated) looks like test code by the usual conventions
/// of the supported languages: `tests/`, `__tests__/`, `test-helpers/`, `test_x.py`,
/// `x_test.py`, `x_test.go`, `x.test.ts`, `x.spec.js`, `x.test-d.ts` (type tests),
/// `x-tests.ts`, `conftest.py`.
pub fn is_test_path(path: &str) -> bool {
    let file_name = path.rsplit('/').next().unwrap_or(path);
    let mut parts = file_name.split('.');
    let stem = parts.next().unwrap_or(file_name);
    // The segments between the stem and the extension: `test` in `cart.test.ts`, and
    // `flags_test` in `zz_generated.flags_test.go` (Go's rule is the name's end alone).
    let mut middle = parts.rev().skip(1);
    let in_test_dir = path.split('/').rev().skip(1).any(|dir| {
        TEST_DIRS.contains(&dir) || TEST_DIR_PREFIXES.iter().any(|p| dir.starts_with(p))
    });
    let test_suffix = |name: &str| TEST_SUFFIXES.iter().any(|suffix| name.ends_with(suffix));
    in_test_dir
        || stem.starts_with("test_")
        || stem.starts_with("test-")
        || test_suffix(stem)
        || stem == "conftest"
        || middle.any(|segment| {
            matches!(segment, "test" | "tests" | "spec" | "test-d") || test_suffix(segment)
        })
}

/// The ends of a file name's stem that make it test code: `store_test.go`, `x-spec.js`.
const TEST_SUFFIXES: &[&str] = &["_test", "_tests", "-test", "-tests", "_spec", "-spec"];

/// The stem of what a test file's stem names as tested: `test_query` and `query_test` ->
/// `query`; other stems are their own.
pub fn tested_stem(stem: &str) -> &str {
    let stem = stem
        .strip_prefix("test_")
        .or_else(|| stem.strip_prefix("test-"))
        .unwrap_or(stem);
    TEST_SUFFIXES
        .iter()
        .find_map(|suffix| stem.strip_suffix(suffix))
        .unwrap_or(stem)
}

/// Directories whose code supports a project without being it (examples, benchmarks,
/// demos, documentation and vendored third-party code), each with the kind of code it holds:
/// the word a task uses to ask for that code.
const AUXILIARY_DIRS: &[(&str, &str)] = &[
    ("example", "example"),
    ("examples", "example"),
    ("_examples", "example"),
    ("sample", "sample"),
    ("samples", "sample"),
    ("demo", "demo"),
    ("demos", "demo"),
    ("sandbox", "demo"),
    ("playground", "demo"),
    ("bench", "bench"),
    ("benches", "bench"),
    ("benchmark", "bench"),
    ("benchmarks", "bench"),
    ("docs", "doc"),
    ("website", "doc"),
    ("vendor", "vendor"),
    ("_vendor", "vendor"),
    ("vendored", "vendor"),
    ("third_party", "vendor"),
    ("third-party", "vendor"),
    ("perf", "bench"),
    ("performance", "bench"),
];

/// The kind of auxiliary code a directory holds by its name, or by one of the words of a
/// name joined by `-`, `_` or `.` (`perf-testing`, `__performance_tests__`, `example-app`,
/// `docs_src`).
fn auxiliary_dir_kind(dir: &str) -> Option<&'static str> {
    let kind_of = |name: &str| {
        AUXILIARY_DIRS
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, kind)| *kind)
    };
    kind_of(dir).or_else(|| {
        dir.split(['-', '_', '.'])
            .filter(|word| !word.is_empty() && *word != dir)
            .find_map(|word| kind_of(&word.to_ascii_lowercase()))
    })
}

/// The kind of auxiliary code a path holds (see [`AUXILIARY_DIRS`]): `example`, `sample`,
/// `demo`, `bench`, `doc` or `vendor`, the outermost directory deciding; Python in a
/// `packages` directory below the top level is vendored (`requests/packages/urllib3`:
/// third-party code copied into a package). Elsewhere `packages/` holds a monorepo's own
/// packages, at the top level or below it (`web/packages/ui`).
pub fn auxiliary_kind(path: &str) -> Option<&'static str> {
    let (dirs, file_name) = path.rsplit_once('/')?;
    let python = file_name.ends_with(".py") || file_name.ends_with(".pyi");
    dirs.split('/').enumerate().find_map(|(depth, dir)| {
        auxiliary_dir_kind(dir).or((python && depth > 0 && dir == "packages").then_some("vendor"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gap_between_ranges_is_zero_when_they_touch_or_overlap() {
        let range = |start: u32, end: u32| TextRange { start, end };
        assert_eq!(range(10, 20).gap(range(25, 30)), 5);
        assert_eq!(range(25, 30).gap(range(10, 20)), 5);
        assert_eq!(range(10, 20).gap(range(20, 30)), 0);
        assert_eq!(range(10, 20).gap(range(12, 14)), 0);
        assert_eq!(range(10, 20).gap(range(4, 4)), 6);
    }

    #[test]
    fn identifier_at_cursor_inside_and_after_names() {
        let text = "x = café_au(lait)";
        let range = |offset| identifier_at(text, offset).map(|range| &text[range.as_usize()]);
        assert_eq!(range(5), Some("café_au"));
        assert_eq!(range(12), Some("café_au"));
        assert_eq!(range(13), Some("lait"));
        assert_eq!(range(2), None);
        assert_eq!(range(17), Some("lait"));
        assert_eq!(range(18), None);
    }

    #[test]
    fn auxiliary_paths_are_examples_benchmarks_docs_and_vendored_code() {
        for (path, kind) in [
            ("examples/auth/app.js", "example"),
            ("src/benchmarks/discriminatedUnion.ts", "bench"),
            ("packages/bench/index.ts", "bench"),
            ("docs/conf.py", "doc"),
            ("vendor/github.com/x/y.go", "vendor"),
            ("requests/packages/urllib3/response.py", "vendor"),
            ("src/pip/_vendor/rich/text.py", "vendor"),
            ("docs/examples/app.py", "doc"),
            ("sandbox/client.js", "demo"),
            ("website/src/pages/index.js", "doc"),
            ("perf-testing/immutability-benchmarks.mjs", "bench"),
            ("__performance_tests__/add-data.mjs", "bench"),
            ("performance/benchmark.py", "bench"),
            ("example-app/src/main.ts", "example"),
        ] {
            assert_eq!(auxiliary_kind(path), Some(kind), "{path}");
        }
        for path in [
            "doc/man_docs.go",
            "src/example.rs",
            "lib/bench.js",
            "benches",
            "packages/zod/src/types.ts",
            "web/packages/ui/src/button.tsx",
            "src/requests/packages.py",
            "src/performance.ts",
            "src/exampleParser/x.ts",
            "src/docstring/x.py",
        ] {
            assert_eq!(auxiliary_kind(path), None, "{path}");
        }
    }

    #[test]
    fn a_test_files_stem_names_what_it_tests() {
        for (stem, tested) in [
            ("test_query", "query"),
            ("store_test", "store"),
            ("parser-spec", "parser"),
            ("query", "query"),
        ] {
            assert_eq!(tested_stem(stem), tested, "{stem}");
        }
    }

    #[test]
    fn test_paths_follow_language_conventions() {
        for path in [
            "tests/test_app.py",
            "pkg/store_test.go",
            "src/cart.test.ts",
            "src/cart.spec.tsx",
            "src/__tests__/a.js",
            "crates/cli/tests/cli.rs",
            "conftest.py",
            "app/test_views.py",
            "index.test-d.ts",
            "typings/commander-tests.ts",
            "test-helpers/context.js",
            "src/test_utils/mod.rs",
            "internal/testdata/a.go",
            "lib/parser-spec.js",
            "zz_generated.flags_test.go",
            "src/cart.api_test.py",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in [
            "src/testing_utils_x.py",
            "src/contest.py",
            "tests.py",
            "src/latest.ts",
            "src/attest.rs",
            "src/testing_utils_x.test",
            "lib/contest-spec.d/x.js",
        ] {
            assert!(!is_test_path(path), "{path}");
        }
    }
}
