//! Mesa-style tests of the vec4 CSE and DCE with their 64-bit restrictions
//! (docs/hardware/fp64-align16.md §6).

mod common;

use common::opt_pass::contract;
use common::vec4_pass::*;
use compiler::passes::vec4::{opt_cse, opt_dead_code_eliminate};

#[test]
fn cse_reuses_an_equal_expression_of_the_same_channels() {
    let input = vec4_program(
        "hsw",
        "add(8) v2:DF, v0.yxwz:DF, v1:DF { Align16 }
         add(8) v3:DF, v0.yxwz:DF, v1:DF { Align16 }
         add(8) v4:DF, v0.xyzw:DF, v1:DF { Align16 }",
    );
    expect_rewrite(
        opt_cse::run,
        &input,
        "add(8) v2:DF, v0.yxwz:DF, v1.xyzw:DF { Align16 }
         mov(8) v3:DF, v2.xyzw:DF { Align16 }
         add(8) v4:DF, v0.xyzw:DF, v1.xyzw:DF { Align16 }",
    );
}

#[test]
fn cse_contract_names_a_recomputation_the_pass_then_removes() {
    let input = vec4_program(
        "hsw",
        "add(8) v2:F, v0.yxwz:F, v1:F { Align16 }
         mul(8) v3:F, v1:F, v1:F { Align16 }
         add(8) v4:F, v0.yxwz:F, v1:F { Align16 }",
    );
    // The second ADD (ip 2) recomputes the first, nothing between writing v0, v1 or v2.
    assert_eq!(
        contract(&opt_cse::PASS, &input),
        ["expression-recomputed 2"]
    );
    let output = expect_rewrite(
        opt_cse::run,
        &input,
        "add(8) v2:F, v0.yxwz:F, v1.xyzw:F { Align16 }
         mul(8) v3:F, v1.xyzw:F, v1.xyzw:F { Align16 }
         mov(8) v4:F, v2.xyzw:F { Align16 }",
    );
    assert!(contract(&opt_cse::PASS, &output).is_empty());
}

#[test]
fn cse_keeps_apart_expressions_that_differ_in_one_key_field() {
    // Each later ADD differs from the first in exactly one thing the vec4 CSE key compares
    // (§6): the destination type, saturate, a source's swizzle, a source's modifier, the
    // order of the sources. None computes the first one's values.
    let input = vec4_program(
        "hsw",
        "add(8) v2:F, v0:F, v1:F { Align16 }
         add(8) v3:D, v0:F, v1:F { Align16 }
         add.sat(8) v4:F, v0:F, v1:F { Align16 }
         add(8) v5:F, v0.yxwz:F, v1:F { Align16 }
         add(8) v6:F, -v0:F, v1:F { Align16 }
         add(8) v7:F, v1:F, v0:F { Align16 }",
    );
    expect_unchanged(opt_cse::run, &input);
    assert!(contract(&opt_cse::PASS, &input).is_empty());
}

#[test]
fn cse_keeps_the_split_halves_of_a_uniform_expression_apart() {
    // §6 (8f39b3668a): equal sources, but group 0 runs with vertex 0's enables and group 4
    // with vertex 1's: not the same values.
    let input = vec4_program(
        "hsw",
        "add(4) v2:DF, u0.xyxy:DF, u4.xyxy:DF { Align16 }
         add(4) v2+32:DF, u0.xyxy:DF, u4.xyxy:DF { 2N Align16 }",
    );
    expect_unchanged(opt_cse::run, &input);
}

#[test]
fn cse_forgets_an_expression_whose_source_was_overwritten() {
    let input = vec4_program(
        "hsw",
        "add(8) v2:DF, v0:DF, v1:DF { Align16 }
         mov(8) v0.z:DF, v1:DF { Align16 }
         add(8) v3:DF, v0:DF, v1:DF { Align16 }",
    );
    expect_unchanged(opt_cse::run, &input);
}

#[test]
fn cse_takes_no_move_of_an_immediate_or_a_uniform() {
    // A copy of an earlier move of the same immediate or uniform is what copy propagation
    // turns back into it: the two passes would undo each other in every iteration of the
    // optimisation loop (corpus/regressions/vec4-cse-and-copy-propagation-cycle.eu).
    let input = vec4_program(
        "hsw",
        "mov(8) v2:D, 0:D { Align16 }
         mov(8) v3:D, 0:D { Align16 }
         mov(8) v4:F, u0.xyzw:F { Align16 }
         mov(8) v5:F, u0.xyzw:F { Align16 }",
    );
    expect_unchanged(opt_cse::run, &input);
}

#[test]
fn dce_removes_a_value_overwritten_before_any_read() {
    // The first write to v2 is overwritten whole; the first to v3 in its x component.
    let input = vec4_program(
        "hsw",
        "mov(8) v2.xz:DF, v0:DF { Align16 }
         mov(8) v2:DF, v1:DF { Align16 }
         mov(8) v3.x:DF, v0.y:DF { Align16 }
         mov(8) v3.xw:DF, v1:DF { Align16 }",
    );
    expect_rewrite(
        opt_dead_code_eliminate::run,
        &input,
        "mov(8) v2:DF, v1.xyzw:DF { Align16 }
         mov(8) v3.xw:DF, v1.xyzw:DF { Align16 }",
    );
}

#[test]
fn dce_keeps_set_low_under_a_set_high_of_the_same_register() {
    // §6 (553700cf55): packDouble2x32 is SET_LOW then SET_HIGH; the DF-typed SET_HIGH
    // writes half of each element and ends no liveness. A masked write also keeps what
    // it does not cover (.xz then .y).
    let input = vec4_program(
        "hsw",
        "set_low_32bit(8) v2:DF, attr0:UD
         set_high_32bit(8) v2:DF, attr1:UD
         mov(8) v3.xz:DF, v0:DF { Align16 }
         mov(8) v3.y:DF, v1:DF { Align16 }",
    );
    expect_unchanged(opt_dead_code_eliminate::run, &input);
    // Removing the SET_LOW, as a DCE taking SET_HIGH for a full write would, changes v2.
    expect_forbidden_rewrite_differs(
        &input,
        "hsw",
        "set_high_32bit(8) v2:DF, attr1:UD
         mov(8) v3.xz:DF, v0:DF { Align16 }
         mov(8) v3.y:DF, v1:DF { Align16 }",
    );
}

use compiler::passes::vec4::opt_copy_propagation;

#[test]
fn copy_propagation_composes_swizzles() {
    let input = vec4_program(
        "hsw",
        "mov(8) v1:F, attr0.wzyx:F { Align16 }
         add(8) v2:F, v1.xxyy:F, attr1:F { Align16 }
         mov(4) v3:DF, attr0:DF { Align16 }
         add(4) v4:DF, v3.yxwz:DF, attr1:DF { Align16 }",
    );
    expect_rewrite(
        opt_copy_propagation::run,
        &input,
        "mov(8) v1:F, attr0.wzyx:F { Align16 }
         add(8) v2:F, attr0.wwzz:F, attr1.xyzw:F { Align16 }
         mov(4) v3:DF, attr0.xyzw:DF { Align16 }
         add(4) v4:DF, attr0.yxwz:DF, attr1.xyzw:DF { Align16 }",
    );
}

#[test]
fn copy_propagation_keeps_the_section_6_rejections() {
    // An exec-8 DF use reads two GRFs; an exec-4 use of a 32-bit uniform; a DF constant;
    // a value of another type size; a value at a 16-byte offset.
    let input = vec4_program(
        "hsw",
        "mov(8) v1:DF, attr0:DF { Align16 }
         add(8) v2:DF, v1:DF, attr1:DF { Align16 }
         mov(4) v3:F, u0:F { Align16 }
         add(4) v4:F, v3:F, attr1:F { Align16 }
         mov(4) v5:DF, 1.0:DF { Align16 }
         add(4) v6:DF, v5:DF, attr1:DF { Align16 }
         mov(4) v7:UD, attr0:UD { Align16 }
         add(4) v0:DF, v7:DF, attr1:DF { Align16 }
         mov(4) v3:F, attr0+16:F { Align16 }
         add(4) v4:F, v3:F, attr1:F { Align16 }",
    );
    expect_unchanged(opt_copy_propagation::run, &input);
}

#[test]
fn constant_propagation_puts_the_immediate_in_src1() {
    // A two-source instruction has room for an immediate in src1 only
    // (docs/hardware/eu-hardware.md §3.3): into src1 directly; into src0 of a commutative
    // ADD by swapping, of a CMP by swapping with the reversed condition (§6).
    let input = vec4_program(
        "hsw",
        "mov(8) v1:F, 1.5:F { Align16 }
         add(8) v2:F, attr0:F, v1:F { Align16 }
         add(8) v3:F, v1:F, attr0.yxwz:F { Align16 }
         cmp.l.f0.0(8) null:F, v1:F, attr1:F { Align16 }
         (+f0.0) mov(8) v3:F, attr1:F { Align16 }",
    );
    expect_rewrite(
        opt_copy_propagation::run,
        &input,
        "mov(8) v1:F, 1.5:F { Align16 }
         add(8) v2:F, attr0.xyzw:F, 1.5:F { Align16 }
         add(8) v3:F, attr0.yxwz:F, 1.5:F { Align16 }
         cmp.g.f0.0(8) null:F, attr1.xyzw:F, 1.5:F { Align16 }
         (+f0.0) mov(8) v3:F, attr1.xyzw:F { Align16 }",
    );
}

#[test]
fn constant_propagation_leaves_an_immediate_out_of_src0() {
    // Float min/max keeps its order (−0.0 against +0.0 is a tie SEL breaks by position),
    // and an ADD whose src1 is already an immediate has no room for a second one.
    let input = vec4_program(
        "hsw",
        "mov(8) v1:F, 1.5:F { Align16 }
         sel.l(8) v2:F, v1:F, attr0:F { Align16 }
         add(8) v3:F, v1:F, 2.0:F { Align16 }",
    );
    expect_unchanged(opt_copy_propagation::run, &input);
}

#[test]
fn dce_settles_only_after_a_run_that_removes_nothing() {
    // The pass decides from the reads the program had before its sweep: removing the copy
    // into v2 (read nowhere) leaves the copy into v1, which only that copy read, for the next
    // run. The contract is therefore checked only after a run without progress, when no
    // removable write to a VGRF that nothing reads is left.
    let input = common::opt_pass::parse(
        "eu 1\ntarget hsw\nstage vs\ndispatch 8\nvgrf v0 2\nvgrf v1 2\nvgrf v2 2\nSTART B0\n\
         mov(8) v0:DF, 1.0:DF { Align16 }\n\
         mov(8) v1:DF, v0:DF { Align16 }\n\
         mov(8) v2:DF, v1:DF { Align16 }\n\
         urb_write_logical(8) null:UD, v0:DF, 0:UD, 1:UD { EOT }\nEND B0\n",
    );
    let pass = &opt_dead_code_eliminate::PASS;
    assert!(matches!(
        pass.postcondition,
        Some(compiler::pass::Contract::RunWithoutProgress(_))
    ));
    assert_eq!(contract(pass, &input), ["dead-code-kept 2"]);
    let mut p = input.clone();
    let opts = compiler::pass::CompileOptions::default();
    assert_eq!(opt_dead_code_eliminate::run(&mut p, &opts), Ok(true));
    assert_eq!(contract(pass, &p), ["dead-code-kept 1"]);
    assert_eq!(opt_dead_code_eliminate::run(&mut p, &opts), Ok(true));
    assert_eq!(opt_dead_code_eliminate::run(&mut p, &opts), Ok(false));
    assert!(contract(pass, &p).is_empty());
    assert_eq!(p.inst_count(), 2);
}
