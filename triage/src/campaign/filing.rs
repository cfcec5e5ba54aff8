//! Filing failures: deciding each failure's bucket, writing its reproducer, and running
//! reductions on a thread of their own so that no worker waits for one.
//!
//! Failures alike in signature, device and culprit rewrites are of one kind. The first
//! failure of a kind is reduced and its reduction's key names the kind's bucket; later
//! ones wait for it. A failure that will be written (its bucket has fewer than
//! `--per-bucket` reproducers) is reduced and keyed on its own reduction; one whose bucket
//! is full is only counted. Reproducers are written atomically and never overwritten.

use super::case::Found;
use super::reducers::{Against, Done, Priority, Reducers};
use super::stats::Failure;
use super::worker::Shared;
use crate::error::Result;
use crate::files::write_new;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Failures held at most in the filing stage (being reduced or waiting for their kind's
/// first reduction). When failures come faster than they can be reduced (every program of
/// a `--zoo all` campaign fails), later ones are filed at once without a reduction, in
/// their kind's bucket when it is known: memory stays bounded and nothing is lost.
pub const MAX_HELD: usize = 64;

/// A failure on its way to being filed.
pub struct Job {
    pub worker: usize,
    pub index: u64,
    pub seconds: f64,
    pub found: Found,
}

/// What filing must remember across `--resume`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Memory {
    /// The bucket of each kind of failure: its first reduction's key.
    pub bucket_of: BTreeMap<String, String>,
    /// Failures filed per bucket (written or not).
    pub per_bucket: BTreeMap<String, usize>,
    /// Reproducers written per bucket.
    pub written: BTreeMap<String, usize>,
    pub failures: Vec<Failure>,
}

/// A failure just filed, for the progress display.
pub struct Filed {
    pub bucket: String,
    pub file: Option<String>,
    pub new_bucket: bool,
}

/// Where a job waiting in the filing stage is.
#[derive(Clone, Debug, PartialEq)]
enum Stage {
    /// Waiting for its kind's first reduction.
    Parked,
    /// Being reduced, as the first of its kind.
    First,
    /// Being reduced, its kind's bucket known.
    Known(String),
}

/// The filing stage, run by the collecting thread.
pub struct Filing {
    pub memory: Memory,
    out: PathBuf,
    per_bucket: usize,
    reduce: bool,
    /// Whether a failure that cannot be held for reduction (the filing stage is full) is
    /// written unreduced in its known bucket (eufuzz's pipeline: `rebucket --reduce`
    /// reduces it later) or only counted (Mesa, see [`Filing::accept`]).
    write_unreduced: bool,
    /// Jobs being reduced or waiting for their kind's first reduction, by ticket.
    jobs: BTreeMap<u64, (Job, Stage)>,
    /// Reductions under way per bucket, for failures of a kind whose bucket is known: no
    /// more are started than the bucket has room for.
    reducing: BTreeMap<String, usize>,
    /// Failures of a kind whose first reduction runs that came when no more could be held:
    /// their programs dropped, they wait for the kind's bucket and are counted in it
    /// without a reproducer, as the failures of a full bucket are (their seeds replay them).
    /// Filing them under their own unreduced keys instead made a bucket per incidental
    /// rewrite in `--zoo all` campaigns, where nearly every program fails.
    counted: BTreeMap<String, Vec<Job>>,
    /// Kinds whose first reduction runs, with the ticket of that reduction.
    first_of_kind: BTreeMap<String, u64>,
    next_ticket: u64,
    reducers: Reducers,
}

/// `job` without its program and reproducer text, for counting only.
fn without_program(mut job: Job) -> Job {
    job.found.program = None;
    job.found.head = String::new();
    job.found.body = String::new();
    job
}

impl Filing {
    /// A filing stage writing into `out`, remembering `memory` (from a checkpoint), with
    /// `reducers` reduction threads started.
    pub fn new(
        out: PathBuf,
        per_bucket: usize,
        against: &Against,
        (reducers, reduce_budget): (usize, Duration),
        memory: Memory,
    ) -> Filing {
        Filing {
            memory,
            out,
            per_bucket,
            reduce: !reduce_budget.is_zero(),
            write_unreduced: matches!(against, Against::Pipeline(_)),
            jobs: BTreeMap::new(),
            counted: BTreeMap::new(),
            reducing: BTreeMap::new(),
            first_of_kind: BTreeMap::new(),
            next_ticket: 0,
            reducers: Reducers::spawn(reducers, against, reduce_budget),
        }
    }

    /// Whether the bucket will have its `--per-bucket` reproducers once the reductions
    /// under way for it are filed.
    fn full(&self, bucket: &str) -> bool {
        self.slots_taken(bucket) + self.reducing.get(bucket).copied().unwrap_or(0)
            >= self.per_bucket
    }

    /// The bucket's `--per-bucket` slots taken: by every failure filed in it (eufuzz's
    /// pipeline: a failure counted without a reproducer takes one too), or, when only
    /// reduced reproducers are written (Mesa), by the reproducers written.
    fn slots_taken(&self, bucket: &str) -> usize {
        let taken = if self.write_unreduced {
            &self.memory.per_bucket
        } else {
            &self.memory.written
        };
        taken.get(bucket).copied().unwrap_or(0)
    }

    /// Takes a new failure: files it now, or sends it for reduction, or parks it until its
    /// kind's first reduction is done.
    pub fn accept(&mut self, shared: &Shared, job: Job) -> Result<Vec<Filed>> {
        let alike = job.found.alike.clone();
        let known = self.memory.bucket_of.get(&alike).cloned();
        let program = job.found.program.clone().filter(|_| job.found.reducible);
        let ticket = self.next_ticket;
        let room = self.reduce && self.jobs.len() < MAX_HELD;
        let stage = match (program, known) {
            (Some(p), None) if self.reduce => match self.first_of_kind.entry(alike) {
                std::collections::btree_map::Entry::Occupied(_) if room => Stage::Parked,
                std::collections::btree_map::Entry::Occupied(o) => {
                    let alike = o.key().clone();
                    self.counted
                        .entry(alike)
                        .or_default()
                        .push(without_program(job));
                    return Ok(vec![]);
                }
                // The first of a kind is reduced even beyond MAX_HELD: its reduction names
                // the bucket of every later failure of the kind, and kinds are few.
                std::collections::btree_map::Entry::Vacant(v) => {
                    v.insert(ticket);
                    self.reducers.send(ticket, p, Priority::FirstOfKind);
                    Stage::First
                }
            },
            (Some(p), Some(b)) if room && !self.full(&b) => {
                self.reducers.send(ticket, p, Priority::Fill);
                *self.reducing.entry(b.clone()).or_default() += 1;
                Stage::Known(b)
            }
            // Against Mesa a bucket is keyed by the culprit pass alone and may hold several
            // root causes, so only reduced reproducers are written: one that cannot be
            // reduced now is counted (its seed replays it), and a later one takes the slot.
            (Some(_), Some(b)) if self.reduce && !self.write_unreduced => {
                return Ok(vec![self.count(shared, job, b)]);
            }
            (_, known) => {
                let bucket = known.unwrap_or_else(|| job.found.unreduced_key.clone());
                return Ok(vec![self.file(shared, job, bucket, None)?]);
            }
        };
        self.next_ticket += 1;
        self.jobs.insert(ticket, (job, stage));
        Ok(vec![])
    }

    /// Files the failures whose reductions are done (and those that waited for them).
    pub fn collect(&mut self, shared: &Shared) -> Result<Vec<Filed>> {
        let mut filed = vec![];
        while let Some((ticket, reduced)) = self.reducers.try_recv() {
            let Some((job, stage)) = self.jobs.remove(&ticket) else {
                continue;
            };
            if let Stage::Known(b) = &stage {
                self.unreserve(b);
            }
            let alike = job.found.alike.clone();
            let bucket = reduced
                .as_ref()
                .and_then(|o| o.key().map(str::to_string))
                .unwrap_or_else(|| job.found.unreduced_key.clone());
            if self.first_of_kind.get(&alike) == Some(&ticket) {
                self.first_of_kind.remove(&alike);
                self.memory.bucket_of.insert(alike.clone(), bucket.clone());
            }
            filed.push(self.file(shared, job, bucket.clone(), reduced.as_ref())?);
            // Counted after the first of their kind, so the bucket's reproducer is its.
            for j in self.counted.remove(&alike).unwrap_or_default() {
                filed.push(self.count(shared, j, bucket.clone()));
            }
            let waiting: Vec<u64> = self
                .jobs
                .iter()
                .filter(|(_, (j, stage))| j.found.alike == alike && *stage == Stage::Parked)
                .map(|(t, _)| *t)
                .collect();
            for t in waiting {
                if let Some((j, _)) = self.jobs.remove(&t) {
                    filed.extend(self.accept(shared, j)?);
                }
            }
        }
        Ok(filed)
    }

    fn unreserve(&mut self, bucket: &str) {
        if let Some(n) = self.reducing.get_mut(bucket) {
            *n -= 1;
            if *n == 0 {
                self.reducing.remove(bucket);
            }
        }
    }

    /// Failures waiting for a reduction.
    pub fn waiting(&self) -> usize {
        self.jobs.len()
    }

    /// Ends filing: the reductions not started are dropped, those running may finish for
    /// up to `wait` (each is bounded by the reduction budget anyway), then everything still
    /// waiting is filed unreduced ([`Filing::flush`]).
    pub fn finish(&mut self, shared: &Shared, wait: Duration) -> Result<Vec<Filed>> {
        self.reducers.cancel_queued();
        let until = Instant::now() + wait;
        let mut filed = vec![];
        loop {
            filed.extend(self.collect(shared)?);
            if self.reducers.running() == 0 || Instant::now() >= until {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        filed.extend(self.flush(shared)?);
        Ok(filed)
    }

    /// Files every failure still waiting, unreduced (the campaign is stopping: what was
    /// found is written now rather than lost).
    pub fn flush(&mut self, shared: &Shared) -> Result<Vec<Filed>> {
        let mut filed = self.collect(shared)?;
        for (_, (job, _)) in std::mem::take(&mut self.jobs) {
            let bucket = self
                .memory
                .bucket_of
                .get(&job.found.alike)
                .cloned()
                .unwrap_or_else(|| job.found.unreduced_key.clone());
            filed.push(self.file(shared, job, bucket, None)?);
        }
        for (alike, jobs) in std::mem::take(&mut self.counted) {
            let known = self.memory.bucket_of.get(&alike).cloned();
            for j in jobs {
                let bucket = known
                    .clone()
                    .unwrap_or_else(|| j.found.unreduced_key.clone());
                filed.push(self.count(shared, j, bucket));
            }
        }
        self.first_of_kind.clear();
        self.reducing.clear();
        Ok(filed)
    }

    /// Records a failure in `bucket` without writing anything (see `counted`).
    fn count(&mut self, shared: &Shared, job: Job, bucket: String) -> Filed {
        let new_bucket = !self.memory.per_bucket.contains_key(&bucket);
        *self.memory.per_bucket.entry(bucket.clone()).or_default() += 1;
        self.record(shared, job, &bucket, None, None);
        Filed {
            bucket,
            file: None,
            new_bucket,
        }
    }

    /// Records a failure in `bucket`, writing its reproducer (and reduction) unless the
    /// bucket is full, and takes it off its worker's pending list.
    pub fn file(
        &mut self,
        shared: &Shared,
        job: Job,
        bucket: String,
        reduction: Option<&Done>,
    ) -> Result<Filed> {
        let new_bucket = !self.memory.per_bucket.contains_key(&bucket);
        let room = self.slots_taken(&bucket) < self.per_bucket;
        *self.memory.per_bucket.entry(bucket.clone()).or_default() += 1;
        let (file, reduced) = if room {
            self.write(&job.found, &bucket, reduction)?
        } else {
            (None, None)
        };
        if file.is_some() {
            *self.memory.written.entry(bucket.clone()).or_default() += 1;
        }
        self.record(shared, job, &bucket, file.clone(), reduced);
        Ok(Filed {
            bucket,
            file,
            new_bucket,
        })
    }

    /// Adds a failure to the statistics and takes it off its worker's pending list.
    fn record(
        &mut self,
        shared: &Shared,
        job: Job,
        bucket: &str,
        file: Option<String>,
        reduced: Option<String>,
    ) {
        let f = &job.found;
        self.memory.failures.push(Failure {
            kind: f.kind.clone(),
            culprit_pass: f.culprit_pass.clone(),
            signature: f.signature.clone(),
            bucket: bucket.to_string(),
            seconds: job.seconds,
            file,
            seed: f.seed,
            reduced,
            without_zoo_bug: f.without_zoo_bug,
        });
        shared
            .slot(job.worker)
            .pending
            .retain(|p| p.index != job.index);
    }

    /// Writes `KIND-SEED.eu`, `KIND-SEED.bytes` (the generator bytes: the seed's, or a
    /// mutated case's own) and the reduction; a file already there
    /// (the same case, filed before a kill and re-run on `--resume`) is kept as it is.
    fn write(
        &self,
        f: &Found,
        bucket: &str,
        reduction: Option<&Done>,
    ) -> Result<(Option<String>, Option<String>)> {
        let name = format!("{}-{}", f.kind, f.seed);
        let eu = self.out.join(format!("{name}.eu"));
        let bytes = self.out.join(format!("{name}.bytes"));
        // A mutated case's bytes are its own; a fresh case's are its seed's.
        match &f.bytes {
            Some(m) => write_new(&bytes, &m.bytes)?,
            None => write_new(&bytes, &oracle::generator::seed_bytes(f.seed))?,
        };
        if f.program.is_none() {
            // The generator itself panicked: the bytes are the reproducer.
            return Ok((Some(bytes.display().to_string()), None));
        }
        write_new(&eu, f.reproducer(bucket).as_bytes())?;
        let reduced = match reduction {
            Some(o) => {
                let path = self.out.join(format!("{name}.reduced.eu"));
                let text = o.file_text(&eu, bucket);
                write_new(&path, text.as_bytes())?;
                Some(path.display().to_string())
            }
            None => None,
        };
        Ok((Some(eu.display().to_string()), reduced))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::case::Setup;
    use crate::campaign::seeds::Shard;
    use crate::campaign::worker::{Pending, State};
    use std::sync::atomic::AtomicBool;
    use std::sync::{Arc, Mutex};

    fn shared() -> Shared {
        Shared {
            setup: Setup {
                knobs: Default::default(),
                compile: Default::default(),
                zoo: None,
                options: vec![],
                backend: None,
            },
            isolation: crate::campaign::worker::Isolation::Thread(crate::campaign::case::run),
            out: std::env::temp_dir(),
            seed: 0,
            shard: Shard::ALL,
            stop: Arc::new(AtomicBool::new(false)),
            slots: vec![Mutex::new(State::default())],
            feedback: false,
            base: vec![],
            corpus_dirs: vec![],
            corpus_written: AtomicBool::new(false),
            median: Default::default(),
            case_timeout: std::time::Duration::from_secs(30),
        }
    }

    /// A failure of kind `kind` found by case `seed` (a real program, for the reducer).
    fn job(seed: u64, kind: &str) -> Job {
        let g = oracle::generator::from_seed(seed, &Default::default());
        Job {
            worker: 0,
            index: seed,
            seconds: 0.0,
            found: Found {
                seed,
                kind: "mismatch".into(),
                signature: "mismatch/p/output".into(),
                unreduced_key: format!("rewrite/p/{kind}"),
                alike: kind.into(),
                culprit_pass: Some("p".into()),
                without_zoo_bug: None,
                program: Some(g.program.clone()),
                head: "# eufuzz reproducer\n".into(),
                body: compiler::text::print_program(&g.program),
                reducible: true,
                bytes: None,
            },
        }
    }

    #[test]
    fn failures_beyond_what_is_held_are_counted_in_their_kinds_bucket_and_nothing_is_lost() {
        let out = std::env::temp_dir().join(format!("eufuzz-filing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
        let shared = shared();
        let budget = Duration::from_secs(1);
        let mut f = Filing::new(
            out.clone(),
            1,
            &Against::Pipeline(Default::default()),
            (1, budget),
            Memory::default(),
        );
        let n = MAX_HELD as u64 + 10;
        for seed in 0..n {
            shared.slot(0).pending.push(Pending {
                index: seed,
                seed,
                view: 0,
                mix: Default::default(),
            });
            // Two of each kind: the second waits for the first's reduction.
            f.accept(&shared, job(seed, &format!("kind-{}", seed / 2)))
                .unwrap();
            // Programs held: at most MAX_HELD, besides the first of each kind.
            assert!(f.waiting() <= MAX_HELD + (seed / 2 + 1) as usize);
        }
        // Past MAX_HELD, a kind's later failures wait without their programs.
        assert!(f.counted.values().map(Vec::len).sum::<usize>() > 0);
        assert!(
            f.counted
                .values()
                .flatten()
                .all(|j| j.found.program.is_none())
        );
        f.flush(&shared).unwrap();
        assert_eq!(f.waiting(), 0);
        assert_eq!(f.memory.failures.len() as u64, n);
        assert!(shared.slot(0).pending.is_empty());
        // One reproducer per bucket (--per-bucket 1), never two files for one case.
        let written = f
            .memory
            .failures
            .iter()
            .filter(|x| x.file.is_some())
            .count();
        assert_eq!(written, f.memory.per_bucket.len());
        std::fs::remove_dir_all(&out).unwrap();
    }

    /// A filing stage that knows kind `k` files in bucket `b` and holds `MAX_HELD` jobs
    /// (flooded), reducing `against`.
    fn flooded(out: &std::path::Path, against: &Against) -> Filing {
        let memory = Memory {
            bucket_of: [("k".to_string(), "b".to_string())].into(),
            ..Memory::default()
        };
        let mut f = Filing::new(
            out.to_path_buf(),
            2,
            against,
            (1, Duration::from_secs(1)),
            memory,
        );
        for t in 0..MAX_HELD as u64 {
            f.jobs
                .insert(1000 + t, (job(1000 + t, "other"), Stage::Parked));
        }
        f
    }

    #[test]
    fn a_flooded_mesa_filing_stage_counts_without_taking_the_buckets_slots() {
        let out = std::env::temp_dir().join(format!("eufuzz-flood-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
        let shared = shared();
        let mesa = Against::Mesa(
            crate::mesa::Backend {
                pass: "opt_cse".into(),
                inputs: 4,
            },
            Duration::from_secs(1),
        );
        let mut f = flooded(&out, &mesa);
        for seed in 1..=3 {
            f.accept(&shared, job(seed, "k")).unwrap();
        }
        // Counted in the bucket, nothing written, and the bucket still has both slots.
        assert_eq!(f.memory.per_bucket["b"], 3);
        assert!(f.memory.written.is_empty());
        assert!(f.memory.failures.iter().all(|x| x.file.is_none()));
        assert!(!f.full("b"));
        // Once there is room, the next failure goes to a reduction to fill a slot.
        f.jobs.clear();
        f.accept(&shared, job(4, "k")).unwrap();
        assert!(matches!(f.jobs.values().next(), Some((_, Stage::Known(b))) if b == "b"));
        // eufuzz's pipeline: the flood's failures are written unreduced and take the slots.
        let mut p = flooded(&out, &Against::Pipeline(Default::default()));
        for seed in 5..=7 {
            p.accept(&shared, job(seed, "k")).unwrap();
        }
        assert_eq!(p.memory.written["b"], 2);
        assert!(p.full("b"));
        assert!(out.join("mismatch-5.eu").exists() && !out.join("mismatch-7.eu").exists());
        std::fs::remove_dir_all(&out).unwrap();
    }

    #[cfg(feature = "zoo")]
    #[test]
    fn a_campaign_that_ends_lets_the_running_reduction_finish() {
        let out = std::env::temp_dir().join(format!("eufuzz-finish-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
        let p = super::super::reducers::zoo_program("sched-across-halt");
        let opts = compiler::pipeline::CompileOptions {
            zoo: compiler::zoo::select("sched-across-halt").unwrap(),
            ..Default::default()
        };
        let shared = shared();
        let mut f = Filing::new(
            out.clone(),
            5,
            &Against::Pipeline(opts),
            (1, Duration::from_secs(60)),
            Memory::default(),
        );
        let mut j = job(7, "kind");
        j.found.program = Some(p);
        shared.slot(0).pending.push(Pending {
            index: 7,
            seed: 7,
            view: 0,
            mix: Default::default(),
        });
        f.accept(&shared, j).unwrap();
        // Wait until the reducer has taken it: only queued reductions are dropped. (Polling
        // `running` could miss a reduction that starts and ends between two looks.)
        while f.reducers.queued() > 0 {
            std::thread::sleep(Duration::from_millis(5));
        }
        let filed = f.finish(&shared, Duration::from_secs(60)).unwrap();
        assert_eq!(filed.len(), 1);
        assert_eq!(
            filed[0].bucket,
            "rewrite/schedule_post_ra/reorder-across-halt"
        );
        let failure = &f.memory.failures[0];
        let reduced = failure.reduced.as_ref().expect("filed with its reduction");
        assert!(std::path::Path::new(reduced).exists());
        std::fs::remove_dir_all(&out).unwrap();
    }
}
