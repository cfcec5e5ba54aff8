//! `eufuzz equiv A B`: does B refine A on A's inputs and generated ones?

use crate::compile_cmd::describe_difference;
use crate::load::load_document;
use compiler::text::print_inputs;
use oracle::RunConfig;
use oracle::compare::compare;
use std::path::Path;

/// B runs in strict mode when it is hardware IR (no VGRFs), like a compiled program.
fn config_for(p: &compiler::Program) -> RunConfig {
    RunConfig {
        strict: !p.has_vgrf_operands(),
        fuel: RunConfig::default().fuel * 8,
        ..RunConfig::default()
    }
}

pub fn run(a_path: &Path, b_path: &Path, extra: usize, seed: u64) -> i32 {
    let load = |path: &Path| load_document(path).map(|d| d.program);
    let (a, b) = match (load(a_path), load(b_path)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return 2;
        }
    };
    for (name, p) in [(a_path, &a), (b_path, &b)] {
        let v = compiler::validate::validate(p);
        if let Some(first) = v.first() {
            eprintln!("{}: not a valid program: {first}", name.display());
            return 2;
        }
    }
    let sets = oracle::differential::input_sets(&a, extra, seed);
    let cfg_b = config_for(&b);
    let mut judged = 0;
    for (k, inputs) in sets.iter().enumerate() {
        let reference = oracle::run(&a, inputs, &RunConfig::default());
        if reference.branched_on_undefined() || reference.outcome != oracle::Outcome::Completed {
            continue;
        }
        judged += 1;
        let other = oracle::run(&b, inputs, &cfg_b);
        let differences = compare(&reference, &other);
        if !differences.is_empty() {
            println!(
                "NOT EQUIVALENT: {} does not refine {} on input set {k}",
                b_path.display(),
                a_path.display()
            );
            println!("distinguishing inputs:\n{}", print_inputs(inputs));
            println!("channel diff (expected from A vs actual from B, .. = undefined):");
            for d in differences.iter().take(16) {
                println!("  {}", describe_difference(d));
            }
            if differences.len() > 16 {
                println!("  ... {} more", differences.len() - 16);
            }
            return 1;
        }
    }
    if judged == 0 {
        println!(
            "UNDECIDED: A branches on undefined values or does not complete on every input set"
        );
        return 1;
    }
    println!(
        "equivalent on {judged} input set(s): {} refines {}",
        b_path.display(),
        a_path.display()
    );
    0
}
