//! Numbers as the EU computes with them, and conversions between the 11 register types.
//!
//! Integers are held exactly in an `i128` (so 32×32 products, 64-bit sums and carries are
//! exact before the destination type truncates or saturates them); floats in an `f64` that
//! is rounded to the operation's precision (HF, F or DF) after every operation.
//!
//! Conversions (all deterministic):
//! * float → integer: round toward zero, out-of-range values clamp to the destination range,
//!   NaN → 0;
//! * integer → float, wider float → narrower float: round to nearest even (HF via `half`);
//! * integer → narrower integer: keep the low bits (wrap), unless saturating;
//! * saturate: floats clamp to [0, 1] with NaN → 0 (the sign of a saturated −0.0 is not
//!   documented: see [`saturates_negative_zero`]); integers clamp to the destination range.
//!
//! Denormals are preserved (no flush to zero).

use compiler::inst::CondMod;
use compiler::types::Type;

/// A computed value.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Num {
    Int(i128),
    Float(f64),
}

/// Precision floats are rounded to.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Prec {
    Half,
    Single,
    Double,
}

impl Prec {
    pub fn of(ty: Type) -> Prec {
        match ty {
            Type::HF => Prec::Half,
            Type::DF => Prec::Double,
            _ => Prec::Single,
        }
    }

    /// Rounds to this precision; a NaN stays as it is (its payload is narrowed on encode).
    pub fn round(self, v: f64) -> f64 {
        if v.is_nan() {
            return v;
        }
        match self {
            Prec::Half => half::f16::from_f64(v).to_f64(),
            Prec::Single => v as f32 as f64,
            Prec::Double => v,
        }
    }
}

/// Bit mask of a type's width.
pub fn mask_of(ty: Type) -> u64 {
    match ty.size() {
        8 => u64::MAX,
        n => (1u64 << (8 * n)) - 1,
    }
}

/// Interprets raw bits of a (non-vector) type as a number.
pub fn decode(bits: u64, ty: Type) -> Num {
    let b = bits & mask_of(ty);
    match ty {
        Type::UB | Type::UW | Type::UD | Type::UQ => Num::Int(b as i128),
        Type::B => Num::Int(b as u8 as i8 as i128),
        Type::W => Num::Int(b as u16 as i16 as i128),
        Type::D => Num::Int(b as u32 as i32 as i128),
        Type::Q => Num::Int(b as i64 as i128),
        Type::HF => Num::Float(f16_to_f64(b as u16)),
        Type::F => Num::Float(f32_to_f64(b as u32)),
        Type::VF => Num::Float(f32::from_bits(b as u32) as f64),
        Type::DF => Num::Float(f64::from_bits(b)),
        Type::V => Num::Int(b as u16 as i16 as i128),
        Type::UV => Num::Int(b as i128),
    }
}

/// Element `c` of a vector immediate, as bits of the type it executes as.
pub fn vector_imm_element(bits: u64, ty: Type, c: u32) -> u64 {
    match ty {
        Type::V => {
            let nib = ((bits >> (4 * (c % 8))) & 0xf) as u8;
            (((nib << 4) as i8 >> 4) as i16 as u16) as u64
        }
        Type::UV => (bits >> (4 * (c % 8))) & 0xf,
        Type::VF => {
            let byte = (bits >> (8 * (c % 4))) as u8;
            compiler::types::vf_to_f32(byte).to_bits() as u64
        }
        _ => bits,
    }
}

/// Applies source modifiers. Floats: abs clears the sign, negate flips it. Integers: two's
/// complement within the source type's width (|INT_MIN| and -INT_MIN wrap). Logic ops pass
/// `logic = true`: negate is bitwise NOT there.
pub fn apply_modifiers(n: Num, ty: Type, abs: bool, negate: bool, logic: bool) -> Num {
    match n {
        Num::Float(f) => {
            let f = if abs { f.abs() } else { f };
            Num::Float(if negate { -f } else { f })
        }
        Num::Int(i) => {
            if logic {
                return Num::Int(if negate { !i } else { i });
            }
            let mut v = if abs { i.abs() } else { i };
            if negate {
                v = -v;
            }
            if abs || negate {
                // Wrap back into the source type, as the hardware's modifier stage does.
                v = match decode(v as u64, ty.exec_type()) {
                    Num::Int(w) => w,
                    Num::Float(_) => v,
                };
            }
            Num::Int(v)
        }
    }
}

fn int_range(ty: Type) -> (i128, i128) {
    match ty {
        Type::UB => (0, u8::MAX as i128),
        Type::B => (i8::MIN as i128, i8::MAX as i128),
        Type::UW => (0, u16::MAX as i128),
        Type::W => (i16::MIN as i128, i16::MAX as i128),
        Type::UD => (0, u32::MAX as i128),
        Type::D => (i32::MIN as i128, i32::MAX as i128),
        Type::UQ => (0, u64::MAX as i128),
        _ => (i64::MIN as i128, i64::MAX as i128),
    }
}

/// The canonical NaN an operation without NaN inputs produces (host-independent).
pub const DEFAULT_NAN: f64 = f64::from_bits(0x7ff8_0000_0000_0000);

/// F bits as f64, a NaN keeping its sign and payload (Rust's `as` leaves that unspecified).
pub fn f32_to_f64(bits: u32) -> f64 {
    let f = f32::from_bits(bits);
    if !f.is_nan() {
        return f as f64;
    }
    let sign = ((bits >> 31) as u64) << 63;
    f64::from_bits(sign | 0x7ff0_0000_0000_0000 | ((bits as u64 & 0x7f_ffff) << 29))
}

/// HF bits as f64, a NaN keeping its sign and payload.
pub fn f16_to_f64(bits: u16) -> f64 {
    let h = half::f16::from_bits(bits);
    if !h.is_nan() {
        return h.to_f64();
    }
    let sign = ((bits >> 15) as u64) << 63;
    f64::from_bits(sign | 0x7ff0_0000_0000_0000 | ((bits as u64 & 0x3ff) << 42))
}

/// The NaN an arithmetic result takes: of its NaN sources, made quiet, the one with the
/// greatest bits; without one the default NaN. Hardware propagates an input NaN, but the
/// documents do not say which of two (and the host's choice differs between machines), so
/// the emulator decides — independently of operand order, and the same for one fused
/// operation as for its parts (the greatest of three is the greatest of the greatest of
/// two and the third): commuting operands, moving a constant to src1, CSE of a commuted
/// pair and fusing a MUL and an ADD into a MAD are legal and must not change the NaN.
/// (The order-dependent first NaN made such rewrites false alarms once an integer
/// operation read the NaN's bits: reports/mesa-22.3.md, "Oracle false alarm".)
pub fn propagate_nan(sources: impl IntoIterator<Item = f64>) -> f64 {
    sources
        .into_iter()
        .filter(|f| f.is_nan())
        .map(|f| f.to_bits() | 0x0008_0000_0000_0000)
        .max()
        .map_or(DEFAULT_NAN, f64::from_bits)
}

/// Bits of `f` as HF, F or DF (rounded once); a NaN keeps its sign and payload, made quiet.
pub fn float_bits(f: f64, ty: Type) -> u64 {
    if f.is_nan() {
        let b = f.to_bits();
        let sign = b >> 63;
        let mant = b & 0x000f_ffff_ffff_ffff;
        return match ty {
            Type::HF => (sign << 15) | 0x7c00 | (mant >> 42) | 0x200,
            Type::DF => b | 0x0008_0000_0000_0000,
            _ => (sign << 31) | 0x7f80_0000 | (mant >> 29) | 0x40_0000,
        };
    }
    match ty {
        Type::HF => half::f16::from_f64(f).to_bits() as u64,
        Type::DF => f.to_bits(),
        _ => (f as f32).to_bits() as u64,
    }
}

/// Converts a computed value to destination bits, saturating if asked.
pub fn encode(n: Num, ty: Type, sat: bool) -> u64 {
    if ty.is_float() {
        let f = match n {
            Num::Float(f) => f,
            Num::Int(i) => i as f64,
        };
        // Integer → F/HF must round once from the exact integer, not via f64 (which can
        // round a 64-bit integer first).
        let bits = match (n, ty) {
            (Num::Int(i), Type::F) => ((i as f32).to_bits()) as u64,
            (Num::Int(i), Type::HF) => half::f16::from_f32(i as f32).to_bits() as u64,
            _ => float_bits(f, ty),
        };
        if sat {
            let v = match decode(bits, ty) {
                Num::Float(v) => v,
                Num::Int(_) => 0.0,
            };
            let clamped = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
            return float_bits(clamped, ty);
        }
        return bits;
    }
    let (lo, hi) = int_range(ty);
    let v = match n {
        Num::Int(i) => {
            if sat {
                i.clamp(lo, hi)
            } else {
                i
            }
        }
        Num::Float(f) => {
            if f.is_nan() {
                0
            } else {
                let t = f.trunc();
                if t <= lo as f64 {
                    lo
                } else if t >= hi as f64 {
                    hi
                } else {
                    t as i128
                }
            }
        }
    };
    (v as u64) & mask_of(ty)
}

/// Whether saturating `n` into float type `ty` starts from −0.0 (after rounding to `ty`).
/// Saturate clamps to [0.0, 1.0] (docs/hardware/eu-hardware.md §3.5 [P?], docs/hardware/brw-backend.md §1.7), but
/// neither document says whether −0.0, which compares equal to 0.0, leaves the clamp as
/// −0.0 or +0.0: the emulator makes that result undefined rather than pick a sign.
pub fn saturates_negative_zero(n: Num, ty: Type) -> bool {
    ty.is_float()
        && matches!(decode(encode(n, ty, false), ty), Num::Float(f) if f == 0.0 && f.is_sign_negative())
}

/// Whether a conditional modifier holds for a final (converted, saturated) result.
/// Z/NZ/G/GE/L/LE compare with zero; a NaN satisfies only NZ and U (docs/hardware/brw-backend.md §1.7).
/// O (overflow) and R (Gen4/5 round) are not a comparison: the caller decides them (their
/// flag is undefined except for Gen4/5 RNDZ/RNDE `.r`).
pub fn cmod_holds(cmod: CondMod, bits: u64, ty: Type) -> bool {
    match decode(bits, ty) {
        Num::Float(f) => {
            if f.is_nan() {
                return matches!(cmod, CondMod::Nz | CondMod::U);
            }
            compare_zero(
                cmod,
                f.partial_cmp(&0.0).unwrap_or(std::cmp::Ordering::Equal),
            )
        }
        Num::Int(i) => compare_zero(cmod, i.cmp(&0)),
    }
}

fn compare_zero(cmod: CondMod, ord: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match cmod {
        CondMod::Z => ord == Equal,
        CondMod::Nz => ord != Equal,
        CondMod::G => ord == Greater,
        CondMod::Ge => ord != Less,
        CondMod::L => ord == Less,
        CondMod::Le => ord != Greater,
        CondMod::R | CondMod::O | CondMod::U => false,
    }
}

/// CMP's condition between two sources (already in the execution type). Any comparison with
/// a NaN is false except NZ (unordered counts as "not equal") and U.
pub fn compare(cmod: CondMod, a: Num, b: Num) -> bool {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => compare_zero(cmod, x.cmp(&y)),
        _ => {
            let (x, y) = (as_f64(a), as_f64(b));
            match x.partial_cmp(&y) {
                None => matches!(cmod, CondMod::Nz | CondMod::U),
                Some(ord) => compare_zero(cmod, ord),
            }
        }
    }
}

pub fn as_f64(n: Num) -> f64 {
    match n {
        Num::Float(f) => f,
        Num::Int(i) => i as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        // float → int: truncate, clamp, NaN → 0.
        assert_eq!(
            encode(Num::Float(-1.7), Type::D, false),
            (-1i32) as u32 as u64
        );
        assert_eq!(encode(Num::Float(3e10), Type::D, false), i32::MAX as u64);
        assert_eq!(encode(Num::Float(-5.0), Type::UD, false), 0);
        assert_eq!(encode(Num::Float(f64::NAN), Type::W, false), 0);
        // int → narrower int wraps, saturates when asked.
        assert_eq!(encode(Num::Int(0x1_2345), Type::UW, false), 0x2345);
        assert_eq!(encode(Num::Int(70000), Type::W, true), 0x7fff);
        assert_eq!(encode(Num::Int(-3), Type::UD, true), 0);
        // float saturate: NaN → 0, clamp to [0, 1].
        assert_eq!(encode(Num::Float(f64::NAN), Type::F, true), 0);
        assert_eq!(
            encode(Num::Float(2.5), Type::F, true),
            1.0f32.to_bits() as u64
        );
        // F → HF rounds to nearest even; overflow → inf.
        assert_eq!(encode(Num::Float(65520.0), Type::HF, false), 0x7c00);
        // Large integers round once to F.
        assert_eq!(
            encode(Num::Int(16_777_217), Type::F, false),
            16_777_216f32.to_bits() as u64
        );
    }

    #[test]
    fn modifiers_and_vectors() {
        let int_min = Num::Int(i32::MIN as i128);
        assert_eq!(
            apply_modifiers(int_min, Type::D, false, true, false),
            int_min
        );
        assert_eq!(
            apply_modifiers(int_min, Type::D, true, false, false),
            int_min
        );
        assert_eq!(
            apply_modifiers(Num::Int(5), Type::UD, false, true, true),
            Num::Int(!5)
        );
        assert_eq!(
            apply_modifiers(Num::Float(-0.0), Type::F, true, true, false),
            Num::Float(-0.0)
        );
        // V: 0xf is -1, 0x7 is 7.
        assert_eq!(vector_imm_element(0x7f, Type::V, 0), 0xffff);
        assert_eq!(vector_imm_element(0x7f, Type::V, 1), 7);
        assert_eq!(vector_imm_element(0x7f, Type::V, 9), 7);
        assert_eq!(
            vector_imm_element(0x3000_0000, Type::VF, 3),
            1.0f32.to_bits() as u64
        );
    }

    #[test]
    fn conditions() {
        assert!(cmod_holds(CondMod::Nz, f32::NAN.to_bits() as u64, Type::F));
        assert!(!cmod_holds(CondMod::Ge, f32::NAN.to_bits() as u64, Type::F));
        assert!(cmod_holds(CondMod::Z, (-0.0f32).to_bits() as u64, Type::F));
        assert!(cmod_holds(CondMod::G, 0xffff_ffff, Type::UD));
        assert!(cmod_holds(CondMod::L, 0xffff_ffff, Type::D));
        assert!(!compare(CondMod::Le, Num::Float(f64::NAN), Num::Float(1.0)));
        assert!(compare(CondMod::Nz, Num::Float(f64::NAN), Num::Float(1.0)));
    }
}
