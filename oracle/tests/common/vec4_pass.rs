//! Mesa-style tests of the vec4 DF passes (docs/hardware/fp64-align16.md): build the input IR, run the
//! one pass, compare the progress flag and the printed result with the expected IR, and
//! run input and output on the emulator (the vec4 stage's logical semantics) to show they
//! agree on every URB output.

use super::opt_pass::{PassFn, lines, parse, printed};
use compiler::pass::CompileOptions;
use compiler::program::Program;
use oracle::compare::compare;
use oracle::differential::input_sets;
use oracle::{Outcome, RunConfig, run};

/// Generated input sets each program pair runs on, after the program's own inputs.
const GENERATED_INPUT_SETS: usize = 8;

fn program_text(target: &str, body: &str) -> String {
    let vgrfs: String = (0..8).map(|v| format!("vgrf v{v} 2\n")).collect();
    format!(
        "eu 1\ntarget {target}\nstage vs\ndispatch 8\nuniforms 16\nattr attr0 2\nattr attr1 2\n\
         {vgrfs}START B0\n{body}\nEND B0\n"
    )
}

/// The output of every test program: each of v0..v7 to its own pair of URB slots.
fn epilogue() -> Vec<String> {
    (0..8)
        .map(|v| {
            let eot = if v == 7 { " { EOT }" } else { "" };
            format!(
                "urb_write_logical(8) null:UD, v{v}:DF, {}:UD, 1:UD{eot}",
                2 * v
            )
        })
        .collect()
}

/// A vec4 program on `target`: sixteen uniform dwords (four vec4 slots), attr0..attr1 (two
/// registers each), v0..v7 (two registers each: one dvec4 per vertex), `body` as block B0,
/// then a URB write of every VGRF, so that every value the body leaves is observable.
pub fn vec4_program(target: &str, body: &str) -> Program {
    parse(&program_text(
        target,
        &format!("{body}\n{}", epilogue().join("\n")),
    ))
}

/// [`vec4_program`] without the URB writes: for passes whose output is hardware IR.
pub fn vec4_program_bare(target: &str, body: &str) -> Program {
    parse(&program_text(target, body))
}

/// The first input set on which `output`'s URB writes do not refine `input`'s.
pub fn disagreement(input: &Program, output: &Program) -> Option<String> {
    for (k, inputs) in input_sets(input, GENERATED_INPUT_SETS, 0)
        .iter()
        .enumerate()
    {
        let expected = run(input, inputs, &RunConfig::default());
        assert_eq!(
            expected.outcome,
            Outcome::Completed,
            "the input did not run"
        );
        if expected.branched_on_undefined() {
            continue;
        }
        assert!(
            expected.threads.iter().any(|t| !t.urb_writes.is_empty()),
            "the input writes no URB output"
        );
        let actual = run(output, inputs, &RunConfig::default());
        assert_eq!(actual.outcome, Outcome::Completed, "the output did not run");
        if let Some(d) = compare(&expected, &actual).first() {
            return Some(format!("input set {k}: {d:?}"));
        }
    }
    None
}

fn rewritten(pass: PassFn, opts: &CompileOptions, input: &Program, expected: &[String]) -> Program {
    let mut output = input.clone();
    let progress = pass(&mut output, opts).unwrap_or_else(|e| panic!("pass failed: {e}"));
    let got = printed(&output);
    assert!(progress, "no progress:\n{}", got.join("\n"));
    assert_eq!(got, expected, "\ngot:\n{}\n", got.join("\n"));
    let violations = compiler::validate::validate(&output);
    assert!(violations.is_empty(), "invalid output: {violations:?}");
    output
}

/// Runs `pass` with `opts` on `input` (a [`vec4_program`]); requires progress, a valid
/// result, exactly the `expected` instructions (printed form, one per line; the URB writes
/// follow) and the same outputs as the input on the emulator.
pub fn expect_rewrite_with(
    pass: PassFn,
    opts: &CompileOptions,
    input: &Program,
    expected: &str,
) -> Program {
    let mut want = lines(expected);
    want.extend(epilogue());
    let output = rewritten(pass, opts, input, &want);
    if let Some(d) = disagreement(input, &output) {
        panic!("output does not agree with the input on the emulator: {d}");
    }
    output
}

/// [`expect_rewrite_with`] on default options.
pub fn expect_rewrite(pass: PassFn, input: &Program, expected: &str) -> Program {
    expect_rewrite_with(pass, &CompileOptions::default(), input, expected)
}

/// Runs `pass` on `input` (a [`vec4_program_bare`]); requires progress, a valid result and
/// exactly the `expected` instructions. The emulator half of such passes is the pipeline's:
/// `vec4_pipeline.rs` compares whole compilations.
pub fn expect_printed(pass: PassFn, input: &Program, expected: &str) -> Program {
    rewritten(pass, &CompileOptions::default(), input, &lines(expected))
}

/// Runs `pass` on `input` and requires no progress and an unchanged program.
pub fn expect_unchanged(pass: PassFn, input: &Program) {
    let mut output = input.clone();
    let progress = pass(&mut output, &CompileOptions::default()).expect("pass runs");
    assert!(!progress, "progress:\n{}", printed(&output).join("\n"));
    assert_eq!(printed(&output), printed(input));
}

/// Shows that the rewrite a restriction forbids — `forbidden`, the instructions that would
/// replace `input`'s body — changes an output on the emulator. Returns the difference.
pub fn expect_forbidden_rewrite_differs(input: &Program, target: &str, forbidden: &str) -> String {
    let output = vec4_program(target, forbidden);
    let output = Program {
        inputs: input.inputs.clone(),
        ..output
    };
    disagreement(input, &output).unwrap_or_else(|| {
        panic!("the forbidden rewrite agrees with the input on every input set:\n{forbidden}")
    })
}
