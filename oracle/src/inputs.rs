//! Run inputs generated from a seed: push constants, per-channel ATTR values, buffer
//! contents and dispatch masks, biased toward the values that break compilers (0, ±1,
//! INT_MIN, INT_MAX, 0x8000, 0xffff, ±0.0, ±Inf, NaN, denormals, 2^31, 2^32−1).
//! The same seed gives the same inputs on every machine (ChaCha8).

use compiler::inputs::{Inputs, Value};
use compiler::reg::REG_SIZE;
use compiler::{Opcode, Program};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

/// Inputs for `p` from `seed`: every uniform, every attr of every thread, a buffer for every
/// surface the program touches, and dispatch masks (mostly full, sometimes partial).
pub fn generate(p: &Program, seed: u64) -> Inputs {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    draw(p, 1, &mut |n| rng.random_range(0..n))
}

/// Inputs for `p` drawn with `below(n)` (a number in `0..n`): a thread gets a partial
/// dispatch mask with probability `partial_quarters` / 4.
pub fn draw(p: &Program, partial_quarters: u64, below: &mut impl FnMut(u64) -> u64) -> Inputs {
    let mut inputs = Inputs {
        uniforms: (0..p.uniforms).map(|_| special_value(below)).collect(),
        ..Inputs::default()
    };
    for s in surfaces_used(p) {
        let data = (0..BUFFER_BYTES / 4)
            .map(|_| special_value(below))
            .collect();
        inputs.buffers.insert(s, data);
    }
    let width = p.dispatch_width as u32;
    let all = if width >= 32 {
        u32::MAX
    } else {
        (1 << width) - 1
    };
    for t in 0..p.threads {
        if below(4) < partial_quarters {
            let mask = below(1 << 32) as u32;
            inputs.dispatch_masks.insert(t, mask & all);
        }
        for (a, &size) in p.attr_sizes.iter().enumerate() {
            let dwords = size * REG_SIZE / 4;
            let values = (0..dwords).map(|_| special_value(below)).collect();
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
