//! One writer per output directory. A campaign, `merge` and `rebucket` hold
//! `DIR/.eufuzz-lock` (the holder's pid, host and command) while they write there, so a
//! second writer refuses instead of both writing (two campaigns on one `--out` kept one
//! `stats.json` and broke the per-bucket cap). A lock left by a process that died (same
//! host, pid not alive) is taken over, with a note.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The lock file's name inside the directory.
pub const LOCK_FILE: &str = ".eufuzz-lock";

/// A held lock; dropping it removes the lock file.
#[derive(Debug)]
pub struct OutLock {
    path: PathBuf,
    /// What was taken over, when the previous holder had died.
    pub note: Option<String>,
}

/// Who holds a lock, as its file says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    pub pid: u32,
    pub host: String,
    pub command: String,
}

impl Holder {
    fn me(command: &str) -> Holder {
        Holder {
            pid: std::process::id(),
            host: hostname(),
            command: command.to_string(),
        }
    }

    fn text(&self) -> String {
        format!(
            "pid {}\nhost {}\ncommand {}\n",
            self.pid, self.host, self.command
        )
    }

    /// The holder a lock file names, if it is one this module wrote.
    pub fn parse(text: &str) -> Option<Holder> {
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
                .map(str::to_string)
        };
        Some(Holder {
            pid: field("pid")?.parse().ok()?,
            host: field("host")?,
            command: field("command")?,
        })
    }
}

/// This machine's name (what tells a lock of another machine on a shared disk apart).
fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most that much.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    if ok && end > 0 {
        String::from_utf8_lossy(&buf[..end]).into_owned()
    } else {
        "unknown-host".into()
    }
}

/// Whether a process with this pid exists on this machine.
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Writes the lock file only if none exists (create_new is atomic).
fn create(path: &Path, holder: &Holder) -> std::io::Result<bool> {
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(mut f) => {
            f.write_all(holder.text().as_bytes())?;
            f.sync_all()?;
            Ok(true)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e),
    }
}

impl OutLock {
    /// [`OutLock::acquire`] on `dir`, created first if missing (a new campaign's or merge's
    /// output).
    pub fn acquire_creating(dir: &Path, command: &str) -> Result<OutLock> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, "create", e))?;
        OutLock::acquire(dir, command)
    }

    /// Takes the lock of the existing directory `dir` for `command`, or refuses (exit 2)
    /// naming the holder.
    pub fn acquire(dir: &Path, command: &str) -> Result<OutLock> {
        if !dir.is_dir() {
            return Err(Error::Refused(format!(
                "{}: no such directory",
                dir.display()
            )));
        }
        let path = dir.join(LOCK_FILE);
        let me = Holder::me(command);
        let mut note = None;
        // Twice at most: a stale lock is removed once, then taken like a free one (if
        // another process took it in between, that one wins and this one refuses).
        for _ in 0..2 {
            if create(&path, &me).map_err(|e| Error::io(&path, "create", e))? {
                return Ok(OutLock { path, note });
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let holder = Holder::parse(&text).ok_or_else(|| {
                Error::Refused(format!(
                    "{}: a lock file this eufuzz cannot read; delete it if nothing writes to {}",
                    path.display(),
                    dir.display()
                ))
            })?;
            if holder.host != me.host || alive(holder.pid) {
                return Err(Error::Refused(format!(
                    "{} is in use: `eufuzz {}` (pid {} on {}) writes there; wait for it to end, or choose another directory (if that process is gone, delete {})",
                    dir.display(),
                    holder.command,
                    holder.pid,
                    holder.host,
                    path.display()
                )));
            }
            std::fs::remove_file(&path).map_err(|e| Error::io(&path, "remove", e))?;
            note = Some(format!(
                "{}: took over the lock of `eufuzz {}` (pid {}), which ended without releasing it",
                dir.display(),
                holder.command,
                holder.pid
            ));
        }
        Err(Error::Refused(format!(
            "{}: another process took the lock first",
            dir.display()
        )))
    }
}

impl Drop for OutLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("eufuzz-lock-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_second_writer_refuses_until_the_first_releases() {
        let dir = scratch("second");
        let first = OutLock::acquire_creating(&dir, "campaign").unwrap();
        assert!(first.note.is_none());
        let text = std::fs::read_to_string(dir.join(LOCK_FILE)).unwrap();
        assert_eq!(Holder::parse(&text), Some(Holder::me("campaign")));
        let e = OutLock::acquire(&dir, "merge").unwrap_err();
        assert!(matches!(e, Error::Refused(_)));
        assert!(e.to_string().contains("`eufuzz campaign` (pid "), "{e}");
        drop(first);
        assert!(!dir.join(LOCK_FILE).exists());
        OutLock::acquire(&dir, "merge").unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_dead_holders_lock_is_taken_over_and_another_hosts_is_not() {
        let dir = scratch("stale");
        std::fs::create_dir_all(&dir).unwrap();
        // Pids are below 2^22 on Linux: this one cannot be alive.
        let dead = Holder {
            pid: 999_999_999,
            ..Holder::me("campaign")
        };
        std::fs::write(dir.join(LOCK_FILE), dead.text()).unwrap();
        let lock = OutLock::acquire(&dir, "rebucket").unwrap();
        assert!(lock.note.as_deref().unwrap().contains("pid 999999999"));
        drop(lock);
        let elsewhere = Holder {
            host: format!("{}-other", hostname()),
            ..dead
        };
        std::fs::write(dir.join(LOCK_FILE), elsewhere.text()).unwrap();
        assert!(OutLock::acquire(&dir, "rebucket").is_err());
        std::fs::write(dir.join(LOCK_FILE), "garbage").unwrap();
        assert!(OutLock::acquire(&dir, "rebucket").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
