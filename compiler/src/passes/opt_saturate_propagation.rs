//! `opt_saturate_propagation` (docs/hardware/brw-backend.md §7.1 step 11): `.sat` moves from a
//! `mov.sat y, x` into the instruction that produced `x`, and the MOV becomes a plain copy
//! (which copy propagation and DCE may then remove). When the producer already saturates,
//! the MOV's `.sat` is a no-op and is dropped.
//!
//! This version takes only the cases every rule of §7.4 and §10.3 22–29 allows:
//! - the MOV is `mov.sat y, x` with no predicate, conditional modifier, accumulator update
//!   or source modifier (§10.3 24, 25: a negated or absolute source cannot be pushed into
//!   the producer in general), and `y`, `x` and the producer's destination all have the
//!   same float type: only for floats does `.sat` mean the clamp to [0, 1] (docs/hardware/eu-hardware.md
//!   §3.5; an integer `.sat` clamps the full-precision result to the destination's range,
//!   §11.19 / Mesa 35a2d259f27);
//! - the producer is the last instruction before the MOV in the same block that writes any
//!   byte of `x`'s VGRF (§10.3 27, Mesa d5d8bb1dbbb), and it writes exactly the region the
//!   MOV reads with the same exec size, group and NoMask (§10.3 28);
//! - it is unpredicated — a predicate makes it a partial write (§10.3 23, Mesa
//!   7a7b8a02bed) — except SEL, whose predicate selects between its sources (docs/hardware/eu-hardware.md
//!   §2.3); it has no flag-writing conditional modifier (that tests the result after
//!   saturation, docs/hardware/brw-backend.md §1.7) and no accumulator update; every source is a float
//!   (no conversion from an integer); and its opcode is one with a float result that can
//!   saturate: MOV, SEL, ADD, MUL, MAD, LRP, FRC and the RND family (docs/hardware/eu-hardware.md §3.5
//!   lists what cannot; the math functions are left out as the conservative reading);
//! - the MOV is the only instruction of the whole program that reads the producer's VGRF
//!   (§10.3 22, 26, 29: any other reader — later, in between, in another block or the
//!   producer itself in a loop — would see the saturated value).

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::RegKind;
use std::collections::BTreeMap;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &[
    "sat-into-mismatched-type",
    "sat-into-producer",
    "sat-redundant",
];

/// How many operands of the whole program read each VGRF.
fn vgrf_reads(p: &Program) -> BTreeMap<u32, usize> {
    let mut reads = BTreeMap::new();
    for inst in p.insts() {
        for s in &inst.srcs {
            if let RegKind::Vgrf { nr, .. } = s.kind {
                *reads.entry(nr).or_insert(0) += 1;
            }
        }
    }
    reads
}

/// The VGRF number `mov` reads, when it is a saturating MOV this pass may rewrite.
fn saturating_copy(mov: &Inst) -> Option<u32> {
    let x = mov.srcs.first()?;
    let plain = mov.op == Opcode::Mov
        && mov.saturate
        && mov.predicate.is_none()
        && mov.cmod.is_none()
        && !mov.acc_wr
        && !x.negate
        && !x.abs;
    match x.kind {
        RegKind::Vgrf { nr, .. } if plain => Some(nr),
        _ => None,
    }
}

/// Whether the types allow the move: the MOV's source and destination and the producer's
/// destination are one float type, and the producer computes from float sources. With
/// `ignore_types` (§11.19, zoo) any types pass.
fn types_match(producer: &Inst, mov: &Inst, ignore_types: bool) -> bool {
    let ty = mov.dst.ty;
    ignore_types
        || (ty.is_float()
            && mov.srcs[0].ty == ty
            && producer.dst.ty == ty
            && producer.srcs.iter().all(|s| s.ty.is_float()))
}

/// Whether `producer` wrote exactly the value `mov` reads, under the same channel controls.
fn writes_what_mov_reads(producer: &Inst, mov: &Inst) -> bool {
    producer.dst.kind == mov.srcs[0].kind
        && producer.size_written() == mov.size_read(0)
        && producer.exec_size == mov.exec_size
        && producer.group == mov.group
        && producer.nomask == mov.nomask
}

/// Whether `.sat` on `producer` clamps its result and nothing else (the predicate is checked
/// apart): see the module notes.
fn can_take_saturate(producer: &Inst) -> bool {
    use Opcode::*;
    let op_ok = matches!(
        producer.op,
        Mov | Sel | Add | Mul | Mad | Lrp | Frc | Rndu | Rndd | Rnde | Rndz
    );
    op_ok && !producer.writes_flag() && !producer.acc_wr && !producer.eot
}

/// What to do with the MOV at `at` of a block.
enum Rewrite {
    /// Set `.sat` on the producer at this index; the MOV loses its own.
    IntoProducer(usize),
    /// The producer already saturates: the MOV loses its `.sat`.
    Redundant,
}

fn rewrite_for(
    insts: &[Inst],
    at: usize,
    reads: &BTreeMap<u32, usize>,
    ignore_types: bool,
) -> Option<Rewrite> {
    let mov = &insts[at];
    let nr = saturating_copy(mov)?;
    let j = (0..at)
        .rev()
        .find(|&j| matches!(insts[j].dst.kind, RegKind::Vgrf { nr: n, .. } if n == nr))?;
    let producer = &insts[j];
    if !writes_what_mov_reads(producer, mov) {
        return None;
    }
    let whole_write = producer.predicate.is_none() || producer.op == Opcode::Sel;
    if producer.saturate {
        // A float `.sat` leaves a value already clamped to [0, 1] unchanged — if the
        // producer wrote every channel the MOV reads.
        return (whole_write && types_match(producer, mov, false)).then_some(Rewrite::Redundant);
    }
    if !types_match(producer, mov, ignore_types) {
        return None;
    }
    let only_reader = reads.get(&nr) == Some(&1);
    (only_reader && whole_write && can_take_saturate(producer)).then_some(Rewrite::IntoProducer(j))
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_saturate_propagation",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let ignore_types = crate::zoo!(opts, SatpropTypeMismatch);
    let reads = vgrf_reads(p);
    let mut progress = false;
    for block in &mut p.blocks {
        for at in 0..block.insts.len() {
            match rewrite_for(&block.insts, at, &reads, ignore_types) {
                Some(Rewrite::IntoProducer(j)) => {
                    note(if types_match(&block.insts[j], &block.insts[at], false) {
                        "sat-into-producer"
                    } else {
                        "sat-into-mismatched-type"
                    });
                    block.insts[j].saturate = true;
                }
                Some(Rewrite::Redundant) => note("sat-redundant"),
                None => continue,
            }
            block.insts[at].saturate = false;
            progress = true;
        }
    }
    Ok(progress)
}
