//! `eufuzz`: differential fuzzing and regression harness for an Intel-EU-style shader
//! compiler backend. This file only parses the command line and dispatches; each
//! subcommand is a module of `commands/`, and what they do lives in the `triage` library.

mod commands;

use clap::Parser;
use std::process::ExitCode;

/// A check allocates and frees many small vectors (instructions, operands, analysis bit
/// sets, emulator state): with the system allocator, `malloc` and `free` took 19 % of a
/// check's CPU time (docs/profile.md). mimalloc's per-thread free lists make them cheap.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Lets `eufuzz ... | head` end quietly, like other Unix tools, instead of panicking when
/// stdout closes early.
fn restore_default_sigpipe() {
    // SAFETY: resetting a signal disposition to its default before any threads exist.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = commands::Cli::parse();
    match commands::run(cli.command) {
        Ok(exit) => exit.into(),
        Err(e) => {
            eprintln!("{e}");
            e.exit().into()
        }
    }
}
