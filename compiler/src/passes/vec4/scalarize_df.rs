//! `scalarize_df` (fp64-align16.md §1.6, §2): splits every Align16 double-precision
//! instruction that hardware cannot run whole into one instruction per written component.
//! Hardware reads a DF Align16 source as 2-wide rows through 32-bit swizzle pairs, so only
//! the swizzles of §1.5 can be encoded; and a DF writemask of exactly .xy or .zw has no
//! documented encoding (§2), so such an instruction is always split, whatever its swizzles.
//!
//! A split copy keeps every field (exec size, group, saturate, modifiers, predicate); its
//! writemask is the one component `c` and every source (32- or 64-bit) reads its component
//! `c` replicated, a single-valued swizzle that the Gen7 VertStride-0 rows reach (§1.4).
//! Mesa turns a normal predicate into ALIGN16_REPLICATE_c; here the copy writes only
//! component `c` of each vertex, whose own flag bit the normal predicate already selects.
//! The Align1 DF opcodes (PICK/SET) are left alone.

use super::df_region::is_supported_64bit_region;
use crate::inst::Inst;
use crate::pipeline::{CompileOptions, note};
use crate::program::Program;
use crate::reg::{Swizzle, WriteMask};

/// Rewrite kinds this pass notes, most specific first.
pub const REWRITES: &[&str] = &["scalarize-writemask-xy-zw", "scalarize-swizzle"];

fn is_double(inst: &Inst) -> bool {
    std::iter::once(&inst.dst)
        .chain(&inst.srcs)
        .any(|r| r.ty.size() == 8 && !r.is_null())
}

/// Whether the writemask is exactly .xy or .zw (§2).
fn is_xy_or_zw(mask: WriteMask) -> bool {
    matches!(mask.0 & 0xf, 0b0011 | 0b1100)
}

/// Why `inst` must be split, if it must.
fn reason(inst: &Inst, p: &Program, opts: &CompileOptions) -> Option<&'static str> {
    if !inst.is_align16() || inst.op.is_dword_half_move() || !is_double(inst) {
        return None;
    }
    let info = p.device.info();
    if is_xy_or_zw(inst.dst.writemask) && !crate::zoo!(opts, DfWritemaskXyKept) {
        return Some("scalarize-writemask-xy-zw");
    }
    let unsupported = (0..inst.srcs.len()).any(|arg| {
        let s = &inst.srcs[arg];
        s.ty.size() == 8
            && !s.is_imm()
            && !s.is_null()
            && !is_supported_64bit_region(inst, arg, info, opts)
    });
    unsupported.then_some("scalarize-swizzle")
}

/// One copy of `inst` per component its writemask enables.
fn split(inst: &Inst) -> Vec<Inst> {
    (0..4u8)
        .filter(|&c| inst.dst.writemask.enables(c as u32))
        .map(|c| {
            let mut copy = inst.clone();
            copy.dst = copy.dst.masked(1 << c);
            for s in copy.srcs.iter_mut().filter(|s| !s.is_imm() && !s.is_null()) {
                s.swizzle = Swizzle::replicate(s.swizzle.comp(c as u32));
            }
            copy
        })
        .collect()
}

/// Runs the pass; progress when an instruction was split.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, String> {
    let mut progress = false;
    let mut blocks = std::mem::take(&mut p.blocks);
    for block in &mut blocks {
        let mut out = Vec::with_capacity(block.insts.len());
        for inst in block.insts.drain(..) {
            match reason(&inst, p, opts) {
                Some(kind) => {
                    note(kind);
                    progress = true;
                    out.extend(split(&inst));
                }
                None => out.push(inst),
            }
        }
        block.insts = out;
    }
    p.blocks = blocks;
    Ok(progress)
}
