//! Executing instructions on one thread.
//!
//! Channel enables (docs/hardware/brw-backend.md §1.7, §9.2): channel `c` of an instruction is the thread's
//! channel `group + c`. It is enabled if the instruction is NoMask or the channel is active
//! (dispatched and not disabled by control flow); a predicate then selects among enabled
//! channels. A masked instruction reaching channels at or beyond the dispatch width writes
//! garbage there (the mask bits are unknown), so those bytes become undefined.
//!
//! Undefined propagation: a channel's result is undefined if any byte it read was (sources,
//! the accumulator for MACH/ADDC chains, its predicate bit); a conditional modifier's flag
//! bit is undefined when the result is; an instruction breaking a hardware restriction
//! (strict mode) writes undefined results.

use super::alu::{Ctl, In, Out, eval};
use super::decode::{DInst, Decoded};
use super::indirect;
use super::operand::{Loc, Operand};
use super::result::{DiagKind, Diagnostic};
use super::state::{ACC_FULL_BITS, ACC_LANES, AccLane, FLOAT_NAN, Frame, Thread, is_defined};
use super::value::{
    Num, apply_modifiers, cmod_holds, decode, encode, mask_of, saturates_negative_zero,
    vector_imm_element,
};
use compiler::inst::{CondMod, PredKind};
use compiler::types::Type;
use compiler::{Device, Opcode};

/// Run-wide facts an instruction needs.
pub struct Ctx<'a> {
    pub device: Device,
    pub dispatch_width: u32,
    /// DxD integer multiplies with the hardware's precision (see `RunConfig::hardware_mul`).
    pub hardware_mul: bool,
    pub fast_path: bool,
    pub decoded: &'a Decoded<'a>,
}

/// Channels an instruction acts on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Enables {
    /// Channels that execute (relative to the instruction: bit c = channel group + c).
    pub exec: u32,
    /// Channels among `exec` whose result is unknown (beyond dispatch, undefined predicate).
    pub unknown: u32,
}

fn bit(mask: u32, c: u32) -> bool {
    c < 32 && mask >> c & 1 != 0
}

/// Value and defined-ness of flag bit `b` of the flag file.
fn flag_bit(t: &Thread, b: u32) -> (bool, bool) {
    if b >= 64 {
        return (false, false);
    }
    (t.flags >> b & 1 != 0, t.flags_def >> b & 1 != 0)
}

/// The predicate of channel `c` (relative): value and defined-ness.
pub fn predicate(t: &Thread, d: &DInst, c: u32) -> (bool, bool) {
    let inst = &d.inst;
    let Some(pred) = inst.predicate else {
        return (true, true);
    };
    let base = 16 * inst.flag_subreg as u32;
    let b = base + inst.group as u32 + c;
    let (v, def) = match pred.kind {
        PredKind::Normal => flag_bit(t, b),
        PredKind::AnyV | PredKind::AllV => {
            // Across flag registers: the same channel bit of f0 and f1.
            let ch = (inst.group as u32 + c) % 32;
            let (a, da) = flag_bit(t, ch);
            let (b2, db) = flag_bit(t, 32 + ch);
            if pred.kind == PredKind::AnyV {
                (a || b2, da && db)
            } else {
                (a && b2, da && db)
            }
        }
        // The n-aligned group of flag bits holding the channel (docs/hardware/eu-hardware.md §2.3).
        k => {
            let n = k.horizontal_group().unwrap_or(1);
            let start = base + ((inst.group as u32 + c) / n) * n;
            let any = matches!(
                k,
                PredKind::Any2H
                    | PredKind::Any4H
                    | PredKind::Any8H
                    | PredKind::Any16H
                    | PredKind::Any32H
            );
            let mut acc = !any;
            let mut def = true;
            for i in start..start + n {
                let (v, dv) = flag_bit(t, i);
                def &= dv;
                acc = if any { acc || v } else { acc && v };
            }
            (acc, def)
        }
    };
    (v != pred.inverse, def)
}

/// Which channels execute, before the predicate.
pub fn mask_enables(t: &Thread, d: &DInst, dispatch_width: u32) -> Enables {
    let inst = &d.inst;
    let n = inst.exec_size as u32;
    let all = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    if inst.nomask {
        return Enables {
            exec: all,
            unknown: 0,
        };
    }
    let g = inst.group as u32;
    // Channels at or beyond the dispatch width have unknown enables.
    let known = dispatch_width.saturating_sub(g).min(32);
    let known_mask = if known >= 32 {
        u32::MAX
    } else {
        (1u32 << known) - 1
    };
    let mut active = t.active.checked_shr(g).unwrap_or(0);
    if d.low_mask_halves {
        // Pre-Gen8 SIMD32: both halves take the low 16 mask bits (see `DInst`).
        active = (active & 0xffff) | (active & 0xffff) << 16;
    }
    let unknown = all & !known_mask;
    Enables {
        exec: (active & all & known_mask) | unknown,
        unknown,
    }
}

/// Enables after applying the predicate (not for SEL, whose predicate selects sources).
pub fn enables(t: &Thread, d: &DInst, dispatch_width: u32) -> Enables {
    let mut e = mask_enables(t, d, dispatch_width);
    if d.inst.predicate.is_some() && d.inst.op != Opcode::Sel {
        for c in 0..d.inst.exec_size as u32 {
            if bit(e.exec, c) {
                let (v, def) = predicate(t, d, c);
                if !def {
                    e.unknown |= 1 << c;
                } else if !v {
                    e.exec &= !(1 << c);
                    e.unknown &= !(1 << c);
                }
            }
        }
    }
    e
}

/// Accumulator lane used implicitly by channel `c` (MACH, ADDC/SUBB, AccWrEnable), and
/// whether it exists for this data: on Gen7+ integer accumulator access only has acc0, and
/// IVB/BYT route a second-quarter instruction's implicit access to acc1 (which integers lack).
pub fn implicit_lane(ctx: &Ctx, group: u32, c: u32, integer: bool) -> (usize, bool) {
    let verx10 = ctx.device.info().verx10;
    let lane = if verx10 == 70 && group >= 8 { c + 8 } else { c };
    let exists = !(integer && verx10 >= 70 && lane >= 8) && (lane as usize) < ACC_LANES;
    (lane as usize, exists)
}

/// Channel `c` of an operand as raw bits with a defined flag per byte: what a raw copy
/// (same-type MOV, LOAD_PAYLOAD) carries over, so partly written elements stay partly defined.
pub fn read_raw_bytes(t: &Thread, op: &Operand, c: u32) -> (u64, [u8; 8]) {
    let size = op.ty.size() as usize;
    let (bits, all) = read_raw(t, op, c);
    let mut def = [0u8; 8];
    match &op.loc {
        Loc::Space(offs) => {
            let at = offs[c as usize] as usize;
            def[..size].copy_from_slice(&t.space.def[at..at + size]);
        }
        Loc::Address(offs) => {
            let at = offs[c as usize] as usize;
            def[..size].copy_from_slice(&t.address.def[at..at + size]);
        }
        Loc::Indirect(ind) => {
            if let Ok(at) = indirect::channel_address(t, ind, op.ty, c) {
                let at = at as usize;
                def[..size].copy_from_slice(&t.space.def[at..at + size]);
            }
        }
        Loc::ChannelEnable { offset } => {
            for (k, d) in def[..size].iter_mut().enumerate() {
                *d = channel_enable_known(t, offset + 8 * k as u32, 8) as u8;
            }
        }
        // A byte of the flag file is defined when its eight bits are (a saved flag keeps
        // the bytes its writers defined).
        Loc::Flag(offs) => {
            let shift = offs[c as usize] * 8;
            for (k, d) in def[..size].iter_mut().enumerate() {
                let byte = t.flags_def.checked_shr(shift + 8 * k as u32).unwrap_or(0) & 0xff;
                *d = (byte == 0xff) as u8;
            }
        }
        _ => def[..size].fill(all as u8),
    }
    (bits, def)
}

/// `ce0` as an instruction with channel offset `offset` reads it: the control-flow enables
/// shifted down by the offset (docs/hardware/eu-hardware.md §1.7: quarter control "magically shifts" the
/// value read from `ce0`). The register does not consider the dispatch mask (§2.1), so the
/// bits of channels that were not dispatched (or lie beyond the dispatch width) hold
/// control-flow state the documents do not describe: they are undefined. For a dispatched
/// channel the control-flow enable is exactly its bit of the active mask.
fn channel_enable(t: &Thread, offset: u32) -> u64 {
    t.active.checked_shr(offset).unwrap_or(0) as u64
}

/// Whether the `count` channel bits of `ce0` from channel `first` on are all known.
fn channel_enable_known(t: &Thread, first: u32, count: u32) -> bool {
    (first..first + count).all(|ch| bit(t.dispatched, ch))
}

/// Reads channel `c` of a source operand: raw bits (of the element's type) and defined-ness.
pub fn read_raw(t: &Thread, op: &Operand, c: u32) -> (u64, bool) {
    let size = op.ty.size() as usize;
    match &op.loc {
        Loc::Space(offs) => t.space.read(offs[c as usize] as usize, size),
        Loc::Address(offs) => t.address.read(offs[c as usize] as usize, size),
        // An address that is undefined or outside the GRF file reads an undefined value
        // (reported by `indirect_diagnostics`).
        Loc::Indirect(ind) => match indirect::channel_address(t, ind, op.ty, c) {
            Ok(at) => t.space.read(at as usize, size),
            Err(_) => (0, false),
        },
        Loc::Imm(bits) => (vector_imm_element(*bits, op.ty, c), true),
        Loc::Acc(lanes) => match t.acc.get(lanes[c as usize] as usize) {
            Some(lane) => {
                let need = (op.ty.size() * 8) as u8;
                (
                    (lane.value as u64) & mask_of(op.ty),
                    lane.defined_bits >= need,
                )
            }
            None => (0, false),
        },
        Loc::Flag(offs) => {
            let shift = offs[c as usize] * 8;
            let bits = t.flags.checked_shr(shift).unwrap_or(0) & mask_of(op.ty);
            let def = t.flags_def.checked_shr(shift).unwrap_or(0) & mask_of(op.ty);
            (bits, def == mask_of(op.ty))
        }
        Loc::ChannelEnable { offset } => (
            channel_enable(t, *offset) & mask_of(op.ty),
            channel_enable_known(t, *offset, op.ty.size() * 8),
        ),
        Loc::Null | Loc::Unmodelled => (0, false),
    }
}

/// Whether a source negate means bitwise NOT: on logic ops (AND/OR/XOR/NOT) from Gen8 on;
/// before Gen8 it is the arithmetic negation every integer source gets (docs/hardware/eu-hardware.md
/// §3.6; Mesa folds negates into logic ops only on Gen8+ for this reason).
pub fn negate_is_not(op: compiler::Opcode, ver: u32) -> bool {
    op.is_logic() && ver >= 8
}

/// Reads and decodes channel `c` of source `i`, applying modifiers.
fn read_src(t: &Thread, d: &DInst, i: usize, c: u32, ver: u32) -> (In, bool) {
    let op = &d.srcs[i];
    let (bits, def) = read_raw(t, op, c);
    // Vector immediates arrive expanded to their execution type; everything else is
    // decoded as its own type (a B source sign-extends from 8 bits).
    let ty = op.ty.exec_type();
    let num = decode(bits, if op.ty.is_vector_imm() { ty } else { op.ty });
    let logic = negate_is_not(d.inst.op, ver);
    let num = apply_modifiers(num, op.ty, op.abs, op.negate, logic);
    (In { num, ty }, def)
}

/// Whether `bits` is a NaN of float type `ty` (false for non-float types).
fn is_nan_of(bits: u64, ty: Type) -> bool {
    match ty {
        Type::F => f32::from_bits(bits as u32).is_nan(),
        Type::DF => f64::from_bits(bits).is_nan(),
        Type::HF => bits as u16 & 0x7c00 == 0x7c00 && bits as u16 & 0x03ff != 0,
        _ => false,
    }
}

/// Writes channel `c` of the destination.
pub fn write_dst(t: &mut Thread, op: &Operand, c: u32, bits: u64, def: bool) {
    let size = op.ty.size() as usize;
    match &op.loc {
        Loc::Space(offs) => t.space.write(offs[c as usize] as usize, size, bits, def),
        Loc::Address(offs) => t.address.write(offs[c as usize] as usize, size, bits, def),
        Loc::Indirect(ind) => match indirect::channel_address(t, ind, op.ty, c) {
            Ok(at) => t.space.write(at as usize, size, bits, def),
            // An undefined address could point anywhere in the GRF file: all of it becomes
            // undefined (the conservative model; docs/hardware/eu-hardware.md §1.4 does not say). An
            // address outside the file drops the write. Both are reported.
            Err(indirect::Miss::UndefinedAddress(_)) => t.space.undefine(0, ind.grf_bytes as usize),
            Err(_) => {}
        },
        Loc::Acc(lanes) => {
            if let Some(lane) = t.acc.get_mut(lanes[c as usize] as usize) {
                *lane = acc_from_write(bits, op.ty, def);
            }
        }
        Loc::Flag(offs) => {
            let shift = offs[c as usize] * 8;
            let m = mask_of(op.ty).checked_shl(shift).unwrap_or(0);
            t.flags = (t.flags & !m) | (bits.checked_shl(shift).unwrap_or(0) & m);
            t.flags_def = if def {
                t.flags_def | m
            } else {
                t.flags_def & !m
            };
        }
        _ => {}
    }
}

/// A plain (non-MUL) write to the accumulator: integers keep a sign-extended 33-bit value
/// and leave the upper bits undefined; floats keep their 32/64 bits.
fn acc_from_write(bits: u64, ty: Type, def: bool) -> AccLane {
    if ty.is_float() {
        return AccLane {
            value: bits as i128,
            defined_bits: if def { (ty.size() * 8) as u8 } else { 0 },
        };
    }
    let v = match decode(bits, ty) {
        Num::Int(i) => i,
        Num::Float(_) => 0,
    };
    let defined_bits = match (def, ty.size()) {
        (false, _) => 0,
        (true, 8) => 64,
        (true, _) => 33,
    };
    AccLane {
        value: v,
        defined_bits,
    }
}

fn set_flag(t: &mut Thread, b: u32, v: bool, def: bool) {
    if b < 64 {
        let m = 1u64 << b;
        t.flags = if v { t.flags | m } else { t.flags & !m };
        t.flags_def = if def {
            t.flags_def | m
        } else {
            t.flags_def & !m
        };
    }
}

/// Executes FIND_LIVE_CHANNEL or BROADCAST (compiler `Opcode` docs; docs/hardware/brw-backend.md §1.1,
/// §9.2): both write one scalar, channel 0 of the destination, whatever the mask (they are
/// NoMask). FIND_LIVE_CHANNEL reads the execution mask of its channels
/// `[group, group + exec_size)` — the active mask, which already excludes undispatched,
/// control-flow-disabled and halted channels — and writes the index of the lowest enabled
/// one relative to the group, or 0xFFFFFFFF when none is (FBL of an empty mask). Channels
/// at or beyond the dispatch width are never enabled. BROADCAST copies src0's element in
/// channel `index` (src1's channel 0) with its per-byte defined flags; an undefined or
/// out-of-range index leaves the destination undefined. An instruction breaking a hardware
/// restriction (strict mode) writes an undefined result.
pub fn exec_subgroup(t: &mut Thread, d: &DInst, ctx: &Ctx) {
    let inst = &d.inst;
    let n = inst.exec_size as u32;
    let violated = !d.violations.is_empty();
    let dst_ty = d.dst.ty;
    let size = dst_ty.size() as usize;
    let (bits, mut bytes_def) = match inst.op {
        Opcode::FindLiveChannel => {
            let g = inst.group as u32;
            let in_dispatch = ctx.dispatch_width.saturating_sub(g).min(n);
            let width = if in_dispatch >= 32 {
                u32::MAX
            } else {
                (1u32 << in_dispatch) - 1
            };
            let live = t.active.checked_shr(g).unwrap_or(0) & width;
            let index = if live == 0 {
                u32::MAX
            } else {
                live.trailing_zeros()
            };
            (index as u64, [1u8; 8])
        }
        _ => {
            let (index, index_def) = read_raw(t, &d.srcs[1], 0);
            if index_def && index < n as u64 {
                read_raw_bytes(t, &d.srcs[0], index as u32)
            } else {
                (0, [0u8; 8])
            }
        }
    };
    if violated {
        bytes_def = [0; 8];
    }
    match &d.dst.loc {
        Loc::Space(offs) => {
            let at = offs[0] as usize;
            t.space.write_bytes(
                at,
                &(bits & mask_of(dst_ty)).to_le_bytes()[..size],
                &bytes_def[..size],
            );
        }
        _ => {
            let def = bytes_def[..size].iter().all(|&b| b != 0);
            write_dst(t, &d.dst, 0, bits & mask_of(dst_ty), def);
        }
    }
}

/// Executes an ALU or math instruction. Returns the number of channels it ran for.
/// `effects` is a buffer reused across instructions (its contents do not matter).
pub fn exec_alu(t: &mut Thread, d: &DInst, ctx: &Ctx, effects: &mut Effects) -> u32 {
    let inst = &d.inst;
    let ver = ctx.device.info().verx10 / 10;
    let e = enables(t, d, ctx.dispatch_width);
    let unconfirmed = d.align16.is_some_and(|p| p.unconfirmed.is_some());
    let violated = !d.violations.is_empty() || unconfirmed;
    let second_half = d.align16.and_then(|p| p.second_half);
    let n = inst.exec_size as u32;
    let dst_ty = d.dst.ty;
    let mut srcs: [In; 3] = [In {
        num: Num::Int(0),
        ty: Type::UD,
    }; 3];
    let nsrc = d.srcs.len().min(3);
    let truncate_src1 = ctx.hardware_mul
        && inst.op == Opcode::Mul
        && !ctx.device.info().has_integer_dword_mul
        && nsrc == 2
        && d.srcs.iter().all(|s| s.ty.is_int() && s.ty.size() == 4);
    // A MOV between identical types without modifiers copies bits (no NaN canonicalisation).
    let raw_move = super::dword_half::is_move(inst.op)
        && nsrc == 1
        && d.srcs[0].ty == dst_ty
        && !d.srcs[0].negate
        && !d.srcs[0].abs
        && !inst.saturate;
    // A predicated integer SEL of its own type without modifiers copies the chosen
    // source's bits (docs/hardware/eu-hardware.md §2.3: a per-channel select), so like a raw move it
    // keeps which bytes of that source are defined.
    let raw_select = inst.op == Opcode::Sel
        && inst.predicate.is_some()
        && inst.cmod.is_none()
        && nsrc == 2
        && !inst.saturate
        && dst_ty.is_int()
        && d.srcs.iter().all(|s| s.ty == dst_ty && !s.negate && !s.abs);
    // A float operation's NaN result gets the NaN mark on its bytes (compare.rs): the
    // execution type is float (docs/hardware/eu-hardware.md §3.4: a float source makes it float; integer
    // sources cannot yield a NaN bit pattern through conversion), and not a bitwise op.
    let float_exec =
        dst_ty.is_float() && !inst.op.is_logic() && d.srcs.iter().any(|s| s.ty.is_float());
    // Every channel reads its sources before any channel's results land, as in hardware.
    let effects = &mut effects.0;
    effects.clear();
    let mut count = 0;
    for c in 0..n {
        if second_half == Some(c) {
            // A compressed Align16 instruction runs as two halves in order: the second
            // reads its sources after the first has written (docs/hardware/fp64-align16.md §3.1, §10.2).
            apply_effects(t, d, effects);
        }
        if !bit(e.exec, c) {
            continue;
        }
        count += 1;
        let mut def = !bit(e.unknown, c) && !violated;
        if raw_move || raw_select {
            let chosen = if raw_select {
                let (v, dv) = predicate(t, d, c);
                def &= dv;
                usize::from(!v)
            } else {
                0
            };
            let (raw, mut bytes_def) = read_raw_bytes(t, &d.srcs[chosen], c);
            let bits = raw & mask_of(dst_ty);
            if !def {
                bytes_def = [0; 8];
            }
            def &= bytes_def[..dst_ty.size() as usize].iter().all(|&b| b != 0);
            // Into registers or the flag file, the copy keeps which bytes are defined: a
            // pre-copy of a partly written 64-bit element must not lose its defined half,
            // nor a flag restored from a register the bytes its writers defined.
            effects.push(if matches!(d.dst.loc, Loc::Space(_) | Loc::Flag(_)) {
                Effect::RawDst { c, bits, bytes_def }
            } else {
                Effect::Dst {
                    c,
                    bits,
                    def,
                    float_nan: false,
                }
            });
            if inst.acc_wr {
                let (lane, exists) = implicit_lane(ctx, inst.group as u32, c, dst_ty.is_int());
                if exists {
                    effects.push(Effect::Acc {
                        lane,
                        value: acc_from_write(bits, dst_ty, def),
                    });
                }
            }
            effects.push(Effect::Flag {
                c,
                cond: inst.cmod.and_then(|m| flag_condition(m, bits, dst_ty)),
                def,
            });
            continue;
        }
        let mut src_def = [true; 3];
        for (i, slot) in srcs.iter_mut().enumerate().take(nsrc) {
            let (v, dv) = read_src(t, d, i, c, ver);
            *slot = v;
            src_def[i] = dv;
        }
        if truncate_src1 {
            // The 32×16 multiplier only sees the low 16 bits of src1 (src0 before Gen7),
            // docs/hardware/eu-hardware.md §4, docs/hardware/brw-backend.md §6. They are read as an unsigned word
            // whatever the declared type: Mesa's MULH is `mul acc0, a, b` + `mach dst, a, b`
            // with b retyped to UW only on Gen8+ (docs/hardware/brw-backend.md §6 case 3, "gen8+: emulate
            // the 32×16 partial product"), so on Gen7 a D src1 must give the same partial
            // product a × b.uw[0] for MACH (which adds a × the high word) to complete the
            // exact 64-bit product (§4: "MACH writes the high 32 bits ... the accumulator
            // keeps the low 32 bits").
            let k = ctx.device.info().mul_low16_src as usize;
            let low = match srcs[k].num {
                Num::Int(v) => v as u16,
                Num::Float(_) => 0,
            };
            srcs[k].num = Num::Int(low as i128);
        }
        // A predicated SEL is a per-channel select (docs/hardware/eu-hardware.md §2.3): its result is the
        // chosen source, defined when the predicate bit and that source are, whatever the
        // other source holds. Every other operation needs all its sources.
        let sel_pred = if inst.op == Opcode::Sel && inst.predicate.is_some() {
            let (v, dv) = predicate(t, d, c);
            def &= dv && src_def[if v { 0 } else { 1 }];
            Some(v)
        } else {
            def &= src_def[..nsrc].iter().all(|&x| x);
            None
        };
        let integer = srcs[..nsrc].iter().all(|s| s.ty.is_int());
        // Accumulator-coupled opcodes.
        let (lane, lane_exists) = implicit_lane(ctx, inst.group as u32, c, integer);
        let mut acc_write: Option<AccLane> = None;
        let ctl = Ctl {
            dst: dst_ty,
            cmod: inst.cmod,
            sel_pred,
            ver,
        };
        let out = match inst.op {
            Opcode::Mach => {
                let acc = if lane_exists {
                    t.acc[lane]
                } else {
                    AccLane {
                        value: 0,
                        defined_bits: 0,
                    }
                };
                let (a, b) = (srcs[0], srcs[1]);
                let a_v = match a.num {
                    Num::Int(v) => v,
                    Num::Float(_) => 0,
                };
                let b_v = match b.num {
                    Num::Int(v) => v,
                    Num::Float(_) => 0,
                };
                let b_hi = if b.ty.is_signed() {
                    (b_v as i32 as i128) >> 16
                } else {
                    (b_v as u32 as i128) >> 16
                };
                let full = acc.value + ((a_v * b_hi) << 16);
                // The low 32 bits of a sum depend only on the low 32 bits of its terms: after
                // a 33-bit accumulator write (a MOV, docs/hardware/brw-backend.md §1.6) the accumulator's
                // low dword comes out right and only the high dword (MACH's destination) is
                // garbage (issue item 7, the lower_regioning accumulator bug, §5.5).
                let acc_bits = match acc.defined_bits {
                    b if b >= ACC_FULL_BITS => ACC_FULL_BITS,
                    b if b >= 32 => 32,
                    _ => 0,
                };
                acc_write = Some(AccLane {
                    value: full,
                    defined_bits: if def { acc_bits } else { 0 },
                });
                def &= acc.defined_bits >= ACC_FULL_BITS;
                Out::Value(Num::Int(full >> 32))
            }
            Opcode::Mac => {
                // docs/hardware/eu-hardware.md §4: MAC reads the accumulator implicitly,
                // dst = acc + src0 × src1. Integer accumulators hold a sign-extended value
                // with at least 32 defined bits after a write. For floats the documents do
                // not say whether the product is rounded before the add: the result is
                // undefined rather than an invented rounding.
                let acc = if lane_exists {
                    t.acc[lane]
                } else {
                    AccLane {
                        value: 0,
                        defined_bits: 0,
                    }
                };
                def &= integer && acc.defined_bits >= 32;
                let int_of = |n: Num| match n {
                    Num::Int(v) => v,
                    Num::Float(_) => 0,
                };
                Out::Value(Num::Int(
                    acc.value + int_of(srcs[0].num) * int_of(srcs[1].num),
                ))
            }
            Opcode::Addc | Opcode::Subb => {
                let out = eval(inst.op, &srcs[..nsrc], &ctl);
                let (a, b) = (
                    match srcs[0].num {
                        Num::Int(v) => v as u32 as i128,
                        Num::Float(_) => 0,
                    },
                    match srcs[1].num {
                        Num::Int(v) => v as u32 as i128,
                        Num::Float(_) => 0,
                    },
                );
                let carry = if inst.op == Opcode::Addc {
                    (a + b) >> 32 != 0
                } else {
                    a < b
                };
                acc_write = Some(AccLane {
                    value: carry as i128,
                    defined_bits: if def { 33 } else { 0 },
                });
                out
            }
            _ => eval(inst.op, &srcs[..nsrc], &ctl),
        };
        let mut dst_def = def;
        let (bits, cond) = match out {
            Out::Rounded { value, increment } => {
                let bits = encode(value, dst_ty, inst.saturate);
                dst_def &= !(inst.saturate && saturates_negative_zero(value, dst_ty));
                let cond = match inst.cmod {
                    Some(CondMod::R) => Some(increment),
                    m => m.and_then(|m| flag_condition(m, bits, dst_ty)),
                };
                (bits, cond)
            }
            Out::Value(num) => {
                // An integer MUL into the accumulator keeps the full product.
                if inst.op == Opcode::Mul && integer && matches!(d.dst.loc, Loc::Acc(_)) {
                    if let (Loc::Acc(lanes), Num::Int(p)) = (&d.dst.loc, num)
                        && (lanes[c as usize] as usize) < ACC_LANES
                    {
                        let wrapped = (p << 62) >> 62; // sign-extend from 66 bits
                        effects.push(Effect::Acc {
                            lane: lanes[c as usize] as usize,
                            value: AccLane {
                                value: wrapped,
                                defined_bits: if def { ACC_FULL_BITS } else { 0 },
                            },
                        });
                    }
                    effects.push(Effect::Flag { c, cond: None, def });
                    continue;
                }
                let bits = encode(num, dst_ty, inst.saturate);
                dst_def &= !(inst.saturate && saturates_negative_zero(num, dst_ty));
                (
                    bits,
                    inst.cmod.and_then(|m| flag_condition(m, bits, dst_ty)),
                )
            }
            Out::Condition(cond) => {
                // CMP.o / CMP.r: no condition the documents define (see flag_condition).
                let known = !matches!(inst.cmod, Some(CondMod::O | CondMod::R));
                dst_def &= known;
                (
                    if cond { mask_of(dst_ty) } else { 0 },
                    known.then_some(cond),
                )
            }
        };
        let float_nan = float_exec && matches!(out, Out::Value(_)) && is_nan_of(bits, dst_ty);
        effects.push(Effect::Dst {
            c,
            bits,
            def: dst_def,
            float_nan,
        });
        if let Some(value) =
            acc_write.or_else(|| inst.acc_wr.then(|| acc_from_write(bits, dst_ty, dst_def)))
            && lane_exists
        {
            effects.push(Effect::Acc { lane, value });
        }
        if inst.op != Opcode::Sel {
            effects.push(Effect::Flag { c, cond, def });
        }
    }
    apply_effects(t, d, effects);
    count
}

/// The results of an instruction's channels, in order, before they land: a buffer a run
/// allocates once instead of once per instruction.
#[derive(Default)]
pub struct Effects(Vec<Effect>);

/// A result of one channel, applied once every channel has read its sources.
#[derive(Clone, Copy)]
enum Effect {
    Dst {
        c: u32,
        bits: u64,
        def: bool,
        /// A NaN a float operation produced (its payload is the operation's choice).
        float_nan: bool,
    },
    /// A raw move into registers: its bytes with their own defined flags.
    RawDst {
        c: u32,
        bits: u64,
        bytes_def: [u8; 8],
    },
    Acc {
        lane: usize,
        value: AccLane,
    },
    Flag {
        c: u32,
        cond: Option<bool>,
        def: bool,
    },
}

/// Applies the results gathered so far (every channel among them has read its sources),
/// after the Align16 writemask has dropped the components it disables.
fn apply_effects(t: &mut Thread, d: &DInst, effects: &mut Vec<Effect>) {
    if let Some(plan) = d.align16 {
        writemask_effects(&plan, effects);
    }
    for &effect in effects.iter() {
        match effect {
            Effect::Dst {
                c,
                bits,
                def,
                float_nan,
            } => match &d.dst.loc {
                Loc::Space(offs) if def && float_nan => {
                    let at = offs[c as usize] as usize;
                    t.space
                        .write_flagged(at, d.dst.ty.size() as usize, bits, FLOAT_NAN);
                }
                _ => write_dst(t, &d.dst, c, bits, def),
            },
            Effect::RawDst { c, bits, bytes_def } => {
                let size = d.dst.ty.size() as usize;
                match &d.dst.loc {
                    Loc::Space(offs) => {
                        let at = offs[c as usize] as usize;
                        t.space
                            .write_bytes(at, &bits.to_le_bytes()[..size], &bytes_def[..size]);
                    }
                    Loc::Flag(offs) => {
                        let shift = offs[c as usize] * 8;
                        for (k, &byte_def) in bytes_def[..size].iter().enumerate() {
                            let m = 0xffu64.checked_shl(shift + 8 * k as u32).unwrap_or(0);
                            let byte = (bits >> (8 * k)) & 0xff;
                            t.flags = (t.flags & !m)
                                | (byte.checked_shl(shift + 8 * k as u32).unwrap_or(0) & m);
                            t.flags_def = if is_defined(byte_def) {
                                t.flags_def | m
                            } else {
                                t.flags_def & !m
                            };
                        }
                    }
                    _ => {}
                }
            }
            Effect::Acc { lane, value } => t.acc[lane] = value,
            Effect::Flag { c, cond, def } => set_cmod_flag(t, d, c, cond, def),
        }
    }
    effects.clear();
}

/// The Align16 writemask (docs/hardware/eu-hardware.md §1.3): a disabled component is not written. The
/// sheets do not say whether it also gates a conditional modifier's flag bit, so that bit
/// becomes undefined. An unconfirmed instruction (align16.rs) may write any component:
/// its results, already undefined, are all kept.
fn writemask_effects(plan: &super::align16::Plan, effects: &mut Vec<Effect>) {
    if plan.unconfirmed.is_some() {
        return;
    }
    let off = |c: u32| plan.masked_off >> c & 1 != 0;
    effects.retain_mut(|e| match e {
        Effect::Dst { c, .. } | Effect::RawDst { c, .. } => !off(*c),
        Effect::Flag { c, def, .. } => {
            *def &= !off(*c);
            true
        }
        Effect::Acc { .. } => true,
    });
}

/// The flag a conditional modifier sets from a final result, or `None` where the documents
/// leave it undefined: `.o` (overflow) has a code (docs/hardware/brw-backend.md §1.1, docs/hardware/eu-hardware.md §2.3)
/// but no operation defines when it is set, and `.r` is defined only for Gen4/5 RNDZ/RNDE
/// (see `alu::gen4_round`).
fn flag_condition(cmod: CondMod, bits: u64, ty: Type) -> Option<bool> {
    match cmod {
        CondMod::O | CondMod::R => None,
        m => Some(cmod_holds(m, bits, ty)),
    }
}

fn set_cmod_flag(t: &mut Thread, d: &DInst, c: u32, cond: Option<bool>, def: bool) {
    if d.inst.cmod.is_some() {
        let b = 16 * d.inst.flag_subreg as u32 + d.inst.group as u32 + c;
        set_flag(t, b, cond.unwrap_or(false), def && cond.is_some());
    }
}

/// Reports register-indirect operands that, for a channel that runs, need an address
/// subregister that is undefined or missing, or reach outside the GRF file: such reads are
/// undefined and such writes dropped or undefining (see `read_raw`, `write_dst`).
pub fn indirect_diagnostics(
    t: &Thread,
    d: &DInst,
    ctx: &Ctx,
    ip: usize,
    diags: &mut Vec<Diagnostic>,
) {
    let operands = d.srcs.iter().map(|s| (s, false));
    let mut indirect = operands
        .chain(std::iter::once((&d.dst, true)))
        .filter_map(|(op, is_dst)| match &op.loc {
            Loc::Indirect(ind) => Some((op, ind, is_dst)),
            _ => None,
        })
        .peekable();
    if indirect.peek().is_none() {
        return;
    }
    let e = enables(t, d, ctx.dispatch_width);
    let n = d.inst.exec_size as u32;
    for (op, ind, is_dst) in indirect {
        if let Some(miss) = indirect::first_miss(t, ind, op.ty, n, |c| bit(e.exec, c)) {
            let kind = match miss {
                indirect::Miss::UndefinedAddress(_) => DiagKind::UndefinedAddress,
                _ => DiagKind::OutOfBounds,
            };
            diag(diags, kind, t, ip, indirect::describe(miss, is_dst));
        }
    }
}

/// Records a diagnostic.
pub fn diag(
    diags: &mut Vec<Diagnostic>,
    kind: DiagKind,
    t: &Thread,
    ip: usize,
    msg: impl Into<String>,
) {
    diags.push(Diagnostic {
        kind,
        thread: t.index,
        ip,
        rule: None,
        message: msg.into(),
    });
}

/// Evaluates a control-flow predicate over the active channels: (channels passing,
/// whether any active channel's bit was undefined).
fn cf_condition(t: &Thread, d: &DInst) -> (u32, bool) {
    if d.inst.predicate.is_none() {
        return (t.active, false);
    }
    let mut pass = 0;
    let mut undefined = false;
    let g = d.inst.group as u32;
    for c in 0..d.inst.exec_size as u32 {
        let ch = g + c;
        if !bit(t.active, ch) {
            continue;
        }
        let (v, def) = predicate(t, d, c);
        undefined |= !def;
        if v && def {
            pass |= 1 << ch;
        }
    }
    (pass, undefined)
}

/// When no channel is left active, execution jumps to the end of the innermost construct,
/// as the hardware's JIP does: an IF's ELSE (if still ahead) or ENDIF, a loop's WHILE, or at
/// top level the HALT_TARGET of halted channels. Otherwise, at top level, execution goes
/// on with the next instruction: an ENDIF's JIP outside control flow is the next
/// instruction (docs/hardware/eu-hardware.md §2.2), so a thread whose channels are all off still reaches
/// its EOT.
fn skip_if_idle(t: &mut Thread, ctx: &Ctx, next: usize) {
    t.ip = next;
    if t.active != 0 {
        return;
    }
    t.ip = match t.stack.last() {
        Some(Frame::If {
            else_ip: Some(e),
            in_else: false,
            ..
        }) if *e >= next => *e,
        Some(Frame::If { endif_ip, .. }) => *endif_ip,
        Some(Frame::Loop { while_ip, .. }) => *while_ip,
        None => match ctx.decoded.next_halt_target(next) {
            Some(h) if t.halted != 0 => h,
            _ => next,
        },
    };
}

/// A control-flow instruction with no frame to close. The validator reports such a program
/// (`cf-unmatched`); the emulator, handed one anyway, faults at the instruction.
#[derive(Debug, thiserror::Error)]
pub enum ControlError {
    #[error("ELSE without an open IF")]
    ElseWithoutIf,
    #[error("ENDIF without an open IF")]
    EndifWithoutIf,
    #[error("WHILE without an open DO")]
    WhileWithoutDo,
}

/// Executes a control-flow instruction and moves the thread's ip.
pub fn exec_control(
    t: &mut Thread,
    d: &DInst,
    ctx: &Ctx,
    diags: &mut Vec<Diagnostic>,
) -> Result<(), ControlError> {
    let ip = t.ip;
    let (pass, undefined) = cf_condition(t, d);
    if undefined {
        diag(
            diags,
            DiagKind::UndefinedBranch,
            t,
            ip,
            format!("{} decided by an undefined flag bit", d.inst.op.name()),
        );
    }
    match d.inst.op {
        Opcode::If => {
            t.stack.push(Frame::If {
                restore: t.active,
                else_mask: t.active & !pass,
                else_ip: d.cf.else_ip,
                endif_ip: d.cf.endif_ip,
                in_else: false,
            });
            t.active = pass;
            skip_if_idle(t, ctx, ip + 1);
        }
        Opcode::Else => {
            let Some(Frame::If {
                else_mask, in_else, ..
            }) = t.stack.last_mut()
            else {
                return Err(ControlError::ElseWithoutIf);
            };
            t.active = *else_mask;
            *else_mask = 0;
            *in_else = true;
            skip_if_idle(t, ctx, ip + 1);
        }
        Opcode::Endif => {
            let Some(Frame::If { restore, .. }) = t.stack.pop() else {
                return Err(ControlError::EndifWithoutIf);
            };
            t.active = restore;
            skip_if_idle(t, ctx, ip + 1);
        }
        Opcode::Do => {
            t.stack.push(Frame::Loop {
                restore: t.active,
                continued: 0,
                do_ip: ip,
                while_ip: d.cf.while_ip,
            });
            t.ip = ip + 1;
        }
        Opcode::Break | Opcode::Continue => {
            t.retire(pass, false);
            if d.inst.op == Opcode::Continue
                && let Some(Frame::Loop { continued, .. }) = t
                    .stack
                    .iter_mut()
                    .rev()
                    .find(|f| matches!(f, Frame::Loop { .. }))
            {
                *continued |= pass;
            }
            skip_if_idle(t, ctx, ip + 1);
        }
        Opcode::While => {
            let Some(Frame::Loop {
                restore,
                continued,
                do_ip,
                ..
            }) = t.stack.last_mut()
            else {
                return Err(ControlError::WhileWithoutDo);
            };
            t.active |= *continued;
            *continued = 0;
            let (do_ip, restore) = (*do_ip, *restore);
            let (again, undefined_again) = cf_condition(t, d);
            if undefined_again && !undefined {
                diag(
                    diags,
                    DiagKind::UndefinedBranch,
                    t,
                    ip,
                    "WHILE decided by an undefined flag bit",
                );
            }
            if again != 0 {
                t.active = again;
                t.ip = do_ip + 1;
            } else {
                t.stack.pop();
                t.active = restore;
                skip_if_idle(t, ctx, ip + 1);
            }
        }
        Opcode::Halt => {
            t.halted |= pass;
            t.retire(pass, true);
            // docs/hardware/eu-hardware.md §2.2: outside control flow a HALT's JIP equals its UIP, the
            // HALT target. With no channel left active it jumps there even if it halted
            // none (every channel undispatched), as it does when it halted the last ones.
            match ctx.decoded.next_halt_target(ip + 1) {
                Some(h) if t.active == 0 && t.stack.is_empty() => t.ip = h,
                _ => skip_if_idle(t, ctx, ip + 1),
            }
        }
        Opcode::HaltTarget => {
            t.active |= t.halted;
            t.halted = 0;
            t.ip = ip + 1;
        }
        _ => t.ip = ip + 1,
    }
    Ok(())
}
