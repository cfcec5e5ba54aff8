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
    /// Its accesses: `all[accesses]` of the window's one list (see [`Summary::of`]).
    accesses: std::ops::Range<usize>,
    barrier: bool,
    /// A filter over `accesses` (see [`Summary::keys`]): two instructions can only
    /// conflict if one's writes meet the other's reads or writes, counting the keys of
    /// the resources each may alias (see [`KeyTables::candidates`]).
    reads: u128,
    writes: u128,
    /// The keys of what this instruction's reads and writes may alias in other files (a
    /// fixed GRF may hold a VGRF, an ATTR or a push constant): kept apart from its own
    /// keys, so that two fixed-GRF accesses after allocation meet only on their registers.
    alias_reads: u128,
    alias_writes: u128,
    /// The fixed GRFs read, written and written whole (by span), one bit per register:
    /// kept exactly rather than as keys, so a whole-register write can end the earlier
    /// accesses' need for edges (see [`KeyTables::add`]).
    grf_reads: GrfSet,
    grf_writes: GrfSet,
    grf_covered: GrfSet,
}

/// A set of fixed GRFs, one bit per register; the last bit stands for that register and
/// every one after it (beyond any register file; never "written whole").
type GrfSet = [u128; 2];

/// Registers a [`GrfSet`] tells apart.
const GRF_SLOTS: u64 = 256;

/// Adds registers `first..=last` to `set`.
fn add_grfs(set: &mut GrfSet, first: u64, last: u64) {
    for r in first.min(GRF_SLOTS - 1)..=last.min(GRF_SLOTS - 1) {
        set[(r / 128) as usize] |= 1 << (r % 128);
    }
}

/// The registers of `set`, ascending.
fn grfs(set: &GrfSet) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(half, &bits)| {
        let mut rest = bits;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                half * 128 + bit
            })
        })
    })
}

/// Filter key bits: VGRF `nr` hashes to 48 bits; the rest are one bit per resource
/// (fixed GRFs are kept by register, see [`Summary::grf_reads`]).
const VGRF_KEYS: u128 = (1 << 48) - 1;
const ATTR_KEY: u128 = 1 << 96;
const UNIFORM_KEY: u128 = 1 << 97;
const FLAG_KEY: u128 = 1 << 98;
const ACC_KEY: u128 = 1 << 99;
const ADDRESS_KEY: u128 = 1 << 100;
const MEMORY_KEY: u128 = 1 << 101;
/// In alias keys only: "may alias any VGRF" (a fixed GRF above the VGRF floor), one key
/// for all [`VGRF_KEYS`], so recording it costs one set, not 48.
const ANY_VGRF_KEY: u128 = 1 << 102;

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
    /// Summarises `inst`, appending its accesses to `all` (one list for a whole window:
    /// no allocation per instruction).
    fn of(inst: &Inst, rules: Rules, vgrf_floor: u64, all: &mut Vec<Access>) -> Summary {
        let start = all.len();
        let op = inst.op;
        let barrier = (op.is_control_flow() && (op != Opcode::Halt || rules.halt_is_barrier))
            || op == Opcode::Nop
            || inst.eot
            || inst.no_dd_clear
            || inst.no_dd_check
            || (op == Opcode::Send && inst.desc.is_none());
        let mut rec = Recorder { all, barrier };
        let n = inst.exec_size as u32;
        rec.operand(&inst.dst, n, true, inst.size_written());
        for (i, src) in inst.srcs.iter().enumerate() {
            rec.operand(src, n, false, inst.size_read(i));
        }
        if let Some(pred) = inst.predicate {
            let bits = if pred.kind == PredKind::Normal {
                let (first, count) = inst.flag_bits();
                (first as u64, first as u64 + count as u64)
            } else {
                ALL_FLAG_BITS
            };
            rec.push(Res::Flag, bits, false);
        }
        if inst.writes_flag() || (op == Opcode::Sel && inst.cmod.is_some()) {
            let (first, count) = inst.flag_bits();
            rec.push(Res::Flag, (first as u64, first as u64 + count as u64), true);
        }
        use Opcode::*;
        if matches!(op, Mul | Mach | Mac | Addc | Subb | Mulh) || inst.acc_wr {
            rec.push(Res::Acc, (0, 1), true);
        }
        if matches!(op, Mach | Mac | Addc | Subb) {
            rec.push(Res::Acc, (0, 1), false);
        }
        if let Some(write) = memory_effect(inst) {
            rec.push(Res::Memory, (0, 1), write);
        }
        let mut s = Summary {
            accesses: start..rec.all.len(),
            barrier: rec.barrier,
            reads: 0,
            writes: 0,
            alias_reads: 0,
            alias_writes: 0,
            grf_reads: [0; 2],
            grf_writes: [0; 2],
            grf_covered: [0; 2],
        };
        for a in &rec.all[start..] {
            let (keys, alias) = Summary::keys(a, vgrf_floor);
            if a.write {
                s.writes |= keys;
                s.alias_writes |= alias;
            } else {
                s.reads |= keys;
                s.alias_reads |= alias;
            }
            if a.res == Res::Grf && a.hi > a.lo {
                let (first, last) = (a.lo / 32, (a.hi - 1) / 32);
                if a.write {
                    add_grfs(&mut s.grf_writes, first, last);
                    let (whole_first, whole_end) = (a.lo.div_ceil(32), a.hi / 32);
                    if whole_end > whole_first && whole_end < GRF_SLOTS {
                        add_grfs(&mut s.grf_covered, whole_first, whole_end - 1);
                    }
                } else {
                    add_grfs(&mut s.grf_reads, first, last);
                }
            }
        }
        s
    }

    /// The filter keys of an access: its own, and those of every resource of another file
    /// it may alias (see [`overlap`]: only a fixed GRF aliases, a VGRF above `vgrf_floor`,
    /// ATTRs and push constants), so overlapping accesses always meet in
    /// [`KeyTables::candidates`].
    fn keys(a: &Access, vgrf_floor: u64) -> (u128, u128) {
        match a.res {
            Res::Vgrf(nr) => (1 << (nr % 48), 0),
            Res::Attr(_) => (ATTR_KEY, 0),
            Res::Uniform => (UNIFORM_KEY, 0),
            // The registers themselves are kept exactly (`Summary::grf_reads` …).
            Res::Grf => {
                let vgrf = if a.hi > vgrf_floor { ANY_VGRF_KEY } else { 0 };
                (0, vgrf | ATTR_KEY | UNIFORM_KEY)
            }
            Res::Flag => (FLAG_KEY, 0),
            Res::Acc => (ACC_KEY, 0),
            Res::Address => (ADDRESS_KEY, 0),
            Res::Memory => (MEMORY_KEY, 0),
        }
    }
}

/// Appends an instruction's accesses to a window's list, noting what makes it a barrier.
struct Recorder<'a> {
    all: &'a mut Vec<Access>,
    barrier: bool,
}

impl Recorder<'_> {
    fn push(&mut self, res: Res, (lo, hi): (u64, u64), write: bool) {
        self.all.push(Access { res, lo, hi, write });
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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// Whether this graph keeps only edges of `full` (with their waits) and implies each
    /// edge it leaves out, `a → c` waiting `w`, by a path from `a` to `c` waiting at least
    /// `w`: then every scheduling decision made on it is the one made on `full`.
    pub fn implies(&self, full: &Graph) -> bool {
        let n = self.pred_start.len().saturating_sub(1);
        let kept = (0..n).all(|b| self.preds(b).iter().all(|e| full.preds(b).contains(e)));
        kept && (0..n).all(|a| {
            let paths = self.longest_from(a);
            full.succs(a).all(|(c, w)| paths[c] >= Some(w as u64))
        })
    }

    /// The longest path (in cycles waited) from `a` to each instruction (`None`: no path).
    fn longest_from(&self, a: usize) -> Vec<Option<u64>> {
        let n = self.pred_start.len().saturating_sub(1);
        let mut best = vec![None; n];
        best[a] = Some(0);
        for i in a..n {
            if let Some(d) = best[i] {
                for (s, w) in self.succs(i) {
                    best[s] = best[s].max(Some(d + w as u64));
                }
            }
        }
        best
    }

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
/// them with no barrier in between) keeps the order in any case. `all` is the window's
/// access list.
fn edge(
    a: &Summary,
    b: &Summary,
    all: &[Access],
    lat_a: u32,
    rules: Rules,
    vgrf_floor: u64,
    ordered: bool,
) -> Option<u32> {
    let mut wait = ordered.then_some(0);
    for x in &all[a.accesses.clone()] {
        for y in &all[b.accesses.clone()] {
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
/// `vgrf_floor` on. Each instruction is tested against the earlier ones that share a filter
/// key with it ([`KeyTables`]) and the barriers it must stay ordered with, not against
/// every earlier one.
///
/// Memory accesses are ordered through the last store only: a store gets edges from the
/// last store and the loads after it, a load from the last store. Likewise a write whose
/// span covers a whole fixed GRF is, for that register, what later accesses are ordered
/// through. An edge this leaves out, `a → c` waiting `w`, is implied by the path
/// `a → … → store (or write) → c`, which waits at least `w` (a RAW or WAW edge waits its
/// source's whole latency, and the store or write overlaps both): every scheduling
/// decision — earliest issue, the critical path, LIFO readiness, the cycle estimate —
/// takes the maximum over such paths, so it is the same as with the edge (the tests check
/// it).
pub fn build(insts: &[Inst], latency: &[u32], rules: Rules, vgrf_floor: u64) -> Graph {
    build_filtered(insts, latency, rules, vgrf_floor, true)
}

/// The graph with an edge for every conflicting pair: what [`build`]'s graph must imply
/// (its tests and `compiler/tests/schedule_graph.rs` compare the two on real programs).
pub fn build_every_edge(insts: &[Inst], latency: &[u32], rules: Rules, vgrf_floor: u64) -> Graph {
    build_filtered(insts, latency, rules, vgrf_floor, false)
}

/// [`build`] with the key tables (`filter`), or [`build_every_edge`] testing every earlier
/// instruction: the first graph implies the second (the tests check it).
fn build_filtered(
    insts: &[Inst],
    latency: &[u32],
    rules: Rules,
    vgrf_floor: u64,
    filter: bool,
) -> Graph {
    let mut all = Vec::with_capacity(4 * insts.len());
    let summaries: Vec<Summary> = insts
        .iter()
        .map(|i| Summary::of(i, rules, vgrf_floor, &mut all))
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
    let mut tables = KeyTables::new(n);
    let mut candidates = vec![0u64; tables.words];
    let mut last_barrier = None;
    let mut by_later = Vec::with_capacity(4 * n);
    let mut pred_start = Vec::with_capacity(n + 1);
    for b in 0..n {
        pred_start.push(by_later.len());
        let sb = &summaries[b];
        candidates.fill(0);
        if filter {
            tables.candidates(sb, &mut candidates);
            // What `b` stays ordered with: the last barrier before it, and if `b` is a
            // barrier, everything from there (or the start) on.
            let ordered = match (sb.barrier, last_barrier) {
                (true, last) => last.unwrap_or(0)..b,
                (false, Some(last)) => last..last + 1,
                (false, None) => 0..0,
            };
            set_range(&mut candidates, ordered);
        } else {
            set_range(&mut candidates, 0..b);
        }
        for a in members(&candidates) {
            let sa = &summaries[a];
            let ordered = (sa.barrier || sb.barrier) && next_barrier[a] >= b;
            if let Some(w) = edge(sa, sb, &all, latency[a], rules, vgrf_floor, ordered) {
                by_later.push((a, b, w));
            }
        }
        tables.add(b, sb);
        if sb.barrier {
            last_barrier = Some(b);
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

/// Sets the bits `range` of a bit set.
fn set_range(set: &mut [u64], range: std::ops::Range<usize>) {
    for i in range {
        set[i / 64] |= 1 << (i % 64);
    }
}

/// The members of a bit set, ascending.
fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 64 + bit
            })
        })
    })
}

/// Filter keys in use (see [`Summary::keys`]).
const KEYS: usize = 103;

/// Own keys as alias keys: any VGRF key is met by [`ANY_VGRF_KEY`].
fn as_alias(keys: u128) -> u128 {
    let vgrf = if keys & VGRF_KEYS != 0 {
        ANY_VGRF_KEY
    } else {
        0
    };
    keys & !VGRF_KEYS | vgrf
}

/// Alias keys as own keys: [`ANY_VGRF_KEY`] meets every VGRF key.
fn as_own(alias: u128) -> u128 {
    let vgrf = if alias & ANY_VGRF_KEY != 0 {
        VGRF_KEYS
    } else {
        0
    };
    alias & !ANY_VGRF_KEY | vgrf
}

/// The instructions added so far, by filter key: for each key, the set of instructions
/// that read it, write it, may alias it by a read, and may alias it by a write; and for
/// each fixed GRF, the instructions that read it and write it. The
/// earlier instructions that may conflict with a later one — a write of one meets a read or
/// write of the other, directly or through the aliases of either — are the union of a few of these sets, so building a window's graph costs the keys its
/// instructions touch rather than one test per pair.
struct KeyTables {
    /// 64-bit words per set.
    words: usize,
    /// `sets[((table * KEYS) + key) * words ..][..words]`.
    sets: Vec<u64>,
    /// `grf[((table * GRF_SLOTS) + register) * words ..][..words]`, tables
    /// [`OWN_READS`] and [`OWN_WRITES`].
    grf: Vec<u64>,
    /// Per table, the keys whose set is not empty.
    present: [u128; 4],
}

const OWN_READS: usize = 0;
const OWN_WRITES: usize = 1;
const ALIAS_READS: usize = 2;
const ALIAS_WRITES: usize = 3;

impl KeyTables {
    fn new(n: usize) -> KeyTables {
        let words = n.div_ceil(64).max(1);
        KeyTables {
            words,
            sets: vec![0; 4 * KEYS * words],
            grf: vec![0; 2 * GRF_SLOTS as usize * words],
            present: [0; 4],
        }
    }

    /// Records instruction `i`'s keys and registers. A store makes the earlier memory
    /// accesses unneeded, and a write of a whole GRF the earlier accesses of that
    /// register: a later access that conflicts with one of them there conflicts with the
    /// store or write too and is ordered after them through it (see [`build`]).
    fn add(&mut self, i: usize, s: &Summary) {
        let words = self.words;
        if s.writes & MEMORY_KEY != 0 {
            for table in [OWN_READS, OWN_WRITES] {
                let at = (table * KEYS + MEMORY_KEY.trailing_zeros() as usize) * words;
                self.sets[at..at + words].fill(0);
            }
        }
        for r in grfs(&s.grf_covered) {
            for table in [OWN_READS, OWN_WRITES] {
                let at = (table * GRF_SLOTS as usize + r) * words;
                self.grf[at..at + words].fill(0);
            }
        }
        for (table, set) in [(OWN_READS, &s.grf_reads), (OWN_WRITES, &s.grf_writes)] {
            for r in grfs(set) {
                self.grf[(table * GRF_SLOTS as usize + r) * words + i / 64] |= 1 << (i % 64);
            }
        }
        for (table, keys) in [
            (OWN_READS, s.reads),
            (OWN_WRITES, s.writes),
            (ALIAS_READS, s.alias_reads),
            (ALIAS_WRITES, s.alias_writes),
        ] {
            self.present[table] |= keys;
            let mut rest = keys;
            while rest != 0 {
                let key = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.sets[(table * KEYS + key) * self.words + i / 64] |= 1 << (i % 64);
            }
        }
    }

    /// Adds to `out` the instructions of GRF `table` that access any register of `set`.
    fn gather_grfs(&self, table: usize, set: &GrfSet, out: &mut [u64]) {
        for r in grfs(set) {
            let at = (table * GRF_SLOTS as usize + r) * self.words;
            for (o, w) in out.iter_mut().zip(&self.grf[at..at + self.words]) {
                *o |= w;
            }
        }
    }

    /// Adds to `out` the instructions of `table` that have any of `keys`.
    fn gather(&self, table: usize, keys: u128, out: &mut [u64]) {
        let mut rest = keys & self.present[table];
        while rest != 0 {
            let key = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let at = (table * KEYS + key) * self.words;
            for (o, w) in out.iter_mut().zip(&self.sets[at..at + self.words]) {
                *o |= w;
            }
        }
    }

    /// Adds to `out` every recorded instruction that may conflict with `s`: never one
    /// fewer than [`edge`] joins.
    fn candidates(&self, s: &Summary, out: &mut [u64]) {
        // `a`'s writes (or what they may alias) meet what `s` touches, or its reads (or
        // what they may alias) meet what `s` writes …
        self.gather(OWN_WRITES, s.reads | s.writes, out);
        self.gather(ALIAS_WRITES, as_alias(s.reads | s.writes), out);
        self.gather(OWN_READS, s.writes, out);
        self.gather(ALIAS_READS, as_alias(s.writes), out);
        // … or `s`'s writes (or what they may alias) meet what `a` touches, or its reads
        // (or what they may alias) meet what `a` writes.
        self.gather(OWN_READS, s.writes | as_own(s.alias_writes), out);
        let touched = s.reads | s.writes | as_own(s.alias_reads | s.alias_writes);
        self.gather(OWN_WRITES, touched, out);
        // Fixed GRFs: a write of one meets a read or write of the other.
        let grf_touched = [
            s.grf_reads[0] | s.grf_writes[0],
            s.grf_reads[1] | s.grf_writes[1],
        ];
        self.gather_grfs(OWN_WRITES, &grf_touched, out);
        self.gather_grfs(OWN_READS, &s.grf_writes, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The graph of `body` (one block of a SIMD8 Skylake program with two ATTRs, two push
    /// constants and three VGRFs), with and without the key filter.
    fn both(body: &str) -> (Graph, Graph) {
        let text = format!(
            "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nuniforms 2\n\
             vgrf v0 1\nvgrf v1 1\nvgrf v2 2\nSTART B0\n{body}\nEND B0\n"
        );
        let p = crate::text::parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let insts: Vec<Inst> = p.insts().cloned().collect();
        let latency: Vec<u32> = insts.iter().map(crate::passes::schedule::latency).collect();
        let floor = (crate::payload::PayloadLayout::new(&p).regs as u32 * 32) as u64;
        let run = |filter| build_filtered(&insts, &latency, Rules::CORRECT, floor, filter);
        (run(true), run(false))
    }

    #[test]
    fn the_key_filter_drops_no_edge() {
        // Fixed GRFs in and after the payload against ATTRs, push constants, VGRFs and
        // each other (g2 is in the payload, g40 and g90 after it, g88 48 registers below
        // g40's key), with flags, the accumulator and memory.
        let body = "    mov(8) g40<8;8,1>:F, attr0:F\n    add(8) v0:F, g40<8;8,1>:F, u0:F\n    \
                    mov(8) g2<8;8,1>:F, 1.0:F\n    add(8) v1:F, attr1:F, u1:F\n    \
                    mul(8) v2:D, v1:D, g88<8;8,1>:D\n    mov(8) g90<8;8,1>:UD, v2+32:UD\n    \
                    cmp.l.f0.0(8) null:F, v0:F, g2<8;8,1>:F\n    \
                    (+f0.0) sel(8) g88<8;8,1>:F, v0:F, v1:F\n    mov(8) v0:F, g90<8;8,1>:F\n    \
                    fb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD { EOT }";
        let (filtered, all) = both(body);
        assert!(filtered.implies(&all));
        // The payload GRF g2 aliases the ATTRs: its write orders against both ATTR reads.
        assert!(filtered.preds(2).iter().any(|&(a, _, _)| a == 0));
        assert!(filtered.succs(2).any(|(b, _)| b == 3));
    }

    #[test]
    fn runs_longer_than_one_word_keep_every_edge_and_barrier() {
        // 80 instructions (two words of candidates) chaining through the VGRFs, with NOP
        // barriers at 30 and 70: every instruction between them is ordered after 30.
        let body: Vec<String> = (0..80)
            .map(|i| match i {
                30 | 70 => "    nop(1)".to_string(),
                _ => format!(
                    "    add(8) v{}:F, v{}:F, attr{}:F",
                    i % 3,
                    (i + 1) % 3,
                    i % 2
                ),
            })
            .collect();
        let (filtered, all) = both(&body.join("\n"));
        assert_eq!(filtered, all);
        assert!(filtered.preds(30).iter().any(|&(a, _, _)| a == 0));
        assert!(filtered.preds(69).iter().any(|&(a, _, _)| a == 30));
        assert!(filtered.preds(75).iter().any(|&(a, _, _)| a == 70));
        assert!(!filtered.preds(75).iter().any(|&(a, _, _)| a == 30));
    }

    #[test]
    fn memory_is_ordered_through_the_last_store() {
        // Loads (1, 3), stores (0, 2, 4, 5): each store waits for the last store and the
        // loads after it, each load for the last store; the rest is implied.
        let body = "    scratch_write(8) null:UD, attr0:UD, 0:UD\n    \
                    scratch_read(8) v0:UD, 0:UD\n    \
                    scratch_write(8) null:UD, attr1:UD, 32:UD\n    \
                    scratch_read(8) v1:UD, 32:UD\n    \
                    scratch_write(8) null:UD, attr0:UD, 64:UD\n    \
                    scratch_write(8) null:UD, v2:UD, 96:UD";
        let text = format!(
            "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nscratch 1024\n\
             vgrf v0 1\nvgrf v1 1\nvgrf v2 1\nSTART B0\n{body}\nEND B0\n"
        );
        let p = crate::text::parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let insts: Vec<Inst> = p.insts().cloned().collect();
        let latency: Vec<u32> = insts.iter().map(crate::passes::schedule::latency).collect();
        let run = |filter| build_filtered(&insts, &latency, Rules::CORRECT, 1 << 20, filter);
        let (reduced, full) = (run(true), run(false));
        let from = |g: &Graph, b: usize| g.preds(b).iter().map(|e| e.0).collect::<Vec<_>>();
        assert_eq!(from(&full, 5), vec![0, 1, 2, 3, 4]);
        assert_eq!(from(&reduced, 5), vec![4]);
        assert_eq!(from(&reduced, 4), vec![2, 3]);
        assert_eq!(from(&reduced, 3), vec![2]);
        assert!(reduced.implies(&full));
    }

    #[test]
    fn a_whole_register_write_orders_what_comes_after_it() {
        // A message header built in g6 again and again (as spilling does): each whole
        // write of g6 is what later accesses of g6 wait for, not every earlier access.
        let body: Vec<String> = (0..90)
            .map(|i| match i % 3 {
                0 => "    mov(8) g6<8;8,1>:UD, 0:UD { NoMask }".to_string(),
                1 => format!("    mov(1) g6.2<8;8,1>:UD, {i}:UD {{ NoMask }}"),
                _ => format!(
                    "    add(8) g{}<8;8,1>:UD, g6<8;8,1>:UD, g5<8;8,1>:UD",
                    40 + i % 7
                ),
            })
            .collect();
        let (reduced, full) = both(&body.join("\n"));
        let from = |g: &Graph, b: usize| g.preds(b).iter().map(|e| e.0).collect::<Vec<_>>();
        assert_eq!(from(&full, 9), vec![0, 1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(from(&reduced, 9), vec![6, 7, 8]);
        assert!(reduced.implies(&full));
    }

    #[test]
    fn fixed_grfs_after_allocation_meet_only_on_their_registers() {
        // After allocation every access is a fixed GRF above the payload: g40 and g41 are
        // independent, g40 and g88 share a key (40 = 88 mod 48) but no bytes.
        let body = "    mov(8) g40<8;8,1>:F, 1.0:F\n    mov(8) g41<8;8,1>:F, 2.0:F\n    \
                    add(8) g88<8;8,1>:F, g41<8;8,1>:F, 1.0:F\n    \
                    add(8) g42<8;8,1>:F, g40<8;8,1>:F, g88<8;8,1>:F";
        let (filtered, all) = both(body);
        assert_eq!(filtered, all);
        assert_eq!(filtered.pred_count(1), 0);
        assert_eq!(filtered.preds(2), &[(1, 2, 6)]);
        assert_eq!(filtered.preds(3), &[(0, 3, 6), (2, 3, 6)]);
    }
}
