//! Which bytes of which VGRF an instruction of the vec4 stage writes and reads, in the
//! logical layout (`program::Stage`, docs/hardware/fp64-align16.md §1.1): what the vec4 DCE and CSE
//! compare. Writes are exact (writemask and stride honoured), reads may be more than the
//! swizzle selects (a whole vec4 per vertex), which only makes the passes keep more.

use crate::inst::Inst;
use crate::reg::{Reg, RegKind};

/// VGRF number and byte range `[start, end)` of one access.
pub type Span = (u32, u32, u32);

/// The bytes `inst` writes, one span per channel written (none for non-VGRF destinations).
pub fn written(inst: &Inst) -> Vec<Span> {
    let RegKind::Vgrf { nr, offset, stride } = inst.dst.kind else {
        return vec![];
    };
    let size = inst.dst.ty.size();
    let step = if inst.is_align16() { 1 } else { stride as u32 };
    (0..inst.exec_size as u32)
        .filter(|&c| !inst.is_align16() || inst.dst.writemask.enables(c))
        .map(|c| {
            let at = offset + c * step * size;
            (nr, at, at + size)
        })
        .collect()
}

/// The bytes source `src` covers when `inst` reads it (none for non-VGRF operands): its
/// channels' footprint, or more for a message reading several values (`Inst::size_read`).
pub fn read(inst: &Inst, src: &Reg) -> Option<Span> {
    let RegKind::Vgrf { nr, .. } = src.kind else {
        return None;
    };
    let (start, end) = src.footprint(inst.exec_size as u32)?;
    let message = inst
        .srcs
        .iter()
        .position(|s| s == src)
        .map_or(0, |i| inst.size_read(i) as u64);
    Some((nr, start as u32, end.max(start + message) as u32))
}

/// Whether two spans share a byte.
pub fn overlap(a: Span, b: Span) -> bool {
    a.0 == b.0 && a.1 < b.2 && b.1 < a.2
}
