//! The contract of `opt_cse`: what it leaves in every program (`Pass::postcondition`),
//! stated apart from the pass (docs/validator.md, pass contracts).

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::program::Program;
use crate::reg::{Reg, RegKind};
use crate::validate::Violation;

/// The VGRF or ATTR an operand's value lives in.
fn storage(r: &Reg) -> Option<(bool, u32)> {
    match r.kind {
        RegKind::Vgrf { nr, .. } => Some((true, nr)),
        RegKind::Attr { nr, .. } => Some((false, nr)),
        _ => None,
    }
}

/// Whether the pass's module notes make `inst` an expression it may reuse or replace: a
/// pure operation (no message, control flow, LOAD_PAYLOAD, implicit accumulator user or
/// NOP) into a packed VGRF, from VGRFs, inputs, uniforms and immediates, unpredicated,
/// without conditional modifier, accumulator write or EOT, not reading its own
/// destination's VGRF.
fn expression(inst: &Inst) -> bool {
    use Opcode::*;
    let pure = !inst.op.is_message()
        && !inst.op.is_control_flow()
        && !matches!(inst.op, LoadPayload | Mach | Mac | Addc | Subb | Nop);
    let readable = |r: &Reg| {
        matches!(
            r.kind,
            RegKind::Vgrf { .. } | RegKind::Attr { .. } | RegKind::Uniform { .. } | RegKind::Imm(_)
        )
    };
    let own = storage(&inst.dst);
    pure && inst.srcs.iter().all(readable)
        && matches!(inst.dst.kind, RegKind::Vgrf { stride: 1, .. })
        && inst.predicate.is_none()
        && inst.cmod.is_none()
        && !inst.acc_wr
        && !inst.eot
        && !inst
            .srcs
            .iter()
            .any(|s| storage(s).is_some() && storage(s) == own)
}

/// Whether `later` recomputes exactly what `earlier` computed: the same operation, sources,
/// destination type and size, exec controls and saturate.
fn recomputes(earlier: &Inst, later: &Inst) -> bool {
    earlier.op == later.op
        && earlier.srcs == later.srcs
        && earlier.dst.ty == later.dst.ty
        && earlier.size_written() == later.size_written()
        && earlier.exec_size == later.exec_size
        && earlier.group == later.group
        && earlier.nomask == later.nomask
        && earlier.saturate == later.saturate
}

/// Whether `inst` may change `earlier`'s result where it lies or any value it read: a
/// write to a VGRF or input either names, or a fixed-register or indirect write when
/// `earlier` read an input (such a write may land on the payload).
fn disturbs(inst: &Inst, earlier: &Inst) -> bool {
    match inst.dst.kind {
        RegKind::Vgrf { .. } | RegKind::Attr { .. } => {
            let written = storage(&inst.dst);
            std::iter::once(&earlier.dst)
                .chain(&earlier.srcs)
                .any(|r| storage(r) == written)
        }
        RegKind::Fixed { .. } | RegKind::Indirect { .. } => earlier
            .srcs
            .iter()
            .any(|s| matches!(s.kind, RegKind::Attr { .. })),
        _ => false,
    }
}

/// What the pass leaves ([`crate::validate::Rule::ExpressionRecomputed`]): in no block an expression (not
/// a MOV) followed by an exact recomputation of it with nothing between that writes its
/// result's VGRF or anything it read. Local CSE replaces every such recomputation with a
/// copy of the result (docs/hardware/brw-backend.md §7.1 item 3); one left over changes no
/// output, so only this contract sees a CSE that stops finding them.
pub fn postcondition(p: &Program) -> Vec<Violation> {
    super::recomputations(p, "opt_cse", expression, recomputes, disturbs)
}
