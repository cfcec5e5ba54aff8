//! Type rules: which types each opcode accepts, 64-bit and half-float availability per
//! device, 3-source type mixing, immediates that fit their type.

use super::{Report, Rule};
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::program::Program;
use crate::reg::{Reg, RegKind};
use crate::types::Type;

/// What an operand's type must be for a class of opcodes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Any,
    Int,
    Float,
    /// D or UD.
    Dword,
    /// UD only (ADDC/SUBB).
    Ud,
    /// F or HF (math functions).
    FloatMath,
    /// Integer, not 64-bit.
    IntNot64,
    /// D, UD, W or UW (ADD3, docs/hardware/eu-hardware.md §7.3).
    DwordOrWord,
}

impl Want {
    fn accepts(self, t: Type) -> bool {
        let t = t.exec_type();
        match self {
            Want::Any => true,
            Want::Int => t.is_int(),
            Want::Float => t.is_float(),
            Want::Dword => matches!(t, Type::D | Type::UD),
            Want::Ud => t == Type::UD,
            Want::FloatMath => matches!(t, Type::F | Type::HF),
            Want::IntNot64 => t.is_int() && !t.is_64bit(),
            Want::DwordOrWord => matches!(t, Type::D | Type::UD | Type::W | Type::UW),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Want::Any => "any type",
            Want::Int => "integer types",
            Want::Float => "float types",
            Want::Dword => "D or UD",
            Want::Ud => "UD",
            Want::FloatMath => "F or HF",
            Want::IntNot64 => "integer types up to 32 bits",
            Want::DwordOrWord => "D, UD, W or UW",
        }
    }
}

fn want_for(op: Opcode) -> Want {
    use Opcode::*;
    match op {
        And | Or | Xor | Not | Shl | Shr | Asr | Rol | Ror => Want::Int,
        Bfrev | Bfe | Bfi1 | Bfi2 | Fbh | Fbl | Cbit | Lzd | Mach | Mulh | IntQuotient
        | IntRemainder => Want::Dword,
        Addc | Subb => Want::Ud,
        Avg => Want::IntNot64,
        Add3 => Want::DwordOrWord,
        Frc | Rndu | Rndd | Rnde | Rndz | Mad | Lrp => Want::Float,
        Rcp | Rsq | Sqrt | Exp2 | Log2 | Sin | Cos | Pow => Want::FloatMath,
        _ => Want::Any,
    }
}

fn operands(inst: &Inst) -> impl Iterator<Item = (&'static str, &Reg)> {
    let dst = (!inst.dst.is_null()).then_some(("destination", &inst.dst));
    dst.into_iter()
        .chain(inst.srcs.iter().map(|s| ("source", s)))
}

/// Whether `inst`'s operands (a null destination aside) hold both 64-bit data and
/// narrower data: a conversion between the two inside the instruction.
pub(super) fn mixes_64bit_and_narrower(inst: &Inst) -> bool {
    let sizes = || {
        operands(inst)
            .filter(|(_, r)| !r.is_null())
            .map(|(_, r)| r.ty.size())
    };
    sizes().any(|s| s == 8) && sizes().any(|s| s < 8)
}

pub(super) fn check(p: &Program, ip: usize, inst: &Inst, r: &mut Report) {
    let info = p.device.info();
    if let Some(first) = crate::hw::first_generation(inst.op)
        && info.verx10 < first
    {
        r.violations.push(super::Violation {
            rule: Rule::UnsupportedOpcode,
            ip: Some(ip),
            message: format!(
                "{} exists from Gen{} on, not on {}",
                inst.op.name(),
                first / 10,
                info.name
            ),
        });
    }
    let mut illegal = |msg: String| {
        r.violations.push(super::Violation {
            rule: Rule::IllegalType,
            ip: Some(ip),
            message: msg,
        })
    };
    if inst.dst.ty.is_vector_imm() && !inst.dst.is_null() {
        illegal(format!("{} cannot be a destination type", inst.dst.ty));
    }
    for s in &inst.srcs {
        if s.ty.is_vector_imm() && !s.is_imm() && !s.is_null() {
            illegal(format!("{} exists only as an immediate", s.ty));
        }
        if s.is_imm() && matches!(s.ty, Type::B | Type::UB) {
            illegal(format!("{} immediates do not exist", s.ty));
        }
    }
    let want = want_for(inst.op);
    if want != Want::Any {
        for (what, reg) in operands(inst) {
            if !want.accepts(reg.ty) {
                illegal(format!(
                    "{} takes {}, {what} is {}",
                    inst.op.name(),
                    want.describe(),
                    reg.ty
                ));
            }
        }
    }
    let src_float = inst
        .srcs
        .iter()
        .filter(|s| !s.is_null())
        .map(|s| s.ty.is_float());
    let (any_f, any_i) = src_float.fold((false, false), |(f, i), x| (f || x, i || !x));
    match inst.op {
        Opcode::Add | Opcode::Mul if any_f && any_i => {
            illegal(format!(
                "{} can't mix float and integer sources",
                inst.op.name()
            ));
        }
        Opcode::Mul if inst.dst.ty.is_float() && any_i && !inst.dst.is_null() => {
            illegal("MUL can't have a float destination with integer sources".into());
        }
        _ => {}
    }
    if inst.op.is_math() && info.verx10 < 60 {
        illegal(format!(
            "{}: math is a message on {} (Gen4/5), which this model does not lower",
            inst.op.name(),
            info.name
        ));
    }
    if (inst.op.is_message() || inst.op == Opcode::LoadPayload)
        && inst.srcs.iter().any(|s| s.negate || s.abs)
    {
        illegal(format!(
            "{} copies its sources as raw bits: no source modifiers",
            inst.op.name()
        ));
    }
    if inst.op == Opcode::Bfi2 && (inst.cmod.is_some() || inst.saturate) {
        illegal("BFI2 takes no conditional modifier or saturate".into());
    }
    // docs/hardware/eu-hardware.md §6.10: BFI2's sources have its destination's type, and
    // nothing lowers one that converts (Mesa emits it only from NIR's all-UD `bfi`).
    if inst.op == Opcode::Bfi2 && inst.srcs.iter().any(|s| s.ty != inst.dst.ty) {
        illegal("BFI2's sources must have its destination's type".into());
    }
    // docs/hardware/eu-hardware.md §3.5: the hardware takes no saturate on an integer
    // multiply with a dword source, a W×D one included, and nothing lowers one (a D×D or
    // Q×Q product is also computed in pieces, which a clamp of the whole cannot follow).
    if inst.op == Opcode::Mul
        && inst.saturate
        && inst.srcs.iter().all(|s| s.ty.is_int())
        && inst.srcs.iter().any(|s| s.ty.size() >= 4)
    {
        illegal(
            "no saturate on an integer multiply with a 32/64-bit source (the hardware has none)"
                .into(),
        );
    }
    // Not by a MOV nor as any other operation's result: nothing splits an operation on
    // 64-bit data into an HF destination (docs/hardware/eu-hardware.md §3.7, "no direct
    // conversions between 64-bit types and HF"), and NIR converts to HF from F only.
    let from_64 = inst.srcs.iter().any(|s| s.ty.is_64bit());
    if from_64 && inst.dst.ty == Type::HF && !inst.dst.is_null() && !inst.op.is_message() {
        illegal("no conversion from a 64-bit type to HF (it would round twice)".into());
    }
    if inst.op.is_logic() && inst.srcs.iter().any(|s| s.abs) {
        illegal(format!(
            "{} with an abs source modifier is undefined",
            inst.op.name()
        ));
    }
    if matches!(inst.op, Opcode::IntQuotient | Opcode::IntRemainder)
        && inst.srcs.iter().any(|s| s.abs || s.negate)
    {
        illegal("integer division takes no source modifiers".into());
    }
    // One width too: NIR's ffma, flrp, bfi and the like have every operand at one bit size,
    // and no pass splits a 64↔32-bit conversion out of a three-source instruction (on the
    // low-power parts no region could even encode `mad v:DF, a:F, b:F, c:F`,
    // docs/hardware/eu-hardware.md §5.1).
    if inst.op.is_3src() && mixes_64bit_and_narrower(inst) {
        r.add(
            Rule::ThreeSrcMixedTypes,
            Some(ip),
            format!(
                "{} operands must be all 64-bit or all narrower",
                inst.op.name()
            ),
        );
    }
    if inst.op.is_3src() && any_f && any_i {
        r.add(
            Rule::ThreeSrcMixedTypes,
            Some(ip),
            format!(
                "{} sources must be all integer or all float",
                inst.op.name()
            ),
        );
    }
    // A null destination still has a type the hardware must encode (docs/hardware/eu-hardware.md §3.2:
    // 64-bit codes decode everywhere and the operand-type rules then reject them, §6.4), so
    // type availability covers it too.
    let typed = std::iter::once(("destination", &inst.dst))
        .filter(|(_, d)| d.is_null())
        .chain(operands(inst));
    for (what, reg) in typed {
        let t = reg.ty;
        if t == Type::DF && !info.has_64bit_float {
            r.add(
                Rule::No64bitFloat,
                Some(ip),
                format!("DF {what} on {}, which has no 64-bit float", info.name),
            );
        } else if t == Type::DF && reg.is_imm() && !info.has_df_imm && !df_imm_lowered(inst) {
            r.add(
                Rule::No64bitFloat,
                Some(ip),
                format!("DF immediate on {}, which has DF registers only", info.name),
            );
        }
        if matches!(t, Type::Q | Type::UQ) && !info.has_64bit_int {
            r.add(
                Rule::No64bitInt,
                Some(ip),
                format!("{t} {what} on {}, which has no 64-bit integers", info.name),
            );
        }
        if t == Type::HF && !info.has_half_float {
            r.add(
                Rule::NoHalfFloat,
                Some(ip),
                format!("HF {what} on {}, which has no half float", info.name),
            );
        }
        if let RegKind::Imm(bits) = reg.kind {
            let width = match t {
                Type::VF | Type::V | Type::UV => 32,
                _ => t.size() * 8,
            };
            if width < 64 && bits >> width != 0 {
                r.add(
                    Rule::ImmOutOfRange,
                    Some(ip),
                    format!("immediate 0x{bits:x} has bits beyond its {width}-bit type {t}"),
                );
            }
        }
    }
}

/// Where a DF immediate is fine on a part without DF immediates (docs/hardware/fp64-align16.md §1.2): in
/// DIM, Haswell's 64-bit immediate load, and in a logical (VGRF-destination) Align16
/// instruction, whose immediate the vec4 pipeline's `setup_imm_df` loads into a register.
fn df_imm_lowered(inst: &crate::inst::Inst) -> bool {
    inst.op == crate::opcode::Opcode::Dim || (inst.is_align16() && inst.dst.is_vgrf())
}
