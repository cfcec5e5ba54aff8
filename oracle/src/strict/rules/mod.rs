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

/// The `<v;w,h>` region of a hardware operand (fixed GRF or ARF).
pub fn region(r: &Reg) -> Option<Region> {
    match r.kind {
        RegKind::Fixed { region, .. } | RegKind::Arf { region, .. } => Some(region),
        _ => None,
    }
}

/// Byte offset within its register.
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
