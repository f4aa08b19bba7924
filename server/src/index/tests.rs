//! Index tests over multi-file fixtures written inline (`//- /path` starts a file, `$0`
//! marks the cursor).

use std::sync::Arc;

use super::{DefId, FilePosition, Index, MatchTier};
use crate::base::FileId;
use crate::languages::{DefKind, Language};

/// Builds an in-memory index from a fixture; returns it and the cursor position, if any.
pub(crate) fn index_fixture(fixture: &str) -> (Index, Option<FilePosition>) {
    let mut index = Index::new(vec![std::path::PathBuf::from("/ws")]);
    let mut cursor = None;
    let mut current: Option<(String, String)> = None;
    let mut files: Vec<(String, String)> = Vec::new();
    for line in fixture.lines() {
        if let Some(path) = line.strip_prefix("//- /") {
            files.extend(current.take());
            current = Some((path.trim().to_owned(), String::new()));
        } else if let Some((_, text)) = current.as_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    files.extend(current.take());
    for (path, mut text) in files {
        let marker = text.find("$0");
        if let Some(offset) = marker {
            text.replace_range(offset..offset + 2, "");
        }
        let text: Arc<str> = Arc::from(text);
        let file = match Language::from_path(&path) {
            Some(lang) => index.set_file(0, &path, lang, text),
            None => {
                index.set_manifest(0, &path, Some(text));
                continue;
            }
        };
        if let Some(offset) = marker {
            cursor = Some(FilePosition {
                file,
                offset: offset as u32,
            });
        }
    }
    (index, cursor)
}

fn describe(index: &Index, file: FileId, idx: u32) -> String {
    let data = index.file(file).unwrap();
    let def = &data.syntax.defs[idx as usize];
    format!("{}:{} ({})", data.path, def.name, def.kind)
}

#[track_caller]
fn check_definition(fixture: &str, expect: &[&str]) {
    let (index, cursor) = index_fixture(fixture);
    let targets = index.goto_definition(cursor.expect("fixture has a $0 cursor"));
    let got: Vec<String> = targets
        .iter()
        .map(|target| describe(&index, target.def.file, target.def.idx))
        .collect();
    assert_eq!(
        got.iter().take(expect.len()).collect::<Vec<_>>(),
        expect.iter().collect::<Vec<_>>(),
        "all: {got:?}"
    );
}

#[test]
fn goto_def_python_follows_relative_import() {
    check_definition(
        r#"
//- /shop/models.py
class Order:
    pass
//- /shop/views.py
from .models import Order
o = Ord$0er()
"#,
        &["shop/models.py:Order (class)"],
    );
}

/// axios: `helpers/resolveConfig.js` and `adapters/fetch.js` default-export anonymous
/// functions; the adapters import one under another name, as code importing a default does.
const AXIOS_DEFAULT_EXPORTS: &str = r#"
//- /lib/helpers/resolveConfig.js
export default (config) => {
  return config;
}
//- /lib/adapters/fetch.js
export default isFetchSupported && (async (config) => {
  return config;
})
//- /lib/platform/index.js
export default class { get (key) { return key } }
//- /lib/adapters/xhr.js
import resolveConfig from './../helpers/resolveConfig.js';
import fetchAdapter from './fetch.js';
import platform from '../platform';

export function xhr(config) {
  fetchAdapter(config);
  return resolveConfig(config);
}
"#;

#[test]
fn goto_def_follows_a_default_import_to_an_anonymous_default_export() {
    check_definition(
        &AXIOS_DEFAULT_EXPORTS.replace("return resolveConfig", "return resolve$0Config"),
        &["lib/helpers/resolveConfig.js:resolveConfig (function)"],
    );
    // Imported under another name than the file's.
    check_definition(
        &AXIOS_DEFAULT_EXPORTS.replace("  fetchAdapter(config)", "  fetch$0Adapter(config)"),
        &["lib/adapters/fetch.js:fetch (function)"],
    );
    // An index file is named after its directory, as its importers name it.
    check_definition(
        &AXIOS_DEFAULT_EXPORTS.replace("import platform", "import plat$0form"),
        &["lib/platform/index.js:platform (class)"],
    );
}

#[test]
fn anonymous_default_exports_are_symbols_named_after_their_module() {
    let (index, _) = index_fixture(AXIOS_DEFAULT_EXPORTS);
    let found = |query: &str| -> Vec<String> {
        index
            .search_symbols_up_to(query, 10, MatchTier::Prefix)
            .iter()
            .map(|hit| describe(&index, hit.def.file, hit.def.idx))
            .collect()
    };
    assert_eq!(
        found("resolveConfig"),
        ["lib/helpers/resolveConfig.js:resolveConfig (function)"]
    );
    assert_eq!(
        found("platform"),
        ["lib/platform/index.js:platform (class)"]
    );
    // A file with the same text elsewhere has a definition named after it.
    let mut index = index;
    let text = index
        .file(index.file_id(0, "lib/helpers/resolveConfig.js").unwrap())
        .unwrap()
        .text
        .clone();
    index.set_file(0, "lib/core/mergeConfig.js", Language::JavaScript, text);
    assert_eq!(index.defs_named("mergeConfig").len(), 1);
    assert_eq!(index.defs_named("resolveConfig").len(), 1);
}

#[test]
fn top_level_code_is_found_by_no_name_and_stands_in_no_ones_way() {
    // A cursor on the first character of a top-level statement is on the name called there,
    // not on the statements' definition that starts at the same place.
    check_definition(
        r#"
//- /tools/seed.py
def main():
    pass
$0main()
for _ in range(2):
    pass
"#,
        &["tools/seed.py:main (function)"],
    );
    let (index, _) = index_fixture("//- /tools/seed.py\ndef main():\n    pass\n\nmain()\n");
    let file = index.file_id(0, "tools/seed.py").unwrap();
    let kinds: Vec<DefKind> = index
        .file(file)
        .unwrap()
        .syntax
        .defs
        .iter()
        .map(|def| def.kind)
        .collect();
    assert_eq!(kinds, [DefKind::Function, DefKind::Statements]);
    assert!(index.defs_named(crate::syntax::STATEMENTS_NAME).is_empty());
    assert!(index
        .search_symbols_up_to("top-level", 10, MatchTier::Fuzzy)
        .is_empty());
}

#[test]
fn goto_def_python_follows_package_reexport() {
    check_definition(
        r#"
//- /shop/__init__.py
from .models import Order as Order
//- /shop/models.py
class Order:
    pass
//- /app.py
from shop import Order
Ord$0er()
"#,
        &["shop/models.py:Order (class)"],
    );
}

#[test]
fn goto_def_follows_wildcard_imports_through_cycles() {
    // Each module star-imports the others, as test modules' `use super::*` do: the search
    // looks at each (module, name) once, not once per path through the cycles.
    check_definition(
        r#"
//- /pkg/a.py
from .b import *
from .c import *
from .a import *
//- /pkg/b.py
from .a import *
from .c import *
from .d import *
//- /pkg/c.py
from .a import *
from .b import *
from .d import *
//- /pkg/d.py
from .b import *
def target():
    pass
//- /app.py
from pkg.a import *
tar$0get()
"#,
        &["pkg/d.py:target (function)"],
    );
}

#[test]
fn goto_def_python_module_attribute() {
    check_definition(
        r#"
//- /shop/pricing.py
def apply_discount(total):
    return total
//- /shop/services.py
from . import pricing
def f(cart):
    return pricing.apply_dis$0count(cart)
"#,
        &["shop/pricing.py:apply_discount (function)"],
    );
}

#[test]
fn goto_def_prefers_self_method_of_enclosing_class() {
    check_definition(
        r#"
//- /a.py
class Other:
    def run(self):
        pass
class Job:
    def run(self):
        pass
    def start(self):
        self.r$0un()
"#,
        &["a.py:run (method)"],
    );
    let (index, cursor) = index_fixture(
        "//- /a.py\nclass Other:\n    def run(self):\n        pass\nclass Job:\n    def run(self):\n        pass\n    def start(self):\n        self.r$0un()\n",
    );
    let target = index.goto_definition(cursor.unwrap())[0];
    let parent = index.def(target.def).unwrap().parent.unwrap();
    assert_eq!(
        &*index.file(target.file).unwrap().syntax.defs[parent as usize].name,
        "Job"
    );
}

#[test]
fn goto_def_type_attribute_access() {
    check_definition(
        r#"
//- /db.py
class DatabaseClient:
    def connect(self, url):
        pass
//- /app.py
from db import DatabaseClient
DatabaseClient.conn$0ect(None, "x")
"#,
        &["db.py:connect (method)"],
    );
}

#[test]
fn goto_def_on_a_definition_name_is_itself() {
    check_definition(
        "//- /a.py\ndef he$0lper():\n    pass\n",
        &["a.py:helper (function)"],
    );
}

#[test]
fn goto_def_falls_back_to_a_ranked_global_match() {
    check_definition(
        r#"
//- /tests/test_x.py
def compute():
    pass
//- /lib/x.py
def compute():
    pass
//- /lib/y.py
def f():
    comp$0ute()
"#,
        &[
            "lib/x.py:compute (function)",
            "tests/test_x.py:compute (function)",
        ],
    );
}

#[test]
fn goto_def_self_method_is_the_enclosing_class_own_not_one_of_another_class_of_its_name() {
    // `b.py` is added first, so `defs_by_name` lists its `run` first; `self` is the `Job` of
    // `a.py`, whose own `run` it is.
    check_definition(
        r#"
//- /b.py
class Job:
    def run(self):
        pass
//- /a.py
class Job:
    def run(self):
        pass
    def start(self):
        self.r$0un()
//- /c.py
class Job:
    def run(self):
        pass
"#,
        &["a.py:run (method)"],
    );
}

#[test]
fn goto_def_finds_inherited_members_through_the_bases_a_class_declares() {
    // `self.get_queryset` in `ModelAdmin` is its base's, not that of a test's local class of
    // the same name; `super` goes to the base's even where the class overrides it.
    check_definition(
        r#"
//- /admin/options.py
class BaseModelAdmin:
    def get_queryset(self, request):
        return None
    def save(self):
        pass

class ModelAdmin(BaseModelAdmin):
    def changelist(self, request):
        return self.get_que$0ryset(request)
//- /tests/test_admin.py
class ModelAdmin(admin.ModelAdmin):
    def get_queryset(self, request):
        return []
"#,
        &["admin/options.py:get_queryset (method)"],
    );
    check_definition(
        r#"
//- /models/base.py
class Base:
    def save(self):
        pass

class Middle(Base):
    pass
//- /models/model.py
class Model(Middle):
    def save(self):
        super().sa$0ve()
"#,
        &["models/base.py:save (method)"],
    );
    check_definition(
        r#"
//- /src/app.ts
export class Emitter {
  emit(event: string) {}
}
export class Application extends Emitter {
  listen() {}
}
export function start(app: Application) {
  app.em$0it("start");
}
//- /src/bus.ts
export class Bus {
  emit(event: string) {}
}
"#,
        &["src/app.ts:emit (method)"],
    );
    check_definition(
        r#"
//- /store/store.go
package store

type Base struct{}

func (b *Base) Close() error { return nil }

type Store struct {
	*Base
	name string
}

func Use(s *Store) {
	s.Clo$0se()
}
//- /conn/conn.go
package conn

type Conn struct{}

func (c *Conn) Close() error { return nil }
"#,
        &["store/store.go:Close (method)"],
    );
    // A Rust trait's provided method is the method of the types implementing the trait.
    check_definition(
        r#"
//- /src/lib.rs
pub trait Greet {
    fn hello(&self) -> String { String::from("hello") }
}
pub struct Store;
impl Greet for Store {}
pub fn run(store: &Store) -> String {
    store.hel$0lo()
}
//- /src/other.rs
pub struct Other;
impl Other {
    pub fn hello(&self) -> String { String::new() }
}
"#,
        &["src/lib.rs:hello (method)"],
    );
}

#[test]
fn goto_def_on_an_impl_header_goes_to_the_type() {
    check_definition(
        r#"
//- /src/lib.rs
pub struct MemStore;
impl MemStore {
    pub fn new() -> MemStore {
        MemStore
    }
}
impl std::fmt::Display for Mem$0Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Ok(())
    }
}
"#,
        &["src/lib.rs:MemStore (struct)"],
    );
}

#[test]
fn python_unicode_upper_case_module_names_are_constants() {
    check_definition(
        "//- /sizing.py\nGRÖSSEN_GRE$0NZEN = [(160, \"XS\")]\n",
        &["sizing.py:GRÖSSEN_GRENZEN (constant)"],
    );
    check_definition(
        "//- /sizing.py\ngrößen_t$0abelle = []\n",
        &["sizing.py:größen_tabelle (variable)"],
    );
    check_definition(
        "//- /sizing.py\nMAX_2$0 = 2\n",
        &["sizing.py:MAX_2 (constant)"],
    );
}

#[test]
fn files_that_only_declare_types_are_told_from_code() {
    let (index, _) = index_fixture(
        r#"
//- /source/types/options.ts
/** How long to wait. */
export type Timeout = number | false;
export interface Options {
  timeout?: Timeout;
  parseJson?(text: string): unknown;
}
//- /index.d.ts
export declare function request(url: string): Promise<Response>;
//- /source/core/ky.ts
export interface State { retries: number }
export function request(options: Options) { return options.timeout; }
//- /source/core/constants.ts
export const DEFAULT_TIMEOUT = 10_000;
//- /source/core/client.ts
export class Client {}
"#,
    );
    let declarations_only = |path: &str| {
        index
            .files()
            .find(|(_, data)| &*data.path == path)
            .map(|(_, data)| data.declarations_only)
            .unwrap_or_else(|| panic!("{path} indexed"))
    };
    assert!(declarations_only("source/types/options.ts"));
    assert!(declarations_only("index.d.ts"));
    assert!(!declarations_only("source/core/ky.ts"));
    assert!(!declarations_only("source/core/constants.ts"));
    assert!(!declarations_only("source/core/client.ts"));
}

#[test]
fn files_are_found_by_stem_as_they_come_and_go() {
    let (mut index, _) = index_fixture(
        r#"
//- /click/_compat.py
x = 1
//- /tests/compat.test.ts
const y = 1
//- /click/core.py
z = 1
"#,
    );
    let paths = |index: &Index, stem: &str| -> Vec<String> {
        index
            .files_with_stem(stem)
            .iter()
            .map(|file| index.file(*file).unwrap().path.to_string())
            .collect()
    };
    assert_eq!(super::file_stem("src/click/_compat.py"), "compat");
    assert_eq!(
        paths(&index, "compat"),
        ["click/_compat.py", "tests/compat.test.ts"]
    );
    assert!(index.remove_file(0, "click/_compat.py"));
    assert_eq!(paths(&index, "compat"), ["tests/compat.test.ts"]);
    // An edit keeps the file where it is; a file added again is found again.
    index.set_file(
        0,
        "tests/compat.test.ts",
        Language::TypeScript,
        Arc::from("let y = 2\n"),
    );
    index.set_file(
        0,
        "click/_compat.py",
        Language::Python,
        Arc::from("x = 2\n"),
    );
    assert_eq!(
        paths(&index, "compat"),
        ["tests/compat.test.ts", "click/_compat.py"]
    );
    assert!(index.files_with_stem("_compat").is_empty());
    assert_eq!(paths(&index, "core"), ["click/core.py"]);
}

#[test]
fn a_method_declared_outside_its_type_belongs_to_the_type_of_its_package() {
    let (index, _) = index_fixture(
        r#"
//- /mux/route.go
package mux

type Route struct {
	name string
}

func (r *Route) Name() string { return r.name }
//- /mux/match.go
package mux

func (r *Route) Match() bool { return true }
func (m *Missing) Lost() {}
//- /other/route.go
package other

type Route struct{}

func (r Route) Name() string { return "" }
//- /lib/response.js
var res = Object.create(null);
res.send = function send(body) { return body; };
"#,
    );
    let def = |path: &str, name: &str| -> DefId {
        let (file, data) = index
            .files()
            .find(|(_, data)| &*data.path == path)
            .unwrap_or_else(|| panic!("{path} indexed"));
        let idx = data.syntax.defs.iter().position(|def| &*def.name == name);
        DefId {
            file,
            idx: idx.unwrap_or_else(|| panic!("{name} in {path}")) as u32,
        }
    };
    let route = def("mux/route.go", "Route");
    assert_eq!(index.owner(def("mux/route.go", "Name")), Some(route));
    assert_eq!(index.owner(def("mux/match.go", "Match")), Some(route));
    assert_eq!(index.owner(def("mux/match.go", "Lost")), None);
    assert_eq!(index.owner(def("mux/route.go", "name")), Some(route));
    let other = def("other/route.go", "Route");
    assert_eq!(index.owner(def("other/route.go", "Name")), Some(other));
    assert_eq!(
        index.declared_members(route),
        [def("mux/route.go", "Name"), def("mux/match.go", "Match")]
    );
    assert_eq!(
        index.declared_members(other),
        [def("other/route.go", "Name")]
    );
    assert_eq!(
        index.owner(def("lib/response.js", "send")),
        Some(def("lib/response.js", "res"))
    );
}

/// Express aliases a response method with a chained assignment (`res.set = res.header =
/// function header() {}`), beside an application method of one of the names; the TypeScript
/// file chains three names of a prototype.
const EXPRESS_CHAINED_ALIASES: &str = r#"
//- /lib/response.js
var res = Object.create(null);
module.exports = res;
res.set =
res.header = function header(field, val) { return this; };
res.contentType = res.type = function contentType(type) {
  return this.set('Content-Type', type);
};
res.json = function json(obj) {
  this.header('Content-Type', 'application/json');
  return this.send(JSON.stringify(obj));
};
exports.a = exports.b = 5;
//- /lib/application.js
var app = exports = module.exports = {};
app.set = function set(setting, val) { return this; };
//- /src/store.ts
export function Store() {}
Store.prototype.get = Store.prototype.fetch = Store.prototype.read = function (key: string) {
  return key;
};
"#;

#[test]
fn chained_assignments_define_every_name_as_siblings_sharing_one_range() {
    let (index, _) = index_fixture(EXPRESS_CHAINED_ALIASES);
    let names_at = |path: &str, line: &str| -> Vec<String> {
        let file = index.file_id(0, path).unwrap();
        let data = index.file(file).unwrap();
        let offset = data.text.find(line).unwrap() as u32;
        index
            .file_defs(file)
            .filter(|def| {
                let target = index.def(*def).unwrap();
                target.range.start == offset && target.kind.is_named()
            })
            .map(|def| {
                let target = index.def(def).unwrap();
                format!(
                    "{} ({}) parent={:?}",
                    member_name(&index, def),
                    target.kind,
                    target.parent
                )
            })
            .collect()
    };
    assert_eq!(
        names_at("lib/response.js", "res.set ="),
        [
            "res.set (method) parent=None",
            "res.header (method) parent=None"
        ]
    );
    assert_eq!(
        names_at("lib/response.js", "res.contentType ="),
        [
            "res.contentType (method) parent=None",
            "res.type (method) parent=None"
        ]
    );
    assert_eq!(
        names_at("src/store.ts", "Store.prototype.get"),
        [
            "Store.prototype.get (method) parent=None",
            "Store.prototype.fetch (method) parent=None",
            "Store.prototype.read (method) parent=None"
        ]
    );
    // Both names span the function's whole body, and the two definitions one range.
    let header = index.defs_named("header")[0];
    let set = index
        .defs_named("set")
        .iter()
        .copied()
        .find(|def| def.file == header.file)
        .unwrap();
    let header_range = index.def(header).unwrap().range;
    assert_eq!(index.def(set).unwrap().range, header_range);
    assert!(index
        .text(header.file, header_range)
        .ends_with("return this; }"));
    // A chain of a value that is no function defines nothing: it is top-level code.
    assert!(index.defs_named("a").is_empty());
    assert!(index.defs_named("b").is_empty());
    let response = index.file_id(0, "lib/response.js").unwrap();
    let last = index.file_defs(response).last().unwrap();
    assert_eq!(index.def(last).unwrap().kind, DefKind::Statements);
}

#[test]
fn chained_assignments_are_found_by_every_name() {
    let (index, _) = index_fixture(EXPRESS_CHAINED_ALIASES);
    let found = |query: &str| -> Vec<String> {
        index
            .search_symbols_up_to(query, 10, MatchTier::Exact)
            .iter()
            .map(|hit| describe(&index, hit.def.file, hit.def.idx))
            .collect()
    };
    assert_eq!(found("header"), ["lib/response.js:header (method)"]);
    assert_eq!(
        found("contentType"),
        ["lib/response.js:contentType (method)"]
    );
    assert_eq!(found("type"), ["lib/response.js:type (method)"]);
    assert_eq!(found("fetch"), ["src/store.ts:fetch (method)"]);
    assert_eq!(found("res.set"), ["lib/response.js:set (method)"]);
    assert_eq!(found("res.header"), ["lib/response.js:header (method)"]);
    assert_eq!(found("app.set"), ["lib/application.js:set (method)"]);
}

#[test]
fn goto_def_on_a_use_of_a_chained_name_is_its_definition() {
    check_definitions_exactly(
        &EXPRESS_CHAINED_ALIASES.replacen("this.header(", "this.hea$0der(", 1),
        &["lib/response.js:res.header"],
    );
    // `this.set` in a method of `res` is `res.set` first, then the other `set`, as for a
    // method assigned alone.
    check_definition(
        &EXPRESS_CHAINED_ALIASES.replacen("this.set(", "this.s$0et(", 1),
        &[
            "lib/response.js:set (method)",
            "lib/application.js:set (method)",
        ],
    );
    check_definitions_exactly(
        &format!(
            "{EXPRESS_CHAINED_ALIASES}//- /lib/middleware.js\nfunction init(req, res) {{\n  res.ty$0pe('html');\n}}\n"
        ),
        &["lib/response.js:res.type"],
    );
    check_definitions_exactly(
        &format!(
            "{EXPRESS_CHAINED_ALIASES}//- /src/main.ts\nimport {{ Store }} from './store';\nexport function main(store: Store) {{\n  store.fe$0tch('k');\n}}\n"
        ),
        &["src/store.ts:Store.prototype.fetch"],
    );
}

#[test]
fn a_bounded_look_up_guesses_among_few_same_named_definitions_only() {
    let (index, pos) = index_fixture(
        r#"
//- /a.py
class A:
    def run(self):
        pass
//- /b.py
class B:
    def run(self):
        pass
//- /c.py
class C:
    def run(self):
        pass
//- /main.py
def main(job):
    def helper():
        pass
    helper()
    job.r$0un()
"#,
    );
    let pos = pos.expect("cursor");
    assert_eq!(index.goto_definition(pos).len(), 3);
    assert_eq!(index.goto_definition_within(pos, 3).len(), 3);
    assert!(index.goto_definition_within(pos, 2).is_empty());
    // What the scopes resolve is found whatever the bound.
    let data = index.file(pos.file).unwrap();
    let helper_call = data.text.rfind("helper()").unwrap() as u32;
    let local = FilePosition {
        file: pos.file,
        offset: helper_call,
    };
    assert_eq!(index.goto_definition_within(local, 0).len(), 1);
}

/// Asserts the whole list of definitions the cursor goes to.
#[track_caller]
fn check_definitions_exactly(fixture: &str, expect: &[&str]) {
    let (index, cursor) = index_fixture(fixture);
    let got: Vec<String> = index
        .goto_definition(cursor.expect("fixture has a $0 cursor"))
        .iter()
        .map(|target| {
            format!(
                "{}:{}",
                index.file(target.file).unwrap().path,
                member_name(&index, target.def)
            )
        })
        .collect();
    assert_eq!(got, expect);
}

/// The reference at a fixture's cursor.
fn reference_at(index: &Index, cursor: FilePosition) -> &crate::syntax::Ref {
    index
        .file(cursor.file)
        .unwrap()
        .syntax
        .refs
        .iter()
        .find(|r| r.range.contains_inclusive(cursor.offset))
        .expect("a reference at the cursor")
}

/// A definition as `Container.name` (`-.name` at the top level).
pub(crate) fn member_name(index: &Index, def: DefId) -> String {
    format!(
        "{}.{}",
        index.container_name(def).unwrap_or("-"),
        index.def(def).unwrap().name
    )
}

#[test]
fn a_python_receiver_is_typed_by_its_constructor_annotation_or_field() {
    let types = "//- /shop/types.py\nclass Cart:\n    def add(self, item):\n        pass\nclass Ledger:\n    def add(self, entry):\n        pass\n";
    let constructed = format!(
        "{types}//- /shop/app.py\nfrom shop.types import Cart\ndef run():\n    cart = Cart()\n    cart.a$0dd(1)\n"
    );
    check_definitions_exactly(&constructed, &["shop/types.py:Cart.add"]);
    let annotated = format!(
        "{types}//- /shop/app.py\ndef run(ledger: Optional[Ledger] = None):\n    ledger.a$0dd(1)\n"
    );
    check_definitions_exactly(&annotated, &["shop/types.py:Ledger.add"]);
    let field = format!(
        "{types}//- /shop/app.py\nclass Shop:\n    def __init__(self):\n        self.books = Ledger()\n    def sell(self):\n        self.books.a$0dd(1)\n"
    );
    check_definitions_exactly(&field, &["shop/types.py:Ledger.add"]);
    let class_attribute = format!(
        "{types}//- /shop/app.py\nclass Shop:\n    cart: Cart\n    def sell(self):\n        self.cart.a$0dd(1)\n"
    );
    check_definitions_exactly(&class_attribute, &["shop/types.py:Cart.add"]);
    // A binding in another function types nothing here: both are guesses.
    let elsewhere = format!(
        "{types}//- /shop/app.py\ndef setup():\n    cart = Cart()\ndef run(cart):\n    cart.a$0dd(1)\n"
    );
    let (index, cursor) = index_fixture(&elsewhere);
    assert_eq!(index.goto_definition(cursor.unwrap()).len(), 2);
    // Nor does a binding in a function nested in this one, which has ended at the cursor; the
    // outer function's own binding still does.
    let nested = format!(
        "{types}//- /shop/app.py\ndef run(cart):\n    def setup():\n        cart = Cart()\n    cart.a$0dd(1)\n"
    );
    let (index, cursor) = index_fixture(&nested);
    assert_eq!(index.goto_definition(cursor.unwrap()).len(), 2);
    let outer = format!(
        "{types}//- /shop/app.py\ndef run():\n    cart = Ledger()\n    def setup():\n        cart = Cart()\n    cart.a$0dd(1)\n"
    );
    check_definitions_exactly(&outer, &["shop/types.py:Ledger.add"]);
}

#[test]
fn a_rust_receiver_is_typed_by_its_constructor_parameter_or_field() {
    let types = "//- /src/wrap.rs\npub struct LineWrapper;\nimpl LineWrapper {\n    pub fn new(width: usize) -> Self { LineWrapper }\n    pub fn wrap(&mut self) {}\n}\n//- /src/text.rs\npub struct Text;\nimpl Text {\n    pub fn wrap(&mut self) {}\n}\n";
    let constructed = format!(
        "{types}//- /src/lib.rs\nfn run() {{\n    let mut wrapper = crate::wrap::LineWrapper::new(80);\n    wrapper.wr$0ap();\n}}\n"
    );
    check_definitions_exactly(&constructed, &["src/wrap.rs:LineWrapper.wrap"]);
    let parameter =
        format!("{types}//- /src/lib.rs\nfn run(text: &mut Text) {{\n    text.wr$0ap();\n}}\n");
    check_definitions_exactly(&parameter, &["src/text.rs:Text.wrap"]);
    let field = format!(
        "{types}//- /src/lib.rs\nstruct Doc {{\n    body: Box<Text>,\n}}\nimpl Doc {{\n    fn run(&mut self) {{\n        self.body.wr$0ap();\n    }}\n}}\n"
    );
    check_definitions_exactly(&field, &["src/text.rs:Text.wrap"]);
}

#[test]
fn a_go_receiver_is_typed_by_its_method_receiver_and_struct_fields() {
    let fixture = "//- /go.mod\nmodule example.com/srv\n//- /handler.go\npackage srv\n\ntype Handler struct{}\n\nfunc (h *Handler) Serve() {}\n\ntype Client struct{}\n\nfunc (c *Client) Serve() {}\n//- /server.go\npackage srv\n\ntype Server struct {\n\thandler *Handler\n}\n\nfunc (s *Server) Run() {\n\ts.handler.Ser$0ve()\n}\n";
    check_definitions_exactly(fixture, &["handler.go:Handler.Serve"]);
    let literal = "//- /go.mod\nmodule example.com/srv\n//- /handler.go\npackage srv\n\ntype Handler struct{}\n\nfunc (h *Handler) Serve() {}\n\ntype Client struct{}\n\nfunc (c *Client) Serve() {}\n//- /main.go\npackage srv\n\nfunc main() {\n\tc := &Client{}\n\tc.Ser$0ve()\n}\n";
    check_definitions_exactly(literal, &["handler.go:Client.Serve"]);
}

#[test]
fn a_field_declared_in_a_base_types_the_receiver_in_a_subtype() {
    // flask: `self.json.dumps` in `Flask(App)`, whose `json` `App.__init__` sets.
    let python = "//- /app/json.py\nclass Provider:\n    def dumps(self, obj):\n        pass\nclass Tagger:\n    def dumps(self, obj):\n        pass\n//- /app/base.py\nfrom app.json import Provider\nclass Base:\n    def __init__(self):\n        self.json: Provider = Provider()\n//- /app/app.py\nfrom app.base import Base\nclass App(Base):\n    def run(self):\n        self.json.du$0mps(1)\n";
    check_definitions_exactly(python, &["app/json.py:Provider.dumps"]);
    // chi: `l.Logger.Print` on a struct embedding the one that declares `Logger`.
    let go = "//- /go.mod\nmodule example.com/log\n//- /log.go\npackage log\n\ntype Printer interface {\n\tPrint(v string)\n}\n\ntype testPrinter struct{}\n\nfunc (testPrinter) Print(v string) {}\n\ntype Formatter struct {\n\tLogger Printer\n}\n\ntype entry struct {\n\t*Formatter\n\tbuf string\n}\n\nfunc (l *entry) Write() {\n\tl.Logger.Pri$0nt(l.buf)\n}\n";
    check_definitions_exactly(go, &["log.go:Printer.Print"]);
}

#[test]
fn a_go_type_assertion_types_the_variable_it_is_assigned_to() {
    // chi: `rctx, _ := r.Context().Value(RouteCtxKey).(*Context)`, then `rctx.Routes`.
    let types = "//- /go.mod\nmodule example.com/srv\n//- /context.go\npackage srv\n\ntype Context struct {\n\tRoutes Routes\n}\n\nfunc (x *Context) Reset() {}\n\ntype Routes interface {\n\tRoutes() []string\n}\n\ntype Writer struct{}\n\nfunc (w *Writer) Reset() {}\n";
    let declared = format!("{types}//- /mux.go\npackage srv\n\nfunc serve(v any) {{\n\trctx, _ := v.(*Context)\n\trctx.Res$0et()\n}}\n");
    check_definitions_exactly(&declared, &["context.go:Context.Reset"]);
    let field = format!("{types}//- /mux.go\npackage srv\n\nfunc serve(v any) {{\n\trctx, _ := v.(*Context)\n\trctx.Rou$0tes = nil\n}}\n");
    check_definitions_exactly(&field, &["context.go:Context.Routes"]);
    let assigned = format!("{types}//- /mux.go\npackage srv\n\nfunc serve(v any, p Pool) {{\n\tvar rctx *Writer\n\trctx = p.Get().(*Context)\n\trctx.Res$0et()\n}}\n");
    check_definitions_exactly(&assigned, &["context.go:Context.Reset"]);
    let var = format!("{types}//- /mux.go\npackage srv\n\nfunc serve(v any) {{\n\tvar rctx = v.(*Context)\n\trctx.Res$0et()\n}}\n");
    check_definitions_exactly(&var, &["context.go:Context.Reset"]);
}

#[test]
fn a_member_of_a_value_of_a_type_from_outside_the_repository_is_not_guessed() {
    let chi = "//- /go.mod\nmodule example.com/srv\n//- /context.go\npackage srv\n\ntype Context struct{}\n\nfunc (x *Context) Reset() {}\n\ntype Mux struct{}\n\nfunc (mx *Mux) Get(pattern string) {}\n\nfunc (mx *Mux) ServeHTTP() {}\n\nfunc New() {}\n//- /_examples/main.go\npackage main\n\ntype Handler func() error\n\nfunc (h Handler) ServeHTTP() {}\n";
    // chi: `r.Context()` with `r *http.Request` is not chi's `Context` struct, and
    // `mx.pool.Get()` with `pool sync.Pool` is not `Mux.Get`.
    let request = format!("{chi}//- /mux.go\npackage srv\n\nimport \"net/http\"\n\nfunc serve(r *http.Request) {{\n\tr.Cont$0ext()\n}}\n");
    check_definitions_exactly(&request, &[]);
    let field = format!("{chi}//- /mux.go\npackage srv\n\nimport \"sync\"\n\ntype Router struct {{\n\tpool *sync.Pool\n}}\n\nfunc (rt *Router) serve() {{\n\trt.pool.G$0et()\n}}\n");
    check_definitions_exactly(&field, &[]);
    // `next http.Handler` is not the `Handler` an example program declares.
    let qualified = format!("{chi}//- /mux.go\npackage srv\n\nimport \"net/http\"\n\nfunc wrap(next http.Handler) {{\n\tnext.Serve$0HTTP()\n}}\n");
    check_definitions_exactly(&qualified, &[]);
    // `errors.New` is the standard library's.
    let package = format!("{chi}//- /mw/compress.go\npackage mw\n\nimport \"errors\"\n\nfunc f() error {{\n\treturn errors.N$0ew(\"x\")\n}}\n");
    check_definitions_exactly(&package, &[]);
    // axum: a literal's members are its builtin type's, which the repository may implement
    // a trait for.
    let literal = "//- /src/response.rs\npub trait IntoResponse {\n    fn into_response(self) -> u16;\n}\nimpl IntoResponse for &'static str {\n    fn into_response(self) -> u16 { 200 }\n}\npub struct Json;\nimpl IntoResponse for Json {\n    fn into_response(self) -> u16 { 200 }\n}\n//- /src/lib.rs\nfn ok() -> u16 {\n    \"OK\".into_resp$0onse()\n}\n";
    check_definitions_exactly(literal, &["src/response.rs:str.into_response"]);
    check_definitions_exactly(
        "//- /app/text.py\nclass Sep:\n    def join(self, items):\n        pass\n//- /app/main.py\ndef f(names):\n    return ', '.jo$0in(names)\n",
        &[],
    );
    // A value of unknown type is still guessed at.
    let unknown = format!(
        "{chi}//- /mux.go\npackage srv\n\nfunc serve() {{\n\tx := make()\n\tx.Res$0et()\n}}\n"
    );
    check_definitions_exactly(&unknown, &["context.go:Context.Reset"]);
}

#[test]
fn a_bare_name_is_not_a_member_of_a_type_of_its_file() {
    // axum: `T: Service<Request>` under `use tower_service::Service;` is not the variant
    // `Fallback::Service` the file declares.
    check_definitions_exactly(
        "//- /src/routing.rs\nuse tower_service::Service;\nenum Fallback {\n    Service(u8),\n}\nfn route<T: Serv$0ice>(t: T) {}\n",
        &[],
    );
    // An imported class, not a class nested in another of the file.
    check_definitions_exactly(
        "//- /app/models.py\nclass Order:\n    pass\n//- /app/views.py\nfrom app.models import Order\nclass Form:\n    class Order:\n        pass\ndef f():\n    return Ord$0er()\n",
        &["app/models.py:-.Order"],
    );
}

/// Two TypeScript classes with a method of the same name, for receivers to tell apart.
const TS_POOL_AND_LOCK: &str =
    "//- /src/pool.ts\nexport class Pool {\n  acquire() {}\n}\nexport class Lock {\n  acquire() {}\n}\n";
/// Two Python classes with a method of the same name, for receivers to tell apart.
const PY_POOL_AND_FILE: &str = "//- /app/db.py\nclass Pool:\n    def close(self):\n        pass\nclass File:\n    def close(self):\n        pass\n";

#[test]
fn a_typescript_receiver_is_typed_by_its_annotation_or_construction() {
    let types = TS_POOL_AND_LOCK;
    let parameter_property = format!(
        "{types}//- /src/db.ts\nimport {{ Pool }} from './pool';\nexport class Db {{\n  constructor(private readonly pool: Pool) {{}}\n  query() {{\n    this.pool.acq$0uire();\n  }}\n}}\n"
    );
    check_definitions_exactly(&parameter_property, &["src/pool.ts:Pool.acquire"]);
    let constructed = format!(
        "{types}//- /src/main.js\nfunction main() {{\n  const lock = new Lock();\n  lock.acq$0uire();\n}}\n"
    );
    check_definitions_exactly(&constructed, &["src/pool.ts:Lock.acquire"]);
}

#[test]
fn a_typescript_receiver_may_be_asserted_non_null_or_to_a_type() {
    let types = TS_POOL_AND_LOCK;
    let non_null = format!(
        "{types}//- /src/main.ts\nimport {{ Pool }} from './pool';\nexport function run(pool?: Pool) {{\n  pool!.acq$0uire();\n}}\n"
    );
    check_definitions_exactly(&non_null, &["src/pool.ts:Pool.acquire"]);
    let asserted = format!(
        "{types}//- /src/main.ts\nimport {{ Pool }} from './pool';\nexport function run(value: unknown) {{\n  (value as Pool).acq$0uire();\n}}\n"
    );
    check_definitions_exactly(&asserted, &["src/pool.ts:Pool.acquire"]);
    // An assertion among a call's arguments says nothing of what the call returns.
    let argument = format!(
        "{types}//- /src/main.ts\nimport {{ Lock, Pool }} from './pool';\nfunction make(value: Pool): Lock {{\n  return new Lock();\n}}\nexport function run(value: unknown) {{\n  make(value as Pool).acq$0uire();\n}}\n"
    );
    check_definitions_exactly(&argument, &["src/pool.ts:Lock.acquire"]);
}

#[test]
fn a_python_context_manager_names_the_instance_or_what_its_function_returns() {
    let types = format!("{PY_POOL_AND_FILE}def open_pool(url) -> Pool:\n    return Pool()\n");
    let constructed = format!(
        "{types}//- /app/main.py\nfrom app.db import Pool\ndef run():\n    with Pool() as pool:\n        pool.clo$0se()\n"
    );
    check_definitions_exactly(&constructed, &["app/db.py:Pool.close"]);
    let returned = format!(
        "{types}//- /app/main.py\nfrom app import db\ndef run():\n    with db.open_pool('x') as pool, open('f') as f:\n        pool.clo$0se()\n"
    );
    check_definitions_exactly(&returned, &["app/db.py:Pool.close"]);
}

#[test]
fn code_names_definitions_of_its_own_language_only() {
    let jquery = "//- /bench/jquery.js\nclass Query {\n  map(callback) { return callback }\n}\n";
    // A Rust iterator's `map` is not a JavaScript benchmark's.
    check_definitions_exactly(
        &format!("{jquery}//- /src/app.rs\nfn f(v: Vec<u8>) {{\n    v.iter().m$0ap(|x| x);\n}}\n"),
        &[],
    );
    check_definitions_exactly(
        &format!("{jquery}//- /app/main.py\ndef f(values):\n    return values.m$0ap(str)\n"),
        &[],
    );
    // JavaScript, TypeScript and TSX name each other's.
    check_definitions_exactly(
        &format!("{jquery}//- /src/view.ts\nfunction f(q) {{\n  return q.m$0ap(1)\n}}\n"),
        &["bench/jquery.js:Query.map"],
    );
}

#[test]
fn a_call_on_a_value_of_a_type_the_repository_does_not_define_is_not_a_use() {
    let config = "//- /app/config.py\nclass Config:\n    def get(self, key):\n        pass\n";
    // Whether `.get()` at the cursor resolves to other definitions than `Config.get`.
    let elsewhere = |code: &str| {
        let (index, cursor) = index_fixture(&format!("{config}//- /app/use.py\n{code}"));
        let cursor = cursor.expect("fixture has a $0 cursor");
        let reference = reference_at(&index, cursor);
        let get = index.defs_named("get")[0];
        index.resolves_elsewhere(cursor.file, reference, get)
    };
    assert!(elsewhere("def f(values: dict):\n    values.g$0et(1)\n"));
    assert!(!elsewhere(
        "from app.config import Config\ndef f(c: Config):\n    c.g$0et(1)\n"
    ));
    // An alias of a repository type, a type parameter, a value of unknown type: maybe.
    assert!(!elsewhere(
        "from app.config import Config as Cfg\ndef f(c: Cfg):\n    c.g$0et(1)\n"
    ));
    assert!(!elsewhere("def f(c: T):\n    c.g$0et(1)\n"));
    assert!(!elsewhere("def f(c):\n    c.g$0et(1)\n"));
    // A literal's member is its builtin type's.
    assert!(elsewhere(
        "def port(url):\n    return {\"http\": 80}.g$0et(url.scheme)\n"
    ));
    assert!(elsewhere("def f(x):\n    return [x].g$0et(0)\n"));
    assert!(elsewhere("def f(x):\n    return 'a,b'.g$0et(x)\n"));
}

#[test]
fn a_receiver_holding_what_a_function_returns_has_the_type_it_returns() {
    let go = "//- /go.mod\nmodule example.com/srv\n//- /server.go\npackage srv\n\ntype Server struct{}\n\nfunc NewServer() (*Server, error) { return &Server{}, nil }\n\nfunc (s *Server) Close() {}\n\ntype Conn struct{}\n\nfunc (c *Conn) Close() {}\n//- /main.go\npackage srv\n\nfunc main() {\n\ts, err := NewServer()\n\t_ = err\n\ts.Clo$0se()\n}\n";
    check_definitions_exactly(go, &["server.go:Server.Close"]);
    let python = "//- /app/db.py\nclass Pool:\n    def close(self):\n        pass\nclass File:\n    def close(self):\n        pass\ndef open_pool(url) -> Pool:\n    return Pool()\n//- /app/main.py\nfrom app.db import open_pool\ndef run():\n    pool = open_pool('x')\n    pool.clo$0se()\n";
    check_definitions_exactly(python, &["app/db.py:Pool.close"]);
    let rust = "//- /src/store.rs\npub struct Store;\nimpl Store {\n    pub fn open() -> std::io::Result<Self> { Ok(Store) }\n    pub fn flush(&self) {}\n}\npub struct Log;\nimpl Log {\n    pub fn flush(&self) {}\n}\npub fn open_store() -> Result<Store, String> { Ok(Store) }\n//- /src/lib.rs\nfn run() -> Result<(), String> {\n    let store = open_store()?;\n    store.flu$0sh();\n    Ok(())\n}\n";
    check_definitions_exactly(rust, &["src/store.rs:Store.flush"]);
    // A chain of calls: each call's value has the type its function returns, a method's
    // `Self` being its own type, a constructor's the type it constructs.
    let chained = "//- /src/store.rs\npub struct Store;\nimpl Store {\n    pub fn open() -> std::io::Result<Self> { Ok(Store) }\n    pub fn log(&self) -> Log { Log }\n    pub fn flush(&self) {}\n}\npub struct Log;\nimpl Log {\n    pub fn flush(&self) {}\n}\n//- /src/lib.rs\nfn run() -> std::io::Result<()> {\n    Store::open()?.log().flu$0sh();\n    Ok(())\n}\n";
    check_definitions_exactly(chained, &["src/store.rs:Log.flush"]);
    let python_chain = "//- /app/db.py\nclass Pool:\n    def close(self):\n        pass\nclass File:\n    def close(self):\n        pass\nclass Db:\n    def pool(self, size=(1, 2)) -> Pool:\n        return Pool()\n//- /app/main.py\ndef run():\n    Db().pool(size=(3, 4)).clo$0se()\n";
    check_definitions_exactly(python_chain, &["app/db.py:Pool.close"]);
    let go_chain = "//- /go.mod\nmodule example.com/srv\n//- /server.go\npackage srv\n\ntype Server struct{}\n\nfunc NewServer() *Server { return &Server{} }\n\nfunc (s *Server) Close() {}\n\ntype Conn struct{}\n\nfunc (c *Conn) Close() {}\n//- /main.go\npackage srv\n\nfunc main() {\n\tNewServer().Clo$0se()\n}\n";
    check_definitions_exactly(go_chain, &["server.go:Server.Close"]);
    // Two functions of the name that return different types: no type.
    let ambiguous = "//- /app/db.py\nclass Pool:\n    def close(self):\n        pass\nclass File:\n    def close(self):\n        pass\ndef make() -> Pool:\n    return Pool()\n//- /app/files.py\ndef make() -> File:\n    return File()\n//- /app/main.py\ndef run():\n    thing = make()\n    thing.clo$0se()\n";
    let (index, cursor) = index_fixture(ambiguous);
    assert_eq!(index.goto_definition(cursor.unwrap()).len(), 2);
}

#[test]
fn a_chain_starts_at_a_package_function_a_types_own_function_or_a_value_in_parentheses() {
    let go = "//- /go.mod\nmodule example.com/app\n//- /srv/server.go\npackage srv\n\ntype Server struct{}\n\nfunc New() *Server { return &Server{} }\n\nfunc (s *Server) Close() {}\n//- /conn/conn.go\npackage conn\n\ntype Conn struct{}\n\nfunc New() *Conn { return &Conn{} }\n\nfunc (c *Conn) Close() {}\n//- /main.go\npackage main\n\nimport \"example.com/app/srv\"\n\nfunc main() {\n\tsrv.New().Clo$0se()\n}\n";
    check_definitions_exactly(go, &["srv/server.go:Server.Close"]);
    let python = format!(
        "{PY_POOL_AND_FILE}class Db:\n    @staticmethod\n    def connect(url) -> Pool:\n        return Pool()\n//- /app/main.py\nfrom app.db import Db\ndef run():\n    Db.connect('x').clo$0se()\n"
    );
    check_definitions_exactly(&python, &["app/db.py:Pool.close"]);
    let javascript = "//- /src/cart.js\nexport class Cart {\n  total() {}\n}\nexport class Invoice {\n  total() {}\n}\n//- /src/main.js\nfunction main() {\n  return (new Cart()).tot$0al();\n}\n";
    check_definitions_exactly(javascript, &["src/cart.js:Cart.total"]);
}

#[test]
fn a_rust_wrapper_holds_the_type_that_question_mark_and_unwrap_take_out() {
    let types = "//- /src/store.rs\npub struct Store;\nimpl Store {\n    pub fn flush(&self) {}\n    pub fn map(&self) {}\n}\npub struct Log;\nimpl Log {\n    pub fn flush(&self) {}\n}\n";
    let unwrap = format!(
        "{types}//- /src/lib.rs\nfn run(store: Option<Store>) {{\n    store.unwrap().flu$0sh();\n}}\n"
    );
    check_definitions_exactly(&unwrap, &["src/store.rs:Store.flush"]);
    let question_mark = format!(
        "{types}//- /src/lib.rs\nfn run() -> Result<(), String> {{\n    let store: Result<Store, String> = Err(String::new());\n    store?.flu$0sh();\n    Ok(())\n}}\n"
    );
    check_definitions_exactly(&question_mark, &["src/store.rs:Store.flush"]);
    let field = format!(
        "{types}//- /src/lib.rs\nstruct Db {{\n    store: Option<Store>,\n}}\nimpl Db {{\n    fn run(&self) {{\n        self.store.expect(\"open\").flu$0sh();\n    }}\n}}\n"
    );
    check_definitions_exactly(&field, &["src/store.rs:Store.flush"]);
    let borrowed = format!(
        "{types}//- /src/lib.rs\nfn run(store: &Option<Store>) {{\n    store.as_ref().unwrap().flu$0sh();\n}}\n"
    );
    check_definitions_exactly(&borrowed, &["src/store.rs:Store.flush"]);
    // The wrapper itself is a type the repository does not define: `store.map(..)` is
    // `Option::map`, not a use of `Store::map`.
    let (index, cursor) = index_fixture(&format!(
        "{types}//- /src/lib.rs\nfn run(store: Option<Store>) {{\n    store.m$0ap(|s| s);\n}}\n"
    ));
    let cursor = cursor.unwrap();
    let reference = reference_at(&index, cursor);
    let map = index.defs_named("map")[0];
    assert!(index.resolves_elsewhere(cursor.file, reference, map));
}

#[test]
fn a_value_of_a_class_bound_as_a_required_module_may_be_a_use() {
    // `Reply` is a constructor function the module exports, bound by `require`: a value made
    // with it is of a repository type whose methods are set anywhere (on its prototype, in a
    // factory), so a `send` held by something else may still be the one it calls.
    let fixture = "//- /lib/reply.js\nfunction Reply(res) { this.res = res }\nfunction wrapReply(reply) {\n  return function send(payload) { return reply.res.end(payload) }\n}\nmodule.exports = Reply\n//- /lib/handler.js\nconst Reply = require('./reply')\nfunction done() {\n  const reply = new Reply(null)\n  reply.se$0nd('ok')\n}\n";
    let (index, cursor) = index_fixture(fixture);
    let cursor = cursor.unwrap();
    let reference = reference_at(&index, cursor);
    let send = index.defs_named("send")[0];
    assert_eq!(index.container_name(send), Some("wrapReply"));
    assert!(!index.resolves_elsewhere(cursor.file, reference, send));
}

#[track_caller]
fn check_implementations(fixture: &str, expect: &[&str]) {
    let (index, cursor) = index_fixture(fixture);
    let targets = index.implementations(cursor.expect("fixture has a $0 cursor"));
    let got: Vec<String> = targets
        .iter()
        .map(|target| describe(&index, target.def.file, target.def.idx))
        .collect();
    assert_eq!(got, expect);
}

#[test]
fn implementations_of_a_class_are_its_subclasses_at_any_depth() {
    check_implementations(
        r#"
//- /fields/base.py
class Fi$0eld:
    def get_prep_value(self, value):
        return value
//- /fields/text.py
from fields.base import Field

class CharField(Field):
    pass

class TextField(CharField):
    pass
//- /forms/widgets.py
class Widget:
    pass
"#,
        &[
            "fields/text.py:CharField (class)",
            "fields/text.py:TextField (class)",
        ],
    );
}

#[test]
fn implementations_of_a_method_are_its_overrides_from_a_call_too() {
    check_implementations(
        r#"
//- /fields/base.py
class Field:
    def get_prep_value(self, value):
        return value

    def clean(self, value):
        return self.get_prep$0_value(value)
//- /fields/text.py
from fields.base import Field

class CharField(Field):
    def get_prep_value(self, value):
        return str(value)
//- /forms/widgets.py
class Widget:
    def get_prep_value(self, value):
        return value
"#,
        &["fields/text.py:get_prep_value (method)"],
    );
}

#[test]
fn implementations_of_a_rust_trait_are_its_impls() {
    check_implementations(
        r#"
//- /src/lib.rs
pub trait Sto$0re {
    fn get(&self, key: &str) -> Option<String>;
}

pub struct Memory;

impl Store for Memory {
    fn get(&self, key: &str) -> Option<String> {
        None
    }
}

impl Memory {
    pub fn new() -> Memory {
        Memory
    }
}
"#,
        &["src/lib.rs:Memory (impl)"],
    );
}

#[test]
fn implementations_of_a_typescript_interface_and_class() {
    check_implementations(
        r#"
//- /src/shapes.ts
export interface Sha$0pe {
  area(): number;
}
export interface Polygon extends Shape {
  sides(): number;
}
export class Square implements Polygon {
  area(): number { return 1; }
  sides(): number { return 4; }
}
"#,
        &[
            "src/shapes.ts:Polygon (interface)",
            "src/shapes.ts:Square (class)",
        ],
    );
}

#[test]
fn implementations_of_a_go_interface_are_the_types_with_its_methods() {
    let fixture = r#"
//- /store/store.go
package store

type Sto$0re interface {
	Get(key string) string
	Put(key, value string)
}

type Memory struct{}

func (m *Memory) Get(key string) string { return "" }
//- /store/memory_put.go
package store

func (m *Memory) Put(key, value string) {}

type Partial struct{}

func (p Partial) Get(key string) string { return "" }
//- /other/other.go
package other

type Memory struct{}

func (m Memory) Put(key, value string) {}
"#;
    // Its methods may be declared in any file of the type's package; a type with only some
    // of them does not implement it.
    check_implementations(fixture, &["store/store.go:Memory (struct)"]);
    check_implementations(
        &fixture
            .replace("Sto$0re", "Store")
            .replace("\tGet(key string) string\n", "\tG$0et(key string) string\n"),
        &["store/store.go:Get (method)"],
    );
}

#[test]
fn go_types_implement_an_interface_through_the_methods_they_embed() {
    let fixture = r#"
//- /store/store.go
package store

type Sto$0re interface {
	Get(key string) string
	Put(key, value string)
}

type Base struct{}

func (b *Base) Get(key string) string { return "" }

type Writer struct{}

func (w Writer) Put(key, value string) {}

type Logged struct {
	*Base
	Writer
	name string
}
//- /store/audited.go
package store

type Audited struct {
	Logged
}

type Box[T any] struct{}

func (b Box[T]) Get(key string) string { return "" }

type Boxed struct {
	Box[int]
	*Writer
}
"#;
    // `Logged` gets `Get` through a pointer and `Put` through a value; `Audited` both two
    // levels down; `Boxed` `Get` through a generic type. The cursor's file comes first.
    check_implementations(
        fixture,
        &[
            "store/store.go:Logged (struct)",
            "store/audited.go:Audited (struct)",
            "store/audited.go:Boxed (struct)",
        ],
    );
}

#[test]
fn a_go_interface_method_is_implemented_by_the_method_a_type_embeds() {
    let fixture = r#"
//- /store/store.go
package store

type Store interface {
	G$0et(key string) string
	Put(key, value string)
}

type Base struct{}

func (b *Base) Get(key string) string { return "" }

type Writer struct{}

func (w Writer) Put(key, value string) {}

type Journal struct {
	Writer
}
//- /store/audited.go
package store

type Audited struct {
	Journal
	*Base
}

func (a *Audited) Put(key, value string) {}
"#;
    // `Audited`'s `Get` is `Base`'s; its own `Put` shadows `Writer`'s, two levels down.
    check_implementations(fixture, &["store/store.go:Get (method)"]);
    check_implementations(
        &fixture.replace("G$0et", "Get").replace(
            "\tPut(key, value string)\n}",
            "\tP$0ut(key, value string)\n}",
        ),
        &["store/audited.go:Put (method)"],
    );
}

#[test]
fn a_go_interface_has_the_methods_of_the_interfaces_it_embeds() {
    check_implementations(
        r#"
//- /rw/rw.go
package rw

type Reader interface {
	Read() int
}

type Writer interface {
	Write(n int)
}

type ReadWr$0iter interface {
	Reader
	Writer
	Close()
}

type File struct{}

func (f *File) Read() int  { return 0 }
func (f *File) Write(n int) {}
func (f *File) Close()      {}

type ReadCloser struct{}

func (r ReadCloser) Read() int { return 0 }
func (r ReadCloser) Close()    {}

type Wrapped struct {
	ReadWriter
}
"#,
        // `Wrapped` has them through the interface it embeds.
        &["rw/rw.go:File (struct)", "rw/rw.go:Wrapped (struct)"],
    );
}

#[test]
fn go_embedded_types_of_other_packages_are_found_through_the_import() {
    let fixture = r#"
//- /go.mod
module example.com/app
//- /store/store.go
package store

type Sto$0re interface {
	Get(key string) string
	Put(key, value string)
}
//- /mem/mem.go
package mem

type Base struct{}

func (b *Base) Get(key string) string { return "" }
func (b *Base) Put(key, value string) {}
//- /cache/cache.go
package cache

import (
	"example.com/app/mem"
	vendored "github.com/else/mem"
)

type Cache struct {
	*mem.Base
}

type Vendored struct {
	vendored.Base
}

type Named struct {
	base mem.Base
}

type Local struct {
	Base
}
//- /cache/base.go
package cache

type Base struct{}

func (b Base) Get(key string) string { return "" }
"#;
    // `vendored.Base` is another package's `Base`, which the repository does not hold; a
    // named field is no embedding; `Local` embeds its own package's `Base`, which has no
    // `Put`.
    check_implementations(
        fixture,
        &["cache/cache.go:Cache (struct)", "mem/mem.go:Base (struct)"],
    );
}

#[test]
fn go_types_missing_a_method_through_their_embeds_do_not_implement() {
    check_implementations(
        r#"
//- /store/store.go
package store

type Sto$0re interface {
	Get(key string) string
	Put(key, value string)
	Close()
}

type Base struct{}

func (b *Base) Get(key string) string { return "" }

type Writer struct {
	*Base
}

func (w Writer) Put(key, value string) {}

type Cycle struct {
	*Loop
	Writer
}

type Loop struct {
	*Cycle
}

type Closer struct {
	Writer
	closed bool
}

func (c *Closer) Close() {}
"#,
        // `Cycle` and `Loop` embed each other and have no `Close`.
        &["store/store.go:Closer (struct)"],
    );
}

/// Asserts the references [`Index::references`] gives for the name at the fixture's cursor,
/// each as `path:line:col` (1-based, byte column) and its line's text, in the index's order
/// (by file id, which is the fixture's order of files, then by position).
#[track_caller]
fn check_references(fixture: &str, include_declaration: bool, expect: &[&str]) {
    let (index, cursor) = index_fixture(fixture);
    let references = index
        .references(
            cursor.expect("fixture has a $0 cursor"),
            include_declaration,
            || Ok::<(), ()>(()),
        )
        .unwrap()
        .expect("an identifier at the cursor");
    let got: Vec<String> = references
        .iter()
        .map(|(file, range)| {
            let data = index.file(*file).unwrap();
            let at = data.line_index.line_col(range.start);
            let line_text = data.text.lines().nth(at.line as usize).unwrap().trim();
            format!("{}:{}:{} {line_text}", data.path, at.line + 1, at.col + 1)
        })
        .collect();
    assert_eq!(got, expect);
}

const PYTHON_TOTAL: &str = r#"
//- /shop/pricing.py
def total(items):
    return sum(items)

def checkout(items):
    return total(items)
//- /shop/views.py
from shop.pricing import total

def show(items):
    return tot$0al(items)
//- /reports/summary.py
def report(rows):
    return total(rows)
"#;

#[test]
fn references_are_in_the_files_that_import_the_definition_not_others_using_its_name() {
    // `reports/summary.py` calls a `total` it neither defines nor imports: not this one.
    check_references(
        PYTHON_TOTAL,
        false,
        &[
            "shop/pricing.py:5:12 return total(items)",
            "shop/views.py:1:26 from shop.pricing import total",
            "shop/views.py:4:12 return total(items)",
        ],
    );
}

#[test]
fn references_include_the_declaration_only_when_asked() {
    check_references(
        PYTHON_TOTAL,
        true,
        &[
            "shop/pricing.py:1:5 def total(items):",
            "shop/pricing.py:5:12 return total(items)",
            "shop/views.py:1:26 from shop.pricing import total",
            "shop/views.py:4:12 return total(items)",
        ],
    );
}

#[test]
fn references_asked_on_the_definitions_own_name_reach_its_importers() {
    check_references(
        &PYTHON_TOTAL
            .replace("tot$0al(items)", "total(items)")
            .replace("def total", "def to$0tal"),
        false,
        &[
            "shop/pricing.py:5:12 return total(items)",
            "shop/views.py:1:26 from shop.pricing import total",
            "shop/views.py:4:12 return total(items)",
        ],
    );
}

#[test]
fn references_of_an_anonymous_default_export_are_its_importers_uses() {
    check_references(
        &AXIOS_DEFAULT_EXPORTS.replace("return resolveConfig", "return resolve$0Config"),
        true,
        &[
            "lib/helpers/resolveConfig.js:1:8 export default (config) => {",
            "lib/adapters/xhr.js:1:8 import resolveConfig from './../helpers/resolveConfig.js';",
            "lib/adapters/xhr.js:7:10 return resolveConfig(config);",
        ],
    );
}

#[test]
fn references_asked_on_an_anonymous_default_export_are_its_importers_uses() {
    check_references(
        &AXIOS_DEFAULT_EXPORTS.replace("export default (config)", "export def$0ault (config)"),
        false,
        &[
            "lib/adapters/xhr.js:1:8 import resolveConfig from './../helpers/resolveConfig.js';",
            "lib/adapters/xhr.js:7:10 return resolveConfig(config);",
        ],
    );
}

#[test]
fn references_reach_the_importers_of_a_package_barrel() {
    check_references(
        r#"
//- /shop/__init__.py
from .pricing import total
//- /shop/pricing.py
def total(items):
    return sum(items)
//- /app.py
from shop import total

print(tot$0al([]))
//- /other.py
print(total([]))
"#,
        false,
        &[
            "shop/__init__.py:1:22 from .pricing import total",
            "app.py:1:18 from shop import total",
            "app.py:3:7 print(total([]))",
        ],
    );
}

#[test]
fn references_in_go_are_in_the_package_directory_and_its_importers() {
    check_references(
        r#"
//- /go.mod
module example.com/app
//- /store/store.go
package store

func Open() string { return "" }
//- /store/warm.go
package store

func warm() { Op$0en() }
//- /cmd/main.go
package main

import "example.com/app/store"

func main() { store.Open() }
//- /other/other.go
package other

func run() { Open() }
"#,
        true,
        &[
            "store/store.go:3:6 func Open() string { return \"\" }",
            "store/warm.go:3:15 func warm() { Open() }",
            "cmd/main.go:5:21 func main() { store.Open() }",
        ],
    );
}

#[test]
fn references_need_a_name_at_the_position_and_stop_when_the_check_fails() {
    let (index, cursor) = index_fixture(PYTHON_TOTAL);
    let cursor = cursor.unwrap();
    let before_def = FilePosition {
        file: cursor.file,
        offset: 0,
    };
    let blank = index.file(cursor.file).unwrap().text.find("\n\n").unwrap() as u32 + 1;
    let on_blank_line = FilePosition {
        file: cursor.file,
        offset: blank,
    };
    assert!(index
        .references(before_def, true, || Ok::<(), ()>(()))
        .unwrap()
        .is_some());
    assert_eq!(
        index.references(on_blank_line, true, || Ok::<(), ()>(())),
        Ok(None)
    );
    assert_eq!(
        index.references(cursor, true, || Err("cancelled")),
        Err("cancelled")
    );
}

#[test]
fn a_function_inside_a_function_is_no_values_member() {
    let (index, cursor) = index_fixture(
        r#"
//- /app/log.py
class Logger:
    def error(self, message):
        return message
//- /tests/test_log.py
def test_errors():
    def error():
        raise ValueError()
    error()
//- /app/run.py
def run(logger):
    logger.er$0ror("failed")
"#,
    );
    let got: Vec<String> = index
        .goto_definition(cursor.unwrap())
        .iter()
        .map(|target| describe(&index, target.def.file, target.def.idx))
        .collect();
    assert_eq!(got, ["app/log.py:error (method)"]);
}

#[test]
fn a_guessed_member_is_a_field_before_a_module_of_its_name() {
    check_definition(
        r#"
//- /src/routing/path_router.rs
pub struct PathRouter {}
//- /src/routing/mod.rs
mod path_router;
pub struct RouterInner { path_router: u32 }
//- /src/app.rs
fn build() { let arc = make(); let r = arc.path_$0router; }
"#,
        &["src/routing/mod.rs:path_router (field)"],
    );
}

#[test]
fn this_is_the_enclosing_types_value_only_where_the_language_says_so() {
    // In Rust `this` is a variable like any other.
    let (index, cursor) = index_fixture(
        r#"
//- /src/lib.rs
pub struct PathRouter {}
impl PathRouter {
    pub fn without_checks(&mut self) {}
}
pub struct Router {}
impl Router {
    pub fn without_checks(self) -> Self { self }
    pub fn build(self) {
        let mut this = PathRouter {};
        this.without_$0checks();
    }
}
"#,
    );
    let targets = index.goto_definition(cursor.unwrap());
    assert_eq!(targets.len(), 1);
    assert_eq!(index.container_name(targets[0].def), Some("PathRouter"));
}

#[test]
fn a_python_property_is_a_member_of_the_type_it_returns() {
    let property = format!(
        "{PY_POOL_AND_FILE}class Db:\n    @property\n    def pool(self) -> Pool:\n        return Pool()\n    def stop(self):\n        self.pool.clo$0se()\n"
    );
    check_definitions_exactly(&property, &["app/db.py:Pool.close"]);
    // A forward reference, from outside the class.
    let cached = format!(
        "{PY_POOL_AND_FILE}class Db:\n    @cached_property\n    def file(self) -> \"File\":\n        return File()\n//- /app/main.py\nfrom app.db import Db\ndef run(db: Db):\n    db.file.clo$0se()\n"
    );
    check_definitions_exactly(&cached, &["app/db.py:File.close"]);
    let optional = format!(
        "{PY_POOL_AND_FILE}import functools\nclass Db:\n    @functools.cached_property\n    def pool(self) -> Optional[Pool]:\n        return None\n    def stop(self):\n        self.pool.clo$0se()\n"
    );
    check_definitions_exactly(&optional, &["app/db.py:Pool.close"]);
    let union = format!(
        "{PY_POOL_AND_FILE}class Db:\n    @property\n    def file(self) -> File | None:\n        return None\n//- /app/main.py\nfrom app.db import Db\ndef run():\n    db = Db()\n    db.file.clo$0se()\n"
    );
    check_definitions_exactly(&union, &["app/db.py:File.close"]);
    // flask: `self.logger` in `Flask(App)`, a property `App` declares.
    let inherited = format!(
        "{PY_POOL_AND_FILE}class Base:\n    @property\n    def pool(self) -> Pool:\n        return Pool()\n//- /app/app.py\nfrom app.db import Base\nclass App(Base):\n    def stop(self):\n        self.pool.clo$0se()\n"
    );
    check_definitions_exactly(&inherited, &["app/db.py:Pool.close"]);
    // A method that is not a property is a bound method when not called: not what it returns.
    let method = format!(
        "{PY_POOL_AND_FILE}class Db:\n    def pool(self) -> Pool:\n        return Pool()\n    def stop(self):\n        self.pool.clo$0se()\n"
    );
    let (index, cursor) = index_fixture(&method);
    assert_eq!(index.goto_definition(cursor.unwrap()).len(), 2);
}

#[test]
fn a_property_of_a_type_from_outside_the_repository_is_not_guessed() {
    // flask: `self.logger.error(..)`, `logger` a `@cached_property` returning a
    // `logging.Logger`, is not a repository method `error`.
    let report = "//- /app/report.py\nclass Report:\n    def error(self, message):\n        pass\n";
    let python = format!(
        "{report}//- /app/app.py\nimport logging\nfrom werkzeug.utils import cached_property\nclass App:\n    @cached_property\n    def logger(self) -> logging.Logger:\n        return logging.getLogger()\n    def fail(self):\n        self.logger.er$0ror('x')\n"
    );
    check_definitions_exactly(&python, &[]);
    let typescript = "//- /src/report.ts\nexport class Report {\n  error(message: string) {}\n}\n//- /src/app.ts\nexport class App {\n  get logger(): Console {\n    return console;\n  }\n  fail() {\n    this.logger.er$0ror('x');\n  }\n}\n";
    check_definitions_exactly(typescript, &[]);
}

#[test]
fn a_typescript_getter_is_a_member_of_the_type_it_returns() {
    let types = TS_POOL_AND_LOCK;
    let getter = format!(
        "{types}//- /src/db.ts\nimport {{ Pool }} from './pool';\nexport class Db {{\n  get pool(): Pool {{\n    return new Pool();\n  }}\n  query() {{\n    this.pool.acq$0uire();\n  }}\n}}\n"
    );
    check_definitions_exactly(&getter, &["src/pool.ts:Pool.acquire"]);
    // `T | null`, from another file.
    let nullable = format!(
        "{types}//- /src/db.ts\nimport {{ Lock }} from './pool';\nexport class Db {{\n  get lock(): Lock | null {{\n    return null;\n  }}\n}}\n//- /src/main.ts\nimport {{ Db }} from './db';\nexport function run(db: Db) {{\n  db.lock.acq$0uire();\n}}\n"
    );
    check_definitions_exactly(&nullable, &["src/pool.ts:Lock.acquire"]);
}

#[test]
fn a_method_a_type_inherits_returns_what_its_base_says() {
    let python = format!(
        "{PY_POOL_AND_FILE}class Base:\n    def make(self) -> Pool:\n        return Pool()\n//- /app/app.py\nfrom app.db import Base\nclass App(Base):\n    def stop(self):\n        self.make().clo$0se()\n"
    );
    check_definitions_exactly(&python, &["app/db.py:Pool.close"]);
    let typescript = format!(
        "{TS_POOL_AND_LOCK}//- /src/db.ts\nimport {{ Pool }} from './pool';\nexport class Base {{\n  make(): Pool {{\n    return new Pool();\n  }}\n}}\nexport class Db extends Base {{\n  query() {{\n    this.make().acq$0uire();\n  }}\n}}\n"
    );
    check_definitions_exactly(&typescript, &["src/pool.ts:Pool.acquire"]);
    // A type's own method comes first: `Db.make` returns a `Lock`.
    let overridden = format!(
        "{TS_POOL_AND_LOCK}//- /src/db.ts\nimport {{ Lock, Pool }} from './pool';\nexport class Base {{\n  make(): Pool {{\n    return new Pool();\n  }}\n}}\nexport class Db extends Base {{\n  make(): Lock {{\n    return new Lock();\n  }}\n  query() {{\n    this.make().acq$0uire();\n  }}\n}}\n"
    );
    check_definitions_exactly(&overridden, &["src/pool.ts:Lock.acquire"]);
}

#[test]
fn the_fields_of_what_a_call_returns_type_the_receiver() {
    let property = format!(
        "{PY_POOL_AND_FILE}class Db:\n    @property\n    def pool(self) -> Pool:\n        return Pool()\ndef make_db() -> Db:\n    return Db()\n//- /app/main.py\nfrom app.db import make_db\ndef run():\n    make_db().pool.clo$0se()\n"
    );
    check_definitions_exactly(&property, &["app/db.py:Pool.close"]);
    let field = format!(
        "{TS_POOL_AND_LOCK}//- /src/db.ts\nimport {{ Lock }} from './pool';\nexport class Db {{\n  private lock: Lock;\n  static open(): Db {{\n    return new Db();\n  }}\n}}\n//- /src/main.ts\nimport {{ Db }} from './db';\nexport function run() {{\n  Db.open()\n    .lock.acq$0uire();\n}}\n"
    );
    check_definitions_exactly(&field, &["src/pool.ts:Lock.acquire"]);
    let rust = "//- /src/store.rs\npub struct Store {\n    log: Log,\n}\nimpl Store {\n    pub fn open() -> std::io::Result<Self> { Ok(Store { log: Log }) }\n    pub fn flush(&self) {}\n}\npub struct Log;\nimpl Log {\n    pub fn flush(&self) {}\n}\n//- /src/lib.rs\nfn run() -> std::io::Result<()> {\n    Store::open()?.log.flu$0sh();\n    Ok(())\n}\n";
    check_definitions_exactly(rust, &["src/store.rs:Log.flush"]);
}

#[test]
fn a_typescript_utility_type_holds_its_arguments_members() {
    // got: `get retry(): Partial<RetryOptions>`, then `options.retry.maxRetryAfter`.
    let types = "//- /src/options.ts\nexport type RetryOptions = {\n  limit: number;\n};\nexport type CacheOptions = {\n  limit: number;\n};\n";
    let getter = format!(
        "{types}//- /src/main.ts\nimport {{ RetryOptions }} from './options';\nexport class Options {{\n  get retry(): Partial<RetryOptions> {{\n    return {{}};\n  }}\n}}\nexport function run(options: Options) {{\n  return options.retry.lim$0it;\n}}\n"
    );
    check_definitions_exactly(&getter, &["src/options.ts:RetryOptions.limit"]);
    let parameter = format!(
        "{types}//- /src/main.ts\nimport {{ CacheOptions }} from './options';\nexport function run(options: Readonly<CacheOptions>) {{\n  return options.lim$0it;\n}}\n"
    );
    check_definitions_exactly(&parameter, &["src/options.ts:CacheOptions.limit"]);
    let returned = format!(
        "{types}//- /src/main.ts\nimport {{ CacheOptions }} from './options';\nfunction defaults(): Required<CacheOptions> {{\n  return {{ limit: 1 }};\n}}\nexport function run() {{\n  return defaults().lim$0it;\n}}\n"
    );
    check_definitions_exactly(&returned, &["src/options.ts:CacheOptions.limit"]);
}

#[test]
fn a_literal_receiver_has_the_builtin_type_its_languages_query_gives() {
    // Bytes and f-strings are strings too, not values of unknown type to guess at.
    let text = "//- /app/text.py\nclass Sep:\n    def join(self, items):\n        pass\n";
    for literal in ["b', '", "rb', '", "f'{sep}'", "', ' 'x'"] {
        check_definitions_exactly(
            &format!(
                "{text}//- /app/main.py\ndef f(sep, names):\n    return {literal}.jo$0in(names)\n"
            ),
            &[],
        );
    }
    // Nor are the members of what a literal's members give, which the index cannot type.
    check_definitions_exactly(
        "//- /app/text.py\nclass Text:\n    def strip(self):\n        pass\n//- /app/main.py\ndef f(names):\n    return ', '.join(names).str$0ip()\n",
        &[],
    );
    // A regular expression's `test` is not a test helper's.
    check_definitions_exactly(
        "//- /src/helpers.js\nexport class Suite {\n  test(name) {}\n}\n//- /src/main.js\nexport function f(s) {\n  return /^a/.te$0st(s);\n}\n",
        &[],
    );
    // A Rust char is not a str, and a trait the repository implements for it gives its method.
    let rust = "//- /src/ext.rs\npub trait Classify {\n    fn classify(self) -> u8;\n}\nimpl Classify for &str {\n    fn classify(self) -> u8 { 0 }\n}\nimpl Classify for char {\n    fn classify(self) -> u8 { 1 }\n}\n";
    check_definitions_exactly(
        &format!("{rust}//- /src/lib.rs\nfn f() -> u8 {{\n    'x'.class$0ify()\n}}\n"),
        &["src/ext.rs:char.classify"],
    );
    check_definitions_exactly(
        &format!("{rust}//- /src/lib.rs\nfn f() -> u8 {{\n    \"x\".class$0ify()\n}}\n"),
        &["src/ext.rs:str.classify"],
    );
}
