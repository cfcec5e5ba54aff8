//! `opt_peephole_sel` (docs/hardware/brw-backend.md §7.1 step 8): an IF/ELSE/ENDIF whose two sides only
//! copy values into the same destinations becomes predicated SELs before the IF, which is
//! left empty for `dead_control_flow_eliminate` to delete.
//!
//! `(+f0) if; mov d, a; else; mov d, c; endif` writes `a` into `d` in the enabled channels
//! whose flag bit is set and `c` in the others; `(+f0) sel d, a, c` before the IF runs in
//! the same channels (the IF's block) and picks per channel by the same flag bit
//! (docs/hardware/eu-hardware.md §2.3, docs/hardware/brw-backend.md §9.2). That holds when:
//! - the IF has a plain predicate (no horizontal any/all form, no embedded compare) and is
//!   masked, and each side is nothing but MOVs, the k-th of either side writing the same
//!   destination (register, region, type) with the IF's exec size and group, masked,
//!   without predicate, conditional modifier, saturate or accumulator update — so nothing
//!   inside writes the flag the IF reads;
//! - no MOV reads a VGRF any of them writes and the destinations are distinct VGRFs: the
//!   SELs run one after another for all channels, the MOVs side by side;
//! - every MOV is a raw copy (source type = destination type, no modifier) of a VGRF,
//!   ATTR, uniform or scalar immediate of 2 or 4 bytes. The SEL is emitted on the unsigned
//!   integer type of that size so it copies bits as the MOV did: a float SEL would quiet a
//!   signalling NaN (docs/hardware/eu-hardware.md §3.6: only a MOV without modifiers is a raw move).
//!   Reading a register in channels that end up taking the other side has no effect.
//!
//! SEL takes an immediate only as src1 (docs/hardware/eu-hardware.md §3.3): an immediate THEN value
//! swaps the sources and inverts the predicate; two equal immediates become one MOV, and
//! two different ones put the THEN value in a fresh VGRF first. The construct is left when
//! the validator's instruction rules reject any of the new instructions on the device.

use crate::inst::{Inst, PredKind};
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{Reg, RegKind};
use crate::types::Type;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &["if-else-to-sel"];

/// The VGRF number of an operand, if it is one.
fn vgrf(r: &Reg) -> Option<u32> {
    match r.kind {
        RegKind::Vgrf { nr, .. } => Some(nr),
        _ => None,
    }
}

/// Whether `mov` is a raw masked copy the pass can turn into one half of a SEL under `iff`.
fn is_plain_copy(mov: &Inst, iff: &Inst) -> bool {
    let src = &mov.srcs[0];
    let readable = match src.kind {
        RegKind::Vgrf { .. } | RegKind::Attr { .. } | RegKind::Uniform { .. } => true,
        RegKind::Imm(_) => !src.ty.is_vector_imm(),
        _ => false,
    };
    mov.op == Opcode::Mov
        && mov.exec_size == iff.exec_size
        && mov.group == iff.group
        && !mov.nomask
        && mov.predicate.is_none()
        && mov.cmod.is_none()
        && !mov.saturate
        && !mov.acc_wr
        && vgrf(&mov.dst).is_some()
        && matches!(mov.dst.ty.size(), 2 | 4)
        && src.ty == mov.dst.ty
        && !src.negate
        && !src.abs
        && readable
}

/// The MOV pairs of the IF at `at` when the whole construct can become SELs: the index of
/// its ELSE and ENDIF.
fn convertible_if(insts: &[Inst], at: usize) -> Option<(usize, usize)> {
    let iff = &insts[at];
    let plain_if = iff.op == Opcode::If
        && iff.predicate.is_some_and(|p| p.kind == PredKind::Normal)
        && iff.cmod.is_none()
        && !iff.nomask;
    if !plain_if {
        return None;
    }
    let els = at + 1 + insts[at + 1..].iter().position(|i| i.op != Opcode::Mov)?;
    if insts[els].op != Opcode::Else {
        return None;
    }
    let endif = els + 1 + insts[els + 1..].iter().position(|i| i.op != Opcode::Mov)?;
    let (then_movs, else_movs) = (&insts[at + 1..els], &insts[els + 1..endif]);
    if insts[endif].op != Opcode::Endif
        || then_movs.is_empty()
        || then_movs.len() != else_movs.len()
    {
        return None;
    }
    let movs = || then_movs.iter().chain(else_movs);
    let pairs_match = then_movs
        .iter()
        .zip(else_movs)
        .all(|(t, e)| t.dst == e.dst && is_plain_copy(t, iff) && is_plain_copy(e, iff));
    let mut written: Vec<u32> = then_movs.iter().filter_map(|m| vgrf(&m.dst)).collect();
    written.sort_unstable();
    let distinct = written.windows(2).all(|w| w[0] != w[1]);
    let reads_written = movs().any(|m| vgrf(&m.srcs[0]).is_some_and(|nr| written.contains(&nr)));
    (pairs_match && distinct && !reads_written).then_some((els, endif))
}

/// The bits-copying integer type of a 2- or 4-byte type.
fn raw_type(ty: Type) -> Type {
    Type::int_of_size(ty.size(), false)
}

/// The instructions that replace one THEN/ELSE MOV pair, placed before the IF.
fn select(p: &mut Program, iff: &Inst, then_mov: &Inst, else_mov: &Inst) -> Vec<Inst> {
    let ty = raw_type(then_mov.dst.ty);
    let (mut a, mut c) = (then_mov.srcs[0].retype(ty), else_mov.srcs[0].retype(ty));
    let dst = then_mov.dst.retype(ty);
    let mut pred = iff.predicate.expect("a plain IF is predicated");
    let controls = |inst: Inst| Inst {
        group: iff.group,
        ..inst
    };
    let mut out = vec![];
    if a.is_imm() && c.is_imm() {
        if a == c {
            return vec![controls(Inst::new(
                Opcode::Mov,
                iff.exec_size,
                dst,
                vec![a],
            ))];
        }
        let tmp = crate::passes::temp(p, ty, iff.exec_size as u32 * ty.size());
        out.push(controls(Inst::new(
            Opcode::Mov,
            iff.exec_size,
            tmp,
            vec![a],
        )));
        a = tmp;
    } else if a.is_imm() {
        std::mem::swap(&mut a, &mut c);
        pred.inverse = !pred.inverse;
    }
    let sel =
        Inst::new(Opcode::Sel, iff.exec_size, dst, vec![a, c]).with_pred(pred, iff.flag_subreg);
    out.push(controls(sel));
    out
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_peephole_sel",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, _opts: &CompileOptions) -> Result<bool, PassError> {
    let mut insts = p.take_insts();
    let mut progress = false;
    let mut at = 0;
    while at < insts.len() {
        let Some((els, endif)) = convertible_if(&insts, at) else {
            at += 1;
            continue;
        };
        let iff = insts[at].clone();
        let pairs = els - at - 1;
        let vgrfs = p.vgrf_sizes.len();
        let mut sels = vec![];
        for k in 0..pairs {
            let (then_mov, else_mov) = (insts[at + 1 + k].clone(), insts[els + 1 + k].clone());
            sels.extend(select(p, &iff, &then_mov, &else_mov));
        }
        if sels
            .iter()
            .any(|s| !crate::validate::validate_inst(p, at, s).is_empty())
        {
            p.vgrf_sizes.truncate(vgrfs);
            at += 1;
            continue;
        }
        insts.drain(els + 1..endif);
        insts.drain(at + 1..els);
        let added = sels.len();
        insts.splice(at..at, sels);
        note("if-else-to-sel");
        progress = true;
        at += added + 1;
    }
    p.set_insts(insts);
    Ok(progress)
}
