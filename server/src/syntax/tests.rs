//! Extraction tests: one `check_*` helper renders what a file yields as text; cases are
//! snapshots of that text.

use super::{analyze, FileSyntax, Ref};
use crate::base::LineIndex;
use crate::languages::Language;

/// Renders a file's definitions (indented by nesting), imports, references and issues.
pub(crate) fn render(lang: Language, text: &str, is_test_file: bool) -> String {
    let syntax = analyze(lang, text, is_test_file);
    render_syntax(&syntax, text)
}

pub(crate) fn render_syntax(syntax: &FileSyntax, text: &str) -> String {
    use std::fmt::Write;
    let line_index = LineIndex::new(text);
    let pos = |offset: u32| {
        let line_col = line_index.line_col(offset);
        format!("{}:{}", line_col.line + 1, line_col.col + 1)
    };
    let mut out = String::new();
    for def in &syntax.defs {
        let mut depth = 0;
        let mut parent = def.parent;
        while let Some(idx) = parent {
            depth += 1;
            parent = syntax.defs[idx as usize].parent;
        }
        let flags = [
            (def.exported, "exported"),
            (def.test, "test"),
            (def.named_after_module, "named after module"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, label)| *label)
        .collect::<Vec<_>>()
        .join(",");
        writeln!(
            out,
            "{:indent$}{} {}{}{}{} [{}-{}] name@{} `{}`{}{}",
            "",
            def.kind,
            def.name,
            def.container
                .as_deref()
                .map(|container| format!(" in={container}"))
                .unwrap_or_default(),
            def.returns
                .as_deref()
                .map(|returns| format!(" returns={returns}"))
                .unwrap_or_default(),
            if def.bases.is_empty() {
                String::new()
            } else {
                format!(" extends={}", def.bases.join("+"))
            },
            pos(def.range.start),
            pos(def.range.end),
            pos(def.name_range.start),
            def.signature,
            def.doc
                .as_deref()
                .map(|doc| format!(" doc={doc:?}"))
                .unwrap_or_default(),
            if flags.is_empty() {
                String::new()
            } else {
                format!(" ({flags})")
            },
            indent = depth * 2
        )
        .unwrap();
    }
    for import in &syntax.imports {
        let names = import
            .names
            .iter()
            .map(|name| match &name.alias {
                Some(alias) => format!("{} as {alias}", name.name),
                None => name.name.to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ");
        writeln!(
            out,
            "import {:?} [{names}]{}{}{} @{}",
            import.source,
            import
                .module_binding
                .as_deref()
                .map(|binding| format!(" module={binding}"))
                .unwrap_or_default(),
            if import.wildcard { " *" } else { "" },
            if import.reexport { " reexport" } else { "" },
            pos(import.range.start),
        )
        .unwrap();
    }
    let calls: Vec<String> = syntax
        .refs
        .iter()
        .filter(|reference| reference.call)
        .map(|reference| {
            let name = &text[reference.range.as_usize()];
            match reference.receiver {
                Some(receiver) => format!("{}.{name}", &text[receiver.as_usize()]),
                None => name.to_owned(),
            }
        })
        .collect();
    writeln!(out, "calls: {}", calls.join(" ")).unwrap();
    writeln!(out, "n_refs: {}", syntax.refs.len()).unwrap();
    if !syntax.bindings.is_empty() {
        let bindings: Vec<String> = syntax
            .bindings
            .iter()
            .map(|binding| {
                format!(
                    "{}{}: {}{}{}",
                    if binding.member { "." } else { "" },
                    &text[binding.name.as_usize()],
                    binding.type_name,
                    binding
                        .held
                        .as_ref()
                        .map(|held| format!("<{held}>"))
                        .unwrap_or_default(),
                    if binding.call { "()" } else { "" }
                )
            })
            .collect();
        writeln!(out, "bindings: {}", bindings.join(" ")).unwrap();
    }
    for issue in &syntax.issues {
        writeln!(
            out,
            "issue: {} at {}",
            issue.message,
            pos(issue.range.start)
        )
        .unwrap();
    }
    out
}

#[track_caller]
fn check(name: &str, lang: Language, is_test_file: bool, text: &str) {
    insta::assert_snapshot!(name, render(lang, text, is_test_file));
}

#[test]
fn python_definitions_docs_members_and_imports() {
    check(
        "python_basic",
        Language::Python,
        false,
        r#"
"""Orders."""
import os.path
import json as j
from . import pricing
from ..models import Order, Item as It
from .x import *

MAX_RETRIES = 3
_cache = {}

class OrderService(Base):
    """Places orders. And more."""

    timeout: int = 5

    def __init__(self, db):
        self.db = db

    @staticmethod
    def place_order(cart: Cart,
                    user) -> Order:
        '''Place an order for a cart.'''
        total = pricing.apply_discount(cart.total())
        return Order(total)

def _helper():
    # not a doc
    return os.path.join("a", "b")
"#,
    );
}

#[test]
fn python_top_level_statements_that_run_code() {
    // The docstring, the imports and the definitions are not statements of code; a comment
    // between two statements does not end their run; a definition does.
    check(
        "python_top_level_statements",
        Language::Python,
        false,
        r#""""Maps vendored packages to their new names."""
import sys

for package in ("urllib3", "idna"):
    locals()[package] = __import__(package)
# Kept for old imports.
sys.modules["requests.packages"] = sys.modules[__name__]

target = chardet.__name__

def main():
    return target

if __name__ == "__main__":
    main()
"#,
    );
}

#[test]
fn python_tests_are_marked_only_in_test_files() {
    let text = "def test_total():\n    assert total() == 1\n\nclass TestPricing:\n    def test_zero(self):\n        pass\n";
    insta::assert_snapshot!(
        "python_tests_in_test_file",
        render(Language::Python, text, true)
    );
    insta::assert_snapshot!(
        "python_tests_outside_test_file",
        render(Language::Python, text, false)
    );
}

#[test]
fn python_syntax_errors_keep_the_valid_definitions() {
    check(
        "python_broken",
        Language::Python,
        false,
        "def ok_before(a):\n    return a\n\ndef broken(:\n    pass\n\nclass Later:\n    def fine(self):\n        return 1\n",
    );
}

#[test]
fn python_unicode_identifiers_have_byte_ranges() {
    check(
        "python_unicode",
        Language::Python,
        false,
        "# café ☕\ndef größe(wert):\n    \"\"\"Größe in Bytes.\"\"\"\n    return wert\n\nx = größe('é')\n",
    );
}

#[test]
fn javascript_definitions_docs_exports_and_references() {
    check(
        "javascript_basic",
        Language::JavaScript,
        false,
        r#"
/**
 * Adds two numbers. Second sentence.
 * @param {number} a
 */
export function add(a, b) {
  return a + b;
}

function* ids() { yield 1; }
async function load(url) { return fetch(url); }

/** The cart. */
export class Cart extends Base {
  items = [];
  static #count = 0;

  /** Adds an item. */
  add(item) {
    this.items.push(item);
    return new Item(item.id);
  }
  get size() { return this.items.length; }
}

export const MAX_ITEMS = 10;
const total = (cart, {
  discount,
}) => {
  const local = cart.items.length; // not a definition
  let inner = 2;
  return helpers.sum(local, inner, discount);
};
let counter = 0, limit;
var legacy = function (x) { return x; };
export default class Widget {}
const Shape = class { area() { return 0; } };
exports.handler = function (event) { return event; };
{ const nested = 1; }
"#,
    );
}

#[test]
fn javascript_imports_of_every_form() {
    check(
        "javascript_imports",
        Language::JavaScript,
        false,
        r#"import React from 'react';
import Default, { useState, useEffect as effect } from "react";
import * as path from 'node:path';
import './polyfill.js';
export { a, b as c } from './ab';
export * from './all';
export * as ns from './ns';
const fs = require('fs');
const { join, resolve: res } = require('path'), other = 1;
require('./side-effect');
async function later() { return import('./lazy'); }
const local = 1;
export { local };
"#,
    );
}

#[test]
fn javascript_top_level_statements_that_run_code() {
    // `"use strict"` holds no reference; the import and the function are not statements of
    // code; the calls and the assignment to `module.exports` are.
    check(
        "javascript_top_level_statements",
        Language::JavaScript,
        false,
        r#"'use strict';
const express = require('express');
const app = express();

app.use(express.json());
app.get('/', (req, res) => res.send('ok'));

function start(port) {
  return app.listen(port);
}

module.exports = { app, start };
"#,
    );
}

#[test]
fn javascript_test_blocks_only_in_test_files() {
    let text = r#"describe('cart', () => {
  it('adds items', async () => {
    expect(add(1, 2)).toBe(3);
  });
  test.skip(`template name`, function () {});
});
"#;
    insta::assert_snapshot!(
        "javascript_tests_in_test_file",
        render(Language::JavaScript, text, true)
    );
    insta::assert_snapshot!(
        "javascript_tests_outside_test_file",
        render(Language::JavaScript, text, false)
    );
}

#[test]
fn jsx_component_references() {
    check(
        "jsx_components",
        Language::JavaScript,
        false,
        r#"import { Menu } from './menu';
export function App({ items }) {
  return (
    <div className="app">
      <Header title="x" />
      <Menu.Item onClick={() => select(items)}>text</Menu.Item>
    </div>
  );
}
"#,
    );
}

#[test]
fn javascript_module_objects_and_default_exports() {
    // Members of exported and top-level object literals are definitions (Koa's
    // `module.exports = { get header() {} }`); a named default export is named by its function;
    // an object literal inside a function is a value.
    check(
        "javascript_module_objects",
        Language::JavaScript,
        false,
        r#"const proto = module.exports = {
  inspect () { return this.toJSON() },
  get header () { return this.req.headers },
  set header (val) { this.req.headers = val },
  toJSON: function () { return {} }
}
const api = {
  fetch (url) { return url },
  post: (url) => url,
  retries: 3
}
export default {
  render () { return 1 }
}
module.exports = function createApplication() { return 1 }
export default isSupported && function httpAdapter(config) {
  function settle() {}
  return settle
}
function later() {
  const local = { notADefinition () {} }
  return local
}
"#,
    );
}

#[test]
fn javascript_prototype_objects() {
    // Pre-class code gives a constructor its methods in one object literal (old Koa's
    // `Context.prototype = { get header() {}, accepts: function (types) {} }`), also inside a
    // wrapping function (jQuery's `jQuery.fn = jQuery.prototype = { init() {} }`); a plain value
    // or an object assigned to any other property defines nothing.
    check(
        "javascript_prototype_objects",
        Language::JavaScript,
        false,
        r#"function Context(app) { this.app = app }
Context.prototype = {
  get header () { return this.req.headers },
  accepts: function (types) { return types },
  inspect () { return this },
  limit: 3
};
(function (window) {
  jQuery.fn = jQuery.prototype = {
    init (selector) { return this }
  }
  Widget.defaults = { render () {} }
  Other.prototype = Object.create(Base.prototype)
})(window)
"#,
    );
}

#[test]
fn javascript_chained_assignments_define_every_name() {
    // Express's `res.set = res.header = function header() {}`: every name of a chain is a
    // definition of the function by its own assignment's rule (a method of its object, a
    // CommonJS export, a prototype's method, a module's named default export), spanning the
    // whole chain as siblings, up to three names; a chain of four, or of a value that is no
    // function, defines nothing and stays top-level code.
    check(
        "javascript_chained_assignments",
        Language::JavaScript,
        false,
        r#"var res = Object.create(null);
res.set =
res.header = function header(field, val) {
  return this.setHeader(field, val);
};
res.contentType = res.type = function contentType(type) { return this.set('Content-Type', type); };
exports.a = exports.b = function () { return 1; };
exports.c = exports.d = exports.e = (x) => x;
module.exports = exports = function createApplication() { return 2; };
exports = module.exports = class Server { listen() { return 3; } };
Foo.prototype.x = Foo.prototype.y = function () { return this; };
a.x = a.y = 5;
a.p = a.q = a.r = a.s = function four() { return 4; };
function outer(self) {
  self.on = self.addListener = function on(event) { return event; };
  exports.inner = exports.nested = function () {};
}
res.send = function send(body) { return body; };
"#,
    );
}

#[test]
fn typescript_chained_assignments_define_every_name() {
    check(
        "typescript_chained_assignments",
        Language::TypeScript,
        false,
        r#"res.set = res.header = function header(field: string, val?: string): Response {
  return this;
};
Store.prototype.get = Store.prototype.fetch = Store.prototype.read = async (key: string) => key;
exports.a = exports.b = (): number => 1;
o.n = o.m = 5 as number;
"#,
    );
}

#[test]
fn javascript_methods_of_objects_handed_to_calls() {
    // Pre-class code defines methods in objects passed to class factories and mixins (Express
    // 0.x); options objects hold code one level down (`reducers: { add() {} }`, the key is the
    // container). Inside a function such an object is a value (`Request.include` in `init`,
    // a test's options), and so are a property descriptor's `get` and a plain value.
    check(
        "javascript_objects_handed_to_calls",
        Language::JavaScript,
        false,
        r#"Server = new Class({
  port: 3000,
  route: function (request, response) { return this.error(request) },
  error (e) { return e }
})
exports.View = Plugin.extend({
  extend: {
    init: function () {
      Request.include({
        partial: function (view) { return view }
      })
    }
  }
})
const slice = createSlice({ reducers: { add: (state) => state } })
Object.defineProperty(exports, 'x', { get: function () { return 1 } })
Object.defineProperties(exports, { y: { get () { return 2 } } })
function later() {
  const local = { notADefinition () {} }
  return ky.post(url, { onUploadProgress (progress) {} })
}
"#,
    );
}

#[test]
fn javascript_named_class_exports_and_named_callbacks() {
    // Koa's `module.exports = class Application extends Emitter {}` is a class with methods;
    // axios's `wrapAsync(async function dispatchHttpRequest() {})` defines a function where
    // it is passed, a factory's `return function routeHandler() {}` where it is returned; an
    // anonymous callback defines nothing.
    check(
        "javascript_named_class_exports",
        Language::JavaScript,
        false,
        r#"module.exports = class Application extends Emitter {
  constructor (options) { super() }
  listen (...args) { return this }
}
export default function httpAdapter(config) {
  return wrapAsync(async function dispatchHttpRequest(resolve, reject) {
    resolve(config)
  })
}
items.forEach(function (item) { return item })
function routerHandler (node) {
  return function routeHandler (req, res) { return node[req.method] }
}
"#,
    );
}

#[test]
fn javascript_functions_bound_inside_functions() {
    // got's `const handleRequest = async (request) => {}` inside the exported function is a
    // nested function, like a nested declaration, and so is an older `var done = function`;
    // a local value that is not a function, and a callback handed to a call, are not
    // definitions.
    check(
        "javascript_functions_bound_inside_functions",
        Language::TypeScript,
        false,
        r#"export default (options: Options) => {
  const emitter = new EventEmitter();
  const handleRequest = async (request: ClientRequest): Promise<void> => {
    let onError = function (error: Error) { emitter.emit('error', error); };
    request.once('error', onError);
  };
  if (options.retry) {
    const retry = () => handleRequest(makeRequest());
    emitter.on('retry', retry);
  }
  items.forEach((item) => { const size = item.length; return size; });
  return emitter;
};
function legacy(app) {
  var self = this;
  var done = function (err) { self.emit('done', err); };
  return done;
}
"#,
    );
}

#[test]
fn javascript_syntax_errors_keep_the_valid_definitions() {
    check(
        "javascript_broken",
        Language::JavaScript,
        false,
        "function before(a) {\n  return a;\n}\n\nfunction broken(a {\n  return a;\n}\n\nclass After {\n  ok() { return 1; }\n}\n",
    );
}

#[test]
fn javascript_anonymous_default_exports_are_named_after_their_module() {
    // axios's `export default (config) => {}` (helpers/resolveConfig.js) and `export default
    // isFetchSupported && (async (config) => {})` (adapters/fetch.js), xhr.js's anonymous
    // `function`, a generator, a class, a conditional: each is a definition at its `default`,
    // which the index names after the file. A named function or class keeps its name; an
    // object, a name and a value called at once are no functions of their own.
    check(
        "javascript_anonymous_default_exports",
        Language::JavaScript,
        false,
        r#"/** Resolves the config. */
export default (config) => {
  const newConfig = mergeConfig({}, config);
  return newConfig;
}
export default async (config) => { await send(config) }
export default function (config) { return config }
export default function* (items) { yield* items }
export default class { get (key) { return key } }
export default isFetchSupported && (async (config) => {
  const request = new Request(config);
  return request;
})
export default isXHRAdapterSupported && function (config) { return config }
export default window.fetch ?? ((url) => get(url))
export default hasWorkers ? (task) => spawn(task) : (task) => task()
export default function named(config) { return config }
export default class Named { run () {} }
export default isSupported && function httpAdapter(config) { return config }
export default { render () { return 1 } }
export default mergeConfig
export default (() => { return 1 })()
"#,
    );
}

#[test]
fn definitions_without_a_name_are_named_after_their_module_as_importers_name_it() {
    use std::sync::Arc;
    let text = "export default (config) => config\nexport function other() {}\n";
    let extracted = Arc::new(analyze(Language::TypeScript, text, false));
    let name_in = |path: &str| {
        let named = super::name_after_module(Language::TypeScript, path, extracted.clone());
        let names: Vec<&str> = named.defs.iter().map(|def| &*def.name).collect();
        names.join(" ")
    };
    assert_eq!(
        name_in("lib/helpers/resolveConfig.js"),
        "resolveConfig other"
    );
    assert_eq!(
        name_in("source/core/utils/parse-link-header.ts"),
        "parseLinkHeader other"
    );
    assert_eq!(name_in("lib/platform/index.js"), "platform other");
    assert_eq!(name_in("./index.ts"), "index other");
    assert_eq!(name_in(r"C:\src\web-app\index.tsx"), "webApp other");
    assert_eq!(name_in(".eslintrc.js"), "default other");
    // A file without such definitions keeps the extraction it shares with others.
    let plain = Arc::new(analyze(
        Language::TypeScript,
        "export function f() {}\n",
        false,
    ));
    let named = super::name_after_module(Language::TypeScript, "a/b.ts", plain.clone());
    assert!(Arc::ptr_eq(&plain, &named));
}

#[test]
fn javascript_functions_in_parentheses_are_functions() {
    // got's `const paginateEach = (async function * (url) {})`, also nested in a function and
    // in two pairs of parentheses; a function called where it is written is a value
    // (axios's `const _global = (() => {})()`).
    check(
        "javascript_functions_in_parentheses",
        Language::JavaScript,
        false,
        r#"const paginateEach = (async function * (url, options) {
  yield url;
});
const double = (((value) => value * 2));
let handler = (function onEvent(event) { return event });
const _global = (() => {
  return globalThis;
})();
function create(defaults) {
  const all = (async (url) => paginateEach(url));
  return all;
}
"#,
    );
}

#[test]
fn javascript_unicode_text_before_identifiers() {
    check(
        "javascript_unicode",
        Language::JavaScript,
        false,
        "const café = 'é'; function größe(wert) { return wert; }\n/** Grüße. */\nexport const π = größe(café);\n",
    );
}

#[test]
fn typescript_functions_cast_or_checked_are_functions() {
    // got's `const got: Got = ((url, options) => makeRequest(url, options)) as Got;` is a
    // function at the top of a module too (not a constant), and so is a function checked
    // with `satisfies`; an anonymous default export in a cast is named after its module.
    check(
        "typescript_functions_cast_or_checked",
        Language::TypeScript,
        false,
        r#"const got: Got = ((url: string, options?: OptionsInit): GotReturn =>
	makeRequest(url, options)) as Got;
const stream = ((url: string) => makeRequest(url, true)) satisfies GotStream;
const paginate = (async function * <T>(url: string): AsyncIterableIterator<T> {
	yield* fetchPages<T>(url);
}) as GotPaginate;
const limit = (10 as number);
export default ((options: Options) => create(options)) as CreateGot;
"#,
    );
}

#[test]
fn typescript_types_members_ambient_declarations_and_imports() {
    check(
        "typescript_basic",
        Language::TypeScript,
        false,
        r#"import type { Config } from './config';
import { type Id, load } from "./ids";
import fs = require('fs');
export type { Shape } from './shape';

/** A thing with an area. */
export interface Shape<T> extends Base {
  /** The area. */
  readonly area: number;
  draw(ctx: Context<T>): void;
}

type Point = { x: number; y: number; norm(): number };
export type Key = string | Id;

export enum Color { Red, Green = 2 }

export abstract class Repo<T> implements Store<T> {
  private cache: Map<Id, T> = new Map();
  abstract find(id: Id): T;
  get(id: string): T;
  get(id: Id): T { return this.find(id); }
}

declare function ext(a: number): string;
export declare const VERSION: string;
declare let mutableGlobal: number;
declare module 'lib' {
  export function lib(): void;
}
namespace App.Models {
  export const defaultColor = Color.Red;
}
export const parse = async (text: string): Promise<Config> => {
  return JSON.parse(text) as Config;
};
let typed: ns.Inner<Key> = fs.readFileSync('x');
"#,
    );
}

#[test]
fn typescript_members_of_intersected_and_nested_object_types() {
    // React props and store types add members to a base type with an intersection, and
    // group options under a member's own object type: those members are the alias's or the
    // interface's (as ctags has them). A function's parameter type is nobody's member.
    check(
        "typescript_members_of_intersected_and_nested_object_types",
        Language::TypeScript,
        false,
        r#"export type Props = Base & {
  label: string
  onClick(event: MouseEvent): void
}
export type Three = A & B & { third: number }
export interface Api {
  persist: {
    setOptions: (o: Options) => void
    onHydrate(fn: Listener): () => void
  }
  name: string
}
export type WithPersist<S> = StoreApi<S> & {
  persist: {
    clearStorage: () => void
  }
}
type Either = { left: number } | { right: number }
function open(options: { path: string; nested: { deep: boolean } }) {}
"#,
    );
}

#[test]
fn typescript_known_misparses_keep_the_rest() {
    // tree-sitter-typescript 0.23 does not know variance annotations (`in`/`out`) or
    // `export type *`; the definitions around them survive.
    check(
        "typescript_misparses",
        Language::TypeScript,
        false,
        "export type * from './all';\ninterface Producer<out T> { get(): T }\ninterface Consumer<in T> { put(value: T): void }\nexport function after(): void {}\n",
    );
}

#[test]
fn typescript_an_error_that_swallows_later_statements_is_read_statement_by_statement() {
    // tree-sitter-typescript 0.23 reads three call signatures of an interface (Hono's
    // `HandlerInterface`) as one error running to the next statement; the file is then parsed
    // piece by piece, so `After` and `later` are still definitions and `Before` keeps its doc.
    let mut text = String::from(
        "/** The first. */\nexport type Before = { a: string }\n\nexport interface Handlers<E> {\n",
    );
    for _ in 0..3 {
        text.push_str("  <P extends string, I extends Input = {}>(\n    ...handlers: [H<E, P, I>]\n  ): Hono<E, ToSchema<P, I['in']>>\n\n");
    }
    text.push_str("}\n\n/** The last. */\nexport type After = { b: number }\n\nexport function later(): void {}\n");
    let tree = super::parse(Language::TypeScript, &text, None);
    assert!(
        super::extract::swallowing_error(Language::TypeScript.config(), tree.root_node(), &text)
            .is_some(),
        "the grammar no longer fails here: find another case"
    );
    assert!(analyze(Language::TypeScript, &text, false).read_by_statements);
    check(
        "typescript_swallowing_error",
        Language::TypeScript,
        false,
        &text,
    );
}

#[test]
fn a_line_going_on_with_the_statement_above_starts_no_statement() {
    let text = "try:\n    import fast\nexcept ImportError:\n    fast = None\nelse:\n    x = 1\n# about g\ndef g():\n    pass\nelsewhere = 2\n";
    let starts =
        super::extract::statement_starts(text, Language::Python.config().continuation_words);
    let lines: Vec<&str> = starts
        .iter()
        .map(|start| text[*start..].lines().next().unwrap_or(""))
        .collect();
    assert_eq!(lines, ["try:", "# about g", "elsewhere = 2"]);
}

#[test]
fn each_language_names_its_own_continuation_words() {
    // A JavaScript `catch` below its `}` goes on with the `try`; Go has no such line.
    let text = "try {\n  run()\n}\ncatch (err) {\n  log(err)\n}\nfunction after() {}\n";
    let lines = |lang: Language| -> Vec<&str> {
        super::extract::statement_starts(text, lang.config().continuation_words)
            .iter()
            .map(|start| text[*start..].lines().next().unwrap_or(""))
            .collect()
    };
    assert_eq!(
        lines(Language::JavaScript),
        ["try {", "function after() {}"]
    );
    assert_eq!(
        lines(Language::Go),
        ["try {", "catch (err) {", "function after() {}"]
    );
}

#[test]
fn a_file_of_very_many_statements_is_read_in_bounded_pieces() {
    // More statement starts than pieces: every other start is kept, so the broken interface
    // shares its piece with the statement after it, which may go with it; nothing else is
    // lost.
    let mut text = String::from("export interface Handlers<E> {\n");
    for _ in 0..3 {
        text.push_str("  <P extends string>(\n    ...h: [H<E, P>]\n  ): Hono<E, I['in']>\n\n");
    }
    text.push_str("}\n");
    for idx in 0..1500 {
        text.push_str(&format!("export type T{idx} = number\n"));
    }
    let syntax = analyze(Language::TypeScript, &text, false);
    assert!(syntax.read_by_statements);
    let n_types = syntax
        .defs
        .iter()
        .filter(|def| def.name.starts_with('T'))
        .count();
    assert!(n_types >= 1499, "{n_types}");
}

#[test]
fn typescript_syntax_errors_keep_the_valid_definitions() {
    check(
        "typescript_broken",
        Language::TypeScript,
        false,
        "export function before(a: number): number {\n  return a;\n}\n\nfunction broken(a: number {\n  return a;\n}\n\nexport class After {\n  ok(): number { return 1; }\n}\n",
    );
}

#[test]
fn typescript_unicode_text_before_identifiers() {
    check(
        "typescript_unicode",
        Language::TypeScript,
        false,
        "const café: string = 'é'; interface Größe { wert: number }\nexport type Ünit = Größe;\n",
    );
}

#[test]
fn tsx_components_and_test_blocks() {
    check(
        "tsx_basic",
        Language::Tsx,
        true,
        r#"import React from 'react';
import { Button } from './button';

interface Props { label: string }

export const Toolbar = ({ label }: Props) => (
  <nav>
    <Button label={label} onClick={() => track('click')} />
    <Icons.Close />
  </nav>
);

describe('Toolbar', () => {
  it('renders', () => {
    render(<Toolbar label="x" />);
  });
});
"#,
    );
}

#[test]
fn tsx_anonymous_default_export_components() {
    // A page component written as `export default () => <Page />` is a definition at its
    // `default` (the index names it after the file), and its JSX calls its components.
    check(
        "tsx_anonymous_default_export",
        Language::Tsx,
        false,
        r#"export default ({ title }: Props) => (
  <Layout title={title}>
    <Header />
  </Layout>
);
"#,
    );
}

#[test]
fn go_definitions_methods_and_imports() {
    check(
        "go_basic",
        Language::Go,
        false,
        r#"package store

import "fmt"
import (
	"os"
	m "math"
	. "strings"
	_ "embed"
	"github.com/acme/kit/v2"
	"gopkg.in/yaml.v3"
)

// Store holds items
// in memory.
type Store struct {
	// items by key.
	items map[string]int
	Name, Alias string
	*Embedded
}

// Getter gets.
type Getter interface {
	Get(key string) (int, error)
	fmt.Stringer
}

type ID int
type Alias = string
type List[T any] []T

// Max is the limit.
const Max = 10

const (
	// A is first.
	A = iota
	B
)

var x, y = 1, 2
var (
	single = m.Sqrt(2)
)

// Get returns an item.
func (s *Store) Get(key string) (int, error) {
	return s.items[key], nil
}

func (l List[T]) Len() int { return len(l) }

func NewStore() *Store {
	const local = 1
	var v = fmt.Sprintf("%d", local)
	os.Exit(len(v))
	return &Store{}
}
"#,
    );
}

#[test]
fn go_tests_are_marked_only_in_test_files() {
    let text = "package store\n\nfunc TestGet(t *testing.T) {\n\ts := NewStore()\n\ts.Get(\"a\")\n}\n\nfunc BenchmarkGet(b *testing.B) {}\nfunc Testimony() {}\nfunc helper() {}\n";
    insta::assert_snapshot!("go_tests_in_test_file", render(Language::Go, text, true));
    insta::assert_snapshot!(
        "go_tests_outside_test_file",
        render(Language::Go, text, false)
    );
}

#[test]
fn go_fields_are_those_of_named_structs_not_of_anonymous_test_tables() {
    let text = "package p\n\ntype Config struct {\n\tName, Alias string\n\tServer struct {\n\t\tPort int\n\t}\n}\n\nfunc TestX(t *testing.T) {\n\ttests := []struct {\n\t\tname string\n\t\twant int\n\t}{}\n\t_ = tests\n}\n";
    let syntax = analyze(Language::Go, text, true);
    let fields: Vec<&str> = syntax
        .defs
        .iter()
        .filter(|def| def.kind == crate::languages::DefKind::Field)
        .map(|def| &*def.name)
        .collect();
    assert_eq!(fields, ["Name", "Alias", "Server", "Port"]);
}

#[test]
fn go_syntax_errors_keep_the_valid_definitions() {
    check(
        "go_broken",
        Language::Go,
        false,
        "package p\n\nfunc Before() int {\n\treturn 1\n}\n\nfunc broken( {\n}\n\ntype After struct {\n\tX int\n}\n",
    );
}

#[test]
fn go_unicode_text_before_identifiers() {
    check(
        "go_unicode",
        Language::Go,
        false,
        "package p\n\nvar café = \"é\"; func Größe() int { return 1 }\n",
    );
}

#[test]
fn rust_items_impls_docs_and_imports() {
    check(
        "rust_basic",
        Language::Rust,
        false,
        r#"use std::{fmt::{self, Display}, io::*};
pub use crate::store::Store as Backend;
pub(crate) use super::helpers;
extern crate serde as serde_crate;

mod parser;

/// A point.
/// Second line.
#[derive(Debug, Clone)]
pub struct Point<T> {
    /// Horizontal.
    pub x: T,
    y: T,
}

struct Meters(pub f64);

pub enum Shape {
    Circle(f64),
    Rect { w: f64, h: f64 },
}

union Bits { i: u32, f: f32 }

/** Block doc. */
pub trait Area: Display {
    type Unit;
    const SIDES: u8;
    fn area(&self) -> f64;
    fn describe(&self) -> String { format!("{}", self.area()) }
}

impl<T: Display> Display for Point<T>
where
    T: Clone,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.x)
    }
}

impl Point<f64> {
    pub const ORIGIN: Point<f64> = Point { x: 0.0, y: 0.0 };

    pub fn new(x: f64) -> Self {
        let p = Self::origin();
        helpers::log(&p);
        p.clone().translate(x)
    }
}

impl<T> Area for [T] {}

pub type Result<T> = std::result::Result<T, Error>;
pub static COUNT: AtomicUsize = AtomicUsize::new(0);

#[macro_export]
macro_rules! square {
    ($x:expr) => { $x * $x };
}

pub mod inline {
    pub fn inner() -> u8 { crate::square!(2) }
}
"#,
    );
}

#[test]
fn rust_bindings_of_wrappers() {
    // `Option` and `Result` are the binding's type and hold another; a smart pointer is the
    // type it points to; a reference to a trait object or an `impl` is the trait.
    check(
        "rust_bindings_of_wrappers",
        Language::Rust,
        false,
        r#"struct Db<'a> {
    store: Option<Store>,
    log: Box<Log>,
    executor: &'a dyn Executor,
}
fn run(conn: Result<Conn, Error>, cache: &Option<Cache>, out: &mut impl Write) {
    let next: Option<crate::store::Store> = None;
}
"#,
    );
}

#[test]
fn rust_tests_are_marked_wherever_they_are() {
    check(
        "rust_tests",
        Language::Rust,
        false,
        r#"pub fn total() -> u32 { 1 }

#[test]
fn top_level_test() { assert_eq!(total(), 1); }

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> u32 { 2 }

    #[tokio::test]
    #[ignore]
    async fn async_test() { fixture(); }

    #[rstest]
    fn case() {}
}

#[cfg(not(test))]
fn not_a_test() {}
"#,
    );
}

#[test]
fn rust_syntax_errors_keep_the_valid_definitions() {
    check(
        "rust_broken",
        Language::Rust,
        false,
        "fn before() -> u8 {\n    1\n}\n\nfn broken(a: u8 {\n    a\n}\n\nstruct After {\n    x: u8,\n}\n",
    );
}

#[test]
fn rust_unicode_text_before_identifiers() {
    check(
        "rust_unicode",
        Language::Rust,
        false,
        "const CAFÉ: &str = \"é\"; pub fn größe() -> usize { CAFÉ.len() }\n",
    );
}

#[test]
fn typescript_decorators_and_function_fields() {
    check(
        "typescript_decorators",
        Language::TypeScript,
        false,
        r#"/** A component. */
@Component({ selector: 'app' })
export class AppComponent {
  @Input() title: string;
  /** Handles clicks. */
  onClick = (event: MouseEvent): void => {
    this.service.track(event);
  };
  constructor(private readonly service: Tracker) {}
}
"#,
    );
}

#[test]
fn multi_line_declarations_without_body_keep_their_whole_signature() {
    let typescript = "export class Stream<T> {\n  pipe<A>(\n    op1: Op<T, A>,\n  ): Stream<A>;\n  pipe(...ops: Op[]): Stream<any> {\n    return this;\n  }\n}\ndeclare function load(\n  path: string,\n): Promise<string>;\n";
    let rust = "pub trait Store {\n    fn get(\n        &self,\n        key: &str,\n    ) -> Option<u8>;\n}\n";
    let go = "package p\n\ntype Store interface {\n\tGet(\n\t\tkey string,\n\t) (int, error)\n}\n";
    insta::assert_snapshot!(
        "bodiless_signatures",
        [
            render(Language::TypeScript, typescript, false),
            render(Language::Rust, rust, false),
            render(Language::Go, go, false),
        ]
        .join("---\n")
    );
}

#[test]
fn the_references_inside_a_definition_are_those_a_scan_finds() {
    let text = "def a(x):\n    return b(x) + c.d\n\ndef e():\n    a(f)\n    return g\n";
    let syntax = analyze(Language::Python, text, false);
    assert!(syntax.refs.len() >= 5);
    for def in &syntax.defs {
        let scanned: Vec<&Ref> = syntax
            .refs
            .iter()
            .filter(|reference| def.range.contains_range(reference.range))
            .collect();
        let found: Vec<&Ref> = syntax.refs_in(def.range).collect();
        assert!(!found.is_empty(), "{}", def.name);
        assert_eq!(found, scanned, "{}", def.name);
    }
}

#[test]
fn container_paths_follow_parents_impl_blocks_and_go_receivers() {
    let path_of = |lang: Language, text: &str, name: &str| {
        let syntax = analyze(lang, text, false);
        let def = syntax
            .defs
            .iter()
            .find(|def| &*def.name == name)
            .expect(name);
        syntax.container_path(def)
    };
    let python = "class Outer:\n    class Inner:\n        def run(self):\n            pass\n";
    assert_eq!(
        path_of(Language::Python, python, "run").as_deref(),
        Some("Outer.Inner")
    );
    assert_eq!(path_of(Language::Python, python, "Outer"), None);
    let rust = "struct Store;\nimpl Store {\n    fn get(&self) {}\n}\n";
    assert_eq!(
        path_of(Language::Rust, rust, "get").as_deref(),
        Some("impl Store")
    );
    let go = "package s\n\ntype Server struct{}\n\nfunc (s *Server) ServeHTTP() {}\n";
    assert_eq!(
        path_of(Language::Go, go, "ServeHTTP").as_deref(),
        Some("Server")
    );
}

#[test]
fn types_record_the_types_they_extend() {
    let bases = |lang: Language, text: &str, name: &str| -> Vec<String> {
        let syntax = analyze(lang, text, false);
        let def = syntax
            .defs
            .iter()
            .find(|def| &*def.name == name)
            .unwrap_or_else(|| panic!("{name} is defined"));
        def.bases.iter().map(|base| base.to_string()).collect()
    };
    let python = "class ModelAdmin(BaseModelAdmin, mixins.Logged, metaclass=Meta):\n    pass\n\nclass Plain:\n    pass\n\nclass UserRepo(Repo[User], typing.Generic[T]):\n    pass\n";
    assert_eq!(
        bases(Language::Python, python, "ModelAdmin"),
        ["BaseModelAdmin", "Logged"]
    );
    assert_eq!(
        bases(Language::Python, python, "UserRepo"),
        ["Repo", "Generic"]
    );
    assert!(bases(Language::Python, python, "Plain").is_empty());
    let javascript = "class App extends events.EventEmitter {}\nclass Store extends Base {}\n";
    assert_eq!(
        bases(Language::JavaScript, javascript, "App"),
        ["EventEmitter"]
    );
    assert_eq!(bases(Language::JavaScript, javascript, "Store"), ["Base"]);
    let typescript = "export class Cart extends Base<Item> implements Priced {}\n\
        export abstract class Shop extends core.Store {}\n\
        export interface Shape extends Named, Sized<number> { area(): number }\n";
    // What it implements too: its implementations are listed by both.
    assert_eq!(
        bases(Language::TypeScript, typescript, "Cart"),
        ["Base", "Priced"]
    );
    assert_eq!(bases(Language::TypeScript, typescript, "Shop"), ["Store"]);
    assert_eq!(
        bases(Language::TypeScript, typescript, "Shape"),
        ["Named", "Sized"]
    );
    let go = "package store\n\ntype Store struct {\n\t*Base\n\tsync.Mutex\n\tname string\n}\n";
    assert_eq!(bases(Language::Go, go, "Store"), ["Base", "Mutex"]);
    let go =
        "package rw\n\ntype ReadWriter interface {\n\tio.Reader\n\tWriter\n\tClose() error\n}\n\n\
        type Number interface {\n\t~int | float64\n}\n";
    assert_eq!(bases(Language::Go, go, "ReadWriter"), ["Reader", "Writer"]);
    assert!(bases(Language::Go, go, "Number").is_empty());
    let rust = "pub struct Store;\nimpl fmt::Display for Store {}\n";
    let syntax = analyze(Language::Rust, rust, false);
    let imp = syntax
        .defs
        .iter()
        .find(|def| def.kind == crate::languages::DefKind::Impl);
    assert_eq!(
        imp.map(|def| def.bases.to_vec()),
        Some(vec!["Display".into()])
    );
}
