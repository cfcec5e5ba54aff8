//! Campaign workers: threads each running its own seed stream (see [`super::seeds`]).
//!
//! A worker's state sits behind its own lock, taken twice per case and otherwise only by
//! the collecting thread at progress and checkpoint time, so workers never wait for one
//! another. A failure is recorded as pending in the same locked step that counts its case
//! done, then sent to the collecting thread: a checkpoint therefore holds every failure
//! either filed or pending, and `--resume` re-runs the pending ones.

use super::case::{self, Found, Setup};
use super::seeds::{Shard, seed_of};
use super::stats::Counts;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// A failure sent for filing and not filed yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub index: u64,
    pub seed: u64,
}

/// The case a worker is running.
#[derive(Clone, Copy, Debug)]
pub struct InFlight {
    pub index: u64,
    pub seed: u64,
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
}

/// What runs a case ([`case::run`]; tests put in cases that hang).
pub type Runner = fn(&Setup, u64) -> (case::Tally, Option<Found>);

/// What the workers share: the setup, the seed space and one state per worker.
pub struct Shared {
    pub setup: Setup,
    pub runner: Runner,
    pub seed: u64,
    pub shard: Shard,
    pub stop: Arc<AtomicBool>,
    pub slots: Vec<Mutex<State>>,
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
}

/// Starts worker `w` with the given epoch: first the `redo` cases (pending failures of a
/// checkpoint, re-run without counting them again), then its stream from `done`.
pub fn spawn(
    shared: Arc<Shared>,
    w: usize,
    epoch: u64,
    redo: Vec<u64>,
    tx: Sender<Event>,
) -> std::thread::JoinHandle<()> {
    std::thread::Builder::new()
        .name(format!("eufuzz-worker-{w}"))
        .spawn(move || work(&shared, w, epoch, redo, &tx))
        .expect("spawn a campaign worker thread")
}

fn work(shared: &Shared, w: usize, epoch: u64, redo: Vec<u64>, tx: &Sender<Event>) {
    let mut redo = redo.into_iter();
    while !shared.stop.load(Ordering::Relaxed) {
        let (index, again) = match redo.next() {
            Some(i) => (i, true),
            None => (shared.slot(w).done, false),
        };
        let seed = shared.seed_of(w, index);
        {
            let mut s = shared.slot(w);
            if s.epoch != epoch {
                return;
            }
            s.current = Some(InFlight {
                index,
                seed,
                since: Instant::now(),
            });
        }
        let (tally, found) = (shared.runner)(&shared.setup, seed);
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
                if found.is_some() {
                    s.pending.push(Pending { index, seed });
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
