//! `allocate_registers`: VGRFs to fixed GRFs. Live intervals (with the physical CFG edges of
//! divergent loops) are allocated first-fit in start order — optimal for interval graphs up
//! to fragmentation — avoiding the thread payload, g127 on Gen8+ (the r127 SEND hazard) and
//! placing EOT message payloads in g112–g127 before anything else (pre-coloured, as in Mesa). When registers run out, the longest-lived
//! spillable VGRFs live at that point are spilled (one at first, more each round) and
//! allocation starts over; scratch reads
//! and writes then become SENDs with headers, once the final scratch size is known. Ends
//! with `lower_vgrfs_to_fixed_grfs`.
//!
//! Before allocating, the blocks are scheduled (docs/hardware/brw-backend.md §7.1: "try pre-RA
//! scheduling modes in order …; spilling only allowed on the last mode"): top-down for
//! latency, then bottom-up LIFO for register pressure, then the program order (see
//! `schedule`). A mode whose schedule does not fit the registers gives way to the next;
//! only the last spills. The record notes the mode allocated with. `-O0` and `--spill-all`
//! (which spills from the start) go straight to the last mode.

use super::schedule::{self, Mode};
use super::{lower_vgrfs_to_fixed_grfs, scratch, spill};
use crate::analysis::liveness;
use crate::analysis::schedule_deps::Rules;
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError};
use crate::payload::PayloadLayout;
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, RegKind};
use crate::types::Type;

/// First GRF of EOT payloads on Gen7+.
const EOT_FIRST_GRF: u32 = 112;

/// VGRFs that are payloads of EOT sends.
fn eot_payloads(p: &Program) -> Vec<bool> {
    let mut out = vec![false; p.vgrf_sizes.len()];
    for inst in p.insts().filter(|i| i.eot && i.op == Opcode::Send) {
        for s in &inst.srcs {
            if let RegKind::Vgrf { nr, .. } = s.kind
                && let Some(slot) = out.get_mut(nr as usize)
            {
                *slot = true;
            }
        }
    }
    out
}

/// Copies any EOT message that is not a whole VGRF of its own into a fresh VGRF of exactly
/// its length, right before the SEND. Only the message registers must sit in g112–g127; a
/// larger VGRF (hand-written IR) might not fit there at all.
fn isolate_eot_payloads(p: &mut Program) {
    let mut insts = p.take_insts();
    let mut out = Vec::with_capacity(insts.len());
    for mut inst in insts.drain(..) {
        if inst.eot && inst.op == Opcode::Send {
            for i in 0..inst.srcs.len().min(2) {
                let regs = inst.size_read(i) / REG_SIZE;
                let RegKind::Vgrf { nr, offset, .. } = inst.srcs[i].kind else {
                    continue;
                };
                if regs == 0 || (offset == 0 && p.vgrf_sizes[nr as usize] == regs) {
                    continue;
                }
                let copy = p.alloc_vgrf(regs);
                for r in 0..regs {
                    let from = Reg::vgrf(nr, Type::UD).byte_offset(offset + r * REG_SIZE);
                    let to = Reg::vgrf(copy, Type::UD).byte_offset(r * REG_SIZE);
                    out.push(Inst::new(Opcode::Mov, 8, to, vec![from]).with_nomask());
                }
                inst.srcs[i] = Reg::vgrf(copy, inst.srcs[i].ty);
            }
        }
        out.push(inst);
    }
    p.set_insts(out);
}

/// GRFs the program itself names (fixed-GRF destinations and sources, whole messages of
/// SENDs): taken for the whole program, so no VGRF is placed over them. Mesa never has fixed
/// GRFs above the payload before allocation, so it interferes VGRFs with the payload only;
/// this compiler also takes post-RA style input, whose fixed registers are the program's
/// own (docs/pipeline.md, "Fixed GRFs in the input").
fn named_grfs(p: &Program) -> Vec<bool> {
    let mut out = vec![false; p.device.info().grf_count as usize];
    let mut take = |reg: &Reg, bytes: u32| {
        if let RegKind::Fixed { nr, subnr, .. } = reg.kind {
            let start = u32::from(nr) * REG_SIZE + u32::from(subnr);
            let end = start + bytes.max(1);
            for r in start / REG_SIZE..end.div_ceil(REG_SIZE) {
                if let Some(slot) = out.get_mut(r as usize) {
                    *slot = true;
                }
            }
        }
    };
    for inst in p.insts() {
        take(&inst.dst, inst.size_written());
        for (i, src) in inst.srcs.iter().enumerate() {
            take(src, inst.size_read(i));
        }
    }
    out
}

/// A register range held by an EOT payload over its live interval (inclusive).
struct Reserved {
    base: u32,
    size: u32,
    start: usize,
    end: usize,
    vgrf: usize,
}

impl Reserved {
    /// Whether register `r` is held at some point of `start..=end`.
    fn holds(&self, r: u32, start: usize, end: usize) -> bool {
        (self.base..self.base + self.size).contains(&r) && self.start <= end && start <= self.end
    }
}

/// First GRF of every VGRF, or the VGRF that could not be placed and the VGRFs live then.
///
/// On Gen7+ the payloads of EOT sends are placed first, in g112 and up, as Mesa's allocator
/// pre-colours them (docs/hardware/eu-hardware.md §6.3, docs/hardware/brw-backend.md §1.6).
/// Placed in start order like the others, they could find that range taken by a value that
/// merely started earlier and fits anywhere, and spilling cannot help an EOT payload. The
/// other VGRFs avoid those registers only while the payload is live. (`eot_first` false is
/// the zoo's `ra-eot-payload-in-start-order`: payloads in start order, g112 and up.)
fn assign(
    p: &Program,
    iv: &liveness::Intervals,
    eot_first: bool,
) -> Result<Vec<u32>, (usize, Vec<usize>)> {
    let info = p.device.info();
    let payload = PayloadLayout::new(p).regs as u32;
    let limit = if info.verx10 >= 80 {
        info.grf_count - 1
    } else {
        info.grf_count
    };
    let eot = eot_payloads(p);
    let top = |v: usize| eot[v] && info.verx10 >= 70;
    let pinned = |v: usize| top(v) && eot_first;
    let mut order: Vec<usize> = (0..p.vgrf_sizes.len())
        .filter(|&v| iv[v].is_some())
        .collect();
    order.sort_by_key(|&v| (iv[v].map(|x| x.0), v));
    let named = named_grfs(p);
    let mut out = vec![0; p.vgrf_sizes.len()];
    let mut reserved: Vec<Reserved> = vec![];
    for &v in order.iter().filter(|&&v| pinned(v)) {
        let Some((start, end)) = iv[v] else { continue };
        let size = p.vgrf_sizes[v];
        let free = |r: u32| !named[r as usize] && !reserved.iter().any(|h| h.holds(r, start, end));
        let lo = EOT_FIRST_GRF.max(payload);
        let hi = limit.saturating_sub(size).saturating_add(1);
        let Some(base) = (lo..hi).find(|&b| (b..b + size).all(free)) else {
            let mut live: Vec<usize> = reserved
                .iter()
                .filter(|h| h.start <= end && start <= h.end)
                .map(|h| h.vgrf)
                .collect();
            live.push(v);
            return Err((v, live));
        };
        out[v] = base;
        reserved.push(Reserved {
            base,
            size,
            start,
            end,
            vgrf: v,
        });
    }
    let mut busy_until: Vec<Option<usize>> = vec![None; info.grf_count as usize];
    let mut owner: Vec<Option<usize>> = vec![None; info.grf_count as usize];
    for v in order.into_iter().filter(|&v| !pinned(v)) {
        let Some((start, end)) = iv[v] else { continue };
        let size = p.vgrf_sizes[v];
        let free = |r: u32| {
            !named[r as usize]
                && busy_until[r as usize].is_none_or(|e| e < start)
                && !reserved.iter().any(|h| h.holds(r, start, end))
        };
        let lo = if top(v) {
            EOT_FIRST_GRF.max(payload)
        } else {
            payload
        };
        let base =
            (lo..limit.saturating_sub(size).saturating_add(1)).find(|&b| (b..b + size).all(free));
        match base {
            Some(b) => {
                for r in b..b + size {
                    busy_until[r as usize] = Some(end);
                    owner[r as usize] = Some(v);
                }
                out[v] = b;
            }
            None => {
                let mut live: Vec<usize> = (0..busy_until.len())
                    .filter(|&r| busy_until[r].is_some_and(|e| e >= start))
                    .filter_map(|r| owner[r])
                    .chain(
                        reserved
                            .iter()
                            .filter(|h| h.start <= end && start <= h.end)
                            .map(|h| h.vgrf),
                    )
                    .collect();
                live.push(v);
                live.sort_unstable();
                live.dedup();
                return Err((v, live));
            }
        }
    }
    Ok(out)
}

/// The program with VGRFs `spilled` moved to scratch and scratch messages lowered, which
/// VGRFs may still be spilled, and the scratch writes and reads the spilling added (the
/// input's own scratch messages are not spills).
fn spill_set(p: &Program, spilled: &[u32], opts: &CompileOptions) -> (Program, Vec<bool>, Moves) {
    let mut work = p.clone();
    let original = p.vgrf_sizes.len();
    let before = Moves::count(&work);
    if !spilled.is_empty() {
        spill::spill(&mut work, spilled, opts);
    }
    let after = Moves::count(&work);
    scratch::lower_scratch_ops(&mut work, opts);
    let spillable = (0..work.vgrf_sizes.len())
        .map(|v| v < original && !spilled.contains(&(v as u32)))
        .collect();
    let added = Moves {
        spills: after.spills - before.spills,
        fills: after.fills - before.fills,
    };
    (work, spillable, added)
}

/// Scratch writes (spills) and reads (fills), as shader-db counts them.
#[derive(Clone, Copy, Default)]
struct Moves {
    spills: u64,
    fills: u64,
}

impl Moves {
    fn count(p: &Program) -> Moves {
        let n = |op| p.insts().filter(|i| i.op == op).count() as u64;
        Moves {
            spills: n(Opcode::ScratchWrite),
            fills: n(Opcode::ScratchRead),
        }
    }
}

/// The most GRFs live at once in `p` (intervals are inclusive): the register pressure the
/// allocator had to fit, which shader-db reports as max live registers.
fn max_live(p: &Program, iv: &liveness::Intervals) -> u64 {
    let mut events: Vec<(usize, i64)> = vec![];
    for (v, interval) in iv.iter().enumerate() {
        if let Some((start, end)) = *interval {
            let size = i64::from(p.vgrf_sizes[v]);
            events.push((start, size));
            events.push((end + 1, -size));
        }
    }
    // At equal points, intervals ending (before this point) leave before new ones start.
    events.sort_by_key(|&(at, delta)| (at, delta));
    let mut live = 0i64;
    let mut peak = 0i64;
    for (_, delta) in events {
        live += delta;
        peak = peak.max(live);
    }
    peak as u64
}

/// Records the allocation's figures for shader-db statistics.
fn tally(p: &Program, iv: &liveness::Intervals, moves: Moves) {
    crate::pass::tally("spills", moves.spills);
    crate::pass::tally("fills", moves.fills);
    crate::pass::tally("max-live-registers", max_live(p, iv));
}

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &[
    "physical-edge-liveness",
    "scratch-beyond-thread-limit",
    "scratch-size-pow2-2k",
    "scratch-size-linear-kb",
    "fill",
    "spill-keeps-untouched-channels",
    "spill",
    "scratch-messages",
    "schedule-top-down",
    "schedule-lifo",
    "schedule-none",
    "scratch-size-pow2-1k",
    // Noted by `lower_integer_multiplication::lower_mul` for the scratch base's FFTID
    // multiplies (`scratch::base_setup`), the only MULs it can get there (UD by a UD
    // immediate, no modifier, a fresh destination). Ranked last, alphabetically: as when
    // they were undeclared, so bucket keys do not change.
    "dword-halves",
    "dword-immediate-above-int16",
    "dword-word-immediate",
];

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "allocate_registers",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let physical = !crate::zoo!(opts, RaNoPhysicalLoopEdges);
    let eot_first = !crate::zoo!(opts, RaEotPayloadInStartOrder);
    isolate_eot_payloads(p);
    let used = liveness::intervals(p, physical);
    // Values live only through the physical edges of divergent control flow (a
    // straight-line program has none, and skips the second liveness).
    if p.blocks.len() > 1 && liveness::intervals(p, !physical) != used {
        crate::pass::note("physical-edge-liveness");
    }
    let mut spilled: Vec<u32> = if opts.spill_all {
        (0..p.vgrf_sizes.len() as u32)
            .filter(|&v| used[v as usize].is_some())
            .collect()
    } else {
        vec![]
    };
    if p.vgrf_sizes.is_empty()
        && !p
            .insts()
            .any(|i| matches!(i.op, Opcode::ScratchRead | Opcode::ScratchWrite))
    {
        return Ok(false);
    }
    // Scheduling modes before the last, each allocated without spilling; a mode that
    // leaves the order as a failed earlier one did is not tried again.
    let forced;
    let modes: &[Mode] = if opts.o0 || !spilled.is_empty() {
        &[]
    } else if let Some(mode) = opts.pre_ra_schedule {
        forced = [mode];
        &forced
    } else {
        &[Mode::TopDown, Mode::Lifo]
    };
    let mut tried_program_order = false;
    for &mode in modes {
        let mut scheduled = p.clone();
        if !schedule::schedule(&mut scheduled, mode, Rules::CORRECT) {
            if tried_program_order {
                continue;
            }
            tried_program_order = true;
        }
        let (mut work, _, moves) = spill_set(&scheduled, &[], opts);
        let iv = liveness::intervals(&work, physical);
        if let Ok(a) = assign(&work, &iv, eot_first) {
            tally(&work, &iv, moves);
            lower_vgrfs_to_fixed_grfs::rewrite(&mut work, &a);
            *p = work;
            crate::pass::note(mode.rewrite());
            return Ok(true);
        }
    }
    if !opts.o0 {
        crate::pass::note(Mode::None.rewrite());
    }
    for _ in 0..=p.vgrf_sizes.len() {
        let (mut work, spillable, moves) = spill_set(p, &spilled, opts);
        let iv = liveness::intervals(&work, physical);
        match assign(&work, &iv, eot_first) {
            Ok(a) => {
                tally(&work, &iv, moves);
                lower_vgrfs_to_fixed_grfs::rewrite(&mut work, &a);
                *p = work;
                return Ok(true);
            }
            Err((failed, live)) => {
                let len = |v: usize| iv[v].map_or(0, |(s, e)| e - s) * work.vgrf_sizes[v] as usize;
                let mut victims: Vec<usize> = live.into_iter().filter(|&v| spillable[v]).collect();
                if victims.is_empty() {
                    return Err(PassError::OutOfRegisters {
                        vgrf: failed,
                        size: work.vgrf_sizes[failed],
                    });
                }
                // Longest-lived (weighted by size) first; spill more per round as the spill
                // set grows, so heavy pressure takes a logarithmic number of rounds.
                victims.sort_by_key(|&v| std::cmp::Reverse((len(v), v)));
                let take = 1 + spilled.len() / 2;
                spilled.extend(victims.into_iter().take(take).map(|v| v as u32));
            }
        }
    }
    Err(PassError::RaDidNotConverge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Device;

    fn sized(sizes: &[u32]) -> Program {
        let mut p = Program::new(Device::Skl, 8);
        p.vgrf_sizes = sizes.to_vec();
        p
    }

    #[test]
    fn max_live_sums_the_sizes_of_overlapping_inclusive_intervals() {
        // v0 (2 GRFs) over 0..=3 and v1 (1) over 3..=5 meet at 3 (3 GRFs); v2 (4) at 4
        // meets v1 only (5 GRFs).
        let p = sized(&[2, 1, 4]);
        assert_eq!(
            max_live(&p, &vec![Some((0, 3)), Some((3, 5)), Some((4, 4))]),
            5
        );
        // Back to back (0..=2 then 3..=4): never live together.
        let q = sized(&[4, 4, 9]);
        assert_eq!(max_live(&q, &vec![Some((0, 2)), Some((3, 4)), None]), 4);
    }
}
