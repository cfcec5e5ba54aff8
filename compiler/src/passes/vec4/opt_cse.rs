//! The vec4 `opt_cse` (docs/hardware/fp64-align16.md §6): within a block, an instruction computing what
//! an earlier one still available computed becomes a move of the earlier result.
//!
//! Two instructions match when opcode, sources (with swizzles and modifiers), destination
//! type, saturate, access mode, NoMask and — the §6 restriction,
//! `restrictions::cse_same_channels` — exec size and group agree: the split halves of one
//! DF instruction with uniform sources are otherwise identical but run with different
//! vertices' enables. Only unpredicated instructions without a condition, writing a whole
//! VGRF value (no writemask) that is not also one of their sources, take part; a write to
//! any byte an available instruction read or wrote retires it.

use super::bytes::{overlap, read, written};
use super::restrictions::cse_same_channels;
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Contract, Pass, PassError, note};
use crate::program::Program;
use crate::reg::Swizzle;

/// Rewrite kinds this pass notes.
const REWRITES: &[&str] = &["cse-copy"];

/// Whether `inst` computes a value CSE may reuse: a pure ALU operation other than a MOV.
/// A MOV is a copy already, and one of a uniform or an immediate made a copy of an earlier
/// result is what copy propagation turns back into that uniform or immediate: the two
/// passes would undo each other in every iteration of the optimisation loop, which would
/// then never end (`corpus/regressions/vec4-cse-and-copy-propagation-cycle.eu`; the scalar
/// `opt_cse` takes no MOV either).
fn is_expression(inst: &Inst) -> bool {
    let pure = !inst.op.is_control_flow()
        && !inst.op.is_message()
        && !inst.op.has_side_effects()
        && !inst.op.is_dword_half_set()
        && inst.op != Opcode::Nop
        && !inst.op.is_subgroup();
    let not_a_copy = inst.op != Opcode::Mov;
    let whole = !inst.is_align16() || inst.dst.writemask.is_full();
    let writes = written(inst);
    let self_overlap = inst
        .srcs
        .iter()
        .filter_map(|s| read(inst, s))
        .any(|r| writes.iter().any(|&w| overlap(w, r)));
    pure && not_a_copy
        && whole
        && inst.dst.is_vgrf()
        && inst.predicate.is_none()
        && inst.cmod.is_none()
        && !inst.acc_wr
        && !self_overlap
}

fn same_expression(a: &Inst, b: &Inst, opts: &CompileOptions) -> bool {
    a.op == b.op
        && a.srcs == b.srcs
        && a.dst.ty == b.dst.ty
        && a.saturate == b.saturate
        && a.access_mode == b.access_mode
        && a.nomask == b.nomask
        && cse_same_channels(a, b, opts)
}

/// The move that replaces `inst` by the result `earlier` left.
fn copy_of(inst: &Inst, earlier: &Inst) -> Inst {
    let src = earlier.dst.masked(0xf).swizzled(Swizzle::XYZW);
    let mut m = Inst::new(Opcode::Mov, inst.exec_size, inst.dst, vec![src]);
    m.group = inst.group;
    m.nomask = inst.nomask;
    m.access_mode = inst.access_mode;
    m
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "vec4_opt_cse",
    rewrites: REWRITES,
    run,
    postcondition: Some(Contract::EveryRun(
        crate::contracts::vec4_opt_cse::postcondition,
    )),
};

/// Runs the pass; progress when an instruction became a copy.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    for block in &mut p.blocks {
        let mut available: Vec<Inst> = vec![];
        for inst in block.insts.iter_mut() {
            let found = is_expression(inst)
                .then(|| available.iter().find(|e| same_expression(e, inst, opts)))
                .flatten()
                .cloned();
            let reusable = found.is_none() && is_expression(inst);
            if let Some(earlier) = found {
                *inst = copy_of(inst, &earlier);
                progress = true;
                note("cse-copy");
            }
            let writes = written(inst);
            available.retain(|e| {
                let touched = e
                    .srcs
                    .iter()
                    .filter_map(|s| read(e, s))
                    .chain(written(e))
                    .any(|r| writes.iter().any(|&w| overlap(w, r)));
                !touched
            });
            if reusable {
                available.push(inst.clone());
            }
        }
    }
    Ok(progress)
}
