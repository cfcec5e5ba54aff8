//! `lower_urb_write` for the vec4 stage: the logical `urb_write_logical` becomes the
//! hardware URB write (`MsgKind::UrbWrite`): a header register, then one register per
//! output slot, vertex 0's four dwords in bytes 0–15 and vertex 1's in 16–31
//! (docs/hardware/fp64-align16.md §1.1). A 32-bit vec4 value already is one slot; a dvec4 (vertex 0's
//! x..w in one register, vertex 1's in the next) is shuffled into two slots, x,y then z,w,
//! as Mesa's 64-bit outputs are. The moves are NoMask: a slot of a vertex the message does
//! not write is not looked at.

use crate::inst::{Inst, MsgDesc, MsgKind};
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg};
use crate::types::Type;

/// Rewrite kinds this pass notes.
const REWRITES: &[&str] = &["urb-write-df", "urb-write"];

/// A NoMask Align1 move of `exec` dwords.
fn dwords(exec: u8, dst: Reg, src: Reg) -> Inst {
    Inst::new(
        Opcode::Mov,
        exec,
        dst.retype(Type::UD),
        vec![src.retype(Type::UD)],
    )
    .with_nomask()
}

fn lower(p: &mut Program, inst: &Inst) -> Vec<Inst> {
    let values = inst.message_components();
    let data = inst.srcs[0];
    let df = data.ty.size() == 8;
    let slots = if df { 2 * values } else { values };
    let payload = crate::passes::temp(p, Type::UD, (1 + slots) * REG_SIZE);
    let header = Reg::grf(0, 0, crate::reg::Region::PACKED8, Type::UD);
    let mut out = vec![dwords(8, payload, header)];
    for j in 0..values {
        if df {
            note("urb-write-df");
            for h in 0..2 {
                for q in 0..2 {
                    let from = data.byte_offset(2 * j * REG_SIZE + q * REG_SIZE + 16 * h);
                    let to = payload.byte_offset((1 + 2 * j + h) * REG_SIZE + 16 * q);
                    out.push(dwords(4, to, from));
                }
            }
        } else {
            out.push(dwords(
                8,
                payload.byte_offset((1 + j) * REG_SIZE),
                data.byte_offset(j * REG_SIZE),
            ));
        }
    }
    note("urb-write");
    let slot = inst.imm_src(1).unwrap_or(0) as u8;
    let mut send = Inst::new(
        Opcode::Send,
        inst.exec_size,
        Reg::null(Type::UD),
        vec![payload, Reg::null(Type::UD)],
    );
    send.desc = Some(MsgDesc {
        kind: MsgKind::UrbWrite { slot },
        mlen: (1 + slots) as u8,
        ex_mlen: 0,
        rlen: 0,
        header: true,
    });
    send.group = inst.group;
    send.nomask = inst.nomask;
    send.predicate = inst.predicate;
    send.flag_subreg = inst.flag_subreg;
    send.eot = inst.eot;
    out.push(send);
    out
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "lower_urb_write",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; progress when a URB write was lowered.
pub fn run(p: &mut Program, _: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    let mut out = vec![];
    for inst in p.take_insts() {
        if inst.op == Opcode::UrbWriteLogical {
            progress = true;
            out.extend(lower(p, &inst));
        } else {
            out.push(inst);
        }
    }
    p.set_insts(out);
    Ok(progress)
}
