//! Property test of the index's central invariant: after any sequence of `set_file` and
//! `remove_file` calls, the index equals one built from scratch over the same final files.
//!
//! For every fixture repo (`fixtures/*/repo`), random edit sequences (delete, insert and
//! duplicate lines, insert a definition, empty a file, remove it, re-add it, add a new file)
//! are applied to an index built by the crawl, and the result is compared with a fresh index
//! over the final file set: the canonical dump of every table, and go-to-definition at every
//! reference of every file (the answers' order included). The lazily derived tables (import
//! graph, sorted names) are built between most edits, so their in-place maintenance is
//! checked too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use codectx::index::{walk, FilePosition, Index, IndexConfig};
use codectx::languages::Language;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Names for inserted definitions and their callees, chosen to collide with real ones.
const NAMES: &[&str] = &[
    "OrderService",
    "place_order",
    "helper",
    "Cart",
    "connect",
    "run",
    "New",
    "Store",
    "get",
    "main",
];

/// One edit, with indices taken modulo the current number of files, lines or names.
#[derive(Clone, Debug)]
enum Edit {
    DeleteLines {
        file: usize,
        line: usize,
        count: usize,
    },
    InsertLine {
        file: usize,
        line: usize,
        source: usize,
    },
    DuplicateLine {
        file: usize,
        line: usize,
    },
    InsertDefinition {
        file: usize,
        line: usize,
        name: usize,
        callee: usize,
    },
    InsertClass {
        file: usize,
        line: usize,
        name: usize,
        method: usize,
        callee: usize,
    },
    Empty {
        file: usize,
    },
    Remove {
        file: usize,
    },
    ReAdd {
        removed: usize,
    },
    AddNew {
        dir: usize,
        file_name: usize,
        name: usize,
    },
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let idx = || 0usize..1000;
    prop_oneof![
        3 => (idx(), idx(), 1usize..4).prop_map(|(file, line, count)| Edit::DeleteLines { file, line, count }),
        3 => (idx(), idx(), idx()).prop_map(|(file, line, source)| Edit::InsertLine { file, line, source }),
        2 => (idx(), idx()).prop_map(|(file, line)| Edit::DuplicateLine { file, line }),
        3 => (idx(), idx(), idx(), idx()).prop_map(|(file, line, name, callee)| {
            Edit::InsertDefinition { file, line, name, callee }
        }),
        2 => (idx(), idx(), idx(), idx(), idx()).prop_map(|(file, line, name, method, callee)| {
            Edit::InsertClass { file, line, name, method, callee }
        }),
        1 => idx().prop_map(|file| Edit::Empty { file }),
        1 => idx().prop_map(|file| Edit::Remove { file }),
        1 => idx().prop_map(|removed| Edit::ReAdd { removed }),
        2 => (idx(), idx(), idx()).prop_map(|(dir, file_name, name)| Edit::AddNew { dir, file_name, name }),
    ]
}

/// A top-level definition calling another, in the language's syntax.
fn definition_text(lang: Language, name: &str, callee: &str) -> String {
    match lang {
        Language::Python => format!("def {name}():\n    return {callee}()\n"),
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            format!("export function {name}() {{ return {callee}(); }}\n")
        }
        Language::Go => format!("func {name}() int {{ return {callee}() }}\n"),
        Language::Rust => format!("pub fn {name}() -> u32 {{ {callee}() }}\n"),
    }
}

/// A type with a method calling another method on itself, in the language's syntax.
fn class_text(lang: Language, name: &str, method: &str, callee: &str) -> String {
    match lang {
        Language::Python => {
            format!("class {name}:\n    def {method}(self):\n        return self.{callee}()\n")
        }
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            format!("export class {name} {{\n  {method}() {{ return this.{callee}(); }}\n}}\n")
        }
        Language::Go => format!(
            "type {name} struct{{}}\nfunc (s *{name}) {method}() int {{ return s.{callee}() }}\n"
        ),
        Language::Rust => format!(
            "pub struct {name};\nimpl {name} {{\n    pub fn {method}(&self) -> u32 {{ self.{callee}() }}\n}}\n"
        ),
    }
}

/// File names a new file may get, including ones with a meaning to the module resolvers.
fn new_file_names(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::Python => &["util.py", "models.py", "__init__.py", "helpers.py"],
        Language::JavaScript => &["index.js", "util.js", "cart.js"],
        Language::TypeScript => &["index.ts", "util.ts", "types.ts"],
        Language::Tsx => &["index.tsx", "App.tsx"],
        Language::Go => &["util.go", "extra_test.go", "store.go"],
        Language::Rust => &["mod.rs", "util.rs", "lib.rs"],
    }
}

/// A fixture repo as loaded by the crawl.
struct Fixture {
    repo: PathBuf,
    files: BTreeMap<String, (Language, String)>,
    manifests: Vec<(String, Arc<str>)>,
    /// Every line of every file, the pool inserted lines are drawn from.
    lines: Vec<String>,
    /// Directories holding source files, with the language of one of them.
    dirs: Vec<(String, Language)>,
}

fn load_fixture(repo: &Path) -> Fixture {
    let (candidates, _) = walk::discover(&[repo.to_owned()], &IndexConfig::default());
    let mut files = BTreeMap::new();
    let mut manifests = Vec::new();
    for candidate in candidates {
        let Ok(text) = walk::read_source_of(
            &candidate.abs_path,
            &candidate.rel_path,
            candidate.lang,
            1024 * 1024,
        ) else {
            continue;
        };
        match candidate.lang {
            Some(lang) => {
                files.insert(candidate.rel_path, (lang, text));
            }
            None => manifests.push((candidate.rel_path, Arc::from(text))),
        }
    }
    let lines = files
        .values()
        .flat_map(|(_, text)| text.lines().map(str::to_owned))
        .collect();
    let mut dirs: BTreeMap<String, Language> = BTreeMap::new();
    for (path, (lang, _)) in &files {
        let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        dirs.entry(dir.to_owned()).or_insert(*lang);
    }
    Fixture {
        repo: repo.to_owned(),
        files,
        manifests,
        lines,
        dirs: dirs.into_iter().collect(),
    }
}

/// The files of a fixture while edits are applied, mirrored into `index`.
struct Model<'a> {
    fixture: &'a Fixture,
    files: BTreeMap<String, (Language, String)>,
    /// Removed files with their last text, for `ReAdd`.
    removed: Vec<(String, (Language, String))>,
}

impl Model<'_> {
    fn nth_file(&self, idx: usize) -> Option<String> {
        (!self.files.is_empty()).then(|| {
            self.files
                .keys()
                .nth(idx % self.files.len())
                .expect("in range")
                .clone()
        })
    }

    /// Applies `change` to the lines of the `file_idx`th file and sets it in the index.
    fn edit_lines(
        &mut self,
        index: &mut Index,
        file_idx: usize,
        change: impl FnOnce(&mut Vec<String>),
    ) {
        let Some(path) = self.nth_file(file_idx) else {
            return;
        };
        let (lang, text) = self.files.get_mut(&path).expect("live");
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        change(&mut lines);
        *text = lines.iter().map(|line| format!("{line}\n")).collect();
        index.set_file(0, &path, *lang, Arc::from(text.as_str()));
    }

    fn apply(&mut self, index: &mut Index, edit: &Edit) {
        match *edit {
            Edit::DeleteLines { file, line, count } => self.edit_lines(index, file, |lines| {
                if !lines.is_empty() {
                    let start = line % lines.len();
                    let end = (start + count).min(lines.len());
                    lines.drain(start..end);
                }
            }),
            Edit::InsertLine { file, line, source } => {
                let pool = &self.fixture.lines;
                let inserted = if pool.is_empty() {
                    String::new()
                } else {
                    pool[source % pool.len()].clone()
                };
                self.edit_lines(index, file, |lines| {
                    lines.insert(line % (lines.len() + 1), inserted);
                });
            }
            Edit::DuplicateLine { file, line } => self.edit_lines(index, file, |lines| {
                if !lines.is_empty() {
                    let at = line % lines.len();
                    lines.insert(at, lines[at].clone());
                }
            }),
            Edit::InsertDefinition {
                file,
                line,
                name,
                callee,
            } => {
                let Some(path) = self.nth_file(file) else {
                    return;
                };
                let lang = self.files[&path].0;
                let text =
                    definition_text(lang, NAMES[name % NAMES.len()], NAMES[callee % NAMES.len()]);
                self.edit_lines(index, file, |lines| {
                    let at = line % (lines.len() + 1);
                    for (offset, new_line) in text.lines().enumerate() {
                        lines.insert(at + offset, new_line.to_owned());
                    }
                });
            }
            Edit::InsertClass {
                file,
                line,
                name,
                method,
                callee,
            } => {
                let Some(path) = self.nth_file(file) else {
                    return;
                };
                let lang = self.files[&path].0;
                let text = class_text(
                    lang,
                    NAMES[name % NAMES.len()],
                    NAMES[method % NAMES.len()],
                    NAMES[callee % NAMES.len()],
                );
                self.edit_lines(index, file, |lines| {
                    let at = line % (lines.len() + 1);
                    for (offset, new_line) in text.lines().enumerate() {
                        lines.insert(at + offset, new_line.to_owned());
                    }
                });
            }
            Edit::Empty { file } => self.edit_lines(index, file, Vec::clear),
            Edit::Remove { file } => {
                let Some(path) = self.nth_file(file) else {
                    return;
                };
                let file = self.files.remove(&path).expect("live");
                assert!(index.remove_file(0, &path), "{path} was in the index");
                self.removed.push((path, file));
            }
            Edit::ReAdd { removed } => {
                if self.removed.is_empty() {
                    return;
                }
                let (path, (lang, text)) = self.removed.remove(removed % self.removed.len());
                index.set_file(0, &path, lang, Arc::from(text.as_str()));
                self.files.insert(path, (lang, text));
            }
            Edit::AddNew {
                dir,
                file_name,
                name,
            } => {
                let Some((dir, lang)) = self.fixture.dirs.get(dir % self.fixture.dirs.len().max(1))
                else {
                    return;
                };
                let names = new_file_names(*lang);
                let file_name = names[file_name % names.len()];
                let path = if dir.is_empty() {
                    file_name.to_owned()
                } else {
                    format!("{dir}/{file_name}")
                };
                let def_name = NAMES[name % NAMES.len()];
                let text = definition_text(*lang, def_name, NAMES[(name + 1) % NAMES.len()]);
                index.set_file(0, &path, *lang, Arc::from(text.as_str()));
                self.removed.retain(|(removed, _)| *removed != path);
                self.files.insert(path, (*lang, text));
            }
        }
    }
}

/// A fresh index over `files`, added in path order.
fn fresh_index(fixture: &Fixture, files: &BTreeMap<String, (Language, String)>) -> Index {
    let mut index = Index::new(vec![fixture.repo.clone()]);
    for (path, text) in &fixture.manifests {
        index.set_manifest(0, path, Some(Arc::clone(text)));
    }
    for (path, (lang, text)) in files {
        index.set_file(0, path, *lang, Arc::from(text.as_str()));
    }
    index
}

/// Go-to-definition at the start of every reference of every file, by path.
fn every_definition_answer(index: &Index) -> Vec<String> {
    let mut files: Vec<_> = index
        .files()
        .map(|(file, data)| (data.path.clone(), file))
        .collect();
    files.sort();
    let mut res = Vec::new();
    for (path, file) in files {
        let data = index.file(file).expect("live");
        for reference in &data.syntax.refs {
            let targets: Vec<String> = index
                .goto_definition(FilePosition {
                    file,
                    offset: reference.range.start,
                })
                .iter()
                .map(|target| {
                    let target_path = &index.file(target.file).expect("live").path;
                    format!("{target_path}:{}", target.range.start)
                })
                .collect();
            res.push(format!("{path}:{} -> {targets:?}", reference.range.start));
        }
    }
    res
}

fn check_edits(fixture: &Fixture, edits: &[Edit]) -> Result<(), TestCaseError> {
    let mut index = Index::build(vec![fixture.repo.clone()], &IndexConfig::default());
    let mut model = Model {
        fixture,
        files: fixture.files.clone(),
        removed: Vec::new(),
    };
    for (edit_idx, edit) in edits.iter().enumerate() {
        model.apply(&mut index, edit);
        if edit_idx % 3 != 2 {
            // Build the lazily derived tables now, so that later edits update them in place
            // (or drop them) rather than only ever building them from scratch.
            index.import_graph();
            index.search_symbols("a", 1);
        }
    }
    let fresh = fresh_index(fixture, &model.files);
    let (dump, fresh_dump) = (index.canonical_dump(), fresh.canonical_dump());
    if dump != fresh_dump {
        let first_diff = dump
            .lines()
            .zip(fresh_dump.lines())
            .find(|(a, b)| a != b)
            .map(|(a, b)| format!("incremental: {a}\nfresh:       {b}"))
            .unwrap_or_else(|| "one dump is a prefix of the other".to_owned());
        return Err(TestCaseError::fail(format!(
            "dumps differ at\n{first_diff}"
        )));
    }
    let (answers, fresh_answers) = (
        every_definition_answer(&index),
        every_definition_answer(&fresh),
    );
    if let Some((a, b)) = answers.iter().zip(&fresh_answers).find(|(a, b)| a != b) {
        return Err(TestCaseError::fail(format!(
            "go-to-definition differs\nincremental: {a}\nfresh:       {b}"
        )));
    }
    Ok(())
}

fn fixture_repos() -> Vec<PathBuf> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut repos: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .expect("fixtures/ exists")
        .filter_map(|entry| Some(entry.ok()?.path().join("repo")))
        .filter(|repo| repo.is_dir())
        .collect();
    repos.sort();
    repos
}

#[test]
fn incremental_updates_equal_a_fresh_build_over_every_fixture() {
    let repos = fixture_repos();
    assert!(!repos.is_empty(), "no fixture repos found");
    for repo in repos {
        let fixture = load_fixture(&repo);
        let mut runner = TestRunner::new(Config {
            cases: 16,
            failure_persistence: None,
            ..Config::default()
        });
        let res = runner.run(&prop::collection::vec(edit_strategy(), 1..12), |edits| {
            check_edits(&fixture, &edits)
        });
        if let Err(err) = res {
            panic!("{}: {err}", repo.display());
        }
    }
}

#[test]
fn no_edits_leave_the_crawled_index_equal_to_a_fresh_build() {
    for repo in fixture_repos() {
        let fixture = load_fixture(&repo);
        if let Err(err) = check_edits(&fixture, &[]) {
            panic!("{}: {err}", repo.display());
        }
    }
}

/// Regression: `self.run()` answered in `defs_by_name` order, which is the order files were
/// edited in, so an updated index and a fresh one disagreed.
#[test]
fn same_named_classes_added_out_of_path_order_answer_like_a_fresh_build() {
    for repo in fixture_repos() {
        let fixture = load_fixture(&repo);
        let class = |file| Edit::InsertClass {
            file,
            line: 0,
            name: 3,
            method: 5,
            callee: 5,
        };
        if let Err(err) = check_edits(&fixture, &[class(5), class(2)]) {
            panic!("{}: {err}", repo.display());
        }
    }
}
