//! The dependency graph of a straight run of instructions, for the instruction scheduler
//! (`crate::passes::schedule`): an edge `a → b` (a before b in program order) means b must stay
//! after a, with the cycles b has to wait after a issues.
//!
//! Every instruction is summarised as the resources it reads and writes, each a byte (or
//! bit) range; two instructions depend on each other when one writes what the other reads
//! or writes (RAW, WAR, WAW). When in doubt, an instruction is a barrier that nothing
//! crosses. The resources:
//!
//! * registers by byte range: each VGRF, ATTR and the push constants in their own space,
//!   fixed GRFs in the GRF file (docs/hardware/brw-backend.md §1.3, §1.4). Ranges are the union of the
//!   operand's region footprint and its `size_read`/`size_written` (§1.2), so strided and
//!   offset regions, partial and multi-register writes and message payloads are covered.
//!   Before allocation a fixed GRF may hold a virtual register: payload GRFs hold the ATTR
//!   and push-constant inputs, and a GRF after the payload may become any VGRF's, so such
//!   accesses conflict with every access of those virtual files.
//! * flag bits (§1.2: channel `c` uses bit `16·subreg + group + c`): a normal predicate
//!   reads its channels' bits, any other predicate kind (horizontal any/all, anyv/allv)
//!   reads the whole flag file; a conditional modifier writes its channels' bits (SEL's
//!   too, since Gen4/5 lower it through a flag-writing CMPN, §10.3 20); an explicit flag
//!   operand reads or writes its bytes.
//! * the accumulator as one resource (§1.6, §5.5, docs/hardware/eu-hardware.md §4): MUL, MACH, MAC,
//!   ADDC, SUBB, MULH and AccWrEnable write it implicitly, MACH, MAC, ADDC and SUBB read
//!   it, and explicit `acc` operands read or write it.
//! * the address register as one resource (`a0`).
//! * memory: render-target writes, buffer stores and scratch writes write it; buffer,
//!   scratch and sampler reads read it. Stores stay in order among themselves and with
//!   every load, so the order of observable writes never changes.
//!
//! Barriers (ordered against everything): control flow (IF/ELSE/ENDIF/DO/WHILE/BREAK/
//! CONTINUE/HALT/HALT_TARGET change the execution mask, §9.2, and bound blocks), NOP, EOT
//! (the thread ends there), register-indirect operands (which registers they touch is
//! known only at run time, §1.4), architecture registers the emulator does not model
//! (`sr0`, `cr0`, `n0`, `ip`, `tdr0`, `tm0`), writes to `ce0`, and the pre-Gfx12
//! NoDDClr/NoDDChk hints (they pair adjacent instructions). A HALT is a barrier because
//! instructions after it run without the halted channels (§11.25, Mesa 9471ffa70a0).
//!
//! NoMask and masked instructions need no edge beyond these: inside a block the execution
//! mask does not change (§9.2: only control-flow instructions change it, and they end or
//! start blocks), so a channel-enable read (`ce0`) or a NoMask write means the same
//! wherever the instruction lands in the block.

use crate::inst::{Inst, PredKind};
use crate::opcode::Opcode;
use crate::reg::{Arf, Reg, RegKind};

/// What an access touches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Res {
    Vgrf(u32),
    Attr(u32),
    Uniform,
    /// The fixed GRF file, by byte.
    Grf,
    /// The flag file, by bit.
    Flag,
    Acc,
    Address,
    Memory,
}

/// One resource range an instruction reads or writes: `[lo, hi)`.
#[derive(Clone, Copy, Debug)]
struct Access {
    res: Res,
    lo: u64,
    hi: u64,
    write: bool,
}

/// Switches for the injected scheduling bugs (the zoo): a correct scheduler has both on.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// HALT is a barrier (off: §11.25, `sched-across-halt`).
    pub halt_is_barrier: bool,
    /// A flag write waits for earlier reads of its bits (off: `sched-ignores-flag-war`).
    pub flag_war: bool,
}

impl Rules {
    pub const CORRECT: Rules = Rules {
        halt_is_barrier: true,
        flag_war: true,
    };
}

/// What an instruction reads and writes, and whether it is a barrier.
struct Summary {
    accesses: Vec<Access>,
    barrier: bool,
    /// A filter over `accesses` (see [`Summary::keys`]): two instructions can only
    /// conflict if one's `writes` meets the other's `reads | writes`.
    reads: u128,
    writes: u128,
}

/// Filter key bits: VGRF `nr` and GRF register `r` hash to 48 bits each; the rest are one
/// bit per resource.
const VGRF_KEYS: u128 = (1 << 48) - 1;
const GRF_KEYS: u128 = VGRF_KEYS << 48;
const ATTR_KEY: u128 = 1 << 96;
const UNIFORM_KEY: u128 = 1 << 97;
const FLAG_KEY: u128 = 1 << 98;
const ACC_KEY: u128 = 1 << 99;
const ADDRESS_KEY: u128 = 1 << 100;
const MEMORY_KEY: u128 = 1 << 101;

/// Every flag bit (f0.0 … f3.1).
const ALL_FLAG_BITS: (u64, u64) = (0, 128);

/// Bytes `[lo, hi)` of a hardware-region operand relative to its register file's origin
/// (`base`): the region footprint, and for a destination the bytes its horizontal stride
/// walks (docs/hardware/eu-hardware.md §1.2: a destination region is its hstride only).
fn region_span(r: &Reg, base: u64, n: u32, is_dst: bool, size: u32) -> Option<(u64, u64)> {
    let (s, e) = r.footprint(n)?;
    let (s, mut e) = (base + s, base + e);
    if let RegKind::Fixed { region, .. } | RegKind::Arf { region, .. } = r.kind
        && is_dst
    {
        let walked = ((n as u64 - 1) * region.hstride as u64 + 1) * r.ty.size() as u64;
        e = e.max(s + walked);
    }
    Some((s, e.max(s + size as u64)))
}

impl Summary {
    fn of(inst: &Inst, rules: Rules, vgrf_floor: u64) -> Summary {
        let mut s = Summary {
            accesses: Vec::with_capacity(4),
            barrier: false,
            reads: 0,
            writes: 0,
        };
        let op = inst.op;
        s.barrier = (op.is_control_flow() && (op != Opcode::Halt || rules.halt_is_barrier))
            || op == Opcode::Nop
            || inst.eot
            || inst.no_dd_clear
            || inst.no_dd_check
            || (op == Opcode::Send && inst.desc.is_none());
        let n = inst.exec_size as u32;
        s.operand(&inst.dst, n, true, inst.size_written());
        for (i, src) in inst.srcs.iter().enumerate() {
            s.operand(src, n, false, inst.size_read(i));
        }
        if let Some(pred) = inst.predicate {
            let bits = if pred.kind == PredKind::Normal {
                let (first, count) = inst.flag_bits();
                (first as u64, first as u64 + count as u64)
            } else {
                ALL_FLAG_BITS
            };
            s.push(Res::Flag, bits, false);
        }
        if inst.writes_flag() || (op == Opcode::Sel && inst.cmod.is_some()) {
            let (first, count) = inst.flag_bits();
            s.push(Res::Flag, (first as u64, first as u64 + count as u64), true);
        }
        use Opcode::*;
        if matches!(op, Mul | Mach | Mac | Addc | Subb | Mulh) || inst.acc_wr {
            s.push(Res::Acc, (0, 1), true);
        }
        if matches!(op, Mach | Mac | Addc | Subb) {
            s.push(Res::Acc, (0, 1), false);
        }
        if let Some(write) = memory_effect(inst) {
            s.push(Res::Memory, (0, 1), write);
        }
        for a in &s.accesses {
            let keys = Summary::keys(a, vgrf_floor);
            if a.write {
                s.writes |= keys;
            } else {
                s.reads |= keys;
            }
        }
        s
    }

    /// The filter keys of an access: its own, plus those of every resource it may alias
    /// (see [`overlap`]), so overlapping accesses always share a key.
    fn keys(a: &Access, vgrf_floor: u64) -> u128 {
        match a.res {
            Res::Vgrf(nr) => 1 << (nr % 48),
            Res::Attr(_) => ATTR_KEY | GRF_KEYS,
            Res::Uniform => UNIFORM_KEY | GRF_KEYS,
            Res::Grf => {
                let (first, last) = (a.lo / 32, a.hi.saturating_sub(1) / 32);
                let grf = if last - first >= 47 {
                    GRF_KEYS
                } else {
                    (first..=last).fold(0, |k, r| k | 1 << (48 + r % 48))
                };
                let vgrf = if a.hi > vgrf_floor { VGRF_KEYS } else { 0 };
                grf | vgrf | ATTR_KEY | UNIFORM_KEY
            }
            Res::Flag => FLAG_KEY,
            Res::Acc => ACC_KEY,
            Res::Address => ADDRESS_KEY,
            Res::Memory => MEMORY_KEY,
        }
    }

    fn push(&mut self, res: Res, (lo, hi): (u64, u64), write: bool) {
        self.accesses.push(Access { res, lo, hi, write });
    }

    /// Records the accesses of one operand of `size` bytes (`size_read`/`size_written`).
    fn operand(&mut self, r: &Reg, n: u32, write: bool, size: u32) {
        let span = |base: u64| region_span(r, base, n, write, size);
        match r.kind {
            RegKind::Null | RegKind::Imm(_) => {}
            RegKind::Vgrf { nr, .. } => self.push_span(Res::Vgrf(nr), span(0), write),
            RegKind::Attr { nr, .. } => self.push_span(Res::Attr(nr), span(0), write),
            RegKind::Uniform { .. } => self.push_span(Res::Uniform, span(0), write),
            RegKind::Fixed { .. } => self.push_span(Res::Grf, span(0), write),
            RegKind::Indirect { .. } => self.barrier = true,
            RegKind::Arf { file, nr, .. } => match file {
                Arf::Acc => self.push(Res::Acc, (0, 1), write),
                Arf::Address => self.push(Res::Address, (0, 1), write),
                Arf::Flag => {
                    // Flag register `nr` is 4 bytes; its bytes hold the bits 8 apart.
                    match region_span(r, nr as u64 * 4, n, write, 0) {
                        Some((lo, hi)) => self.push(Res::Flag, (lo * 8, hi * 8), write),
                        None => self.push(Res::Flag, ALL_FLAG_BITS, write),
                    }
                }
                // `ce0` reads the execution mask, constant inside a block.
                Arf::Mask if !write => {}
                _ => self.barrier = true,
            },
        }
    }

    fn push_span(&mut self, res: Res, span: Option<(u64, u64)>, write: bool) {
        match span {
            Some(s) => self.push(res, s, write),
            None => self.barrier = true,
        }
    }
}

/// How a message touches memory: `Some(true)` writes (stores, render-target and scratch
/// writes), `Some(false)` reads (loads, scratch reads, sampling), `None` no memory.
fn memory_effect(inst: &Inst) -> Option<bool> {
    use crate::inst::MsgKind;
    use Opcode::*;
    match inst.op {
        FbWriteLogical | UntypedWriteLogical | ScratchWrite | UrbWriteLogical => Some(true),
        UntypedReadLogical | ScratchRead | TexLogical => Some(false),
        Send => inst.desc.map(|d| match d.kind {
            MsgKind::RtWrite { .. }
            | MsgKind::UntypedWrite { .. }
            | MsgKind::ScratchWrite
            | MsgKind::UrbWrite { .. } => true,
            MsgKind::UntypedRead { .. } | MsgKind::ScratchRead | MsgKind::Sample { .. } => false,
        }),
        _ => None,
    }
}

/// Whether two accesses touch the same storage. Ranges count within one resource; a fixed
/// GRF may also be where a virtual register lives: ATTR and push constants lie in the
/// thread payload, and VGRFs anywhere from `vgrf_floor` (the first byte after the payload,
/// below which `allocate_registers` places none) on.
fn overlap(a: &Access, b: &Access, vgrf_floor: u64) -> bool {
    if a.res == b.res {
        return a.res == Res::Memory || (a.lo < b.hi && b.lo < a.hi);
    }
    let (grf, other) = match (a.res, b.res) {
        (Res::Grf, _) => (a, b.res),
        (_, Res::Grf) => (b, a.res),
        _ => return false,
    };
    match other {
        Res::Vgrf(_) => grf.hi > vgrf_floor,
        Res::Attr(_) | Res::Uniform => true,
        _ => false,
    }
}

/// The dependency graph of a run of instructions, as edge lists per instruction (one
/// allocation for all of them).
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// `(earlier, later, cycles)` ordered by the later instruction.
    by_later: Vec<(usize, usize, u32)>,
    /// `by_later[pred_start[b]..pred_start[b + 1]]` are the edges into `b`.
    pred_start: Vec<usize>,
    /// The same edges ordered by the earlier instruction.
    by_earlier: Vec<(usize, usize, u32)>,
    succ_start: Vec<usize>,
}

impl Graph {
    /// `(later instruction, cycles it must wait)` for each edge out of `a`.
    pub fn succs(&self, a: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.by_earlier[self.succ_start[a]..self.succ_start[a + 1]]
            .iter()
            .map(|&(_, b, w)| (b, w))
    }

    /// `(earlier instruction, cycles to wait after it)` for each edge into `b`, earliest
    /// first.
    pub fn preds(&self, b: usize) -> &[(usize, usize, u32)] {
        &self.by_later[self.pred_start[b]..self.pred_start[b + 1]]
    }

    pub fn succ_count(&self, a: usize) -> usize {
        self.succ_start[a + 1] - self.succ_start[a]
    }

    pub fn pred_count(&self, b: usize) -> usize {
        self.pred_start[b + 1] - self.pred_start[b]
    }
}

/// The edge from `a` (earlier, result latency `lat_a`) to `b`, if `b` depends on it: RAW
/// and WAW wait for `a`'s result, WAR only keeps the order; `ordered` (a barrier between
/// them with no barrier in between) keeps the order in any case.
fn edge(
    a: &Summary,
    b: &Summary,
    lat_a: u32,
    rules: Rules,
    vgrf_floor: u64,
    ordered: bool,
) -> Option<u32> {
    let mut wait = ordered.then_some(0);
    for x in &a.accesses {
        for y in &b.accesses {
            if !(x.write || y.write) || !overlap(x, y, vgrf_floor) {
                continue;
            }
            let war = !x.write && y.write;
            if war && x.res == Res::Flag && !rules.flag_war {
                continue;
            }
            if !war {
                // RAW and WAW wait the whole latency: no other pair can ask for more.
                return Some(lat_a);
            }
            wait = Some(0);
        }
    }
    wait
}

/// Builds the graph of `insts` (all of one scheduling region), `latency[i]` being the
/// cycles until instruction `i`'s results can be used, VGRFs placed from GRF byte
/// `vgrf_floor` on. O(n²) pairs: callers keep `n` small.
pub fn build(insts: &[Inst], latency: &[u32], rules: Rules, vgrf_floor: u64) -> Graph {
    let summaries: Vec<Summary> = insts
        .iter()
        .map(|i| Summary::of(i, rules, vgrf_floor))
        .collect();
    let n = insts.len();
    // The first barrier after each instruction: a barrier orders everything before it
    // against everything after it, so it needs edges only up to the neighbouring
    // barriers.
    let mut next_barrier = vec![n; n];
    for i in (0..n.saturating_sub(1)).rev() {
        next_barrier[i] = if summaries[i + 1].barrier {
            i + 1
        } else {
            next_barrier[i + 1]
        };
    }
    let mut by_later = Vec::with_capacity(4 * n);
    let mut pred_start = Vec::with_capacity(n + 1);
    for b in 0..n {
        pred_start.push(by_later.len());
        let sb = &summaries[b];
        for a in 0..b {
            let sa = &summaries[a];
            let may_conflict = sa.writes & (sb.reads | sb.writes) | sa.reads & sb.writes != 0;
            let ordered = (sa.barrier || sb.barrier) && next_barrier[a] >= b;
            if !may_conflict && !ordered {
                continue;
            }
            if let Some(w) = edge(sa, sb, latency[a], rules, vgrf_floor, ordered) {
                by_later.push((a, b, w));
            }
        }
    }
    pred_start.push(by_later.len());
    // Counting sort by the earlier instruction.
    let mut succ_start = vec![0; n + 1];
    for &(a, _, _) in &by_later {
        succ_start[a + 1] += 1;
    }
    for i in 0..n {
        succ_start[i + 1] += succ_start[i];
    }
    let mut fill = succ_start.clone();
    let mut by_earlier = vec![(0, 0, 0); by_later.len()];
    for &e in &by_later {
        by_earlier[fill[e.0]] = e;
        fill[e.0] += 1;
    }
    Graph {
        by_later,
        pred_start,
        by_earlier,
        succ_start,
    }
}
