//! Three-source instruction restrictions (docs/hardware/eu-hardware.md §7.3, docs/hardware/brw-backend.md §3 rule 8).
//! Mesa leaves most of these to the encoder, so the texts are ours.

use super::region;
use super::regions::rule;
use compiler::Inst;

fn imm_count(inst: &Inst) -> usize {
    inst.srcs.iter().filter(|s| s.is_imm()).count()
}

rule!(
    ALIGN16_IMM,
    "3src-align16-imm",
    "Align16 3-src instructions take only direct GRF sources, no immediates",
    |i, _| i.op.is_3src() && imm_count(i) > 0
);
rule!(
    ALIGN16_REGION,
    "3src-align16-region",
    "Align16 3-src sources must be scalar <0;1,0> or packed",
    // An instruction marked Align16 has only a VertStride per source (align16.rs).
    |i, _| {
        i.op.is_3src()
            && !i.is_align16()
            && i.srcs
                .iter()
                .filter_map(region)
                .any(|g| !(g.is_scalar() || (g.hstride == 1 && g.vstride == g.width)))
    }
);
rule!(
    SIMD16,
    "3src-simd16",
    "3-src instructions are limited to SIMD8 on parts without SIMD16 3-src support",
    |i, _| i.op.is_3src() && i.exec_size > 8
);
rule!(
    ALIGN1_SRC1_IMM,
    "3src-src1-imm",
    "Align1 3-src src1 cannot be an immediate",
    |i, _| i.op.is_3src() && i.srcs.get(1).is_some_and(|s| s.is_imm())
);
rule!(
    ALIGN1_TWO_IMM,
    "3src-two-imm",
    "Align1 3-src src0 and src2 cannot both be immediates",
    |i, _| i.op.is_3src()
        && i.srcs.first().is_some_and(|s| s.is_imm())
        && i.srcs.get(2).is_some_and(|s| s.is_imm())
);
rule!(
    ALIGN1_IMM16,
    "3src-imm-16bit",
    "Align1 3-src immediates must be 16-bit",
    |i, _| i.op.is_3src() && i.srcs.iter().any(|s| s.is_imm() && s.ty.size() != 2)
);
rule!(
    ALIGN1_DST_STRIDE,
    "3src-dst-hstride",
    "Align1 3-src destination horizontal stride must be 1 or 2",
    |i, _| i.op.is_3src() && region(&i.dst).is_some_and(|g| !matches!(g.hstride, 1 | 2))
);
