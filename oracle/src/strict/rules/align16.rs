//! Align16 restrictions (docs/hardware/eu-hardware.md §1.3, §5.2, §6.1, §6.5, §6.6, §6.9) and the DF
//! rules of the Gen7 vec4 backend (docs/hardware/fp64-align16.md §1.2–§1.5, §2, §4, §5.4, §8, §10 item 5).
//! Mesa's messages where its validators have the check; ours (saying where from) where the
//! rule lives in Mesa's emitters, comments or commit messages instead.
//!
//! 3-source instructions written without `{ Align16 }` keep the existing convention (an
//! Align1-style region that the Gen ≤ 10 encoder turns into Align16); these rules look only
//! at instructions marked Align16.

use super::regions::rule;
use super::{encoded_region, is_mixed_float, is_send_like, subnr};
use compiler::Inst;
use compiler::reg::{REG_SIZE, Reg, RegKind};

fn align16(inst: &Inst) -> bool {
    inst.is_align16() && !inst.op.is_control_flow() && !is_send_like(inst)
}

/// Register (GRF or ARF) sources of an Align16 instruction.
fn reg_srcs(inst: &Inst) -> impl Iterator<Item = &Reg> {
    inst.srcs
        .iter()
        .filter(move |s| align16(inst) && !s.is_imm() && !s.is_null())
}

/// A source's VertStride as encoded, direct or register-indirect (§1.4: the validators read
/// it whatever the addressing mode).
fn vstride(r: &Reg) -> Option<u8> {
    encoded_region(r).map(|g| g.vstride)
}

fn is_64bit(r: &Reg) -> bool {
    r.ty.size() == 8
}

/// A DF operand anywhere in the instruction.
fn has_df(inst: &Inst) -> bool {
    std::iter::once(&inst.dst)
        .chain(&inst.srcs)
        .any(|r| is_64bit(r) && !r.is_null())
}

/// Bytes an Align16 operand covers when `exec_size` channels access it packed.
fn packed_bytes(inst: &Inst, r: &Reg) -> u32 {
    inst.exec_size as u32 * r.ty.size()
}

rule!(
    GFX11,
    "align16-gfx11",
    "Align16 mode doesn't exist on Gfx11+",
    |i, _| i.is_align16()
);

rule!(
    DST_HSTRIDE,
    "align16-dst-hstride",
    "Destination Horizontal Stride must be 1",
    |i, _| align16(i) && !i.dst.is_null() && encoded_region(&i.dst).is_some_and(|g| g.hstride != 1)
);

rule!(
    VSTRIDE_HSW,
    "align16-vstride",
    "In Align16 mode, only VertStride of 0, 2, or 4 is allowed",
    |i, _| reg_srcs(i).any(|s| vstride(s).is_some_and(|v| !matches!(v, 0 | 2 | 4)))
);

rule!(
    VSTRIDE_IVB,
    "align16-vstride",
    "In Align16 mode, only VertStride of 0 or 4 is allowed",
    |i, _| reg_srcs(i).any(|s| vstride(s).is_some_and(|v| !matches!(v, 0 | 4)))
);

rule!(
    // docs/hardware/eu-hardware.md §1.3: the Align16 sub-register field counts 16-byte units (one bit,
    // docs/hardware/fp64-align16.md §1.2); 3-source Align16 operands count dwords instead.
    SUBREG_UNIT,
    "align16-subreg-unit",
    "Align16 sub-register numbers count 16-byte units (dwords for 3-source operands)",
    |i, _| {
        let unit = if i.op.is_3src() { 4 } else { 16 };
        align16(i)
            && std::iter::once(&i.dst)
                .chain(&i.srcs)
                .filter(|r| matches!(r.kind, RegKind::Fixed { .. }))
                .any(|r| !subnr(r).is_multiple_of(unit))
    }
);

rule!(
    MIXED_FLOAT_VSTRIDE,
    "mixed-float-align16-vstride",
    "Align16 mixed float mode assumes packed data (vstride must be 4",
    |i, _| align16(i)
        && is_mixed_float(i)
        && i.srcs
            .iter()
            .take(2)
            .filter(|s| !s.is_imm())
            .any(|s| vstride(s).is_some_and(|v| v != 4))
);

rule!(
    MIXED_FLOAT_SIMD8,
    "mixed-float-align16-simd8",
    "Align16 mixed float mode is limited to SIMD8",
    |i, _| align16(i) && is_mixed_float(i) && i.exec_size > 8
);

rule!(
    MIXED_FLOAT_ACC,
    "mixed-float-align16-acc",
    "No accumulator read access for Align16 mixed float",
    |i, _| align16(i)
        && is_mixed_float(i)
        && (i.srcs.iter().any(Reg::is_accumulator)
            || matches!(i.op, compiler::Opcode::Mac | compiler::Opcode::Mach))
);

rule!(
    QWORD_EXEC,
    "align16-qword-exec-size",
    "In Align16 exec size cannot exceed 2 with a QWord destination and a non-QWord source",
    |i, _| align16(i)
        && is_64bit(&i.dst)
        && i.exec_size > 2
        && i.srcs.iter().any(|s| !s.is_null() && !is_64bit(s))
);

/// `RepCtrl must be zero for 64-bit source N`: an Align16 3-source source is replicated
/// (RepCtrl) when its VertStride is 0 (docs/hardware/eu-hardware.md §1.3).
fn repctrl_64bit(inst: &Inst, n: usize) -> bool {
    align16(inst)
        && inst.op.is_3src()
        && inst
            .srcs
            .get(n)
            .is_some_and(|s| is_64bit(s) && vstride(s) == Some(0))
}

rule!(
    REPCTRL_64BIT_0,
    "3src-repctrl-64bit",
    "RepCtrl must be zero for 64-bit source 0",
    |i, _| repctrl_64bit(i, 0)
);
rule!(
    REPCTRL_64BIT_1,
    "3src-repctrl-64bit",
    "RepCtrl must be zero for 64-bit source 1",
    |i, _| repctrl_64bit(i, 1)
);
rule!(
    REPCTRL_64BIT_2,
    "3src-repctrl-64bit",
    "RepCtrl must be zero for 64-bit source 2",
    |i, _| repctrl_64bit(i, 2)
);

rule!(
    // docs/hardware/fp64-align16.md §1.3/§1.4: a DF source's hardware swizzle picks 32-bit pairs; only the
    // pairs (2k, 2k+1), one whole DF each, are defined (Mesa emits nothing else).
    DF_SWIZZLE_PAIR,
    "df-align16-swizzle-pair",
    "A DF Align16 source swizzle must select 32-bit pairs (2k, 2k+1) (docs/hardware/fp64-align16.md §1.3)",
    |i, _| { reg_srcs(i).any(|s| is_64bit(s) && !s.swizzle.selects_df_pairs()) }
);

/// Whether a DF Align16 operand's second 16-byte row (z/w) lies in the next GRF: at
/// sub-register 16 with a non-zero row pitch (sources) or always (destination).
fn df_row_crosses(inst: &Inst, r: &Reg, is_dst: bool) -> bool {
    let RegKind::Fixed { subnr, region, .. } = r.kind else {
        return false;
    };
    let pitch = if is_dst || region.vstride != 0 { 16 } else { 0 };
    is_64bit(r) && inst.exec_size > 2 && (subnr as u32 % REG_SIZE) + pitch + 16 > REG_SIZE
}

rule!(
    // docs/hardware/fp64-align16.md §10 item 5, §11 df-zw-nonzero-vstride: rows are 16 bytes and only
    // VertStride 0 keeps a sub-register-16 operand's z/w inside its GRF.
    DF_ROW_CROSSES_GRF,
    "df-align16-row-crosses-grf",
    "A DF Align16 row may not run into the next GRF: sub-register 16 needs VertStride 0 (docs/hardware/fp64-align16.md §3.2)",
    |i, _| {
        align16(i)
            && (reg_srcs(i).any(|s| df_row_crosses(i, s, false))
                || (!i.dst.is_null() && df_row_crosses(i, &i.dst, true)))
    }
);

rule!(
    // docs/hardware/fp64-align16.md §4 rule 3 (HSW PRM "When destination spans two registers, the source
    // MUST span two registers"), §10 item 5. A VertStride-0 source is exempt: on Gen7 the
    // second half reads the next GRF (the decompression behaviour Mesa relies on, §3).
    SRC_SPANS_TWO,
    "align16-src-must-span-two-grfs",
    "When the destination spans two registers, the source must span two registers (exceptions for scalar sources)",
    |i, _| {
        align16(i)
            && !i.dst.is_null()
            && packed_bytes(i, &i.dst) > REG_SIZE
            && reg_srcs(i).any(|s| vstride(s) != Some(0) && packed_bytes(i, s) <= REG_SIZE)
    }
);

rule!(
    // docs/hardware/fp64-align16.md §5.4: BDW/CHV PRM "When source or destination datatype is 64b ...,
    // DepCtrl must not be used"; on Gen7 DepCtrl on DF "leads to GPU hangs in some cases".
    DEPCTRL_64BIT,
    "depctrl-64bit",
    "DepCtrl (NoDDClr/NoDDChk) must not be used when the source or destination datatype is 64b",
    |i, _| (i.no_dd_clear || i.no_dd_check) && has_df(i)
);

rule!(
    // docs/hardware/fp64-align16.md §8: IVB PRM "In Align16 access mode, SIMD16 is not allowed for DW
    // operations and SIMD8 is not allowed for DF operations" (exec sizes here are logical).
    IVB_EXEC_SIZE,
    "ivb-align16-exec-size",
    "In Align16 access mode, SIMD16 is not allowed for DW operations and SIMD8 is not allowed for DF operations",
    |i, _| align16(i)
        && (if has_df(i) {
            i.exec_size >= 8
        } else {
            i.exec_size >= 16
        })
);

rule!(
    // docs/hardware/fp64-align16.md §2, §12: what .xy/.zw do on a DF destination is not documented; Mesa
    // never emits them (scalarize_df splits such instructions).
    DF_WRITEMASK_XY_ZW,
    "df-align16-writemask-xy-zw",
    "A DF Align16 destination may not use an .xy or .zw writemask: its effect is not documented (docs/hardware/fp64-align16.md §2)",
    |i, _| align16(i) && is_64bit(&i.dst) && matches!(i.dst.writemask.0 & 0xf, 0b0011 | 0b1100)
);

rule!(
    // docs/hardware/fp64-align16.md §4 rule 3 (f4b8649233): compressed Align16 DF SEL does not read the
    // predicate correctly on Gen7; Mesa splits it to exec 4.
    DF_SEL_EXEC8,
    "df-align16-sel-exec8",
    "An Align16 DF SEL must not be compressed (exec 8) on Gen7: it misreads the predicate (docs/hardware/fp64-align16.md §4)",
    |i, _| align16(i) && i.op == compiler::Opcode::Sel && i.exec_size >= 8 && has_df(i)
);
