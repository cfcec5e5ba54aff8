//! `eufuzz campaign`: worker threads generate programs from disjoint seed streams and
//! check each against the reference; failures are bucketed, reduced on a thread of their
//! own and written as replayable `.eu` reproducers; the state is checkpointed so that a
//! stopped or killed campaign resumes. The calling thread collects: it files failures,
//! watches for cases over their wall-clock cap, shows progress and writes checkpoints.
//!
//! Modules: [`seeds`] (which seed each case runs), [`case`] (one case, panics caught),
//! [`worker`] (the threads), [`filing`] (buckets, reduction, reproducers), [`checkpoint`]
//! (resume), [`progress`] (display), [`stats`] (the `stats.json` data).

pub mod case;
pub mod checkpoint;
pub mod filing;
pub mod progress;
pub mod reducers;
pub mod seeds;
pub mod stats;
pub mod worker;

pub use case::{EXTRA_INPUT_SETS, signature};

use case::Setup;
use checkpoint::{Checkpoint, WorkerCheckpoint};
use filing::{Filed, Filing, Job, Memory};
use progress::{Display, Snapshot};
use seeds::Shard;
use serde::{Deserialize, Serialize};
use stats::{Counts, Sample, Stats};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

/// What to run: the settings a checkpoint keeps, so `--resume` runs the same campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Seconds to run in all (over every session of a resumed campaign).
    pub time: u64,
    pub seed: u64,
    /// Worker threads.
    pub jobs: u32,
    pub shard: Option<Shard>,
    /// The generator knobs (as `Knobs` prints them).
    pub knobs: String,
    pub zoo: Option<String>,
    pub spill_all: bool,
    pub baseline_o0: bool,
    /// Stop at the first failure (with `--zoo`: the first one the bug causes), for
    /// measuring time to detection.
    pub stop_on_failure: bool,
    /// Seconds spent reducing each failure that is written (0: no reduction).
    pub reduce_budget: u64,
    /// Reproducers written per bucket at most (later ones are counted, not written).
    pub per_bucket: usize,
    /// A case running longer than this (seconds) is recorded as a hang and its worker
    /// replaced.
    pub case_timeout: u64,
    /// Seconds between checkpoints.
    pub checkpoint_every: f64,
    /// Seconds between progress lines when stderr is not a terminal.
    pub progress_every: u64,
}

/// The compile options of `s` as `check` flags, written into reproducers so they replay.
pub fn options_line(s: &Settings) -> String {
    let mut parts = vec![];
    if s.spill_all {
        parts.push("--spill-all".to_string());
    }
    if s.baseline_o0 {
        parts.push("--baseline o0".to_string());
    }
    if let Some(z) = &s.zoo {
        parts.push(format!("--zoo {z}"));
    }
    parts.join(" ")
}

/// What every case runs with, from the settings.
pub fn setup(s: &Settings) -> Result<Setup, String> {
    Ok(Setup {
        knobs: oracle::generator::knobs::Knobs::parse(&s.knobs).map_err(|e| e.to_string())?,
        compile: compiler::pipeline::CompileOptions {
            spill_all: s.spill_all,
            baseline_o0: s.baseline_o0,
            zoo: match &s.zoo {
                None => Default::default(),
                Some(name) => compiler::zoo::select(name)?,
            },
            ..Default::default()
        },
        zoo: s.zoo.clone(),
        options_line: options_line(s),
    })
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// How long to wait for workers to finish their case once asked to stop.
const STOP_GRACE: Duration = Duration::from_millis(400);

/// The campaign as the collecting thread runs it.
struct Run<'a> {
    settings: &'a Settings,
    out: PathBuf,
    shared: Arc<Shared>,
    filing: Filing,
    handles: Vec<JoinHandle<()>>,
    tx: Sender<worker::Event>,
    rx: Receiver<worker::Event>,
    /// Seconds run by earlier sessions.
    before: f64,
    session: Instant,
    /// Executions of each worker when this session started.
    session_execs: Vec<u64>,
    started_unix: u64,
    timeline: Vec<Sample>,
    display: Display,
    /// With `--stop-on-failure`: a failure was found.
    found_one: bool,
}

use worker::Shared;

impl Run<'_> {
    fn elapsed(&self) -> f64 {
        self.before + self.session.elapsed().as_secs_f64()
    }

    fn counts(&self) -> Counts {
        let mut total = Counts::default();
        for w in 0..self.shared.slots.len() {
            total.add(&self.shared.slot(w).counts);
        }
        total
    }

    fn stats(&self) -> Stats {
        let counts = self.counts();
        let seconds = self.elapsed();
        Stats {
            seconds,
            execs_per_sec: counts.execs as f64 / seconds.max(1e-9),
            counts,
            failures: self.filing.memory.failures.clone(),
            jobs: self.settings.jobs,
            revision: stats::REVISION.to_string(),
            started_unix: self.started_unix,
            timeline: self.timeline.clone(),
            shard: self.settings.shard.map(|s| s.to_string()),
            zoo: self.settings.zoo.clone(),
        }
    }

    fn snapshot(&self) -> Snapshot {
        let mut counts = Counts::default();
        let mut per_worker = vec![];
        for w in 0..self.shared.slots.len() {
            let s = self.shared.slot(w);
            counts.execs += s.counts.execs;
            for (reason, n) in &s.counts.discarded {
                *counts.discarded.entry(reason.clone()).or_default() += n;
            }
            per_worker.push(s.counts.execs);
        }
        let session = self.session.elapsed().as_secs_f64().max(1e-9);
        let session_execs: u64 =
            per_worker.iter().sum::<u64>() - self.session_execs.iter().sum::<u64>();
        let failures = &self.filing.memory.failures;
        Snapshot {
            elapsed: self.elapsed(),
            execs: counts.execs,
            rate: session_execs as f64 / session,
            valid_percent: counts.valid_percent(),
            failures: failures.len() as u64,
            buckets: self.filing.memory.per_bucket.len() as u64,
            reducing: self.filing.waiting(),
            workers: per_worker
                .iter()
                .zip(&self.session_execs)
                .map(|(e, s)| (*e, (e - s) as f64 / session))
                .collect(),
        }
    }

    /// Writes the checkpoint, then `stats.json` (both atomically), adding a timeline sample.
    fn checkpoint(&mut self) -> Result<Stats, String> {
        let workers: Vec<WorkerCheckpoint> = (0..self.shared.slots.len())
            .map(|w| {
                let s = self.shared.slot(w);
                WorkerCheckpoint {
                    done: s.done,
                    counts: s.counts.clone(),
                    pending: s.pending.clone(),
                }
            })
            .collect();
        let execs = workers.iter().map(|w| w.counts.execs).sum();
        self.timeline.push(Sample {
            seconds: self.elapsed(),
            execs,
            failures: self.filing.memory.failures.len() as u64,
            buckets: self.filing.memory.per_bucket.len() as u64,
        });
        let c = Checkpoint {
            format: checkpoint::FORMAT,
            settings: self.settings.clone(),
            elapsed: self.elapsed(),
            started_unix: self.started_unix,
            workers,
            memory: self.filing.memory.clone(),
            timeline: self.timeline.clone(),
        };
        checkpoint::write(&self.out, &c)?;
        let stats = self.stats();
        let json = serde_json::to_string_pretty(&stats).map_err(|e| e.to_string())?;
        crate::files::write_atomic(&self.out.join("stats.json"), json.as_bytes())?;
        Ok(stats)
    }

    fn show_filed(&mut self, filed: Vec<Filed>) {
        for f in filed.into_iter().filter(|f| f.new_bucket) {
            self.display.note(&format!(
                "new bucket: {}  {}",
                f.bucket,
                f.file.as_deref().unwrap_or("-")
            ));
        }
    }

    fn take(&mut self, e: worker::Event) -> Result<(), String> {
        if self.settings.stop_on_failure && e.found.without_zoo_bug != Some(true) {
            self.found_one = true;
        }
        let job = Job {
            worker: e.worker,
            index: e.index,
            seconds: self.before + e.at.duration_since(self.session).as_secs_f64(),
            found: e.found,
        };
        let filed = self.filing.accept(&self.shared, job)?;
        self.show_filed(filed);
        Ok(())
    }

    /// Waits up to `wait` for failures from the workers and files them.
    fn receive(&mut self, wait: Duration) -> Result<(), String> {
        if let Ok(e) = self.rx.recv_timeout(wait) {
            self.take(e)?;
            while let Ok(e) = self.rx.try_recv() {
                self.take(e)?;
            }
        }
        let filed = self.filing.collect(&self.shared)?;
        self.show_filed(filed);
        Ok(())
    }

    /// Records every case over its wall-clock cap as a hang and gives its worker a fresh
    /// thread (the stuck one leaves when its case ends, without touching anything).
    fn reap_hangs(&mut self) -> Result<(), String> {
        let cap = Duration::from_secs(self.settings.case_timeout);
        for w in 0..self.shared.slots.len() {
            let (epoch, index, seed) = {
                let mut s = self.shared.slot(w);
                let Some(c) = s.current.filter(|c| c.since.elapsed() > cap) else {
                    continue;
                };
                s.epoch += 1;
                // A pending case re-run after a resume lies behind `done`.
                s.done = s.done.max(c.index + 1);
                s.current = None;
                s.counts.execs += 1;
                stats::bump(&mut s.counts.outcomes, "hang");
                (s.epoch, c.index, c.seed)
            };
            let found = case::wall_clock_hang(&self.shared.setup, seed, cap);
            self.take(worker::Event {
                worker: w,
                index,
                found,
                at: Instant::now(),
            })?;
            self.handles[w] = worker::spawn(self.shared.clone(), w, epoch, vec![], self.tx.clone());
        }
        Ok(())
    }
}

/// Runs a campaign into `out` until its time is up, `interrupt` is set (Ctrl-C) or, with
/// `--stop-on-failure`, the first failure; from a checkpoint when `from` is given.
pub fn run(
    settings: &Settings,
    out: &Path,
    from: Option<Checkpoint>,
    interrupt: Arc<AtomicBool>,
) -> Result<Stats, String> {
    run_with(settings, out, from, interrupt, case::run)
}

/// [`run`] with cases run by `runner`.
fn run_with(
    settings: &Settings,
    out: &Path,
    from: Option<Checkpoint>,
    interrupt: Arc<AtomicBool>,
    runner: worker::Runner,
) -> Result<Stats, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let jobs = settings.jobs.max(1) as usize;
    let (before, started_unix, workers, memory, timeline) = match from {
        Some(c) => (c.elapsed, c.started_unix, c.workers, c.memory, c.timeline),
        None => (
            0.0,
            unix_now(),
            vec![WorkerCheckpoint::default(); jobs],
            Memory::default(),
            vec![],
        ),
    };
    let setup = setup(settings)?;
    let compile = setup.compile.clone();
    let shared = Arc::new(Shared {
        setup,
        runner,
        seed: settings.seed,
        shard: settings.shard.unwrap_or(Shard::ALL),
        stop: Arc::new(AtomicBool::new(false)),
        slots: workers
            .iter()
            .map(|w| {
                Mutex::new(worker::State {
                    done: w.done,
                    counts: w.counts.clone(),
                    pending: w.pending.clone(),
                    ..Default::default()
                })
            })
            .collect(),
    });
    let (tx, rx) = channel();
    let handles = workers
        .iter()
        .enumerate()
        .map(|(w, c)| {
            let redo = c.pending.iter().map(|p| p.index).collect();
            worker::spawn(shared.clone(), w, 0, redo, tx.clone())
        })
        .collect();
    let mut run = Run {
        settings,
        out: out.to_path_buf(),
        filing: Filing::new(
            out.to_path_buf(),
            settings.per_bucket,
            &compile,
            (jobs, Duration::from_secs(settings.reduce_budget)),
            memory,
        ),
        session_execs: workers.iter().map(|w| w.counts.execs).collect(),
        shared,
        handles,
        tx,
        rx,
        before,
        session: Instant::now(),
        started_unix,
        timeline,
        display: Display::new(Duration::from_secs(settings.progress_every.max(1))),
        found_one: false,
    };
    let end = (settings.time as f64 - before).max(0.0);
    let checkpoint_every = Duration::from_secs_f64(settings.checkpoint_every.clamp(0.1, 1e9));
    let mut last_checkpoint = Instant::now();
    loop {
        run.receive(Duration::from_millis(50))?;
        run.reap_hangs()?;
        if interrupt.load(Ordering::Relaxed)
            || run.session.elapsed().as_secs_f64() >= end
            || (run.found_one && run.filing.waiting() == 0)
        {
            break;
        }
        if run.found_one {
            // Stop generating; file what was found once its reduction is done.
            run.shared.stop.store(true, Ordering::Relaxed);
        }
        if last_checkpoint.elapsed() >= checkpoint_every {
            run.checkpoint()?;
            last_checkpoint = Instant::now();
        }
        if run.display.due() {
            let snap = run.snapshot();
            run.display.show(&snap);
        }
    }
    run.shared.stop.store(true, Ordering::Relaxed);
    let grace = Instant::now();
    while grace.elapsed() < STOP_GRACE && run.handles.iter().any(|h| !h.is_finished()) {
        run.receive(Duration::from_millis(10))?;
    }
    run.receive(Duration::ZERO)?;
    // Reductions already running finish unless the user interrupted: a reduced failure
    // gets its own bucket, an unreduced one is keyed on whatever its culprit happened to do.
    let wait = if interrupt.load(Ordering::Relaxed) {
        Duration::ZERO
    } else {
        Duration::from_secs(settings.reduce_budget)
    };
    let filed = run.filing.finish(&run.shared, wait)?;
    run.show_filed(filed);
    let stats = run.checkpoint()?;
    let snap = run.snapshot();
    run.display.show(&snap);
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(time: u64) -> Settings {
        Settings {
            time,
            seed: 0,
            jobs: 1,
            shard: None,
            knobs: String::new(),
            zoo: None,
            spill_all: false,
            baseline_o0: false,
            stop_on_failure: false,
            reduce_budget: 0,
            per_bucket: 5,
            case_timeout: 1,
            checkpoint_every: 0.5,
            progress_every: 60,
        }
    }

    /// Seed 2 runs for 2.5 s; every other case passes in 10 ms.
    fn slow_seed_2(_: &Setup, seed: u64) -> (case::Tally, Option<case::Found>) {
        let pause = if seed == 2 { 2500 } else { 10 };
        std::thread::sleep(Duration::from_millis(pause));
        let tally = case::Tally {
            outcome: "pass",
            ..Default::default()
        };
        (tally, None)
    }

    #[test]
    fn a_case_over_its_wall_clock_cap_is_a_hang_and_the_worker_goes_on() {
        let out = std::env::temp_dir().join(format!("eufuzz-hang-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let stop = Arc::new(AtomicBool::new(false));
        let stats = run_with(&settings(3), &out, None, stop, slow_seed_2).unwrap();
        assert_eq!(stats.failures.len(), 1, "{:?}", stats.failures);
        let f = &stats.failures[0];
        assert_eq!((f.seed, f.signature.as_str()), (2, case::WALL_CLOCK_HANG));
        let text = std::fs::read_to_string(f.file.as_ref().unwrap()).unwrap();
        assert!(text.contains("# verdict: hang: the case ran over its wall-clock cap of 1 s"));
        compiler::text::parse_program(&text).unwrap();
        assert_eq!(stats.counts.outcomes["hang"], 1);
        // The replacement thread went on with seed 3 and later ones.
        assert!(stats.counts.outcomes["pass"] > 10, "{:?}", stats.counts);
        let resumed = checkpoint::read(&out).unwrap();
        assert!(resumed.workers[0].done > 12);
        std::fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn panics_are_caught_with_message_and_place() {
        let r = case::catching(|| -> u32 { panic!("boom {}", 7) });
        let (message, location) = r.unwrap_err();
        assert_eq!(message, "boom 7");
        assert!(location.contains("campaign/mod.rs:"), "{location}");
        assert_eq!(case::catching(|| 5), Ok(5));
    }
}
