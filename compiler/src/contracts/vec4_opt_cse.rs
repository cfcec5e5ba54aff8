//! The contract of the vec4 `opt_cse`: what it leaves in every program
//! (`Pass::postcondition`), stated apart from the pass (docs/validator.md, pass contracts).

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::program::Program;
use crate::reg::RegKind;
use crate::validate::Violation;

/// The VGRF an operand names, if it names one.
fn vgrf(r: &crate::reg::Reg) -> Option<u32> {
    match r.kind {
        RegKind::Vgrf { nr, .. } => Some(nr),
        _ => None,
    }
}

/// Whether the pass's module notes make `inst` an expression it may reuse or replace: a
/// pure ALU operation other than a MOV (no control flow, message, side effect, dword-half
/// write, NOP or subgroup operation), unpredicated, without conditional modifier,
/// accumulator write or EOT, writing a whole VGRF value (every component), and — judged
/// here by VGRF, more strictly than the pass's bytes — reading nothing of the VGRF it
/// writes.
fn expression(inst: &Inst) -> bool {
    let pure = !inst.op.is_control_flow()
        && !inst.op.is_message()
        && !inst.op.has_side_effects()
        && !inst.op.is_dword_half_set()
        && !inst.op.is_subgroup()
        && !matches!(inst.op, Opcode::Nop | Opcode::Mov);
    let own = vgrf(&inst.dst);
    pure && own.is_some()
        && inst.dst.writemask.is_full()
        && inst.predicate.is_none()
        && inst.cmod.is_none()
        && !inst.acc_wr
        && !inst.eot
        && !inst.srcs.iter().any(|s| vgrf(s) == own)
}

/// Whether `later` computes exactly what `earlier` computed: the same operation, sources
/// (swizzles and modifiers included), destination type, saturate, access mode, NoMask,
/// exec size and group (the channels, docs/hardware/fp64-align16.md §6).
fn recomputes(earlier: &Inst, later: &Inst) -> bool {
    earlier.op == later.op
        && earlier.srcs == later.srcs
        && earlier.dst.ty == later.dst.ty
        && earlier.saturate == later.saturate
        && earlier.access_mode == later.access_mode
        && earlier.nomask == later.nomask
        && earlier.exec_size == later.exec_size
        && earlier.group == later.group
}

/// Whether `inst` may change `earlier`'s result where it lies or a value it read: a write
/// to a VGRF either names, or any write that is not to a VGRF or null.
fn disturbs(inst: &Inst, earlier: &Inst) -> bool {
    match inst.dst.kind {
        RegKind::Null => false,
        RegKind::Vgrf { nr, .. } => std::iter::once(&earlier.dst)
            .chain(&earlier.srcs)
            .any(|r| vgrf(r) == Some(nr)),
        _ => true,
    }
}

/// What the pass leaves ([`crate::validate::Rule::ExpressionRecomputed`]): in no block an expression
/// followed by an exact recomputation of it with nothing between that writes the VGRF of
/// its result or of anything it read. The pass makes every such recomputation a move of
/// the earlier result (docs/hardware/fp64-align16.md §6; Mesa's `vec4_visitor::opt_cse`);
/// one left over changes no output, so only this contract sees a CSE that stops finding
/// them.
pub fn postcondition(p: &Program) -> Vec<Violation> {
    super::recomputations(p, "vec4_opt_cse", expression, recomputes, disturbs)
}
