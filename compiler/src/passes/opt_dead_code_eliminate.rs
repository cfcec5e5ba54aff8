//! `opt_dead_code_eliminate` (docs/hardware/brw-backend.md §7.1 step 7): removes instructions whose
//! results nothing reads.
//!
//! This version is flow-insensitive, which keeps it obviously right: a VGRF that no
//! instruction anywhere reads holds only dead values, so every write to it can go, and a
//! flag byte no predicate or flag operand anywhere reads is dead too. An instruction
//! goes when all it writes is dead and it has no other effect (messages, control flow, EOT
//! and implicit accumulator writers stay); so does one with a null destination and no live
//! flag result, as in Mesa, which its contract (`contracts::opt_dead_code_eliminate`)
//! checks. One whose VGRF result is dead but whose flag result is live keeps the flag write
//! with a null destination (Mesa 68a4c796d52). Removal repeats until nothing changes, so
//! chains of dead values disappear.

use super::lower_regioning;
use crate::inst::{Inst, PredKind};
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Contract, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{Arf, Reg, RegKind};
use std::collections::{BTreeMap, BTreeSet};

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &["dead-dst-nulled", "dead-flag-write", "dead-value"];

/// Every flag byte could be read: no per-byte answer.
const ALL_FLAGS: u32 = u32::MAX;

/// What the program reads anywhere: how many operands read each VGRF, and the flag bytes
/// read (Mesa's DCE tracks flag liveness by the byte, docs/hardware/brw-backend.md §7.1
/// step 7: a SIMD8 compare into the upper half of f0.0 is dead when only the lower half is
/// read).
struct Reads {
    vgrfs: BTreeMap<u32, usize>,
    flags: BTreeSet<u32>,
}

impl Reads {
    fn of(p: &Program) -> Reads {
        let mut reads = Reads {
            vgrfs: BTreeMap::new(),
            flags: BTreeSet::new(),
        };
        for inst in p.insts() {
            for s in &inst.srcs {
                match s.kind {
                    RegKind::Vgrf { nr, .. } => {
                        *reads.vgrfs.entry(nr).or_default() += 1;
                    }
                    RegKind::Arf {
                        file: Arf::Flag, ..
                    } => {
                        reads.flags.insert(ALL_FLAGS);
                    }
                    _ => {}
                }
            }
            if let Some(pred) = inst.predicate {
                if pred.kind == PredKind::Normal {
                    reads.flags.extend(flag_bytes_of(inst));
                } else {
                    reads.flags.insert(ALL_FLAGS);
                }
            }
        }
        reads
    }

    fn vgrf_live(&self, nr: u32) -> bool {
        self.vgrfs.get(&nr).is_some_and(|&n| n > 0)
    }

    /// Forgets the reads of an instruction that is removed.
    fn forget(&mut self, inst: &Inst) {
        for s in &inst.srcs {
            if let RegKind::Vgrf { nr, .. } = s.kind
                && let Some(n) = self.vgrfs.get_mut(&nr)
            {
                *n -= 1;
            }
        }
    }

    fn flag_live(&self, inst: &Inst) -> bool {
        self.flags.contains(&ALL_FLAGS) || flag_bytes_of(inst).any(|b| self.flags.contains(&b))
    }
}

/// Whether `inst` writes a flag the program can read: a conditional modifier, except on
/// SEL, where it selects the minimum or maximum and writes no flag
/// (docs/hardware/brw-backend.md §10.3 item 20). On Gen4/5 a min/max becomes a CMPN + SEL pair, but
/// `lower_alu_restrictions` gives the CMPN a flag subregister nothing else reads, so a dead
/// min/max is dead whatever flags the program reads elsewhere.
fn writes_flag(inst: &Inst, opts: &CompileOptions) -> bool {
    inst.writes_flag()
        || (inst.op == Opcode::Sel && inst.cmod.is_some() && crate::zoo!(opts, DceMinmaxSelFlag))
}

/// Whether `inst` has effects beyond its destination and flag result.
fn has_other_effects(inst: &Inst) -> bool {
    inst.op.has_side_effects()
        || inst.op.is_message()
        || inst.eot
        || inst.acc_wr
        || matches!(
            inst.op,
            Opcode::Mach | Opcode::Mac | Opcode::Addc | Opcode::Subb | Opcode::Nop
        )
        || std::iter::once(&inst.dst)
            .chain(&inst.srcs)
            .any(|r| r.is_accumulator() || matches!(r.kind, RegKind::Arf { .. }))
}

/// What to do with one instruction.
enum Fate {
    Keep,
    Remove,
    /// Keep the flag write, drop the dead VGRF result.
    NullDestination,
}

fn fate(p: &Program, inst: &Inst, reads: &Reads, opts: &CompileOptions) -> Fate {
    let writes_flag = |inst: &Inst| writes_flag(inst, opts);
    let RegKind::Vgrf { nr, .. } = inst.dst.kind else {
        // Of a null destination only a flag result can be live (Mesa removes a null write
        // that writes no live flag as well: brw_fs_dead_code_eliminate.cpp).
        let flag_live = writes_flag(inst) && reads.flag_live(inst);
        return if inst.dst.is_null() && !flag_live && !has_other_effects(inst) {
            Fate::Remove
        } else {
            Fate::Keep
        };
    };
    if reads.vgrf_live(nr) || has_other_effects(inst) {
        Fate::Keep
    } else if writes_flag(inst) && reads.flag_live(inst) {
        if lower_regioning::null_dst_needs_stride(p, inst) {
            // A null destination is packed here (it carries no stride), and this one must
            // not be (docs/hardware/eu-hardware.md §5.1): the dead value keeps its register.
            Fate::Keep
        } else {
            Fate::NullDestination
        }
    } else {
        Fate::Remove
    }
}

/// One sweep over the program, last instruction first so that a dead chain goes in one
/// sweep (removing a reader may kill the value it read); returns whether anything changed.
/// Blocks are re-split afterwards: a block may have lost every instruction.
fn sweep(p: &mut Program, opts: &CompileOptions) -> bool {
    let mut reads = Reads::of(p);
    let mut changed = false;
    let mut kept = Vec::with_capacity(p.inst_count());
    for mut inst in p.take_insts().into_iter().rev() {
        match fate(p, &inst, &reads, opts) {
            Fate::Keep => kept.push(inst),
            Fate::Remove => {
                note(if inst.dst.is_null() {
                    "dead-flag-write"
                } else {
                    "dead-value"
                });
                reads.forget(&inst);
                changed = true;
            }
            Fate::NullDestination => {
                note("dead-dst-nulled");
                inst.dst = Reg::null(inst.dst.ty);
                changed = true;
                kept.push(inst);
            }
        }
    }
    kept.reverse();
    p.set_insts(kept);
    changed
}

/// The flag bytes an instruction's predicate or conditional modifier covers.
fn flag_bytes_of(inst: &Inst) -> impl Iterator<Item = u32> {
    let (first, count) = inst.flag_bits();
    first / 8..(first + count.max(1)).div_ceil(8)
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_dead_code_eliminate",
    rewrites: REWRITES,
    run,
    postcondition: Some(Contract::EveryRun(crate::contracts::opt_dead_code_eliminate::postcondition)),
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    while sweep(p, opts) {
        progress = true;
    }
    Ok(progress)
}
