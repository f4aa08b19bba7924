//! `textDocument/didOpen`: the buffer becomes the truth for its file and is indexed now.

use tower_lsp_server::ls_types::DidOpenTextDocumentParams;

use crate::documents::Document;
use crate::languages::Language;
use crate::lsp::indexer;
use crate::lsp::state::{guarded, Shared};

/// The language of a buffer without a telling file name, from the client's language id.
fn language_from_id(language_id: &str) -> Option<Language> {
    Some(match language_id {
        "python" => Language::Python,
        "javascript" | "javascriptreact" => Language::JavaScript,
        "typescript" => Language::TypeScript,
        "typescriptreact" => Language::Tsx,
        "go" => Language::Go,
        "rust" => Language::Rust,
        _ => return None,
    })
}

pub fn handle(shared: &Shared, params: DidOpenTextDocumentParams) {
    guarded("didOpen", || {
        let item = params.text_document;
        let mut world = shared.write();
        let location = world.locate_uri(&item.uri);
        let lang = Language::from_path(&location.1).or_else(|| language_from_id(&item.language_id));
        let document = Document::new(location, &item.text, item.version, lang);
        world.documents.open(item.uri.as_str(), document);
        indexer::index_document(&mut world, item.uri.as_str());
    });
}
