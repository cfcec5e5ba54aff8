//! `eufuzz rebucket DIR...`: recompute every reproducer's bucket key, reducing the
//! unreduced ones first with `--reduce`.

use std::path::PathBuf;
use std::time::Duration;
use triage::buckets::{rebucket, reduce_unreduced};
use triage::outlock::OutLock;
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Reduce the unreduced reproducers first.
    #[arg(long)]
    reduce: bool,
    /// Seconds each reduction may take.
    #[arg(long, default_value_t = 60, requires = "reduce")]
    budget: u64,
    /// Reductions run at once (default: all cores).
    #[arg(long, requires = "reduce")]
    jobs: Option<usize>,
}

pub fn run(args: Args) -> Result<Exit> {
    let locks = args
        .dirs
        .iter()
        .map(|d| OutLock::acquire(d, "rebucket"))
        .collect::<Result<Vec<_>>>()?;
    for note in locks.iter().filter_map(|l| l.note.as_deref()) {
        eprintln!("{note}");
    }
    if args.reduce {
        let jobs = args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        let (reduced, not) = reduce_unreduced(&args.dirs, Duration::from_secs(args.budget), jobs)?;
        println!("{reduced} reproducer(s) reduced");
        for f in not {
            println!("{}: not reduced (it does not fail as filed)", f.display());
        }
    }
    let (files, changed) = rebucket(&args.dirs)?;
    println!("{files} reproducer(s), {changed} bucket key(s) changed");
    Ok(Exit::Ok)
}
