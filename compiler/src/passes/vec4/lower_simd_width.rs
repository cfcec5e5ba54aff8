//! The vec4 `lower_simd_width` (docs/hardware/fp64-align16.md §4, §8): splits the instructions Gen7
//! cannot run at their width into exec-4 pieces, one vertex each, so the generator gives
//! each piece its own NibCtrl channel enables.
//!
//! On Gen7, an instruction writing more than one GRF is split when it is a DF SEL (the
//! compressed form misreads its predicate) or when a source reads one GRF or less (HSW
//! PRM: a two-register destination needs two-register sources): every DF instruction with
//! a uniform or immediate operand, and every 32→64-bit conversion. Ivybridge splits every
//! instruction with a 64-bit execution or destination type (it has no exec-8 DF).
//!
//! Piece `n` runs channels `group + 4n ..`: its destination and sources move on by four
//! channels, except uniforms and immediates, which every vertex reads alike. When the
//! destination overlaps a source, a piece could overwrite what a later piece reads, so each
//! piece writes a fresh temporary (initialised from the destination for SET_LOW/HIGH, which
//! write half of each element) and moves copy the temporaries to the destination after all
//! pieces have run.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{Reg, RegKind};

/// Rewrite kinds this pass notes, most specific first.
const REWRITES: &[&str] = &[
    "split-uniform-source",
    "split-overlap-temp",
    "split-df-sel",
    "split-single-grf-source",
    "split-ivb-df",
];

/// The width `inst` must run at on this device, with the reason when it is narrower.
fn lowered_width(inst: &Inst, p: &Program) -> (u32, Option<&'static str>) {
    let exec = inst.exec_size as u32;
    let info = p.device.info();
    let gen7 = info.verx10 / 10 == 7;
    let is_df = |t: crate::types::Type| t.size() == 8;
    let double = is_df(inst.dst.ty) || inst.srcs.iter().any(|s| is_df(s.ty));
    if exec <= 4 {
        return (exec, None);
    }
    // Mesa sizes a null destination by its type too (a DF compare writes "64 bytes").
    let written = if inst.dst.is_null() {
        exec * inst.dst.ty.size()
    } else {
        inst.size_written()
    };
    if gen7 && written > crate::reg::REG_SIZE {
        if inst.op == Opcode::Sel && double {
            return (4, Some("split-df-sel"));
        }
        let narrow = (0..inst.srcs.len())
            .any(|i| !inst.srcs[i].is_null() && inst.size_read(i) <= crate::reg::REG_SIZE);
        if narrow {
            return (4, Some("split-single-grf-source"));
        }
    }
    if info.verx10 == 70 && (is_df(crate::hw::exec_type(inst)) || is_df(inst.dst.ty)) {
        return (4, Some("split-ivb-df"));
    }
    (exec.min(16), None)
}

/// Whether `a` and `b` touch common bytes of one VGRF when `n` channels access them.
fn overlaps(a: &Reg, b: &Reg, n: u32) -> bool {
    let (RegKind::Vgrf { nr: x, .. }, RegKind::Vgrf { nr: y, .. }) = (a.kind, b.kind) else {
        return false;
    };
    match (a.footprint(n), b.footprint(n)) {
        (Some((s1, e1)), Some((s2, e2))) => x == y && s1 < e2 && s2 < e1,
        _ => false,
    }
}

/// Source `src` of piece `n` of width `w`: uniforms and immediates are read by every
/// vertex alike and stay put.
fn piece_src(src: &Reg, w: u32, n: u32, opts: &CompileOptions) -> Reg {
    if matches!(src.kind, RegKind::Uniform { .. }) && crate::zoo!(opts, DfSplitOffsetsUniform) {
        return src.byte_offset(w * n * src.ty.size());
    }
    if src.is_uniform() {
        *src
    } else {
        src.horiz_offset(w * n)
    }
}

/// A move of `w` channels from `src` to `dst` in `like`'s access mode, group and mask.
fn copy(like: &Inst, w: u32, group: u8, dst: Reg, src: Reg) -> Inst {
    let mut m = Inst::new(Opcode::Mov, w as u8, dst, vec![src]);
    m.group = group;
    m.nomask = like.nomask;
    m.access_mode = like.access_mode;
    m
}

/// The pieces of `inst` at width `w`.
fn split(p: &mut Program, inst: &Inst, w: u32, opts: &CompileOptions) -> Vec<Inst> {
    let exec = inst.exec_size as u32;
    let via_temp = inst.srcs.iter().any(|s| overlaps(&inst.dst, s, exec));
    if via_temp {
        note("split-overlap-temp");
    }
    // Every piece reads a uniform where the whole instruction did: the rule for uniform
    // sources (`piece_src`) decides where.
    if inst
        .srcs
        .iter()
        .any(|s| matches!(s.kind, RegKind::Uniform { .. }))
    {
        note("split-uniform-source");
    }
    let mut out = vec![];
    let mut copies = vec![];
    for n in 0..exec / w {
        let group = inst.group + (w * n) as u8;
        let mut piece = inst.clone();
        piece.exec_size = w as u8;
        piece.group = group;
        piece.srcs = inst.srcs.iter().map(|s| piece_src(s, w, n, opts)).collect();
        let dst = inst.dst.horiz_offset(w * n);
        if via_temp {
            let bytes = w * crate::passes::byte_stride(&inst.dst).max(inst.dst.ty.size());
            let tmp = crate::passes::temp(p, inst.dst.ty, bytes);
            let tmp = Reg {
                writemask: dst.writemask,
                ..tmp
            };
            let whole = |r: Reg| r.masked(0xf);
            if inst.op.is_dword_half_set() {
                out.push(copy(inst, w, group, whole(tmp), whole(dst)));
            }
            piece.dst = tmp;
            let mut back = copy(inst, w, group, dst, whole(tmp));
            back.predicate = inst.predicate;
            back.flag_subreg = inst.flag_subreg;
            copies.push(back);
        } else {
            piece.dst = dst;
        }
        out.push(piece);
    }
    out.extend(copies);
    out
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "vec4_lower_simd_width",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; progress when an instruction was split.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    let mut out = vec![];
    for inst in p.take_insts() {
        let skip = inst.op.is_control_flow() || inst.op.is_message() || inst.op == Opcode::Nop;
        let (w, why) = lowered_width(&inst, p);
        match why {
            Some(kind) if !skip && w < inst.exec_size as u32 => {
                note(kind);
                progress = true;
                out.extend(split(p, &inst, w, opts));
            }
            _ => out.push(inst),
        }
    }
    p.set_insts(out);
    Ok(progress)
}
