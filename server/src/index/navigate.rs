//! Go to definition: from a position to the definitions its name refers to, using scope,
//! imports (followed through re-exports), receivers and finally a ranked global match.
//!
//! Invariant: purely syntactic and best-effort; never fails, returns candidates best first.

use std::collections::hash_map::Entry;

use super::{parent_dir, DefId, FilePosition, Index};
use crate::base::{FileId, FxHashMap, FxHashSet, TextRange};
use crate::languages::{DefKind, Language};
use crate::syntax::{Binding, Ref};

const MAX_REEXPORT_DEPTH: usize = 6;

/// The (file, name) pairs a re-export search has looked up, with the least depth it looked
/// at each: wildcard imports (`use super::*` in every test module) form cycles and diamonds
/// that would otherwise be walked once per path, exponentially in the depth.
type Visited = FxHashMap<(FileId, Box<str>), usize>;
/// Receivers that name the types the enclosing one extends: `super.m()`, `super().m()`.
const SUPER_RECEIVERS: &[&str] = &["super", "super()"];
/// How many levels of base types a member is looked for through.
const MAX_BASE_DEPTH: usize = 8;
/// Overrides are looked for among at most this many definitions of a name.
const MAX_OVERRIDE_CANDIDATES: usize = 200;
/// A Go type as the index tells it from others: its bare name and its package's directory.
type GoType<'a> = (&'a str, &'a str);
/// `a.b.c`: how many fields deep a receiver's type is followed.
const MAX_FIELD_DEPTH: usize = 3;
/// How many calls in a chain (`a().b().c()`) a receiver's type is followed through.
const MAX_CALL_DEPTH: usize = 3;

/// The byte offset of the parenthesis that opens the argument list closing `call` (`make(a, (b))`
/// gives 4); none when they do not balance.
fn matching_open_paren(call: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, byte) in call.bytes().enumerate().rev() {
        match byte {
            b')' => depth += 1,
            b'(' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// The value a Rust wrapper is taken out of: `opt` for `opt?`, `res.unwrap()`,
/// `conn.expect("..")` or `conn.as_ref().unwrap()`, `make()` for `make()?` (in other
/// languages only `?`, which leaves a call as it is).
fn unwrapped(value: &str, rust: bool) -> Option<&str> {
    if let Some(wrapper) = value.strip_suffix('?') {
        return Some(wrapper.trim_end());
    }
    if !rust || !value.ends_with(')') {
        return None;
    }
    let (wrapper, method) = value[..matching_open_paren(value)?].rsplit_once('.')?;
    if !matches!(method.trim(), "unwrap" | "expect" | "unwrap_or_default") {
        return None;
    }
    // `conn.as_ref().unwrap()`: a reference to what the same wrapper holds.
    let wrapper = wrapper.trim_end();
    Some(
        ["as_ref()", "as_mut()", "as_deref()", "as_deref_mut()"]
            .iter()
            .find_map(|view| wrapper.strip_suffix(view)?.strip_suffix('.'))
            .unwrap_or(wrapper),
    )
}

/// The type a receiver names, if it names one: its last segment without generic arguments
/// (`crate::json::JSONBuilder` -> `JSONBuilder`, `Foo<T>` -> `Foo`).
fn receiver_type_name(receiver: &str) -> &str {
    let last_segment = receiver
        .rsplit(['.', ':'])
        .find(|segment| !segment.is_empty())
        .unwrap_or(receiver);
    last_segment.split('<').next().unwrap_or(last_segment)
}

/// Where a name is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NavTarget {
    pub def: DefId,
    pub file: FileId,
    pub range: TextRange,
    pub name_range: TextRange,
}

impl Index {
    fn nav_target(&self, def: DefId) -> Option<NavTarget> {
        let data = self.def(def)?;
        Some(NavTarget {
            def,
            file: def.file,
            range: data.range,
            name_range: data.name_range,
        })
    }

    /// The definitions the identifier at `pos` refers to, best first.
    pub fn goto_definition(&self, pos: FilePosition) -> Vec<NavTarget> {
        self.goto_definition_within(pos, usize::MAX)
    }

    /// Like [`Index::goto_definition`], but a name that its scopes, its file's imports and
    /// its receiver leave unresolved is looked for among all the definitions of that name
    /// only when there are at most `max_guesses` of them: for callers that keep no guess
    /// among more (ranking hundreds of `String` methods to drop them costs more than the
    /// rest of an answer on a large repository).
    pub fn goto_definition_within(&self, pos: FilePosition, max_guesses: usize) -> Vec<NavTarget> {
        let Some(data) = self.file(pos.file) else {
            return Vec::new();
        };
        // On a definition's own name.
        if let Some(idx) =
            data.syntax.defs.iter().position(|def| {
                def.kind.is_named() && def.name_range.contains_inclusive(pos.offset)
            })
        {
            let def = DefId {
                file: pos.file,
                idx: idx as u32,
            };
            if data.syntax.defs[idx].kind != DefKind::Impl {
                return self.nav_target(def).into_iter().collect();
            }
            // An impl block is named by the type it implements: go to that type.
            let name = &*data.syntax.defs[idx].name;
            let mut res = Vec::new();
            self.scope_candidates(pos.file, pos.offset, name, &mut res);
            if res.iter().all(|candidate| self.is_impl(*candidate)) {
                res = self.ranked_global(pos.file, name, false);
            }
            res.retain(|candidate| !self.is_impl(*candidate));
            res.push(def);
            return self.dedup_targets(res);
        }
        let Some(reference) = ref_at(&data.syntax.refs, pos.offset) else {
            return Vec::new();
        };
        let name = data.ref_text(reference);
        let literal = self.literal_type(pos.file, reference);
        let mut res: Vec<DefId> = Vec::new();
        match reference.receiver {
            Some(receiver) => {
                let receiver_text = data.text.get(receiver.as_usize()).unwrap_or("");
                self.member_candidates(
                    pos.file,
                    pos.offset,
                    receiver_text,
                    literal,
                    name,
                    &mut res,
                );
            }
            None => self.scope_candidates(pos.file, pos.offset, name, &mut res),
        }
        // Code names definitions of its own language (a Rust `.map()` is not jQuery's `map`
        // in a benchmark's JavaScript).
        res.retain(|def| self.shares_names(pos.file, def.file));
        if res.is_empty() {
            if self.defs_named(name).len() > max_guesses {
                return Vec::new();
            }
            // A name imported from outside the repository is none of its definitions.
            if reference.receiver.is_none() && self.is_outside_module(pos.file, name) {
                return Vec::new();
            }
            // A member the repository cannot hold is not guessed at among those it does.
            if let Some(receiver) = reference.receiver {
                let receiver_text = data.text.get(receiver.as_usize()).unwrap_or("");
                let builtin = literal.or_else(|| self.chain_literal_type(pos.file, receiver));
                if self.members_are_outside(pos.file, pos.offset, receiver_text, builtin) {
                    return Vec::new();
                }
            }
            res = self.ranked_global(pos.file, name, reference.receiver.is_some());
            res.retain(|def| self.shares_names(pos.file, def.file));
        }
        self.dedup_targets(res)
    }

    /// Whether code in file `a` can name definitions in file `b` (see
    /// `Language::shares_names_with`).
    pub fn shares_names(&self, a: FileId, b: FileId) -> bool {
        match (self.file(a), self.file(b)) {
            (Some(a), Some(b)) => a.lang.shares_names_with(b.lang),
            _ => false,
        }
    }

    /// Whether a reference in `file` resolves, by its scopes, its file's imports or its
    /// receiver, to definitions none of which is `def` (`JSONBuilder::new()` is not a use of
    /// `SubMatches::new`; `sqlite3.connect()`, a module's, is not a use of a method
    /// `connect`). A reference nothing resolves (a method called on a value of unknown type)
    /// may be a use of `def`: no.
    pub fn resolves_elsewhere(&self, file: FileId, reference: &Ref, def: DefId) -> bool {
        let Some(data) = self.file(file) else {
            return false;
        };
        let name = data.ref_text(reference);
        let literal = self.literal_type(file, reference);
        let mut res: Vec<DefId> = Vec::new();
        match reference.receiver {
            Some(receiver) => {
                let receiver_text = data.text.get(receiver.as_usize()).unwrap_or("").trim();
                let offset = reference.range.start;
                self.member_candidates(file, offset, receiver_text, literal, name, &mut res);
                if res.is_empty() {
                    // `{"http": 80}.get(scheme)`, `", ".join(names)`: a member of a
                    // literal's builtin type, or of what its members give.
                    if let Some(builtin) =
                        literal.or_else(|| self.chain_literal_type(file, receiver))
                    {
                        return self.held_by_another_type(def, builtin);
                    }
                    // `sqlite3.connect()`: a member of a module imported from outside the
                    // repository.
                    if self
                        .imports_binding(file, receiver_text)
                        .any(|in_repository| !in_repository)
                    {
                        return true;
                    }
                    // `self.entries.get()` with `entries: BTreeMap<..>`: a value whose type the
                    // repository does not define (names of one or two letters are taken for
                    // type parameters, which stand for types that may hold `def`, and a name
                    // imported from the repository may be an alias of a type that does, or
                    // a module that is one: `const Reply = require('./reply')`).
                    if let Some(bound) =
                        self.receiver_type(file, reference.range.start, receiver_text)
                    {
                        if self.is_outside_type(file, &bound) {
                            return self.held_by_another_type(def, &bound);
                        }
                    }
                    // `Vec::new()`, `Promise.resolve()`: a member of a type the repository
                    // does not define, so not of the type that holds `def`.
                    let type_name = receiver_type_name(receiver_text);
                    let names_type = type_name.chars().next().is_some_and(char::is_uppercase)
                        && !self.is_self_receiver(file, type_name);
                    if names_type {
                        return self.held_by_another_type(def, type_name);
                    }
                    return self.sees_another_instead(file, name, def);
                }
            }
            None => self.scope_candidates(file, reference.range.start, name, &mut res),
        }
        // A call of a base's or a trait's method may run an override of it: hyperfine's
        // `self.executor.run_command_and_measure(...)` on a `&dyn Executor` runs each
        // executor's.
        !res.is_empty()
            && !res
                .iter()
                .any(|found| *found == def || self.overrides(def, *found))
    }

    /// Whether `def` overrides `base`: a member of the same name in a type that extends
    /// `base`'s type, checked for this one pair; as [`Index::overrides_of`], never for a
    /// name of more than [`MAX_OVERRIDE_CANDIDATES`] definitions.
    fn overrides(&self, def: DefId, base: DefId) -> bool {
        let (Some(def_data), Some(base_data)) = (self.def(def), self.def(base)) else {
            return false;
        };
        def_data.name == base_data.name
            && self.defs_named(&def_data.name).len() <= MAX_OVERRIDE_CANDIDATES
            && self.member_of_extending_type(def, base)
    }

    /// Whether `def`'s container is another type than `base`'s that extends it.
    fn member_of_extending_type(&self, def: DefId, base: DefId) -> bool {
        match (self.container_name(def), self.container_name(base)) {
            (Some(own), Some(base_type)) => own != base_type && self.extends(own, base_type),
            _ => false,
        }
    }

    /// Whether `file` sees a function or method `name` other than `def` (its own, or one of a
    /// module it imports) and not `def`'s file (neither it, nor imported, nor of its Go
    /// package): `with self.apps.bulk_update():` in the module of `StateApps.bulk_update` is
    /// a call of that, not of `QuerySet.bulk_update` in a module it does not import.
    fn sees_another_instead(&self, file: FileId, name: &str, def: DefId) -> bool {
        let Some(data) = self.file(file) else {
            return false;
        };
        let imports = self.import_graph().imports(file);
        let package: &[FileId] = if data.lang == Language::Go {
            self.resolution()
                .modules
                .go_package_files(data.root, &data.path)
        } else {
            &[]
        };
        let visible = |other: FileId| other == file || imports.contains(&other);
        if visible(def.file) || package.contains(&def.file) {
            return false;
        }
        self.defs_named(name).iter().any(|other| {
            *other != def
                && visible(other.file)
                && self.def(*other).is_some_and(|d| d.kind.is_callable())
        })
    }

    /// For each import of `file` that binds `name` (the module itself or one of its names),
    /// whether it resolves to a module of the repository.
    fn imports_binding<'a>(
        &'a self,
        file: FileId,
        name: &'a str,
    ) -> impl Iterator<Item = bool> + 'a {
        self.file(file)
            .into_iter()
            .flat_map(|data| &data.syntax.imports)
            .filter(move |import| {
                import.module_binding.as_deref() == Some(name)
                    || import.names.iter().any(|n| n.local_name() == name)
            })
            .map(move |import| {
                !self
                    .resolution()
                    .modules
                    .resolve(self, file, import)
                    .is_empty()
            })
    }

    /// Whether `qualifier` (`http`, `a.b`) names in `file` a module imported from outside the
    /// repository: the imports that bind it, or its first segment, resolve to none of its files.
    fn is_outside_module(&self, file: FileId, qualifier: &str) -> bool {
        let first_segment = qualifier.split('.').next().unwrap_or(qualifier);
        [qualifier, first_segment].into_iter().any(|name| {
            let mut bindings = self.imports_binding(file, name).peekable();
            bindings.peek().is_some() && bindings.all(|in_repository| !in_repository)
        })
    }

    /// Whether a value whose bindings say it is a `bound` in `file` is of a type from outside
    /// the repository: one it does not define, nor imports from its own modules under another
    /// name (names of one or two letters are taken for type parameters, which stand for any
    /// type).
    fn is_outside_type(&self, file: FileId, bound: &str) -> bool {
        bound.chars().count() > 2
            && !self.defines_type(bound)
            && !self
                .imports_binding(file, bound)
                .any(|in_repository| in_repository)
    }

    /// Whether `name` stands for the enclosing type's value in `file`'s language (`self` in
    /// Python and Rust, `this` in JavaScript and TypeScript; in Rust `this` is a variable).
    fn is_self_receiver(&self, file: FileId, name: &str) -> bool {
        self.file(file)
            .is_some_and(|data| data.lang.self_receivers().contains(&name))
    }

    /// Whether a definition is a function declared inside a function's body.
    fn is_local_function(&self, def: DefId) -> bool {
        self.def(def).is_some_and(|data| {
            data.kind == DefKind::Function
                && data
                    .parent
                    .and_then(|idx| {
                        self.def(DefId {
                            file: def.file,
                            idx,
                        })
                    })
                    .is_some_and(|parent| parent.kind.is_callable())
        })
    }

    /// The builtin type of a reference's literal receiver (`str` for `", ".join` in Python),
    /// as its language's query names it: a stand-in no repository type has, unless one is
    /// named like it (a Rust `impl Trait for str`).
    fn literal_type(&self, file: FileId, reference: &Ref) -> Option<&'static str> {
        let lang = self.file(file)?.lang;
        lang.receiver_type(reference.receiver_type?)
    }

    /// The builtin type of the literal that a chain of calls at `receiver` in `file` starts
    /// at (`", "` in `", ".join(names).strip()`): what the index cannot type among the values
    /// a literal's members give is taken to be of builtin types too.
    fn chain_literal_type(&self, file: FileId, receiver: TextRange) -> Option<&'static str> {
        let refs = &self.file(file)?.syntax.refs;
        let first = refs.partition_point(|inner| inner.range.start < receiver.start);
        refs[first..]
            .iter()
            .take_while(|inner| inner.range.start < receiver.end)
            .filter(|inner| inner.receiver.is_some_and(|of| of.start == receiver.start))
            .find_map(|inner| self.literal_type(file, inner))
    }

    /// Whether the members of `receiver` at `offset` in `file` are known to be none of the
    /// repository's: a literal's (`", ".join`, whose builtin type is `literal`), a module's
    /// imported from outside it (`errors.New`), or a value's of a type from outside it
    /// (`r.Context()` with `r *http.Request`).
    fn members_are_outside(
        &self,
        file: FileId,
        offset: u32,
        receiver: &str,
        literal: Option<&str>,
    ) -> bool {
        let receiver = receiver.trim();
        literal.is_some()
            || self.is_outside_module(file, receiver)
            || self
                .receiver_type(file, offset, receiver)
                .is_some_and(|bound| self.is_outside_type(file, &bound))
    }

    /// Whether `def` is a member of a type (or impl) other than `type_name`.
    fn held_by_another_type(&self, def: DefId, type_name: &str) -> bool {
        self.container_name(def)
            .is_some_and(|container| container != type_name)
    }

    fn dedup_targets(&self, defs: Vec<DefId>) -> Vec<NavTarget> {
        let mut seen = FxHashSet::default();
        defs.into_iter()
            .filter(|def| seen.insert(*def))
            .filter_map(|def| self.nav_target(def))
            .collect()
    }

    fn is_impl(&self, def: DefId) -> bool {
        self.def(def).is_some_and(|data| data.kind == DefKind::Impl)
    }

    /// Candidates for a name with no receiver: enclosing scopes, the file, imports, the
    /// package.
    fn scope_candidates(&self, file: FileId, offset: u32, name: &str, acc: &mut Vec<DefId>) {
        let Some(data) = self.file(file) else {
            return;
        };
        // Definitions of the file the name can see: at its top level, or in a definition
        // around the cursor (not a variant or a nested class of another type, nor a function's
        // local one).
        let enclosing = self.enclosing_defs(file, offset);
        let same_file: Vec<DefId> = self
            .defs_named(name)
            .iter()
            .copied()
            .filter(|def| def.file == file)
            .filter(|def| {
                self.def(*def).is_some_and(|data| {
                    data.parent
                        .is_none_or(|parent| enclosing.iter().any(|e| e.idx == parent))
                })
            })
            .collect();
        if !same_file.is_empty() {
            // Prefer a definition whose parent encloses the cursor, innermost first, then
            // top-level ones.
            let mut ranked = same_file;
            ranked.sort_by_key(|def| {
                let parent = self.def(*def).and_then(|d| d.parent);
                match parent {
                    Some(parent_idx) => enclosing
                        .iter()
                        .position(|e| e.idx == parent_idx)
                        .unwrap_or(usize::MAX - 1),
                    None => usize::MAX - 2,
                }
            });
            acc.extend(ranked);
            return;
        }
        if self.follow_imported_name(file, name, 0, &mut Visited::default(), acc) {
            return;
        }
        // The same package: Go files of one directory, Python `__init__`-less siblings are
        // not visible, so only Go.
        if data.lang == Language::Go {
            let package = self
                .resolution()
                .modules
                .go_package_files(data.root, &data.path);
            let before = acc.len();
            for def in self.defs_named(name) {
                if package.contains(&def.file) && self.def(*def).is_some_and(|d| d.parent.is_none())
                {
                    acc.push(*def);
                }
            }
            self.sort_by_location(file, &mut acc[before..]);
        }
    }

    /// Sorts candidates of equal standing: `from`'s own first, then by path and position,
    /// so that answers do not depend on the order files were added in (`defs_by_name`
    /// lists them in that order).
    fn sort_by_location(&self, from: FileId, defs: &mut [DefId]) {
        defs.sort_by_cached_key(|def_id| {
            let path = self.file(def_id.file).map(|data| data.path.clone());
            let start = self.def(*def_id).map(|def| def.range.start);
            (def_id.file != from, path, start)
        });
    }

    /// Follows the import of `file` that binds `name`; returns whether one did.
    fn follow_imported_name(
        &self,
        file: FileId,
        name: &str,
        depth: usize,
        visited: &mut Visited,
        acc: &mut Vec<DefId>,
    ) -> bool {
        if depth > MAX_REEXPORT_DEPTH {
            return false;
        }
        match visited.entry((file, name.into())) {
            Entry::Occupied(seen) if *seen.get() <= depth => return false,
            Entry::Occupied(mut seen) => *seen.get_mut() = depth,
            Entry::Vacant(slot) => {
                slot.insert(depth);
            }
        }
        let Some(data) = self.file(file) else {
            return false;
        };
        let modules = &self.resolution().modules;
        for import in &data.syntax.imports {
            if let Some(imported) = import.names.iter().find(|n| n.local_name() == name) {
                let original = &*imported.name;
                let targets = modules.resolve(self, file, import);
                let before = acc.len();
                for target in &targets {
                    self.lookup_exported_from(*target, original, depth + 1, visited, acc);
                }
                if acc.len() == before {
                    // The name may be a module itself.
                    for module in modules.resolve_submodule(self, file, &import.source, original) {
                        if let Some(def) = self.module_def(module) {
                            acc.push(def);
                        }
                    }
                }
                if acc.len() > before {
                    return true;
                }
            }
            if import.module_binding.as_deref() == Some(name) {
                for target in modules.resolve(self, file, import) {
                    if let Some(def) = self.module_def(target) {
                        acc.push(def);
                    }
                }
                if !acc.is_empty() {
                    return true;
                }
            }
        }
        // Wildcard imports (`from x import *`, `export * from`, `use x::*`).
        for import in data.syntax.imports.iter().filter(|import| import.wildcard) {
            let before = acc.len();
            for target in modules.resolve(self, file, import) {
                self.lookup_exported_from(target, name, depth + 1, visited, acc);
            }
            if acc.len() > before {
                return true;
            }
        }
        false
    }

    /// A definition named `name` visible at the top of `file`, following its re-exports.
    fn lookup_exported(&self, file: FileId, name: &str, depth: usize, acc: &mut Vec<DefId>) {
        self.lookup_exported_from(file, name, depth, &mut Visited::default(), acc);
    }

    /// [`Self::lookup_exported`] within one search (see [`Visited`]).
    fn lookup_exported_from(
        &self,
        file: FileId,
        name: &str,
        depth: usize,
        visited: &mut Visited,
        acc: &mut Vec<DefId>,
    ) {
        if let Some(def) = self.top_level_def(file, name) {
            acc.push(def);
            return;
        }
        self.follow_imported_name(file, name, depth, visited, acc);
    }

    /// The definition that stands for a whole module file (its first top-level definition
    /// or, if it has none, nothing).
    fn module_def(&self, file: FileId) -> Option<DefId> {
        let data = self.file(file)?;
        (!data.syntax.defs.is_empty()).then_some(DefId { file, idx: 0 })
    }

    /// Candidates for `receiver.name`, where `literal` is the builtin type of a literal
    /// receiver.
    fn member_candidates(
        &self,
        file: FileId,
        offset: u32,
        receiver: &str,
        literal: Option<&str>,
        name: &str,
        acc: &mut Vec<DefId>,
    ) {
        let receiver = receiver.trim();
        // `self.name`, `this.name`: members of the enclosing type (or those it inherits);
        // `super.name`: members of the types it extends.
        let of_super = SUPER_RECEIVERS.contains(&receiver);
        if of_super || self.is_self_receiver(file, receiver) {
            for container in self.enclosing_defs(file, offset) {
                let Some(container_def) = self.def(container) else {
                    continue;
                };
                if !container_def.kind.is_type_or_impl() {
                    continue;
                }
                if of_super {
                    self.inherited_members(file, &container_def.name, name, acc);
                } else {
                    self.members_of_def(file, container, name, acc);
                }
                if !acc.is_empty() {
                    return;
                }
            }
            return;
        }
        if self.module_members(file, receiver, name, acc) {
            return;
        }
        // `"OK".into_response()`: a member of a literal's builtin type.
        if let Some(builtin) = literal {
            self.members_of_type(file, builtin, name, acc);
            return;
        }
        // `x.name`, `self.field.name`: the type bindings give the receiver.
        if let Some(type_name) = self.receiver_type(file, offset, receiver) {
            self.members_of_type(file, &type_name, name, acc);
            if !acc.is_empty() {
                return;
            }
        }
        self.named_members(file, receiver, name, acc);
    }

    /// Candidates for `module.name` through the file's imports (Python, Go, JS namespaces,
    /// `from pkg import module`). True when `receiver` is a module, found or not (a Go
    /// package is a directory of files: nothing else may be named so).
    fn module_members(
        &self,
        file: FileId,
        receiver: &str,
        name: &str,
        acc: &mut Vec<DefId>,
    ) -> bool {
        let Some(data) = self.file(file) else {
            return false;
        };
        let modules = &self.resolution().modules;
        for import in &data.syntax.imports {
            if import.module_binding.as_deref() == Some(receiver) {
                for target in modules.resolve(self, file, import) {
                    self.lookup_exported(target, name, 1, acc);
                }
                if !acc.is_empty() || data.lang == Language::Go {
                    return true;
                }
            }
            if let Some(imported) = import.names.iter().find(|n| n.local_name() == receiver) {
                for module in modules.resolve_submodule(self, file, &import.source, &imported.name)
                {
                    self.lookup_exported(module, name, 1, acc);
                }
                if !acc.is_empty() {
                    return true;
                }
            }
        }
        false
    }

    /// Candidates for `Type.name`, `Type::name` and `crate::module::name`: what the receiver
    /// names rather than the type of a value.
    fn named_members(&self, file: FileId, receiver: &str, name: &str, acc: &mut Vec<DefId>) {
        let Some(data) = self.file(file) else {
            return;
        };
        let type_name = receiver_type_name(receiver);
        if data.lang == Language::Rust && receiver.contains("::") || receiver.starts_with("crate") {
            // A module path: resolve it as a `use` would.
            let import = crate::syntax::Import {
                range: TextRange::default(),
                source: receiver.into(),
                names: Vec::new(),
                module_binding: None,
                wildcard: false,
                reexport: false,
            };
            for target in self.resolution().modules.resolve(self, file, &import) {
                self.lookup_exported(target, name, 1, acc);
            }
            if !acc.is_empty() {
                return;
            }
        }
        if type_name.chars().next().is_some_and(char::is_uppercase) {
            self.members_of_type(file, type_name, name, acc);
        } else if data.lang.is_ecmascript() && crate::base::is_identifier_like(receiver) {
            // `res.render(view)` in JavaScript: an object the repository defines members on
            // by its name (`res.render = function render() {}`, Express's `res`, `app`,
            // `req`), which a variable of that name stands for.
            let before = acc.len();
            self.own_members(receiver, name, acc);
            self.sort_by_location(file, &mut acc[before..]);
        }
    }

    /// The name of the type of `receiver` (`x`, `self.field`, `x.a.b`) at `offset` in `file`,
    /// as the file's bindings give it: a variable or parameter is typed by its nearest binding
    /// before `offset` in the innermost function around it that binds it (else at the top of
    /// the file); `self`, `this` by the type around `offset`; each field after the first
    /// part by the member bindings of the type before it; and a call (`x.make()`) by what it
    /// returns (see [`Self::call_type`]).
    fn receiver_type(&self, file: FileId, offset: u32, receiver: &str) -> Option<String> {
        self.receiver_type_within(file, offset, receiver, MAX_CALL_DEPTH)
    }

    /// [`Self::receiver_type`], following at most `calls` calls in a chain.
    fn receiver_type_within(
        &self,
        file: FileId,
        offset: u32,
        receiver: &str,
        calls: usize,
    ) -> Option<String> {
        // A value in parentheses (`(new Cart()).total()`), TypeScript's non-null assertion
        // (`pool!.acquire()`).
        let mut receiver = receiver.trim();
        loop {
            if let Some(value) = receiver.strip_suffix('!') {
                receiver = value.trim_end();
            } else if receiver.starts_with('(')
                && receiver.ends_with(')')
                && matching_open_paren(receiver) == Some(0)
            {
                receiver = receiver[1..receiver.len() - 1].trim();
            } else {
                break;
            }
        }
        // A type assertion says the type: `(value as Pool).acquire()`; not one inside a
        // call's arguments (`make(value as Pool).acquire()`).
        if let Some((value, asserted)) = receiver.rsplit_once(" as ") {
            if value.matches('(').count() == value.matches(')').count()
                && !asserted.contains([')', '('])
            {
                let type_name = receiver_type_name(asserted.trim());
                return self.defines_type(type_name).then(|| type_name.to_owned());
            }
        }
        // Rust: what a wrapper holds, taken out of it (`opt?`, `res.unwrap()`, `make()?`).
        let rust = self
            .file(file)
            .is_some_and(|data| data.lang == Language::Rust);
        if let Some(wrapper) = unwrapped(receiver, rust) {
            let value = wrapper.strip_suffix(".await").unwrap_or(wrapper).trim_end();
            return if value.ends_with(')') {
                // What a function returns is already what its wrapper holds.
                self.receiver_type_within(file, offset, wrapper, calls)
            } else {
                self.path_type(file, offset, wrapper, true, calls)
            };
        }
        // What a call returns: `make()`, `x.make()`, `Type::make()`, `x.fetch().await`.
        let value = receiver
            .strip_suffix(".await")
            .unwrap_or(receiver)
            .trim_end();
        if value.ends_with(')') {
            return self.call_type(file, offset, value, calls.checked_sub(1)?);
        }
        self.path_type(file, offset, receiver, false, calls)
    }

    /// The type of `x`, `self.field`, `x.a.b` or of the fields of what a call returns
    /// (`make().a`, following at most `calls` calls) at `offset` in `file`, or with `held`,
    /// the type its last binding says its wrapper holds (`conn: Option<Conn>`).
    fn path_type(
        &self,
        file: FileId,
        offset: u32,
        path: &str,
        held: bool,
        calls: usize,
    ) -> Option<String> {
        let is_name = |part: &str| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$')
        };
        // `make().pool`, `open()?.log`, `(value as Db).pool`: fields of the value before them.
        if let Some(close) = path.rfind(')') {
            let value_end = close + 1 + usize::from(path[close + 1..].starts_with('?'));
            let fields: Vec<&str> = path[value_end..]
                .trim_start()
                .strip_prefix('.')?
                .split('.')
                .map(str::trim)
                .collect();
            if fields.len() > MAX_FIELD_DEPTH || !fields.iter().all(|field| is_name(field)) {
                return None;
            }
            let owner = self.receiver_type_within(file, offset, &path[..value_end], calls)?;
            let binding = self.fields_binding(owner, &fields)?;
            return self.binding_value(binding, held);
        }
        let mut parts = path.split('.');
        let first = parts.next()?;
        let rest: Vec<&str> = parts.collect();
        if !is_name(first) || rest.len() > MAX_FIELD_DEPTH || !rest.iter().all(|p| is_name(p)) {
            return None;
        }
        let binding = if self.is_self_receiver(file, first) {
            let owner = self.enclosing_type_name(file, offset)?;
            if rest.is_empty() {
                // `self` holds no wrapper.
                return (!held).then_some(owner);
            }
            self.fields_binding(owner, &rest)?
        } else {
            let local = (file, self.local_binding(file, offset, first)?);
            if rest.is_empty() {
                local
            } else {
                self.fields_binding(self.bound_type(local.0, local.1)?, &rest)?
            }
        };
        self.binding_value(binding, held)
    }

    /// The binding of the last of `fields`, each a member of the type the one before it has,
    /// the first of `owner`, with its file.
    fn fields_binding(&self, mut owner: String, fields: &[&str]) -> Option<(FileId, &Binding)> {
        let (last, before) = fields.split_last()?;
        for field in before {
            let (bound_in, bound) = self.member_binding(&owner, field)?;
            owner = self.bound_type(bound_in, bound)?;
        }
        self.member_binding(&owner, last)
    }

    /// The type of the value a binding in `file` holds or, with `held`, of what its wrapper
    /// holds.
    fn binding_value(&self, (file, binding): (FileId, &Binding), held: bool) -> Option<String> {
        if held {
            binding.held.as_deref().map(str::to_owned)
        } else {
            self.bound_type(file, binding)
        }
    }

    /// Whether the repository defines a type (or an `impl`) named `name`: a cheap question
    /// to ask before resolving a name as a type.
    pub fn defines_type(&self, name: &str) -> bool {
        self.defs_named(name).iter().any(|def| {
            self.def(*def)
                .is_some_and(|data| data.kind.is_type_or_impl())
        })
    }

    /// The name of the innermost type (or `impl`) around `offset`.
    fn enclosing_type_name(&self, file: FileId, offset: u32) -> Option<String> {
        self.enclosing_defs(file, offset)
            .into_iter()
            .find_map(|def| {
                let data = self.def(def)?;
                data.kind.is_type_or_impl().then(|| data.name.to_string())
            })
    }

    /// The type a binding in `file` gives its name: the type it names (`Self`: the type around
    /// the binding), or what the function it calls returns when every function of that name
    /// that says what it returns says the same.
    fn bound_type(&self, file: FileId, binding: &Binding) -> Option<String> {
        if binding.call {
            self.returned_type(self.defs_named(&binding.type_name).iter().copied())
        } else if &*binding.type_name == "Self" {
            self.enclosing_type_name(file, binding.name.start)
        } else if let Some(qualifier) = binding
            .qualifier
            .as_deref()
            .filter(|qualifier| self.is_outside_module(file, qualifier))
        {
            // `*http.Request`: not a type of the repository, whatever it defines.
            Some(format!("{qualifier}.{}", binding.type_name))
        } else {
            Some(binding.type_name.to_string())
        }
    }

    /// The type of the value of `call` (`make(..)`, `x.make(..)`, `Type::make(..)`, `Cart()`,
    /// its text ending with the closing parenthesis) at `offset` in `file`: the type it
    /// constructs, or what the functions it may call return (the methods of the receiver's
    /// type when it has a receiver).
    fn call_type(&self, file: FileId, offset: u32, call: &str, calls: usize) -> Option<String> {
        let callee = call[..matching_open_paren(call)?].trim_end();
        // A constructor: `Cart()`, `new Cart()`.
        let constructed = callee.strip_prefix("new ").map_or(callee, str::trim_start);
        if self.defines_type(constructed) {
            return Some(constructed.to_owned());
        }
        if let Some((receiver, method)) = callee.rsplit_once('.') {
            if let Some(receiver_type) = self.receiver_type_within(file, offset, receiver, calls) {
                return self.method_returns(&receiver_type, method);
            }
            // Not a value of a known type: a module's function or a type's own function
            // (`pkg.NewServer()`, `Store.open()`), found as go to definition finds it.
            let mut functions = Vec::new();
            if !self.module_members(file, receiver, method, &mut functions) {
                self.named_members(file, receiver, method, &mut functions);
            }
            return self.returned_type(functions.into_iter());
        }
        // `Type::make`: a method of the type; `module::make`: a function.
        let function = match callee.rsplit_once("::") {
            Some((qualifier, function)) => {
                let type_name = receiver_type_name(qualifier);
                if self.defines_type(type_name) {
                    return self.method_returns(type_name, function);
                }
                function
            }
            None => callee,
        };
        self.returned_type(self.defs_named(function).iter().copied())
    }

    /// What the methods named `method` of the types named `type_name` return, or else those
    /// of the nearest types it extends that have one: `self.make()` in a subclass of the
    /// class declaring `make`, as a field or property is found in its bases.
    fn method_returns(&self, type_name: &str, method: &str) -> Option<String> {
        let mut methods: Vec<DefId> = Vec::new();
        self.own_members(type_name, method, &mut methods);
        if methods.is_empty() {
            methods = self.inherited_among(type_name, self.defs_named(method));
        }
        self.returned_type(methods.into_iter())
    }

    /// The type that every callable among `defs` that says what it returns says it returns
    /// (`Self`: the type it belongs to); none when they disagree or none says.
    fn returned_type(&self, defs: impl Iterator<Item = DefId>) -> Option<String> {
        let mut returned: Option<String> = None;
        for def_id in defs {
            let Some(def) = self.def(def_id).filter(|def| def.kind.is_callable()) else {
                continue;
            };
            let Some(returns) = def.returns.as_deref() else {
                continue;
            };
            let returns = if returns == "Self" {
                self.container_name(def_id)?
            } else {
                returns
            };
            if returned.as_deref().is_some_and(|seen| seen != returns) {
                return None;
            }
            returned = Some(returns.to_owned());
        }
        returned
    }

    /// The variable or parameter `name` at `offset`: its nearest binding before `offset` that
    /// is in scope there (in the innermost function around `offset` that binds it, else in an
    /// outer one, else at the top of the file).
    fn local_binding(&self, file: FileId, offset: u32, name: &str) -> Option<&Binding> {
        let data = self.file(file)?;
        let bindings = &data.syntax.bindings;
        bindings[..bindings.partition_point(|b| b.name.start < offset)]
            .iter()
            .rev()
            .filter(|b| !b.member && data.text.get(b.name.as_usize()) == Some(name))
            .find(|b| self.in_scope_at(file, b.name.start, offset))
    }

    /// Whether a name bound at `bound` in `file` is in scope at `offset`: every function
    /// around the binding is around `offset` too (a nested function's locals end with it).
    fn in_scope_at(&self, file: FileId, bound: u32, offset: u32) -> bool {
        self.enclosing_defs(file, bound)
            .into_iter()
            .filter_map(|def| self.def(def))
            .filter(|def| def.kind.is_callable())
            .all(|def| def.range.contains_inclusive(offset))
    }

    /// The binding of the member `field` of the types named `type_name`, with its file: its
    /// own (see [`Self::own_member_binding`]), else that of the nearest type it extends or
    /// embeds that binds it (`self.json` in a subclass of the class whose `__init__` sets it,
    /// Go's `l.Logger` promoted from an embedded struct).
    fn member_binding(&self, type_name: &str, field: &str) -> Option<(FileId, &Binding)> {
        if let Some(found) = self.own_member_binding(type_name, field) {
            return Some(found);
        }
        let first = self.bases_of_types_named(&[type_name.into()], &mut FxHashSet::default());
        self.ancestors_from(type_name, first)
            .iter()
            .flatten()
            .find_map(|base| self.own_member_binding(base, field))
    }

    /// The binding of the member `field` declared by the types named `type_name` themselves,
    /// with its file: a member binding inside one of them (a field, `self.field = Foo()`), or
    /// a binding in its body outside its methods (a Python class attribute).
    fn own_member_binding(&self, type_name: &str, field: &str) -> Option<(FileId, &Binding)> {
        for def_id in self.defs_named(type_name) {
            let Some(def) = self.def(*def_id).filter(|def| def.kind.is_type()) else {
                continue;
            };
            let Some(data) = self.file(def_id.file) else {
                continue;
            };
            let bindings = &data.syntax.bindings;
            let first = bindings.partition_point(|b| b.name.start < def.range.start);
            let found = bindings[first..]
                .iter()
                .take_while(|b| b.name.start < def.range.end)
                .filter(|b| data.text.get(b.name.as_usize()) == Some(field))
                .find(|b| {
                    b.member
                        || self
                            .enclosing_defs(def_id.file, b.name.start)
                            .into_iter()
                            .find(|enclosing| {
                                self.def(*enclosing)
                                    .is_some_and(|d| d.kind.can_contain_definitions())
                            })
                            == Some(*def_id)
                });
            if let Some(binding) = found {
                return Some((def_id.file, binding));
            }
        }
        None
    }

    /// Definitions named `member` whose container is a type (or impl) named `type_name`, or
    /// else the nearest type it extends that has one (see [`Self::inherited_members`]).
    /// Members in `from` come first, then the others by path.
    fn members_of_type(&self, from: FileId, type_name: &str, member: &str, acc: &mut Vec<DefId>) {
        let before = acc.len();
        self.own_members(type_name, member, acc);
        if acc.len() == before {
            self.inherited_members(from, type_name, member, acc);
        }
        self.sort_by_location(from, &mut acc[before..]);
    }

    /// Definitions named `member` of the type definition `container` itself: declared in
    /// its body; for Go and Rust, declared outside it for its name (methods, impls); else
    /// inherited from the types it declares as its bases; else of any type of its name.
    /// `self.name` knows its type's definition, which a type's name alone does not (a test
    /// module's local `class ModelAdmin(admin.ModelAdmin)`).
    fn members_of_def(&self, from: FileId, container: DefId, member: &str, acc: &mut Vec<DefId>) {
        let (Some(data), Some(def)) = (self.file(container.file), self.def(container)) else {
            return;
        };
        let before = acc.len();
        // Definitions are sorted by start, parents before children: the container's members
        // follow it, within its range.
        let first = container.idx as usize + 1;
        acc.extend(
            data.syntax.defs[first.min(data.syntax.defs.len())..]
                .iter()
                .take_while(|inner| inner.range.start < def.range.end)
                .enumerate()
                .filter(|(_, inner)| inner.parent == Some(container.idx) && &*inner.name == member)
                .map(|(offset, _)| DefId {
                    file: container.file,
                    idx: (first + offset) as u32,
                }),
        );
        if acc.len() == before && matches!(data.lang, Language::Go | Language::Rust) {
            self.own_members(&def.name, member, acc);
            self.sort_by_location(from, &mut acc[before..]);
        }
        if acc.len() == before {
            let levels = self.ancestors_from(&def.name, def.bases.to_vec());
            acc.extend(self.nearest_in(&levels, self.defs_named(member)));
            self.sort_by_location(from, &mut acc[before..]);
        }
        if acc.len() == before {
            self.members_of_type(from, &def.name, member, acc);
        }
    }

    /// Definitions named `member` whose container is a type (or impl) named `type_name`.
    fn own_members(&self, type_name: &str, member: &str, acc: &mut Vec<DefId>) {
        for def_id in self.defs_named(member) {
            if self.container_name(*def_id) == Some(type_name) {
                acc.push(*def_id);
            }
        }
    }

    /// Definitions named `member` of the nearest types `type_name` extends that have one:
    /// its bases, then theirs, breadth first.
    fn inherited_members(&self, from: FileId, type_name: &str, member: &str, acc: &mut Vec<DefId>) {
        let before = acc.len();
        acc.extend(self.inherited_among(type_name, self.defs_named(member)));
        self.sort_by_location(from, &mut acc[before..]);
    }

    /// Of `defs` (members of some types), those of the nearest types `type_name` extends
    /// that hold any of them: its bases, then theirs, breadth first, as the types of that
    /// name declare them (see `syntax::Def::bases`), at most [`MAX_BASE_DEPTH`] levels up.
    /// `ModelAdmin` and the `get_queryset` methods give `BaseModelAdmin.get_queryset`.
    pub fn inherited_among(&self, type_name: &str, defs: &[DefId]) -> Vec<DefId> {
        let first = self.bases_of_types_named(&[type_name.into()], &mut FxHashSet::default());
        self.nearest_in(&self.ancestors_from(type_name, first), defs)
    }

    /// The implementations of what the identifier at `pos` names (`textDocument/implementation`):
    /// for a type, the types (and Rust impls) that extend or implement it, at any depth; for a
    /// member of a type, its overrides in those (see [`Index::overrides_of`]). By location.
    pub fn implementations(&self, pos: FilePosition) -> Vec<NavTarget> {
        let mut found: Vec<DefId> = Vec::new();
        for target in self.goto_definition(pos) {
            let Some(def) = self.def(target.def) else {
                continue;
            };
            let go = self
                .file(target.def.file)
                .is_some_and(|data| data.lang == Language::Go);
            if go && def.kind == DefKind::Interface {
                found.extend(self.go_implementers(target.def));
            } else if def.kind.is_type_or_impl() && def.kind != DefKind::Impl {
                found.extend(self.subtypes_of(&def.name));
            } else if def.kind.is_callable() {
                let interface = self.owner(target.def).filter(|owner| {
                    go && self
                        .def(*owner)
                        .is_some_and(|owner| owner.kind == DefKind::Interface)
                });
                match interface {
                    // A method an interface lists: that method of each type implementing it.
                    Some(interface) => {
                        found.extend(self.go_interface_method_impls(interface, &def.name))
                    }
                    None => found.extend(self.overrides_of(target.def)),
                }
            }
        }
        self.sort_by_location(pos.file, &mut found);
        self.dedup_targets(found)
    }

    /// The types implementing a Go interface, which Go does not declare: those of the
    /// repository with a method of every name the interface lists, itself or through the
    /// interfaces it embeds. A type has the methods declared with a receiver of it in its
    /// package and those promoted from the types it embeds, at most [`MAX_BASE_DEPTH`]
    /// levels down (see [`Index::go_embedded`]): a struct's fields without a name (`*Base`,
    /// `pkg.Base`, `Base[T]`), whose own methods shadow deeper ones, and an embedded
    /// interface's methods. Interfaces are not listed; an interface listing no method
    /// (`any`) has no implementations listed.
    ///
    /// Limits: a method with a pointer receiver counts for the type's values too; the
    /// methods of a type the repository does not hold (`sync.Mutex`, `http.ResponseWriter`)
    /// are unknown, so it promotes none, and an interface embedding one is implemented by
    /// the types with the methods the repository shows; two embedded types promoting a
    /// method at the same depth, which Go rejects as ambiguous, give it both.
    fn go_implementers(&self, interface: DefId) -> Vec<DefId> {
        let mut found: Vec<DefId> = Vec::new();
        for (go_type, _) in self.go_implementing(interface) {
            for type_def in self.go_concrete_types(go_type) {
                if !found.contains(&type_def) {
                    found.push(type_def);
                }
            }
        }
        found
    }

    /// The methods `name` of the types implementing a Go interface (see
    /// [`Index::go_implementers`]): their own or the ones they have by promotion from a type
    /// they embed; none for a type that has it only from an embedded interface, whose method
    /// is that declaration again.
    fn go_interface_method_impls(&self, interface: DefId, name: &str) -> Vec<DefId> {
        let mut found = Vec::new();
        for (_, levels) in self.go_implementing(interface) {
            found.extend(
                self.go_methods_at_nearest(&levels, name)
                    .into_iter()
                    .filter(|method| self.def(*method).is_some_and(|m| m.parent.is_none())),
            );
        }
        found
    }

    /// The Go types implementing `interface` (see [`Index::go_implementers`]) that have a
    /// definition other than an interface, each with the levels of the types it embeds
    /// (see [`Self::go_embed_levels`]).
    fn go_implementing(&self, interface: DefId) -> Vec<(GoType<'_>, Vec<Vec<GoType<'_>>>)> {
        let (Some(def), Some(data)) = (self.def(interface), self.file(interface.file)) else {
            return Vec::new();
        };
        let itself: GoType<'_> = (&def.name, parent_dir(&data.path));
        let methods = self.go_interface_methods(itself);
        // A type implementing it has the method of the name with the fewest definitions: of
        // its own, or through a type it embeds that declares or lists it.
        let Some(rarest) = methods
            .iter()
            .min_by_key(|name| self.defs_named(name).len())
        else {
            return Vec::new();
        };
        let holders: Vec<GoType<'_>> = self
            .defs_named(rarest)
            .iter()
            .filter_map(|method| self.go_method_holder(*method))
            .collect();
        self.go_embedders(holders)
            .into_iter()
            .filter(|go_type| {
                *go_type != itself && self.go_concrete_types(*go_type).next().is_some()
            })
            .filter_map(|go_type| {
                let levels = self.go_embed_levels(go_type);
                methods
                    .iter()
                    .all(|name| !self.go_methods_at_nearest(&levels, name).is_empty())
                    .then_some((go_type, levels))
            })
            .collect()
    }

    /// The names of the methods a Go interface lists, itself or through the interfaces it
    /// embeds, each once.
    fn go_interface_methods<'a>(&'a self, interface: GoType<'a>) -> Vec<&'a str> {
        let mut names: Vec<&str> = Vec::new();
        for (name, dir) in self.go_embed_levels(interface).into_iter().flatten() {
            for def_id in self.go_types_named(name, dir) {
                if self
                    .def(def_id)
                    .is_none_or(|def| def.kind != DefKind::Interface)
                {
                    continue;
                }
                for member in self.members(def_id).filter_map(|member| self.def(member)) {
                    if member.kind.is_callable() && !names.contains(&&*member.name) {
                        names.push(&member.name);
                    }
                }
            }
        }
        names
    }

    /// The Go type that has the method `method`: its receiver's type, or the interface that
    /// lists it.
    fn go_method_holder(&self, method: DefId) -> Option<GoType<'_>> {
        let data = self
            .file(method.file)
            .filter(|data| data.lang == Language::Go)?;
        let def = self.def(method).filter(|def| def.kind.is_callable())?;
        let holder = match def.parent {
            None => def.container.as_deref()?,
            Some(parent) => {
                let interface = data.syntax.defs.get(parent as usize)?;
                if interface.kind != DefKind::Interface {
                    return None;
                }
                &interface.name
            }
        };
        Some((holder, parent_dir(&data.path)))
    }

    /// The methods `name` of the nearest of a Go type's `levels` (see
    /// [`Self::go_embed_levels`]) that has any: its own, else those it has by promotion.
    fn go_methods_at_nearest(&self, levels: &[Vec<GoType<'_>>], name: &str) -> Vec<DefId> {
        let mut nearest = usize::MAX;
        let mut found: Vec<DefId> = Vec::new();
        for method in self.defs_named(name) {
            let Some(holder) = self.go_method_holder(*method) else {
                continue;
            };
            let Some(depth) = levels.iter().position(|level| level.contains(&holder)) else {
                continue;
            };
            if depth < nearest {
                nearest = depth;
                found.clear();
            }
            if depth == nearest {
                found.push(*method);
            }
        }
        found
    }

    /// The levels of the Go types whose methods `go_type` has: itself, the types it embeds,
    /// theirs, each once, at most [`MAX_BASE_DEPTH`] levels below it.
    fn go_embed_levels<'a>(&'a self, go_type: GoType<'a>) -> Vec<Vec<GoType<'a>>> {
        let mut seen: FxHashSet<GoType<'a>> = FxHashSet::default();
        seen.insert(go_type);
        let mut levels = vec![vec![go_type]];
        while let Some(last) = levels.last().filter(|_| levels.len() <= MAX_BASE_DEPTH) {
            let mut next: Vec<GoType<'a>> = Vec::new();
            for (name, dir) in last {
                for def_id in self.go_types_named(name, dir) {
                    next.extend(
                        self.go_embedded(def_id)
                            .into_iter()
                            .filter(|embedded| seen.insert(*embedded)),
                    );
                }
            }
            if next.is_empty() {
                break;
            }
            levels.push(next);
        }
        levels
    }

    /// `go_types` and the Go types embedding one of them, at any depth up to
    /// [`MAX_BASE_DEPTH`]: those that may have their methods. A type embedding another
    /// references its name, so only the files that do are read.
    fn go_embedders<'a>(&'a self, go_types: Vec<GoType<'a>>) -> Vec<GoType<'a>> {
        let mut seen: FxHashSet<GoType<'a>> = FxHashSet::default();
        let mut frontier: Vec<GoType<'a>> = go_types
            .into_iter()
            .filter(|go_type| seen.insert(*go_type))
            .collect();
        let mut found = frontier.clone();
        for _ in 0..MAX_BASE_DEPTH {
            let mut next: Vec<GoType<'a>> = Vec::new();
            for (name, dir) in &frontier {
                for file in self.files_referencing(name) {
                    let Some(data) = self.file(*file).filter(|data| data.lang == Language::Go)
                    else {
                        continue;
                    };
                    for (idx, def) in data.syntax.defs.iter().enumerate() {
                        if !def.kind.is_type() || !def.bases.iter().any(|base| **base == **name) {
                            continue;
                        }
                        let def_id = DefId {
                            file: *file,
                            idx: idx as u32,
                        };
                        let embedder = (&*def.name, parent_dir(&data.path));
                        if self.go_embedded(def_id).contains(&(name, dir)) && seen.insert(embedder)
                        {
                            next.push(embedder);
                        }
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            found.extend(&next);
            frontier = next;
        }
        found
    }

    /// The types a Go type definition embeds (see `syntax::Def::bases`), each with its
    /// package's directory: its own for `Base`, `*Base` or `Base[T]`, and for `pkg.Base` the
    /// directory the import of `pkg` resolves to. An import the repository does not resolve
    /// (a package outside it, a module without a `go.mod` in the roots) gives none: its
    /// `Base` is not the repository's. A dot import's names are not looked for, nor the type
    /// an alias (`type Base = other.Base`) stands for.
    fn go_embedded(&self, type_def: DefId) -> Vec<GoType<'_>> {
        let (Some(data), Some(def)) = (self.file(type_def.file), self.def(type_def)) else {
            return Vec::new();
        };
        if data.lang != Language::Go || def.bases.is_empty() {
            return Vec::new();
        }
        // The names its members (named fields, an interface's methods) reference are not
        // embedded; they follow it among the definitions.
        let first = type_def.idx as usize + 1;
        let members: Vec<TextRange> = data.syntax.defs[first.min(data.syntax.defs.len())..]
            .iter()
            .take_while(|inner| inner.range.start < def.range.end)
            .map(|inner| inner.range)
            .collect();
        let own_dir = parent_dir(&data.path);
        let mut embedded: Vec<GoType<'_>> = Vec::new();
        for base in def.bases.iter() {
            for reference in data.refs_named(base) {
                if !def.range.contains_range(reference.range)
                    || members
                        .iter()
                        .any(|member| member.contains_range(reference.range))
                {
                    continue;
                }
                let dir = match reference.receiver {
                    None => Some(own_dir),
                    Some(receiver) => {
                        let package = data.text.get(receiver.as_usize()).unwrap_or("");
                        data.syntax
                            .imports
                            .iter()
                            .filter(|import| import.module_binding.as_deref() == Some(package))
                            .flat_map(|import| self.resolve_import(type_def.file, import))
                            .find_map(|file| self.file(file))
                            .map(|file| parent_dir(&file.path))
                    }
                };
                if let Some(dir) = dir {
                    if !embedded.contains(&(&**base, dir)) {
                        embedded.push((base, dir));
                    }
                }
            }
        }
        embedded
    }

    /// The Go type definitions named `name` in the package in `dir`.
    fn go_types_named<'a>(
        &'a self,
        name: &'a str,
        dir: &'a str,
    ) -> impl Iterator<Item = DefId> + 'a {
        self.defs_named(name).iter().copied().filter(move |def_id| {
            self.file(def_id.file)
                .is_some_and(|file| file.lang == Language::Go && parent_dir(&file.path) == dir)
                && self.def(*def_id).is_some_and(|def| def.kind.is_type())
        })
    }

    /// The top-level Go type definitions of `go_type` that are not interfaces.
    fn go_concrete_types<'a>(
        &'a self,
        (name, dir): GoType<'a>,
    ) -> impl Iterator<Item = DefId> + 'a {
        self.go_types_named(name, dir).filter(|def_id| {
            self.def(*def_id)
                .is_some_and(|def| def.parent.is_none() && def.kind != DefKind::Interface)
        })
    }

    /// The types (and Rust impls) whose declared bases reach a type named `type_name`, at most
    /// [`MAX_BASE_DEPTH`] levels down, nearest first.
    pub fn subtypes_of(&self, type_name: &str) -> Vec<DefId> {
        // The types that declare bases, in one pass over the repository; the levels walk them.
        let extending: Vec<(DefId, &crate::syntax::Def)> = self
            .files()
            .flat_map(|(file, data)| {
                data.syntax
                    .defs
                    .iter()
                    .enumerate()
                    .filter(|(_, def)| !def.bases.is_empty() && def.kind.is_type_or_impl())
                    .map(move |(idx, def)| {
                        (
                            DefId {
                                file,
                                idx: idx as u32,
                            },
                            def,
                        )
                    })
            })
            .collect();
        let mut frontier: FxHashSet<Box<str>> = FxHashSet::default();
        frontier.insert(type_name.into());
        let mut seen_names = frontier.clone();
        let mut seen: FxHashSet<DefId> = FxHashSet::default();
        let mut found: Vec<DefId> = Vec::new();
        for _ in 0..MAX_BASE_DEPTH {
            let mut next: FxHashSet<Box<str>> = FxHashSet::default();
            for (id, def) in &extending {
                if !def.bases.iter().any(|base| frontier.contains(base)) {
                    continue;
                }
                if seen.insert(*id) {
                    found.push(*id);
                }
                if seen_names.insert(def.name.clone()) {
                    next.insert(def.name.clone());
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        found
    }

    /// The definitions that override `def`, a member of a type: members of its name in the
    /// types that extend that type, at most [`MAX_BASE_DEPTH`] levels down (`BooleanField`'s
    /// `get_prep_value` for `Field.get_prep_value`; a Rust impl's method for its trait's).
    /// None for a name of more than [`MAX_OVERRIDE_CANDIDATES`] definitions (`__init__`,
    /// `new`), whose overrides would be most of the repository.
    pub fn overrides_of(&self, def: DefId) -> Vec<DefId> {
        let Some(data) = self.def(def) else {
            return Vec::new();
        };
        let same_name = self.defs_named(&data.name);
        if same_name.len() > MAX_OVERRIDE_CANDIDATES {
            return Vec::new();
        }
        same_name
            .iter()
            .copied()
            .filter(|other| self.member_of_extending_type(*other, def))
            .collect()
    }

    /// Of `defs`, those whose container is in the first of `levels` that holds any.
    fn nearest_in(&self, levels: &[Vec<Box<str>>], defs: &[DefId]) -> Vec<DefId> {
        levels
            .iter()
            .map(|level| -> Vec<DefId> {
                defs.iter()
                    .copied()
                    .filter(|def| {
                        self.container_name(*def)
                            .is_some_and(|container| level.iter().any(|base| **base == *container))
                    })
                    .collect()
            })
            .find(|found| !found.is_empty())
            .unwrap_or_default()
    }

    /// The levels of types above a type named `type_name` whose own bases are `first`: those,
    /// then their bases, each name once, at most [`MAX_BASE_DEPTH`] levels.
    fn ancestors_from(&self, type_name: &str, first: Vec<Box<str>>) -> Vec<Vec<Box<str>>> {
        let mut seen: FxHashSet<Box<str>> = FxHashSet::default();
        seen.insert(type_name.into());
        let first: Vec<Box<str>> = first
            .into_iter()
            .filter(|base| seen.insert(base.clone()))
            .collect();
        let mut levels: Vec<Vec<Box<str>>> = Vec::new();
        if !first.is_empty() {
            levels.push(first);
        }
        while let Some(last) = levels.last() {
            if levels.len() >= MAX_BASE_DEPTH {
                break;
            }
            let next = self.bases_of_types_named(last, &mut seen);
            if next.is_empty() {
                break;
            }
            levels.push(next);
        }
        levels
    }

    /// Whether the types named `a` and `b` are one, or one declares the other among its
    /// bases, at most [`MAX_BASE_DEPTH`] levels up: a member of either may be the other's
    /// (an override, an inherited method).
    pub fn types_related(&self, a: &str, b: &str) -> bool {
        a == b || self.extends(a, b) || self.extends(b, a)
    }

    /// Whether the types named `type_name` declare `base` among their bases, at most
    /// [`MAX_BASE_DEPTH`] levels up.
    fn extends(&self, type_name: &str, base: &str) -> bool {
        let first = self.bases_of_types_named(&[type_name.into()], &mut FxHashSet::default());
        self.ancestors_from(type_name, first)
            .iter()
            .any(|level| level.iter().any(|name| **name == *base))
    }

    /// The bases declared by the types (or, for Rust's traits, the impls) named in `names`
    /// that `seen` does not hold yet, which it then does.
    fn bases_of_types_named(
        &self,
        names: &[Box<str>],
        seen: &mut FxHashSet<Box<str>>,
    ) -> Vec<Box<str>> {
        let mut next: Vec<Box<str>> = Vec::new();
        for name in names {
            for def_id in self.defs_named(name) {
                let Some(def) = self.def(*def_id) else {
                    continue;
                };
                if !def.kind.is_type_or_impl() {
                    continue;
                }
                for base in def.bases.iter() {
                    if seen.insert(base.clone()) {
                        next.push(base.clone());
                    }
                }
            }
        }
        next
    }

    /// Every definition named `name`, ranked: callables for member access, the importer's
    /// neighbourhood, non-test code, exported, shorter paths.
    pub(crate) fn ranked_global(&self, from: FileId, name: &str, member: bool) -> Vec<DefId> {
        let from_path = self.file(from).map_or("", |data| &*data.path);
        let graph = self.import_graph();
        let imported = graph.imports(from);
        let mut defs: Vec<DefId> = self.defs_named(name).to_vec();
        // A function declared inside another function's body is no value's member (flask's
        // `self.logger.error` is not a test's local `def error()`).
        if member {
            defs.retain(|def_id| !self.is_local_function(*def_id));
        }
        defs.sort_by_cached_key(|def_id| {
            let def = self.def(*def_id).expect("live");
            let data = self.file(def_id.file).expect("live");
            let shared_dirs = from_path
                .split('/')
                .zip(data.path.split('/'))
                .take_while(|(a, b)| a == b)
                .count();
            (
                !imported.contains(&def_id.file),
                member && def.kind != DefKind::Method,
                // A module is nothing's member (`arc.path_router` is a field, not the module
                // `path_router`).
                member && def.kind == DefKind::Module,
                data.is_test || def.test,
                std::cmp::Reverse(shared_dirs),
                !def.exported,
                def.kind == DefKind::Field,
                data.path.len(),
                &*data.path,
                def.range.start,
            )
        });
        defs
    }
}

/// The reference whose name range contains `offset` (refs are sorted by range).
fn ref_at(refs: &[Ref], offset: u32) -> Option<&Ref> {
    let idx = refs.partition_point(|reference| reference.range.end < offset);
    refs[idx..]
        .iter()
        .take_while(|reference| reference.range.start <= offset)
        .find(|reference| reference.range.contains_inclusive(offset))
}
