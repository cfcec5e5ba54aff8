//! The vec4 stage's output message in hardware form, for `lower_logical_sends`:
//! `urb_write_logical` becomes a header register, one payload register per output slot and
//! a `send … desc(urb_write slot=S mlen=1+slots header)` (the formats `Opcode::
//! UrbWriteLogical` and `MsgKind::UrbWrite` document). A 32-bit vec4 already is one slot
//! (vertex 0 in bytes 0–15, vertex 1 in 16–31); a dvec4 (vertex 0's x..w in one register,
//! vertex 1's in the next) is reordered into two slots, x,y then z,w, by four 16-byte
//! moves — what Mesa's vec4 backend does for 64-bit outputs.
//!
//! The payload moves are NoMask: they copy registers, and which vertices the message
//! writes is the SEND's own channel mask.

use crate::inst::{Inst, MsgDesc, MsgKind};
use crate::opcode::Opcode;
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg};
use crate::types::Type;

/// Bytes of one vertex's half of a slot register.
const HALF: u32 = REG_SIZE / 2;

/// A NoMask copy of `exec` dwords from `from` to `to`.
fn copy(exec: u8, to: Reg, from: Reg) -> Inst {
    Inst::new(Opcode::Mov, exec, to, vec![from]).with_nomask()
}

/// Lowers one `urb_write_logical` into `out`.
pub fn lower(p: &mut Program, inst: &Inst, out: &mut Vec<Inst>) {
    let data = inst.srcs[0].retype(Type::UD);
    let first = inst.imm_src(1).unwrap_or(0) as u8;
    let values = inst.message_components();
    let df = inst.srcs[0].ty.size() == 8;
    let slots = if df { 2 * values } else { values };
    let payload = Reg::vgrf(p.alloc_vgrf(1 + slots), Type::UD);
    out.push(copy(8, payload, Reg::imm_ud(0)));
    let slot_reg = |s: u32| payload.byte_offset((1 + s) * REG_SIZE);
    for j in 0..values {
        if !df {
            out.push(copy(8, slot_reg(j), data.byte_offset(j * REG_SIZE)));
            continue;
        }
        let value = data.byte_offset(j * 2 * REG_SIZE);
        for half in 0..2 {
            for vertex in 0..2 {
                let from = value.byte_offset(vertex * REG_SIZE + half * HALF);
                let to = slot_reg(2 * j + half).byte_offset(vertex * HALF);
                out.push(copy(4, to, from));
            }
        }
    }
    let mut send = Inst::new(
        Opcode::Send,
        8,
        Reg::null(Type::UD),
        vec![payload, Reg::null(Type::UD)],
    );
    send.desc = Some(MsgDesc {
        kind: MsgKind::UrbWrite { slot: first },
        mlen: (1 + slots) as u8,
        ex_mlen: 0,
        rlen: 0,
        header: true,
    });
    send.group = inst.group;
    send.eot = inst.eot;
    out.push(send);
}
