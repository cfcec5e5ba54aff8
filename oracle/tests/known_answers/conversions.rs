//! Conversions and the execution type (docs/hardware/eu-hardware.md §3.4, §3.7).

use crate::common::*;
use crate::{Setup, all, fb, run, vgrf};
use compiler::types::Type;

#[test]
fn float_to_int_rounds_toward_zero() {
    // §3.7: "Float → int rounding toward zero". Out-of-range clamping and NaN → 0 are
    // marked [P?] there; the emulator models them as stated (3e9 → INT_MAX, NaN → 0).
    // 2147483520 is the largest F below 2^31.
    let a = [
        1.9,
        -1.9,
        0.5,
        -0.5,
        2_147_483_520.0,
        -2_147_483_648.0,
        3e9,
        f32::NAN,
    ]
    .map(f);
    let regs = run(Setup::logical("skl", 8), "mov(8) v0:D, attr0:F", &[&a]);
    assert_eq!(
        vgrf(&regs, 0, Type::D, 8),
        all(&[
            1,
            0xffff_ffff,
            0,
            0,
            2_147_483_520,
            0x8000_0000,
            0x7fff_ffff,
            0
        ])
    );
}

#[test]
fn int_to_float_rounds_to_nearest_even() {
    // §3.7: int → float uses round-to-nearest-even. 2^24 + 1 is a tie → 2^24 (even);
    // 2^24 + 3 is a tie → 2^24 + 4; 2^31 − 1 → 2^31.
    let a = [16_777_217, 16_777_219, -16_777_217, i32::MAX].map(d);
    let regs = run(
        Setup::logical("skl", 8),
        "mov(4) v0:F, attr0:D { NoMask }",
        &[&a],
    );
    assert_eq!(
        vgrf(&regs, 0, Type::F, 4),
        all(&[
            fb(16_777_216.0),
            fb(16_777_220.0),
            fb(-16_777_216.0),
            fb(2_147_483_648.0)
        ])
    );
}

#[test]
fn float_to_half_rounds_to_nearest_even() {
    // §3.7: F → HF rounds to nearest even. 65520 is halfway between 65504 and the next
    // step (65536, out of range) → +inf; 1 + 2^-11 ties to 1.0 (0x3c00); 1 + 3·2^-11 ties
    // to 1 + 2^-9 (0x3c02); 2^-24 is the smallest subnormal (0x0001); 2^-25 ties to 0.
    let a = [
        65520.0,
        65504.0,
        1.0 + 1.0 / 2048.0,
        1.0 + 3.0 / 2048.0,
        -2.0,
        5.960_464_5e-8,
        2.980_232_2e-8,
        1.0,
    ]
    .map(f);
    // The HF results sit in the even words (the destination stride is a dword, §3.7).
    let regs = run(Setup::logical("skl", 8), "mov(8) v0<2>:HF, attr0:F", &[&a]);
    let words: Vec<_> = vgrf(&regs, 0, Type::UW, 16)
        .into_iter()
        .step_by(2)
        .collect();
    assert_eq!(
        words,
        all(&[
            0x7c00, 0x7bff, 0x3c00, 0x3c02, 0xc000, 0x0001, 0x0000, 0x3c00
        ])
    );
}

#[test]
fn half_to_float_is_exact() {
    // 0x3555: exponent 13 − 15 = −2, mantissa 0x155 → F exponent 125, mantissa 0x155 << 13:
    // (125 << 23) | 0x2aa000 = 0x3eaaa000. 0xfbff = −65504 → 0xc77fe000.
    let a = [
        compiler::Value::new(Type::HF, 0x3555),
        compiler::Value::new(Type::HF, 0xfbff),
    ];
    let regs = run(
        Setup::logical("skl", 8),
        "mov(2) v0:F, attr0:HF { NoMask }",
        &[&a],
    );
    assert_eq!(vgrf(&regs, 0, Type::F, 2), all(&[0x3eaa_a000, 0xc77f_e000]));
}

#[test]
fn all_half_sources_into_a_float_destination_compute_in_float() {
    // §3.4: "if any pair among (src0, src1, dst) is F/HF mixed → F": HF + HF into an F
    // destination executes in F. 2048 + 1 = 2049 (0x45001000; in HF it would round to
    // 2048); 65504 + 65504 = 131008 (0x47ffe000; in HF it would overflow to inf).
    let a = [hf(2048.0), hf(65504.0)];
    let b = [hf(1.0), hf(65504.0)];
    let regs = run(
        Setup::logical("skl", 8),
        "add(2) v0:F, attr0:HF, attr1:HF { NoMask }",
        &[&a, &b],
    );
    assert_eq!(vgrf(&regs, 0, Type::F, 2), all(&[0x4500_1000, 0x47ff_e000]));
    // All-HF into HF stays in HF: 2049 → 2048 (tie to even, 0x6800), 131008 → inf.
    let regs = run(
        Setup::logical("skl", 8),
        "add(2) v0:HF, attr0:HF, attr1:HF { NoMask }",
        &[&a, &b],
    );
    assert_eq!(vgrf(&regs, 0, Type::UW, 2), all(&[0x6800, 0x7c00]));
}
