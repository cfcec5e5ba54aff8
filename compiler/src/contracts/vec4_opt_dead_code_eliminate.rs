//! The contract of the vec4 `opt_dead_code_eliminate`: what a run that found nothing to
//! remove leaves (`Pass::postcondition`), stated apart from the pass (docs/validator.md,
//! pass contracts).

use crate::inst::Inst;
use crate::program::Program;
use crate::reg::RegKind;
use crate::validate::{Rule, Violation};
use std::collections::BTreeSet;

/// Whether the pass may remove `inst` when nothing reads what it writes: it writes only a
/// VGRF — no message or other side effect, no flag, accumulator or EOT.
fn removable(inst: &Inst) -> bool {
    inst.dst.is_vgrf()
        && !inst.op.has_side_effects()
        && !inst.op.is_message()
        && !inst.writes_flag()
        && !inst.acc_wr
        && !inst.eot
}

/// What a run without progress leaves ([`Rule::DeadCodeKept`]): no removable instruction
/// writing a VGRF that no instruction reads any byte of. The pass decides from the bytes the
/// program reads before its sweep, so a run that removes a reader leaves its writer for the
/// next run (the optimisation loop's); a run that removed nothing saw every such writer
/// and must have removed it (docs/hardware/fp64-align16.md §6; Mesa's
/// `vec4_visitor::dead_code_eliminate`).
pub fn postcondition(p: &Program) -> Vec<Violation> {
    let read: BTreeSet<u32> = p
        .insts()
        .flat_map(|i| &i.srcs)
        .filter_map(|r| match r.kind {
            RegKind::Vgrf { nr, .. } => Some(nr),
            _ => None,
        })
        .collect();
    p.insts()
        .enumerate()
        .filter(|(_, i)| removable(i))
        .filter(|(_, i)| matches!(i.dst.kind, RegKind::Vgrf { nr, .. } if !read.contains(&nr)))
        .map(|(ip, i)| Violation {
            rule: Rule::DeadCodeKept,
            ip: Some(ip),
            message: format!(
                "{} writes a VGRF no instruction reads, yet vec4 dead-code elimination kept it",
                i.op.name()
            ),
        })
        .collect()
}
