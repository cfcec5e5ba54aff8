//! The thread payload: where a thread finds its header, push constants and per-channel
//! inputs when it starts. The emulator fills it, and the compiler reads inputs from it once
//! virtual UNIFORM/ATTR operands are lowered, so both agree by construction.
//!
//! | register | contents |
//! | --- | --- |
//! | `g0` | thread header: dword 3 bits 3:0 = per-thread scratch size encoding (device encoding); dword 5 bits 31:10 = scratch base address, bits 9:0 = FFTID; other dwords 0 |
//! | `g1` … | push constants: `u<i>` is dword `i` from `g1.0` on (⌈uniforms / 8⌉ registers) |
//! | then | per-channel inputs: `attr0`, `attr1`, … each at the next register, as declared |
//! | rest | undefined at thread start |

use crate::program::Program;
use crate::reg::REG_SIZE;

/// Byte offsets of the payload pieces in the GRF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PayloadLayout {
    /// First byte of `u0` (= `g1.0`).
    pub uniform_base: usize,
    /// First byte of each `attr<k>`.
    pub attr_bases: Vec<usize>,
    /// GRFs the payload occupies (g0 up to the last attr register).
    pub regs: usize,
}

/// g0.3: per-thread scratch size encoding (bits 3:0).
pub const SCRATCH_SIZE_DWORD: u32 = 3;
/// g0.5: scratch base (bits 31:10) and FFTID (bits 9:0).
pub const SCRATCH_BASE_DWORD: u32 = 5;

/// Bases of registers of the given sizes (32-byte units) one after another from `start`,
/// and the byte after the last.
pub fn consecutive(sizes: &[u32], start: usize) -> (Vec<usize>, usize) {
    let mut next = start;
    let bases = sizes
        .iter()
        .map(|&size| {
            let base = next;
            next += size as usize * REG_SIZE as usize;
            base
        })
        .collect();
    (bases, next)
}

impl PayloadLayout {
    pub fn new(p: &Program) -> PayloadLayout {
        let reg = REG_SIZE as usize;
        let uniform_base = reg;
        let uniform_regs = (p.uniforms as usize * 4).div_ceil(reg);
        let (attr_bases, end) = consecutive(&p.attr_sizes, uniform_base + uniform_regs * reg);
        PayloadLayout {
            uniform_base,
            attr_bases,
            regs: end / reg,
        }
    }
}
