//! `lower_simd_width` (docs/hardware/brw-backend.md §4): splits instructions wider than the hardware (or
//! the message) allows into pieces, and promotes gen4 texture messages to SIMD16.
//!
//! Pieces run low group first, high group last; only the last ends the thread. Sources
//! that repeat every channel pass through unchanged; single-component sources are read at
//! the piece's channel offset relative to the instruction's group; multi-component sources,
//! sources of promoted pieces and sources aliasing the flag the instruction writes are
//! gathered ("unzipped") into packed temporaries first. A destination with several
//! components, of a promoted piece, or overlapping a source is written through temporaries
//! and "zipped" back afterwards — a predicated one pre-copied so that channels the predicate
//! leaves alone keep their values. Pieces wider than the original are NoMask, so no masked
//! instruction is ever wider than the dispatch width.

use crate::hw::is_mixed_float;
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError};
use crate::program::Program;
use crate::reg::{Arf, REG_SIZE, Reg, RegKind, Region};
use crate::types::Type;

/// Registers (32-byte units) an operand's channels touch, counted from its register start.
/// A register region is walked by its rows: `<0;4,1>` read by 16 channels touches four
/// elements, `<4;4,0>` elements 0, 4, 8 and 12 (docs/hardware/eu-hardware.md §1.1), which a
/// single stride would miscount.
fn span_regs(r: &Reg, n: u32, bytes: Option<u32>) -> u32 {
    if r.is_null() || r.is_imm() || r.is_uniform() {
        return 0;
    }
    let last = match r.kind {
        RegKind::Fixed { region, .. } | RegKind::Arf { region, .. } => region.last_element(n.max(1)),
        _ => (n - 1) * super::elem_stride(r).unwrap_or(0),
    };
    let len = bytes.unwrap_or_else(|| last * r.ty.size() + r.ty.size());
    (super::reg_offset(r) + len).div_ceil(REG_SIZE)
}

fn fpu_width(p: &Program, inst: &Inst, opts: &CompileOptions) -> u32 {
    let info = p.device.info();
    let n = inst.exec_size as u32;
    let mut w = n.min(32);
    let footprint = std::iter::once(span_regs(&inst.dst, n, None))
        .chain(inst.srcs.iter().map(|s| span_regs(s, n, None)))
        .max()
        .unwrap_or(0);
    if footprint > 2 {
        w = n / footprint.div_ceil(2);
    }
    if inst.cmod.is_some() && (info.verx10 < 80 || inst.op.is_3src()) {
        w = w.min(16);
    }
    if inst.op.is_3src() && !info.supports_simd16_3src {
        w = w.min(8);
    }
    if is_mixed_float(inst) && (info.verx10 < 90 || inst.op != Opcode::Mov) {
        w = w.min(8);
    }
    if info.verx10 < 80 {
        if !inst.nomask {
            w = w.min(16);
        }
        let df = inst.dst.ty == Type::DF || inst.srcs.iter().any(|s| s.ty == Type::DF);
        if info.verx10 == 70 && !inst.nomask && df {
            w = w.min(4);
        }
        // A two-register destination needs two-register sources on gen7 (except scalars);
        // a destination misaligned across a register boundary may need several halvings.
        loop {
            let dst_regs = span_regs(&inst.dst, w, None);
            let narrow_src = inst.srcs.iter().any(|s| {
                !s.is_uniform() && !s.is_imm() && !s.is_null() && span_regs(s, w, None) < dst_regs
            });
            if w > 1 && dst_regs == 2 && narrow_src {
                w /= 2;
            } else {
                break;
            }
        }
        while w > 1 && crosses_registers_unevenly(inst, w) {
            w /= 2;
        }
    }
    if super::lower_regioning::low_power_64bit(p, inst) {
        while w > 1 && nonlinear_64bit_piece(inst, w) {
            w /= 2;
        }
    }
    if info.verx10 <= 80 {
        while w > 1 && uneven_oword_write(inst, w) {
            w /= 2;
        }
    }
    if info.verx10 <= 80 || inst.op.is_math() {
        while w > 1 && uneven_dst_split(inst, w, opts) {
            w /= 2;
        }
    }
    if inst.op == Opcode::Cmp && info.verx10 == 70 && !inst.dst.is_null() {
        w = w.min(8);
    }
    if matches!(inst.op, Opcode::Bfi1 | Opcode::Bfi2) && p.device == crate::Device::Hsw {
        w = w.min(8);
    }
    1 << (31 - w.max(1).leading_zeros())
}

/// A non-scalar operand in the GRF file: a VGRF, an input or a fixed GRF. The register
/// rules below are the register file's, so fixed GRFs (hand-written, or copies back into
/// them) are held to them like VGRFs.
fn grf_vector(r: &Reg) -> bool {
    matches!(
        r.kind,
        RegKind::Vgrf { .. } | RegKind::Attr { .. } | RegKind::Fixed { .. }
    ) && !r.is_uniform()
}

/// Gen ≤ 7, destination spanning two registers at width `w` (docs/hardware/eu-hardware.md §1.5, §6.7):
/// each destination register must come entirely from one register of every two-register
/// source, and both source registers must be read from the same offset. A source
/// misaligned against the destination (`mov(16) v:F, v+2:UW`) breaks that; narrower pieces
/// don't.
fn crosses_registers_unevenly(inst: &Inst, w: u32) -> bool {
    let at = super::channel_byte;
    if !grf_vector(&inst.dst) || at(&inst.dst, w - 1) < REG_SIZE || inst.op.is_3src() {
        return false;
    }
    inst.srcs.iter().any(|s| {
        if !grf_vector(s) || (0..w).all(|c| at(s, c) < REG_SIZE) {
            return false;
        }
        let from_other = (0..w).any(|c| at(s, c) / REG_SIZE != at(&inst.dst, c) / REG_SIZE);
        let second = (0..w).map(|c| at(s, c)).find(|&b| b >= REG_SIZE);
        from_other || second.is_some_and(|b| b % REG_SIZE != super::reg_offset(s))
    })
}

/// On the destination-aligned parts (CHV, BXT, GLK) a 64-bit instruction's source regions
/// must be linear, VertStride = Width × HorzStride (docs/hardware/eu-hardware.md §5.1),
/// and no row may cross a register: a piece whose elements start inside a register and run
/// into the next (`v0+24:DF` read by two channels) has only rows of one element left, which
/// are not linear. Such pieces are halved until their rows fit.
fn nonlinear_64bit_piece(inst: &Inst, w: u32) -> bool {
    let n = inst.exec_size as u32;
    inst.srcs.iter().any(|s| {
        let stride = match s.kind {
            RegKind::Vgrf { stride, .. } | RegKind::Attr { stride, .. } => Some(stride as u32),
            RegKind::Fixed { region, .. } => region.linear_stride(),
            _ => None,
        };
        let Some(stride) = stride.filter(|_| !s.is_uniform()) else {
            return false;
        };
        (0..n / w).any(|k| {
            let start = super::channel_byte(s, k * w) % REG_SIZE;
            let RegKind::Fixed { region, .. } =
                super::fixed_operand(start, stride, s.ty, w, false).kind
            else {
                return false;
            };
            !region.is_scalar() && region.vstride != region.width * region.hstride
        })
    })
}

/// Gen ≤ 8, a piece of `w` channels whose destination lies in one register while a source
/// spans two (docs/hardware/eu-hardware.md §1.5): its writes must stay in one OWord of the
/// register or split evenly between the two, which a destination at an odd sub-register
/// (`g86.1`) breaks. Checked for every piece, since each starts at its own offset.
fn uneven_oword_write(inst: &Inst, w: u32) -> bool {
    let at = super::channel_byte;
    if !grf_vector(&inst.dst) || inst.op.is_3src() || inst.op.is_message() {
        return false;
    }
    let n = inst.exec_size as u32;
    (0..n / w).any(|k| {
        let piece = k * w..(k + 1) * w;
        let dst: Vec<u32> = piece.clone().map(|c| at(&inst.dst, c)).collect();
        let one_reg = dst.iter().all(|&b| b / REG_SIZE == dst[0] / REG_SIZE);
        let src_spans_two = inst.srcs.iter().filter(|s| grf_vector(s)).any(|s| {
            let first = at(s, k * w) / REG_SIZE;
            piece.clone().any(|c| at(s, c) / REG_SIZE != first)
        });
        let low = dst.iter().filter(|&&b| b % REG_SIZE < 16).count();
        let high = dst.len() - low;
        one_reg && src_spans_two && low != 0 && high != 0 && low != high
    })
}

/// Whether a destination spanning two registers at width `w` writes unequal amounts to
/// them (Gen ≤ 8 for every opcode, later only for math: docs/hardware/eu-hardware.md §1.5, §6.7), as a
/// destination at a register offset (`v+4`, `g44.7`) does. The rule is about the register
/// file, not the IR's: a fixed-GRF destination (hand-written, or a copy back into one that
/// `lower_regioning` emits) is split like a VGRF one.
fn uneven_dst_split(inst: &Inst, w: u32, opts: &CompileOptions) -> bool {
    let d = &inst.dst;
    let fixed = matches!(d.kind, RegKind::Fixed { .. })
        && !crate::zoo!(opts, SimdSplitFixedDstUneven);
    if !(fixed || matches!(d.kind, RegKind::Vgrf { .. } | RegKind::Attr { .. })) {
        return false;
    }
    let size = d.ty.size();
    let stride = super::byte_stride(d).max(size);
    let low = (0..w)
        .map(|c| super::reg_offset(d) + c * stride)
        .filter(|&b| b < REG_SIZE)
        .count() as u32;
    low < w && 2 * low != w
}

/// The width the hardware executes `inst` at on this device.
pub fn lowered_width(p: &Program, inst: &Inst) -> u32 {
    width(p, inst, &CompileOptions::default())
}

/// [`lowered_width`] with the pass's options (the zoo may re-inject a bug into it).
fn width(p: &Program, inst: &Inst, opts: &CompileOptions) -> u32 {
    let info = p.device.info();
    let n = inst.exec_size as u32;
    let hf = inst.dst.ty == Type::HF || inst.srcs.iter().any(|s| s.ty == Type::HF);
    use Opcode::*;
    match inst.op {
        If | Else | Endif | Do | While | Break | Continue | Halt | HaltTarget | Nop | Send => n,
        // One scalar result from all the group's channels: halves would each write it.
        FindLiveChannel | Broadcast => n,
        // Before Gen8 a masked SIMD32 instruction applies the low 16 mask bits to both halves
        // (docs/hardware/brw-backend.md §1.7, §4.1 rule 7): masked scratch access goes at most SIMD16.
        ScratchRead | ScratchWrite if info.verx10 < 80 && !inst.nomask => n.min(16),
        ScratchRead | ScratchWrite => n,
        LoadPayload if inst.header_size == 0 => {
            // Each component of the payload (one source) may span at most two registers.
            let regs = inst
                .srcs
                .iter()
                .map(|s| span_regs(s, n, None))
                .chain([span_regs(&inst.dst, n, None)])
                .max()
                .unwrap_or(0);
            let w = (n / regs.div_ceil(2).max(1)).max(1);
            1 << (31 - w.leading_zeros())
        }
        LoadPayload => n,
        FbWriteLogical | UntypedReadLogical | UntypedWriteLogical => n.min(16),
        TexLogical if info.verx10 < 50 => 16,
        TexLogical => n.min(16),
        Mulh | IntQuotient | IntRemainder => fpu_width(p, inst, opts).min(8),
        Rcp | Rsq | Sqrt | Exp2 | Log2 | Sin | Cos | Pow => {
            let limit = if hf || info.verx10 < 70 { 8 } else { 16 };
            fpu_width(p, inst, opts).min(limit)
        }
        _ => fpu_width(p, inst, opts),
    }
}

/// Components per channel of each source and of the destination.
fn components(inst: &Inst) -> (Vec<u32>, u32) {
    let comps = inst.message_components();
    let mut srcs = vec![1; inst.srcs.len()];
    match inst.op {
        Opcode::FbWriteLogical => srcs[0] = comps,
        Opcode::UntypedWriteLogical => srcs[1] = comps,
        _ => {}
    }
    let dst = match inst.op {
        Opcode::UntypedReadLogical => comps,
        Opcode::TexLogical => 4,
        Opcode::LoadPayload => (inst.srcs.len() - inst.header_size as usize) as u32,
        _ => 1,
    };
    (srcs, dst)
}

/// Whether source `s` reads flag bits the instruction's conditional modifier writes.
fn aliases_flag(inst: &Inst, s: &Reg) -> bool {
    if !inst.writes_flag() {
        return false;
    }
    let RegKind::Arf {
        file: Arf::Flag,
        nr,
        subnr,
        ..
    } = s.kind
    else {
        return false;
    };
    let (first, count) = inst.flag_bits();
    let read_start = nr as u32 * 32 + subnr as u32 * 8;
    let read_end = read_start + inst.exec_size as u32 * s.ty.size() * 8;
    read_start < first + count && first < read_end
}

/// Whether two operands of `n` channels touch a common byte: of one VGRF, or of the GRF file
/// (fixed GRFs: an in-place `add(16) g15:F, g15:W, …` whose first half overwrites what the
/// second half reads).
fn overlaps(a: &Reg, b: &Reg, n: u32) -> bool {
    let same_space = match (a.kind, b.kind) {
        (RegKind::Vgrf { nr: x, .. }, RegKind::Vgrf { nr: y, .. }) => x == y,
        (RegKind::Fixed { .. }, RegKind::Fixed { .. }) => true,
        _ => false,
    };
    if !same_space {
        return false;
    }
    match (a.footprint(n), b.footprint(n)) {
        (Some((s1, e1)), Some((s2, e2))) => s1 < e2 && s2 < e1,
        _ => false,
    }
}

/// A fixed-GRF (or architecture-register) source read by a piece of `w` channels. Its region was written for the
/// whole instruction; a piece narrower than one row of it would be encoded with
/// ExecSize < Width, which the hardware forbids (docs/hardware/eu-hardware.md §1.6). Pieces start at
/// multiples of `w` (a power of two, smaller than the row), so each lies inside one row:
/// it reads that row's part as a one-row region of its own width, or the one element
/// `<0;1,0>` for a single channel or a row of one repeated element.
fn piece_region(mut s: Reg, w: u32, opts: &CompileOptions) -> Reg {
    let (RegKind::Fixed { region, .. } | RegKind::Arf { region, .. }) = &mut s.kind else {
        return s;
    };
    // One channel reads one element, whatever the row was: `<0;1,0>` (ExecSize = Width = 1
    // needs both strides 0, docs/hardware/eu-hardware.md §1.6). A piece of several whole
    // rows keeps the region.
    let rows = w > region.width as u32 && w > 1;
    if region.is_scalar() || rows || crate::zoo!(opts, SimdSplitFixedSrcRegion) {
        return s;
    }
    // A piece of one row or part of one is encoded with ExecSize = Width, so VertStride
    // must be Width × HorzStride (§1.6): `g18<0;8,1>` read by a SIMD8 piece is
    // `g18<8;8,1>`. A row that repeats one element (HorzStride 0, `<4;4,0>`) gives every
    // channel of the piece that element: `<0;w,0>` would break "VertStride = HorzStride =
    // 0 → Width 1".
    let row = if w == 1 || region.hstride == 0 {
        Region::SCALAR
    } else {
        Region::new(region.hstride.saturating_mul(w as u8), w as u8, region.hstride)
    };
    if row != *region {
        crate::pass::note("split-fixed-source-row");
        *region = row;
    }
    s
}

fn mov(w: u32, group: u8, nomask: bool, dst: Reg, src: Reg) -> Inst {
    let mut m = Inst::new(Opcode::Mov, w as u8, dst, vec![src]);
    m.group = group;
    m.nomask = nomask;
    m
}

/// A copy between a piece's temporary and the destination. On the destination-aligned
/// parts a 64-bit MOV needs its source and destination at the same offset in their
/// registers (docs/hardware/eu-hardware.md §5.1), which a temporary at offset 0 and a
/// destination at `g25.1` are not: such a copy moves the two dword halves instead.
fn zip_mov(p: &Program, w: u32, group: u8, nomask: bool, dst: Reg, src: Reg) -> Vec<Inst> {
    let m = mov(w, group, nomask, dst, src);
    let misaligned = super::reg_offset(&dst) != super::reg_offset(&src);
    if dst.ty.size() == 8 && misaligned && super::lower_regioning::low_power_64bit(p, &m) {
        crate::pass::note("zip-dword-halves");
        super::lower_regioning::raw_copy(&m, dst, src, dst.ty)
    } else {
        vec![m]
    }
}

fn split(p: &mut Program, inst: Inst, w: u32, opts: &CompileOptions) -> Vec<Inst> {
    let n = inst.exec_size as u32;
    let promote = w > n;
    note_split(&inst, promote);
    let pieces = if promote { 1 } else { n / w };
    let copy_w = w.min(n);
    let nomask = inst.nomask || (promote && !crate::zoo!(opts, SimdSplitWideNotNomask));
    let group_of = |k: u32| -> u8 {
        if promote && nomask {
            0
        } else {
            inst.group + (k * w) as u8
        }
    };
    let offset_of = |k: u32| -> u32 {
        if crate::zoo!(opts, SimdSplitGroupAbsolute) {
            inst.group as u32 + k * w
        } else {
            k * w
        }
    };
    let (src_comps, dst_comps) = components(&inst);
    let copied: Vec<bool> = inst
        .srcs
        .iter()
        .zip(&src_comps)
        .map(|(s, &c)| {
            let uniform = s.is_uniform() || s.is_null() || s.is_imm();
            let alias = aliases_flag(&inst, s);
            if alias {
                crate::pass::note("split-flag-alias");
            }
            let copy_alias = alias && !crate::zoo!(opts, SimdSplitFlagAlias);
            !uniform && (c > 1 || promote || copy_alias)
        })
        .collect();
    let dst_overlap = inst
        .srcs
        .iter()
        .zip(&copied)
        .any(|(s, &c)| !c && *s != inst.dst && overlaps(&inst.dst, s, n));
    let dst_copy = !inst.dst.is_null() && (dst_comps > 1 || promote || dst_overlap);
    let mut before = vec![];
    let mut body = vec![];
    let mut after = vec![];
    let last = pieces - 1;
    for k in 0..pieces {
        let g = group_of(k);
        let mut piece = inst.clone();
        piece.exec_size = w as u8;
        piece.group = g;
        piece.nomask = nomask;
        piece.eot = inst.eot
            && if crate::zoo!(opts, SimdSplitEotFirst) {
                k == 0
            } else {
                k == last
            };
        for (i, s) in inst.srcs.iter().enumerate() {
            if copied[i] {
                let t = super::temp(p, s.ty, src_comps[i] * w * s.ty.size());
                for c in 0..src_comps[i] {
                    let from = s.component(n, c).horiz_offset(k * w);
                    let from = Reg {
                        negate: false,
                        abs: false,
                        ..piece_region(from, copy_w, opts)
                    };
                    before.push(mov(
                        copy_w,
                        inst.group + (k * copy_w) as u8,
                        inst.nomask,
                        t.component(w, c),
                        from,
                    ));
                }
                piece.srcs[i] = Reg {
                    negate: s.negate,
                    abs: s.abs,
                    ..t
                };
            } else if !(s.is_uniform() || s.is_null()) {
                piece.srcs[i] = piece_region(s.horiz_offset(offset_of(k)), w, opts);
            }
        }
        if matches!(inst.op, Opcode::ScratchRead | Opcode::ScratchWrite) {
            // Channel c lives at scratch offset + c × element size: a piece's channels
            // start `k × w` elements further on.
            let (at, data) = match inst.op {
                Opcode::ScratchRead => (0, inst.dst),
                _ => (1, inst.srcs[0]),
            };
            if let Some(bits) = inst.imm_src(at) {
                let moved = bits + (k * w * data.ty.size()) as u64;
                piece.srcs[at] = Reg::imm(moved, inst.srcs[at].ty);
            }
        }
        if dst_copy {
            let d = inst.dst;
            // One component keeps the destination's stride: a narrower destination type
            // than the execution type needs it (dst stride × size = exec type size).
            let stride = if dst_comps == 1 {
                super::elem_stride(&d).unwrap_or(1).max(1)
            } else {
                1
            };
            let t = super::temp(p, d.ty, dst_comps * w * stride * d.ty.size())
                .with_stride(stride as u8);
            crate::pass::note(if inst.predicate.is_some() {
                "zip-predicated-destination"
            } else {
                "zip-destination"
            });
            let pre_copy = inst.predicate.is_some()
                && inst.op != Opcode::Sel
                && !crate::zoo!(opts, SimdZipIgnoresPredicate);
            for c in 0..dst_comps {
                let (to, back) = (t.component(w, c), d.component(n, c).horiz_offset(k * w));
                let zip_group = inst.group + (k * copy_w) as u8;
                if pre_copy {
                    before.extend(zip_mov(p, copy_w, zip_group, inst.nomask, to, back));
                }
                after.extend(zip_mov(p, copy_w, zip_group, inst.nomask, back, to));
            }
            piece.dst = t;
        } else if !inst.dst.is_null() {
            piece.dst = inst.dst.horiz_offset(offset_of(k));
        }
        body.push(piece);
    }
    // The copies read fixed sources and destinations piece by piece: with a region of the
    // piece's width (a destination's `<8;8,1>` is no source region for 4 channels).
    for m in before.iter_mut().chain(after.iter_mut()) {
        let w = m.exec_size as u32;
        for s in &mut m.srcs {
            *s = super::legal_fixed_source(*s, w);
        }
    }
    before.extend(body);
    before.extend(after);
    before
}

/// MACH and MAC read the accumulator implicitly, and quarter control, not the channel
/// group, picks which accumulator lanes (docs/hardware/eu-hardware.md §1.7): a piece in group 4 or 6
/// reads other channels' partial products (Mesa asserts such instructions are never split,
/// docs/hardware/brw-backend.md §4.2). When only the destination makes the
/// instruction narrower (a register offset or a stride splitting it unevenly), the
/// instruction writes a packed temporary at full width and a MOV — which may be split —
/// puts the result in place. A predicated instruction's temporary starts as a copy of the
/// destination, so disabled channels keep their values.
fn accumulator_reader_unsplit(
    p: &mut Program,
    inst: &Inst,
    opts: &CompileOptions,
) -> Option<Vec<Inst>> {
    if !matches!(inst.op, Opcode::Mach | Opcode::Mac) || inst.dst.is_null() {
        return None;
    }
    let n = inst.exec_size as u32;
    let d = inst.dst;
    // Whether a packed destination would keep it whole, asked of the next VGRF number
    // before allocating it (the width depends on the operand's layout, not its size).
    let mut whole = inst.clone();
    whole.dst = Reg::vgrf(p.vgrf_sizes.len() as u32, d.ty);
    if width(p, &whole, opts) != n {
        return None;
    }
    let t = super::temp(p, d.ty, n * d.ty.size());
    whole.dst = t;
    crate::pass::note("accumulator-reader-temporary");
    let mut out = vec![];
    if inst.predicate.is_some() {
        // The destination read back as a source: a fixed destination's region (`g35.7`,
        // eight dwords across two registers) is no legal source region.
        let old = if crate::zoo!(opts, SimdAccReaderOldValueRegion) {
            d
        } else {
            super::legal_fixed_source(d, n)
        };
        out.push(mov(n, inst.group, inst.nomask, t, old));
    }
    out.push(whole);
    out.push(mov(n, inst.group, inst.nomask, d, t));
    Some(out)
}

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &[
    "split-flag-alias",
    "split-fixed-source-row",
    "zip-dword-halves",
    "zip-predicated-destination",
    "split-later-group",
    "promote",
    "split-eot",
    "accumulator-reader-temporary",
    "split-nomask",
    "zip-destination",
    "split-message",
    "split",
];

/// Notes what kind of instruction is split: the situations the splitting rules differ on.
fn note_split(inst: &Inst, promote: bool) {
    use crate::pass::note;
    note(if promote { "promote" } else { "split" });
    if inst.eot {
        note("split-eot");
    }
    if inst.group != 0 {
        note("split-later-group");
    }
    if inst.nomask {
        note("split-nomask");
    }
    if inst.op.is_message() {
        note("split-message");
    }
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "lower_simd_width",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    let mut out = vec![];
    for inst in p.take_insts() {
        // Pieces and the copies around them are lowered again: a copy into a destination
        // misaligned across registers may itself need narrower pieces. Widths only shrink
        // (a promoted piece is at its lowered width), so this ends.
        let mut work = vec![inst];
        while let Some(inst) = work.pop() {
            #[cfg(feature = "zoo")]
            if crate::zoo!(opts, RorSplitGrowth)
                && inst.op == Opcode::Ror
                && matches!(inst.dst.ty, Type::W | Type::UW)
            {
                // The zoo's `ror-split-growth`, a fault rather than wrong code: a word
                // rotate split into two pieces as wide as itself, each lowered again, with
                // room for twice the work list reserved at each split, so the work list
                // grows until memory runs out.
                work.reserve(work.capacity().max(1));
                work.push(inst.clone());
                work.push(inst);
                continue;
            }
            let w = width(p, &inst, opts);
            if w < inst.exec_size as u32
                && let Some(whole) = accumulator_reader_unsplit(p, &inst, opts)
            {
                work.extend(whole.into_iter().rev());
                progress = true;
            } else if w != inst.exec_size as u32 && w > 0 {
                let mut pieces = split(p, inst, w, opts);
                pieces.reverse();
                work.extend(pieces);
                progress = true;
            } else {
                out.push(inst);
            }
        }
    }
    p.set_insts(out);
    Ok(progress)
}
