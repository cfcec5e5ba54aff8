//! shader-db for this backend (`eufuzz stats`, `eufuzz stats-compare`). `stats` compiles
//! every program of a corpus (on its own target, one device, or every device it is valid
//! for) and writes one CSV row of figures per (program, device); `stats-compare` reads two
//! such files — from two git revisions, or two option sets of one build — and prints the
//! comparison compiler engineers read on mesa-dev (see `reports::shader_stats`).

use crate::error::{Error, Result};
use crate::files::read_text;
use crate::load::load_document;
use compiler::Device;
use compiler::pipeline::{Compilation, CompileOptions, Outcome, compile};
use compiler::stats::{ProgramStats, program_stats};
use reports::shader_runs::RunRow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The row of one program on one device: its figures, or the reason it has none.
pub fn measure(path: &Path, device: Option<Device>, opts: &CompileOptions) -> Option<RunRow> {
    let name = path.display().to_string();
    let mut p = match load_document(path) {
        Ok(d) => d.program,
        Err(e) => {
            return Some(RunRow {
                program: name,
                device: device.map_or("-", |d| d.name()).to_string(),
                error: format!("unreadable: {e}"),
                ..Default::default()
            });
        }
    };
    if let Some(d) = device {
        p.device = d;
    }
    // A program is in the run for a device only if it is a valid program there (what
    // `check --all-devices` checks too): an unsupported type is not a compiler failure.
    if device.is_some() && !compiler::validate::validate(&p).is_empty() {
        return None;
    }
    let start = Instant::now();
    let c = compile(&p, opts);
    let compile_us = start.elapsed().as_micros() as u64;
    Some(row_of(name, &c, compile_us))
}

/// The row of a finished compilation of the program named `program`: its figures, or (all
/// figures zero) why it did not compile cleanly.
pub fn row_of(program: String, c: &Compilation, compile_us: u64) -> RunRow {
    let error = match &c.outcome {
        Outcome::Compiled => c
            .first_violation()
            .map(|(pass, vs)| format!("after {pass}: {}", vs[0]))
            .unwrap_or_default(),
        Outcome::Failed { pass, message, .. } => format!("pass {pass} failed: {message}"),
        Outcome::Panicked {
            pass,
            message,
            location,
        } => format!("pass {pass} panicked at {location}: {message}"),
    };
    let s = if error.is_empty() {
        program_stats(c)
    } else {
        ProgramStats::default()
    };
    RunRow {
        program,
        device: c.program.device.name().to_string(),
        instructions: s.instructions,
        sends: s.sends,
        loops: s.loops,
        cycles: s.cycles,
        spills: s.spills,
        fills: s.fills,
        scratch_bytes: s.scratch_bytes,
        max_live_registers: s.max_live_registers,
        compile_us,
        error,
    }
}

/// The rows of a compilation as CSV text (header first).
pub fn to_csv(rows: &[RunRow]) -> Result<String> {
    let mut w = csv::Writer::from_writer(vec![]);
    for r in rows {
        w.serialize(r).map_err(csv_error)?;
    }
    let bytes = w.into_inner().map_err(csv_error)?;
    String::from_utf8(bytes).map_err(csv_error)
}

/// Rows serialize to CSV in memory: failing to is a bug, reported rather than unwrapped.
fn csv_error(e: impl std::fmt::Display) -> Error {
    Error::Malformed(format!("cannot write CSV: {e}"))
}

/// Reads a run written by `eufuzz stats`, naming the file and record of a bad row.
pub fn read_csv(path: &Path) -> Result<Vec<RunRow>> {
    let text = read_text(path)?;
    let mut r = csv::Reader::from_reader(text.as_bytes());
    r.deserialize()
        .map(|row| {
            row.map_err(|e| {
                let line = e.position().map_or(0, |p| p.line());
                Error::Malformed(format!(
                    "{}:{line}: not a row of `eufuzz stats`: {e}",
                    path.display()
                ))
            })
        })
        .collect()
}

/// Compiles each (program file, device) on `jobs` threads — `None` is the file's own
/// target — calling `progress(done, total)` as they finish; rows come back in order.
pub fn measure_all(
    work: &[(PathBuf, Option<Device>)],
    opts: &CompileOptions,
    jobs: usize,
    progress: impl Fn(usize, usize) + Sync,
) -> Vec<RunRow> {
    let done = AtomicUsize::new(0);
    let rows = crate::parallel::map_in_order(work, jobs, |(path, device)| {
        let row = measure(path, *device, opts);
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, work.len());
        row
    });
    rows.into_iter().flatten().collect()
}

/// The compile options of a stats run: `skip` names passes not to run, each of which must
/// exist.
pub fn options(flags: &crate::options::CompileFlags, skip: &[String]) -> Result<CompileOptions> {
    let known = compiler::pipeline::pass_names(&CompileOptions::default());
    if let Some(bad) = skip.iter().find(|s| !known.contains(&s.as_str())) {
        return Err(Error::Usage(format!("--skip: no pass named `{bad}`")));
    }
    Ok(CompileOptions {
        skip: skip.to_vec(),
        ..flags.options(None)?
    })
}
