//! `move_load_const`: a constant load is sunk into the one block that uses it (the idea of
//! Mesa's 2018 `nir_move_load_const`, issue 10), so that the value's live range no longer
//! spans the blocks in between.
//!
//! Candidates: `mov v, imm` that writes the whole VGRF `v` (offset 0, packed, every byte
//! of it), unpredicated, without saturate, conditional modifier or accumulator update, and
//! is the only instruction writing `v`. Such a `v` holds either that constant or nothing
//! (undefined), so moving the load never makes a read see another value; it only changes
//! which channels have it written when a read happens. The load moves to just before the
//! first use in the using block when:
//! - all uses are in one block, other than the load's (else `not-moved-multi-block`: the
//!   other blocks would run before the load, or without it);
//! - that block is not inside a loop the load is outside of (else `not-moved-loop`): the
//!   load would run again in every iteration, each time for that iteration's channels
//!   only (docs/hardware/brw-backend.md §9.2: BREAK and CONTINUE park channels until the loop ends or the
//!   next iteration). For reads in the reading channels that is only slower; for any other
//!   read it is wrong when a channel reaches the block only in a later iteration (a
//!   CONTINUE, or an IF around the block, in an earlier one), which the post-dominance
//!   check below does not see because the loop's own back edges lead back to the block.
//!   Sinking out of a loop, into a block after it, is allowed;
//! - every channel a use reads is written by the moved load when the use runs (else
//!   `not-moved-channels`). The load writes the channels enabled where it now stands,
//!   which are those of its first use. A masked use that reads `v` packed, in the channels
//!   the load writes (same element size, its group inside the load's, at the matching
//!   offset), reads only enabled channels, so it always qualifies. For any other use (a
//!   NoMask one, §9.2: it reads channels that are inactive; a scalar or strided read; a
//!   message payload), a masked load needs every channel enabled at the old place to be
//!   enabled at the first arrival at the new one: the using block post-dominates the load's block
//!   over logical CFG edges (§9.1), with the back edges of the loops around the load
//!   counted as leaving (a channel that reaches the block only in the next iteration is
//!   not there when this iteration's use reads it; a BREAK or a HALT to a target after the
//!   block skip it anyway). A NoMask load writes every channel wherever it stands, so it
//!   needs no such check.
//!
//! Each candidate's outcome is noted (`pass::note`): `moved`, or why not. The pass
//! only sinks and runs in the optimisation loop, before `opt_combine_constants` (which
//! places loads in dominators after the loop, §7.1): the two never undo each other, and the
//! combined loads (SIMD1, partial writes) are no candidates anyway.

use crate::analysis::dominance::{Dominators, block_succs, loop_nests};
use crate::cfg::Cfg;
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{REG_SIZE, RegKind};
use crate::zoo;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`): the
/// zoo bugs' moves, a move, then the reasons a candidate stayed.
const REWRITES: &[&str] = &[
    "moved-into-loop",
    "moved-past-other-uses",
    "moved",
    "not-moved-channels",
    "not-moved-loop",
    "not-moved-multi-block",
];

fn vgrf_nr(kind: &RegKind) -> Option<u32> {
    match *kind {
        RegKind::Vgrf { nr, .. } => Some(nr),
        _ => None,
    }
}

/// The VGRF a constant load candidate defines (see the module notes).
fn constant_load(p: &Program, inst: &Inst) -> Option<u32> {
    let plain = inst.op == Opcode::Mov
        && inst.srcs.len() == 1
        && inst.srcs[0].is_imm()
        && inst.predicate.is_none()
        && inst.cmod.is_none()
        && !inst.saturate
        && !inst.acc_wr
        && !inst.eot;
    let RegKind::Vgrf {
        nr,
        offset: 0,
        stride: 1,
    } = inst.dst.kind
    else {
        return None;
    };
    let whole = p.vgrf_sizes.get(nr as usize).map(|s| s * REG_SIZE) == Some(inst.size_written());
    (plain && whole).then_some(nr)
}

/// Whether `u` reads VGRF `nr` only in channels the masked load `m` writes when both run
/// with the same execution mask: a masked ALU instruction reading `v` packed at the offset
/// of its own channels.
fn reads_own_channels(m: &Inst, u: &Inst, nr: u32) -> bool {
    if u.nomask || u.op.is_message() || u.op.is_control_flow() || u.op == Opcode::LoadPayload {
        return false;
    }
    let size = m.dst.ty.size();
    let (ug, ue, mg, me) = (
        u.group as u32,
        u.exec_size as u32,
        m.group as u32,
        m.exec_size as u32,
    );
    if ug < mg || ug + ue > mg + me {
        return false;
    }
    u.srcs
        .iter()
        .filter(|s| vgrf_nr(&s.kind) == Some(nr))
        .all(|s| {
            s.ty.size() == size
                && matches!(s.kind, RegKind::Vgrf { offset, stride: 1, .. }
                    if offset == (ug - mg) * size)
        })
}

/// Whether every logical path from block `a` to the end of the program passes block `b`
/// before leaving the current iteration of a loop around `a` (its back edges count as
/// leaving, see the module notes).
fn reaches_in_this_iteration(
    logical: &[Vec<usize>],
    nests: &[Vec<usize>],
    a: usize,
    b: usize,
) -> bool {
    let n = logical.len();
    let exit = n;
    let mut reversed = vec![vec![]; n + 1];
    for (x, succs) in logical.iter().enumerate() {
        if succs.is_empty() {
            reversed[exit].push(x);
        }
        for &y in succs {
            let back_edge_of_outer_loop = nests[a].contains(&y) && nests[x].contains(&y);
            if back_edge_of_outer_loop {
                reversed[exit].push(x);
            } else {
                reversed[y].push(x);
            }
        }
    }
    Dominators::new(&reversed, exit).dominates(b, a)
}

/// A decided move: the load at (block, index) goes before (block, index).
struct Move {
    from: (usize, usize),
    to: (usize, usize),
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "move_load_const",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; returns whether it moved any load.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let cfg = Cfg::build(p);
    let logical = block_succs(&cfg, false);
    let nests = loop_nests(p);
    let n = p.vgrf_sizes.len();
    let mut defs = vec![0u32; n];
    let mut uses: Vec<Vec<(usize, usize)>> = vec![vec![]; n];
    for (b, block) in p.blocks.iter().enumerate() {
        for (k, inst) in block.insts.iter().enumerate() {
            if let Some(nr) = vgrf_nr(&inst.dst.kind) {
                defs[nr as usize] += 1;
            }
            for s in &inst.srcs {
                if let Some(nr) = vgrf_nr(&s.kind)
                    && uses[nr as usize].last() != Some(&(b, k))
                {
                    uses[nr as usize].push((b, k));
                }
            }
        }
    }
    let mut moves: Vec<Move> = vec![];
    for (a, block) in p.blocks.iter().enumerate() {
        for (k, m) in block.insts.iter().enumerate() {
            let Some(nr) = constant_load(p, m) else {
                continue;
            };
            let us = &uses[nr as usize];
            if defs[nr as usize] != 1 || us.is_empty() {
                continue;
            }
            let spans_blocks = us.iter().any(|u| u.0 != us[0].0);
            if spans_blocks && !zoo!(opts, MoveLoadConstMultiBlock) {
                note("not-moved-multi-block");
                continue;
            }
            // Uses are listed in program order: the last is in the last using block.
            let b = us[us.len() - 1].0;
            if b == a {
                continue;
            }
            let into_loop = nests[b].iter().any(|l| !nests[a].contains(l));
            if into_loop && !zoo!(opts, MoveLoadConstIntoLoop) {
                note("not-moved-loop");
                continue;
            }
            let in_b: Vec<&(usize, usize)> = us.iter().filter(|u| u.0 == b).collect();
            let own_channels = in_b
                .iter()
                .all(|&&(ub, uk)| reads_own_channels(m, &p.blocks[ub].insts[uk], nr));
            if !m.nomask && !own_channels && !reaches_in_this_iteration(&logical, &nests, a, b) {
                note("not-moved-channels");
                continue;
            }
            note(if into_loop {
                "moved-into-loop"
            } else if spans_blocks {
                "moved-past-other-uses"
            } else {
                "moved"
            });
            moves.push(Move {
                from: (a, k),
                to: *in_b[0],
            });
        }
    }
    if moves.is_empty() {
        return Ok(false);
    }
    let mut insts = vec![];
    for (b, block) in p.blocks.iter().enumerate() {
        for (k, inst) in block.insts.iter().enumerate() {
            for mv in moves.iter().filter(|mv| mv.to == (b, k)) {
                insts.push(p.blocks[mv.from.0].insts[mv.from.1].clone());
            }
            if !moves.iter().any(|mv| mv.from == (b, k)) {
                insts.push(inst.clone());
            }
        }
    }
    // A block left empty by a move disappears; re-split into canonical blocks.
    p.set_insts(insts);
    Ok(true)
}
