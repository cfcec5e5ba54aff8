//! `lower_alu_restrictions`: operands the encodings cannot take are moved into registers.
//!
//! * Two-source instructions take an immediate in src1 only, of at most 32 bits: commutative
//!   ops swap, CMP swaps with the reversed condition, predicated SEL swaps with the inverted
//!   predicate; otherwise the immediate is loaded into a scalar temporary.
//! * Three-source instructions: Align16 parts (up to Gfx9) take no immediates and only scalar
//!   or packed, register-aligned sources and destinations; Align1 parts (Gfx11+) take 16-bit immediates in src0/src2 only, not
//!   both, and write with horizontal stride 1 or 2.
//! * Gfx11+ cannot region byte data in src1 (src1/src2 of 3-source ops): widened to W first.
//! * Vector immediates need a 16-byte aligned destination with a word (V/UV) or dword (VF)
//!   stride: otherwise they are expanded into a packed temporary first.
//! * Gen4/5 SEL takes no conditional modifier: min/max becomes CMPN into a flag whose bits
//!   nothing reads afterwards (or one saved to a temporary and restored), then a predicated
//!   SEL (CMPN ignores NaN like min/max).
//! * A SIMD1 destination region with horizontal stride 0 gets stride 1 (the same byte).
//! * Gfx12+ MUL of a dword by a narrower integer takes no source modifier on the narrower
//!   register (docs/hardware/eu-hardware.md §3.6, Wa_1604601757): it is applied by a MOV first.

use super::{byte_stride, reg_offset};
use crate::inst::{CondMod, Inst};
use crate::opcode::Opcode;
use crate::pass::{note, CompileOptions, Pass, PassError};
use crate::program::Program;
use crate::reg::Reg;
use crate::types::Type;

fn like(inst: &Inst, op: Opcode, dst: Reg, srcs: Vec<Reg>) -> Inst {
    let mut i = Inst::new(op, inst.exec_size, dst, srcs);
    i.group = inst.group;
    i.nomask = inst.nomask;
    i
}

/// Loads an immediate into a scalar temporary (NoMask, SIMD1).
fn load_imm(p: &mut Program, imm: Reg, out: &mut Vec<Inst>) -> Reg {
    let ty = imm.ty.exec_type();
    let t = super::temp(p, ty, ty.size()).with_stride(0);
    out.push(
        Inst::new(
            Opcode::Mov,
            1,
            t,
            vec![Reg {
                negate: false,
                abs: false,
                ..imm
            }],
        )
        .with_nomask(),
    );
    Reg {
        negate: imm.negate,
        abs: imm.abs,
        ..t
    }
}

/// Copies a source into a packed temporary of the instruction's width (modifiers kept on
/// the new operand, applied by the instruction as before). A 64-bit copy that moves the
/// elements to another offset in their register breaks the low-power regioning rules
/// (CHV/BXT/GLK, docs/hardware/eu-hardware.md §5.1), so there the two dword halves move.
fn packed_copy(p: &mut Program, inst: &Inst, src: Reg, out: &mut Vec<Inst>) -> Reg {
    let t = super::temp(p, src.ty, inst.exec_size as u32 * src.ty.size());
    let plain = Reg {
        negate: false,
        abs: false,
        ..src
    };
    let copy = like(inst, Opcode::Mov, t, vec![plain]);
    if super::lower_regioning::low_power_64bit(p, &copy) {
        out.extend(super::lower_regioning::raw_copy(&copy, t, plain, src.ty));
    } else {
        out.push(copy);
    }
    Reg {
        negate: src.negate,
        abs: src.abs,
        ..t
    }
}

fn two_source(p: &mut Program, inst: &mut Inst, out: &mut Vec<Inst>) -> bool {
    let mut changed = false;
    if inst.srcs.len() != 2 || inst.op.is_3src() {
        return false;
    }
    if inst.srcs[0].is_imm() && !inst.srcs[1].is_imm() && dword_beside_narrower(inst) {
        // Swapped, the dword would be src1 next to a narrower integer, which Gen7+ forbids
        // (docs/hardware/eu-hardware.md §4 table: "the DW operand must be src0"): a value that fits a
        // word is that word; any other stays in src0, in a register.
        inst.srcs[0] = match word_imm(inst.srcs[0]) {
            Some(w) => w,
            None => load_imm(p, inst.srcs[0], out),
        };
        changed = true;
    }
    if inst.srcs[0].is_imm() && !inst.srcs[1].is_imm() {
        if !super::swap_immediate_into_src1(inst) {
            inst.srcs[0] = load_imm(p, inst.srcs[0], out);
        }
        changed = true;
    }
    if inst.srcs[0].is_imm() {
        inst.srcs[0] = load_imm(p, inst.srcs[0], out);
        changed = true;
    }
    if inst.srcs[1].is_imm() && inst.srcs[1].ty.size() == 8 {
        inst.srcs[1] = load_imm(p, inst.srcs[1], out);
        changed = true;
    }
    if p.device.info().verx10 >= 110 && !inst.op.is_message() {
        changed |= widen_byte_source(p, inst, 1, out);
    }
    changed
}

/// A MUL of a D/UD src0 and a narrower integer src1.
fn dword_beside_narrower(inst: &Inst) -> bool {
    let (a, b) = (inst.srcs[0].ty, inst.srcs[1].ty);
    inst.op == Opcode::Mul && a.is_int() && a.size() == 4 && b.is_int() && b.size() < 4
}

/// The same value as a W (from D) or UW (from UD) immediate, if it fits one.
fn word_imm(imm: Reg) -> Option<Reg> {
    let bits = imm.imm_bits()?;
    let (value, ty) = match imm.ty {
        Type::D => (i64::from(bits as u32 as i32), Type::W),
        _ => (i64::from(bits as u32), Type::UW),
    };
    let fits = match ty {
        Type::W => i16::try_from(value).is_ok(),
        _ => u16::try_from(value).is_ok(),
    };
    fits.then(|| Reg {
        negate: imm.negate,
        abs: imm.abs,
        ..Reg::imm(value as u64 & 0xffff, ty)
    })
}

/// Gen11+ reads no byte type in src1 (src1/src2 of 3-source instructions): copies byte
/// source `i` to a W/UW temporary, keeping its modifiers on the read.
fn widen_byte_source(p: &mut Program, inst: &mut Inst, i: usize, out: &mut Vec<Inst>) -> bool {
    let s = inst.srcs[i];
    if s.is_imm() || s.is_null() || s.ty.size() != 1 {
        return false;
    }
    let w = if s.ty.is_signed() { Type::W } else { Type::UW };
    let t = consumer_temp(p, inst, w);
    let plain = Reg {
        negate: false,
        abs: false,
        ..s
    };
    out.push(like(inst, Opcode::Mov, t, vec![plain]));
    inst.srcs[i] = Reg {
        negate: s.negate,
        abs: s.abs,
        ..t
    };
    true
}

/// Gfx12+: a MUL with a 4-byte integer execution type takes no modifier on a narrower
/// integer register source (docs/hardware/eu-hardware.md §3.6 and the §4 table, "When multiplying a DW
/// and any lower precision integer, source modifier is not supported"). The modifier is
/// applied by a MOV into a temporary of the same type, which wraps as the MUL's own
/// modifier stage would (§3.6: two's complement within the source type).
fn narrow_mul_modifier(p: &mut Program, inst: &mut Inst, out: &mut Vec<Inst>) -> bool {
    let dword_exec = inst.srcs.iter().any(|s| s.ty.is_int() && s.ty.size() == 4)
        && inst.srcs.iter().all(|s| s.ty.is_int() && s.ty.size() <= 4);
    if inst.op != Opcode::Mul || p.device.info().verx10 < 120 || !dword_exec {
        return false;
    }
    let mut changed = false;
    for i in 0..inst.srcs.len() {
        let s = inst.srcs[i];
        if s.is_imm() || s.ty.size() >= 4 || !(s.negate || s.abs) {
            continue;
        }
        let t = consumer_temp(p, inst, s.ty);
        out.push(like(inst, Opcode::Mov, t, vec![s]));
        inst.srcs[i] = t;
        changed = true;
    }
    changed
}

/// For a predicated `inst` about to write temporary `t` instead of its destination `d`:
/// raw copies that first load `t` from `d`, so that the unpredicated copies back leave the
/// channels whose predicate fails as they were. The copies back cannot be predicated
/// instead: the instruction's conditional modifier may rewrite the flag its predicate
/// reads, and the copies would then read the new bits (docs/hardware/brw-backend.md §5.4,
/// Mesa's `lower_dst_region`; `corpus/regressions/predicated-flag-write-three-source-destination.eu`).
fn preload_if_predicated(inst: &Inst, t: Reg, d: Reg) -> Vec<Inst> {
    if inst.predicate.is_none() {
        return vec![];
    }
    let old = super::legal_fixed_source(d, inst.exec_size as u32);
    super::lower_regioning::raw_copy(inst, t, old, d.ty)
}

fn three_source(
    p: &mut Program,
    inst: &mut Inst,
    out: &mut Vec<Inst>,
    after: &mut Vec<Inst>,
    opts: &CompileOptions,
) -> bool {
    if !inst.op.is_3src() || inst.srcs.len() != 3 {
        return false;
    }
    let mut changed = false;
    let info = p.device.info();
    if info.has_align16 {
        for i in 0..3 {
            let s = inst.srcs[i];
            if s.is_imm() {
                inst.srcs[i] = load_imm(p, s, out);
                changed = true;
            } else if !s.is_uniform() && (byte_stride(&s) != s.ty.size() || reg_offset(&s) != 0) {
                // A packed row starting inside a register cannot be encoded as one Align16
                // row either: register-aligned copies (docs/hardware/eu-hardware.md §1.3).
                inst.srcs[i] = packed_copy(p, inst, s, out);
                changed = true;
            }
        }
        let d = inst.dst;
        if !d.is_null() && reg_offset(&d) != 0 {
            let t = super::temp(p, d.ty, inst.exec_size as u32 * d.ty.size());
            let zoo = crate::zoo!(opts, ThreeSrcCopyPredicated);
            if !zoo {
                out.extend(preload_if_predicated(inst, t, d));
            }
            inst.dst = t;
            let copy = like(inst, Opcode::Mov, d, vec![t]);
            // A 64-bit copy to another offset in its register breaks the low-power
            // regioning rules (CHV/BXT/GLK, docs/hardware/eu-hardware.md §5.1): the two
            // dword halves move instead.
            let copies = if super::lower_regioning::low_power_64bit(p, &copy) {
                super::lower_regioning::raw_copy(&copy, d, t, d.ty)
            } else {
                vec![copy]
            };
            for mut c in copies {
                if zoo {
                    c.predicate = inst.predicate;
                    c.flag_subreg = inst.flag_subreg;
                }
                after.push(c);
            }
            changed = true;
        }
        return changed;
    }
    if inst.srcs[1].is_imm() {
        if inst.op == Opcode::Mad && !inst.srcs[2].is_imm() {
            inst.srcs.swap(1, 2);
        } else {
            inst.srcs[1] = load_imm(p, inst.srcs[1], out);
        }
        changed = true;
    }
    for i in [0, 2] {
        let s = inst.srcs[i];
        if s.is_imm() && s.ty.size() != 2 {
            inst.srcs[i] = load_imm(p, s, out);
            changed = true;
        }
    }
    if inst.srcs[0].is_imm() && inst.srcs[2].is_imm() {
        inst.srcs[2] = load_imm(p, inst.srcs[2], out);
        changed = true;
    }
    if info.verx10 >= 110 {
        for i in [1, 2] {
            changed |= widen_byte_source(p, inst, i, out);
        }
    }
    let stride = byte_stride(&inst.dst) / inst.dst.ty.size().max(1);
    if !inst.dst.is_null() && !matches!(stride, 1 | 2) {
        let old = inst.dst;
        let t = super::temp(p, old.ty, inst.exec_size as u32 * old.ty.size());
        out.extend(preload_if_predicated(inst, t, old));
        inst.dst = t;
        // A raw integer copy: a float move that changes the channels' byte positions is
        // illegal on DG2 (xehp-lsb-move); the bits are the same either way.
        let raw = if old.ty.size() < 8 {
            Type::int_of_size(old.ty.size(), false)
        } else {
            old.ty
        };
        after.push(like(inst, Opcode::Mov, old.retype(raw), vec![t.retype(raw)]));
        changed = true;
    }
    changed
}

fn vector_immediate(p: &mut Program, inst: &mut Inst, out: &mut Vec<Inst>) -> bool {
    let Some(i) = inst
        .srcs
        .iter()
        .position(|s| s.is_imm() && s.ty.is_vector_imm())
    else {
        return false;
    };
    let imm = inst.srcs[i];
    let want = if imm.ty == Type::VF { 4 } else { 2 };
    let ok = inst.op == Opcode::Mov
        && byte_stride(&inst.dst).max(inst.dst.ty.size()) == want
        && inst.dst.ty.size() == want
        && reg_offset(&inst.dst).is_multiple_of(16);
    if ok {
        return false;
    }
    let ty = imm.ty.exec_type();
    let t = super::temp(p, ty, inst.exec_size as u32 * ty.size());
    out.push(like(inst, Opcode::Mov, t, vec![imm]));
    inst.srcs[i] = aligned_to_dst(p, inst, t, out);
    true
}

/// A temporary of type `ty` for one source of `inst`: packed, or where the
/// destination-aligned region restriction covers `inst` (see `aligned_to_dst`) at the
/// destination's byte stride and offset.
fn consumer_temp(p: &mut Program, inst: &Inst, ty: Type) -> Reg {
    let n = inst.exec_size as u32;
    match aligned_placement(p, inst, ty) {
        Some((stride, off)) => super::lower_regioning::strided_temp(p, ty, n, stride, off),
        None => super::temp(p, ty, n * ty.size()),
    }
}

/// The (byte stride, register offset) a source of type `ty` must have when the
/// destination-aligned region restriction covers `inst`; `None` when it does not.
fn aligned_placement(p: &Program, inst: &Inst, ty: Type) -> Option<(u32, u32)> {
    if inst.exec_size == 1 || !super::lower_regioning::restricted(p, inst) {
        return None;
    }
    let need = byte_stride(&inst.dst)
        .max(inst.dst.ty.size())
        .max(ty.size());
    Some((need, reg_offset(&inst.dst)))
}

/// Where the destination-aligned region restriction covers `inst` (DG2 float
/// destinations: the LSB of a channel may not move between source and destination,
/// docs/hardware/brw-backend.md §5.1, docs/hardware/eu-hardware.md §5.4/§6.9), a packed temporary this pass made runs
/// after `lower_regioning` and must itself sit at the destination's byte stride and
/// offset: it is copied there with a raw integer move (integer destinations are not
/// covered by the restriction).
fn aligned_to_dst(p: &mut Program, inst: &Inst, t: Reg, out: &mut Vec<Inst>) -> Reg {
    let Some((need, off)) = aligned_placement(p, inst, t.ty) else {
        return t;
    };
    if byte_stride(&t) == need && reg_offset(&t) == off {
        return t;
    }
    let s = consumer_temp(p, inst, t.ty);
    let raw = Type::int_of_size(t.ty.size(), false);
    out.push(like(inst, Opcode::Mov, s.retype(raw), vec![t.retype(raw)]));
    s
}

/// How an instruction touches flag subregister `f`: (reads, writes).
fn flag_access(i: &Inst, f: u8) -> (bool, bool) {
    let reads = (i.predicate.is_some() && i.flag_subreg == f)
        || i.srcs.iter().any(|s| flag_register(s) == Some(f));
    let writes = (i.writes_flag() && i.flag_subreg == f) || flag_register(&i.dst) == Some(f);
    (reads, writes)
}

/// The flag subregister an operand names directly, if it is one.
fn flag_register(r: &Reg) -> Option<u8> {
    use crate::reg::{Arf, RegKind};
    match r.kind {
        RegKind::Arf {
            file: Arf::Flag,
            nr,
            subnr,
            ..
        } => Some(nr * 2 + subnr / 2),
        _ => None,
    }
}

/// Whether `w` overwrites every flag bit `cmpn` writes, with nothing left to chance: a
/// conditional modifier of the same subregister, not predicated, over the same or more
/// channels. A MOV into the flag register counts only NoMask, as a masked SIMD1 MOV may not run.
fn overwrites_bits(w: &Inst, cmpn: &Inst) -> bool {
    if w.predicate.is_some() {
        return false;
    }
    if flag_register(&w.dst) == Some(cmpn.flag_subreg) {
        return w.nomask && w.exec_size as u32 * w.dst.ty.size() >= 2;
    }
    let (wf, wn) = w.flag_bits();
    let (cf, cn) = cmpn.flag_bits();
    w.writes_flag() && wf <= cf && cf + cn <= wf + wn
}

/// Whether the bits `cmpn` would write into its flag subregister hold nothing any later
/// instruction reads (docs/hardware/eu-hardware.md §4: a masked write changes only the bits
/// of the enabled channels, a NoMask one all of them, and a NoMask read sees every bit).
///
/// The forward scan follows the channels of the min/max: an ELSE of an IF around it starts a
/// region where those channels are off, so a masked write there kills nothing and a masked
/// read there reads other bits, while a NoMask read anywhere is a use. A write kills only
/// where it surely runs with those channels on: at the min/max's own nesting or outside it,
/// and before any BREAK, CONTINUE or HALT (a block no channel enters is jumped over, NoMask
/// instructions included). A masked write kills only the bits of a masked CMPN. Inside a loop,
/// any read in the loop is a use (the next iteration reaches it).
fn flag_dead_at(insts: &[Inst], ip: usize, cmpn: &Inst, opts: &CompileOptions) -> bool {
    let f = cmpn.flag_subreg;
    let mut level = 0i32;
    let mut other_arm = false;
    let mut diverged = false;
    for i in &insts[ip + 1..] {
        match i.op {
            Opcode::If | Opcode::Do => level += 1,
            Opcode::Else if level == 0 => other_arm = true,
            Opcode::Endif | Opcode::While if level == 0 => other_arm = false,
            Opcode::Endif | Opcode::While => level -= 1,
            Opcode::Break | Opcode::Continue | Opcode::Halt => diverged = true,
            _ => {}
        }
        let (reads, writes) = flag_access(i, f);
        if reads && (i.nomask || cmpn.nomask || !other_arm) {
            return false;
        }
        let runs_surely = level == 0 && !other_arm && !diverged;
        let kills = (runs_surely && (i.nomask || !cmpn.nomask))
            || crate::zoo!(opts, MinmaxFlagOtherArmKill);
        if writes && kills && overwrites_bits(i, cmpn) {
            break;
        }
    }
    !in_loop_reading(insts, ip, f)
}

/// Whether `ip` is inside a loop some instruction of which reads flag subregister `f`.
fn in_loop_reading(insts: &[Inst], ip: usize, f: u8) -> bool {
    let mut depth = 0i32;
    let mut loop_start = None;
    for (k, i) in insts[..ip].iter().enumerate().rev() {
        match i.op {
            Opcode::While => depth += 1,
            Opcode::Do if depth == 0 => {
                loop_start = Some(k);
                break;
            }
            Opcode::Do => depth -= 1,
            _ => {}
        }
    }
    let Some(start) = loop_start else {
        return false;
    };
    let mut d = 0;
    for i in &insts[start + 1..] {
        match i.op {
            Opcode::Do => d += 1,
            Opcode::While if d == 0 => return false,
            Opcode::While => d -= 1,
            _ if flag_access(i, f).0 => return true,
            _ => {}
        }
    }
    false
}

/// Gen4/5 min/max: CMPN into a flag, then a SEL predicated on it. The flag is one whose bits
/// are dead at the min/max; when every subregister may still be read, the one the SEL names is
/// borrowed, so no program is left without a flag. Its bits are saved channel by channel, in
/// the channels the CMPN writes (a word per channel: 0, then 1 where the flag is set), and a
/// CMP of those words puts them back after the SEL. Per channel, a bit nobody defined stays
/// undefined and a defined one stays defined, which a copy of the whole 16-bit subregister
/// through a register could not keep when its writers enabled only some channels.
fn minmax(
    p: &mut Program,
    insts: &[Inst],
    ip: usize,
    inst: &mut Inst,
    out: &mut Vec<Inst>,
    after: &mut Vec<Inst>,
    opts: &CompileOptions,
) -> Result<bool, PassError> {
    if inst.op != Opcode::Sel
        || inst.cmod.is_none()
        || inst.predicate.is_some()
        || p.device.info().verx10 >= 60
    {
        return Ok(false);
    }
    // The CMPN is emitted here, after `two_source` could see it: an immediate in src0
    // (docs/hardware/eu-hardware.md §3.3) goes into a register for both instructions, keeping the operand
    // order (swapping would change CMPN's ±0/NaN tie behaviour).
    if inst.srcs[0].is_imm() {
        inst.srcs[0] = load_imm(p, inst.srcs[0], out);
    }
    let cmod = inst.cmod.take().unwrap_or(CondMod::Ge);
    let mut cmpn = like(
        inst,
        Opcode::Cmpn,
        Reg::null(inst.srcs[0].ty),
        inst.srcs.clone(),
    )
    .with_cmod(cmod, inst.flag_subreg);
    cmpn.nomask = inst.nomask;
    let candidates = std::iter::once(inst.flag_subreg).chain(0..p.device.info().flag_subregs as u8);
    let dead = candidates.into_iter().find(|&f| {
        cmpn.flag_subreg = f;
        flag_dead_at(insts, ip, &cmpn, opts)
    });
    let f = dead.unwrap_or(inst.flag_subreg);
    cmpn.flag_subreg = f;
    if dead.is_none() {
        note("gen4-min-max-saved-flag");
        let saved = super::temp(p, Type::UW, inst.exec_size as u32 * 2);
        let word = |v: u64| Reg::imm(v, Type::UW);
        out.push(like(inst, Opcode::Mov, saved, vec![word(0)]));
        let mut set = like(inst, Opcode::Mov, saved, vec![word(1)]);
        set.predicate = Some(crate::inst::Predicate::NORMAL);
        set.flag_subreg = f;
        out.push(set);
        let null = Reg::null(Type::UW);
        after.push(like(inst, Opcode::Cmp, null, vec![saved, word(0)]).with_cmod(CondMod::Nz, f));
    }
    out.push(cmpn);
    inst.predicate = Some(crate::inst::Predicate::NORMAL);
    inst.flag_subreg = f;
    Ok(true)
}

fn simd1_dst(inst: &mut Inst) -> bool {
    use crate::reg::RegKind;
    if inst.exec_size != 1 {
        return false;
    }
    match &mut inst.dst.kind {
        RegKind::Fixed { region, .. } | RegKind::Arf { region, .. } if region.hstride == 0 => {
            *region = crate::reg::Region::new(1, 1, 1);
            true
        }
        _ => false,
    }
}

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &[
    "gen4-min-max",
    "gen4-min-max-saved-flag",
    "vector-immediate",
    "three-source-operands",
    "simd1-destination-stride",
    "narrow-mul-modifier",
    "two-source-operands",
];

fn lower(
    p: &mut Program,
    insts: &[Inst],
    ip: usize,
    out: &mut Vec<Inst>,
    opts: &CompileOptions,
) -> Result<bool, PassError> {
    let mut inst = insts[ip].clone();
    if inst.op.is_control_flow()
        || inst.op.is_message()
        || inst.op.is_subgroup()
        || matches!(inst.op, Opcode::LoadPayload | Opcode::Nop)
    {
        out.push(inst);
        return Ok(false);
    }
    let mut after = vec![];
    let mut changed = false;
    if simd1_dst(&mut inst) {
        note("simd1-destination-stride");
        changed = true;
    }
    if minmax(p, insts, ip, &mut inst, out, &mut after, opts)? {
        note("gen4-min-max");
        changed = true;
    }
    if vector_immediate(p, &mut inst, out) {
        note("vector-immediate");
        changed = true;
    }
    if narrow_mul_modifier(p, &mut inst, out) {
        note("narrow-mul-modifier");
        changed = true;
    }
    if two_source(p, &mut inst, out) {
        note("two-source-operands");
        changed = true;
    }
    if three_source(p, &mut inst, out, &mut after, opts) {
        note("three-source-operands");
        changed = true;
    }
    out.push(inst);
    out.extend(after);
    Ok(changed)
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "lower_alu_restrictions",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    let mut out = vec![];
    let insts = p.take_insts();
    for ip in 0..insts.len() {
        progress |= lower(p, &insts, ip, &mut out, opts)?;
    }
    p.set_insts(out);
    Ok(progress)
}
