//! Mesa-style tests of `opt_cmod_propagation` (brw-backend.md §7.1 step 6 and the cases of
//! §10.3 1–21 this version covers): the positive folds, and negative cases that show on the
//! emulator that the forbidden fold would change an output.

mod common;

use common::opt_pass::*;
use compiler::passes::opt_cmod_propagation::run;

/// Writes `(+f0.0) sel` of the two attrs as the colour, so the flag is observable.
const USE_FLAG: &str = "
    (+f0.0) sel(8) v2:F, attr0:F, attr1:F
    mov(8) v2+32:F, v0:F
    mov(8) v2+64:F, 0.0:F
    mov(8) v2+96:F, 0.0:F
    fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
";

fn body(lines: &str) -> String {
    format!("{lines}\n{USE_FLAG}")
}

#[test]
fn add_then_compare_with_zero_folds_into_the_add() {
    // §10.2's example: `add(8) dest src0 src1 | cmp.ge.f0(8) null dest 0.0f` →
    // `add.ge.f0(8) dest src0 src1`.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
            ",
        ),
    );
    expect_progress(run, &input, &body("add.ge.f0.0(8) v0:F, attr0:F, attr1:F"));
}

#[test]
fn mov_nz_folds_into_an_integer_producer() {
    let input = program(
        "hsw",
        8,
        &body(
            "
            and(8) v0:D, attr0:D, attr1:D
            mov.nz.f0.0(8) null:D, v0:D
            ",
        ),
    );
    expect_progress(run, &input, &body("and.nz.f0.0(8) v0:D, attr0:D, attr1:D"));
}

#[test]
fn a_write_of_the_other_flag_subregister_does_not_block_the_fold() {
    // §10.3 5, the `…_mismatch_flag` variants: f0.1 is not the flag the compare writes.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            cmp.l.f0.1(8) null:F, attr0:F, 0.5:F
            cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &body(
            "
            add.ge.f0.0(8) v0:F, attr0:F, attr1:F
            cmp.l.f0.1(8) null:F, attr0:F, 0.5:F
            ",
        ),
    );
}

#[test]
fn a_compare_with_a_non_zero_value_is_left() {
    // §10.3 1: a conditional modifier compares with zero; `>= 1.0` cannot be expressed.
    let text = body(
        "
        add(8) v0:F, attr0:F, attr1:F
        cmp.ge.f0.0(8) null:F, v0:F, 1.0:F
        ",
    );
    let input = program("skl", 8, &text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &body("add.ge.f0.0(8) v0:F, attr0:F, attr1:F"));
}

#[test]
fn an_intervening_flag_write_blocks_the_fold() {
    // §10.3 4: the flag written earlier would be overwritten by the compare in between.
    let text = body(
        "
        add(8) v0:F, attr0:F, attr1:F
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
        ",
    );
    let input = program("skl", 8, &text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            add.ge.f0.0(8) v0:F, attr0:F, attr1:F
            cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
            ",
        ),
    );
}

#[test]
fn an_intervening_flag_read_blocks_the_fold() {
    // §10.3 5: the SEL in between reads f0.0 as an older compare left it.
    let text = "
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        add(8) v0:F, attr0:F, attr1:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F
        cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
        (+f0.0) sel(8) v2:F, attr0:F, attr1:F
        mov(8) v2+32:F, v1:F
        mov(8) v2+64:F, v0:F
        mov(8) v2+96:F, 0.0:F
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
    ";
    let input = program("skl", 8, text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        "
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        add.ge.f0.0(8) v0:F, attr0:F, attr1:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F
        (+f0.0) sel(8) v2:F, attr0:F, attr1:F
        mov(8) v2+32:F, v1:F
        mov(8) v2+64:F, v0:F
        mov(8) v2+96:F, 0.0:F
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn an_integer_result_compared_as_float_is_left() {
    // §10.3 7: `add d:D; cmp.ge null:F, d:F, 0.0` reinterprets the integer bits.
    let text = body(
        "
        add(8) v0:D, attr0:D, attr1:D
        cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
        ",
    );
    let input = program("skl", 8, &text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &body("add.ge.f0.0(8) v0:D, attr0:D, attr1:D"));
}

#[test]
fn a_saturated_producer_is_left() {
    // This version leaves every saturated producer: when a fold through `.sat` is right
    // took Mesa several fixes (§7.4 36abb0c6918, §10.3 21).
    let text = body(
        "
        add.sat(8) v0:F, attr0:F, attr1:F
        cmp.z.f0.0(8) null:F, v0:F, 0.0:F
        ",
    );
    let input = program("skl", 8, &text);
    expect_no_progress(run, &input);
}

#[test]
fn a_conversion_between_producer_and_test_is_left() {
    // §10.3 15 / §11.17: `or d:D; mov.nz null:D, d:F` converts 0.5f's bits to the integer
    // 0, while the OR's own result (0x3f000000) is non-zero.
    let text = "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nvgrf v0 1\n\
                vgrf v1 4\nSTART B0\n\
                or(8) v0:D, attr0:D, attr1:D\n\
                mov.nz.f0.0(8) null:D, v0:F\n\
                (+f0.0) sel(8) v1:F, 1.0:F, 0.0:F\n\
                mov(8) v1+32:F, 0.0:F\n\
                mov(8) v1+64:F, 0.0:F\n\
                mov(8) v1+96:F, 0.0:F\n\
                fb_write_logical(8) null:UD, v1:F, 4:UD, 0:UD { EOT }\n\
                END B0\n\
                INPUTS\n    thread 0 attr0 1056964608:UD*8\n    thread 0 attr1 0:UD*8\nEND INPUTS\n";
    let input = parse(text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        "
        or.nz.f0.0(8) v0:D, attr0:D, attr1:D
        (+f0.0) sel(8) v1:F, 1.0:F, 0.0:F
        mov(8) v1+32:F, 0.0:F
        mov(8) v1+64:F, 0.0:F
        mov(8) v1+96:F, 0.0:F
        fb_write_logical(8) null:UD, v1:F, 4:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn a_compare_in_another_channel_group_is_left() {
    // Mesa 95ac3b1daea: after a SIMD split the producer and the compare cover different
    // channels.
    let text = "
        add(8) v0:F, attr0:F, attr1:F { 2Q }
        cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
        (+f0.0) sel(8) v2:F, attr0:F, attr1:F
        mov(8) v2+32:F, 0.0:F
        mov(8) v2+64:F, 0.0:F
        mov(8) v2+96:F, 0.0:F
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
    ";
    expect_no_progress(run, &program("skl", 16, text));
}
