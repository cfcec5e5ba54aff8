//! `lower_integer_multiplication` (docs/hardware/brw-backend.md §6).
//!
//! * D×D → D on parts without DxD multiply (gen7+: the multiplier reads src1's low word):
//!   an immediate in [−32768, 65535] becomes one MUL by a W (negative) or UW immediate;
//!   otherwise `low = a × b.uw[0]`, `high = a × b.uw[1]`, `low.uw[1] += high.uw[0]`. src1
//!   modifiers are applied first (a modifier on a 16-bit half is a different number); a
//!   fresh `low` is used when the destination overlaps a source, is null, strided or not a
//!   dword, or the MUL is predicated or has a conditional modifier (moved onto the final
//!   MOV, which converts to a narrower destination type).
//! * MULH → `mul acc0, a, b.uw[0]` + `mach dst, a, b` (IVB/BYT second-quarter MACH goes
//!   through a NoMask group-0 temporary: their implicit 2Q accumulator is acc1, which
//!   integers lack).
//! * A native MUL with a D/UD source (D×D, or D×W/B) and a conditional modifier: the MUL,
//!   then a MOV.cmod of the product.
//! * Q×Q (64-bit int parts): from 32-bit halves: lo(x)·lo(y) in full, plus the low 32 bits
//!   of hi(x)·lo(y) and lo(x)·hi(y) into the high dword.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError};
use crate::program::Program;
use crate::reg::{Reg, RegKind};
use crate::types::Type;

fn is_dword_int(t: Type) -> bool {
    matches!(t, Type::D | Type::UD)
}

fn is_qword_int(t: Type) -> bool {
    matches!(t, Type::Q | Type::UQ)
}

/// A new instruction with `inst`'s channels (group, NoMask) but no predicate or modifiers.
fn like(inst: &Inst, op: Opcode, dst: Reg, srcs: Vec<Reg>) -> Inst {
    let mut i = Inst::new(op, inst.exec_size, dst, srcs);
    i.group = inst.group;
    i.nomask = inst.nomask;
    i
}

/// Like [`like`], also under `inst`'s predicate: the instruction that lands the result.
fn like_predicated(inst: &Inst, op: Opcode, dst: Reg, srcs: Vec<Reg>) -> Inst {
    let mut i = like(inst, op, dst, srcs);
    i.predicate = inst.predicate;
    i.flag_subreg = inst.flag_subreg;
    i
}

/// `mov.cmod null, value` with `inst`'s channels, predicate and flag: the compare a
/// lowered multiply's conditional modifier becomes, on the finished product. The test
/// runs in the destination's type (a null destination keeps its type: the value converts
/// to it first), as the conditional modifier of the original instruction would.
fn cmod_test(inst: &Inst, value: Reg) -> Option<Inst> {
    let cmod = inst.cmod?;
    let null = if inst.dst.is_null() {
        inst.dst
    } else {
        Reg::null(value.ty)
    };
    let mut test = like_predicated(inst, Opcode::Mov, null, vec![value]);
    test.cmod = Some(cmod);
    Some(test)
}

fn new_temp(p: &mut Program, inst: &Inst, ty: Type) -> Reg {
    super::temp(p, ty, inst.exec_size as u32 * ty.size())
}

/// The 16-bit half `k` of a 32-bit operand, as UW read every other word.
fn half(r: Reg, k: u32) -> Reg {
    if let RegKind::Imm(bits) = r.kind {
        return Reg::imm_uw((bits >> (16 * k)) as u16);
    }
    let mut h = r.subscript(Type::UW, k);
    h.negate = false;
    h.abs = false;
    h
}

/// The dword half `k` of a 64-bit operand.
fn dword_half(r: Reg, k: u32) -> Reg {
    let ud = if r.ty == Type::Q { Type::D } else { Type::UD };
    if let RegKind::Imm(bits) = r.kind {
        return Reg::imm((bits >> (32 * k)) & 0xffff_ffff, Type::UD);
    }
    r.subscript(if k == 1 { ud } else { Type::UD }, k)
}

/// Whether writing `a` may change what `b` reads: the same VGRF, or fixed GRFs whose bytes
/// meet (an in-place `mul g15, u2, g15`) at `n` channels.
fn may_overlap(a: &Reg, b: &Reg, n: u32) -> bool {
    match (a.kind, b.kind) {
        (RegKind::Vgrf { nr: x, .. }, RegKind::Vgrf { nr: y, .. }) => x == y,
        (RegKind::Fixed { .. }, RegKind::Fixed { .. }) => match (a.footprint(n), b.footprint(n)) {
            (Some((s1, e1)), Some((s2, e2))) => s1 < e2 && s2 < e1,
            _ => false,
        },
        _ => false,
    }
}

/// Copies `src` (with its modifiers) into a packed temporary of its type.
fn materialize(p: &mut Program, inst: &Inst, src: Reg, out: &mut Vec<Inst>) -> Reg {
    let t = new_temp(p, inst, src.ty);
    out.push(like(inst, Opcode::Mov, t, vec![src]));
    t
}

/// A 32×32 → 64-bit multiply: the low dword as a D×D MUL, the high dword as a MULH, both
/// into temporaries, then the two halves into the destination.
fn lower_widening(p: &mut Program, mut inst: Inst, opts: &CompileOptions) -> Vec<Inst> {
    crate::pass::note("widening");
    let signed = inst.srcs.iter().any(|s| s.ty == Type::D);
    let high_ty = if signed { Type::D } else { Type::UD };
    let mut out = vec![];
    // Into null, only the conditional modifier is a result: the product goes through a
    // temporary of the null's type and is tested there.
    let null = inst.dst.is_null().then_some(inst.dst);
    if null.is_some() {
        inst.dst = new_temp(p, &inst, inst.dst.ty);
    }
    // Source modifiers apply to the 32-bit values, before either half is computed.
    for i in 0..2 {
        let s = inst.srcs[i];
        if s.negate || s.abs {
            inst.srcs[i] = materialize(p, &inst, s, &mut out);
        }
    }
    let low = new_temp(p, &inst, Type::UD);
    let high = new_temp(p, &inst, high_ty);
    out.extend(lower_dword(
        p,
        like(&inst, Opcode::Mul, low, inst.srcs.clone()),
        opts,
    ));
    let mut mulh = like(&inst, Opcode::Mulh, high, inst.srcs.clone());
    for s in &mut mulh.srcs {
        if s.is_imm() {
            *s = materialize(p, &inst, *s, &mut out);
        } else {
            *s = s.retype(high_ty);
        }
    }
    out.extend(lower_mulh(p, mulh));
    for (k, part) in [(0, low), (1, high.retype(Type::UD))] {
        out.push(like_predicated(
            &inst,
            Opcode::Mov,
            dword_half(inst.dst, k).retype(Type::UD),
            vec![part],
        ));
    }
    if let Some(null) = null {
        let test = inst.cmod.map(|_| Inst {
            dst: null,
            ..inst.clone()
        });
        out.extend(test.and_then(|t| cmod_test(&t, inst.dst)));
    } else {
        out.extend(cmod_test(&inst, inst.dst));
    }
    out
}

fn lower_dword(p: &mut Program, mut inst: Inst, opts: &CompileOptions) -> Vec<Inst> {
    if is_qword_int(inst.dst.ty) {
        return lower_widening(p, inst, opts);
    }
    let mut out = vec![];
    if inst.srcs[0].is_imm() && !inst.srcs[1].is_imm() {
        inst.srcs.swap(0, 1);
    } else if inst.srcs[0].is_imm() {
        let a = materialize(p, &inst, inst.srcs[0], &mut out);
        inst.srcs[0] = a;
    }
    let (a, b) = (inst.srcs[0], inst.srcs[1]);
    if let RegKind::Imm(bits) = b.kind {
        let signed = if b.ty == Type::D {
            bits as u32 as i32 as i64
        } else {
            bits as u32 as i64
        };
        let word_range = (-32768..=65535).contains(&signed);
        let fits = if crate::zoo!(opts, ImulSignedImmAsW) {
            (bits as u32) < 65536
        } else {
            word_range
        };
        if word_range {
            // Where a W and a UW reading of the immediate differ, and where they agree.
            crate::pass::note(if signed < 0 {
                "dword-negative-immediate"
            } else if signed > 32767 {
                "dword-immediate-above-int16"
            } else {
                "dword-word-immediate"
            });
        }
        if fits && inst.cmod.is_none() {
            let imm_ty = if crate::zoo!(opts, ImulSignedImmAsW) {
                if b.ty == Type::UD { Type::UW } else { Type::W }
            } else if signed < 0 {
                Type::W
            } else {
                Type::UW
            };
            let mut mul = inst.clone();
            let imm = Reg::imm(bits & 0xffff, imm_ty);
            if p.device.info().mul_low16_src == 0 {
                // Gen4–6 read src0's low word: the 16-bit value goes to src0, in a register.
                let t = new_temp(p, &inst, imm_ty);
                out.push(like(&inst, Opcode::Mov, t, vec![imm]));
                mul.srcs = vec![t, a];
            } else {
                mul.srcs[1] = imm;
            }
            out.push(mul);
            return out;
        }
    }
    crate::pass::note("dword-halves");
    if b.negate || b.abs {
        crate::pass::note("dword-src1-modifier");
    }
    let n = inst.exec_size as u32;
    if may_overlap(&inst.dst, &a, n) || may_overlap(&inst.dst, &b, n) {
        crate::pass::note("dword-destination-overlap");
    }
    let b = if (b.negate || b.abs) && !crate::zoo!(opts, ImulSrc1ModifierHalves) {
        materialize(p, &inst, b, &mut out)
    } else {
        b
    };
    let dst_stride = super::elem_stride(&inst.dst).unwrap_or(1);
    let overlap = !crate::zoo!(opts, ImulDstOverlap)
        && (may_overlap(&inst.dst, &a, n) || may_overlap(&inst.dst, &b, n));
    let needs_temp = inst.dst.is_null()
        || inst.dst.ty.size() != 4
        || dst_stride != 1
        || overlap
        || inst.predicate.is_some()
        || inst.cmod.is_some();
    let low = if needs_temp {
        new_temp(p, &inst, Type::UD)
    } else {
        inst.dst.retype(Type::UD)
    };
    let high = new_temp(p, &inst, Type::UD);
    let with_mod = |r: Reg, half: Reg| Reg {
        negate: r.negate,
        abs: r.abs,
        ..half
    };
    let halves_in_src0 = p.device.info().mul_low16_src == 0;
    let b = if halves_in_src0 && b.is_imm() {
        materialize(p, &inst, b, &mut out)
    } else {
        b
    };
    let piece = |k: u32| {
        if halves_in_src0 {
            vec![with_mod(b, half(b, k)), a]
        } else {
            vec![a, with_mod(b, half(b, k))]
        }
    };
    out.push(like(&inst, Opcode::Mul, low, piece(0)));
    out.push(like(&inst, Opcode::Mul, high, piece(1)));
    let low_hi = half(low, 1);
    out.push(like(
        &inst,
        Opcode::Add,
        low_hi,
        vec![low_hi, half(high, 0)],
    ));
    if needs_temp && !inst.dst.is_null() {
        // Same-size destinations take the bits; narrower ones convert (keep the low word).
        let result = if inst.dst.ty.size() == 4 {
            low.retype(inst.dst.ty)
        } else {
            low
        };
        let mut mov = like_predicated(&inst, Opcode::Mov, inst.dst, vec![result]);
        mov.cmod = inst.cmod;
        out.push(mov);
    } else if inst.dst.is_null() {
        out.extend(cmod_test(&inst, low.retype(a.ty)));
    }
    out
}

fn lower_mulh(p: &mut Program, inst: Inst) -> Vec<Inst> {
    crate::pass::note("mulh");
    if inst.cmod.is_some() {
        // MUL/MACH pairs carry no conditional modifier: the high half lands in the
        // destination (a temporary for null), then a MOV.cmod tests it.
        let dst = if inst.dst.is_null() {
            new_temp(p, &inst, inst.dst.ty)
        } else {
            inst.dst
        };
        let mut out = lower_mulh(
            p,
            Inst {
                dst,
                cmod: None,
                ..inst.clone()
            },
        );
        out.extend(cmod_test(&inst, dst));
        return out;
    }
    if inst.exec_size > 8 {
        // The accumulator holds eight dword channels: MUL/MACH pairs are SIMD8 (MULHs made
        // here, after SIMD-width lowering, can be wider).
        let mut out = vec![];
        for k in (0..inst.exec_size).step_by(8) {
            let mut piece = inst.clone();
            piece.exec_size = 8;
            piece.group = inst.group + k;
            piece.dst = inst.dst.horiz_offset(k as u32);
            for s in &mut piece.srcs {
                *s = s.horiz_offset(k as u32);
            }
            out.extend(lower_mulh(p, piece));
        }
        return out;
    }
    let mut out = vec![];
    let a = inst.srcs[0];
    let mut b = inst.srcs[1];
    // A modifier on src1 must apply to the 32-bit value, not to the 16-bit half the MUL
    // reads: materialise it (on every generation).
    if b.negate || b.abs {
        b = materialize(p, &inst, b, &mut out);
    }
    let a = if a.is_imm() {
        materialize(p, &inst, a, &mut out)
    } else {
        a
    };
    let b = if b.is_imm() {
        materialize(p, &inst, b, &mut out)
    } else {
        b
    };
    let ty = inst.dst.ty;
    let mul = |a: Reg, b: Reg| like(&inst, Opcode::Mul, Reg::acc(0, ty), vec![a, half(b, 0)]);
    // The pair shares the accumulator lane by lane, so neither may be split later: MACH's
    // implicit accumulator read does not follow a piece's group. Regions the hardware
    // would split (e.g. a two-register strided destination with a one-register source on
    // Gen7) go through packed temporaries instead.
    let splits = |i: &Inst| super::lower_simd_width::lowered_width(p, i) < i.exec_size as u32;
    let packed = splits(&mul(a, b)) || splits(&like(&inst, Opcode::Mach, inst.dst, vec![a, b]));
    let (a, b) = if packed {
        let pack = |p: &mut Program, r: Reg, out: &mut Vec<Inst>| {
            let already = super::elem_stride(&r) == Some(1) && super::reg_offset(&r) == 0;
            if r.is_uniform() || already {
                r
            } else {
                materialize(p, &inst, r, out)
            }
        };
        (pack(p, a, &mut out), pack(p, b, &mut out))
    } else {
        (a, b)
    };
    out.push(mul(a, b));
    // IVB/BYT route a second-quarter implicit accumulator access to acc1, which integers
    // lack: such a MACH runs as group 0, NoMask, into a temporary.
    let ivb_second_half = p.device.info().verx10 == 70 && inst.group >= 8;
    if ivb_second_half || packed {
        let t = new_temp(p, &inst, ty);
        let mut m = like(&inst, Opcode::Mach, t, vec![a, b]);
        if ivb_second_half {
            m.group = 0;
            m.nomask = true;
        }
        out.push(m);
        out.push(like_predicated(&inst, Opcode::Mov, inst.dst, vec![t]));
    } else {
        out.push(like_predicated(&inst, Opcode::Mach, inst.dst, vec![a, b]));
    }
    out
}

fn lower_qword(p: &mut Program, inst: Inst, opts: &CompileOptions) -> Vec<Inst> {
    crate::pass::note("qword");
    let mut out = vec![];
    let has_dxd = p.device.info().has_integer_dword_mul && p.device.info().verx10 < 125;
    let mut x = inst.srcs[0];
    let mut y = inst.srcs[1];
    if x.negate || x.abs {
        x = materialize(p, &inst, x, &mut out);
    }
    if y.negate || y.abs {
        y = materialize(p, &inst, y, &mut out);
    }
    let (xl, xh, yl, yh) = (
        dword_half(x, 0),
        dword_half(x, 1).retype(Type::UD),
        dword_half(y, 0),
        dword_half(y, 1).retype(Type::UD),
    );
    let bd_lo = new_temp(p, &inst, Type::UD);
    let bd_hi = new_temp(p, &inst, Type::UD);
    if has_dxd {
        let full = new_temp(p, &inst, Type::UQ);
        out.push(like(&inst, Opcode::Mul, full, vec![xl, yl]));
        out.push(like(&inst, Opcode::Mov, bd_lo, vec![dword_half(full, 0)]));
        out.push(like(
            &inst,
            Opcode::Mov,
            bd_hi,
            vec![dword_half(full, 1).retype(Type::UD)],
        ));
    } else {
        let mut mulh = like(&inst, Opcode::Mulh, bd_hi, vec![xl, yl]);
        mulh.exec_size = inst.exec_size;
        out.extend(lower_mulh(p, mulh));
        let mut low = like(&inst, Opcode::Mul, bd_lo, vec![xl, yl]);
        low.exec_size = inst.exec_size;
        out.extend(lower_mul(p, low, opts));
    }
    let ad = new_temp(p, &inst, Type::UD);
    let bc = new_temp(p, &inst, Type::UD);
    out.extend(lower_mul(
        p,
        like(&inst, Opcode::Mul, ad, vec![xh, yl]),
        opts,
    ));
    out.extend(lower_mul(
        p,
        like(&inst, Opcode::Mul, bc, vec![xl, yh]),
        opts,
    ));
    out.push(like(&inst, Opcode::Add, bd_hi, vec![bd_hi, ad]));
    out.push(like(&inst, Opcode::Add, bd_hi, vec![bd_hi, bc]));
    if inst.dst.is_null() && inst.cmod.is_none() {
        return out;
    }
    // A narrower destination takes the 64-bit product through a temporary (a conversion);
    // so does a null one with a conditional modifier, whose flag is the only result: the
    // test then runs on the product converted to the null's type (docs/hardware/brw-backend.md §6).
    let wide = is_qword_int(inst.dst.ty) && !inst.dst.is_null();
    let product = if wide {
        inst.dst
    } else {
        new_temp(p, &inst, Type::UQ)
    };
    for (k, part) in [(0, bd_lo), (1, bd_hi)] {
        let mut mov = like(
            &inst,
            Opcode::Mov,
            dword_half(product, k).retype(Type::UD),
            vec![part],
        );
        if wide {
            mov.predicate = inst.predicate;
            mov.flag_subreg = inst.flag_subreg;
        }
        out.push(mov);
    }
    if !wide {
        let mut mov = like_predicated(&inst, Opcode::Mov, inst.dst, vec![product]);
        mov.cmod = inst.cmod;
        out.push(mov);
    } else {
        out.extend(cmod_test(&inst, inst.dst));
    }
    out
}

/// A native D×D MUL takes no conditional modifier: multiply, then test the product.
fn split_cmod(p: &mut Program, mut inst: Inst) -> Vec<Inst> {
    crate::pass::note("cmod-after-multiply");
    let test = if inst.dst.is_null() {
        let with_null = inst.clone();
        inst.dst = new_temp(p, &inst, inst.dst.ty);
        cmod_test(&with_null, inst.dst)
    } else {
        cmod_test(&inst, inst.dst)
    };
    inst.cmod = None;
    std::iter::once(inst).chain(test).collect()
}

/// From Gen7 the multiplier reads all of src0 and the low word of src1, and a DW multiplied
/// by a narrower integer must be src0 (docs/hardware/eu-hardware.md §4, docs/hardware/brw-backend.md §6).
/// A MUL with the narrower integer in src0 and the dword in src1 has its sources swapped
/// (the product is the same; each operand keeps its modifiers). A dword immediate in
/// src1 would land in src0, where no immediate may go: one that fits a word becomes that
/// word (no dword left), any other is loaded into a register first.
fn dword_into_src0(p: &mut Program, mut inst: Inst, opts: &CompileOptions) -> Vec<Inst> {
    let (a, b) = (inst.srcs[0], inst.srcs[1]);
    let narrower = a.ty.is_int() && a.ty.size() < 4;
    if p.device.info().mul_low16_src == 0
        || !narrower
        || !is_dword_int(b.ty)
        || crate::zoo!(opts, MulDwordSrc1Kept)
    {
        return vec![inst];
    }
    crate::pass::note("dword-into-src0");
    let mut out = vec![];
    if let Some(bits) = b.imm_bits() {
        let value = match b.ty {
            Type::D => i64::from(bits as u32 as i32),
            _ => i64::from(bits as u32),
        };
        let word = if b.ty == Type::D && i16::try_from(value).is_ok() {
            Some(Type::W)
        } else if b.ty == Type::UD && u16::try_from(value).is_ok() {
            Some(Type::UW)
        } else {
            None
        };
        if let Some(ty) = word {
            inst.srcs[1] = Reg::imm(value as u64 & 0xffff, ty);
            out.push(inst);
            return out;
        }
        inst.srcs[1] = materialize(p, &inst, b, &mut out);
    }
    inst.srcs.swap(0, 1);
    out.push(inst);
    out
}

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &[
    "dword-into-src0",
    "dword-src1-modifier",
    "dword-destination-overlap",
    "dword-immediate-above-int16",
    "dword-negative-immediate",
    "dword-word-immediate",
    "cmod-after-multiply",
    "widening",
    "mulh",
    "qword",
    "dword-halves",
];

/// Lowers one MUL or MULH if the device needs it; anything else is returned unchanged.
pub fn lower_mul(p: &mut Program, inst: Inst, opts: &CompileOptions) -> Vec<Inst> {
    let info = p.device.info();
    let native_dxd = info.has_integer_dword_mul && info.verx10 < 125;
    match inst.op {
        Opcode::Mulh => lower_mulh(p, inst),
        Opcode::Mul if inst.srcs.len() == 2 && !inst.dst.is_accumulator() => {
            let mut out = dword_into_src0(p, inst, opts);
            let inst = out.pop().expect("the multiply");
            let (a, b) = (inst.srcs[0].ty, inst.srcs[1].ty);
            out.extend(if is_qword_int(a) && is_qword_int(b) {
                lower_qword(p, inst, opts)
            } else if is_dword_int(a) && is_dword_int(b) && !native_dxd {
                lower_dword(p, inst, opts)
            } else if (is_dword_int(a) || is_dword_int(b))
                && a.is_int()
                && b.is_int()
                && inst.cmod.is_some()
            {
                // docs/hardware/eu-hardware.md §4: no conditional modifier on a MUL with any D/UD source.
                split_cmod(p, inst)
            } else {
                vec![inst]
            });
            out
        }
        _ => vec![inst],
    }
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "lower_integer_multiplication",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    let mut out = vec![];
    for inst in p.take_insts() {
        if !matches!(inst.op, Opcode::Mul | Opcode::Mulh) {
            out.push(inst);
            continue;
        }
        let before = inst.clone();
        let mut lowered = lower_mul(p, inst, opts);
        if lowered.len() > 1 {
            // The halves read a fixed destination back (`add g19.11<16;8,2>:UW, g19.11…`):
            // with a source region for their own width.
            for i in &mut lowered {
                let n = i.exec_size as u32;
                for s in &mut i.srcs {
                    *s = super::legal_fixed_source(*s, n);
                }
            }
        }
        progress |= lowered.len() != 1 || lowered[0] != before;
        out.extend(lowered);
    }
    p.set_insts(out);
    Ok(progress)
}
