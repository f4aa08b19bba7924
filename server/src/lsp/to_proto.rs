//! Internal values to protocol ones: byte offsets to positions in the negotiated encoding,
//! file ids to URIs, definitions to symbols, locations and hover cards.
//!
//! Invariant: the only place (with `from_proto`) that knows about UTF-16; never fails on a
//! stale id (returns `None`).

use tower_lsp_server::ls_types::{
    DocumentSymbol, Location, LocationLink, Position, Range, SymbolInformation, SymbolKind, Uri,
};

use super::state::{Encoding, World};
use crate::base::{FileId, LineIndex, TextRange};
use crate::documents::DETACHED_ROOT;
use crate::index::{DefId, FileData, NavTarget};
use crate::languages::DefKind;
use crate::syntax::Def;

/// The position of a byte offset.
pub fn position(text: &str, line_index: &LineIndex, offset: u32, encoding: Encoding) -> Position {
    let line_col = line_index.line_col(offset.min(text.len() as u32));
    let character = match encoding {
        Encoding::Utf8 => line_col.col,
        Encoding::Utf16 => {
            let line_start = line_index.line_start(line_col.line) as usize;
            let end = line_start + line_col.col as usize;
            text.get(line_start..end)
                .map_or(line_col.col as usize, |prefix| {
                    prefix.chars().map(char::len_utf16).sum()
                }) as u32
        }
    };
    Position {
        line: line_col.line,
        character,
    }
}

pub fn range(data: &FileData, range: TextRange, encoding: Encoding) -> Range {
    Range {
        start: position(&data.text, &data.line_index, range.start, encoding),
        end: position(&data.text, &data.line_index, range.end, encoding),
    }
}

/// The URI of an indexed file.
pub fn uri(world: &World, file: FileId) -> Option<Uri> {
    uri_of(&world.index, file)
}

/// The URI of a file of an index (a detached buffer keeps the URI it was opened with).
pub fn uri_of(index: &crate::index::Index, file: FileId) -> Option<Uri> {
    let data = index.file(file)?;
    if data.root == DETACHED_ROOT {
        return data.path.parse().ok();
    }
    let abs_path = index.abs_path(file)?;
    Uri::from_file_path(abs_path)
}

pub fn location(world: &World, file: FileId, text_range: TextRange) -> Option<Location> {
    let data = world.index.file(file)?;
    Some(Location {
        uri: uri(world, file)?,
        range: range(data, text_range, world.encoding),
    })
}

/// The locations of navigation targets' names (go to definition without links,
/// implementations).
pub fn name_locations(world: &World, targets: &[NavTarget]) -> Vec<Location> {
    targets
        .iter()
        .filter_map(|target| location(world, target.file, target.name_range))
        .collect()
}

pub fn location_link(
    world: &World,
    origin: Option<(FileId, TextRange)>,
    target: DefId,
) -> Option<LocationLink> {
    let data = world.index.file(target.file)?;
    let def = world.index.def(target)?;
    let origin_selection_range = origin.and_then(|(file, text_range)| {
        let origin_data = world.index.file(file)?;
        Some(range(origin_data, text_range, world.encoding))
    });
    Some(LocationLink {
        origin_selection_range,
        target_uri: uri(world, target.file)?,
        target_range: range(data, def.range, world.encoding),
        target_selection_range: range(data, def.name_range, world.encoding),
    })
}

pub fn symbol_kind(kind: DefKind) -> SymbolKind {
    match kind {
        DefKind::Function => SymbolKind::FUNCTION,
        DefKind::Method => SymbolKind::METHOD,
        DefKind::Class => SymbolKind::CLASS,
        DefKind::Struct => SymbolKind::STRUCT,
        DefKind::Interface | DefKind::Trait => SymbolKind::INTERFACE,
        DefKind::Enum => SymbolKind::ENUM,
        DefKind::Type => SymbolKind::TYPE_PARAMETER,
        DefKind::Constant => SymbolKind::CONSTANT,
        DefKind::Variable => SymbolKind::VARIABLE,
        DefKind::Module => SymbolKind::MODULE,
        DefKind::Field => SymbolKind::FIELD,
        DefKind::Macro => SymbolKind::FUNCTION,
        DefKind::Impl => SymbolKind::NAMESPACE,
        // Never listed as a symbol (see `DefKind::is_named`).
        DefKind::Statements => SymbolKind::NAMESPACE,
    }
}

/// A workspace symbol for a definition, with its container path.
#[allow(deprecated)] // `SymbolInformation::deprecated` must still be filled in.
pub fn symbol_information(world: &World, def_id: DefId) -> Option<SymbolInformation> {
    let data = world.index.file(def_id.file)?;
    let def = world.index.def(def_id)?;
    Some(SymbolInformation {
        name: def.name.to_string(),
        kind: symbol_kind(def.kind),
        tags: None,
        deprecated: None,
        location: location(world, def_id.file, def.name_range)?,
        container_name: data.syntax.container_path(def),
    })
}

/// The hierarchical symbols of a file.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be filled in.
pub fn document_symbols(data: &FileData, encoding: Encoding) -> Vec<DocumentSymbol> {
    fn build(data: &FileData, parent: Option<u32>, encoding: Encoding) -> Vec<DocumentSymbol> {
        data.syntax
            .defs
            .iter()
            .enumerate()
            .filter(|(_, def)| def.parent == parent && def.kind.is_named())
            .map(|(idx, def)| {
                let children = build(data, Some(idx as u32), encoding);
                DocumentSymbol {
                    name: if def.name.is_empty() {
                        def.signature.to_string()
                    } else {
                        def.name.to_string()
                    },
                    detail: (!def.signature.is_empty()).then(|| def.signature.to_string()),
                    kind: symbol_kind(def.kind),
                    tags: None,
                    deprecated: None,
                    range: range(data, def.range, encoding),
                    selection_range: range(data, def.name_range, encoding),
                    children: (!children.is_empty()).then_some(children),
                }
            })
            .collect()
    }
    build(data, None, encoding)
}

/// The flat symbols of a file, for clients without hierarchical support.
#[allow(deprecated)]
pub fn flat_document_symbols(world: &World, file: FileId) -> Vec<SymbolInformation> {
    let Some(data) = world.index.file(file) else {
        return Vec::new();
    };
    (0..data.syntax.defs.len())
        .filter(|idx| data.syntax.defs[*idx].kind.is_named())
        .filter_map(|idx| {
            symbol_information(
                world,
                DefId {
                    file,
                    idx: idx as u32,
                },
            )
        })
        .collect()
}

/// The hover card of a definition: signature, doc summary, container and location.
pub fn hover_markdown(world: &World, def_id: DefId) -> Option<String> {
    let data = world.index.file(def_id.file)?;
    let def: &Def = world.index.def(def_id)?;
    let mut out = String::new();
    let signature = if def.signature.is_empty() {
        &def.name
    } else {
        &def.signature
    };
    out.push_str("```");
    out.push_str(data.lang.name());
    out.push('\n');
    out.push_str(signature);
    out.push_str("\n```\n");
    if let Some(doc) = &def.doc {
        out.push('\n');
        out.push_str(doc);
        out.push('\n');
    }
    out.push_str("\n---\n\n");
    out.push_str(def.kind.name());
    if let Some(container) = data.syntax.container_path(def) {
        out.push_str(" in `");
        out.push_str(&container);
        out.push('`');
    }
    let line = data.line_index.line_col(def.name_range.start).line + 1;
    out.push_str(&format!(" · `{}:{line}`", data.path));
    Some(out)
}
