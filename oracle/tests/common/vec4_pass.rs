//! Mesa-style tests of the vec4 DF passes (fp64-align16.md): build the input IR, run the
//! one pass, compare the progress flag and the printed result with the expected IR.

use super::opt_pass::{PassFn, parse, printed};
use compiler::pipeline::CompileOptions;
use compiler::program::Program;

/// A vec4 program on `target`: eight uniform slots, attr0..attr1 (two registers each),
/// v0..v7 (two registers each: one dvec4 per vertex) and `body` as block B0.
pub fn vec4_program(target: &str, body: &str) -> Program {
    let vgrfs: String = (0..8).map(|v| format!("vgrf v{v} 2\n")).collect();
    parse(&format!(
        "eu 1\ntarget {target}\ndispatch 8\nuniforms 16\nattr attr0 2\nattr attr1 2\n{vgrfs}\
         START B0\n{body}\nEND B0\n"
    ))
}

fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Runs `pass` with `opts` on `input`; requires progress, a valid result and exactly the
/// `expected` instructions (printed form, one per line).
pub fn expect_rewrite_with(
    pass: PassFn,
    opts: &CompileOptions,
    input: &Program,
    expected: &str,
) -> Program {
    let mut output = input.clone();
    let progress = pass(&mut output, opts).unwrap_or_else(|e| panic!("pass failed: {e}"));
    let (got, want) = (printed(&output), lines(expected));
    assert!(progress, "no progress:\n{}", got.join("\n"));
    assert_eq!(got, want, "\ngot:\n{}\n", got.join("\n"));
    let violations = compiler::validate::validate(&output);
    assert!(violations.is_empty(), "invalid output: {violations:?}");
    output
}

/// [`expect_rewrite_with`] on default options.
pub fn expect_rewrite(pass: PassFn, input: &Program, expected: &str) -> Program {
    expect_rewrite_with(pass, &CompileOptions::default(), input, expected)
}

/// Runs `pass` on `input` and requires no progress and an unchanged program.
pub fn expect_unchanged(pass: PassFn, input: &Program) {
    let mut output = input.clone();
    let progress = pass(&mut output, &CompileOptions::default()).expect("pass runs");
    assert!(!progress, "progress:\n{}", printed(&output).join("\n"));
    assert_eq!(printed(&output), printed(input));
}
