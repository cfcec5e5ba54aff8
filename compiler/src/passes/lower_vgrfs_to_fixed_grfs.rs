//! `lower_vgrfs_to_fixed_grfs`: with every VGRF assigned a first GRF, each virtual operand
//! becomes a fixed GRF whose region walks the same bytes (see `super::fixed_operand`).

use super::fixed_operand;
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, RegKind};

fn lower(r: &Reg, assignment: &[u32], exec: u32, is_dst: bool) -> Option<Reg> {
    let RegKind::Vgrf { nr, offset, stride } = r.kind else {
        return None;
    };
    let byte = assignment.get(nr as usize)? * REG_SIZE + offset;
    let mut out = fixed_operand(byte, stride as u32, r.ty, exec, is_dst);
    out.negate = r.negate;
    out.abs = r.abs;
    Some(out)
}

/// Rewrites every VGRF operand with `assignment[v]` = first GRF of `v`; drops the VGRFs.
pub fn rewrite(p: &mut Program, assignment: &[u32]) {
    for block in &mut p.blocks {
        for inst in &mut block.insts {
            let exec = inst.exec_size as u32;
            if let Some(d) = lower(&inst.dst, assignment, exec, true) {
                inst.dst = d;
            }
            for s in &mut inst.srcs {
                if let Some(r) = lower(s, assignment, exec, false) {
                    *s = r;
                }
            }
        }
    }
    p.vgrf_sizes.clear();
}
