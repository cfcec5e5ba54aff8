//! The contract of `compact_virtual_grfs`: what it leaves in every program (`Pass::postcondition`),
//! stated apart from the pass (docs/validator.md, pass contracts).

use crate::program::Program;
use crate::reg::RegKind;
use crate::validate::{Rule, Violation};

/// What the pass leaves ([`Rule::UnusedVgrfKept`]): every declared VGRF is named by some
/// operand. Mesa's pass drops every VGRF no instruction reads or writes and renumbers the
/// rest (docs/hardware/brw-backend.md §7.1 step 15); one left over changes no output, only
/// the sizes of the allocator's tables, so only this contract sees it.
pub fn postcondition(p: &Program) -> Vec<Violation> {
    let named: std::collections::BTreeSet<u32> = p
        .insts()
        .flat_map(|i| std::iter::once(&i.dst).chain(&i.srcs))
        .filter_map(|r| match r.kind {
            RegKind::Vgrf { nr, .. } => Some(nr),
            _ => None,
        })
        .collect();
    (0..p.vgrf_sizes.len() as u32)
        .filter(|nr| !named.contains(nr))
        .map(|nr| Violation {
            rule: Rule::UnusedVgrfKept,
            ip: None,
            message: format!("no operand names v{nr}, yet compact_virtual_grfs kept it"),
        })
        .collect()
}
