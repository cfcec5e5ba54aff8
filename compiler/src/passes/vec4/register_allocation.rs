//! Register assignment for the vec4 pipeline: every VGRF gets a run of GRFs after the
//! thread payload. `convert_to_hw_regs` uses it; it is not a pass of its own because IR
//! whose registers are fixed but whose swizzles are still logical means nothing to run.
//!
//! Live ranges are linear: from a VGRF's first access to its last, stretched over every
//! loop they meet (a value live anywhere in a loop is live all through it, on every
//! iteration). Two VGRFs interfere when their ranges overlap; one dying where the other is
//! born does not — except around an instruction with a source/destination hazard
//! (docs/hardware/fp64-align16.md §4, `restrictions::has_source_and_destination_hazard`), whose halves
//! run in order. The payloads of EOT messages go to the top of the file (g112–g127); the
//! other VGRFs are placed in number order, each at the lowest GRF run free of the VGRFs it
//! interferes with (a greedy colouring). No spilling: a program that does not fit is
//! refused.

use super::restrictions::has_source_and_destination_hazard;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, PassError};
use crate::program::Program;
use crate::reg::{Reg, RegKind};

/// First and last instruction index touching each VGRF (`None`: never touched).
fn ranges(p: &Program) -> Vec<Option<(usize, usize)>> {
    let mut r: Vec<Option<(usize, usize)>> = vec![None; p.vgrf_sizes.len()];
    let mut touch = |reg: &Reg, ip: usize| {
        if let RegKind::Vgrf { nr, .. } = reg.kind
            && let Some(slot) = r.get_mut(nr as usize)
        {
            *slot = Some(slot.map_or((ip, ip), |(a, b)| (a.min(ip), b.max(ip))));
        }
    };
    let mut loops = vec![];
    let mut open = vec![];
    for (ip, inst) in p.insts().enumerate() {
        touch(&inst.dst, ip);
        inst.srcs.iter().for_each(|s| touch(s, ip));
        match inst.op {
            Opcode::Do => open.push(ip),
            Opcode::While => loops.extend(open.pop().map(|d| (d, ip))),
            _ => {}
        }
    }
    // Stretching over one loop may make a range meet an enclosing one: repeat until stable.
    let mut changed = true;
    while changed {
        changed = false;
        for range in r.iter_mut().flatten() {
            for &(d, w) in &loops {
                if range.0 <= w && d <= range.1 && (range.0 > d || range.1 < w) {
                    *range = (range.0.min(d), range.1.max(w));
                    changed = true;
                }
            }
        }
    }
    r
}

/// Pairs of VGRFs an instruction with a hazard forbids to share registers.
fn hazards(p: &Program, opts: &CompileOptions) -> Vec<(u32, u32)> {
    let nr = |r: &Reg| match r.kind {
        RegKind::Vgrf { nr, .. } => Some(nr),
        _ => None,
    };
    p.insts()
        .filter(|i| has_source_and_destination_hazard(i, opts))
        .flat_map(|i| {
            let d = nr(&i.dst);
            i.srcs
                .iter()
                .filter_map(nr)
                .filter_map(move |s| d.filter(|&d| d != s).map(|d| (d, s)))
        })
        .collect()
}

/// Notes `compressed-src-dies` when an instruction writing more than one GRF reads a VGRF
/// whose range ends there: the case the hazard rule exists for.
fn note_dying_sources(p: &Program, ranges: &[Option<(usize, usize)>]) {
    for (ip, inst) in p.insts().enumerate() {
        let dies = inst.srcs.iter().any(|s| match s.kind {
            RegKind::Vgrf { nr, .. } => {
                inst.dst != *s
                    && ranges.get(nr as usize).copied().flatten().map(|r| r.1) == Some(ip)
            }
            _ => false,
        });
        if dies && inst.size_written() > crate::reg::REG_SIZE {
            crate::pass::note("compressed-src-dies");
        }
    }
}

/// The first GRF of each VGRF (`None` for VGRFs no instruction touches), placed from GRF
/// `first` on.
pub fn assign(
    p: &Program,
    first: u32,
    opts: &CompileOptions,
) -> Result<Vec<Option<u32>>, PassError> {
    let ranges = ranges(p);
    note_dying_sources(p, &ranges);
    let hazards = hazards(p, opts);
    let interferes = |a: usize, b: usize| {
        let (Some(x), Some(y)) = (ranges[a], ranges[b]) else {
            return false;
        };
        let overlap = x.0 < y.1 && y.0 < x.1 || x.0 == y.0;
        overlap
            || hazards.iter().any(|&(d, s)| {
                (d as usize, s as usize) == (a, b) || (s as usize, d as usize) == (a, b)
            })
    };
    let grfs = p.device.info().grf_count;
    let mut start: Vec<Option<u32>> = vec![None; p.vgrf_sizes.len()];
    // The payload of an EOT message must lie in g112–g127 (the `eot-grf-range` rule):
    // those go at the top of the file, first, so nothing else is placed over them.
    let eot_payloads: Vec<usize> = p
        .insts()
        .filter(|i| i.eot && i.op == Opcode::Send)
        .filter_map(|i| match i.srcs.first()?.kind {
            RegKind::Vgrf { nr, .. } => Some(nr as usize),
            _ => None,
        })
        .collect();
    for &v in &eot_payloads {
        let size = p.vgrf_sizes.get(v).copied().unwrap_or(1).max(1);
        start[v] = Some(grfs.saturating_sub(size));
    }
    for v in 0..p.vgrf_sizes.len() {
        if ranges[v].is_none() || eot_payloads.contains(&v) {
            continue;
        }
        let size = p.vgrf_sizes[v].max(1);
        let taken: Vec<(u32, u32)> = (0..p.vgrf_sizes.len())
            .filter(|&u| u != v && interferes(u, v))
            .filter_map(|u| start[u].map(|s| (s, s + p.vgrf_sizes[u].max(1))))
            .collect();
        let mut r = first;
        while let Some(&(_, end)) = taken.iter().find(|&&(s, e)| r < e && s < r + size) {
            r = end;
        }
        if r + size > grfs {
            return Err(PassError::Vec4RegisterFileFull { vgrf: v, grfs });
        }
        start[v] = Some(r);
    }
    Ok(start)
}
