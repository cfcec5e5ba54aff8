//! `eufuzz merge OUT DIR...`: merge campaign shards into one campaign output.

use std::path::PathBuf;
use triage::campaign::merge::{merge, render};
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// The merged output directory (must not hold statistics yet).
    out: PathBuf,
    /// Campaign output directories.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
}

/// Exit 0, or 2 when an input cannot be read or OUT is taken.
pub fn run(args: Args) -> Result<Exit> {
    let m = merge(&args.out, &args.dirs)?;
    print!("{}", render(&args.out, args.dirs.len(), &m));
    Ok(Exit::Ok)
}
