//! Assembles import statements from query captures, one [`Import`] per module specifier.
//!
//! Invariant: pure; the only grammar knowledge here is the shape of Rust `use` trees, which a
//! query cannot flatten (they nest to any depth).

use tree_sitter::{Node, QueryMatch};

use super::{Import, ImportedName};
use crate::base::TextRange;
use crate::languages::{CaptureRole, Language, LanguageConfig};

pub(crate) struct ImportBuilder<'tree> {
    node: Node<'tree>,
    language: Option<Language>,
    imports: Vec<Import>,
}

impl<'tree> ImportBuilder<'tree> {
    pub(crate) fn new(node: Node<'tree>) -> ImportBuilder<'tree> {
        ImportBuilder {
            node,
            language: None,
            imports: Vec::new(),
        }
    }

    pub(crate) fn add_match(
        &mut self,
        config: &LanguageConfig,
        query_match: &QueryMatch<'_, 'tree>,
        text: &str,
    ) {
        self.language = Some(config.language);
        let mut source = None;
        let mut name = None;
        let mut alias = None;
        let mut binds_module = false;
        let mut wildcard = false;
        let mut reexport = false;
        // A pattern may name what it imports when no node spells it:
        // `(#set! import.name "default")` for JavaScript's `import x from 'm'`.
        let set_name = config
            .query
            .property_settings(query_match.pattern_index)
            .iter()
            .find(|property| &*property.key == "import.name")
            .and_then(|property| property.value.as_deref());
        if set_name.is_some() {
            name = set_name;
        }
        for capture in query_match.captures() {
            let node_text = &text[capture.node.byte_range()];
            match config.roles[capture.index as usize] {
                CaptureRole::ImportSource => source = Some(unquote(node_text)),
                CaptureRole::ImportName if set_name.is_none() => name = Some(node_text),
                CaptureRole::ImportAlias => alias = Some(node_text),
                CaptureRole::ImportModule => binds_module = true,
                CaptureRole::ImportWildcard => wildcard = true,
                CaptureRole::ImportReexport => reexport = true,
                CaptureRole::ImportTree => {
                    let mut leaves = Vec::new();
                    flatten_use_tree(capture.node, text, "", &mut leaves);
                    for leaf in leaves {
                        let entry = self.entry(&leaf.path);
                        entry.reexport |= reexport;
                        match leaf.name {
                            UseName::Wildcard => entry.wildcard = true,
                            UseName::Name(leaf_name) => entry.names.push(ImportedName {
                                name: leaf_name.into(),
                                alias: leaf.alias.map(Into::into),
                            }),
                        }
                    }
                }
                _ => {}
            }
        }
        let Some(source) = source else {
            // `use` trees carry their own paths; mark their re-export flag afterwards.
            if reexport {
                self.imports
                    .iter_mut()
                    .for_each(|import| import.reexport = true);
            }
            return;
        };
        let entry = self.entry(source);
        entry.reexport |= reexport;
        entry.wildcard |= wildcard;
        if binds_module {
            let binding = alias.unwrap_or(default_module_binding(config.language, source));
            entry.module_binding = Some(binding.into());
        } else if let Some(name) = name {
            let imported = ImportedName {
                name: name.into(),
                alias: alias.map(Into::into),
            };
            if !entry.names.contains(&imported) {
                entry.names.push(imported);
            }
        }
    }

    fn entry(&mut self, source: &str) -> &mut Import {
        let idx = match self
            .imports
            .iter()
            .position(|import| &*import.source == source)
        {
            Some(idx) => idx,
            None => {
                self.imports.push(Import {
                    range: TextRange::new(self.node.start_byte(), self.node.end_byte()),
                    source: source.into(),
                    names: Vec::new(),
                    module_binding: None,
                    wildcard: false,
                    reexport: false,
                });
                self.imports.len() - 1
            }
        };
        &mut self.imports[idx]
    }

    pub(crate) fn finish(self) -> Vec<Import> {
        self.imports
    }
}

/// The name an unaliased module import binds: Go binds the last path element, skipping a
/// major-version suffix (`example.com/kit/v2` and `gopkg.in/yaml.v3` bind `kit`, `yaml`);
/// the others the specifier as written (`import a.b` makes `a.b.f()` valid).
fn default_module_binding(lang: Language, source: &str) -> &str {
    fn is_major_version(text: &str) -> bool {
        text.strip_prefix('v')
            .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
    }
    match lang {
        Language::Go => {
            let mut elements = source.rsplit('/');
            let last = elements.next().unwrap_or(source);
            let last = match elements.next() {
                Some(previous) if is_major_version(last) => previous,
                _ => last,
            };
            match last.rsplit_once('.') {
                Some((name, version)) if is_major_version(version) => name,
                _ => last,
            }
        }
        _ => source,
    }
}

fn unquote(text: &str) -> &str {
    let text = text.trim();
    for quote in ['"', '\'', '`'] {
        if let Some(inner) = text
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner;
        }
    }
    text
}

enum UseName<'text> {
    Name(&'text str),
    Wildcard,
}

struct UseLeaf<'text> {
    path: String,
    name: UseName<'text>,
    alias: Option<&'text str>,
}

fn join_path(prefix: &str, path: &str) -> String {
    match (prefix.is_empty(), path.is_empty()) {
        (true, _) => path.to_owned(),
        (_, true) => prefix.to_owned(),
        _ => format!("{prefix}::{path}"),
    }
}

/// Flattens a Rust `use` tree into `(path, name, alias)` leaves.
fn flatten_use_tree<'text>(
    node: Node<'_>,
    text: &'text str,
    prefix: &str,
    acc: &mut Vec<UseLeaf<'text>>,
) {
    let field_text = |field: &str| {
        node.child_by_field_name(field)
            .map(|child| &text[child.byte_range()])
    };
    match node.kind() {
        "scoped_identifier" => {
            let path = field_text("path").unwrap_or("");
            if let Some(name) = field_text("name") {
                acc.push(UseLeaf {
                    path: join_path(prefix, path),
                    name: UseName::Name(name),
                    alias: None,
                });
            }
        }
        "identifier" | "crate" | "super" | "self" | "metavariable" => {
            let name = &text[node.byte_range()];
            acc.push(UseLeaf {
                path: prefix.to_owned(),
                name: UseName::Name(name),
                alias: None,
            });
        }
        "use_as_clause" => {
            let Some(path_node) = node.child_by_field_name("path") else {
                return;
            };
            let alias = field_text("alias");
            let start = acc.len();
            flatten_use_tree(path_node, text, prefix, acc);
            for leaf in &mut acc[start..] {
                leaf.alias = alias;
            }
        }
        "scoped_use_list" => {
            let path = field_text("path").unwrap_or("");
            let nested_prefix = join_path(prefix, path);
            if let Some(list) = node.child_by_field_name("list") {
                flatten_use_tree(list, text, &nested_prefix, acc);
            }
        }
        "use_list" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                flatten_use_tree(child, text, prefix, acc);
            }
        }
        "use_wildcard" => {
            let path = node
                .named_child(0)
                .map(|child| &text[child.byte_range()])
                .unwrap_or("");
            acc.push(UseLeaf {
                path: join_path(prefix, path),
                name: UseName::Wildcard,
                alias: None,
            });
        }
        _ => {}
    }
}
