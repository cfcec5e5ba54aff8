//! The contract of `dead_control_flow_eliminate`: what it leaves in every program (`Pass::postcondition`),
//! stated apart from the pass (docs/validator.md, pass contracts).

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::program::Program;
use crate::validate::{Rule, Violation};

/// What the pass leaves ([`Rule::EmptyIfKept`]): no IF whose next instruction is its
/// ENDIF, or its ELSE followed by the ENDIF (docs/hardware/brw-backend.md §7.1 step 9).
/// Keeping one changes no output, so only this contract sees a pass that stops removing
/// them.
pub fn postcondition(p: &Program) -> Vec<Violation> {
    let insts: Vec<&Inst> = p.insts().collect();
    (0..insts.len())
        .filter(|&at| {
            insts[at].op == Opcode::If
                && match (insts.get(at + 1), insts.get(at + 2)) {
                    (Some(next), _) if next.op == Opcode::Endif => true,
                    (Some(next), Some(then)) => next.op == Opcode::Else && then.op == Opcode::Endif,
                    _ => false,
                }
        })
        .map(|at| Violation {
            rule: Rule::EmptyIfKept,
            ip: Some(at),
            message: "an IF with nothing inside, yet dead_control_flow_eliminate kept it".into(),
        })
        .collect()
}
