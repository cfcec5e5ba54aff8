//! `dead_control_flow_eliminate` (docs/hardware/brw-backend.md §7.1 step 9): deletes IF/ENDIF and
//! IF/ELSE/ENDIF with nothing inside. An empty IF only parks and restores channels
//! (§9.2): with no instruction between, no channel's state can tell, and its predicate is a
//! read with no effect.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Contract, Pass, PassError, note};
use crate::program::Program;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &["empty-if-else", "empty-if"];

/// The length of an empty IF construct starting at `at` (`if endif` or `if else endif`).
fn empty_if_at(insts: &[Inst], at: usize) -> Option<usize> {
    let ops: Vec<Opcode> = insts[at..].iter().take(3).map(|i| i.op).collect();
    match ops.as_slice() {
        [Opcode::If, Opcode::Endif, ..] => Some(2),
        [Opcode::If, Opcode::Else, Opcode::Endif] => Some(3),
        _ => None,
    }
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "dead_control_flow_eliminate",
    rewrites: REWRITES,
    run,
    postcondition: Some(Contract::EveryRun(crate::contracts::dead_control_flow_eliminate::postcondition)),
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, _opts: &CompileOptions) -> Result<bool, PassError> {
    let mut insts = p.take_insts();
    let mut progress = false;
    let mut at = 0;
    while at < insts.len() {
        match empty_if_at(&insts, at) {
            Some(len) => {
                note(if len == 3 {
                    "empty-if-else"
                } else {
                    "empty-if"
                });
                insts.drain(at..at + len);
                progress = true;
                // An enclosing IF may have become empty.
                at = at.saturating_sub(2);
            }
            None => at += 1,
        }
    }
    p.set_insts(insts);
    Ok(progress)
}
