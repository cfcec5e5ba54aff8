//! Tests of `split_virtual_grfs` (docs/hardware/brw-backend.md §7.1 pre-loop): registers of a VGRF that
//! no operand accesses together become separate VGRFs; registers an operand spans stay
//! together.

mod common;

use common::opt_pass::*;
use compiler::passes::split_virtual_grfs::{self, run};

/// v0 (4 registers) used one register at a time, v1 (4 registers) as one colour payload;
/// the harness also declares v2..v7, which no operand names.
const BODY: &str = "
    add(8) v0:F, attr0:F, attr1:F
    mul(8) v0+32:F, attr0:F, attr2:F
    mov(16) v0+64:F, attr1:F { NoMask }
    mov(8) v1:F, v0:F
    mov(8) v1+32:F, v0+32:F
    add(8) v1+64:F, v0+64:F, v0+96:F
    mov(8) v1+96:F, 1.0:F
    fb_write_logical(8) null:UD, v1:F, 4:UD, 0:UD { EOT }
";

#[test]
fn registers_used_apart_become_separate_vgrfs() {
    // v0's registers 0 and 1 are used alone; 2 and 3 are written by one SIMD16 MOV.
    let input = program("skl", 8, BODY);
    // Before the split no operand crosses v0's first boundary: the pass's contract names it.
    assert_eq!(
        contract(&split_virtual_grfs::PASS, &input),
        ["unsplit-vgrf -"]
    );
    let output = expect_progress(
        run,
        &input,
        "
        add(8) v0:F, attr0:F, attr1:F
        mul(8) v8:F, attr0:F, attr2:F
        mov(16) v9:F, attr1:F { NoMask }
        mov(8) v1:F, v0:F
        mov(8) v1+32:F, v8:F
        add(8) v1+64:F, v9:F, v9+32:F
        mov(8) v1+96:F, 1.0:F
        fb_write_logical(8) null:UD, v1:F, 4:UD, 0:UD { EOT }
        ",
    );
    assert_eq!(output.vgrf_sizes, vec![1, 4, 4, 4, 4, 4, 4, 4, 1, 2]);
    // v9's one boundary is crossed by the SIMD16 MOV that writes it.
    assert!(contract(&split_virtual_grfs::PASS, &output).is_empty());
}

#[test]
fn vgrfs_whose_registers_are_always_used_together_are_left() {
    let text = "eu 1\ntarget skl\ndispatch 16\nattr attr0 2\nvgrf v0 2\nvgrf v1 8\nSTART B0\n\
                mov(16) v0:F, attr0:F\nmov(16) v1:F, v0:F\nmov(16) v1+64:F, 0.0:F\n\
                mov(16) v1+128:F, 0.0:F\nmov(16) v1+192:F, 0.0:F\n\
                fb_write_logical(16) null:UD, v1:F, 4:UD, 0:UD { EOT }\nEND B0\n";
    let input = parse(text);
    expect_no_progress(run, &input);
    assert!(contract(&split_virtual_grfs::PASS, &input).is_empty());
}
