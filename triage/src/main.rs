//! `eufuzz`: differential fuzzing and regression harness for an Intel-EU-style shader
//! compiler backend.

mod files;
mod fmt_cmd;
mod load;
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
    };
    std::process::exit(code);
}
