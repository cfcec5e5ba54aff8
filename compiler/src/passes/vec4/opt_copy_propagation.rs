//! The vec4 `opt_copy_propagation` (docs/hardware/fp64-align16.md §6): within a block, a source reading
//! the result of an earlier plain Align16 copy reads the copy's source instead, the two
//! swizzles composed. Each of §6's rejections is a predicate of `restrictions`; a copy is
//! retired when its destination or its source is written again.
//!
//! Copies are unpredicated, unsaturated MOVs without a condition or source modifiers that
//! write a whole, register-aligned VGRF value of their source's type. A use takes one when
//! it is a source of an Align16 instruction of the same exec size, group and NoMask that
//! reads exactly the copy's destination. (PICK/SET and the Align1 conversions are never
//! uses here, so §6's two rules for them have nothing to apply to.)

use super::bytes::{overlap, read, written};
use super::restrictions as r;
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{Reg, RegKind, Swizzle};

/// Rewrite kinds this pass notes, most specific first.
const REWRITES: &[&str] = &["propagate-uniform", "propagate-constant", "propagate-copy"];

/// Whether `inst` is a copy whose destination may stand for its source.
fn is_copy(inst: &Inst) -> bool {
    let [src] = inst.srcs.as_slice() else {
        return false;
    };
    inst.op == Opcode::Mov
        && inst.is_align16()
        && inst.predicate.is_none()
        && inst.cmod.is_none()
        && !inst.saturate
        && !inst.acc_wr
        && inst.dst.writemask.is_full()
        && !src.negate
        && !src.abs
        && src.ty == inst.dst.ty
        && matches!(inst.dst.kind, RegKind::Vgrf { offset, .. } if offset % crate::reg::REG_SIZE == 0)
        && read(inst, src).is_none_or(|s| written(inst).iter().all(|&w| !overlap(w, s)))
}

/// `copy`'s source as source `arg` of `inst` would read it, if every §6 rule allows.
fn propagated(inst: &Inst, arg: usize, copy: &Inst, generation: u32) -> Option<Reg> {
    let use_ = &inst.srcs[arg];
    let value = &copy.srcs[0];
    let same_channels = copy.exec_size == inst.exec_size
        && copy.group == inst.group
        && (copy.nomask || !inst.nomask);
    let reads_copy = use_.kind == copy.dst.kind && inst.is_align16();
    let allowed = same_channels
        && reads_copy
        && r::copy_prop_reads_one_aligned_grf(inst, arg)
        && r::copy_prop_uniform_into_multi_grf(inst, value, generation)
        && r::copy_prop_uniform_32bit_into_exec4(inst, value)
        && r::copy_prop_same_type_size(use_, value)
        && r::copy_prop_register_aligned(use_, value)
        && r::const_prop_not_64bit(use_, value)
        && (!value.is_imm() || value.ty == use_.ty);
    if !allowed {
        return None;
    }
    let composed = Swizzle::new(use_.swizzle.comps().map(|k| value.swizzle.comp(k as u32)));
    let swizzle = if value.is_imm() {
        Swizzle::XYZW
    } else {
        composed
    };
    Some(Reg {
        negate: use_.negate,
        abs: use_.abs,
        swizzle,
        ty: use_.ty,
        ..*value
    })
}

/// Puts immediate `value` in place of source `arg` of `inst`, where the encoding has room
/// for it (docs/hardware/eu-hardware.md §3.3): the only source, or src1 of a two-source
/// instruction; src0 of one only by trading its two sources (`swap_immediate_into_src1`)
/// when src1 is no immediate. Returns false, leaving `inst` alone, anywhere else (a
/// three-source instruction takes none): the copy stays.
fn place_immediate(inst: &mut Inst, arg: usize, value: Reg) -> bool {
    match (inst.srcs.len(), arg) {
        (1, 0) => inst.srcs[0] = value,
        (2, 1) if !inst.op.is_3src() => inst.srcs[1] = value,
        (2, 0) if !inst.op.is_3src() && !inst.srcs[1].is_imm() => {
            let mut swapped = inst.clone();
            swapped.srcs[0] = value;
            if !crate::passes::swap_immediate_into_src1(&mut swapped) {
                return false;
            }
            *inst = swapped;
        }
        _ => return false,
    }
    true
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "vec4_opt_copy_propagation",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; progress when a source was replaced.
pub fn run(p: &mut Program, _: &CompileOptions) -> Result<bool, PassError> {
    let generation = p.device.info().verx10 / 10;
    let mut progress = false;
    for block in &mut p.blocks {
        let mut copies: Vec<Inst> = vec![];
        for inst in block.insts.iter_mut() {
            for arg in 0..inst.srcs.len() {
                let found = copies
                    .iter()
                    .find_map(|c| propagated(inst, arg, c, generation));
                let Some(value) = found else { continue };
                let placed = if value.is_imm() {
                    place_immediate(inst, arg, value)
                } else {
                    inst.srcs[arg] = value;
                    true
                };
                if placed {
                    note(if value.is_imm() {
                        "propagate-constant"
                    } else if value.is_uniform() {
                        "propagate-uniform"
                    } else {
                        "propagate-copy"
                    });
                    progress = true;
                }
            }
            let writes = written(inst);
            copies.retain(|c| {
                let touched = written(c)
                    .into_iter()
                    .chain(read(c, &c.srcs[0]))
                    .any(|x| writes.iter().any(|&w| overlap(w, x)));
                !touched
            });
            if is_copy(inst) {
                copies.push(inst.clone());
            }
        }
    }
    Ok(progress)
}
