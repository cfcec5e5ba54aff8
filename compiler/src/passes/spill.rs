//! Spilling (docs/hardware/brw-backend.md §8.4): a spilled VGRF lives in a scratch slot; every read fills a
//! fresh temporary first and every write goes to a temporary that is spilled after. Only
//! the registers an instruction reads or writes move (as Mesa spills `regs_read` /
//! `regs_written` at the operand's offset): a SIMD8 piece of a SIMD32 value moves one
//! register, not the value's four. Fills are NoMask (they must restore every channel's
//! bits, whatever the control flow); a spill of a partial or masked write first fills the
//! temporary so the untouched channels keep their old values, then writes everything back
//! NoMask.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::CompileOptions;
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, RegKind};
use crate::types::Type;

/// Registers per scratch message: 4 (one SIMD32 dword component).
const CHUNK_REGS: u32 = 4;

fn refers_to(r: &Reg, v: u32) -> bool {
    matches!(r.kind, RegKind::Vgrf { nr, .. } if nr == v)
}

/// Points `r` at temporary `to`, which holds the VGRF's registers from `first` on.
fn rebase(r: &mut Reg, to: u32, first: u32) {
    if let RegKind::Vgrf { nr, offset, .. } = &mut r.kind {
        *nr = to;
        *offset -= first * REG_SIZE;
    }
}

/// The registers `[first, end)` of a `regs`-register VGRF that operand `r` of an
/// instruction `exec` channels wide touches, moving `bytes` bytes: a strided operand
/// (a scratch write's data) spans more than the bytes its message moves.
fn reg_range(r: &Reg, exec: u32, bytes: u32, regs: u32) -> (u32, u32) {
    let RegKind::Vgrf { offset, .. } = r.kind else {
        return (0, regs);
    };
    let span = r.footprint(exec).map_or(0, |(a, b)| (b - a) as u32);
    let bytes = bytes.max(span);
    let first = (offset / REG_SIZE).min(regs - 1);
    let end = (offset + bytes.max(1))
        .div_ceil(REG_SIZE)
        .clamp(first + 1, regs);
    (first, end)
}

/// The registers of VGRF `v` that `inst`'s sources read.
fn read_range(inst: &Inst, v: u32, regs: u32) -> (u32, u32) {
    (0..inst.srcs.len())
        .filter(|&i| refers_to(&inst.srcs[i], v))
        .map(|i| {
            reg_range(
                &inst.srcs[i],
                inst.exec_size as u32,
                inst.size_read(i),
                regs,
            )
        })
        .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
        .unwrap_or((0, regs))
}

/// Scratch messages moving all of VGRF `t` to or from the slot at `slot`. With the
/// spill-fill-masked bug, fills take `like`'s channel mask when its width matches.
fn transfer(
    t: u32,
    regs: u32,
    slot: u32,
    write: bool,
    like: &Inst,
    opts: &CompileOptions,
) -> Vec<Inst> {
    let mut out = vec![];
    let mut done = 0;
    while done < regs {
        let left = (regs - done).min(CHUNK_REGS);
        let chunk = 1 << (31 - left.leading_zeros());
        let exec = (chunk * 8) as u8;
        let data = Reg::vgrf(t, Type::UD).byte_offset(done * REG_SIZE);
        let offset = Reg::imm_ud(slot + done * REG_SIZE);
        let mut inst = if write {
            Inst::new(
                Opcode::ScratchWrite,
                exec,
                Reg::null(Type::UD),
                vec![data, offset],
            )
        } else {
            Inst::new(Opcode::ScratchRead, exec, data, vec![offset])
        };
        if crate::zoo!(opts, SpillFillMasked) && !write && like.exec_size == exec {
            inst.group = like.group;
            inst.nomask = like.nomask;
        } else {
            inst.nomask = true;
        }
        out.push(inst);
        done += chunk;
    }
    out
}

/// Spills VGRFs `vs`. The result is exactly that of spilling them one after another in
/// this order (each VGRF's slot after the previous one's, its temporaries numbered after
/// the previous one's), built in one walk over the instructions instead of one per VGRF.
/// The temporaries (every VGRF numbered from the old count on) must never be spilled.
///
/// Spilling one after another puts, around each instruction, for every spilled VGRF in
/// order: its fill if the instruction reads it, then (if the instruction writes it) the
/// fill keeping untouched channels; the spill of the written temporary follows the
/// instruction. Fills and spills never mention a spilled VGRF, so later VGRFs leave them
/// alone.
pub fn spill(p: &mut Program, vs: &[u32], opts: &CompileOptions) {
    crate::pass::note("spill");
    let mut order: Vec<Option<usize>> = vec![None; p.vgrf_sizes.len()];
    for (j, &v) in vs.iter().enumerate() {
        // A repeated VGRF has nothing left to spill the second time (but takes a slot).
        order[v as usize].get_or_insert(j);
    }
    let which = |r: &Reg| match r.kind {
        RegKind::Vgrf { nr, .. } => order.get(nr as usize).copied().flatten(),
        _ => None,
    };
    let insts = p.take_insts();
    let mut involved = vec![];
    let mut temps = vec![0u32; vs.len()];
    for inst in &insts {
        reads(inst, &which, &mut involved);
        involved.extend(which(&inst.dst));
        for &j in &involved {
            temps[j] += 1;
        }
    }
    let mut slots = Vec::with_capacity(vs.len());
    let mut next_temp = Vec::with_capacity(vs.len());
    for (j, &v) in vs.iter().enumerate() {
        let regs = p.vgrf_sizes[v as usize];
        let slot = p.scratch_size.next_multiple_of(REG_SIZE);
        p.scratch_size = slot + regs * REG_SIZE;
        slots.push(slot);
        next_temp.push(p.vgrf_sizes.len() as u32);
        for _ in 0..temps[j] {
            p.alloc_vgrf(regs);
        }
    }
    let mut out = Vec::with_capacity(insts.len() * 2);
    let mut read = vec![];
    for mut inst in insts {
        reads(&inst, &which, &mut read);
        let written = which(&inst.dst);
        involved.clear();
        involved.extend(read.iter().copied().chain(written));
        involved.sort_unstable();
        involved.dedup();
        let mut spill_after = vec![];
        for &j in &involved {
            let (v, slot) = (vs[j], slots[j]);
            let regs = p.vgrf_sizes[v as usize];
            if read.contains(&j) {
                crate::pass::note("fill");
                let t = next_temp[j];
                next_temp[j] += 1;
                let (first, end) = read_range(&inst, v, regs);
                p.vgrf_sizes[t as usize] = end - first;
                let at = slot + first * REG_SIZE;
                out.extend(transfer(t, end - first, at, false, &inst, opts));
                for s in inst.srcs.iter_mut().filter(|s| refers_to(s, v)) {
                    rebase(s, t, first);
                }
            }
            if written == Some(j) {
                let t = next_temp[j];
                next_temp[j] += 1;
                let exec = inst.exec_size as u32;
                let (first, end) = reg_range(&inst.dst, exec, inst.size_written(), regs);
                p.vgrf_sizes[t as usize] = end - first;
                let at = slot + first * REG_SIZE;
                let whole = matches!(inst.dst.kind, RegKind::Vgrf { offset, stride: 1, .. } if offset % REG_SIZE == 0)
                    && inst.size_written() >= (end - first) * REG_SIZE;
                if inst.is_partial_write() || !inst.nomask || !whole {
                    crate::pass::note("spill-keeps-untouched-channels");
                    out.extend(transfer(t, end - first, at, false, &inst, opts));
                }
                rebase(&mut inst.dst, t, first);
                spill_after = transfer(t, end - first, at, true, &inst, opts);
            }
        }
        out.push(inst);
        out.extend(spill_after);
    }
    p.set_insts(out);
}

/// The spills (indices into the spill list) whose VGRF `inst` reads, each once, into `out`.
fn reads(inst: &Inst, which: &impl Fn(&Reg) -> Option<usize>, out: &mut Vec<usize>) {
    out.clear();
    for j in inst.srcs.iter().filter_map(which) {
        if !out.contains(&j) {
            out.push(j);
        }
    }
}
