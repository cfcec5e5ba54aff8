//! Fast path for the common 32-bit ALU instructions: all channels are gathered into arrays,
//! computed in one tight loop and scattered back. Each kernel computes exactly what the
//! generic per-channel path computes (same conversions, same compare and conditional-modifier
//! functions); instructions outside these shapes take the generic path.

use super::decode::DInst;
use super::exec::{Ctx, Enables, enables};
use super::operand::{Loc, Operand};
use super::state::{FLOAT_NAN, Thread};
use super::value::{Num, cmod_holds, compare};
use compiler::Opcode;
use compiler::inst::CondMod;
use compiler::types::Type;

/// What a fast-path instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Register-to-register MOV without modifiers or conditional modifier: bytes and their
    /// defined flags, elements of any size.
    RawMove,
    /// A computation on gathered dword values.
    Compute(Arith),
}

/// A fast-path computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// F sources (no vector immediates), F or null destination (any 32-bit one for CMP).
    Float(Op),
    /// D/UD destination (or null) and sources, or W/UW sources without modifiers (outside
    /// shifts), no saturate.
    Int(Op),
    /// MOV between F and D/UD: the destination type.
    Convert(Type),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Mov,
    Add,
    Mul,
    Mad,
    /// SEL with a conditional modifier and no predicate: min/max.
    MinMax(CondMod),
    Cmp(CondMod),
    And,
    Or,
    Xor,
    Not,
    Shl,
    Shr,
    Asr,
}

fn plain_location(op: &Operand) -> bool {
    match op.loc {
        Loc::Space(_) => true,
        Loc::Imm(_) => !op.ty.is_vector_imm(),
        _ => false,
    }
}

/// Picks a kernel for an instruction, if it has one of the fast shapes.
pub fn classify(d: &DInst, hardware_mul: bool, dxd: bool) -> Option<Kernel> {
    let inst = &d.inst;
    if !d.violations.is_empty() || inst.acc_wr || d.srcs.is_empty() {
        return None;
    }
    // `.o`/`.r` leave the flag undefined (or are Gen4/5 rounding): the generic path's job.
    if matches!(inst.cmod, Some(CondMod::O | CondMod::R)) {
        return None;
    }
    if !d.srcs.iter().all(plain_location) || !matches!(d.dst.loc, Loc::Space(_) | Loc::Null) {
        return None;
    }
    let op = match inst.op {
        Opcode::Mov => Op::Mov,
        Opcode::Add => Op::Add,
        Opcode::Mul => Op::Mul,
        Opcode::Mad => Op::Mad,
        Opcode::Sel if inst.predicate.is_none() => Op::MinMax(inst.cmod?),
        Opcode::Cmp => Op::Cmp(inst.cmod?),
        Opcode::And => Op::And,
        Opcode::Or => Op::Or,
        Opcode::Xor => Op::Xor,
        Opcode::Not => Op::Not,
        Opcode::Shl => Op::Shl,
        Opcode::Shr => Op::Shr,
        Opcode::Asr => Op::Asr,
        _ => return None,
    };
    let dst_ty = d.dst.ty;
    // Register-to-register raw moves keep per-byte defined flags: the generic path's job.
    let s0 = &d.srcs[0];
    let raw_move = op == Op::Mov && s0.ty == dst_ty && !s0.negate && !s0.abs && !inst.saturate;
    if raw_move && matches!(s0.loc, Loc::Space(_)) && matches!(d.dst.loc, Loc::Space(_)) {
        return inst.cmod.is_none().then_some(Kernel::RawMove);
    }
    let all_f = d.srcs.iter().all(|s| s.ty == Type::F);
    // A word source is sign- or zero-extended as the generic path decodes it; its modifiers
    // and shifts (whose count and width follow the source type) stay the generic path's job.
    let shift = matches!(op, Op::Shl | Op::Shr | Op::Asr);
    let all_dw = d.srcs.iter().all(|s| {
        matches!(s.ty, Type::D | Type::UD)
            || (matches!(s.ty, Type::W | Type::UW) && !s.negate && !s.abs && !shift)
    });
    let float_op = matches!(
        op,
        Op::Mov | Op::Add | Op::Mul | Op::Mad | Op::MinMax(_) | Op::Cmp(_)
    );
    if all_f && float_op && (dst_ty == Type::F || (matches!(op, Op::Cmp(_)) && dst_ty.size() == 4))
    {
        return Some(Kernel::Compute(Arith::Float(op)));
    }
    let int_or_f = |t: Type| matches!(t, Type::F | Type::D | Type::UD);
    if op == Op::Mov
        && int_or_f(d.srcs[0].ty)
        && int_or_f(dst_ty)
        && (d.srcs[0].ty == Type::F) != (dst_ty == Type::F)
    {
        return Some(Kernel::Compute(Arith::Convert(dst_ty)));
    }
    let int_op = !matches!(op, Op::Mad);
    let truncating_mul = op == Op::Mul && hardware_mul && !dxd;
    if all_dw && int_op && !truncating_mul && !inst.saturate && matches!(dst_ty, Type::D | Type::UD)
    {
        return Some(Kernel::Compute(Arith::Int(op)));
    }
    None
}

/// Per-channel raw source values and a defined bit per channel.
#[derive(Clone, Copy)]
struct Gathered {
    vals: [u32; 32],
    def: u32,
}

/// Bit 0 of each of a dword's four byte flags: all set when every byte is defined.
const DEFINED_BITS: u32 = 0x0101_0101;

fn gather(t: &Thread, op: &Operand, n: usize, g: &mut Gathered) {
    g.def = 0;
    let size = op.ty.size() as usize;
    match (&op.loc, op.packed_base) {
        (Loc::Space(_), Some(base)) if size == 4 => {
            let (bytes, _) = t.space.bytes[base..base + 4 * n].as_chunks::<4>();
            let (defs, _) = t.space.def[base..base + 4 * n].as_chunks::<4>();
            for (c, (b, d)) in bytes.iter().zip(defs).enumerate() {
                g.vals[c] = u32::from_le_bytes(*b);
                g.def |= ((u32::from_le_bytes(*d) & DEFINED_BITS == DEFINED_BITS) as u32) << c;
            }
        }
        (Loc::Space(offs), _) => {
            for (c, &a) in offs.iter().take(n).enumerate() {
                let (v, def) = t.space.read(a as usize, size);
                g.vals[c] = v as u32;
                g.def |= (def as u32) << c;
            }
        }
        (Loc::Imm(bits), _) => {
            g.vals[..n].fill(*bits as u32);
            g.def = u32::MAX;
        }
        _ => {}
    }
}

/// Applies `f` to every channel of up to three gathered sources.
#[inline(always)]
fn map<const N: usize>(
    g: &[Gathered; 3],
    n: usize,
    out: &mut [u32; 32],
    f: impl Fn([u32; N]) -> u32,
) {
    for (c, o) in out.iter_mut().enumerate().take(n) {
        let mut args = [0u32; N];
        for (i, a) in args.iter_mut().enumerate() {
            *a = g[i].vals[c];
        }
        *o = f(args);
    }
}

fn float_in(op: &Operand, bits: u32) -> f64 {
    let f = super::value::f32_to_f64(bits);
    let f = if op.abs { f.abs() } else { f };
    if op.negate { -f } else { f }
}

/// An integer source after modifiers, wrapped to its own type, as the generic path holds it
/// (word sources have no modifiers on the fast path).
fn int_in(op: &Operand, bits: u32, logic: bool) -> i64 {
    match op.ty {
        Type::W => return bits as u16 as i16 as i64,
        Type::UW => return bits as u16 as i64,
        _ => {}
    }
    if logic {
        let v = if op.ty == Type::D {
            bits as i32 as i64
        } else {
            bits as i64
        };
        return if op.negate { !v } else { v };
    }
    if op.ty == Type::D {
        let mut v = bits as i32;
        if op.abs {
            v = v.wrapping_abs();
        }
        if op.negate {
            v = v.wrapping_neg();
        }
        v as i64
    } else {
        let v = if op.negate { bits.wrapping_neg() } else { bits };
        v as i64
    }
}

/// Bits of an F result (rounded once from f64, a NaN keeping its payload), saturated
/// (NaN → 0, clamp to [0, 1]) if asked.
fn single_bits(r: f64, sat: bool) -> u32 {
    let bits = super::value::float_bits(r, Type::F) as u32;
    if sat { saturate_single(bits) } else { bits }
}

/// Saturates F bits: NaN → 0, clamp to [0, 1].
fn saturate_single(bits: u32) -> u32 {
    let f = f32::from_bits(bits);
    if f.is_nan() {
        0
    } else {
        f.clamp(0.0, 1.0).to_bits()
    }
}

const NEGATIVE_ZERO: u32 = 0x8000_0000;

/// Executes a fast-path instruction; returns the channels it ran for.
pub fn exec(t: &mut Thread, d: &DInst, k: Kernel, ctx: &Ctx) -> u32 {
    let e: Enables = enables(t, d, ctx.dispatch_width);
    let n = d.inst.exec_size as usize;
    match k {
        Kernel::RawMove => raw_move(t, d, &e, n),
        Kernel::Compute(a) => compute(t, d, a, &e, n, ctx.device.info().verx10 / 10),
    }
}

/// Gathers the sources, computes every channel, scatters the enabled ones.
fn compute(t: &mut Thread, d: &DInst, k: Arith, e: &Enables, n: usize, ver: u32) -> u32 {
    let mut g = [Gathered {
        vals: [0; 32],
        def: u32::MAX,
    }; 3];
    for (slot, s) in g.iter_mut().zip(&d.srcs) {
        gather(t, s, n, slot);
    }
    let mut def = g[0].def & g[1].def & g[2].def & !e.unknown;
    let mut out = [0u32; 32];
    let mut cond = [false; 32];
    // Channels whose destination is undefined though their flag is not.
    let mut unsure_dst = 0u32;
    let sat = d.inst.saturate;
    match k {
        Arith::Float(op) => {
            let (s0, s1, s2) = (
                &d.srcs[0],
                d.srcs.get(1).unwrap_or(&d.srcs[0]),
                d.srcs.get(2).unwrap_or(&d.srcs[0]),
            );
            let raw_move = op == Op::Mov && is_raw_float_move(d);
            // Saturation comes after the channel loop, which needs the unsaturated bits.
            let fin = |v: f64| single_bits(v, false);
            let nan = |r: f64, srcs: &[f64]| {
                if r.is_nan() {
                    super::value::propagate_nan(srcs.iter().copied())
                } else {
                    r
                }
            };
            match op {
                Op::Mov if raw_move => out[..n].copy_from_slice(&g[0].vals[..n]),
                Op::Mov => map::<1>(&g, n, &mut out, |[a]| fin(float_in(s0, a))),
                Op::Add => map::<2>(&g, n, &mut out, |[a, b]| {
                    let (a, b) = (float_in(s0, a), float_in(s1, b));
                    fin(nan(a + b, &[a, b]))
                }),
                Op::Mul => map::<2>(&g, n, &mut out, |[a, b]| {
                    let (a, b) = (float_in(s0, a), float_in(s1, b));
                    fin(nan(a * b, &[a, b]))
                }),
                Op::Mad => map::<3>(&g, n, &mut out, |[a, b, c]| {
                    let (a, b, c) = (float_in(s0, a), float_in(s1, b), float_in(s2, c));
                    fin(nan(b.mul_add(c, a), &[a, b, c]))
                }),
                Op::MinMax(m) => map::<2>(&g, n, &mut out, |[a, b]| {
                    let (a, b) = (float_in(s0, a), float_in(s1, b));
                    let pick_a =
                        !a.is_nan() && (b.is_nan() || compare(m, Num::Float(a), Num::Float(b)));
                    fin(if pick_a { a } else { b })
                }),
                Op::Cmp(m) => {
                    for c in 0..n {
                        cond[c] = compare(
                            m,
                            Num::Float(float_in(s0, g[0].vals[c])),
                            Num::Float(float_in(s1, g[1].vals[c])),
                        );
                        out[c] = if cond[c] { u32::MAX } else { 0 };
                    }
                }
                _ => {}
            }
            if sat && !matches!(op, Op::Cmp(_)) {
                // A saturated −0.0 has no documented sign: undefined (value.rs).
                for (c, o) in out.iter_mut().enumerate().take(n) {
                    if *o == NEGATIVE_ZERO {
                        unsure_dst |= 1 << c;
                    }
                    *o = saturate_single(*o);
                }
            }
        }
        Arith::Int(op) => {
            let logic = super::exec::negate_is_not(d.inst.op, ver);
            let (s0, s1) = (&d.srcs[0], d.srcs.get(1).unwrap_or(&d.srcs[0]));
            let a = |x: u32| int_in(s0, x, logic);
            let b = |x: u32| int_in(s1, x, logic);
            match op {
                Op::Mov => map::<1>(&g, n, &mut out, |[x]| a(x) as u32),
                Op::Add => map::<2>(&g, n, &mut out, |[x, y]| a(x).wrapping_add(b(y)) as u32),
                Op::Mul => map::<2>(&g, n, &mut out, |[x, y]| {
                    (a(x) as u32).wrapping_mul(b(y) as u32)
                }),
                Op::And => map::<2>(&g, n, &mut out, |[x, y]| (a(x) & b(y)) as u32),
                Op::Or => map::<2>(&g, n, &mut out, |[x, y]| (a(x) | b(y)) as u32),
                Op::Xor => map::<2>(&g, n, &mut out, |[x, y]| (a(x) ^ b(y)) as u32),
                Op::Not => map::<1>(&g, n, &mut out, |[x]| !(a(x) as u32)),
                Op::Shl => map::<2>(&g, n, &mut out, |[x, y]| {
                    (a(x) as u32).wrapping_shl(b(y) as u32 & 31)
                }),
                Op::Shr => map::<2>(&g, n, &mut out, |[x, y]| {
                    (a(x) as u32) >> (b(y) as u32 & 31)
                }),
                Op::Asr => map::<2>(&g, n, &mut out, |[x, y]| {
                    ((a(x) as u32 as i32) >> (b(y) as u32 & 31)) as u32
                }),
                Op::MinMax(m) => map::<2>(&g, n, &mut out, |[x, y]| {
                    let (x, y) = (a(x), b(y));
                    if compare(m, Num::Int(x as i128), Num::Int(y as i128)) {
                        x as u32
                    } else {
                        y as u32
                    }
                }),
                Op::Cmp(m) => {
                    for c in 0..n {
                        cond[c] = compare(
                            m,
                            Num::Int(a(g[0].vals[c]) as i128),
                            Num::Int(b(g[1].vals[c]) as i128),
                        );
                        out[c] = if cond[c] { u32::MAX } else { 0 };
                    }
                }
                Op::Mad => {}
            }
        }
        Arith::Convert(to) => {
            let s0 = &d.srcs[0];
            if s0.ty == Type::F {
                let (lo, hi) = if to == Type::D {
                    (i32::MIN as f64, i32::MAX as f64)
                } else {
                    (0.0, u32::MAX as f64)
                };
                map::<1>(&g, n, &mut out, |[x]| {
                    let f = float_in(s0, x);
                    if f.is_nan() {
                        0
                    } else {
                        let t = f.trunc();
                        if t <= lo {
                            lo as i64 as u32
                        } else if t >= hi {
                            hi as i64 as u32
                        } else {
                            t as i64 as u32
                        }
                    }
                });
            } else {
                map::<1>(&g, n, &mut out, |[x]| {
                    single_bits(int_in(s0, x, false) as f32 as f64, sat)
                });
            }
        }
    }
    let exec = e.exec;
    def &= exec;
    // NaN results of float operations carry the NaN mark, as on the generic path.
    let float_nan = match k {
        Arith::Float(Op::Cmp(_)) => 0,
        Arith::Float(Op::Mov) if is_raw_float_move(d) => 0,
        Arith::Float(_) => (0..n).fold(0u32, |m, c| {
            m | (f32::from_bits(out[c]).is_nan() as u32) << c
        }),
        _ => 0,
    };
    let dst_def = def & !unsure_dst;
    scatter(t, &d.dst, n, exec, (dst_def, dst_def & float_nan), &out);
    if let Some(m) = d.inst.cmod
        && d.inst.op != Opcode::Sel
    {
        let base = 16 * d.inst.flag_subreg as u32 + d.inst.group as u32;
        let is_cmp = matches!(k, Arith::Float(Op::Cmp(_)) | Arith::Int(Op::Cmp(_)));
        for c in 0..n {
            if exec >> c & 1 == 0 || base + c as u32 >= 64 {
                continue;
            }
            let v = if is_cmp {
                cond[c]
            } else {
                cmod_holds(m, out[c] as u64, d.dst.ty)
            };
            let b = 1u64 << (base + c as u32);
            t.flags = if v { t.flags | b } else { t.flags & !b };
            t.flags_def = if def >> c & 1 != 0 {
                t.flags_def | b
            } else {
                t.flags_def & !b
            };
        }
    }
    exec.count_ones()
}

/// A raw move of elements of any size: every channel's bytes and defined flags are read
/// before any lands.
fn raw_move(t: &mut Thread, d: &DInst, e: &Enables, n: usize) -> u32 {
    let (Loc::Space(src), Loc::Space(dst)) = (&d.srcs[0].loc, &d.dst.loc) else {
        return 0;
    };
    let size = d.dst.ty.size() as usize;
    let mut bytes = [[0u8; 8]; 32];
    let mut defs = [[0u8; 8]; 32];
    for c in 0..n {
        let a = src[c] as usize;
        bytes[c][..size].copy_from_slice(&t.space.bytes[a..a + size]);
        if e.unknown >> c & 1 == 0 {
            defs[c][..size].copy_from_slice(&t.space.def[a..a + size]);
        }
    }
    for c in (0..n).filter(|c| e.exec >> c & 1 != 0) {
        let a = dst[c] as usize;
        t.space.bytes[a..a + size].copy_from_slice(&bytes[c][..size]);
        t.space.def[a..a + size].copy_from_slice(&defs[c][..size]);
    }
    e.exec.count_ones()
}

/// An F-to-F MOV without modifiers copies bits: not a float operation.
fn is_raw_float_move(d: &DInst) -> bool {
    let s0 = &d.srcs[0];
    !s0.negate && !s0.abs && !d.inst.saturate
}

/// Writes the enabled channels of a 32-bit destination with their flags: `def` and
/// `float_nan` are per-channel masks (a NaN-marked channel is also defined).
fn scatter(
    t: &mut Thread,
    dst: &Operand,
    n: usize,
    exec: u32,
    (def, float_nan): (u32, u32),
    out: &[u32; 32],
) {
    let flag = |c: usize| {
        if float_nan >> c & 1 != 0 {
            FLOAT_NAN
        } else {
            (def >> c & 1) as u8
        }
    };
    match (&dst.loc, dst.packed_base) {
        (Loc::Space(_), Some(base)) => {
            let (bytes, _) = t.space.bytes[base..base + 4 * n].as_chunks_mut::<4>();
            let (defs, _) = t.space.def[base..base + 4 * n].as_chunks_mut::<4>();
            for (c, (b, d)) in bytes.iter_mut().zip(defs.iter_mut()).enumerate() {
                if exec >> c & 1 != 0 {
                    *b = out[c].to_le_bytes();
                    *d = [flag(c); 4];
                }
            }
        }
        (Loc::Space(offs), None) => {
            for (c, &a) in offs.iter().take(n).enumerate() {
                if exec >> c & 1 != 0 {
                    t.space.write_flagged(a as usize, 4, out[c] as u64, flag(c));
                }
            }
        }
        _ => {}
    }
}
