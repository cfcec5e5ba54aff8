//! The contract of `opt_predicated_break`: what it leaves in every program (`Pass::postcondition`),
//! stated apart from the pass (docs/validator.md, pass contracts).

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::program::Program;
use crate::validate::{Rule, Violation};

/// What the pass leaves ([`Rule::JumpInIfKept`]): no predicated IF whose only content is
/// an unpredicated BREAK or CONTINUE of the IF's exec size, group and mask control
/// (docs/hardware/brw-backend.md §7.1 step 5). Keeping one changes no output, so only this
/// contract sees a pass that stops folding them.
pub fn postcondition(p: &Program) -> Vec<Violation> {
    let insts: Vec<&Inst> = p.insts().collect();
    insts
        .windows(3)
        .enumerate()
        .filter(|(_, w)| {
            let (iff, jump, endif) = (w[0], w[1], w[2]);
            iff.op == Opcode::If
                && iff.predicate.is_some()
                && endif.op == Opcode::Endif
                && matches!(jump.op, Opcode::Break | Opcode::Continue)
                && jump.predicate.is_none()
                && jump.exec_size == iff.exec_size
                && jump.group == iff.group
                && jump.nomask == iff.nomask
        })
        .map(|(at, w)| Violation {
            rule: Rule::JumpInIfKept,
            ip: Some(at),
            message: format!(
                "an IF around a lone {}, yet opt_predicated_break did not predicate it",
                w[1].op.name()
            ),
        })
        .collect()
}
