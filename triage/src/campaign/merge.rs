//! Merging campaign outputs (`eufuzz merge OUT DIR...`): the outputs of campaign shards (`--shard K/N` on several
//! machines) as one campaign output: statistics added up (`OUT/stats.json`), every
//! reproducer copied (so `eufuzz bucket OUT` lists the buckets of all shards). Files are
//! written atomically and nothing is overwritten: a reproducer whose name is taken by a
//! different file is copied under a new name (`NAME-2.eu`, with its `.bytes` and
//! `.reduced.eu`), and the statistics point at the new name. The feedback corpora
//! (`DIR/corpus/`) are united into `OUT/corpus/`: entries are named by their contents, so
//! the same name is the same entry.

use crate::campaign::stats::{self, Stats};
use crate::error::{Error, Result};
use crate::files::{read_text, write_atomic, write_new};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The files of one reproducer, by their extension after the stem.
const GROUP: [&str; 3] = [".eu", ".reduced.eu", ".bytes"];

/// What a merge did.
#[derive(Debug, Default)]
pub struct Merged {
    pub stats: Stats,
    pub copied: usize,
    /// Files already in OUT with the same contents (merging a directory twice).
    pub same: usize,
    pub renamed: usize,
    /// Corpus entries in `OUT/corpus` after the merge.
    pub corpus: usize,
}

fn read_stats(dir: &Path) -> Result<Stats> {
    let path = dir.join("stats.json");
    let text = read_text(&path)?;
    serde_json::from_str(&text)
        .map_err(|e| Error::Malformed(format!("{}: not campaign statistics: {e}", path.display())))
}

/// Reproducer stems in `dir` (`mismatch-12` for `mismatch-12.eu`, `.bytes`, …).
fn stems(dir: &Path) -> Result<Vec<String>> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).map_err(|e| Error::io(dir, "list", e))? {
        let name = e
            .map_err(|e| Error::io(dir, "list", e))?
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name.starts_with('.') {
            continue;
        }
        if let Some(stem) = GROUP.iter().find_map(|ext| name.strip_suffix(ext)) {
            let stem = stem.strip_suffix(".reduced").unwrap_or(stem);
            out.push(stem.to_string());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The first stem under which every file of the group is new in `out` or already there
/// with the same contents.
fn free_stem(src: &Path, stem: &str, out: &Path) -> Result<String> {
    for n in 1.. {
        let candidate = if n == 1 {
            stem.to_string()
        } else {
            format!("{stem}-{n}")
        };
        let clash = GROUP.iter().any(|ext| {
            let from = src.join(format!("{stem}{ext}"));
            let to = out.join(format!("{candidate}{ext}"));
            from.exists() && to.exists() && std::fs::read(&from).ok() != std::fs::read(&to).ok()
        });
        if !clash {
            return Ok(candidate);
        }
    }
    Err(Error::Refused(format!(
        "{}: no free name for {stem}",
        out.display()
    )))
}

/// Merges the campaign outputs `dirs` into `out`.
pub fn merge(out: &Path, dirs: &[PathBuf]) -> Result<Merged> {
    if out.join("stats.json").exists() {
        return Err(Error::Refused(format!(
            "{}: already holds campaign statistics (merge into a new directory)",
            out.display()
        )));
    }
    let parts: Vec<Stats> = dirs
        .iter()
        .map(|d| read_stats(d))
        .collect::<Result<_, _>>()?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, "create", e))?;
    let mut merged = Merged::default();
    let mut parts_moved = vec![];
    for (dir, mut part) in dirs.iter().zip(parts) {
        // Old path (as the shard's statistics name it) → new path.
        let mut moved: BTreeMap<String, String> = BTreeMap::new();
        for stem in stems(dir)? {
            let target = free_stem(dir, &stem, out)?;
            if target != stem {
                merged.renamed += 1;
            }
            for ext in GROUP {
                let from = dir.join(format!("{stem}{ext}"));
                if !from.exists() {
                    continue;
                }
                let to = out.join(format!("{target}{ext}"));
                let bytes = std::fs::read(&from).map_err(|e| Error::io(&from, "read", e))?;
                if write_new(&to, &bytes)? {
                    merged.copied += 1;
                } else {
                    merged.same += 1;
                }
                let name = format!("{stem}{ext}");
                moved.insert(name, to.display().to_string());
            }
        }
        let relocate = |p: &mut Option<String>| {
            if let Some(path) = p {
                let name = Path::new(path.as_str())
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if let Some(new) = moved.get(&name) {
                    *path = new.clone();
                }
            }
        };
        for f in &mut part.failures {
            relocate(&mut f.file);
            relocate(&mut f.reduced);
        }
        parts_moved.push(part);
        let from = dir.join(super::corpus::DIR);
        if from.is_dir() {
            super::corpus::union_into(&from, &out.join(super::corpus::DIR))?;
        }
    }
    merged.stats = stats::merge(&parts_moved);
    merged.corpus = super::corpus::count(&out.join(super::corpus::DIR));
    if merged.corpus > 0 && merged.stats.feedback {
        merged.stats.corpus = merged.corpus as u64;
    }
    let json = serde_json::to_string_pretty(&merged.stats).expect("statistics serialize");
    write_atomic(&out.join("stats.json"), json.as_bytes())?;
    Ok(merged)
}

/// The one-paragraph account of a merge.
pub fn render(out: &Path, dirs: usize, m: &Merged) -> String {
    format!(
        "merged {dirs} campaign output(s) into {}: {} execs in {:.0}s ({} workers), {} failure(s) in {} bucket(s); {} file(s) copied, {} already there, {} reproducer(s) renamed; corpus of {} entries\n",
        out.display(),
        m.stats.counts.execs,
        m.stats.seconds,
        m.stats.jobs,
        m.stats.failures.len(),
        m.stats.bucket_count(),
        m.copied,
        m.same,
        m.renamed,
        m.corpus
    )
}
