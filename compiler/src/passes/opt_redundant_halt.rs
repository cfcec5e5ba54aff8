//! `opt_redundant_halt`: Mesa's `opt_remove_redundant_halts` (docs/hardware/brw-backend.md §7.2) and
//! `opt_redundant_discard_jumps` (§7.1).
//!
//! Under the mask model of §9.2, HALT parks the active channels its predicate selects
//! until the HALT_TARGET, where every halted channel is re-enabled; when no channel is left
//! active, execution jumps to the HALT_TARGET (this model's UIP: the program's first
//! HALT_TARGET, as the CFG and the emulator take it). Two rewrites follow:
//!
//! 1. A top-level HALT followed by the program's first HALT_TARGET with nothing but NOPs
//!    (and other such HALTs) between them is removed: the channels it parks are re-enabled
//!    before any instruction could have skipped them, and if it parked every channel, the
//!    jump lands where execution goes on anyway. Only NOPs "do not care" whether halted
//!    channels skip them; any other instruction might write something for the channels
//!    that run it (the zoo bug ignores that). A HALT before a later HALT_TARGET is kept:
//!    with every channel halted it jumps back to the first target, ending the thread.
//! 2. A HALT_TARGET that no HALT can reach is removed: one preceded by no HALT since the
//!    previous HALT_TARGET (nothing is halted when it runs), except the program's first
//!    HALT_TARGET while any HALT remains (it is every HALT's jump target).

use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::validate::{Rule, Violation};

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &["redundant-halt", "unreachable-halt-target"];

/// Whether a halted channel may skip `op` without changing anything: a NOP (or a HALT,
/// which rewrite 1 removes too when it is just as redundant).
fn does_not_care(op: Opcode, opts: &CompileOptions) -> bool {
    matches!(op, Opcode::Nop | Opcode::Halt)
        || (crate::zoo!(opts, RedundantHaltOverWork) && !op.is_control_flow())
}

/// What the pass leaves ([`Rule::RedundantHaltKept`]), the two rewrites above stated of the
/// program as left: no HALT with only NOPs and HALTs between it and the program's first
/// HALT_TARGET, and no HALT_TARGET without a HALT since the previous one, unless it is the
/// first and a HALT remains. Either left over changes no output, so only this contract
/// sees a pass that stops removing them.
fn postcondition(p: &Program) -> Vec<Violation> {
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
            violations.push(kept(ip, "a HALT nothing but NOPs separates from its target"));
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

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_redundant_halt",
    rewrites: REWRITES,
    run,
    postcondition: Some(postcondition),
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let mut insts = p.take_insts();
    let mut progress = false;
    if let Some(target) = insts.iter().position(|i| i.op == Opcode::HaltTarget) {
        let mut at = target;
        let mut removed = vec![];
        while at > 0 && does_not_care(insts[at - 1].op, opts) {
            at -= 1;
            if insts[at].op == Opcode::Halt {
                removed.push(at);
            }
        }
        for &i in &removed {
            insts.remove(i);
            note("redundant-halt");
            progress = true;
        }
    }
    let any_halt = insts.iter().any(|i| i.op == Opcode::Halt);
    let mut halt_since_target = false;
    let mut first = true;
    let mut kept = Vec::with_capacity(insts.len());
    for inst in insts {
        match inst.op {
            Opcode::Halt => halt_since_target = true,
            Opcode::HaltTarget => {
                let needed = halt_since_target || (first && any_halt);
                first = false;
                halt_since_target = false;
                if !needed {
                    note("unreachable-halt-target");
                    progress = true;
                    continue;
                }
            }
            _ => {}
        }
        kept.push(inst);
    }
    p.set_insts(kept);
    Ok(progress)
}
