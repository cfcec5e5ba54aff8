//! Mesa-style tests of `move_load_const` (issue 10: Mesa's 2018 `nir_move_load_const`
//! idea; docs/hardware/brw-backend.md §9.1/§9.2 for what the execution mask does across blocks): a
//! whole-VGRF constant load sinks into its one using block, never into a loop it was
//! outside of, never past a second using block, never where a use reads channels the
//! moved load would not write; each decision is noted in the pass record.

mod common;

use common::opt_pass::*;
use compiler::pass::CompileOptions;
use compiler::passes::move_load_const::run;
use compiler::pipeline::compile;
use compiler::program::Program;

/// A program with one-register v0, v1, v3 (one SIMD8 F value each), the four-component
/// colour v2, three attrs, `body` (blocks included) and `inputs` (an INPUTS section body).
fn prog(body: &str, inputs: &str) -> Program {
    parse(&format!(
        "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nattr attr2 1\n\
         vgrf v0 1\nvgrf v1 1\nvgrf v2 4\nvgrf v3 1\n{body}\nINPUTS\n{inputs}\nEND INPUTS\n"
    ))
}

/// Lanes 0–3 take the IF (attr2 < 0), lanes 4–7 do not.
const HALF_AND_HALF: &str = "
    thread 0 attr0 1.0:F*8
    thread 0 attr1 2.0:F*8
    thread 0 attr2 -1.0:F*4 1.0:F*4
";

/// The kinds `move_load_const` notes in its first run on `p` in the default pipeline.
fn notes(p: &Program) -> Vec<&'static str> {
    let c = compile(
        p,
        &CompileOptions {
            stop_after: Some("move_load_const#1".into()),
            // Constant propagation would fold the load into its two-source reads first.
            skip: vec!["opt_copy_propagation".into()],
            ..Default::default()
        },
    );
    let last = c.passes.last().expect("passes ran");
    assert_eq!(last.label, "move_load_const#1");
    last.rewrites.clone()
}

/// `top` in B0 before an IF on attr2 < 0, `then` inside it, `after` after the ENDIF,
/// then the colour write (v2 and v2+32 set by the caller).
fn diamond(top: &str, then: &str, after: &str) -> String {
    format!(
        "
        START B0
            mov(8) v2:F, attr0:F
            mov(8) v2+32:F, attr1:F
            {top}
            cmp.l.f0.0(8) null:F, attr2:F, 0.0:F
            (+f0.0) if(8)
        END B0
        START B1
            {then}
        END B1
        START B2
            endif(8)
            {after}
            mov(8) v2+64:F, attr2:F
            mov(8) v2+96:F, attr2:F
            fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD {{ EOT }}
        END B2
        "
    )
}

#[test]
fn a_load_used_only_inside_an_if_sinks_before_its_use() {
    // The MUL is masked and reads v0 in its own channels: the channels that run it are the
    // ones the moved load writes.
    let load = "mov(8) v0:F, 2.5:F";
    let input = prog(
        &diamond(load, "mul(8) v2:F, attr0:F, v0:F", ""),
        HALF_AND_HALF,
    );
    expect_progress(
        run,
        &input,
        &diamond("", &format!("{load}\nmul(8) v2:F, attr0:F, v0:F"), ""),
    );
    assert_eq!(notes(&input), ["moved"]);
}

#[test]
fn a_load_read_as_a_scalar_after_the_endif_sinks_there() {
    // The scalar read takes channel 0's element whatever channels run the ADD; the block
    // after the ENDIF post-dominates the load's block, so every channel that ran the load
    // also runs the moved one.
    let load = "mov(8) v0:F, 2.5:F";
    let after = "add(8) v2+32:F, v0<0>:F, attr1:F";
    let input = prog(&diamond(load, "mov(8) v2:F, attr1:F", after), HALF_AND_HALF);
    expect_progress(
        run,
        &input,
        &diamond("", "mov(8) v2:F, attr1:F", &format!("{load}\n{after}")),
    );
}

#[test]
fn a_nomask_load_sinks_even_before_a_nomask_use() {
    // A NoMask load writes every channel wherever it stands (§9.2).
    let load = "mov(8) v0:F, 2.5:F { NoMask }";
    let then = "mov(8) v2:F, v0:F { NoMask }";
    let input = prog(&diamond(load, then, ""), HALF_AND_HALF);
    expect_progress(run, &input, &diamond("", &format!("{load}\n{then}"), ""));
}

#[test]
fn uses_in_two_blocks_keep_the_load() {
    // Sunk into the later block, the load would run after the MUL inside the IF reads v0.
    let then = "mul(8) v2:F, attr0:F, v0:F";
    let after = "add(8) v2+32:F, v0:F, attr1:F";
    let input = prog(&diamond("mov(8) v0:F, 2.5:F", then, after), HALF_AND_HALF);
    expect_no_progress(run, &input);
    assert_eq!(notes(&input), ["not-moved-multi-block"]);
    expect_forbidden_rewrite_differs(
        &input,
        &diamond("", then, &format!("mov(8) v0:F, 2.5:F\n{after}")),
    );
}

#[test]
fn a_nomask_use_inside_an_if_keeps_a_masked_load() {
    // The NoMask MOV copies all eight channels of v0, but only the channels that take the
    // IF would run the moved load: lanes 4-7 would copy an undefined value.
    let then = "mov(8) v2:F, v0:F { NoMask }";
    let input = prog(&diamond("mov(8) v0:F, 2.5:F", then, ""), HALF_AND_HALF);
    expect_no_progress(run, &input);
    assert_eq!(notes(&input), ["not-moved-channels"]);
    expect_forbidden_rewrite_differs(
        &input,
        &diamond("", &format!("mov(8) v0:F, 2.5:F\n{then}"), ""),
    );
}

/// Before a loop, `top`; in the loop, the lanes with an odd attr0 skip the first
/// iteration's read (CONTINUE), `read` reads v0 as a scalar into v2, and everyone breaks.
fn continue_loop(top: &str, read: &str) -> String {
    format!(
        "
        START B0
            mov(8) v2+32:F, attr1:F
            {top}
            and(8) v1:UD, attr0:UD, 1:UD
        END B0
        START B1
            do(8)
        END B1
        START B2
            cmp.nz.f0.0(8) null:UD, v1:UD, 0:UD
            mov(8) v1:UD, 0:UD
            (+f0.0) cont(8)
        END B2
        START B3
            {read}
            break(8)
        END B3
        START B4
            while(8)
        END B4
        START B5
            mov(8) v2+64:F, attr2:F
            mov(8) v2+96:F, attr2:F
            fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD {{ EOT }}
        END B5
        "
    )
}

/// Lane 0 continues in the first iteration, the others break in it.
const LANE0_CONTINUES: &str = "
    thread 0 attr0 1:UD 0:UD*7
    thread 0 attr1 2.0:F*8
    thread 0 attr2 3.0:F*8
";

#[test]
fn a_load_is_not_sunk_into_a_loop() {
    // The body block post-dominates the load's block (the only way out is its BREAK), but
    // lane 0 reaches it only in the second iteration: sunk, the load has not written
    // channel 0 when the first iteration's scalar read takes it, and lanes 1-7 leave the
    // loop with an undefined v2.
    let read = "mov(8) v2:F, v0<0>:F";
    let input = prog(&continue_loop("mov(8) v0:F, 2.5:F", read), LANE0_CONTINUES);
    expect_no_progress(run, &input);
    assert_eq!(notes(&input), ["not-moved-loop"]);
    expect_forbidden_rewrite_differs(
        &input,
        &continue_loop("", &format!("mov(8) v0:F, 2.5:F\n{read}")),
    );
}

/// A loop of three iterations that loads `inside` in its body, then `after` after it.
fn counting_loop(inside: &str, after: &str) -> String {
    format!(
        "
        START B0
            mov(8) v1:UD, 0:UD
            mov(8) v2+32:F, attr1:F
        END B0
        START B1
            do(8)
        END B1
        START B2
            {inside}
            add(8) v1:UD, v1:UD, 1:UD
            cmp.ge.f0.0(8) null:UD, v1:UD, 3:UD
            (+f0.0) break(8)
        END B2
        START B3
            while(8)
        END B3
        START B4
            {after}
            mov(8) v2+64:F, attr2:F
            mov(8) v2+96:F, attr2:F
            fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD {{ EOT }}
        END B4
        "
    )
}

#[test]
fn a_load_in_a_loop_used_after_it_sinks_out_of_the_loop() {
    // Only sinking into a loop is refused: out of it, the load runs once instead of every
    // iteration, for the channels that read it after the loop.
    let load = "mov(8) v0:F, 2.5:F";
    let use_ = "mul(8) v2:F, attr0:F, v0:F";
    let input = prog(&counting_loop(load, use_), HALF_AND_HALF);
    expect_progress(run, &input, &counting_loop("", &format!("{load}\n{use_}")));
}
