//! `eufuzz bucket DIR...` groups campaign reproducers by their bucket key (the `# bucket:`
//! header line a campaign writes), with counts, first and last seen, and the smallest
//! (reduced) reproducer as representative; `corpus/known-issues.toml` labels or suppresses
//! buckets. `eufuzz rebucket DIR...` recomputes the keys after a change to the compiler or
//! the bucketing.

use crate::error::{Error, Result};
use crate::files::{read_text, write_atomic, write_new};
use crate::identity::Identity;
use crate::repro::{header_value, reduced_beside, replays_in_process, with_bucket_line};
use compiler::pipeline::CompileOptions;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// One entry of `known-issues.toml`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownIssue {
    pub bucket: String,
    pub label: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub link: Option<String>,
    /// Hidden from listings (still counted).
    #[serde(default)]
    pub suppress: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct KnownFile {
    #[serde(default)]
    known: Vec<KnownIssue>,
}

/// Reads a known-issues file (`[[known]]` tables).
pub fn read_known(path: &Path) -> Result<Vec<KnownIssue>> {
    let text = read_text(path)?;
    toml::from_str::<KnownFile>(&text)
        .map(|f| f.known)
        .map_err(|e| Error::Malformed(format!("{}: {e}", path.display())))
}

/// The known issues of `path`, or of `corpus/known-issues.toml` when no path is given and
/// that file exists.
pub fn known_issues(path: Option<&Path>) -> Result<Vec<KnownIssue>> {
    let default = Path::new("corpus/known-issues.toml");
    match path {
        Some(p) => read_known(p),
        None if default.exists() => read_known(default),
        None => Ok(vec![]),
    }
}

/// A bucket with everything a listing shows.
#[derive(Clone, Debug, Serialize)]
pub struct Bucket {
    pub key: String,
    pub count: usize,
    /// Seconds since the Unix epoch (file modification times).
    pub first_seen: u64,
    pub last_seen: u64,
    /// The smallest reproducer: a reduced one when there is one.
    pub representative: String,
    pub representative_instructions: usize,
    pub files: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<KnownIssue>,
}

/// Campaign reproducers under `dirs`: the `.eu` files a campaign filed, which carry a
/// `# bucket:` header line (not the `.reduced.eu` files beside them, nor other `.eu` files,
/// which `rebucket` must not rewrite). A directory that holds none and no campaign
/// statistics is not a campaign's output: refused, so that `rebucket corpus/examples`
/// changes nothing.
pub fn reproducers(dirs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = vec![];
    for d in dirs {
        let entries = std::fs::read_dir(d).map_err(|e| Error::io(d, "list", e))?;
        let before = out.len();
        for e in entries {
            let p = e.map_err(|e| Error::io(d, "list", e))?.path();
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            if name.is_some_and(|n| n.ends_with(".eu") && !n.ends_with(".reduced.eu"))
                && header_value(&read_text(&p)?, "bucket").is_some()
            {
                out.push(p);
            }
        }
        let campaign = d.join("stats.json").exists() || d.join("checkpoint.json").exists();
        if out.len() == before && !campaign {
            return Err(Error::Refused(format!(
                "{}: not a campaign's output: no campaign reproducers (.eu files with a `# bucket:` line) and no stats.json",
                d.display()
            )));
        }
    }
    out.sort();
    Ok(out)
}

fn instructions(path: &Path) -> Option<usize> {
    let text = read_text(path).ok()?;
    compiler::text::parse_program(&text)
        .ok()
        .map(|p| p.inst_count())
}

fn modified(path: &Path) -> u64 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs())
}

/// Groups the reproducers under `dirs` by bucket key, most frequent first.
pub fn buckets(dirs: &[PathBuf], known: &[KnownIssue]) -> Result<Vec<Bucket>> {
    let mut by_key: BTreeMap<String, Bucket> = BTreeMap::new();
    for f in reproducers(dirs)? {
        let text = read_text(&f)?;
        let key = header_value(&text, "bucket")
            .unwrap_or("unknown")
            .to_string();
        let seen = modified(&f);
        let reduced = reduced_beside(&f);
        let candidate = if reduced.exists() { reduced } else { f.clone() };
        let size = instructions(&candidate).unwrap_or(usize::MAX);
        let b = by_key.entry(key.clone()).or_insert_with(|| Bucket {
            known: known.iter().find(|k| k.bucket == key).cloned(),
            key,
            count: 0,
            first_seen: seen,
            last_seen: seen,
            representative: candidate.display().to_string(),
            representative_instructions: size,
            files: vec![],
        });
        b.count += 1;
        b.first_seen = b.first_seen.min(seen);
        b.last_seen = b.last_seen.max(seen);
        if size < b.representative_instructions {
            b.representative = candidate.display().to_string();
            b.representative_instructions = size;
        }
        b.files.push(f.display().to_string());
    }
    let mut out: Vec<Bucket> = by_key.into_values().collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then(a.key.cmp(&b.key)));
    Ok(out)
}

/// `YYYY-MM-DD HH:MM` (UTC) of a Unix time.
pub fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rem / 3600,
        rem / 60 % 60
    )
}

/// The listing: one line per bucket that is not suppressed, and a summary line.
pub fn render(buckets: &[Bucket]) -> String {
    let mut out = String::new();
    let mut suppressed = 0;
    for b in buckets {
        if b.known.as_ref().is_some_and(|k| k.suppress) {
            suppressed += 1;
            continue;
        }
        let label = b
            .known
            .as_ref()
            .map(|k| format!("  [known: {}]", k.label))
            .unwrap_or_default();
        out.push_str(&format!(
            "{:>5}  {}{label}\n       first {}  last {}  smallest: {} ({} instructions)\n",
            b.count,
            b.key,
            utc(b.first_seen),
            utc(b.last_seen),
            b.representative,
            b.representative_instructions
        ));
    }
    out.push_str(&format!(
        "{} bucket(s), {} reproducer(s){}\n",
        buckets.len(),
        buckets.iter().map(|b| b.count).sum::<usize>(),
        if suppressed > 0 {
            format!(", {suppressed} suppressed by known issues")
        } else {
            String::new()
        }
    ));
    out
}

/// The compile options of a reproducer's `# options:` line (or, when `text` has none, of
/// `fallback`'s).
fn options_of(f: &Path, text: &str, fallback: Option<&str>) -> Result<CompileOptions> {
    let line = header_value(text, "options")
        .or_else(|| fallback.and_then(|t| header_value(t, "options")))
        .unwrap_or("");
    let words: Vec<&str> = line.split_whitespace().collect();
    crate::options::compile_options(&words, None).map_err(|e| e.context(f.display()))
}

fn parse(f: &Path, text: &str) -> Result<compiler::Program> {
    compiler::text::parse_program(text)
        .map_err(|e| Error::Malformed(format!("{}:{e}", f.display())))
}

/// Reduces, as a campaign's reducers would, every reproducer under `dirs` that has no
/// `.reduced.eu` beside it (one a campaign filed unreduced because it ended first), on
/// `jobs` threads, each reduction bounded by `budget`; writes the reductions (never over an
/// existing file). Returns how many were reduced, and the files that no longer fail or
/// cannot be reduced.
pub fn reduce_unreduced(
    dirs: &[PathBuf],
    budget: std::time::Duration,
    jobs: usize,
) -> Result<(usize, Vec<PathBuf>)> {
    let files: Vec<PathBuf> = reproducers(dirs)?
        .into_iter()
        .filter(|f| !reduced_beside(f).exists())
        .filter(|f| read_text(f).is_ok_and(|t| replays_in_process(&t) || mesa_reducible(&t)))
        .collect();
    let results = crate::parallel::map_in_order(&files, jobs, |f| -> Result<bool> {
        let text = read_text(f)?;
        if let Some(backend) = header_value(&text, "backend") {
            return reduce_with_mesa(f, &text, backend, budget);
        }
        let opts = options_of(f, &text, None)?;
        let p = parse(f, &text)?;
        let Some(outcome) = crate::campaign::reducers::reduce(&p, &opts, budget) else {
            return Ok(false);
        };
        let Some(key) = outcome.key.clone() else {
            return Ok(false);
        };
        let reduced = crate::campaign::reducers::reduced_file_text(f, &outcome, &key);
        write_new(&reduced_beside(f), reduced.as_bytes())?;
        Ok(true)
    });
    let mut reduced = 0;
    let mut not = vec![];
    for (f, r) in files.iter().zip(results) {
        if r? {
            reduced += 1;
        } else {
            not.push(f.clone());
        }
    }
    Ok((reduced, not))
}

/// Whether a reproducer of a Mesa campaign can be reduced here: its case failed in the
/// shim, which runs in a process of its own (a Mesa crash included), but not a hang, which
/// would cost the shim's timeout per step.
fn mesa_reducible(text: &str) -> bool {
    header_value(text, "backend").is_some()
        && header_value(text, "signature").is_some_and(|s| !s.starts_with("hang/"))
}

/// Reduces the reproducer `f` of a campaign against Mesa (`# backend: mesa:PASS`) with the
/// Mesa reducer, as the campaign's reduction threads would.
fn reduce_with_mesa(
    f: &Path,
    text: &str,
    backend: &str,
    budget: std::time::Duration,
) -> Result<bool> {
    let backend = crate::mesa::Backend {
        pass: crate::mesa::backend_pass(backend)?,
        inputs: crate::mesa::DEFAULT_INPUTS,
    };
    let mut shim = crate::mesa::shim::Shim::open(std::time::Duration::from_secs(60))?;
    let p = parse(f, text)?;
    let Some(r) = crate::mesa::case::reduce_failure(&mut shim, &backend, &p, budget)? else {
        return Ok(false);
    };
    let Some(key) = r.key.clone() else {
        return Ok(false);
    };
    write_new(&reduced_beside(f), r.file_text(f, &key).as_bytes())?;
    Ok(true)
}

/// Recomputes the bucket key of every reproducer under `dirs` with the compile options its
/// `# options:` line names; rewrites the files whose key changed. Returns (files, changed).
pub fn rebucket(dirs: &[PathBuf]) -> Result<(usize, usize)> {
    let files = reproducers(dirs)?;
    let mut changed = 0;
    for f in &files {
        let text = read_text(f)?;
        if !replays_in_process(&text) {
            // A crash or a hang killed by the campaign keeps the key its campaign gave it.
            continue;
        }
        // Keys are meant for reduced programs: an original with a reduction next to it is
        // keyed on the reduction (which fails the same way, or the original is fixed too),
        // with the options it was reduced against (one zoo bug of several) when it names
        // them.
        let reduced = reduced_beside(f);
        let keyed = if reduced.exists() {
            read_text(&reduced)?
        } else {
            text.clone()
        };
        let opts = options_of(f, &keyed, Some(&text))?;
        let p = parse(f, &keyed)?;
        let key = Identity::of_program(&p, &opts).map_or_else(|| "fixed/pass".into(), |i| i.bucket);
        if header_value(&text, "bucket") != Some(key.as_str()) {
            write_atomic(f, with_bucket_line(&text, &key).as_bytes())?;
            changed += 1;
        }
    }
    Ok((files.len(), changed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc() {
        assert_eq!(utc(0), "1970-01-01 00:00");
        assert_eq!(utc(1_795_478_400 + 3_600 + 120), "2026-11-24 01:02");
    }

    #[test]
    fn known_issues_parse_and_reject_typos() {
        let ok: KnownFile = toml::from_str(
            "[[known]]\nbucket = \"mismatch/x/mul:D/all-lanes\"\nlabel = \"bug 1\"\nsuppress = true\n",
        )
        .expect("valid");
        assert!(ok.known[0].suppress);
        assert!(toml::from_str::<KnownFile>("[[known]]\nbucket = \"a\"\nlabl = \"b\"\n").is_err());
    }
}
