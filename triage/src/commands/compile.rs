//! `eufuzz compile`: compile programs and print the hardware IR, the IR after every pass, or
//! the shader-db row.

use std::path::{Path, PathBuf};
use triage::check::{compilation_problems, render_compile};
use triage::load::load_program;
use triage::options::CompileArgs;
use triage::{Error, Exit, Result};

#[derive(clap::Args)]
pub struct Args {
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
}

/// Each file on its own: an unreadable one is reported and the others still compile.
pub fn run(args: Args) -> Result<Exit> {
    // Bad flags stop the command before any file is read.
    args.opts.device()?;
    args.opts.flags.options(None)?;
    let mut worst = Exit::Ok;
    for file in &args.files {
        if args.files.len() > 1 {
            println!("# {}", file.display());
        }
        let exit = compile_one(file, &args).unwrap_or_else(|e| {
            eprintln!("{e}");
            e.exit()
        });
        worst = worst.max(exit);
    }
    Ok(worst)
}

fn compile_one(file: &Path, args: &Args) -> Result<Exit> {
    let p = load_program(file, args.opts.device()?)?;
    let mut opts = args.opts.flags.options(None)?;
    opts.keep_ir = args.print_after_all;
    if let Some(name) = &args.stop_after {
        let base = name.split('#').next().unwrap_or(name);
        if !compiler::pipeline::pass_names(&opts).contains(&base) {
            return Err(Error::Usage(format!("no pass named `{name}`")));
        }
        opts.stop_after = Some(name.clone());
    }
    let start = std::time::Instant::now();
    let c = compiler::pipeline::compile(&p, &opts);
    let compile_us = start.elapsed().as_micros() as u64;
    if args.stats {
        let row = triage::shader_db::row_of(file.display().to_string(), &c, compile_us);
        print!("{}", triage::shader_db::to_csv(&[row])?);
    } else {
        print!("{}", render_compile(&c, args.print_after_all));
    }
    let problems = compilation_problems(&c);
    for pr in &problems {
        eprintln!("{}: {pr}", file.display());
    }
    Ok(if problems.is_empty() {
        Exit::Ok
    } else {
        Exit::Problems
    })
}
