//! Per-opcode semantics with hand-computed expected values: every ALU opcode over the type
//! combinations the IR allows, with saturate, source modifiers, NaN/Inf/denormals, INT_MIN,
//! 0x8000 and shifts at or beyond the operand width.

mod common;

use common::*;
use compiler::types::Type;

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;

fn fbits(x: f32) -> Option<u64> {
    Some(x.to_bits() as u64)
}

#[test]
fn mov_float_to_int_truncates_clamps_and_zeroes_nan() {
    let a = [
        f(1.5),
        f(-1.5),
        f(2147483648.0),
        f(-3e9),
        f(NAN),
        f(INF),
        f(-0.0),
        f(0.99),
    ];
    let got = alu("skl", "mov(8) v0:D, attr0:F", &[&a], Type::D, 8);
    assert_eq!(
        got,
        bits(&[
            d(1),
            d(-1),
            d(i32::MAX),
            d(i32::MIN),
            d(0),
            d(i32::MAX),
            d(0),
            d(0)
        ])
    );
    let got = alu("skl", "mov(8) v0:UD, attr0:F", &[&a], Type::UD, 8);
    assert_eq!(
        got,
        bits(&[
            ud(1),
            ud(0),
            ud(0x8000_0000),
            ud(0),
            ud(0),
            ud(u32::MAX),
            ud(0),
            ud(0)
        ])
    );
}

#[test]
fn mov_int_to_float_rounds_to_nearest_even() {
    let a = [
        d(16_777_217),
        d(-1),
        d(i32::MIN),
        d(16_777_219),
        d(0),
        d(3),
        d(i32::MAX),
        d(7),
    ];
    let got = alu("skl", "mov(8) v0:F, attr0:D", &[&a], Type::F, 8);
    let want = [
        16_777_216.0,
        -1.0,
        -2147483648.0,
        16_777_220.0,
        0.0,
        3.0,
        2147483648.0,
        7.0,
    ];
    assert_eq!(
        got,
        want.iter().map(|&x: &f32| fbits(x)).collect::<Vec<_>>()
    );
}

#[test]
fn mov_between_integer_widths() {
    // W → D sign-extends, UW → D zero-extends, D → W wraps, D → W saturates.
    let words = [w(-32768), w(0x7fff), w(-1), w(1)];
    assert_eq!(
        alu(
            "skl",
            "mov(4) v0:D, attr0:W { NoMask }",
            &[&words],
            Type::D,
            4
        ),
        bits(&[d(-32768), d(0x7fff), d(-1), d(1)])
    );
    assert_eq!(
        alu(
            "skl",
            "mov(4) v0:D, attr0:UW { NoMask }",
            &[&words],
            Type::D,
            4
        ),
        bits(&[d(0x8000), d(0x7fff), d(0xffff), d(1)])
    );
    let dw = [d(0x12345), d(-70000), d(40000), d(-5)];
    assert_eq!(
        alu("skl", "mov(4) v0:W, attr0:D { NoMask }", &[&dw], Type::W, 4),
        vec![Some(0x2345), Some(0xee90), Some(0x9c40), Some(0xfffb)]
    );
    assert_eq!(
        alu(
            "skl",
            "mov.sat(4) v0:W, attr0:D { NoMask }",
            &[&dw],
            Type::W,
            4
        ),
        vec![Some(0x7fff), Some(0x8000), Some(0x7fff), Some(0xfffb)]
    );
}

#[test]
fn mov_half_float_rounding_and_range() {
    let a = [
        f(65520.0),
        f(65519.0),
        f(1e-8),
        f(3e-8),
        f(1.000_488_3),
        f(-0.0),
        f(NAN),
        f(2049.0),
    ];
    // Stride 2: the HF results sit in the even words; the odd words are never written.
    let got = alu("skl", "mov(8) v0<2>:HF, attr0:F", &[&a], Type::UW, 16);
    assert!(got.iter().skip(1).step_by(2).all(Option::is_none));
    let low: Vec<Option<u64>> = got.iter().step_by(2).copied().collect();
    // 65520 → inf, 65519 → 65504, 1e-8 → +0, 3e-8 → smallest subnormal, 1+2^-11 ties to even
    // (1.0), -0, NaN stays NaN, 2049 ties to even (2048).
    assert_eq!(
        low[..6],
        [
            Some(0x7c00),
            Some(0x7bff),
            Some(0),
            Some(1),
            Some(0x3c00),
            Some(0x8000)
        ]
    );
    assert!(low[6].is_some_and(|v| v & 0x7c00 == 0x7c00 && v & 0x3ff != 0));
    assert_eq!(low[7], Some(0x6800));
    // HF → F is exact.
    let h = [hf(0.5), hf(-65504.0), hf(5.960_464_5e-8), hf(1.0)];
    assert_eq!(
        alu("skl", "mov(4) v0:F, attr0:HF { NoMask }", &[&h], Type::F, 4),
        vec![
            fbits(0.5),
            fbits(-65504.0),
            fbits(5.960_464_5e-8),
            fbits(1.0)
        ]
    );
}

#[test]
fn saturate() {
    let a = [
        f(1.5),
        f(-0.5),
        f(NAN),
        f(0.25),
        f(INF),
        f(-INF),
        f(-0.0),
        f(1.0),
    ];
    let got = alu("skl", "mov.sat(8) v0:F, attr0:F", &[&a], Type::F, 8);
    assert_eq!(
        got[..6],
        [
            fbits(1.0),
            fbits(0.0),
            fbits(0.0),
            fbits(0.25),
            fbits(1.0),
            fbits(0.0)
        ]
    );
    assert_eq!(got[7], fbits(1.0));
    let i = [d(i32::MAX), d(-1), d(5), d(0)];
    let j = [d(1), d(-1), d(-10), d(0)];
    assert_eq!(
        alu(
            "skl",
            "add.sat(4) v0:D, attr0:D, attr1:D { NoMask }",
            &[&i, &j],
            Type::D,
            4
        ),
        bits(&[d(i32::MAX), d(-2), d(-5), d(0)])
    );
    assert_eq!(
        alu(
            "skl",
            "add.sat(4) v0:UD, attr0:D, attr1:D { NoMask }",
            &[&i, &j],
            Type::UD,
            4
        ),
        bits(&[ud(0x8000_0000), ud(0), ud(0), ud(0)])
    );
}

#[test]
fn add_integer_wraps_and_widens() {
    let a = [d(i32::MAX), d(i32::MIN), d(-1), d(0x8000)];
    let b = [d(1), d(-1), d(1), d(0x8000)];
    assert_eq!(
        alu(
            "skl",
            "add(4) v0:D, attr0:D, attr1:D { NoMask }",
            &[&a, &b],
            Type::D,
            4
        ),
        bits(&[d(i32::MIN), d(i32::MAX), d(0), d(0x10000)])
    );
    // W + W into D keeps the carry.
    let x = [w(0x7fff), w(-32768)];
    assert_eq!(
        alu(
            "skl",
            "add(2) v0:D, attr0:W, attr0:W { NoMask }",
            &[&x],
            Type::D,
            2
        ),
        bits(&[d(0xfffe), d(-65536)])
    );
}

#[test]
fn source_modifiers() {
    // Integer: -INT_MIN and |INT_MIN| wrap to INT_MIN.
    let a = [d(i32::MIN), d(-5), d(7), d(0)];
    assert_eq!(
        alu(
            "skl",
            "add(4) v0:D, -attr0:D, 0:D { NoMask }",
            &[&a],
            Type::D,
            4
        ),
        bits(&[d(i32::MIN), d(5), d(-7), d(0)])
    );
    assert_eq!(
        alu(
            "skl",
            "add(4) v0:D, (abs)attr0:D, 0:D { NoMask }",
            &[&a],
            Type::D,
            4
        ),
        bits(&[d(i32::MIN), d(5), d(7), d(0)])
    );
    // Float: -(abs) forces the sign bit, also on NaN and zero.
    let x = [f(2.0), f(-0.0), f(NAN), f(-INF)];
    let got = alu(
        "skl",
        "mov(4) v0:F, -(abs)attr0:F { NoMask }",
        &[&x],
        Type::UD,
        4,
    );
    assert_eq!(got[..2], [fbits(-2.0), fbits(-0.0)]);
    assert_eq!(got[2].map(|b| b >> 31), Some(1));
    assert_eq!(got[3], fbits(-INF));
    // Logic ops: negate is bitwise NOT.
    let m = [ud(0xff00_ff00), ud(0)];
    let n = [ud(0x0ff0_0ff0), ud(0xffff_ffff)];
    assert_eq!(
        alu(
            "skl",
            "and(2) v0:UD, -attr0:UD, attr1:UD { NoMask }",
            &[&m, &n],
            Type::UD,
            2
        ),
        bits(&[ud(0x00f0_00f0), ud(0xffff_ffff)])
    );
}

#[test]
fn float_arithmetic_specials_and_denormals() {
    let a = [
        f(INF),
        f(1e-45),
        f(1e-38),
        f(NAN),
        f(0.1),
        f(-0.0),
        f(3.0),
        f(16777216.0),
    ];
    let b = [
        f(-INF),
        f(1e-45),
        f(1e-3),
        f(1.0),
        f(0.2),
        f(0.0),
        f(-3.0),
        f(1.0),
    ];
    let got = alu(
        "skl",
        "add(8) v0:F, attr0:F, attr1:F",
        &[&a, &b],
        Type::F,
        8,
    );
    assert!(
        got[0].is_some_and(|v| f32::from_bits(v as u32).is_nan()),
        "inf + -inf is NaN"
    );
    assert_eq!(got[1], fbits(2.0 * 1e-45), "denormals are preserved");
    assert!(got[3].is_some_and(|v| f32::from_bits(v as u32).is_nan()));
    assert_eq!(got[4], fbits(0.1f32 + 0.2f32), "single precision rounding");
    assert_eq!(got[5], fbits(0.0));
    assert_eq!(got[6], fbits(0.0));
    assert_eq!(got[7], fbits(16777216.0), "16777217 rounds to even in F");
    let got = alu(
        "skl",
        "mul(8) v0:F, attr0:F, attr1:F",
        &[&a, &b],
        Type::F,
        8,
    );
    assert_eq!(got[2], fbits(1e-38f32 * 1e-3f32));
    assert!(f32::from_bits(got[2].unwrap_or(0) as u32).is_subnormal());
    assert_eq!(got[6], fbits(-9.0));
}

#[test]
fn integer_multiply_and_mulh() {
    let a = [
        d(0x10000),
        d(-3),
        ud_as_d(0xffff_ffff),
        d(40000),
        d(i32::MIN),
        d(i32::MIN),
        d(7),
        d(0x7fff_ffff),
    ];
    let b = [
        d(0x10000),
        d(5),
        ud_as_d(0xffff_ffff),
        d(40000),
        d(-1),
        d(i32::MIN),
        d(-6),
        d(2),
    ];
    let lo = alu(
        "skl",
        "mul(8) v0:D, attr0:D, attr1:D",
        &[&a, &b],
        Type::D,
        8,
    );
    assert_eq!(
        lo,
        bits(&[
            d(0),
            d(-15),
            d(1),
            d(1_600_000_000),
            d(i32::MIN),
            d(0),
            d(-42),
            d(-2)
        ])
    );
    let hi = alu(
        "skl",
        "mulh(8) v0:D, attr0:D, attr1:D",
        &[&a, &b],
        Type::D,
        8,
    );
    assert_eq!(
        hi,
        bits(&[d(1), d(-1), d(0), d(0), d(0), d(0x4000_0000), d(-1), d(0)])
    );
    let uhi = alu(
        "skl",
        "mulh(8) v0:UD, attr0:UD, attr1:UD",
        &[&a, &b],
        Type::UD,
        8,
    );
    assert_eq!(uhi[2], Some(0xffff_fffe));
}

fn ud_as_d(x: u32) -> compiler::Value {
    d(x as i32)
}

#[test]
fn mad_lrp_frc_and_rounding() {
    let a = [f(1.0), f(-1.25), f(2.5), f(3.5)];
    let b = [f(2.0), f(0.5), f(-1.5), f(-2.5)];
    let c = [f(3.0), f(4.0), f(0.25), f(-0.5)];
    assert_eq!(
        alu(
            "skl",
            "mad(4) v0:F, attr0:F, attr1:F, attr2:F { NoMask }",
            &[&a, &b, &c],
            Type::F,
            4
        ),
        vec![fbits(7.0), fbits(0.75), fbits(2.125), fbits(4.75)]
    );
    // lrp: a*b + (1-a)*c
    assert_eq!(
        alu(
            "skl",
            "lrp(4) v0:F, attr0:F, attr1:F, attr2:F { NoMask }",
            &[&a, &b, &c],
            Type::F,
            4
        )[..2],
        [fbits(2.0), fbits(8.375)]
    );
    assert_eq!(
        alu("skl", "frc(4) v0:F, attr0:F { NoMask }", &[&a], Type::F, 4),
        vec![fbits(0.0), fbits(0.75), fbits(0.5), fbits(0.5)]
    );
    assert_eq!(
        alu(
            "skl",
            "rndd(4) v0:F, attr1:F { NoMask }",
            &[&a, &b],
            Type::F,
            4
        ),
        vec![fbits(2.0), fbits(0.0), fbits(-2.0), fbits(-3.0)]
    );
    assert_eq!(
        alu(
            "skl",
            "rndu(4) v0:F, attr1:F { NoMask }",
            &[&a, &b],
            Type::F,
            4
        ),
        vec![fbits(2.0), fbits(1.0), fbits(-1.0), fbits(-2.0)]
    );
    assert_eq!(
        alu("skl", "rnde(4) v0:F, attr0:F { NoMask }", &[&a], Type::F, 4),
        vec![fbits(1.0), fbits(-1.0), fbits(2.0), fbits(4.0)]
    );
    assert_eq!(
        alu(
            "skl",
            "rndz(4) v0:F, attr1:F { NoMask }",
            &[&a, &b],
            Type::F,
            4
        ),
        vec![fbits(2.0), fbits(0.0), fbits(-1.0), fbits(-2.0)]
    );
}

#[test]
fn shifts_including_counts_beyond_width() {
    let a = [ud(1), ud(0x8000_0000), ud(0xf000_000f), ud(3)];
    let c = [ud(32), ud(31), ud(4), ud(33)];
    assert_eq!(
        alu(
            "skl",
            "shl(4) v0:UD, attr0:UD, attr1:UD { NoMask }",
            &[&a, &c],
            Type::UD,
            4
        ),
        bits(&[ud(1), ud(0), ud(0xf0), ud(6)])
    );
    assert_eq!(
        alu(
            "skl",
            "shr(4) v0:UD, attr0:UD, attr1:UD { NoMask }",
            &[&a, &c],
            Type::UD,
            4
        ),
        bits(&[ud(1), ud(1), ud(0x0f00_0000), ud(1)])
    );
    assert_eq!(
        alu(
            "skl",
            "asr(4) v0:D, attr0:D, attr1:UD { NoMask }",
            &[&a, &c],
            Type::D,
            4
        ),
        bits(&[d(1), d(-1), d(0xff00_0000u32 as i32), d(1)])
    );
    assert_eq!(
        alu(
            "skl",
            "rol(4) v0:UD, attr0:UD, attr1:UD { NoMask }",
            &[&a, &c],
            Type::UD,
            4
        ),
        bits(&[ud(1), ud(0x4000_0000), ud(0x0000_00ff), ud(6)])
    );
    assert_eq!(
        alu(
            "skl",
            "ror(4) v0:UD, attr0:UD, attr1:UD { NoMask }",
            &[&a, &c],
            Type::UD,
            4
        ),
        bits(&[ud(1), ud(1), ud(0xff00_0000), ud(0x8000_0001)])
    );
    // 64-bit: the count uses 6 bits.
    let big = [uq(1), uq(1)];
    let cnt = [uq(33), uq(64)];
    assert_eq!(
        alu(
            "skl",
            "shl(2) v0:UQ, attr0:UQ, attr1:UQ { NoMask }",
            &[&big, &cnt],
            Type::UQ,
            2
        ),
        bits(&[uq(1 << 33), uq(1)])
    );
}

#[test]
fn logic_and_bit_operations() {
    let a = [ud(0xff00_ff00), ud(0), ud(1), ud(0x8000_0000)];
    let b = [ud(0x0f0f_0f0f), ud(0xffff_ffff), ud(3), ud(1)];
    assert_eq!(
        alu(
            "skl",
            "and(4) v0:UD, attr0:UD, attr1:UD { NoMask }",
            &[&a, &b],
            Type::UD,
            4
        ),
        bits(&[ud(0x0f00_0f00), ud(0), ud(1), ud(0)])
    );
    assert_eq!(
        alu(
            "skl",
            "or(4) v0:UD, attr0:UD, attr1:UD { NoMask }",
            &[&a, &b],
            Type::UD,
            4
        ),
        bits(&[ud(0xff0f_ff0f), ud(u32::MAX), ud(3), ud(0x8000_0001)])
    );
    assert_eq!(
        alu(
            "skl",
            "xor(4) v0:UD, attr0:UD, attr1:UD { NoMask }",
            &[&a, &b],
            Type::UD,
            4
        ),
        bits(&[ud(0xf00f_f00f), ud(u32::MAX), ud(2), ud(0x8000_0001)])
    );
    assert_eq!(
        alu(
            "skl",
            "not(4) v0:UD, attr0:UD { NoMask }",
            &[&a],
            Type::UD,
            4
        ),
        bits(&[
            ud(0x00ff_00ff),
            ud(u32::MAX),
            ud(0xffff_fffe),
            ud(0x7fff_ffff)
        ])
    );
    assert_eq!(
        alu(
            "skl",
            "bfrev(4) v0:UD, attr0:UD { NoMask }",
            &[&a],
            Type::UD,
            4
        ),
        bits(&[ud(0x00ff_00ff), ud(0), ud(0x8000_0000), ud(1)])
    );
    assert_eq!(
        alu(
            "skl",
            "cbit(4) v0:UD, attr0:UD { NoMask }",
            &[&a],
            Type::UD,
            4
        ),
        bits(&[ud(16), ud(0), ud(1), ud(1)])
    );
    assert_eq!(
        alu(
            "skl",
            "fbl(4) v0:UD, attr0:UD { NoMask }",
            &[&a],
            Type::UD,
            4
        ),
        bits(&[ud(8), ud(u32::MAX), ud(0), ud(31)])
    );
    assert_eq!(
        alu(
            "skl",
            "fbh(4) v0:UD, attr0:UD { NoMask }",
            &[&a],
            Type::UD,
            4
        ),
        bits(&[ud(0), ud(u32::MAX), ud(31), ud(0)])
    );
    assert_eq!(
        alu("skl", "fbh(4) v0:D, attr0:D { NoMask }", &[&a], Type::D, 4),
        bits(&[d(8), d(-1), d(31), d(1)])
    );
    assert_eq!(
        alu(
            "skl",
            "lzd(4) v0:UD, attr0:UD { NoMask }",
            &[&a],
            Type::UD,
            4
        ),
        bits(&[ud(0), ud(32), ud(31), ud(0)])
    );
    // bfe(width, offset, value); bfi1(width, offset); bfi2(mask, insert, base)
    let width = [ud(8), ud(0), ud(4), ud(31)];
    let offset = [ud(8), ud(4), ud(28), ud(1)];
    assert_eq!(
        alu(
            "skl",
            "bfe(4) v0:UD, attr0:UD, attr1:UD, attr2:UD { NoMask }",
            &[&width, &offset, &a],
            Type::UD,
            4
        ),
        bits(&[ud(0xff), ud(0), ud(0), ud(0x4000_0000)])
    );
    assert_eq!(
        alu(
            "skl",
            "bfe(4) v0:D, attr0:D, attr1:D, attr2:D { NoMask }",
            &[&width, &offset, &a],
            Type::D,
            4
        ),
        bits(&[d(-1), d(0), d(0), d(0xc000_0000u32 as i32)])
    );
    assert_eq!(
        alu(
            "skl",
            "bfi1(4) v0:UD, attr0:UD, attr1:UD { NoMask }",
            &[&width, &offset],
            Type::UD,
            4
        ),
        bits(&[ud(0xff00), ud(0), ud(0xf000_0000), ud(0xffff_fffe)])
    );
    assert_eq!(
        alu(
            "skl",
            "bfi2(4) v0:UD, attr0:UD, attr1:UD, attr2:UD { NoMask }",
            &[&b, &a, &width],
            Type::UD,
            4
        ),
        bits(&[ud(0x0f00_0f00), ud(0), ud(1 | 4), ud(31 & !1)])
    );
}

#[test]
fn avg_addc_subb() {
    let a = [d(i32::MAX), d(-1), d(3), d(0)];
    let b = [d(1), d(-2), d(4), d(0)];
    assert_eq!(
        alu(
            "skl",
            "avg(4) v0:D, attr0:D, attr1:D { NoMask }",
            &[&a, &b],
            Type::D,
            4
        ),
        bits(&[d(0x4000_0000), d(-1), d(4), d(0)])
    );
    // ADDC/SUBB leave the carry/borrow in the accumulator; read it back with a MOV.
    let x = [ud(u32::MAX), ud(5), ud(0), ud(0x8000_0000)];
    let y = [ud(2), ud(7), ud(0), ud(0x8000_0000)];
    let (_, regs) = run_body(
        "skl",
        8,
        "addc(4) v0:UD, attr0:UD, attr1:UD { NoMask AccWrEnable }\nmov(4) v1:UD, acc0<8;8,1>:UD { NoMask }\n\
         subb(4) v2:UD, attr0:UD, attr1:UD { NoMask AccWrEnable }\nmov(4) v3:UD, acc0<8;8,1>:UD { NoMask }",
        &[&x, &y],
        false,
    );
    assert_eq!(
        elems(&regs, 0, Type::UD, 4),
        bits(&[ud(1), ud(12), ud(0), ud(0)])
    );
    assert_eq!(
        elems(&regs, 1, Type::UD, 4),
        bits(&[ud(1), ud(0), ud(0), ud(1)])
    );
    assert_eq!(
        elems(&regs, 2, Type::UD, 4),
        bits(&[ud(u32::MAX - 2), ud(0xffff_fffe), ud(0), ud(0)])
    );
    assert_eq!(
        elems(&regs, 3, Type::UD, 4),
        bits(&[ud(0), ud(1), ud(0), ud(0)])
    );
}

#[test]
fn cmp_cmpn_sel() {
    let a = [
        f(1.0),
        f(NAN),
        f(2.0),
        f(-0.0),
        f(5.0),
        f(NAN),
        f(3.0),
        f(-INF),
    ];
    let b = [
        f(2.0),
        f(1.0),
        f(2.0),
        f(0.0),
        f(NAN),
        f(NAN),
        f(1.0),
        f(INF),
    ];
    // CMP writes all ones for true.
    assert_eq!(
        alu(
            "skl",
            "cmp.l.f0.0(8) v0:D, attr0:F, attr1:F",
            &[&a, &b],
            Type::D,
            8
        ),
        bits(&[d(-1), d(0), d(0), d(0), d(0), d(0), d(0), d(-1)])
    );
    assert_eq!(
        alu(
            "skl",
            "cmp.nz.f0.0(8) v0:D, attr0:F, attr1:F",
            &[&a, &b],
            Type::D,
            8
        ),
        bits(&[d(-1), d(-1), d(0), d(0), d(-1), d(-1), d(-1), d(-1)])
    );
    assert_eq!(
        alu(
            "skl",
            "cmp.z.f0.0(8) v0:D, attr0:F, attr1:F",
            &[&a, &b],
            Type::D,
            8
        )[3],
        Some(0xffff_ffff),
        "-0 == +0"
    );
    // CMPN: NaN in src1 → true, NaN in src0 → false.
    assert_eq!(
        alu(
            "skl",
            "cmpn.l.f0.0(8) v0:D, attr0:F, attr1:F",
            &[&a, &b],
            Type::D,
            8
        ),
        bits(&[d(-1), d(0), d(0), d(0), d(-1), d(0), d(0), d(-1)])
    );
    // SEL as min/max returns the non-NaN operand.
    let min = alu(
        "skl",
        "sel.l(8) v0:F, attr0:F, attr1:F",
        &[&a, &b],
        Type::F,
        8,
    );
    assert_eq!(
        min[..5],
        [fbits(1.0), fbits(1.0), fbits(2.0), fbits(0.0), fbits(5.0)]
    );
    assert_eq!(min[6], fbits(1.0));
    let max = alu(
        "skl",
        "sel.ge(8) v0:F, attr0:F, attr1:F",
        &[&a, &b],
        Type::F,
        8,
    );
    assert_eq!(max[7], fbits(INF));
    // Predicated SEL picks per channel from the flag.
    let (_, regs) = run_body(
        "skl",
        8,
        "cmp.g.f0.0(8) null:F, attr0:F, attr1:F\n(+f0.0) sel(8) v0:F, attr0:F, attr1:F\n(-f0.0) sel(8) v1:F, attr0:F, attr1:F",
        &[&a, &b],
        false,
    );
    assert_eq!(elems(&regs, 0, Type::F, 8)[6], fbits(3.0));
    assert_eq!(elems(&regs, 0, Type::F, 8)[0], fbits(2.0));
    assert_eq!(elems(&regs, 1, Type::F, 8)[6], fbits(1.0));
    // Integer compares are signed or unsigned by type.
    let x = [d(-1), d(1)];
    let z = [d(0), d(0)];
    assert_eq!(
        alu(
            "skl",
            "cmp.g.f0.0(2) v0:D, attr0:D, attr1:D { NoMask }",
            &[&x, &z],
            Type::D,
            2
        ),
        bits(&[d(0), d(-1)])
    );
    assert_eq!(
        alu(
            "skl",
            "cmp.g.f0.0(2) v0:D, attr0:UD, attr1:UD { NoMask }",
            &[&x, &z],
            Type::D,
            2
        ),
        bits(&[d(-1), d(-1)])
    );
}

#[test]
fn conditional_modifier_after_saturate_and_conversion() {
    let a = [f(1.5), f(0.5), f(-2.0), f(NAN)];
    let (_, regs) = run_body(
        "skl",
        8,
        "add.sat.ge.f0.0(4) v0:F, attr0:F, 0.0:F { NoMask }\nmov.nz.f0.1(4) v1:D, attr0:F { NoMask }",
        &[&a],
        false,
    );
    // add.sat: results 1.0, 0.5, 0.0, 0.0 (NaN saturates to 0) → .ge holds for all four.
    assert_eq!(regs.flags & 0xf, 0xf);
    // mov to D: 1, 0, -2, 0 → .nz only for channels 0 and 2 (0.5 converts to 0).
    assert_eq!(regs.flags >> 16 & 0xf, 0b0101);
    assert_eq!(regs.flags_def & 0xf_000f, 0xf_000f);
}

#[test]
fn math_functions() {
    let a = [f(4.0), f(-1.0), f(0.0), f(8.0)];
    let b = [f(0.5), f(2.0), f(3.0), f(-1.0)];
    assert_eq!(
        alu("skl", "rcp(4) v0:F, attr0:F { NoMask }", &[&a], Type::F, 4),
        vec![fbits(0.25), fbits(-1.0), fbits(INF), fbits(0.125)]
    );
    let sq = alu("skl", "sqrt(4) v0:F, attr0:F { NoMask }", &[&a], Type::F, 4);
    assert_eq!(sq[0], fbits(2.0));
    assert!(sq[1].is_some_and(|v| f32::from_bits(v as u32).is_nan()));
    assert_eq!(
        alu("skl", "rsq(4) v0:F, attr0:F { NoMask }", &[&a], Type::F, 4)[2],
        fbits(INF)
    );
    assert_eq!(
        alu("skl", "log2(4) v0:F, attr0:F { NoMask }", &[&a], Type::F, 4)[3],
        fbits(3.0)
    );
    assert_eq!(
        alu(
            "skl",
            "exp2(4) v0:F, attr1:F { NoMask }",
            &[&a, &b],
            Type::F,
            4
        )[2],
        fbits(8.0)
    );
    assert_eq!(
        alu(
            "skl",
            "pow(4) v0:F, attr0:F, attr1:F { NoMask }",
            &[&a, &b],
            Type::F,
            4
        )[..2],
        [fbits(2.0), fbits(1.0)]
    );
    assert_eq!(
        alu("skl", "sin(4) v0:F, attr0:F { NoMask }", &[&a], Type::F, 4)[2],
        fbits(0.0)
    );
    assert_eq!(
        alu("skl", "cos(4) v0:F, attr0:F { NoMask }", &[&a], Type::F, 4)[2],
        fbits(1.0)
    );
    let n = [d(7), d(-7), d(i32::MIN), d(5)];
    let m = [d(2), d(2), d(-1), d(0)];
    assert_eq!(
        alu(
            "skl",
            "int_quot(4) v0:D, attr0:D, attr1:D { NoMask }",
            &[&n, &m],
            Type::D,
            4
        ),
        bits(&[d(3), d(-3), d(i32::MIN), d(-1)])
    );
    assert_eq!(
        alu(
            "skl",
            "int_rem(4) v0:D, attr0:D, attr1:D { NoMask }",
            &[&n, &m],
            Type::D,
            4
        ),
        bits(&[d(1), d(-1), d(0), d(5)])
    );
    assert_eq!(
        alu(
            "skl",
            "int_quot(4) v0:UD, attr0:UD, attr1:UD { NoMask }",
            &[&n, &m],
            Type::UD,
            4
        )[1],
        Some(((-7i32) as u32 / 2) as u64)
    );
}

#[test]
fn half_double_and_qword_arithmetic() {
    let h = [hf(2048.0), hf(0.1), hf(-1.0), hf(1.0)];
    let one = [hf(1.0), hf(0.2), hf(1.0), hf(1.0)];
    let got = alu(
        "skl",
        "add(4) v0:HF, attr0:HF, attr1:HF { NoMask }",
        &[&h, &one],
        Type::HF,
        4,
    );
    // 2048 + 1 rounds to 2048 in HF.
    assert_eq!(got[0], Some(half::f16::from_f32(2048.0).to_bits() as u64));
    assert_eq!(got[2], Some(0));
    let x = [df(1e16), df(0.1), df(f64::MAX), df(-0.0)];
    let y = [df(1.0), df(0.2), df(f64::MAX), df(0.0)];
    let got = alu(
        "skl",
        "add(4) v0:DF, attr0:DF, attr1:DF { NoMask }",
        &[&x, &y],
        Type::DF,
        4,
    );
    assert_eq!(
        got,
        vec![
            Some((1e16f64 + 1.0).to_bits()),
            Some((0.1f64 + 0.2).to_bits()),
            Some(f64::INFINITY.to_bits()),
            Some(0)
        ]
    );
    let p = [q(i64::MAX), q(-1), q(1 << 40), q(3)];
    let r = [q(1), q(-1), q(1 << 30), q(-5)];
    assert_eq!(
        alu(
            "skl",
            "add(4) v0:Q, attr0:Q, attr1:Q { NoMask }",
            &[&p, &r],
            Type::Q,
            4
        ),
        bits(&[q(i64::MIN), q(-2), q((1 << 40) + (1 << 30)), q(-2)])
    );
    // 2^40 × 2^30 wraps to 0 in 64 bits.
    assert_eq!(
        alu(
            "skl",
            "mul(4) v0:Q, attr0:Q, attr1:Q { NoMask }",
            &[&p, &r],
            Type::Q,
            4
        ),
        bits(&[q(i64::MAX), q(1), q(0), q(-15)])
    );
}

#[test]
fn vector_immediates_expand_per_channel() {
    let got = alu("skl", "mov(8) v0:W, 0x76543210:V", &[], Type::W, 8);
    assert_eq!(got, (0..8).map(|c| Some(c as u64)).collect::<Vec<_>>());
    let got = alu("skl", "mov(8) v0:W, 0xf9870001:V", &[], Type::W, 8);
    assert_eq!(
        got,
        [1u64, 0, 0, 0, 7, 8, 9, 15]
            .iter()
            .map(|&n| Some(if n >= 8 {
                (n as u16).wrapping_sub(16) as u64
            } else {
                n
            }))
            .collect::<Vec<_>>()
    );
    let got = alu(
        "skl",
        "mov(8) v0:F, [1.0, 0.5, -2.0, 0.25]:VF",
        &[],
        Type::F,
        8,
    );
    assert_eq!(
        got[..5],
        [fbits(1.0), fbits(0.5), fbits(-2.0), fbits(0.25), fbits(1.0)]
    );
}

#[test]
fn undefined_values_propagate() {
    let a = [f(1.0); 8];
    // v1 was never written: the sum is undefined, the rest of v0 stays undefined too.
    let got = alu("skl", "add(8) v0:F, attr0:F, v1:F", &[&a], Type::F, 8);
    assert!(got.iter().all(Option::is_none));
    // A masked SIMD16 instruction in a SIMD8 thread writes garbage to channels 8..15.
    let (_, regs) = run_body("skl", 8, "mov(16) v0:F, 1.0:F", &[], false);
    let got = elems(&regs, 0, Type::F, 16);
    assert!(got[..8].iter().all(|v| *v == fbits(1.0)));
    assert!(got[8..].iter().all(Option::is_none));
    // NoMask writes all 16 channels.
    let (_, regs) = run_body("skl", 8, "mov(16) v0:F, 1.0:F { NoMask }", &[], false);
    assert!(
        elems(&regs, 0, Type::F, 16)
            .iter()
            .all(|v| *v == fbits(1.0))
    );
}

#[test]
fn word_and_byte_arithmetic() {
    let a = [w(-32768), w(32767), w(-1), w(100)];
    let b = [w(-1), w(1), w(-1), w(-200)];
    // W + W → W wraps; W × W → W keeps the low word; UW view of the same bits.
    assert_eq!(
        alu(
            "skl",
            "add(4) v0:W, attr0:W, attr1:W { NoMask }",
            &[&a, &b],
            Type::W,
            4
        ),
        bits(&[w(32767), w(-32768), w(-2), w(-100)])
    );
    assert_eq!(
        alu(
            "skl",
            "mul(4) v0:W, attr0:W, attr1:W { NoMask }",
            &[&a, &b],
            Type::W,
            4
        ),
        bits(&[w(-32768), w(32767), w(1), w(-20000)])
    );
    assert_eq!(
        alu(
            "skl",
            "add.sat(4) v0:W, attr0:W, attr1:W { NoMask }",
            &[&a, &b],
            Type::W,
            4
        ),
        bits(&[w(-32768), w(32767), w(-2), w(-100)])
    );
    assert_eq!(
        alu(
            "skl",
            "add(4) v0:UW, attr0:UW, attr1:UW { NoMask }",
            &[&a, &b],
            Type::UW,
            4
        ),
        bits(&[uw(0x7fff), uw(0x8000), uw(0xfffe), uw(0xff9c)])
    );
    assert_eq!(
        alu(
            "skl",
            "asr(4) v0:W, attr0:W, 15:W { NoMask }",
            &[&a],
            Type::W,
            4
        ),
        bits(&[w(-1), w(0), w(-1), w(0)])
    );
    assert_eq!(
        alu(
            "skl",
            "shr(4) v0:UW, attr0:UW, 15:UW { NoMask }",
            &[&a],
            Type::UW,
            4
        ),
        bits(&[uw(1), uw(0), uw(1), uw(0)])
    );
    // Bytes: UB 200 + 100 saturates at 255; B -100 - 100 saturates at -128.
    let ub = [
        compiler::Value::new(Type::UB, 200),
        compiler::Value::new(Type::UB, 100),
    ];
    assert_eq!(
        alu(
            "skl",
            "add.sat(1) v0:UB, attr0:UB, attr0+1:UB { NoMask }",
            &[&ub],
            Type::UB,
            1
        ),
        vec![Some(255)]
    );
    let sb = [compiler::Value::new(Type::B, (-100i8) as u8 as u64)];
    assert_eq!(
        alu(
            "skl",
            "add.sat(1) v0:B, attr0:B, attr0:B { NoMask }",
            &[&sb],
            Type::B,
            1
        ),
        vec![Some(0x80)]
    );
    assert_eq!(
        alu("skl", "mov(1) v0:D, attr0:B { NoMask }", &[&sb], Type::D, 1),
        bits(&[d(-100)])
    );
}

#[test]
fn qword_logic_shifts_and_conversions() {
    let a = [uq(0xffff_0000_ffff_0000), uq(1 << 63), uq(5), uq(u64::MAX)];
    let b = [uq(0x0f0f_0f0f_0f0f_0f0f), uq(63), uq(3), uq(1)];
    assert_eq!(
        alu(
            "skl",
            "and(4) v0:UQ, attr0:UQ, attr1:UQ { NoMask }",
            &[&a, &b],
            Type::UQ,
            4
        )[0],
        Some(0x0f0f_0000_0f0f_0000)
    );
    assert_eq!(
        alu(
            "skl",
            "shr(4) v0:UQ, attr0:UQ, attr1:UQ { NoMask }",
            &[&a, &b],
            Type::UQ,
            4
        )[1],
        Some(1)
    );
    assert_eq!(
        alu(
            "skl",
            "asr(4) v0:Q, attr0:Q, attr1:UQ { NoMask }",
            &[&a, &b],
            Type::Q,
            4
        )[1],
        Some(u64::MAX)
    );
    assert_eq!(
        alu(
            "skl",
            "add(4) v0:UQ, attr0:UQ, attr1:UQ { NoMask }",
            &[&a, &b],
            Type::UQ,
            4
        )[3],
        Some(0)
    );
    // Q → D truncates, D → Q sign-extends, Q → DF rounds.
    assert_eq!(
        alu("skl", "mov(4) v0:D, attr0:Q { NoMask }", &[&a], Type::D, 4),
        bits(&[d(-65536), d(0), d(5), d(-1)])
    );
    let dd = [d(-5), d(7)];
    assert_eq!(
        alu("skl", "mov(2) v0:Q, attr0:D { NoMask }", &[&dd], Type::Q, 2),
        bits(&[q(-5), q(7)])
    );
    let big = [q((1 << 53) + 1)];
    assert_eq!(
        alu(
            "skl",
            "mov(1) v0:DF, attr0:Q { NoMask }",
            &[&big],
            Type::DF,
            1
        ),
        vec![Some(((1u64 << 53) as f64).to_bits())]
    );
}

#[test]
fn double_and_half_compare_select_mad() {
    let a = [df(1.5), df(f64::NAN), df(-0.0), df(3.0)];
    let b = [df(2.5), df(1.0), df(0.0), df(-3.0)];
    let c = [df(0.25), df(1.0), df(1.0), df(2.0)];
    assert_eq!(
        alu(
            "skl",
            "mad(4) v0:DF, attr0:DF, attr1:DF, attr2:DF { NoMask }",
            &[&a, &b, &c],
            Type::DF,
            4
        )[0],
        Some((1.5f64 + 2.5 * 0.25).to_bits())
    );
    assert_eq!(
        alu(
            "skl",
            "sel.l(4) v0:DF, attr0:DF, attr1:DF { NoMask }",
            &[&a, &b],
            Type::DF,
            4
        )[..2],
        [Some(1.5f64.to_bits()), Some(1.0f64.to_bits())]
    );
    assert_eq!(
        alu(
            "skl",
            "cmp.le.f0.0(4) v0:UQ, attr0:DF, attr1:DF { NoMask }",
            &[&a, &b],
            Type::UQ,
            4
        ),
        vec![Some(u64::MAX), Some(0), Some(u64::MAX), Some(0)]
    );
    // DF → F rounds and overflows to infinity.
    let wide = [df(1e300), df(1.0000000000000002)];
    assert_eq!(
        alu(
            "skl",
            "mov(2) v0:F, attr0:DF { NoMask }",
            &[&wide],
            Type::F,
            2
        ),
        vec![fbits(INF), fbits(1.0)]
    );
    let h = [hf(0.5), hf(-2.0), hf(65504.0), hf(1.0)];
    let k = [hf(4.0), hf(-2.0), hf(2.0), hf(0.0)];
    assert_eq!(
        alu(
            "skl",
            "mul(4) v0:HF, attr0:HF, attr1:HF { NoMask }",
            &[&h, &k],
            Type::HF,
            4
        ),
        vec![Some(0x4000), Some(0x4400), Some(0x7c00), Some(0)]
    );
    assert_eq!(
        alu(
            "skl",
            "cmp.ge.f0.0(4) v0:W, attr0:HF, attr1:HF { NoMask }",
            &[&h, &k],
            Type::W,
            4
        ),
        bits(&[w(0), w(-1), w(-1), w(-1)])
    );
}

/// NaN results do not depend on the host: the greater NaN source (made quiet) propagates,
/// an invalid operation gives 0x7fc00000, and SIMD width or fast path change nothing.
#[test]
fn nan_propagation_is_defined_by_the_emulator() {
    let nan = |bits: u32| compiler::Value::new(Type::F, bits as u64);
    let a = [nan(0xffff_ffd8), nan(0x7f80_0001), f(1.0), f(-1.0)];
    let b = [nan(0xffff_ffb9), f(2.0), nan(0xff80_0002), f(0.0)];
    for width in [8, 16] {
        let got = alu(
            "skl",
            &format!("add({width}) v0:F, attr0:F, attr1:F"),
            &[&a, &b],
            Type::F,
            4,
        );
        assert_eq!(
            got,
            bits(&[
                nan(0xffff_ffd8),
                nan(0x7fc0_0001),
                nan(0xffc0_0002),
                f(-1.0)
            ]),
            "SIMD{width}"
        );
    }
    let got = alu("skl", "sqrt(8) v0:F, attr0:F", &[&[f(-4.0)]], Type::F, 1);
    assert_eq!(got, bits(&[nan(0x7fc0_0000)]));
}
