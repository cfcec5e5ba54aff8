//! Register data types (`brw_reg_type`), their sizes and classes.
//!
//! The vector immediates V/UV/VF only ever appear as immediates; everything else may sit in
//! a register. Names and letters follow Mesa's printed IR (`:F`, `:UD`, ...).

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};

/// One of the hardware data types an operand can carry.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub enum Type {
    UB,
    B,
    UW,
    W,
    UD,
    D,
    UQ,
    Q,
    HF,
    F,
    DF,
    /// Immediate only: eight unsigned 4-bit integers, executed as UW.
    UV,
    /// Immediate only: eight signed 4-bit integers, executed as W.
    V,
    /// Immediate only: four 8-bit restricted floats, executed as F.
    VF,
}

/// Every type, in a fixed order (for tables and tests).
pub const ALL_TYPES: [Type; 14] = [
    Type::UB,
    Type::B,
    Type::UW,
    Type::W,
    Type::UD,
    Type::D,
    Type::UQ,
    Type::Q,
    Type::HF,
    Type::F,
    Type::DF,
    Type::UV,
    Type::V,
    Type::VF,
];

impl Type {
    /// Size of one element in bytes. Vector immediates count as the type they execute as
    /// (V/UV → 2 bytes, VF → 4), which is what region arithmetic needs.
    pub fn size(self) -> u32 {
        match self {
            Type::UB | Type::B => 1,
            Type::UW | Type::W | Type::HF | Type::UV | Type::V => 2,
            Type::UD | Type::D | Type::F | Type::VF => 4,
            Type::UQ | Type::Q | Type::DF => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Type::HF | Type::F | Type::DF | Type::VF)
    }

    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            Type::B
                | Type::W
                | Type::D
                | Type::Q
                | Type::V
                | Type::HF
                | Type::F
                | Type::DF
                | Type::VF
        )
    }

    /// Vector immediates exist only as immediates.
    pub fn is_vector_imm(self) -> bool {
        matches!(self, Type::V | Type::UV | Type::VF)
    }

    pub fn is_64bit(self) -> bool {
        self.size() == 8
    }

    /// The type an operand of this type executes as (B/V → W, UB/UV → UW, VF → F).
    pub fn exec_type(self) -> Type {
        match self {
            Type::B | Type::V => Type::W,
            Type::UB | Type::UV => Type::UW,
            Type::VF => Type::F,
            t => t,
        }
    }

    /// The integer type of the same size and the given signedness.
    pub fn int_of_size(bytes: u32, signed: bool) -> Type {
        match (bytes, signed) {
            (1, false) => Type::UB,
            (1, true) => Type::B,
            (2, false) => Type::UW,
            (2, true) => Type::W,
            (4, false) => Type::UD,
            (4, true) => Type::D,
            (8, false) => Type::UQ,
            _ => Type::Q,
        }
    }

    /// The letters Mesa prints after the colon (`:UD`).
    pub fn letters(self) -> &'static str {
        match self {
            Type::UB => "UB",
            Type::B => "B",
            Type::UW => "UW",
            Type::W => "W",
            Type::UD => "UD",
            Type::D => "D",
            Type::UQ => "UQ",
            Type::Q => "Q",
            Type::HF => "HF",
            Type::F => "F",
            Type::DF => "DF",
            Type::UV => "UV",
            Type::V => "V",
            Type::VF => "VF",
        }
    }

    pub fn from_letters(s: &str) -> Option<Type> {
        ALL_TYPES.iter().copied().find(|t| t.letters() == s)
    }
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.letters())
    }
}

/// Decodes one 8-bit restricted float of a VF immediate: sign, 3-bit exponent biased by 3,
/// 4-bit mantissa, always normalised except that 0x00/0x80 are ±0.
pub fn vf_to_f32(byte: u8) -> f32 {
    let sign = if byte & 0x80 != 0 { -1.0 } else { 1.0 };
    if byte & 0x7f == 0 {
        return sign * 0.0;
    }
    let exp = ((byte >> 4) & 7) as i32 - 3;
    let mant = (byte & 0xf) as f32 / 16.0;
    sign * (1.0 + mant) * 2f32.powi(exp)
}

/// The VF byte encoding `value` exactly, if there is one.
pub fn f32_to_vf(value: f32) -> Option<u8> {
    (0..=255u8).find(|&b| vf_to_f32(b).to_bits() == value.to_bits())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip_and_sizes() {
        for t in ALL_TYPES {
            assert_eq!(Type::from_letters(t.letters()), Some(t));
        }
        assert_eq!(Type::DF.size(), 8);
        assert_eq!(Type::V.size(), 2);
        assert_eq!(Type::VF.exec_type(), Type::F);
        assert!(Type::HF.is_float() && !Type::UW.is_float());
    }

    #[test]
    fn vf_encoding_examples() {
        // 1.0 = exponent 3 (bias 3), mantissa 0 → 0x30; -0.5 → 0xa0; 1.5 → 0x38.
        assert_eq!(vf_to_f32(0x30), 1.0);
        assert_eq!(vf_to_f32(0xa0), -0.5);
        assert_eq!(vf_to_f32(0x38), 1.5);
        assert_eq!(f32_to_vf(1.5), Some(0x38));
        assert_eq!(f32_to_vf(-0.0), Some(0x80));
        assert_eq!(f32_to_vf(0.1), None);
        for b in 0..=255u8 {
            assert_eq!(f32_to_vf(vf_to_f32(b)), Some(b));
        }
    }
}
