//! 64-bit ("double precision") restrictions: CHV/BXT/GLK low-power regioning and the
//! Gfx12.5 LSB rule (docs/hardware/eu-hardware.md §5, §6.9).

use super::regions::rule;
use super::{
    elem_size, encoded_region, is_arf, is_double_precision, is_indirect, is_send_like, subnr,
};
use compiler::Inst;
use compiler::reg::{Arf, Reg, RegKind, Region};

fn applies(inst: &Inst) -> bool {
    !is_send_like(inst) && is_double_precision(inst)
}

/// The low-power regioning rows (§5.1: "regioning in Align1 must follow these rules") are
/// stated for Align1 only, as both validators check them; Align16 64-bit operations have
/// the rows of §5.2.
fn applies_align1(inst: &Inst) -> bool {
    applies(inst) && !inst.is_align16()
}

/// The destination's byte stride, from its HorzStride as encoded (direct or
/// register-indirect, §1.4).
fn dst_byte_stride(inst: &Inst) -> u32 {
    encoded_region(&inst.dst).map_or(elem_size(inst.dst.ty), |g| {
        g.hstride as u32 * elem_size(inst.dst.ty)
    })
}

/// Non-immediate sources with their regions as encoded (register-indirect ones included).
fn reg_srcs(inst: &Inst) -> impl Iterator<Item = (&Reg, Region)> {
    inst.srcs
        .iter()
        .filter(|s| !s.is_imm() && !s.is_null())
        .filter_map(|s| encoded_region(s).map(|g| (s, g)))
}

/// Non-immediate, non-scalar sources with their regions.
fn vector_srcs(inst: &Inst) -> impl Iterator<Item = (&Reg, Region)> {
    reg_srcs(inst).filter(|(_, g)| !g.is_scalar())
}

rule!(
    LP_STRIDE,
    "qword-lp-stride",
    "Source and destination horizontal stride must equal and a multiple of a qword when the execution type is 64-bit",
    |i, _| {
        applies_align1(i)
            && vector_srcs(i).any(|(s, g)| {
                let src =
                    if g.hstride != 0 { g.hstride } else { g.vstride } as u32 * elem_size(s.ty);
                let dst = dst_byte_stride(i);
                src != dst || !src.is_multiple_of(8)
            })
    }
);
rule!(
    LP_VSTRIDE,
    "qword-lp-vstride",
    "Vstride must be Width * Hstride when the execution type is 64-bit",
    |i, _| {
        applies_align1(i)
            && reg_srcs(i).any(|(_, g)| g.vstride as u32 != g.width as u32 * g.hstride as u32)
    }
);
rule!(
    // The offsets compared are sub-registers: a register-indirect operand's is unknown until
    // it runs (qword-lp-indirect names that operand).
    LP_OFFSET,
    "qword-lp-offset",
    "Source and destination offset must be the same when the execution type is 64-bit",
    |i, _| applies_align1(i)
        && !is_indirect(&i.dst)
        && vector_srcs(i).any(|(s, _)| !is_indirect(s) && subnr(s) != subnr(&i.dst))
);
rule!(
    LP_ARF,
    "qword-lp-arf",
    "Architecture registers cannot be used when the execution type is 64-bit",
    |i, _| applies(i)
        && (i.acc_wr
            || i.op == compiler::Opcode::Mac
            || is_arf(&i.dst)
            || i.srcs.iter().any(is_arf))
);

rule!(
    // docs/hardware/eu-hardware.md §5.1, §6.9 ("9LP / CHV with NoDDChk or NoDDClr").
    LP_DEPCTRL,
    "qword-lp-depctrl",
    "DepCtrl is not allowed when the execution type is 64-bit",
    |i, _| applies(i) && (i.no_dd_clear || i.no_dd_check)
);

/// Float destination or double precision, the ops the Gfx12.5 rules cover.
fn xehp_applies(inst: &Inst) -> bool {
    !is_send_like(inst)
        && !inst.dst.is_null()
        && (inst.dst.ty.is_float() || is_double_precision(inst))
}

rule!(
    LSB_MOVE,
    "xehp-lsb-move",
    "Register Regioning patterns where register data bit location of the LSB of the channels are changed between source and destination are not supported except for broadcast of a scalar.",
    |i, _| {
        xehp_applies(i)
            && !i.op.is_3src()
            // Direct sources only (§5.4 "every direct source"; Vx1/VxH is the next rule's);
            // the destination's stride as encoded, its offset only when it is direct.
            && vector_srcs(i).filter(|(s, _)| !is_indirect(s)).any(|(s, g)| {
                let linear = g.vstride as u32 == g.width as u32 * g.hstride as u32
                    || (g.hstride == 0 && g.width == 1);
                let stride =
                    if g.width == 1 { g.vstride } else { g.hstride } as u32 * elem_size(s.ty);
                !linear
                    || stride != dst_byte_stride(i)
                    || (!is_indirect(&i.dst) && subnr(s) != subnr(&i.dst))
            })
    }
);
rule!(
    XEHP_ARF,
    "xehp-explicit-arf",
    "Explicit ARF registers except null, accumulator, and scalar must not be used.",
    |i, _| {
        let bad = |r: &Reg| matches!(r.kind, RegKind::Arf { file, .. } if file != Arf::Acc);
        xehp_applies(i) && (bad(&i.dst) || i.srcs.iter().any(bad))
    }
);
