//! `eufuzz bucket DIR...`: list campaign reproducers by bucket.

use std::path::PathBuf;
use triage::buckets::{buckets, known_issues, render};
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// Campaign output directories.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
    /// Known issues (`[[known]]` tables with bucket, label, reason, link, suppress);
    /// default: corpus/known-issues.toml when it exists.
    #[arg(long)]
    known: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<Exit> {
    let known = known_issues(args.known.as_deref())?;
    let buckets = buckets(&args.dirs, &known)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&buckets).expect("buckets serialize")
        );
    } else {
        print!("{}", render(&buckets));
    }
    Ok(Exit::Ok)
}
