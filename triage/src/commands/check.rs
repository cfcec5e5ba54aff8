//! `eufuzz check`: check each file's compiled run against its reference run, on the devices
//! and with the options its directives and the command line ask for.

use std::path::PathBuf;
use triage::check::{CheckTally, check, file_check, input_sets, render_check};
use triage::load::load_program;
use triage::options::CompileArgs;
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// The .eu programs.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    opts: CompileArgs,
    /// Also run this many generated input sets (at least one if the file has no INPUTS).
    #[arg(long, default_value_t = 0)]
    inputs: usize,
    /// First seed of the generated input sets.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print the whole IR diff of the culprit pass.
    #[arg(long)]
    full_diff: bool,
    /// Check every file on every device it is a valid program for.
    #[arg(long, conflicts_with = "device")]
    all_devices: bool,
}

pub fn run(args: Args) -> Result<Exit> {
    // Bad flags stop the command before any file is read.
    args.opts.device()?;
    args.opts.flags.options(None)?;
    let mut tally = CheckTally::default();
    for f in &args.files {
        let loaded = load_program(f, None)
            .and_then(|p| Ok((p, file_check(f, &args.opts, args.all_devices, args.inputs)?)));
        let (original, fc) = match loaded {
            Ok(x) => x,
            Err(e) => {
                eprintln!("{e}");
                tally.unreadable += 1;
                continue;
            }
        };
        for &device in &fc.devices {
            let mut p = original.clone();
            let retargeted = device.is_some_and(|d| d != original.device);
            if let Some(d) = device {
                p.device = d;
            }
            let (sets, sources) = input_sets(&p, fc.inputs, args.seed);
            let report = check(&p, &sets, sources, &fc.compile);
            tally.add(retargeted, &report);
            print!(
                "{}",
                render_check(
                    &f.display().to_string(),
                    p.device,
                    retargeted,
                    &report,
                    args.full_diff
                )
            );
        }
    }
    println!("{}", tally.summary());
    Ok(tally.exit())
}
