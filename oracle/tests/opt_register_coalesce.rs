//! Mesa-style tests of `opt_register_coalesce` (docs/hardware/brw-backend.md §7.1 step 12, §10.3 32,
//! §11.12, §11.13): a whole-VGRF `mov y, x` whose registers' live ranges do not interfere
//! is deleted by renaming y to x; the negative cases show on the emulator that the
//! forbidden coalescing would change an output.

mod common;

use common::opt_pass::*;
use compiler::passes::opt_register_coalesce::run;

/// A SKL SIMD8 program over attr0/attr1 (one register each), one-register VGRFs v0..v5,
/// v9 and v10, the two-register VGRFs v6 and v7, and the colour v8, from `blocks` (instructions, or
/// `START`/`END` blocks) ending with the render-target write of v8.
fn coalesce_program(blocks: &str) -> compiler::program::Program {
    let vgrfs = "vgrf v0 1\nvgrf v1 1\nvgrf v2 1\nvgrf v3 1\nvgrf v4 1\nvgrf v5 1\n\
                 vgrf v6 2\nvgrf v7 2\nvgrf v8 4\nvgrf v9 1\nvgrf v10 1\n";
    let body = if blocks.contains("START B") {
        blocks.to_string()
    } else {
        format!("START B0\n{blocks}\nEND B0\n")
    };
    parse(&format!(
        "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\n{vgrfs}{body}"
    ))
}

const WRITE: &str = "fb_write_logical(8) null:UD, v8:F, 4:UD, 0:UD { EOT }";

/// `lines`, then v8 = (`a`, `b`, 0, 0) and the write.
fn colour(lines: &str, a: &str, b: &str) -> String {
    format!(
        "{lines}
        mov(8) v8:F, {a}
        mov(8) v8+32:F, {b}
        mov(8) v8+64:F, 0.0:F
        mov(8) v8+96:F, 0.0:F
        {WRITE}"
    )
}

#[test]
fn a_copy_whose_source_dies_there_is_coalesced() {
    // x (v0) is not used after the MOV and y (v1) not before it: y becomes x.
    let input = coalesce_program(&colour(
        "
        add(8) v0:F, attr0:F, attr1:F
        mov(8) v1:F, v0:F
        mul(8) v2:F, v1:F, v1:F
        ",
        "v2:F",
        "v1:F",
    ));
    expect_progress(
        run,
        &input,
        &colour(
            "
            add(8) v0:F, attr0:F, attr1:F
            mul(8) v2:F, v0:F, v0:F
            ",
            "v2:F",
            "v0:F",
        ),
    );
}

#[test]
fn registers_interfere() {
    // §10.3 32 `RegistersInterfere`: x is redefined while y is still live.
    let lines = |y: &str, mov: &str| {
        format!(
            "
            add(8) v0:F, attr0:F, attr1:F
            {mov}
            add(8) v0:F, v0:F, v0:F
            mul(8) v2:F, {y}:F, attr0:F
            add(8) v3:F, {y}:F, {y}:F
            "
        )
    };
    let input = coalesce_program(&colour(&lines("v1", "mov(8) v1:F, v0:F"), "v2:F", "v3:F"));
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &colour(&lines("v0", ""), "v2:F", "v3:F"));
}

#[test]
fn changing_temporary_compound_register_not_changes_original() {
    // §10.3 32 `ChangingTemporaryCompoundRegisterNotChangesOriginal`: the two-component
    // v6 is copied component by component into v7, whose second component is then
    // changed; v6's must stay as it was. No MOV copies a whole VGRF.
    let lines = |t: &str, movs: &str| {
        format!(
            "
            add(8) v6:F, attr0:F, attr1:F
            mul(8) v6+32:F, attr0:F, attr1:F
            {movs}
            add(8) {t}+32:F, {t}+32:F, 1.0:F
            add(8) v2:F, {t}:F, {t}+32:F
            "
        )
    };
    let copies = "mov(8) v7:F, v6:F\n mov(8) v7+32:F, v6+32:F";
    let input = coalesce_program(&colour(&lines("v7", copies), "v2:F", "v6+32:F"));
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &colour(&lines("v6", ""), "v2:F", "v6+32:F"));
}

#[test]
fn a_mov_with_a_conditional_modifier_is_not_coalesced() {
    // §11.13 (Mesa e581ddeeeec): deleting `mov.nz y, x` would delete its flag write too;
    // the SEL would see the flag the compare before it left.
    let lines = |mov: &str, y: &str| {
        format!(
            "
            cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
            add(8) v0:F, attr0:F, attr1:F
            {mov}
            (+f0.0) sel(8) v2:F, {y}:F, attr1:F
            "
        )
    };
    let input = coalesce_program(&colour(
        &lines("mov.nz.f0.0(8) v1:F, v0:F", "v1"),
        "v2:F",
        "0.0:F",
    ));
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &colour(&lines("", "v0"), "v2:F", "0.0:F"));
}

#[test]
fn a_partial_or_modified_copy_is_not_coalesced() {
    // A predicated MOV leaves y's other channels as they were, a negating or saturating
    // one changes the value, a type-converting one the bits.
    let input = coalesce_program(&colour(
        "
        add(8) v0:F, attr0:F, attr1:F
        add(8) v1:F, attr0:F, 1.0:F
        add(8) v2:F, attr1:F, 1.0:F
        add(8) v3:D, attr0:D, 1:D
        cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
        (+f0.0) mov(8) v4:F, v0:F
        mov(8) v5:F, -v1:F
        mov.sat(8) v9:F, v2:F
        mov(8) v10:F, v3:D
        add(8) v4:F, v4:F, v5:F
        add(8) v4:F, v4:F, v9:F
        ",
        "v4:F",
        "v10:F",
    ));
    expect_no_progress(run, &input);
}

/// The §11.12 loop: x (v0) advanced with NoMask each iteration, y (v1) = x when a
/// channel leaves after attr0 iterations, y read after the loop as `read`; `copy` is the
/// MOV (or nothing).
fn divergent_loop(copy: &str, read: &str) -> String {
    format!(
        "
        START B0
            mov(8) v0:D, 0:D {{ NoMask }}
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
            {copy}
            break(8)
        END B3
        START B4
            endif(8)
            while(8)
        END B4
        START B5
            {}
        END B5
        ",
        colour("", &format!("{read}:D"), "0.0:F")
    )
}

#[test]
fn a_copy_out_of_a_divergent_loop_is_not_coalesced() {
    // §11.12 (Mesa 76b4255cd80), §9.1: the channels that broke out need y while the thread
    // runs the body again for the others, whose NoMask ADD also advances x in the channels
    // that left: y lives through the loop (physical edges), so it interferes with x.
    let mut input = coalesce_program(&divergent_loop("mov(8) v1:D, v0:D", "v1"));
    input.inputs = Some(trip_counts());
    expect_no_progress(run, &input);
    let forbidden = divergent_loop("", "v0")
        .lines()
        .filter(|l| !l.trim().starts_with("START") && !l.trim().starts_with("END"))
        .collect::<Vec<_>>()
        .join("\n");
    expect_forbidden_rewrite_differs(&input, &forbidden);
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
