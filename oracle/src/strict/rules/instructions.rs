//! Per-instruction restrictions (docs/hardware/eu-hardware.md §4, §6.1, §6.10).

use super::regions::rule;
use compiler::inst::CondMod;
use compiler::reg::Reg;
use compiler::types::Type;
use compiler::{Inst, Opcode};

fn dw(t: Type) -> bool {
    matches!(t, Type::D | Type::UD)
}

fn int_src(inst: &Inst, i: usize) -> Option<&Reg> {
    inst.srcs.get(i).filter(|s| s.ty.is_int())
}

fn is_mul(inst: &Inst) -> bool {
    inst.op == Opcode::Mul
}

rule!(
    // docs/hardware/brw-backend.md §1.8: a logical operation (`*_logical`, `load_payload`, `mulh`)
    // or a spill/fill pseudo-operation has no hardware instruction — Mesa's generator has no
    // case for it ("Unsupported opcode") — so compiled code that still holds one was not
    // lowered by the pass whose job that is. The emulator would run it correctly, so only
    // this rule tells. The text is ours.
    LOGICAL_OPCODE,
    "logical-opcode",
    "Logical opcode in compiled code: it has no hardware instruction and must be lowered before code generation (docs/hardware/brw-backend.md §1.8)",
    |i, _| i.op.is_virtual()
);
rule!(
    UNSUPPORTED_BRW,
    "unsupported-instruction",
    "Instruction not supported on this Gfx version",
    |i, d| compiler::hw::first_generation(i.op).is_some_and(|g| d.verx10 < g)
);
rule!(
    UNSUPPORTED_ELK,
    "unsupported-instruction",
    "Instruction not supported on this Gen",
    |i, d| (i.op.is_math() && d.verx10 < 60)
        || compiler::hw::first_generation(i.op).is_some_and(|g| d.verx10 < g)
);
rule!(
    CMP_CMOD,
    "cmp-needs-cmod",
    "CMP (or CMPN) must have a condition.",
    |i, _| { matches!(i.op, Opcode::Cmp | Opcode::Cmpn) && i.cmod.is_none() }
);
rule!(
    CMP_ACC_DST,
    "cmp-acc-dst",
    "Accumulator cannot be destination, implicit or explicit.",
    |i, _| matches!(i.op, Opcode::Cmp | Opcode::Cmpn) && super::is_arf(&i.dst)
);
rule!(
    SEL_PRED_OR_CMOD,
    "sel-pred-xor-cmod",
    "SEL must either be predicated or have a condition modifiers",
    |i, _| i.op == Opcode::Sel && i.predicate.is_some() == i.cmod.is_some()
);
rule!(
    SEL_NO_CMOD_GEN4,
    "sel-cmod-gen4",
    "SEL must not have a condition modifier",
    |i, _| { i.op == Opcode::Sel && i.cmod.is_some() }
);
rule!(
    SEL_PRED_GEN4,
    "sel-pred-gen4",
    "SEL must be predicated",
    |i, _| { i.op == Opcode::Sel && i.predicate.is_none() }
);
rule!(
    MUL_MIX,
    "mul-float-int-mix",
    "MUL can't mix floats and integer sources.",
    |i, _| { is_mul(i) && i.dst.ty.is_float() && i.srcs.iter().any(|s| s.ty.is_int()) }
);
rule!(
    MUL_INT_ACC_BRW,
    "mul-int-acc-src",
    "In MUL, Integer source operands cannot be accumulators.",
    |i, _| is_mul(i) && i.srcs.iter().any(|s| s.is_accumulator() && s.ty.is_int())
);
rule!(
    MUL_INT_ACC_ELK,
    "mul-int-acc-src",
    "Integer source operands cannot be accumulators.",
    |i, _| is_mul(i) && i.srcs.iter().any(|s| s.is_accumulator() && s.ty.is_int())
);
rule!(
    MUL_ACC_GEN7,
    "mul-acc-src",
    "Source operands cannot be an accumulator register.",
    |i, _| is_mul(i) && i.srcs.iter().any(Reg::is_accumulator)
);
rule!(
    MUL_DW_SRC0,
    "mul-dw-src0",
    "When multiplying a DW and any lower precision integer, the DW operand must be src0.",
    |i, _| {
        is_mul(i)
            && int_src(i, 0).is_some_and(|s| s.ty.size() < 4)
            && int_src(i, 1).is_some_and(|s| dw(s.ty))
    }
);
rule!(
    MUL_F_DST_DW,
    "mul-float-dst-dword-src",
    "Float destination type not allowed with DWord source type.",
    |i, _| is_mul(i) && i.dst.ty == Type::F && i.srcs.iter().any(|s| dw(s.ty))
);
rule!(
    MUL_DWXDW_ACC,
    "mul-dwxdw-acc-dst",
    "When multiplying DW x DW, the dst cannot be accumulator.",
    |i, _| is_mul(i)
        && i.srcs.len() == 2
        && i.srcs.iter().all(|s| dw(s.ty))
        && super::is_arf(&i.dst)
);
rule!(
    DW_MUL_SAT_CMOD,
    "dw-mul-sat-cmod",
    "Neither Saturate nor conditional modifier allowed with DW integer multiply.",
    |i, _| {
        is_mul(i)
            && i.srcs.iter().any(|s| dw(s.ty))
            && matches!(i.dst.ty, Type::W | Type::UW | Type::D | Type::UD)
            && (i.saturate || i.cmod.is_some())
    }
);
rule!(
    MUL_DW_MODIFIER,
    "mul-dw-lower-precision-modifier",
    "When multiplying a DW and any lower precision integer, source modifier is not supported.",
    |i, _| {
        is_mul(i)
            && super::exec_type(i) == Type::D
            && i.srcs
                .iter()
                .any(|s| !s.is_imm() && s.ty.is_int() && s.ty.size() != 4 && (s.negate || s.abs))
    }
);
rule!(
    INT_DIV_MODS,
    "int-div-modifiers",
    "INT DIV function does not support source modifiers.",
    |i, _| matches!(i.op, Opcode::IntQuotient | Opcode::IntRemainder)
        && i.srcs.iter().any(|s| s.negate || s.abs)
);
rule!(
    LOGIC_ABS,
    "logic-abs",
    "Behavior of abs source modifier in logic ops is undefined.",
    |i, _| i.op.is_logic()
        && i.srcs
            .iter()
            .enumerate()
            .any(|(k, s)| s.abs && !(k == 1 && s.is_imm()))
);
rule!(
    LOGIC_ACC_MOD,
    "logic-acc-modifier",
    "Source modifier is not allowed if source is an accumulator.",
    |i, _| i.op.is_logic()
        && i.srcs
            .iter()
            .any(|s| s.is_accumulator() && (s.negate || s.abs))
);
rule!(
    LOGIC_ORU,
    "logic-cmod-oru",
    "O, R, and U conditional modifiers should not be used.",
    |i, _| i.op.is_logic() && matches!(i.cmod, Some(CondMod::O | CondMod::R | CondMod::U))
);
rule!(
    // docs/hardware/eu-hardware.md §6.10: the IVB PRM forbids a conditional modifier on any
    // SIMD32 instruction (Gen7); the BDW PRM keeps the ban for three-source instructions
    // (Gen8 to Gen11). Quoted in Mesa's `get_fpu_lowered_simd_width` (brw_fs.cpp), which
    // caps such instructions at SIMD16; neither validator checks it.
    CMOD_SIMD32_GEN7,
    "cmod-simd32-gen7",
    "Instructions with condition modifiers must not use SIMD32",
    |i, _| i.exec_size == 32 && i.cmod.is_some()
);
rule!(
    CMOD_SIMD32_3SRC,
    "cmod-simd32-3src",
    "Ternary instruction with condition modifiers must not use SIMD32",
    |i, _| i.exec_size == 32 && i.cmod.is_some() && i.op.is_3src()
);
rule!(
    BFI2_CMOD,
    "bfi2-cmod",
    "BFI2 cannot have conditional modifier",
    |i, _| { i.op == Opcode::Bfi2 && i.cmod.is_some() }
);
rule!(
    BFI2_SAT,
    "bfi2-sat",
    "BFI2 cannot have saturate modifier",
    |i, _| { i.op == Opcode::Bfi2 && i.saturate }
);
rule!(
    BFI2_DST,
    "bfi2-dst-type",
    "BFI2 destination type must be D or UD",
    |i, _| { i.op == Opcode::Bfi2 && !dw(i.dst.ty) }
);
rule!(
    BFI2_SRC,
    "bfi2-src-type",
    "BFI2 source type must match destination type",
    |i, _| { i.op == Opcode::Bfi2 && i.srcs.iter().any(|s| s.ty != i.dst.ty) }
);
rule!(
    AVG_FLOAT,
    "avg-float",
    "AVG performs integer average. Float types not supported.",
    |i, _| i.op == Opcode::Avg && (i.dst.ty.is_float() || i.srcs.iter().any(|s| s.ty.is_float()))
);
rule!(
    AVG_64,
    "avg-64bit",
    "AVG does not support 64-bit types.",
    |i, _| {
        i.op == Opcode::Avg && (i.dst.ty.size() == 8 || i.srcs.iter().any(|s| s.ty.size() == 8))
    }
);
rule!(
    ADD_MIX,
    "add-float-int-mix",
    "ADD can't mix float and non-float sources.",
    |i, _| {
        i.op == Opcode::Add
            && i.srcs.iter().any(|s| s.ty.is_float())
            && i.srcs.iter().any(|s| s.ty.is_int())
    }
);
rule!(
    // docs/hardware/brw-backend.md §10.3 #2 (`non_cmod_instruction`: FBL cannot carry a conditional
    // modifier), docs/hardware/eu-hardware.md §6.10 (BFI2); the rest of `Opcode::can_do_cmod` is the
    // conservative reading where the documents are silent. Mesa leaves this to the
    // optimiser, so the text is ours.
    CMOD_NOT_SUPPORTED,
    "cmod-not-supported",
    "This instruction cannot have a conditional modifier",
    |i, _| i.cmod.is_some() && !i.op.can_do_cmod()
);
rule!(
    // docs/hardware/eu-hardware.md §0.1: Gfx12 replaced the dependency-control bits with software
    // scoreboarding (SWSB), so NoDDClr/NoDDChk have no encoding there. The text is ours.
    DEPCTRL_GFX12,
    "depctrl-gfx12",
    "NoDDClr and NoDDChk do not exist from Gfx12 on (software scoreboarding)",
    |i, _| i.no_dd_clear || i.no_dd_check
);

/// ADD3's register and immediate types (docs/hardware/eu-hardware.md §6.10, §7.3; §3.3 "ADD3 immediates
/// must be W/UW").
fn add3_word_or_dword(t: Type) -> bool {
    matches!(t, Type::D | Type::UD | Type::W | Type::UW)
}

rule!(
    ADD3_DST,
    "add3-dst-type",
    "Destination must be integer D, UD, W, or UW type.",
    |i, _| i.op == Opcode::Add3 && !add3_word_or_dword(i.dst.ty)
);
rule!(
    ADD3_SRC,
    "add3-src-type",
    "Source must be integer D, UD, W, or UW type.",
    |i, _| i.op == Opcode::Add3
        && i.srcs
            .iter()
            .any(|s| !s.is_imm() && !add3_word_or_dword(s.ty))
);
rule!(
    ADD3_IMM,
    "add3-imm-type",
    "Immediate source must be integer W or UW type.",
    |i, _| i.op == Opcode::Add3
        && i.srcs
            .iter()
            .any(|s| s.is_imm() && !matches!(s.ty, Type::W | Type::UW))
);
