//! Spilling (brw-backend.md §8.4): a spilled VGRF lives in a scratch slot; every read fills a
//! fresh temporary first and every write goes to a temporary that is spilled after. Fills
//! are NoMask (they must restore every channel's bits, whatever the control flow); a spill
//! of a partial or masked write first fills the temporary so the untouched channels keep
//! their old values, then writes everything back NoMask.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pipeline::CompileOptions;
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, RegKind};
use crate::types::Type;

/// Registers per scratch message: 4 (one SIMD32 dword component).
const CHUNK_REGS: u32 = 4;

fn refers_to(r: &Reg, v: u32) -> bool {
    matches!(r.kind, RegKind::Vgrf { nr, .. } if nr == v)
}

fn renumber(r: &mut Reg, to: u32) {
    if let RegKind::Vgrf { nr, .. } = &mut r.kind {
        *nr = to;
    }
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

/// Spills VGRFs `vs`, one after another in this order. The temporaries it creates (every
/// VGRF numbered from the old count on) must never be spilled.
pub fn spill(p: &mut Program, vs: &[u32], opts: &CompileOptions) {
    // One flat instruction list for all of them: re-splitting blocks after each VGRF
    // would only be undone by the next.
    let mut insts = p.take_insts();
    for &v in vs {
        insts = spill_one(p, insts, v, opts);
    }
    p.set_insts(insts);
}

/// Spills VGRF `v` in `insts` (the program's instructions, taken out of its blocks).
fn spill_one(p: &mut Program, insts: Vec<Inst>, v: u32, opts: &CompileOptions) -> Vec<Inst> {
    let regs = p.vgrf_sizes[v as usize];
    let slot = p.scratch_size.next_multiple_of(REG_SIZE);
    p.scratch_size = slot + regs * REG_SIZE;
    let mut out = Vec::with_capacity(insts.len() * 2);
    for mut inst in insts {
        if inst.srcs.iter().any(|s| refers_to(s, v)) {
            let t = p.alloc_vgrf(regs);
            out.extend(transfer(t, regs, slot, false, &inst, opts));
            for s in inst.srcs.iter_mut().filter(|s| refers_to(s, v)) {
                renumber(s, t);
            }
        }
        if refers_to(&inst.dst, v) {
            let t = p.alloc_vgrf(regs);
            let whole = matches!(
                inst.dst.kind,
                RegKind::Vgrf {
                    offset: 0,
                    stride: 1,
                    ..
                }
            ) && inst.size_written() >= regs * REG_SIZE;
            if inst.is_partial_write() || !inst.nomask || !whole {
                out.extend(transfer(t, regs, slot, false, &inst, opts));
            }
            renumber(&mut inst.dst, t);
            let spill_after = transfer(t, regs, slot, true, &inst, opts);
            out.push(inst);
            out.extend(spill_after);
            continue;
        }
        out.push(inst);
    }
    out
}
