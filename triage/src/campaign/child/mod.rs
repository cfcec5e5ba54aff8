//! Crash isolation: each campaign worker runs its cases in a child process — the `eufuzz`
//! binary re-executed in its hidden `campaign-worker` mode — that stays alive from case to
//! case and is started again when it dies, as libFuzzer's fork mode and AFL's fork server
//! do. A stack overflow, an abort, a runaway allocation (the child's data segment is
//! capped with `RLIMIT_DATA`) or a kill for running over the case timeout ends only the
//! child; the worker files the case as a failure (`crash/PASS/KIND`, `hang/PASS/cpu-time`)
//! and goes on. PASS is the pass the child was in, which it keeps in a shared phase file
//! ([`super::phase`]) rather than reporting over the pipe: that costs no system call per
//! pass, and survives the child.
//!
//! Modules: [`wire`] (the framed protocol), [`serve`] (the child's side).

pub mod serve;
pub mod wire;

use super::Settings;
use super::case::{Death, Found, Input, Tally};
use super::phase;
use super::timing::Overrun;
use crate::error::{Error, Result};
use std::io::{BufReader, BufWriter, Read};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::thread::JoinHandle;
use std::time::Duration;

/// The hidden subcommand a child runs.
pub const WORKER_COMMAND: &str = "campaign-worker";

/// Bytes of stderr a child's death is judged by (its last lines).
const STDERR_TAIL: usize = 4096;

/// How to start a campaign's children.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The `eufuzz` binary.
    pub exe: PathBuf,
    pub settings: Settings,
    /// Each child's memory cap in bytes.
    pub memory: u64,
}

/// A running child, serving one worker.
pub struct Child {
    process: std::process::Child,
    /// `None` once closed, which asks the child to exit.
    to: Option<BufWriter<ChildStdin>>,
    from: BufReader<ChildStdout>,
    /// Collects the end of the child's stderr until it closes.
    stderr: Option<JoinHandle<Vec<u8>>>,
    phase: PathBuf,
}

/// The child stopped answering (it died, or wrote something that is not a reply).
#[derive(Debug)]
pub struct Gone(String);

impl Child {
    /// Starts a child that keeps its phase in `phase`.
    pub fn spawn(launch: &Launch, phase: &Path) -> Result<Child> {
        phase::create(phase)?;
        let mut process = Command::new(&launch.exe)
            .arg(WORKER_COMMAND)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::io(&launch.exe, "start a campaign worker process", e))?;
        let taken = (
            process.stdin.take(),
            process.stdout.take(),
            process.stderr.take(),
        );
        let (Some(stdin), Some(stdout), Some(mut stderr)) = taken else {
            unreachable!("the three streams were asked for as pipes");
        };
        let stderr = std::thread::Builder::new()
            .name("eufuzz-child-stderr".into())
            .spawn(move || tail(&mut stderr))
            .map_err(|e| Error::io(&launch.exe, "watch a campaign worker process", e))?;
        let mut child = Child {
            process,
            to: Some(BufWriter::new(stdin)),
            from: BufReader::new(stdout),
            stderr: Some(stderr),
            phase: phase.to_path_buf(),
        };
        let start = wire::Start {
            settings: launch.settings.clone(),
            phase: phase.to_path_buf(),
            memory: launch.memory,
        };
        wire::write(child.to(), &start, &[])
            .map_err(|e| Error::io(&launch.exe, "start a campaign worker process", e))?;
        Ok(child)
    }

    fn to(&mut self) -> &mut BufWriter<ChildStdin> {
        self.to.as_mut().expect("open until the child is dropped")
    }

    /// The child's process id (to kill it when its case runs over the timeout).
    pub fn pid(&self) -> u32 {
        self.process.id()
    }

    /// Runs one case in the child.
    pub fn run(&mut self, input: &Input) -> Result<(Tally, Option<Found>), Gone> {
        let (request, payload) = wire::Request::of(input);
        wire::write(self.to(), &request, payload).map_err(|e| Gone(e.to_string()))?;
        match wire::read::<wire::Reply>(&mut self.from) {
            Ok(Some((reply, payload))) => Ok(reply.complete(&payload, input)),
            Ok(None) => Err(Gone("the child closed its output".into())),
            Err(e) => Err(Gone(e.to_string())),
        }
    }

    /// Ends the child (killed if it still runs) and says how it died: `hang` when it was
    /// killed for running over `cap`, otherwise a crash of the kind its exit status and
    /// stderr show.
    pub fn reap(mut self, gone: Gone, timed_out: Option<Overrun>) -> Death {
        let _ = self.process.kill();
        let status = self.process.wait();
        let stderr = self
            .stderr
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default();
        let stderr = String::from_utf8_lossy(&stderr);
        let (signal, code) = match &status {
            Ok(s) => (s.signal(), s.code()),
            Err(_) => (None, None),
        };
        // The runtime's own words when it reported the death, else the last line.
        let last = stderr
            .lines()
            .find(|l| l.contains("has overflowed its stack") || l.contains("memory allocation of"))
            .or_else(|| stderr.lines().rev().find(|l| !l.trim().is_empty()));
        let mut how = match (signal, code) {
            (Some(s), _) => format!("signal {s}"),
            (None, Some(c)) => format!("exit code {c}"),
            _ => gone.0,
        };
        if let Some(l) = last {
            how.push_str(&format!(": {}", l.trim()));
        }
        let (verdict, kind) = match timed_out {
            Some(o) => ("hang", o.clock.to_string()),
            None => ("crash", kind_of(signal, code, &stderr)),
        };
        Death {
            verdict,
            kind,
            phase: phase::read(&self.phase),
            how,
            cap: timed_out.map(|o| o.cap).unwrap_or_default(),
        }
    }
}

impl Drop for Child {
    /// A child no longer wanted is asked to exit (its input closed), so that it ends as a
    /// process normally does — an instrumented build writes its coverage profile at exit —
    /// and killed if it has not after [`EXIT_GRACE`] (it may be stuck in a case); then
    /// waited for, so none outlives its campaign or lingers as a zombie.
    fn drop(&mut self) {
        drop(self.to.take());
        let deadline = std::time::Instant::now() + EXIT_GRACE;
        while matches!(self.process.try_wait(), Ok(None)) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// How long a dropped child may take to exit by itself.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// Reads `r` to its end, keeping the last [`STDERR_TAIL`] bytes.
fn tail(r: &mut impl Read) -> Vec<u8> {
    let mut kept = vec![];
    let mut buf = [0u8; 4096];
    while let Ok(n) = r.read(&mut buf) {
        if n == 0 {
            break;
        }
        kept.extend_from_slice(&buf[..n]);
        if kept.len() > 2 * STDERR_TAIL {
            kept.drain(..kept.len() - STDERR_TAIL);
        }
    }
    kept
}

/// The kind of crash an exit status and the end of stderr show: Rust's runtime reports a
/// stack overflow and a failed allocation on stderr before it aborts.
pub fn kind_of(signal: Option<i32>, code: Option<i32>, stderr: &str) -> String {
    if stderr.contains("has overflowed its stack") {
        "stack-overflow".into()
    } else if stderr.contains("memory allocation of") {
        "out-of-memory".into()
    } else {
        match (signal, code) {
            (Some(libc::SIGABRT), _) => "abort".into(),
            (Some(s), _) => format!("signal-{s}"),
            (None, Some(c)) => format!("exit-{c}"),
            (None, None) => "unknown".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crashes_are_told_apart_by_status_and_stderr() {
        let overflow =
            "\nthread 'main' has overflowed its stack\nfatal runtime error: stack overflow\n";
        assert_eq!(
            kind_of(Some(libc::SIGABRT), None, overflow),
            "stack-overflow"
        );
        let oom = "memory allocation of 1073741824 bytes failed\n";
        assert_eq!(kind_of(Some(libc::SIGABRT), None, oom), "out-of-memory");
        assert_eq!(kind_of(Some(libc::SIGABRT), None, ""), "abort");
        assert_eq!(kind_of(Some(libc::SIGSEGV), None, ""), "signal-11");
        assert_eq!(kind_of(None, Some(101), "panicked"), "exit-101");
    }

    #[test]
    fn only_the_end_of_stderr_is_kept() {
        let long: Vec<u8> = (0..50_000u32).map(|i| (i % 251) as u8).collect();
        let kept = tail(&mut &long[..]);
        assert!(kept.len() >= STDERR_TAIL && kept.len() <= 2 * STDERR_TAIL);
        assert!(long.ends_with(&kept));
    }
}
