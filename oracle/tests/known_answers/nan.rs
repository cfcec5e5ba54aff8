//! Which NaN a float operation returns. The documents say an input NaN propagates but not
//! which of two (eufuzz's [P?]); the model takes, of the NaN sources made quiet, the one
//! with the greatest bits (as f64, so the sign bit counts most), and the default NaN when
//! no source is a NaN (oracle/src/emu/value.rs `propagate_nan`). What these tests pin
//! down is that the choice does not depend on operand order or on fusing: legal rewrites
//! (commuted operands, CSE of a commuted pair, a constant moved to src1, MUL+ADD into MAD)
//! keep the NaN a later integer operation may read.

use crate::common::*;
use crate::{Setup, run, vgrf};
use compiler::types::Type;

#[test]
fn the_nan_of_two_nan_sources_does_not_depend_on_their_order() {
    // Channel 0: a signalling NaN and a negative quiet NaN; channel 1: two positive ones;
    // channel 2: a NaN and a number; channel 3: no NaN, inf + −inf.
    let a = [0x7f80_0001, 0x7fc0_0005, 0x7fc0_0007, 0x7f80_0000].map(ud);
    let b = [0xffc0_0002, 0x7fc0_0009, 0x3f80_0000, 0xff80_0000].map(ud);
    let body = "add(4) v0:F, attr0:F, attr1:F\n\
                add(4) v1:F, attr1:F, attr0:F\n\
                mul(4) v2:F, attr1:F, attr0:F\n\
                add(4) v3:F, attr0:F, -attr1:F";
    let regs = run(Setup::logical("skl", 8), body, &[&a, &b]);
    // Quiet: bit 22 set. The sign makes 0xffc00002 the greatest; 0x7fc00009 > 0x7fc00005;
    // a lone NaN source propagates; inf + −inf has none and gives the default NaN.
    let want = [0xffc0_0002u64, 0x7fc0_0009, 0x7fc0_0007, 0x7fc0_0000].map(Some);
    assert_eq!(vgrf(&regs, 0, Type::UD, 4), want);
    assert_eq!(vgrf(&regs, 1, Type::UD, 4), want);
    assert_eq!(vgrf(&regs, 2, Type::UD, 4)[..3], want[..3]);
    // A negated NaN source is still that NaN, with its sign flipped before the choice.
    assert_eq!(
        vgrf(&regs, 3, Type::UD, 4)[..2],
        [Some(0x7fc0_0002), Some(0xffc0_0009)]
    );
}

#[test]
fn a_mad_returns_the_nan_its_mul_and_add_would() {
    let a = [0x7fc0_0003, 0x3f80_0000].map(ud);
    let b = [0x7fc0_0001, 0x7f80_0000].map(ud);
    let c = [0xffc0_0004, 0x0000_0000].map(ud);
    // mad computes src1 × src2 + src0.
    let body = "mad(2) v0:F, attr0:F, attr1:F, attr2:F\n\
                mul(2) v1:F, attr1:F, attr2:F\n\
                add(2) v2:F, v1:F, attr0:F";
    let regs = run(Setup::logical("skl", 8), body, &[&a, &b, &c]);
    let fused = vgrf(&regs, 0, Type::UD, 2);
    assert_eq!(fused, vgrf(&regs, 2, Type::UD, 2));
    // Channel 0: the greatest of the three NaNs; channel 1: inf × 0 + 1, no NaN source.
    assert_eq!(fused, [Some(0xffc0_0004), Some(0x7fc0_0000)]);
}
