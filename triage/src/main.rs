//! `eufuzz`: differential fuzzing and regression harness for an Intel-EU-style shader
//! compiler backend.

mod bucket;
mod bucket_cmd;
mod campaign;
mod campaign_cmd;
mod compile_cmd;
mod directives;
mod equiv_cmd;
mod exit;
mod files;
mod fmt_cmd;
mod gate;
mod gen_cmd;
mod load;
mod merge_cmd;
mod parallel;
mod reduce;
mod reduce_cmd;
mod render;
mod report_cmd;
mod run_cmd;
mod stats_cmd;
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
        /// The .eu programs (each printed after a `# FILE` line when there are several).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        opts: CompileArgs,
        /// Print the IR after every pass.
        #[arg(long)]
        print_after_all: bool,
        /// Stop after this pass (its first occurrence) and print that IR.
        #[arg(long)]
        stop_after: Option<String>,
        /// Print the program's shader-db row (`eufuzz stats` CSV, header first) instead
        /// of the IR.
        #[arg(long, conflicts_with = "print_after_all")]
        stats: bool,
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
    /// `--inputs K` (default 16) input sets generated for A. B refines A when every byte A
    /// defines, B produces the same (NaN payloads of float results aside); input sets on
    /// which A branches on undefined values or does not complete are discarded. Prints a
    /// distinguishing input set and the channel diff when B does not refine A.
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
    /// Shrink a failing program to a small one that fails the same way.
    ///
    /// Structure-aware delta debugging (threads, control-flow regions, instructions, dispatch
    /// width, operands, modifiers, declarations, inputs) keeping the bucket signature
    /// (kind/culprit pass/detail) and a reference run no less defined than the original's.
    /// Writes a canonical .eu (default FILE.reduced.eu) whose header names the original,
    /// the signature, the culprit pass, sizes and time. The same file and options always give
    /// the same result, whatever --jobs is. Exit code 0 reduced, 2 nothing to reduce (the file
    /// does not fail, or fails with another signature than --signature) or unreadable input.
    Reduce {
        /// The failing .eu program (its INPUTS are the failing inputs).
        file: PathBuf,
        /// Where the reduced program goes.
        #[arg(short, long)]
        out: Option<PathBuf>,
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
    },
    /// shader-db: compile every program of a corpus and write one CSV row of figures per
    /// (program, device): instructions, sends, loops, cycles (the scheduler's static
    /// estimate), spills, fills, scratch bytes, max live registers, compile time (µs).
    ///
    /// Compile failures are rows with an `error` column. Two runs (two git revisions, or
    /// two option sets such as `--skip move_load_const`) compare with `stats-compare`.
    /// Exit code 0, or 2 if a path or file cannot be read.
    Stats(stats_cmd::StatsArgs),
    /// Compare two `eufuzz stats` runs the way shader-db reports do: per metric the totals
    /// in shared and affected programs, helped/HURT counts and stats, 95 % mean confidence
    /// intervals of the value and the %-change, and the verdict; programs only one run has,
    /// or that fail in either, are listed.
    StatsCompare(stats_cmd::CompareArgs),
    /// Replay a corpus of reproducers against their in-file expectations (merge gating).
    ///
    /// Every .eu file under PATHS runs as its header directives say (`# expect:`, `# xfail:`,
    /// `# options:`, `# devices:`, `# inputs:`, `# zoo:`; see corpus/README.md), in parallel.
    /// Prints each unexpected result and `N passed, N failed, N xfail, N skipped`. An xfail
    /// that passes is an error. Exit code 0 only if every result matches its expectation, 1
    /// otherwise, 2 if a path cannot be read.
    Gate {
        /// Files or directories (default: corpus).
        paths: Vec<PathBuf>,
        /// Files checked at once (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
        /// Also write the results as JUnit XML here (for CI test views).
        #[arg(long)]
        junit: Option<PathBuf>,
        /// Print the results as JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Rewrite the `# expect:` line of files whose result changed (after a deliberate
        /// change), printing what changed.
        #[arg(long)]
        bless: bool,
    },
    /// Group campaign reproducers by bucket (one root cause each).
    ///
    /// Reads the `# bucket:` line campaigns write into each reproducer and lists every bucket
    /// with its count, first and last seen (file times, UTC) and the smallest reproducer (a
    /// NAME.reduced.eu beside NAME.eu counts). Buckets listed in the known-issues file are
    /// labelled, or hidden when `suppress = true`.
    Bucket {
        /// Campaign output directories.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Known issues (`[[known]]` tables with bucket, label, reason, link, suppress);
        /// default: corpus/known-issues.toml when it exists.
        #[arg(long)]
        known: Option<PathBuf>,
    },
    /// Recompute the bucket key of every reproducer (after a change to the compiler or to
    /// bucketing), using the compile options in its `# options:` line; rewrites the files
    /// whose key changed (atomically). A reproducer that no longer fails gets `fixed/...`.
    ///
    /// With `--reduce`, first reduces (as a campaign would) every reproducer without a
    /// `.reduced.eu` beside it: the follow-up stage for failures a campaign filed unreduced
    /// because it ended before their reduction ran.
    Rebucket {
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Reduce the unreduced reproducers first.
        #[arg(long)]
        reduce: bool,
        /// Seconds each reduction may take.
        #[arg(long, default_value_t = 60, requires = "reduce")]
        budget: u64,
        /// Reductions run at once (default: all cores).
        #[arg(long, requires = "reduce")]
        jobs: Option<usize>,
    },
    /// The morning report of a campaign directory: new / still open / gone buckets since
    /// the previous night, each bucket's reduced reproducer replayed (culprit pass, IR diff,
    /// channel diff), coverage and charts, as HTML (self-contained), Markdown and JSON.
    ///
    /// Exit code 1 if a bucket is new and not a known issue, 2 if DIR/stats.json, the
    /// previous night or the history cannot be read.
    Report(report_cmd::ReportArgs),
    /// Turn generator bytes (a libFuzzer artifact, a campaign's .bytes file) into the .eu
    /// program they decode to.
    ///
    /// The header carries the program's verdict on its own inputs (what the `differential`
    /// fuzz target checks) and, when it fails, its signature and bucket key as a campaign
    /// writes them: `eufuzz import ARTIFACT > DIR/x.eu; eufuzz bucket DIR` groups crash
    /// artifacts with campaign reproducers.
    Import {
        bytes: PathBuf,
        #[command(flatten)]
        knobs: gen_cmd::KnobArgs,
        #[command(flatten)]
        check: gen_cmd::ImportCheck,
    },
    /// Generate programs and check each, on every core, until the time is up or Ctrl-C.
    ///
    /// Workers run disjoint seed streams; every failure goes to OUT as NAME.eu (inputs,
    /// verdict, culprit pass, signature and bucket in its header; replay with `eufuzz
    /// check`), NAME.bytes (the generator bytes) and NAME.reduced.eu; OUT/stats.json and
    /// OUT/checkpoint.json are written every few seconds, so `--resume OUT` continues a
    /// stopped or killed campaign. Ctrl-C stops within a second (a second Ctrl-C exits at
    /// once). Exit code 1 if anything failed.
    Campaign(campaign_cmd::CampaignArgs),
    /// Merge campaign outputs (shards run with `--shard K/N`) into OUT: statistics added up
    /// in OUT/stats.json, every reproducer copied (renamed, never overwritten, when its name
    /// is taken), so `eufuzz bucket OUT` lists the buckets of all of them.
    Merge {
        /// The merged output directory (must not hold statistics yet).
        out: PathBuf,
        /// Campaign output directories.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
    },
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

/// What a differential check compares the compiled program against.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
enum Baseline {
    /// The input program run directly in logical mode.
    Reference,
    /// The `-O0` compilation of the input.
    O0,
}

/// Options shared by `compile` and `check`.
#[derive(clap::Args)]
struct CompileArgs {
    /// Compile for this device instead of the file's target.
    #[arg(long)]
    device: Option<String>,
    /// `-O0`: mandatory lowering and register allocation only; any other level runs the
    /// optimising pipeline.
    #[arg(short = 'O', value_name = "LEVEL", default_value_t = 2)]
    opt_level: u8,
    /// What checks compare the compiled program against: `reference` (the input run
    /// directly) or `o0` (the `-O0` compilation, so a failure is an optimisation bug).
    #[arg(long, value_name = "BASELINE", default_value = "reference")]
    baseline: Baseline,
    /// Spill every spillable VGRF to scratch (like INTEL_DEBUG=spill_fs).
    #[arg(long)]
    spill_all: bool,
    /// Inject historical bugs by name: NAME, a,b,c or all (builds with the zoo feature
    /// only); `none` runs a file's `# zoo:` bug switched off.
    #[arg(long)]
    zoo: Option<String>,
    /// Allocate registers after this pre-RA scheduling mode only (`top-down`, `lifo` or
    /// `none`) instead of the first that allocates without spilling; reduced reproducers
    /// of allocation failures name the mode their original got.
    #[arg(long, value_name = "MODE", value_parser = parse_schedule_mode)]
    pre_ra_schedule: Option<compiler::passes::schedule::Mode>,
}

fn parse_schedule_mode(name: &str) -> Result<compiler::passes::schedule::Mode, String> {
    compiler::passes::schedule::Mode::from_name(name)
        .ok_or_else(|| format!("`{name}` is not a pre-RA scheduling mode (top-down, lifo, none)"))
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
                baseline_o0: self.baseline == Baseline::O0,
                pre_ra_schedule: self.pre_ra_schedule,
                zoo: match &self.zoo {
                    None => compiler::zoo::Selected::default(),
                    Some(name) => compiler::zoo::select(name)?,
                },
                ..Default::default()
            },
        })
    }
}

/// What `eufuzz compile` prints.
#[derive(Clone, Copy, PartialEq)]
enum CompileView {
    /// The compiled IR.
    Final,
    /// The IR after every pass.
    AfterAll,
    /// The shader-db row.
    Stats,
}

fn compile_main(
    file: &std::path::Path,
    args: &CompileArgs,
    view: CompileView,
    stop_after: Option<&str>,
) -> Result<i32, String> {
    let o = args.resolve()?;
    let p = compile_cmd::load(file, o.device)?;
    let mut opts = o.compile;
    opts.keep_ir = view == CompileView::AfterAll;
    if let Some(name) = stop_after {
        let base = name.split('#').next().unwrap_or(name);
        if !compiler::pipeline::pass_names(&opts).contains(&base) {
            return Err(format!("no pass named `{name}`"));
        }
        opts.stop_after = Some(name.to_string());
    }
    let start = std::time::Instant::now();
    let c = compiler::pipeline::compile(&p, &opts);
    let compile_us = start.elapsed().as_micros() as u64;
    if view == CompileView::Stats {
        let row = stats_cmd::row_of(file.display().to_string(), &c, compile_us);
        print!("{}", stats_cmd::to_csv(&[row])?);
    } else {
        print!(
            "{}",
            compile_cmd::render_compile(&c, view == CompileView::AfterAll)
        );
    }
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

/// What a file's directives ask `check` for, where the command line does not say.
struct FileCheck {
    devices: Vec<Option<compiler::Device>>,
    compile: compiler::pipeline::CompileOptions,
    inputs: usize,
}

fn file_check(
    f: &std::path::Path,
    args: &CompileArgs,
    c: &CheckArgs,
    cli: &compile_cmd::Options,
) -> Result<FileCheck, String> {
    let text = files::read_text(f)?;
    let d = directives::parse(&text).map_err(|e| format!("{}:{e}", f.display()))?;
    let devices = if c.all_devices {
        compiler::device::ALL_DEVICES
            .iter()
            .copied()
            .map(Some)
            .collect()
    } else if cli.device.is_some() {
        vec![cli.device]
    } else {
        d.devices
            .map_or(vec![None], |ds| ds.into_iter().map(Some).collect())
    };
    // The command line adds to the file's options; its --zoo (`none` included) replaces the
    // file's bug.
    let mut compile = if args.zoo.is_some() {
        let mut words = vec![];
        let mut it = d.options.iter();
        while let Some(w) = it.next() {
            if w == "--zoo" {
                it.next();
            } else {
                words.push(w.clone());
            }
        }
        let mut o =
            gate::compile_options(&words, None).map_err(|e| format!("{}: {e}", f.display()))?;
        o.zoo = cli.compile.zoo;
        o
    } else {
        let zoo = d.zoo.as_deref().filter(|_| gate::ZOO_BUILD);
        gate::compile_options(&d.options, zoo).map_err(|e| format!("{}: {e}", f.display()))?
    };
    compile.spill_all |= cli.compile.spill_all;
    compile.o0 |= cli.compile.o0;
    compile.baseline_o0 |= cli.compile.baseline_o0;
    compile.pre_ra_schedule = cli.compile.pre_ra_schedule.or(compile.pre_ra_schedule);
    Ok(FileCheck {
        devices,
        compile,
        inputs: c.inputs.max(d.inputs),
    })
}

fn check_main(files: &[PathBuf], args: &CompileArgs, c: &CheckArgs) -> Result<i32, String> {
    let o = args.resolve()?;
    let mut tally = compile_cmd::CheckTally::default();
    for f in files {
        let loaded = compile_cmd::load(f, None).and_then(|p| Ok((p, file_check(f, args, c, &o)?)));
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
            let (sets, sources) = compile_cmd::input_sets(&p, fc.inputs, c.seed);
            let report = compile_cmd::check(&p, &sets, sources, &fc.compile);
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

fn reduce_main(
    file: &std::path::Path,
    out: Option<PathBuf>,
    signature: Option<String>,
    jobs: usize,
    budget: u64,
    seed: u64,
    args: &CompileArgs,
) -> Result<i32, String> {
    let o = args.resolve()?;
    reduce_cmd::run(reduce_cmd::ReduceArgs {
        file,
        out,
        signature,
        device: o.device,
        seed,
        settings: reduce::Settings {
            opts: o.compile,
            jobs,
            budget: std::time::Duration::from_secs(budget),
            max_rounds: 8,
        },
    })
}

fn gate_main(
    paths: Vec<PathBuf>,
    jobs: Option<usize>,
    junit: Option<PathBuf>,
    json: bool,
    bless: bool,
) -> Result<i32, String> {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("corpus")]
    } else {
        paths
    };
    let files = gate::collect(&paths)?;
    if files.is_empty() {
        return Err("no .eu files to gate".into());
    }
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let results = gate::run(&files, jobs);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&results).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", gate::render(&results));
    }
    if let Some(path) = junit {
        let xml = reports::junit::render("eufuzz gate", &gate::junit_cases(&results));
        files::write_atomic(&path, xml.as_bytes())?;
    }
    if bless {
        for line in gate::bless(&results)? {
            println!("{line}");
        }
    }
    Ok(if results.iter().any(gate::GateResult::is_error) {
        1
    } else {
        0
    })
}

fn bucket_main(dirs: &[PathBuf], json: bool, known: Option<PathBuf>) -> Result<i32, String> {
    let default_known = PathBuf::from("corpus/known-issues.toml");
    let known = match known {
        Some(p) => bucket_cmd::read_known(&p)?,
        None if default_known.exists() => bucket_cmd::read_known(&default_known)?,
        None => vec![],
    };
    let buckets = bucket_cmd::buckets(dirs, &known)?;
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&buckets).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", bucket_cmd::render(&buckets));
    }
    Ok(0)
}

/// Compile options from a reproducer's `# options:` line (`--spill-all -O0 --zoo NAME`).
fn options_from_line(line: &str) -> Result<compiler::pipeline::CompileOptions, String> {
    let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    gate::compile_options(&words, None)
}

fn rebucket_main(dirs: &[PathBuf], reduce: Option<(u64, Option<usize>)>) -> Result<i32, String> {
    if let Some((budget, jobs)) = reduce {
        let jobs = jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        let (reduced, not) = bucket_cmd::reduce_unreduced(
            dirs,
            options_from_line,
            std::time::Duration::from_secs(budget),
            jobs,
        )?;
        println!("{reduced} reproducer(s) reduced");
        for f in not {
            println!("{}: not reduced (it does not fail as filed)", f.display());
        }
    }
    let (files, changed) = bucket_cmd::rebucket(dirs, options_from_line)?;
    println!("{files} reproducer(s), {changed} bucket key(s) changed");
    Ok(0)
}

fn main() {
    restore_default_sigpipe();
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Fmt { check, files } => fmt_cmd::run(&files, check),
        Command::Validate { json, files } => validate_cmd::run(&files, json),
        Command::Stats(a) => stats_cmd::stats(&a).unwrap_or_else(|e| {
            eprintln!("{e}");
            2
        }),
        Command::StatsCompare(a) => stats_cmd::compare(&a).unwrap_or_else(|e| {
            eprintln!("{e}");
            2
        }),
        Command::Compile {
            files,
            opts,
            print_after_all,
            stop_after,
            stats,
        } => files
            .iter()
            .map(|file| {
                if files.len() > 1 {
                    println!("# {}", file.display());
                }
                let view = if stats {
                    CompileView::Stats
                } else if print_after_all {
                    CompileView::AfterAll
                } else {
                    CompileView::Final
                };
                compile_main(file, &opts, view, stop_after.as_deref()).unwrap_or_else(|e| {
                    eprintln!("{e}");
                    2
                })
            })
            .max()
            .unwrap_or(0),
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
        Command::Reduce {
            file,
            out,
            signature,
            jobs,
            budget,
            seed,
            opts,
        } => reduce_main(&file, out, signature, jobs, budget, seed, &opts).unwrap_or_else(|e| {
            eprintln!("{e}");
            2
        }),
        Command::Report(args) => report_cmd::run(args),
        Command::Gate {
            paths,
            jobs,
            junit,
            json,
            bless,
        } => gate_main(paths, jobs, junit, json, bless).unwrap_or_else(|e| {
            eprintln!("{e}");
            2
        }),
        Command::Bucket { dirs, json, known } => {
            bucket_main(&dirs, json, known).unwrap_or_else(|e| {
                eprintln!("{e}");
                2
            })
        }
        Command::Rebucket {
            dirs,
            reduce,
            budget,
            jobs,
        } => rebucket_main(&dirs, reduce.then_some((budget, jobs))).unwrap_or_else(|e| {
            eprintln!("{e}");
            2
        }),
        Command::Gen { seed, knobs } => gen_cmd::run(seed, &knobs),
        Command::Import {
            bytes,
            knobs,
            check,
        } => gen_cmd::import(&bytes, &knobs, &check),
        Command::Equiv { a, b, inputs, seed } => equiv_cmd::run(&a, &b, inputs, seed),
        Command::Campaign(args) => campaign_cmd::run(args).unwrap_or_else(|e| {
            eprintln!("{e}");
            2
        }),
        Command::Merge { out, dirs } => merge_cmd::run(&out, &dirs),
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
