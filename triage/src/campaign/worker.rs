//! Campaign workers: threads each running its own seed stream (see [`super::seeds`]).
//!
//! A worker's state sits behind its own lock, taken twice per case and otherwise only by
//! the collecting thread at progress and checkpoint time, so workers never wait for one
//! another. A failure is recorded as pending in the same locked step that counts its case
//! done, then sent to the collecting thread: a checkpoint therefore holds every failure
//! either filed or pending, and `--resume` re-runs the pending ones.
//!
//! With feedback, a worker keeps the features its cases reached and its own corpus entries
//! in its state too, updated in the step that counts the case done: a checkpoint holds a
//! worker's cases, features and entries as of one moment, so a resumed worker runs the
//! cases it would have run (see [`super::corpus`] for why a worker reads no other worker's
//! entries).

use super::case::{self, Found, Input, Setup};
use super::corpus::{self, Entry};
use super::mutate::{self, View};
use super::seeds::{Shard, seed_of};
use super::stats::{Counts, bump};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// A failure sent for filing and not filed yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub index: u64,
    pub seed: u64,
    /// The worker's own corpus entries the case could mutate (its view then), so that a
    /// re-run mutates as the case did.
    #[serde(default)]
    pub view: usize,
}

/// The case a worker is running.
#[derive(Clone, Debug)]
pub struct InFlight {
    pub index: u64,
    pub seed: u64,
    pub input: Input,
    pub since: Instant,
}

/// One worker's state.
#[derive(Debug, Default)]
pub struct State {
    /// Bumped when the collecting thread gives up on a stuck thread and starts another in
    /// its place; the stuck one then leaves without touching the state.
    pub epoch: u64,
    /// Cases of the stream done, in order: the next case is `done`.
    pub done: u64,
    pub counts: Counts,
    pub pending: Vec<Pending>,
    pub current: Option<InFlight>,
    /// Feature ids reached by the base corpus and this worker's cases.
    pub known: HashSet<u64>,
    /// This worker's corpus entries, in the order it added them (feedback only).
    pub corpus: Vec<Entry>,
}

/// What runs a case ([`case::run`]; tests put in cases that hang).
pub type Runner = fn(&Setup, &Input) -> (case::Tally, Option<Found>);

/// What the workers share: the setup, the seed space, the base corpus and one state per
/// worker.
pub struct Shared {
    pub setup: Setup,
    pub runner: Runner,
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

    /// What the case of `seed` runs, given the worker's own entries it may mutate.
    pub fn input(&self, seed: u64, own: &[Entry]) -> Input {
        if !self.feedback {
            return Input::fresh(seed);
        }
        let view = View {
            base: &self.base,
            own,
        };
        Input {
            seed,
            mutation: mutate::plan(seed, view).map(Arc::new),
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

/// Starts worker `w` with the given epoch: first the `redo` cases (pending failures of a
/// checkpoint, re-run without counting them again), then its stream from `done`.
pub fn spawn(
    shared: Arc<Shared>,
    w: usize,
    epoch: u64,
    redo: Vec<Pending>,
    tx: Sender<Event>,
) -> std::thread::JoinHandle<()> {
    std::thread::Builder::new()
        .name(format!("eufuzz-worker-{w}"))
        .spawn(move || work(&shared, w, epoch, redo, &tx))
        .expect("spawn a campaign worker thread")
}

fn work(shared: &Shared, w: usize, epoch: u64, redo: Vec<Pending>, tx: &Sender<Event>) {
    let mut redo = redo.into_iter();
    while !shared.stop.load(Ordering::Relaxed) {
        let (index, again, view) = match redo.next() {
            Some(p) => (p.index, true, Some(p.view)),
            None => (shared.slot(w).done, false, None),
        };
        let seed = shared.seed_of(w, index);
        let (input, view) = {
            let mut s = shared.slot(w);
            if s.epoch != epoch {
                return;
            }
            let view = view.unwrap_or(s.corpus.len()).min(s.corpus.len());
            let input = shared.input(seed, &s.corpus[..view]);
            s.current = Some(InFlight {
                index,
                seed,
                input: input.clone(),
                since: Instant::now(),
            });
            (input, view)
        };
        let (tally, found) = (shared.runner)(&shared.setup, &input);
        // A case joins the corpus when it reaches a new compiler behaviour: a rewrite, pass,
        // tally, rule, control-flow shape or outcome. New instruction combinations alone do
        // not count: they are a long tail (97 % of all features) that nearly every fresh
        // program extends, which filled the corpus with inputs mutation had no reason to
        // prefer.
        let novel = !again && {
            let s = shared.slot(w);
            tally
                .features
                .iter()
                .any(|f| !s.known.contains(f) && super::features::kind_of(*f) != Some("inst"))
        };
        let entry = (novel && shared.feedback)
            .then(|| shared.keep(&input, tally.used))
            .flatten();
        {
            let mut s = shared.slot(w);
            if s.epoch != epoch {
                return;
            }
            s.current = None;
            if again {
                if found.is_none() {
                    s.pending.retain(|p| p.index != index);
                }
            } else {
                tally.apply(&mut s.counts);
                s.done = index + 1;
                s.known.extend(tally.features.iter().copied());
                if let Some(e) = entry
                    && !shared.has(&s.corpus, &e)
                {
                    s.corpus.push(e);
                    let origin = if tally.mutated { "mutated" } else { "fresh" };
                    bump(&mut s.counts.corpus_added, origin);
                }
                if found.is_some() {
                    s.pending.push(Pending { index, seed, view });
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
