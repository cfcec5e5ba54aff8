//! Where everything lives in a thread's register space.
//!
//! One flat byte space per thread holds the GRF file followed by every VGRF. The GRF file
//! starts with the thread payload (`compiler::payload` documents it), which logical and
//! hardware code both read, so a program reading `u0`/`attr0` and its lowered form reading
//! `g1`/`g2` see the same bytes. VGRF `v<k>` lives after the GRF file, each at its own base; a
//! logical program therefore never aliases a fixed GRF by accident.

use compiler::Program;
use compiler::payload::{PayloadLayout, consecutive};

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

impl Layout {
    pub fn new(p: &Program) -> Layout {
        let info = p.device.info();
        let grf_bytes = (info.grf_count * info.grf_size) as usize;
        let payload = PayloadLayout::new(p);
        let (vgrf_bases, total) = consecutive(&p.vgrf_sizes, grf_bytes);
        Layout {
            grf_bytes,
            uniform_base: payload.uniform_base,
            attr_bases: payload.attr_bases,
            payload_regs: payload.regs,
            vgrf_bases,
            total,
        }
    }
}
