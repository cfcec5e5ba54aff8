//! `eufuzz gen`: print the program a seed generates, with the header lines that replay it.

use compiler::text::print_program;
use oracle::generator::from_seed;
use triage::generate::{KnobArgs, provenance};
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    #[arg(long)]
    seed: u64,
    #[command(flatten)]
    knobs: KnobArgs,
}

pub fn run(args: Args) -> Result<Exit> {
    let knobs = args.knobs.resolve()?;
    let g = from_seed(args.seed, &knobs);
    print!(
        "{}{}",
        provenance(&g, Some(args.seed), &knobs),
        print_program(&g.program)
    );
    Ok(Exit::Ok)
}
