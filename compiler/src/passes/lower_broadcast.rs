//! `lower_broadcast`: BROADCAST with an immediate channel index becomes a NoMask SIMD1 MOV
//! of that channel's element (docs/hardware/brw-backend.md §1.1; Mesa emits BROADCAST as a MOV from a
//! fixed region when the index is an immediate, from an indirect one otherwise).
//!
//! `broadcast(N) d<0>:T, v:T, i:UD { NoMask }` reads the element channel `i` of the region
//! `v` holds: for a virtual operand at byte `offset` with element stride `s`, the bytes at
//! `offset + i·s·size(T)`. The MOV reads them as a scalar (`<0>`), typed as the destination
//! so that it copies bits (BROADCAST never converts). Push constants and immediates are
//! already scalars. A register index, or a value in a fixed GRF, is left to the
//! pseudo-instruction the strict emulator executes (see `hw::is_send_like`): the indirect
//! MOV needs the value's physical register, which exists only after allocation.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{Reg, RegKind};

/// The rewrites this pass notes (see `Pass::rewrites`).
const REWRITES: &[&str] = &["broadcast-immediate-index"];

/// The scalar operand for element `index` of `value`, if `value` is a virtual register, a
/// push constant or an immediate.
fn element(value: &Reg, index: u32) -> Option<Reg> {
    let size = value.ty.size();
    let kind = match value.kind {
        RegKind::Vgrf { nr, offset, stride } => RegKind::Vgrf {
            nr,
            offset: offset + index * stride as u32 * size,
            stride: 0,
        },
        RegKind::Attr { nr, offset, stride } => RegKind::Attr {
            nr,
            offset: offset + index * stride as u32 * size,
            stride: 0,
        },
        RegKind::Uniform { .. } | RegKind::Imm(_) => value.kind,
        _ => return None,
    };
    Some(Reg { kind, ..*value })
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "lower_broadcast",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, _opts: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    for inst in p.blocks.iter_mut().flat_map(|b| b.insts.iter_mut()) {
        if inst.op != Opcode::Broadcast || inst.srcs.len() != 2 {
            continue;
        }
        let Some(index) = inst.imm_src(1) else {
            continue;
        };
        let Some(src) = element(&inst.srcs[0], index as u32) else {
            continue;
        };
        *inst = Inst::new(Opcode::Mov, 1, inst.dst, vec![src.retype(inst.dst.ty)]).with_nomask();
        note("broadcast-immediate-index");
        progress = true;
    }
    Ok(progress)
}
