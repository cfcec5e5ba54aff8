//! Operands resolved once per program: per-channel byte addresses in the register space
//! (regions walked exactly as the EU does), accumulator lanes, flag-file bytes, immediates.

use super::indirect::{ADDRESS_BYTES, IndirectLoc};
use super::layout::Layout;
use compiler::reg::{Arf, REG_SIZE, Reg, RegKind, Region};
use compiler::types::Type;
use std::rc::Rc;

/// Where channel `c` of an operand reads or writes. The per-channel tables are shared
/// (`Rc`): decoding copies an operand for every repeat of its instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Loc {
    /// Byte address of each channel's element in the register space.
    Space(Rc<[u32]>),
    /// Accumulator lane of each channel (acc0 = lanes 0..8, acc1 = 8..16, ...).
    Acc(Rc<[u32]>),
    /// Byte offset of each channel's element in the 8-byte flag file.
    Flag(Rc<[u32]>),
    /// Immediate bits (vector immediates are expanded per channel when read).
    Imm(u64),
    /// The null register.
    Null,
    /// Byte offset of each channel's element in the address register file `a0`.
    Address(Rc<[u32]>),
    /// A register-indirect GRF operand: each channel's address is computed from `a0` when
    /// the instruction runs (docs/hardware/eu-hardware.md §1.4).
    Indirect(IndirectLoc),
    /// `ce0`: reads the channel-enable mask from channel `offset` (the instruction's
    /// quarter/nibble channel offset) on.
    ChannelEnable { offset: u32 },
    /// An architecture register the model does not hold (sr0, cr0, ...): reads are
    /// undefined, writes are dropped.
    Unmodelled,
}

/// A resolved operand.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub loc: Loc,
    pub ty: Type,
    pub negate: bool,
    pub abs: bool,
    /// For space operands whose channels are packed elements: the first byte.
    pub packed_base: Option<usize>,
}

/// Why an operand cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OperandError {
    /// A VGRF in strict (hardware) mode.
    VirtualInHardware(String),
    /// Outside the register space, the GRF file or an input.
    OutOfSpace(String),
    /// An operand form the emulator does not model (rather than guessing its meaning).
    NotModelled(String),
}

fn region_offsets(
    base: u64,
    region: Region,
    ty: Type,
    n: u32,
) -> impl Iterator<Item = u64> + Clone {
    (0..n).map(move |c| base + region.element(c) as u64 * ty.size() as u64)
}

fn strided_offsets(base: u64, stride: u8, ty: Type, n: u32) -> impl Iterator<Item = u64> + Clone {
    (0..n).map(move |c| base + c as u64 * stride as u64 * ty.size() as u64)
}

/// Per-channel addresses, checked to lie within `[lo, hi)` with the element's bytes.
/// `what` names the register for the error only (not formatted on the success path).
fn checked(
    offs: impl Iterator<Item = u64> + Clone,
    ty: Type,
    lo: u64,
    hi: u64,
    what: impl FnOnce() -> String,
) -> Result<Rc<[u32]>, OperandError> {
    let size = ty.size() as u64;
    if offs.clone().any(|a| a < lo || a + size > hi) {
        return Err(OperandError::OutOfSpace(format!(
            "{} reaches outside its register (bytes {lo}..{hi})",
            what()
        )));
    }
    Ok(offs.map(|a| a as u32).collect())
}

/// Resolves `reg` for an instruction `exec_size` channels wide whose first channel is
/// `group`. `strict` forbids virtual registers (hardware IR uses fixed GRFs only).
pub fn resolve(
    reg: &Reg,
    exec_size: u32,
    group: u32,
    layout: &Layout,
    strict: bool,
) -> Result<Operand, OperandError> {
    let n = exec_size.max(1);
    let ty = reg.ty;
    let loc = match reg.kind {
        RegKind::Null => Loc::Null,
        RegKind::Imm(bits) => Loc::Imm(bits),
        RegKind::Vgrf { nr, offset, stride } => {
            if strict {
                return Err(OperandError::VirtualInHardware(format!(
                    "v{nr} in hardware code: registers must be allocated"
                )));
            }
            let Some(&base) = layout.vgrf_bases.get(nr as usize) else {
                return Err(OperandError::OutOfSpace(format!("v{nr} is not declared")));
            };
            let end = layout
                .vgrf_bases
                .get(nr as usize + 1)
                .copied()
                .unwrap_or(layout.total) as u64;
            let offs = strided_offsets(base as u64 + offset as u64, stride, ty, n);
            Loc::Space(checked(offs, ty, base as u64, end, || format!("v{nr}"))?)
        }
        RegKind::Attr { nr, .. } | RegKind::Uniform { nr, .. } if strict => {
            let name = if matches!(reg.kind, RegKind::Attr { .. }) {
                "attr"
            } else {
                "u"
            };
            return Err(OperandError::VirtualInHardware(format!(
                "{name}{nr} in hardware code: inputs must be read from their payload GRFs"
            )));
        }
        RegKind::Attr { nr, offset, stride } => {
            let Some(&base) = layout.attr_bases.get(nr as usize) else {
                return Err(OperandError::OutOfSpace(format!(
                    "attr{nr} is not declared"
                )));
            };
            let end = layout
                .attr_bases
                .get(nr as usize + 1)
                .copied()
                .unwrap_or(layout.payload_regs * REG_SIZE as usize) as u64;
            let offs = strided_offsets(base as u64 + offset as u64, stride, ty, n);
            Loc::Space(checked(offs, ty, base as u64, end, || format!("attr{nr}"))?)
        }
        RegKind::Uniform { nr, offset } => {
            let base = layout.uniform_base as u64;
            let addr = base + nr as u64 * 4 + offset as u64;
            let end = layout
                .attr_bases
                .first()
                .copied()
                .unwrap_or(layout.payload_regs * REG_SIZE as usize) as u64;
            Loc::Space(checked(
                std::iter::repeat_n(addr, n as usize),
                ty,
                base,
                end,
                || format!("u{nr}"),
            )?)
        }
        RegKind::Fixed { nr, subnr, region } => {
            let base = nr as u64 * REG_SIZE as u64 + subnr as u64;
            let offs = region_offsets(base, region, ty, n);
            Loc::Space(checked(offs, ty, 0, layout.grf_bytes as u64, || {
                format!("g{nr}")
            })?)
        }
        RegKind::Indirect {
            addr,
            offset,
            region,
        } => {
            // Like a fixed GRF it addresses the hardware register file only (never VGRFs
            // laid out beyond it), in logical and hardware code alike.
            Loc::Indirect(IndirectLoc {
                addr,
                offset,
                region,
                grf_bytes: layout.grf_bytes as u32,
            })
        }
        RegKind::Arf {
            file,
            nr,
            subnr,
            region,
        } => match file {
            Arf::Acc => {
                // Lanes count elements: 8 per accumulator register.
                let first = nr as u32 * 8 + subnr as u32 / ty.size().max(1);
                Loc::Acc((0..n).map(|c| first + region.element(c)).collect())
            }
            Arf::Flag => {
                let base = nr as u64 * 4 + subnr as u64;
                let offs = region_offsets(base, region, ty, n);
                Loc::Flag(checked(offs, ty, 0, 8, || format!("f{nr}"))?)
            }
            Arf::Mask => Loc::ChannelEnable { offset: group },
            Arf::Address => {
                let base = nr as u64 * ADDRESS_BYTES as u64 + subnr as u64;
                let offs = region_offsets(base, region, ty, n);
                Loc::Address(checked(offs, ty, 0, ADDRESS_BYTES as u64, || {
                    format!("a{nr}")
                })?)
            }
            _ => Loc::Unmodelled,
        },
    };
    let size = ty.size();
    let packed_base = match &loc {
        Loc::Space(offs) => offs
            .iter()
            .enumerate()
            .all(|(c, &a)| a == offs[0] + c as u32 * size)
            .then(|| offs[0] as usize),
        _ => None,
    };
    Ok(Operand {
        loc,
        ty,
        negate: reg.negate,
        abs: reg.abs,
        packed_base,
    })
}

/// Resolves a destination. A hardware destination's region is just its horizontal stride
/// (docs/hardware/eu-hardware.md §1.2 "Destination (region is just HorzStride)": channel `i` at
/// `base + i*Hd*Sd`; docs/hardware/brw-backend.md §1.4): whatever vstride/width the operand carries is not
/// part of the encoding, so channel `c` lands at element `c*hstride` — the same bytes the
/// strict rules count (`dst_bytes` in strict/rules/regions.rs).
pub fn resolve_dst(
    reg: &Reg,
    exec_size: u32,
    group: u32,
    layout: &Layout,
    strict: bool,
) -> Result<Operand, OperandError> {
    let mut reg = *reg;
    if let RegKind::Fixed { region, .. }
    | RegKind::Arf { region, .. }
    | RegKind::Indirect { region, .. } = &mut reg.kind
    {
        // <hstride;1,0> walks element c*hstride for channel c.
        *region = Region::new(region.hstride, 1, 0);
    }
    resolve(&reg, exec_size, group, layout, strict)
}

/// Byte address of each component `k` register block of a message operand: the operand's
/// first byte plus `k` × one component, for payload-style (contiguous) access.
pub fn first_byte(op: &Operand) -> Option<u32> {
    match &op.loc {
        Loc::Space(offs) => offs.first().copied(),
        _ => None,
    }
}
