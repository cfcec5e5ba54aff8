//! The campaign's reduction threads, and the reduction a failure gets (shared with
//! `eufuzz rebucket --reduce`, so a follow-up stage reduces exactly as a campaign would).
//!
//! There are as many reduction threads as workers. A `--zoo all` campaign fails on nearly
//! every case, and one reduction thread left most kinds of failure unreduced when the
//! campaign ended: their reproducers were filed under their unreduced keys, one bucket per
//! incidental rewrite. Reductions that name a kind's bucket are taken before those that
//! only fill a known bucket, because the first gate every later failure of their kind.

use compiler::Program;
use compiler::pipeline::CompileOptions;
use std::collections::VecDeque;
use std::path::Path;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// A failure's reduction and what it is keyed on.
pub struct Outcome {
    pub reduced: crate::reduce::Reduced,
    /// The reduced program's bucket key (`None` if it no longer fails).
    pub key: Option<String>,
    /// The options the reduction fails with, written into its `# options:` line so that
    /// it replays alone: the zoo bugs it needs (see [`attributed`]) and a pre-RA schedule
    /// when it fails with a named one only.
    pub options: CompileOptions,
}

/// What reduces a campaign's failures.
#[derive(Clone, Debug)]
pub enum Against {
    /// eufuzz's reducer, against the campaign's compile options.
    Pipeline(CompileOptions),
    /// The Mesa reducer ([`crate::mesa::reduce`]), through a shim each reduction thread
    /// starts when it first needs one; each shim request may take the duration given.
    Mesa(crate::mesa::Backend, Duration),
}

/// A finished reduction's result, by reducer.
pub enum Done {
    Pipeline(Box<Outcome>),
    Mesa(crate::mesa::case::Reduced),
}

impl Done {
    /// The reduced program's bucket key (`None` if it no longer fails).
    pub fn key(&self) -> Option<&str> {
        match self {
            Done::Pipeline(o) => o.key.as_deref(),
            Done::Mesa(r) => r.key.as_deref(),
        }
    }

    /// The text of `NAME.reduced.eu` beside `original`, in `bucket`.
    pub fn file_text(&self, original: &Path, bucket: &str) -> String {
        match self {
            Done::Pipeline(o) => reduced_file_text(original, o, bucket),
            Done::Mesa(r) => r.file_text(original, bucket),
        }
    }
}

/// A finished reduction: the failure's ticket, and its result (when the reduction could
/// run).
pub type Reduction = (u64, Option<Done>);

/// Which reductions run first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// The first failure of its kind: its key names the bucket of the whole kind.
    FirstOfKind,
    /// A failure of a kind whose bucket is known, reduced to be written there.
    Fill,
}

#[derive(Default)]
struct Queue {
    first: VecDeque<(u64, Program)>,
    fill: VecDeque<(u64, Program)>,
    running: usize,
    closed: bool,
}

impl Queue {
    fn pop(&mut self) -> Option<(u64, Program)> {
        self.first.pop_front().or_else(|| self.fill.pop_front())
    }
}

type Shared = Arc<(Mutex<Queue>, Condvar)>;

/// The reduction threads: programs in by ticket, reductions out.
pub struct Reducers {
    queue: Shared,
    results: Receiver<Reduction>,
}

fn lock(q: &Shared) -> std::sync::MutexGuard<'_, Queue> {
    // A reducer panic is caught around each reduction, so the lock is never poisoned by
    // one; should it be, the queue's data is still consistent (single-field updates).
    q.0.lock().unwrap_or_else(|e| e.into_inner())
}

/// Reduces a failure of a Mesa campaign with this thread's shim (started on first use).
fn reduce_with_mesa(
    shim: &mut Option<crate::mesa::shim::Shim>,
    backend: &crate::mesa::Backend,
    timeout: Duration,
    p: &Program,
    budget: Duration,
) -> Option<crate::mesa::case::Reduced> {
    if shim.is_none() {
        *shim = Some(crate::mesa::shim::Shim::open(timeout).ok()?);
    }
    let shim = shim.as_mut()?;
    crate::mesa::case::reduce_failure(shim, backend, p, budget)
        .ok()
        .flatten()
}

fn serve(queue: Shared, done: Sender<Reduction>, against: Against, budget: Duration) {
    let mut shim = None;
    loop {
        let (ticket, p) = {
            let mut q = lock(&queue);
            loop {
                if q.closed {
                    return;
                }
                if let Some(job) = q.pop() {
                    q.running += 1;
                    break job;
                }
                q = queue.1.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        let r = super::case::catching(|| match &against {
            Against::Pipeline(opts) => {
                reduce(&p, opts, budget).map(|o| Done::Pipeline(Box::new(o)))
            }
            Against::Mesa(backend, timeout) => {
                reduce_with_mesa(&mut shim, backend, *timeout, &p, budget).map(Done::Mesa)
            }
        })
        .ok()
        .flatten();
        let sent = done.send((ticket, r));
        lock(&queue).running -= 1;
        if sent.is_err() {
            return;
        }
    }
}

impl Reducers {
    /// Starts `threads` reduction threads reducing `against`, each reduction bounded by
    /// `budget`.
    pub fn spawn(threads: usize, against: &Against, budget: Duration) -> Reducers {
        let queue: Shared = Arc::new((Mutex::new(Queue::default()), Condvar::new()));
        let (done, results) = channel();
        for i in 0..threads.max(1) {
            let (queue, done, against) = (queue.clone(), done.clone(), against.clone());
            std::thread::Builder::new()
                .name(format!("eufuzz-reducer-{i}"))
                .spawn(move || serve(queue, done, against, budget))
                .expect("spawn a reducer thread");
        }
        Reducers { queue, results }
    }

    /// Queues a program for reduction.
    pub fn send(&self, ticket: u64, p: Program, priority: Priority) {
        let mut q = lock(&self.queue);
        match priority {
            Priority::FirstOfKind => q.first.push_back((ticket, p)),
            Priority::Fill => q.fill.push_back((ticket, p)),
        }
        self.queue.1.notify_one();
    }

    /// A finished reduction, if one is there.
    pub fn try_recv(&self) -> Option<Reduction> {
        self.results.try_recv().ok()
    }

    /// Drops the reductions not started yet (the campaign is ending; their failures are
    /// filed unreduced, for `eufuzz rebucket --reduce`).
    pub fn cancel_queued(&self) {
        let mut q = lock(&self.queue);
        q.first.clear();
        q.fill.clear();
    }

    /// Reductions queued and not started yet (for the zoo-build test of `Filing::finish`).
    #[cfg(all(test, feature = "zoo"))]
    pub fn queued(&self) -> usize {
        let q = lock(&self.queue);
        q.first.len() + q.fill.len()
    }

    /// Reductions running now.
    pub fn running(&self) -> usize {
        lock(&self.queue).running
    }
}

impl Drop for Reducers {
    fn drop(&mut self) {
        lock(&self.queue).closed = true;
        self.queue.1.notify_all();
    }
}

/// With several zoo bugs injected, the options with only the bugs `p` needs to fail with
/// `signature`: the first bug (in zoo order) that makes it fail alone, or else the bugs
/// left after dropping, one by one, each that is not needed (a failure that needs several
/// bugs at once keeps all of them, and none when it fails without any). Against all of
/// them a reduction could slip from one bug of a pass to another of the same pass (both
/// give that signature) and land in the other bug's bucket; and a reproducer naming only
/// the bugs it needs says what it shows. `None` with one bug or none, or when every bug is
/// needed.
pub fn attributed(p: &Program, opts: &CompileOptions, signature: &str) -> Option<CompileOptions> {
    let alone = compiler::zoo::each_alone(&opts.zoo);
    if alone.len() < 2 {
        return None;
    }
    let fails = |names: &str| {
        let o = CompileOptions {
            zoo: compiler::zoo::select(names).ok()?,
            ..opts.clone()
        };
        (crate::reduce::interesting::judge(p, &o).signature == signature).then_some(o)
    };
    if let Some(o) = alone
        .iter()
        .find_map(|bug| fails(&compiler::zoo::names(bug)))
    {
        return Some(o);
    }
    let all = compiler::zoo::names(&opts.zoo);
    let bugs: Vec<&str> = all.split(',').collect();
    let mut fewest = None;
    fewer_bugs(&bugs, |names| match fails(names) {
        Some(o) => {
            fewest = Some(o);
            true
        }
        None => false,
    });
    fewest
}

/// Drops from `bugs`, one at a time in order, each bug without which `fails` still holds
/// (it is given the remaining names as `--zoo` takes them: `a,b`, or `none`); returns the
/// bugs left, which are all needed together.
fn fewer_bugs<'a>(bugs: &[&'a str], mut fails: impl FnMut(&str) -> bool) -> Vec<&'a str> {
    let mut needed = bugs.to_vec();
    let mut i = 0;
    while i < needed.len() {
        let mut fewer = needed.clone();
        fewer.remove(i);
        let names = if fewer.is_empty() {
            "none".to_string()
        } else {
            fewer.join(",")
        };
        if fails(&names) {
            needed = fewer;
        } else {
            i += 1;
        }
    }
    needed
}

/// Reduces a failing program within `budget`, keeping its signature, and keys the result
/// with the options it was reduced against. `None` when `p` does not fail.
pub fn reduce(p: &Program, opts: &CompileOptions, budget: Duration) -> Option<Outcome> {
    let target = crate::reduce::interesting::judge(p, opts);
    if !target.signature.contains('/') || target.signature.starts_with("discard/") {
        return None;
    }
    let (opts, target) = match attributed(p, opts, &target.signature) {
        Some(needed) => {
            let target = crate::reduce::interesting::judge(p, &needed);
            (needed, target)
        }
        None => (opts.clone(), target),
    };
    let settings = crate::reduce::Settings {
        opts: opts.clone(),
        jobs: 1,
        budget,
        max_rounds: 8,
    };
    let reduced = crate::reduce::reduce(p, &target, &settings, |_| {});
    let opts = CompileOptions {
        pre_ra_schedule: reduced.pre_ra_schedule,
        ..opts
    };
    let key = crate::identity::key_of_program(&reduced.program, &opts);
    Some(Outcome {
        reduced,
        key,
        options: opts,
    })
}

/// The text of `NAME.reduced.eu` beside `original`: the reduction's header, the options it
/// fails with (always: a reduction must replay without its original), its bucket and the
/// program.
pub fn reduced_file_text(original: &Path, o: &Outcome, bucket: &str) -> String {
    let mut text = crate::repro::reduced_header(original, &o.reduced, None);
    text.push_str(&crate::repro::options_line(&crate::options::option_words(
        &o.options,
    )));
    text.push_str(&format!("# bucket: {bucket}\n"));
    text.push_str(&compiler::text::print_program(&o.reduced.program));
    text
}

/// The program of `corpus/zoo/BUG.eu`, for tests that need a failure.
#[cfg(all(test, feature = "zoo"))]
pub fn zoo_program(bug: &str) -> Program {
    let path = format!("{}/../corpus/zoo/{bug}.eu", env!("CARGO_MANIFEST_DIR"));
    crate::load::load_document(Path::new(&path))
        .expect("a corpus zoo program")
        .program
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_that_needs_several_bugs_keeps_all_of_them_and_only_them() {
        // Fails when both b and d are on (whatever else is).
        let needs_b_and_d = |names: &str| {
            let on: Vec<&str> = names.split(',').collect();
            on.contains(&"b") && on.contains(&"d")
        };
        assert_eq!(
            fewer_bugs(&["a", "b", "c", "d", "e"], needs_b_and_d),
            ["b", "d"]
        );
        // A failure that needs no bug at all keeps none (its reproducer replays without
        // the zoo).
        assert!(fewer_bugs(&["a", "b"], |_| true).is_empty());
        // Every bug needed: all kept.
        assert_eq!(fewer_bugs(&["a", "b"], |n| n == "a,b"), ["a", "b"]);
    }

    #[test]
    fn the_reductions_that_name_a_bucket_go_first() {
        let p = oracle::generator::from_seed(1, &Default::default()).program;
        let mut q = Queue::default();
        q.fill.push_back((1, p.clone()));
        q.fill.push_back((2, p.clone()));
        q.first.push_back((3, p.clone()));
        let order: Vec<u64> = std::iter::from_fn(|| q.pop().map(|(t, _)| t)).collect();
        assert_eq!(order, [3, 1, 2]);
    }

    #[cfg(feature = "zoo")]
    #[test]
    fn a_reduction_that_needs_the_bottom_up_schedule_says_so_in_its_options_and_key() {
        // The 22-instruction reproducer of the reducer test data: top-down allocation of
        // the reduced program does not fail, the bottom-up one does.
        let path = format!(
            "{}/tests/data/move-load-const-lifo-22.eu",
            env!("CARGO_MANIFEST_DIR")
        );
        let p = crate::load::load_document(Path::new(&path))
            .expect("test data")
            .program;
        let opts = CompileOptions {
            zoo: compiler::zoo::select("move-load-const-into-loop").unwrap(),
            ..Default::default()
        };
        let o = reduce(&p, &opts, Duration::from_secs(600)).expect("it fails");
        assert_eq!(
            o.reduced.pre_ra_schedule,
            Some(compiler::passes::schedule::Mode::Lifo)
        );
        let key = o.key.clone().expect("the reduction fails");
        let text = reduced_file_text(Path::new("m.eu"), &o, &key);
        assert!(
            text.contains("# options: --pre-ra-schedule lifo --zoo move-load-const-into-loop\n"),
            "{text}"
        );
        // The key is the one the file's options give.
        let named = CompileOptions {
            pre_ra_schedule: Some(compiler::passes::schedule::Mode::Lifo),
            ..opts
        };
        assert_eq!(
            o.key,
            crate::identity::key_of_program(&o.reduced.program, &named)
        );
    }

    #[cfg(feature = "zoo")]
    #[test]
    fn a_several_bug_failure_is_reduced_against_the_bug_that_makes_it_fail_alone() {
        // Both bugs live in schedule_post_ra and give one signature; the corpus program of
        // sched-across-halt fails with that bug alone (its `# zoo:` line), not the other.
        let p = zoo_program("sched-across-halt");
        let both = CompileOptions {
            zoo: compiler::zoo::select("sched-ignores-flag-war,sched-across-halt").unwrap(),
            ..Default::default()
        };
        let signature = crate::reduce::interesting::judge(&p, &both).signature;
        assert!(
            signature.starts_with("mismatch/schedule_post_ra/"),
            "{signature}"
        );
        let chosen = attributed(&p, &both, &signature).expect("one bug explains it");
        assert_eq!(
            chosen.zoo,
            compiler::zoo::select("sched-across-halt").unwrap()
        );
        // One bug: nothing to attribute.
        let one = CompileOptions {
            zoo: compiler::zoo::select("sched-across-halt").unwrap(),
            ..Default::default()
        };
        assert!(attributed(&p, &one, &signature).is_none());
    }
}
