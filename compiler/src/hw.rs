//! Hardware facts about instructions that both the lowering passes and the emulator's strict
//! mode need: execution type (docs/hardware/eu-hardware.md §3.4), mixed-float mode, "double precision".

use crate::types::Type;
use crate::{Inst, Opcode};

/// Sources a hardware instruction actually reads: math functions other than POW and the
/// integer divisions read one.
pub fn hw_src_count(inst: &Inst) -> usize {
    use Opcode::*;
    match inst.op {
        Rcp | Rsq | Sqrt | Exp2 | Log2 | Sin | Cos => 1,
        _ => inst.srcs.len(),
    }
}

/// Instructions the region and type rules skip: messages, control flow, and the subgroup
/// pseudo-instructions FIND_LIVE_CHANNEL and BROADCAST, which reach hardware IR as stand-ins
/// for the sequences Mesa's generator emits (docs/hardware/brw-backend.md §7.2 `lower_find_live_channel`:
/// `ce0` ANDed with the dispatch mask `sr0.2`, then FBL; docs/hardware/eu-hardware.md §2.1). This model
/// does not give `sr0` a value, and `ce0`'s bits of undispatched channels are undefined, so
/// the sequence cannot be expressed exactly: the strict emulator executes the pseudo-op.
pub fn is_send_like(inst: &Inst) -> bool {
    inst.op.is_message()
        || inst.op.is_control_flow()
        || inst.op == Opcode::Nop
        || inst.op.is_subgroup()
}

fn exec_class(t: Type) -> Type {
    match t {
        Type::DF | Type::F | Type::HF => t,
        Type::VF => Type::F,
        Type::Q | Type::UQ => Type::Q,
        Type::D | Type::UD => Type::D,
        _ => Type::W,
    }
}

fn f_hf_mix(a: Type, b: Type) -> bool {
    matches!((a, b), (Type::F, Type::HF) | (Type::HF, Type::F))
}

/// The sources whose types count for the execution type: at most the first two hardware
/// sources (a 3-source instruction's third never does).
fn typed_srcs(inst: &Inst) -> &[crate::reg::Reg] {
    let n = hw_src_count(inst).min(2).min(inst.srcs.len());
    &inst.srcs[..n]
}

/// The execution type (docs/hardware/eu-hardware.md §3.4).
pub fn exec_type(inst: &Inst) -> Type {
    let dst = inst.dst.ty;
    match typed_srcs(inst) {
        [] => dst,
        [a] => {
            let m = exec_class(a.ty);
            if m == Type::HF { dst } else { m }
        }
        [a, b, ..] => {
            let (a, b) = (a.ty, b.ty);
            if f_hf_mix(a, b) || f_hf_mix(a, dst) || f_hf_mix(b, dst) {
                return Type::F;
            }
            let (ma, mb) = (exec_class(a), exec_class(b));
            if ma == mb {
                ma
            } else if ma == Type::Q || mb == Type::Q {
                Type::Q
            } else if ma == Type::D || mb == Type::D {
                Type::D
            } else if ma == Type::W || mb == Type::W {
                Type::W
            } else {
                Type::DF
            }
        }
    }
}

/// Mixed float mode: some pair among dst/src0/src1 is F against HF (never for sends, 3-src
/// or instructions without a destination).
pub fn is_mixed_float(inst: &Inst) -> bool {
    if is_send_like(inst) || inst.op.is_3src() || inst.dst.is_null() {
        return false;
    }
    // Some pair mixes F and HF exactly when both types occur.
    let types = || std::iter::once(inst.dst.ty).chain(typed_srcs(inst).iter().map(|r| r.ty));
    types().any(|t| t == Type::F) && types().any(|t| t == Type::HF)
}

/// "Double precision" in the validator's sense: an 8-byte destination or execution type, or
/// an integer DW×DW multiply.
pub fn is_double_precision(inst: &Inst) -> bool {
    let dw = |t: Type| matches!(t, Type::D | Type::UD);
    inst.dst.ty.size() == 8
        || exec_type(inst).size() == 8
        || (inst.op == Opcode::Mul
            && inst.srcs.len() == 2
            && dw(inst.srcs[0].ty)
            && dw(inst.srcs[1].ty))
}

/// The first hardware generation (verx10) with this opcode, for opcodes newer than Gen4.
pub fn first_generation(op: crate::opcode::Opcode) -> Option<u32> {
    use crate::opcode::Opcode::*;
    match op {
        Bfrev | Bfe | Bfi1 | Bfi2 | Fbh | Fbl | Cbit | Addc | Subb => Some(70),
        Rol | Ror => Some(110),
        // docs/hardware/eu-hardware.md §7.3: ADD3 from Gfx12.5.
        Add3 => Some(125),
        _ => None,
    }
}
