//! Mesa-style tests of `opt_copy_propagation` (docs/hardware/brw-backend.md §7.1 step 4, §10.3 30): the
//! pass rewrites reads of a copy to read its source; the copy itself stays for DCE.

mod common;

use common::opt_pass::*;
use compiler::passes::opt_copy_propagation::run;

const WRITE: &str = "fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }";

fn with_write(body: &str) -> String {
    format!("{body}\n    {WRITE}")
}

#[test]
fn a_chain_of_copies_collapses_onto_the_input() {
    let input = program(
        "skl",
        8,
        &with_write(
            "
            mov(8) v0:F, attr0:F
            mov(8) v1:F, v0:F
            add(8) v2:F, v1:F, -v0:F
            mov(8) v2+32:F, v1:F
            mov(8) v2+64:F, v1:F
            mov(8) v2+96:F, v1:F
            ",
        ),
    );
    // Both reads of v1 become reads of v0 and every read of v0 a read of attr0; the
    // negation on the use stays on the use.
    expect_progress(
        run,
        &input,
        &with_write(
            "
            mov(8) v0:F, attr0:F
            mov(8) v1:F, attr0:F
            add(8) v2:F, attr0:F, -attr0:F
            mov(8) v2+32:F, attr0:F
            mov(8) v2+64:F, attr0:F
            mov(8) v2+96:F, attr0:F
            ",
        ),
    );
}

#[test]
fn a_copy_whose_source_is_redefined_is_not_propagated_past_the_write() {
    let body = with_write(
        "
        mov(8) v0:F, attr0:F
        mov(8) v1:F, v0:F
        add(8) v0:F, attr0:F, attr1:F
        mul(8) v2:F, v1:F, v0:F
        mov(8) v2+32:F, v0:F
        mov(8) v2+64:F, v0:F
        mov(8) v2+96:F, v0:F
        ",
    );
    let input = program("skl", 8, &body);
    // After the ADD, v1 still holds the old v0, which is attr0 (not redefined): the MUL
    // reads attr0 for v1 and keeps reading the new v0.
    expect_progress(
        run,
        &input,
        &with_write(
            "
            mov(8) v0:F, attr0:F
            mov(8) v1:F, attr0:F
            add(8) v0:F, attr0:F, attr1:F
            mul(8) v2:F, attr0:F, v0:F
            mov(8) v2+32:F, v0:F
            mov(8) v2+64:F, v0:F
            mov(8) v2+96:F, v0:F
            ",
        ),
    );
    // Reading the redefined v0 in the MUL instead of v1 would change the product.
    expect_forbidden_rewrite_differs(
        &input,
        &with_write(
            "
            mov(8) v0:F, attr0:F
            mov(8) v1:F, attr0:F
            add(8) v0:F, attr0:F, attr1:F
            mul(8) v2:F, v0:F, v0:F
            mov(8) v2+32:F, v0:F
            mov(8) v2+64:F, v0:F
            mov(8) v2+96:F, v0:F
            ",
        ),
    );
}

#[test]
fn a_saturating_copy_is_not_propagated() {
    // §10.3 30: `mov.sat t, x` is never folded into its users.
    let body = with_write(
        "
        mov.sat(8) v1:F, attr0:F
        add(8) v2:F, v1:F, attr1:F
        mov(8) v2+32:F, v1:F
        mov(8) v2+64:F, v1:F
        mov(8) v2+96:F, v1:F
        ",
    );
    let input = program("skl", 8, &body);
    expect_no_progress(run, &input);
    let forbidden = with_write(
        "
        mov.sat(8) v1:F, attr0:F
        add(8) v2:F, attr0:F, attr1:F
        mov(8) v2+32:F, attr0:F
        mov(8) v2+64:F, attr0:F
        mov(8) v2+96:F, attr0:F
        ",
    );
    expect_forbidden_rewrite_differs(&input, &forbidden);
}

#[test]
fn a_predicated_copy_is_not_propagated() {
    // A predicated MOV writes only some channels: the others keep v1's earlier value.
    let body = with_write(
        "
        mov(8) v1:F, attr1:F
        cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
        (+f0.0) mov(8) v1:F, attr0:F
        mov(8) v2:F, v1:F
        mov(8) v2+32:F, v1:F
        mov(8) v2+64:F, v1:F
        mov(8) v2+96:F, v1:F
        ",
    );
    let input = program("skl", 8, &body);
    expect_no_progress(run, &input);
    let forbidden = body.replace("mov(8) v2:F, v1:F", "mov(8) v2:F, attr0:F");
    expect_forbidden_rewrite_differs(&input, &forbidden);
}

#[test]
fn a_nomask_read_of_a_masked_copy_is_not_propagated() {
    // §9.2: the NoMask ADD reads v1 in channels the masked copy did not write (the
    // dispatch mask leaves some out), where v1 still holds attr1.
    let text = "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nvgrf v0 1\nvgrf v1 4\n\
         START B0\n\
         mov(8) v0:F, attr1:F { NoMask }\n\
         mov(8) v0:F, attr0:F\n\
         add(8) v1:F, v0:F, 1.0:F { NoMask }\n\
         mov(8) v1+32:F, 0.0:F { NoMask }\n\
         mov(8) v1+64:F, 0.0:F { NoMask }\n\
         mov(8) v1+96:F, 0.0:F { NoMask }\n\
         fb_write_logical(8) null:UD, v1:F, 4:UD, 0:UD { EOT }\nEND B0\n";
    let input = parse(text);
    expect_no_progress(run, &input);
}

#[test]
fn copies_do_not_cross_channel_groups() {
    // The second half of a SIMD16 copy, read by an instruction of the first half, is a
    // different set of channels.
    let body = "
        mov(8) v1:F, attr0:F { 2Q }
        add(8) v2:F, v1:F, 1.0:F
        mov(8) v2+32:F, v1:F
        mov(8) v2+64:F, v1:F
        mov(8) v2+96:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
    ";
    expect_no_progress(run, &program("skl", 16, body));
}

#[test]
fn a_constant_goes_into_src1_and_a_modifier_on_the_read_is_folded() {
    // §7.1 step 4 constant propagation: src1 of a two-source instruction takes an
    // immediate (docs/hardware/eu-hardware.md §3.3); `-t` of t = 2.0 is the immediate -2.0 (§3.6).
    let input = program(
        "skl",
        8,
        &with_write(
            "
            mov(8) v0:F, 2.0:F
            add(8) v2:F, attr0:F, v0:F
            mul(8) v2+32:F, attr1:F, -v0:F
            mov(8) v2+64:F, v0:F
            mov(8) v2+96:F, (abs)v0:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &with_write(
            "
            mov(8) v0:F, 2.0:F
            add(8) v2:F, attr0:F, 2.0:F
            mul(8) v2+32:F, attr1:F, -2.0:F
            mov(8) v2+64:F, 2.0:F
            mov(8) v2+96:F, 2.0:F
            ",
        ),
    );
}

#[test]
fn an_integer_negation_of_a_constant_wraps_in_its_type() {
    // docs/hardware/eu-hardware.md §3.6: integer negate is two's complement, so -INT_MIN is INT_MIN;
    // a W read negates in 16 bits.
    let body = |a: &str, b: &str| {
        format!(
            "
            mov(8) v0:D, -2147483648:D
            mov(8) v1:W, -32768:W
            add(8) v3:D, attr0:D, {a}
            add(8) v3+32:D, attr1:D, {b}
            mov(8) v2:F, v3:D
            mov(8) v2+32:F, v3+32:D
            mov(8) v2+64:F, 0.0:F
            mov(8) v2+96:F, 0.0:F
            {WRITE}
            "
        )
    };
    let input = program("skl", 8, &body("-v0:D", "-v1:W"));
    expect_progress(run, &input, &body("-2147483648:D", "-32768:W"));
}

#[test]
fn a_constant_in_src0_of_a_commutative_operation_is_commuted_into_src1() {
    // docs/hardware/eu-hardware.md §3.3: src0 of a two-source instruction takes no immediate; integer
    // ADD and AND give the same result with their operands swapped.
    let body = |lines: &str| {
        format!(
            "
            mov(8) v0:D, 7:D
            {lines}
            mov(8) v2:F, v3:D
            mov(8) v2+32:F, v3+32:D
            mov(8) v2+64:F, 0.0:F
            mov(8) v2+96:F, 0.0:F
            {WRITE}
            "
        )
    };
    let input = program(
        "skl",
        8,
        &body("add(8) v3:D, v0:D, attr0:D\n and(8) v3+32:D, v0:D, attr1:D"),
    );
    expect_progress(
        run,
        &input,
        &body("add(8) v3:D, attr0:D, 7:D\n and(8) v3+32:D, attr1:D, 7:D"),
    );
}

#[test]
fn constants_stay_out_of_three_source_math_and_non_commutative_src0() {
    // docs/hardware/eu-hardware.md §3.3/§7.3: no immediate in src0 of a two-source instruction (SHL is
    // not commutative), none in an Align16 three-source instruction on SKL; §7.1: math
    // takes its operands in registers here.
    let body = with_write(
        "
        mov(8) v0:F, 2.0:F
        mov(8) v1:D, 3:D
        mad(8) v2:F, attr0:F, v0:F, attr1:F
        rsq(8) v2+32:F, v0:F
        shl(8) v3:D, v1:D, attr0:D
        mov(8) v2+64:F, v3:D
        mov(8) v2+96:F, 0.0:F
        ",
    );
    expect_no_progress(run, &program("skl", 8, &body));
}

#[test]
fn a_dword_constant_is_not_commuted_into_a_32x16_multiply() {
    // §11.11 (Mesa db204121686): on Haswell `mul d:D, t:D, w:W` is a 32×16 multiply whose
    // dword operand must be src0 (docs/hardware/eu-hardware.md §4), and src0 takes no immediate (§3.3):
    // t = 0x7fffffff stays in a register. Commuted into src1 the multiplier would read
    // only the constant's low word — the `copyprop-dw-const-into-mul` zoo bug's rewrite.
    let body = |mul: &str| {
        format!(
            "
            mov(8) v0:D, 2147483647:D
            {mul}
            mov(8) v2:F, v1:D
            mov(8) v2+32:F, 0.0:F
            mov(8) v2+64:F, 0.0:F
            mov(8) v2+96:F, 0.0:F
            {WRITE}
            "
        )
    };
    let input = program("hsw", 8, &body("mul(8) v1:D, v0:D, attr0:W"));
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &body("mul(8) v1:D, attr0:W, 65535:UW"));
}

#[test]
fn a_vector_immediate_is_not_substituted_into_a_typed_use() {
    // §10.3 31 `mixed_integer_sign_with_vector_imm`: t:W = 0xffff:UV holds the UV's eight
    // elements (15, 15, 15, 15, 0, 0, 0, 0) one per channel; no scalar UW immediate is
    // that value.
    let body = |src: &str| {
        format!(
            "
            mov(8) v0:W, 0xffff:UV
            add(8) v3:UD, attr0:UD, {src}
            mov(8) v2:F, v3:UD
            mov(8) v2+32:F, 0.0:F
            mov(8) v2+64:F, 0.0:F
            mov(8) v2+96:F, 0.0:F
            {WRITE}
            "
        )
    };
    let input = program("skl", 8, &body("v0:UW"));
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &body("65535:UW"));
}

#[test]
fn a_qword_constant_goes_into_a_mov_only() {
    // docs/hardware/eu-hardware.md §3.3: 64-bit immediates exist only for single-source instructions.
    let body = |mov: &str, add: &str| {
        format!(
            "
            mov(8) v0:DF, 0.5:DF
            mov(8) v1:DF, attr0:F
            {mov}
            {add}
            mov(8) v2:F, v1:DF
            mov(8) v2+32:F, v1+64:DF
            mov(8) v2+64:F, 0.0:F
            mov(8) v2+96:F, 0.0:F
            {WRITE}
            "
        )
    };
    let input = program(
        "skl",
        8,
        &body("mov(8) v1+64:DF, v0:DF", "add(8) v1:DF, v1:DF, v0:DF"),
    );
    expect_progress(
        run,
        &input,
        &body("mov(8) v1+64:DF, 0.5:DF", "add(8) v1:DF, v1:DF, v0:DF"),
    );
}

/// `before`, an IF on `attr0 < 0` with `then` and `else_` sides, then `after` and the
/// write of v2, as blocks.
fn if_else(before: &str, then: &str, else_: &str, after: &str) -> String {
    format!(
        "
        START B0
            {before}
            cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
            (+f0.0) if(8)
        END B0
        START B1
            {then}
            else(8)
        END B1
        START B2
            {else_}
        END B2
        START B3
            endif(8)
            {after}
            {WRITE}
        END B3
        "
    )
}

#[test]
fn a_copy_made_before_an_if_reaches_its_join() {
    // Global propagation: the copy is made on every path to the join and neither side is
    // written on any (the else side writes another register).
    let after = "
        add(8) v2:F, v1:F, attr1:F
        mov(8) v2+32:F, v1:F
        mov(8) v2+64:F, v3:F
        mov(8) v2+96:F, 0.0:F
    ";
    let input = program(
        "skl",
        8,
        &if_else(
            "mov(8) v1:F, attr0:F\n mov(8) v3:F, 0.0:F",
            "mov(8) v3:F, 1.0:F",
            "mov(8) v3:F, 2.0:F",
            after,
        ),
    );
    expect_progress(
        run,
        &input,
        &if_else(
            "mov(8) v1:F, attr0:F\n mov(8) v3:F, 0.0:F",
            "mov(8) v3:F, 1.0:F",
            "mov(8) v3:F, 2.0:F",
            &after.replace("v1:F", "attr0:F"),
        ),
    );
}

#[test]
fn a_copy_made_on_one_side_of_an_if_does_not_reach_the_join() {
    // The channels of the other side never made the copy: after ENDIF, v1 holds 3.0 for
    // them, not attr1.
    let after = "
        mov(8) v2:F, v1:F
        mov(8) v2+32:F, 0.0:F
        mov(8) v2+64:F, 0.0:F
        mov(8) v2+96:F, 0.0:F
    ";
    let text = if_else(
        "mov(8) v1:F, 3.0:F",
        "mov(8) v1:F, attr1:F",
        "mov(8) v3:F, 1.0:F",
        after,
    );
    let input = program("skl", 8, &text);
    // Nor does the constant B0 put in v1: the then side writes v1 again.
    expect_no_progress(run, &input);
    let forbidden = text.replace("mov(8) v2:F, v1:F", "mov(8) v2:F, attr1:F");
    expect_forbidden_rewrite_differs(&input, &strip_blocks(&forbidden));
}

/// The instructions of a block-structured body, without the block markers.
fn strip_blocks(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim().starts_with("START") && !l.trim().starts_with("END"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_copy_of_a_nomask_value_made_before_a_divergent_break_does_not_reach_the_loop_exit() {
    // §11.12 (Mesa d4015bcb388), §9.2: each channel leaves the loop after attr0
    // iterations with y = x, but the thread runs the NoMask ADD again for the channels
    // still looping, which advances x for the channels that left too. The copy reaches
    // the exit over the logical BREAK edge only; the physical edges (§9.1) say the thread
    // may run the body again first.
    let text = |read: &str| {
        format!(
            "
            START B0
                mov(8) v0:D, 0:D {{ NoMask }}
                mov(8) v1:D, 0:D
            END B0
            START B1
                do(8)
            END B1
            START B2
                add(8) v0:D, v0:D, 1:D {{ NoMask }}
                cmp.ge.f0.0(8) null:D, v0:D, attr0:D
                (+f0.0) if(8)
            END B2
            START B3
                mov(8) v1:D, v0:D
                break(8)
            END B3
            START B4
                endif(8)
                while(8)
            END B4
            START B5
                mov(8) v2:F, {read}
                mov(8) v2+32:F, 0.0:F
                mov(8) v2+64:F, 0.0:F
                mov(8) v2+96:F, 0.0:F
                {WRITE}
            END B5
            "
        )
    };
    let mut input = program("skl", 8, &text("v1:D"));
    input.inputs = Some(trip_counts());
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &strip_blocks(&text("v0:D")));
}

/// Inputs giving the eight channels different loop trip counts (1..=4) in attr0.
fn trip_counts() -> compiler::inputs::Inputs {
    let text = "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nvgrf v0 1\nSTART B0\n\
                mov(8) v0:D, attr0:D\nEND B0\nINPUTS\n\
                thread 0 attr0 1:D 2:D 3:D 4:D 1:D 3:D 2:D 4:D\nEND INPUTS\n";
    compiler::text::parse_program(text)
        .expect("inputs")
        .inputs
        .expect("inputs")
}

#[test]
fn a_constant_read_as_hf_stays_in_its_register() {
    // HF immediates are not propagated (their mixed-float rules, docs/hardware/eu-hardware.md
    // §6.5, speak of registers): 65529:UW read as HF (the NaN 0xfff9) stays in v0. (The
    // rewrite, `add v1:HF, u0:HF, 0xfff9:HF`, gives the same NaN on the emulator: the
    // greater of two NaN sources propagates whatever their order, so there is no negative
    // case to run.)
    let text = |add: &str| {
        format!(
            "eu 1\ntarget skl\ndispatch 8\nuniforms 1\nvgrf v0 1\nvgrf v1 1\nvgrf v2 4\n\
             START B0\n\
             mov(8) v0:UW, 65529:UW\n\
             {add}\n\
             mov(8) v2:UD, v1:UW\n\
             fb_write_logical(8) null:UD, v2:F, 1:UD, 0:UD {{ EOT }}\n\
             END B0\n\
             INPUTS\n    uniforms 4294967294:UD\nEND INPUTS\n"
        )
    };
    let input = parse(&text("add(8) v1:HF, v0:HF, u0:HF"));
    expect_no_progress(run, &input);
}
