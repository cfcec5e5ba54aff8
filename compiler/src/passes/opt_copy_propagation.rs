//! `opt_copy_propagation` (docs/hardware/brw-backend.md §7.1 step 4): reads of a MOV's destination are
//! rewritten to read the MOV's source — another register, or an immediate (constant
//! propagation) — so the MOV becomes dead for DCE.
//!
//! Copies flow across blocks by a global "available copies" dataflow: a copy is available
//! at a point when it was made on every path reaching it and neither side was written
//! since. The paths are those of the SIMD thread, so the meet runs over the physical CFG
//! edges as well as the logical ones (§9.1): a thread whose channels diverge in a loop
//! runs the body again for the channels still looping after others broke out, and a
//! NoMask write there overwrites the value of the channels that left too (§9.2 NoMask
//! paragraph). Over logical edges alone, `loop { x = nomask_op(); if (c) { y = x; break; } }
//! use(y)` would rewrite `use(y)` to read `x` as a later iteration left it (§11.12, Mesa
//! d4015bcb388). Within a block the available copies are exact: a copy made earlier in the
//! block holds until either side is written.
//!
//! An immediate is placed only where the encoding takes one (docs/hardware/eu-hardware.md §3.3): src0 of
//! MOV/NOT, src1 of a two-source ALU instruction (or src0 by commuting a commutative one),
//! never a three-source, math, accumulator or message instruction, nor LOAD_PAYLOAD
//! (§7.4 ec2e8bc33f5, 7b5e9336298). 64-bit immediates go into MOV only (§3.3). A source
//! modifier on the read is folded into the immediate exactly, or the read is left.

use crate::cfg::{Cfg, EdgeKind};
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{Reg, RegKind};
use crate::types::Type;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &[
    "constant-commuted",
    "copy-across-blocks",
    "constant",
    "copy-from-attr",
    "copy-from-vgrf",
];

/// An available copy: `dst` holds `src` (a register or an immediate) for the channels of
/// `exec_size` channels from `group`, written masked unless `nomask`.
#[derive(Clone, Copy)]
struct Copy {
    dst: Reg,
    src: Reg,
    exec_size: u8,
    group: u8,
    nomask: bool,
    bytes: u32,
    /// Made in another block (reached this one through the dataflow).
    across: bool,
}

/// Register file and number of a packed per-channel operand (VGRF or ATTR), if it is one.
fn packed_file(r: &Reg) -> Option<(bool, u32)> {
    match r.kind {
        RegKind::Vgrf { nr, stride: 1, .. } => Some((true, nr)),
        RegKind::Attr { nr, stride: 1, .. } => Some((false, nr)),
        _ => None,
    }
}

/// Immediate types this pass propagates: the ones every two-source encoding takes in src1
/// (docs/hardware/eu-hardware.md §3.3), and the 64-bit ones, which go into MOV only. Byte immediates do
/// not exist, vector immediates are not one value per channel (a register never has
/// their type, so no copy of one has matching types either), and HF is left out: its
/// mixed-float rules (§6.5) speak of registers.
fn propagatable_imm(ty: Type) -> bool {
    matches!(
        ty,
        Type::D | Type::UD | Type::W | Type::UW | Type::F | Type::DF | Type::Q | Type::UQ
    )
}

/// The copy a MOV makes, when it is a plain whole-value copy into a packed VGRF of one
/// type from a packed register or an immediate: no predicate (a partial write, §10.3 23
/// analogue), no conditional modifier or saturate (those change the value or write flags;
/// §10.3 30 forbids propagating `mov.sat`), no source modifiers, no accumulator update.
fn copy_of(inst: &Inst) -> Option<Copy> {
    let plain = inst.op == Opcode::Mov
        && inst.predicate.is_none()
        && inst.cmod.is_none()
        && !inst.saturate
        && !inst.acc_wr
        && inst.srcs.first().is_some_and(|s| !s.negate && !s.abs);
    let src = inst.srcs.first()?;
    let (dst_is_vgrf, _) = packed_file(&inst.dst)?;
    let source_ok = if src.is_imm() {
        propagatable_imm(src.ty)
    } else {
        // `mov v0+32, v0` would end its own copy: its write clobbers the source register.
        packed_file(src).is_some() && packed_file(&inst.dst) != packed_file(src)
    };
    (plain && dst_is_vgrf && source_ok && src.ty == inst.dst.ty).then(|| Copy {
        dst: inst.dst,
        src: *src,
        exec_size: inst.exec_size,
        group: inst.group,
        nomask: inst.nomask,
        bytes: inst.size_written(),
        across: false,
    })
}

/// Whether instruction `inst` may have a source replaced by another register of the same
/// type and region: plain ALU operations. Messages, LOAD_PAYLOAD and logical sends read
/// multi-register payloads whose layout the copy does not describe (Mesa ec2e8bc33f5,
/// 7b5e9336298); control flow reads nothing.
fn accepts_register_copies(inst: &Inst) -> bool {
    !inst.op.is_message() && !inst.op.is_control_flow() && inst.op != Opcode::LoadPayload
}

/// Whether source `s` of `use_inst` reads exactly the bytes `copy` wrote, in the same
/// channels: same register, offset and region over the same exec size and group, in a type
/// of the same size. A NoMask read sees channels a masked copy did not write, so it needs
/// a NoMask copy.
fn reads_copy(use_inst: &Inst, s: usize, copy: &Copy) -> bool {
    let src = &use_inst.srcs[s];
    src.kind == copy.dst.kind
        && src.ty.size() == copy.dst.ty.size()
        && use_inst.exec_size == copy.exec_size
        && use_inst.group == copy.group
        && (copy.nomask || !use_inst.nomask)
        && use_inst.size_read(s) == copy.bytes
}

/// Whether `inst` writes (any byte of) the register `r` lives in. Writes to fixed
/// registers may land on the thread payload that ATTRs are read from before
/// `lower_payload_inputs`, so they end every copy from an ATTR. Immediates are never
/// written.
fn clobbers(inst: &Inst, r: &Reg) -> bool {
    let written = match inst.dst.kind {
        RegKind::Vgrf { nr, .. } => Some((true, nr)),
        RegKind::Attr { nr, .. } => Some((false, nr)),
        RegKind::Fixed { .. } | RegKind::Indirect { .. } => {
            return matches!(r.kind, RegKind::Attr { .. });
        }
        _ => None,
    };
    let target = match r.kind {
        RegKind::Vgrf { nr, .. } => Some((true, nr)),
        RegKind::Attr { nr, .. } => Some((false, nr)),
        _ => None,
    };
    written.is_some() && written == target
}

/// The immediate `bits` of a `ty` read with the given modifiers, as the immediate of
/// that value (docs/hardware/eu-hardware.md §3.6): floats flip or clear the sign bit (a NaN is left
/// alone: its payload is not a number to negate), integers negate and take the absolute
/// value in two's complement, wrapping in the type (|INT_MIN| wraps). Logic operations
/// give negate a generation-dependent meaning (§3.6), so a modified read there is left.
fn folded_imm(bits: u64, ty: Type, negate: bool, abs: bool, logic: bool) -> Option<Reg> {
    if !negate && !abs {
        return Some(Reg::imm(bits, ty));
    }
    if logic {
        return None;
    }
    Some(match ty {
        Type::F => {
            let f = f32::from_bits(bits as u32);
            if f.is_nan() {
                return None;
            }
            let f = if abs { f.abs() } else { f };
            Reg::imm_f(if negate { -f } else { f })
        }
        Type::DF => {
            let f = f64::from_bits(bits);
            if f.is_nan() {
                return None;
            }
            let f = if abs { f.abs() } else { f };
            Reg::imm_df(if negate { -f } else { f })
        }
        Type::D | Type::W | Type::Q | Type::UD | Type::UW | Type::UQ => {
            let v = match ty {
                Type::D => i64::from(bits as u32 as i32),
                Type::W => i64::from(bits as u16 as i16),
                // An unsigned value is its own absolute value; UQ wraps like Q.
                _ => bits as i64,
            };
            let v = if abs && ty.is_signed() {
                v.wrapping_abs()
            } else {
                v
            };
            let v = if negate { v.wrapping_neg() } else { v };
            // Two's complement wraps into the type: |INT_MIN| and -INT_MIN are INT_MIN.
            let mask = u64::MAX >> (64 - 8 * ty.size());
            Reg::imm(v as u64 & mask, ty)
        }
        _ => return None,
    })
}

/// Where an immediate may go in `inst` in place of source `s`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// Source `s` itself.
    Here,
    /// Source 1, with the old source 1 moved to source 0 (a commutative operation).
    Commuted,
}

/// Whether the integer MUL `inst` would multiply a dword by a narrower integer with the
/// dword in src1 if source `s` became `imm`: the 32×16 multiplier needs the dword in
/// src0 (docs/hardware/eu-hardware.md §4, "the DW operand must be src0").
fn mul_dword_in_src1(inst: &Inst, s: usize, imm: &Reg) -> bool {
    let other = &inst.srcs[1 - s];
    inst.op == Opcode::Mul
        && imm.ty.is_int()
        && other.ty.is_int()
        && s == 1
        && imm.ty.size() == 4
        && other.ty.size() < 4
}

/// Where `imm` may replace source `s` of `inst` (docs/hardware/eu-hardware.md §3.3): src0 of MOV and
/// NOT; src1 of a two-source ALU operation whose src0 is a register; src0 of a commutative
/// one by swapping, when src1 is a register of the immediate's type and swapping changes
/// nothing: integer ADD, AND, OR, XOR and MUL (a 32×16 MUL of a dword and a word is
/// asymmetric, §4 — the `copyprop-dw-const-into-mul` zoo bug commutes it anyway), and
/// float ADD/MUL of a non-NaN immediate (with one NaN source the result's payload is that
/// source's either way). Accumulator users and every other opcode take none.
fn imm_slot(inst: &Inst, s: usize, imm: &Reg, commute_dword_mul: bool) -> Option<Slot> {
    use Opcode::*;
    if inst.acc_wr || inst.dst.is_accumulator() {
        return None;
    }
    if imm.ty.size() == 8 {
        return (inst.op == Mov && s == 0).then_some(Slot::Here);
    }
    match (inst.op, s) {
        (Mov | Not, 0) => Some(Slot::Here),
        (Add | Mul | And | Or | Xor | Sel | Cmp | Shl | Shr | Asr, 1)
            if inst.srcs.len() == 2 && !inst.srcs[0].is_imm() =>
        {
            (!mul_dword_in_src1(inst, 1, imm)).then_some(Slot::Here)
        }
        (Add | Mul | And | Or | Xor, 0) if inst.srcs.len() == 2 && !inst.srcs[1].is_imm() => {
            let other = inst.srcs[1].ty;
            let nan = match imm.ty {
                Type::F => imm
                    .imm_bits()
                    .is_some_and(|b| f32::from_bits(b as u32).is_nan()),
                _ => false,
            };
            let symmetric = match inst.op {
                Mul if imm.ty.is_int() => other == imm.ty || commute_dword_mul,
                Add | Mul => !nan && other == imm.ty,
                _ => imm.ty.is_int() && other == imm.ty,
            };
            symmetric.then_some(Slot::Commuted)
        }
        _ => None,
    }
}

/// Rewrites the sources of `inst` that read an available copy; returns whether any did.
fn propagate_into(inst: &mut Inst, copies: &[Copy], opts: &CompileOptions) -> bool {
    if !accepts_register_copies(inst) {
        return false;
    }
    let mut changed = false;
    for s in 0..inst.srcs.len() {
        let Some(copy) = copies.iter().rev().find(|c| reads_copy(inst, s, c)) else {
            continue;
        };
        let (negate, abs) = (inst.srcs[s].negate, inst.srcs[s].abs);
        let read_ty = inst.srcs[s].ty;
        if let RegKind::Imm(bits) = copy.src.kind {
            // The read's type must itself be one this pass propagates: a UW constant read
            // as HF is an HF immediate, which is left out (see `propagatable_imm`).
            let folded = propagatable_imm(read_ty)
                .then(|| folded_imm(bits, read_ty, negate, abs, inst.op.is_logic()))
                .flatten();
            let Some(imm) = folded else {
                continue;
            };
            let dword_mul = crate::zoo!(opts, CopypropDwConstIntoMul);
            match imm_slot(inst, s, &imm, dword_mul) {
                Some(Slot::Here) => {
                    inst.srcs[s] = imm;
                    note("constant");
                }
                Some(Slot::Commuted) => {
                    let other = inst.srcs[1];
                    let asymmetric = inst.op == Opcode::Mul
                        && imm.ty.is_int()
                        && other.ty.size() != imm.ty.size();
                    // The zoo bug (§11.11, Mesa db204121686) puts the dword constant in
                    // src1 of a 32×16 multiply, where the multiplier reads only its low
                    // word: that word is what the MUL gets.
                    inst.srcs[1] = if asymmetric {
                        Reg::imm_uw(bits as u16)
                    } else {
                        imm
                    };
                    inst.srcs[0] = other;
                    note("constant-commuted");
                }
                None => continue,
            }
        } else {
            if read_ty != copy.dst.ty {
                continue;
            }
            inst.srcs[s] = Reg {
                negate,
                abs,
                ..copy.src
            };
            note(if matches!(copy.src.kind, RegKind::Attr { .. }) {
                "copy-from-attr"
            } else {
                "copy-from-vgrf"
            });
        }
        if copy.across {
            note("copy-across-blocks");
        }
        changed = true;
    }
    changed
}

/// A set of copies, by index into the program's list of copies.
#[derive(Clone, PartialEq, Eq)]
struct Set(Vec<u64>);

impl Set {
    fn empty(n: usize) -> Set {
        Set(vec![0; n.div_ceil(64)])
    }
    fn full(n: usize) -> Set {
        let mut s = Set(vec![u64::MAX; n.div_ceil(64)]);
        if !n.is_multiple_of(64)
            && let Some(last) = s.0.last_mut()
        {
            *last = (1u64 << (n % 64)) - 1;
        }
        s
    }
    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }
    fn intersect(&mut self, other: &Set) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
    }
}

/// The copies available on entry to each block: the greatest solution of
/// `in[b] = ∩ out[p]` over b's predecessors (none on entry to the program), where
/// `out[b]` is what b's own instructions leave of `in[b]` plus the copies b makes. With
/// `logical_only` (the `copyprop-nomask-divergent-loop` zoo bug, §11.12) physical edges
/// are ignored.
fn available_on_entry(
    p: &Program,
    copies: &[(usize, usize, Copy)],
    logical_only: bool,
) -> Vec<Set> {
    let n = copies.len();
    let nb = p.blocks.len();
    let cfg = Cfg::build(p);
    // Per block: copies it kills, and the copies it makes that reach its end.
    let mut kill = vec![Set::empty(n); nb];
    let mut gen_ = vec![Set::empty(n); nb];
    for (b, block) in p.blocks.iter().enumerate() {
        for (k, inst) in block.insts.iter().enumerate() {
            for (i, (_, _, c)) in copies.iter().enumerate() {
                if clobbers(inst, &c.dst) || clobbers(inst, &c.src) {
                    kill[b].insert(i);
                    gen_[b].remove(i);
                }
            }
            if let Some(i) = copies.iter().position(|&(cb, ck, _)| cb == b && ck == k) {
                gen_[b].insert(i);
            }
        }
    }
    let mut ins = vec![Set::empty(n); nb];
    let mut outs = vec![Set::full(n); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..nb {
            let mut in_b = if b == 0 {
                Set::empty(n)
            } else {
                let mut acc = Set::full(n);
                let mut any = false;
                for e in &cfg.preds[b] {
                    if logical_only && e.kind != EdgeKind::Logical {
                        continue;
                    }
                    acc.intersect(&outs[e.to]);
                    any = true;
                }
                if any { acc } else { Set::empty(n) }
            };
            let mut out_b = in_b.clone();
            for (w, k) in out_b.0.iter_mut().zip(&kill[b].0) {
                *w &= !k;
            }
            for (w, g) in out_b.0.iter_mut().zip(&gen_[b].0) {
                *w |= g;
            }
            if in_b != ins[b] || out_b != outs[b] {
                changed = true;
                std::mem::swap(&mut ins[b], &mut in_b);
                outs[b] = out_b;
            }
        }
    }
    ins
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_copy_propagation",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// The zoo's `rotate-count-endless-loop`, a fault rather than wrong code: an immediate
/// rotate count reduced modulo the type's width by repeated subtraction, with the width
/// read as 0, so the loop never ends.
#[cfg(feature = "zoo")]
fn reduced_rotate_count(count: u64, width: u64) -> u64 {
    let mut c = count;
    while c >= width {
        c = std::hint::black_box(c - width);
    }
    c
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    #[cfg(feature = "zoo")]
    if crate::zoo!(opts, RotateCountEndlessLoop) {
        for count in p
            .insts()
            .filter(|i| i.op == Opcode::Ror)
            .filter_map(|i| i.imm_src(1))
        {
            std::hint::black_box(reduced_rotate_count(count, 0));
        }
    }
    // Every copy of the program as written (before this run rewrites any source): the
    // dataflow's kills are writes of these registers.
    let copies: Vec<(usize, usize, Copy)> = p
        .blocks
        .iter()
        .enumerate()
        .flat_map(|(b, block)| {
            block
                .insts
                .iter()
                .enumerate()
                .filter_map(move |(k, inst)| copy_of(inst).map(|c| (b, k, c)))
        })
        .collect();
    let logical_only = crate::zoo!(opts, CopypropNomaskDivergentLoop);
    let entry = available_on_entry(p, &copies, logical_only);
    let mut progress = false;
    for (b, block) in p.blocks.iter_mut().enumerate() {
        let mut avail: Vec<Copy> = copies
            .iter()
            .enumerate()
            .filter(|(i, _)| entry[b].contains(*i))
            .map(|(_, &(_, _, c))| Copy { across: true, ..c })
            .collect();
        for inst in block.insts.iter_mut() {
            progress |= propagate_into(inst, &avail, opts);
            avail.retain(|c| !clobbers(inst, &c.dst) && !clobbers(inst, &c.src));
            if let Some(c) = copy_of(inst) {
                avail.push(c);
            }
        }
    }
    Ok(progress)
}
