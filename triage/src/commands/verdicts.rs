//! `eufuzz verdicts`: one line per (program, device) with its verdict, signature, culprit
//! pass, bucket key and verdict digest, for generated seeds and `.eu` files, in input
//! order whatever `--jobs` is: the output two revisions are compared by.

use std::path::PathBuf;
use triage::generate::KnobArgs;
use triage::options::CampaignFlags;
use triage::parallel::map_in_order;
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// `.eu` files, checked as `eufuzz check` checks them.
    files: Vec<PathBuf>,
    /// Generated programs: the seeds START..END (END excluded).
    #[arg(long, value_parser = seed_range)]
    seeds: Option<(u64, u64)>,
    /// Generated programs: the entries of a campaign's corpus (`OUT/corpus`), decoded with
    /// the knobs given here as the campaign decoded them.
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Check every program on every device it is valid for, not only its own.
    #[arg(long)]
    all_devices: bool,
    /// Threads.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    #[command(flatten)]
    knobs: KnobArgs,
    /// Compile flags for every program (`--zoo BUG` measures how many generated programs a
    /// historical bug fails, deterministically, where a campaign gives a time).
    #[command(flatten)]
    flags: CampaignFlags,
}

fn seed_range(s: &str) -> std::result::Result<(u64, u64), String> {
    let (a, b) = s.split_once("..").ok_or("expected START..END")?;
    let parse = |x: &str| x.parse::<u64>().map_err(|e| format!("{x}: {e}"));
    Ok((parse(a)?, parse(b)?))
}

pub fn run(args: Args) -> Result<Exit> {
    let knobs = args.knobs.resolve()?;
    let flags = args.flags.compile_flags();
    let opts = flags.options(None)?;
    let mut unreadable = false;
    for lines in map_in_order(&args.files, args.jobs, |f| {
        triage::verdicts::file(f, args.all_devices, &flags)
    }) {
        match lines {
            Ok(lines) => lines.iter().for_each(|l| println!("{l}")),
            Err(e) => {
                eprintln!("{e}");
                unreadable = true;
            }
        }
    }
    if let Some((start, end)) = args.seeds {
        let seeds: Vec<u64> = (start..end).collect();
        for chunk in seeds.chunks(4096) {
            for lines in map_in_order(chunk, args.jobs, |&s| {
                triage::verdicts::generated(s, &knobs, args.all_devices, &opts)
            }) {
                lines.iter().for_each(|l| println!("{l}"));
            }
        }
    }
    if let Some(dir) = &args.corpus {
        if !dir.is_dir() {
            return Err(triage::Error::Usage(format!(
                "--corpus {}: not a directory",
                dir.display()
            )));
        }
        let entries = triage::campaign::corpus::load(dir)?;
        for chunk in entries.chunks(4096) {
            for lines in map_in_order(chunk, args.jobs, |e| {
                triage::verdicts::corpus_entry(e, &knobs, args.all_devices, &opts)
            }) {
                lines.iter().for_each(|l| println!("{l}"));
            }
        }
    }
    Ok(if unreadable {
        Exit::Malformed
    } else {
        Exit::Ok
    })
}
