//! The nightly campaign report as plain data: what a campaign's `stats.json` holds, what
//! each bucket's replay showed, and the nights before this one. [`build`] decides which
//! buckets are new, still open or gone since the previous night; the renderers
//! (`campaign_report_md`, `campaign_report_html`, [`render_json`]) only print.
//!
//! Every field of [`CampaignStats`] has a default, so the report reads the stats of an
//! older campaign (no `jobs`, `timeline`, …) or of one killed between checkpoints.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One failure as the campaign recorded it (the campaign writes this very type into
/// `stats.json`, so writer and reader share one definition).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FailureRecord {
    pub kind: String,
    pub culprit_pass: Option<String>,
    pub signature: String,
    /// The bucket key of this failure's reduction when it is written, of the first
    /// reduction of its kind when its bucket is full, or of the failure itself when the
    /// campaign does not reduce.
    pub bucket: String,
    pub seconds: f64,
    /// The reproducer, or `None` when its bucket already had `--per-bucket` of them.
    pub file: Option<String>,
    pub seed: u64,
    /// The reduced reproducer, when the failure was written and the campaign reduces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduced: Option<String>,
    /// With `--zoo`: whether the program also fails with the bug switched off (a failure
    /// of its own, not the injected bug's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub without_zoo_bug: Option<bool>,
}

/// A checkpoint of a running campaign: how far it had got after `seconds`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Sample {
    pub seconds: f64,
    pub execs: u64,
    pub failures: u64,
    pub buckets: u64,
    /// Distinct semantic features reached so far (0 in campaigns older than features).
    pub features: u64,
    /// Corpus entries so far (0 without feedback).
    pub corpus: u64,
}

/// A campaign's `stats.json`, every field optional.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CampaignStats {
    pub execs: u64,
    pub seconds: f64,
    pub execs_per_sec: f64,
    pub discarded: BTreeMap<String, u64>,
    /// Programs another backend refused (outside its mapping), by cause: not tested, so
    /// not valid either.
    pub refused: BTreeMap<String, u64>,
    pub outcomes: BTreeMap<String, u64>,
    pub opcode_hits: BTreeMap<String, u64>,
    pub pass_fires: BTreeMap<String, u64>,
    pub failures: Vec<FailureRecord>,
    /// Workers; a stats file without the field comes from the single-worker campaign.
    pub jobs: u32,
    pub revision: String,
    pub started_unix: u64,
    pub devices: BTreeMap<String, u64>,
    pub rules_hit: BTreeMap<String, u64>,
    pub timeline: Vec<Sample>,
    pub shard: Option<String>,
    pub zoo: Option<String>,
    /// Whether the campaign mutated a corpus (`--feedback on`).
    pub feedback: bool,
    /// Distinct semantic features reached.
    pub features: u64,
    pub features_by_kind: BTreeMap<String, u64>,
    /// Corpus entries at the end.
    pub corpus: u64,
    /// The seconds the campaign was asked to fuzz (0: not recorded); what ran after them
    /// is the reduction tail.
    pub time_limit: f64,
    /// Stopped by Ctrl-C before its time was up.
    pub interrupted: bool,
}

impl Default for CampaignStats {
    fn default() -> Self {
        CampaignStats {
            execs: 0,
            seconds: 0.0,
            execs_per_sec: 0.0,
            discarded: BTreeMap::new(),
            refused: BTreeMap::new(),
            outcomes: BTreeMap::new(),
            opcode_hits: BTreeMap::new(),
            pass_fires: BTreeMap::new(),
            failures: vec![],
            jobs: 1,
            revision: String::new(),
            started_unix: 0,
            devices: BTreeMap::new(),
            rules_hit: BTreeMap::new(),
            timeline: vec![],
            shard: None,
            zoo: None,
            feedback: false,
            features: 0,
            features_by_kind: BTreeMap::new(),
            corpus: 0,
            time_limit: 0.0,
            interrupted: false,
        }
    }
}

/// Parses a `stats.json`; unknown fields are ignored (a newer campaign may add some).
pub fn parse_stats(text: &str) -> Result<CampaignStats, String> {
    serde_json::from_str(text).map_err(|e| format!("line {}: {e}", e.line()))
}

/// One night in the history: enough to say what was new the next night and to draw the
/// trend. One JSON object per line of `history.jsonl`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Night {
    /// `YYYY-MM-DD HH:MM` (UTC) the campaign started.
    pub date: String,
    pub started_unix: u64,
    pub revision: String,
    pub execs: u64,
    pub seconds: f64,
    pub execs_per_sec: f64,
    pub jobs: u32,
    /// Failures per bucket key.
    pub buckets: BTreeMap<String, u64>,
    /// Share of the lines of `compiler/src/passes/` the night's coverage run reached, in
    /// percent, when the night measured source coverage (`scripts/coverage.sh`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass_lines_percent: Option<f64>,
    /// Stopped by Ctrl-C before its time was up: not a full night.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

/// Where a bucket stands against the previous night.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Not seen the previous night (every bucket, when there is no previous night).
    #[default]
    New,
    /// Seen the previous night and again tonight.
    Open,
    /// Seen the previous night, not tonight.
    Gone,
}

/// One row of a channel diff: where the outputs differ and the two values (bytes as hex,
/// `..` for undefined ones).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DiffRow {
    pub location: String,
    pub expected: String,
    pub actual: String,
}

/// What replaying a bucket's reproducer showed today.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// The verdict in one line (`mismatch: 3 differing output dword(s)`).
    pub verdict: String,
    pub culprit_pass: Option<String>,
    /// Why that pass is blamed.
    pub culprit_basis: Option<String>,
    /// Unified diff of the IR across the culprit pass.
    pub ir_diff: String,
    /// Output differences, reference against compiled (at most a screenful).
    pub channel_diff: Vec<DiffRow>,
    /// Differences beyond those in `channel_diff`.
    pub more_differences: usize,
    /// For a reproducer of a zoo campaign: whether it also fails with no zoo bug injected
    /// (then it shows an open bug of the compiler itself, not the injected one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fails_without_zoo: Option<bool>,
}

/// A bucket's smallest reproducer and its replay.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Reproducer {
    pub file: String,
    pub instructions: usize,
    pub text: String,
    pub replay: Option<Replay>,
    /// Why it could not be replayed (unparsable, needs a zoo build, passes today, …).
    pub replay_error: Option<String>,
}

/// One bucket of the report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Bucket {
    pub key: String,
    pub status: Status,
    /// Failures in this bucket tonight (0 for a gone bucket).
    pub count: u64,
    /// Failures the previous night.
    pub previous_count: u64,
    /// Failures per million executions tonight: what compares nights of different length.
    #[serde(default)]
    pub per_million: f64,
    /// The same the previous night (`None`: no previous night, or one without executions).
    #[serde(default)]
    pub previous_per_million: Option<f64>,
    /// Signatures seen (kind/culprit/detail), most frequent first.
    pub signatures: Vec<String>,
    /// Seconds into the campaign of its first failure.
    pub first_seconds: Option<f64>,
    /// The known-issues label, when the bucket is a known open bug.
    pub known: Option<String>,
    /// Every reproducer file written for it.
    pub files: Vec<String>,
    pub reproducer: Option<Reproducer>,
    /// The commit that introduced it (a new bucket) or fixed it (a gone one), when the
    /// nightly job bisected it.
    #[serde(default)]
    pub bisection: Option<Bisection>,
}

/// What `eufuzz bisect` named for a bucket.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Bisection {
    /// `introduced` or `fixed`.
    pub mode: String,
    /// The commit named, or, when untestable commits or the time budget left a range, every
    /// commit of it, oldest first.
    pub commits: Vec<CommitRef>,
    /// Why several commits are named (`None` when one is).
    pub range_reason: Option<String>,
}

/// A commit as a report shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CommitRef {
    pub hash: String,
    pub subject: String,
}

impl Bisection {
    /// `introduced by 1a2b3c4d5e subject`, or `introduced by one of 3 commits 1a2b3c4d5e..9f8e7d6c5b
    /// (REASON)`: the words every report format shows.
    pub fn describe(&self) -> String {
        let short = |c: &CommitRef| c.hash.chars().take(10).collect::<String>();
        match &self.commits[..] {
            [] => format!("{}: not found", self.mode),
            [one] => format!("{} by {} {}", self.mode, short(one), one.subject),
            [first, .., last] => format!(
                "{} by one of {} commits {}..{} ({})",
                self.mode,
                self.commits.len(),
                short(first),
                short(last),
                self.range_reason.as_deref().unwrap_or("not narrowed")
            ),
        }
    }
}

/// The summary lines at the top of the report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub date: String,
    pub revision: String,
    pub execs: u64,
    pub seconds: f64,
    pub execs_per_sec: f64,
    /// Share of programs not discarded, in percent.
    pub valid_percent: f64,
    pub jobs: u32,
    pub failures: u64,
    pub shard: Option<String>,
    pub zoo: Option<String>,
    /// The previous night compared against (`DATE (revision REV)`), if any.
    pub previous: Option<String>,
    pub new: usize,
    /// New buckets that are not known issues: what makes a nightly job fail.
    pub new_unknown: usize,
    pub open: usize,
    pub gone: usize,
    /// Distinct semantic features reached (0: a campaign older than features).
    #[serde(default)]
    pub features: u64,
    /// Corpus entries, when the campaign ran with feedback.
    #[serde(default)]
    pub corpus: Option<u64>,
    /// Stopped by Ctrl-C before its time was up.
    #[serde(default)]
    pub interrupted: bool,
    /// The seconds the campaign was asked to fuzz, when recorded: `execs_per_sec` counts
    /// only what ran before them.
    #[serde(default)]
    pub deadline: Option<f64>,
    /// Seconds after the deadline spent finishing reductions (not fuzzing).
    #[serde(default)]
    pub tail_seconds: Option<f64>,
}

/// What the campaign exercised.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    pub opcodes: BTreeMap<String, u64>,
    pub devices: BTreeMap<String, u64>,
    pub pass_fires: BTreeMap<String, u64>,
    pub rules_hit: BTreeMap<String, u64>,
}

/// Lines of some source files and how many of them a campaign reached.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LineTotal {
    pub lines: u64,
    pub covered: u64,
    pub percent: f64,
}

/// One source file's coverage.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FileCoverage {
    pub file: String,
    pub lines: u64,
    pub lines_covered: u64,
    pub regions: u64,
    pub regions_covered: u64,
}

/// Source-based coverage of the compiler's passes and the strict rules: the
/// `coverage.json` that `scripts/coverage.sh` writes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceCoverage {
    /// Every measured file.
    pub lines: LineTotal,
    /// `compiler/src/passes/`.
    pub passes: LineTotal,
    /// `oracle/src/strict/`.
    pub strict: LineTotal,
    pub files: Vec<FileCoverage>,
}

/// `part` of `whole` in percent (100 when there is nothing to cover).
fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        100.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

impl FileCoverage {
    pub fn line_percent(&self) -> f64 {
        percent(self.lines_covered, self.lines)
    }

    pub fn region_percent(&self) -> f64 {
        percent(self.regions_covered, self.regions)
    }
}

impl SourceCoverage {
    /// The files, least covered lines first: what to look at.
    pub fn least_covered_first(&self) -> Vec<&FileCoverage> {
        let mut files: Vec<&FileCoverage> = self.files.iter().collect();
        files.sort_by(|a, b| {
            a.line_percent()
                .total_cmp(&b.line_percent())
                .then(a.file.cmp(&b.file))
        });
        files
    }

    /// `DATE P %` (the share of pass lines reached) for every night of `history` that
    /// measured it, oldest first.
    pub fn trend(history: &[Night]) -> Vec<String> {
        history
            .iter()
            .filter_map(|n| n.pass_lines_percent.map(|p| format!("{} {p:.1} %", n.date)))
            .collect()
    }
}

/// Parses a `coverage.json`.
pub fn parse_source_coverage(text: &str) -> Result<SourceCoverage, String> {
    serde_json::from_str(text).map_err(|e| format!("line {}: {e}", e.line()))
}

/// The report with tonight's source coverage: shown in its own section, and tonight's
/// share of pass lines recorded in the history for the trend.
pub fn with_source_coverage(mut r: Report, c: SourceCoverage) -> Report {
    if let Some(tonight) = r.history.last_mut() {
        tonight.pass_lines_percent = Some(c.passes.percent);
    }
    r.source_coverage = Some(c);
    r
}

/// The whole report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub summary: Summary,
    /// New buckets first, then still open, then gone; most failures first within each.
    pub buckets: Vec<Bucket>,
    pub outcomes: BTreeMap<String, u64>,
    pub discarded: BTreeMap<String, u64>,
    pub coverage: Coverage,
    pub timeline: Vec<Sample>,
    /// The previous nights and this one, oldest first.
    pub history: Vec<Night>,
    /// Source-based coverage, when the night measured it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_coverage: Option<SourceCoverage>,
}

/// Tonight as a history entry.
pub fn night(stats: &CampaignStats, date: &str, buckets: &[Bucket]) -> Night {
    Night {
        date: date.to_string(),
        started_unix: stats.started_unix,
        revision: stats.revision.clone(),
        execs: stats.execs,
        seconds: stats.seconds,
        execs_per_sec: fuzzing_rate(stats).0,
        jobs: stats.jobs,
        buckets: buckets
            .iter()
            .filter(|b| b.status != Status::Gone)
            .map(|b| (b.key.clone(), b.count))
            .collect(),
        pass_lines_percent: None,
        interrupted: stats.interrupted,
    }
}

/// A per-million figure as a table shows it (`12`, `3.4`, `0.05`).
pub fn show_per_million(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 1.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// What a report says about the night's length: interrupted, and the reduction tail
/// after the deadline that the execs/s figure leaves out (empty for a full night that
/// records no tail).
pub fn length_notes(s: &Summary) -> Vec<String> {
    let mut out = vec![];
    if s.interrupted {
        out.push(match s.deadline {
            Some(d) => format!(
                "Interrupted (Ctrl-C) after {:.0} s of the {d:.0} s asked: not a full night (compare nights by failures per million execs).",
                s.seconds
            ),
            None => "Interrupted (Ctrl-C): not a full night (compare nights by failures per million execs).".into(),
        });
    }
    if let (Some(d), Some(t)) = (s.deadline, s.tail_seconds) {
        out.push(format!(
            "execs/s counts the fuzzing up to the {d:.0}-s deadline; the {t:.0} s after it finished reductions and are not charted."
        ));
    }
    out
}

/// Failures per million executions (0 without executions).
pub fn per_million(count: u64, execs: u64) -> f64 {
    if execs == 0 {
        0.0
    } else {
        count as f64 * 1e6 / execs as f64
    }
}

/// Seconds past the deadline a checkpoint may lie and still count as fuzzing (the last
/// checkpoint of the fuzzing loop is taken when the time is up, give or take a poll).
const DEADLINE_SLACK: f64 = 1.0;

/// The fuzzing rate, and the seconds of the reduction tail after the deadline: execs/s up
/// to the last checkpoint before the deadline (the average over the whole run would count
/// the tail, when nothing is fuzzed, as a collapse of speed); the whole run's average when
/// the deadline or checkpoints are not recorded.
pub fn fuzzing_rate(stats: &CampaignStats) -> (f64, Option<f64>) {
    if stats.time_limit <= 0.0 {
        return (stats.execs_per_sec, None);
    }
    let tail = (stats.seconds - stats.time_limit).max(0.0);
    let tail = (tail > DEADLINE_SLACK).then_some(tail);
    let rate = stats
        .timeline
        .iter()
        .rev()
        .find(|s| s.seconds <= stats.time_limit + DEADLINE_SLACK && s.seconds > 0.0)
        .map_or(stats.execs_per_sec, |s| s.execs as f64 / s.seconds);
    (rate, tail)
}

/// Each of tonight's bucket keys marked new or still open, and the previous night's keys
/// that are gone.
pub fn classify(tonight: &BTreeSet<String>, previous: Option<&Night>) -> BTreeMap<String, Status> {
    let before: BTreeSet<&String> = previous
        .map(|n| n.buckets.keys().collect())
        .unwrap_or_default();
    let mut out: BTreeMap<String, Status> = tonight
        .iter()
        .map(|k| {
            let s = if before.contains(k) {
                Status::Open
            } else {
                Status::New
            };
            (k.clone(), s)
        })
        .collect();
    for k in before {
        out.entry(k.clone()).or_insert(Status::Gone);
    }
    out
}

fn valid_percent(stats: &CampaignStats) -> f64 {
    if stats.execs == 0 {
        return 0.0;
    }
    let untested: u64 = stats.discarded.values().sum::<u64>() + stats.refused.values().sum::<u64>();
    100.0 * stats.execs.saturating_sub(untested) as f64 / stats.execs as f64
}

/// The report: tonight's `stats` and `buckets` (status unset) against `previous` nights
/// (oldest first; the last one is the night compared against). `date` is when tonight's
/// campaign started.
pub fn build(
    stats: CampaignStats,
    buckets: Vec<Bucket>,
    previous: Vec<Night>,
    date: &str,
) -> Report {
    let last = previous.last();
    let keys: BTreeSet<String> = buckets.iter().map(|b| b.key.clone()).collect();
    let status = classify(&keys, last);
    let mut all: Vec<Bucket> = buckets
        .into_iter()
        .map(|mut b| {
            b.status = status[&b.key];
            b.previous_count = last
                .and_then(|n| n.buckets.get(&b.key))
                .copied()
                .unwrap_or(0);
            b.per_million = per_million(b.count, stats.execs);
            b.previous_per_million = last
                .filter(|n| n.execs > 0)
                .map(|n| per_million(b.previous_count, n.execs));
            b
        })
        .collect();
    for (k, s) in &status {
        if *s == Status::Gone {
            let previous_count = last.and_then(|n| n.buckets.get(k)).copied().unwrap_or(0);
            all.push(Bucket {
                key: k.clone(),
                status: Status::Gone,
                previous_count,
                previous_per_million: last
                    .filter(|n| n.execs > 0)
                    .map(|n| per_million(previous_count, n.execs)),
                ..Bucket::default()
            });
        }
    }
    let rank = |s: Status| match s {
        Status::New => 0,
        Status::Open => 1,
        Status::Gone => 2,
    };
    all.sort_by(|a, b| {
        rank(a.status)
            .cmp(&rank(b.status))
            .then(b.count.cmp(&a.count))
            .then(a.key.cmp(&b.key))
    });
    let count = |s: Status| all.iter().filter(|b| b.status == s).count();
    let (execs_per_sec, tail_seconds) = fuzzing_rate(&stats);
    let summary = Summary {
        date: date.to_string(),
        revision: stats.revision.clone(),
        execs: stats.execs,
        seconds: stats.seconds,
        execs_per_sec,
        interrupted: stats.interrupted,
        deadline: (stats.time_limit > 0.0).then_some(stats.time_limit),
        tail_seconds,
        valid_percent: valid_percent(&stats),
        jobs: stats.jobs,
        failures: stats.failures.len() as u64,
        shard: stats.shard.clone(),
        zoo: stats.zoo.clone(),
        previous: last.map(|n| format!("{} (revision {})", n.date, n.revision)),
        new: count(Status::New),
        new_unknown: all
            .iter()
            .filter(|b| b.status == Status::New && b.known.is_none())
            .count(),
        open: count(Status::Open),
        gone: count(Status::Gone),
        features: stats.features,
        corpus: stats.feedback.then_some(stats.corpus),
    };
    let mut history = previous;
    history.push(night(&stats, date, &all));
    Report {
        summary,
        buckets: all,
        outcomes: stats.outcomes,
        discarded: stats.discarded,
        coverage: Coverage {
            opcodes: stats.opcode_hits,
            devices: stats.devices,
            pass_fires: stats.pass_fires,
            rules_hit: stats.rules_hit,
        },
        timeline: stats.timeline,
        history,
        source_coverage: None,
    }
}

/// The report as pretty JSON (every field; for dashboards and scripts).
pub fn render_json(r: &Report) -> String {
    serde_json::to_string_pretty(r).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// Per night of the history: (date, buckets open that night, of which new since the night
/// before).
pub fn trend(history: &[Night]) -> Vec<(String, u64, u64)> {
    let mut out = vec![];
    let mut before: Option<&Night> = None;
    for n in history {
        let new = n
            .buckets
            .keys()
            .filter(|k| before.is_none_or(|b| !b.buckets.contains_key(*k)))
            .count() as u64;
        let date = if n.interrupted {
            format!("{} (interrupted)", n.date)
        } else {
            n.date.clone()
        };
        out.push((date, n.buckets.len() as u64, new));
        before = Some(n);
    }
    out
}

/// Semantic features reached over the campaign, one point per checkpoint (at most
/// [`RATE_POINTS`], every k-th and the last), starting at zero; empty when the timeline
/// records no features (a campaign older than features).
pub fn features_over_time(timeline: &[Sample]) -> Vec<(f64, f64)> {
    if timeline.iter().all(|s| s.features == 0) {
        return vec![];
    }
    let k = timeline.len().div_ceil(RATE_POINTS);
    let last = timeline.len() - 1;
    let mut out = vec![(0.0, 0.0)];
    for (i, s) in timeline.iter().enumerate() {
        if (i + 1).is_multiple_of(k) || i == last {
            out.push((s.seconds, s.features as f64));
        }
    }
    out
}

/// Points drawn at most on the execs/s chart: an 8-hour night checkpointed every few
/// seconds has thousands of samples, more than a chart's width shows.
pub const RATE_POINTS: usize = 240;

/// Executions per second between checkpoints, at the end of each interval (consecutive
/// checkpoints, or every k-th one so that at most [`RATE_POINTS`] remain), up to the
/// `deadline` when it is known (after it only reductions run: charted as a rate it would
/// look like a collapse); without checkpoints, the campaign's average over its whole run.
pub fn rate_over_time(
    timeline: &[Sample],
    seconds: f64,
    execs_per_sec: f64,
    deadline: Option<f64>,
) -> Vec<(f64, f64)> {
    let timeline: Vec<Sample> = timeline
        .iter()
        .copied()
        .filter(|s| deadline.is_none_or(|d| s.seconds <= d + DEADLINE_SLACK))
        .collect();
    let seconds = deadline.map_or(seconds, |d| seconds.min(d));
    if timeline.is_empty() {
        return if seconds > 0.0 {
            vec![(0.0, execs_per_sec), (seconds, execs_per_sec)]
        } else {
            vec![]
        };
    }
    let k = timeline.len().div_ceil(RATE_POINTS);
    let mut out = vec![];
    let mut prev = Sample::default();
    let last = timeline.len() - 1;
    for (i, s) in timeline.iter().enumerate() {
        if !(i + 1).is_multiple_of(k) && i != last {
            continue;
        }
        let dt = s.seconds - prev.seconds;
        if dt > 0.0 {
            out.push((s.seconds, s.execs.saturating_sub(prev.execs) as f64 / dt));
        }
        prev = *s;
    }
    out
}

/// A report for the renderers' tests.
#[cfg(test)]
pub(crate) mod fixture {
    use super::*;

    /// A report with one new bucket (a reproducer whose IR has `<` in regions), one open
    /// and one gone, over two nights.
    pub(crate) fn sample_report() -> Report {
        let stats = CampaignStats {
            execs: 12_345,
            seconds: 60.0,
            execs_per_sec: 205.75,
            jobs: 2,
            revision: "abc123".into(),
            outcomes: [("pass".to_string(), 12_000), ("mismatch".to_string(), 3)].into(),
            discarded: [("undefined-branch".to_string(), 342)].into(),
            opcode_hits: [("mov".to_string(), 9_000), ("mach".to_string(), 2)].into(),
            devices: [("skl".to_string(), 6_000)].into(),
            pass_fires: [("opt_cse".to_string(), 3_000)].into(),
            feedback: true,
            features: 812,
            corpus: 104,
            timeline: vec![
                Sample {
                    seconds: 30.0,
                    execs: 6_000,
                    failures: 1,
                    buckets: 1,
                    features: 700,
                    corpus: 90,
                },
                Sample {
                    seconds: 60.0,
                    execs: 12_345,
                    failures: 3,
                    buckets: 2,
                    features: 812,
                    corpus: 104,
                },
            ],
            ..CampaignStats::default()
        };
        let new = Bucket {
            key: "rewrite/lower_regioning/accumulator-destination".into(),
            count: 2,
            signatures: vec!["mismatch/lower_regioning/output".into()],
            first_seconds: Some(12.0),
            files: vec!["mismatch-7.eu".into()],
            reproducer: Some(Reproducer {
                file: "mismatch-7.reduced.eu".into(),
                instructions: 3,
                text: "eu 1\n    mov(8) g4<1>:F, g2.1<0;1,0>:F\n".into(),
                replay: Some(Replay {
                    verdict: "mismatch: 1 differing output dword(s)".into(),
                    culprit_pass: Some("lower_regioning".into()),
                    culprit_basis: Some("first pass whose output no longer refines".into()),
                    ir_diff: "--- before\n+++ after\n@@ -1 +1 @@\n-    mov(8) v0:F, v1<0>:F\n+    mov(8) acc0<1>:F, v1<0>:F\n".into(),
                    channel_diff: vec![DiffRow {
                        location: "thread 0 rt0 ch3 component 0".into(),
                        expected: "3f800000".into(),
                        actual: "........".into(),
                    }],
                    more_differences: 0,
                    fails_without_zoo: None,
                }),
                replay_error: None,
            }),
            ..Bucket::default()
        };
        let open = Bucket {
            key: "rewrite/allocate_registers/fill".into(),
            count: 1,
            ..Bucket::default()
        };
        let before = Night {
            date: "2026-11-24 02:00".into(),
            revision: "0ld".into(),
            buckets: [
                ("rewrite/allocate_registers/fill".to_string(), 4),
                ("panic/opt_cse/index-out-of-bounds/x.rs".to_string(), 1),
            ]
            .into(),
            ..Night::default()
        };
        build(stats, vec![new, open], vec![before], "2026-11-25 02:00")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bisected new bucket and a bisected gone one show the commit in all three formats;
    /// a range names its size and reason.
    #[test]
    fn bisections_show_in_every_format() {
        let mut r = fixture::sample_report();
        let commit = |h: &str, s: &str| CommitRef {
            hash: h.into(),
            subject: s.into(),
        };
        for b in &mut r.buckets {
            b.bisection = match b.status {
                Status::New => Some(Bisection {
                    mode: "introduced".into(),
                    commits: vec![commit("1a2b3c4d5e6f7", "regioning: accumulator <dst>")],
                    range_reason: None,
                }),
                Status::Gone => Some(Bisection {
                    mode: "fixed".into(),
                    commits: vec![commit("aaaaaaaaaaaa", "x"), commit("bbbbbbbbbbbb", "y")],
                    range_reason: Some("the time ran out".into()),
                }),
                Status::Open => None,
            };
        }
        let md = crate::campaign_report_md::render(&r, &[]);
        let html = crate::campaign_report_html::render(&r, &[]);
        let json = render_json(&r);
        assert!(
            md.contains("| introduced by 1a2b3c4d5e regioning: accumulator <dst> |"),
            "{md}"
        );
        assert!(
            md.contains("| fixed by one of 2 commits aaaaaaaaaa..bbbbbbbbbb (the time ran out) |"),
            "{md}"
        );
        assert!(html.contains("<th>commit</th>"));
        assert!(
            html.contains("<td>introduced by 1a2b3c4d5e regioning: accumulator &lt;dst&gt;</td>"),
            "{html}"
        );
        assert!(
            json.contains("\"mode\": \"introduced\"") || json.contains("\"mode\":\"introduced\""),
            "{json}"
        );
        assert!(json.contains("1a2b3c4d5e6f7"));
        // Without bisections the tables keep their columns.
        let plain = crate::campaign_report_md::render(&fixture::sample_report(), &[]);
        assert!(!plain.contains("| commit |"));
    }

    fn night_with(date: &str, keys: &[&str]) -> Night {
        Night {
            date: date.into(),
            buckets: keys.iter().map(|k| (k.to_string(), 1)).collect(),
            ..Night::default()
        }
    }

    fn bucket(key: &str, count: u64) -> Bucket {
        Bucket {
            key: key.into(),
            count,
            ..Bucket::default()
        }
    }

    #[test]
    fn buckets_are_new_open_or_gone_against_the_previous_night() {
        let tonight: BTreeSet<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let prev = night_with("d1", &["b", "c"]);
        let s = classify(&tonight, Some(&prev));
        assert_eq!(s["a"], Status::New);
        assert_eq!(s["b"], Status::Open);
        assert_eq!(s["c"], Status::Gone);
        assert_eq!(s.len(), 3);
        let first = classify(&tonight, None);
        assert!(first.values().all(|s| *s == Status::New));
    }

    #[test]
    fn build_orders_new_open_gone_and_counts_them() {
        let stats = CampaignStats {
            execs: 100,
            discarded: [("undefined-branch".to_string(), 4)].into(),
            ..CampaignStats::default()
        };
        let mut known = bucket("k", 1);
        known.known = Some("label".into());
        let r = build(
            stats,
            vec![bucket("open", 9), bucket("new", 2), known],
            vec![
                night_with("d0", &["x"]),
                night_with("d1", &["open", "gone"]),
            ],
            "d2",
        );
        let order: Vec<(&str, Status)> = r
            .buckets
            .iter()
            .map(|b| (b.key.as_str(), b.status))
            .collect();
        assert_eq!(
            order,
            [
                ("new", Status::New),
                ("k", Status::New),
                ("open", Status::Open),
                ("gone", Status::Gone)
            ]
        );
        assert_eq!((r.summary.new, r.summary.new_unknown), (2, 1));
        assert_eq!((r.summary.open, r.summary.gone), (1, 1));
        assert_eq!(r.buckets[2].previous_count, 1);
        assert_eq!(r.summary.valid_percent, 96.0);
        let refusing = CampaignStats {
            execs: 100,
            discarded: [("undefined-branch".to_string(), 4)].into(),
            refused: [("opcode '…' is not mapped".to_string(), 25)].into(),
            ..CampaignStats::default()
        };
        assert_eq!(valid_percent(&refusing), 71.0);
        assert_eq!(r.history.len(), 3);
        let tonight = r.history.last().unwrap();
        assert_eq!(tonight.date, "d2");
        assert_eq!(
            tonight.buckets.len(),
            3,
            "gone buckets are not part of tonight"
        );
    }

    #[test]
    fn trend_counts_buckets_and_new_ones_per_night() {
        let h = [
            night_with("d0", &["a"]),
            night_with("d1", &["a", "b"]),
            night_with("d2", &["c"]),
        ];
        assert_eq!(
            trend(&h),
            [
                ("d0".to_string(), 1, 1),
                ("d1".to_string(), 2, 1),
                ("d2".to_string(), 1, 1)
            ]
        );
    }

    #[test]
    fn older_stats_files_read_with_defaults() {
        let s = parse_stats(r#"{"execs": 5, "seconds": 1.0, "failures": [{"kind": "mismatch", "bucket": "b", "seed": 3}]}"#)
            .expect("old stats");
        assert_eq!((s.execs, s.jobs, s.timeline.len()), (5, 1, 0));
        assert_eq!(s.failures[0].bucket, "b");
        assert!(parse_stats("{\"execs\": \"many\"}").is_err());
    }

    #[test]
    fn rates_come_from_checkpoint_differences() {
        let t = [
            Sample {
                seconds: 2.0,
                execs: 100,
                ..Sample::default()
            },
            Sample {
                seconds: 4.0,
                execs: 300,
                ..Sample::default()
            },
        ];
        assert_eq!(
            rate_over_time(&t, 4.0, 75.0, None),
            [(2.0, 50.0), (4.0, 100.0)]
        );
        assert_eq!(
            rate_over_time(&[], 10.0, 7.0, None),
            [(0.0, 7.0), (10.0, 7.0)]
        );
        // A long night: every k-th checkpoint, rates over k intervals, the last one kept.
        let long: Vec<Sample> = (1..=1000u64)
            .map(|i| Sample {
                seconds: i as f64,
                execs: 10 * i,
                ..Sample::default()
            })
            .collect();
        let r = rate_over_time(&long, 1000.0, 10.0, None);
        assert!(r.len() <= RATE_POINTS, "{}", r.len());
        assert_eq!(r[0], (5.0, 10.0));
        assert_eq!(r.last(), Some(&(1000.0, 10.0)));
    }

    /// A 60-s night whose last checkpoint came 40 s after the deadline, when its reductions
    /// had finished: the rate and the chart count the fuzzing only.
    #[test]
    fn the_reduction_tail_is_not_counted_as_fuzzing() {
        let at = |seconds: f64, execs: u64| Sample {
            seconds,
            execs,
            ..Sample::default()
        };
        let stats = CampaignStats {
            execs: 6_000,
            seconds: 100.0,
            execs_per_sec: 60.0,
            time_limit: 60.0,
            timeline: vec![at(30.0, 3_000), at(60.2, 6_000), at(100.0, 6_000)],
            ..CampaignStats::default()
        };
        let (rate, tail) = fuzzing_rate(&stats);
        assert!((rate - 6_000.0 / 60.2).abs() < 1e-9, "{rate}");
        assert_eq!(tail, Some(40.0));
        let chart = rate_over_time(&stats.timeline, 100.0, rate, Some(60.0));
        assert_eq!(chart.len(), 2, "{chart:?}");
        assert!(chart.iter().all(|(t, _)| *t <= 61.0), "{chart:?}");
        let r = build(stats, vec![], vec![], "2026-11-25 02:00");
        assert_eq!(r.summary.tail_seconds, Some(40.0));
        let md = crate::campaign_report_md::render(&r, &[]);
        assert!(md.contains("the 40 s after it finished reductions"), "{md}");
        // Without a recorded deadline: the whole run's average, as before.
        let old = CampaignStats {
            execs_per_sec: 60.0,
            ..CampaignStats::default()
        };
        assert_eq!(fuzzing_rate(&old), (60.0, None));
    }

    /// Nights of different length compare per million executions, and an interrupted night
    /// says so in the summary and the trend.
    #[test]
    fn nights_compare_per_million_execs_and_interrupted_nights_are_marked() {
        let stats = CampaignStats {
            execs: 2_000_000,
            seconds: 30.0,
            time_limit: 600.0,
            interrupted: true,
            ..CampaignStats::default()
        };
        let before = Night {
            date: "d1".into(),
            execs: 500_000,
            buckets: [("k".to_string(), 5)].into(),
            ..Night::default()
        };
        let own_bug = Bucket {
            reproducer: Some(Reproducer {
                replay: Some(Replay {
                    fails_without_zoo: Some(true),
                    ..Replay::default()
                }),
                ..Reproducer::default()
            }),
            ..bucket("k", 4)
        };
        let r = build(stats, vec![own_bug], vec![before], "d2");
        let b = &r.buckets[0];
        assert_eq!((b.per_million, b.previous_per_million), (2.0, Some(10.0)));
        assert!(r.summary.interrupted);
        assert!(r.history.last().unwrap().interrupted);
        assert_eq!(trend(&r.history)[1].0, "d2 (interrupted)");
        let md = crate::campaign_report_md::render(&r, &[]);
        assert!(
            md.contains("Interrupted (Ctrl-C) after 30 s of the 600 s asked"),
            "{md}"
        );
        assert!(md.contains("| 4 | 2.0 | 5 | 10.0 |"), "{md}");
        assert!(md.contains("**Fails without the zoo**"), "{md}");
        let html = crate::campaign_report_html::render(&r, &[]);
        assert!(html.contains("Interrupted (Ctrl-C)"));
        assert!(html.contains("fails without the zoo"));
    }

    #[test]
    fn source_coverage_is_read_shown_and_trended() {
        let json = r#"{"lines": {"lines": 200, "covered": 150, "percent": 75.0},
            "passes": {"lines": 100, "covered": 90, "percent": 90.0},
            "strict": {"lines": 100, "covered": 60, "percent": 60.0},
            "files": [
              {"file": "compiler/src/passes/a.rs", "lines": 100, "lines_covered": 90, "regions": 10, "regions_covered": 9},
              {"file": "oracle/src/strict/b.rs", "lines": 100, "lines_covered": 60, "regions": 4, "regions_covered": 1}]}"#;
        let c = parse_source_coverage(json).expect("coverage.json parses");
        let least: Vec<&str> = c
            .least_covered_first()
            .iter()
            .map(|f| f.file.as_str())
            .collect();
        assert_eq!(
            least,
            ["oracle/src/strict/b.rs", "compiler/src/passes/a.rs"]
        );
        assert_eq!(c.files[1].region_percent(), 25.0);
        let mut r = super::fixture::sample_report();
        let nights = r.history.len();
        r.history[nights - 2].pass_lines_percent = Some(85.5);
        let r = with_source_coverage(r, c);
        assert_eq!(r.history.last().unwrap().pass_lines_percent, Some(90.0));
        let trend = SourceCoverage::trend(&r.history);
        assert_eq!(trend.len(), 2);
        assert!(
            trend[0].ends_with("85.5 %") && trend[1].ends_with("90.0 %"),
            "{trend:?}"
        );
        let md = crate::campaign_report_md::render(&r, &[]);
        assert!(md.contains("## Source coverage"), "{md}");
        assert!(
            md.contains("- compiler/src/passes/: 90 of 100 lines (90.0 %)"),
            "{md}"
        );
        assert!(
            md.contains("| `oracle/src/strict/b.rs` | 100 | 60.0 % | 4 | 25.0 % |"),
            "{md}"
        );
        let html = crate::campaign_report_html::render(&r, &[]);
        assert!(
            html.contains("id=\"source-coverage\""),
            "the HTML has the section"
        );
        assert!(html.contains("<code>oracle/src/strict/b.rs</code>"));
        // A night without coverage has no such section.
        let plain = super::fixture::sample_report();
        assert!(!crate::campaign_report_md::render(&plain, &[]).contains("Source coverage"));
    }
}
