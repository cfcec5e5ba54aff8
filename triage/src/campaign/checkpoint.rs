//! Checkpoints: the campaign's whole state (settings, per-worker progress and counts,
//! pending failures, filed failures and buckets, timeline) in `DIR/checkpoint.json`,
//! written atomically every few seconds, so `--resume DIR` continues a campaign that was
//! stopped or killed (even with `kill -9`) losing at most the cases in flight.

use super::Settings;
use super::filing::Memory;
use super::mix::Yields;
use super::stats::{Counts, Sample};
use super::worker::Pending;
use crate::error::{Error, Result};
use crate::files::{read_text, write_atomic};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The checkpoint file's name in the output directory.
pub const FILE: &str = "checkpoint.json";

/// Bumped when the checkpoint's meaning changes; older checkpoints are refused.
pub const FORMAT: u32 = 1;

/// One worker's progress.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct WorkerCheckpoint {
    /// Cases of its stream done, in order.
    pub done: u64,
    pub counts: Counts,
    /// Failures found and not filed yet: re-run on resume.
    pub pending: Vec<Pending>,
    /// The corpus entries the worker added, in order (names in `OUT/corpus`).
    #[serde(default)]
    pub corpus: Vec<String>,
    /// The feature ids the worker knows (the base corpus's and its cases'), sorted.
    #[serde(default)]
    pub features: Vec<u64>,
    /// What each origin of case has brought the worker, which sets its mix.
    #[serde(default)]
    pub yields: Yields,
}

/// Everything a resumed campaign starts from.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    pub format: u32,
    pub settings: Settings,
    /// Seconds run so far, over all sessions.
    pub elapsed: f64,
    pub started_unix: u64,
    pub workers: Vec<WorkerCheckpoint>,
    pub memory: Memory,
    pub timeline: Vec<Sample>,
    /// The base corpus (names in `OUT/corpus`, sorted): every worker may mutate it.
    #[serde(default)]
    pub base: Vec<String>,
}

/// Writes the checkpoint of `dir` atomically.
pub fn write(dir: &Path, c: &Checkpoint) -> Result<()> {
    let json = serde_json::to_string(c).expect("a checkpoint serializes");
    write_atomic(&dir.join(FILE), json.as_bytes())
}

/// Reads the checkpoint of `dir`, refusing one of another format or a damaged one.
pub fn read(dir: &Path) -> Result<Checkpoint> {
    let path = dir.join(FILE);
    let text = read_text(&path)?;
    let c: Checkpoint = serde_json::from_str(&text).map_err(|e| {
        Error::Malformed(format!(
            "{}: not a campaign checkpoint: {e}",
            path.display()
        ))
    })?;
    if c.format != FORMAT {
        return Err(Error::Refused(format!(
            "{}: checkpoint format {} (this eufuzz reads format {FORMAT})",
            path.display(),
            c.format
        )));
    }
    if c.workers.len() != c.settings.jobs as usize {
        return Err(Error::Malformed(format!(
            "{}: {} worker(s) recorded for --jobs {}",
            path.display(),
            c.workers.len(),
            c.settings.jobs
        )));
    }
    Ok(c)
}
