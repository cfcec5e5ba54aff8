//! Mesa-style tests of `opt_redundant_halt` (docs/hardware/brw-backend.md §7.2 `opt_remove_redundant_halts`,
//! §7.1 `opt_redundant_discard_jumps`; HALT semantics §9.2): a HALT that its HALT_TARGET
//! follows with nothing in between, and a HALT_TARGET no HALT reaches, are removed; the
//! negative cases show on the emulator that removing them elsewhere changes an output.

mod common;

use common::opt_pass::*;
use compiler::passes::opt_redundant_halt::{PASS, run};

/// The colour (v0..v3 of attr0, as F) written at the end.
const WRITE: &str = "    fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }";

/// v2 = attr0 in all four components, before anything is halted.
const INIT: &str = "    mov(8) v2:F, attr0:F
    mov(8) v2+32:F, attr0:F
    mov(8) v2+64:F, attr0:F
    mov(8) v2+96:F, attr0:F";

#[test]
fn halt_right_before_its_target_is_removed() {
    // §9.2: the halted channels are re-enabled at once; with the HALT gone nothing halts,
    // so the HALT_TARGET goes too.
    let input = program(
        "skl",
        8,
        &format!(
            "{INIT}
    cmp.l.f0.0(8) null:F, attr1:F, 0.5:F
    (+f0.0) halt(8)
    halt_target(8)
{WRITE}"
        ),
    );
    assert_eq!(contract(&PASS, &input), ["redundant-halt-kept 5"]);
    let output = expect_progress(
        run,
        &input,
        &format!(
            "{INIT}
    cmp.l.f0.0(8) null:F, attr1:F, 0.5:F
{WRITE}"
        ),
    );
    assert!(contract(&PASS, &output).is_empty());
}

#[test]
fn halts_separated_from_the_target_by_nops_and_halts_are_removed() {
    // A NOP does nothing for any channel, so it does not matter who skips it; the earlier
    // HALT is then just as close to the target.
    let input = program(
        "skl",
        8,
        &format!(
            "{INIT}
    cmp.l.f0.0(8) null:F, attr1:F, 0.5:F
    (+f0.0) halt(8)
    nop(8)
    (-f0.0) halt(8)
    halt_target(8)
{WRITE}"
        ),
    );
    expect_progress(
        run,
        &input,
        &format!(
            "{INIT}
    cmp.l.f0.0(8) null:F, attr1:F, 0.5:F
    nop(8)
{WRITE}"
        ),
    );
}

#[test]
fn a_target_without_a_halt_is_removed() {
    let input = program("skl", 8, &format!("{INIT}\n    halt_target(8)\n{WRITE}"));
    expect_progress(run, &input, &format!("{INIT}\n{WRITE}"));
}

#[test]
fn a_second_target_with_no_halt_since_the_first_is_removed() {
    // Nothing is halted when the second HALT_TARGET runs: the first re-enabled everything.
    let body = |second: &str| {
        format!(
            "{INIT}
    cmp.l.f0.0(8) null:F, attr1:F, 0.5:F
    (+f0.0) halt(8)
    mov(8) v2:F, 1.0:F
    halt_target(8)
    mov(8) v2+32:F, 2.0:F
{second}{WRITE}"
        )
    };
    let input = program("skl", 8, &body("    halt_target(8)\n"));
    assert_eq!(contract(&PASS, &input), ["redundant-halt-kept 9"]);
    let output = expect_progress(run, &input, &body(""));
    assert!(contract(&PASS, &output).is_empty());
}

#[test]
fn not_with_work_between_halt_and_target() {
    // The halted channels must skip the MOV: removing the HALT lets them run it.
    let body = |halt: &str| {
        format!(
            "{INIT}
    cmp.l.f0.0(8) null:F, attr1:F, 0.5:F
{halt}    mov(8) v2:F, 1.0:F
    halt_target(8)
{WRITE}"
        )
    };
    let input = program("skl", 8, &body("    (+f0.0) halt(8)\n"));
    expect_no_progress(run, &input);
    assert!(contract(&PASS, &input).is_empty());
    expect_forbidden_rewrite_differs(&input, &body(""));
}

#[test]
fn only_the_first_target_is_paired() {
    // The pass pairs a HALT with the program's first HALT_TARGET only (it keeps its model
    // of which target a HALT reaches simple). This HALT stands before a later target, so
    // it stays, although halted channels would wake at that very target (§9.2: at the
    // next HALT_TARGET) and removing it would change nothing: a missed removal, not a
    // wrong one, so the emulator shows no difference to demand here.
    let body = |halt: &str| {
        format!(
            "{INIT}
    halt_target(8)
    cmp.z.f0.0(8) null:F, attr0:F, attr0:F
{halt}    halt_target(8)
{WRITE}"
        )
    };
    let input = program("skl", 8, &body("    (+f0.0) halt(8)\n"));
    expect_no_progress(run, &input);
    assert!(contract(&PASS, &input).is_empty());
    assert_eq!(disagreement(&input, &program("skl", 8, &body(""))), None);
}
