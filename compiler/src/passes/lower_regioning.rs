//! `lower_regioning` (docs/hardware/brw-backend.md §5): give every ALU instruction regions the hardware
//! accepts, by writing through a temporary with the required destination stride, or
//! copying sources into temporaries with the required stride and offset.
//!
//! * Narrowing conversions (destination smaller than the execution type) write with the
//!   execution type's byte stride; integer↔HF conversions write DWord-strided.
//! * On parts with the destination-aligned region restriction (CHV, BXT/GLK for 64-bit and
//!   DW×DW multiply, DG2 also for float destinations) the destination takes the largest
//!   source byte stride — capped at 4 elements of the smallest type, the widest encodable
//!   hstride — and each non-scalar source is copied to that stride and the destination's
//!   offset.
//! * An accumulator destination keeps its stride: a MOV into the accumulator would define
//!   only 33 of the bits a MUL/MACH pair needs, so the sources are fixed instead.
//! * Conversions the hardware lacks (64-bit ↔ byte, HF → 64-bit) go through D or F.
//! * Mixed-mode math reads half floats strided.

use super::{byte_stride, elem_stride, encoded_src_hstride, fixed_operand, reg_offset};
use crate::hw::{exec_type, is_mixed_float};
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError};
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, RegKind, Region};
use crate::types::Type;

/// Not an ALU instruction this pass legalises.
fn skip(inst: &Inst) -> bool {
    inst.op.is_control_flow()
        || inst.op.is_message()
        || inst.op.is_subgroup()
        || matches!(inst.op, Opcode::LoadPayload | Opcode::Nop | Opcode::Mulh)
}

/// Whether the destination-aligned region restriction covers `inst` on this device.
pub(super) fn restricted(p: &Program, inst: &Inst) -> bool {
    let info = p.device.info();
    let dw = |t: Type| t.is_int() && t.size() >= 4;
    let big = inst.dst.ty.size() == 8
        || exec_type(inst).size() == 8
        || (inst.op == Opcode::Mul
            && inst.srcs.len() == 2
            && dw(inst.srcs[0].ty)
            && dw(inst.srcs[1].ty))
        || (inst.op == Opcode::Mad
            && inst.srcs.len() == 3
            && dw(inst.srcs[1].ty)
            && dw(inst.srcs[2].ty));
    (info.has_dst_aligned_region_restriction && big)
        || (info.float_dst_aligned_region && inst.dst.ty.is_float())
}

/// Whether the low-power 64-bit regioning rules (CHV, BXT, GLK: linear source regions,
/// source and destination at one offset, docs/hardware/eu-hardware.md §5.1) cover `inst`:
/// a 64-bit destination or execution type on a part with the destination-aligned
/// restriction.
pub(super) fn low_power_64bit(p: &Program, inst: &Inst) -> bool {
    p.device.info().has_dst_aligned_region_restriction
        && (inst.dst.ty.size() == 8 || exec_type(inst).size() == 8)
}

fn is_raw_byte_move(inst: &Inst) -> bool {
    inst.op == Opcode::Mov
        && inst.dst.ty.size() == 1
        && inst.srcs[0].ty.size() == 1
        && !inst.srcs[0].negate
        && !inst.srcs[0].abs
        && !inst.saturate
}

fn int_hf_conversion(inst: &Inst) -> bool {
    let hf_src = inst.srcs.iter().any(|s| s.ty == Type::HF);
    let int_src = inst.srcs.iter().any(|s| s.ty.is_int());
    (inst.dst.ty == Type::HF && int_src) || (inst.dst.ty.is_int() && hf_src)
}

/// Whether a source walks evenly spaced elements (no 2-D region).
fn linear(r: &Reg) -> bool {
    match r.kind {
        RegKind::Fixed { region, .. } | RegKind::Arf { region, .. } => {
            region.vstride as u32 == region.width as u32 * region.hstride as u32
                || region.is_scalar()
        }
        _ => true,
    }
}

/// Current destination byte stride (a scalar SIMD1 destination counts as packed).
fn dst_stride(inst: &Inst) -> u32 {
    byte_stride(&inst.dst).max(inst.dst.ty.size())
}

fn required_dst_stride(p: &Program, inst: &Inst, opts: &CompileOptions) -> u32 {
    let size = inst.dst.ty.size();
    let exec = exec_type(inst).size();
    if inst.dst.is_accumulator() && !crate::zoo!(opts, RegioningAccDstRewrite) {
        return dst_stride(inst);
    }
    let to_hf = inst.dst.ty == Type::HF && inst.srcs.iter().any(|s| s.ty != Type::HF);
    if int_hf_conversion(inst) || to_hf {
        // Exactly DWord-strided, whatever the sources (they get copied to match): integer
        // ↔ HF conversions always, other conversions to HF because their words must all
        // sit in even (or all in odd) word locations.
        return 4;
    }
    // The destination's own stride, as far as a region encodes it: the widest destination
    // hstride is 4 elements (docs/hardware/eu-hardware.md §1.5); `copy_back` puts a wider one in place.
    let mut req = dst_stride(inst).min(4 * size);
    // A narrowing conversion writes exactly at the execution type's stride (a wider stride
    // is as illegal as a packed one).
    if exec > size && !is_raw_byte_move(inst) {
        req = exec;
    }
    if restricted(p, inst) || inst.dst.is_accumulator() {
        let widest = inst
            .srcs
            .iter()
            .filter(|s| !s.is_uniform() && !s.is_imm())
            .map(byte_stride)
            .max()
            .unwrap_or(0);
        let smallest = inst
            .srcs
            .iter()
            .map(|s| s.ty.size())
            .chain([size])
            .min()
            .unwrap_or(size);
        if widest > 4 * smallest {
            crate::pass::note("stride-capped");
        }
        let cap = if crate::zoo!(opts, RegioningNoStrideCap) {
            u32::MAX
        } else {
            4 * smallest
        };
        req = req.max(widest.min(cap.max(size)));
    }
    req
}

/// Whether `inst`, given a null destination, would need a destination stride other than
/// the packed one a null destination has in this IR (`RegKind::Null` carries no stride):
/// under the destination-aligned restriction a 64-bit execution type asks for the
/// sources' qword stride (docs/hardware/eu-hardware.md §5.1). Dead-code elimination keeps such a
/// destination instead of nulling it.
pub(crate) fn null_dst_needs_stride(p: &Program, inst: &Inst) -> bool {
    if skip(inst) || inst.exec_size == 1 || inst.dst.is_accumulator() {
        return false;
    }
    let nulled = Inst {
        dst: Reg::null(inst.dst.ty),
        ..inst.clone()
    };
    restricted(p, &nulled)
        && required_dst_stride(p, &nulled, &CompileOptions::default()) != dst_stride(&nulled)
}

/// Raw unsigned-integer copies of `n` elements of `ty` (64-bit as two dword halves).
pub(super) fn raw_copy(like: &Inst, dst: Reg, src: Reg, ty: Type) -> Vec<Inst> {
    let strip = |r: Reg| Reg {
        negate: false,
        abs: false,
        ..r
    };
    if ty.size() == 8 {
        // The dword halves keep the region's shape (`Reg::subscript`): a source read
        // through `g10.1<1;2,0>:DF` (channels reading elements 0, 0, 1, 1) has halves
        // `g10.2<2;2,0>:UD` and `g10.3<2;2,0>:UD`; a stride alone made them scalar.
        let halves = |r: Reg| [r.subscript(Type::UD, 0), r.subscript(Type::UD, 1)];
        let (d, s) = (halves(dst), halves(strip(src)));
        vec![like_mov(like, d[0], s[0]), like_mov(like, d[1], s[1])]
    } else {
        let u = Type::int_of_size(ty.size(), false);
        vec![like_mov(like, dst.retype(u), strip(src).retype(u))]
    }
}

/// The copy of a rewritten instruction's result from temporary `t` into its destination
/// `dst`, which may be strided wider than a destination region encodes.
fn copy_back(p: &mut Program, like: &Inst, dst: Reg, t: Reg) -> Vec<Inst> {
    let u = Type::int_of_size(dst.ty.size(), false);
    wide_stride_copy(p, like, dst.retype(u), t.retype(u))
        .unwrap_or_else(|| raw_copy(like, dst, t, dst.ty))
}

/// A MOV over the channels of `like` (same width, group and NoMask).
fn like_mov(like: &Inst, dst: Reg, src: Reg) -> Inst {
    let mut m = Inst::new(Opcode::Mov, like.exec_size, dst, vec![src]);
    m.group = like.group;
    m.nomask = like.nomask;
    m
}

/// The widest destination hstride is 4 elements (docs/hardware/eu-hardware.md §1.5–§1.6: hstride
/// 1/2/4), so bytes 8 apart (a byte slice of a 64-bit value) or bytes and words 16 apart
/// cannot be written directly. Each element is the low part of a wider unsigned element
/// that *is* 4 elements apart: read those wider elements, replace the part, write them
/// back. Only the enabled channels run each step, and every byte around the part is
/// written with the value it had, so the copy changes exactly what the narrow one would.
fn wide_stride_copy(p: &mut Program, like: &Inst, dst: Reg, src: Reg) -> Option<Vec<Inst>> {
    let RegKind::Vgrf { offset, .. } = dst.kind else {
        return None;
    };
    let size = dst.ty.size();
    let stride = elem_stride(&dst)?;
    let wide = stride * size / 4;
    if stride <= 4 || !matches!(wide, 2 | 4) {
        return None;
    }
    crate::pass::note("wide-stride-copy");
    let within = offset % wide;
    let mut container = dst.retype(Type::int_of_size(wide, false)).with_stride(4);
    if let RegKind::Vgrf { offset, .. } = &mut container.kind {
        *offset -= within;
    }
    let n = like.exec_size as u32;
    let t = super::temp(p, container.ty, n * wide);
    let part = t
        .retype(dst.ty)
        .byte_offset(within)
        .with_stride((wide / size) as u8);
    Some(vec![
        like_mov(like, t, container),
        like_mov(like, part, src),
        like_mov(like, container, t),
    ])
}

/// A temporary for `n` elements `stride_bytes` apart starting `offset` bytes into a register.
pub(super) fn strided_temp(
    p: &mut Program,
    ty: Type,
    n: u32,
    stride_bytes: u32,
    offset: u32,
) -> Reg {
    let stride = (stride_bytes / ty.size()).max(1);
    // A stride narrower than the type (a 64-bit null written at an HF execution type's
    // stride) still takes whole elements.
    let t = super::temp(p, ty, offset + n * stride * ty.size());
    t.byte_offset(offset).with_stride(stride.min(255) as u8)
}

/// A CMP/CMPN into null whose destination type the hardware cannot convert its sources to
/// (64-bit ↔ HF, 64-bit ↔ byte: docs/hardware/eu-hardware.md §6 table) takes the sources'
/// type instead: the flag comes from comparing the sources (§2), and null keeps no value,
/// so nothing else changes.
fn retype_compare_null(inst: &mut Inst) -> bool {
    if !matches!(inst.op, Opcode::Cmp | Opcode::Cmpn) || !inst.dst.is_null() {
        return false;
    }
    let narrow = |t: Type| t == Type::HF || t.size() == 1;
    // Each source is converted to the destination on its own, so one narrow source among
    // wider ones is enough (e.g. `cmp null:Q, 0.0:HF, u0:UB`, whose execution type is W).
    let unsupported = |d: Type| {
        let converts = |s: Type| (d.is_64bit() && narrow(s)) || (s.is_64bit() && narrow(d));
        converts(exec_type(inst)) || inst.srcs.iter().any(|s| converts(s.ty))
    };
    let to = inst.srcs[0].ty;
    let retype = unsupported(inst.dst.ty) && !unsupported(to);
    if retype {
        crate::pass::note("compare-null-retyped");
        inst.dst.ty = to;
    }
    retype
}

/// Splits conversions the hardware cannot do directly into two steps.
fn split_conversion(p: &mut Program, inst: &Inst) -> Option<Vec<Inst>> {
    if inst.op != Opcode::Mov {
        return split_hf_result_to_64bit(p, inst);
    }
    let (d, s) = (inst.dst.ty, inst.srcs[0].ty);
    let byte = |t: Type| t.size() == 1;
    let via = if (d.is_64bit() && byte(s)) || (s.is_64bit() && byte(d)) {
        // Floats count as signed: a float ↔ byte conversion goes through D.
        if d.is_signed() || s.is_signed() {
            Type::D
        } else {
            Type::UD
        }
    } else if s == Type::HF && d.is_64bit() {
        Type::F
    } else {
        return None;
    };
    crate::pass::note("two-step-conversion");
    let n = inst.exec_size as u32;
    let t = super::temp(p, via, n * via.size());
    let mut first = Inst::new(Opcode::Mov, inst.exec_size, t, vec![inst.srcs[0]]);
    first.group = inst.group;
    first.nomask = inst.nomask;
    // Float → byte clamps in one step; through D the second step must clamp too.
    first.saturate = inst.saturate;
    let mut second = inst.clone();
    second.srcs[0] = t;
    second.saturate = inst.saturate || (s.is_float() && via != Type::F);
    Some(vec![first, second])
}

/// An ALU operation on half floats with a 64-bit destination converts its HF result to
/// 64 bits, a conversion the hardware lacks (docs/hardware/eu-hardware.md §6 table: "There are no direct
/// conversions between 64-bit types and HF"; docs/hardware/brw-backend.md §5). It computes into an HF
/// temporary instead (F when an F source makes it a mixed-float operation, whose result is
/// F), and a MOV (split through F by `split_conversion`) converts that to
/// the destination, carrying the saturate and the conditional modifier, which act on the
/// converted value (SEL keeps its modifier: it picks the min/max). CMP is left alone: its
/// flag and predication interplay is not modelled here.
fn split_hf_result_to_64bit(p: &mut Program, inst: &Inst) -> Option<Vec<Inst>> {
    let hf_src = inst.srcs.iter().any(|s| s.ty == Type::HF);
    let compare = matches!(inst.op, Opcode::Cmp | Opcode::Cmpn);
    if !inst.dst.ty.is_64bit() || !hf_src || compare || inst.dst.is_accumulator() {
        return None;
    }
    crate::pass::note("half-float-result-to-64bit");
    let n = inst.exec_size as u32;
    // The result has the precision of the widest float source: F when an F source mixes
    // with the HF ones (docs/hardware/eu-hardware.md §3.4). An HF temporary would round a
    // mixed operation's result to HF.
    let via = if inst.srcs.iter().any(|s| s.ty == Type::F) {
        Type::F
    } else {
        Type::HF
    };
    let t = super::temp(p, via, n * via.size());
    let mut first = inst.clone();
    first.dst = t;
    first.saturate = false;
    let mut second = Inst::new(Opcode::Mov, inst.exec_size, inst.dst, vec![t]);
    second.group = inst.group;
    second.nomask = inst.nomask;
    second.predicate = inst.predicate;
    second.flag_subreg = inst.flag_subreg;
    second.saturate = inst.saturate;
    if inst.op != Opcode::Sel {
        first.cmod = None;
        second.cmod = inst.cmod;
    }
    Some(vec![first, second])
}

/// A 2-D source region read by no more channels than its width is one row, so its
/// vertical stride is free: make it the row's length (the hardware requires that when
/// ExecSize = Width, and a SIMD-split piece of a wider instruction can end up there).
fn single_row_regions(inst: &mut Inst) -> bool {
    let n = inst.exec_size;
    let mut changed = false;
    for s in &mut inst.srcs {
        if let RegKind::Fixed { region, .. } | RegKind::Arf { region, .. } = &mut s.kind {
            let row = Region::new(n.saturating_mul(region.hstride), n, region.hstride);
            let encodable = row.vstride <= 32;
            if n > 1 && region.hstride != 0 && n <= region.width && encodable && *region != row {
                *region = row;
                changed = true;
            }
        }
    }
    changed
}

/// A byte source of a 64-bit instruction is a conversion between bytes and a 64-bit type,
/// which the hardware lacks (docs/hardware/eu-hardware.md §6 table; on the destination-aligned parts its
/// 8-byte stride would not even be encodable, §1.5–§1.6: hstride 0/1/2/4). It is first
/// converted to W (UW when unsigned), the class a byte is read in (§3.4 maps B/UB to W),
/// which keeps its value, and the instruction reads the widened copy. A wider copy would
/// change what a shift sees of a negative byte where the shift works at its source's width
/// (`corpus/regressions/shr-of-negative-byte-widened-for-64-bit-execution.eu`); a word
/// reads the same either way.
fn widen_byte_sources(
    p: &mut Program,
    inst: &mut Inst,
    opts: &CompileOptions,
    out: &mut Vec<Inst>,
) -> bool {
    let wide64 = inst.dst.ty.size() == 8 || inst.srcs.iter().any(|s| s.ty.size() == 8);
    if !wide64 {
        return false;
    }
    let mut changed = false;
    for i in 0..inst.srcs.len() {
        let s = inst.srcs[i];
        if s.ty.size() != 1 || s.is_imm() || s.is_null() {
            continue;
        }
        let wide = Type::int_of_size(2, s.ty.is_signed());
        crate::pass::note("widen-byte-source");
        let t = super::temp(p, wide, inst.exec_size as u32 * wide.size());
        let plain = Reg {
            negate: false,
            abs: false,
            ..s
        };
        let mut conv = Inst::new(Opcode::Mov, inst.exec_size, t, vec![plain]);
        conv.group = inst.group;
        conv.nomask = inst.nomask;
        lower(p, conv, opts, out);
        inst.srcs[i] = Reg {
            negate: s.negate,
            abs: s.abs,
            ..t
        };
        changed = true;
    }
    changed
}

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &[
    "accumulator-destination",
    "null-destination-stride",
    "stride-capped",
    "wide-stride-copy",
    "half-float-result-to-64bit",
    "widen-byte-source",
    "two-step-conversion",
    "compare-null-retyped",
    "aligned-mixed-math-hf-copy",
    "aligned-source-copy",
    "predicated-destination-rewrite",
    "destination-rewrite",
    "fixed-source-region",
    "simd1-half-float-destination-stride",
    "simd1-mixed-math-source-to-float",
];

fn lower(p: &mut Program, mut inst: Inst, opts: &CompileOptions, out: &mut Vec<Inst>) -> bool {
    let normalised = single_row_regions(&mut inst);
    if skip(&inst) {
        out.push(inst);
        return normalised;
    }
    if retype_compare_null(&mut inst) {
        lower(p, inst, opts, out);
        return true;
    }
    if let Some(split) = split_conversion(p, &inst) {
        // Each step gets its own regions fixed (e.g. F → Q on the aligned-region parts).
        for step in split {
            lower(p, step, opts, out);
        }
        return true;
    }
    let mut widened = vec![];
    if widen_byte_sources(p, &mut inst, opts, &mut widened) {
        out.extend(widened);
        lower(p, inst, opts, out);
        return true;
    }
    if inst.exec_size == 1 {
        // Mixed-mode math needs HF inputs with a HorzStride above 1 (docs/hardware/
        // eu-hardware.md §6.5), which one channel cannot have (a width-1 region has
        // HorzStride 0): each HF source is converted to F first. The conversion is exact,
        // and mixed math computes in F anyway (§3.4).
        let mut converted = false;
        if inst.op.is_math() && is_mixed_float(&inst) {
            for i in 0..inst.srcs.len() {
                let s = inst.srcs[i];
                if s.ty == Type::HF && !s.is_imm() {
                    let t = super::temp(p, Type::F, Type::F.size());
                    let bare = Reg {
                        negate: false,
                        abs: false,
                        ..s
                    };
                    out.push(like_mov(&inst, t, bare));
                    inst.srcs[i] = Reg {
                        negate: s.negate,
                        abs: s.abs,
                        ..t
                    };
                    converted = true;
                }
            }
            if converted {
                crate::pass::note("simd1-mixed-math-source-to-float");
            }
        }
        // One channel: no stride or offset relation between operands to keep. The encoded
        // destination stride still counts for one rule: a packed half-float destination of
        // mixed float must be oword aligned (docs/hardware/eu-hardware.md §6.5), and one
        // channel written at the dword stride of a conversion to HF (`required_dst_stride`)
        // is not packed and writes the same two bytes.
        let packed_hf = inst.dst.ty == Type::HF && byte_stride(&inst.dst) == 2;
        if is_mixed_float(&inst)
            && packed_hf
            && !matches!(inst.dst.kind, RegKind::Indirect { .. })
            && !reg_offset(&inst.dst).is_multiple_of(16)
            && !crate::zoo!(opts, RegioningSimd1HfPacked)
        {
            inst.dst = inst.dst.with_stride(2);
            crate::pass::note("simd1-half-float-destination-stride");
            out.push(inst);
            return true;
        }
        out.push(inst);
        return normalised || converted;
    }
    let n = inst.exec_size as u32;
    let mut before = vec![];
    let mut after = vec![];
    let mut changed = normalised;

    // Mixed-mode math reads half floats with an encoded HorzStride above 1 (docs/hardware/
    // eu-hardware.md §6.5): a scalar (HorzStride 0) and a region of one-element rows (a
    // stride beyond 4 elements, or rows that would straddle a register) break it too.
    if inst.op.is_math() && is_mixed_float(&inst) {
        for i in 0..inst.srcs.len() {
            let s = inst.srcs[i];
            let unstrided = if crate::zoo!(opts, RegioningMixedMathHstride) {
                byte_stride(&s) <= 2 && !s.is_uniform()
            } else {
                encoded_src_hstride(&s, n).is_some_and(|h| h <= 1)
            };
            if s.ty == Type::HF && !s.is_imm() && unstrided {
                let t = strided_temp(p, Type::HF, n, 4, 0);
                before.extend(raw_copy(&inst, t, s, Type::HF));
                inst.srcs[i] = Reg {
                    negate: s.negate,
                    abs: s.abs,
                    ..t
                };
                changed = true;
            }
        }
    }

    let size = inst.dst.ty.size();
    let req = required_dst_stride(p, &inst, opts);
    let misaligned = {
        let exec = exec_type(&inst).size();
        (exec > size && !is_raw_byte_move(&inst) && !reg_offset(&inst.dst).is_multiple_of(exec))
            || (int_hf_conversion(&inst) && !reg_offset(&inst.dst).is_multiple_of(4))
    };
    let spans = |r: &Reg| {
        let start = reg_offset(r);
        let last = start + (n - 1) * byte_stride(r) + r.ty.size() - 1;
        (start, last)
    };
    let uneven = {
        let (start, last) = spans(&inst.dst);
        last >= REG_SIZE && {
            let in_first = (0..n)
                .filter(|c| start + c * dst_stride(&inst) < REG_SIZE)
                .count() as u32;
            in_first * 2 != n
        }
    };
    // Under the destination-aligned restriction every source is copied to the
    // destination's offset and stride, and a mixed-math HF source there must still be
    // encoded with a HorzStride above 1 (docs/hardware/eu-hardware.md §6.5). Where that
    // offset makes its rows straddle a register (one-element rows, HorzStride 0), the
    // destination goes through a temporary at offset 0 instead.
    let unencodable_math_source = restricted(p, &inst)
        && inst.op.is_math()
        && is_mixed_float(&inst)
        && !crate::zoo!(opts, RegioningMixedMathAlignedCopy)
        && {
            let (off, need) = (reg_offset(&inst.dst), dst_stride(&inst).max(size));
            inst.srcs.iter().any(|s| {
                s.ty == Type::HF && !s.is_imm() && {
                    let copy = fixed_operand(off, need / Type::HF.size(), Type::HF, n, false);
                    encoded_src_hstride(&copy, n).is_some_and(|h| h <= 1)
                }
            })
        };
    let illegal_dst = req != dst_stride(&inst) || misaligned || uneven || unencodable_math_source;
    if inst.dst.is_accumulator() && illegal_dst {
        // Sources are fixed instead of the destination (see `required_dst_stride`).
        crate::pass::note("accumulator-destination");
    }
    // A null destination has no stride of its own (it is packed), so one that must be
    // strided under the destination-aligned restriction (a 64-bit execution type on
    // CHV/BXT/GLK, docs/hardware/eu-hardware.md §5.1) becomes a temporary with that stride, nothing
    // copied back: the flag result, if any, is all the instruction produces.
    let null_dst = inst.dst.is_null()
        && restricted(p, &inst)
        && !crate::zoo!(opts, RegioningNullDstStride);
    if null_dst && illegal_dst {
        crate::pass::note("null-destination-stride");
        inst.dst = strided_temp(p, inst.dst.ty, n, req, 0);
        changed = true;
    }
    let rewrite_dst = matches!(
        inst.dst.kind,
        RegKind::Vgrf { .. } | RegKind::Fixed { .. } | RegKind::Arf { .. }
    ) && illegal_dst
        && !null_dst
        && (!inst.dst.is_accumulator() || crate::zoo!(opts, RegioningAccDstRewrite));
    if rewrite_dst {
        crate::pass::note(if inst.predicate.is_some() {
            "predicated-destination-rewrite"
        } else {
            "destination-rewrite"
        });
        let old = inst.dst;
        let t = strided_temp(p, old.ty, n, req, 0);
        if inst.predicate.is_some() && inst.op != Opcode::Sel {
            before.extend(raw_copy(&inst, t, old, old.ty));
        }
        inst.dst = t;
        after.extend(copy_back(p, &inst, old, t));
        changed = true;
    }

    if restricted(p, &inst) {
        let dst_off = reg_offset(&inst.dst);
        let need = dst_stride(&inst).max(size);
        for i in 0..inst.srcs.len() {
            let s = inst.srcs[i];
            if s.is_imm() || s.is_uniform() || s.is_null() {
                continue;
            }
            if byte_stride(&s) != need || reg_offset(&s) != dst_off || !linear(&s) {
                // A half-float source of mixed math copied to the destination's place is
                // also bound by §6.5's HorzStride rule: a kind of its own.
                crate::pass::note(if inst.op.is_math() && is_mixed_float(&inst) && s.ty == Type::HF {
                    "aligned-mixed-math-hf-copy"
                } else {
                    "aligned-source-copy"
                });
                let t = strided_temp(p, s.ty, n, need.max(s.ty.size()), dst_off);
                before.extend(raw_copy(&inst, t, s, s.ty));
                inst.srcs[i] = Reg {
                    negate: s.negate,
                    abs: s.abs,
                    ..t
                };
                changed = true;
            }
        }
    }
    for copy in before.iter_mut().chain(after.iter_mut()) {
        legal_fixed_sources(copy);
    }
    out.extend(before);
    out.push(inst);
    out.extend(after);
    changed
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "lower_regioning",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    let mut out = vec![];
    for inst in p.take_insts() {
        progress |= lower(p, inst, opts, &mut out);
    }
    p.set_insts(out);
    Ok(progress)
}

/// Gives the fixed-GRF sources of a copy this pass made a region the hardware accepts
/// (`legal_fixed_source`): a predicated rewrite reads the fixed destination back.
fn legal_fixed_sources(inst: &mut Inst) -> bool {
    let n = inst.exec_size as u32;
    let mut changed = false;
    for s in &mut inst.srcs {
        let legal = super::legal_fixed_source(*s, n);
        if legal != *s {
            crate::pass::note("fixed-source-region");
            *s = legal;
            changed = true;
        }
    }
    changed
}
