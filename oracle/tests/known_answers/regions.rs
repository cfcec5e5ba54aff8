//! Regions: docs/hardware/eu-hardware.md §1.2 (Align1 address of each channel: row = i / W, col = i % W,
//! byte = base + (row·V + col·H)·S; destination base + i·Hd·Sd) and docs/hardware/brw-backend.md §1.4
//! (VGRF element stride). attr0 holds 0, 1, 2, … 31 as UD in g1..g4.

use crate::common::*;
use crate::{Setup, all, grf, run, vgrf};
use compiler::types::Type;

fn ramp() -> Vec<compiler::Value> {
    (0..32).map(ud).collect()
}

#[test]
fn scalar_region_broadcasts_one_element() {
    // <0;1,0> at g1.5: row·0 + col·0 → every channel reads element 5 (§1.2).
    let regs = run(
        Setup::strict("skl", 8),
        "mov(8) g20<8;8,1>:UD, g1.5<0;1,0>:UD",
        &[&ramp()],
    );
    assert_eq!(grf(&regs, 20, Type::UD, 8), all(&[5; 8]));
}

#[test]
fn two_dimensional_region_8_4_2() {
    // <8;4,2>: channel i reads element (i/4)·8 + (i%4)·2 → 0 2 4 6 | 8 10 12 14 (§1.2).
    let regs = run(
        Setup::strict("skl", 8),
        "mov(8) g20<8;8,1>:UD, g1<8;4,2>:UD",
        &[&ramp()],
    );
    assert_eq!(
        grf(&regs, 20, Type::UD, 8),
        all(&[0, 2, 4, 6, 8, 10, 12, 14])
    );
}

#[test]
fn row_repeat_region_0_4_1() {
    // <0;4,1> from g1.4: rows of four that never advance → 4 5 6 7 4 5 6 7 (§1.2).
    let regs = run(
        Setup::strict("skl", 8),
        "mov(8) g20<8;8,1>:UD, g1.4<0;4,1>:UD",
        &[&ramp()],
    );
    assert_eq!(grf(&regs, 20, Type::UD, 8), all(&[4, 5, 6, 7, 4, 5, 6, 7]));
}

#[test]
fn strided_destination_leaves_the_gaps_alone() {
    // Destination <2>: channel i lands at element 2i (§1.2 "base + i·Hd·Sd"); the odd
    // elements of g20 are never written and stay undefined.
    let regs = run(
        Setup::strict("skl", 8),
        "mov(4) g20<8;4,2>:UD, g1<4;4,1>:UD { NoMask }",
        &[&ramp()],
    );
    assert_eq!(
        grf(&regs, 20, Type::UD, 8),
        vec![Some(0), None, Some(1), None, Some(2), None, Some(3), None]
    );
}

#[test]
fn word_region_reads_the_low_words_of_dwords() {
    // UW <16;8,2>: element (col·2) words → the low word of dword i, i.e. i (§1.2, S = 2).
    let regs = run(
        Setup::strict("skl", 8),
        "mov(8) g20<8;8,1>:UW, g1<16;8,2>:UW",
        &[&ramp()],
    );
    assert_eq!(grf(&regs, 20, Type::UW, 8), all(&[0, 1, 2, 3, 4, 5, 6, 7]));
}

#[test]
fn vgrf_stride_and_byte_offset() {
    // A VGRF operand `attr0+8<2>` reads element 2 + 2c (docs/hardware/brw-backend.md §1.4: stride in
    // elements, offset in bytes): 2 4 6 … 16.
    let regs = run(
        Setup::logical("skl", 8),
        "mov(8) v0:UD, attr0+8<2>:UD",
        &[&ramp()],
    );
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 8),
        all(&[2, 4, 6, 8, 10, 12, 14, 16])
    );
}
