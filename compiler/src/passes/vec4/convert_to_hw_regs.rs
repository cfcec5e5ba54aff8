//! `convert_to_hw_regs` for the vec4 pipeline (docs/hardware/fp64-align16.md §1.4, §3.2, §4, §9): places
//! every VGRF in GRFs (`register_allocation`), reads ATTR and UNIFORM operands from the
//! thread payload (`crate::payload`), and encodes each Align16 operand as hardware does —
//! the role of Mesa's register allocator, `convert_to_hw_regs` with `apply_logical_swizzle`,
//! and the generator's NibCtrl, which is why the DF encoding bugs of the zoo surface here.
//!
//! * A 32-bit Align16 source keeps its swizzle; VertStride 4 steps from vertex 0's vec4 to
//!   vertex 1's, VertStride 0 (uniforms: one vec4 for both vertices) replicates.
//! * A 64-bit Align16 source gets the hardware swizzle, sub-register and VertStride of
//!   `df_region::apply_logical_swizzle` (§1.4 table, the Gen7 VertStride-0 Z/W access).
//! * Align16 destinations keep their writemask (DF masks are per DF component, §2).
//! * Align1 operands (the DF conversions, split temporaries) get an ordinary `<V;W,H>`
//!   region; the DF side of PICK/SET_LOW/HIGH_32BIT becomes the UD dwords it moves.
//! * An exec-4 piece keeps its group: the generator's NibCtrl (§4), without which both
//!   vertices' pieces would run with vertex 0's channel enables.

use super::df_region::{HwSwizzle, apply_logical_swizzle, is_supported_64bit_region};
use super::register_allocation::assign;
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::passes::fixed_operand;
use crate::payload::PayloadLayout;
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, RegKind, Region, Swizzle};
use crate::types::Type;

/// Rewrite kinds this pass notes, most specific first: the DF encodings by kind of
/// operand, a source dying under a compressed instruction (where the allocator's hazard
/// rule matters), NibCtrl pieces (every two-vertex DF instruction split per vertex has
/// one), then the plain encodings.
const REWRITES: &[&str] = &[
    "df-writemask-xy-zw",
    "df-uniform-whole",
    "df-uniform-zw",
    "df-zw-pair",
    "df-zw-single",
    "df-uniform-mid-row",
    "compressed-src-dies",
    "nibctrl",
    "df-native-nonidentity",
    "df-vstride0",
    "df-native-identity",
    "allocate",
];

/// The rewrite kind of a DF source with logical swizzle `logical` encoded as `hw`.
fn df_kind(logical: Swizzle, uniform: bool, hw: &HwSwizzle) -> &'static str {
    let comps = logical.comps();
    let single = comps.iter().all(|&k| k == comps[0]);
    let reads_zw = comps.iter().any(|&k| k >= 2);
    match () {
        // Only a uniform taken as supported although it reads z/w (§1.5) is whole here.
        _ if uniform && reads_zw && !single => "df-uniform-whole",
        _ if uniform && hw.second_half => "df-uniform-zw",
        _ if !uniform && comps[0] >= 2 && !single => "df-zw-pair",
        _ if !uniform && comps[0] >= 2 => "df-zw-single",
        _ if hw.vstride0 || uniform => "df-vstride0",
        _ if logical.is_identity() => "df-native-identity",
        _ => "df-native-nonidentity",
    }
}

/// Where a virtual operand's first byte lies in the GRF file, and whether every vertex
/// reads it alike (a uniform, VertStride 0).
fn place(reg: &Reg, starts: &[Option<u32>], layout: &PayloadLayout) -> Option<(u32, bool)> {
    match reg.kind {
        RegKind::Vgrf { nr, offset, .. } => Some((
            starts.get(nr as usize).copied().flatten()? * REG_SIZE + offset,
            false,
        )),
        RegKind::Attr { nr, offset, .. } => {
            Some((*layout.attr_bases.get(nr as usize)? as u32 + offset, false))
        }
        RegKind::Uniform { nr, offset } => {
            Some((layout.uniform_base as u32 + nr * 4 + offset, true))
        }
        _ => None,
    }
}

/// An Align1 operand at `byte`.
fn align1(reg: &Reg, byte: u32, uniform: bool, exec: u32, is_dst: bool) -> Reg {
    let stride = match reg.kind {
        RegKind::Vgrf { stride, .. } | RegKind::Attr { stride, .. } if !uniform => stride as u32,
        _ => 0,
    };
    Reg {
        kind: fixed_operand(byte, stride, reg.ty, exec, is_dst).kind,
        ..*reg
    }
}

/// The DF side of PICK/SET_LOW/HIGH_32BIT as the generator encodes it (docs/hardware/fp64-align16.md
/// §5.3): the chosen dword of each DF element, a UD region of stride 2 starting at dword
/// 0 (LOW) or 1 (HIGH).
fn dword_half(inst: &Inst, reg: &Reg, byte: u32, is_dst: bool) -> Reg {
    let high = matches!(inst.op, Opcode::PickHigh32 | Opcode::SetHigh32);
    let byte = byte + if high { 4 } else { 0 };
    let exec = inst.exec_size as u32;
    Reg {
        kind: fixed_operand(byte, 2, Type::UD, exec, is_dst).kind,
        ty: Type::UD,
        ..*reg
    }
}

/// An Align16 fixed GRF at `byte` with VertStride `v`, keeping the operand's modifiers.
fn align16(reg: &Reg, byte: u32, v: u8) -> Reg {
    Reg {
        kind: RegKind::Fixed {
            nr: (byte / REG_SIZE) as u16,
            subnr: (byte % REG_SIZE) as u8,
            region: Region::align16(v),
        },
        ..*reg
    }
}

/// A 32-bit Align16 source at `byte`. The sub-register counts 16-byte units, so a source
/// starting inside a vec4 (a uniform `u1`, dword 1 of slot 0) moves its dword offset into
/// the swizzle when every component it reads lies in one vec4; otherwise it stays as it
/// is and the strict rule `align16-subreg-unit` reports it.
fn align16_32bit(reg: &Reg, byte: u32, v: u8) -> Reg {
    let size = reg.ty.size().max(1);
    let skew = byte % 16 / size;
    let dwords = reg.swizzle.comps().map(|c| c as u32 + skew);
    let vec4 = dwords[0] / 4;
    if skew == 0 || size != 4 || dwords.iter().any(|d| d / 4 != vec4) {
        return align16(reg, byte, v);
    }
    let base = byte - byte % 16 + 16 * vec4;
    align16(reg, base, v).swizzled(Swizzle::new(dwords.map(|d| (d % 4) as u8)))
}

/// Encodes source `arg` of the Align16 instruction `inst` at `byte`.
fn align16_src(
    inst: &Inst,
    arg: usize,
    byte: u32,
    uniform: bool,
    p: &Program,
    opts: &CompileOptions,
) -> Reg {
    let reg = &inst.srcs[arg];
    let v = if uniform { 0 } else { 4 };
    if reg.ty.size() < 8 {
        return align16_32bit(reg, byte, v);
    }
    let comps = reg.swizzle.comps();
    if uniform && byte % 16 == 8 && comps.iter().all(|&k| k == comps[0]) {
        // A uniform starting mid-row (`df_region::starts_mid_row`), read one component at
        // a time: component k is DF k + 1 of the aligned rows, in row (k + 1) / 2.
        note("df-uniform-mid-row");
        let j = comps[0] as u32 + 1;
        let row = byte - 8 + 16 * (j / 2);
        let e = (j % 2) as u8;
        let pair = Swizzle::new([2 * e, 2 * e + 1, 2 * e, 2 * e + 1]);
        return align16(reg, row, 0).swizzled(pair);
    }
    let info = p.device.info();
    let supported = is_supported_64bit_region(inst, arg, info, opts);
    let at_byte16 = byte % REG_SIZE == 16;
    let hw = apply_logical_swizzle(reg.swizzle, supported, at_byte16, info, opts);
    let byte = byte + if hw.second_half { 16 } else { 0 };
    note(df_kind(reg.swizzle, uniform, &hw));
    align16(reg, byte, if hw.vstride0 { 0 } else { v }).swizzled(hw.swizzle)
}

/// Rewrites every operand of `inst` to hardware form.
fn convert(
    inst: &mut Inst,
    starts: &[Option<u32>],
    layout: &PayloadLayout,
    p: &Program,
    opts: &CompileOptions,
) {
    let exec = inst.exec_size as u32;
    let original = inst.clone();
    for arg in 0..inst.srcs.len() {
        let Some((byte, uniform)) = place(&inst.srcs[arg], starts, layout) else {
            continue;
        };
        let df_side = inst.op.is_dword_half_move() && inst.srcs[arg].ty.size() == 8;
        inst.srcs[arg] = if inst.is_align16() {
            align16_src(&original, arg, byte, uniform, p, opts)
        } else if df_side {
            dword_half(&original, &inst.srcs[arg], byte, false)
        } else {
            align1(&inst.srcs[arg], byte, uniform, exec, false)
        };
    }
    let mask = inst.dst.writemask.0 & 0xf;
    if inst.is_align16() && inst.dst.ty.size() == 8 && (mask == 0b0011 || mask == 0b1100) {
        note("df-writemask-xy-zw");
    }
    if let Some((byte, _)) = place(&inst.dst, starts, layout) {
        let df_side = inst.op.is_dword_half_set() && inst.dst.ty.size() == 8;
        inst.dst = if inst.is_align16() {
            align16(&inst.dst, byte, 4)
        } else if df_side {
            dword_half(&original, &inst.dst, byte, true)
        } else {
            align1(&inst.dst, byte, false, exec, true)
        };
    }
    let df = std::iter::once(&inst.dst)
        .chain(&inst.srcs)
        .any(|r| r.ty.size() == 8);
    if inst.exec_size == 4 && inst.group != 0 && df {
        note("nibctrl");
        if crate::zoo!(opts, DfSplitNoNibctrl) {
            inst.group = 0;
        }
    }
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "convert_to_hw_regs",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; progress when any operand was converted.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let layout = PayloadLayout::new(p);
    let starts = assign(p, layout.regs as u32, opts)?;
    if starts.iter().any(Option::is_some) {
        note("allocate");
    }
    let before = p.clone();
    for block in &mut p.blocks {
        for inst in &mut block.insts {
            convert(inst, &starts, &layout, &before, opts);
        }
    }
    Ok(*p != before)
}
