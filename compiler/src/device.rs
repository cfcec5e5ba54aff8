//! The device table: which generation each target is and what it can do.
//!
//! Every per-device decision in the backend (lowered SIMD widths, integer-multiply lowering,
//! regioning restrictions, scratch encoding) and in the emulator's strict mode reads these
//! capability bits rather than comparing generation numbers, so the table is the one place
//! to check against the platform map (docs/hardware/eu-hardware.md §0.1, docs/hardware/brw-backend.md §1.5, §6, §8).

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};

/// A target device.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub enum Device {
    G45,
    Ivb,
    Byt,
    Hsw,
    Bdw,
    Chv,
    Skl,
    Bxt,
    Glk,
    Icl,
    Tgl,
    Dg2,
}

/// How the per-thread scratch size is encoded in the thread payload / state.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum ScratchEncoding {
    /// log2(size / 1 KB): 0 = 1 KB … 11 = 2 MB (most parts).
    Pow2From1K,
    /// log2(size / 2 KB): 0 = 2 KB (HSW compute).
    Pow2From2K,
    /// size / 1 KB − 1, linear: 0 = 1 KB … 11 = 12 KB (IVB/BYT compute).
    LinearKb,
}

impl ScratchEncoding {
    /// The smallest per-thread size this encoding can express that holds `bytes`.
    pub fn round_up(self, bytes: u32) -> u32 {
        match self {
            ScratchEncoding::Pow2From1K => bytes.max(1024).next_power_of_two(),
            ScratchEncoding::Pow2From2K => bytes.max(2048).next_power_of_two(),
            ScratchEncoding::LinearKb => bytes.max(1).div_ceil(1024) * 1024,
        }
    }

    /// The encoded field for a per-thread size (which must already be expressible).
    pub fn encode(self, bytes: u32) -> u32 {
        match self {
            ScratchEncoding::Pow2From1K => (bytes / 1024).max(1).trailing_zeros(),
            ScratchEncoding::Pow2From2K => (bytes / 2048).max(1).trailing_zeros(),
            ScratchEncoding::LinearKb => (bytes / 1024).max(1) - 1,
        }
    }

    /// The per-thread size a field value stands for.
    pub fn decode(self, field: u32) -> u32 {
        match self {
            ScratchEncoding::Pow2From1K => 1024u32.checked_shl(field).unwrap_or(0),
            ScratchEncoding::Pow2From2K => 2048u32.checked_shl(field).unwrap_or(0),
            ScratchEncoding::LinearKb => (field + 1) * 1024,
        }
    }
}

/// What one device can do.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct DeviceInfo {
    pub device: Device,
    pub name: &'static str,
    /// Generation × 10 (Mesa's `verx10`): 45, 70, 75, 80, 90, 110, 120, 125.
    pub verx10: u32,
    pub has_64bit_float: bool,
    pub has_64bit_int: bool,
    /// DF immediates exist from Gen8 on (IVB/HSW have DF registers only).
    pub has_df_imm: bool,
    /// Native 32×32 integer MUL (`has_integer_dword_mul`).
    pub has_integer_dword_mul: bool,
    /// 64-bit / DW-multiply operations must keep source and destination regions aligned
    /// (CHV, BXT/GLK, DG2).
    pub has_dst_aligned_region_restriction: bool,
    /// DG2: the aligned-region rule also covers every float destination.
    pub float_dst_aligned_region: bool,
    pub has_align16: bool,
    /// 3-source instructions may run SIMD16 (HSW and later).
    pub supports_simd16_3src: bool,
    /// HF is a register type (Gen8+).
    pub has_half_float: bool,
    /// Bytes per GRF.
    pub grf_size: u32,
    /// GRFs per thread.
    pub grf_count: u32,
    /// 16-bit flag subregisters (f0.0, f0.1, f1.0, f1.1 → 4).
    pub flag_subregs: u32,
    pub max_dispatch_width: u32,
    /// Largest per-thread scratch space the hardware can be programmed with.
    pub max_scratch_per_thread: u32,
    pub scratch_encoding: ScratchEncoding,
    /// Without DxD multiply, the 32×16 multiplier reads only the low 16 bits of this source.
    pub mul_low16_src: u8,
}

/// Every device, in generation order.
pub const ALL_DEVICES: [Device; 12] = [
    Device::G45,
    Device::Ivb,
    Device::Byt,
    Device::Hsw,
    Device::Bdw,
    Device::Chv,
    Device::Skl,
    Device::Bxt,
    Device::Glk,
    Device::Icl,
    Device::Tgl,
    Device::Dg2,
];

const MB2: u32 = 2 * 1024 * 1024;

const fn base(device: Device, name: &'static str, verx10: u32) -> DeviceInfo {
    DeviceInfo {
        device,
        name,
        verx10,
        has_64bit_float: false,
        has_64bit_int: false,
        has_df_imm: false,
        has_integer_dword_mul: false,
        has_dst_aligned_region_restriction: false,
        float_dst_aligned_region: false,
        has_align16: verx10 < 110,
        supports_simd16_3src: verx10 >= 75,
        has_half_float: verx10 >= 80,
        grf_size: 32,
        grf_count: 128,
        flag_subregs: if verx10 >= 70 { 4 } else { 2 },
        max_dispatch_width: if verx10 >= 60 { 32 } else { 16 },
        max_scratch_per_thread: MB2,
        scratch_encoding: ScratchEncoding::Pow2From1K,
        mul_low16_src: if verx10 >= 70 { 1 } else { 0 },
    }
}

const fn gen7(device: Device, name: &'static str, verx10: u32) -> DeviceInfo {
    let mut d = base(device, name, verx10);
    d.has_64bit_float = true;
    d
}

const fn gen8plus_64(device: Device, name: &'static str, verx10: u32) -> DeviceInfo {
    let mut d = base(device, name, verx10);
    d.has_64bit_float = true;
    d.has_64bit_int = true;
    d.has_df_imm = true;
    d
}

const TABLE: [DeviceInfo; 12] = {
    let g45 = base(Device::G45, "g45", 45);
    let mut ivb = gen7(Device::Ivb, "ivb", 70);
    ivb.max_scratch_per_thread = 12 * 1024;
    ivb.scratch_encoding = ScratchEncoding::LinearKb;
    let mut byt = ivb;
    byt.device = Device::Byt;
    byt.name = "byt";
    let mut hsw = gen7(Device::Hsw, "hsw", 75);
    hsw.scratch_encoding = ScratchEncoding::Pow2From2K;
    let mut bdw = gen8plus_64(Device::Bdw, "bdw", 80);
    bdw.has_integer_dword_mul = true;
    let mut chv = gen8plus_64(Device::Chv, "chv", 80);
    chv.has_dst_aligned_region_restriction = true;
    let mut skl = gen8plus_64(Device::Skl, "skl", 90);
    skl.has_integer_dword_mul = true;
    let mut bxt = gen8plus_64(Device::Bxt, "bxt", 90);
    bxt.has_dst_aligned_region_restriction = true;
    let mut glk = bxt;
    glk.device = Device::Glk;
    glk.name = "glk";
    let icl = base(Device::Icl, "icl", 110);
    let tgl = base(Device::Tgl, "tgl", 120);
    let mut dg2 = base(Device::Dg2, "dg2", 125);
    dg2.has_dst_aligned_region_restriction = true;
    dg2.float_dst_aligned_region = true;
    [g45, ivb, byt, hsw, bdw, chv, skl, bxt, glk, icl, tgl, dg2]
};

impl Device {
    pub fn info(self) -> &'static DeviceInfo {
        &TABLE[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn from_name(s: &str) -> Option<Device> {
        ALL_DEVICES.iter().copied().find(|d| d.name() == s)
    }

    /// CHV and the Gen9 low-power parts (BXT/GLK) with the "qword low power" rules.
    pub fn is_low_power_64(self) -> bool {
        matches!(self, Device::Chv | Device::Bxt | Device::Glk)
    }
}

impl std::fmt::Display for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_device() {
        for d in ALL_DEVICES {
            assert_eq!(d.info().device, d);
            assert_eq!(Device::from_name(d.name()), Some(d));
        }
    }

    #[test]
    fn platform_map_facts() {
        // docs/hardware/eu-hardware.md §0.1: DxD multiply only on BDW and big-core Gen9.
        let dxd: Vec<_> = ALL_DEVICES
            .iter()
            .filter(|d| d.info().has_integer_dword_mul)
            .map(|d| d.name())
            .collect();
        assert_eq!(dxd, ["bdw", "skl"]);
        // Gen7 has DF but no Q; ICL/TGL/DG2 have neither.
        assert!(Device::Hsw.info().has_64bit_float && !Device::Hsw.info().has_64bit_int);
        assert!(!Device::Icl.info().has_64bit_float && !Device::Tgl.info().has_64bit_int);
        assert!(!Device::Icl.info().has_align16 && Device::Glk.info().has_align16);
        assert!(
            !Device::Ivb.info().supports_simd16_3src && Device::Hsw.info().supports_simd16_3src
        );
    }

    #[test]
    fn scratch_encodings() {
        let hsw = Device::Hsw.info().scratch_encoding;
        assert_eq!(hsw.round_up(100), 2048);
        assert_eq!(hsw.encode(2048), 0);
        assert_eq!(hsw.decode(0), 2048);
        let ivb = Device::Ivb.info().scratch_encoding;
        assert_eq!(ivb.round_up(3000), 3072);
        assert_eq!(ivb.encode(12 * 1024), 11);
        let skl = Device::Skl.info().scratch_encoding;
        assert_eq!(skl.encode(MB2), 11);
        assert_eq!(skl.decode(skl.encode(64 * 1024)), 64 * 1024);
    }
}
