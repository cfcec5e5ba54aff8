//! The passes, one per file, each declaring itself as a `pub const PASS: Pass` and named
//! once in the `passes!` list below (the vec4 ones in [`vec4`]'s), and the helpers they share (the scheduler, spilling, scratch messages,
//! the final VGRF-to-GRF rewrite, operand arithmetic below). Analyses are in
//! `crate::analysis`; the order passes run in is the pipeline's (`pipeline::order`).

/// Declares the pass modules of this module and lists their `PASS` values, so that a pass
/// is registered by naming it once: adding a pass is its file plus one line in a
/// `passes!` list (and its place in `pipeline::order`).
macro_rules! passes {
    ($($pass:ident),* $(,)?) => {
        $(pub mod $pass;)*
        /// The passes declared here, in the order listed (that of their first run).
        pub const PASSES: &[&crate::pass::Pass] = &[$(&$pass::PASS),*];
    };
}

passes! {
    lower_simd_width,
    lower_logical_sends,
    lower_load_payload,
    lower_integer_multiplication,
    lower_broadcast,
    lower_regioning,
    lower_alu_restrictions,
    lower_payload_inputs,
    allocate_registers,
    split_virtual_grfs,
    opt_dead_code_eliminate,
    eliminate_find_live_channel,
    opt_algebraic,
    opt_cse,
    opt_copy_propagation,
    opt_predicated_break,
    opt_cmod_propagation,
    opt_peephole_sel,
    dead_control_flow_eliminate,
    opt_saturate_propagation,
    opt_register_coalesce,
    move_load_const,
    compact_virtual_grfs,
    opt_redundant_halt,
    opt_combine_constants,
    schedule_post_ra,
}

pub mod lower_vgrfs_to_fixed_grfs;
pub mod registry;
pub mod schedule;
pub mod scratch;
pub mod spill;
pub mod vec4;

use crate::inst::{CondMod, Inst};
use crate::opcode::Opcode;
use crate::reg::{REG_SIZE, Reg, RegKind, Region};
use crate::types::Type;

pub use registry::rewrite_kinds;

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
/// aligned to its length, unless one row holds every channel), scalars are `<0;1,0>`, strides beyond the widest hstride (4) are
/// `<stride;1,0>`.
pub fn fixed_operand(byte: u32, stride: u32, ty: Type, exec: u32, is_dst: bool) -> Reg {
    let nr = (byte / REG_SIZE) as u16;
    let subnr = (byte % REG_SIZE) as u8;
    let size = ty.size();
    let region = if is_dst {
        // One channel has no stride to speak of: any encodable hstride writes the same byte.
        // A half float one with a stride of 2 or more keeps HorzStride 2, since a packed HF
        // destination of mixed float must be oword aligned (docs/hardware/eu-hardware.md
        // §6.5; lower_regioning chose the stride, or the value is strided to begin with).
        let h = if exec == 1 {
            if ty == Type::HF && stride >= 2 { 2 } else { 1 }
        } else if stride == 0 {
            1
        } else {
            stride
        } as u8;
        Region::new(h.saturating_mul(8), 8, h)
    } else if stride == 0 || exec == 1 {
        Region::SCALAR
    } else if stride > 4 {
        // hstride stops at 4: wider strides walk rows of one element, vstride apart.
        Region::new(stride as u8, 1, 0)
    } else {
        let elem = stride * size;
        let mut w = exec.min(16);
        // One row holding every channel needs only to end in its register; several rows
        // each start a row's length on, so they start aligned to it.
        let one_row = |w: u32| w == exec && subnr as u32 + (w - 1) * elem + size <= REG_SIZE;
        while w > 1
            && !one_row(w)
            && (w * elem > REG_SIZE || !(subnr as u32).is_multiple_of(w * elem))
        {
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

/// The HorzStride source `r` of an `exec`-channel instruction is encoded with: its own
/// region's for hardware registers, the one `fixed_operand` gives a virtual register once
/// it is allocated (a stride beyond 4, or rows that would straddle a register, become
/// width-1 rows with HorzStride 0). `None` for operands without a region.
pub fn encoded_src_hstride(r: &Reg, exec: u32) -> Option<u32> {
    match r.kind {
        RegKind::Fixed { region, .. } | RegKind::Arf { region, .. } => Some(region.hstride as u32),
        _ => {
            let stride = elem_stride(r)?;
            match fixed_operand(reg_offset(r), stride, r.ty, exec, false).kind {
                RegKind::Fixed { region, .. } => Some(region.hstride as u32),
                _ => None,
            }
        }
    }
}

/// Byte offset, from the start of the operand's first register, of the element channel `c`
/// reads or writes: by the region for hardware registers, by the stride for virtual ones.
pub fn channel_byte(r: &Reg, c: u32) -> u32 {
    match r.kind {
        RegKind::Fixed { subnr, region, .. } | RegKind::Arf { subnr, region, .. } => {
            subnr as u32 + region.element(c) * r.ty.size()
        }
        _ => reg_offset(r) + c * byte_stride(r),
    }
}

/// Whether a source region read by `exec` channels from byte `subnr` of a register breaks
/// one of the shape rules every Align1 source obeys (docs/hardware/eu-hardware.md §1.6):
/// ExecSize ≥ Width, Width 1 → HorzStride 0, ExecSize = Width = 1 → both strides 0, and no
/// row running into the next register (rows cross registers only by VertStride).
fn breaks_region_rules(region: Region, subnr: u32, size: u32, exec: u32) -> bool {
    let w = region.width.max(1) as u32;
    let row_crosses = (0..exec.div_ceil(w)).any(|row| {
        let start = subnr + row * region.vstride as u32 * size;
        let last = start + (w.min(exec - row * w) - 1) * region.hstride as u32 * size + size - 1;
        last / REG_SIZE != start / REG_SIZE
    });
    exec < w
        || (w == 1 && region.hstride != 0)
        || (exec == 1 && w == 1 && region.vstride != 0)
        || row_crosses
}

/// A fixed-GRF source of `exec` channels whose region walks its elements a constant stride
/// apart, given the region the hardware accepts for those elements ([`fixed_operand`])
/// when its own breaks a shape rule. Passes read fixed destinations back as sources (a
/// predicated rewrite's copy, a split piece), and a destination's region
/// (`g44.7<8;8,1>`) read by fewer channels or from a sub-register is not a legal source
/// region; the elements are the same, so the program means the same.
pub fn legal_fixed_source(r: Reg, exec: u32) -> Reg {
    let RegKind::Fixed { nr, subnr, region } = r.kind else {
        return r;
    };
    let exec = exec.max(1);
    let size = r.ty.size();
    match region.linear_stride() {
        Some(stride) if breaks_region_rules(region, subnr as u32, size, exec) => {
            let byte = nr as u32 * REG_SIZE + subnr as u32;
            Reg {
                negate: r.negate,
                abs: r.abs,
                ..fixed_operand(byte, stride, r.ty, exec, false)
            }
        }
        _ => r,
    }
}

/// A fresh VGRF big enough for `bytes`, as a packed operand of `ty`.
pub fn temp(p: &mut crate::Program, ty: Type, bytes: u32) -> Reg {
    let nr = p.alloc_vgrf(bytes.div_ceil(REG_SIZE).max(1));
    Reg::vgrf(nr, ty)
}

fn reversed(c: CondMod) -> CondMod {
    match c {
        CondMod::G => CondMod::L,
        CondMod::L => CondMod::G,
        CondMod::Ge => CondMod::Le,
        CondMod::Le => CondMod::Ge,
        other => other,
    }
}

/// Moves the immediate src0 of a two-source instruction into src1, the only source that
/// can hold one (docs/hardware/eu-hardware.md §3.3), where the operation allows it:
/// commutative operations swap, CMP swaps with the reversed condition, a predicated SEL
/// swaps with the inverted predicate. Returns false, leaving `inst` alone, otherwise.
pub fn swap_immediate_into_src1(inst: &mut Inst) -> bool {
    // Float min/max (SEL.l/.ge) picks src0 when the two compare equal, so with −0.0
    // and +0.0 the order decides the sign of the result: not swapped (the documents
    // are silent on SEL's tie-break; the conservative choice keeps the order).
    let float_min_max = inst.op == Opcode::Sel
        && inst.predicate.is_none()
        && (inst.srcs[0].ty.is_float() || inst.srcs[1].ty.is_float());
    let commutative = matches!(
        inst.op,
        Opcode::Add
            | Opcode::Mul
            | Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Avg
            | Opcode::Addc
    ) || (inst.op == Opcode::Sel && inst.predicate.is_none() && !float_min_max);
    if commutative {
        inst.srcs.swap(0, 1);
    } else if inst.op == Opcode::Cmp {
        inst.srcs.swap(0, 1);
        inst.cmod = inst.cmod.map(reversed);
    } else if inst.op == Opcode::Sel && !float_min_max {
        inst.srcs.swap(0, 1);
        if let Some(pred) = &mut inst.predicate {
            pred.inverse = !pred.inverse;
        }
    } else {
        return false;
    }
    true
}
