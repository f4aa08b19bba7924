//! `workspace/didCreateFiles`, `didRenameFiles` and `didDeleteFiles`: the paths involved
//! (files or whole folders) are re-read from disk.

use std::path::PathBuf;

use tower_lsp_server::ls_types::{CreateFilesParams, DeleteFilesParams, RenameFilesParams};

use crate::lsp::indexer;
use crate::lsp::state::{guarded, Shared};

fn refresh(shared: &Shared, what: &str, uris: Vec<&str>) {
    guarded(what, || {
        let targets: Vec<PathBuf> = uris
            .into_iter()
            .filter_map(|uri| uri.parse().ok())
            .filter_map(|uri| crate::lsp::from_proto::file_path(&uri))
            .collect();
        let mut world = shared.write();
        indexer::refresh_paths(&mut world, &targets);
    });
}

pub fn did_create(shared: &Shared, params: CreateFilesParams) {
    refresh(
        shared,
        "didCreateFiles",
        params.files.iter().map(|file| file.uri.as_str()).collect(),
    );
}

pub fn did_rename(shared: &Shared, params: RenameFilesParams) {
    refresh(
        shared,
        "didRenameFiles",
        params
            .files
            .iter()
            .flat_map(|file| [file.old_uri.as_str(), file.new_uri.as_str()])
            .collect(),
    );
}

pub fn did_delete(shared: &Shared, params: DeleteFilesParams) {
    refresh(
        shared,
        "didDeleteFiles",
        params.files.iter().map(|file| file.uri.as_str()).collect(),
    );
}
