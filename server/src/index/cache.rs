//! The syntax cache: what extraction made of each file, kept on disk between runs and keyed
//! by the file's content, so that a later run parses only the files that changed; and the
//! cache files themselves ([`CacheFile`]), which also hold the engine's term counts.
//!
//! Invariant: a cache entry is only ever used for text whose 128-bit content hash (with the
//! language and the test flag extraction was given) matches, and only when every range in it
//! lies on the text's character boundaries. A cache written by another build of codectx, or
//! damaged, or unreadable, is ignored with a logged reason; nothing here can fail a build.
//! Only files named by a [`CacheKind`]'s prefix are ever deleted from the cache directory.
//!
//! Each build of codectx has its own file per set of roots, so that two builds used on one
//! workspace (an editor's bundled server and an agent's command line) do not rewrite each
//! other's cache; a write keeps the newest [`OTHER_BUILDS_KEPT`] files of other builds.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::de::DeserializeOwned;
use serde::Serialize;
use xxhash_rust::xxh3::{xxh3_128, xxh3_64};

use super::FileData;
use crate::base::{FxHashMap, TextRange};
use crate::languages::Language;
use crate::syntax::FileSyntax;

/// The environment variable naming the cache directory; `off` (or empty) turns the cache off.
pub const CACHE_DIR_ENV: &str = "CODECTX_CACHE_DIR";

/// Magic, build identity, payload checksum and payload length, 8 bytes each.
const HEADER_LEN: usize = 32;
/// Caches above this size are not read (20,427 files wrote 49 MB of extractions and 60 MB of
/// term counts).
const MAX_CACHE_BYTES: u64 = 1 << 30;

/// Files of other builds kept for one set of roots and kind when a build writes its own.
const OTHER_BUILDS_KEPT: usize = 2;

/// The key of one file's extraction: its text, its language and whether it is a test file.
pub fn content_key(lang: Language, is_test: bool, text: &str) -> u128 {
    let seed = ((lang as u128) << 1) | is_test as u128;
    xxh3_128(text.as_bytes()) ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)
}

/// The cache directory: `$CODECTX_CACHE_DIR`, else `$XDG_CACHE_HOME/codectx`, else
/// `~/.cache/codectx` (`%LOCALAPPDATA%\codectx` on Windows). `None` when turned off or when
/// no home is known.
pub fn default_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(CACHE_DIR_ENV) {
        if dir.is_empty() || dir == "off" {
            return None;
        }
        return Some(PathBuf::from(dir));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .or_else(|| std::env::var_os("LOCALAPPDATA").map(PathBuf::from))?;
    Some(base.join("codectx"))
}

/// What this build of codectx writes: its version and the size and modification time of its
/// executable, so that any rebuild (new queries, new extraction) starts a fresh cache.
fn build_identity() -> Option<u64> {
    let exe = std::env::current_exe().ok()?;
    let meta = fs::metadata(exe).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    let identity = format!(
        "{} {} {}.{:09}",
        env!("CARGO_PKG_VERSION"),
        meta.len(),
        modified.as_secs(),
        modified.subsec_nanos()
    );
    Some(xxh3_64(identity.as_bytes()))
}

/// How a run used the cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Entries read from disk.
    pub loaded: usize,
    /// Files whose extraction came from the cache.
    pub hits: usize,
    /// Files parsed because the cache had no (usable) entry for them.
    pub misses: usize,
}

/// A loaded syntax cache for one set of workspace roots.
pub struct SyntaxCache {
    file: CacheFile,
    /// What was read from disk, shared with the files that use it (files with the same text
    /// share one); a save is skipped when the index holds exactly these keys.
    entries: FxHashMap<u128, Arc<FileSyntax>>,
    hits: AtomicUsize,
    misses: AtomicUsize,
}

impl SyntaxCache {
    /// Opens the cache of these roots under `dir`, reading what an earlier run saved. `None`
    /// when this build's identity is unknown (then nothing could be checked).
    pub fn open(dir: &Path, roots: &[PathBuf]) -> Option<SyntaxCache> {
        let file = CacheFile::new(dir, roots, CacheKind::Syntax)?;
        let entries = file
            .read_map::<FileSyntax>()
            .into_iter()
            .map(|(key, syntax)| (key, Arc::new(syntax)))
            .collect();
        Some(SyntaxCache {
            file,
            entries,
            hits: AtomicUsize::new(0),
            misses: AtomicUsize::new(0),
        })
    }

    /// The file the cache lives in.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The extraction of `text` saved by an earlier run (shared by every file with that text).
    /// Counts a hit or a miss.
    pub fn get(&self, lang: Language, is_test: bool, text: &str) -> Option<Arc<FileSyntax>> {
        self.get_keyed(content_key(lang, is_test, text), text)
    }

    /// Like [`SyntaxCache::get`], by the text's [`content_key`].
    pub fn get_keyed(&self, key: u128, text: &str) -> Option<Arc<FileSyntax>> {
        let syntax = self
            .entries
            .get(&key)
            .filter(|syntax| fits(syntax, text))
            .cloned();
        let counter = if syntax.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        syntax
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            loaded: self.entries.len(),
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }

    /// Writes the extraction of `files` (an index's), replacing what was read, unless they are
    /// exactly the texts read. Returns whether it wrote. The file is written
    /// aside and renamed, so a concurrent reader sees the old cache or the new one.
    pub fn save<'a>(&self, files: impl IntoIterator<Item = &'a FileData>) -> io::Result<bool> {
        let mut entries: Vec<(u128, &FileSyntax)> = files
            .into_iter()
            .map(|file| (file.content_key(), &*file.syntax))
            .collect();
        entries.sort_unstable_by_key(|(key, _)| *key);
        entries.dedup_by_key(|(key, _)| *key);
        if entries.len() == self.entries.len()
            && entries
                .iter()
                .all(|(key, _)| self.entries.contains_key(key))
        {
            return Ok(false);
        }
        self.file.write(&entries)?;
        Ok(true)
    }
}

/// What a cache file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheKind {
    /// Each file's extraction, by its content key (this module's [`SyntaxCache`]).
    Syntax,
    /// The search tables' term counts of each file, by its content key and path (the engine's).
    Terms,
}

impl CacheKind {
    const ALL: [CacheKind; 2] = [CacheKind::Syntax, CacheKind::Terms];

    fn prefix(self) -> &'static str {
        match self {
            CacheKind::Syntax => "syntax-",
            CacheKind::Terms => "terms-",
        }
    }

    fn magic(self) -> &'static [u8; 8] {
        match self {
            CacheKind::Syntax => b"CDXSYN01",
            CacheKind::Terms => b"CDXTRM01",
        }
    }
}

/// One cache file of a set of workspace roots: a header (magic, the build's identity, the
/// payload's checksum and length) and a `postcard` payload.
pub struct CacheFile {
    path: PathBuf,
    /// The start of the names of every build's file for these roots and kind.
    stem: String,
    kind: CacheKind,
    identity: u64,
}

impl CacheFile {
    /// The file of this kind for these roots under `dir`. `None` when this build's identity is
    /// unknown (then nothing it read could be checked).
    pub fn new(dir: &Path, roots: &[PathBuf], kind: CacheKind) -> Option<CacheFile> {
        Some(CacheFile::of_build(dir, roots, kind, build_identity()?))
    }

    fn of_build(dir: &Path, roots: &[PathBuf], kind: CacheKind, identity: u64) -> CacheFile {
        let mut roots_key = String::new();
        for root in roots {
            roots_key.push_str(&root.to_string_lossy());
            roots_key.push('\n');
        }
        let stem = format!("{}{:016x}-", kind.prefix(), xxh3_64(roots_key.as_bytes()));
        CacheFile {
            path: dir.join(format!("{stem}{identity:016x}.bin")),
            stem,
            kind,
            identity,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What an earlier run wrote; `None` when there is no such file or it cannot be used (the
    /// reason is logged).
    fn read<T: DeserializeOwned>(&self) -> Option<T> {
        match self.read_checked() {
            Ok(Some(value)) => {
                mark_used(&self.path);
                Some(value)
            }
            Ok(None) => None,
            Err(reason) => {
                tracing::info!(path = %self.path.display(), %reason, "not using a cache");
                None
            }
        }
    }

    /// What an earlier run wrote as `(key, value)` pairs, by key; empty when nothing usable.
    pub fn read_map<T: DeserializeOwned>(&self) -> FxHashMap<u128, T> {
        self.read::<Vec<(u128, T)>>()
            .unwrap_or_default()
            .into_iter()
            .collect()
    }

    fn read_checked<T: DeserializeOwned>(&self) -> Result<Option<T>, String> {
        let len = match fs::metadata(&self.path) {
            Ok(meta) => meta.len(),
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err.to_string()),
        };
        if len > MAX_CACHE_BYTES {
            return Err(format!("{len} bytes is over the limit"));
        }
        let bytes = fs::read(&self.path).map_err(|err| err.to_string())?;
        if bytes.len() < HEADER_LEN || &bytes[..8] != self.kind.magic() {
            return Err("not a codectx cache of this kind and format".to_owned());
        }
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
        if word(8) != self.identity {
            return Err("written by another build of codectx".to_owned());
        }
        let payload = &bytes[HEADER_LEN..];
        if word(24) != payload.len() as u64 || word(16) != xxh3_64(payload) {
            return Err("damaged (length or checksum)".to_owned());
        }
        postcard::from_bytes(payload)
            .map(Some)
            .map_err(|err| format!("undecodable: {err}"))
    }

    /// Replaces the file with `value`. It is written aside and renamed, so a concurrent reader
    /// sees the old file or the new one; then unused caches in the directory are pruned.
    pub fn write<T: Serialize + ?Sized>(&self, value: &T) -> io::Result<()> {
        let payload = postcard::to_stdvec(value).map_err(io::Error::other)?;
        let mut bytes = Vec::with_capacity(HEADER_LEN + payload.len());
        bytes.extend_from_slice(self.kind.magic());
        bytes.extend_from_slice(&self.identity.to_le_bytes());
        bytes.extend_from_slice(&xxh3_64(&payload).to_le_bytes());
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&payload);
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
        }
        let aside = self
            .path
            .with_extension(format!("{}.tmp", std::process::id()));
        let written = fs::File::create(&aside)
            .and_then(|mut file| file.write_all(&bytes))
            .and_then(|()| fs::rename(&aside, &self.path));
        if written.is_err() {
            let _ = fs::remove_file(&aside);
        }
        written?;
        if let Some(dir) = self.path.parent() {
            self.prune(dir);
        }
        Ok(())
    }

    /// Deletes, in one pass over the directory, the caches of workspaces not indexed for
    /// [`UNUSED_FOR`], files left aside by writers that died (older than a day), and the files
    /// other builds wrote for these roots but the newest [`OTHER_BUILDS_KEPT`].
    fn prune(&self, dir: &Path) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        let own = self.path.file_name();
        let mut other_builds: Vec<(SystemTime, PathBuf)> = Vec::new();
        for entry in entries.flatten() {
            let file_name = entry.file_name();
            let name = file_name.to_string_lossy();
            if !CacheKind::ALL
                .iter()
                .any(|kind| name.starts_with(kind.prefix()))
            {
                continue;
            }
            let is_cache = name.ends_with(".bin");
            let limit = if is_cache {
                UNUSED_FOR
            } else if name.ends_with(".tmp") {
                MARK_AFTER
            } else {
                continue;
            };
            let modified = entry.metadata().and_then(|meta| meta.modified()).ok();
            if modified.and_then(age).is_some_and(|age| age > limit) {
                let _ = fs::remove_file(entry.path());
            } else if is_cache && name.starts_with(&self.stem) && Some(file_name.as_os_str()) != own
            {
                other_builds.push((modified.unwrap_or(SystemTime::UNIX_EPOCH), entry.path()));
            }
        }
        other_builds.sort_by(|a, b| b.cmp(a));
        for (_, path) in other_builds.into_iter().skip(OTHER_BUILDS_KEPT) {
            let _ = fs::remove_file(path);
        }
    }
}

/// Caches unused this long are deleted when another cache in their directory is written.
const UNUSED_FOR: Duration = Duration::from_secs(30 * 24 * 3600);
/// A cache's modification time is brought forward on reading once it is this old.
const MARK_AFTER: Duration = Duration::from_secs(24 * 3600);

fn age(modified: SystemTime) -> Option<Duration> {
    SystemTime::now().duration_since(modified).ok()
}

/// Records that a cache was read, so that pruning keeps it.
fn mark_used(path: &Path) {
    let stale = fs::metadata(path)
        .and_then(|meta| meta.modified())
        .ok()
        .and_then(age)
        .is_some_and(|age| age > MARK_AFTER);
    if stale {
        let _ = fs::File::options()
            .write(true)
            .open(path)
            .and_then(|file| file.set_modified(SystemTime::now()));
    }
}

/// Whether every range of an extraction lies on `text`'s character boundaries, and every
/// parent index points at an earlier definition.
fn fits(syntax: &FileSyntax, text: &str) -> bool {
    let ok = |range: &TextRange| {
        range.start <= range.end
            && text.is_char_boundary(range.start as usize)
            && text.is_char_boundary(range.end as usize)
    };
    syntax.defs.iter().enumerate().all(|(idx, def)| {
        ok(&def.range) && ok(&def.name_range) && def.parent.is_none_or(|p| (p as usize) < idx)
    }) && syntax.imports.iter().all(|import| ok(&import.range))
        && syntax
            .refs
            .iter()
            .all(|r| ok(&r.range) && r.receiver.as_ref().is_none_or(ok))
        && syntax.bindings.iter().all(|binding| ok(&binding.name))
        && syntax.issues.iter().all(|issue| ok(&issue.range))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Index;
    use crate::syntax;

    fn repo(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        for (path, text) in files {
            let path = root.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        (dir, root)
    }

    const APP: &str = "class Client:\n    def connect(self, url):\n        return open(url)\n";
    const UTIL: &str = "def helper(x):\n    return x + 1\n";

    fn build(root: &Path, cache_dir: &Path) -> (Index, CacheStats, bool) {
        let cache = SyntaxCache::open(cache_dir, &[root.to_owned()]).unwrap();
        let index = Index::build_cached(vec![root.to_owned()], &Default::default(), Some(&cache));
        let wrote = cache.save(index.files().map(|(_, file)| &**file)).unwrap();
        (index, cache.stats(), wrote)
    }

    #[test]
    fn a_second_run_parses_only_changed_files() {
        let (tmp, root) = repo(&[("app.py", APP), ("util.py", UTIL), ("copy/app.py", APP)]);
        let cache_dir = tmp.path().join("cache");
        let (fresh, stats, wrote) = build(&root, &cache_dir);
        assert_eq!(
            (stats.loaded, stats.hits, stats.misses, wrote),
            (0, 0, 3, true)
        );

        // Two texts were saved; the copy's comes from the same entry, shared.
        let (cached, stats, wrote) = build(&root, &cache_dir);
        assert_eq!(
            (stats.loaded, stats.hits, stats.misses, wrote),
            (2, 3, 0, false)
        );
        for (_, file) in fresh.files() {
            let other = cached.file(cached.file_id(0, &file.path).unwrap()).unwrap();
            assert_eq!(file.syntax, other.syntax);
        }
        let syntax_of = |path: &str| {
            &cached
                .file(cached.file_id(0, path).unwrap())
                .unwrap()
                .syntax
        };
        assert!(Arc::ptr_eq(syntax_of("app.py"), syntax_of("copy/app.py")));

        fs::write(root.join("util.py"), "def helper(x):\n    return x + 2\n").unwrap();
        let (_, stats, wrote) = build(&root, &cache_dir);
        assert_eq!(
            (stats.loaded, stats.hits, stats.misses, wrote),
            (2, 2, 1, true)
        );
    }

    #[test]
    fn a_damaged_or_foreign_cache_is_ignored() {
        let (tmp, root) = repo(&[("app.py", APP)]);
        let cache_dir = tmp.path().join("cache");
        build(&root, &cache_dir);
        let path = SyntaxCache::open(&cache_dir, std::slice::from_ref(&root))
            .unwrap()
            .path()
            .to_owned();
        let good = fs::read(&path).unwrap();

        let mut flipped = good.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0x40;
        fs::write(&path, &flipped).unwrap();
        let (_, stats, wrote) = build(&root, &cache_dir);
        assert_eq!(
            (stats.loaded, stats.hits, stats.misses, wrote),
            (0, 0, 1, true)
        );

        let mut foreign = good.clone();
        foreign[8] ^= 1;
        fs::write(&path, &foreign).unwrap();
        assert_eq!(build(&root, &cache_dir).1.loaded, 0);

        fs::write(&path, b"not a cache").unwrap();
        assert_eq!(build(&root, &cache_dir).1.loaded, 0);
    }

    #[test]
    fn caches_unused_for_a_month_are_pruned_when_another_is_written() {
        let (tmp, root) = repo(&[("app.py", APP)]);
        let cache_dir = tmp.path().join("cache");
        fs::create_dir_all(&cache_dir).unwrap();
        let old = SystemTime::now() - Duration::from_secs(40 * 24 * 3600);
        let recent = SystemTime::now() - Duration::from_secs(3 * 24 * 3600);
        for (name, modified) in [
            ("syntax-0000000000000001.bin", old),
            ("syntax-0000000000000002.bin", recent),
            ("syntax-0000000000000003.bin.77.tmp", recent),
            ("notes.txt", old),
        ] {
            let file = fs::File::create(cache_dir.join(name)).unwrap();
            file.set_modified(modified).unwrap();
        }
        build(&root, &cache_dir);
        let mut names: Vec<String> = fs::read_dir(&cache_dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let own = SyntaxCache::open(&cache_dir, &[root]).unwrap();
        let own = own.path().file_name().unwrap().to_string_lossy();
        assert_eq!(names, ["notes.txt", "syntax-0000000000000002.bin", &own]);
    }

    #[test]
    fn each_build_keeps_its_own_file_and_a_write_keeps_the_newest_two_of_other_builds() {
        let tmp = tempfile::tempdir().unwrap();
        let roots = [tmp.path().join("repo")];
        let file = |identity| CacheFile::of_build(tmp.path(), &roots, CacheKind::Terms, identity);
        let hour = Duration::from_secs(3600);
        for identity in 1..=4u64 {
            file(identity)
                .write(&vec![(u128::from(identity), identity)])
                .unwrap();
            // Earlier builds wrote earlier.
            fs::File::options()
                .write(true)
                .open(file(identity).path())
                .unwrap()
                .set_modified(SystemTime::now() - hour * (10 - identity as u32))
                .unwrap();
        }
        // The third build's cache survived the fourth's write and is still its own.
        assert_eq!(file(3).read_map::<u64>().get(&3), Some(&3));
        assert_eq!(file(2).read_map::<u64>().get(&2), Some(&2));
        assert!(!file(1).path().exists());
        // Another build never reads a file as its own.
        fs::copy(file(2).path(), file(5).path()).unwrap();
        assert!(file(5).read_map::<u64>().is_empty());
        // Another set of roots or another kind is left alone.
        let other_roots =
            CacheFile::of_build(tmp.path(), &[tmp.path().join("x")], CacheKind::Terms, 9);
        other_roots.write(&vec![(0u128, 0u64)]).unwrap();
        let syntax = CacheFile::of_build(tmp.path(), &roots, CacheKind::Syntax, 9);
        syntax.write(&vec![(0u128, 0u64)]).unwrap();
        file(6).write(&vec![(6u128, 6u64)]).unwrap();
        assert!(other_roots.path().exists() && syntax.path().exists());
    }

    #[test]
    fn an_entry_that_does_not_fit_its_text_is_not_used() {
        let text = "def é(): pass\n";
        let mut syntax = syntax::analyze(Language::Python, text, false);
        assert!(fits(&syntax, text));
        syntax.defs[0].name_range.end = 5; // inside the two bytes of `é`
        assert!(!fits(&syntax, text));
        syntax.defs[0].name_range.end = 999;
        assert!(!fits(&syntax, text));
    }

    #[test]
    fn keys_differ_by_language_and_test_flag() {
        let keys = [
            content_key(Language::Python, false, UTIL),
            content_key(Language::Python, true, UTIL),
            content_key(Language::JavaScript, false, UTIL),
            content_key(Language::Python, false, APP),
        ];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
