//! Bisection: which commit introduced a bucket's failure, or which fixed it. Every revision
//! of the range is built from git (in a worktree under a cache directory, one binary per
//! commit, kept for later runs), the reproducer is replayed with that revision's own
//! `eufuzz check`, and the search ([`search`]) narrows the range the way `git bisect` does,
//! skipping revisions that do not build or give another verdict.
//!
//! - [`search`]: the pure search over a commit list with skips.
//! - [`verdict`]: what a revision's `check` output means for the bisected signature.
//! - [`git`]: the commit range and commit details.
//! - [`build`]: the worktree, the build command, running a revision's check.
//! - [`cache`]: where binaries are kept, and cleaning by size.
//! - [`saved`]: results as JSON, read back for the morning report.

pub mod build;
pub mod cache;
pub mod git;
pub mod saved;
pub mod search;
pub mod verdict;

use crate::error::{Error, Result};
use crate::repro::directives::{self, Expectation};
use crate::repro::header_value;
use build::{Builder, Built, Recipe, run_check};
use git::Commit;
use search::{Mark, Step, next_step};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use verdict::{Outcome, mark, outcome};

/// What to bisect, and how.
#[derive(Clone, Debug)]
pub struct Request {
    pub repo: PathBuf,
    pub repro: PathBuf,
    /// The older end of the range (passes for a regression, fails for `fixed`).
    pub good: String,
    /// The newer end (fails for a regression, passes for `fixed`).
    pub bad: String,
    /// Look for the commit that fixed the failure instead of the one that introduced it.
    pub fixed: bool,
    /// The signature bisected; `None`: the reproducer's `# signature:` or `# expect:` line,
    /// else what the failing end shows.
    pub signature: Option<String>,
    pub recipe: Recipe,
    pub cache: PathBuf,
    /// Cache size limit in bytes, enforced when the bisection ends.
    pub cache_limit: u64,
    /// Stop testing after this long and name the range left.
    pub time: Option<Duration>,
}

/// One tested revision.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Probe {
    pub commit: Commit,
    /// Its binary came from the cache (no build).
    pub cached: bool,
    pub seconds: f64,
    pub outcome: Outcome,
    pub mark: Mark,
    /// Why it was skipped.
    pub skipped: Option<String>,
}

/// What the bisection concluded.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "commits")]
pub enum Finding {
    /// This commit is the first bad one (or, with `fixed`, the first good one).
    Found(Commit),
    /// One of these is, oldest first: the others could not be tested.
    Range(Vec<Commit>),
    /// The time budget ran out; one of these is, oldest first.
    OutOfTime(Vec<Commit>),
}

/// A finished bisection.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Bisection {
    /// `introduced` or `fixed`.
    pub mode: &'static str,
    /// The reproducer's `# bucket:` key, when it has one (how a report finds its bucket).
    pub bucket: Option<String>,
    pub signature: String,
    pub good: String,
    pub bad: String,
    /// Commits in the range, the good end excluded.
    pub range: usize,
    pub finding: Finding,
    pub probes: Vec<Probe>,
    /// Revisions built (not taken from the cache).
    pub builds: usize,
    pub seconds: f64,
    /// Cache entries removed to keep it under its limit.
    pub cleaned: Vec<PathBuf>,
}

/// The signature a reproducer's header says it fails with: `# signature:` (campaign
/// reproducers), else a failing `# expect:` or an `# xfail: … [SIGNATURE]` (corpus files).
pub fn header_signature(text: &str) -> Option<String> {
    if let Some(s) = header_value(text, "signature") {
        return Some(s.to_string());
    }
    match directives::parse(text).ok()?.expect {
        Expectation::Fail(s) => Some(s),
        Expectation::XFail { signature, .. } => signature,
        Expectation::Pass => None,
    }
}

/// Runs a bisection, calling `on_probe` after each tested revision (builds take minutes:
/// the caller shows progress). `stop` set (Ctrl-C) ends it with `Refused("interrupted")`
/// after the worktree is removed.
pub fn bisect(
    req: &Request,
    stop: Arc<AtomicBool>,
    on_probe: &mut dyn FnMut(&Probe),
) -> Result<Bisection> {
    let started = Instant::now();
    let text = crate::files::read_text(&req.repro)?;
    let repro =
        std::fs::canonicalize(&req.repro).map_err(|e| Error::io(&req.repro, "resolve", e))?;
    let commits = git::range(&req.repo, &req.good, &req.bad)?;
    let mut builder = Builder::new(&req.repo, &req.cache, req.recipe.clone(), stop.clone())?;
    let mut run = Run {
        builder: &mut builder,
        repro,
        stop: &stop,
        probes: vec![],
        on_probe,
    };
    let last = commits.len() - 1;
    // The failing end: the new one for a regression, the old one for a fix.
    let failing_end = if req.fixed { 0 } else { last };
    let mut marks: Vec<Option<Mark>> = vec![None; commits.len()];
    let signature = match req.signature.clone().or_else(|| header_signature(&text)) {
        Some(s) => s,
        None => {
            let o = run.probe(&commits[failing_end])?;
            let first = match &o {
                Outcome::Fails(s) => s.first().cloned(),
                _ => None,
            };
            let Some(s) = first else {
                return Err(not_failing(&commits[failing_end], &o));
            };
            marks[failing_end] = Some(run.record(&commits[failing_end], o, &s, req.fixed));
            s
        }
    };
    let finding = loop {
        if req.time.is_some_and(|t| started.elapsed() >= t) {
            break Finding::OutOfTime(commits[search::remaining(&marks)].to_vec());
        }
        match next_step(&marks) {
            Step::Test(i) => {
                let o = run.probe(&commits[i])?;
                marks[i] = Some(run.record(&commits[i], o, &signature, req.fixed));
            }
            Step::Found(i) => {
                if let Some(f) = run.answer(&commits, i..=i, &mut marks, &signature, req.fixed)? {
                    break f;
                }
            }
            Step::Ambiguous(r) => {
                let span = r[0]..=r[r.len() - 1];
                if let Some(f) = run.answer(&commits, span, &mut marks, &signature, req.fixed)? {
                    break f;
                }
            }
        }
    };
    let probes = run.probes;
    let keep: Vec<String> = probes.iter().map(|p| p.commit.hash.clone()).collect();
    let cleaned = builder.cache().clean(req.cache_limit, &keep)?;
    Ok(Bisection {
        mode: if req.fixed { "fixed" } else { "introduced" },
        bucket: header_value(&text, "bucket").map(str::to_string),
        signature,
        good: commits[0].hash.clone(),
        bad: commits[last].hash.clone(),
        range: last,
        finding,
        builds: probes.iter().filter(|p| !p.cached).count(),
        probes,
        seconds: started.elapsed().as_secs_f64(),
        cleaned,
    })
}

/// The state of one bisection run while it tests revisions.
struct Run<'a> {
    builder: &'a mut Builder,
    repro: PathBuf,
    stop: &'a AtomicBool,
    probes: Vec<Probe>,
    on_probe: &'a mut dyn FnMut(&Probe),
}

impl Run<'_> {
    /// Builds `commit` (or takes it from the cache) and checks the reproducer with it.
    fn probe(&mut self, commit: &Commit) -> Result<Outcome> {
        if self.stop.load(Ordering::SeqCst) {
            return Err(Error::Refused("interrupted".into()));
        }
        let start = Instant::now();
        let (o, cached) = match self.builder.build(&commit.hash)? {
            Built::Failed(why) => (Outcome::NoVerdict(why), false),
            Built::Binary(bin, cached) => {
                let (code, out, err) = run_check(&bin, &self.repro, self.stop)?;
                (outcome(code, &out, &err), cached)
            }
        };
        self.probes.push(Probe {
            commit: commit.clone(),
            cached,
            seconds: start.elapsed().as_secs_f64(),
            mark: Mark::Skip,
            outcome: o.clone(),
            skipped: None,
        });
        Ok(o)
    }

    /// The finding for the commits `span` (one, or several when skips hide which), once
    /// the range ends it rests on are tested: an answer at an end of the range rests on what
    /// the user said of that end, so that end is tested first (`None`: it was, search on).
    fn answer(
        &mut self,
        commits: &[Commit],
        span: RangeInclusive<usize>,
        marks: &mut [Option<Mark>],
        signature: &str,
        fixed: bool,
    ) -> Result<Option<Finding>> {
        let Some(end) = unconfirmed_end(&span, marks) else {
            let found = commits[span].to_vec();
            return Ok(Some(match &found[..] {
                [one] => Finding::Found(one.clone()),
                _ => Finding::Range(found),
            }));
        };
        let o = self.probe(&commits[end])?;
        let m = self.record(&commits[end], o.clone(), signature, fixed);
        if m != if end == 0 { Mark::Old } else { Mark::New } {
            return Err(wrong_end(&commits[end], end == 0, fixed, signature, &o));
        }
        marks[end] = Some(m);
        Ok(None)
    }

    /// Decides the side of the last probed commit and reports the probe.
    fn record(&mut self, commit: &Commit, o: Outcome, signature: &str, fixed: bool) -> Mark {
        let (m, why) = mark(&o, signature, fixed);
        if let Some(p) = self.probes.last_mut().filter(|p| p.commit == *commit) {
            p.mark = m;
            p.skipped = why;
            (self.on_probe)(p);
        }
        m
    }
}

/// The end of the range an answer (`span`) depends on that was never tested, if any.
fn unconfirmed_end(span: &RangeInclusive<usize>, marks: &[Option<Mark>]) -> Option<usize> {
    let last = marks.len() - 1;
    if *span.end() == last && marks[last].is_none() {
        Some(last)
    } else if *span.start() == 1 && marks[0].is_none() {
        Some(0)
    } else {
        None
    }
}

fn not_failing(c: &Commit, o: &Outcome) -> Error {
    Error::Refused(format!(
        "the reproducer has no # signature: line and does not fail at {} ({}): nothing to bisect (give --signature)",
        git::short(&c.hash),
        describe_outcome(o)
    ))
}

fn wrong_end(c: &Commit, old_end: bool, fixed: bool, sig: &str, o: &Outcome) -> Error {
    let (flag, expected) = match (old_end, fixed) {
        (true, false) => ("--good", "pass".to_string()),
        (false, false) => ("--bad", format!("fail with {sig}")),
        (true, true) => ("--good", format!("fail with {sig} (--fixed)")),
        (false, true) => ("--bad", "pass (--fixed)".to_string()),
    };
    Error::Refused(format!(
        "at {flag} {} the reproducer should {expected} but: {}",
        git::short(&c.hash),
        describe_outcome(o)
    ))
}

/// A revision's outcome in words.
pub fn describe_outcome(o: &Outcome) -> String {
    match o {
        Outcome::Pass => "passes".into(),
        Outcome::Fails(s) => format!("fails with {}", s.join(", ")),
        Outcome::NoVerdict(why) => why.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_names_the_signature() {
        let campaign = "# signature: mismatch/dce/output\n# bucket: rewrite/dce/x\neu 1\n";
        assert_eq!(
            header_signature(campaign).as_deref(),
            Some("mismatch/dce/output")
        );
        assert_eq!(
            header_signature("eu 1\n# expect: assert/cse/y\n").as_deref(),
            Some("assert/cse/y")
        );
        assert_eq!(header_signature("eu 1\n# expect: pass\n"), None);
    }

    #[test]
    fn an_answer_at_an_untested_end_is_confirmed_first() {
        let mut marks = vec![None; 4];
        marks[1] = Some(Mark::Old);
        marks[2] = Some(Mark::Old);
        assert_eq!(unconfirmed_end(&(3..=3), &marks), Some(3));
        marks[3] = Some(Mark::New);
        assert_eq!(unconfirmed_end(&(3..=3), &marks), None);
        let fresh = vec![None, Some(Mark::New), None];
        assert_eq!(unconfirmed_end(&(1..=1), &fresh), Some(0));
        assert_eq!(unconfirmed_end(&(2..=2), &fresh), Some(2));
    }
}
