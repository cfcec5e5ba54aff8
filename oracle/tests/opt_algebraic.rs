//! Mesa-style tests of `opt_algebraic` (docs/hardware/brw-backend.md §7.1 step 2): each exact rule, and
//! float folds that look tempting but that the emulator shows would change an output.

mod common;

use common::opt_pass::*;
use compiler::passes::opt_algebraic::{PASS, run};

/// Writes v2 (four components, the first two set by the body) as the colour.
const OUT: &str = "
    mov(8) v2+64:UD, 0:UD
    mov(8) v2+96:UD, 0:UD
    fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
";

fn body(lines: &str) -> String {
    format!("{lines}\n{OUT}")
}

/// Writes v0 and v1 as the colour's first two components.
fn shown(lines: &str) -> String {
    body(&format!(
        "{lines}\nmov(8) v2:UD, v0:UD\nmov(8) v2+32:UD, v1:UD"
    ))
}

#[test]
fn integer_add_of_zero_and_multiply_by_one_become_moves() {
    let input = program(
        "skl",
        8,
        &shown(
            "
            add(8) v0:D, attr0:D, 0:D
            mul(8) v1:D, -attr1:D, 1:D
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &shown(
            "
            mov(8) v0:D, attr0:D
            mov(8) v1:D, -attr1:D
            ",
        ),
    );
}

#[test]
fn integer_multiply_and_and_by_zero_become_zero() {
    let input = program(
        "skl",
        8,
        &shown(
            "
            mul(8) v0:UD, attr0:UD, 0:UD
            and(8) v1:D, attr1:D, 0:D
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &shown(
            "
            mov(8) v0:UD, 0:UD
            mov(8) v1:D, 0:D
            ",
        ),
    );
}

#[test]
fn logic_identities_with_the_immediate_in_either_source() {
    let input = program(
        "skl",
        8,
        &shown(
            "
            xor(8) v0:UD, 0:UD, attr0:UD
            and(8) v1:D, attr1:D, -1:D
            or(8) v3:UD, attr2:UD, 0:UD
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &shown(
            "
            mov(8) v0:UD, attr0:UD
            mov(8) v1:D, attr1:D
            mov(8) v3:UD, attr2:UD
            ",
        ),
    );
}

#[test]
fn a_negated_logic_source_is_left() {
    // On logic operations `negate` is a bitwise NOT (docs/hardware/eu-hardware.md §3.6), on a MOV it is
    // the arithmetic negation: ~x is not −x.
    let text = shown("or(8) v0:D, -attr0:D, 0:D\nmov(8) v1:D, 0:D");
    let input = program("skl", 8, &text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &shown("mov(8) v0:D, -attr0:D\nmov(8) v1:D, 0:D"));
}

#[test]
fn two_integer_immediates_fold_with_wrap_around() {
    let input = program(
        "skl",
        8,
        &shown(
            "
            add(8) v0:D, 2147483647:D, 1:D
            mul(8) v1:UD, 65536:UD, 65537:UD
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &shown(
            "
            mov(8) v0:D, -2147483648:D
            mov(8) v1:UD, 65536:UD
            ",
        ),
    );
}

#[test]
fn a_saturating_constant_operation_is_left() {
    // Integer `.sat` clamps the full result (docs/hardware/eu-hardware.md §3.5): 0x7fffffff + 1 gives
    // 0x7fffffff, not the wrapped value.
    let text = shown("add.sat(8) v0:D, 2147483647:D, 1:D\nmov(8) v1:D, 0:D");
    let input = program("skl", 8, &text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &shown("mov(8) v0:D, -2147483648:D\nmov(8) v1:D, 0:D"),
    );
}

#[test]
fn a_select_of_equal_sources_becomes_a_move() {
    let input = program(
        "skl",
        8,
        &shown(
            "
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            (+f0.0) sel(8) v0:D, attr2:D, attr2:D
            sel.l(8) v1:F, -attr1:F, -attr1:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &shown(
            "
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            mov(8) v0:D, attr2:D
            mov(8) v1:F, -attr1:F
            ",
        ),
    );
}

#[test]
fn a_saturated_immediate_in_range_loses_the_saturate() {
    let input = program(
        "skl",
        8,
        &shown(
            "
            mov.sat(8) v0:F, 0.5:F
            mov.sat(8) v1:D, -7:D
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &shown(
            "
            mov(8) v0:F, 0.5:F
            mov(8) v1:D, -7:D
            ",
        ),
    );
}

#[test]
fn a_saturated_immediate_out_of_range_is_left() {
    let text = shown("mov.sat(8) v0:F, 2.0:F\nmov(8) v1:D, 0:D");
    let input = program("skl", 8, &text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &shown("mov(8) v0:F, 2.0:F\nmov(8) v1:D, 0:D"));
}

/// A program on the given attr0 bits (eight channels), writing v0 and v1 as the colour.
fn on_inputs(lines: &str, attr0: &str) -> compiler::program::Program {
    let vgrfs: String = (0..4).map(|v| format!("vgrf v{v} 4\n")).collect();
    parse(&format!(
        "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\n{vgrfs}START B0\n{}\nEND B0\n\
         INPUTS\n    thread 0 attr0 {attr0}\nEND INPUTS\n",
        shown(lines)
    ))
}

#[test]
fn a_float_add_of_zero_is_left() {
    // −0.0 + 0.0 is +0.0 (IEEE round-to-nearest), so `x + 0.0` is not `x`.
    let input = on_inputs(
        "add(8) v0:F, attr0:F, 0.0:F\nmov(8) v1:D, 0:D",
        "-0.0:F 1.0:F -0.0:F 2.0:F -0.0:F 3.0:F -0.0:F 4.0:F",
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &shown("mov(8) v0:F, attr0:F\nmov(8) v1:D, 0:D"));
}

#[test]
fn a_float_multiply_by_zero_is_left() {
    // x · 0.0 is −0.0 for negative x and NaN for infinities.
    let input = on_inputs(
        "mul(8) v0:F, attr0:F, 0.0:F\nmov(8) v1:D, 0:D",
        "-1.0:F inf:F 2.0:F -inf:F -3.0:F 0.5:F 1.0:F -0.5:F",
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &shown("mov(8) v0:F, 0.0:F\nmov(8) v1:D, 0:D"));
}

#[test]
fn a_float_multiply_by_one_is_left() {
    // A float operation quiets a signalling NaN (0x7f800001 → 0x7fc00001), a MOV copies
    // its bits: an integer read of the quiet bit tells them apart.
    let input = on_inputs(
        "mul(8) v3:F, attr0:F, 1.0:F\nand(8) v0:UD, v3:UD, 0x400000:UD\nmov(8) v1:D, 0:D",
        "0x7f800001:UD*8",
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &shown("mov(8) v3:F, attr0:F\nand(8) v0:UD, v3:UD, 0x400000:UD\nmov(8) v1:D, 0:D"),
    );
}

#[test]
fn a_float_select_of_equal_unmodified_sources_is_left() {
    // The same quieting: a float SEL is an operation, the MOV a raw copy.
    let input = on_inputs(
        "sel.ge(8) v3:F, attr0:F, attr0:F\nand(8) v0:UD, v3:UD, 0x400000:UD\nmov(8) v1:D, 0:D",
        "0x7f800001:UD*8",
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &shown("mov(8) v3:F, attr0:F\nand(8) v0:UD, v3:UD, 0x400000:UD\nmov(8) v1:D, 0:D"),
    );
}

#[test]
fn every_fold_left_undone_breaks_the_contract() {
    // docs/hardware/brw-backend.md §7.1 item 2: each instruction here has a simpler equal
    // form the rules above make, so a pass that left it would break its contract; the
    // second program holds only instructions the rules leave alone.
    let owed = program(
        "skl",
        8,
        &shown(
            "
            add(8) v0:D, attr0:D, 0:D
            mul(8) v1:UD, attr0:UD, 0:UD
            xor(8) v3:UD, 0:UD, attr0:UD
            add(8) v4:D, 2147483647:D, 1:D
            mov.sat(8) v5:F, 0.5:F
            ",
        ),
    );
    assert_eq!(
        contract(&PASS, &owed),
        [
            "algebra-kept 0",
            "algebra-kept 1",
            "algebra-kept 2",
            "algebra-kept 3",
            "algebra-kept 4"
        ]
    );
    let mut folded = owed.clone();
    assert_eq!(run(&mut folded, &Default::default()), Ok(true));
    assert!(contract(&PASS, &folded).is_empty());
    let left = program(
        "skl",
        8,
        &shown(
            "
            or(8) v0:D, -attr0:D, 0:D
            add.sat(8) v1:D, 2147483647:D, 1:D
            mov.sat(8) v3:F, 2.0:F
            mov.sat(8) v4:F, -0.0:F
            add(8) v5:F, attr0:F, 0.0:F
            ",
        ),
    );
    assert!(contract(&PASS, &left).is_empty());
}

#[test]
fn a_fold_a_rewrite_exposes_is_owed_only_after_a_run_without_progress() {
    // The pass rewrites each instruction once per run, as Mesa's does: `and.sat v, a, 0`
    // becomes `mov.sat v, 0` (a · 0 → 0), whose in-range saturate only the next run of the
    // optimisation loop drops. The contract is therefore judged after a run that changed
    // nothing.
    let input = program("skl", 8, &shown("and.sat(8) v0:D, attr0:D, 0:D"));
    assert!(matches!(
        PASS.postcondition,
        Some(compiler::pass::Contract::RunWithoutProgress(_))
    ));
    let mut p = input.clone();
    assert_eq!(run(&mut p, &Default::default()), Ok(true));
    assert_eq!(printed(&p)[0], "mov.sat(8) v0:D, 0:D");
    assert_eq!(contract(&PASS, &p), ["algebra-kept 0"]);
    assert_eq!(run(&mut p, &Default::default()), Ok(true));
    assert_eq!(printed(&p)[0], "mov(8) v0:D, 0:D");
    assert_eq!(run(&mut p, &Default::default()), Ok(false));
    assert!(contract(&PASS, &p).is_empty());
    if let Some(d) = disagreement(&input, &p) {
        panic!("the folds changed an output: {d}");
    }
}
