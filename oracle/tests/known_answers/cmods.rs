//! Conditional modifiers: computed on the final result after saturate and conversion; a NaN
//! makes every condition false except NZ (docs/hardware/brw-backend.md §1.7); codes in docs/hardware/eu-hardware.md §2.3.

use crate::common::*;
use crate::{Setup, all, flag_bits, run, vgrf};
use compiler::types::Type;

#[test]
fn nan_fails_every_condition_but_nz() {
    // x + 0.0 for x = NaN, 1, −1, 0, −0 (→ +0), inf, −inf, NaN.
    let a = [
        f32::NAN,
        1.0,
        -1.0,
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ]
    .map(f);
    let cases: [(&str, [bool; 8]); 6] = [
        ("z", [false, false, false, true, true, false, false, false]),
        ("nz", [true, true, true, false, false, true, true, true]),
        ("g", [false, true, false, false, false, true, false, false]),
        ("ge", [false, true, false, true, true, true, false, false]),
        ("l", [false, false, true, false, false, false, true, false]),
        ("le", [false, false, true, true, true, false, true, false]),
    ];
    for (cond, want) in cases {
        let body = format!("add.{cond}.f0.0(8) v0:F, attr0:F, 0.0:F");
        let regs = run(Setup::logical("skl", 8), &body, &[&a]);
        assert_eq!(flag_bits(&regs, 0, 8), want.map(Some).to_vec(), ".{cond}");
    }
}

#[test]
fn condition_follows_saturate() {
    // §1.7: the flag comes from the saturated result. NaN → 0 (so .nz is false), −2 → 0,
    // 0.5 stays, 3 → 1.
    let a = [f32::NAN, -2.0, 0.5, 3.0].map(f);
    let regs = run(
        Setup::logical("skl", 8),
        "add.sat.nz.f0.0(4) v0:F, attr0:F, 0.0:F { NoMask }",
        &[&a],
    );
    assert_eq!(
        flag_bits(&regs, 0, 4),
        vec![Some(false), Some(false), Some(true), Some(true)]
    );
}

#[test]
fn condition_follows_conversion() {
    // §1.7: the flag comes from the converted result: 0.5 → 0, −0.7 → 0, 1.5 → 1, −3.2 → −3.
    let a = [0.5, -0.7, 1.5, -3.2].map(f);
    let regs = run(
        Setup::logical("skl", 8),
        "mov.nz.f0.0(4) v0:D, attr0:F { NoMask }",
        &[&a],
    );
    assert_eq!(
        flag_bits(&regs, 0, 4),
        vec![Some(false), Some(false), Some(true), Some(true)]
    );
}

#[test]
fn overflow_and_round_conditions_are_undefined() {
    // §2.3 gives `.o` a code but no document says when an operation overflows, and `.r`
    // exists only on Gen4/5 (docs/hardware/brw-backend.md §1.1): the flag is undefined, the result is not.
    let a = [i32::MAX, 1, -1, 0].map(d);
    let b = [1, 1, i32::MIN, 0].map(d);
    for cond in ["o", "r"] {
        let body = format!("add.{cond}.f0.0(4) v0:D, attr0:D, attr1:D {{ NoMask }}");
        let regs = run(Setup::logical("skl", 8), &body, &[&a, &b]);
        assert_eq!(flag_bits(&regs, 0, 4), vec![None; 4], ".{cond}");
        assert_eq!(
            vgrf(&regs, 0, Type::UD, 4),
            all(&[0x8000_0000, 2, 0x7fff_ffff, 0])
        );
    }
}
