//! Run inputs generated from a seed: push constants, per-channel ATTR values, buffer
//! contents, dispatch masks and texture formats, biased toward the values that break
//! compilers (0, ±1, INT_MIN, INT_MAX, 0x8000, 0xffff, ±0.0, ±Inf, NaN, denormals, 2^31,
//! 2^32−1). The same seed gives the same inputs on every machine (ChaCha8).
//!
//! Two input sets in three are *correlated* ([`Pool`]): drawn independently, two operands are
//! almost never equal, so the cases that need `a == b` — `Inf − Inf`, a subtract-compare of
//! equal operands, INT_MIN against its neighbour — would take a hundred input sets to occur
//! (docs/hardware/brw-backend.md §10.3 #13: the subtract-merge with ±Inf needed > 64). A correlated set
//! draws every dword from a small palette of special values shared by all uniforms, attrs
//! and buffers, and from a per-channel vector shared by every attr and buffer at the same
//! channel, so equal values (and boundary pairs x, x ± 1) meet in one channel or across
//! channels and uniforms.

use compiler::inputs::{Inputs, TextureFormat, Value};
use compiler::reg::REG_SIZE;
use compiler::{Opcode, Program};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod vec4;

/// Bytes of every buffer a generated input set provides.
pub const BUFFER_BYTES: usize = 1024;

const SPECIAL_INTS: [u32; 12] = [
    0,
    1,
    0xffff_ffff,
    0x8000_0000,
    0x7fff_ffff,
    0x8000,
    0xffff,
    0x7fff,
    0x1_0000,
    2,
    0xffff_fffe,
    40000,
];

const SPECIAL_FLOATS: [f32; 12] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    1.0e-40,
    f32::MIN_POSITIVE,
    f32::MAX,
    2.0,
];

/// One dword with its natural type, biased toward special values. `below(n)` draws a number
/// in `0..n` from the caller's randomness (a seeded RNG, or the generator's bytes).
pub fn special_value(below: &mut impl FnMut(u64) -> u64) -> Value {
    match below(8) {
        0 | 1 => Value::ud(SPECIAL_INTS[below(SPECIAL_INTS.len() as u64) as usize]),
        2 | 3 => Value::f(SPECIAL_FLOATS[below(SPECIAL_FLOATS.len() as u64) as usize]),
        4 => Value::d(below(201) as i32 - 100),
        5 => Value::ud(below(1 << 32) as u32),
        _ => Value::f((below(8001) as f32 - 4000.0) / 1000.0),
    }
}

/// The special values a correlated set's palette takes: the ones whose equal pairs and
/// neighbours break compilers (±Inf − ±Inf, NaN, ±0.0, INT_MIN − x, unsigned wrap).
const PALETTE: [Value; 16] = [
    Value::f_const(f32::INFINITY),
    Value::f_const(f32::NEG_INFINITY),
    Value::f_const(f32::NAN),
    Value::f_const(0.0),
    Value::f_const(-0.0),
    Value::f_const(1.0),
    Value::f_const(-1.0),
    Value::f_const(f32::MAX),
    Value::f_const(1.0e-40),
    Value::ud_const(0),
    Value::ud_const(1),
    Value::ud_const(0x8000_0000),
    Value::ud_const(0x7fff_ffff),
    Value::ud_const(0xffff_ffff),
    Value::ud_const(0x8000),
    Value::ud_const(0xffff),
];

/// `x` moved by one step: ±1 (wrapping) for an integer, one ulp or ±1.0 for a float.
fn neighbour(x: Value, below: &mut impl FnMut(u64) -> u64) -> Value {
    let up = below(2) == 0;
    if x.ty == compiler::Type::F && below(2) == 0 {
        let f = f32::from_bits(x.bits as u32);
        return Value::f(if up { f + 1.0 } else { f - 1.0 });
    }
    let bits = x.bits as u32;
    let moved = if up {
        bits.wrapping_add(1)
    } else {
        bits.wrapping_sub(1)
    };
    Value::new(x.ty, moved as u64)
}

/// The shared values of a correlated input set: a palette of 1–2 special values and one
/// value per channel, reused by every attr and buffer at that channel.
struct Pool {
    palette: Vec<Value>,
    lanes: Vec<Value>,
}

impl Pool {
    fn draw(width: usize, below: &mut impl FnMut(u64) -> u64) -> Pool {
        let size = 1 + below(2) as usize;
        let palette: Vec<Value> = (0..size)
            .map(|_| PALETTE[below(PALETTE.len() as u64) as usize])
            .collect();
        // A quarter of the sets repeat one palette value across every channel.
        let repeated = below(4) == 0;
        let lanes = (0..width)
            .map(|_| match below(4) {
                _ if repeated => palette[0],
                0..=2 => palette[below(palette.len() as u64) as usize],
                _ => special_value(below),
            })
            .collect();
        Pool { palette, lanes }
    }

    /// A dword at channel `lane` (of an attr or buffer): mostly the channel's shared value,
    /// sometimes its neighbour, a palette value or a fresh one.
    fn per_channel(&self, lane: usize, below: &mut impl FnMut(u64) -> u64) -> Value {
        let shared = self.lanes[lane % self.lanes.len()];
        match below(8) {
            0..=4 => shared,
            5 => neighbour(shared, below),
            6 => self.scalar(below),
            _ => special_value(below),
        }
    }

    /// A push constant: mostly a palette value, sometimes its neighbour or a fresh one.
    fn scalar(&self, below: &mut impl FnMut(u64) -> u64) -> Value {
        let v = self.palette[below(self.palette.len() as u64) as usize];
        match below(8) {
            0..=4 => v,
            5 => neighbour(v, below),
            _ => special_value(below),
        }
    }
}

/// A dword at channel `lane` of an attr or buffer: from the pool in a correlated set.
fn per_channel(pool: Option<&Pool>, lane: usize, below: &mut impl FnMut(u64) -> u64) -> Value {
    match pool {
        Some(pool) => pool.per_channel(lane, below),
        None => special_value(below),
    }
}

/// Surfaces a program reads or writes.
pub fn surfaces_used(p: &Program) -> Vec<u8> {
    let mut out: Vec<u8> = p
        .insts()
        .filter_map(|i| match i.op {
            Opcode::UntypedReadLogical => i.imm_src(1),
            Opcode::UntypedWriteLogical => i.imm_src(2),
            Opcode::Send => match i.desc.map(|d| d.kind) {
                Some(compiler::inst::MsgKind::UntypedRead { surface, .. })
                | Some(compiler::inst::MsgKind::UntypedWrite { surface, .. }) => {
                    Some(surface as u64)
                }
                _ => None,
            },
            _ => None,
        })
        .map(|s| s as u8)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Textures a program samples.
pub fn textures_sampled(p: &Program) -> Vec<u8> {
    let mut out: Vec<u8> = p
        .insts()
        .filter_map(|i| match i.op {
            Opcode::TexLogical => i.imm_src(2).and_then(|s| u8::try_from(s).ok()),
            Opcode::Send => match i.desc.map(|d| d.kind) {
                Some(compiler::inst::MsgKind::Sample { surface }) => Some(surface),
                _ => None,
            },
            _ => None,
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Inputs for `p` from `seed`: every uniform, every attr of every thread, a buffer for every
/// surface the program touches, a format for every texture it samples (float or unorm) and
/// dispatch masks (mostly full, sometimes partial); two sets in three correlated.
pub fn generate(p: &Program, seed: u64) -> Inputs {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    draw(p, 1, &mut |n| rng.random_range(0..n))
}

/// Inputs for `p` drawn with `below(n)` (a number in `0..n`): a thread gets a partial
/// dispatch mask with probability `partial_quarters` / 4.
pub fn draw(p: &Program, partial_quarters: u64, below: &mut impl FnMut(u64) -> u64) -> Inputs {
    if p.stage.is_vec4() {
        return vec4::draw(p, partial_quarters, below);
    }
    let pool = (below(3) != 0).then(|| Pool::draw(p.dispatch_width as usize, below));
    let mut inputs = Inputs {
        uniforms: (0..p.uniforms)
            .map(|_| match &pool {
                Some(pool) => pool.scalar(below),
                None => special_value(below),
            })
            .collect(),
        ..Inputs::default()
    };
    for s in surfaces_used(p) {
        let data = (0..BUFFER_BYTES / 4)
            .map(|i| per_channel(pool.as_ref(), i, below))
            .collect();
        inputs.buffers.insert(s, data);
    }
    for s in textures_sampled(p) {
        if below(2) == 1 {
            inputs.textures.insert(s, TextureFormat::Float);
        }
    }
    let width = p.dispatch_width as u32;
    let all = if width >= 32 {
        u32::MAX
    } else {
        (1 << width) - 1
    };
    for t in 0..p.threads {
        if below(4) < partial_quarters {
            let mask = if p.stage.is_vec4() {
                // Vertex 0 alone or both vertices (compiler::program::Stage).
                compiler::program::VEC4_DISPATCH_MASKS[below(2) as usize]
            } else if p.packed_dispatch {
                // The lowest 1..=width channels (docs/hardware/brw-backend.md §9.2).
                all >> below(width as u64)
            } else {
                below(1 << 32) as u32 & all
            };
            inputs.dispatch_masks.insert(t, mask);
        }
        for (a, &size) in p.attr_sizes.iter().enumerate() {
            let dwords = size * REG_SIZE / 4;
            let values = (0..dwords as usize)
                .map(|i| per_channel(pool.as_ref(), i, below))
                .collect();
            inputs.attrs.insert((t, a as u32), values);
        }
    }
    inputs
}
#[cfg(test)]
mod tests {
    use super::*;
    use compiler::text::parse_program;

    #[test]
    fn same_seed_same_inputs() {
        let p = parse_program(
            "eu 1\ntarget skl\ndispatch 16\nthreads 3\nuniforms 2\nattr attr0 2\nvgrf v0 2\nSTART B0\n    untyped_read_logical(16) v0:UD, attr0:UD, 3:UD, 1:UD\nEND B0\n",
        )
        .unwrap();
        let a = generate(&p, 7);
        assert_eq!(a, generate(&p, 7));
        assert_ne!(a, generate(&p, 8));
        assert_eq!(a.uniforms.len(), 2);
        assert_eq!(a.attrs.len(), 3);
        assert_eq!(a.attrs[&(2, 0)].len(), 16);
        assert_eq!(a.buffers.keys().copied().collect::<Vec<_>>(), vec![3]);
    }
}
