//! `compact_virtual_grfs` (docs/hardware/brw-backend.md §7.1 step 15): drops the VGRFs no operand names
//! and renumbers the others densely, keeping their order and sizes. A VGRF no instruction
//! reads or writes holds nothing any run can observe, and VGRF numbers carry no meaning
//! beyond naming (inputs name ATTRs, uniforms and buffers, never VGRFs).

use crate::pass::{CompileOptions, Contract, Pass, PassError, note};
use crate::program::Program;
use crate::reg::RegKind;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &["vgrf-dropped"];

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "compact_virtual_grfs",
    rewrites: REWRITES,
    run,
    postcondition: Some(Contract::EveryRun(crate::contracts::compact_virtual_grfs::postcondition)),
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, _opts: &CompileOptions) -> Result<bool, PassError> {
    let mut used = vec![false; p.vgrf_sizes.len()];
    for inst in p.insts() {
        for r in std::iter::once(&inst.dst).chain(&inst.srcs) {
            if let RegKind::Vgrf { nr, .. } = r.kind
                && let Some(u) = used.get_mut(nr as usize)
            {
                *u = true;
            }
        }
    }
    if used.iter().all(|&u| u) {
        return Ok(false);
    }
    let mut renumbered = vec![0; used.len()];
    let mut sizes = vec![];
    for (nr, &u) in used.iter().enumerate() {
        if u {
            renumbered[nr] = sizes.len() as u32;
            sizes.push(p.vgrf_sizes[nr]);
        }
    }
    for block in &mut p.blocks {
        for inst in &mut block.insts {
            for r in std::iter::once(&mut inst.dst).chain(inst.srcs.iter_mut()) {
                if let RegKind::Vgrf { nr, .. } = &mut r.kind
                    && let Some(&new) = renumbered.get(*nr as usize)
                {
                    *nr = new;
                }
            }
        }
    }
    p.vgrf_sizes = sizes;
    note("vgrf-dropped");
    Ok(true)
}
