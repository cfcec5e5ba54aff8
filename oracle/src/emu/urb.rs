//! The vec4 stage's output message: a URB write of SIMD4x2 vertices
//! (`compiler::Opcode::UrbWriteLogical` and `MsgKind::UrbWrite`).
//!
//! Both forms reduce to the same picture before anything is recorded: a run of 32-byte
//! output slots, vertex 0's four dwords in bytes 0–15 of each and vertex 1's in 16–31. The
//! hardware message carries exactly that after its header; the logical message reads its
//! data in the vec4 VGRF layout of the data's type and reorders a dvec4 (vertex 0's x..w in
//! one register, vertex 1's in the next) into two slots, x,y then z,w, as Mesa's 64-bit
//! outputs are. A vertex is written when any of its four channels is enabled; a vertex
//! whose enables are unknown (an undefined predicate or branch), or a message that breaks
//! a hardware restriction, sends undefined values.

use super::result::{ChannelColor, UrbWrite};
use super::state::{FLOAT_NAN, is_defined};
use compiler::reg::REG_SIZE;

/// Bytes of one output slot in a SIMD4x2 message: two vertices of 16 bytes.
const SLOT_BYTES: usize = REG_SIZE as usize;
/// Bytes of one vertex in a slot.
const VERTEX_BYTES: usize = 16;

/// Which vertices a message writes and whether their values are known.
#[derive(Clone, Copy, Debug)]
pub struct VertexEnables {
    /// Channels that execute (bit c = component c % 4 of vertex c / 4).
    pub exec: u32,
    /// Channels among `exec` whose enable is unknown.
    pub unknown: u32,
    /// Whether the message breaks a hardware restriction (every value undefined).
    pub violated: bool,
}

impl VertexEnables {
    fn written(self, vertex: usize) -> bool {
        self.exec >> (4 * vertex) & 0xf != 0
    }

    fn known(self, vertex: usize) -> bool {
        self.unknown >> (4 * vertex) & 0xf == 0 && !self.violated
    }
}

/// Reorders the data of a logical URB write, `values` vec4s of `elem` bytes per component
/// from `bytes` (the data register's bytes and flags from its first byte on), into slot
/// order. A 32-bit vec4 already is one slot; a dvec4's vertex `q` half `h` (x,y or z,w)
/// lies at `32q + 16h` of its 64 bytes and goes to slot `2j + h`, vertex `q`.
pub fn logical_slots(bytes: (&[u8], &[u8]), values: usize, elem: usize) -> (Vec<u8>, Vec<u8>) {
    if elem != 8 {
        let len = (values * SLOT_BYTES).min(bytes.0.len());
        return (bytes.0[..len].to_vec(), bytes.1[..len].to_vec());
    }
    let mut out = (
        vec![0; values * 2 * SLOT_BYTES],
        vec![0; values * 2 * SLOT_BYTES],
    );
    for j in 0..values {
        for q in 0..2 {
            for h in 0..2 {
                let from = j * 2 * SLOT_BYTES + q * SLOT_BYTES + h * VERTEX_BYTES;
                let to = (2 * j + h) * SLOT_BYTES + q * VERTEX_BYTES;
                for b in 0..VERTEX_BYTES {
                    out.0[to + b] = bytes.0.get(from + b).copied().unwrap_or(0);
                    out.1[to + b] = bytes.1.get(from + b).copied().unwrap_or(0);
                }
            }
        }
    }
    out
}

/// The records of a message whose slots (32 bytes each, module docs) start at `first`.
pub fn records(slots: (&[u8], &[u8]), first: u8, en: VertexEnables, eot: bool) -> Vec<UrbWrite> {
    let count = slots.0.len() / SLOT_BYTES;
    (0..count)
        .map(|s| UrbWrite {
            slot: first.saturating_add(s as u8),
            vertices: (0..2)
                .filter(|&q| en.written(q))
                .map(|q| vertex(slots, s * SLOT_BYTES + q * VERTEX_BYTES, q, en.known(q)))
                .collect(),
            eot,
        })
        .collect()
}

/// Vertex `q`'s four dwords at byte `at` of the slots.
fn vertex(slots: (&[u8], &[u8]), at: usize, q: usize, known: bool) -> ChannelColor {
    let mut out = ChannelColor {
        channel: q as u32,
        values: vec![],
        defined: vec![],
        float_nan: vec![],
    };
    for k in 0..4 {
        let range = at + 4 * k..at + 4 * k + 4;
        let bytes = &slots.0[range.clone()];
        let flags = &slots.1[range];
        let mask = |f: &dyn Fn(u8) -> bool| {
            flags
                .iter()
                .enumerate()
                .fold(0u8, |m, (i, &x)| m | (f(x) as u8) << i)
        };
        out.values
            .push(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
        out.defined
            .push(if known { mask(&|x| is_defined(x)) } else { 0 });
        out.float_nan
            .push(if known { mask(&|x| x == FLOAT_NAN) } else { 0 });
    }
    out
}
