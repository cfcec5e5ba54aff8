//! The contract of `split_virtual_grfs`: what it leaves in every program (`Pass::postcondition`),
//! stated apart from the pass (docs/validator.md, pass contracts).

use crate::program::Program;
use crate::reg::{REG_SIZE, RegKind};
use crate::validate::{Rule, Violation};

/// What the pass leaves ([`Rule::UnsplitVgrf`]): in every VGRF some operand names, each
/// boundary between two of its registers is crossed by some operand, read or written. Mesa
/// splits a VGRF at every register boundary no instruction's access spans
/// (docs/hardware/brw-backend.md §7.1 before the loop, §7.2), so a boundary no access
/// crosses left inside one VGRF is a split the pass missed. A missed split changes no
/// output, only register allocation's freedom, so only this contract sees it. Judged by a
/// reading of the operands of its own, not by the pass's.
pub fn postcondition(p: &Program) -> Vec<Violation> {
    let mut crossed: Vec<Vec<bool>> = p
        .vgrf_sizes
        .iter()
        .map(|&n| vec![false; n as usize])
        .collect();
    let mut named = vec![false; crossed.len()];
    for inst in p.insts() {
        let spans = std::iter::once((&inst.dst, inst.size_written()))
            .chain((0..inst.srcs.len()).map(|i| (&inst.srcs[i], inst.size_read(i))));
        for (r, bytes) in spans {
            let RegKind::Vgrf { nr, offset, .. } = r.kind else {
                continue;
            };
            let Some(boundaries) = crossed.get_mut(nr as usize) else {
                continue;
            };
            named[nr as usize] = true;
            let first = offset / REG_SIZE;
            let last = (offset + bytes.max(r.ty.size()) - 1) / REG_SIZE;
            for b in first + 1..=last {
                if let Some(c) = boundaries.get_mut(b as usize) {
                    *c = true;
                }
            }
        }
    }
    let mut violations = vec![];
    for (nr, boundaries) in crossed.iter().enumerate() {
        if !named[nr] {
            continue;
        }
        if let Some(b) = (1..boundaries.len()).find(|&b| !boundaries[b]) {
            violations.push(Violation {
                rule: Rule::UnsplitVgrf,
                ip: None,
                message: format!(
                    "no operand reaches across registers {} and {b} of v{nr}, yet \
                     split_virtual_grfs left them in one VGRF",
                    b - 1
                ),
            });
        }
    }
    violations
}
