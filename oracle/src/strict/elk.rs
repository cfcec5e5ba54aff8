//! Gen4–Gen8 restriction table (Mesa's `elk_eu_validate.c`; g45, IVB/BYT, HSW, BDW, CHV).
//! Each row: a rule and the parts it applies to, in the order of eu-hardware.md §6.

use super::Row;
use super::rules::regions::always;
use super::rules::{
    align16 as a16, indirect as ind, instructions as ins, mixed_float as mix, operand_types as ty,
    qword, regions as reg, sends, three_src as tri,
};
use compiler::Device;
use compiler::device::DeviceInfo;

fn generation(d: &DeviceInfo) -> u32 {
    d.verx10 / 10
}

pub static TABLE: &[Row] = &[
    // §6.1 decode
    Row {
        rule: &reg::INVALID_EXEC_SIZE,
        applies: always,
    },
    Row {
        rule: &ins::UNSUPPORTED_ELK,
        applies: always,
    },
    Row {
        rule: &reg::SIMD32_MASKED_PRE_GEN8,
        applies: |d| generation(d) < 8,
    },
    Row {
        rule: &ty::BAD_ENCODING_ELK,
        applies: always,
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
        applies: |d| generation(d) >= 7,
    },
    Row {
        rule: &sends::SEND_NON_GRF,
        applies: |d| generation(d) >= 7,
    },
    Row {
        rule: &ind::SEND_INDIRECT,
        applies: always,
    },
    Row {
        rule: &sends::SEND_PAYLOAD_SUBREG,
        applies: always,
    },
    Row {
        rule: &sends::R127_OVERLAP,
        applies: |d| generation(d) >= 8,
    },
    // §3.3 immediates
    Row {
        rule: &ty::IMM_SRC0_TWO_SOURCE,
        applies: always,
    },
    Row {
        rule: &ty::IMM_64BIT_MULTI_SOURCE,
        applies: always,
    },
    // §6.4 operand types
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
        applies: |d| d.device == Device::Chv,
    },
    Row {
        rule: &ty::DST_STRIDE_RATIO_ELK,
        applies: always,
    },
    Row {
        rule: &ty::DST_SUBREG_BYTE_ELK,
        applies: always,
    },
    Row {
        rule: &ty::DST_SUBREG_ELK,
        applies: always,
    },
    // §6.5 mixed float (Gen8)
    Row {
        rule: &mix::SIMD8_F_DST_ELK,
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &mix::SIMD8_PACKED_HF_ELK,
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &mix::MATH_STRIDED_HF,
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &mix::PACKED_HF_OWORD,
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &mix::PACKED_HF_MAX8,
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &mix::ACC_ALIGNED,
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &mix::ACC_HF_STRIDE,
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &ind::MIXED_FLOAT_INDIRECT,
        applies: |d| generation(d) >= 8,
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
    // §6.7 region alignment
    Row {
        rule: &reg::SRC_SPANS_TWO,
        applies: always,
    },
    Row {
        rule: &reg::DST_SPANS_TWO,
        applies: always,
    },
    Row {
        rule: &reg::OWORD_SPLIT,
        applies: always,
    },
    Row {
        rule: &reg::DST_EVEN_SPLIT,
        applies: always,
    },
    Row {
        rule: &reg::DST_REG_FROM_ONE_SRC_REG,
        applies: |d| generation(d) <= 7,
    },
    Row {
        rule: &reg::TWO_SRC_REGS_SAME_OFFSET,
        applies: |d| generation(d) <= 7,
    },
    Row {
        rule: &reg::SRC_MUST_SPAN_TWO,
        applies: |d| generation(d) <= 7,
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
    // §6.9 64-bit on CHV
    Row {
        rule: &qword::LP_STRIDE,
        applies: |d| d.device == Device::Chv,
    },
    Row {
        rule: &qword::LP_VSTRIDE,
        applies: |d| d.device == Device::Chv,
    },
    Row {
        rule: &qword::LP_OFFSET,
        applies: |d| d.device == Device::Chv,
    },
    Row {
        rule: &qword::LP_ARF,
        applies: |d| d.device == Device::Chv,
    },
    Row {
        rule: &qword::LP_DEPCTRL,
        applies: |d| d.device == Device::Chv,
    },
    Row {
        rule: &ind::LP_INDIRECT,
        applies: |d| d.device == Device::Chv,
    },
    // §6.10 instructions
    Row {
        rule: &ins::CMOD_NOT_SUPPORTED,
        applies: always,
    },
    Row {
        rule: &ins::CMP_CMOD,
        applies: always,
    },
    Row {
        rule: &ins::CMP_ACC_DST,
        applies: |d| generation(d) <= 7,
    },
    Row {
        rule: &ins::SEL_PRED_OR_CMOD,
        applies: |d| generation(d) >= 6,
    },
    Row {
        rule: &ins::SEL_NO_CMOD_GEN4,
        applies: |d| generation(d) < 6,
    },
    Row {
        rule: &ins::SEL_PRED_GEN4,
        applies: |d| generation(d) < 6,
    },
    Row {
        rule: &ins::MUL_INT_ACC_ELK,
        applies: |d| generation(d) == 8,
    },
    Row {
        rule: &ins::MUL_ACC_GEN7,
        applies: |d| generation(d) <= 7,
    },
    Row {
        rule: &ins::MUL_DW_SRC0,
        applies: |d| generation(d) >= 7,
    },
    Row {
        rule: &ins::MUL_F_DST_DW,
        applies: |d| generation(d) <= 7,
    },
    Row {
        rule: &ins::MUL_DWXDW_ACC,
        applies: |d| generation(d) == 8,
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
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &ins::LOGIC_ACC_MOD,
        applies: |d| generation(d) >= 8,
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
    // 3-source (Align16 on every Gen4–8 part)
    Row {
        rule: &tri::ALIGN16_IMM,
        applies: always,
    },
    Row {
        rule: &tri::ALIGN16_REGION,
        applies: always,
    },
    Row {
        rule: &tri::SIMD16,
        applies: |d| !d.supports_simd16_3src,
    },
    Row {
        rule: &ind::THREE_SRC_INDIRECT,
        applies: always,
    },
    // Align16 (eu-hardware.md §1.3, §5.2, §6.1, §6.5, §6.6, §6.9; fp64-align16.md §10 item 5)
    Row {
        rule: &a16::DST_HSTRIDE,
        applies: always,
    },
    Row {
        rule: &a16::VSTRIDE_IVB,
        applies: |d| d.verx10 < 75,
    },
    Row {
        rule: &a16::VSTRIDE_HSW,
        applies: |d| d.verx10 >= 75,
    },
    Row {
        rule: &a16::SUBREG_UNIT,
        applies: always,
    },
    Row {
        rule: &a16::MIXED_FLOAT_VSTRIDE,
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &a16::MIXED_FLOAT_SIMD8,
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &a16::MIXED_FLOAT_ACC,
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &a16::QWORD_EXEC,
        applies: |d| generation(d) >= 8,
    },
    Row {
        rule: &a16::REPCTRL_64BIT_0,
        applies: always,
    },
    Row {
        rule: &a16::REPCTRL_64BIT_1,
        applies: always,
    },
    Row {
        rule: &a16::REPCTRL_64BIT_2,
        applies: always,
    },
    Row {
        rule: &a16::DF_SWIZZLE_PAIR,
        applies: always,
    },
    Row {
        rule: &a16::DF_ROW_CROSSES_GRF,
        applies: always,
    },
    Row {
        rule: &a16::SRC_SPANS_TWO,
        applies: a16::gen7,
    },
    Row {
        rule: &a16::DEPCTRL_64BIT,
        applies: always,
    },
    Row {
        rule: &a16::IVB_EXEC_SIZE,
        applies: |d| d.verx10 == 70,
    },
    Row {
        rule: &a16::DF_WRITEMASK_XY_ZW,
        applies: always,
    },
    Row {
        rule: &a16::DF_SEL_EXEC8,
        applies: a16::gen7,
    },
];
