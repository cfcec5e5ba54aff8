//! Inputs decoded from the same bytes as the program: push constants, ATTR values, buffer
//! contents and (with `Feature::PartialDispatch`) dispatch masks, biased toward the special
//! values of [`crate::inputs`].

use crate::inputs::{BUFFER_BYTES, SPECIAL_FLOATS, SPECIAL_INTS, surfaces_used};
use arbitrary::Unstructured;
use compiler::Program;
use compiler::inputs::{Inputs, Value};
use compiler::reg::REG_SIZE;

fn special(u: &mut Unstructured) -> Value {
    let pick = |u: &mut Unstructured, n: usize| u.choose_index(n).unwrap_or(0);
    match pick(u, 8) {
        0 | 1 => Value::ud(SPECIAL_INTS[pick(u, SPECIAL_INTS.len())]),
        2 | 3 => Value::f(SPECIAL_FLOATS[pick(u, SPECIAL_FLOATS.len())]),
        4 => Value::d(u.int_in_range(-100..=100).unwrap_or(0)),
        5 => Value::ud(u.arbitrary().unwrap_or(0)),
        _ => Value::f(u.int_in_range(-4000..=4000).unwrap_or(0) as f32 / 1000.0),
    }
}

pub(super) fn generate(u: &mut Unstructured, p: &Program, partial_dispatch: bool) -> Inputs {
    let mut inputs = Inputs {
        uniforms: (0..p.uniforms).map(|_| special(u)).collect(),
        ..Inputs::default()
    };
    for s in surfaces_used(p) {
        let data = (0..BUFFER_BYTES / 4).map(|_| special(u)).collect();
        inputs.buffers.insert(s, data);
    }
    let width = p.dispatch_width as u32;
    let all = if width >= 32 {
        u32::MAX
    } else {
        (1 << width) - 1
    };
    for t in 0..p.threads {
        if partial_dispatch && u.arbitrary::<bool>().unwrap_or(false) {
            let mask: u32 = u.arbitrary().unwrap_or(all);
            inputs.dispatch_masks.insert(t, mask & all);
        }
        for (a, &size) in p.attr_sizes.iter().enumerate() {
            let dwords = size * REG_SIZE / 4;
            let values = (0..dwords).map(|_| special(u)).collect();
            inputs.attrs.insert((t, a as u32), values);
        }
    }
    inputs
}
