//! Region parameters and alignment (docs/hardware/eu-hardware.md §1.5–1.6, §6.1, §6.6, §6.7).

use super::{
    elem_size, encoded_region, is_grf, is_indirect, is_send_like, reg_srcs, region, subnr,
};
use compiler::Inst;
use compiler::reg::{REG_SIZE, Reg, RegKind, Region};

/// Declares a rule: `rule!(ID, "name", "Mesa's message", |inst, device| broken)`.
macro_rules! rule {
    ($id:ident, $name:literal, $msg:literal, $f:expr) => {
        pub static $id: $crate::strict::RuleDef = $crate::strict::RuleDef {
            id: concat!(module_path!(), "::", stringify!($id)),
            name: $name,
            message: $msg,
            broken: $f,
        };
    };
}
pub(crate) use rule;

/// Sources the region rules look at: register sources of non-send, non-3-source Align1
/// instructions, with their regions (indirect ones included; the rules that need GRF
/// bytes skip them, as `is_grf`/`grf_byte` do not hold for them). Align16 instructions have
/// their own region rules (align16.rs), as in Mesa's validators.
fn region_srcs(inst: &Inst) -> impl Iterator<Item = (&Reg, Region)> {
    let skipped = is_send_like(inst) || inst.op.is_3src() || inst.is_align16();
    reg_srcs(inst)
        .filter(move |_| !skipped)
        .filter_map(|(_, r)| encoded_region(r).map(|g| (r, g)))
}

/// The destination's horizontal stride, direct or indirect.
fn dst_hstride(inst: &Inst) -> Option<u8> {
    if inst.dst.is_null() || is_send_like(inst) || inst.is_align16() {
        return None;
    }
    encoded_region(&inst.dst).map(|g| g.hstride)
}

fn any_src(inst: &Inst, f: impl Fn(&Reg, Region, u32) -> bool) -> bool {
    let n = inst.exec_size as u32;
    region_srcs(inst).any(|(r, g)| f(r, g, n))
}

/// VertStride code 0xF (Vx1/VxH) is encodable on an indirect source only (docs/hardware/eu-hardware.md
/// §1.1).
fn encodable_src(r: &Reg, g: Region) -> bool {
    let one_dimensional = g.is_one_dimensional() && is_indirect(r);
    (one_dimensional || matches!(g.vstride, 0 | 1 | 2 | 4 | 8 | 16 | 32))
        && matches!(g.width, 1 | 2 | 4 | 8 | 16)
        && matches!(g.hstride, 0 | 1 | 2 | 4)
}

/// The region of a directly addressed destination, for the byte-placement rules: the region
/// alignment rules are "Region Alignment Rules for Direct Register Addressing"
/// (docs/hardware/eu-hardware.md §6.7), and an indirect destination's bytes are unknown until it
/// runs. (Its stride is judged by the rules that read `dst_hstride`.)
fn dst_region(inst: &Inst) -> Option<Region> {
    if inst.dst.is_null() || is_send_like(inst) || inst.is_align16() {
        return None;
    }
    region(&inst.dst)
}

rule!(
    INVALID_EXEC_SIZE,
    "invalid-exec-size",
    "invalid execution size",
    |i, _| { !matches!(i.exec_size, 1 | 2 | 4 | 8 | 16 | 32) }
);

rule!(
    EXEC_SIZE_OFFSET,
    "exec-size-offset-factor",
    "The execution size must be a factor of the chosen offset",
    |i, _| i.exec_size != 0 && i.group % i.exec_size != 0
);

rule!(
    UNENCODABLE_REGION,
    "unencodable-region",
    "Region cannot be encoded: vstride must be 0/1/2/4/8/16/32, width 1/2/4/8/16, hstride 0/1/2/4 (destination 1/2/4)",
    |i, _| {
        any_src(i, |r, g, _| !encodable_src(r, g))
            || dst_hstride(i).is_some_and(|h| !matches!(h, 0 | 1 | 2 | 4))
    }
);

rule!(
    EXEC_GE_WIDTH,
    "exec-size-lt-width",
    "ExecSize must be greater than or equal to Width",
    |i, _| any_src(i, |_, g, n| n < g.width as u32)
);

rule!(
    WIDTH1_HSTRIDE0,
    "width1-hstride-nonzero",
    "If Width = 1, HorzStride must be 0 regardless of the values of ExecSize and VertStride",
    |i, _| any_src(i, |_, g, _| g.width == 1 && g.hstride != 0)
);

rule!(
    VSTRIDE_EQ_WIDTH_HSTRIDE,
    "exec-eq-width-vstride",
    "If ExecSize = Width and HorzStride ≠ 0, VertStride must be set to Width * HorzStride",
    // This and the Align1 region checks after it do not apply to VertStride 0xF (§6.6).
    |i, _| any_src(i, |_, g, n| !g.is_one_dimensional()
        && n == g.width as u32
        && g.hstride != 0
        && g.vstride as u32 != g.width as u32 * g.hstride as u32)
);

rule!(
    EXEC_WIDTH_ONE,
    "exec-width-one-strides",
    "If ExecSize = Width = 1, both VertStride and HorzStride must be 0",
    |i, _| any_src(i, |_, g, n| !g.is_one_dimensional()
        && n == 1
        && g.width == 1
        && (g.vstride != 0 || g.hstride != 0))
);

rule!(
    ZERO_STRIDES_WIDTH1,
    "zero-strides-width",
    "If VertStride = HorzStride = 0, Width must be 1 regardless of the value of ExecSize",
    |i, _| any_src(i, |_, g, _| !g.is_one_dimensional()
        && g.vstride == 0
        && g.hstride == 0
        && g.width != 1)
);

/// Whether some row of a GRF source has an element whose last byte lies in another GRF
/// than the row's first byte.
fn row_crosses(r: &Reg, g: Region, n: u32) -> bool {
    let Some(base) = super::grf_byte(r) else {
        return false;
    };
    let size = elem_size(r.ty);
    let w = g.width.max(1) as u32;
    (0..n.div_ceil(w)).any(|row| {
        let start = base + row * g.vstride as u32 * size;
        (0..w.min(n - row * w)).any(|col| {
            let last = start + col * g.hstride as u32 * size + size - 1;
            last / REG_SIZE != start / REG_SIZE
        })
    })
}

rule!(
    ROW_CROSSES_GRF,
    "row-crosses-grf",
    "VertStride must be used to cross GRF register boundaries",
    |i, _| any_src(i, row_crosses)
);

rule!(
    DST_HSTRIDE_ZERO,
    "dst-hstride-zero",
    "Destination Horizontal Stride must not be 0",
    |i, _| dst_hstride(i).is_some_and(|h| h == 0)
);

/// Last byte touched by a source, relative to its register's start.
fn src_last_byte(r: &Reg, g: Region, n: u32) -> u32 {
    let w = g.width.max(1) as u32;
    let rows = n.div_ceil(w);
    ((rows - 1) * g.vstride as u32 + (w.min(n) - 1) * g.hstride as u32) * elem_size(r.ty) + subnr(r)
}

rule!(
    SRC_SPANS_TWO,
    "src-spans-more-than-two-grfs",
    "A source cannot span more than 2 adjacent GRF registers",
    |i, _| any_src(i, |r, g, n| is_grf(r)
        && src_last_byte(r, g, n) >= 2 * REG_SIZE)
);

/// Byte offsets of the destination's elements relative to its register start (computed
/// on the fly: the rules run on every instruction of every compiled program).
fn dst_bytes(inst: &Inst) -> Option<impl ExactSizeIterator<Item = u32> + Clone> {
    let g = dst_region(inst)?;
    let size = elem_size(inst.dst.ty);
    let sub = subnr(&inst.dst);
    Some((0..inst.exec_size as u32).map(move |c| sub + c * g.hstride as u32 * size))
}

rule!(
    DST_SPANS_TWO,
    "dst-spans-more-than-two-grfs",
    "A destination cannot span more than 2 adjacent GRF registers",
    |i, _| {
        matches!(i.dst.kind, RegKind::Fixed { .. })
            && dst_bytes(i).is_some_and(|mut b| b.any(|x| x + elem_size(i.dst.ty) > 2 * REG_SIZE))
    }
);

fn uneven_split(inst: &Inst) -> bool {
    let Some(bytes) = dst_bytes(inst) else {
        return false;
    };
    let first = bytes.clone().filter(|&b| b < REG_SIZE).count();
    let second = bytes.len() - first;
    second > 0 && first != second
}

rule!(
    DST_EVEN_SPLIT,
    "dst-uneven-split",
    "Writes must be evenly split between the two destination registers",
    |i, _| uneven_split(i)
);

rule!(
    DST_EVEN_SPLIT_MATH,
    "dst-uneven-split",
    "Writes must be evenly split between the two destination registers",
    |i, _| i.op.is_math() && uneven_split(i)
);

fn src_spans_two(r: &Reg, g: Region, n: u32) -> bool {
    is_grf(r)
        && (subnr(r) + (0..n).map(|c| g.element(c)).max().unwrap_or(0) * elem_size(r.ty)) / REG_SIZE
            >= 1
}

rule!(
    OWORD_SPLIT,
    "dst-oword-split",
    "Writes must be to only one OWord or evenly split between OWords",
    |i, _| {
        let Some(bytes) = dst_bytes(i) else {
            return false;
        };
        let one_reg = bytes.clone().all(|b| b < REG_SIZE);
        if !one_reg || !any_src(i, src_spans_two) {
            return false;
        }
        let low = bytes.clone().filter(|&b| b < 16).count();
        let high = bytes.len() - low;
        !(low == 0 || high == 0 || low == high)
    }
);

/// Gen ≤ 7 two-register destination rules: (each dst register from one src register,
/// both src registers at the same offset, 2-register dst needs 2-register sources).
fn two_reg_rule(inst: &Inst, which: u8) -> bool {
    let Some(dbytes) = dst_bytes(inst) else {
        return false;
    };
    if !dbytes.clone().any(|b| b >= REG_SIZE) {
        return false;
    }
    let n = inst.exec_size as u32;
    let packed_word_src0 = |idx: usize, r: &Reg, g: Region| {
        idx == 0
            && matches!(r.ty, compiler::Type::W | compiler::Type::UW)
            && g.hstride == 1
            && inst.dst.ty.size() == 4
            && dst_region(inst).is_some_and(|d| d.hstride == 1)
    };
    reg_srcs(inst).any(|(idx, r)| {
        let Some(g) = region(r) else {
            return false;
        };
        if g.vstride == 0 && g.hstride == 0 || !is_grf(r) || is_send_like(inst) || inst.op.is_3src()
        {
            return false;
        }
        let sbytes = (0..n).map(|c| subnr(r) + g.element(c) * elem_size(r.ty));
        let spans_two = sbytes.clone().any(|b| b >= REG_SIZE);
        match which {
            0 => {
                spans_two
                    && dbytes
                        .clone()
                        .zip(sbytes)
                        .any(|(d, s)| d / REG_SIZE != s / REG_SIZE)
            }
            1 => {
                let off = |reg: u32| {
                    sbytes
                        .clone()
                        .find(|&b| b / REG_SIZE == reg)
                        .map(|b| b % REG_SIZE)
                };
                spans_two && off(0) != off(1)
            }
            _ => !spans_two && !packed_word_src0(idx, r, g),
        }
    })
}

rule!(
    DST_REG_FROM_ONE_SRC_REG,
    "dst-reg-from-one-src-reg",
    "Each destination register must be entirely derived from one source register",
    |i, _| two_reg_rule(i, 0)
);

rule!(
    TWO_SRC_REGS_SAME_OFFSET,
    "src-regs-same-offset",
    "The offset from the two source registers must be the same",
    |i, _| two_reg_rule(i, 1)
);

rule!(
    SRC_MUST_SPAN_TWO,
    "src-must-span-two-grfs",
    "When the destination spans two registers, the source must span two registers (exceptions for scalar sources, and packed-word to packed-dword expansion for src0)",
    |i, _| two_reg_rule(i, 2)
);

/// Whether `op` is a 2-source hardware instruction for the null-source rules.
fn two_source(inst: &Inst) -> bool {
    super::hw_src_count(inst) >= 2 && !inst.op.is_3src()
}

rule!(SRC0_NULL, "src0-null", "src0 is null", |i, _| {
    !is_send_like(i) && !i.op.is_3src() && i.srcs.first().is_some_and(Reg::is_null)
});

rule!(SRC1_NULL, "src1-null", "src1 is null", |i, _| {
    !is_send_like(i) && two_source(i) && i.srcs.get(1).is_some_and(Reg::is_null)
});

rule!(
    // docs/hardware/brw-backend.md §1.7: "Pre-gen8: a SIMD32 instruction applies the low 16 mask bits to
    // both halves", which is why width lowering caps every non-NoMask instruction at SIMD16
    // before Gen8 (§4.1 rule 7). The emulator models the aliasing (`DInst::low_mask_halves`);
    // this rule names the instruction a compiler left unsplit. The text is ours.
    SIMD32_MASKED_PRE_GEN8,
    "simd32-masked-pre-gen8",
    "Before Gen8 a SIMD32 instruction applies the low 16 execution-mask bits to both halves: non-NoMask instructions must be at most SIMD16",
    |i, _| i.exec_size == 32
        && !i.nomask
        && !i.op.is_control_flow()
        && i.op != compiler::Opcode::Nop
);
