//! Inputs for vec4-stage programs (`stage vs`): what the fragment draw gives dword by dword
//! would make almost every double a denormal or a NaN, so data the program reads as DF —
//! a dvec4 attribute, a uniform slot read as DF — gets whole doubles, biased toward the
//! values that break DF lowering (±0, ±Inf, NaN, int32 limits and beyond for d2i, values
//! float cannot hold for d2f, small integers that make results checkable by hand).
//! A thread runs both vertices or, with probability `partial_quarters` / 4, vertex 0 alone.

use super::special_value;
use compiler::inputs::{Inputs, Value};
use compiler::program::VEC4_DISPATCH_MASKS;
use compiler::reg::{REG_SIZE, RegKind};
use compiler::{Program, Type};

const SPECIAL_DOUBLES: [f64; 16] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    2147483647.0,
    -2147483648.0,
    4294967296.5,
    1.0e300,
    1.0e-310,
    0.1,
    3.0e38,
    f64::MAX,
];

/// One double: a special value, a small integer, or a multiple of 1/8.
fn special_double(below: &mut impl FnMut(u64) -> u64) -> Value {
    let v = match below(4) {
        0 => SPECIAL_DOUBLES[below(SPECIAL_DOUBLES.len() as u64) as usize],
        1 => below(201) as f64 - 100.0,
        _ => (below(16001) as f64 - 8000.0) / 8.0,
    };
    Value::new(Type::DF, v.to_bits())
}

/// Which uniform dwords and which attrs the program reads as DF.
fn df_reads(p: &Program) -> (Vec<bool>, Vec<bool>) {
    let mut uniform = vec![false; p.uniforms as usize];
    let mut attr = vec![false; p.attr_sizes.len()];
    for r in p.insts().flat_map(|i| &i.srcs).filter(|r| r.ty == Type::DF) {
        match r.kind {
            RegKind::Uniform { nr, offset } => {
                let first = (nr + offset / 4) as usize;
                for d in uniform.iter_mut().skip(first).take(8) {
                    *d = true;
                }
            }
            RegKind::Attr { nr, .. } => {
                if let Some(a) = attr.get_mut(nr as usize) {
                    *a = true;
                }
            }
            _ => {}
        }
    }
    (uniform, attr)
}

/// Values for `dwords` dwords: doubles where `df` says so (pairs), 32-bit specials elsewhere.
fn values(df: &[bool], below: &mut impl FnMut(u64) -> u64) -> Vec<Value> {
    let mut out = vec![];
    let mut i = 0;
    while i < df.len() {
        if df[i] && i + 1 < df.len() {
            out.push(special_double(below));
            i += 2;
        } else {
            out.push(special_value(below));
            i += 1;
        }
    }
    out
}

/// Inputs for the vec4 program `p` (module docs).
pub(super) fn draw(
    p: &Program,
    partial_quarters: u64,
    below: &mut impl FnMut(u64) -> u64,
) -> Inputs {
    let (df_uniforms, df_attrs) = df_reads(p);
    let mut inputs = Inputs {
        uniforms: values(&df_uniforms, below),
        ..Inputs::default()
    };
    for t in 0..p.threads {
        if below(4) < partial_quarters {
            inputs.dispatch_masks.insert(t, VEC4_DISPATCH_MASKS[0]);
        }
        for (a, &size) in p.attr_sizes.iter().enumerate() {
            let dwords = (size * REG_SIZE / 4) as usize;
            let mut vals = values(&vec![df_attrs[a]; dwords], below);
            // One attr in four gives both vertices the same vec4 (equal operands meet).
            if below(4) == 0 {
                let half = vals.len() / 2;
                let (v0, v1) = vals.split_at_mut(half);
                v1.copy_from_slice(v0);
            }
            inputs.attrs.insert((t, a as u32), vals);
        }
    }
    inputs
}
