//! Mesa-style tests of an optimisation pass (docs/hardware/brw-backend.md §10.2): build the input IR, run
//! the one pass, compare the progress flag and the printed result with the expected IR, and
//! run input and output on the emulator to show they agree on every observable write. A
//! negative case also shows that the rewrite the pass must not make would change an output.

use compiler::pass::{CompileOptions, PassError};
use compiler::program::Program;
use compiler::text::{parse_program, print_inst};
use oracle::compare::compare;
use oracle::differential::input_sets;
use oracle::{Outcome, RunConfig, RunResult, run};

/// A pass's entry point.
pub type PassFn = fn(&mut Program, &CompileOptions) -> Result<bool, PassError>;

/// Generated input sets each program pair runs on, after the program's own inputs.
pub const GENERATED_INPUT_SETS: usize = 8;

/// A valid program on `target` with `dispatch` channels: two uniforms, attr0..attr2 (four
/// registers each), v0..v7 (four registers each) and `body` (blocks included, `START B0` …
/// `END Bn`, or bare instructions, which become block B0).
pub fn program(target: &str, dispatch: u32, body: &str) -> Program {
    let body = if body.contains("START B") {
        body.to_string()
    } else {
        format!("START B0\n{body}\nEND B0\n")
    };
    let vgrfs: String = (0..8).map(|v| format!("vgrf v{v} 4\n")).collect();
    let text = format!(
        "eu 1\ntarget {target}\ndispatch {dispatch}\nuniforms 2\nattr attr0 4\nattr attr1 4\n\
         attr attr2 4\n{vgrfs}{body}"
    );
    parse(&text)
}

/// A whole program in the text form (header, declarations, blocks, optional inputs).
pub fn parse(text: &str) -> Program {
    let mut p = parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    p.resplit();
    let violations = compiler::validate::validate(&p);
    assert!(violations.is_empty(), "invalid test input: {violations:?}");
    p
}

/// The printed instructions of `p`, one per line.
pub fn printed(p: &Program) -> Vec<String> {
    p.insts().map(print_inst).collect()
}

/// The non-empty lines of an expected IR text, trimmed, block markers left out.
pub fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("START") && !l.starts_with("END"))
        .map(str::to_string)
        .collect()
}

fn run_ok(p: &Program, inputs: &compiler::inputs::Inputs, what: &str) -> RunResult {
    let r = run(p, inputs, &RunConfig::default());
    assert_eq!(r.outcome, Outcome::Completed, "the {what} did not run");
    r
}

/// The first input set on which `output` does not refine `input`'s observable writes
/// (render-target writes, stores), with the difference; `None` when they agree on all.
pub fn disagreement(input: &Program, output: &Program) -> Option<String> {
    let mut observable = false;
    for (k, inputs) in input_sets(input, GENERATED_INPUT_SETS, 0)
        .iter()
        .enumerate()
    {
        let expected = run_ok(input, inputs, "input");
        if expected.branched_on_undefined() {
            continue;
        }
        observable |= !expected.buffers.is_empty()
            || expected.threads.iter().any(|t| !t.rt_writes.is_empty());
        let actual = run_ok(output, inputs, "output");
        if let Some(d) = compare(&expected, &actual).first() {
            return Some(format!("input set {k}: {d:?}"));
        }
    }
    assert!(
        observable,
        "the test program writes nothing observable: end it with a render-target write or a store"
    );
    None
}

fn show_diff(want: &[String], got: &[String]) -> String {
    let (want, got) = (want.join("\n"), got.join("\n"));
    similar::TextDiff::from_lines(want.as_str(), got.as_str())
        .unified_diff()
        .header("expected", "actual")
        .to_string()
}

/// Runs `pass` on `input` with `opts` and requires progress, exactly the `expected`
/// instructions (printed form, one per line; block markers ignored) and, on the emulator,
/// the same observable results as the input. Returns the output for further checks.
pub fn expect_progress_with(
    pass: PassFn,
    opts: &CompileOptions,
    input: &Program,
    expected: &str,
) -> Program {
    let mut output = input.clone();
    let progress = pass(&mut output, opts).unwrap_or_else(|e| panic!("pass failed: {e}"));
    let (got, want) = (printed(&output), lines(expected));
    assert!(
        progress,
        "the pass reported no progress:\n{}",
        got.join("\n")
    );
    assert!(
        got == want,
        "unexpected output:\n{}",
        show_diff(&want, &got)
    );
    let violations = compiler::validate::validate(&output);
    assert!(violations.is_empty(), "invalid output: {violations:?}");
    if let Some(d) = disagreement(input, &output) {
        panic!("output does not agree with the input on the emulator: {d}");
    }
    output
}

/// [`expect_progress_with`] on default options.
pub fn expect_progress(pass: PassFn, input: &Program, expected: &str) -> Program {
    expect_progress_with(pass, &CompileOptions::default(), input, expected)
}

/// Runs `pass` on `input` and requires no progress and an unchanged program.
pub fn expect_no_progress_with(pass: PassFn, opts: &CompileOptions, input: &Program) {
    let mut output = input.clone();
    let progress = pass(&mut output, opts).unwrap_or_else(|e| panic!("pass failed: {e}"));
    let (got, want) = (printed(&output), printed(input));
    assert!(
        !progress,
        "the pass reported progress:\n{}",
        show_diff(&want, &got)
    );
    assert!(
        got == want,
        "unchanged program expected:\n{}",
        show_diff(&want, &got)
    );
}

/// [`expect_no_progress_with`] on default options.
pub fn expect_no_progress(pass: PassFn, input: &Program) {
    expect_no_progress_with(pass, &CompileOptions::default(), input)
}

/// Shows that `forbidden` — the rewrite a negative case forbids, written out by hand as
/// the instructions that would replace `input`'s — changes an observable result on the
/// emulator for at least one input set (the input's own inputs first). Returns the
/// difference found.
pub fn expect_forbidden_rewrite_differs(input: &Program, forbidden: &str) -> String {
    let text = compiler::text::print_program(input);
    let header: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("START"))
        .collect();
    let body = lines(forbidden).join("\n");
    let rebuilt = format!("{}\nSTART B0\n{body}\nEND B0\n", header.join("\n"));
    let mut output = parse_program(&rebuilt).unwrap_or_else(|e| panic!("{e}\n{rebuilt}"));
    output.resplit();
    output.inputs = input.inputs.clone();
    disagreement(input, &output).unwrap_or_else(|| {
        panic!(
            "the forbidden rewrite agrees with the input on every input set: the negative case \
             shows nothing\n{body}"
        )
    })
}

/// What `pass`'s own contract (`Pass::postcondition`) finds in `p`: `RULE IP` per violation
/// (`-` for a violation of the whole program), or nothing if the pass states none.
pub fn contract(pass: &compiler::pass::Pass, p: &Program) -> Vec<String> {
    pass.postcondition.map_or_else(Vec::new, |contract| {
        contract.check()(p)
            .iter()
            .map(|v| match v.ip {
                Some(ip) => format!("{} {ip}", v.rule),
                None => format!("{} -", v.rule),
            })
            .collect()
    })
}
