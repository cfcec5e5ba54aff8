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

/// Copies `from` to `to` atomically, permissions included: `to` is either absent, the old
/// file or the whole copy, never a half-written one (an interrupted copy leaves only a
/// hidden temporary beside it, which [`is_temporary`] recognises).
pub fn copy_atomic(from: &Path, to: &Path) -> Result<()> {
    let tmp = temporary(to, "tmp");
    let result = (|| -> std::io::Result<()> {
        fs::copy(from, &tmp)?;
        fs::File::open(&tmp)?.sync_all()?;
        fs::rename(&tmp, to)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        Error::io(to, "write", e)
    })
}

/// Whether a file name is one of the temporaries [`write_atomic`] and [`copy_atomic`] write
/// before renaming (left behind only by a process killed mid-write).
pub fn is_temporary(name: &str) -> bool {
    name.starts_with('.') && name.contains(".tmp-")
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
    fn atomic_copy_keeps_permissions_and_leaves_no_temp() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("eufuzz-files-copy-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let from = dir.join("tool");
        fs::write(&from, "#!/bin/sh\n").unwrap();
        fs::set_permissions(&from, fs::Permissions::from_mode(0o755)).unwrap();
        let to = dir.join("copy");
        copy_atomic(&from, &to).unwrap();
        assert_eq!(
            fs::metadata(&to).unwrap().permissions().mode() & 0o777,
            0o755
        );
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 2);
        assert!(is_temporary(".copy.tmp-12-0") && !is_temporary("copy"));
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
