//! `opt_copy_propagation` (brw-backend.md §7.1 step 4): reads of a MOV's destination are
//! rewritten to read the MOV's source, so the MOV becomes dead for DCE.
//!
//! This version is local (per basic block) and propagates register copies only, not
//! immediates: within a block the execution mask does not change (blocks end at every
//! control-flow instruction, §9.1), so a copy seen earlier in the block still holds for
//! every channel that runs a later instruction of the same block — which sidesteps the
//! divergent-loop NoMask hazard of §11.12 (Mesa d4015bcb388) that global propagation must
//! handle. A copy is available from the MOV until either side is written again.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pipeline::{CompileOptions, note};
use crate::program::Program;
use crate::reg::{Reg, RegKind};

/// The rewrites this pass notes, most specific first (see `passes::rewrite_kinds`).
pub const REWRITES: &[&str] = &["copy-from-attr", "copy-from-vgrf"];

/// An available copy: `dst` holds `src` for the channels of `exec_size` channels from
/// `group`, written masked unless `nomask`.
struct Copy {
    dst: Reg,
    src: Reg,
    exec_size: u8,
    group: u8,
    nomask: bool,
    bytes: u32,
}

/// Register file and number of a packed per-channel operand (VGRF or ATTR), if it is one.
fn packed_file(r: &Reg) -> Option<(bool, u32)> {
    match r.kind {
        RegKind::Vgrf { nr, stride: 1, .. } => Some((true, nr)),
        RegKind::Attr { nr, stride: 1, .. } => Some((false, nr)),
        _ => None,
    }
}

/// The copy a MOV makes, when it is a plain whole-value copy between packed registers of
/// one type: no predicate (a partial write, §10.3 23 analogue), no conditional modifier or
/// saturate (those change the value or write flags; §10.3 30 forbids propagating `mov.sat`),
/// no source modifiers, no accumulator update.
fn copy_of(inst: &Inst) -> Option<Copy> {
    let plain = inst.op == Opcode::Mov
        && inst.predicate.is_none()
        && inst.cmod.is_none()
        && !inst.saturate
        && !inst.acc_wr
        && inst.srcs.first().is_some_and(|s| !s.negate && !s.abs);
    let src = inst.srcs.first()?;
    let (dst_is_vgrf, _) = packed_file(&inst.dst)?;
    packed_file(src)?;
    // `mov v0+32, v0` would end its own copy: its write clobbers the source register.
    let same_register = packed_file(&inst.dst) == packed_file(src);
    (plain && dst_is_vgrf && src.ty == inst.dst.ty && !same_register).then(|| Copy {
        dst: inst.dst,
        src: *src,
        exec_size: inst.exec_size,
        group: inst.group,
        nomask: inst.nomask,
        bytes: inst.size_written(),
    })
}

/// Whether instruction `inst` may have a source replaced by another register of the same
/// type and region: plain ALU operations. Messages, LOAD_PAYLOAD and logical sends read
/// multi-register payloads whose layout the copy does not describe (Mesa ec2e8bc33f5,
/// 7b5e9336298); control flow reads nothing.
fn accepts_register_copies(inst: &Inst) -> bool {
    !inst.op.is_message() && !inst.op.is_control_flow() && inst.op != Opcode::LoadPayload
}

/// Whether source `s` of `use_inst` reads exactly what `copy` wrote, in the same channels:
/// same register, offset, type and packed region over the same exec size and group. A
/// NoMask read sees channels a masked copy did not write, so it needs a NoMask copy.
fn reads_copy(use_inst: &Inst, s: usize, copy: &Copy) -> bool {
    let src = &use_inst.srcs[s];
    src.kind == copy.dst.kind
        && src.ty == copy.dst.ty
        && use_inst.exec_size == copy.exec_size
        && use_inst.group == copy.group
        && (copy.nomask || !use_inst.nomask)
        && use_inst.size_read(s) == copy.bytes
}

/// Whether `inst` writes (any byte of) the register `r` lives in. Writes to fixed
/// registers may land on the thread payload that ATTRs are read from before
/// `lower_payload_inputs`, so they end every copy from an ATTR.
fn clobbers(inst: &Inst, r: &Reg) -> bool {
    let written = match inst.dst.kind {
        RegKind::Vgrf { nr, .. } => Some((true, nr)),
        RegKind::Attr { nr, .. } => Some((false, nr)),
        RegKind::Fixed { .. } | RegKind::Indirect { .. } => {
            return matches!(r.kind, RegKind::Attr { .. });
        }
        _ => None,
    };
    let target = match r.kind {
        RegKind::Vgrf { nr, .. } => Some((true, nr)),
        RegKind::Attr { nr, .. } => Some((false, nr)),
        _ => None,
    };
    written.is_some() && written == target
}

/// Rewrites the sources of `inst` that read an available copy; returns whether any did.
fn propagate_into(inst: &mut Inst, copies: &[Copy]) -> bool {
    if !accepts_register_copies(inst) {
        return false;
    }
    let mut changed = false;
    for s in 0..inst.srcs.len() {
        let Some(copy) = copies.iter().rev().find(|c| reads_copy(inst, s, c)) else {
            continue;
        };
        let (negate, abs) = (inst.srcs[s].negate, inst.srcs[s].abs);
        inst.srcs[s] = Reg {
            negate,
            abs,
            ..copy.src
        };
        note(if matches!(copy.src.kind, RegKind::Attr { .. }) {
            "copy-from-attr"
        } else {
            "copy-from-vgrf"
        });
        changed = true;
    }
    changed
}

/// Propagates copies within one block's instructions.
fn propagate_block(insts: &mut [Inst]) -> bool {
    let mut copies: Vec<Copy> = vec![];
    let mut progress = false;
    for inst in insts.iter_mut() {
        progress |= propagate_into(inst, &copies);
        copies.retain(|c| !clobbers(inst, &c.dst) && !clobbers(inst, &c.src));
        if let Some(c) = copy_of(inst) {
            copies.push(c);
        }
    }
    progress
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, _opts: &CompileOptions) -> Result<bool, String> {
    let mut progress = false;
    for block in &mut p.blocks {
        progress |= propagate_block(&mut block.insts);
    }
    Ok(progress)
}
