//! Campaign workers: threads each running its own seed stream (see [`super::seeds`]), each
//! case in the worker's child process ([`super::child`]) unless the campaign runs cases
//! in-thread (library tests).
//!
//! A worker's state sits behind its own lock, taken twice per case and otherwise only by
//! the collecting thread at progress and checkpoint time and to kill a child whose case
//! runs over the timeout, so workers never wait for one another. A failure is recorded as
//! pending in the same locked step that counts its case done, then sent to the collecting
//! thread: a checkpoint therefore holds every failure either filed or pending, and
//! `--resume` re-runs the pending ones.
//!
//! With feedback, a worker keeps the features its cases reached and its own corpus entries
//! in its state too, updated in the step that counts the case done: a checkpoint holds a
//! worker's cases, features and entries as of one moment, so a resumed worker runs the
//! cases it would have run (see [`super::corpus`] for why a worker reads no other worker's
//! entries).

use super::case::{self, Death, Found, Input, Setup, Tally};
use super::child::{Child, Launch};
use super::corpus::{self, Entry};
use super::mix::{Mix, Yields};
use super::mutate::{self, View};
use super::seeds::{Shard, seed_of};
use super::stats::{Counts, add, bump};
use super::timing::{self, Overrun, Recent, Slow};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A failure sent for filing and not filed yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub index: u64,
    pub seed: u64,
    /// The worker's own corpus entries the case could mutate (its view then), so that a
    /// re-run mutates as the case did.
    #[serde(default)]
    pub view: usize,
    /// The worker's mix then ([`super::mix`]), for the same reason.
    #[serde(default)]
    pub mix: Mix,
}

/// The case a worker is running.
#[derive(Clone, Debug)]
pub struct InFlight {
    pub index: u64,
    pub seed: u64,
    pub input: Input,
    pub since: Instant,
    /// The child's CPU time when the collecting thread first saw the case running (cases
    /// shorter than its 50-ms tick are never seen): the case's own CPU time is measured
    /// from there.
    pub cpu_seen: Option<Duration>,
    /// Set (to the timeout it ran over) when the collecting thread killed the child.
    pub timed_out: Option<Overrun>,
    /// The second run of a case the adaptive timeout killed: it gets
    /// [`timing::CONFIRM_FACTOR`] times that timeout before it is filed as a hang.
    pub confirming: bool,
    /// Set when the campaign ended with the case still running and killed its child: the
    /// case is neither counted nor filed (`--resume` runs it again).
    pub abandoned: bool,
}

/// One worker's state.
#[derive(Debug, Default)]
pub struct State {
    /// Cases of the stream done, in order: the next case is `done`.
    pub done: u64,
    pub counts: Counts,
    pub pending: Vec<Pending>,
    pub current: Option<InFlight>,
    /// The process id of the worker's child, while it runs.
    pub child: Option<u32>,
    /// Why the worker stopped, if it could not start a child.
    pub error: Option<String>,
    /// Feature ids reached by the base corpus and this worker's cases.
    pub known: HashSet<u64>,
    /// This worker's corpus entries, in the order it added them (feedback only).
    pub corpus: Vec<Entry>,
    /// Recent case times.
    pub recent: Recent,
    /// The slowest of its slow cases.
    pub slowest: Vec<Slow>,
    /// New features per case by origin and operator, which set its mix.
    pub yields: Yields,
}

/// What runs a case in-thread ([`case::run`]; library tests put in stand-ins).
pub type Runner = fn(&Setup, &Input) -> (Tally, Option<Found>);

/// Where cases run.
pub enum Isolation {
    /// In a child process per worker, restarted when it dies (what `eufuzz campaign` does).
    Process(Box<Launch>),
    /// On the worker thread: no isolation and no timeout (library tests of the engine).
    Thread(Runner),
}

/// What the workers share: the setup, the seed space, the base corpus and one state per
/// worker.
pub struct Shared {
    pub setup: Setup,
    pub isolation: Isolation,
    /// The output directory (the children's phase files are kept there while they run).
    pub out: PathBuf,
    pub seed: u64,
    pub shard: Shard,
    pub stop: Arc<AtomicBool>,
    pub slots: Vec<Mutex<State>>,
    /// Whether cases mutate the corpus and new entries are kept.
    pub feedback: bool,
    /// The corpus as it stood when the campaign started, sorted by name.
    pub base: Vec<Entry>,
    /// Where new entries are written: `OUT/corpus`, then the shared `--corpus DIR` if any.
    pub corpus_dirs: Vec<PathBuf>,
    /// Set when an entry was written and not yet waited for on disk (see
    /// [`corpus::sync`]); the collecting thread clears it when it syncs before a checkpoint.
    pub corpus_written: AtomicBool,
    /// The median case time in seconds as `f64` bits (0: not known yet), kept by the
    /// collecting thread.
    pub median: AtomicU64,
    /// `--case-timeout`: a hang killed at this cap is not run again to confirm it.
    pub case_timeout: Duration,
}

/// A failure a worker found, for the collecting thread.
pub struct Event {
    pub worker: usize,
    pub index: u64,
    pub found: Found,
    /// When the case ended.
    pub at: Instant,
}

impl Shared {
    /// Worker `w`'s state (a panic while it was held leaves it usable: counts are only
    /// ever added to).
    pub fn slot(&self, w: usize) -> MutexGuard<'_, State> {
        self.slots[w].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Workers in all (the stride of the seed streams).
    pub fn jobs(&self) -> u64 {
        self.slots.len() as u64
    }

    /// The seed of case `index` of worker `w`.
    pub fn seed_of(&self, w: usize, index: u64) -> u64 {
        seed_of(self.seed, self.jobs(), self.shard, w as u64, index)
    }

    /// The phase file of worker `w`'s child.
    pub fn phase_file(&self, w: usize) -> PathBuf {
        self.out.join(format!(".phase-{w}"))
    }

    /// The median case time, once measured.
    pub fn median(&self) -> Option<f64> {
        let m = f64::from_bits(self.median.load(Ordering::Relaxed));
        (m > 0.0).then_some(m)
    }

    /// Records the median case time.
    pub fn set_median(&self, m: Option<f64>) {
        self.median
            .store(m.unwrap_or(0.0).to_bits(), Ordering::Relaxed);
    }

    /// What the case of `seed` runs, given the worker's own entries it may mutate and its
    /// mix of cases.
    pub fn input(&self, seed: u64, own: &[Entry], mix: &Mix) -> Input {
        if !self.feedback {
            return Input::fresh(seed);
        }
        let view = View {
            base: &self.base,
            own,
        };
        Input {
            seed,
            mutation: mutate::plan(seed, view, mix).map(Arc::new),
        }
    }

    /// Writes the entry of a case that reached a new feature (the bytes its decoding read)
    /// into the corpus directories; `None` if it cannot be kept in `OUT/corpus` (then it is
    /// not added, so that a checkpoint never names an entry missing on disk).
    fn keep(&self, input: &Input, used: usize) -> Option<Entry> {
        let bytes = input.bytes();
        let e = Entry::new(bytes[..used.min(bytes.len())].to_vec());
        let (own, shared) = self.corpus_dirs.split_first()?;
        corpus::write(own, &e).ok()?;
        self.corpus_written.store(true, Ordering::Relaxed);
        for d in shared {
            // A shared corpus that cannot be written loses only what `OUT/corpus` keeps.
            let _ = corpus::write(d, &e);
        }
        Some(e)
    }

    /// Whether `e` is in the base corpus or among `own`.
    fn has(&self, own: &[Entry], e: &Entry) -> bool {
        own.iter().chain(&self.base).any(|x| x.name == e.name)
    }
}

/// How a case ended.
pub enum Ran {
    /// It ran to its result.
    Case(Tally, Option<Box<Found>>),
    /// Its child process died (crash) or was killed for running over the timeout (hang).
    Died(Death),
    /// The campaign ended while it ran and killed its child.
    Abandoned,
}

/// Runs the cases of worker slot `w`: in-thread, or in a child started on first use and
/// again after each death.
pub struct Executor<'a> {
    shared: &'a Shared,
    w: usize,
    child: Option<Child>,
    started: bool,
}

impl<'a> Executor<'a> {
    pub fn new(shared: &'a Shared, w: usize) -> Executor<'a> {
        Executor {
            shared,
            w,
            child: None,
            started: false,
        }
    }

    /// Runs `input`; an error when no child could be started.
    pub fn run(&mut self, input: &Input) -> crate::Result<Ran> {
        let launch = match &self.shared.isolation {
            Isolation::Thread(runner) => {
                let (tally, found) = runner(&self.shared.setup, input);
                return Ok(Ran::Case(tally, found.map(Box::new)));
            }
            Isolation::Process(launch) => launch,
        };
        let child = match &mut self.child {
            Some(c) => c,
            None => {
                let c = Child::spawn(launch, &self.shared.phase_file(self.w))?;
                let mut s = self.shared.slot(self.w);
                if self.started {
                    s.counts.restarts += 1;
                }
                s.child = Some(c.pid());
                self.started = true;
                self.child.insert(c)
            }
        };
        let gone = match child.run(input) {
            Ok((tally, found)) => return Ok(Ran::Case(tally, found.map(Box::new))),
            Err(gone) => gone,
        };
        let (timed_out, abandoned) = {
            let mut s = self.shared.slot(self.w);
            s.child = None;
            s.current
                .as_ref()
                .map_or((None, false), |c| (c.timed_out, c.abandoned))
        };
        let child = self.child.take().expect("a child ran the case");
        let death = child.reap(gone, timed_out);
        Ok(if abandoned {
            Ran::Abandoned
        } else {
            Ran::Died(death)
        })
    }

    /// Ends the child (its case was killed just as it answered): the next case starts a
    /// fresh one.
    fn retire(&mut self, s: &mut State) {
        s.child = None;
        self.child = None;
    }
}

impl Drop for Executor<'_> {
    /// Forgets the child's pid before the child is killed and waited for, so that the
    /// collecting thread never signals a pid the system may give to another process.
    fn drop(&mut self) {
        if self.child.is_some() {
            self.shared.slot(self.w).child = None;
        }
    }
}

/// Starts worker `w`: first the `redo` cases (pending failures of a checkpoint, re-run
/// without counting them again), then its stream from `done`.
pub fn spawn(
    shared: Arc<Shared>,
    w: usize,
    redo: Vec<Pending>,
    tx: Sender<Event>,
) -> std::thread::JoinHandle<()> {
    std::thread::Builder::new()
        .name(format!("eufuzz-worker-{w}"))
        .spawn(move || work(&shared, w, redo, &tx))
        .expect("spawn a campaign worker thread")
}

fn work(shared: &Shared, w: usize, redo: Vec<Pending>, tx: &Sender<Event>) {
    let mut redo = redo.into_iter();
    let mut exec = Executor::new(shared, w);
    while !shared.stop.load(Ordering::Relaxed) {
        let (index, again, drawn) = match redo.next() {
            Some(p) => (p.index, true, Some((p.view, p.mix))),
            None => (shared.slot(w).done, false, None),
        };
        let seed = shared.seed_of(w, index);
        let (input, view, mix) = {
            let mut s = shared.slot(w);
            let (view, mix) = drawn.unwrap_or_else(|| (s.corpus.len(), s.yields.mix()));
            let view = view.min(s.corpus.len());
            let input = shared.input(seed, &s.corpus[..view], &mix);
            s.current = Some(InFlight {
                index,
                seed,
                input: input.clone(),
                since: Instant::now(),
                cpu_seen: None,
                timed_out: None,
                confirming: false,
                abandoned: false,
            });
            (input, view, mix)
        };
        let started = Instant::now();
        let mut result = exec.run(&input);
        // A case the adaptive timeout killed runs once more with a longer one: a slow case
        // finishes then, a loop does not (a hang is filed only then).
        if let Ok(Ran::Died(death)) = &result
            && death.is_cpu_hang()
            && death.cap < shared.case_timeout
        {
            if let Some(c) = shared.slot(w).current.as_mut() {
                c.confirming = true;
                c.since = Instant::now();
                c.cpu_seen = None;
                c.timed_out = None;
            }
            result = exec.run(&input);
        }
        let (tally, found, ran) = match result {
            Ok(Ran::Case(tally, found)) => (tally, found.map(|f| *f), true),
            Ok(Ran::Died(death)) => {
                let (tally, found) = case::died(&shared.setup, &input, &death);
                (tally, Some(found), false)
            }
            Ok(Ran::Abandoned) => return,
            Err(e) => {
                shared.slot(w).error = Some(e.to_string());
                return;
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        // A case joins the corpus when it reaches any new feature, a new instruction
        // combination included. Leaving those out (the first design, because they are 96 %
        // of all features and a corpus of them grows fast) made mutation lose to fresh
        // programs: its parents were all rare-shape programs, whose neighbours reach few new
        // combinations. With them in, mutated cases late in a 4-minute campaign reached
        // half as many new features again as fresh ones (0.052 against 0.034 per case),
        // and the mix (see `super::mix`) gives mutation the cases that pay.
        let novel = !again && {
            let s = shared.slot(w);
            tally.features.iter().any(|f| !s.known.contains(f))
        };
        // Without feedback the entry is written all the same, never mutated: the corpus of
        // what the campaign reached, for the next night (`--corpus`) and for measuring the
        // coverage it reached (`scripts/coverage.sh --corpus`).
        let entry = novel.then(|| shared.keep(&input, tally.used)).flatten();
        {
            let mut s = shared.slot(w);
            let killed = s.current.take().is_some_and(|c| c.timed_out.is_some());
            if ran && killed {
                exec.retire(&mut s);
            }
            if ran {
                s.recent.push(seconds);
            }
            if again {
                if found.is_none() {
                    s.pending.retain(|p| p.index != index);
                }
            } else {
                tally.apply(&mut s.counts);
                s.done = index + 1;
                if ran && timing::is_slow(seconds, shared.median()) {
                    s.counts.slow += 1;
                    let slow = Slow {
                        seed,
                        seconds,
                        mutated: input.mutation.is_some(),
                    };
                    timing::keep(&mut s.slowest, slow);
                }
                let before = s.known.len();
                s.known.extend(tally.features.iter().copied());
                let new = s.known.len() - before;
                s.yields.record(input.mutation.as_deref(), new);
                let origin = if tally.mutated { "mutated" } else { "fresh" };
                add(&mut s.counts.features_added, origin, new as u64);
                if let Some(e) = entry.filter(|_| shared.feedback)
                    && !shared.has(&s.corpus, &e)
                {
                    s.corpus.push(e);
                    bump(&mut s.counts.corpus_added, origin);
                }
                if found.is_some() {
                    s.pending.push(Pending {
                        index,
                        seed,
                        view,
                        mix,
                    });
                }
            }
        }
        if let Some(found) = found
            && tx
                .send(Event {
                    worker: w,
                    index,
                    found,
                    at: Instant::now(),
                })
                .is_err()
        {
            return;
        }
    }
}
