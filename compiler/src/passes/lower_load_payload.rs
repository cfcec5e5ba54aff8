//! `lower_load_payload` (docs/hardware/brw-backend.md §7.3): header sources are copied as whole registers
//! with NoMask UD moves; each remaining source is one component copied with the
//! instruction's own execution controls, so channel masking applies; null sources are holes.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError};
use crate::program::Program;
use crate::reg::REG_SIZE;
use crate::types::Type;

fn lower(inst: &Inst) -> Vec<Inst> {
    let header = (inst.header_size as usize).min(inst.srcs.len());
    let mut out = vec![];
    let base = inst.dst.retype(Type::UD);
    for (i, src) in inst.srcs[..header].iter().enumerate() {
        if !src.is_null() {
            let mov = Inst::new(
                Opcode::Mov,
                8,
                base.byte_offset(i as u32 * REG_SIZE),
                vec![src.retype(Type::UD)],
            );
            out.push(mov.with_nomask());
        }
    }
    let comp = inst.component_bytes(&inst.dst);
    for (j, src) in inst.srcs[header..].iter().enumerate() {
        if src.is_null() {
            continue;
        }
        let at = inst
            .dst
            .byte_offset(header as u32 * REG_SIZE + j as u32 * comp)
            .retype(src.ty);
        let mut mov = Inst::new(Opcode::Mov, inst.exec_size, at, vec![*src]);
        mov.group = inst.group;
        mov.nomask = inst.nomask;
        out.push(mov);
    }
    out
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "lower_load_payload",
    rewrites: &[],
    run,
    postcondition: None,
};

pub fn run(p: &mut Program, _opts: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    let mut out = vec![];
    for inst in p.take_insts() {
        if inst.op == Opcode::LoadPayload {
            out.extend(lower(&inst));
            progress = true;
        } else {
            out.push(inst);
        }
    }
    p.set_insts(out);
    Ok(progress)
}
