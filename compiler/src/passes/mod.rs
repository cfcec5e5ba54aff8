//! The lowering passes, one per file, and helpers they share.

pub mod allocate_registers;
pub mod compact_virtual_grfs;
pub mod dead_control_flow_eliminate;
pub mod dominance;
pub mod eliminate_find_live_channel;
pub mod liveness;
pub mod lower_alu_restrictions;
pub mod lower_broadcast;
pub mod lower_integer_multiplication;
pub mod lower_load_payload;
pub mod lower_logical_sends;
pub mod lower_payload_inputs;
pub mod lower_regioning;
pub mod lower_simd_width;
pub mod lower_vgrfs_to_fixed_grfs;
pub mod move_load_const;
pub mod opt_algebraic;
pub mod opt_cmod_propagation;
pub mod opt_combine_constants;
pub mod opt_copy_propagation;
pub mod opt_cse;
pub mod opt_dead_code_eliminate;
pub mod opt_peephole_sel;
pub mod opt_predicated_break;
pub mod opt_redundant_halt;
pub mod opt_register_coalesce;
pub mod opt_saturate_propagation;
pub mod schedule;
pub mod schedule_deps;
pub mod schedule_post_ra;
pub mod scratch;
pub mod spill;
pub mod split_virtual_grfs;

use crate::pipeline::{Pass, Stage};
use crate::reg::{REG_SIZE, Reg, RegKind, Region};
use crate::types::Type;

/// The kinds of rewrite pass `name` notes (`pipeline::note`), most specific first: a
/// failure's bucket is named by the most specific one its culprit pass made. Passes not
/// listed note kinds of equal standing (message names).
pub fn rewrite_kinds(name: &str) -> &'static [&'static str] {
    match name {
        "lower_simd_width" => lower_simd_width::REWRITES,
        "lower_integer_multiplication" => lower_integer_multiplication::REWRITES,
        "lower_regioning" => lower_regioning::REWRITES,
        "lower_alu_restrictions" => lower_alu_restrictions::REWRITES,
        "allocate_registers" => allocate_registers::REWRITES,
        "opt_cse" => opt_cse::REWRITES,
        "opt_copy_propagation" => opt_copy_propagation::REWRITES,
        "opt_cmod_propagation" => opt_cmod_propagation::REWRITES,
        "opt_dead_code_eliminate" => opt_dead_code_eliminate::REWRITES,
        "opt_predicated_break" => opt_predicated_break::REWRITES,
        "dead_control_flow_eliminate" => dead_control_flow_eliminate::REWRITES,
        "opt_algebraic" => opt_algebraic::REWRITES,
        "opt_peephole_sel" => opt_peephole_sel::REWRITES,
        "opt_saturate_propagation" => opt_saturate_propagation::REWRITES,
        "compact_virtual_grfs" => compact_virtual_grfs::REWRITES,
        "split_virtual_grfs" => split_virtual_grfs::REWRITES,
        "opt_combine_constants" => opt_combine_constants::REWRITES,
        "move_load_const" => move_load_const::REWRITES,
        "eliminate_find_live_channel" => eliminate_find_live_channel::REWRITES,
        "opt_redundant_halt" => opt_redundant_halt::REWRITES,
        "lower_broadcast" => lower_broadcast::REWRITES,
        "schedule_post_ra" => schedule_post_ra::REWRITES,
        "opt_register_coalesce" => opt_register_coalesce::REWRITES,
        _ => &[],
    }
}

macro_rules! pass {
    ($name:ident) => {
        Pass {
            name: stringify!($name),
            run: $name::run,
        }
    };
}

/// The mandatory lowering, in order (Mesa's order of brw_optimize's lowering steps): what
/// `-O0` runs.
pub fn mandatory() -> Vec<Stage> {
    [
        pass!(lower_simd_width),
        pass!(lower_logical_sends),
        pass!(lower_load_payload),
        pass!(lower_simd_width),
        pass!(lower_integer_multiplication),
        pass!(lower_broadcast),
        pass!(lower_regioning),
        pass!(lower_alu_restrictions),
        pass!(lower_simd_width),
        pass!(lower_payload_inputs),
        pass!(allocate_registers),
    ]
    .into_iter()
    .map(Stage::Once)
    .collect()
}

/// The optimisation loop in the order of brw-backend.md §7.1 steps 2–15 (the MRF passes
/// model Gen ≤ 6 message registers this backend does not have): run to a fixpoint.
/// `move_load_const` (a NIR pass in Mesa, not in §7.1) comes last, so it sees only the
/// constant loads the clean-ups left; it only sinks loads, and nothing in the loop hoists
/// them back. Register coalescing is step 12, after saturate propagation (step 11).
const OPT_LOOP: &[Pass] = &[
    pass!(opt_algebraic),
    pass!(opt_cse),
    pass!(opt_copy_propagation),
    pass!(opt_predicated_break),
    pass!(opt_cmod_propagation),
    pass!(opt_dead_code_eliminate),
    pass!(opt_peephole_sel),
    pass!(dead_control_flow_eliminate),
    pass!(opt_saturate_propagation),
    pass!(opt_register_coalesce),
    pass!(move_load_const),
    pass!(eliminate_find_live_channel),
    pass!(compact_virtual_grfs),
];

/// The default pipeline (brw-backend.md §7.1/§7.2): the pre-loop, the optimisation loop
/// to a fixpoint, then the mandatory lowering in its order with the clean-ups Mesa runs
/// after each lowering step, and RA.
///
/// `opt_combine_constants` runs right after `lower_load_payload` and its clean-ups, before
/// `lower_integer_multiplication` (§7.1, §7.2), once: nothing after it sinks loads again.
/// Register allocation schedules first (§7.1, see `schedule`), and the post-RA scheduler
/// runs after it. Coalescing also follows lower_logical_sends and lower_load_payload (§7.1).
///
/// Copy propagation is not re-run after `lower_regioning`: this backend's copy
/// propagation does not re-check the regioning restrictions that pass legalised.
pub fn optimising() -> Vec<Stage> {
    use Stage::{Fixpoint, Once};
    vec![
        Once(pass!(split_virtual_grfs)),
        Once(pass!(opt_dead_code_eliminate)),
        Once(pass!(eliminate_find_live_channel)),
        Fixpoint(OPT_LOOP),
        Once(pass!(lower_simd_width)),
        Once(pass!(lower_logical_sends)),
        Once(pass!(opt_copy_propagation)),
        Once(pass!(opt_cse)),
        Once(pass!(opt_register_coalesce)),
        Once(pass!(opt_dead_code_eliminate)),
        Once(pass!(opt_redundant_halt)),
        Once(pass!(lower_load_payload)),
        Once(pass!(opt_register_coalesce)),
        Once(pass!(lower_simd_width)),
        Once(pass!(opt_dead_code_eliminate)),
        Once(pass!(opt_combine_constants)),
        Once(pass!(lower_integer_multiplication)),
        Once(pass!(lower_broadcast)),
        Once(pass!(lower_regioning)),
        Once(pass!(opt_dead_code_eliminate)),
        Once(pass!(lower_alu_restrictions)),
        Once(pass!(lower_simd_width)),
        Once(pass!(lower_payload_inputs)),
        Once(pass!(allocate_registers)),
        Once(pass!(schedule_post_ra)),
    ]
}

/// Element stride of a virtual operand in elements (fixed regions report their hstride, or
/// their vstride for width-1 regions); `None` for immediates, null and register-indirect
/// operands (whose element spacing depends on run-time addresses).
pub fn elem_stride(r: &Reg) -> Option<u32> {
    match r.kind {
        RegKind::Vgrf { stride, .. } | RegKind::Attr { stride, .. } => Some(stride as u32),
        RegKind::Uniform { .. } => Some(0),
        RegKind::Fixed { region, .. } | RegKind::Arf { region, .. } => {
            Some(if region.is_scalar() {
                0
            } else if region.width == 1 {
                region.vstride as u32
            } else {
                region.hstride as u32
            })
        }
        RegKind::Null | RegKind::Imm(_) | RegKind::Indirect { .. } => None,
    }
}

/// Byte stride between channels (0 for scalars and immediates).
pub fn byte_stride(r: &Reg) -> u32 {
    elem_stride(r).unwrap_or(0) * r.ty.size()
}

/// Byte offset of an operand within its 32-byte register.
pub fn reg_offset(r: &Reg) -> u32 {
    match r.kind {
        RegKind::Vgrf { offset, .. }
        | RegKind::Attr { offset, .. }
        | RegKind::Uniform { offset, .. } => offset % REG_SIZE,
        RegKind::Fixed { subnr, .. } | RegKind::Arf { subnr, .. } => subnr as u32,
        _ => 0,
    }
}

/// The hardware operand for bytes at `byte` of the GRF file read `stride` elements apart by
/// `exec` channels: rows never straddle a GRF (so a row is at most 32 bytes and starts
/// aligned to its length), scalars are `<0;1,0>`, strides beyond the widest hstride (4) are
/// `<stride;1,0>`.
pub fn fixed_operand(byte: u32, stride: u32, ty: Type, exec: u32, is_dst: bool) -> Reg {
    let nr = (byte / REG_SIZE) as u16;
    let subnr = (byte % REG_SIZE) as u8;
    let size = ty.size();
    let region = if is_dst {
        // One channel has no stride to speak of: any encodable hstride writes the same byte.
        let h = if stride == 0 || exec == 1 { 1 } else { stride } as u8;
        Region::new(h.saturating_mul(8), 8, h)
    } else if stride == 0 || exec == 1 {
        Region::SCALAR
    } else if stride > 4 {
        // hstride stops at 4: wider strides walk rows of one element, vstride apart.
        Region::new(stride as u8, 1, 0)
    } else {
        let elem = stride * size;
        let mut w = exec.min(16);
        while w > 1 && (w * elem > REG_SIZE || !(subnr as u32).is_multiple_of(w * elem)) {
            w /= 2;
        }
        if w == 1 {
            Region::new(stride as u8, 1, 0)
        } else {
            Region::new((w * stride) as u8, w as u8, stride as u8)
        }
    };
    Reg::grf(nr, subnr, region, ty)
}

/// A fresh VGRF big enough for `bytes`, as a packed operand of `ty`.
pub fn temp(p: &mut crate::Program, ty: Type, bytes: u32) -> Reg {
    let nr = p.alloc_vgrf(bytes.div_ceil(REG_SIZE).max(1));
    Reg::vgrf(nr, ty)
}
