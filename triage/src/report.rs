//! The morning report of a campaign (`eufuzz report DIR`). Reads `DIR/stats.json` and the
//! reproducers, groups them by bucket, replays each bucket's smallest reproducer with the
//! oracle today (verdict, culprit pass, IR diff across it, channel diff), compares the
//! buckets with the previous night (a campaign directory or a `history.jsonl`) and writes
//! the report as HTML, Markdown and JSON through the `reports` crate. Optionally appends
//! tonight to the history.

use crate::buckets::{self, KnownIssue, known_issues};
use crate::check::{self, Compared, compared_values, describe_difference, describe_verdict};
use crate::error::{Error, Result};
use crate::files::read_text;
use crate::render::dword;
use crate::repro::header_value;
use oracle::compare::Difference;
use oracle::culprit::Basis;
use oracle::differential::Verdict;
use reports::campaign_report::{self as cr, Bucket, CampaignStats, DiffRow, Night, Replay};
use reports::campaign_report_history::{append, parse_history, without_night};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Channel-diff rows shown per bucket; the rest are counted.
const DIFF_ROWS: usize = 16;

/// Seconds since the epoch of a file's modification.
fn modified(path: &Path) -> Option<u64> {
    let t = std::fs::metadata(path).ok()?.modified().ok()?;
    Some(t.duration_since(SystemTime::UNIX_EPOCH).ok()?.as_secs())
}

/// A campaign directory's statistics, with the start time and revision filled in when an
/// older campaign did not record them.
fn read_stats(dir: &Path) -> Result<CampaignStats> {
    let path = dir.join("stats.json");
    let text = read_text(&path).map_err(|e| {
        Error::Refused(format!(
            "{e} (a campaign writes it with `--stats-json {}`)",
            path.display()
        ))
    })?;
    let mut stats =
        cr::parse_stats(&text).map_err(|e| Error::Malformed(format!("{}: {e}", path.display())))?;
    if stats.started_unix == 0 {
        let end = modified(&path).unwrap_or(0);
        stats.started_unix = end.saturating_sub(stats.seconds.round() as u64);
    }
    if stats.revision.is_empty() {
        stats.revision = "unknown".into();
    }
    Ok(stats)
}

/// One difference as a table row: where, the reference's value, the compiled value (hex,
/// `..` for undefined bytes, with the float reading of a plausible float).
fn diff_row(d: &Difference) -> DiffRow {
    let value = |w: Compared| w.map_or("nothing".into(), |(v, m)| dword(v, m));
    match compared_values(d) {
        Some((location, expected, actual)) => DiffRow {
            location,
            expected: value(expected),
            actual: value(actual),
        },
        None => DiffRow {
            location: describe_difference(d),
            expected: String::new(),
            actual: String::new(),
        },
    }
}

fn basis(b: &Basis) -> &'static str {
    match b {
        Basis::Reported => "it reported the failure itself",
        Basis::FirstNonRefining => "the first pass whose output no longer refines the reference",
        Basis::RuleOwner => "the pass that legalises this hardware rule",
    }
}

/// The `# options:` of a reproducer, or of the original a reduction came from.
fn options_of(file: &Path, text: &str) -> Result<Option<String>> {
    if let Some(o) = header_value(text, "options") {
        return Ok(Some(o.to_string()));
    }
    let name = file.to_string_lossy();
    match name.strip_suffix(".reduced.eu") {
        Some(stem) => {
            let original = PathBuf::from(format!("{stem}.eu"));
            if !original.exists() {
                return Ok(None);
            }
            let t = read_text(&original)?;
            Ok(header_value(&t, "options").map(str::to_string))
        }
        None => Ok(None),
    }
}

/// Replays a reproducer on its own inputs: verdict, culprit pass, IR diff, channel diff.
fn replay(file: &Path, text: &str) -> Result<Replay> {
    if !crate::repro::replays_in_process(text) {
        return Err(Error::Refused(format!(
            "{}: not replayed here: its case took the campaign's child process down, ran \
             over the timeout or was judged through another backend (`eufuzz check` \
             replays it, with the file's `--backend` if it names one)",
            file.display()
        )));
    }
    let p = compiler::text::parse_program(text)
        .map_err(|e| Error::Malformed(format!("{}:{e}", file.display())))?;
    let words: Vec<String> = options_of(file, text)?
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let opts = crate::options::compile_options(&words, None)
        .map_err(|e| e.context(format!("its options `{}`", words.join(" "))))?;
    let (sets, sources) = check::input_sets(&p, 0, 0);
    let r = check::check(&p, &sets, sources.clone(), &opts);
    // A zoo campaign's reproducer that fails with no bug injected shows a bug of the
    // compiler itself: the report must not credit it to the zoo.
    let fails_without_zoo = (compiler::zoo::names(&opts.zoo) != "none").then(|| {
        let clean = compiler::pipeline::CompileOptions {
            zoo: Default::default(),
            ..opts.clone()
        };
        check::check(&p, &sets, sources, &clean)
            .verdict
            .is_failure()
    });
    let differences = match (&r.verdict, &r.culprit) {
        (Verdict::Mismatch { differences, .. }, _) => differences.clone(),
        (_, Some(c)) => c.differences.clone(),
        _ => vec![],
    };
    Ok(Replay {
        verdict: describe_verdict(&r.verdict),
        culprit_pass: r.culprit.as_ref().map(|c| c.pass.clone()),
        culprit_basis: r.culprit.as_ref().map(|c| basis(&c.basis).to_string()),
        ir_diff: r.culprit.map(|c| c.ir_diff).unwrap_or_default(),
        channel_diff: differences.iter().take(DIFF_ROWS).map(diff_row).collect(),
        more_differences: differences.len().saturating_sub(DIFF_ROWS),
        fails_without_zoo,
    })
}

/// A bucket's representative reproducer, read and replayed.
fn reproducer(file: &str, instructions: usize) -> cr::Reproducer {
    let path = Path::new(file);
    let display = path
        .file_name()
        .map_or(file.to_string(), |n| n.to_string_lossy().into_owned());
    match read_text(path) {
        Err(e) => cr::Reproducer {
            file: display,
            replay_error: Some(e.to_string()),
            ..cr::Reproducer::default()
        },
        Ok(text) => {
            let (replay, replay_error) = match replay(path, &text) {
                Ok(r) => (Some(r), None),
                Err(e) => (None, Some(e.to_string())),
            };
            cr::Reproducer {
                file: display,
                instructions: if instructions == usize::MAX {
                    0
                } else {
                    instructions
                },
                text,
                replay,
                replay_error,
            }
        }
    }
}

/// Tonight's buckets: the reproducer files grouped by their `# bucket:` line, with the
/// failure counts, signatures and first times of the statistics (which also count the
/// failures of full buckets that were not written). `replay`: replay each representative.
fn collect_buckets(
    dir: &Path,
    stats: &CampaignStats,
    known: &[KnownIssue],
    replay: bool,
) -> Result<Vec<Bucket>> {
    let files = buckets::buckets(&[dir.to_path_buf()], known)?;
    let mut by_key: BTreeMap<String, Bucket> = BTreeMap::new();
    let mut signatures: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    for f in &stats.failures {
        let b = by_key.entry(f.bucket.clone()).or_insert_with(|| Bucket {
            key: f.bucket.clone(),
            ..Bucket::default()
        });
        b.count += 1;
        b.first_seconds = Some(b.first_seconds.map_or(f.seconds, |s| s.min(f.seconds)));
        *signatures
            .entry(f.bucket.clone())
            .or_default()
            .entry(f.signature.clone())
            .or_default() += 1;
    }
    for fb in files {
        let b = by_key.entry(fb.key.clone()).or_insert_with(|| Bucket {
            key: fb.key.clone(),
            ..Bucket::default()
        });
        // Statistics of an older or interrupted campaign may lack failures on disk.
        b.count = b.count.max(fb.count as u64);
        b.known = fb.known.map(|k| k.label);
        b.files = fb.files;
        if replay {
            b.reproducer = Some(reproducer(
                &fb.representative,
                fb.representative_instructions,
            ));
        }
    }
    for (key, b) in by_key.iter_mut() {
        if b.known.is_none() {
            b.known = known
                .iter()
                .find(|k| &k.bucket == key)
                .map(|k| k.label.clone());
        }
        let mut sigs: Vec<(String, u64)> = signatures
            .remove(key)
            .unwrap_or_default()
            .into_iter()
            .collect();
        sigs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        b.signatures = sigs.into_iter().map(|(s, _)| s).collect();
        // Statistics without this bucket's failures: the reproducer's own signature.
        if b.signatures.is_empty()
            && let Some(sig) = b
                .reproducer
                .as_ref()
                .and_then(|r| header_value(&r.text, "signature"))
        {
            b.signatures.push(sig.to_string());
        }
    }
    Ok(by_key.into_values().collect())
}

fn date_of(stats: &CampaignStats) -> String {
    buckets::utc(stats.started_unix)
}

/// The nights before tonight: a previous campaign directory (one night) or a history file.
fn previous_nights(path: &Path, known: &[KnownIssue]) -> Result<Vec<Night>> {
    if path.is_dir() {
        let stats = read_stats(path)?;
        let buckets = collect_buckets(path, &stats, known, false)?;
        let date = date_of(&stats);
        return Ok(vec![cr::night(&stats, &date, &buckets)]);
    }
    let text = read_text(path)?;
    parse_history(&text).map_err(|e| Error::Malformed(format!("{}: {e}", path.display())))
}

/// The nights before tonight: a night reported again is not its own previous night.
fn before_tonight(nights: Vec<Night>, tonight: &CampaignStats) -> Vec<Night> {
    nights
        .into_iter()
        .filter(|n| n.started_unix != tonight.started_unix)
        .collect()
}

/// Builds the report of campaign directory `dir` (deciding only; nothing is written):
/// `previous` is the previous night (a campaign directory or a history file), `known` the
/// known-issues file (default: the corpus's).
pub fn build(dir: &Path, previous: Option<&Path>, known: Option<&Path>) -> Result<cr::Report> {
    let known = known_issues(known)?;
    let stats = read_stats(dir)?;
    let previous = match previous {
        Some(p) => before_tonight(previous_nights(p, &known)?, &stats),
        None => vec![],
    };
    let buckets = collect_buckets(dir, &stats, &known, true)?;
    let date = date_of(&stats);
    let report = cr::build(stats, buckets, previous, &date);
    Ok(match source_coverage(dir)? {
        Some(c) => cr::with_source_coverage(report, c),
        None => report,
    })
}

/// The night's source coverage, `DIR/coverage.json` (written by `scripts/coverage.sh`,
/// which `scripts/nightly.sh` runs when asked), if the night measured it.
fn source_coverage(dir: &Path) -> Result<Option<cr::SourceCoverage>> {
    let path = dir.join("coverage.json");
    if !path.exists() {
        return Ok(None);
    }
    let text = read_text(&path)?;
    cr::parse_source_coverage(&text)
        .map(Some)
        .map_err(|e| Error::Malformed(format!("{}: {e}", path.display())))
}

/// The one-line account printed at the end.
pub fn summary_line(r: &cr::Report) -> String {
    let s = &r.summary;
    format!(
        "{} new ({} not known), {} still open, {} gone bucket(s){}; {} execs at {:.0}/s, {:.1} % valid",
        s.new,
        s.new_unknown,
        s.open,
        s.gone,
        s.previous
            .as_ref()
            .map(|p| format!(" since {p}"))
            .unwrap_or_else(|| " (no previous night)".into()),
        s.execs,
        s.execs_per_sec,
        s.valid_percent
    )
}

/// The history file with tonight appended (replacing tonight's line when the night is
/// reported again), checked before anything is written: a history that does not parse is
/// the user's record and is left alone.
pub fn extended_history(path: &Path, r: &cr::Report) -> Result<String> {
    let existing = if path.exists() {
        read_text(path)?
    } else {
        String::new()
    };
    let tonight = r
        .history
        .last()
        .ok_or_else(|| Error::Refused("no night to append".into()))?;
    let others = without_night(&existing, tonight.started_unix)
        .map_err(|e| Error::Malformed(format!("{}: {e}", path.display())))?;
    Ok(append(&others, tonight))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_rows_split_where_expected_and_actual() {
        let d = Difference::Color {
            thread: 1,
            target: 0,
            channel: 5,
            write: 0,
            component: 2,
            expected: 0x3f80_0000,
            expected_defined: 0xf,
            actual: Some((0x1234, 0b0011)),
        };
        assert_eq!(
            diff_row(&d),
            DiffRow {
                location: "thread 1 rt0 ch5 write 0 component 2".into(),
                expected: "3f800000 (1.0)".into(),
                actual: "....1234".into(),
            }
        );
        let eot = diff_row(&Difference::Eot {
            thread: 0,
            expected: true,
        });
        assert_eq!(eot.location, "thread 0: EOT expected true");
    }
}
