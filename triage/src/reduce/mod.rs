//! The reducer: shrink a failing program to a small one that fails the same way.
//!
//! Structure-aware delta debugging in the manner of C-Reduce and llvm-reduce: the steps of
//! [`candidates`] run from coarse to fine, each until none of its variants is kept, and the
//! whole sequence repeats until a round changes nothing (or the budget is spent). A variant is
//! kept when it has the original's bucket signature and its reference run is no less defined
//! ([`interesting`]). Variants are tried in a fixed order (resuming, after a kept variant,
//! where it was found) and the first kept one wins, so the
//! result depends only on the input; `jobs > 1` tests the next few variants speculatively in
//! parallel and still takes the first kept one in order (C-Reduce's rule), giving the same
//! result as one job. A failure that needs the schedule its register pressure chose is
//! reduced again with that schedule named ([`reduce`]).

pub mod bytes;
pub mod candidates;
pub mod file;
pub mod interesting;

use compiler::Program;
use compiler::passes::schedule::Mode;
use compiler::pipeline::CompileOptions;
use compiler::text::print_program;
use interesting::{Judgement, judge, judge_towards};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How a reduction is run.
pub struct Settings {
    pub opts: CompileOptions,
    /// Variants tested at once.
    pub jobs: usize,
    /// Stop improving after this long (the best program so far is the result).
    pub budget: Duration,
    /// Rounds over all steps at most.
    pub max_rounds: usize,
}

/// Progress events, for a terminal display (deciding and printing stay apart).
pub enum Event<'a> {
    Kept {
        step: &'static str,
        insts: usize,
        tests: usize,
    },
    Round {
        round: usize,
    },
    Done(&'a Reduced),
}

/// The result of a reduction.
#[derive(Clone, Debug)]
pub struct Reduced {
    pub program: Program,
    pub judgement: Judgement,
    pub insts_before: usize,
    pub insts_after: usize,
    /// Interestingness tests run (cache hits not counted).
    pub tests: usize,
    pub elapsed: Duration,
    /// Whether the budget ran out before a fixpoint.
    pub out_of_budget: bool,
    /// The pre-RA scheduling mode the result fails with only when it is named
    /// (`--pre-ra-schedule`): see [`pinned_schedule`].
    pub pre_ra_schedule: Option<Mode>,
}

/// Judgements by printed program, so a variant seen before is not tested again.
struct Cache {
    seen: HashMap<String, bool>,
    tests: usize,
}

impl Cache {
    /// Whether each variant is kept, testing `jobs` at a time in the order `from`, `from + 1`,
    /// …, wrapping around; stops at the first kept one.
    fn first_kept(
        &mut self,
        variants: &[Program],
        from: usize,
        target: &Judgement,
        settings: &Settings,
    ) -> Option<usize> {
        let n = variants.len();
        let order: Vec<usize> = (0..n).map(|k| (from.min(n) + k) % n.max(1)).collect();
        let mut k = 0;
        while k < n {
            let end = (k + settings.jobs.max(1)).min(n);
            // Printed only when reached: most variants after the first kept one never are,
            // and printing every variant of every search was a fifth of a reduction's time.
            let keys: Vec<(usize, String)> = order[k..end]
                .iter()
                .map(|&i| (i, print_program(&variants[i])))
                .collect();
            let fresh: Vec<usize> = keys
                .iter()
                .filter(|(_, key)| !self.seen.contains_key(key))
                .map(|&(i, _)| i)
                .collect();
            let results: Vec<(usize, bool)> = std::thread::scope(|s| {
                let handles: Vec<_> = fresh
                    .iter()
                    .map(|&i| {
                        let p = &variants[i];
                        s.spawn(move || {
                            (
                                i,
                                judge_towards(p, &settings.opts, Some(target)).keeps(target),
                            )
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or((usize::MAX, false)))
                    .collect()
            });
            for (i, kept) in results {
                if let Some((_, key)) = keys.iter().find(|(j, _)| *j == i) {
                    self.tests += 1;
                    self.seen.insert(key.clone(), kept);
                }
            }
            if let Some(&(i, _)) = keys
                .iter()
                .find(|(_, key)| self.seen.get(key) == Some(&true))
            {
                return Some(i);
            }
            k = end;
        }
        None
    }
}

/// The kinds of rewrite each run of pass `pass` makes compiling `p`, device parameters
/// aside (see `candidates::Step::same_rewrites`).
fn rewrite_profile(p: &Program, opts: &CompileOptions, pass: &str) -> Vec<Vec<&'static str>> {
    compiler::pipeline::compile(p, opts)
        .passes
        .into_iter()
        .filter(|r| r.name == pass)
        .map(|r| {
            r.rewrites
                .into_iter()
                .filter(|k| !compiler::pipeline::is_device_parameter(k))
                .collect()
        })
        .collect()
}

/// The bottom-up pre-RA scheduling mode, when `p` was allocated after it because its
/// register pressure made top-down allocation fail (Mesa tries the modes in turn and takes
/// the first that allocates without spilling, docs/hardware/brw-backend.md §7.1) and naming it gives the
/// same failure. Such a failure needs the order of that mode, which removing the values
/// that made top-down allocation fail would change; with the mode named, they can go (an
/// allocation failure of 22 instructions became 8).
fn pinned_schedule(p: &Program, target: &Judgement, opts: &CompileOptions) -> Option<Mode> {
    if opts.pre_ra_schedule.is_some() || opts.o0 || opts.spill_all {
        return None;
    }
    let lifo = rewrite_profile(p, opts, "allocate_registers")
        .into_iter()
        .flatten()
        .any(|k| k == Mode::Lifo.rewrite());
    let pinned = CompileOptions {
        pre_ra_schedule: Some(Mode::Lifo),
        ..opts.clone()
    };
    (lifo && judge(p, &pinned).keeps(target)).then_some(Mode::Lifo)
}

/// Reduces `p`, which must fail with `target` (see [`judge`]). When the result was
/// allocated after the bottom-up schedule its pressure chose, it is reduced again with that
/// mode named ([`pinned_schedule`]); the result names it ([`Reduced::pre_ra_schedule`])
/// when that made it smaller and it fails the same way only so.
pub fn reduce(
    p: &Program,
    target: &Judgement,
    settings: &Settings,
    mut progress: impl FnMut(Event),
) -> Reduced {
    let start = Instant::now();
    let mut reduced = reduce_with(p, target, settings, &mut progress);
    if let Some(mode) = pinned_schedule(&reduced.program, target, &settings.opts) {
        let pinned = Settings {
            opts: CompileOptions {
                pre_ra_schedule: Some(mode),
                ..settings.opts.clone()
            },
            budget: settings.budget.saturating_sub(start.elapsed()),
            ..*settings
        };
        let again = reduce_with(&reduced.program, target, &pinned, &mut progress);
        if candidates::size(&again.program) < candidates::size(&reduced.program) {
            let unpinned = judge(&again.program, &settings.opts);
            let needed = !unpinned.keeps(target);
            reduced = Reduced {
                judgement: if needed { again.judgement } else { unpinned },
                insts_before: reduced.insts_before,
                tests: reduced.tests + again.tests,
                out_of_budget: again.out_of_budget,
                pre_ra_schedule: needed.then_some(mode),
                ..again
            };
        }
    }
    reduced.elapsed = start.elapsed();
    progress(Event::Done(&reduced));
    reduced
}

fn reduce_with(
    p: &Program,
    target: &Judgement,
    settings: &Settings,
    mut progress: impl FnMut(Event),
) -> Reduced {
    let start = Instant::now();
    let mut best = p.clone();
    let mut cache = Cache {
        seen: HashMap::new(),
        tests: 0,
    };
    let mut out_of_budget = false;
    'rounds: for round in 0..settings.max_rounds {
        progress(Event::Round { round });
        let before = candidates::size(&best);
        for step in &candidates::STEPS {
            // Where the last kept variant of this step was: the next search resumes there
            // (delta debugging keeps its granularity instead of starting over).
            let mut resume = 0;
            loop {
                if start.elapsed() >= settings.budget {
                    out_of_budget = true;
                    break 'rounds;
                }
                let size = candidates::size(&best);
                // The culprit pass, as the signature (`kind/pass/detail`) names it.
                let culprit = target.signature.split('/').nth(1).unwrap_or_default();
                let profile = |p: &Program| rewrite_profile(p, &settings.opts, culprit);
                let own = step.same_rewrites.then(|| profile(&best));
                let variants: Vec<Program> = (step.variants)(&best)
                    .into_iter()
                    .filter(|v| candidates::size(v) < size)
                    .filter(|v| own.as_ref().is_none_or(|r| profile(v) == *r))
                    .collect();
                let Some(i) = cache.first_kept(&variants, resume, target, settings) else {
                    break;
                };
                resume = i;
                best = variants[i].clone();
                progress(Event::Kept {
                    step: step.name,
                    insts: best.inst_count(),
                    tests: cache.tests,
                });
            }
        }
        if candidates::size(&best) == before {
            break;
        }
    }
    Reduced {
        judgement: judge(&best, &settings.opts),
        insts_before: p.inst_count(),
        insts_after: best.inst_count(),
        program: best,
        tests: cache.tests,
        elapsed: start.elapsed(),
        out_of_budget,
        pre_ra_schedule: None,
    }
}
