//! Align16 operands (docs/hardware/eu-hardware.md §1.3, docs/hardware/fp64-align16.md §1.3, §2, §3): the per-channel
//! byte addresses of swizzled vec4 sources and writemasked destinations, and the plan that
//! tells the executor which channels the writemask disables, where the second half of a
//! compressed instruction starts, and which results the documents leave unconfirmed.
//!
//! Addresses are resolved once at decode time, like Align1 regions (operand.rs), so the
//! executor runs Align16 instructions through the same per-channel loop.
//!
//! * 32-bit (and narrower) operand, channel `c`: 4-channel group `q = c/4`, component
//!   `k = c%4`. A source reads component `swizzle[k]` of the vec4 at
//!   `base + q·VertStride·size` (VertStride 0 replicates one vec4, 4 steps one vec4);
//!   a destination writes `base + c·size` when writemask bit `k` is set.
//! * 64-bit (DF) operand: each 4-channel half reads 2-wide rows of 16 bytes. Channel `c` of
//!   the half is in row `c/2`, element `e = c%2`; the row starts at `base + (c/2)·P`, `P` =
//!   16 bytes for a non-zero VertStride, 0 for VertStride 0; element `e` takes the 32-bit
//!   swizzle pair `(sw[2e], sw[2e+1])`, which for the pairs Mesa emits, `(2k, 2k+1)`, is DF
//!   `k` of the row (docs/hardware/fp64-align16.md §1.3). Writemask bit `i` enables DF component `i` (§2).
//! * Compressed instructions (an operand spanning two GRFs: exec-8 DF, exec-16 32-bit) run
//!   as two halves in order, the second reading after the first has written; the second
//!   half's sources are the first half's addresses one GRF on, except immediates and, from
//!   Gen8 on, VertStride-0 sources. On Gen7 a VertStride-0 source is bumped too: the
//!   "decompression bug" Mesa exploits for DF Z/W access (docs/hardware/fp64-align16.md §3.1). For a
//!   non-zero VertStride this is the same address the linear formula gives.
//! * Virtual operands (VGRF, ATTR, UNIFORM; logical code of the vec4 stage) are not
//!   hardware regions: they use the logical vec4 layout of `compiler::program::Stage`
//!   (docs/hardware/fp64-align16.md §1.1, §10 items 8 and 10), with swizzles and writemasks counting
//!   components of the operand's own type. An instruction with any virtual operand is a
//!   logical instruction: it runs as one step (no halves, no VertStride-0 bump) and has no
//!   unconfirmed effects.

use super::layout::Layout;
use super::operand::{Loc, Operand, OperandError};
use compiler::device::DeviceInfo;
use compiler::reg::{REG_SIZE, Reg, RegKind};
use compiler::{Inst, Opcode};
use std::rc::Rc;

/// How an Align16 instruction runs, beyond its operands' addresses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Channels whose destination component the writemask disables: nothing is written.
    pub masked_off: u32,
    /// The first channel of the second half of a compressed instruction: the first half's
    /// results land before it reads its sources.
    pub second_half: Option<u32>,
    /// Why the documents do not say what the instruction computes, if they do not: every
    /// destination byte it may write becomes undefined (never an invented value).
    pub unconfirmed: Option<&'static str>,
}

fn is_64bit(reg: &Reg) -> bool {
    reg.ty.size() == 8
}

/// Bytes the operand spans when `n` channels access it packed.
fn packed_bytes(reg: &Reg, n: u32) -> u32 {
    if reg.is_null() || reg.is_imm() {
        0
    } else {
        n * reg.ty.size()
    }
}

/// Whether the instruction is compressed: its destination or a source spans two GRFs.
pub fn compressed(inst: &Inst) -> bool {
    let n = inst.exec_size as u32;
    std::iter::once(&inst.dst)
        .chain(&inst.srcs)
        .any(|r| packed_bytes(r, n) > REG_SIZE)
}

/// Whether the operand is a virtual register (VGRF, ATTR, UNIFORM): read and written in the
/// vec4 stage's logical layout, not through a hardware region.
pub fn is_virtual(reg: &Reg) -> bool {
    matches!(
        reg.kind,
        RegKind::Vgrf { .. } | RegKind::Attr { .. } | RegKind::Uniform { .. }
    )
}

/// Whether an Align16 instruction runs with logical (vec4 IR) semantics: any virtual
/// operand makes it a logical instruction, which has no hardware halves and no
/// hardware-unconfirmed effects (docs/hardware/fp64-align16.md §10 item 10).
pub fn is_logical(inst: &Inst) -> bool {
    std::iter::once(&inst.dst).chain(&inst.srcs).any(is_virtual)
}

/// The fixed GRF of a hardware Align16 operand, as (first byte, VertStride).
fn fixed(reg: &Reg) -> Result<(u64, u8), OperandError> {
    match reg.kind {
        RegKind::Fixed { nr, subnr, region } => {
            Ok((nr as u64 * REG_SIZE as u64 + subnr as u64, region.vstride))
        }
        _ => Err(OperandError::NotModelled(format!(
            "Align16 operand `{}`: only fixed GRFs, virtual registers, null and scalar immediates are emulated in Align16",
            compiler::text::print_reg(reg)
        ))),
    }
}

/// A virtual operand's first byte and the bytes `[lo, hi)` of the register it lies in.
fn virtual_span(reg: &Reg, layout: &Layout, strict: bool) -> Result<(u64, u64, u64), OperandError> {
    let name = || compiler::text::print_reg(reg);
    if strict {
        return Err(OperandError::VirtualInHardware(format!(
            "`{}` in hardware code: registers must be allocated and inputs read from their payload GRFs",
            name()
        )));
    }
    let span = |bases: &[usize], nr: u32, end: usize, offset: u32| {
        let lo = *bases.get(nr as usize)?;
        let hi = bases.get(nr as usize + 1).copied().unwrap_or(end);
        Some(((lo + offset as usize) as u64, lo as u64, hi as u64))
    };
    let payload_end = layout.payload_regs * REG_SIZE as usize;
    let found = match reg.kind {
        RegKind::Vgrf { nr, offset, .. } => span(&layout.vgrf_bases, nr, layout.total, offset),
        RegKind::Attr { nr, offset, .. } => span(&layout.attr_bases, nr, payload_end, offset),
        RegKind::Uniform { nr, offset } => {
            let end = layout.attr_bases.first().copied().unwrap_or(payload_end);
            let base = layout.uniform_base as u64;
            Some((base + nr as u64 * 4 + offset as u64, base, end as u64))
        }
        _ => None,
    };
    found.ok_or_else(|| OperandError::OutOfSpace(format!("`{}` is not declared", name())))
}

/// Byte offset from a virtual operand's first byte of channel `c` in the vec4 stage's
/// logical layout (`compiler::program::Stage`, docs/hardware/fp64-align16.md §1.1, §10 item 8): channel
/// `c` is component `k = c % 4` of vertex `q = c / 4`; a vec4 of the operand's type takes
/// `4 · size` bytes (one GRF for 32-bit data, two for DF). A source reads component
/// `swizzle[k]` of its vertex's vec4, counted in the operand's own type (a 64-bit `.zwxy`
/// names DF components); a uniform is one vec4 shared by both vertices; a destination
/// writes component `k` (the writemask decides whether, [`plan`]).
fn logical_offset(reg: &Reg, c: u32, is_src: bool) -> u64 {
    let size = reg.ty.size() as u64;
    let (q, k) = ((c / 4) as u64, c % 4);
    let comp = if is_src {
        reg.swizzle.comp(k) as u64
    } else {
        k as u64
    };
    let vertex = match reg.kind {
        RegKind::Uniform { .. } => 0,
        _ => q * 4 * size,
    };
    vertex + comp * size
}

/// Resolves a virtual Align16 operand of `inst` in the logical layout.
fn resolve_virtual(
    reg: &Reg,
    inst: &Inst,
    layout: &Layout,
    strict: bool,
    is_src: bool,
) -> Result<Loc, OperandError> {
    let (base, lo, hi) = virtual_span(reg, layout, strict)?;
    let size = reg.ty.size() as u64;
    let n = inst.exec_size.max(1) as u32;
    let offs: Vec<u64> = (0..n)
        .map(|c| base + logical_offset(reg, c, is_src))
        .collect();
    if offs.iter().any(|&a| a < lo || a + size > hi) {
        return Err(OperandError::OutOfSpace(format!(
            "`{}` reaches outside its register (bytes {lo}..{hi})",
            compiler::text::print_reg(reg)
        )));
    }
    Ok(Loc::Space(offs.into_iter().map(|a| a as u32).collect()))
}

fn checked(offs: Vec<u64>, size: u64, layout: &Layout, reg: &Reg) -> Result<Loc, OperandError> {
    let hi = layout.grf_bytes as u64;
    if offs.iter().any(|&a| a + size > hi) {
        return Err(OperandError::OutOfSpace(format!(
            "`{}` reaches outside the GRF file",
            compiler::text::print_reg(reg)
        )));
    }
    Ok(Loc::Space(
        offs.into_iter().map(|a| a as u32).collect::<Rc<[u32]>>(),
    ))
}

/// Byte offset from the operand's first byte of channel `c` of one (uncompressed) half.
fn half_offset(reg: &Reg, vstride: u8, c: u32) -> u64 {
    let size = reg.ty.size() as u64;
    if is_64bit(reg) {
        let pitch = if vstride == 0 { 0 } else { 16 };
        let row = (c % 4 / 2) as u64;
        let pair_first = reg.swizzle.comp(2 * (c % 2)) as u64;
        row * pitch + pair_first / 2 * 8
    } else {
        let q = (c / 4) as u64;
        q * vstride as u64 * size + reg.swizzle.comp(c % 4) as u64 * size
    }
}

/// Resolves an Align16 source of `inst` (see the module docs for the addressing); a
/// virtual operand (only in logical code: `strict` refuses it) uses the logical layout.
pub fn resolve_src(
    reg: &Reg,
    inst: &Inst,
    info: &DeviceInfo,
    layout: &Layout,
    strict: bool,
) -> Result<Operand, OperandError> {
    let loc = match reg.kind {
        RegKind::Null => Loc::Null,
        RegKind::Imm(bits) if !reg.ty.is_vector_imm() => Loc::Imm(bits),
        _ if is_virtual(reg) => resolve_virtual(reg, inst, layout, strict, true)?,
        _ => {
            let (base, vstride) = fixed(reg)?;
            let n = inst.exec_size.max(1) as u32;
            let halves = compressed(inst) && !is_logical(inst);
            // Gen7 bumps every non-scalar source for the second half, VertStride 0 included
            // (docs/hardware/fp64-align16.md §3.1); later parts replicate a VertStride-0 source.
            let bump = if vstride == 0 && info.verx10 >= 80 {
                0
            } else {
                REG_SIZE as u64
            };
            let offs = (0..n)
                .map(|c| match halves && c >= n / 2 {
                    true => base + bump + half_offset(reg, vstride, c - n / 2),
                    false => base + half_offset(reg, vstride, c),
                })
                .collect();
            checked(offs, reg.ty.size() as u64, layout, reg)?
        }
    };
    Ok(Operand {
        loc,
        ty: reg.ty,
        negate: reg.negate,
        abs: reg.abs,
        packed_base: None,
    })
}

/// Resolves an Align16 destination: channel `c` at `base + c·size` (HorzStride 1), which
/// for a virtual destination is also component `c % 4` of vertex `c / 4`.
pub fn resolve_dst(
    reg: &Reg,
    inst: &Inst,
    layout: &Layout,
    strict: bool,
) -> Result<Operand, OperandError> {
    let loc = match reg.kind {
        RegKind::Null => Loc::Null,
        _ if is_virtual(reg) => resolve_virtual(reg, inst, layout, strict, false)?,
        _ => {
            let (base, _) = fixed(reg)?;
            let size = reg.ty.size() as u64;
            let n = inst.exec_size.max(1) as u64;
            checked((0..n).map(|c| base + c * size).collect(), size, layout, reg)?
        }
    };
    Ok(Operand {
        loc,
        ty: reg.ty,
        negate: false,
        abs: false,
        packed_base: None,
    })
}

/// Why the documents leave this instruction's result open, if they do. A logical
/// instruction has none: its swizzles and writemasks count components of the operand's
/// type, whatever the hardware would make of them (docs/hardware/fp64-align16.md §10 item 10).
fn unconfirmed(inst: &Inst, info: &DeviceInfo) -> Option<&'static str> {
    if is_logical(inst) {
        return None;
    }
    let df_dst = is_64bit(&inst.dst);
    let mask = inst.dst.writemask.0 & 0xf;
    if df_dst && (mask == 0b0011 || mask == 0b1100) {
        // docs/hardware/fp64-align16.md §2/§12: Mesa says .xy/.zw "also work in 32-bit" and never emits
        // them on DF; what the hardware writes is not documented (two readings fit: DF x/z
        // or DF x alone for .xy). Any DF component may or may not be written.
        return Some("DF Align16 destination with an .xy/.zw writemask: effect not confirmed");
    }
    if df_dst && matches!(inst.dst.kind, RegKind::Fixed { subnr, .. } if subnr % 32 != 0) {
        // Mesa never uses a DF destination sub-register (§2); its second row would cross
        // into the next GRF, which no document describes.
        return Some("DF Align16 destination at sub-register 16: effect not confirmed");
    }
    if inst.op == Opcode::Sel
        && inst.predicate.is_some()
        && info.verx10 < 80
        && inst.exec_size == 8
        && (df_dst || inst.srcs.iter().any(is_64bit))
    {
        // docs/hardware/fp64-align16.md §4 rule 3, §12: compressed Align16 DF SEL misreads the predicate
        // on Gen7, in a pattern nobody documented.
        return Some("exec-8 Align16 DF SEL on Gen7 misreads its predicate: effect not confirmed");
    }
    for s in inst.srcs.iter().filter(|s| !s.is_imm() && !s.is_null()) {
        if is_64bit(s) && !s.swizzle.selects_df_pairs() {
            // §1.3 defines rows of DFs picked by pairs (2k, 2k+1); a pair such as (1, 0)
            // would splice dwords of two DFs, which no document describes.
            return Some(
                "DF Align16 swizzle pair not of the form (2k, 2k+1): effect not confirmed",
            );
        }
        if !is_64bit(s) && matches!(s.kind, RegKind::Fixed { region, .. } if region.vstride == 2) {
            // docs/hardware/eu-hardware.md §1.3 allows VertStride 2 from HSW on but describes only 0
            // (replicate) and 4 (next vec4) for 32-bit data; §1.2 of the DF sheet covers DF.
            return Some("32-bit Align16 source with VertStride 2: effect not confirmed");
        }
    }
    None
}

/// The execution plan of an Align16 instruction on `info`.
pub fn plan(inst: &Inst, info: &DeviceInfo) -> Plan {
    let n = inst.exec_size as u32;
    let mask = inst.dst.writemask;
    let masked_off = (0..n.min(32))
        .filter(|&c| !mask.enables(c))
        .fold(0, |m, c| m | 1 << c);
    Plan {
        masked_off,
        second_half: (compressed(inst) && !is_logical(inst)).then_some(n / 2),
        unconfirmed: unconfirmed(inst, info),
    }
}
