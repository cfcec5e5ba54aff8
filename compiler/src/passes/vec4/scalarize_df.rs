//! `scalarize_df` (docs/hardware/fp64-align16.md §1.6, §2): splits every Align16 double-precision
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
//!
//! Two cases Mesa's pass does not meet in the IR NIR gives it, and this one must: an
//! instruction reading its own destination splits into a temporary first (the copies run
//! in turn), and an instruction writing the flag is not split at all (each copy would write
//! every channel's flag) — its unsupported sources are resolved into temporaries instead.

use super::bytes::{overlap, read, written};
use super::df_region::is_supported_64bit_region;
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{Reg, Swizzle, WriteMask};

/// Rewrite kinds this pass notes, most specific first.
const REWRITES: &[&str] = &[
    "scalarize-around-flag-write",
    "scalarize-through-temporary",
    "scalarize-writemask-xy-zw",
    "scalarize-swizzle",
];

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

/// Whether a source of `inst` reads bytes its destination writes: the copies run one after
/// another, so an early copy would change what a later one reads.
fn reads_own_destination(inst: &Inst) -> bool {
    let writes = written(inst);
    inst.srcs
        .iter()
        .filter_map(|s| read(inst, s))
        .any(|r| writes.iter().any(|&w| overlap(w, r)))
}

/// The copies of `inst` write a fresh dvec4 temporary (with its writemask), and a move —
/// split itself if its writemask is .xy/.zw — carries the result to the destination under
/// the instruction's predicate.
fn split_through_temporary(p: &mut Program, inst: &Inst) -> Vec<Inst> {
    let tmp = crate::passes::temp(p, inst.dst.ty, inst.exec_size as u32 * inst.dst.ty.size());
    let mut into_tmp = inst.clone();
    into_tmp.dst = tmp.masked(inst.dst.writemask.0);
    into_tmp.predicate = None;
    let mut out = split(&into_tmp);
    let mut mov = Inst::new(Opcode::Mov, inst.exec_size, inst.dst, vec![tmp]).with_align16();
    mov.group = inst.group;
    mov.nomask = inst.nomask;
    mov.predicate = inst.predicate;
    mov.flag_subreg = inst.flag_subreg;
    if is_xy_or_zw(inst.dst.writemask) {
        out.extend(split(&mov));
    } else {
        out.push(mov);
    }
    out
}

/// An instruction that also writes the flag cannot be split per component: each copy
/// would write the flag of every channel, and an Align16 writemask leaves the masked
/// channels' flag bits undefined (the emulator's reading of what no document states). Its
/// unsupported sources are resolved into dvec4 temporaries by split moves instead, and an
/// .xy/.zw destination is written whole into a temporary and moved by split moves; the
/// instruction itself then runs whole on supported regions.
fn split_around_flag_write(p: &mut Program, inst: &Inst, opts: &CompileOptions) -> Vec<Inst> {
    let info = p.device.info();
    let mut out = vec![];
    let mut whole = inst.clone();
    for arg in 0..inst.srcs.len() {
        let s = inst.srcs[arg];
        if s.ty.size() != 8 || s.is_imm() || s.is_null() {
            continue;
        }
        if is_supported_64bit_region(inst, arg, info, opts) {
            continue;
        }
        let tmp = crate::passes::temp(p, s.ty, inst.exec_size as u32 * 8);
        let bare = Reg {
            negate: false,
            abs: false,
            ..s
        };
        let mut mov = Inst::new(Opcode::Mov, inst.exec_size, tmp, vec![bare]).with_align16();
        mov.group = inst.group;
        mov.nomask = inst.nomask;
        out.extend(split(&mov));
        whole.srcs[arg] = Reg {
            negate: s.negate,
            abs: s.abs,
            ..tmp
        };
    }
    if is_xy_or_zw(inst.dst.writemask) && !crate::zoo!(opts, DfWritemaskXyKept) {
        let tmp = crate::passes::temp(p, inst.dst.ty, inst.exec_size as u32 * 8);
        let mut mov = Inst::new(Opcode::Mov, inst.exec_size, inst.dst, vec![tmp]).with_align16();
        mov.group = inst.group;
        mov.nomask = inst.nomask;
        mov.predicate = inst.predicate;
        mov.flag_subreg = inst.flag_subreg;
        whole.dst = tmp;
        out.push(whole);
        out.extend(split(&mov));
    } else {
        out.push(whole);
    }
    out
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "scalarize_df",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; progress when an instruction was split. An instruction that already
/// writes one component with a replicated swizzle splits into itself: it stays, and is no
/// progress (the pass manager's progress contract, docs/validator.md).
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    let mut out = vec![];
    for inst in p.take_insts() {
        match reason(&inst, p, opts) {
            Some(kind) => {
                if inst.writes_flag() {
                    note(kind);
                    note("scalarize-around-flag-write");
                    out.extend(split_around_flag_write(p, &inst, opts));
                } else if reads_own_destination(&inst) {
                    note(kind);
                    note("scalarize-through-temporary");
                    out.extend(split_through_temporary(p, &inst));
                } else {
                    let pieces = split(&inst);
                    if pieces.len() == 1 && pieces[0] == inst {
                        out.push(inst);
                        continue;
                    }
                    note(kind);
                    out.extend(pieces);
                }
                progress = true;
            }
            None => out.push(inst),
        }
    }
    p.set_insts(out);
    Ok(progress)
}
