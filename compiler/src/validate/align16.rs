//! The Align16 operand fields (`Reg::swizzle`, `Reg::writemask`) only mean something where
//! an Align16 instruction reads them (docs/hardware/eu-hardware.md §1.3): a swizzle on a source, a
//! writemask of one to four components on a destination, on a register operand. Anywhere
//! else the emulator would silently ignore the field, so the IR is reported instead.

use super::{Report, Rule};
use crate::inst::Inst;
use crate::reg::{Reg, RegKind};

/// Whether the operand is a register an Align16 instruction can swizzle or mask.
fn carries_components(r: &Reg) -> bool {
    !matches!(
        r.kind,
        RegKind::Null | RegKind::Imm(_) | RegKind::Indirect { .. }
    )
}

pub(super) fn check(ip: usize, inst: &Inst, r: &mut Report) {
    let mut bad = |msg: &str| r.add(Rule::Align16Form, Some(ip), msg);
    let dst = &inst.dst;
    if dst.writemask.0 == 0 || dst.writemask.0 > 0xf {
        bad("a writemask enables one to four components (bits 0..3)");
    }
    if !dst.swizzle.is_identity() {
        bad("a destination has a writemask, not a swizzle");
    }
    if inst.srcs.iter().any(|s| !s.writemask.is_full()) {
        bad("a source has a swizzle, not a writemask");
    }
    let swizzled = inst.srcs.iter().filter(|s| !s.swizzle.is_identity());
    let partial = (!dst.writemask.is_full()).then_some(dst);
    let mut fields = swizzled.chain(partial);
    if !inst.is_align16() {
        if fields.next().is_some() {
            bad(
                "a swizzle or writemask on an Align1 instruction, which ignores them: mark it `{ Align16 }`",
            );
        }
    } else if fields.any(|reg| !carries_components(reg)) {
        bad("a swizzle or writemask on an immediate, null or indirect operand");
    }
}
