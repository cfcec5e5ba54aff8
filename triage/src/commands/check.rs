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
    /// Judge another backend instead of eufuzz's pipeline: `mesa:PASS` runs one of Mesa
    /// 22.3's brw passes (or `mesa`, its optimisation loop) through the shim that
    /// scripts/mesa-build.sh builds, and compares its output with the input's reference.
    #[arg(long, value_name = "mesa[:PASS]", conflicts_with_all = ["all_devices", "device", "full_diff"])]
    backend: Option<String>,
    /// With --backend mesa:PASS: also run eufuzz's own model of PASS on each file and show
    /// where its result differs from Mesa's (for programs Mesa's output passes on).
    #[arg(long, requires = "backend")]
    compare_model: bool,
}

/// `--backend mesa:PASS`: each file through the Mesa pass, on the file's own target.
fn run_mesa(args: &Args, backend: &str) -> Result<Exit> {
    let pass = triage::mesa::backend_pass(backend)?;
    let mut shim = triage::mesa::shim::Shim::open(std::time::Duration::from_secs(60))?;
    shim.ensure_pass(&pass)?;
    let (mut failed, mut unreadable) = (0, 0);
    for f in &args.files {
        let p = match load_program(f, None) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                unreadable += 1;
                continue;
            }
        };
        let extra = if p.inputs.is_none() {
            args.inputs.max(1)
        } else {
            args.inputs
        };
        let v = triage::mesa::check::check(&mut shim, &pass, &p, extra, args.seed)?;
        let (_, culprit) =
            triage::mesa::check::identify(&mut shim, &pass, &p, extra, args.seed, &v)?;
        failed += v.is_failure() as usize;
        print!(
            "{}",
            triage::mesa::check::render(&f.display().to_string(), &pass, &v, culprit.as_ref())
        );
        if let (true, triage::mesa::check::MesaVerdict::Pass { output, .. }) =
            (args.compare_model, &v)
        {
            print!("  {}", triage::mesa::model::compare(&pass, &p, output));
        }
    }
    Ok(if unreadable > 0 {
        Exit::Malformed
    } else if failed > 0 {
        Exit::Problems
    } else {
        Exit::Ok
    })
}

pub fn run(args: Args) -> Result<Exit> {
    if let Some(backend) = &args.backend {
        return run_mesa(&args, backend);
    }
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
