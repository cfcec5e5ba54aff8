//! How long cases take, and what that makes of them: the case timeout adapts to the
//! measured case time — [`FACTOR`] × the median of the workers' recent cases, at least
//! [`MIN_CAP`], at most `--case-timeout` — so a compiler that loops forever is reported
//! within seconds, not only after the fixed cap; a case that finishes but took more than
//! [`SLOW_FACTOR`] × the median is counted as slow and kept in the statistics.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::time::Duration;

/// Which clock a hang ran over: the child's CPU time on the case (what the timeout
/// measures, so a loaded machine, which slows every case down without making one spin,
/// files no hang), or wall-clock time past `--case-timeout` (a child that stopped running
/// altogether).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    pub cap: Duration,
    /// `cpu-time` or `wall-clock`: the last part of the hang's signature.
    pub clock: &'static str,
}

/// The CPU time (user and system) process `pid` has used, from `/proc/PID/stat`; `None`
/// when it cannot be read (the process is gone).
pub fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces: state is
    // field 3, utime and stime fields 14 and 15 (proc(5)).
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    // SAFETY: sysconf has no memory effects.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    Some(Duration::from_secs_f64((utime + stime) as f64 / ticks))
}

/// The timeout is this many times the median case time.
pub const FACTOR: f64 = 50.0;
/// The timeout is never shorter (a loaded machine, a slow device).
pub const MIN_CAP: Duration = Duration::from_secs(1);
/// A case the adaptive timeout killed runs again with this many times that timeout (at most
/// `--case-timeout`) before it is filed as a hang: a case that is only slow — an
/// instrumented coverage build runs every case about eight times slower, while the
/// timeout's floor stays [`MIN_CAP`] — finishes then, and a loop is still reported
/// within seconds.
pub const CONFIRM_FACTOR: u32 = 4;

/// The timeout of a case's second run (see [`CONFIRM_FACTOR`]).
pub fn confirm_cap(cap: Duration, most: Duration) -> Duration {
    (cap * CONFIRM_FACTOR).min(most)
}

/// A finished case over this many times the median is slow: it would have been killed as a
/// hang but for the timeout's floor of [`MIN_CAP`].
pub const SLOW_FACTOR: f64 = 50.0;
/// Recent case times kept per worker.
const RECENT: usize = 256;
/// Case times needed before the median is trusted (until then the timeout is the cap).
const MIN_SAMPLES: usize = 8;
/// Slow cases kept in the statistics per worker (all are counted).
pub const KEPT_SLOW: usize = 8;

/// A worker's recent case times, in seconds.
#[derive(Debug, Default)]
pub struct Recent(VecDeque<f32>);

impl Recent {
    /// Adds a case's time.
    pub fn push(&mut self, seconds: f64) {
        if self.0.len() == RECENT {
            self.0.pop_front();
        }
        self.0.push_back(seconds as f32);
    }

    /// The times, oldest first.
    pub fn values(&self) -> impl Iterator<Item = f32> + '_ {
        self.0.iter().copied()
    }
}

/// The median of the workers' recent case times, once there are enough of them.
pub fn median(mut all: Vec<f32>) -> Option<f64> {
    if all.len() < MIN_SAMPLES {
        return None;
    }
    let mid = all.len() / 2;
    let (_, m, _) = all.select_nth_unstable_by(mid, f32::total_cmp);
    Some(f64::from(*m))
}

/// The case timeout for a median case time (the cap itself while it is unknown).
pub fn timeout(median: Option<f64>, cap: Duration) -> Duration {
    match median {
        Some(m) => Duration::from_secs_f64(m * FACTOR).clamp(MIN_CAP.min(cap), cap),
        None => cap,
    }
}

/// Whether a finished case of `seconds` is slow for the median.
pub fn is_slow(seconds: f64, median: Option<f64>) -> bool {
    median.is_some_and(|m| seconds > m * SLOW_FACTOR)
}

/// A slow case, kept in `stats.json` (`slowest`): a fresh one replays with `eufuzz gen
/// --seed SEED`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Slow {
    pub seed: u64,
    pub seconds: f64,
    /// Whether it ran a mutated corpus entry.
    pub mutated: bool,
}

/// A case still running when the campaign ended, reported in `stats.json` (`unfinished`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Unfinished {
    pub worker: usize,
    pub seed: u64,
    /// How long it had run.
    pub seconds: f64,
    /// Where it was: a pass name, `generate` or `check`.
    pub phase: Option<String>,
}

/// Keeps `s` among the `KEPT_SLOW` slowest of `kept`.
pub fn keep(kept: &mut Vec<Slow>, s: Slow) {
    kept.push(s);
    kept.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    kept.truncate(KEPT_SLOW);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_run_gets_four_times_the_timeout_within_the_cap() {
        let most = Duration::from_secs(30);
        assert_eq!(confirm_cap(MIN_CAP, most), Duration::from_secs(4));
        assert_eq!(confirm_cap(Duration::from_secs(10), most), most);
    }

    #[test]
    fn cpu_time_counts_running_not_waiting() {
        // A process that only waits (as a case does while the machine is loaded and it is
        // not scheduled) gains no CPU time; one that spins does.
        let mut sleeper = std::process::Command::new("sleep")
            .arg("1")
            .spawn()
            .expect("sleep runs");
        let before = cpu_time(sleeper.id()).expect("a live process has a CPU time");
        std::thread::sleep(Duration::from_millis(300));
        let after = cpu_time(sleeper.id()).expect("still alive");
        assert!(
            after - before < Duration::from_millis(50),
            "{before:?} {after:?}"
        );
        let _ = sleeper.kill();
        let _ = sleeper.wait();
        let me = std::process::id();
        let start = cpu_time(me).unwrap();
        let spin = std::time::Instant::now();
        let target = start + Duration::from_millis(100);
        while cpu_time(me).unwrap() < target && spin.elapsed() < Duration::from_secs(20) {
            std::hint::black_box(spin.elapsed());
        }
        assert!(cpu_time(me).unwrap() >= target, "{:?}", spin.elapsed());
        assert_eq!(cpu_time(u32::MAX), None);
    }

    #[test]
    fn the_timeout_follows_the_median_within_its_bounds() {
        let cap = Duration::from_secs(30);
        let mut r = Recent::default();
        assert_eq!(median(r.values().collect()), None);
        assert_eq!(timeout(None, cap), cap);
        for ms in [3, 4, 5, 5, 6, 7, 900, 2] {
            r.push(f64::from(ms) / 1000.0);
        }
        let m = median(r.values().collect()).unwrap();
        assert!((m - 0.005).abs() < 1e-6, "{m}");
        // 50 × 5 ms is below the floor of 1 s.
        assert_eq!(timeout(Some(m), cap), MIN_CAP);
        assert_eq!(timeout(Some(0.1), cap), Duration::from_secs(5));
        assert_eq!(timeout(Some(2.0), cap), cap);
        // A cap below the floor wins.
        assert_eq!(
            timeout(Some(0.001), Duration::from_millis(500)),
            Duration::from_millis(500)
        );
        assert!(is_slow(0.9, Some(m)) && !is_slow(0.09, Some(m)) && !is_slow(9.0, None));
    }

    #[test]
    fn recent_times_are_bounded_and_the_slowest_kept() {
        let mut r = Recent::default();
        for i in 0..1000 {
            r.push(f64::from(i));
        }
        assert_eq!(r.values().count(), RECENT);
        let mut kept = vec![];
        for i in 0..20u64 {
            keep(
                &mut kept,
                Slow {
                    seed: i,
                    seconds: (i % 7) as f64,
                    mutated: false,
                },
            );
        }
        assert_eq!(kept.len(), KEPT_SLOW);
        assert!(kept.iter().all(|s| s.seconds >= 4.0));
    }
}
