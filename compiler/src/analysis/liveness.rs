//! Live intervals of VGRFs over the linear program, from per-register (32-byte) liveness
//! extended across block boundaries. A write kills only the registers it covers completely
//! (unpredicated, contiguous), so a value assembled piece by piece is not live before its
//! first piece. Following the physical edges as well as the logical ones keeps a value alive
//! through a whole divergent loop when channels that broke out still need it (Mesa
//! 4d1959e6932); without them a later iteration's NoMask write may reuse its register.

use crate::cfg::{Cfg, EdgeKind};
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, RegKind};

/// `[start, end]` ip of each VGRF, `None` if it is never used.
pub type Intervals = Vec<Option<(usize, usize)>>;

/// Bytes `[start, end)` of its VGRF an operand touches, as the validator counts them.
fn range(inst: &Inst, r: &Reg, payload: Option<u32>) -> Option<(u32, (u64, u64))> {
    let RegKind::Vgrf { nr, .. } = r.kind else {
        return None;
    };
    let (s, e) = r.footprint(inst.exec_size as u32)?;
    Some((
        nr,
        match payload {
            Some(bytes) => (s, s + bytes as u64),
            None => (s, e),
        },
    ))
}

fn payload_sized(inst: &Inst, src: Option<usize>) -> bool {
    match (inst.op, src) {
        (Opcode::LoadPayload, Some(i)) => i < inst.header_size as usize,
        (Opcode::LoadPayload, None) => true,
        (op, _) => op.is_message(),
    }
}

fn reads(inst: &Inst) -> impl Iterator<Item = (u32, (u64, u64))> + '_ {
    inst.srcs.iter().enumerate().filter_map(|(i, s)| {
        range(
            inst,
            s,
            payload_sized(inst, Some(i)).then(|| inst.size_read(i)),
        )
    })
}

fn write(inst: &Inst) -> Option<(u32, (u64, u64))> {
    range(
        inst,
        &inst.dst,
        payload_sized(inst, None).then(|| inst.size_written()),
    )
}

/// Whether the write overwrites every byte of its range (so fully covered registers die).
fn kills(inst: &Inst) -> bool {
    let contiguous = matches!(inst.dst.kind, RegKind::Vgrf { stride: 1, .. });
    contiguous && (inst.predicate.is_none() || inst.op == Opcode::Sel)
}

struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }
    /// The set bits, ascending.
    fn members(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
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
}

/// Live intervals; `physical` says whether to follow physical CFG edges too.
pub fn intervals(p: &Program, physical: bool) -> Intervals {
    let sizes = &p.vgrf_sizes;
    let n = sizes.len();
    let mut first = Vec::with_capacity(n + 1);
    let mut total = 0usize;
    for &s in sizes {
        first.push(total);
        total += s as usize;
    }
    let first = &first;
    let regs_of = |v: u32, (s, e): (u64, u64)| {
        let v = v as usize;
        let size = sizes.get(v).copied().unwrap_or(0) as u64;
        let lo = (s / REG_SIZE as u64).min(size);
        let hi = e.div_ceil(REG_SIZE as u64).min(size);
        (lo..hi).map(move |r| first[v] + r as usize)
    };
    let owner: Vec<usize> = (0..n)
        .flat_map(|v| std::iter::repeat_n(v, sizes[v] as usize))
        .collect();
    let nb = p.blocks.len();
    let cfg = Cfg::build(p);
    let mut out: Intervals = vec![None; n];
    let touch = |v: usize, ip: usize, out: &mut Intervals| {
        out[v] = Some(match out[v] {
            None => (ip, ip),
            Some((s, e)) => (s.min(ip), e.max(ip)),
        });
    };
    let mut uses = Vec::with_capacity(nb);
    let mut defs = Vec::with_capacity(nb);
    let mut bounds = vec![];
    let mut ip = 0;
    for block in &p.blocks {
        let mut u = Bits::new(total);
        let mut d = Bits::new(total);
        let start = ip;
        for inst in &block.insts {
            for (v, span) in reads(inst).filter(|(v, _)| (*v as usize) < n) {
                for r in regs_of(v, span) {
                    if !d.get(r) {
                        u.set(r);
                    }
                }
                touch(v as usize, ip, &mut out);
            }
            if let Some((v, (s, e))) = write(inst).filter(|(v, _)| (*v as usize) < n) {
                touch(v as usize, ip, &mut out);
                if kills(inst) {
                    let full = (s.div_ceil(REG_SIZE as u64), e / REG_SIZE as u64);
                    for r in regs_of(v, (full.0 * REG_SIZE as u64, full.1 * REG_SIZE as u64)) {
                        d.set(r);
                    }
                }
            }
            ip += 1;
        }
        bounds.push((start, ip.saturating_sub(1).max(start)));
        uses.push(u);
        defs.push(d);
    }
    let mut live_in: Vec<Bits> = (0..nb).map(|_| Bits::new(total)).collect();
    let mut live_out: Vec<Bits> = (0..nb).map(|_| Bits::new(total)).collect();
    // One pair of buffers for every block and iteration.
    let mut o = Bits::new(total);
    let mut i = Bits::new(total);
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            o.0.fill(0);
            for e in &cfg.succs[b] {
                if e.kind == EdgeKind::Logical || physical {
                    for (w, x) in o.0.iter_mut().zip(&live_in[e.to].0) {
                        *w |= x;
                    }
                }
            }
            for (((w, o), d), u) in i.0.iter_mut().zip(&o.0).zip(&defs[b].0).zip(&uses[b].0) {
                *w = o & !d | u;
            }
            if i.0 != live_in[b].0 || o.0 != live_out[b].0 {
                changed = true;
                live_in[b].0.copy_from_slice(&i.0);
                live_out[b].0.copy_from_slice(&o.0);
            }
        }
    }
    for (b, &(start, end)) in bounds.iter().enumerate() {
        for r in live_in[b].members() {
            touch(owner[r], start, &mut out);
        }
        for r in live_out[b].members() {
            touch(owner[r], end, &mut out);
        }
    }
    out
}
