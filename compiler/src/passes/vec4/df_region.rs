//! Which logical 64-bit swizzles an Align16 DF source can express, and how a supported one
//! becomes a hardware 32-bit swizzle, sub-register and VertStride (docs/hardware/fp64-align16.md §1.3–§1.5,
//! §3.2). `scalarize_df` asks the first question to decide what to split; convert-to-
//! hardware asks both when it encodes the operand. Keeping them here keeps the two passes
//! agreeing on one table.

use crate::device::DeviceInfo;
use crate::inst::Inst;
use crate::pass::CompileOptions;
use crate::reg::Swizzle;

/// The four logical swizzles every generation reads natively from a 2-wide DF row with a
/// non-zero VertStride (§1.4 table): XYZW, XXZZ, YYWW, YXWZ.
const NATIVE: [Swizzle; 4] = [
    Swizzle::new([0, 1, 2, 3]),
    Swizzle::new([0, 0, 2, 2]),
    Swizzle::new([1, 1, 3, 3]),
    Swizzle::new([1, 0, 3, 2]),
];

/// The eight logical swizzles Gen7 reaches with VertStride 0 (§1.5
/// `is_gen7_supported_64bit_swizzle`): the row is replicated, at sub-register 0 or 16.
const GEN7_VSTRIDE0: [Swizzle; 8] = [
    Swizzle::replicate(0),
    Swizzle::replicate(1),
    Swizzle::replicate(2),
    Swizzle::replicate(3),
    Swizzle::new([0, 1, 0, 1]),
    Swizzle::new([1, 0, 1, 0]),
    Swizzle::new([2, 3, 2, 3]),
    Swizzle::new([3, 2, 3, 2]),
];

/// The swizzle the `df-extra-native-swizzle` zoo bug adds to the native list (§11): XXYY,
/// which hardware `.xyxy` with a non-zero VertStride actually reads as XXZZ.
const XXYY: Swizzle = Swizzle::new([0, 0, 1, 1]);

/// Whether `swizzle` is in the natively supported set (the zoo may add a wrong member).
fn is_native(swizzle: Swizzle, opts: &CompileOptions) -> bool {
    NATIVE.contains(&swizzle) || (swizzle == XXYY && crate::zoo!(opts, DfExtraNativeSwizzle))
}

/// Whether `swizzle` is one of the Gen7 VertStride-0 swizzles (the test is `gen == 7`:
/// Ivybridge and Haswell alike, §1.5).
pub fn is_gen7_supported_swizzle(swizzle: Swizzle, info: &DeviceInfo) -> bool {
    info.verx10 / 10 == 7 && GEN7_VSTRIDE0.contains(&swizzle)
}

/// Whether `swizzle` reads component z or w (Mesa's `mask_for_swizzle & 0b1100`).
fn reads_zw(swizzle: Swizzle) -> bool {
    swizzle.comps().iter().any(|&k| k >= 2)
}

/// `is_supported_64bit_region` (§1.5): whether 64-bit source `arg` of `inst` can be read
/// whole with its logical swizzle. A uniform source reading z/w cannot (VertStride 0
/// replicates the x/y row). The vec4 stage modelled here is the vertex stage, whose
/// attributes are not interleaved, so the ATTR case of TES/GS never applies.
pub fn is_supported_64bit_region(
    inst: &Inst,
    arg: usize,
    info: &DeviceInfo,
    opts: &CompileOptions,
) -> bool {
    let src = &inst.srcs[arg];
    let swizzle = src.swizzle;
    if starts_mid_row(src) {
        return false;
    }
    let uniform_zw_rejected = !crate::zoo!(opts, DfUniformZwSupported);
    // A uniform (one value for every vertex: uniform, immediate, stride 0) has VertStride 0.
    if src.is_uniform() && reads_zw(swizzle) && uniform_zw_rejected {
        return false;
    }
    is_native(swizzle, opts) || is_gen7_supported_swizzle(swizzle, info)
}

/// Whether a uniform starts 8 bytes into a 16-byte row (`u2:DF`): the IR allows it, Mesa
/// never lays out 64-bit uniforms so. Its DF components straddle rows, so only one at a
/// time can be read (`scalarize_df` splits it; convert-to-hardware then names the row).
pub fn starts_mid_row(src: &crate::reg::Reg) -> bool {
    match src.kind {
        crate::reg::RegKind::Uniform { nr, offset } => (nr * 4 + offset) % 16 != 0,
        _ => false,
    }
}

/// A DF source as hardware encodes it (§1.4): the 32-bit swizzle, whether the operand
/// moves to the second 16-byte half of its register (sub-register 16), and whether its
/// VertStride must be 0.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HwSwizzle {
    pub swizzle: Swizzle,
    pub second_half: bool,
    pub vstride0: bool,
}

/// `apply_logical_swizzle` (§1.4, §3.2) for a 64-bit source of an Align16 instruction.
/// `supported` is [`is_supported_64bit_region`]'s answer; an unsupported source must have
/// been made single-valued by `scalarize_df`. A native swizzle keeps the register's
/// VertStride and is built from its first two components; anything else takes the Gen7
/// VertStride-0 path, moving to byte 16 for a z/w pair. `at_byte16` says whether the
/// register already starts at byte 16 of a GRF, which also needs VertStride 0.
pub fn apply_logical_swizzle(
    logical: Swizzle,
    supported: bool,
    at_byte16: bool,
    info: &DeviceInfo,
    opts: &CompileOptions,
) -> HwSwizzle {
    let (l0, l1) = (logical.comp(0), logical.comp(1));
    let pairs = |a: u8, b: u8| Swizzle::new([2 * a, 2 * a + 1, 2 * b, 2 * b + 1]);
    if supported && !is_gen7_supported_swizzle(logical, info) {
        return HwSwizzle {
            swizzle: pairs(l0, l1),
            second_half: false,
            vstride0: false,
        };
    }
    // A pair never mixes the x/y half with the z/w half (§1.5): z/w pairs are read as x/y
    // pairs of the register's second 16-byte half.
    let zw = l0 >= 2;
    let (a, b) = if zw { (l0 & 1, l1 & 1) } else { (l0, l1) };
    let second_half = zw && !crate::zoo!(opts, DfZwNoSuboffset);
    let gen7 = info.verx10 / 10 == 7 && is_gen7_supported_swizzle(logical, info);
    let vstride0 = (gen7 || second_half || at_byte16)
        && !(second_half && crate::zoo!(opts, DfZwNonzeroVstride));
    HwSwizzle {
        swizzle: pairs(a, b),
        second_half,
        vstride0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Device;

    fn hw(logical: [u8; 4], supported: bool) -> (String, bool, bool) {
        let info = Device::Hsw.info();
        let h = apply_logical_swizzle(
            Swizzle::new(logical),
            supported,
            false,
            info,
            &CompileOptions::default(),
        );
        (h.swizzle.letters(), h.second_half, h.vstride0)
    }

    #[test]
    fn the_section_1_4_table() {
        // native: gN<4>.xyzw, .xyxy, .zwzw, .zwxy
        assert_eq!(hw([0, 1, 2, 3], true), ("xyzw".into(), false, false));
        assert_eq!(hw([0, 0, 2, 2], true), ("xyxy".into(), false, false));
        assert_eq!(hw([1, 1, 3, 3], true), ("zwzw".into(), false, false));
        assert_eq!(hw([1, 0, 3, 2], true), ("zwxy".into(), false, false));
        // Gen7 VertStride 0 at sub-register 0
        assert_eq!(hw([0, 0, 0, 0], true), ("xyxy".into(), false, true));
        assert_eq!(hw([1, 1, 1, 1], true), ("zwzw".into(), false, true));
        assert_eq!(hw([0, 1, 0, 1], true), ("xyzw".into(), false, true));
        assert_eq!(hw([1, 0, 1, 0], true), ("zwxy".into(), false, true));
        // ... and at sub-register 16
        assert_eq!(hw([2, 2, 2, 2], true), ("xyxy".into(), true, true));
        assert_eq!(hw([3, 3, 3, 3], true), ("zwzw".into(), true, true));
        assert_eq!(hw([2, 3, 2, 3], true), ("xyzw".into(), true, true));
        assert_eq!(hw([3, 2, 3, 2], true), ("zwxy".into(), true, true));
    }

    fn supported(target: Device, src: &str) -> bool {
        let text = format!(
            "eu 1\ntarget {}\ndispatch 8\nuniforms 8\nvgrf v0 2\nvgrf v1 2\nSTART B0\n    \
             add(8) v1:DF, {src}, v0:DF {{ Align16 }}\nEND B0\n",
            target.info().name
        );
        let p = crate::text::parse_program(&text).unwrap();
        let inst = p.insts().next().unwrap();
        is_supported_64bit_region(inst, 0, target.info(), &CompileOptions::default())
    }

    #[test]
    fn is_supported_64bit_region_follows_section_1_5() {
        for sw in ["xyzw", "xxzz", "yyww", "yxwz"] {
            assert!(supported(Device::Bdw, &format!("v0.{sw}:DF")), "{sw}");
        }
        // The Gen7 list is Gen7 only (IVB and HSW), other swizzles nowhere.
        assert!(supported(Device::Hsw, "v0.zwzw:DF"));
        assert!(supported(Device::Ivb, "v0.w:DF"));
        assert!(!supported(Device::Bdw, "v0.zwzw:DF"));
        assert!(!supported(Device::Hsw, "v0.xxyy:DF"));
        assert!(!supported(Device::Hsw, "v0.xyxz:DF"));
        // Uniforms: nothing that reads z or w, even XYZW.
        assert!(!supported(Device::Hsw, "u0.xyzw:DF"));
        assert!(!supported(Device::Hsw, "u0.z:DF"));
        assert!(supported(Device::Hsw, "u0.x:DF"));
        assert!(supported(Device::Hsw, "u0.xyxy:DF"));
    }
}
