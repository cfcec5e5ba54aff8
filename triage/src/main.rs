//! `eufuzz`: differential fuzzing and regression harness for an Intel-EU-style shader
//! compiler backend.

mod campaign;
mod compile_cmd;
mod equiv_cmd;
mod exit;
mod files;
mod fmt_cmd;
mod gen_cmd;
mod load;
mod render;
mod run_cmd;
mod validate_cmd;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// Differential fuzzing and regression harness for an Intel EU (brw/i965-style) shader
/// compiler backend.
///
/// Programs are written in the `.eu` text form (close to Mesa's printed IR). Exit codes:
/// 0 success, 1 problems found (violations, non-canonical files, a disagreement, B not
/// equivalent to A), 2 unreadable or malformed input, 3 undecided (`check`, `equiv`: every
/// input set was discarded because the reference branched on undefined values or ran out
/// of fuel, so nothing was compared), 4 incomparable (`equiv`: the two programs take
/// different inputs).
#[derive(Parser)]
#[command(name = "eufuzz", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Rewrite .eu files in canonical form, keeping comments (atomic, in place).
    ///
    /// With --check nothing is written: non-canonical files are listed with a unified diff
    /// and the exit code is 1.
    Fmt {
        /// Only report files that are not canonical.
        #[arg(long)]
        check: bool,
        /// The .eu files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Check .eu programs against the IR validator's rules (Mesa's brw_validate invariants).
    ///
    /// Each violation names its rule (e.g. nomask-wider-than-dispatch), the file line and
    /// instruction. Exit code 1 if any program breaks a rule.
    Validate {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// The .eu files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Compile a program through the lowering pipeline and print the hardware IR.
    ///
    /// Validator violations after each pass, a failing or panicking pass are reported on
    /// stderr (exit code 1).
    Compile {
        /// The .eu program.
        file: PathBuf,
        #[command(flatten)]
        opts: CompileArgs,
        /// Print the IR after every pass.
        #[arg(long)]
        print_after_all: bool,
        /// Stop after this pass (its first occurrence) and print that IR.
        #[arg(long)]
        stop_after: Option<String>,
    },
    /// Compile programs and check the compiled run (strict hardware mode) against the
    /// reference run of the input, on the file's inputs or generated ones.
    ///
    /// Exit code 0 if every file agrees: no failing pass, no validator rule broken, no
    /// hardware restriction broken, and every byte the reference defines matches. Exit code
    /// 1 if any check disagrees or a file is invalid for its own target, 2 if a file cannot
    /// be read, else 3 (undecided) if some check had every input set discarded (the
    /// reference branched on undefined values or ran out of fuel): nothing was compared
    /// there, which is neither a pass nor a failure.
    Check {
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
    },
    /// Generate a program (with its inputs) from a seed and print it as .eu.
    ///
    /// The same seed and knobs give the same program on every machine. Knobs come from
    /// EUFUZZ_KNOBS plus the flags.
    Gen {
        #[arg(long)]
        seed: u64,
        #[command(flatten)]
        knobs: gen_cmd::KnobArgs,
    },
    /// Are two programs equivalent: does B refine A on generated inputs?
    ///
    /// Runs A (the reference) and B on A's own INPUTS section (B's is ignored) and
    /// `--inputs K` (default 16) input sets generated for A. B refines A when every byte A defines, B produces the same
    /// (NaN payloads of float results aside); input sets on which A branches on undefined
    /// values or does not complete are discarded. Prints a distinguishing input set and the
    /// channel diff when B does not refine A.
    ///
    /// Both programs must take the same inputs: the same target, dispatch width, threads,
    /// attrs (number and sizes) and uniform count. Otherwise equiv refuses and names each
    /// difference (exit code 4); "B refines A" means nothing when B reads inputs A does not
    /// have. Registers, scratch size and the code may differ. A B in hardware IR (no VGRFs)
    /// runs in strict mode, like a compiled program.
    ///
    /// Exit codes: 0 equivalent, 1 NOT equivalent, 2 unreadable, malformed or invalid
    /// program, 3 UNDECIDED (every input set discarded: nothing was compared), 4 the
    /// programs have different shapes.
    Equiv {
        /// The reference program.
        a: PathBuf,
        /// The program that must refine A (e.g. A compiled, or A after a rewrite).
        b: PathBuf,
        /// Generated input sets (besides A's INPUTS section). Some are correlated (values
        /// repeated across channels, attrs and uniforms; equal special values; x and x±1)
        /// so that equalities such as `Inf - Inf` occur.
        #[arg(long, default_value_t = 16)]
        inputs: usize,
        /// First seed of the generated input sets.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Turn generator bytes (a libFuzzer artifact, a campaign's .bytes file) into the .eu
    /// program they decode to.
    Import {
        bytes: PathBuf,
        #[command(flatten)]
        knobs: gen_cmd::KnobArgs,
    },
    /// Generate programs and check each (single worker) until the time is up or Ctrl-C.
    ///
    /// Shows progress on one line; writes every failure to DIR as NAME.eu (inputs,
    /// verdict, culprit pass and signature in its header; replay with `eufuzz check`) and
    /// NAME.bytes (the generator bytes); prints statistics at the end. Exit code 1 if
    /// anything failed.
    Campaign(CampaignArgs),
    /// Execute a program on the EU emulator and print what it made observable.
    ///
    /// Prints every render-target write per thread and channel (undefined bytes as `..`),
    /// final buffer contents and diagnostics. Inputs come from the file's INPUTS section
    /// unless --inputs or --seed is given. Exit code 1 on an emulator fault, running out of
    /// fuel, or (with --strict) a broken hardware restriction.
    Run {
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
    },
}

/// Lets `eufuzz ... | head` end quietly, like other Unix tools, instead of panicking when
/// stdout closes early.
fn restore_default_sigpipe() {
    // SAFETY: resetting a signal disposition to its default before any threads exist.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// What `eufuzz campaign` runs.
#[derive(clap::Args)]
struct CampaignArgs {
    /// Seconds to run.
    #[arg(long, default_value_t = 60)]
    time: u64,
    /// First seed; program i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where failures go.
    #[arg(long, default_value = "eufuzz-out")]
    out: PathBuf,
    /// Also write the statistics as JSON here.
    #[arg(long)]
    stats_json: Option<PathBuf>,
    /// Stop at the first failure.
    #[arg(long)]
    stop_on_failure: bool,
    /// Inject a historical bug by name (builds with the zoo feature only).
    #[arg(long)]
    zoo: Option<String>,
    /// Spill every spillable VGRF.
    #[arg(long)]
    spill_all: bool,
    #[command(flatten)]
    knobs: gen_cmd::KnobArgs,
}

/// Options shared by `compile` and `check`.
#[derive(clap::Args)]
struct CompileArgs {
    /// Compile for this device instead of the file's target.
    #[arg(long)]
    device: Option<String>,
    /// Mandatory lowering only (the same as the default until optimisation passes exist).
    #[arg(short = 'O', value_name = "LEVEL", default_value_t = 2)]
    opt_level: u8,
    /// Spill every spillable VGRF to scratch (like INTEL_DEBUG=spill_fs).
    #[arg(long)]
    spill_all: bool,
    /// Inject a historical bug by name (builds with the zoo feature only).
    #[arg(long)]
    zoo: Option<String>,
}

impl CompileArgs {
    fn resolve(&self) -> Result<compile_cmd::Options, String> {
        let device = match &self.device {
            None => None,
            Some(name) => Some(
                compiler::Device::from_name(name)
                    .ok_or_else(|| format!("unknown device `{name}`"))?,
            ),
        };
        Ok(compile_cmd::Options {
            device,
            compile: compiler::pipeline::CompileOptions {
                o0: self.opt_level == 0,
                spill_all: self.spill_all,
                zoo: match &self.zoo {
                    None => compiler::zoo::Selected::default(),
                    Some(name) => compiler::zoo::select(name)?,
                },
                ..Default::default()
            },
        })
    }
}

fn compile_main(
    file: &std::path::Path,
    args: &CompileArgs,
    after_all: bool,
    stop_after: Option<&str>,
) -> Result<i32, String> {
    let o = args.resolve()?;
    let p = compile_cmd::load(file, o.device)?;
    let mut opts = o.compile;
    opts.keep_ir = after_all;
    if let Some(name) = stop_after {
        opts.stop_after = Some(
            compiler::pipeline::pass_index(&opts, name)
                .ok_or_else(|| format!("no pass named `{name}`"))?,
        );
    }
    let c = compiler::pipeline::compile(&p, &opts);
    print!("{}", compile_cmd::render_compile(&c, after_all));
    let problems = compile_cmd::compilation_problems(&c);
    for pr in &problems {
        eprintln!("{}: {pr}", file.display());
    }
    Ok(if problems.is_empty() { 0 } else { 1 })
}

/// What `eufuzz check` runs on each file.
struct CheckArgs {
    inputs: usize,
    seed: u64,
    full_diff: bool,
    all_devices: bool,
}

fn check_main(files: &[PathBuf], args: &CompileArgs, c: &CheckArgs) -> Result<i32, String> {
    let o = args.resolve()?;
    let devices: Vec<Option<compiler::Device>> = if c.all_devices {
        compiler::device::ALL_DEVICES
            .iter()
            .copied()
            .map(Some)
            .collect()
    } else {
        vec![o.device]
    };
    let mut tally = compile_cmd::CheckTally::default();
    for f in files {
        let original = match compile_cmd::load(f, None) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                tally.unreadable += 1;
                continue;
            }
        };
        for &device in &devices {
            let mut p = original.clone();
            let retargeted = device.is_some_and(|d| d != original.device);
            if let Some(d) = device {
                p.device = d;
            }
            let (sets, sources) = compile_cmd::input_sets(&p, c.inputs, c.seed);
            let report = compile_cmd::check(&p, &sets, sources, &o.compile);
            tally.add(retargeted, &report);
            print!(
                "{}",
                compile_cmd::render_check(
                    &f.display().to_string(),
                    p.device,
                    retargeted,
                    &report,
                    c.full_diff
                )
            );
        }
    }
    println!("{}", tally.summary());
    Ok(tally.exit_code())
}

fn campaign_main(args: CampaignArgs) -> Result<i32, String> {
    let compile = CompileArgs {
        device: None,
        opt_level: 2,
        spill_all: args.spill_all,
        zoo: args.zoo.clone(),
    }
    .resolve()?
    .compile;
    let c = campaign::Campaign {
        time: std::time::Duration::from_secs(args.time),
        seed: args.seed,
        out: args.out,
        knobs: args.knobs.resolve()?,
        compile,
        zoo: args.zoo,
        stop_on_failure: args.stop_on_failure,
    };
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed))
        .map_err(|e| format!("cannot handle Ctrl-C: {e}"))?;
    let stats = campaign::run(&c, stop)?;
    print!("{}", stats.summary());
    if let Some(path) = args.stats_json {
        let json = serde_json::to_string_pretty(&stats).map_err(|e| e.to_string())?;
        files::write_atomic(&path, json.as_bytes())?;
    }
    Ok(if stats.failures.is_empty() { 0 } else { 1 })
}

fn main() {
    restore_default_sigpipe();
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Fmt { check, files } => fmt_cmd::run(&files, check),
        Command::Validate { json, files } => validate_cmd::run(&files, json),
        Command::Compile {
            file,
            opts,
            print_after_all,
            stop_after,
        } => {
            compile_main(&file, &opts, print_after_all, stop_after.as_deref()).unwrap_or_else(|e| {
                eprintln!("{e}");
                2
            })
        }
        Command::Check {
            files,
            opts,
            inputs,
            seed,
            full_diff,
            all_devices,
        } => {
            let c = CheckArgs {
                inputs,
                seed,
                full_diff,
                all_devices,
            };
            check_main(&files, &opts, &c).unwrap_or_else(|e| {
                eprintln!("{e}");
                2
            })
        }
        Command::Gen { seed, knobs } => gen_cmd::run(seed, &knobs),
        Command::Import { bytes, knobs } => gen_cmd::import(&bytes, &knobs),
        Command::Equiv { a, b, inputs, seed } => equiv_cmd::run(&a, &b, inputs, seed),
        Command::Campaign(args) => campaign_main(args).unwrap_or_else(|e| {
            eprintln!("{e}");
            2
        }),
        Command::Run {
            file,
            strict,
            inputs,
            seed,
            fuel,
            json,
            save_inputs,
        } => {
            let source = match (&inputs, seed) {
                (Some(p), _) => run_cmd::InputSource::Path(p),
                (None, Some(s)) => run_cmd::InputSource::Seed(s),
                (None, None) => run_cmd::InputSource::File,
            };
            let cfg = oracle::RunConfig {
                strict,
                fuel,
                ..oracle::RunConfig::default()
            };
            match run_cmd::execute(&file, source, &cfg) {
                Err(e) => {
                    eprintln!("{e}");
                    2
                }
                Ok((used, result)) => {
                    if save_inputs {
                        match run_cmd::save_inputs(&file, used) {
                            Ok(()) => eprintln!("saved the inputs in {}", file.display()),
                            Err(e) => {
                                eprintln!("{e}");
                                std::process::exit(2);
                            }
                        }
                    }
                    if json {
                        println!(
                            "{}",
                            serde_json::to_string_pretty(&result).unwrap_or_default()
                        );
                    } else {
                        print!("{}", render::run_table(&result));
                    }
                    run_cmd::exit_code(&result)
                }
            }
        }
    };
    std::process::exit(code);
}
