//! `eufuzz equiv A B`: does B refine A on A's inputs and generated ones?
//!
//! Refinement is judged on one set of inputs fed to both programs, so both must consume
//! inputs the same way: the same target, dispatch width, thread count, attrs (number and
//! sizes) and uniform count. Programs that differ there are refused ([`shape_differences`]),
//! never judged. Scratch size, registers and the code itself may differ (that is what a
//! compiled or rewritten program does).

use crate::compile_cmd::describe_difference;
use crate::exit;
use crate::load::load_document;
use compiler::Program;
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

/// How the input-consuming shape of `b` differs from `a`'s, one line per field (empty: the
/// same shape).
pub fn shape_differences(a: &Program, b: &Program) -> Vec<String> {
    let mut out = vec![];
    let mut field = |name: &str, x: String, y: String| {
        if x != y {
            out.push(format!("{name}: A has {x}, B has {y}"));
        }
    };
    field("target", a.device.name().into(), b.device.name().into());
    field(
        "dispatch width",
        a.dispatch_width.to_string(),
        b.dispatch_width.to_string(),
    );
    field("threads", a.threads.to_string(), b.threads.to_string());
    field("attrs", attr_list(&a.attr_sizes), attr_list(&b.attr_sizes));
    field("uniforms", a.uniforms.to_string(), b.uniforms.to_string());
    out
}

fn attr_list(sizes: &[u32]) -> String {
    if sizes.is_empty() {
        return "none".into();
    }
    let each: Vec<String> = sizes
        .iter()
        .enumerate()
        .map(|(k, s)| format!("attr{k} {s}"))
        .collect();
    format!("{} ({})", sizes.len(), each.join(", "))
}

pub fn run(a_path: &Path, b_path: &Path, extra: usize, seed: u64) -> i32 {
    let load = |path: &Path| load_document(path).map(|d| d.program);
    let (a, b) = match (load(a_path), load(b_path)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return exit::MALFORMED;
        }
    };
    for (name, p) in [(a_path, &a), (b_path, &b)] {
        let v = compiler::validate::validate(p);
        if let Some(first) = v.first() {
            eprintln!("{}: not a valid program: {first}", name.display());
            return exit::MALFORMED;
        }
    }
    let shape = shape_differences(&a, &b);
    if !shape.is_empty() {
        eprintln!(
            "cannot compare {} with {}: they take different inputs",
            a_path.display(),
            b_path.display()
        );
        for line in &shape {
            eprintln!("  {line}");
        }
        return exit::INCOMPARABLE;
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
            return exit::PROBLEMS;
        }
    }
    if judged == 0 {
        println!(
            "UNDECIDED: A branches on undefined values or does not complete on every one of the {} input set(s)",
            sets.len()
        );
        return exit::UNDECIDED;
    }
    println!(
        "equivalent on {judged} input set(s): {} refines {}",
        b_path.display(),
        a_path.display()
    );
    exit::OK
}
