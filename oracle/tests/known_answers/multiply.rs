//! Integer multiply: the 32×16 multiplier of parts without DxD (docs/hardware/eu-hardware.md §4,
//! docs/hardware/brw-backend.md §6), MUL + MACH for the high dword, native DxD on BDW/SKL, Q×Q.
//! Products below are worked out by hand in the comments.

use crate::common::*;
use crate::{Setup, all, grf, run, vgrf};
use compiler::types::Type;

fn uds(v: &[u32]) -> Vec<compiler::Value> {
    v.iter().map(|&x| ud(x)).collect()
}

#[test]
fn ivb_dword_multiply_reads_src1_low_word_unsigned() {
    // §4: without DxD, MUL reads 32 bits of src0 and the low 16 bits of src1, as the
    // unsigned partial product MACH completes (docs/hardware/brw-backend.md §6 case 3).
    //   3 × 0x0002 = 6;  −2 × 0xffff = −131070 = 0xfffe0002;  5 × 0x8000 = 0x28000;
    //   −1 × 0x8000 = 0xffff8000;  0x12345678 × 0 = 0;  7 × 0xffff = 0x6fff9;
    //   −7 × 0 = 0;  100 × 3 = 0x12c.
    let a = uds(&[
        3,
        (-2i32) as u32,
        5,
        u32::MAX,
        0x1234_5678,
        7,
        (-7i32) as u32,
        100,
    ]);
    let b = uds(&[
        0x1_0002,
        u32::MAX,
        0x8000,
        0xffff_8000,
        0x1_0000,
        0xffff,
        0xffff_0000,
        0x7fff_0003,
    ]);
    let regs = run(
        Setup::strict("ivb", 8),
        "mul(8) g20<8;8,1>:D, g1<8;8,1>:D, g5<8;8,1>:D",
        &[&a, &b],
    );
    assert_eq!(
        grf(&regs, 20, Type::UD, 8),
        all(&[6, 0xfffe_0002, 0x28000, 0xffff_8000, 0, 0x6fff9, 0, 0x12c])
    );
    // A W src1 (the same low words, read as signed words) is a plain D×W multiply:
    //   3·2 = 6; −2·−1 = 2; 5·−32768 = −163840 = 0xfffd8000; −1·−32768 = 0x8000; 0;
    //   7·−1 = 0xfffffff9; 0; 100·3 = 0x12c.
    let regs = run(
        Setup::strict("ivb", 8),
        "mul(8) g20<8;8,1>:D, g1<8;8,1>:D, g5<16;8,2>:W",
        &[&a, &b],
    );
    assert_eq!(
        grf(&regs, 20, Type::UD, 8),
        all(&[6, 2, 0xfffd_8000, 0x8000, 0, 0xffff_fff9, 0, 0x12c])
    );
}

/// Signed operand pairs and their 64-bit products, split by hand into (high, low) dwords.
fn signed_pairs() -> (
    Vec<compiler::Value>,
    Vec<compiler::Value>,
    [u64; 8],
    [u64; 8],
) {
    let a = [
        -1,
        -1,
        i32::MIN,
        i32::MIN,
        i32::MAX,
        -3,
        0x1_0000,
        -0x1_0000,
    ];
    let b = [-1, 1, i32::MIN, -1, i32::MAX, 5, 0x1_0000, 0x1_0000];
    // (−1)(−1) = 1; (−1)(1) = −1; (−2^31)² = 2^62; (−2^31)(−1) = 2^31;
    // (2^31 − 1)² = 2^62 − 2^32 + 1 = 0x3fffffff_00000001; (−3)(5) = −15;
    // 2^16 · 2^16 = 2^32; −2^16 · 2^16 = −2^32.
    let high = [
        0,
        0xffff_ffff,
        0x4000_0000,
        0,
        0x3fff_ffff,
        0xffff_ffff,
        1,
        0xffff_ffff,
    ];
    let low = [1, 0xffff_ffff, 0, 0x8000_0000, 1, 0xffff_fff1, 0, 0];
    (a.map(d).to_vec(), b.map(d).to_vec(), high, low)
}

#[test]
fn gen7_mul_mach_with_a_dword_src1_gives_the_exact_product() {
    // Gen7 form (docs/hardware/brw-backend.md §6 case 3: src1 is retyped to UW only on Gen8+):
    // mul acc0, a:D, b:D + mach dst, a, b → dst = high dword, acc0 = low dword (§4).
    // Before the fix, (−1)×(−1) left 0x00010001 in acc0.
    let (a, b, high, low) = signed_pairs();
    let body = "mul(8) acc0<8;8,1>:D, g1<8;8,1>:D, g5<8;8,1>:D\n\
                mach(8) g20<8;8,1>:D, g1<8;8,1>:D, g5<8;8,1>:D\n\
                mov(8) g21<8;8,1>:D, acc0<8;8,1>:D";
    for target in ["ivb", "hsw"] {
        let regs = run(Setup::strict(target, 8), body, &[&a, &b]);
        assert_eq!(grf(&regs, 20, Type::UD, 8), all(&high), "{target} high");
        assert_eq!(grf(&regs, 21, Type::UD, 8), all(&low), "{target} low");
    }
}

#[test]
fn gen8_mul_mach_with_the_low_words_of_src1() {
    // Gen8+ form (docs/hardware/brw-backend.md §6 case 3): src1 of the MUL retyped to UW with its stride
    // doubled (the low words), then MACH: the same exact product as above.
    let (a, b, high, low) = signed_pairs();
    let body = "mul(8) acc0<8;8,1>:D, g1<8;8,1>:D, g5<16;8,2>:UW\n\
                mach(8) g20<8;8,1>:D, g1<8;8,1>:D, g5<8;8,1>:D\n\
                mov(8) g21<8;8,1>:D, acc0<8;8,1>:D";
    for target in ["skl", "chv", "icl"] {
        let regs = run(Setup::strict(target, 8), body, &[&a, &b]);
        assert_eq!(grf(&regs, 20, Type::UD, 8), all(&high), "{target} high");
        assert_eq!(grf(&regs, 21, Type::UD, 8), all(&low), "{target} low");
    }
}

#[test]
fn unsigned_mul_mach() {
    // (2^32−1)² = 0xfffffffe_00000001; 2^31·2 = 2^32; (2^32−1)·1; 2^31·2^31 = 2^62;
    // 3·(2^32 − 2^15) = 3·2^32 − 0x18000 = 0x2_fffe8000; 2^16·2^16; 0·x; 0xffff² = 0xfffe0001.
    let a = uds(&[
        u32::MAX,
        0x8000_0000,
        u32::MAX,
        0x8000_0000,
        3,
        0x1_0000,
        0,
        0xffff,
    ]);
    let b = uds(&[
        u32::MAX,
        2,
        1,
        0x8000_0000,
        0xffff_8000,
        0x1_0000,
        u32::MAX,
        0xffff,
    ]);
    let body = "mul(8) acc0<8;8,1>:UD, g1<8;8,1>:UD, g5<8;8,1>:UD\n\
                mach(8) g20<8;8,1>:UD, g1<8;8,1>:UD, g5<8;8,1>:UD\n\
                mov(8) g21<8;8,1>:UD, acc0<8;8,1>:UD";
    let regs = run(Setup::strict("ivb", 8), body, &[&a, &b]);
    assert_eq!(
        grf(&regs, 20, Type::UD, 8),
        all(&[0xffff_fffe, 1, 0, 0x4000_0000, 2, 1, 0, 0])
    );
    assert_eq!(
        grf(&regs, 21, Type::UD, 8),
        all(&[1, 0, u32::MAX as u64, 0, 0xfffe_8000, 0, 0, 0xfffe_0001])
    );
}

#[test]
fn native_dword_multiply_keeps_the_low_dword() {
    // §4: BDW and big-core Gfx9 multiply 32×32; a D destination gets the low 32 bits.
    //   0x10002·3 = 0x30006; (−1)(−1) = 1; 2^16·2^16 = 2^32 → 0; (2^31−1)·2 = 0xfffffffe;
    //   (−3)·5 = 0xfffffff1; 0x12345678·16 = 0x1_23456780 → 0x23456780;
    //   (−2^31)(−1) = 2^31 → 0x80000000; 65535·65537 = 2^32 − 1.
    let a = [
        0x1_0002,
        -1,
        0x1_0000,
        i32::MAX,
        -3,
        0x1234_5678,
        i32::MIN,
        65535,
    ]
    .map(d);
    let b = [3, -1, 0x1_0000, 2, 5, 16, -1, 65537].map(d);
    for target in ["bdw", "skl"] {
        let regs = run(
            Setup::strict(target, 8),
            "mul(8) g20<8;8,1>:D, g1<8;8,1>:D, g5<8;8,1>:D",
            &[&a, &b],
        );
        assert_eq!(
            grf(&regs, 20, Type::UD, 8),
            all(&[
                0x3_0006,
                1,
                0,
                0xffff_fffe,
                0xffff_fff1,
                0x2345_6780,
                0x8000_0000,
                0xffff_ffff
            ]),
            "{target}"
        );
    }
}

#[test]
fn qword_products() {
    // Q×Q keeps the low 64 bits: (2^32+1)² = 2^64 + 2^33 + 1 → 0x2_00000001; (−1)² = 1;
    // (−2^63)(−1) = 2^63 → 0x8000000000000000; 2^32·2^32 = 2^64 → 0.
    let a = [(1i64 << 32) + 1, -1, i64::MIN, 1 << 32].map(q);
    let b = [(1i64 << 32) + 1, -1, -1, 1 << 32].map(q);
    let regs = run(
        Setup::logical("bdw", 8),
        "mul(4) v0:Q, attr0:Q, attr1:Q { NoMask }",
        &[&a, &b],
    );
    assert_eq!(
        vgrf(&regs, 0, Type::UQ, 4),
        all(&[0x2_0000_0001, 1, 0x8000_0000_0000_0000, 0])
    );
    // D×D into Q: the full 64-bit product (§4 "with a UQ destination the full 64-bit
    // product"): (−1)² = 1; (−2^31)² = 2^62; (2^31−1)(−1) = 0xffffffff_80000001; −15.
    let a = [-1, i32::MIN, i32::MAX, -3].map(d);
    let b = [-1, i32::MIN, -1, 5].map(d);
    let regs = run(
        Setup::logical("bdw", 8),
        "mul(4) v0:Q, attr0:D, attr1:D { NoMask }",
        &[&a, &b],
    );
    assert_eq!(
        vgrf(&regs, 0, Type::UQ, 4),
        all(&[
            1,
            0x4000_0000_0000_0000,
            0xffff_ffff_8000_0001,
            0xffff_ffff_ffff_fff1
        ])
    );
}
