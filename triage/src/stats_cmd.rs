//! `eufuzz stats` and `eufuzz stats-compare`: shader-db for this backend. `stats` compiles
//! every program of a corpus (on its own target, one device, or every device it is valid
//! for) and writes one CSV row of figures per (program, device); `stats-compare` reads two
//! such files — from two git revisions, or two option sets of one build — and prints the
//! comparison compiler engineers read on mesa-dev (see `reports::shader_stats`).

use crate::files::{read_text, write_atomic};
use crate::gate::collect;
use crate::load::load_document;
use compiler::Device;
use compiler::pipeline::{Compilation, CompileOptions, Outcome, compile};
use compiler::stats::{ProgramStats, program_stats};
use reports::shader_runs::{DEFAULT_METRICS, RunRow, compare_runs};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The flags of `eufuzz stats`.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// Directories (searched for .eu files recursively) and files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Compile for this device instead of each file's target.
    #[arg(long, conflicts_with = "all_devices")]
    pub device: Option<String>,
    /// Compile each program for every device it is a valid program for.
    #[arg(long)]
    pub all_devices: bool,
    /// `-O0`: mandatory lowering and register allocation only.
    #[arg(short = 'O', value_name = "LEVEL", default_value_t = 2)]
    pub opt_level: u8,
    /// Passes not to run, by name (repeat the flag or separate with commas), e.g.
    /// `--skip move_load_const` to measure what that pass buys.
    #[arg(long, value_delimiter = ',')]
    pub skip: Vec<String>,
    /// Inject historical bugs by name (builds with the zoo feature only).
    #[arg(long)]
    pub zoo: Option<String>,
    /// Spill every spillable VGRF.
    #[arg(long)]
    pub spill_all: bool,
    /// Where the CSV goes.
    #[arg(long)]
    pub out: PathBuf,
    /// Programs compiled at once (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// The flags of `eufuzz stats-compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The run before the change.
    pub before: PathBuf,
    /// The run after the change.
    pub after: PathBuf,
    /// Metrics to compare (repeat or separate with commas; default: all but compile_us).
    #[arg(long, value_delimiter = ',')]
    pub metric: Vec<String>,
    /// Print JSON.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print Markdown.
    #[arg(long)]
    pub markdown: bool,
    /// List this many most helped and most hurt programs per metric.
    #[arg(long, default_value_t = 5)]
    pub top: usize,
}

/// One unit of work: a program file on a device (`None`: the file's own target).
struct Job {
    path: PathBuf,
    device: Option<Device>,
}

/// The compile options of a stats run.
fn options(a: &StatsArgs) -> Result<CompileOptions, String> {
    let opts = CompileOptions {
        o0: a.opt_level == 0,
        spill_all: a.spill_all,
        skip: a.skip.clone(),
        zoo: match &a.zoo {
            None => compiler::zoo::Selected::default(),
            Some(name) => compiler::zoo::select(name)?,
        },
        ..Default::default()
    };
    let known = compiler::pipeline::pass_names(&CompileOptions::default());
    if let Some(bad) = a.skip.iter().find(|s| !known.contains(&s.as_str())) {
        return Err(format!("--skip: no pass named `{bad}`"));
    }
    Ok(opts)
}

/// The row of one program on one device: its figures, or the reason it has none.
fn measure(path: &Path, device: Option<Device>, opts: &CompileOptions) -> Option<RunRow> {
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
pub fn to_csv(rows: &[RunRow]) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(vec![]);
    for r in rows {
        w.serialize(r).map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// Reads a run written by `eufuzz stats`, naming the file and record of a bad row.
pub fn read_csv(path: &Path) -> Result<Vec<RunRow>, String> {
    let text = read_text(path)?;
    let mut r = csv::Reader::from_reader(text.as_bytes());
    r.deserialize()
        .map(|row| {
            row.map_err(|e| {
                let line = e.position().map_or(0, |p| p.line());
                format!(
                    "{}:{line}: not a row of `eufuzz stats`: {e}",
                    path.display()
                )
            })
        })
        .collect()
}

/// Compiles the jobs on `jobs` threads; rows come back in job order.
fn run_jobs(work: &[Job], opts: &CompileOptions, jobs: usize) -> Vec<RunRow> {
    let done = AtomicUsize::new(0);
    let terminal = std::io::stderr().is_terminal();
    let rows = crate::parallel::map_in_order(work, jobs, |job| {
        let row = measure(&job.path, job.device, opts);
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if terminal && (n.is_multiple_of(50) || n == work.len()) {
            eprint!("\rcompiled {n}/{}", work.len());
        }
        row
    });
    if terminal {
        eprintln!();
    }
    rows.into_iter().flatten().collect()
}

/// `eufuzz stats`: exit 0 when every file was read (compile failures are rows), 2 when a
/// path or file cannot be read (its row says why).
pub fn stats(a: &StatsArgs) -> Result<i32, String> {
    let opts = options(a)?;
    let devices: Vec<Option<Device>> = if a.all_devices {
        compiler::device::ALL_DEVICES
            .iter()
            .copied()
            .map(Some)
            .collect()
    } else if let Some(name) = &a.device {
        vec![Some(
            Device::from_name(name).ok_or_else(|| format!("unknown device `{name}`"))?,
        )]
    } else {
        vec![None]
    };
    let files = collect(&a.paths)?;
    if files.is_empty() {
        return Err("no .eu files under the given paths".into());
    }
    let work: Vec<Job> = files
        .iter()
        .flat_map(|f| {
            devices.iter().map(|&device| Job {
                path: f.clone(),
                device,
            })
        })
        .collect();
    let jobs = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let rows = run_jobs(&work, &opts, jobs);
    write_atomic(&a.out, to_csv(&rows)?.as_bytes())?;
    let failed = rows.iter().filter(|r| !r.error.is_empty()).count();
    let unreadable = rows
        .iter()
        .filter(|r| r.error.starts_with("unreadable"))
        .count();
    eprintln!(
        "{} rows ({} programs) written to {}; {failed} failed to compile",
        rows.len(),
        files.len(),
        a.out.display()
    );
    for r in rows.iter().filter(|r| !r.error.is_empty()) {
        eprintln!("  {}: {}", r.name(), r.error);
    }
    Ok(if unreadable > 0 { 2 } else { 0 })
}

/// `eufuzz stats-compare`: prints the comparison; exit 0.
pub fn compare(a: &CompareArgs) -> Result<i32, String> {
    let metrics: Vec<&str> = if a.metric.is_empty() {
        DEFAULT_METRICS.to_vec()
    } else {
        a.metric.iter().map(String::as_str).collect()
    };
    let before = read_csv(&a.before)?;
    let after = read_csv(&a.after)?;
    let c = compare_runs(&before, &after, &metrics, a.top)?;
    let out = if a.json {
        serde_json::to_string_pretty(&c).map_err(|e| e.to_string())? + "\n"
    } else if a.markdown {
        reports::shader_stats_text::render_comparison_markdown(&c)
    } else {
        reports::shader_stats_text::render_comparison(&c)
    };
    print!("{out}");
    Ok(0)
}
