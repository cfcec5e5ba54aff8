//! Where everything lives in a thread's register space, and the thread payload format.
//!
//! One flat byte space per thread holds the GRF file followed by every VGRF. The GRF file
//! starts with the thread payload, which both logical and hardware code read, so a program
//! reading `u0`/`attr0` and its lowered form reading `g1`/`g2` see the same bytes:
//!
//! | register | contents |
//! | --- | --- |
//! | `g0` | thread header: dword 3 bits 3:0 = per-thread scratch size encoding (device encoding); dword 5 bits 31:10 = scratch base address, bits 9:0 = FFTID; other dwords 0 |
//! | `g1` … | push constants: `u<i>` is dword `i` from `g1.0` on (⌈uniforms / 8⌉ registers) |
//! | then | per-channel inputs: `attr0`, `attr1`, … each at the next register, as declared |
//! | rest | undefined at thread start |
//!
//! VGRF `v<k>` lives after the GRF file, each at its own base; a logical program therefore
//! never aliases a fixed GRF by accident.

use compiler::Program;
use compiler::reg::REG_SIZE;

/// Byte offsets of the payload pieces and VGRFs in a thread's register space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes of the GRF file (128 × 32 on every modelled device).
    pub grf_bytes: usize,
    /// First byte of `u0` (= `g1.0`).
    pub uniform_base: usize,
    /// First byte of each `attr<k>`.
    pub attr_bases: Vec<usize>,
    /// Registers the payload occupies (g0 up to the last attr register).
    pub payload_regs: usize,
    /// First byte of each `v<k>`.
    pub vgrf_bases: Vec<usize>,
    /// Total bytes of the space.
    pub total: usize,
}

/// Scratch base address programmed into every thread's g0.5 (1 KB aligned, non-zero so that
/// code forgetting to add it is caught).
pub const SCRATCH_BASE: u32 = 64 * 1024;

/// Bases of registers of the given sizes (in 32-byte units) placed one after another from
/// `start`, and the byte after the last.
fn consecutive(sizes: &[u32], start: usize) -> (Vec<usize>, usize) {
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

impl Layout {
    pub fn new(p: &Program) -> Layout {
        let info = p.device.info();
        let reg = REG_SIZE as usize;
        let grf_bytes = (info.grf_count * info.grf_size) as usize;
        let uniform_base = reg;
        let uniform_regs = (p.uniforms as usize * 4).div_ceil(reg);
        let (attr_bases, payload_end) =
            consecutive(&p.attr_sizes, uniform_base + uniform_regs * reg);
        let (vgrf_bases, total) = consecutive(&p.vgrf_sizes, grf_bytes);
        Layout {
            grf_bytes,
            uniform_base,
            attr_bases,
            payload_regs: payload_end / reg,
            vgrf_bases,
            total,
        }
    }
}
