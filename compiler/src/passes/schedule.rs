//! The instruction scheduler and the static cycle estimate (docs/hardware/brw-backend.md §7.1, end:
//! "try pre-RA scheduling modes in order …; graph-coloring RA; spilling only allowed on
//! the last mode; … post-RA scheduling").
//!
//! A list scheduler reorders the instructions of each basic block within the limits of the
//! dependency graph (`crate::analysis::schedule_deps`); blocks never merge, so nothing crosses
//! control flow (§9.1: blocks end at IF/ELSE/WHILE/BREAK/CONTINUE/HALT/DO and start at
//! DO/ENDIF/HALT_TARGET). Long blocks are scheduled in windows of [`WINDOW`] instructions
//! (a window boundary is a barrier), which keeps the graph O(n·WINDOW).
//!
//! Modes ([`Mode`]): top-down picks, among the instructions whose operands are ready, the
//! one on the longest latency path to the end of the block (hides latency, may lengthen
//! live ranges); bottom-up LIFO places each instruction right before the last-placed
//! instruction that needs it (keeps producers next to their consumers: fewer values live at
//! once); none keeps the order. `allocate_registers` tries them in that order (§7.1; Mesa's
//! 2023 order is pre, pre-non-LIFO, none, LIFO: this backend has no separate non-LIFO mode
//! and ends with the unscheduled order, the one spilling was built on). After allocation
//! `schedule_post_ra` runs top-down on the fixed GRFs.
//!
//! # Latency model
//! The documents give no cycle counts, so these are a model of our own, only ordered the
//! way the hardware's units are (a plain ALU operation is quickest, the multiplier slower,
//! 64-bit operations take two passes, extended math goes to a shared unit, messages to
//! other shared functions take longest, reads much longer than writes, which only need the
//! payload to leave):
//!
//! | class | cycles until the result is usable |
//! | --- | --- |
//! | control flow, NOP | 0 (no result) |
//! | ALU (MOV, logic, shifts, ADD, CMP, SEL, rounding, bit ops) | 6 |
//! | multiplier (MUL, MACH, MAC, MAD, LRP, ADD3, MULH) | 8 |
//! | any of the above with a 64-bit operand | twice as long |
//! | LOAD_PAYLOAD | 2 per source |
//! | math RCP/RSQ/SQRT/EXP2/LOG2/SIN/COS | 22 |
//! | math POW | 30 |
//! | math INT_QUOTIENT/INT_REMAINDER | 40 |
//! | render-target write, buffer store, scratch write | 30 |
//! | buffer load, scratch read | 150 |
//! | sampler | 200 |
//!
//! An instruction occupies the issue port one cycle per 32 bytes of its widest operand
//! (SIMD8 of 32-bit values per cycle; SIMD16 takes two, 64-bit data twice as many); a
//! message or a control-flow instruction one cycle.
//!
//! # Static cycle estimate
//! [`estimate_cycles`] runs each block in its current order on an in-order issue model:
//! an instruction issues when the previous one has left the port and every instruction it
//! depends on has had its latency (RAW and WAW wait the full latency, WAR none). A block
//! costs the cycle its last instruction leaves the port. Blocks inside loops are weighted
//! by an assumed trip count of [`LOOP_TRIPS`] per nesting level (a static estimate cannot
//! know the real one); blocks inside IF/ELSE count once (both sides may run).

use crate::analysis::schedule_deps::{self, Graph, Rules};
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::payload::PayloadLayout;
use crate::program::{Block, Program};
use crate::reg::REG_SIZE;
use crate::types::Type;

/// Largest run of instructions scheduled as one graph.
pub const WINDOW: usize = 64;

/// Iterations a loop is assumed to run for the static estimate.
pub const LOOP_TRIPS: u64 = 10;

/// The scheduling modes are a compile option (`--pre-ra-schedule`), so they live with the
/// options.
pub use crate::pass::ScheduleMode as Mode;

/// Whether any operand of `inst` is a 64-bit type.
fn is_64bit(inst: &Inst) -> bool {
    std::iter::once(&inst.dst)
        .chain(&inst.srcs)
        .any(|r| !r.is_null() && r.ty.size() == 8)
}

/// Cycles until `inst`'s results are usable (see the module's latency table).
pub fn latency(inst: &Inst) -> u32 {
    use Opcode::*;
    let op = inst.op;
    if op.is_control_flow() || op == Nop {
        return 0;
    }
    match op {
        Rcp | Rsq | Sqrt | Exp2 | Log2 | Sin | Cos => 22,
        Pow => 30,
        IntQuotient | IntRemainder => 40,
        LoadPayload => 2 * inst.srcs.len() as u32,
        FbWriteLogical | UntypedWriteLogical | ScratchWrite => 30,
        UntypedReadLogical | ScratchRead => 150,
        TexLogical => 200,
        Send => {
            use crate::inst::MsgKind;
            match inst.desc.map(|d| d.kind) {
                Some(MsgKind::Sample { .. }) => 200,
                Some(MsgKind::UntypedRead { .. } | MsgKind::ScratchRead) => 150,
                _ => 30,
            }
        }
        _ => {
            let base = if matches!(op, Mul | Mach | Mac | Mad | Lrp | Add3 | Mulh) {
                8
            } else {
                6
            };
            if is_64bit(inst) { 2 * base } else { base }
        }
    }
}

/// Cycles `inst` occupies the issue port (see the module notes).
pub fn issue_cycles(inst: &Inst) -> u32 {
    if inst.op.is_control_flow() || inst.op.is_message() || inst.op == Opcode::Nop {
        return 1;
    }
    let widest = std::iter::once(&inst.dst)
        .chain(&inst.srcs)
        .filter(|r| !r.is_null())
        .map(|r| r.ty.size())
        .max()
        .unwrap_or(Type::UD.size());
    (inst.exec_size as u32 * widest).div_ceil(32).max(1)
}

/// The scheduling regions of a program with the `sched-across-halt` bug injected: each
/// block is one region, except that a block ending in HALT joins the block after it.
#[cfg(feature = "zoo")]
fn regions_joined_across_halts(p: &Program) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = vec![];
    let mut start = 0;
    let mut joined = false;
    for b in &p.blocks {
        let end = start + b.insts.len();
        match out.last_mut() {
            Some(last) if joined => last.end = end,
            _ => out.push(start..end),
        }
        joined = b.insts.last().is_some_and(|i| i.op == Opcode::Halt);
        start = end;
    }
    out
}

/// The graph of one window with its latencies and issue cycles.
struct Window {
    graph: Graph,
    latency: Vec<u32>,
    issue: Vec<u32>,
}

impl Window {
    fn new(insts: &[Inst], rules: Rules, vgrf_floor: u64) -> Window {
        let latency: Vec<u32> = insts.iter().map(latency).collect();
        let issue = insts.iter().map(issue_cycles).collect();
        Window {
            graph: schedule_deps::build(insts, &latency, rules, vgrf_floor),
            latency,
            issue,
        }
    }

    /// Longest latency path from each instruction to the end of the window.
    fn critical_path(&self) -> Vec<u64> {
        let n = self.issue.len();
        let mut path = vec![0u64; n];
        for i in (0..n).rev() {
            let tail = self
                .graph
                .succs(i)
                .map(|(s, w)| w as u64 + path[s])
                .max()
                .unwrap_or(self.latency[i] as u64);
            path[i] = self.issue[i] as u64 + tail;
        }
        path
    }

    /// Top-down list scheduling: at each step, of the instructions whose predecessors are
    /// placed, those whose operands are ready by the current cycle compete on the critical
    /// path (ties: program order); if none is ready, time advances to the earliest one.
    fn top_down(&self) -> Vec<usize> {
        let n = self.issue.len();
        let priority = self.critical_path();
        let mut waiting: Vec<usize> = (0..n).map(|i| self.graph.pred_count(i)).collect();
        let mut earliest = vec![0u64; n];
        let mut ready: Vec<usize> = (0..n).filter(|&i| waiting[i] == 0).collect();
        let mut order = Vec::with_capacity(n);
        let mut cycle = 0u64;
        while !ready.is_empty() {
            let now = ready
                .iter()
                .copied()
                .filter(|&i| earliest[i] <= cycle)
                .max_by_key(|&i| (priority[i], std::cmp::Reverse(i)));
            let pick = now.unwrap_or_else(|| {
                let first = ready
                    .iter()
                    .copied()
                    .min_by_key(|&i| (earliest[i], std::cmp::Reverse(priority[i]), i))
                    .expect("ready is not empty");
                cycle = earliest[first];
                first
            });
            ready.retain(|&i| i != pick);
            order.push(pick);
            for (s, w) in self.graph.succs(pick) {
                earliest[s] = earliest[s].max(cycle + w as u64);
                waiting[s] -= 1;
                if waiting[s] == 0 {
                    ready.push(s);
                }
            }
            cycle += self.issue[pick] as u64;
        }
        order
    }

    /// Bottom-up LIFO: from the end, place the instruction most recently made ready (all
    /// its successors placed), so each value is produced just before its last use.
    fn lifo(&self) -> Vec<usize> {
        let n = self.issue.len();
        let mut pending: Vec<usize> = (0..n).map(|i| self.graph.succ_count(i)).collect();
        let mut stack: Vec<usize> = (0..n).filter(|&i| pending[i] == 0).collect();
        let mut order = Vec::with_capacity(n);
        while let Some(pick) = stack.pop() {
            order.push(pick);
            // Of the predecessors made ready together, the earliest in program order is
            // placed first, i.e. right before `pick`: in a chain of sums, each new term is
            // computed just before it is added rather than all terms up front.
            for &(p, _, _) in self.graph.preds(pick).iter().rev() {
                pending[p] -= 1;
                if pending[p] == 0 {
                    stack.push(p);
                }
            }
        }
        order.reverse();
        order
    }

    /// In-order issue time of the window in program order (see the module notes).
    fn cycles(&self) -> u64 {
        let n = self.issue.len();
        let mut start = vec![0u64; n];
        let mut port = 0u64;
        for i in 0..n {
            let ready = self
                .graph
                .preds(i)
                .iter()
                .map(|&(p, _, w)| start[p] + w as u64)
                .max()
                .unwrap_or(0);
            start[i] = port.max(ready);
            port = start[i] + self.issue[i] as u64;
        }
        port
    }
}

/// With a scheduling bug injected: notes which kind of real dependency `order` breaks,
/// if any (a move across a HALT, or a flag write above an earlier read of its bits).
#[cfg(feature = "zoo")]
fn note_broken_dependency(window: &[Inst], order: &[usize], vgrf_floor: u64) {
    let mut position = vec![0; order.len()];
    for (k, &i) in order.iter().enumerate() {
        position[i] = k;
    }
    let correct = Window::new(window, Rules::CORRECT, vgrf_floor);
    for a in 0..order.len() {
        for (b, _) in correct.graph.succs(a) {
            if position[b] < position[a] {
                crate::pass::note(
                    if window[a].op == Opcode::Halt || window[b].op == Opcode::Halt {
                        "reorder-across-halt"
                    } else {
                        "reorder-ignoring-flag-war"
                    },
                );
            }
        }
    }
}

/// Reorders one region in `mode`; returns whether the order changed.
fn schedule_region(insts: &mut Vec<Inst>, mode: Mode, rules: Rules, vgrf_floor: u64) -> bool {
    if mode == Mode::None || insts.len() < 2 {
        return false;
    }
    let mut changed = false;
    let mut out = Vec::with_capacity(insts.len());
    let mut rest = std::mem::take(insts).into_iter();
    loop {
        let window: Vec<Inst> = rest.by_ref().take(WINDOW).collect();
        if window.is_empty() {
            break;
        }
        if window.len() < 2 {
            out.extend(window);
            continue;
        }
        let w = Window::new(&window, rules, vgrf_floor);
        let order = match mode {
            Mode::TopDown => w.top_down(),
            Mode::Lifo => w.lifo(),
            Mode::None => (0..window.len()).collect(),
        };
        changed |= order.iter().enumerate().any(|(k, &i)| k != i);
        #[cfg(feature = "zoo")]
        if !rules.halt_is_barrier || !rules.flag_war {
            note_broken_dependency(&window, &order, vgrf_floor);
        }
        let mut slots: Vec<Option<Inst>> = window.into_iter().map(Some).collect();
        out.extend(
            order
                .into_iter()
                .map(|i| slots[i].take().expect("scheduled once")),
        );
    }
    *insts = out;
    changed
}

/// Schedules every block of `p` in `mode` with the dependency `rules`; returns whether
/// any instruction moved.
pub fn schedule(p: &mut Program, mode: Mode, rules: Rules) -> bool {
    if mode == Mode::None {
        return false;
    }
    let floor = vgrf_floor(p);
    #[cfg(feature = "zoo")]
    if !rules.halt_is_barrier {
        return schedule_across_halts(p, mode, rules, floor);
    }
    let mut changed = false;
    for block in &mut p.blocks {
        changed |= schedule_region(&mut block.insts, mode, rules, floor);
    }
    changed
}

/// [`schedule`] with the `sched-across-halt` bug injected: regions span HALTs, and blocks
/// are re-split after.
#[cfg(feature = "zoo")]
fn schedule_across_halts(p: &mut Program, mode: Mode, rules: Rules, floor: u64) -> bool {
    let ranges = regions_joined_across_halts(p);
    let mut all = p.take_insts();
    let mut changed = false;
    for r in ranges {
        let mut region: Vec<Inst> = all[r.clone()].to_vec();
        if schedule_region(&mut region, mode, rules, floor) {
            changed = true;
            all.splice(r, region);
        }
    }
    p.set_insts(all);
    changed
}

/// Loop nesting depth of each block: the blocks after a DO up to and including its WHILE
/// are one level deeper than the DO's own block (which runs once per entry).
fn loop_depths(blocks: &[Block]) -> Vec<u32> {
    let mut depth = 0u32;
    blocks
        .iter()
        .map(|b| {
            let here = depth;
            match b.insts.last().map(|i| i.op) {
                Some(Opcode::Do) => depth += 1,
                Some(Opcode::While) => depth = depth.saturating_sub(1),
                _ => {}
            }
            here
        })
        .collect()
}

/// The first GRF byte a VGRF of `p` may be allocated to: after the thread payload.
fn vgrf_floor(p: &Program) -> u64 {
    (PayloadLayout::new(p).regs as u32 * REG_SIZE) as u64
}

/// Each block's own cycle estimate in its current order, once through (what the printed IR
/// shows on a block's START line, as Mesa prints `START B1 <-B0 (40 cycles)`).
pub fn block_cycles(p: &Program) -> Vec<u64> {
    let floor = vgrf_floor(p);
    p.blocks
        .iter()
        .map(|b| {
            b.insts
                .chunks(WINDOW)
                .map(|w| Window::new(w, Rules::CORRECT, floor).cycles())
                .sum()
        })
        .collect()
}

/// The static cycle estimate of `p` in its current order (see the module notes): the blocks'
/// estimates, a loop body's counted [`LOOP_TRIPS`] times per nesting level.
pub fn estimate_cycles(p: &Program) -> u64 {
    block_cycles(p)
        .into_iter()
        .zip(loop_depths(&p.blocks))
        .map(|(cycles, depth)| cycles.saturating_mul(LOOP_TRIPS.saturating_pow(depth)))
        .fold(0u64, u64::saturating_add)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(body: &str) -> Program {
        let text = format!(
            "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nvgrf v0 1\nvgrf v1 1\nvgrf v2 4\n\
             START B0\n{body}\nEND B0\n"
        );
        let mut p = crate::text::parse_program(&text).unwrap();
        p.resplit();
        p
    }

    #[test]
    fn a_dependent_pair_stalls_for_the_producer_latency() {
        // rcp (22 cycles) then an add reading it: the add issues at 22 and leaves at 23.
        let p = parse("rcp(8) v0:F, attr0:F\nadd(8) v1:F, v0:F, 1.0:F");
        assert_eq!(estimate_cycles(&p), 23);
        // Two independent instructions issue back to back.
        let q = parse("rcp(8) v0:F, attr0:F\nadd(8) v1:F, attr0:F, 1.0:F");
        assert_eq!(estimate_cycles(&q), 2);
    }

    #[test]
    fn loop_bodies_count_ten_times() {
        let p = parse(
            "mov(8) v0:F, attr0:F\ndo(8)\nadd(8) v0:F, v0:F, 1.0:F\n\
             cmp.l.f0.0(8) null:F, v0:F, 4.0:F\n(+f0.0) while(8)\nmov(8) v1:F, v0:F",
        );
        // mov (1) | do (1) | the add issues at 0, the cmp waits for it until 6, the while
        // for the flag until 12 and leaves at 13 — ten times | mov (1).
        assert_eq!(estimate_cycles(&p), 1 + 1 + 130 + 1);
    }

    #[test]
    fn top_down_hoists_the_long_latency_chain() {
        let mut p = parse("add(8) v1:F, attr0:F, 1.0:F\nrcp(8) v0:F, attr0:F");
        assert!(schedule(&mut p, Mode::TopDown, Rules::CORRECT));
        let ops: Vec<Opcode> = p.insts().map(|i| i.op).collect();
        assert_eq!(ops, vec![Opcode::Rcp, Opcode::Add]);
        assert!(!schedule(&mut p, Mode::TopDown, Rules::CORRECT));
    }

    #[test]
    fn lifo_puts_producers_next_to_their_consumers() {
        // Both producers first, then both consumers: LIFO interleaves them.
        let mut p = parse(
            "mov(8) v0:F, attr0:F\nmov(8) v1:F, attr0:F\nadd(8) v2:F, v0:F, 1.0:F\n\
             add(8) v2+32:F, v1:F, 1.0:F",
        );
        assert!(schedule(&mut p, Mode::Lifo, Rules::CORRECT));
        let printed: Vec<String> = p.insts().map(crate::text::print_inst).collect();
        assert_eq!(
            printed,
            vec![
                "mov(8) v0:F, attr0:F",
                "add(8) v2:F, v0:F, 1.0:F",
                "mov(8) v1:F, attr0:F",
                "add(8) v2+32:F, v1:F, 1.0:F",
            ]
        );
    }
}
