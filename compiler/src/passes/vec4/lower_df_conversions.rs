//! The Gen7 vec4 conversions to and from double (docs/hardware/fp64-align16.md §5.2): Gen7 converts
//! between DF and 32-bit types only in Align1, where no swizzle or writemask exists, so an
//! Align16 conversion `mov dst.mask:T, src.swz:S` (one of T, S is DF) becomes
//!
//! * d2f/d2i/d2u: an Align16 DF move of the swizzled source into a dvec4 temporary; an
//!   Align1 DOUBLE_TO_x move into a second dvec4 temporary with destination stride 2 (the
//!   result in the low dword of each 8-byte slot); PICK_LOW_32BIT gathering the low dwords
//!   into a 32-bit vec4; an Align16 move into the real destination with its writemask,
//!   saturate, predicate and condition.
//! * f2d/i2d/u2d: an Align16 32-bit move of the swizzled source into a temporary; an
//!   Align1 TO_DOUBLE move into a dvec4 temporary (split to exec 4 later, §4 rule 3); an
//!   Align16 DF move into the real destination.
//!
//! Mesa emits these sequences while translating NIR; here they are a pass that runs first.
//! The stride-2 DOUBLE_TO_x form is Haswell's; Ivybridge's stride-1 form (each result
//! implicitly two slots wide) is an encoding detail this IR does not model, so both
//! generations get the same sequence.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, Swizzle};
use crate::types::Type;

/// Rewrite kinds this pass notes.
const REWRITES: &[&str] = &["from-double", "to-double"];

/// Whether `inst` is an Align16 conversion between DF and a 32-bit type.
fn is_df_conversion(inst: &Inst) -> bool {
    let [src] = inst.srcs.as_slice() else {
        return false;
    };
    let sizes = (inst.dst.ty.size(), src.ty.size());
    inst.op == Opcode::Mov
        && inst.is_align16()
        && !inst.dst.is_null()
        && !src.is_imm()
        && matches!(sizes, (4, 8) | (8, 4))
}

/// A plain (unpredicated, unmodified) instruction of `like`'s width, group and mask.
fn step(like: &Inst, op: Opcode, dst: Reg, src: Reg, align16: bool) -> Inst {
    let mut i = Inst::new(op, like.exec_size, dst, vec![src]);
    i.group = like.group;
    i.nomask = like.nomask;
    if align16 {
        i = i.with_align16();
    }
    i
}

/// `inst` with its source replaced by `src` (identity swizzle): the final Align16 move
/// that keeps the writemask, saturate, predicate and condition.
fn last(inst: &Inst, src: Reg) -> Inst {
    let mut m = inst.clone();
    m.srcs = vec![src];
    m
}

fn dvec4_temp(p: &mut Program, inst: &Inst) -> Reg {
    let bytes = inst.exec_size as u32 * 8;
    crate::passes::temp(p, Type::DF, bytes.max(REG_SIZE))
}

/// The sequence for a conversion from DF (§5.2 `emit_conversion_from_double`).
fn from_double(p: &mut Program, inst: &Inst) -> Vec<Inst> {
    let src = inst.srcs[0];
    let resolved = dvec4_temp(p, inst);
    let converted = dvec4_temp(p, inst);
    let n = inst.exec_size as u32;
    let picked = crate::passes::temp(p, Type::UD, n * 4);
    let to = inst.dst.ty;
    vec![
        step(inst, Opcode::Mov, resolved, src.retype(Type::DF), true),
        step(
            inst,
            Opcode::Mov,
            converted.retype(to).with_stride(2),
            resolved,
            false,
        ),
        step(inst, Opcode::PickLow32, picked, converted, false),
        last(inst, picked.retype(to).swizzled(Swizzle::XYZW)),
    ]
}

/// The sequence for a conversion to DF (§5.2 `emit_conversion_to_double`).
fn to_double(p: &mut Program, inst: &Inst) -> Vec<Inst> {
    let src = inst.srcs[0];
    let n = inst.exec_size as u32;
    let resolved = crate::passes::temp(p, src.ty, n * 4);
    let converted = dvec4_temp(p, inst);
    vec![
        step(inst, Opcode::Mov, resolved, src, true),
        step(inst, Opcode::Mov, converted, resolved, false),
        last(inst, converted),
    ]
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "lower_df_conversions",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; progress when a conversion was expanded.
pub fn run(p: &mut Program, _: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    let mut out = vec![];
    for inst in p.take_insts() {
        if !is_df_conversion(&inst) {
            out.push(inst);
            continue;
        }
        progress = true;
        if inst.dst.ty.size() == 4 {
            note("from-double");
            out.extend(from_double(p, &inst));
        } else {
            note("to-double");
            out.extend(to_double(p, &inst));
        }
    }
    p.set_insts(out);
    Ok(progress)
}
