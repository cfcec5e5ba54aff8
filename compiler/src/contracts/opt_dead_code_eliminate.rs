//! The contract of `opt_dead_code_eliminate`: what it leaves in every program (`Pass::postcondition`),
//! stated apart from the pass (docs/validator.md, pass contracts).

use crate::passes::opt_dead_code_eliminate::{Reads, has_other_effects};
use crate::program::Program;
use crate::reg::RegKind;
use crate::validate::{Rule, Violation};

/// What the pass leaves ([`Rule::DeadCodeKept`]), judged on the reads of the program as
/// left, by the instruction's own account of its flag write (`Inst::writes_flag`), so a
/// pass that loses count of reads as it removes instructions, or takes something for a
/// flag write which is none, is seen keeping dead code: no instruction without other
/// effects whose every result is unread anywhere in the program — a null destination or a
/// VGRF no operand reads, and no flag write or one none of whose bytes any instruction
/// reads. Mesa's backward liveness removes each of these, since a value read nowhere is
/// live nowhere (docs/hardware/brw-backend.md §7.1 step 7).
pub fn postcondition(p: &Program) -> Vec<Violation> {
    let reads = Reads::of(p);
    p.insts()
        .enumerate()
        .filter(|(_, i)| !has_other_effects(i))
        .filter_map(|(ip, i)| {
            let flag_read = i.writes_flag() && reads.flag_live(i);
            let what = match i.dst.kind {
                RegKind::Null if !flag_read => "writes nothing read anywhere",
                RegKind::Vgrf { nr, .. } if !reads.vgrf_live(nr) && !flag_read => {
                    "writes a VGRF no instruction reads"
                }
                _ => return None,
            };
            Some(Violation {
                rule: Rule::DeadCodeKept,
                ip: Some(ip),
                message: format!(
                    "{} {what} and has no other effect, yet dead-code elimination kept it",
                    i.op.name()
                ),
            })
        })
        .collect()
}
