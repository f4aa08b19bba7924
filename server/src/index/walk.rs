//! Discovery and loading of a workspace's files: gitignore-aware walking, vendored and
//! hidden directories pruned, large, binary and non-UTF-8 files skipped with a reason, and
//! parallel analysis.
//!
//! Invariant: never reads outside the roots (symbolic links are not followed and parent
//! directories' ignore files are not read); never fails as a whole: each file that cannot be
//! indexed is recorded in `skipped` and logged.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::cache::SyntaxCache;
use super::{FileData, Manifest, Skipped};
use crate::languages::Language;

/// Directories that hold dependencies, pruned wherever they are.
pub const VENDORED_DIRS: &[&str] = &[
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    "site-packages",
];

/// Directories that hold dependencies where a package manager puts them: directly below a
/// root, or beside a manifest (Go's `vendor/` beside `go.mod`, Composer's beside
/// `composer.json`). Elsewhere they hold code a package copied into its own source and
/// imports (chalk's `source/vendor/supports-color`): indexed, and ranked as vendored code
/// (see `base::auxiliary_kind`).
const MANAGED_VENDOR_DIRS: &[&str] = &["vendor"];

/// Files the resolvers read to map module names to directories.
pub const MANIFEST_NAMES: &[&str] = &["package.json", "go.mod", "Cargo.toml"];

/// Directories that hold build output where a build puts it: directly below a root, or
/// beside a package manifest (`target/` beside `Cargo.toml`, `dist/` beside `package.json`,
/// `build/` beside `setup.py`). Elsewhere they are source code by that name, such as clap's
/// `src/build/`, and are indexed.
const OUTPUT_DIRS: &[&str] = &["target", "dist", "build"];

/// Other package manifests, which make a package root beside [`MANIFEST_NAMES`] (the
/// resolvers read none of them): Python's, and those of the package managers that fill a
/// `vendor/` directory beside them.
const OTHER_MANIFESTS: &[&str] = &[
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "composer.json",
    "Gemfile",
];

/// Whether the directory `dir`, `depth` levels below its root, is pruned as dependencies or
/// build output. Only the parent's manifests are looked at (never followed through a link).
fn is_pruned_dir(dir: &Path, name: &str, depth: usize) -> bool {
    if VENDORED_DIRS.contains(&name) {
        return true;
    }
    let beside_manifest = || {
        dir.parent().is_some_and(|parent| {
            MANIFEST_NAMES
                .iter()
                .chain(OTHER_MANIFESTS)
                .any(|manifest| {
                    parent
                        .join(manifest)
                        .symlink_metadata()
                        .is_ok_and(|meta| meta.is_file())
                })
        })
    };
    (OUTPUT_DIRS.contains(&name) || MANAGED_VENDOR_DIRS.contains(&name))
        && (depth == 1 || beside_manifest())
}

const BINARY_SNIFF_BYTES: usize = 8000;

/// What to index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexConfig {
    /// Files larger than this many bytes are skipped.
    pub max_file_size: u64,
    /// Gitignore-style globs of paths to leave out.
    pub exclude: Vec<String>,
    /// The languages to index (all when empty).
    pub languages: Vec<Language>,
}

impl Default for IndexConfig {
    fn default() -> IndexConfig {
        IndexConfig {
            max_file_size: 1024 * 1024,
            exclude: Vec::new(),
            languages: Vec::new(),
        }
    }
}

impl IndexConfig {
    pub fn wants(&self, lang: Language) -> bool {
        self.languages.is_empty() || self.languages.contains(&lang)
    }
}

/// Why a file or directory was left out.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SkipReason {
    TooLarge {
        size: u64,
    },
    Binary,
    NotUtf8,
    Unreadable(String),
    Symlink,
    VendoredDir,
    /// Minified JavaScript (a bundle or a vendored library): nothing anyone edits or reads.
    Minified,
    WalkError(String),
}

impl SkipReason {
    /// A stable short label for counting.
    pub fn label(&self) -> &'static str {
        match self {
            SkipReason::TooLarge { .. } => "too-large",
            SkipReason::Binary => "binary",
            SkipReason::NotUtf8 => "not-utf8",
            SkipReason::Unreadable(_) => "unreadable",
            SkipReason::Symlink => "symlink",
            SkipReason::VendoredDir => "vendored-dir",
            SkipReason::Minified => "minified",
            SkipReason::WalkError(_) => "walk-error",
        }
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::TooLarge { size } => write!(f, "too large ({size} bytes)"),
            SkipReason::Unreadable(err) | SkipReason::WalkError(err) => {
                write!(f, "{}: {err}", self.label())
            }
            _ => f.write_str(self.label()),
        }
    }
}

/// The result of crawling the roots.
#[derive(Default)]
pub struct Crawl {
    pub files: Vec<FileData>,
    pub skipped: Vec<Skipped>,
    pub manifests: Vec<Manifest>,
}

/// A file found by the walk, not yet read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    pub root: u32,
    pub rel_path: String,
    pub abs_path: PathBuf,
    pub lang: Option<Language>,
}

/// Lists the source files and manifests under the roots.
pub fn discover(roots: &[PathBuf], config: &IndexConfig) -> (Vec<Candidate>, Vec<Skipped>) {
    discover_filtered(roots, config, None)
}

/// Like [`discover`], restricted to `targets` (absolute files or directories): the walk only
/// enters the directories leading to a target and those under one, so each target is judged
/// by exactly the rules (ignore files, vendored directories, excludes) of a full walk.
pub fn discover_within(
    roots: &[PathBuf],
    config: &IndexConfig,
    targets: &[PathBuf],
) -> (Vec<Candidate>, Vec<Skipped>) {
    let targets: Arc<[PathBuf]> = targets.into();
    let keep = move |path: &Path| {
        targets
            .iter()
            .any(|target| target.starts_with(path) || path.starts_with(target))
    };
    discover_filtered(roots, config, Some(Arc::new(keep)))
}

type PathFilter = Arc<dyn Fn(&Path) -> bool + Send + Sync>;

fn discover_filtered(
    roots: &[PathBuf],
    config: &IndexConfig,
    keep: Option<PathFilter>,
) -> (Vec<Candidate>, Vec<Skipped>) {
    let mut candidates = Vec::new();
    let skipped = Arc::new(Mutex::new(Vec::new()));
    for (root_idx, root) in roots.iter().enumerate() {
        let mut builder = ignore::WalkBuilder::new(root);
        builder
            .hidden(true)
            .parents(false)
            .git_ignore(true)
            .git_exclude(true)
            .git_global(false)
            .require_git(false)
            .ignore(true)
            .follow_links(false);
        if !config.exclude.is_empty() {
            let mut overrides = ignore::overrides::OverrideBuilder::new(root);
            for glob in &config.exclude {
                if let Err(err) = overrides.add(&format!("!{glob}")) {
                    tracing::warn!("ignoring invalid exclude glob {glob:?}: {err}");
                }
            }
            match overrides.build() {
                Ok(overrides) => {
                    builder.overrides(overrides);
                }
                Err(err) => tracing::warn!("ignoring exclude globs: {err}"),
            }
        }
        let skipped_dirs = Arc::clone(&skipped);
        let keep = keep.clone();
        builder.filter_entry(move |entry| {
            if let Some(keep) = &keep {
                if entry.depth() > 0 && !keep(entry.path()) {
                    return false;
                }
            }
            let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
            let name = entry.file_name().to_string_lossy();
            if is_dir && entry.depth() > 0 && is_pruned_dir(entry.path(), &name, entry.depth()) {
                skipped_dirs.lock().expect("not poisoned").push(Skipped {
                    path: entry.path().to_owned(),
                    reason: SkipReason::VendoredDir,
                });
                return false;
            }
            true
        });
        for entry in builder.build() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(err) => {
                    tracing::warn!("walk error: {err}");
                    skipped.lock().expect("not poisoned").push(Skipped {
                        path: root.clone(),
                        reason: SkipReason::WalkError(err.to_string()),
                    });
                    continue;
                }
            };
            let path = entry.path();
            let file_name = entry.file_name().to_string_lossy();
            let lang = Language::from_path(&file_name);
            let is_manifest = MANIFEST_NAMES.contains(&file_name.as_ref());
            if lang.is_none() && !is_manifest {
                continue;
            }
            if lang.is_some_and(|lang| !config.wants(lang)) {
                continue;
            }
            if entry.path_is_symlink() {
                tracing::debug!(path = %path.display(), "skipping symbolic link");
                skipped.lock().expect("not poisoned").push(Skipped {
                    path: path.to_owned(),
                    reason: SkipReason::Symlink,
                });
                continue;
            }
            if !entry.file_type().is_some_and(|kind| kind.is_file()) {
                continue;
            }
            let Some(rel_path) = relative_path(root, path) else {
                continue;
            };
            candidates.push(Candidate {
                root: root_idx as u32,
                rel_path,
                abs_path: path.to_owned(),
                lang,
            });
        }
    }
    candidates.sort();
    let mut skipped = std::mem::take(&mut *skipped.lock().expect("not poisoned"));
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    (candidates, skipped)
}

/// `/`-separated path of `path` relative to `root`.
pub fn relative_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<_> = rel
        .components()
        .map(|part| part.as_os_str().to_string_lossy())
        .collect();
    Some(parts.join("/"))
}

/// Reads a file for indexing, enforcing the size limit and the text checks.
pub fn read_source(path: &Path, max_file_size: u64) -> Result<String, SkipReason> {
    use std::io::Read as _;
    let unreadable = |err: std::io::Error| SkipReason::Unreadable(err.to_string());
    // The size comes from the open file, not from a second lookup of its path.
    let mut file = std::fs::File::open(path).map_err(unreadable)?;
    let len = file.metadata().map_err(unreadable)?.len();
    if len > max_file_size {
        return Err(SkipReason::TooLarge { size: len });
    }
    let mut bytes = Vec::with_capacity(len as usize + 1);
    file.read_to_end(&mut bytes).map_err(unreadable)?;
    if bytes.len() as u64 > max_file_size {
        return Err(SkipReason::TooLarge {
            size: bytes.len() as u64,
        });
    }
    if bytes[..bytes.len().min(BINARY_SNIFF_BYTES)].contains(&0) {
        return Err(SkipReason::Binary);
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(err) => {
            let (text, n_invalid) = with_invalid_bytes_replaced(err.as_bytes());
            if n_invalid > MAX_INVALID_BYTES.max(text.len() / MAX_INVALID_SHARE) {
                return Err(SkipReason::NotUtf8);
            }
            tracing::info!(
                path = %path.display(),
                invalid_bytes = n_invalid,
                "indexed with bytes that are not UTF-8 read as '?'"
            );
            Ok(text)
        }
    }
}

/// A file with this many bytes that are not UTF-8 (or one in [`MAX_INVALID_SHARE`] of its
/// bytes, if more) is still indexed: a Latin-1 accent in a comment, a stray byte in a
/// string. More, and it is taken for another encoding and skipped.
const MAX_INVALID_BYTES: usize = 16;
const MAX_INVALID_SHARE: usize = 100;

/// The text of `bytes` with each byte that is not part of valid UTF-8 replaced by `?`, one
/// byte for one (offsets, lines and columns stay those of the file), and how many there
/// were.
fn with_invalid_bytes_replaced(bytes: &[u8]) -> (String, usize) {
    let mut text = String::with_capacity(bytes.len());
    let mut n_invalid = 0;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        n_invalid += chunk.invalid().len();
        text.extend(std::iter::repeat_n('?', chunk.invalid().len()));
    }
    (text, n_invalid)
}

/// Average line length (bytes) above which JavaScript or TypeScript is taken for minified.
const MINIFIED_AVERAGE_LINE: usize = 300;
/// Files smaller than this are never taken for minified.
const MINIFIED_MIN_BYTES: usize = 2048;

/// Whether a source file is minified JavaScript or TypeScript: named `*.min.<extension>`
/// (`app.min.js`), or its lines average more than [`MINIFIED_AVERAGE_LINE`] bytes. Only
/// ECMAScript is shipped minified; a Python or Rust file with a long data line is source.
pub fn is_minified(path: &str, lang: Language, text: &str) -> bool {
    if !lang.is_ecmascript() {
        return false;
    }
    let file_name = path.rsplit('/').next().unwrap_or(path);
    let named_min = lang.extensions().iter().any(|ext| {
        file_name
            .strip_suffix(ext)
            .is_some_and(|stem| stem.ends_with(".min."))
    });
    if named_min {
        return true;
    }
    let n_lines = text.lines().count().max(1);
    text.len() >= MINIFIED_MIN_BYTES && text.len() / n_lines > MINIFIED_AVERAGE_LINE
}

/// Reads a source file of `lang` for indexing: [`read_source`], then leaves out minified code.
pub fn read_source_of(
    path: &Path,
    rel_path: &str,
    lang: Option<Language>,
    max_file_size: u64,
) -> Result<String, SkipReason> {
    let text = read_source(path, max_file_size)?;
    match lang {
        Some(lang) if is_minified(rel_path, lang, &text) => Err(SkipReason::Minified),
        _ => Ok(text),
    }
}

/// Walks the roots and analyzes every source file on all cores.
/// Files whose text the cache has seen are not parsed again.
pub fn crawl(
    roots: &[PathBuf],
    config: &IndexConfig,
    cache: Option<&SyntaxCache>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Crawl {
    crawl_discovered(discover(roots, config), config, cache, progress)
}

/// Like [`crawl`], over the files [`discover`] found.
pub fn crawl_discovered(
    (candidates, mut skipped): (Vec<Candidate>, Vec<Skipped>),
    config: &IndexConfig,
    cache: Option<&SyntaxCache>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Crawl {
    let total = candidates.len();
    let n_done = AtomicUsize::new(0);
    let results: Vec<Result<Loaded, Skipped>> = candidates
        .par_iter()
        .map(|candidate| {
            let res = load(candidate, config, cache);
            let done = n_done.fetch_add(1, Ordering::Relaxed) + 1;
            if done % 64 == 0 || done == total {
                progress(done, total);
            }
            res
        })
        .collect();
    let mut crawl = Crawl::default();
    for res in results {
        match res {
            Ok(Loaded::Source(file)) => crawl.files.push(*file),
            Ok(Loaded::Manifest(manifest)) => crawl.manifests.push(manifest),
            Err(skip) => {
                tracing::info!(path = %skip.path.display(), reason = %skip.reason, "skipped file");
                skipped.push(skip);
            }
        }
    }
    crawl.skipped = skipped;
    crawl
}

/// A discovered file, read and analyzed.
pub enum Loaded {
    Source(Box<FileData>),
    Manifest(Manifest),
}

/// Reads and analyzes one discovered file, by the walk's rules (size, text, minified code),
/// taking its extraction from the cache when the cache has seen its text.
pub fn load(
    candidate: &Candidate,
    config: &IndexConfig,
    cache: Option<&SyntaxCache>,
) -> Result<Loaded, Skipped> {
    let text = read_source_of(
        &candidate.abs_path,
        &candidate.rel_path,
        candidate.lang,
        config.max_file_size,
    )
    .map_err(|reason| Skipped {
        path: candidate.abs_path.clone(),
        reason,
    })?;
    let text: Arc<str> = Arc::from(text);
    Ok(match candidate.lang {
        Some(lang) => Loaded::Source(Box::new(FileData::analyze_cached(
            candidate.root,
            candidate.rel_path.as_str().into(),
            lang,
            text,
            cache,
        ))),
        None => Loaded::Manifest(Manifest {
            root: candidate.root,
            path: candidate.rel_path.as_str().into(),
            text,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_bytes_that_are_not_utf8_are_read_as_question_marks_one_for_one() {
        let dir = std::env::temp_dir().join(format!("codectx-walk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A Latin-1 accent in a comment, and a file cut inside a character.
        let latin1 = dir.join("latin1.py");
        std::fs::write(
            &latin1,
            b"# -*- coding: latin-1 -*-\n# caf\xe9\ndef brew():\n    return 1\n\xc3",
        )
        .unwrap();
        let text = read_source(&latin1, u64::MAX).expect("indexed");
        assert_eq!(
            text,
            "# -*- coding: latin-1 -*-\n# caf?\ndef brew():\n    return 1\n?"
        );
        // Mostly not UTF-8: another encoding, skipped.
        let other = dir.join("other.py");
        let mut bytes = b"x = '".to_vec();
        bytes.extend(std::iter::repeat_n(0xe9u8, 40));
        bytes.extend(b"'\n");
        std::fs::write(&other, &bytes).unwrap();
        assert!(matches!(
            read_source(&other, u64::MAX),
            Err(SkipReason::NotUtf8)
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn minified_javascript_is_told_from_source() {
        let bundle = format!(
            "!function(e){{{}}}(this);\n",
            "var a=function(t){return t+1},b=a(2);".repeat(80)
        );
        assert!(is_minified("public/app.js", Language::JavaScript, &bundle));
        assert!(is_minified("dist/app.ts", Language::TypeScript, &bundle));
        // By name, however short.
        assert!(is_minified(
            "vendor/x.min.js",
            Language::JavaScript,
            "var a=1;\n"
        ));
        // Ordinary code, even with one long line among many.
        let source = format!(
            "{}export const TABLE = \"{}\";\n",
            "export function add(a: number, b: number) {\n  return a + b;\n}\n".repeat(30),
            "x".repeat(3000)
        );
        assert!(!is_minified("src/math.ts", Language::TypeScript, &source));
        // Small files and other languages are never minified.
        assert!(!is_minified(
            "src/one.js",
            Language::JavaScript,
            "var a=1;var b=2;"
        ));
        assert!(!is_minified("data.py", Language::Python, &bundle));
    }
}
