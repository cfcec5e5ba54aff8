//! Rules based on operand types (docs/hardware/eu-hardware.md §3.7, §6.1, §6.4, §6.8).

use super::regions::rule;
use super::{encoded_region, exec_type, is_indirect, is_mixed_float, is_send_like, subnr};
use compiler::reg::Reg;
use compiler::types::Type;
use compiler::{Inst, Opcode};

fn operands(inst: &Inst) -> impl Iterator<Item = &Reg> {
    std::iter::once(&inst.dst)
        .filter(|d| !d.is_null())
        .chain(inst.srcs.iter().filter(|s| !s.is_null()))
}

rule!(
    DF_DST,
    "df-dst-unsupported",
    "64-bit float destination, but platform does not support it",
    |i, d| { !d.has_64bit_float && !i.dst.is_null() && i.dst.ty == Type::DF }
);
rule!(
    DF_SRC,
    "df-src-unsupported",
    "64-bit float source, but platform does not support it",
    |i, d| { !d.has_64bit_float && i.srcs.iter().any(|s| !s.is_null() && s.ty == Type::DF) }
);
rule!(
    Q_DST,
    "q-dst-unsupported",
    "64-bit int destination, but platform does not support it",
    |i, d| { !d.has_64bit_int && !i.dst.is_null() && matches!(i.dst.ty, Type::Q | Type::UQ) }
);
rule!(
    Q_SRC,
    "q-src-unsupported",
    "64-bit int source, but platform does not support it",
    |i, d| {
        !d.has_64bit_int
            && i.srcs
                .iter()
                .any(|s| !s.is_null() && matches!(s.ty, Type::Q | Type::UQ))
    }
);

/// A register type the part cannot encode: vector immediate types in registers, HF before
/// Gen8, DF immediates before Gen8.
fn bad_encoding(dst: bool, t: Type, is_imm: bool, d: &compiler::device::DeviceInfo) -> bool {
    (t.is_vector_imm() && (dst || !is_imm))
        || (t == Type::HF && !d.has_half_float)
        || (t == Type::DF && is_imm && !d.has_df_imm)
}

rule!(
    BAD_DST_ENCODING,
    "invalid-dst-type-encoding",
    "Invalid destination register type encoding.",
    |i, d| { !i.dst.is_null() && bad_encoding(true, i.dst.ty, false, d) }
);
rule!(
    BAD_SRC_ENCODING,
    "invalid-src-type-encoding",
    "Invalid source register type encoding.",
    |i, d| {
        i.srcs
            .iter()
            .any(|s| !s.is_null() && bad_encoding(false, s.ty, s.is_imm(), d))
    }
);
rule!(
    BAD_ENCODING_ELK,
    "invalid-type-encoding",
    "invalid register type encoding",
    |i, d| {
        (!i.dst.is_null() && bad_encoding(true, i.dst.ty, false, d))
            || i.srcs.iter().any(|s| {
                !s.is_null()
                    && bad_encoding(false, s.ty, s.is_imm(), d)
                    && !is_dim_immediate(i, s, d)
            })
    }
);

/// DIM's DF immediate: Haswell's one encoding of a 64-bit immediate (docs/hardware/fp64-align16.md §1.2,
/// §10 item 5 "DF immediate outside DIM"); Ivybridge has no DIM.
fn is_dim_immediate(i: &Inst, s: &Reg, d: &compiler::device::DeviceInfo) -> bool {
    i.op == Opcode::Dim && s.is_imm() && s.ty == Type::DF && d.verx10 == 75
}

rule!(
    BYTE_SRC1,
    "byte-src1",
    "Byte data type is not supported for src1 register regioning. This includes byte broadcast as well.",
    |i, _| {
        !is_send_like(i)
            && !i.op.is_3src()
            && super::hw_src_count(i) >= 2
            && i.srcs
                .get(1)
                .is_some_and(|s| !s.is_imm() && !s.is_null() && s.ty.size() == 1)
    }
);
rule!(
    BYTE_SRC12_3SRC,
    "byte-src12-3src",
    "Byte data type is not supported for src1/2 register regioning. This includes byte broadcast as well.",
    |i, _| i.op.is_3src()
        && i.srcs
            .iter()
            .skip(1)
            .any(|s| !s.is_imm() && s.ty.size() == 1)
);

/// The general operand-type checks after the 64-bit ones skip 3-source instructions,
/// SIMD1 and instructions without a destination.
fn general(inst: &Inst) -> bool {
    !is_send_like(inst) && !inst.op.is_3src() && inst.exec_size != 1 && !inst.dst.is_null()
}

/// The destination's HorzStride as encoded, direct or register-indirect (Mesa's validators
/// read `dst.hstride` whatever the addressing mode, docs/hardware/eu-hardware.md §1.4).
fn dst_hstride(inst: &Inst) -> u32 {
    encoded_region(&inst.dst).map_or(1, |g| g.hstride as u32)
}

/// The conversion-to-HF rows of docs/hardware/eu-hardware.md §6.4 are stated for Align1 only
/// (Mesa: "we only validate this for Align1 because Align16 always requires packed
/// destinations").
fn align1_hf_conversion(inst: &Inst) -> bool {
    general(inst) && !inst.is_align16()
}

/// The destination sub-register rows of docs/hardware/eu-hardware.md §6.4 are stated for an Align1
/// direct destination: an indirect one's offset is unknown until it runs.
fn align1_direct_dst(inst: &Inst) -> bool {
    !inst.is_align16() && !is_indirect(&inst.dst)
}

fn src_mods(inst: &Inst) -> bool {
    inst.srcs.iter().any(|s| s.negate || s.abs)
}

/// MOV of a byte type to a byte type with no saturate, modifiers or vector immediate.
fn is_raw_byte_mov(inst: &Inst) -> bool {
    inst.op == Opcode::Mov
        && inst
            .srcs
            .first()
            .is_some_and(|s| matches!(s.ty, Type::B | Type::UB))
        && !inst.saturate
        && !src_mods(inst)
}

rule!(
    PACKED_BYTE_DST,
    "packed-byte-dst",
    "Only raw MOV supports a packed-byte destination",
    |i, _| general(i)
        && matches!(i.dst.ty, Type::B | Type::UB)
        && dst_hstride(i) == 1
        && !is_raw_byte_mov(i)
);

fn mixes_64bit_with(inst: &Inst, other: fn(Type) -> bool) -> bool {
    operands(inst).any(|r| r.ty.size() == 8) && operands(inst).any(|r| other(r.ty))
}

rule!(
    BYTE_64BIT,
    "byte-64bit-conversion",
    "There are no direct conversions between 64-bit types and B/UB",
    |i, _| !is_send_like(i) && mixes_64bit_with(i, |t| matches!(t, Type::B | Type::UB))
);
rule!(
    HF_64BIT,
    "hf-64bit-conversion",
    "There are no direct conversions between 64-bit types and HF",
    |i, _| !is_send_like(i) && mixes_64bit_with(i, |t| t == Type::HF)
);

fn int_hf_conversion(inst: &Inst) -> bool {
    let src_int = inst.srcs.iter().any(|s| s.ty.is_int());
    let src_hf = inst.srcs.iter().any(|s| s.ty == Type::HF);
    (inst.dst.ty == Type::HF && src_int) || (inst.dst.ty.is_int() && src_hf)
}

rule!(
    INT_HF_STRIDE,
    "int-hf-dst-stride",
    "Conversions between integer and half-float must be strided by a DWord on the destination",
    |i, _| align1_hf_conversion(i) && int_hf_conversion(i) && dst_hstride(i) * i.dst.ty.size() != 4
);
rule!(
    INT_HF_ALIGN,
    "int-hf-dst-align",
    "Conversions between integer and half-float must be aligned to a DWord on the destination",
    |i, _| align1_hf_conversion(i)
        && int_hf_conversion(i)
        && !is_indirect(&i.dst)
        && !subnr(&i.dst).is_multiple_of(4)
);
rule!(
    HF_WORDS,
    "hf-dst-word-alignment",
    "Conversions to HF must have either all words in even word locations or all words in odd word locations or be mixed-float with Oword-aligned packed destination",
    |i, _| {
        align1_hf_conversion(i)
            && i.dst.ty == Type::HF
            && i.srcs.iter().any(|s| s.ty != Type::HF)
            && !int_hf_conversion(i)
            && dst_hstride(i) != 2
            && !(is_mixed_float(i) && dst_hstride(i) == 1 && subnr(&i.dst).is_multiple_of(16))
    }
);

/// Exec type wider than the destination, outside mixed float, and not a raw byte MOV.
fn narrowing(inst: &Inst, mixed_exempt: bool) -> bool {
    general(inst)
        && exec_type(inst).size() > inst.dst.ty.size()
        && !(mixed_exempt && is_mixed_float(inst))
        && !is_raw_byte_mov(inst)
}

rule!(
    DST_STRIDE_RATIO,
    "dst-stride-exec-ratio",
    "Destination stride must be equal to the ratio of the sizes of the execution data type to the destination type",
    |i, _| narrowing(i, true) && dst_hstride(i) * i.dst.ty.size() != exec_type(i).size()
);
rule!(
    DST_STRIDE_RATIO_ELK,
    "dst-stride-exec-ratio",
    "Destination stride must be equal to the ratio of the sizes of the execution data type to the destination type",
    |i, d| narrowing(i, d.device == compiler::Device::Chv)
        && dst_hstride(i) * i.dst.ty.size() != exec_type(i).size()
);
rule!(
    DST_SUBREG_BYTE,
    "dst-subreg-exec-align-byte",
    "Destination subreg must be aligned to the size of the execution data type (or to the next lowest byte for byte destinations)",
    |i, _| narrowing(i, true)
        && align1_direct_dst(i)
        && i.dst.ty.size() == 1
        && !matches!(subnr(&i.dst) % exec_type(i).size(), 0 | 1)
);
rule!(
    DST_SUBREG,
    "dst-subreg-exec-align",
    "Destination subreg must be aligned to the size of the execution data type",
    |i, _| narrowing(i, true)
        && align1_direct_dst(i)
        && i.dst.ty.size() != 1
        && !subnr(&i.dst).is_multiple_of(exec_type(i).size())
);

rule!(
    // docs/hardware/eu-hardware.md §6.4: elk exempts mixed float from the narrowing rules only on CHV, so
    // on BDW a mixed-float HF destination must still sit at a multiple of the execution
    // type's size (the subreg rows share the stride row's condition).
    DST_SUBREG_BYTE_ELK,
    "dst-subreg-exec-align-byte",
    "Destination subreg must be aligned to the size of the execution data type (or to the next lowest byte for byte destinations)",
    |i, d| narrowing(i, d.device == compiler::Device::Chv)
        && align1_direct_dst(i)
        && i.dst.ty.size() == 1
        && !matches!(subnr(&i.dst) % exec_type(i).size(), 0 | 1)
);
rule!(
    DST_SUBREG_ELK,
    "dst-subreg-exec-align",
    "Destination subreg must be aligned to the size of the execution data type",
    |i, d| narrowing(i, d.device == compiler::Device::Chv)
        && align1_direct_dst(i)
        && i.dst.ty.size() != 1
        && !subnr(&i.dst).is_multiple_of(exec_type(i).size())
);

fn vector_imm(inst: &Inst) -> Option<Type> {
    inst.srcs
        .iter()
        .find(|s| s.is_imm() && s.ty.is_vector_imm())
        .map(|s| s.ty)
}

rule!(
    VEC_IMM_ALIGN,
    "vector-imm-dst-align",
    "Destination must be 128-bit aligned in order to use immediate vector types",
    |i, _| vector_imm(i).is_some() && !i.dst.is_null() && !subnr(&i.dst).is_multiple_of(16)
);
rule!(
    VF_STRIDE,
    "vf-dst-stride",
    "Destination must have stride equivalent to dword in order to use the VF type",
    |i, _| vector_imm(i) == Some(Type::VF) && dst_hstride(i) * i.dst.ty.size() != 4
);
rule!(
    V_STRIDE,
    "v-dst-stride",
    "Destination must have stride equivalent to word in order to use the V or UV type",
    |i, _| matches!(vector_imm(i), Some(Type::V | Type::UV))
        && dst_hstride(i) * i.dst.ty.size() != 2
);

/// Two-source hardware instructions (math with one operand and 3-source ones excluded).
fn two_source(inst: &Inst) -> bool {
    !is_send_like(inst) && !inst.op.is_3src() && super::hw_src_count(inst) == 2
}

rule!(
    // docs/hardware/eu-hardware.md §3.3: "A 2-source instruction may only have an immediate in src1" (the
    // encoding has no immediate field for src0). Mesa's emitter asserts it; the text is ours.
    IMM_SRC0_TWO_SOURCE,
    "imm-src0-two-source",
    "A two-source instruction may only have an immediate in src1",
    |i, _| two_source(i) && i.srcs.first().is_some_and(Reg::is_imm)
);
rule!(
    // docs/hardware/eu-hardware.md §3.3: "64-bit immediates (DF/Q/UQ) exist only for single-source
    // instructions" (on Gfx12+ they overlap the conditional-modifier field).
    IMM_64BIT_MULTI_SOURCE,
    "imm-64bit-multi-source",
    "64-bit immediates are only allowed on single-source instructions",
    |i, _| {
        !is_send_like(i)
            && (i.op.is_3src() || super::hw_src_count(i) >= 2)
            && i.srcs
                .iter()
                .take(super::hw_src_count(i))
                .any(|s| s.is_imm() && s.ty.size() == 8)
    }
);
