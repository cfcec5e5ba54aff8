//! `eufuzz equiv A B`: does B refine A on A's inputs and generated ones?

use compiler::text::print_inputs;
use std::path::{Path, PathBuf};
use triage::check::describe_difference;
use triage::equiv::{Equivalence, judge, shape_differences};
use triage::load::load_program;
use triage::{Error, Exit, Result};

#[derive(clap::Args)]
pub struct Args {
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
}

fn load_valid(path: &Path) -> Result<compiler::Program> {
    let p = load_program(path, None)?;
    match compiler::validate::validate(&p).first() {
        Some(first) => Err(Error::Malformed(format!(
            "{}: not a valid program: {first}",
            path.display()
        ))),
        None => Ok(p),
    }
}

pub fn run(args: Args) -> Result<Exit> {
    let a = load_valid(&args.a)?;
    let b = load_valid(&args.b)?;
    let shape = shape_differences(&a, &b);
    if !shape.is_empty() {
        eprintln!(
            "cannot compare {} with {}: they take different inputs",
            args.a.display(),
            args.b.display()
        );
        for line in &shape {
            eprintln!("  {line}");
        }
        return Ok(Exit::Incomparable);
    }
    match judge(&a, &b, args.inputs, args.seed) {
        Equivalence::NotEquivalent {
            set,
            inputs,
            differences,
        } => {
            println!(
                "NOT EQUIVALENT: {} does not refine {} on input set {set}",
                args.b.display(),
                args.a.display()
            );
            println!("distinguishing inputs:\n{}", print_inputs(&inputs));
            println!("channel diff (expected from A vs actual from B, .. = undefined):");
            for d in differences.iter().take(16) {
                println!("  {}", describe_difference(d));
            }
            if differences.len() > 16 {
                println!("  ... {} more", differences.len() - 16);
            }
            Ok(Exit::Problems)
        }
        Equivalence::Undecided { sets } => {
            println!(
                "UNDECIDED: A branches on undefined values or does not complete on every one of the {sets} input set(s)"
            );
            Ok(Exit::Undecided)
        }
        Equivalence::Equivalent { judged } => {
            println!(
                "equivalent on {judged} input set(s): {} refines {}",
                args.b.display(),
                args.a.display()
            );
            Ok(Exit::Ok)
        }
    }
}
