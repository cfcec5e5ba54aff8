//! The bisection cache: one built `eufuzz` per commit (`bin/<hash>/eufuzz`), reused by
//! later runs, one cargo target directory shared by every build (so a revision rebuilds
//! only what changed since the last one), the build logs, and the one worktree a run builds
//! in. Kept under a size limit by removing what was used longest ago.

use crate::error::{Error, Result};
use crate::files::{copy_atomic, is_temporary};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A cache directory and where things live in it.
#[derive(Clone, Debug)]
pub struct Cache {
    pub dir: PathBuf,
}

impl Cache {
    /// `$XDG_CACHE_HOME/eufuzz/bisect`, else `~/.cache/eufuzz/bisect`, else
    /// `target/bisect-cache`: outside the repository, so `git clean` keeps the builds.
    pub fn default_dir() -> PathBuf {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")));
        match base {
            Some(b) => b.join("eufuzz").join("bisect"),
            None => PathBuf::from("target/bisect-cache"),
        }
    }

    /// The cached binary of a commit (present only when complete).
    pub fn binary(&self, hash: &str) -> PathBuf {
        self.dir.join("bin").join(hash).join("eufuzz")
    }

    /// The cargo target directory every build shares.
    pub fn target(&self) -> PathBuf {
        self.dir.join("target")
    }

    /// Where a run checks out the revision it builds (removed when the run ends).
    pub fn worktree(&self) -> PathBuf {
        self.dir.join("worktree")
    }

    /// The build log of a commit.
    pub fn log(&self, hash: &str) -> PathBuf {
        self.dir.join("logs").join(format!("{hash}.log"))
    }

    /// Keeps a built binary as `hash`'s, atomically (temporary + rename): an interrupted
    /// store leaves no entry a later run would take for a build.
    pub fn store(&self, hash: &str, built: &Path) -> Result<PathBuf> {
        let to = self.binary(hash);
        let parent = to.parent().unwrap_or(&self.dir);
        fs::create_dir_all(parent).map_err(|e| Error::io(parent, "create", e))?;
        copy_atomic(built, &to)?;
        Ok(to)
    }

    /// Marks a cached binary as just used (its modification time), so cleaning removes the
    /// binaries used longest ago first.
    pub fn touch(&self, hash: &str) {
        let _ = fs::File::options()
            .write(true)
            .open(self.binary(hash))
            .and_then(|f| f.set_modified(SystemTime::now()));
    }

    /// Removes cached binaries (and, last, the shared target directory) used longest ago
    /// until the cache holds at most `limit` bytes, never one of `keep`; also removes
    /// temporaries a killed run left. Returns what was removed.
    pub fn clean(&self, limit: u64, keep: &[String]) -> Result<Vec<PathBuf>> {
        let mut entries = vec![];
        let bin = self.dir.join("bin");
        if let Ok(list) = fs::read_dir(&bin) {
            for e in list.flatten() {
                sweep_temporaries(&e.path());
                let hash = e.file_name().to_string_lossy().into_owned();
                entries.push(Entry {
                    path: e.path(),
                    bytes: size(&e.path()),
                    used: modified(&self.binary(&hash)),
                    keep: keep.contains(&hash),
                });
            }
        }
        let target = self.target();
        if target.exists() {
            entries.push(Entry {
                bytes: size(&target),
                used: modified(&target),
                path: target,
                keep: false,
            });
        }
        let mut removed = vec![];
        for i in evict(&entries, limit) {
            let p = &entries[i].path;
            fs::remove_dir_all(p).map_err(|e| Error::io(p, "remove", e))?;
            removed.push(p.clone());
        }
        Ok(removed)
    }
}

/// One thing the cache may remove.
#[derive(Clone, Debug)]
pub struct Entry {
    pub path: PathBuf,
    pub bytes: u64,
    pub used: SystemTime,
    /// In use by this run: never removed.
    pub keep: bool,
}

/// Which entries to remove, used longest ago first, so that the rest hold at most `limit`
/// bytes (or as near as the kept entries allow).
pub fn evict(entries: &[Entry], limit: u64) -> Vec<usize> {
    let mut total: u64 = entries.iter().map(|e| e.bytes).sum();
    let mut order: Vec<usize> = (0..entries.len()).filter(|&i| !entries[i].keep).collect();
    order.sort_by_key(|&i| entries[i].used);
    let mut out = vec![];
    for i in order {
        if total <= limit {
            break;
        }
        total -= entries[i].bytes;
        out.push(i);
    }
    out
}

fn modified(p: &Path) -> SystemTime {
    fs::metadata(p)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// Bytes under a path (files only, symlinks not followed).
fn size(p: &Path) -> u64 {
    let Ok(m) = fs::symlink_metadata(p) else {
        return 0;
    };
    if !m.is_dir() {
        return m.len();
    }
    fs::read_dir(p)
        .map(|l| l.flatten().map(|e| size(&e.path())).sum())
        .unwrap_or(0)
}

fn sweep_temporaries(dir: &Path) {
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        if is_temporary(&e.file_name().to_string_lossy()) {
            let _ = fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn entry(bytes: u64, age: u64, keep: bool) -> Entry {
        Entry {
            path: PathBuf::new(),
            bytes,
            used: SystemTime::UNIX_EPOCH + Duration::from_secs(1000 - age),
            keep,
        }
    }

    #[test]
    fn oldest_go_first_until_under_the_limit_and_kept_ones_stay() {
        let entries = [
            entry(40, 10, false),
            entry(40, 30, false),
            entry(40, 20, false),
        ];
        assert_eq!(evict(&entries, 120), Vec::<usize>::new());
        assert_eq!(evict(&entries, 100), vec![1]);
        assert_eq!(evict(&entries, 50), vec![1, 2]);
        let kept = [entry(40, 30, true), entry(40, 10, false)];
        assert_eq!(evict(&kept, 0), vec![1]);
    }
}
