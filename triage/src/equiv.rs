//! Equivalence of two programs (`eufuzz equiv A B`): does B refine A on A's inputs and
//! generated ones?
//!
//! Refinement is judged on one set of inputs fed to both programs, so both must consume
//! inputs the same way: the same target, dispatch width, thread count, attrs (number and
//! sizes) and uniform count. Programs that differ there are refused ([`shape_differences`]),
//! never judged. Scratch size, registers and the code itself may differ (that is what a
//! compiled or rewritten program does).

use compiler::Program;
use compiler::inputs::Inputs;
use oracle::RunConfig;
use oracle::compare::{Difference, compare};
use oracle::differential::compiled_write_limit;

/// B runs in strict mode when it is hardware IR (`Program::is_hardware_form`), like a
/// compiled program.
fn config_for(p: &compiler::Program) -> RunConfig {
    RunConfig {
        strict: p.is_hardware_form(),
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

/// What comparing two programs of the same shape found.
pub enum Equivalence {
    /// B refines A on this many input sets (the others were discarded).
    Equivalent { judged: usize },
    /// B does not refine A on input set `set`.
    NotEquivalent {
        set: usize,
        inputs: Inputs,
        differences: Vec<Difference>,
    },
    /// A branched on undefined values or did not complete on every one of `sets` input
    /// sets: nothing was compared.
    Undecided { sets: usize },
}

/// Runs A (the reference) and B on A's own inputs and `extra` input sets generated from
/// `seed`, and says whether B refines A (the programs must have the same shape, see
/// [`shape_differences`]).
pub fn judge(a: &Program, b: &Program, extra: usize, seed: u64) -> Equivalence {
    let sets = oracle::differential::input_sets(a, extra, seed);
    let cfg_b = config_for(b);
    let mut judged = 0;
    for (k, inputs) in sets.iter().enumerate() {
        let reference = oracle::run(a, inputs, &RunConfig::default());
        if reference.branched_on_undefined() || reference.outcome != oracle::Outcome::Completed {
            continue;
        }
        judged += 1;
        // B may write what A's messages split into pieces write, and no more: a B that
        // loops forever writing stops there, not after gigabytes of records.
        let limits = RunConfig {
            max_writes: compiled_write_limit(&reference),
            ..cfg_b
        };
        let other = oracle::run(b, inputs, &limits);
        let differences = compare(&reference, &other);
        if !differences.is_empty() {
            return Equivalence::NotEquivalent {
                set: k,
                inputs: inputs.clone(),
                differences,
            };
        }
    }
    if judged == 0 {
        Equivalence::Undecided { sets: sets.len() }
    } else {
        Equivalence::Equivalent { judged }
    }
}
