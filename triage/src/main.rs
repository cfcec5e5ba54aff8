//! `eufuzz`: differential fuzzing and regression harness for an Intel-EU-style shader
//! compiler backend.

mod files;
mod fmt_cmd;
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
/// 0 success, 1 problems found (violations, non-canonical files), 2 unreadable or malformed
/// input.
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

fn main() {
    restore_default_sigpipe();
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Fmt { check, files } => fmt_cmd::run(&files, check),
        Command::Validate { json, files } => validate_cmd::run(&files, json),
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
