//! `opt_cse` (docs/hardware/brw-backend.md §7.1 step 3): local common-subexpression elimination. An
//! instruction that recomputes a value an earlier instruction of the same block computed —
//! and whose result still sits in that instruction's destination — becomes a copy of it.
//!
//! The key is the whole instruction but its destination register: opcode, every source
//! exactly (register, offset, stride, type, modifiers), destination type and stride, exec
//! size, group and NoMask (Mesa 70171a9c89e: NoMask/sechalf ignored when matching), and
//! saturate. Predicated instructions, conditional modifiers and accumulator users are never
//! candidates (their effects go beyond the destination; §10.3 33 `add3.nz`), nor are
//! messages, LOAD_PAYLOAD and control flow. The copy keeps the recomputing instruction's
//! exec controls (Mesa e7069fbc701).

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Contract, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{Reg, RegKind};

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &["cse-negated-mul", "cse-commuted", "cse"];

/// How a recomputation matches an available expression.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Match {
    Same,
    Commuted,
    /// §11.20 (zoo): `mul d2, a, b` taken as the negation of `mul d1, -a, b` — which
    /// `.sat` breaks (Mesa 1567da1e282).
    Negated,
}

/// Where an operand's value lives, for killing expressions on writes: a VGRF or ATTR number.
fn home(r: &Reg) -> Option<(bool, u32)> {
    match r.kind {
        RegKind::Vgrf { nr, .. } => Some((true, nr)),
        RegKind::Attr { nr, .. } => Some((false, nr)),
        _ => None,
    }
}

/// Whether `inst` computes a pure value into a packed VGRF from operands whose contents
/// only change through VGRF/ATTR writes the pass sees.
fn is_candidate(inst: &Inst) -> bool {
    use Opcode::*;
    let pure_op = !inst.op.is_message()
        && !inst.op.is_control_flow()
        && !matches!(inst.op, LoadPayload | Mach | Mac | Addc | Subb | Nop);
    let plain_sources = inst.srcs.iter().all(|s| {
        matches!(
            s.kind,
            RegKind::Vgrf { .. } | RegKind::Attr { .. } | RegKind::Uniform { .. } | RegKind::Imm(_)
        )
    });
    pure_op
        && plain_sources
        && matches!(inst.dst.kind, RegKind::Vgrf { stride: 1, .. })
        && inst.predicate.is_none()
        && inst.cmod.is_none()
        && !inst.acc_wr
        && !inst.eot
        && !reads_own_destination(inst)
}

/// `add v0, v0, 1` computes a value its own write destroys: it can never be reused.
fn reads_own_destination(inst: &Inst) -> bool {
    inst.srcs
        .iter()
        .any(|s| home(s).is_some() && home(s) == home(&inst.dst))
}

/// Whether `inst`'s two sources may be swapped without changing any bit of the result:
/// logic operations, and integer addition and multiplication. Float ADD/MUL commute in
/// value; with two NaN operands the result carries one of their payloads, and the
/// documents do not say which (docs/hardware/eu-hardware.md §3 is silent), so an integer
/// operation reading the result could tell the orders apart on hardware that prefers an
/// operand by position. The pass keeps them apart, as the safe reading. (The emulator
/// takes the greater NaN whatever the order, `oracle/src/emu/value.rs`, so that Mesa's
/// CSE, which does commute them, is not reported for it.)
fn is_commutative(inst: &Inst) -> bool {
    let floats = std::iter::once(&inst.dst)
        .chain(&inst.srcs)
        .any(|r| r.ty.is_float());
    match inst.op {
        Opcode::And | Opcode::Or | Opcode::Xor => true,
        Opcode::Add | Opcode::Mul => !floats,
        _ => false,
    }
}

/// Whether `b` computes the value `a` computed, and how.
fn same_expression(a: &Inst, b: &Inst, negated_mul: bool) -> Option<Match> {
    let controls = a.op == b.op
        && a.exec_size == b.exec_size
        && a.group == b.group
        && a.nomask == b.nomask
        && a.saturate == b.saturate
        && a.dst.ty == b.dst.ty
        && a.size_written() == b.size_written()
        && a.srcs.len() == b.srcs.len();
    if !controls {
        return None;
    }
    if a.srcs == b.srcs {
        return Some(Match::Same);
    }
    let swapped =
        is_commutative(a) && a.srcs.len() == 2 && a.srcs[0] == b.srcs[1] && a.srcs[1] == b.srcs[0];
    if swapped {
        return Some(Match::Commuted);
    }
    let negation = negated_mul
        && a.op == Opcode::Mul
        && a.srcs[1] == b.srcs[1]
        && a.srcs[0] == b.srcs[0].negated();
    negation.then_some(Match::Negated)
}

/// Whether writing `inst`'s destination changes the value or the holder of `entry`.
fn kills(inst: &Inst, entry: &Inst) -> bool {
    let written = match inst.dst.kind {
        RegKind::Vgrf { .. } | RegKind::Attr { .. } => home(&inst.dst),
        // Fixed-register writes may land on the payload ATTRs are read from.
        RegKind::Fixed { .. } | RegKind::Indirect { .. } => {
            return entry
                .srcs
                .iter()
                .any(|s| matches!(s.kind, RegKind::Attr { .. }));
        }
        _ => None,
    };
    written.is_some()
        && std::iter::once(&entry.dst)
            .chain(&entry.srcs)
            .any(|r| home(r) == written)
}

/// Eliminates recomputations within one block; returns whether any was replaced.
fn cse_block(insts: &mut [Inst], negated_mul: bool) -> bool {
    let mut available: Vec<Inst> = vec![];
    let mut progress = false;
    for inst in insts.iter_mut() {
        if is_candidate(inst)
            && let Some((first, how)) = available
                .iter()
                .find_map(|a| same_expression(a, inst, negated_mul).map(|m| (a, m)))
        {
            note(match how {
                Match::Same => "cse",
                Match::Commuted => "cse-commuted",
                Match::Negated => "cse-negated-mul",
            });
            let source = if how == Match::Negated {
                first.dst.negated()
            } else {
                first.dst
            };
            let mut copy = Inst::new(Opcode::Mov, inst.exec_size, inst.dst, vec![source]);
            copy.group = inst.group;
            copy.nomask = inst.nomask;
            *inst = copy;
            progress = true;
        }
        available.retain(|a| !kills(inst, a));
        if is_candidate(inst) && inst.op != Opcode::Mov {
            available.push(inst.clone());
        }
    }
    progress
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_cse",
    rewrites: REWRITES,
    run,
    postcondition: Some(Contract::EveryRun(crate::contracts::opt_cse::postcondition)),
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let negated_mul = crate::zoo!(opts, CseNegSatMul);
    let mut progress = false;
    for block in &mut p.blocks {
        progress |= cse_block(&mut block.insts, negated_mul);
    }
    Ok(progress)
}
