//! Bit operations, logic-op negation and shifts. The documents name BFREV, FBH, FBL, CBIT,
//! BFE, BFI1 and BFI2 (docs/hardware/brw-backend.md §1.1) without formulas; the values follow the names
//! and the model written down in alu.rs (FBH/FBL of "nothing found" = −1, BFE sign-extends
//! for D). Logic-op negation: docs/hardware/eu-hardware.md §3.6.

use crate::common::*;
use crate::{Setup, all, run, vgrf};
use compiler::types::Type;

fn uds(v: &[u32]) -> Vec<compiler::Value> {
    v.iter().map(|&x| ud(x)).collect()
}

fn op1(op: &str, ty: &str, a: &[compiler::Value]) -> Vec<Option<u64>> {
    let regs = run(
        Setup::logical("skl", 8),
        &format!("{op}(4) v0:UD, attr0:{ty} {{ NoMask }}"),
        &[a],
    );
    vgrf(&regs, 0, Type::UD, 4)
}

#[test]
fn bit_reverse_count_and_find() {
    // 0x12345678 = 0001 0010 0011 0100 0101 0110 0111 1000, reversed 0x1e6a2c48; it has
    // 1+1+2+1+2+2+3+1 = 13 bits set.
    let a = uds(&[1, 0x1234_5678, 0x8000_0000, 0xf0]);
    assert_eq!(
        op1("bfrev", "UD", &a),
        all(&[0x8000_0000, 0x1e6a_2c48, 1, 0x0f00_0000])
    );
    let a = uds(&[0, u32::MAX, 0x1234_5678, 0x8000_0001]);
    assert_eq!(op1("cbit", "UD", &a), all(&[0, 32, 13, 2]));
    // FBL: index of the lowest set bit; FBH (UD): count of leading zeros before the first
    // one; none found → −1.
    let a = uds(&[0, 1, 0x8000_0000, 0x00f0_0000]);
    assert_eq!(op1("fbl", "UD", &a), all(&[0xffff_ffff, 0, 31, 20]));
    let a = uds(&[0, 1, 0x8000_0000, 0xffff]);
    assert_eq!(op1("fbh", "UD", &a), all(&[0xffff_ffff, 31, 0, 16]));
    // FBH (D): from the MSB to the first bit differing from the sign: −2 → 31,
    // 0x7fffffff → 1, 0x10000 → 15; −1 has none → −1.
    let a = [-1, -2, i32::MAX, 0x1_0000].map(d);
    assert_eq!(op1("fbh", "D", &a), all(&[0xffff_ffff, 31, 1, 15]));
}

#[test]
fn bitfield_extract_and_insert() {
    // BFE(width, offset, value): 4 bits at 4 of 0xf0 = 0xf; 8 at 24 of 0xab000000 = 0xab;
    // width 0 → 0; 4 at 30 keeps the two bits that exist = 3.
    let w = uds(&[4, 8, 0, 4]);
    let o = uds(&[4, 24, 3, 30]);
    let v = uds(&[0xf0, 0xab00_0000, 0xff, 0xc000_0000]);
    let regs = run(
        Setup::logical("skl", 8),
        "bfe(4) v0:UD, attr0:UD, attr1:UD, attr2:UD { NoMask }",
        &[&w, &o, &v],
    );
    assert_eq!(vgrf(&regs, 0, Type::UD, 4), all(&[0xf, 0xab, 0, 3]));
    // BFI1(width, offset) = a mask `width` bits wide at `offset`.
    let regs = run(
        Setup::logical("skl", 8),
        "bfi1(4) v0:UD, attr0:UD, attr1:UD { NoMask }",
        &[&uds(&[4, 0, 1, 8]), &uds(&[4, 5, 31, 8])],
    );
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 4),
        all(&[0xf0, 0, 0x8000_0000, 0xff00])
    );
}

#[test]
fn bfi2_shifts_the_insert_value_to_the_mask() {
    // BFI2(mask, insert, base) = ((insert << tz(mask)) & mask) | (base & ~mask), tz = the
    // mask's trailing zeros (issue item 7; BFI1 + BFI2 is Mesa's bitfieldInsert, alu.rs):
    //   (0xf0, 5, 0x12345678) → 0x50 | 0x12345608 = 0x12345658
    //   (0xff00, 0xab, 0) → 0xab00; (0, ~0, 0x1234) → 0x1234; (0x80000000, 1, 0) → 0x80000000
    let m = uds(&[0xf0, 0xff00, 0, 0x8000_0000]);
    let i = uds(&[5, 0xab, u32::MAX, 1]);
    let b = uds(&[0x1234_5678, 0, 0x1234, 0]);
    let regs = run(
        Setup::logical("skl", 8),
        "bfi2(4) v0:UD, attr0:UD, attr1:UD, attr2:UD { NoMask }",
        &[&m, &i, &b],
    );
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 4),
        all(&[0x1234_5658, 0xab00, 0x1234, 0x8000_0000])
    );
    // bitfieldInsert(0x11111111, 0xcd, offset 8, bits 8) = 0x1111cd11.
    let body = "bfi1(4) v1:UD, 8:UD, 8:UD { NoMask }\n\
                bfi2(4) v0:UD, v1:UD, attr0:UD, attr1:UD { NoMask }";
    let regs = run(
        Setup::logical("skl", 8),
        body,
        &[&uds(&[0xcd; 4]), &uds(&[0x1111_1111; 4])],
    );
    assert_eq!(vgrf(&regs, 0, Type::UD, 4), all(&[0x1111_cd11; 4]));
}

#[test]
fn logic_op_negate_is_not_on_gen8_and_negation_before() {
    // §3.6: on Gen8+ a negate on AND/OR/XOR/NOT sources is bitwise NOT; before Gen8 it is
    // the integer (two's-complement) negation.
    let a = uds(&[1, 0, 5, 0x8000_0000]);
    let ones = uds(&[u32::MAX; 4]);
    let body = "and(4) v0:UD, -attr0:UD, attr1:UD { NoMask }\n\
                not(4) v1:UD, -attr0:UD { NoMask }";
    // Gen9: ~a = 0xfffffffe 0xffffffff 0xfffffffa 0x7fffffff; not(~a) = a.
    let regs = run(Setup::logical("skl", 8), body, &[&a, &ones]);
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 4),
        all(&[0xffff_fffe, 0xffff_ffff, 0xffff_fffa, 0x7fff_ffff])
    );
    assert_eq!(vgrf(&regs, 1, Type::UD, 4), all(&[1, 0, 5, 0x8000_0000]));
    // Gen7: −a = 0xffffffff 0 0xfffffffb 0x80000000; not(−a) = a − 1.
    let regs = run(Setup::logical("ivb", 8), body, &[&a, &ones]);
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 4),
        all(&[0xffff_ffff, 0, 0xffff_fffb, 0x8000_0000])
    );
    assert_eq!(
        vgrf(&regs, 1, Type::UD, 4),
        all(&[0, 0xffff_ffff, 4, 0x7fff_ffff])
    );
}

#[test]
fn shifts_within_the_operand_width() {
    // SHL/SHR logical, ASR arithmetic (counts below 32; the documents do not say what a
    // count ≥ 32 does).
    let regs = run(
        Setup::logical("skl", 8),
        "shl(2) v0:UD, attr0:UD, 31:UD { NoMask }\n\
         shr(2) v1:UD, attr0:UD, 31:UD { NoMask }\n\
         asr(2) v2:D, attr0:D, 31:UD { NoMask }",
        &[&uds(&[1, 0x8000_0000])],
    );
    assert_eq!(vgrf(&regs, 0, Type::UD, 2), all(&[0x8000_0000, 0]));
    assert_eq!(vgrf(&regs, 1, Type::UD, 2), all(&[0, 1]));
    assert_eq!(vgrf(&regs, 2, Type::UD, 2), all(&[0, 0xffff_ffff]));
}
