//! `eufuzz campaign`: worker threads generate programs from disjoint seed streams and
//! check each against the reference, each case in the worker's child process so that a
//! compiler that crashes, hangs or eats memory is a finding, not the end of the campaign;
//! failures are bucketed, reduced on a thread of their own and written as replayable `.eu`
//! reproducers; the state is checkpointed so that a stopped or killed campaign resumes. The
//! calling thread collects: it files failures, kills children whose case runs over the
//! adaptive timeout, shows progress and writes checkpoints.
//!
//! Modules: [`seeds`] (which seed each case runs), [`case`] (one case, panics caught),
//! [`checker`] (what checks a case: eufuzz's pipeline, or Mesa's passes through a shim),
//! [`worker`] (the threads), [`child`] (crash isolation: the child processes and their
//! protocol), [`phase`] (where a child is), [`timing`] (the adaptive timeout, slow cases),
//! [`filing`] (buckets, reduction, reproducers), [`checkpoint`] (resume), [`progress`]
//! (display), [`stats`] (the `stats.json` data); feedback: [`features`] (what a case
//! exercised), [`corpus`] (inputs that reached new features), [`mutate`] (cases that
//! mutate them).

pub mod case;
pub mod checker;
pub mod checkpoint;
pub mod child;
pub mod corpus;
pub mod features;
pub mod filing;
pub mod intern;
pub mod merge;
pub mod mix;
pub mod mutate;
pub mod phase;
pub mod progress;
pub mod reducers;
pub mod seeds;
pub mod stats;
pub mod timing;
pub mod worker;

pub use case::EXTRA_INPUT_SETS;

use crate::error::{Error, Result};
use crate::options::{Baseline, CompileFlags};

use case::Setup;
use checkpoint::{Checkpoint, WorkerCheckpoint};
use filing::{Filed, Filing, Job, Memory};
use progress::{Display, Snapshot};
use reducers::Against;
use seeds::Shard;
use serde::{Deserialize, Serialize};
use stats::{Counts, Sample, Stats};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
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
    /// The longest a case may run (seconds) before it is recorded as a hang and its child
    /// killed; the timeout adapts below it to the measured case time ([`timing`]).
    pub case_timeout: u64,
    /// Each child process's memory cap in MiB (`RLIMIT_DATA`): a case that allocates past
    /// it is filed as `crash/PASS/out-of-memory`. Checkpoints from before it read as 1024.
    #[serde(default = "default_case_memory")]
    pub case_memory: u64,
    /// Seconds between checkpoints.
    pub checkpoint_every: f64,
    /// Seconds between progress lines when stderr is not a terminal.
    pub progress_every: u64,
    /// Keep a corpus of the inputs that reached new semantic features and mutate it (half
    /// the cases once it is non-empty); off: every case runs its seed's fresh program (the
    /// features are still counted). Checkpoints from before feedback read as off.
    #[serde(default)]
    pub feedback: bool,
    /// A corpus shared between campaigns: read at the start, new entries written back.
    #[serde(default)]
    pub corpus: Option<PathBuf>,
    /// Mesa's passes as the backend under test (`--backend mesa[:PASS]`) instead of
    /// eufuzz's pipeline. Checkpoints from before it read as the pipeline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<crate::mesa::Backend>,
}

/// The memory cap of a child, in MiB, unless `--case-memory` says otherwise: far above
/// what a case of the generator's bounded programs needs (tens of MiB).
pub const DEFAULT_CASE_MEMORY: u64 = 1024;

fn default_case_memory() -> u64 {
    DEFAULT_CASE_MEMORY
}

/// The compile flags of `s`, as a reproducer's `# options:` line writes them so it replays.
pub fn flags(s: &Settings) -> CompileFlags {
    CompileFlags {
        spill_all: s.spill_all,
        baseline: if s.baseline_o0 {
            Baseline::O0
        } else {
            Baseline::Reference
        },
        zoo: s.zoo.clone(),
        ..CompileFlags::default()
    }
}

/// What every case runs with, from the settings.
pub fn setup(s: &Settings) -> Result<Setup> {
    let flags = flags(s);
    Ok(Setup {
        knobs: oracle::generator::knobs::Knobs::parse(&s.knobs)
            .map_err(|e| Error::Usage(e.to_string()))?,
        compile: flags.options(None)?,
        zoo: s.zoo.clone(),
        options: crate::options::words(&flags),
        backend: s.backend.clone(),
    })
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The base corpus of a fresh campaign with feedback: the entries already in `OUT/corpus`
/// and those of `--corpus DIR`, sorted by name, each copied into `OUT/corpus` (so that a
/// resume finds them there). Without feedback, none.
fn base_corpus(settings: &Settings, corpus_dir: &Path) -> Result<Vec<corpus::Entry>> {
    if !settings.feedback {
        return Ok(vec![]);
    }
    let mut base = corpus::load(corpus_dir)?;
    if let Some(shared) = &settings.corpus {
        base.extend(corpus::load(shared)?);
    }
    base.sort_by(|a, b| a.name.cmp(&b.name));
    base.dedup_by(|a, b| a.name == b.name);
    for e in &base {
        corpus::write(corpus_dir, e)?;
    }
    corpus::sync(corpus_dir)?;
    Ok(base)
}

/// The features the base corpus reaches (sorted ids), each entry run once as a mutated
/// case of seed 0 would be, on one executor per worker (the union does not depend on their
/// order); an entry whose child dies reaches none.
fn base_features(shared: &Shared) -> Result<Vec<u64>> {
    let jobs = shared.slots.len().max(1);
    let chunk = shared.base.len().div_ceil(jobs).max(1);
    let mut all: HashSet<u64> = HashSet::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = shared
            .base
            .chunks(chunk)
            .enumerate()
            .map(|(w, part)| {
                scope.spawn(move || {
                    let mut exec = worker::Executor::new(shared, w);
                    let mut known = HashSet::new();
                    for e in part {
                        let input = case::Input {
                            seed: 0,
                            mutation: Some(Arc::new(mutate::Mutation {
                                bytes: e.bytes.to_vec(),
                                parent: e.name.clone(),
                                ops: vec![],
                            })),
                        };
                        if let worker::Ran::Case(tally, _) = exec.run(&input)? {
                            known.extend(tally.features);
                        }
                    }
                    Ok(known)
                })
            })
            .collect();
        for h in handles {
            all.extend(h.join().unwrap_or_else(|_| Ok(HashSet::new()))?);
        }
        Ok::<(), Error>(())
    })?;
    let mut out: Vec<u64> = all.into_iter().collect();
    out.sort_unstable();
    Ok(out)
}

/// A Mesa campaign's wall-clock cap of a case, in shim request timeouts.
const BACKEND_WALL_FACTOR: u32 = 20;

/// How long to wait for workers to finish their case once asked to stop.
const STOP_GRACE: Duration = Duration::from_millis(400);

/// The campaign as the collecting thread runs it.
struct Run<'a> {
    settings: &'a Settings,
    out: PathBuf,
    shared: Arc<Shared>,
    filing: Filing,
    handles: Vec<JoinHandle<()>>,
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
    /// Distinct features over all workers, by kind, at the last checkpoint.
    features: BTreeMap<String, u64>,
    /// Corpus entries at the last checkpoint.
    corpus: u64,
    /// Whether Ctrl-C stopped the campaign before its time was up.
    interrupted: bool,
    /// Cases still running when the campaign ended.
    unfinished: Vec<timing::Unfinished>,
}

use worker::{Isolation, Shared};

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
            backend: self
                .settings
                .backend
                .as_ref()
                .map(crate::mesa::Backend::flag),
            feedback: self.settings.feedback,
            features: self.features.values().sum(),
            features_by_kind: self.features.clone(),
            corpus: self.corpus,
            time_limit: self.settings.time,
            interrupted: self.interrupted,
            slowest: self.slowest(),
            unfinished: self.unfinished.clone(),
            median_case_seconds: self.shared.median().unwrap_or(0.0),
        }
    }

    /// The slowest slow cases over all workers.
    fn slowest(&self) -> Vec<timing::Slow> {
        let mut kept = vec![];
        for w in 0..self.shared.slots.len() {
            for s in &self.shared.slot(w).slowest {
                timing::keep(&mut kept, s.clone());
            }
        }
        kept
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
            for (reason, n) in &s.counts.refused {
                *counts.refused.entry(reason.clone()).or_default() += n;
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
            features: self.features.values().sum(),
            corpus: self.settings.feedback.then_some(self.corpus),
            workers: per_worker
                .iter()
                .zip(&self.session_execs)
                .map(|(e, s)| (*e, (e - s) as f64 / session))
                .collect(),
        }
    }

    /// Writes the checkpoint, then `stats.json` (both atomically), adding a timeline sample.
    fn checkpoint(&mut self) -> Result<Stats> {
        let workers: Vec<WorkerCheckpoint> = (0..self.shared.slots.len())
            .map(|w| {
                let s = self.shared.slot(w);
                let mut features: Vec<u64> = s.known.iter().copied().collect();
                features.sort_unstable();
                WorkerCheckpoint {
                    done: s.done,
                    counts: s.counts.clone(),
                    pending: s.pending.clone(),
                    corpus: s.corpus.iter().map(|e| e.name.clone()).collect(),
                    features,
                    yields: s.yields,
                }
            })
            .collect();
        let all: HashSet<u64> = workers
            .iter()
            .flat_map(|w| w.features.iter().copied())
            .collect();
        self.features = features::by_kind(&all);
        let entries: HashSet<&str> = self
            .shared
            .base
            .iter()
            .map(|e| e.name.as_str())
            .chain(
                workers
                    .iter()
                    .flat_map(|w| w.corpus.iter().map(|n| n.as_str())),
            )
            .collect();
        self.corpus = entries.len() as u64;
        let execs = workers.iter().map(|w| w.counts.execs).sum();
        self.timeline.push(Sample {
            seconds: self.elapsed(),
            execs,
            failures: self.filing.memory.failures.len() as u64,
            buckets: self.filing.memory.per_bucket.len() as u64,
            features: all.len() as u64,
            corpus: self.corpus,
        });
        let c = Checkpoint {
            format: checkpoint::FORMAT,
            settings: self.settings.clone(),
            elapsed: self.elapsed(),
            started_unix: self.started_unix,
            workers,
            memory: self.filing.memory.clone(),
            timeline: self.timeline.clone(),
            base: self.shared.base.iter().map(|e| e.name.clone()).collect(),
        };
        // The entries the checkpoint names are on disk before it is (a shared corpus that
        // cannot be synced loses only what `OUT/corpus` keeps, as when it cannot be written).
        if self.shared.corpus_written.swap(false, Ordering::Relaxed)
            && let Some((own, shared)) = self.shared.corpus_dirs.split_first()
        {
            corpus::sync(own)?;
            for d in shared {
                let _ = corpus::sync(d);
            }
        }
        checkpoint::write(&self.out, &c)?;
        let stats = self.stats();
        let json = serde_json::to_string_pretty(&stats).expect("statistics serialize");
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

    fn take(&mut self, e: worker::Event) -> Result<()> {
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
    fn receive(&mut self, wait: Duration) -> Result<()> {
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

    /// Measures the median case time and kills the child of every case whose CPU time runs
    /// over the timeout it gives, or whose wall-clock time runs over `--case-timeout`; the
    /// case's worker then files it as a hang and starts a fresh child. A
    /// worker that could not start a child stops the campaign.
    fn watch_workers(&mut self) -> Result<()> {
        let mut times = vec![];
        for w in 0..self.shared.slots.len() {
            let s = self.shared.slot(w);
            if let Some(e) = &s.error {
                // The other workers stop too (their children are killed as they leave).
                self.shared.stop.store(true, Ordering::Relaxed);
                return Err(Error::Refused(format!("campaign worker {w}: {e}")));
            }
            times.extend(s.recent.values());
        }
        let median = timing::median(times);
        self.shared.set_median(median);
        let most = Duration::from_secs(self.settings.case_timeout);
        // Against Mesa a case's time varies by orders of magnitude (a failure of the loop is
        // localised pass by pass, one shim request each), and the shim bounds each request
        // by --case-timeout itself (a `hang/mesa:PASS`): no adaptive cap, and a generous
        // wall-clock one for a child that stopped running.
        let (cap, wall) = match self.settings.backend {
            None => (timing::timeout(median, most), most),
            Some(_) => (most, most * BACKEND_WALL_FACTOR),
        };
        for w in 0..self.shared.slots.len() {
            let mut s = self.shared.slot(w);
            let Some(pid) = s.child else { continue };
            let Some(c) = s.current.as_mut().filter(|c| c.timed_out.is_none()) else {
                continue;
            };
            let Some(cpu) = timing::cpu_time(pid) else {
                continue;
            };
            let spent = cpu.saturating_sub(*c.cpu_seen.get_or_insert(cpu));
            let cap = if c.confirming {
                timing::confirm_cap(cap, most)
            } else {
                cap
            };
            let overrun = if spent > cap {
                Some(timing::Overrun {
                    cap,
                    clock: "cpu-time",
                })
            } else if c.since.elapsed() > wall {
                Some(timing::Overrun {
                    cap: wall,
                    clock: "wall-clock",
                })
            } else {
                None
            };
            if overrun.is_some() {
                c.timed_out = overrun;
                kill(pid);
            }
        }
        Ok(())
    }

    /// Notes the cases still running (the campaign is over) and kills their children, so
    /// that no child outlives the campaign; their workers leave without counting them.
    fn abandon_running(&mut self) {
        for w in 0..self.shared.slots.len() {
            let mut s = self.shared.slot(w);
            let pid = s.child;
            let Some(c) = s.current.as_mut() else {
                continue;
            };
            c.abandoned = true;
            self.unfinished.push(timing::Unfinished {
                worker: w,
                seed: c.seed,
                seconds: c.since.elapsed().as_secs_f64(),
                phase: phase::read(&self.shared.phase_file(w)),
            });
            if let Some(pid) = pid {
                kill(pid);
            }
        }
    }
}

/// Kills a child process of this campaign (the caller holds its worker's lock, so the
/// child has not been waited for and the pid is still its).
fn kill(pid: u32) {
    // SAFETY: sending a signal has no memory effects.
    unsafe {
        libc::kill(pid as libc::pid_t, libc::SIGKILL);
    }
}

/// Runs a campaign into `out` until its time is up, `interrupt` is set (Ctrl-C) or, with
/// `--stop-on-failure`, the first failure; from a checkpoint when `from` is given. Cases
/// run in child processes of `exe`, the `eufuzz` binary (see [`child`]).
pub fn run(
    settings: &Settings,
    out: &Path,
    from: Option<Checkpoint>,
    interrupt: Arc<AtomicBool>,
    exe: &Path,
) -> Result<Stats> {
    let launch = child::Launch {
        exe: exe.to_path_buf(),
        settings: settings.clone(),
        memory: settings.case_memory.saturating_mul(1 << 20),
    };
    run_with(
        settings,
        out,
        from,
        interrupt,
        Isolation::Process(Box::new(launch)),
    )
}

/// [`run`] with cases run as `isolation` says.
fn run_with(
    settings: &Settings,
    out: &Path,
    from: Option<Checkpoint>,
    interrupt: Arc<AtomicBool>,
    isolation: Isolation,
) -> Result<Stats> {
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, "create", e))?;
    let jobs = settings.jobs.max(1) as usize;
    let setup = setup(settings)?;
    let corpus_dir = out.join(corpus::DIR);
    let resumed = from.is_some();
    let (before, started_unix, workers, memory, timeline, base) = match from {
        Some(c) => {
            let base = c
                .base
                .iter()
                .map(|n| corpus::read(&corpus_dir, n))
                .collect::<Result<Vec<_>>>()?;
            (
                c.elapsed,
                c.started_unix,
                c.workers,
                c.memory,
                c.timeline,
                base,
            )
        }
        None => (
            0.0,
            unix_now(),
            vec![WorkerCheckpoint::default(); jobs],
            Memory::default(),
            vec![],
            base_corpus(settings, &corpus_dir)?,
        ),
    };
    let own: Vec<Vec<corpus::Entry>> = workers
        .iter()
        .map(|w| {
            w.corpus
                .iter()
                .map(|n| corpus::read(&corpus_dir, n))
                .collect::<Result<Vec<_>>>()
        })
        .collect::<Result<_>>()?;
    let against = match &settings.backend {
        None => Against::Pipeline(setup.compile.clone()),
        Some(b) => Against::Mesa(b.clone(), Duration::from_secs(settings.case_timeout.max(1))),
    };
    let mut corpus_dirs = vec![corpus_dir];
    corpus_dirs.extend(settings.corpus.clone());
    let shared = Arc::new(Shared {
        setup,
        isolation,
        out: out.to_path_buf(),
        seed: settings.seed,
        shard: settings.shard.unwrap_or(Shard::ALL),
        stop: Arc::new(AtomicBool::new(false)),
        slots: workers
            .iter()
            .zip(own)
            .map(|(w, own)| {
                Mutex::new(worker::State {
                    done: w.done,
                    counts: w.counts.clone(),
                    pending: w.pending.clone(),
                    known: w.features.iter().copied().collect(),
                    corpus: own,
                    yields: w.yields,
                    ..Default::default()
                })
            })
            .collect(),
        feedback: settings.feedback,
        base,
        corpus_dirs,
        corpus_written: AtomicBool::new(false),
        median: Default::default(),
        case_timeout: Duration::from_secs(settings.case_timeout),
    });
    if !resumed && !shared.base.is_empty() {
        // Every worker starts knowing the base corpus's features: an entry is kept only for
        // what the corpus did not reach yet.
        let known = base_features(&shared)?;
        for w in 0..shared.slots.len() {
            shared.slot(w).known = known.iter().copied().collect();
        }
    }
    let (tx, rx) = channel();
    let handles = workers
        .iter()
        .enumerate()
        .map(|(w, c)| worker::spawn(shared.clone(), w, c.pending.clone(), tx.clone()))
        .collect();
    drop(tx);
    let mut run = Run {
        settings,
        out: out.to_path_buf(),
        filing: Filing::new(
            out.to_path_buf(),
            settings.per_bucket,
            &against,
            (jobs, Duration::from_secs(settings.reduce_budget)),
            memory,
        ),
        session_execs: workers.iter().map(|w| w.counts.execs).collect(),
        shared,
        handles,
        rx,
        before,
        session: Instant::now(),
        started_unix,
        timeline,
        display: Display::new(Duration::from_secs(settings.progress_every.max(1))),
        found_one: false,
        features: BTreeMap::new(),
        corpus: 0,
        interrupted: false,
        unfinished: vec![],
    };
    let end = (settings.time as f64 - before).max(0.0);
    let checkpoint_every = Duration::from_secs_f64(settings.checkpoint_every.clamp(0.1, 1e9));
    let mut last_checkpoint = Instant::now();
    loop {
        run.receive(Duration::from_millis(50))?;
        run.watch_workers()?;
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
    run.interrupted =
        interrupt.load(Ordering::Relaxed) && run.session.elapsed().as_secs_f64() < end;
    let grace = Instant::now();
    while grace.elapsed() < STOP_GRACE && run.handles.iter().any(|h| !h.is_finished()) {
        run.receive(Duration::from_millis(10))?;
    }
    run.abandon_running();
    for h in std::mem::take(&mut run.handles) {
        // Each worker leaves at once: its child finished its case or was just killed.
        let _ = h.join();
    }
    run.receive(Duration::ZERO)?;
    for w in 0..run.shared.slots.len() {
        let _ = std::fs::remove_file(run.shared.phase_file(w));
    }
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
            case_memory: DEFAULT_CASE_MEMORY,
            checkpoint_every: 0.5,
            progress_every: 60,
            feedback: false,
            corpus: None,
            backend: None,
        }
    }

    /// A fast stand-in for a case: features from the first bytes of the input, so fresh
    /// and mutated inputs reach new ones for a while.
    fn byte_features(_: &Setup, input: &case::Input) -> (case::Tally, Option<case::Found>) {
        let bytes = input.bytes();
        let used = bytes.len().min(24);
        let features = bytes[..used]
            .chunks(3)
            .map(|c| features::id(&format!("cf:{}", c[0] % 16)))
            .collect();
        let tally = case::Tally {
            outcome: "pass",
            features,
            used,
            mutated: input.mutation.is_some(),
            ..Default::default()
        };
        (tally, None)
    }

    fn feedback_run(out: &Path, time: u64, from: Option<Checkpoint>) -> Checkpoint {
        let s = Settings {
            feedback: true,
            ..settings(time)
        };
        let stop = Arc::new(AtomicBool::new(false));
        run_with(&s, out, from, stop, Isolation::Thread(byte_features)).unwrap();
        checkpoint::read(out).unwrap()
    }

    /// Whether one list is the start of the other.
    fn prefix_compatible(a: &[String], b: &[String]) -> bool {
        let n = a.len().min(b.len());
        a[..n] == b[..n]
    }

    #[test]
    fn identical_runs_and_a_resumed_run_keep_the_same_corpus_in_the_same_order() {
        let dir = std::env::temp_dir().join(format!("eufuzz-determinism-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let one = feedback_run(&dir.join("one"), 1, None);
        let two = feedback_run(&dir.join("two"), 2, None);
        let (a, b) = (&one.workers[0], &two.workers[0]);
        // Which run gets further depends on the machine's load, not on its time limit.
        assert!(a.done > 10 && b.done > 10, "{} {}", a.done, b.done);
        assert!(!a.corpus.is_empty());
        assert!(a.counts.origins.get("mutated").copied().unwrap_or(0) > 0);
        // Same cases: the run that stopped first has the corpus the other one's starts with.
        assert!(prefix_compatible(&a.corpus, &b.corpus), "{a:?}\n{b:?}");
        // Stopped and resumed: the same entries again, and the resumed run goes on.
        let resumed = feedback_run(&dir.join("one"), 2, Some(one.clone()));
        let r = &resumed.workers[0];
        assert!(r.done > a.done && r.corpus.starts_with(&a.corpus));
        assert!(prefix_compatible(&r.corpus, &b.corpus), "{r:?}\n{b:?}");
        for name in &r.corpus {
            corpus::read(&dir.join("one").join(corpus::DIR), name).unwrap();
        }
        let stats: Stats = serde_json::from_str(
            &std::fs::read_to_string(dir.join("one").join("stats.json")).unwrap(),
        )
        .unwrap();
        assert!(stats.feedback && stats.features > 0);
        assert_eq!(stats.corpus, r.corpus.len() as u64);
        assert!(stats.timeline.iter().all(|s| s.features > 0));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A stand-in for a Mesa case: a third of the programs refused for one cause, the rest
    /// for another.
    fn refusing(_: &Setup, input: &case::Input) -> (case::Tally, Option<case::Found>) {
        let why = if input.seed.is_multiple_of(3) {
            "opcode '…' is not mapped"
        } else {
            "scratch memory is not mapped"
        };
        let tally = case::Tally {
            outcome: "refused",
            refused: Some(intern::intern(why)),
            ..Default::default()
        };
        (tally, None)
    }

    #[test]
    fn refusals_are_counted_by_cause_in_stats_json_and_the_summary() {
        let out = std::env::temp_dir().join(format!("eufuzz-refusals-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let s = Settings {
            backend: Some(crate::mesa::Backend {
                pass: "opt_cse".into(),
                inputs: 4,
            }),
            ..settings(1)
        };
        let stop = Arc::new(AtomicBool::new(false));
        run_with(&s, &out, None, stop, Isolation::Thread(refusing)).unwrap();
        let stats: Stats =
            serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap())
                .unwrap();
        let c = &stats.counts;
        let (op, scratch) = (
            c.refused["opcode '…' is not mapped"],
            c.refused["scratch memory is not mapped"],
        );
        assert!(c.execs > 30, "{}", c.execs);
        assert_eq!(op + scratch, c.execs);
        // Seeds 0, 1, 2, … in order on one worker: every third refused for the opcode.
        assert_eq!(op, c.execs.div_ceil(3));
        assert_eq!(c.valid_percent(), 0.0);
        assert_eq!(stats.backend.as_deref(), Some("mesa:opt_cse"));
        let summary = stats.summary();
        assert!(
            summary.contains(&format!(
                "backend mesa:opt_cse: 0 judged (0.0 judged checks/s), {} refused",
                c.execs
            )),
            "{summary}"
        );
        assert!(summary.contains(&format!(
            "  refused {scratch:8}  scratch memory is not mapped\n"
        )));
        std::fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn a_campaign_whose_children_cannot_start_stops_with_an_error() {
        let out = std::env::temp_dir().join(format!("eufuzz-no-child-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let stop = Arc::new(AtomicBool::new(false));
        let missing = Path::new("/nonexistent/eufuzz");
        let started = Instant::now();
        let e = run(&settings(30), &out, None, stop, missing).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(e.to_string().contains("/nonexistent/eufuzz"), "{e}");
        assert_eq!(e.exit(), crate::Exit::Malformed);
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
