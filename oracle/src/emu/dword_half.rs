//! PICK_LOW/HIGH_32BIT and SET_LOW/HIGH_32BIT (docs/hardware/fp64-align16.md §5.3, §10 item 6): Align1
//! moves of one dword of each DF element. They are run as raw UD moves whose DF side is
//! re-addressed at decode time: the operand is resolved as the DF region it names, then
//! each channel's address moves to the low (+0) or high (+4) dword and the type becomes
//! UD. Bytes outside those dwords are neither read nor written, so SET leaves the other
//! half of every DF element as it was (a partial write) and PICK's result carries the
//! defined flags of exactly the dword it picked.

use super::operand::{Loc, Operand};
use compiler::Opcode;
use compiler::types::Type;
use std::rc::Rc;

/// Byte offset, inside an 8-byte element, of the dword `op` moves.
fn dword_offset(op: Opcode) -> u32 {
    match op {
        Opcode::PickHigh32 | Opcode::SetHigh32 => 4,
        _ => 0,
    }
}

/// `operand` (resolved as a DF region) narrowed to the chosen dword of each element, read
/// or written as UD. Non-register operands (immediates, null) are left alone: the validator
/// reports them, and an immediate is read as its low 32 bits.
fn narrowed(operand: &Operand, op: Opcode) -> Operand {
    let loc = match &operand.loc {
        Loc::Space(offs) if operand.ty.size() == 8 => {
            let k = dword_offset(op);
            Loc::Space(offs.iter().map(|a| a + k).collect::<Rc<[u32]>>())
        }
        other => other.clone(),
    };
    Operand {
        loc,
        ty: if operand.ty.size() == 8 {
            Type::UD
        } else {
            operand.ty
        },
        packed_base: None,
        ..operand.clone()
    }
}

/// Re-addresses the DF side of a dword-half move: the source of PICK, the destination of
/// SET. Other opcodes are returned unchanged.
pub fn retarget(op: Opcode, dst: Operand, mut srcs: Vec<Operand>) -> (Operand, Vec<Operand>) {
    match op {
        Opcode::PickLow32 | Opcode::PickHigh32 => {
            if let Some(s) = srcs.first_mut() {
                *s = narrowed(s, op);
            }
            (dst, srcs)
        }
        Opcode::SetLow32 | Opcode::SetHigh32 => (narrowed(&dst, op), srcs),
        _ => (dst, srcs),
    }
}

/// Whether `op` runs as a move of its (re-addressed) source: the dword-half moves and DIM,
/// which writes its DF immediate to every enabled channel (§10 item 7).
pub fn is_move(op: Opcode) -> bool {
    op == Opcode::Mov || op == Opcode::Dim || op.is_dword_half_move()
}
