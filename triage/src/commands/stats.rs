//! `eufuzz stats`: shader-db — compile every program of a corpus and write one CSV row of
//! figures per (program, device).

use compiler::Device;
use std::io::IsTerminal;
use std::path::PathBuf;
use triage::files::write_atomic;
use triage::options::CompileFlags;
use triage::shader_db::{measure_all, options, to_csv};
use triage::{Error, Exit, Result};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directories (searched for .eu files recursively) and files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Compile for this device instead of each file's target.
    #[arg(long, conflicts_with = "all_devices")]
    device: Option<String>,
    /// Compile each program for every device it is a valid program for.
    #[arg(long)]
    all_devices: bool,
    /// `-O0`: mandatory lowering and register allocation only.
    #[arg(short = 'O', value_name = "LEVEL", default_value_t = 2)]
    opt_level: u8,
    /// Passes not to run, by name (repeat the flag or separate with commas), e.g.
    /// `--skip move_load_const` to measure what that pass buys.
    #[arg(long, value_delimiter = ',')]
    skip: Vec<String>,
    /// Inject historical bugs by name (builds with the zoo feature only).
    #[arg(long)]
    zoo: Option<String>,
    /// Spill every spillable VGRF.
    #[arg(long)]
    spill_all: bool,
    /// Where the CSV goes.
    #[arg(long)]
    out: PathBuf,
    /// Programs compiled at once (default: every core).
    #[arg(long)]
    jobs: Option<usize>,
}

/// Exit 0 when every file was read (compile failures are rows), 2 when a path or file
/// cannot be read (its row says why).
pub fn run(a: Args) -> Result<Exit> {
    let flags = CompileFlags {
        opt_level: a.opt_level,
        spill_all: a.spill_all,
        zoo: a.zoo.clone(),
        ..CompileFlags::default()
    };
    let opts = options(&flags, &a.skip)?;
    let devices: Vec<Option<Device>> = if a.all_devices {
        compiler::device::ALL_DEVICES
            .iter()
            .copied()
            .map(Some)
            .collect()
    } else if let Some(name) = &a.device {
        vec![Some(Device::from_name(name).ok_or_else(|| {
            Error::Usage(format!("unknown device `{name}`"))
        })?)]
    } else {
        vec![None]
    };
    let files = triage::gate::collect(&a.paths)?;
    if files.is_empty() {
        return Err(Error::Refused("no .eu files under the given paths".into()));
    }
    let work: Vec<(PathBuf, Option<Device>)> = files
        .iter()
        .flat_map(|f| devices.iter().map(|&device| (f.clone(), device)))
        .collect();
    let jobs = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let terminal = std::io::stderr().is_terminal();
    let rows = measure_all(&work, &opts, jobs, |n, total| {
        if terminal && (n.is_multiple_of(50) || n == total) {
            eprint!("\rcompiled {n}/{total}");
        }
    });
    if terminal {
        eprintln!();
    }
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
    Ok(if unreadable > 0 {
        Exit::Malformed
    } else {
        Exit::Ok
    })
}
