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
use crate::pass::{CompileOptions, Contract, Pass, PassError, note};
use crate::program::Program;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &["redundant-halt", "unreachable-halt-target"];

/// Whether a halted channel may skip `op` without changing anything: a NOP (or a HALT,
/// which rewrite 1 removes too when it is just as redundant).
fn does_not_care(op: Opcode, opts: &CompileOptions) -> bool {
    matches!(op, Opcode::Nop | Opcode::Halt)
        || (crate::zoo!(opts, RedundantHaltOverWork) && !op.is_control_flow())
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_redundant_halt",
    rewrites: REWRITES,
    run,
    postcondition: Some(Contract::EveryRun(crate::contracts::opt_redundant_halt::postcondition)),
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
