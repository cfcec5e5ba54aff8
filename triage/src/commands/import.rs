//! `eufuzz import`: the program some generator bytes decode to, with its verdict and, when
//! it fails, its signature and bucket key in the header (so `eufuzz bucket` groups fuzz
//! crash artifacts with campaign reproducers).

use compiler::text::print_program;
use std::path::PathBuf;
use triage::generate::{KnobArgs, provenance, verdict_lines};
use triage::options::{Baseline, CompileFlags, words};
use triage::repro::options_line;
use triage::{Error, Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    bytes: PathBuf,
    #[command(flatten)]
    knobs: KnobArgs,
    /// Inject historical bugs by name (zoo builds only), as the campaign that found it did.
    #[arg(long)]
    zoo: Option<String>,
    /// Spill every spillable VGRF.
    #[arg(long)]
    spill_all: bool,
    /// Compare against the `-O0` compilation instead of the reference run.
    #[arg(long, value_name = "BASELINE", default_value = "reference")]
    baseline: Baseline,
}

pub fn run(args: Args) -> Result<Exit> {
    let knobs = args.knobs.resolve()?;
    // The options a fuzz target or campaign ran with, checked and written as the
    // reproducer's `# options:` line.
    let flags = CompileFlags {
        spill_all: args.spill_all,
        baseline: args.baseline,
        zoo: args.zoo.clone(),
        ..CompileFlags::default()
    };
    let opts = flags.options(None)?;
    let bytes = std::fs::read(&args.bytes).map_err(|e| Error::io(&args.bytes, "read", e))?;
    let g = oracle::generator::generate(&mut arbitrary::Unstructured::new(&bytes), &knobs);
    print!(
        "# imported from {}\n{}{}{}{}",
        args.bytes.display(),
        verdict_lines(&g.program, &opts),
        options_line(&words(&flags)),
        provenance(&g, None, &knobs),
        print_program(&g.program)
    );
    Ok(Exit::Ok)
}
