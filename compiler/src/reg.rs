//! Operands (`brw_reg`): register files, regions, immediates and source modifiers.
//!
//! Virtual files (VGRF, ATTR, UNIFORM) address bytes from the start of the register plus an
//! element stride, as Mesa's IR does before register allocation. Hardware files (fixed GRFs
//! and architecture registers) carry a `<vstride;width,hstride>` region instead, which the
//! emulator walks exactly as the EU does.

use crate::types::Type;
use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};

/// Bytes in one register unit (`REG_SIZE`): a GRF, and the allocation unit of VGRFs.
pub const REG_SIZE: u32 = 32;

/// A hardware region in elements: `<vstride;width,hstride>`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub struct Region {
    pub vstride: u8,
    pub width: u8,
    pub hstride: u8,
}

impl Region {
    pub const fn new(vstride: u8, width: u8, hstride: u8) -> Region {
        Region {
            vstride,
            width,
            hstride,
        }
    }

    /// VertStride of a one-dimensional indirect region (docs/hardware/eu-hardware.md §1.1 code 0xF,
    /// `BRW_VERTICAL_STRIDE_ONE_DIMENSIONAL`): only meaningful on a register-indirect operand,
    /// where width > 1 is "Vx1" (one address subregister per row) and width 1 is "VxH" (one
    /// per channel), §1.4. Printed `Vx1`/`VxH`, never as a number.
    pub const ONE_DIMENSIONAL: u8 = 0xF;

    /// `<0;1,0>`: every channel reads the same element.
    pub const SCALAR: Region = Region::new(0, 1, 0);
    /// `<8;8,1>`: the common packed SIMD8 region.
    pub const PACKED8: Region = Region::new(8, 8, 1);

    /// The region stored for an Align16 operand with VertStride `vstride`: Align16 encodes
    /// only VertStride for a source and nothing but HorzStride 1 for a destination
    /// (docs/hardware/eu-hardware.md §1.3), so width and hstride are fixed at 4 and 1 (`<V>` in the text
    /// form; the emulator's Align16 addressing reads only `vstride`).
    pub const fn align16(vstride: u8) -> Region {
        Region::new(vstride, 4, 1)
    }

    /// Whether this is the region [`Region::align16`] stores, printed in the short form.
    pub fn is_align16_form(self) -> bool {
        self.width == 4 && self.hstride == 1
    }

    /// The packed-style region `<w*stride;w,stride>` that reads elements `stride` apart.
    pub fn strided(exec_size: u32, stride: u8) -> Region {
        if stride == 0 {
            return Region::SCALAR;
        }
        let width = exec_size.clamp(1, 16) as u8;
        if width == 1 {
            return Region::SCALAR;
        }
        Region::new(width.saturating_mul(stride), width, stride)
    }

    /// Whether this is a Vx1/VxH region (one address subregister per row or per channel).
    pub fn is_one_dimensional(self) -> bool {
        self.vstride == Region::ONE_DIMENSIONAL
    }

    pub fn is_scalar(self) -> bool {
        self.vstride == 0 && self.width == 1 && self.hstride == 0
    }

    /// The element stride of a region whose channels read equally spaced elements: rows of
    /// one element step by VertStride, rows of several by HorzStride when the next row
    /// starts right after (VertStride = Width × HorzStride). `None` for scalars, Vx1/VxH
    /// and 2-D regions with gaps or repeats between rows.
    pub fn linear_stride(self) -> Option<u32> {
        if self.is_scalar() || self.is_one_dimensional() {
            None
        } else if self.width == 1 {
            Some(self.vstride as u32)
        } else if self.vstride as u32 == self.width as u32 * self.hstride as u32 {
            Some(self.hstride as u32)
        } else {
            None
        }
    }

    /// Element index (in units of the operand type) that channel `i` reads.
    pub fn element(self, i: u32) -> u32 {
        let w = self.width.max(1) as u32;
        (i / w) * self.vstride as u32 + (i % w) * self.hstride as u32
    }

    /// The largest element index among channels `0..n` (`n` ≥ 1): strides are never
    /// negative, so it is the last channel or the end of the row before it.
    pub fn last_element(self, n: u32) -> u32 {
        let w = self.width.max(1) as u32;
        let last = self.element(n - 1);
        match (n - 1) / w {
            0 => last,
            row => last.max((row - 1) * self.vstride as u32 + (w - 1) * self.hstride as u32),
        }
    }
}

/// Architecture register files (`BRW_ARF_*`), without the null register.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub enum Arf {
    /// `a0`: address register.
    Address,
    /// `acc0`/`acc1`: accumulators.
    Acc,
    /// `f0`/`f1`: flag registers, each two 16-bit subregisters.
    Flag,
    /// `ce0`: channel enables.
    Mask,
    /// `sr0`: state register (holds the dispatch mask).
    State,
    /// `cr0`: control register (rounding and denormal modes).
    Control,
    /// `n0`: notification count.
    Notification,
    /// `ip`: instruction pointer.
    Ip,
    /// `tdr0`: thread dependency register.
    Tdr,
    /// `tm0`: timestamp.
    Timestamp,
}

/// Every ARF with its printed prefix.
pub const ARF_NAMES: [(Arf, &str); 10] = [
    (Arf::Address, "a"),
    (Arf::Acc, "acc"),
    (Arf::Flag, "f"),
    (Arf::Mask, "ce"),
    (Arf::State, "sr"),
    (Arf::Control, "cr"),
    (Arf::Notification, "n"),
    (Arf::Ip, "ip"),
    (Arf::Tdr, "tdr"),
    (Arf::Timestamp, "tm"),
];

impl Arf {
    pub fn prefix(self) -> &'static str {
        ARF_NAMES
            .iter()
            .find(|(a, _)| *a == self)
            .map(|(_, n)| *n)
            .unwrap_or("?")
    }
}

/// Where an operand lives.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub enum RegKind {
    /// The null register: writes are dropped, reads are undefined.
    Null,
    /// Virtual GRF `v<nr>`: byte offset from its start, element stride (0 = scalar).
    Vgrf { nr: u32, offset: u32, stride: u8 },
    /// Per-channel shader input `attr<nr>`, addressed like a VGRF.
    Attr { nr: u32, offset: u32, stride: u8 },
    /// Push constant `u<nr>`: dword index plus byte offset; always a scalar read.
    Uniform { nr: u32, offset: u32 },
    /// Physical GRF `g<nr>`; `subnr` is a byte offset.
    Fixed { nr: u16, subnr: u8, region: Region },
    /// Register-indirect GRF access `g[a0.<addr> + <offset>]` (docs/hardware/eu-hardware.md §1.4): the
    /// origin is address subregister `a0.<addr>` (16-bit, a GRF byte address) plus a signed
    /// immediate byte offset, known only when the instruction runs. A `Vx1`/`VxH` region
    /// (`Region::ONE_DIMENSIONAL`) takes one address subregister per row / per channel,
    /// `a0.<addr>`, `a0.<addr+1>`, ...; any other region walks from the single origin. As a
    /// destination only the horizontal stride counts, as for `Fixed`.
    Indirect {
        addr: u8,
        offset: i16,
        region: Region,
    },
    /// Architecture register, e.g. `acc0`, `f1.0`; `subnr` is a byte offset.
    Arf {
        file: Arf,
        nr: u8,
        subnr: u8,
        region: Region,
    },
    /// Immediate: raw bits, interpreted by the operand type (low 32 bits for ≤ 32-bit types).
    Imm(u64),
}

/// An Align16 source swizzle (docs/hardware/eu-hardware.md §1.3): for each of the four components of a
/// 4-channel group, which 32-bit component of the vec4 it reads. Packed like Mesa's
/// `BRW_SWIZZLE4` (component `i` in bits `2i..2i+2`) so every byte value is a swizzle and
/// the type stays a plain `Copy` value. Align1 instructions ignore it; the validator
/// reports a non-identity swizzle there.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub struct Swizzle(pub u8);

/// Component letters of swizzles and writemasks, in component order.
pub const COMPONENT_LETTERS: [char; 4] = ['x', 'y', 'z', 'w'];

impl Swizzle {
    /// `.xyzw`: component `i` reads component `i` (the default of every operand).
    pub const XYZW: Swizzle = Swizzle::new([0, 1, 2, 3]);

    /// The swizzle whose component `i` reads component `comps[i]` (each taken mod 4).
    pub const fn new(comps: [u8; 4]) -> Swizzle {
        Swizzle((comps[0] & 3) | (comps[1] & 3) << 2 | (comps[2] & 3) << 4 | (comps[3] & 3) << 6)
    }

    /// `.xxxx`-style: every component reads `comp`.
    pub const fn replicate(comp: u8) -> Swizzle {
        Swizzle::new([comp, comp, comp, comp])
    }

    /// Which component component `i` (mod 4) reads.
    pub const fn comp(self, i: u32) -> u8 {
        (self.0 >> (2 * (i % 4))) & 3
    }

    /// The four selectors in order.
    pub const fn comps(self) -> [u8; 4] {
        [self.comp(0), self.comp(1), self.comp(2), self.comp(3)]
    }

    pub fn is_identity(self) -> bool {
        self == Swizzle::XYZW
    }

    /// Whether both 32-bit pairs are of the form `(2k, 2k+1)`: read on a DF source, each
    /// pair then names one whole DF of a 16-byte row (docs/hardware/fp64-align16.md §1.3).
    pub fn selects_df_pairs(self) -> bool {
        let c = self.comps();
        c[0].is_multiple_of(2) && c[1] == c[0] + 1 && c[2].is_multiple_of(2) && c[3] == c[2] + 1
    }

    /// Mesa's printed form without the dot: one letter when all four agree (`x`), else four.
    pub fn letters(self) -> String {
        let c = self.comps();
        let letter = |k: u8| COMPONENT_LETTERS[k as usize];
        if c.iter().all(|&k| k == c[0]) {
            letter(c[0]).to_string()
        } else {
            c.iter().map(|&k| letter(k)).collect()
        }
    }
}

impl Default for Swizzle {
    fn default() -> Swizzle {
        Swizzle::XYZW
    }
}

/// An Align16 destination writemask (docs/hardware/eu-hardware.md §1.3): bit `i` enables component `i`
/// of every 4-channel group (for 64-bit data, DF component `i`, docs/hardware/fp64-align16.md §2). Only
/// the low four bits mean anything; Align1 instructions ignore it and the validator reports
/// a partial mask there.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub struct WriteMask(pub u8);

impl WriteMask {
    /// `.xyzw`: every component written (the default of every operand; printed without suffix).
    pub const XYZW: WriteMask = WriteMask(0xf);

    /// Whether component `i` (mod 4) is written.
    pub const fn enables(self, i: u32) -> bool {
        self.0 >> (i % 4) & 1 != 0
    }

    pub fn is_full(self) -> bool {
        self.0 & 0xf == 0xf
    }

    /// The printed form without the dot, components in order (`xz`); empty for no component.
    pub fn letters(self) -> String {
        (0..4)
            .filter(|&i| self.enables(i))
            .map(|i| COMPONENT_LETTERS[i as usize])
            .collect()
    }
}

impl Default for WriteMask {
    fn default() -> WriteMask {
        WriteMask::XYZW
    }
}

/// One operand: location, type, source modifiers, and the Align16 swizzle (sources) or
/// writemask (destinations). The Align16 fields default to "all components in order" so
/// that every Align1 operand is built, compared and serialised exactly as before; the
/// `Arbitrary` impl leaves them at that default (the text tests cover them separately).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub struct Reg {
    pub kind: RegKind,
    pub ty: Type,
    pub negate: bool,
    pub abs: bool,
    #[serde(default)]
    #[arbitrary(default)]
    pub swizzle: Swizzle,
    #[serde(default)]
    #[arbitrary(default)]
    pub writemask: WriteMask,
}

impl Reg {
    pub const fn new(kind: RegKind, ty: Type) -> Reg {
        Reg {
            kind,
            ty,
            negate: false,
            abs: false,
            swizzle: Swizzle::XYZW,
            writemask: WriteMask::XYZW,
        }
    }

    /// The same operand read through an Align16 swizzle.
    pub fn swizzled(mut self, swizzle: Swizzle) -> Reg {
        self.swizzle = swizzle;
        self
    }

    /// The same operand written through an Align16 writemask (low four bits).
    pub fn masked(mut self, mask: u8) -> Reg {
        self.writemask = WriteMask(mask & 0xf);
        self
    }

    pub const fn null(ty: Type) -> Reg {
        Reg::new(RegKind::Null, ty)
    }

    pub const fn vgrf(nr: u32, ty: Type) -> Reg {
        Reg::new(
            RegKind::Vgrf {
                nr,
                offset: 0,
                stride: 1,
            },
            ty,
        )
    }

    pub const fn attr(nr: u32, ty: Type) -> Reg {
        Reg::new(
            RegKind::Attr {
                nr,
                offset: 0,
                stride: 1,
            },
            ty,
        )
    }

    pub const fn uniform(nr: u32, ty: Type) -> Reg {
        Reg::new(RegKind::Uniform { nr, offset: 0 }, ty)
    }

    pub const fn grf(nr: u16, subnr: u8, region: Region, ty: Type) -> Reg {
        Reg::new(RegKind::Fixed { nr, subnr, region }, ty)
    }

    pub const fn arf(file: Arf, nr: u8, subnr: u8, region: Region, ty: Type) -> Reg {
        Reg::new(
            RegKind::Arf {
                file,
                nr,
                subnr,
                region,
            },
            ty,
        )
    }

    /// `acc<nr>` with the packed region of an 8-wide operation.
    pub const fn acc(nr: u8, ty: Type) -> Reg {
        Reg::arf(Arf::Acc, nr, 0, Region::PACKED8, ty)
    }

    /// The 16-bit flag subregister `f<sub/2>.<sub%2>` read as a UW scalar.
    pub const fn flag(subreg: u8) -> Reg {
        Reg::arf(
            Arf::Flag,
            subreg / 2,
            (subreg % 2) * 2,
            Region::SCALAR,
            Type::UW,
        )
    }

    pub fn imm(bits: u64, ty: Type) -> Reg {
        let bits = if ty.size() >= 8 {
            bits
        } else {
            bits & 0xffff_ffff
        };
        Reg::new(RegKind::Imm(bits), ty)
    }

    pub fn imm_d(v: i32) -> Reg {
        Reg::imm(v as u32 as u64, Type::D)
    }

    pub fn imm_ud(v: u32) -> Reg {
        Reg::imm(v as u64, Type::UD)
    }

    pub fn imm_w(v: i16) -> Reg {
        Reg::imm(v as u16 as u64, Type::W)
    }

    pub fn imm_uw(v: u16) -> Reg {
        Reg::imm(v as u64, Type::UW)
    }

    pub fn imm_f(v: f32) -> Reg {
        Reg::imm(v.to_bits() as u64, Type::F)
    }

    pub fn imm_df(v: f64) -> Reg {
        Reg::imm(v.to_bits(), Type::DF)
    }

    pub fn imm_q(v: i64) -> Reg {
        Reg::imm(v as u64, Type::Q)
    }

    pub fn imm_uq(v: u64) -> Reg {
        Reg::imm(v, Type::UQ)
    }

    pub fn retype(mut self, ty: Type) -> Reg {
        self.ty = ty;
        self
    }

    pub fn negated(mut self) -> Reg {
        self.negate = !self.negate;
        self
    }

    pub fn with_abs(mut self) -> Reg {
        self.abs = true;
        self.negate = false;
        self
    }

    /// Same register, `bytes` further on (virtual files) or `bytes` later in the GRF file.
    pub fn byte_offset(mut self, bytes: u32) -> Reg {
        match &mut self.kind {
            RegKind::Vgrf { offset, .. }
            | RegKind::Attr { offset, .. }
            | RegKind::Uniform { offset, .. } => *offset += bytes,
            RegKind::Fixed { nr, subnr, .. } => {
                let total = *subnr as u32 + bytes;
                *nr += (total / REG_SIZE) as u16;
                *subnr = (total % REG_SIZE) as u8;
            }
            RegKind::Arf { subnr, .. } => *subnr = (*subnr as u32 + bytes) as u8,
            RegKind::Indirect { offset, .. } => *offset = offset.wrapping_add(bytes as i16),
            RegKind::Null | RegKind::Imm(_) => {}
        }
        self
    }

    /// Element stride for virtual files; replaces the region's strides on hardware files.
    pub fn with_stride(mut self, s: u8) -> Reg {
        match &mut self.kind {
            RegKind::Vgrf { stride, .. } | RegKind::Attr { stride, .. } => *stride = s,
            RegKind::Fixed { region, .. }
            | RegKind::Arf { region, .. }
            | RegKind::Indirect { region, .. } => {
                *region = if s == 0 {
                    Region::SCALAR
                } else if region.width == 1 {
                    // Rows of one element step by VertStride; HorzStride must stay 0.
                    Region::new(s, 1, 0)
                } else {
                    Region::new(region.width.saturating_mul(s), region.width, s)
                }
            }
            _ => {}
        }
        self
    }

    /// Piece `k` of every element seen as the narrower `ty` (Mesa's `subscript`, Mesa
    /// `brw_ir_fs.h`): the same elements, each read `ty`-wide from its byte `k·size(ty)`.
    /// A register region keeps its shape with both strides scaled by the size ratio, so a
    /// two-dimensional region (`<4;4,0>`: rows repeating one element) stays one; a stride
    /// alone would make it linear or scalar and read other elements.
    pub fn subscript(self, ty: Type, k: u32) -> Reg {
        let ratio = (self.ty.size() / ty.size()).max(1) as u8;
        let mut r = self;
        match &mut r.kind {
            RegKind::Vgrf { stride, .. } | RegKind::Attr { stride, .. } => {
                *stride = stride.saturating_mul(ratio)
            }
            RegKind::Fixed { region, .. }
            | RegKind::Arf { region, .. }
            | RegKind::Indirect { region, .. } => {
                // (A one-dimensional indirect region's VertStride is a code, not a stride.)
                if !region.is_one_dimensional() {
                    region.vstride = region.vstride.saturating_mul(ratio);
                }
                region.hstride = region.hstride.saturating_mul(ratio);
            }
            _ => {}
        }
        r.retype(ty).byte_offset(k * ty.size())
    }

    /// Operand for channels starting `channels` later (Mesa's `horiz_offset`). A vector
    /// immediate gives channel `c` of an instruction its element `c` (docs/hardware/eu-hardware.md §6.8),
    /// so the later channels' operand starts at a later element.
    pub fn horiz_offset(self, channels: u32) -> Reg {
        match self.kind {
            RegKind::Imm(bits) if self.ty.is_vector_imm() => {
                let (elements, bits_each) = if self.ty == Type::VF { (4, 8) } else { (8, 4) };
                let turned = (bits as u32).rotate_right(channels % elements * bits_each);
                Reg {
                    kind: RegKind::Imm(turned as u64),
                    ..self
                }
            }
            RegKind::Vgrf { stride, .. } | RegKind::Attr { stride, .. } => {
                self.byte_offset(channels * stride as u32 * self.ty.size())
            }
            RegKind::Fixed { region, .. } | RegKind::Arf { region, .. } => {
                self.byte_offset(region.element(channels) * self.ty.size())
            }
            _ => self,
        }
    }

    /// Component `k` of a multi-component value written `width` channels wide (Mesa's `offset`).
    pub fn component(self, width: u32, k: u32) -> Reg {
        match self.kind {
            RegKind::Vgrf { stride, .. } | RegKind::Attr { stride, .. } => {
                let per = width * stride.max(1) as u32 * self.ty.size();
                self.byte_offset(k * per)
            }
            RegKind::Fixed { .. } | RegKind::Arf { .. } => {
                self.byte_offset(k * width * self.ty.size())
            }
            _ => self,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.kind, RegKind::Null)
    }

    pub fn is_imm(&self) -> bool {
        matches!(self.kind, RegKind::Imm(_))
    }

    pub fn is_vgrf(&self) -> bool {
        matches!(self.kind, RegKind::Vgrf { .. })
    }

    pub fn is_accumulator(&self) -> bool {
        matches!(self.kind, RegKind::Arf { file: Arf::Acc, .. })
    }

    pub fn imm_bits(&self) -> Option<u64> {
        match self.kind {
            RegKind::Imm(b) => Some(b),
            _ => None,
        }
    }

    /// True when every channel reads the same value (stride 0, scalar region, uniform, IMM;
    /// V/UV/VF vector immediates are not uniform).
    pub fn is_uniform(&self) -> bool {
        match self.kind {
            RegKind::Imm(_) => !self.ty.is_vector_imm(),
            RegKind::Uniform { .. } => true,
            RegKind::Vgrf { stride, .. } | RegKind::Attr { stride, .. } => stride == 0,
            RegKind::Fixed { region, .. }
            | RegKind::Arf { region, .. }
            | RegKind::Indirect { region, .. } => region.is_scalar(),
            RegKind::Null => false,
        }
    }

    /// Bytes from the register start of the first byte touched and one past the last byte
    /// touched, when `exec_size` channels access this operand. `None` for IMM and null.
    /// Computed in 64 bits so that no operand, however absurd, overflows.
    pub fn footprint(&self, exec_size: u32) -> Option<(u64, u64)> {
        let size = self.ty.size() as u64;
        let n = exec_size.max(1);
        let last_element = |region: Region| region.last_element(n) as u64;
        match self.kind {
            RegKind::Vgrf { offset, stride, .. } | RegKind::Attr { offset, stride, .. } => {
                let offset = offset as u64;
                Some((
                    offset,
                    offset + (n as u64 - 1) * stride as u64 * size + size,
                ))
            }
            RegKind::Uniform { offset, nr } => {
                let start = nr as u64 * 4 + offset as u64;
                Some((start, start + size))
            }
            RegKind::Fixed { nr, subnr, region } => {
                let start = nr as u64 * REG_SIZE as u64 + subnr as u64;
                Some((start, start + last_element(region) * size + size))
            }
            RegKind::Arf { subnr, region, .. } => {
                let start = subnr as u64;
                Some((start, start + last_element(region) * size + size))
            }
            // Which registers an indirect operand touches is known only at run time.
            RegKind::Null | RegKind::Imm(_) | RegKind::Indirect { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_stride_is_the_spacing_of_equally_spaced_elements() {
        // Channel c reads element (c / Width) × VertStride + (c % Width) × HorzStride
        // (docs/hardware/eu-hardware.md §1.2).
        assert_eq!(Region::new(8, 8, 1).linear_stride(), Some(1));
        assert_eq!(Region::new(16, 8, 2).linear_stride(), Some(2));
        assert_eq!(Region::new(2, 1, 0).linear_stride(), Some(2));
        // Rows with a gap (<8;4,1>) or repeated (<4;4,0>), scalars and Vx1: not linear.
        assert_eq!(Region::new(8, 4, 1).linear_stride(), None);
        assert_eq!(Region::new(4, 4, 0).linear_stride(), None);
        assert_eq!(Region::SCALAR.linear_stride(), None);
        assert_eq!(
            Region::new(Region::ONE_DIMENSIONAL, 1, 0).linear_stride(),
            None
        );
    }

    #[test]
    fn last_element_is_the_largest() {
        for (v, w, h) in [
            (0, 1, 0),
            (8, 4, 1),
            (1, 4, 4),
            (0, 4, 1),
            (2, 8, 0),
            (16, 8, 2),
        ] {
            let r = Region::new(v, w, h);
            for n in 1..=32 {
                assert_eq!(
                    r.last_element(n),
                    (0..n).map(|i| r.element(i)).max().unwrap()
                );
            }
        }
    }

    #[test]
    fn region_walks_rows() {
        // <8;4,1>: rows of four, next row 8 elements on.
        let r = Region::new(8, 4, 1);
        let elems: Vec<u32> = (0..8).map(|i| r.element(i)).collect();
        assert_eq!(elems, vec![0, 1, 2, 3, 8, 9, 10, 11]);
        assert_eq!(Region::SCALAR.element(7), 0);
    }

    #[test]
    fn offsets_and_footprints() {
        let v = Reg::vgrf(3, Type::F).with_stride(2);
        assert_eq!(v.footprint(8), Some((0, 7 * 8 + 4)));
        assert_eq!(v.horiz_offset(8).footprint(8), Some((64, 64 + 60)));
        let g = Reg::grf(4, 28, Region::new(8, 8, 1), Type::F).byte_offset(8);
        assert_eq!(
            g.kind,
            RegKind::Fixed {
                nr: 5,
                subnr: 4,
                region: Region::new(8, 8, 1)
            }
        );
        assert_eq!(Reg::imm(u64::MAX, Type::D).imm_bits(), Some(0xffff_ffff));
        assert!(Reg::imm_f(1.0).is_uniform());
        assert!(!Reg::imm(0x1234, Type::V).is_uniform());
    }
}
