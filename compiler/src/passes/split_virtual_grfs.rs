//! `split_virtual_grfs` (docs/hardware/brw-backend.md §7.1 pre-loop, §7.2): a VGRF of several registers
//! whose registers are never accessed together is split into independent VGRFs, one per
//! group of registers some operand spans, so later passes (and register allocation) treat
//! the pieces as separate values.
//!
//! A VGRF is storage that only its operands reach (no indirect addressing of VGRFs in this
//! IR), so moving registers that no operand accesses together into different VGRFs changes
//! no value. An operand spans the bytes from its offset for what it writes
//! (`size_written`) or reads (`size_read`, which covers every component of a message
//! payload); all registers it touches stay in one piece. The first piece keeps the VGRF's
//! number, the others are appended.

use crate::inst::Inst;
use crate::pass::{CompileOptions, Contract, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, RegKind};

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &["vgrf-split"];

/// The VGRF operand `r` names and the registers `[first, last]` of it that accessing
/// `bytes` (at least one element) from its offset touches.
fn touched(r: &Reg, bytes: u32) -> Option<(u32, u32, u32)> {
    let RegKind::Vgrf { nr, offset, .. } = r.kind else {
        return None;
    };
    let end = offset + bytes.max(r.ty.size());
    Some((nr, offset / REG_SIZE, (end - 1) / REG_SIZE))
}

/// Every VGRF operand of `inst` with the registers it touches.
fn operands(inst: &Inst) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
    let dst = touched(&inst.dst, inst.size_written());
    let srcs = (0..inst.srcs.len()).filter_map(|i| touched(&inst.srcs[i], inst.size_read(i)));
    dst.into_iter().chain(srcs)
}

/// For each VGRF, whether each register starts a new piece (register 0 always does). A
/// VGRF no operand names stays whole: `compact_virtual_grfs` drops it.
fn piece_starts(p: &Program) -> Vec<Vec<bool>> {
    let mut starts: Vec<Vec<bool>> = p
        .vgrf_sizes
        .iter()
        .map(|&n| (0..n).map(|_| true).collect())
        .collect();
    let mut named = vec![false; starts.len()];
    for inst in p.insts() {
        for (nr, first, last) in operands(inst) {
            if let Some(s) = starts.get_mut(nr as usize) {
                named[nr as usize] = true;
                for reg in first + 1..=last.min(s.len() as u32 - 1) {
                    s[reg as usize] = false;
                }
            }
        }
    }
    for (s, named) in starts.iter_mut().zip(named) {
        if !named {
            s.iter_mut().skip(1).for_each(|start| *start = false);
        }
    }
    starts
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "split_virtual_grfs",
    rewrites: REWRITES,
    run,
    postcondition: Some(Contract::EveryRun(crate::contracts::split_virtual_grfs::postcondition)),
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, _opts: &CompileOptions) -> Result<bool, PassError> {
    let starts = piece_starts(p);
    // For each VGRF and register: the new VGRF and the register it becomes there.
    let mut place: Vec<Vec<(u32, u32)>> = vec![];
    let mut progress = false;
    for (nr, s) in starts.iter().enumerate() {
        let mut here = vec![];
        let (mut piece, mut base) = (nr as u32, 0);
        for (reg, &start) in s.iter().enumerate() {
            let reg = reg as u32;
            if start && reg > 0 {
                p.vgrf_sizes[piece as usize] = reg - base;
                piece = p.alloc_vgrf(0);
                base = reg;
                progress = true;
            }
            here.push((piece, reg - base));
        }
        if let Some(&(last, _)) = here.last() {
            p.vgrf_sizes[last as usize] = s.len() as u32 - base;
        }
        place.push(here);
    }
    if !progress {
        return Ok(false);
    }
    for block in &mut p.blocks {
        for inst in &mut block.insts {
            for r in std::iter::once(&mut inst.dst).chain(inst.srcs.iter_mut()) {
                if let RegKind::Vgrf { nr, offset, .. } = &mut r.kind
                    && let Some(&(piece, reg)) = place
                        .get(*nr as usize)
                        .and_then(|h| h.get((*offset / REG_SIZE) as usize))
                {
                    *nr = piece;
                    *offset = reg * REG_SIZE + *offset % REG_SIZE;
                }
            }
        }
    }
    note("vgrf-split");
    Ok(true)
}
