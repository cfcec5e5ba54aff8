//! `opt_cmod_propagation` (docs/hardware/brw-backend.md §7.1 step 6): a test of a value the block computed
//! earlier — `cmp.cond null, x, 0`, `mov.cond null, x`, `and.nz null, x, 1`, `not.cond null,
//! x` — is folded into the instruction that produced `x`, which then writes the flag itself,
//! and the test is deleted; and `cmp.cond null, a, b` is merged into an earlier
//! `add d, a, -b` (the subtract merge). Every rule below is one of §10.3 1–21, §11.14–18 or
//! §1.7; anything else is left alone.
//!
//! Tests with zero (`cmp.cond null, x, 0`, `mov.cond null, x`):
//! - the compare is against the immediate zero of `x`'s own type (§10.3 1), unpredicated,
//!   without source modifiers, and `mov.cond` converts nothing (§10.3 15, 16, §11.17);
//!   a conditional modifier tests the result after saturation and conversion (§1.7);
//! - the producer is in the same block, writes exactly the tested region with the same
//!   exec size, group and NoMask (§11.16, Mesa 95ac3b1daea, a50d2fdb465), is unpredicated
//!   and unsaturated (§10.3 21), computes in one 32-bit type with no conversion (§10.3 7,
//!   14, 16, 17; Mesa ddd1706ab37), and is an operation whose conditional modifier tests its
//!   result: not SEL (its modifier picks min/max, §10.3 20), FBL and friends or virtual
//!   operations (§10.3 2, 3), integer MUL (flags undefined, §1.7) or the carry/borrow ops;
//! - the tested type may differ from the producer's only in signedness (D/UD), and then only
//!   for Z/NZ: equality with zero does not depend on the sign, inequalities do (§10.3 14, 17);
//! - a producer that already writes a flag keeps writing one flag: the fold needs the same
//!   flag subregister (§11.15) and then replaces its condition, or drops the test when the
//!   condition is the same.
//!
//! Tests of a CMP's boolean (all ones or zero per channel, §1.7):
//! - `cmp.nz null, d, 0`, `mov.nz null, d` and `and.nz null, d, 1` test exactly the CMP's
//!   own condition, which the CMP already wrote to the flag: the test is dropped when it
//!   writes the same flag bits (§10.3 8, 10). `and` with any other mask tests other bits
//!   (§10.3 8), `and.z` and G/L forms do not test the condition (§10.3 9, 10: all ones is
//!   NaN as F, −1 as D, and never below zero as UD);
//! - `cmp.z null, d, 0` / `mov.z null, d` test its negation (§11.14): folded only by
//!   inverting the CMP, which changes `d`, so only when nothing else reads `d` and the
//!   condition has an exact inverse (Z/NZ; L/GE and G/LE on integers — a float NaN makes
//!   both L and GE false).
//!
//! `not.cond null, d` (Z/NZ) tests `~d`: for a boolean `d` that is `d`'s opposite test, so it
//! is folded as the inverted condition into an AND/OR whose sources are all booleans (CMP
//! results or the immediates 0 / all ones); for any other value `~d != 0` is not `d == 0`
//! (§10.3 18, 19).
//!
//! Subtract merge (§10.3 12, 13, 21, §11.18): `add d, a, -b` … `cmp.cond null, a, b` becomes
//! `add.cond d, a, -b` when the difference's sign answers the compare exactly: on floats only
//! L and G (`Inf − Inf` is NaN, which fails LE/GE/Z and passes NZ), on integers only Z/NZ (the
//! difference wraps); the add is unsaturated, `a` and `b` are not written in between, and it
//! is a difference, not a sum.
//!
//! In every case nothing between the two instructions reads or writes the flag bits the test
//! writes (§10.3 4, 5, 11, 19); other flag subregisters do not matter (the `…_mismatch_flag`
//! cases of §10.3 5). On Gen4/5 `sel.cond` is a CMPN + SEL pair on a flag chosen later and
//! counts as touching every flag (§10.3 20).

use crate::inst::{CondMod, Inst, PredKind};
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{Arf, Reg, RegKind};
use crate::types::Type;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`). The
/// controls a fold crossed (NoMask, another flag subregister) come before the kind of fold:
/// they go with every kind of fold, and a reduced reproducer keeps them only where the
/// failure needs them, so a reproducer that still has one fails by that rule.
const REWRITES: &[&str] = &[
    "cmod-nomask",
    "cmod-flag-subreg",
    "cmod-sub-merge",
    "cmod-not-inverted",
    "cmod-and-one",
    "cmod-cmp-inverted",
    "cmod-cmp-into-cmp",
    "cmod-across-conversion",
    "cmod-redundant",
    "cmod-sign-reinterpreted",
    "cmod-from-mov",
    "cmod-from-cmp-zero",
];

/// The zoo bugs this pass can inject (docs/hardware/brw-backend.md §11.14–18).
#[derive(Clone, Copy, Default)]
struct Bugs {
    /// §11.17: a `mov.cond` that converts between same-size types is folded too.
    through_conversion: bool,
    /// §11.14: a Z test of a CMP's boolean is dropped as if it were the CMP's own condition.
    into_cmp: bool,
    /// §11.15: the flag subregister is neither compared nor moved onto the producer.
    flag_subreg: bool,
    /// §11.16: a NoMask test folds into a masked producer (and the reverse).
    writemask: bool,
    /// §11.18: the subtract merge takes every condition.
    sub_merge_inf: bool,
}

/// How a test instruction tests its first source.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Test {
    /// `cmp.cond null, x, 0`, or `mov.cond null, x` (`from_mov`): `x` (read as its own type)
    /// compared with zero as `tested`.
    Zero { tested: Type, from_mov: bool },
    /// `and.nz null, x, 1`.
    AndOne,
    /// `not.z` / `not.nz null, x`.
    Not,
}

fn is_flag(r: &Reg) -> bool {
    matches!(
        r.kind,
        RegKind::Arf {
            file: Arf::Flag,
            ..
        }
    )
}

fn is_32bit(ty: Type) -> bool {
    matches!(ty, Type::F | Type::D | Type::UD)
}

/// Whether `ty` and `other` give the same answer to `cmod` on the same bits: equal, or D/UD
/// for Z/NZ (§10.3 14, 17).
fn same_test(ty: Type, other: Type, cmod: CondMod) -> bool {
    ty == other
        || (matches!(cmod, CondMod::Z | CondMod::Nz)
            && matches!(ty, Type::D | Type::UD)
            && matches!(other, Type::D | Type::UD))
}

/// The common shape of a test: flag-writing, into null, unpredicated, unsaturated, with a
/// defined comparison condition.
fn is_plain_test(inst: &Inst) -> bool {
    inst.dst.is_null()
        && inst.predicate.is_none()
        && !inst.saturate
        && !inst.acc_wr
        && matches!(
            inst.cmod,
            Some(CondMod::Z | CondMod::Nz | CondMod::G | CondMod::Ge | CondMod::L | CondMod::Le)
        )
        && !inst.srcs.iter().any(is_flag)
}

/// What `inst` tests of its first source, if it is a test this pass folds into a producer.
fn classify(inst: &Inst, bugs: Bugs) -> Option<Test> {
    let cmod = inst.cmod?;
    let x = inst.srcs.first()?;
    let plain = is_plain_test(inst)
        && !x.negate
        && !x.abs
        && matches!(x.kind, RegKind::Vgrf { .. })
        && is_32bit(x.ty);
    if !plain {
        return None;
    }
    let imm_is = |i: usize, bits: u64| {
        inst.srcs
            .get(i)
            .is_some_and(|r| r.imm_bits() == Some(bits) && r.ty == x.ty && !r.negate && !r.abs)
    };
    let nz_or_z = matches!(cmod, CondMod::Z | CondMod::Nz);
    match inst.op {
        Opcode::Mov if same_test(x.ty, inst.dst.ty, cmod) => Some(Test::Zero {
            tested: inst.dst.ty,
            from_mov: true,
        }),
        Opcode::Mov if bugs.through_conversion && inst.dst.ty.size() == x.ty.size() => {
            Some(Test::Zero {
                tested: inst.dst.ty,
                from_mov: true,
            })
        }
        Opcode::Cmp if imm_is(1, 0) => Some(Test::Zero {
            tested: x.ty,
            from_mov: false,
        }),
        Opcode::And if cmod == CondMod::Nz && x.ty.is_int() && imm_is(1, 1) => Some(Test::AndOne),
        Opcode::Not if nz_or_z && x.ty.is_int() && inst.dst.ty == x.ty => Some(Test::Not),
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

/// Whether `producer` runs on exactly the channels `test` runs on and writes exactly the
/// region `test` reads, unpredicated: the per-channel value and flag bits line up (§11.16).
fn same_channels(producer: &Inst, test: &Inst, bugs: Bugs) -> bool {
    producer.dst.kind == test.srcs[0].kind
        && producer.size_written() == test.size_read(0)
        && producer.exec_size == test.exec_size
        && producer.group == test.group
        && (producer.nomask == test.nomask || bugs.writemask)
        && producer.predicate.is_none()
        && !producer.acc_wr
        && !std::iter::once(&producer.dst)
            .chain(&producer.srcs)
            .any(is_flag)
}

/// Flag bits `[first, end)` an instruction reads or writes through its predicate or
/// conditional modifier; an explicit flag operand or a horizontal predicate touches them
/// all (conservatively). On Gen4/5 (`gen45`) a `sel.cond` is a CMPN + SEL pair on a flag
/// `lower_alu_restrictions` picks among those not live there (§10.3 20, §7.1 `lower_minmax`):
/// it counts as touching every flag, so a fold never leaves it none.
fn flag_range(inst: &Inst, gen45: bool) -> Option<(u32, u32)> {
    let explicit = std::iter::once(&inst.dst).chain(&inst.srcs).any(is_flag);
    let horizontal = inst.predicate.is_some_and(|p| p.kind != PredKind::Normal);
    let minmax = gen45 && inst.op == Opcode::Sel && inst.cmod.is_some();
    if explicit || horizontal || minmax {
        return Some((0, u32::MAX));
    }
    (inst.predicate.is_some() || inst.writes_flag()).then(|| {
        let (first, count) = inst.flag_bits();
        (first, first + count)
    })
}

fn overlaps(a: (u32, u32), b: (u32, u32)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// Whether `inst` may write any byte of the storage `r` reads: the same VGRF or ATTR, or
/// (conservatively) any fixed, architecture or indirect register.
fn may_write(inst: &Inst, r: &Reg) -> bool {
    match (inst.dst.kind, r.kind) {
        (_, RegKind::Imm(_) | RegKind::Uniform { .. } | RegKind::Null) => false,
        (RegKind::Vgrf { nr: a, .. }, RegKind::Vgrf { nr: b, .. })
        | (RegKind::Attr { nr: a, .. }, RegKind::Attr { nr: b, .. }) => a == b,
        (
            RegKind::Null
            | RegKind::Vgrf { .. }
            | RegKind::Attr { .. }
            | RegKind::Uniform { .. }
            | RegKind::Imm(_),
            _,
        ) => false,
        _ => true,
    }
}

/// The index of the last instruction before `at` that writes the VGRF `insts[at]` tests,
/// if no instruction in between touches the flag bits the test writes.
fn producer_of(insts: &[Inst], at: usize, gen45: bool) -> Option<usize> {
    let test = &insts[at];
    let flags = flag_range(test, gen45)?;
    for j in (0..at).rev() {
        if may_write(&insts[j], &test.srcs[0]) {
            return Some(j);
        }
        if flag_range(&insts[j], gen45).is_some_and(|r| overlaps(r, flags)) {
            return None;
        }
    }
    None
}

/// The condition true exactly when `cmod` is false, for a CMP of sources of `ty`; floats
/// have none for the inequalities (NaN makes both L and GE false, §1.7).
fn inverse(cmod: CondMod, ty: Type) -> Option<CondMod> {
    use CondMod::*;
    match cmod {
        Z => Some(Nz),
        Nz => Some(Z),
        L if ty.is_int() => Some(Ge),
        Ge if ty.is_int() => Some(L),
        G if ty.is_int() => Some(Le),
        Le if ty.is_int() => Some(G),
        _ => None,
    }
}

/// Whether `inst` is a CMP/CMPN whose flag and destination hold a defined condition.
fn is_boolean_producer(inst: &Inst) -> bool {
    matches!(inst.op, Opcode::Cmp | Opcode::Cmpn)
        && inst
            .cmod
            .is_some_and(|c| !matches!(c, CondMod::O | CondMod::R))
        && !inst.saturate
        && inst.dst.ty.size() == 4
}

/// Whether source `i` of `insts[at]` is known to hold 0 or all ones in every channel
/// `insts[at]` runs: such an immediate, or the result of a CMP in this block that writes
/// exactly that region on the same channels.
fn is_boolean_source(insts: &[Inst], at: usize, i: usize) -> bool {
    let consumer = &insts[at];
    let src = &consumer.srcs[i];
    if src.negate || src.abs || src.ty.size() != 4 {
        return false;
    }
    if let Some(bits) = src.imm_bits() {
        return bits == 0 || bits == 0xffff_ffff;
    }
    if !matches!(src.kind, RegKind::Vgrf { .. }) {
        return false;
    }
    let Some(j) = (0..at).rev().find(|&j| may_write(&insts[j], src)) else {
        return false;
    };
    let writer = &insts[j];
    is_boolean_producer(writer)
        && writer.dst.kind == src.kind
        && writer.size_written() == consumer.size_read(i)
        && writer.exec_size == consumer.exec_size
        && writer.group == consumer.group
        && writer.nomask == consumer.nomask
        && writer.predicate.is_none()
}

/// A fold found for the test at `at`.
enum Fold {
    /// Drop the test: the producer already wrote the flag it writes.
    Drop(&'static str),
    /// Give the producer this condition (on the test's flag) and drop the test.
    Move(CondMod, &'static str),
}

/// Whether anything but `insts[at]` reads VGRF `nr` anywhere in the program (`reads` counts
/// the reading instructions per VGRF before the pass).
fn read_elsewhere(reads: &[u32], nr: u32) -> bool {
    reads.get(nr as usize).is_none_or(|&n| n > 1)
}

/// The fold of the test `insts[at]` into the producer `insts[j]`, if one is exact.
fn fold_into(
    insts: &[Inst],
    at: usize,
    j: usize,
    test: Test,
    reads: &[u32],
    bugs: Bugs,
) -> Option<Fold> {
    let (t, producer) = (&insts[at], &insts[j]);
    let cmod = t.cmod?;
    if !same_channels(producer, t, bugs) || producer.saturate {
        return None;
    }
    let same_flag = producer.flag_subreg == t.flag_subreg || bugs.flag_subreg;
    if is_boolean_producer(producer) {
        // §10.3 8–10, §11.14: tests of the CMP's all-ones/zero result.
        let kind = if test == Test::AndOne {
            "cmod-and-one"
        } else {
            "cmod-cmp-into-cmp"
        };
        let tests_condition = match test {
            Test::AndOne => true,
            Test::Zero { tested, .. } if same_test(t.srcs[0].ty, tested, cmod) => {
                cmod == CondMod::Nz || (bugs.into_cmp && cmod == CondMod::Z)
            }
            Test::Zero { .. } | Test::Not => return None,
        };
        if !same_flag {
            return None;
        }
        if tests_condition {
            return Some(Fold::Drop(kind));
        }
        let RegKind::Vgrf { nr, .. } = t.srcs[0].kind else {
            return None;
        };
        let invertible = matches!(test, Test::Zero { .. })
            && cmod == CondMod::Z
            && producer.op == Opcode::Cmp
            && !read_elsewhere(reads, nr);
        let inverted = inverse(producer.cmod?, producer.srcs[0].ty)
            .filter(|_| invertible && producer.srcs[0].ty == producer.srcs[1].ty)?;
        return Some(Fold::Move(inverted, "cmod-cmp-inverted"));
    }
    let ty = producer.dst.ty;
    if !tests_own_result(producer.op, ty) || !producer.srcs.iter().all(|s| s.ty == ty) {
        return None;
    }
    let (wanted, kind) = match test {
        Test::Zero { tested, from_mov } => {
            let x = t.srcs[0].ty;
            let kind = if !same_test(x, tested, cmod) {
                // Only a `mov.cond` with §11.17 injected converts (see `classify`).
                if ty != tested {
                    return None;
                }
                "cmod-across-conversion"
            } else if !same_test(ty, x, cmod) {
                return None;
            } else if ty != x || x != tested {
                "cmod-sign-reinterpreted"
            } else if from_mov {
                "cmod-from-mov"
            } else {
                "cmod-from-cmp-zero"
            };
            (cmod, kind)
        }
        Test::AndOne => return None,
        Test::Not => {
            let booleans = matches!(producer.op, Opcode::And | Opcode::Or)
                && ty == t.srcs[0].ty
                && (0..producer.srcs.len()).all(|i| is_boolean_source(insts, j, i));
            if !booleans {
                return None;
            }
            (inverse(cmod, ty)?, "cmod-not-inverted")
        }
    };
    match producer.cmod {
        None => Some(Fold::Move(wanted, kind)),
        Some(_) if !same_flag => None,
        Some(c) if c == wanted => Some(Fold::Drop("cmod-redundant")),
        Some(_) => Some(Fold::Move(wanted, kind)),
    }
}

/// The `add d, a, -b` that `cmp.cond null, a, b` at `at` can be merged into, if any.
fn sub_merge_producer(insts: &[Inst], at: usize, bugs: Bugs, gen45: bool) -> Option<usize> {
    let cmp = &insts[at];
    let cmod = cmp.cmod?;
    if cmp.op != Opcode::Cmp || !is_plain_test(cmp) || cmp.srcs.len() != 2 {
        return None;
    }
    let (a, b) = (&cmp.srcs[0], &cmp.srcs[1]);
    let storage = |r: &Reg| {
        matches!(
            r.kind,
            RegKind::Vgrf { .. } | RegKind::Attr { .. } | RegKind::Uniform { .. } | RegKind::Imm(_)
        )
    };
    if a.ty != b.ty || !storage(a) || !storage(b) || a.is_imm() {
        return None;
    }
    // §10.3 13, §11.18: only where the difference's sign answers the compare.
    let exact = match a.ty {
        Type::F => matches!(cmod, CondMod::L | CondMod::G),
        Type::D | Type::UD => matches!(cmod, CondMod::Z | CondMod::Nz),
        _ => false,
    };
    if !is_32bit(a.ty) || !(exact || bugs.sub_merge_inf) {
        return None;
    }
    let minus_b = match b.imm_bits() {
        Some(bits) if !b.negate && !b.abs => {
            let negated = if a.ty == Type::F {
                bits ^ 0x8000_0000
            } else {
                (bits as u32).wrapping_neg() as u64
            };
            Reg::imm(negated, b.ty)
        }
        Some(_) => return None,
        None => Reg {
            negate: !b.negate,
            ..*b
        },
    };
    let flags = flag_range(cmp, gen45)?;
    for j in (0..at).rev() {
        let inst = &insts[j];
        let is_difference = inst.op == Opcode::Add
            && inst.srcs.len() == 2
            && inst.srcs[0] == *a
            && inst.srcs[1] == minus_b
            && inst.dst.ty == a.ty
            && matches!(inst.dst.kind, RegKind::Vgrf { .. })
            && inst.cmod.is_none()
            && inst.predicate.is_none()
            && !inst.saturate
            && !inst.acc_wr
            && inst.exec_size == cmp.exec_size
            && inst.group == cmp.group
            && (inst.nomask == cmp.nomask || bugs.writemask);
        if may_write(inst, a) || may_write(inst, b) {
            return None;
        }
        if is_difference {
            return Some(j);
        }
        if flag_range(inst, gen45).is_some_and(|r| overlaps(r, flags)) {
            return None;
        }
    }
    None
}

/// Notes the controls a fold of `test` into `producer` crossed: a NoMask difference (the
/// rule forbids it, docs/hardware/brw-backend.md §11.16; only a faulty fold makes one, so a fold between
/// two NoMask instructions, an ordinary one, does not name a reproducer's bucket after it)
/// and a flag subregister moved onto the producer.
fn note_controls(producer: &Inst, test: &Inst) {
    if test.nomask != producer.nomask {
        note("cmod-nomask");
    }
    if test.flag_subreg != producer.flag_subreg {
        note("cmod-flag-subreg");
    }
}

/// Folds the tests of one block; returns whether any was folded.
fn propagate_block(insts: &mut Vec<Inst>, reads: &[u32], bugs: Bugs, gen45: bool) -> bool {
    let mut progress = false;
    let mut at = 0;
    while at < insts.len() {
        let found = classify(&insts[at], bugs).and_then(|test| {
            let j = producer_of(insts, at, gen45)?;
            Some((j, fold_into(insts, at, j, test, reads, bugs)?))
        });
        let found = found.or_else(|| {
            sub_merge_producer(insts, at, bugs, gen45).map(|j| {
                let cmod = insts[at].cmod.expect("a compare");
                (j, Fold::Move(cmod, "cmod-sub-merge"))
            })
        });
        let Some((j, fold)) = found else {
            at += 1;
            continue;
        };
        let test = insts.remove(at);
        note_controls(&insts[j], &test);
        match fold {
            Fold::Drop(kind) => note(kind),
            Fold::Move(cmod, kind) => {
                note(kind);
                insts[j].cmod = Some(cmod);
                if !bugs.flag_subreg {
                    insts[j].flag_subreg = test.flag_subreg;
                }
            }
        }
        progress = true;
    }
    progress
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_cmod_propagation",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let bugs = Bugs {
        through_conversion: crate::zoo!(opts, CmodThroughConversion),
        into_cmp: crate::zoo!(opts, CmodIntoCmp),
        flag_subreg: crate::zoo!(opts, CmodFlagSubreg),
        writemask: crate::zoo!(opts, CmodWritemaskMismatch),
        sub_merge_inf: crate::zoo!(opts, CmodSubMergeInf),
    };
    let gen45 = p.device.info().verx10 < 60;
    let mut reads = vec![0u32; p.vgrf_sizes.len()];
    for inst in p.insts() {
        let mut nrs: Vec<u32> = inst
            .srcs
            .iter()
            .filter_map(|s| match s.kind {
                RegKind::Vgrf { nr, .. } => Some(nr),
                _ => None,
            })
            .collect();
        nrs.sort_unstable();
        nrs.dedup();
        for nr in nrs {
            if let Some(n) = reads.get_mut(nr as usize) {
                *n += 1;
            }
        }
    }
    let mut progress = false;
    for block in &mut p.blocks {
        progress |= propagate_block(&mut block.insts, &reads, bugs, gen45);
    }
    Ok(progress)
}
