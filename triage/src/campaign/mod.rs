//! `eufuzz campaign`: worker threads generate programs from disjoint seed streams and
//! check each against the reference; failures are bucketed, reduced on a thread of their
//! own and written as replayable `.eu` reproducers; the state is checkpointed so that a
//! stopped or killed campaign resumes. The calling thread collects: it files failures,
//! watches for cases over their wall-clock cap, shows progress and writes checkpoints.
//!
//! Modules: [`seeds`] (which seed each case runs), [`case`] (one case, panics caught),
//! [`worker`] (the threads), [`filing`] (buckets, reduction, reproducers), [`checkpoint`]
//! (resume), [`progress`] (display), [`stats`] (the `stats.json` data); feedback:
//! [`features`] (what a case exercised), [`corpus`] (inputs that reached new features),
//! [`mutate`] (cases that mutate them).

pub mod case;
pub mod checkpoint;
pub mod corpus;
pub mod features;
pub mod filing;
pub mod merge;
pub mod mutate;
pub mod progress;
pub mod reducers;
pub mod seeds;
pub mod stats;
pub mod worker;

pub use case::EXTRA_INPUT_SETS;

use crate::error::{Error, Result};
use crate::options::{Baseline, CompileFlags};

use case::Setup;
use checkpoint::{Checkpoint, WorkerCheckpoint};
use filing::{Filed, Filing, Job, Memory};
use progress::{Display, Snapshot};
use seeds::Shard;
use serde::{Deserialize, Serialize};
use stats::{Counts, Sample, Stats};
use std::collections::{BTreeMap, HashSet};
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
    /// Keep a corpus of the inputs that reached new semantic features and mutate it (half
    /// the cases once it is non-empty); off: every case runs its seed's fresh program (the
    /// features are still counted). Checkpoints from before feedback read as off.
    #[serde(default)]
    pub feedback: bool,
    /// A corpus shared between campaigns: read at the start, new entries written back.
    #[serde(default)]
    pub corpus: Option<PathBuf>,
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
    Ok(base)
}

/// The features the base corpus reaches (sorted ids), each entry run once as a mutated
/// case of seed 0 would be, on `jobs` threads (the union does not depend on their order).
fn base_features(
    setup: &Setup,
    runner: worker::Runner,
    base: &[corpus::Entry],
    jobs: usize,
) -> Vec<u64> {
    let chunk = base.len().div_ceil(jobs.max(1)).max(1);
    let mut all: HashSet<u64> = HashSet::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = base
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
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
                        known.extend(runner(setup, &input).0.features);
                    }
                    known
                })
            })
            .collect();
        for h in handles {
            all.extend(h.join().unwrap_or_default());
        }
    });
    let mut out: Vec<u64> = all.into_iter().collect();
    out.sort_unstable();
    out
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
    /// Distinct features over all workers, by kind, at the last checkpoint.
    features: BTreeMap<String, u64>,
    /// Corpus entries at the last checkpoint.
    corpus: u64,
    /// Whether Ctrl-C stopped the campaign before its time was up.
    interrupted: bool,
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
            feedback: self.settings.feedback,
            features: self.features.values().sum(),
            features_by_kind: self.features.clone(),
            corpus: self.corpus,
            time_limit: self.settings.time,
            interrupted: self.interrupted,
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

    /// Records every case over its wall-clock cap as a hang and gives its worker a fresh
    /// thread (the stuck one leaves when its case ends, without touching anything).
    fn reap_hangs(&mut self) -> Result<()> {
        let cap = Duration::from_secs(self.settings.case_timeout);
        for w in 0..self.shared.slots.len() {
            let (epoch, index, input) = {
                let mut s = self.shared.slot(w);
                let Some(c) = s.current.take_if(|c| c.since.elapsed() > cap) else {
                    continue;
                };
                s.epoch += 1;
                // A pending case re-run after a resume lies behind `done`.
                s.done = s.done.max(c.index + 1);
                s.counts.execs += 1;
                stats::bump(&mut s.counts.outcomes, "hang");
                (s.epoch, c.index, c.input)
            };
            let found = case::wall_clock_hang(&self.shared.setup, &input, cap);
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
) -> Result<Stats> {
    run_with(settings, out, from, interrupt, case::run)
}

/// [`run`] with cases run by `runner`.
fn run_with(
    settings: &Settings,
    out: &Path,
    from: Option<Checkpoint>,
    interrupt: Arc<AtomicBool>,
    runner: worker::Runner,
) -> Result<Stats> {
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, "create", e))?;
    let jobs = settings.jobs.max(1) as usize;
    let setup = setup(settings)?;
    let corpus_dir = out.join(corpus::DIR);
    let resumed = from.is_some();
    let (before, started_unix, mut workers, memory, timeline, base) = match from {
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
    if !resumed && !base.is_empty() {
        // Every worker starts knowing the base corpus's features: an entry is kept only for
        // what the corpus did not reach yet.
        let known = base_features(&setup, runner, &base, jobs);
        for w in &mut workers {
            w.features = known.clone();
        }
    }
    let own: Vec<Vec<corpus::Entry>> = workers
        .iter()
        .map(|w| {
            w.corpus
                .iter()
                .map(|n| corpus::read(&corpus_dir, n))
                .collect::<Result<Vec<_>>>()
        })
        .collect::<Result<_>>()?;
    let compile = setup.compile.clone();
    let mut corpus_dirs = vec![corpus_dir];
    corpus_dirs.extend(settings.corpus.clone());
    let shared = Arc::new(Shared {
        setup,
        runner,
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
                    ..Default::default()
                })
            })
            .collect(),
        feedback: settings.feedback,
        base,
        corpus_dirs,
    });
    let (tx, rx) = channel();
    let handles = workers
        .iter()
        .enumerate()
        .map(|(w, c)| worker::spawn(shared.clone(), w, 0, c.pending.clone(), tx.clone()))
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
        features: BTreeMap::new(),
        corpus: 0,
        interrupted: false,
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
    run.interrupted =
        interrupt.load(Ordering::Relaxed) && run.session.elapsed().as_secs_f64() < end;
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
            feedback: false,
            corpus: None,
        }
    }

    /// Seed 2 runs for 2.5 s; every other case passes in 10 ms.
    fn slow_seed_2(_: &Setup, input: &case::Input) -> (case::Tally, Option<case::Found>) {
        let pause = if input.seed == 2 { 2500 } else { 10 };
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
        run_with(&s, out, from, stop, byte_features).unwrap();
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
        assert!(a.done > 10 && b.done > a.done, "{} {}", a.done, b.done);
        assert!(!a.corpus.is_empty());
        assert!(a.counts.origins.get("mutated").copied().unwrap_or(0) > 0);
        // Same cases: the shorter run's corpus is where the longer one's starts.
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

    #[test]
    fn panics_are_caught_with_message_and_place() {
        let r = case::catching(|| -> u32 { panic!("boom {}", 7) });
        let (message, location) = r.unwrap_err();
        assert_eq!(message, "boom 7");
        assert!(location.contains("campaign/mod.rs:"), "{location}");
        assert_eq!(case::catching(|| 5), Ok(5));
    }
}
