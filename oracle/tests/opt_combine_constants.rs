//! Mesa-style tests of `opt_combine_constants` (docs/hardware/brw-backend.md §7.1/§7.2 after
//! `lower_load_payload`, §7.4 combine-constants commits, §11.21): immediates a slot cannot
//! hold (docs/hardware/eu-hardware.md §3.3, §7.3) become one NoMask scalar load per constant in the
//! common dominator of its uses; legal immediates stay.

mod common;

use common::opt_pass::*;
use compiler::passes::opt_combine_constants::run;

/// Writes v2 (four components) as the colour.
const WRITE: &str = "
    fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
";

fn with_write(body: &str) -> String {
    format!("{body}\n{WRITE}")
}

#[test]
fn an_align16_mad_immediate_becomes_a_nomask_scalar_load() {
    // docs/hardware/eu-hardware.md §7.3: Align16 three-source instructions (Gfx9) take no immediate.
    let input = program(
        "skl",
        8,
        &with_write(
            "
            mad(8) v2:F, attr0:F, attr1:F, 2.5:F
            mov(8) v2+32:F, attr1:F
            mov(8) v2+64:F, attr2:F
            mov(8) v2+96:F, attr2:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &with_write(
            "
            mov(1) v8<0>:F, 2.5:F { NoMask }
            mad(8) v2:F, attr0:F, attr1:F, v8<0>:F
            mov(8) v2+32:F, attr1:F
            mov(8) v2+64:F, attr2:F
            mov(8) v2+96:F, attr2:F
            ",
        ),
    );
}

#[test]
fn one_constant_used_by_several_instructions_is_loaded_once() {
    // Each load goes before the constant's first use; a negation stays on its use.
    let input = program(
        "skl",
        8,
        &with_write(
            "
            mad(8) v2:F, attr0:F, attr1:F, 2.5:F
            mad(8) v2+32:F, attr1:F, -(2.5:F), attr2:F
            lrp(8) v2+64:F, attr0:F, 0.5:F, attr2:F
            mad(8) v2+96:F, 0.5:F, attr1:F, 2.5:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &with_write(
            "
            mov(1) v8<0>:F, 2.5:F { NoMask }
            mad(8) v2:F, attr0:F, attr1:F, v8<0>:F
            mad(8) v2+32:F, attr1:F, -v8<0>:F, attr2:F
            mov(1) v9<0>:F, 0.5:F { NoMask }
            lrp(8) v2+64:F, attr0:F, v9<0>:F, attr2:F
            mad(8) v2+96:F, v9<0>:F, attr1:F, v8<0>:F
            ",
        ),
    );
}

/// Both sides of an IF use 2.5 in a MAD; the colour is v2. `load` goes before the IF.
fn both_branches(load: &str) -> String {
    format!(
        "
        START B0
            cmp.l.f0.0(8) null:F, attr2:F, 0.0:F
            {load}
            (+f0.0) if(8)
        END B0
        START B1
            mad(8) v2:F, attr0:F, attr1:F, {c}
            else(8)
        END B1
        START B2
            mad(8) v2:F, attr1:F, attr0:F, {c}
        END B2
        START B3
            endif(8)
            mov(8) v2+32:F, attr1:F
            mov(8) v2+64:F, attr2:F
            mov(8) v2+96:F, attr2:F
            fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD {{ EOT }}
        END B3
        ",
        c = if load.is_empty() { "2.5:F" } else { "v8<0>:F" },
    )
}

#[test]
fn uses_in_both_branches_share_a_load_in_the_block_before_the_if() {
    // The common dominator of the two branches is the IF's block: the load goes before
    // its closing IF, NoMask, so it also serves the channels that take the ELSE (§11.21).
    let input = program("skl", 8, &both_branches(""));
    expect_progress(
        run,
        &input,
        &both_branches("mov(1) v8<0>:F, 2.5:F { NoMask }"),
    );
}

/// Three iterations of a loop whose body and exit both use 2.5 in a MAD; `top` before
/// the DO.
fn loop_and_exit(top: &str) -> String {
    let c = if top.is_empty() { "2.5:F" } else { "v8<0>:F" };
    format!(
        "
        mov(8) v0:F, attr0:F
        mov(8) v1:UD, 0:UD
        {top}
        do(8)
        mad(8) v0:F, v0:F, attr1:F, {c}
        add(8) v1:UD, v1:UD, 1:UD
        cmp.ge.f0.0(8) null:UD, v1:UD, 3:UD
        (+f0.0) break(8)
        while(8)
        mad(8) v2:F, attr2:F, v0:F, {c}
        mov(8) v2+32:F, v0:F
        mov(8) v2+64:F, attr2:F
        mov(8) v2+96:F, attr2:F
        {WRITE}
        "
    )
}

#[test]
fn a_constant_used_in_a_loop_and_after_it_is_loaded_before_the_do() {
    // The loop body and the block after the WHILE are both dominated by the DO's block,
    // which holds nothing but the DO: the load goes right before it, outside the loop.
    let input = program("skl", 8, &loop_and_exit(""));
    expect_progress(
        run,
        &input,
        &loop_and_exit("mov(1) v8<0>:F, 2.5:F { NoMask }"),
    );
}

#[test]
fn a_two_source_immediate_src0_that_cannot_be_swapped_is_promoted() {
    // docs/hardware/eu-hardware.md §3.3: an immediate only in src1. A shift cannot swap its sources; the
    // ADD can (lower_alu_restrictions swaps it), so its immediate stays.
    let input = program(
        "skl",
        8,
        &with_write(
            "
            shl(8) v2:UD, 3:UD, attr0:UD
            add(8) v2+32:F, 1.5:F, attr1:F
            mov(8) v2+64:F, attr2:F
            mov(8) v2+96:F, attr2:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &with_write(
            "
            mov(1) v8<0>:UD, 3:UD { NoMask }
            shl(8) v2:UD, v8<0>:UD, attr0:UD
            add(8) v2+32:F, 1.5:F, attr1:F
            mov(8) v2+64:F, attr2:F
            mov(8) v2+96:F, attr2:F
            ",
        ),
    );
}

#[test]
fn align1_keeps_a_16_bit_immediate_in_src0_and_promotes_a_32_bit_one() {
    // docs/hardware/eu-hardware.md §3.3/§7.3 (Gfx11+ Align1): src0 and src2 may hold 16-bit immediates.
    let input = program(
        "icl",
        8,
        &with_write(
            "
            mad(8) v0:HF, 1.5:HF, attr0:HF, attr1:HF
            mad(8) v2:F, 1.5:F, attr0:F, attr1:F
            mov(8) v2+32:F, v0:HF
            mov(8) v2+64:F, attr2:F
            mov(8) v2+96:F, attr2:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &with_write(
            "
            mad(8) v0:HF, 1.5:HF, attr0:HF, attr1:HF
            mov(1) v8<0>:F, 1.5:F { NoMask }
            mad(8) v2:F, v8<0>:F, attr0:F, attr1:F
            mov(8) v2+32:F, v0:HF
            mov(8) v2+64:F, attr2:F
            mov(8) v2+96:F, attr2:F
            ",
        ),
    );
}

#[test]
fn legal_immediates_and_multiplications_are_left() {
    // src1 immediates are legal (§3.3), MAD on Gfx11 takes a 16-bit src2, and a MUL's
    // immediate is left for lower_integer_multiplication (§6), which looks at it.
    let input = program(
        "icl",
        8,
        &with_write(
            "
            add(8) v2:F, attr0:F, 2.5:F
            mad(8) v0:HF, attr0:HF, attr1:HF, 0.5:HF
            mul(8) v1:D, 40000:D, attr1:D
            mov(8) v2+32:F, v0:HF
            mov(8) v2+64:F, v1:D
            mov(8) v2+96:F, attr2:F
            ",
        ),
    );
    expect_no_progress(run, &input);
}

/// Lanes with a negative attr2 halt; the rest compute a MAD with a constant. `load` is the
/// instruction before the MAD, `c` its third source.
fn after_halt(load: &str, c: &str) -> String {
    format!(
        "
        START B0
            cmp.l.f0.0(8) null:F, attr2:F, 0.0:F
            (+f0.0) halt(8)
        END B0
        START B1
            {load}
            mad(8) v0:F, attr0:F, attr1:F, {c}
            mov(8) v0+32:F, attr1:F
            mov(8) v0+64:F, attr2:F
            mov(8) v0+96:F, attr2:F
        END B1
        START B2
            halt_target(8)
            fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD {{ EOT }}
        END B2
        "
    )
}

#[test]
fn the_load_is_nomask_because_channel_zero_may_have_halted() {
    // §11.21 / Mesa 2c7a703b05a: channel 0 halted before the MAD. A masked SIMD1 load
    // writes nothing then, and every channel's MAD reads an undefined scalar.
    let text = format!(
        "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nattr attr2 1\nvgrf v0 4\n\
         vgrf v1 1\n{}\nINPUTS\n    thread 0 attr0 1.0:F*8\n    thread 0 attr1 2.0:F*8\n    \
         thread 0 attr2 -1.0:F 1.0:F*7\nEND INPUTS\n",
        after_halt("", "2.5:F")
    );
    let input = parse(&text);
    expect_progress(
        run,
        &input,
        &after_halt("mov(1) v2<0>:F, 2.5:F { NoMask }", "v2<0>:F"),
    );
    expect_forbidden_rewrite_differs(&input, &after_halt("mov(1) v1<0>:F, 2.5:F", "v1<0>:F"));
}
