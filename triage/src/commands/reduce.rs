//! `eufuzz reduce FILE`: reduce a failing reproducer to the same signature and write the
//! result (atomically) as a canonical `.eu` file with a header saying where it came from.
//! The file's `# options:` and `# zoo:` apply as in `check`; the input is never
//! overwritten unless `--in-place` says so.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;
use triage::check::file_check;
use triage::options::CompileArgs;
use triage::reduce::file::{Destination, Request, reduce_file};
use triage::reduce::{Event, Settings};
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// The failing .eu program (its INPUTS are the failing inputs).
    file: PathBuf,
    /// Where the reduced program goes (default: NAME.reduced.eu beside the file, which
    /// must not exist yet; never the file itself).
    #[arg(short, long)]
    out: Option<PathBuf>,
    /// Replace the file with its reduction.
    #[arg(long, conflicts_with = "out")]
    in_place: bool,
    /// The signature to keep (default: the one the file fails with now).
    #[arg(long)]
    signature: Option<String>,
    /// Variants tested at once (speculatively; the result is the same as with 1).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Seconds to spend at most; the smallest program so far is the result.
    #[arg(long, default_value_t = 60)]
    budget: u64,
    /// Inputs for a file without INPUTS are generated from this seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    opts: CompileArgs,
}

fn show(e: Event) {
    match e {
        Event::Round { round } => eprint!("\rreduce: round {}            ", round + 1),
        Event::Kept { step, insts, tests } => {
            eprint!("\rreduce: {insts} instructions after {tests} tests ({step})            ")
        }
        Event::Done(r) => eprintln!(
            "\rreduce: {} -> {} instructions in {:.1} s ({} tests)            ",
            r.insts_before,
            r.insts_after,
            r.elapsed.as_secs_f64(),
            r.tests
        ),
    }
}

/// Exit 0 reduced; 2 when there is nothing to reduce or the input is unreadable.
pub fn run(args: Args) -> Result<Exit> {
    let terminal = std::io::stderr().is_terminal();
    let out = Destination::choose(&args.file, args.out.as_deref(), args.in_place)?;
    let opts = file_check(&args.file, &args.opts, false, 0)?.compile;
    let r = reduce_file(
        Request {
            file: &args.file,
            signature: args.signature.as_deref(),
            device: args.opts.device()?,
            seed: args.seed,
            settings: Settings {
                opts,
                jobs: args.jobs,
                budget: Duration::from_secs(args.budget),
                max_rounds: 8,
            },
        },
        |e| {
            if terminal {
                show(e)
            }
        },
    )?;
    out.write(&r.text)?;
    println!(
        "{}: {} -> {} instructions, signature {}, written to {}",
        args.file.display(),
        r.reduced.insts_before,
        r.reduced.insts_after,
        r.reduced.judgement.signature,
        out.path().display()
    );
    Ok(Exit::Ok)
}
