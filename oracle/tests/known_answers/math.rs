//! Rounding opcodes and math functions at values where the result is exact. The documents
//! name the opcodes and math functions (docs/hardware/brw-backend.md §1.1, docs/hardware/eu-hardware.md §7.1) without
//! tables; the values below follow from the names (IEEE round-to-integral, exact powers of
//! two), except Gen4/5 RNDZ/RNDE, which follow Mesa's two-instruction sequence (alu.rs).

use crate::common::*;
use crate::{Setup, all, fb, flag_bits, run, vgrf};
use compiler::types::Type;

fn fbs(v: &[f32]) -> Vec<Option<u64>> {
    all(&v.iter().map(|&x| fb(x)).collect::<Vec<_>>())
}

#[test]
fn gen9_rounding_opcodes() {
    let a = [2.5, 3.5, -2.5, 0.5, 1.5, -1.5, 2.4, -3.6].map(f);
    let run1 = |op: &str| {
        let regs = run(
            Setup::logical("skl", 8),
            &format!("{op}(8) v0:F, attr0:F"),
            &[&a],
        );
        vgrf(&regs, 0, Type::F, 8)
    };
    assert_eq!(
        run1("rnde"),
        fbs(&[2.0, 4.0, -2.0, 0.0, 2.0, -2.0, 2.0, -4.0])
    );
    assert_eq!(
        run1("rndz"),
        fbs(&[2.0, 3.0, -2.0, 0.0, 1.0, -1.0, 2.0, -3.0])
    );
    assert_eq!(
        run1("rndd"),
        fbs(&[2.0, 3.0, -3.0, 0.0, 1.0, -2.0, 2.0, -4.0])
    );
    assert_eq!(
        run1("rndu"),
        fbs(&[3.0, 4.0, -2.0, 1.0, 2.0, -1.0, 3.0, -3.0])
    );
    // FRC = x − ⌊x⌋: 0.5 0.5 0.5 0.5 0.5 0.5 0.4 0.4 (as F: 2.4 − 2, −3.6 + 4).
    let frc = run1("frc");
    assert_eq!(frc[..6], fbs(&[0.5; 6])[..]);
}

#[test]
fn gen4_rndz_and_rnde_store_the_rounded_down_value_and_raise_r() {
    // Mesa's Gen4/5 trunc: `rndz.r t, x` then `(+f0) add t, t, 1.0` (see alu.rs `gen4_round`):
    // t = ⌊x⌋ and .r set when trunc(x) = ⌊x⌋ + 1.
    //   x     1.5  −1.5  2  −2  −0.25  0.75  −3.75  5
    //   ⌊x⌋   1    −2    2  −2  −1     0     −4     5
    //   trunc 1    −1    2  −2  −0     0     −3     5
    let a = [1.5, -1.5, 2.0, -2.0, -0.25, 0.75, -3.75, 5.0].map(f);
    let body = "rndz.r.f0.0(8) v1:F, attr0:F\n\
                mov(8) v0:F, v1:F\n\
                (+f0.0) add(8) v0:F, v1:F, 1.0:F";
    let regs = run(Setup::logical("g45", 8), body, &[&a]);
    assert_eq!(
        vgrf(&regs, 1, Type::F, 8),
        fbs(&[1.0, -2.0, 2.0, -2.0, -1.0, 0.0, -4.0, 5.0])
    );
    let r = [false, true, false, false, true, false, true, false];
    assert_eq!(flag_bits(&regs, 0, 8), r.map(Some).to_vec());
    // −1 + 1 = +0 (the sequence's answer for trunc(−0.25)).
    assert_eq!(
        vgrf(&regs, 0, Type::F, 8),
        fbs(&[1.0, -1.0, 2.0, -2.0, 0.0, 0.0, -3.0, 5.0])
    );
    // Round-to-even: 2.5 → 2, 3.5 → 4, −2.5 → −2, 0.6 → 1, 1.5 → 2, −0.4 → −0, 4 → 4,
    // −3.5 → −4; stored ⌊x⌋ = 2 3 −3 0 1 −1 4 −4.
    let a = [2.5, 3.5, -2.5, 0.6, 1.5, -0.4, 4.0, -3.5].map(f);
    let body = body.replace("rndz", "rnde");
    let regs = run(Setup::logical("g45", 8), &body, &[&a]);
    assert_eq!(
        vgrf(&regs, 1, Type::F, 8),
        fbs(&[2.0, 3.0, -3.0, 0.0, 1.0, -1.0, 4.0, -4.0])
    );
    let r = [false, true, true, true, true, true, false, false];
    assert_eq!(flag_bits(&regs, 0, 8), r.map(Some).to_vec());
    assert_eq!(
        vgrf(&regs, 0, Type::F, 8),
        fbs(&[2.0, 4.0, -2.0, 1.0, 2.0, 0.0, 4.0, -4.0])
    );
}

#[test]
fn math_functions_at_exact_points() {
    let inf = f32::INFINITY;
    let run1 = |op: &str, a: &[f32]| {
        let a: Vec<_> = a.iter().map(|&x| f(x)).collect();
        let regs = run(
            Setup::logical("skl", 8),
            &format!("{op}(8) v0:F, attr0:F"),
            &[&a],
        );
        vgrf(&regs, 0, Type::F, 8)
    };
    // INV: 1/±0 = ±inf, 1/±inf = ±0.
    assert_eq!(
        run1("rcp", &[0.0, -0.0, 2.0, inf, 4.0, -inf, 0.5, 1.0]),
        fbs(&[inf, -inf, 0.5, 0.0, 0.25, -0.0, 2.0, 1.0])
    );
    assert_eq!(
        run1("sqrt", &[4.0, 0.0, -0.0, inf, 2.25, 1.0, 16.0, 0.25]),
        fbs(&[2.0, 0.0, -0.0, inf, 1.5, 1.0, 4.0, 0.5])
    );
    assert_eq!(
        run1("exp2", &[0.0, 1.0, -1.0, 10.0, -inf, inf, 3.0, -2.0]),
        fbs(&[1.0, 2.0, 0.5, 1024.0, 0.0, inf, 8.0, 0.25])
    );
    assert_eq!(
        run1("log2", &[1.0, 2.0, 0.5, 1024.0, 0.0, inf, 8.0, 0.25]),
        fbs(&[0.0, 1.0, -1.0, 10.0, -inf, inf, 3.0, -2.0])
    );
}
