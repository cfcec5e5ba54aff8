//! The contract of `opt_algebraic`: what it leaves in every program (`Pass::postcondition`),
//! stated apart from the pass (docs/validator.md, pass contracts).

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::passes::opt_algebraic::as_mov;
use crate::program::Program;
use crate::reg::{Reg, RegKind};
use crate::types::Type;
use crate::validate::{Rule, Violation};

/// The value of an integer immediate of at most 32 bits without modifiers, sign- or
/// zero-extended from its type: the immediates the integer rules read.
fn int_value(r: &Reg) -> Option<i64> {
    let bits = r.imm_bits()?;
    if r.negate || r.abs {
        return None;
    }
    Some(match r.ty {
        Type::B => bits as u8 as i8 as i64,
        Type::UB => bits as u8 as i64,
        Type::W => bits as u16 as i16 as i64,
        Type::UW => bits as u16 as i64,
        Type::D => bits as u32 as i32 as i64,
        Type::UD => bits as u32 as i64,
        _ => return None,
    })
}

/// Whether the pass may rewrite `inst` at all: it writes a VGRF and reads only VGRFs,
/// inputs and immediates (an accumulator or architecture register has effects of its own),
/// and is no message, control flow or EOT.
fn rewritable(inst: &Inst) -> bool {
    let plain_source = |r: &Reg| {
        matches!(
            r.kind,
            RegKind::Vgrf { .. } | RegKind::Attr { .. } | RegKind::Uniform { .. } | RegKind::Imm(_)
        )
    };
    inst.dst.is_vgrf()
        && inst.srcs.iter().all(plain_source)
        && !inst.op.is_message()
        && !inst.op.is_control_flow()
        && !inst.eot
}

/// The MOV an integer two-source instruction with the immediate `k` as an operand and
/// `other` as the other reduces to, by the identities of the pass's module notes: `a + 0`,
/// `a | 0`, `a ^ 0`, `a · 1`, `a & ~0` are `a`; `a · 0`, `a & 0` are 0.
fn identity_move(inst: &Inst, k: i64, other: Reg) -> Option<Inst> {
    let logic_modified = inst.op.is_logic() && (other.negate || other.abs);
    let operand = match inst.op {
        Opcode::Add | Opcode::Or | Opcode::Xor => k == 0,
        Opcode::Mul => k == 1,
        Opcode::And => k == -1,
        _ => false,
    };
    let zero = matches!(inst.op, Opcode::Mul | Opcode::And) && k == 0;
    if logic_modified {
        None
    } else if operand {
        Some(as_mov(inst, other))
    } else if zero {
        Some(as_mov(inst, Reg::imm(0, inst.dst.ty)))
    } else {
        None
    }
}

/// The simpler instruction the pass's module notes call for: a fold of two integer
/// immediates, an integer identity, or a
/// `mov.sat` of an immediate saturation leaves alone. (Equal SELs are left to the pass's
/// tests: whether one folds depends on the device and on NaN quieting.)
fn owed_rewrite(inst: &Inst) -> Option<Inst> {
    let plain_ints = std::iter::once(&inst.dst)
        .chain(&inst.srcs)
        .all(|r| r.ty.is_int() && !r.ty.is_vector_imm());
    let two_source_int = matches!(
        inst.op,
        Opcode::Add | Opcode::Mul | Opcode::And | Opcode::Or | Opcode::Xor
    ) && inst.srcs.len() == 2
        && plain_ints
        && !inst.acc_wr;
    if two_source_int {
        let (a, b) = (inst.srcs[0], inst.srcs[1]);
        let foldable_dst = matches!(inst.dst.ty, Type::W | Type::UW | Type::D | Type::UD);
        return match (int_value(&a), int_value(&b)) {
            // Any immediate of the destination's type stands for the folded value: the
            // validator judges the MOV the same whatever it holds.
            (Some(_), Some(_)) if foldable_dst && !inst.saturate => {
                Some(as_mov(inst, Reg::imm(0, inst.dst.ty)))
            }
            (_, Some(k)) => identity_move(inst, k, a),
            (Some(k), None) => identity_move(inst, k, b),
            (None, None) => None,
        };
    }
    let src = inst.srcs.first()?;
    let bits = src.imm_bits()?;
    let clamps_to_itself = match src.ty {
        // (−0.0 is left: the documents do not say whether saturation keeps its sign.)
        Type::F => {
            bits == 0 || (f32::from_bits(bits as u32) > 0.0 && f32::from_bits(bits as u32) <= 1.0)
        }
        t => t.is_int() && !t.is_vector_imm(),
    };
    let unsaturated = inst.op == Opcode::Mov
        && inst.saturate
        && src.ty == inst.dst.ty
        && !src.negate
        && !src.abs
        && clamps_to_itself;
    unsaturated.then(|| Inst {
        saturate: false,
        ..inst.clone()
    })
}

/// What a run without progress leaves ([`Rule::AlgebraKept`]): no instruction the pass may
/// rewrite for which its module notes give a simpler instruction that the validator
/// accepts in its place. A fold left undone changes no output, so only this contract sees
/// a pass that stops making one (docs/hardware/brw-backend.md §7.1 item 2). Like Mesa's,
/// the pass rewrites each instruction once per run, so a rewrite may leave a fold for the
/// optimisation loop's next run: `and.sat v:D, a, 0` becomes `mov.sat v:D, 0`, whose
/// saturate the next run drops. A run that changed nothing has no such excuse.
pub fn postcondition(p: &Program) -> Vec<Violation> {
    p.insts()
        .enumerate()
        .filter(|(_, i)| rewritable(i))
        .filter_map(|(ip, i)| {
            let simpler = owed_rewrite(i)?;
            crate::validate::validate_inst(p, ip, &simpler)
                .is_empty()
                .then(|| Violation {
                    rule: Rule::AlgebraKept,
                    ip: Some(ip),
                    message: format!(
                        "{} has a simpler equal form ({}), yet opt_algebraic kept it",
                        crate::text::print_inst(i),
                        crate::text::print_inst(&simpler)
                    ),
                })
        })
        .collect()
}
