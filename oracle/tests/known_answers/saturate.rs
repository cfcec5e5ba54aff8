//! Saturate: floats clamp to [0.0, 1.0] with NaN → 0; integers clamp to the destination
//! type's range from the full-precision result (docs/hardware/eu-hardware.md §3.5, docs/hardware/brw-backend.md §1.7).

use crate::common::*;
use crate::{Setup, all, fb, run, vgrf};
use compiler::types::Type;

#[test]
fn float_saturate_clamps_and_zeroes_nan() {
    let a = [
        1.5,
        -0.5,
        f32::NAN,
        0.25,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1.0,
        -1e-30,
    ]
    .map(f);
    let regs = run(Setup::logical("skl", 8), "mov.sat(8) v0:F, attr0:F", &[&a]);
    assert_eq!(
        vgrf(&regs, 0, Type::F, 8),
        all(&[fb(1.0), 0, 0, fb(0.25), fb(1.0), 0, fb(1.0), 0])
    );
}

#[test]
fn saturating_negative_zero_has_no_documented_sign() {
    // §3.5 / §1.7 clamp to [0.0, 1.0] but −0.0 compares equal to 0.0: neither document says
    // whether it leaves as −0.0 or +0.0, so the result is undefined (value.rs). 0 × −1 = −0.
    let a = [0.0, 0.0, 2.0, -0.0].map(f);
    let b = [-1.0, 1.0, -3.0, -1.0].map(f);
    let regs = run(
        Setup::logical("skl", 8),
        "mul.sat(4) v0:F, attr0:F, attr1:F { NoMask }",
        &[&a, &b],
    );
    // 0×−1 = −0 (undefined), 0×1 = +0, 2×−3 = −6 → +0, −0×−1 = +0.
    assert_eq!(
        vgrf(&regs, 0, Type::F, 4),
        vec![None, Some(0), Some(0), Some(0)]
    );
}

#[test]
fn integer_saturate_clamps_to_the_destination_range() {
    // Full-precision sums: 2^31 → INT_MAX; −2^31 − 1 → INT_MIN; −2 fits; 2^31 → INT_MAX.
    let a = [i32::MAX, i32::MIN, 5, 0x4000_0000].map(d);
    let b = [1, -1, -7, 0x4000_0000].map(d);
    let regs = run(
        Setup::logical("skl", 8),
        "add.sat(4) v0:D, attr0:D, attr1:D { NoMask }",
        &[&a, &b],
    );
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 4),
        all(&[0x7fff_ffff, 0x8000_0000, 0xffff_fffe, 0x7fff_ffff])
    );
    // UD: 2^32 → 0xffffffff; 7 fits.
    let a = [u32::MAX, 3].map(ud);
    let b = [1, 4].map(ud);
    let regs = run(
        Setup::logical("skl", 8),
        "add.sat(2) v0:UD, attr0:UD, attr1:UD { NoMask }",
        &[&a, &b],
    );
    assert_eq!(vgrf(&regs, 0, Type::UD, 2), all(&[0xffff_ffff, 7]));
    // D → UW: −5 → 0, 70000 → 65535, 300 fits, −1 → 0.
    let a = [-5, 70000, 300, -1].map(d);
    let regs = run(
        Setup::logical("skl", 8),
        "mov.sat(4) v0<2>:UW, attr0:D { NoMask }",
        &[&a],
    );
    let words: Vec<_> = vgrf(&regs, 0, Type::UW, 8).into_iter().step_by(2).collect();
    assert_eq!(words, all(&[0, 0xffff, 300, 0]));
}
