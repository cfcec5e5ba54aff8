//! Mixed float (F with HF) restrictions, Gen8+ (docs/hardware/eu-hardware.md §6.5).
//!
//! Strides are read as encoded, for register-indirect operands too (§1.4); the rows §6.5
//! states for Align1 look only at Align1 instructions (Align16 mixed float has its own rows,
//! align16.rs), as both validators do.

use super::regions::rule;
use super::{encoded_region, is_indirect, is_mixed_float, subnr};
use compiler::reg::Reg;
use compiler::types::Type;
use compiler::{Inst, Opcode};

fn dst_hstride(inst: &Inst) -> u32 {
    encoded_region(&inst.dst).map_or(1, |g| g.hstride as u32)
}

/// Mixed float in Align1: the rows of §6.5 that say "Align1".
fn align1_mixed_float(inst: &Inst) -> bool {
    is_mixed_float(inst) && !inst.is_align16()
}

fn packed_hf_dst(inst: &Inst) -> bool {
    inst.dst.ty == Type::HF && dst_hstride(inst) == 1
}

fn acc_sources(inst: &Inst) -> impl Iterator<Item = &Reg> {
    inst.srcs.iter().filter(|s| s.is_accumulator())
}

rule!(
    SIMD8_F_DST,
    "mixed-float-f-dst-simd8",
    "Mixed float mode with 32-bit float destination is limited to SIMD8",
    |i, _| is_mixed_float(i) && i.exec_size > 8 && i.dst.ty == Type::F && i.op != Opcode::Mov
);
rule!(
    SIMD8_F_DST_ELK,
    "mixed-float-f-dst-simd8",
    "Mixed float mode with 32-bit float destination is limited to SIMD8",
    |i, _| is_mixed_float(i) && i.exec_size > 8 && i.dst.ty == Type::F
);
rule!(
    SIMD8_PACKED_HF,
    "mixed-float-packed-hf-simd8",
    "Align1 mixed float mode is limited to SIMD8 when destination is packed half-float",
    |i, _| align1_mixed_float(i) && i.exec_size > 8 && packed_hf_dst(i) && i.op != Opcode::Mov
);
rule!(
    SIMD8_PACKED_HF_ELK,
    "mixed-float-packed-hf-simd8",
    "Align1 mixed float mode is limited to SIMD8 when destination is packed half-float",
    |i, _| align1_mixed_float(i) && i.exec_size > 8 && packed_hf_dst(i)
);
rule!(
    MATH_STRIDED_HF,
    "mixed-math-strided-hf",
    "Align1 mixed mode math needs strided half-float inputs",
    |i, _| {
        align1_mixed_float(i)
            && i.op.is_math()
            && i.srcs.iter().any(|s| {
                s.ty == Type::HF && !s.is_imm() && encoded_region(s).is_some_and(|g| g.hstride <= 1)
            })
    }
);
rule!(
    PACKED_HF_OWORD,
    "mixed-packed-hf-oword-aligned",
    "Align1 mixed mode packed half-float output must be oword aligned",
    |i, _| align1_mixed_float(i)
        && packed_hf_dst(i)
        && !is_indirect(&i.dst)
        && !subnr(&i.dst).is_multiple_of(16)
);
rule!(
    PACKED_HF_MAX8,
    "mixed-packed-hf-max-simd8",
    "Align1 mixed mode packed half-float output must not cross oword boundaries (max exec size is 8)",
    |i, _| align1_mixed_float(i) && packed_hf_dst(i) && i.exec_size > 8
);
rule!(
    ACC_ALIGNED,
    "mixed-acc-register-aligned",
    "Mixed float mode requires register-aligned accumulator source reads when destination is packed half-float",
    |i, _| {
        align1_mixed_float(i)
            && packed_hf_dst(i)
            && acc_sources(i).any(|s| matches!(s.ty, Type::F | Type::HF) && subnr(s) != 0)
    }
);
rule!(
    ACC_HF_STRIDE,
    "mixed-acc-hf-dst-stride",
    "Mixed float mode with implicit/explicit accumulator source and half-float destination requires a stride of 2 on the destination",
    |i, _| {
        align1_mixed_float(i)
            && i.dst.ty == Type::HF
            && (acc_sources(i).next().is_some() || matches!(i.op, Opcode::Mach | Opcode::Mac))
            && dst_hstride(i) != 2
    }
);
