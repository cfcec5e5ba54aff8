//! `opt_predicated_break` (docs/hardware/brw-backend.md §7.1 step 5): `(+f0) if; break; endif` becomes
//! `(+f0) break` (likewise CONTINUE). Under the mask model of §9.2 both park exactly the
//! active channels whose predicate passes until the loop's end (or its next iteration), and
//! leave the others running on after the ENDIF; the IF only narrowed the mask the BREAK then
//! used in full.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Contract, Pass, PassError, note};
use crate::program::Program;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &["predicated-continue", "predicated-break"];

/// Whether `insts[at..]` is `(pred) if; break|continue; endif` with an unpredicated jump of
/// the IF's own exec controls.
fn foldable_at(insts: &[Inst], at: usize) -> bool {
    let [iff, jump, endif] = match insts.get(at..at + 3) {
        Some([a, b, c]) => [a, b, c],
        _ => return false,
    };
    iff.op == Opcode::If
        && iff.predicate.is_some()
        && matches!(jump.op, Opcode::Break | Opcode::Continue)
        && jump.predicate.is_none()
        && endif.op == Opcode::Endif
        && (jump.exec_size, jump.group, jump.nomask) == (iff.exec_size, iff.group, iff.nomask)
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_predicated_break",
    rewrites: REWRITES,
    run,
    postcondition: Some(Contract::EveryRun(crate::contracts::opt_predicated_break::postcondition)),
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, _opts: &CompileOptions) -> Result<bool, PassError> {
    let mut insts = p.take_insts();
    let mut progress = false;
    let mut at = 0;
    while at < insts.len() {
        if foldable_at(&insts, at) {
            let iff = insts.remove(at);
            insts.remove(at + 1);
            let jump = &mut insts[at];
            jump.predicate = iff.predicate;
            jump.flag_subreg = iff.flag_subreg;
            note(if jump.op == Opcode::Break {
                "predicated-break"
            } else {
                "predicated-continue"
            });
            progress = true;
        }
        at += 1;
    }
    p.set_insts(insts);
    Ok(progress)
}
