//! `eufuzz import`: the program some generator bytes decode to, with its verdict and, when
//! it fails, its signature and bucket key in the header (so `eufuzz bucket` groups fuzz
//! crash artifacts with campaign reproducers).

use compiler::text::print_program;
use std::path::PathBuf;
use triage::generate::{KnobArgs, provenance, verdict_lines};
use triage::options::{CampaignFlags, words};
use triage::repro::options_line;
use triage::{Error, Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    bytes: PathBuf,
    #[command(flatten)]
    knobs: KnobArgs,
    /// The options the campaign or fuzz target that found the bytes ran with.
    #[command(flatten)]
    flags: CampaignFlags,
}

pub fn run(args: Args) -> Result<Exit> {
    let knobs = args.knobs.resolve()?;
    // The options a fuzz target or campaign ran with, checked and written as the
    // reproducer's `# options:` line.
    let flags = args.flags.compile_flags();
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
