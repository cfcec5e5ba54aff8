//! The accumulator's precision: a MOV writes 33 defined bits, an integer MUL the full
//! product, MACH the high dword to its destination and the low dword to the accumulator
//! (docs/hardware/eu-hardware.md §4, docs/hardware/brw-backend.md §1.6, §5.5).

use crate::common::*;
use crate::{Setup, all, run, vgrf};
use compiler::types::Type;

#[test]
fn mov_into_acc0_then_read_back_gives_32_defined_bits() {
    // docs/hardware/brw-backend.md §1.6: a MOV into acc writes a sign-extended 33-bit value.
    let x: Vec<_> = (0..8).map(|i| ud(0xfffe_0000 + i)).collect();
    let body = "mov(8) acc0<8;8,1>:UD, attr0:UD\nmov(8) v0:UD, acc0<8;8,1>:UD";
    let regs = run(Setup::logical("skl", 8), body, &[&x]);
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 8),
        all(&(0..8).map(|i| 0xfffe_0000 + i).collect::<Vec<_>>())
    );
}

#[test]
fn mach_after_a_mov_into_acc0_defines_only_the_low_dword() {
    // §5.5: after a 33-bit MOV into acc0, MACH "completes the multiply from garbage high
    // bits": its destination (the high dword) is undefined. The low dword of acc0 + a·b.hi·2^16
    // only depends on defined bits, so acc0 reads back exactly:
    //   x = c, a = 3, b = 0x0002_0000 (high word 2) → c + 3·2·2^16 = 0x60000 + c.
    let x: Vec<_> = (0..8).map(ud).collect();
    let a = vec![ud(3); 8];
    let b = vec![ud(0x2_0000); 8];
    let body = "mov(8) acc0<8;8,1>:UD, attr0:UD\n\
                mach(8) v0:UD, attr1:UD, attr2:UD\n\
                mov(8) v1:UD, acc0<8;8,1>:UD";
    let regs = run(Setup::logical("skl", 8), body, &[&x, &a, &b]);
    assert!(vgrf(&regs, 0, Type::UD, 8).iter().all(Option::is_none));
    assert_eq!(
        vgrf(&regs, 1, Type::UD, 8),
        all(&(0..8).map(|c| 0x6_0000 + c).collect::<Vec<_>>())
    );
}

#[test]
fn mul_into_acc0_keeps_the_product() {
    // §4: an integer MUL into the accumulator keeps the full product; its low dword reads
    // back: 0x12345 × 0x0003 = 0x369cf (src1 = the low words of attr1).
    let a = vec![ud(0x1_2345); 8];
    let b = vec![ud(0xabcd_0003); 8];
    let body = "mul(8) acc0<8;8,1>:UD, attr0:UD, attr1<2>:UW\nmov(8) v0:UD, acc0<8;8,1>:UD";
    let regs = run(Setup::logical("skl", 8), body, &[&a, &b]);
    assert_eq!(vgrf(&regs, 0, Type::UD, 8), all(&[0x3_69cf; 8]));
}
