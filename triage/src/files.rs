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
/// (what a campaign found is never overwritten), and waits until it is on disk. Returns
/// whether the file was written.
pub fn write_new(path: &Path, contents: &[u8]) -> Result<bool> {
    write_new_with(path, contents, true)
}

/// [`write_new`] without waiting for the disk: atomic all the same (a reader, or a process
/// that dies mid-write, sees the whole file or none), but an operating-system crash may
/// lose it until [`sync_filesystem`] has run. For files written by the thousand whose loss
/// costs only time, such as a campaign's corpus entries: waiting for the disk took about a
/// millisecond per file on the development machine (docs/profile.md, change 11).
pub fn write_new_unsynced(path: &Path, contents: &[u8]) -> Result<bool> {
    write_new_with(path, contents, false)
}

fn write_new_with(path: &Path, contents: &[u8], sync: bool) -> Result<bool> {
    let tmp = temporary(path, "new");
    let result = (|| -> std::io::Result<bool> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(contents)?;
        if sync {
            f.sync_all()?;
        }
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

/// Waits until everything written to the filesystem holding `dir` is on disk (`syncfs(2)`
/// on Linux, `sync(2)` elsewhere): one wait for all the files [`write_new_unsynced`] wrote,
/// before a file that names them (a campaign checkpoint) is written.
pub fn sync_filesystem(dir: &Path) -> Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let d = fs::File::open(dir).map_err(|e| Error::io(dir, "open", e))?;
        // SAFETY: `d` is an open descriptor for the duration of the call.
        if unsafe { libc::syncfs(d.as_raw_fd()) } != 0 {
            return Err(Error::io(dir, "sync", std::io::Error::last_os_error()));
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        // SAFETY: sync(2) takes no arguments and cannot fail.
        unsafe { libc::sync() };
    }
    Ok(())
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
        for (write, name) in [
            (write_new as fn(&Path, &[u8]) -> Result<bool>, "a.eu"),
            (write_new_unsynced, "b.eu"),
        ] {
            let path = dir.join(name);
            assert!(write(&path, b"one").unwrap());
            assert!(!write(&path, b"two").unwrap());
            assert_eq!(read_text(&path).unwrap(), "one");
        }
        sync_filesystem(&dir).unwrap();
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 2);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn syncing_a_missing_directory_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join(format!("eufuzz-files-none-{}", std::process::id()));
        let e = sync_filesystem(&dir).unwrap_err().to_string();
        assert!(e.contains(&dir.display().to_string()), "{e}");
    }
}
