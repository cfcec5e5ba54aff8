//! The restriction table: every rule once (send-payload-subreg twice, see §6.3 below), with
//! the parts it applies to, in the order of docs/hardware/eu-hardware.md §6. Mesa splits its validator by
//! generation family — `elk_eu_validate.c` (Gen4–8: g45, IVB/BYT, HSW, BDW, CHV) and
//! `brw_eu_validate.c` (Gfx9+: SKL, BXT/GLK, ICL, TGL, DG2) — and a rule one family lacks or
//! words differently says so in its predicate (`brw`, `elk`, or the generations that have
//! it), so each row reads against the spec's tables.

use super::rules::{
    align16 as a16, indirect as ind, instructions as ins, mixed_float as mix, operand_types as ty,
    qword, regions as reg, sends, three_src as tri,
};
use super::{Row, RuleDef};
use compiler::Device;
use compiler::device::DeviceInfo;

fn generation(d: &DeviceInfo) -> u32 {
    d.verx10 / 10
}

/// Parts `brw_eu_validate.c` checks (Gfx9+).
fn brw(d: &DeviceInfo) -> bool {
    generation(d) >= 9
}

/// Parts `elk_eu_validate.c` checks (Gen4–8).
fn elk(d: &DeviceInfo) -> bool {
    !brw(d)
}

fn gen8_or_9(d: &DeviceInfo) -> bool {
    matches!(generation(d), 8 | 9)
}

fn always(_: &DeviceInfo) -> bool {
    true
}

fn has_align16(d: &DeviceInfo) -> bool {
    d.has_align16
}

/// The 64-bit low-power parts (CHV, BXT/GLK).
fn low_power(d: &DeviceInfo) -> bool {
    matches!(d.device, Device::Chv | Device::Bxt | Device::Glk)
}

const fn row(rule: &'static RuleDef, applies: fn(&DeviceInfo) -> bool) -> Row {
    Row { rule, applies }
}

/// A device evaluates the rows that apply to it, top to bottom, and the first
/// rule an instruction breaks names the finding, so the order is part of the verdict.
pub static TABLE: &[Row] = &[
    // docs/hardware/brw-backend.md §1.8: an opcode with no hardware instruction at all (no
    // other field of it can be read as the hardware would).
    row(&ins::LOGICAL_OPCODE, always),
    // §6.1 decode
    row(&reg::INVALID_EXEC_SIZE, always),
    row(&ins::UNSUPPORTED_BRW, brw),
    row(&ty::BAD_DST_ENCODING, brw),
    row(&ty::BAD_SRC_ENCODING, brw),
    row(&reg::EXEC_SIZE_OFFSET, |d| d.verx10 >= 120),
    row(&ins::UNSUPPORTED_ELK, elk),
    row(&reg::SIMD32_MASKED_PRE_GEN8, |d| generation(d) < 8),
    row(&ty::BAD_ENCODING_ELK, elk),
    // §6.2 null sources
    row(&reg::SRC0_NULL, always),
    row(&reg::SRC1_NULL, always),
    // §1.4 indirect addressing
    row(&ind::SRC1_INDIRECT, always),
    // §6.3 sends
    row(&sends::EOT_RANGE, |d| generation(d) >= 7),
    // The two validators check a payload's sub-register at different points, and the first rule
    // broken names the finding: send-payload-subreg keeps each family's place (brw here, elk
    // after send-indirect-src0).
    row(&sends::SEND_PAYLOAD_SUBREG, brw),
    row(&sends::SEND_RESPONSE_SUBREG, always),
    row(&sends::SEND_NON_GRF, |d| generation(d) >= 7),
    row(&ind::SEND_INDIRECT, always),
    row(&sends::SPLIT_SRC1, brw),
    row(&sends::SPLIT_OVERLAP, brw),
    row(&sends::SEND_PAYLOAD_SUBREG, elk),
    row(&sends::R127_OVERLAP, gen8_or_9),
    // §3.3 immediates
    row(&ty::IMM_SRC0_TWO_SOURCE, always),
    row(&ty::IMM_64BIT_MULTI_SOURCE, always),
    // §6.4 operand types
    row(&ty::BYTE_SRC1, |d| d.verx10 >= 110),
    row(&ty::BYTE_SRC12_3SRC, |d| d.verx10 >= 110),
    row(&ty::DF_DST, always),
    row(&ty::DF_SRC, always),
    row(&ty::Q_DST, always),
    row(&ty::Q_SRC, always),
    row(&ty::PACKED_BYTE_DST, always),
    row(&ty::BYTE_64BIT, always),
    row(&ty::HF_64BIT, always),
    row(&ty::INT_HF_STRIDE, always),
    row(&ty::INT_HF_ALIGN, always),
    row(&ty::HF_WORDS, |d| brw(d) || d.device == Device::Chv),
    row(&ty::DST_STRIDE_RATIO, brw),
    row(&ty::DST_SUBREG_BYTE, brw),
    row(&ty::DST_SUBREG, brw),
    row(&ty::DST_STRIDE_RATIO_ELK, elk),
    row(&ty::DST_SUBREG_BYTE_ELK, elk),
    row(&ty::DST_SUBREG_ELK, elk),
    // §6.5 mixed float
    row(&mix::SIMD8_F_DST, brw),
    row(&mix::SIMD8_PACKED_HF, brw),
    row(&mix::SIMD8_F_DST_ELK, |d| generation(d) == 8),
    row(&mix::SIMD8_PACKED_HF_ELK, |d| generation(d) == 8),
    row(&mix::MATH_STRIDED_HF, |d| generation(d) >= 8),
    row(&mix::PACKED_HF_OWORD, |d| generation(d) >= 8),
    row(&mix::PACKED_HF_MAX8, |d| generation(d) >= 8),
    row(&mix::ACC_ALIGNED, |d| generation(d) >= 8),
    row(&mix::ACC_HF_STRIDE, |d| generation(d) >= 8),
    row(&ind::MIXED_FLOAT_INDIRECT, |d| generation(d) >= 8),
    // §6.6 region parameters
    row(&reg::UNENCODABLE_REGION, always),
    row(&reg::EXEC_GE_WIDTH, always),
    row(&reg::WIDTH1_HSTRIDE0, always),
    row(&reg::VSTRIDE_EQ_WIDTH_HSTRIDE, always),
    row(&reg::EXEC_WIDTH_ONE, always),
    row(&reg::ZERO_STRIDES_WIDTH1, always),
    row(&reg::ROW_CROSSES_GRF, always),
    row(&reg::DST_HSTRIDE_ZERO, always),
    // §6.7 region alignment (Gfx9+ keeps the two-register limits and the MATH split rule)
    row(&reg::SRC_SPANS_TWO, always),
    row(&reg::DST_SPANS_TWO, always),
    row(&reg::DST_EVEN_SPLIT_MATH, brw),
    row(&reg::OWORD_SPLIT, elk),
    row(&reg::DST_EVEN_SPLIT, elk),
    row(&reg::DST_REG_FROM_ONE_SRC_REG, |d| generation(d) <= 7),
    row(&reg::TWO_SRC_REGS_SAME_OFFSET, |d| generation(d) <= 7),
    row(&reg::SRC_MUST_SPAN_TWO, |d| generation(d) <= 7),
    // §6.8 vector immediates
    row(&ty::VEC_IMM_ALIGN, always),
    row(&ty::VF_STRIDE, always),
    row(&ty::V_STRIDE, always),
    // §6.9 64-bit: CHV and BXT/GLK low-power rules, Gfx12.5 LSB rule
    row(&qword::LP_STRIDE, low_power),
    row(&qword::LP_VSTRIDE, low_power),
    row(&qword::LP_OFFSET, low_power),
    row(&qword::LP_ARF, low_power),
    row(&qword::LP_DEPCTRL, low_power),
    row(&ind::LP_INDIRECT, low_power),
    row(&qword::LSB_MOVE, |d| d.verx10 >= 125),
    row(&qword::XEHP_ARF, |d| d.verx10 >= 125),
    row(&ind::XEHP_VX1_FLOAT, |d| d.verx10 >= 125),
    // §6.10 instructions
    row(&ins::MUL_DW_MODIFIER, |d| d.verx10 >= 120),
    row(&ins::DEPCTRL_GFX12, |d| d.verx10 >= 120),
    row(&ins::CMOD_NOT_SUPPORTED, always),
    row(&ins::CMP_CMOD, always),
    row(&ins::CMP_ACC_DST, |d| generation(d) <= 7),
    row(&ins::SEL_PRED_OR_CMOD, |d| generation(d) >= 6),
    row(&ins::MUL_MIX, brw),
    row(&ins::MUL_INT_ACC_BRW, brw),
    row(&ins::SEL_NO_CMOD_GEN4, |d| generation(d) < 6),
    row(&ins::SEL_PRED_GEN4, |d| generation(d) < 6),
    row(&ins::MUL_INT_ACC_ELK, |d| generation(d) == 8),
    row(&ins::MUL_ACC_GEN7, |d| generation(d) <= 7),
    row(&ins::MUL_DW_SRC0, |d| generation(d) >= 7),
    row(&ins::MUL_F_DST_DW, |d| generation(d) <= 7),
    row(&ins::MUL_DWXDW_ACC, |d| generation(d) == 8),
    row(&ins::DW_MUL_SAT_CMOD, always),
    row(&ins::INT_DIV_MODS, always),
    row(&ins::LOGIC_ABS, |d| generation(d) >= 8),
    row(&ins::LOGIC_ACC_MOD, |d| generation(d) >= 8),
    row(&ins::LOGIC_ORU, always),
    row(&ins::CMOD_SIMD32_GEN7, |d| generation(d) == 7),
    row(&ins::CMOD_SIMD32_3SRC, |d| (8..12).contains(&generation(d))),
    row(&ins::BFI2_CMOD, always),
    row(&ins::BFI2_SAT, always),
    row(&ins::BFI2_DST, always),
    row(&ins::BFI2_SRC, always),
    row(&ins::AVG_FLOAT, brw),
    row(&ins::AVG_64, brw),
    row(&ins::ADD_MIX, brw),
    row(&ins::ADD3_DST, |d| d.verx10 >= 125),
    row(&ins::ADD3_SRC, |d| d.verx10 >= 125),
    row(&ins::ADD3_IMM, |d| d.verx10 >= 125),
    // 3-source: Align16 up to Gfx9, Align1 from Gfx11
    row(&tri::ALIGN16_IMM, has_align16),
    row(&tri::ALIGN16_REGION, has_align16),
    row(&tri::ALIGN1_SRC1_IMM, |d| !d.has_align16),
    row(&tri::ALIGN1_TWO_IMM, |d| !d.has_align16),
    row(&tri::ALIGN1_IMM16, |d| !d.has_align16),
    row(&tri::ALIGN1_DST_STRIDE, |d| !d.has_align16),
    row(&tri::SIMD16, |d| !d.supports_simd16_3src),
    row(&ind::THREE_SRC_INDIRECT, always),
    // Align16 (docs/hardware/eu-hardware.md §1.3, §5.2, §6.1, §6.5, §6.6, §6.9; docs/hardware/fp64-align16.md §10 item 5)
    row(&a16::GFX11, |d| !d.has_align16),
    row(&a16::DST_HSTRIDE, has_align16),
    row(&a16::VSTRIDE_IVB, |d| d.verx10 < 75),
    row(&a16::VSTRIDE_HSW, |d| d.has_align16 && d.verx10 >= 75),
    row(&a16::SUBREG_UNIT, has_align16),
    row(&a16::MIXED_FLOAT_VSTRIDE, gen8_or_9),
    row(&a16::MIXED_FLOAT_SIMD8, gen8_or_9),
    row(&a16::MIXED_FLOAT_ACC, gen8_or_9),
    row(&a16::QWORD_EXEC, gen8_or_9),
    row(&a16::REPCTRL_64BIT_0, has_align16),
    row(&a16::REPCTRL_64BIT_1, has_align16),
    row(&a16::REPCTRL_64BIT_2, has_align16),
    row(&a16::DF_SWIZZLE_PAIR, has_align16),
    row(&a16::DF_ROW_CROSSES_GRF, has_align16),
    row(&a16::SRC_SPANS_TWO, |d| generation(d) == 7),
    row(&a16::DEPCTRL_64BIT, elk),
    row(&a16::IVB_EXEC_SIZE, |d| d.verx10 == 70),
    row(&a16::DF_WRITEMASK_XY_ZW, has_align16),
    row(&a16::DF_SEL_EXEC8, |d| generation(d) == 7),
];
