//! `eufuzz run`: execute a program on the emulator and print what it made observable.

use std::path::PathBuf;
use triage::run::{InputSource, execute, exit, save_inputs};
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// The .eu program.
    file: PathBuf,
    /// Hardware IR: check every instruction against the device's restriction rules,
    /// hardware multiply precision, no virtual registers.
    #[arg(long)]
    strict: bool,
    /// Take inputs from this file's INPUTS section.
    #[arg(long, conflicts_with = "seed")]
    inputs: Option<PathBuf>,
    /// Generate inputs from this seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Maximum instructions executed over all threads.
    #[arg(long, default_value_t = 1_000_000)]
    fuel: u64,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
    /// Write the inputs used (from --seed or --inputs) into FILE's INPUTS section.
    #[arg(long)]
    save_inputs: bool,
    /// Run a program that breaks IR validator rules (refused otherwise, exit 2).
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> Result<Exit> {
    let source = match (&args.inputs, args.seed) {
        (Some(p), _) => InputSource::Path(p),
        (None, Some(s)) => InputSource::Seed(s),
        (None, None) => InputSource::File,
    };
    let cfg = oracle::RunConfig {
        strict: args.strict,
        fuel: args.fuel,
        ..oracle::RunConfig::default()
    };
    let (used, result) = execute(&args.file, source, &cfg, args.force)?;
    if args.save_inputs {
        save_inputs(&args.file, used)?;
        eprintln!("saved the inputs in {}", args.file.display());
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&result).unwrap_or_default()
        );
    } else {
        print!("{}", triage::render::run_table(&result));
    }
    Ok(exit(&result))
}
