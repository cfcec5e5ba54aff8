//! Building one revision: check it out in the cache's worktree, run the build command
//! there with the shared target directory, and keep the binary it made. Also runs that
//! binary's `check`. Every child process is waited for in a way Ctrl-C can stop, and the
//! worktree is removed however the run ends, so an interrupted bisection leaves no stray
//! worktree and no half-written cache entry.

use super::cache::Cache;
use super::git::git;
use crate::error::{Error, Result};
use crate::outlock::OutLock;
use std::fs;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How to build a revision.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// Run with `sh -c` in the revision's worktree, `CARGO_TARGET_DIR` set to the cache's
    /// shared target directory.
    pub command: String,
    /// The binary the command makes: relative to the worktree, `{target}` standing for the
    /// shared target directory.
    pub binary: String,
}

/// What building a revision gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Built {
    /// The revision's binary; `true` when it came from the cache.
    Binary(PathBuf, bool),
    /// The build failed (the reason and where its log is): the revision is skipped.
    Failed(String),
}

/// Builds revisions of one repository into one cache, holding the cache's lock and the
/// worktree until dropped.
pub struct Builder {
    repo: PathBuf,
    cache: Cache,
    recipe: Recipe,
    stop: Arc<AtomicBool>,
    worktree: Option<PathBuf>,
    _lock: OutLock,
}

impl Builder {
    /// Takes the cache (created if missing; one bisection at a time per cache) and removes
    /// a worktree a killed run left there.
    pub fn new(repo: &Path, cache: &Path, recipe: Recipe, stop: Arc<AtomicBool>) -> Result<Self> {
        let lock = OutLock::acquire_creating(cache, "eufuzz bisect")?;
        let dir = fs::canonicalize(cache).map_err(|e| Error::io(cache, "resolve", e))?;
        let repo = fs::canonicalize(repo).map_err(|e| Error::io(repo, "resolve", e))?;
        let b = Builder {
            repo,
            cache: Cache { dir },
            recipe,
            stop,
            worktree: None,
            _lock: lock,
        };
        b.remove_worktree();
        Ok(b)
    }

    /// The cache this builder fills.
    pub fn cache(&self) -> &Cache {
        &self.cache
    }

    /// The binary of commit `hash`: from the cache, or built now.
    pub fn build(&mut self, hash: &str) -> Result<Built> {
        let cached = self.cache.binary(hash);
        if cached.is_file() {
            self.cache.touch(hash);
            return Ok(Built::Binary(cached, true));
        }
        let wt = self.checkout(hash)?;
        let log_path = self.cache.log(hash);
        let logs = log_path.parent().unwrap_or(&self.cache.dir);
        fs::create_dir_all(logs).map_err(|e| Error::io(logs, "create", e))?;
        let log = fs::File::create(&log_path).map_err(|e| Error::io(&log_path, "create", e))?;
        let err = log
            .try_clone()
            .map_err(|e| Error::io(&log_path, "write", e))?;
        let child = Command::new("sh")
            .arg("-c")
            .arg(&self.recipe.command)
            .current_dir(&wt)
            .env("CARGO_TARGET_DIR", self.cache.target())
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .process_group(0)
            .spawn()
            .map_err(|e| Error::io(&wt, "run the build command in", e))?;
        let status = wait(child, &self.stop)?;
        if !status.success() {
            return Ok(Built::Failed(format!(
                "does not build ({}; log: {})",
                describe(status),
                log_path.display()
            )));
        }
        let target = self.cache.target().display().to_string();
        let made = wt.join(self.recipe.binary.replace("{target}", &target));
        if !made.is_file() {
            return Ok(Built::Failed(format!(
                "the build made no {} (log: {})",
                made.display(),
                log_path.display()
            )));
        }
        Ok(Built::Binary(self.cache.store(hash, &made)?, false))
    }

    /// The worktree, checked out clean at `hash` (created on first use; later revisions
    /// reuse it, so files a revision does not change keep their times and cargo rebuilds
    /// only what changed).
    fn checkout(&mut self, hash: &str) -> Result<PathBuf> {
        let wt = self.cache.worktree();
        let path = wt.display().to_string();
        if self.worktree.is_none() {
            self.worktree = Some(wt.clone());
            git(
                &self.repo,
                &["worktree", "add", "--detach", "--force", &path, hash],
            )?;
        } else {
            git(&wt, &["checkout", "--detach", "--force", "--quiet", hash])?;
            // Nothing a previous revision's build left may pass for this one's.
            git(&wt, &["clean", "-fdxq"])?;
        }
        Ok(wt)
    }

    /// Removes the worktree and git's record of it.
    fn remove_worktree(&self) {
        let wt = self.cache.worktree();
        let path = wt.display().to_string();
        let _ = git(&self.repo, &["worktree", "remove", "--force", &path]);
        let _ = fs::remove_dir_all(&wt);
        let _ = git(&self.repo, &["worktree", "prune"]);
    }
}

impl Drop for Builder {
    fn drop(&mut self) {
        if self.worktree.is_some() {
            self.remove_worktree();
        }
    }
}

/// Runs `binary check REPRO` and returns (exit code, stdout, stderr); `None` as the code
/// when a signal ended it.
pub fn run_check(
    binary: &Path,
    repro: &Path,
    stop: &AtomicBool,
) -> Result<(Option<i32>, String, String)> {
    let mut child = Command::new(binary)
        .arg("check")
        .arg(repro)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| Error::io(binary, "run", e))?;
    let out = reader(child.stdout.take());
    let err = reader(child.stderr.take());
    let status = wait(child, stop)?;
    let text = |h: std::thread::JoinHandle<String>| h.join().unwrap_or_default();
    Ok((status.code(), text(out), text(err)))
}

fn reader(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(mut p) = pipe {
            let mut bytes = vec![];
            let _ = p.read_to_end(&mut bytes);
            s = String::from_utf8_lossy(&bytes).into_owned();
        }
        s
    })
}

/// Waits for a child started in its own process group, killing the whole group and
/// refusing when `stop` is set (Ctrl-C): a build (cargo and its rustc processes) that would
/// run for minutes more must not outlive the interrupted bisection.
fn wait(mut child: Child, stop: &AtomicBool) -> Result<ExitStatus> {
    loop {
        if let Some(s) = child
            .try_wait()
            .map_err(|e| Error::io(Path::new("."), "wait", e))?
        {
            return Ok(s);
        }
        if stop.load(Ordering::SeqCst) {
            // SAFETY: signals the process group this child leads; no memory is involved.
            unsafe {
                libc::kill(-(child.id() as i32), libc::SIGKILL);
            }
            let _ = child.wait();
            return Err(Error::Refused("interrupted".into()));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn describe(status: ExitStatus) -> String {
    match status.code() {
        Some(c) => format!("exit code {c}"),
        None => "killed by a signal".into(),
    }
}
