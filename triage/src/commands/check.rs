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
    /// Without it a file's own `# backend:` line (a Mesa campaign's reproducer) decides;
    /// `eufuzz` checks every file with eufuzz's pipeline whatever its line says.
    #[arg(long, value_name = "mesa[:PASS]|eufuzz")]
    backend: Option<String>,
    /// With --backend mesa:PASS: also run eufuzz's own model of PASS on each file and show
    /// where its result differs from Mesa's (for programs Mesa's output passes on).
    #[arg(long, requires = "backend")]
    compare_model: bool,
}

/// Checks files through Mesa (`--backend`, or a file's `# backend:` line): one shim for
/// them all, started at the first such file.
#[derive(Default)]
struct MesaChecks {
    shim: Option<triage::mesa::shim::Shim>,
}

impl MesaChecks {
    /// `f` through the Mesa pass `backend` names, on the file's own target, counted in
    /// `tally` (a refusal as a discarded check: nothing was judged).
    fn check(
        &mut self,
        args: &Args,
        backend: &str,
        f: &std::path::Path,
        tally: &mut CheckTally,
    ) -> Result<()> {
        let pass = triage::mesa::backend_pass(backend)?;
        let p = match load_program(f, None) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                tally.unreadable += 1;
                return Ok(());
            }
        };
        let shim = match &mut self.shim {
            Some(s) => s,
            None => self.shim.insert(triage::mesa::shim::Shim::open(
                std::time::Duration::from_secs(60),
            )?),
        };
        shim.ensure_pass(&pass)?;
        let extra = if p.inputs.is_none() {
            args.inputs.max(1)
        } else {
            args.inputs
        };
        let v = triage::mesa::check::check(shim, &pass, &p, extra, args.seed)?;
        let (_, culprit) = triage::mesa::check::identify(shim, &pass, &p, extra, args.seed, &v)?;
        use triage::mesa::check::MesaVerdict;
        match &v {
            MesaVerdict::Pass { .. } => tally.agree += 1,
            MesaVerdict::Discard { .. } | MesaVerdict::Refused { .. } => tally.discarded += 1,
            _ => tally.disagree += 1,
        }
        print!(
            "{}",
            triage::mesa::check::render(&f.display().to_string(), &pass, &v, culprit.as_ref())
        );
        if let (true, MesaVerdict::Pass { output, .. }) = (args.compare_model, &v) {
            print!("  {}", triage::mesa::model::compare(&pass, &p, output));
        }
        Ok(())
    }
}

/// `--backend eufuzz`: the pipeline of this program, also for files of another backend.
const OWN_BACKEND: &str = "eufuzz";

pub fn run(args: Args) -> Result<Exit> {
    let mut mesa = MesaChecks::default();
    let mut tally = CheckTally::default();
    let own = args.backend.as_deref() == Some(OWN_BACKEND);
    if let Some(backend) = args.backend.as_deref().filter(|_| !own) {
        if args.all_devices || args.opts.device.is_some() || args.full_diff {
            return Err(triage::Error::Usage(format!(
                "--backend {backend} checks each file on its own target and shows no IR diff: \
                 drop --all-devices, --device and --full-diff"
            )));
        }
        for f in &args.files {
            mesa.check(&args, backend, f, &mut tally)?;
        }
        println!("{}", tally.summary());
        return Ok(tally.exit());
    }
    // Bad flags stop the command before any file is read.
    args.opts.device()?;
    args.opts.flags.options(None)?;
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
        // A campaign against Mesa wrote this file: it is Mesa's finding.
        if let Some(backend) = fc.backend.as_deref().filter(|_| !own) {
            mesa.check(&args, backend, f, &mut tally)?;
            continue;
        }
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
