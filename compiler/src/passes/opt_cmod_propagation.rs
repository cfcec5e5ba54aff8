//! `opt_cmod_propagation` (brw-backend.md §7.1 step 6): a compare of a value with zero
//! (`cmp.cond null, x, 0` or `mov.cond null, x`) is folded into the instruction that
//! produced `x`, which then writes the flag itself, and the compare is deleted.
//!
//! This version takes only the cases every rule of §10.3 allows; anything else is left:
//! - the compare is against the immediate zero of `x`'s own type (§10.3 1), unpredicated,
//!   without source modifiers, and for `mov.cond` without a type conversion (§10.3 15,
//!   §11.17);
//! - the producer is in the same block, writes exactly the compared region with the same
//!   exec size, group and NoMask (§11.16, Mesa 95ac3b1daea, a50d2fdb465), is unpredicated
//!   and unsaturated (§10.3 21), has no modifier of its own, computes in one 32-bit type
//!   with no conversion (§10.3 7, 14, 16, 17; Mesa ddd1706ab37), and is an operation whose
//!   conditional modifier tests its result: not CMP/CMPN (§10.3 10, §11.14), SEL (its
//!   modifier picks min/max, §10.3 20), FBL and friends (§10.3 2), integer MUL (flags
//!   undefined, Mesa 7463d505800) or the carry/borrow ops;
//! - between the two, nothing writes the compared register (§10.3 6) and nothing reads or
//!   writes the flag bits the compare writes (§10.3 4, 5, 11); other flag subregisters do
//!   not matter (the `…_mismatch_flag` cases of §10.3 5).

use crate::inst::{Inst, PredKind};
use crate::opcode::Opcode;
use crate::pipeline::{CompileOptions, note};
use crate::program::Program;
use crate::reg::{Arf, RegKind};
use crate::types::Type;

/// The rewrites this pass notes, most specific first (see `passes::rewrite_kinds`).
pub const REWRITES: &[&str] = &[
    "cmod-across-conversion",
    "cmod-from-mov",
    "cmod-from-cmp-zero",
];

/// Whether `inst` is a compare with zero this pass can fold: the rewrite kind it notes.
/// `through_conversion` injects §11.17 (zoo): a `mov.cond` that converts is folded too.
fn zero_compare(inst: &Inst, through_conversion: bool) -> Option<&'static str> {
    let cmod = inst.cmod?;
    let x = inst.srcs.first()?;
    let plain = inst.dst.is_null()
        && inst.predicate.is_none()
        && !inst.saturate
        && !inst.acc_wr
        && !x.negate
        && !x.abs
        && matches!(x.kind, RegKind::Vgrf { .. })
        && matches!(x.ty, Type::F | Type::D | Type::UD)
        && !matches!(
            cmod,
            crate::inst::CondMod::R | crate::inst::CondMod::O | crate::inst::CondMod::U
        );
    if !plain {
        return None;
    }
    match inst.op {
        Opcode::Mov if inst.dst.ty == x.ty => Some("cmod-from-mov"),
        Opcode::Mov if through_conversion && inst.dst.ty.size() == x.ty.size() => {
            Some("cmod-across-conversion")
        }
        Opcode::Cmp => {
            let zero = inst.srcs.get(1)?;
            (zero.imm_bits() == Some(0) && zero.ty == x.ty && !zero.negate && !zero.abs)
                .then_some("cmod-from-cmp-zero")
        }
        _ => None,
    }
}

/// Whether `op` sets its conditional modifier from its own result (see the module notes).
fn tests_own_result(op: Opcode, ty: Type) -> bool {
    use Opcode::*;
    match op {
        Mul => ty == Type::F,
        Add | Add3 | And | Or | Xor | Not | Shr | Shl | Asr | Avg | Mov | Frc | Rndu | Rndd
        | Rnde | Rndz | Mad | Lrp => true,
        _ => false,
    }
}

/// Whether `producer` wrote exactly the value `compare` tests and may carry its modifier.
/// The type is the one the flag tests: a `mov.cond`'s destination type (equal to its
/// source's, unless §11.17 is injected).
fn is_foldable_producer(producer: &Inst, compare: &Inst) -> bool {
    let x = &compare.srcs[0];
    let ty = if compare.op == Opcode::Mov {
        compare.dst.ty
    } else {
        x.ty
    };
    let no_conversion = producer.srcs.iter().all(|s| s.ty == ty);
    producer.dst.kind == x.kind
        && producer.dst.ty == ty
        && producer.size_written() == compare.size_read(0)
        && producer.exec_size == compare.exec_size
        && producer.group == compare.group
        && producer.nomask == compare.nomask
        && producer.predicate.is_none()
        && producer.cmod.is_none()
        && !producer.saturate
        && !producer.acc_wr
        && no_conversion
        && tests_own_result(producer.op, ty)
}

/// Flag bits `[first, end)` an instruction reads or writes through its predicate or
/// conditional modifier; an explicit flag operand or a horizontal predicate touches them
/// all (conservatively).
fn flag_range(inst: &Inst) -> Option<(u32, u32)> {
    let explicit = std::iter::once(&inst.dst).chain(&inst.srcs).any(|r| {
        matches!(
            r.kind,
            RegKind::Arf {
                file: Arf::Flag,
                ..
            }
        )
    });
    let horizontal = inst.predicate.is_some_and(|p| p.kind != PredKind::Normal);
    if explicit || horizontal {
        return Some((0, u32::MAX));
    }
    // On Gen4/5 `sel.cond` is a CMPN + SEL pair that writes the flag (§10.3 20).
    let sel_cond = inst.op == Opcode::Sel && inst.cmod.is_some();
    (inst.predicate.is_some() || inst.writes_flag() || sel_cond).then(|| {
        let (first, count) = inst.flag_bits();
        (first, first + count)
    })
}

fn overlaps(a: (u32, u32), b: (u32, u32)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// Whether `inst` writes any byte of the VGRF the compared value lives in.
fn writes_vgrf(inst: &Inst, nr: u32) -> bool {
    matches!(inst.dst.kind, RegKind::Vgrf { nr: n, .. } if n == nr)
}

/// The index of the producer `insts[at]` may be folded into, if any.
fn foldable_producer(insts: &[Inst], at: usize) -> Option<usize> {
    let compare = &insts[at];
    let RegKind::Vgrf { nr, .. } = compare.srcs[0].kind else {
        return None;
    };
    let flags = flag_range(compare)?;
    for j in (0..at).rev() {
        let inst = &insts[j];
        if writes_vgrf(inst, nr) {
            return is_foldable_producer(inst, compare).then_some(j);
        }
        if flag_range(inst).is_some_and(|r| overlaps(r, flags)) {
            return None;
        }
    }
    None
}

/// Folds the compares of one block; returns whether any was folded.
fn propagate_block(insts: &mut Vec<Inst>, through_conversion: bool) -> bool {
    let mut progress = false;
    let mut at = 0;
    while at < insts.len() {
        let kind = zero_compare(&insts[at], through_conversion);
        match kind.and_then(|k| foldable_producer(insts, at).map(|j| (k, j))) {
            Some((kind, j)) => {
                let compare = insts.remove(at);
                insts[j].cmod = compare.cmod;
                insts[j].flag_subreg = compare.flag_subreg;
                note(kind);
                progress = true;
            }
            None => at += 1,
        }
    }
    progress
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, String> {
    let through_conversion = crate::zoo!(opts, CmodThroughConversion);
    let mut progress = false;
    for block in &mut p.blocks {
        progress |= propagate_block(&mut block.insts, through_conversion);
    }
    Ok(progress)
}
