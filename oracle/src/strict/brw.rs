//! Gfx9+ restriction table (Mesa's `brw_eu_validate.c`; SKL, BXT/GLK, ICL, TGL, DG2).
//! Each row: a rule and the parts it applies to, in the order of eu-hardware.md §6.

use super::Row;
use super::rules::regions::always;
use super::rules::{
    align16 as a16, indirect as ind, instructions as ins, mixed_float as mix, operand_types as ty,
    qword, regions as reg, sends, three_src as tri,
};
use compiler::Device;

pub static TABLE: &[Row] = &[
    // §6.1 decode
    Row {
        rule: &reg::INVALID_EXEC_SIZE,
        applies: always,
    },
    Row {
        rule: &ins::UNSUPPORTED_BRW,
        applies: always,
    },
    Row {
        rule: &ty::BAD_DST_ENCODING,
        applies: always,
    },
    Row {
        rule: &ty::BAD_SRC_ENCODING,
        applies: always,
    },
    Row {
        rule: &reg::EXEC_SIZE_OFFSET,
        applies: |d| d.verx10 >= 120,
    },
    // §6.2 null sources
    Row {
        rule: &reg::SRC0_NULL,
        applies: always,
    },
    Row {
        rule: &reg::SRC1_NULL,
        applies: always,
    },
    // §1.4 indirect addressing
    Row {
        rule: &ind::SRC1_INDIRECT,
        applies: always,
    },
    // §6.3 sends
    Row {
        rule: &sends::EOT_RANGE,
        applies: always,
    },
    Row {
        rule: &sends::SEND_PAYLOAD_SUBREG,
        applies: always,
    },
    Row {
        rule: &sends::SEND_NON_GRF,
        applies: always,
    },
    Row {
        rule: &ind::SEND_INDIRECT,
        applies: always,
    },
    Row {
        rule: &sends::SPLIT_SRC1,
        applies: always,
    },
    Row {
        rule: &sends::SPLIT_OVERLAP,
        applies: always,
    },
    Row {
        rule: &sends::R127_OVERLAP,
        applies: |d| d.verx10 < 100,
    },
    // §6.4 operand types
    // §3.3 immediates
    Row {
        rule: &ty::IMM_SRC0_TWO_SOURCE,
        applies: always,
    },
    Row {
        rule: &ty::IMM_64BIT_MULTI_SOURCE,
        applies: always,
    },
    Row {
        rule: &ty::BYTE_SRC1,
        applies: |d| d.verx10 >= 110,
    },
    Row {
        rule: &ty::BYTE_SRC12_3SRC,
        applies: |d| d.verx10 >= 110,
    },
    Row {
        rule: &ty::DF_DST,
        applies: always,
    },
    Row {
        rule: &ty::DF_SRC,
        applies: always,
    },
    Row {
        rule: &ty::Q_DST,
        applies: always,
    },
    Row {
        rule: &ty::Q_SRC,
        applies: always,
    },
    Row {
        rule: &ty::PACKED_BYTE_DST,
        applies: always,
    },
    Row {
        rule: &ty::BYTE_64BIT,
        applies: always,
    },
    Row {
        rule: &ty::HF_64BIT,
        applies: always,
    },
    Row {
        rule: &ty::INT_HF_STRIDE,
        applies: always,
    },
    Row {
        rule: &ty::INT_HF_ALIGN,
        applies: always,
    },
    Row {
        rule: &ty::HF_WORDS,
        applies: always,
    },
    Row {
        rule: &ty::DST_STRIDE_RATIO,
        applies: always,
    },
    Row {
        rule: &ty::DST_SUBREG_BYTE,
        applies: always,
    },
    Row {
        rule: &ty::DST_SUBREG,
        applies: always,
    },
    // §6.5 mixed float
    Row {
        rule: &mix::SIMD8_F_DST,
        applies: always,
    },
    Row {
        rule: &mix::SIMD8_PACKED_HF,
        applies: always,
    },
    Row {
        rule: &mix::MATH_STRIDED_HF,
        applies: always,
    },
    Row {
        rule: &mix::PACKED_HF_OWORD,
        applies: always,
    },
    Row {
        rule: &mix::PACKED_HF_MAX8,
        applies: always,
    },
    Row {
        rule: &mix::ACC_ALIGNED,
        applies: always,
    },
    Row {
        rule: &mix::ACC_HF_STRIDE,
        applies: always,
    },
    Row {
        rule: &ind::MIXED_FLOAT_INDIRECT,
        applies: always,
    },
    // §6.6 region parameters
    Row {
        rule: &reg::UNENCODABLE_REGION,
        applies: always,
    },
    Row {
        rule: &reg::EXEC_GE_WIDTH,
        applies: always,
    },
    Row {
        rule: &reg::WIDTH1_HSTRIDE0,
        applies: always,
    },
    Row {
        rule: &reg::VSTRIDE_EQ_WIDTH_HSTRIDE,
        applies: always,
    },
    Row {
        rule: &reg::EXEC_WIDTH_ONE,
        applies: always,
    },
    Row {
        rule: &reg::ZERO_STRIDES_WIDTH1,
        applies: always,
    },
    Row {
        rule: &reg::ROW_CROSSES_GRF,
        applies: always,
    },
    Row {
        rule: &reg::DST_HSTRIDE_ZERO,
        applies: always,
    },
    // §6.7 region alignment (Gfx9+ keeps the two-register limits and the MATH split rule)
    Row {
        rule: &reg::SRC_SPANS_TWO,
        applies: always,
    },
    Row {
        rule: &reg::DST_SPANS_TWO,
        applies: always,
    },
    Row {
        rule: &reg::DST_EVEN_SPLIT_MATH,
        applies: always,
    },
    // §6.8 vector immediates
    Row {
        rule: &ty::VEC_IMM_ALIGN,
        applies: always,
    },
    Row {
        rule: &ty::VF_STRIDE,
        applies: always,
    },
    Row {
        rule: &ty::V_STRIDE,
        applies: always,
    },
    // §6.9 64-bit: BXT/GLK low-power rules, Gfx12.5 LSB rule
    Row {
        rule: &qword::LP_STRIDE,
        applies: |d| matches!(d.device, Device::Bxt | Device::Glk),
    },
    Row {
        rule: &qword::LP_VSTRIDE,
        applies: |d| matches!(d.device, Device::Bxt | Device::Glk),
    },
    Row {
        rule: &qword::LP_OFFSET,
        applies: |d| matches!(d.device, Device::Bxt | Device::Glk),
    },
    Row {
        rule: &qword::LP_ARF,
        applies: |d| matches!(d.device, Device::Bxt | Device::Glk),
    },
    Row {
        rule: &qword::LP_DEPCTRL,
        applies: |d| matches!(d.device, Device::Bxt | Device::Glk),
    },
    Row {
        rule: &ind::LP_INDIRECT,
        applies: |d| matches!(d.device, Device::Bxt | Device::Glk),
    },
    Row {
        rule: &qword::LSB_MOVE,
        applies: |d| d.verx10 >= 125,
    },
    Row {
        rule: &qword::XEHP_ARF,
        applies: |d| d.verx10 >= 125,
    },
    Row {
        rule: &ind::XEHP_VX1_FLOAT,
        applies: |d| d.verx10 >= 125,
    },
    // §6.10 instructions
    Row {
        rule: &ins::MUL_DW_MODIFIER,
        applies: |d| d.verx10 >= 120,
    },
    Row {
        rule: &ins::DEPCTRL_GFX12,
        applies: |d| d.verx10 >= 120,
    },
    Row {
        rule: &ins::CMOD_NOT_SUPPORTED,
        applies: always,
    },
    Row {
        rule: &ins::CMP_CMOD,
        applies: always,
    },
    Row {
        rule: &ins::SEL_PRED_OR_CMOD,
        applies: always,
    },
    Row {
        rule: &ins::MUL_MIX,
        applies: always,
    },
    Row {
        rule: &ins::MUL_INT_ACC_BRW,
        applies: always,
    },
    Row {
        rule: &ins::MUL_DW_SRC0,
        applies: always,
    },
    Row {
        rule: &ins::DW_MUL_SAT_CMOD,
        applies: always,
    },
    Row {
        rule: &ins::INT_DIV_MODS,
        applies: always,
    },
    Row {
        rule: &ins::LOGIC_ABS,
        applies: always,
    },
    Row {
        rule: &ins::LOGIC_ACC_MOD,
        applies: always,
    },
    Row {
        rule: &ins::LOGIC_ORU,
        applies: always,
    },
    Row {
        rule: &ins::BFI2_CMOD,
        applies: always,
    },
    Row {
        rule: &ins::BFI2_SAT,
        applies: always,
    },
    Row {
        rule: &ins::BFI2_DST,
        applies: always,
    },
    Row {
        rule: &ins::BFI2_SRC,
        applies: always,
    },
    Row {
        rule: &ins::AVG_FLOAT,
        applies: always,
    },
    Row {
        rule: &ins::AVG_64,
        applies: always,
    },
    Row {
        rule: &ins::ADD_MIX,
        applies: always,
    },
    Row {
        rule: &ins::ADD3_DST,
        applies: |d| d.verx10 >= 125,
    },
    Row {
        rule: &ins::ADD3_SRC,
        applies: |d| d.verx10 >= 125,
    },
    Row {
        rule: &ins::ADD3_IMM,
        applies: |d| d.verx10 >= 125,
    },
    // 3-source: Align16 on Gfx9, Align1 from Gfx11
    Row {
        rule: &tri::ALIGN16_IMM,
        applies: |d| d.has_align16,
    },
    Row {
        rule: &tri::ALIGN16_REGION,
        applies: |d| d.has_align16,
    },
    Row {
        rule: &tri::ALIGN1_SRC1_IMM,
        applies: |d| !d.has_align16,
    },
    Row {
        rule: &tri::ALIGN1_TWO_IMM,
        applies: |d| !d.has_align16,
    },
    Row {
        rule: &tri::ALIGN1_IMM16,
        applies: |d| !d.has_align16,
    },
    Row {
        rule: &tri::ALIGN1_DST_STRIDE,
        applies: |d| !d.has_align16,
    },
    Row {
        rule: &ind::THREE_SRC_INDIRECT,
        applies: always,
    },
    // Align16 (eu-hardware.md §1.3, §5.2, §6.1, §6.5, §6.6, §6.9; fp64-align16.md §10 item 5)
    Row {
        rule: &a16::GFX11,
        applies: |d| !a16::has_align16(d),
    },
    Row {
        rule: &a16::DST_HSTRIDE,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::VSTRIDE_HSW,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::SUBREG_UNIT,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::MIXED_FLOAT_VSTRIDE,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::MIXED_FLOAT_SIMD8,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::MIXED_FLOAT_ACC,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::QWORD_EXEC,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::REPCTRL_64BIT_0,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::REPCTRL_64BIT_1,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::REPCTRL_64BIT_2,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::DF_SWIZZLE_PAIR,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::DF_ROW_CROSSES_GRF,
        applies: a16::has_align16,
    },
    Row {
        rule: &a16::DF_WRITEMASK_XY_ZW,
        applies: a16::has_align16,
    },
];
