//! The contract of `opt_redundant_halt`: what it leaves in every program (`Pass::postcondition`),
//! stated apart from the pass (docs/validator.md, pass contracts).

use crate::opcode::Opcode;
use crate::program::Program;
use crate::validate::{Rule, Violation};

/// What the pass leaves ([`Rule::RedundantHaltKept`]), its two rewrites (its module notes)
/// stated of the program as left: no HALT with only NOPs and HALTs between it and the program's first
/// HALT_TARGET, and no HALT_TARGET without a HALT since the previous one, unless it is the
/// first and a HALT remains. Either left over changes no output, so only this contract
/// sees a pass that stops removing them.
pub fn postcondition(p: &Program) -> Vec<Violation> {
    let ops: Vec<Opcode> = p.insts().map(|i| i.op).collect();
    let kept = |ip: usize, what: &str| Violation {
        rule: Rule::RedundantHaltKept,
        ip: Some(ip),
        message: format!("{what}, yet opt_redundant_halt kept it"),
    };
    let mut violations = vec![];
    if let Some(target) = ops.iter().position(|&op| op == Opcode::HaltTarget) {
        let before = ops[..target]
            .iter()
            .rposition(|&op| !matches!(op, Opcode::Nop | Opcode::Halt))
            .map_or(0, |last_work| last_work + 1);
        for ip in (before..target).filter(|&ip| ops[ip] == Opcode::Halt) {
            violations.push(kept(
                ip,
                "a HALT nothing but NOPs separates from its target",
            ));
        }
    }
    let any_halt = ops.contains(&Opcode::Halt);
    let mut previous_target = None;
    for (ip, &op) in ops.iter().enumerate() {
        if op != Opcode::HaltTarget {
            continue;
        }
        let since = previous_target.map_or(0, |t| t + 1);
        let reached = ops[since..ip].contains(&Opcode::Halt);
        let every_halts_target = previous_target.is_none() && any_halt;
        if !(reached || every_halts_target) {
            violations.push(kept(ip, "a HALT_TARGET no HALT can reach"));
        }
        previous_target = Some(ip);
    }
    violations
}
