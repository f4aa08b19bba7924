//! Property test of incremental extraction's invariant: after any sequence of edits to an
//! open buffer, `Document::reparse` (an incremental parse, then a query over only the
//! top-level items around the edits, the rest kept from the previous extraction and shifted)
//! returns exactly what a full extraction of the same tree returns, and, when the code has no
//! syntax errors, what a fresh parse and extraction of the text returns.
//!
//! The texts are every source file of the fixture repos plus a Django-like Python module; the
//! edits insert, delete and replace spans (snippets of code, comments, decorators, blank lines,
//! bits of the file itself, top-level calls), several per reparse, and several reparses per case.

use std::path::{Path, PathBuf};

use codectx::documents::Document;
use codectx::languages::Language;
use codectx::syntax;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

const DJANGO_LIKE: &str = r#""""Models of a shop."""
import datetime
from django.db import models
from .utils import slugify as make_slug  # local helper

MAX_LENGTH = 120
default_app_config = "shop.apps.ShopConfig"


# The base of every product.
class Product(models.Model):
    """A thing we sell."""

    name = models.CharField(max_length=MAX_LENGTH)
    price = models.DecimalField(max_digits=8, decimal_places=2)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    @property
    def slug(self):
        """The URL part."""
        return make_slug(self.name)

    def save(self, *args, **kwargs):
        self.updated = datetime.datetime.now()
        super().save(*args, **kwargs)


def get_products(queryset=None):
    # All products, cheapest first.
    qs = queryset or Product.objects.all()
    return qs.order_by("price")


@decorator
def test_products():
    assert get_products() is not None


admin.site.register(Product)
# Registered twice on purpose.
admin.site.register(Product, ProductAdmin)


class ProductAdmin(admin.ModelAdmin):
    list_display = ("name", "price")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related()


for name in list(registry):
    warm(name)

if __name__ == "__main__":
    main(get_products())
"#;

/// Snippets an edit may insert (top-level calls among them: runs of top-level statements are
/// definitions that edits join, split and cut).
const SNIPPETS: &[&str] = &[
    "\n",
    "\n\n",
    "    ",
    "# a comment\n",
    "/// doc comment\n",
    "// comment\n",
    "def inserted(a, b):\n    return helper(a)\n",
    "    def method(self):\n        \"\"\"Doc.\"\"\"\n        return self.run()\n",
    "class Inserted:\n    pass\n",
    "@decorator\n",
    "#[test]\n",
    "#[cfg(test)]\n",
    "import os\n",
    "from .models import Cart\n",
    "x = 1\n",
    "CONSTANT = 2\n",
    "func Inserted() int { return run() }\n",
    "pub fn inserted() -> u32 { helper() }\n",
    "export function inserted() { return run(); }\n",
    "const X = 1;\n",
    "\"\"\"doc\"\"\"\n",
    "run(x)\n",
    "app.use(run);\n",
    "if ready:\n    start()\n",
    "(",
    ")",
    "{",
    "}",
    ":",
    "'",
    "\"",
    "zz",
];

#[derive(Clone, Debug)]
enum EditSource {
    Snippet(usize),
    /// A span of the file's own text: start and length (bytes, rounded to char boundaries).
    Copy(usize, usize),
}

#[derive(Clone, Debug)]
struct Edit {
    at: usize,
    delete: usize,
    insert: EditSource,
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let source = prop_oneof![
        2 => (0usize..SNIPPETS.len()).prop_map(EditSource::Snippet),
        1 => (0usize..100_000, 0usize..200).prop_map(|(at, len)| EditSource::Copy(at, len)),
    ];
    let delete = prop_oneof![3 => Just(0usize), 2 => 0usize..20, 1 => 0usize..400];
    (0usize..100_000, delete, source).prop_map(|(at, delete, insert)| Edit { at, delete, insert })
}

/// The edit source inserting `text`, one of the snippets.
fn snippet(text: &str) -> EditSource {
    EditSource::Snippet(SNIPPETS.iter().position(|s| *s == text).expect("a snippet"))
}

fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Applies `edit` to `text` and to the document.
fn apply(text: &mut String, document: &mut Document, edit: &Edit) {
    let len = text.len().max(1);
    let start = floor_boundary(text, edit.at % len);
    let end = floor_boundary(text, start + edit.delete).max(start);
    let inserted = match edit.insert {
        EditSource::Snippet(idx) => SNIPPETS[idx].to_owned(),
        EditSource::Copy(at, n_bytes) => {
            let from = floor_boundary(text, at % len);
            let to = floor_boundary(text, from + n_bytes).max(from);
            text[from..to].to_owned()
        }
    };
    text.replace_range(start..end, &inserted);
    document.apply_edit(Some(start..end), &inserted);
}

fn check_rounds(
    path: &str,
    lang: Language,
    original: &str,
    rounds: &[Vec<Edit>],
) -> Result<(), TestCaseError> {
    let is_test = path.contains("test");
    let mut document = Document::new((0, path.into()), original, 1, Some(lang));
    let mut text = original.to_owned();
    document.reparse(&text, is_test);
    for (round_idx, edits) in rounds.iter().enumerate() {
        for edit in edits {
            apply(&mut text, &mut document, edit);
        }
        prop_assert_eq!(document.text(), text.clone());
        let incremental = document
            .reparse(&text, is_test)
            .expect("a supported language");
        let tree = document.tree().expect("parsed");
        let full = syntax::extract(lang, tree, &text, is_test);
        if incremental != full {
            return Err(TestCaseError::fail(format!(
                "{path}: round {round_idx} differs from a full extraction\n{}",
                first_difference(&incremental, &full)
            )));
        }
        // Tree-sitter's error recovery may build a different tree for broken code when it
        // parses incrementally; without errors the trees, and so the extractions, agree.
        if !tree.root_node().has_error() {
            let fresh = syntax::analyze(lang, &text, is_test);
            if incremental != fresh {
                return Err(TestCaseError::fail(format!(
                    "{path}: round {round_idx} differs from a fresh parse\n{}",
                    first_difference(&incremental, &fresh)
                )));
            }
        }
    }
    Ok(())
}

fn first_difference(incremental: &syntax::FileSyntax, fresh: &syntax::FileSyntax) -> String {
    let render = |syntax: &syntax::FileSyntax| -> Vec<String> {
        let mut lines: Vec<String> = syntax
            .defs
            .iter()
            .map(|def| format!("def {def:?}"))
            .collect();
        lines.extend(
            syntax
                .imports
                .iter()
                .map(|import| format!("import {import:?}")),
        );
        lines.extend(
            syntax
                .refs
                .iter()
                .map(|reference| format!("ref {reference:?}")),
        );
        lines.extend(syntax.issues.iter().map(|issue| format!("issue {issue:?}")));
        lines
    };
    let (a, b) = (render(incremental), render(fresh));
    a.iter()
        .zip(&b)
        .find(|(a, b)| a != b)
        .map(|(a, b)| format!("incremental: {a}\nfresh:       {b}"))
        .unwrap_or_else(|| format!("lengths {} and {}", a.len(), b.len()))
}

/// Every source file of the fixture repos, with its language.
fn fixture_files() -> Vec<(String, Language, String)> {
    fn walk(dir: &Path, acc: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, acc);
            } else {
                acc.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"),
        &mut paths,
    );
    paths.sort();
    paths
        .into_iter()
        .filter_map(|path| {
            let name = path.to_string_lossy().into_owned();
            let lang = Language::from_path(&name)?;
            let text = std::fs::read_to_string(&path).ok()?;
            Some((name, lang, text))
        })
        .collect()
}

fn check_file(path: &str, lang: Language, text: &str, cases: u32) {
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let rounds = prop::collection::vec(prop::collection::vec(edit_strategy(), 1..4), 1..6);
    if let Err(err) = runner.run(&rounds, |rounds| check_rounds(path, lang, text, &rounds)) {
        panic!("{path}: {err}");
    }
}

#[test]
fn incremental_extraction_equals_a_full_extraction_on_django_like_python() {
    check_file("shop/models.py", Language::Python, DJANGO_LIKE, 256);
    check_file(
        "shop/tests/test_models.py",
        Language::Python,
        DJANGO_LIKE,
        64,
    );
}

#[test]
fn incremental_extraction_equals_a_full_extraction_on_every_fixture_file() {
    let files = fixture_files();
    assert!(!files.is_empty(), "no fixture files found");
    for (path, lang, text) in &files {
        check_file(path, *lang, text, 12);
    }
}

#[test]
fn an_edit_inside_one_function_of_a_long_file_equals_a_full_extraction() {
    let text: String = (0..400)
        .map(|idx| format!("def f{idx}(a):\n    \"\"\"Doc {idx}.\"\"\"\n    return g{idx}(a)\n\n"))
        .collect();
    let rounds = vec![vec![Edit {
        at: text.find("return g200").expect("present") + 7,
        delete: 4,
        insert: EditSource::Snippet(SNIPPETS.len() - 1),
    }]];
    if let Err(err) = check_rounds("long.py", Language::Python, &text, &rounds) {
        panic!("{err}");
    }
}

#[test]
fn edits_among_top_level_statements_equal_a_full_extraction() {
    // Functions with a call after each, a sequence of calls longer than one run and a run
    // with comments in it: an edit in the sequence moves where its runs are cut, one between
    // two functions joins or splits two runs, one at a run's end shortens it.
    let functions = |from: usize| -> String {
        (from..from + 60)
            .map(|idx| format!("def f{idx}(a):\n    return g{idx}(a)\n\nf{idx}(1)\n\n"))
            .collect()
    };
    let calls: String = (0..150).map(|idx| format!("h{idx}(x)\n")).collect();
    let commented =
        "def sep():\n    pass\n\na(1)\nb(2)\n# c\nc(3)\ndef mid():\n    pass\nd(4)\n# e\ne(5)\n\n";
    let text = format!("{}{calls}\n{commented}{}", functions(0), functions(60));
    let at = |needle: &str| text.find(needle).expect("present");
    // Each round edits before the previous one, so that the offsets found in `text` hold.
    let rounds = vec![
        // The last call of a run with comments in it becomes an assignment: the run, which
        // starts six items before the edit, ends earlier.
        vec![Edit {
            at: at("e(5)"),
            delete: "e(5)\n".len(),
            insert: snippet("x = 1\n"),
        }],
        vec![Edit {
            at: at("def mid("),
            delete: "def mid():\n    pass\n".len(),
            insert: snippet("\n"),
        }],
        // A function inserted in the sequence: its run splits in two.
        vec![Edit {
            at: at("h120(x)"),
            delete: 0,
            insert: snippet("def inserted(a, b):\n    return helper(a)\n"),
        }],
        // A call inserted in the middle of the sequence, another removed near its start:
        // the runs are cut elsewhere.
        vec![Edit {
            at: at("h75(x)"),
            delete: 0,
            insert: snippet("run(x)\n"),
        }],
        vec![Edit {
            at: at("h3(x)"),
            delete: "h3(x)\n".len(),
            insert: snippet("\n"),
        }],
        // A function between two calls removed: the calls around it become one run.
        vec![Edit {
            at: at("def f30("),
            delete: "def f30(a):\n    return g30(a)\n\n".len(),
            insert: snippet("\n"),
        }],
    ];
    if let Err(err) = check_rounds("script.py", Language::Python, &text, &rounds) {
        panic!("{err}");
    }
}

#[test]
fn a_line_added_in_broken_code_after_a_top_level_call_equals_a_full_extraction() {
    // Found by the property test: a class header replaced by a call, an import dropped into
    // the docstring below it, then a blank line after the docstring. The run the call starts
    // reaches past the items around the last edit.
    let (header, call, import) = (
        "class Product(",
        "app.use(run);\n",
        "from .models import Cart\n",
    );
    let in_docstring = DJANGO_LIKE.find("\"A thing we sell").expect("present");
    let at_header = DJANGO_LIKE.find(header).expect("present");
    let mut broken = DJANGO_LIKE.to_owned();
    broken.insert_str(in_docstring, import);
    broken.replace_range(at_header..at_header + header.len(), call);
    let rounds = vec![
        vec![
            Edit {
                at: in_docstring,
                delete: 0,
                insert: snippet(import),
            },
            Edit {
                at: at_header,
                delete: header.len(),
                insert: snippet(call),
            },
        ],
        vec![Edit {
            at: broken.find("\"\"\n\n    name =").expect("present"),
            delete: 0,
            insert: snippet("\n"),
        }],
    ];
    if let Err(err) = check_rounds(
        "shop/tests/test_models.py",
        Language::Python,
        DJANGO_LIKE,
        &rounds,
    ) {
        panic!("{err}");
    }
}
