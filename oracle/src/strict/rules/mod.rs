//! Restriction rules, one function each, grouped by docs/hardware/eu-hardware.md §6's sections, with the
//! operand helpers they share.

pub mod align16;
pub mod indirect;
pub mod instructions;
pub mod mixed_float;
pub mod operand_types;
pub mod qword;
pub mod regions;
pub mod sends;
pub mod three_src;

use compiler::Inst;
use compiler::reg::{REG_SIZE, Reg, RegKind, Region};
use compiler::types::Type;

/// The `<v;w,h>` region of a directly addressed hardware operand (fixed GRF or ARF): for
/// the rules that also need where the operand lies (its GRF bytes or sub-register).
pub fn region(r: &Reg) -> Option<Region> {
    match r.kind {
        RegKind::Fixed { region, .. } | RegKind::Arf { region, .. } => Some(region),
        _ => None,
    }
}

/// The `<v;w,h>` region the instruction encodes for an operand, as the hardware reads it:
/// a register-indirect operand carries its region in the same fields as a direct one
/// (docs/hardware/eu-hardware.md §1.4; Mesa's validators decode VertStride, Width and
/// HorzStride, and the destination's HorzStride, whatever the addressing mode), so a rule
/// on strides judges both. Only its address is unknown until it runs: rules on GRF bytes
/// or sub-registers use [`region`], [`subnr`] and [`grf_byte`], which do not hold for it.
pub fn encoded_region(r: &Reg) -> Option<Region> {
    match r.kind {
        RegKind::Fixed { region, .. }
        | RegKind::Arf { region, .. }
        | RegKind::Indirect { region, .. } => Some(region),
        _ => None,
    }
}

/// A register-indirect operand (its address comes from `a0` at run time, §1.4).
pub fn is_indirect(r: &Reg) -> bool {
    matches!(r.kind, RegKind::Indirect { .. })
}

/// Byte offset within its register: 0 for an operand without one (a register-indirect
/// operand's offset is unknown until it runs, so the rules comparing offsets skip it).
pub fn subnr(r: &Reg) -> u32 {
    match r.kind {
        RegKind::Fixed { subnr, .. } | RegKind::Arf { subnr, .. } => subnr as u32,
        _ => 0,
    }
}

/// First byte in the GRF file of a fixed GRF operand.
pub fn grf_byte(r: &Reg) -> Option<u32> {
    match r.kind {
        RegKind::Fixed { nr, subnr, .. } => Some(nr as u32 * REG_SIZE + subnr as u32),
        _ => None,
    }
}

pub fn is_grf(r: &Reg) -> bool {
    matches!(r.kind, RegKind::Fixed { .. })
}

/// Explicit ARF other than null.
pub fn is_arf(r: &Reg) -> bool {
    matches!(r.kind, RegKind::Arf { .. })
}

/// Register (non-immediate, non-null) sources.
pub fn reg_srcs(inst: &Inst) -> impl Iterator<Item = (usize, &Reg)> {
    inst.srcs
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.is_imm() && !s.is_null())
}

pub use compiler::hw::{
    exec_type, hw_src_count, is_double_precision, is_mixed_float, is_send_like,
};

/// Element size in bytes as region arithmetic sees it (V/UV 2, VF 4).
pub fn elem_size(t: Type) -> u32 {
    t.size()
}
