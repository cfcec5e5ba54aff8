//! `eufuzz merge OUT DIR...`: merge campaign shards into one campaign output.

use std::path::PathBuf;
use triage::campaign::merge::{merge, render};
use triage::outlock::OutLock;
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// The merged output directory (must not hold statistics yet).
    out: PathBuf,
    /// Campaign output directories.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
}

/// Exit 0, or 2 when an input cannot be read or OUT is taken (it holds statistics, or a
/// campaign or merge is writing there).
pub fn run(args: Args) -> Result<Exit> {
    let lock = OutLock::acquire_creating(&args.out, "merge")?;
    if let Some(note) = &lock.note {
        eprintln!("{note}");
    }
    let m = merge(&args.out, &args.dirs)?;
    print!("{}", render(&args.out, args.dirs.len(), &m));
    Ok(Exit::Ok)
}
