//! The shim process: found in the Mesa cache (or `EUFUZZ_MESA_SHIM`), started once and
//! reused for every request, started again after it dies. Its death is an answer, not an
//! error: a Mesa assertion or crash is a finding about the pass that was running.

use super::protocol::{Reply, read_reply, write_request};
use crate::{Error, Result};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, ErrorKind, Read, Seek, SeekFrom};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The script that builds Mesa and the shim, named in every "not built" message.
pub const BUILD_SCRIPT: &str = "scripts/mesa-build.sh";

/// Lines of the shim's stderr kept for a crash report.
const STDERR_LINES: usize = 40;

/// Where the shim is: `EUFUZZ_MESA_SHIM`, else `eufuzz-mesa-shim` in the cache directory
/// scripts/mesa-build.sh writes (`EUFUZZ_MESA_CACHE`, default `~/.cache/eufuzz-mesa`).
pub fn location() -> PathBuf {
    if let Some(p) = std::env::var_os("EUFUZZ_MESA_SHIM") {
        return PathBuf::from(p);
    }
    let cache = std::env::var_os("EUFUZZ_MESA_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = std::env::var_os("HOME").unwrap_or_else(|| ".".into());
            PathBuf::from(home).join(".cache/eufuzz-mesa")
        });
    cache.join("eufuzz-mesa-shim")
}

/// What one request gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Reply(Reply),
    /// The shim died while running the request (a Mesa assertion, a signal): `detail` is a
    /// stable name (`assert:brw_fs_copy_propagation.cpp:123`, `signal-11`), `stderr` the
    /// last lines it printed.
    Crashed {
        detail: String,
        stderr: String,
    },
    /// The shim gave no reply within the time limit and was killed.
    Hung,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The shim's stderr: an unlinked file opened for appending, emptied before each
    /// request, read after a crash. (No reader threads: a campaign's child process caps its
    /// memory with `RLIMIT_DATA`, under which it cannot map a thread's stack.)
    stderr: File,
}

/// A shim process, restarted on demand.
pub struct Shim {
    path: PathBuf,
    timeout: Duration,
    running: Option<Running>,
    /// How many times the process had to be started again after dying.
    pub restarts: u64,
}

/// A fresh, unlinked file for a shim's stderr.
fn stderr_file() -> std::io::Result<File> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!(
        "eufuzz-mesa-shim-stderr-{}-{n}",
        std::process::id()
    ));
    let f = OpenOptions::new()
        .read(true)
        .append(true)
        .create_new(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(f)
}

/// Waits up to `timeout` for `fd` to have something to read (or to be closed).
fn readable(fd: i32, timeout: Duration) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let ms = left.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: one pollfd, valid for the call.
        let n = unsafe { libc::poll(&mut p, 1, ms) };
        if n > 0 {
            return true;
        }
        let interrupted = n < 0 && std::io::Error::last_os_error().kind() == ErrorKind::Interrupted;
        if !interrupted || left.is_zero() {
            return false;
        }
    }
}

impl Shim {
    /// A shim at [`location`]; an error naming [`BUILD_SCRIPT`] when it is not built.
    pub fn open(timeout: Duration) -> Result<Shim> {
        Shim::open_at(location(), timeout)
    }

    /// A shim at `path`; an error naming [`BUILD_SCRIPT`] when there is none.
    pub fn open_at(path: PathBuf, timeout: Duration) -> Result<Shim> {
        if !path.is_file() {
            return Err(Error::Refused(format!(
                "the Mesa backend is not built: run {BUILD_SCRIPT} (it fetches Mesa 22.3.6, \
                 builds its Intel compiler and the shim into the cache); no shim at {}",
                path.display()
            )));
        }
        Ok(Shim {
            path,
            timeout,
            running: None,
            restarts: 0,
        })
    }

    /// The shim's pass names (`eufuzz-mesa-shim --list`).
    pub fn passes(&self) -> Result<Vec<String>> {
        let out = Command::new(&self.path)
            .arg("--list")
            .output()
            .map_err(|e| Error::io(&self.path, "run", e))?;
        Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect())
    }

    /// An error unless the shim runs `pass`, listing the passes it does run.
    pub fn ensure_pass(&self, pass: &str) -> Result<()> {
        let passes = self.passes()?;
        if passes.iter().any(|p| p == pass) {
            return Ok(());
        }
        Err(Error::Usage(format!(
            "the Mesa shim has no pass {pass}; it runs: {}",
            passes.join(" ")
        )))
    }

    fn start(&mut self) -> Result<&mut Running> {
        if self.running.is_none() {
            let stderr = stderr_file().map_err(|e| Error::io(&self.path, "start", e))?;
            let for_child = stderr
                .try_clone()
                .map_err(|e| Error::io(&self.path, "start", e))?;
            let mut command = Command::new(&self.path);
            command
                .arg("--serve")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::from(for_child));
            // A campaign kills a worker's child that runs over its timeout; the shim it
            // started must not live on (stuck in a pass, it would never read its closed
            // input). SAFETY: prctl is async-signal-safe and touches no memory.
            unsafe {
                command.pre_exec(|| {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
            let mut child = command
                .spawn()
                .map_err(|e| Error::io(&self.path, "start", e))?;
            let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
                unreachable!("stdin and stdout were asked for as pipes");
            };
            self.running = Some(Running {
                child,
                stdin,
                stdout: BufReader::new(stdout),
                stderr,
            });
        }
        Ok(self.running.as_mut().expect("just started"))
    }

    /// Runs `pass` on the program `text`.
    pub fn run(&mut self, pass: &str, text: &str) -> Result<Answer> {
        let timeout = self.timeout;
        let r = self.start()?;
        // Only this request's stderr is kept (the file is opened for appending).
        let _ = r.stderr.set_len(0);
        let reply = match write_request(&mut r.stdin, pass, text) {
            Ok(()) => {
                let waiting = r.stdout.buffer().is_empty();
                if waiting && !readable(r.stdout.get_ref().as_raw_fd(), timeout) {
                    self.stop();
                    self.restarts += 1;
                    return Ok(Answer::Hung);
                }
                read_reply(&mut r.stdout)
            }
            Err(e) => Err(e),
        };
        match reply {
            Ok(reply) => Ok(Answer::Reply(reply)),
            Err(_) => {
                let (status, stderr) = self.stop();
                self.restarts += 1;
                Ok(Answer::Crashed {
                    detail: crash_detail(status, &stderr),
                    stderr,
                })
            }
        }
    }

    /// Kills the process (if running) and returns how it ended and its last stderr lines.
    fn stop(&mut self) -> (Option<std::process::ExitStatus>, String) {
        let Some(mut r) = self.running.take() else {
            return (None, String::new());
        };
        let status = match r.child.try_wait() {
            Ok(Some(s)) => Some(s),
            _ => {
                // Give a dying process a moment to finish writing its assertion message.
                std::thread::sleep(Duration::from_millis(20));
                match r.child.try_wait() {
                    Ok(Some(s)) => Some(s),
                    _ => {
                        let _ = r.child.kill();
                        r.child.wait().ok()
                    }
                }
            }
        };
        let mut text = String::new();
        let _ = r.stderr.seek(SeekFrom::Start(0));
        let _ = r.stderr.read_to_string(&mut text);
        let lines: Vec<&str> = text.lines().collect();
        let kept = lines[lines.len().saturating_sub(STDERR_LINES)..].join("\n");
        (status, kept)
    }
}

impl Drop for Shim {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A stable name for a crash: the file and line of a failed assertion (glibc prints
/// `PROG: FILE:LINE: FUNC: Assertion `COND' failed.`), else the signal or exit status.
pub fn crash_detail(status: Option<std::process::ExitStatus>, stderr: &str) -> String {
    for line in stderr.lines() {
        if line.contains("Assertion") && line.contains("failed") {
            let mut parts = line.split(": ");
            let _program = parts.next();
            if let Some(place) = parts.next() {
                let file = place.rsplit('/').next().unwrap_or(place);
                return format!("assert:{file}");
            }
        }
    }
    use std::os::unix::process::ExitStatusExt;
    match status {
        Some(s) if s.signal().is_some() => format!("signal-{}", s.signal().unwrap_or(0)),
        Some(s) => format!("exit-{}", s.code().unwrap_or(-1)),
        None => "died".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_assertion_is_named_by_file_and_line() {
        let stderr = "eufuzz-mesa-shim: ../src/intel/compiler/brw_fs_cse.cpp:270: \
                      bool f(): Assertion `x' failed.";
        assert_eq!(crash_detail(None, stderr), "assert:brw_fs_cse.cpp:270");
    }

    #[test]
    fn a_missing_shim_names_the_build_script() {
        let missing = PathBuf::from("/nonexistent/eufuzz-mesa-shim");
        let Err(e) = Shim::open_at(missing, Duration::from_secs(1)) else {
            panic!("a missing shim opened");
        };
        assert!(e.to_string().contains(BUILD_SCRIPT), "{e}");
    }
}
