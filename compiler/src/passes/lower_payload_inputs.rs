//! `lower_payload_inputs` (Mesa's assign_curb_setup / assign_urb_setup): UNIFORM and ATTR
//! operands become fixed GRFs of the thread payload (`crate::payload`). Scalars read
//! `<0;1,0>`; per-channel inputs get a region that never lets a row straddle a GRF.

use super::fixed_operand;
use crate::pass::{CompileOptions, Pass, PassError};
use crate::payload::PayloadLayout;
use crate::program::Program;
use crate::reg::{Reg, RegKind};

fn lower(r: &Reg, layout: &PayloadLayout, exec: u32) -> Option<Reg> {
    let (byte, stride) = match r.kind {
        RegKind::Attr { nr, offset, stride } => (
            *layout.attr_bases.get(nr as usize)? as u32 + offset,
            stride as u32,
        ),
        RegKind::Uniform { nr, offset } => (layout.uniform_base as u32 + nr * 4 + offset, 0),
        _ => return None,
    };
    let mut out = fixed_operand(byte, stride, r.ty, exec, false);
    out.negate = r.negate;
    out.abs = r.abs;
    Some(out)
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "lower_payload_inputs",
    rewrites: &[],
    run,
    postcondition: None,
};

pub fn run(p: &mut Program, _opts: &CompileOptions) -> Result<bool, PassError> {
    let layout = PayloadLayout::new(p);
    let grfs = p.device.info().grf_count as usize;
    if layout.regs > grfs {
        return Err(PassError::PayloadTooLarge {
            needed: layout.regs,
            device: p.device,
            available: grfs,
        });
    }
    let mut progress = false;
    for block in &mut p.blocks {
        for inst in &mut block.insts {
            let exec = inst.exec_size as u32;
            for src in &mut inst.srcs {
                if let Some(r) = lower(src, &layout, exec) {
                    *src = r;
                    progress = true;
                }
            }
        }
    }
    Ok(progress)
}
