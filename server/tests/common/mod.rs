//! Helpers shared by the test crates of `server/tests`.

use std::path::PathBuf;

/// The fixtures (`fixtures/<name>/`, each with its `repo/` and `cases.toml`), sorted.
pub fn fixture_dirs() -> Vec<PathBuf> {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("repo").is_dir() && path.join("cases.toml").is_file())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 5, "fixtures: {dirs:?}");
    dirs
}
