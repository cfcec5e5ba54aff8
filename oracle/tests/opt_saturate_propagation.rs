//! Mesa-style tests of `opt_saturate_propagation` (docs/hardware/brw-backend.md §7.1 step 11 and the
//! negative cases of §10.3 22–29): the positive moves of `.sat`, and negative cases that
//! show on the emulator that the forbidden rewrite would change an output.

mod common;

use common::opt_pass::*;
use compiler::passes::opt_saturate_propagation::run;
use compiler::program::Program;

/// Writes v2 (colour component 0, plus whatever the body put in v2+32) as the colour.
const OUT: &str = "
    mov(8) v2+64:F, 0.0:F
    mov(8) v2+96:F, 0.0:F
    fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
";

fn body(lines: &str) -> String {
    format!("{lines}\n{OUT}")
}

#[test]
fn saturate_moves_into_an_add() {
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            mov.sat(8) v2:F, v0:F
            mov(8) v2+32:F, attr2:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &body(
            "
            add.sat(8) v0:F, attr0:F, attr1:F
            mov(8) v2:F, v0:F
            mov(8) v2+32:F, attr2:F
            ",
        ),
    );
}

#[test]
fn saturate_moves_into_a_predicated_sel() {
    // A predicated SEL writes every enabled channel (docs/hardware/eu-hardware.md §2.3): it is not a
    // partial write, so §10.3 23 does not apply.
    let input = program(
        "skl",
        8,
        &body(
            "
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            (+f0.0) sel(8) v0:F, attr0:F, attr2:F
            mov.sat(8) v2:F, v0:F
            mov(8) v2+32:F, attr2:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &body(
            "
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            (+f0.0) sel.sat(8) v0:F, attr0:F, attr2:F
            mov(8) v2:F, v0:F
            mov(8) v2+32:F, attr2:F
            ",
        ),
    );
}

#[test]
fn a_saturate_after_a_saturated_producer_is_dropped() {
    // The value is already in [0, 1]; other readers of it do not matter.
    let input = program(
        "skl",
        8,
        &body(
            "
            mul.sat(8) v0:F, attr0:F, attr1:F
            mov.sat(8) v2:F, v0:F
            mov(8) v2+32:F, v0:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &body(
            "
            mul.sat(8) v0:F, attr0:F, attr1:F
            mov(8) v2:F, v0:F
            mov(8) v2+32:F, v0:F
            ",
        ),
    );
}

#[test]
fn a_saturate_after_a_predicated_saturated_producer_is_kept() {
    // The channels the predicated ADD skips keep the earlier, unsaturated value.
    let input = program(
        "skl",
        8,
        &body(
            "
            mov(8) v0:F, attr2:F
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            (+f0.0) add.sat(8) v0:F, attr0:F, attr1:F
            mov.sat(8) v2:F, v0:F
            mov(8) v2+32:F, 0.0:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            mov(8) v0:F, attr2:F
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            (+f0.0) add.sat(8) v0:F, attr0:F, attr1:F
            mov(8) v2:F, v0:F
            mov(8) v2+32:F, 0.0:F
            ",
        ),
    );
}

#[test]
fn an_other_unsaturated_use_blocks_the_move() {
    // §10.3 22 (`other_non_saturated_use`).
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            mov.sat(8) v2:F, v0:F
            add(8) v2+32:F, v0:F, attr2:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            add.sat(8) v0:F, attr0:F, attr1:F
            mov(8) v2:F, v0:F
            add(8) v2+32:F, v0:F, attr2:F
            ",
        ),
    );
}

#[test]
fn a_predicated_producer_is_left() {
    // §10.3 23 (`predicated_instruction`, Mesa 7a7b8a02bed): the channels the ADD skips
    // keep the earlier, unsaturated value, which the MOV saturates.
    let input = program(
        "skl",
        8,
        &body(
            "
            mov(8) v0:F, attr2:F
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            (+f0.0) add(8) v0:F, attr0:F, attr1:F
            mov.sat(8) v2:F, v0:F
            mov(8) v2+32:F, 0.0:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            mov(8) v0:F, attr2:F
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            (+f0.0) add.sat(8) v0:F, attr0:F, attr1:F
            mov(8) v2:F, v0:F
            mov(8) v2+32:F, 0.0:F
            ",
        ),
    );
}

#[test]
fn a_negated_saturating_move_is_left() {
    // §10.3 24 (`neg_mov_sat`): sat(−rndu(x)) is not −sat(rndu(x)), and RNDU has no source
    // negation that would turn its result into the negated one.
    let input = program(
        "skl",
        8,
        &body(
            "
            rndu(8) v0:F, attr0:F
            mov.sat(8) v2:F, -v0:F
            mov(8) v2+32:F, 0.0:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            rndu.sat(8) v0:F, attr0:F
            mov(8) v2:F, -v0:F
            mov(8) v2+32:F, 0.0:F
            ",
        ),
    );
}

#[test]
fn an_absolute_saturating_move_is_left() {
    // §10.3 25 (`abs_mov_sat`): sat(|x + y|) is not |sat(x + y)|.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            mov.sat(8) v2:F, (abs)v0:F
            mov(8) v2+32:F, 0.0:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            add.sat(8) v0:F, attr0:F, attr1:F
            mov(8) v2:F, (abs)v0:F
            mov(8) v2+32:F, 0.0:F
            ",
        ),
    );
}

#[test]
fn saturating_uses_with_different_negations_are_left() {
    // §10.3 26 (`mul_mov_sat_neg_mov_sat`): the MUL can produce sat(x·y) or sat(−x·y), not
    // both.
    let input = program(
        "skl",
        8,
        &body(
            "
            mul(8) v0:F, attr0:F, attr1:F
            mov.sat(8) v2:F, v0:F
            mov.sat(8) v2+32:F, -v0:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            mul.sat(8) v0:F, attr0:F, attr1:F
            mov(8) v2:F, v0:F
            mov.sat(8) v2+32:F, -v0:F
            ",
        ),
    );
}

#[test]
fn two_negated_saturating_uses_are_left() {
    // §10.3 26 (`mul_neg_mov_sat_neg_mov_sat`): moving `.sat` alone into the MUL would
    // negate a saturated value instead of saturating the negated one.
    let input = program(
        "skl",
        8,
        &body(
            "
            mul(8) v0:F, attr0:F, attr1:F
            mov.sat(8) v2:F, -v0:F
            mov.sat(8) v2+32:F, -v0:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            mul.sat(8) v0:F, attr0:F, attr1:F
            mov(8) v2:F, -v0:F
            mov(8) v2+32:F, -v0:F
            ",
        ),
    );
}

#[test]
fn a_negated_then_a_plain_saturating_use_are_left() {
    // §10.3 26 (`mul_neg_mov_sat_mov_sat`).
    let input = program(
        "skl",
        8,
        &body(
            "
            mul(8) v0:F, attr0:F, attr1:F
            mov.sat(8) v2:F, -v0:F
            mov.sat(8) v2+32:F, v0:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            mul.sat(8) v0:F, attr0:F, attr1:F
            mov.sat(8) v2:F, -v0:F
            mov(8) v2+32:F, v0:F
            ",
        ),
    );
}

/// A program whose texture 0 returns arbitrary floats, for §10.3 27.
fn textured(lines: &str) -> String {
    format!(
        "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nvgrf v0 4\nvgrf v1 1\n\
         vgrf v2 4\nSTART B0\n{lines}\n{OUT}\nEND B0\n\
         INPUTS\n    texture 0 float\n    thread 0 attr0 0.25:F 0.5:F 0.75:F 0.1:F 0.9:F 0.3:F \
         0.6:F 0.8:F\n    thread 0 attr1 0.5:F*8\nEND INPUTS\n"
    )
}

#[test]
fn an_intervening_write_of_the_value_blocks_the_move() {
    // §10.3 27 (`intervening_dest_write`, Mesa d5d8bb1dbbb): the sample overwrites the
    // ADD's result before the MOV reads it.
    let lines = "
        add(8) v0+64:F, attr0:F, attr1:F
        tex_logical(8) v0:F, attr0:F, attr1:F, 0:UD
        mov.sat(8) v2:F, v0+64:F
        mov(8) v2+32:F, 0.0:F
    ";
    let input = parse(&textured(lines));
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            add.sat(8) v0+64:F, attr0:F, attr1:F
            tex_logical(8) v0:F, attr0:F, attr1:F, 0:UD
            mov(8) v2:F, v0+64:F
            mov(8) v2+32:F, 0.0:F
            ",
        ),
    );
}

/// A SIMD16 program writing `v2` (four components of 64 bytes) as the colour.
fn simd16(lines: &str) -> Program {
    parse(&format!(
        "eu 1\ntarget skl\ndispatch 16\nattr attr0 2\nattr attr1 2\nattr attr2 2\nvgrf v0 2\n\
         vgrf v1 2\nvgrf v2 8\nSTART B0\n{lines}\n\
         mov(16) v2+128:F, 0.0:F\nmov(16) v2+192:F, 0.0:F\n\
         fb_write_logical(16) null:UD, v2:F, 4:UD, 0:UD {{ EOT }}\nEND B0\n"
    ))
}

fn simd16_body(lines: &str) -> String {
    format!(
        "{lines}\nmov(16) v2+128:F, 0.0:F\nmov(16) v2+192:F, 0.0:F\n\
         fb_write_logical(16) null:UD, v2:F, 4:UD, 0:UD {{ EOT }}"
    )
}

#[test]
fn a_narrower_consumer_is_left() {
    // §10.3 28 (`smaller_exec_size_consumer`): the SIMD16 ADD's upper half is read
    // unsaturated elsewhere.
    let lines = "
        add(16) v0:F, attr0:F, attr1:F
        mov.sat(8) v2:F, v0:F
        mov(8) v2+32:F, attr2:F { 2Q }
        mov(16) v2+64:F, v0:F
    ";
    let input = simd16(lines);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &simd16_body(
            "
            add.sat(16) v0:F, attr0:F, attr1:F
            mov(8) v2:F, v0:F
            mov(8) v2+32:F, attr2:F { 2Q }
            mov(16) v2+64:F, v0:F
            ",
        ),
    );
}

#[test]
fn a_wider_consumer_is_left() {
    // §10.3 28 (`larger_exec_size_consumer`): the SIMD16 MOV also saturates channels the
    // SIMD8 ADD did not write.
    let lines = "
        mov(16) v0:F, attr2:F
        add(8) v0:F, attr0:F, attr1:F
        mov.sat(16) v2:F, v0:F
        mov(16) v2+64:F, 0.0:F
    ";
    let input = simd16(lines);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &simd16_body(
            "
            mov(16) v0:F, attr2:F
            add.sat(8) v0:F, attr0:F, attr1:F
            mov(16) v2:F, v0:F
            mov(16) v2+64:F, 0.0:F
            ",
        ),
    );
}

#[test]
fn a_single_channel_reader_of_the_value_blocks_the_move() {
    // §10.3 29 (`offset_source_barrier`): `add(1)` reads channel 2 of the ADD's result
    // in between; saturating the producer would change what it reads.
    let input = program(
        "skl",
        8,
        &body(
            "
            mov(8) v1:F, 0.0:F
            add(8) v0:F, attr0:F, attr1:F
            add(1) v1:F, v0+8<0>:F, 1.0:F { NoMask }
            mov.sat(8) v2:F, v0:F
            mov(8) v2+32:F, v1<0>:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            mov(8) v1:F, 0.0:F
            add.sat(8) v0:F, attr0:F, attr1:F
            add(1) v1:F, v0+8<0>:F, 1.0:F { NoMask }
            mov(8) v2:F, v0:F
            mov(8) v2+32:F, v1<0>:F
            ",
        ),
    );
}

#[test]
fn an_integer_producer_of_a_float_saturate_is_left() {
    // §11.19 (Mesa 35a2d259f27): on the UD SEL `.sat` would clamp to the UD range, a no-op,
    // instead of to [0.0, 1.0].
    let input = program(
        "skl",
        8,
        &body(
            "
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            (+f0.0) sel(8) v0:UD, attr0:UD, attr1:UD
            mov.sat(8) v2:F, v0:F
            mov(8) v2+32:F, 0.0:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &body(
            "
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            (+f0.0) sel.sat(8) v0:UD, attr0:UD, attr1:UD
            mov(8) v2:F, v0:F
            mov(8) v2+32:F, 0.0:F
            ",
        ),
    );
}
