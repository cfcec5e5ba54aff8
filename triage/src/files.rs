//! Reading inputs and writing outputs so that nothing a user wrote or found is lost:
//! every write goes to a temporary file in the same directory and is renamed into place.

use crate::error::{Error, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Reads a text file, describing failures with the path.
pub fn read_text(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| Error::io(path, "read", e))
}

/// Writes `contents` to `path` atomically: a reader sees the old file or the new one, never
/// a half-written one, and a crash mid-write leaves the old file intact.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    let tmp = temporary(path, "tmp");
    let result = (|| -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        Error::io(path, "write", e)
    })
}

/// A temporary name beside `path` that no other writer of this process or another uses at
/// the same time: the process id and a per-process counter (threads of one campaign may
/// write the same file name at once).
fn temporary(path: &Path, tag: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    path.with_file_name(format!(
        ".{name}.{tag}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Writes `contents` to `path` atomically unless `path` exists, which is left untouched
/// (what a campaign found is never overwritten). Returns whether the file was written.
pub fn write_new(path: &Path, contents: &[u8]) -> Result<bool> {
    let tmp = temporary(path, "new");
    let result = (|| -> std::io::Result<bool> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        // A hard link, unlike a rename, fails when the target exists.
        match fs::hard_link(&tmp, path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(e),
        }
    })();
    let _ = fs::remove_file(&tmp);
    result.map_err(|e| Error::io(path, "write", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_contents_and_leaves_no_temp() {
        let dir = std::env::temp_dir().join(format!("eufuzz-files-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.eu");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(read_text(&path).unwrap(), "two");
        let leftovers: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(leftovers.len(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn new_files_are_never_overwritten() {
        let dir = std::env::temp_dir().join(format!("eufuzz-files-new-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.eu");
        assert!(write_new(&path, b"one").unwrap());
        assert!(!write_new(&path, b"two").unwrap());
        assert_eq!(read_text(&path).unwrap(), "one");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }
}
