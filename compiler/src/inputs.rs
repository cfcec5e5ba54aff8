//! Run inputs a program file can carry: dispatch masks, push constants, per-channel ATTR
//! values and buffer contents. Values keep their type so the text form stays readable
//! (`1.5:F`, `-3:D`) while meaning exact bytes.

use crate::types::Type;
use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One typed value; its bytes are the low `ty.size()` bytes of `bits`, little-endian
/// (V/UV/VF: 4 bytes).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub struct Value {
    pub ty: Type,
    pub bits: u64,
}

impl Value {
    pub fn new(ty: Type, bits: u64) -> Value {
        Value { ty, bits }
    }

    pub fn f(v: f32) -> Value {
        Value::new(Type::F, v.to_bits() as u64)
    }

    /// [`Value::f`] in a constant (a table of special values).
    pub const fn f_const(v: f32) -> Value {
        Value {
            ty: Type::F,
            bits: v.to_bits() as u64,
        }
    }

    /// [`Value::ud`] in a constant.
    pub const fn ud_const(v: u32) -> Value {
        Value {
            ty: Type::UD,
            bits: v as u64,
        }
    }

    pub fn ud(v: u32) -> Value {
        Value::new(Type::UD, v as u64)
    }

    pub fn d(v: i32) -> Value {
        Value::new(Type::D, v as u32 as u64)
    }

    /// Bytes this value occupies.
    pub fn byte_len(self) -> usize {
        if self.ty.is_vector_imm() {
            4
        } else {
            self.ty.size() as usize
        }
    }

    /// Appends the value's little-endian bytes.
    pub fn push_bytes(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.bits.to_le_bytes()[..self.byte_len()]);
    }
}

/// The longest prefix of `values` within `room` bytes.
fn truncate_to(values: &mut Vec<Value>, room: usize) {
    let mut used = 0;
    let keep = values
        .iter()
        .take_while(|v| {
            used += v.byte_len();
            used <= room
        })
        .count();
    values.truncate(keep);
}

/// Drops from `p`'s inputs what its declarations have no room for — values of threads it
/// does not have or attributes it does not declare, bytes past an attribute's size or the
/// uniforms, dispatch mask bits past the dispatch width — which is what the text form
/// refuses to read. For programs made from arbitrary bytes (fuzzing the text form), whose
/// inputs need not fit.
pub fn fit_inputs(p: &mut crate::program::Program) {
    let (threads, width, uniforms) = (p.threads, u32::from(p.dispatch_width), p.uniforms);
    let sizes = p.attr_sizes.clone();
    let Some(i) = p.inputs.as_mut() else {
        return;
    };
    truncate_to(&mut i.uniforms, uniforms as usize * 4);
    i.attrs
        .retain(|&(t, a), _| t < threads && (a as usize) < sizes.len());
    for (&(_, a), values) in i.attrs.iter_mut() {
        truncate_to(
            values,
            sizes[a as usize] as usize * crate::reg::REG_SIZE as usize,
        );
    }
    i.dispatch_masks.retain(|&t, _| t < threads);
    if width < 32 {
        i.dispatch_masks
            .values_mut()
            .for_each(|m| *m &= (1 << width) - 1);
    }
}

/// The bytes of a list of values, concatenated.
pub fn values_to_bytes(values: &[Value]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 4);
    for v in values {
        v.push_bytes(&mut out);
    }
    out
}

/// What a sampled surface holds. Texels of a `Unorm` surface lie in [0, 1], so a saturate
/// after a sample changes nothing; a `Float` surface returns arbitrary floats (±Inf, NaN,
/// −0.0, denormals, values outside [0, 1]), so a dropped saturate shows (issue 9 item 6).
/// The texel values themselves are the emulator's (oracle `emu::messages`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize, Arbitrary)]
pub enum TextureFormat {
    /// Normalised texels in [0, 1]: what a surface without a format line holds.
    #[default]
    Unorm,
    /// 32-bit float texels, any bit pattern a float can have.
    Float,
}

impl TextureFormat {
    /// The word naming the format in the INPUTS section (`texture 0 float`).
    pub fn name(self) -> &'static str {
        match self {
            TextureFormat::Unorm => "unorm",
            TextureFormat::Float => "float",
        }
    }

    pub fn from_name(name: &str) -> Option<TextureFormat> {
        match name {
            "unorm" => Some(TextureFormat::Unorm),
            "float" => Some(TextureFormat::Float),
            _ => None,
        }
    }
}

/// Inputs for one run. Bytes not given (a short attr or uniform list) are undefined, not
/// zero: outputs computed from them are not compared. A thread without a dispatch mask has
/// all its channels enabled, and a texture without a format is `Unorm`.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize, Arbitrary)]
pub struct Inputs {
    /// Push constants from `u0` on.
    pub uniforms: Vec<Value>,
    /// Buffer contents by surface index (buffers are shared by all threads).
    pub buffers: BTreeMap<u8, Vec<Value>>,
    /// Dispatch mask per thread: which channels hold live work at thread start.
    pub dispatch_masks: BTreeMap<u32, u32>,
    /// Per-channel input contents by (thread, attr number), from the attr's first byte on.
    pub attrs: BTreeMap<(u32, u32), Vec<Value>>,
    /// Format of each sampled surface by texture index (absent: `Unorm`).
    #[serde(default)]
    pub textures: BTreeMap<u8, TextureFormat>,
}

impl Inputs {
    /// The dispatch mask of `thread` for a program of `dispatch_width` channels.
    pub fn dispatch_mask(&self, thread: u32, dispatch_width: u32) -> u32 {
        let all = if dispatch_width >= 32 {
            u32::MAX
        } else {
            (1u32 << dispatch_width) - 1
        };
        self.dispatch_masks.get(&thread).copied().unwrap_or(all) & all
    }

    /// Whether `mask` is packed: channels 0..N live for some N ≥ 1 (what a program with
    /// `packed_dispatch` is dispatched with).
    pub fn dispatch_mask_is_packed(mask: u32) -> bool {
        mask & 1 != 0 && mask & mask.wrapping_add(1) == 0
    }

    /// The format of texture `surface`.
    pub fn texture_format(&self, surface: u8) -> TextureFormat {
        self.textures.get(&surface).copied().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_and_masks() {
        let bytes = values_to_bytes(&[Value::f(1.0), Value::new(Type::W, 0xfffe), Value::d(-1)]);
        assert_eq!(
            bytes,
            vec![0, 0, 0x80, 0x3f, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff]
        );
        let mut inputs = Inputs::default();
        assert_eq!(inputs.dispatch_mask(0, 16), 0xffff);
        inputs.dispatch_masks.insert(1, 0xff00_00ff);
        assert_eq!(inputs.dispatch_mask(1, 16), 0x00ff);
        assert_eq!(inputs.dispatch_mask(1, 32), 0xff00_00ff);
    }
}
