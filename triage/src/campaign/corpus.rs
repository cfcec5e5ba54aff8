//! The feedback corpus: generator inputs (`arbitrary` bytes) that reached a semantic feature
//! no earlier case of their worker had reached (see [`super::features`]).
//!
//! On disk an entry is `DIR/NAME.bytes`, NAME the 16 hex digits of the FNV-1a hash of its
//! bytes, so an entry has one name wherever it is: the campaign's own `OUT/corpus/`, a
//! corpus shared between nights (`--corpus DIR`, read at the start, new entries written
//! back), or a merge of shards (the union of their files). Entries are written atomically
//! and never overwritten, without waiting for the disk ([`crate::files::write_new_unsynced`]):
//! early in a campaign nearly every case adds one, and waiting for each held its worker
//! about a millisecond. [`sync`] waits for all of them at once, before a checkpoint names
//! them. An entry holds the bytes its program's decoding read (the generator reads its
//! choices front to back, so that prefix decodes to the same program) — a few hundred
//! bytes, not a seed's 16 KiB.
//!
//! Determinism (same `--seed`, `--jobs`, shard and starting corpus → same cases): worker `w`
//! mutates only the *base* corpus (every entry there when the campaign started, sorted by
//! name) and the entries `w` itself added, in the order it added them. Entries other
//! workers add become visible at a time that depends on thread timing, so a worker never
//! reads them during the campaign; they are on disk for the next one (`--corpus`) and for
//! `--resume`, whose checkpoint records each worker's entries and known features, so a
//! resumed campaign runs the cases the uninterrupted one would have.

use super::features::fnv1a;
use crate::error::{Error, Result};
use crate::files::{sync_filesystem, write_new_unsynced};
use std::path::Path;
use std::sync::Arc;

/// The corpus directory in a campaign's output directory.
pub const DIR: &str = "corpus";

/// The extension of an entry's file.
pub const EXTENSION: &str = "bytes";

/// One corpus entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 16 hex digits: the FNV-1a hash of the bytes.
    pub name: String,
    pub bytes: Arc<Vec<u8>>,
}

/// The name of an entry holding `bytes`.
pub fn name_of(bytes: &[u8]) -> String {
    format!("{:016x}", fnv1a(bytes))
}

impl Entry {
    pub fn new(bytes: Vec<u8>) -> Entry {
        Entry {
            name: name_of(&bytes),
            bytes: Arc::new(bytes),
        }
    }
}

/// The entries in `dir` (none when it does not exist): every regular file whose name does
/// not start with a dot (a libFuzzer corpus names its files differently; each file is an
/// entry whatever its name), named by their contents, sorted by name, duplicates dropped.
pub fn load(dir: &Path) -> Result<Vec<Entry>> {
    let list = match std::fs::read_dir(dir) {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(Error::io(dir, "list", e)),
    };
    let mut out = vec![];
    for e in list {
        let e = e.map_err(|e| Error::io(dir, "list", e))?;
        let path = e.path();
        if e.file_name().to_string_lossy().starts_with('.') || !path.is_file() {
            continue;
        }
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, "read", e))?;
        out.push(Entry::new(bytes));
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out.dedup_by(|a, b| a.name == b.name);
    Ok(out)
}

/// The entry `NAME.bytes` of `dir`, checked against its name.
pub fn read(dir: &Path, name: &str) -> Result<Entry> {
    let path = dir.join(format!("{name}.{EXTENSION}"));
    let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, "read", e))?;
    let e = Entry::new(bytes);
    if e.name != name {
        return Err(Error::Malformed(format!(
            "{}: contents do not match the name (hash {})",
            path.display(),
            e.name
        )));
    }
    Ok(e)
}

/// Writes `e` into `dir` (created if need be) unless it is there; returns whether it was
/// written. It is on disk after the next [`sync`] of `dir`.
pub fn write(dir: &Path, e: &Entry) -> Result<bool> {
    std::fs::create_dir_all(dir).map_err(|err| Error::io(dir, "create", err))?;
    write_new_unsynced(&dir.join(format!("{}.{EXTENSION}", e.name)), &e.bytes)
}

/// Waits until every entry written into `dir` is on disk (a directory not made yet holds
/// none).
pub fn sync(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        sync_filesystem(dir)?;
    }
    Ok(())
}

/// Entries in `dir` (files `*.bytes`), 0 when it does not exist.
pub fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |l| {
        l.filter_map(|e| e.ok())
            .filter(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                !n.starts_with('.') && n.ends_with(&format!(".{EXTENSION}"))
            })
            .count()
    })
}

/// Copies every entry of `from` into `to` (the union of two corpora); returns how many
/// were new there.
pub fn union_into(from: &Path, to: &Path) -> Result<usize> {
    let mut n = 0;
    for e in load(from)? {
        if write(to, &e)? {
            n += 1;
        }
    }
    sync(to)?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_named_by_contents_and_read_back_sorted() {
        let dir = std::env::temp_dir().join(format!("eufuzz-corpus-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(load(&dir).unwrap().is_empty());
        let a = Entry::new(vec![1, 2, 3]);
        let b = Entry::new(vec![9; 40]);
        assert_eq!(a.name.len(), 16);
        assert!(write(&dir, &a).unwrap());
        assert!(write(&dir, &b).unwrap());
        assert!(!write(&dir, &a).unwrap());
        // A file under another name is an entry too, named by its contents.
        std::fs::write(dir.join("crash-1234"), [1u8, 2, 3]).unwrap();
        std::fs::write(dir.join(".hidden"), [5u8]).unwrap();
        let all = load(&dir).unwrap();
        let mut want = vec![a.clone(), b.clone()];
        want.sort_by(|x, y| x.name.cmp(&y.name));
        assert_eq!(all, want);
        assert_eq!(read(&dir, &a.name).unwrap(), a);
        std::fs::write(dir.join(format!("{}.bytes", "00000000deadbeef")), [7u8]).unwrap();
        assert!(read(&dir, "00000000deadbeef").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
