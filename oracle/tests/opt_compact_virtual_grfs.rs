//! Tests of `compact_virtual_grfs` (docs/hardware/brw-backend.md §7.1 step 15): unused VGRFs go, the
//! others are renumbered in order with their sizes.

mod common;

use common::opt_pass::*;
use compiler::passes::compact_virtual_grfs::{PASS, run};

#[test]
fn unused_vgrfs_are_dropped_and_the_rest_renumbered() {
    // The harness declares v0..v7 of four registers each; only v3 (one register used) and
    // v6 are named.
    let input = program(
        "skl",
        8,
        "
        add(8) v3:F, attr0:F, attr1:F
        mov(8) v6:F, v3:F
        mov(8) v6+32:F, 0.0:F
        mov(8) v6+64:F, 0.0:F
        mov(8) v6+96:F, 0.0:F
        fb_write_logical(8) null:UD, v6:F, 4:UD, 0:UD { EOT }
        ",
    );
    // Six of the eight VGRFs are named by no operand.
    assert_eq!(contract(&PASS, &input).len(), 6);
    let output = expect_progress(
        run,
        &input,
        "
        add(8) v0:F, attr0:F, attr1:F
        mov(8) v1:F, v0:F
        mov(8) v1+32:F, 0.0:F
        mov(8) v1+64:F, 0.0:F
        mov(8) v1+96:F, 0.0:F
        fb_write_logical(8) null:UD, v1:F, 4:UD, 0:UD { EOT }
        ",
    );
    assert_eq!(output.vgrf_sizes, vec![4, 4]);
    assert!(contract(&PASS, &output).is_empty());
}

#[test]
fn a_program_using_every_vgrf_is_left() {
    let text = "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nvgrf v0 1\nvgrf v1 4\nSTART B0\n\
                mov(8) v0:F, attr0:F\nmov(8) v1:F, v0:F\nmov(8) v1+32:F, 0.0:F\n\
                mov(8) v1+64:F, 0.0:F\nmov(8) v1+96:F, 0.0:F\n\
                fb_write_logical(8) null:UD, v1:F, 4:UD, 0:UD { EOT }\nEND B0\n";
    let input = parse(text);
    expect_no_progress(run, &input);
    assert!(contract(&PASS, &input).is_empty());
}
