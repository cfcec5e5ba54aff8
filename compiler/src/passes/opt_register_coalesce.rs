//! `opt_register_coalesce` (docs/hardware/brw-backend.md §7.1 step 12): `mov y, x` is deleted by
//! renaming `y` to `x` everywhere, when the two registers' live ranges do not interfere —
//! `x` is not touched after the MOV and `y` not before it — so one register can hold both.
//!
//! Live ranges come from liveness over the physical CFG edges as well as the logical ones
//! (§9.1, `analysis::liveness`): in `loop { x = f(); if (c) { y = x; break; } } use(y)` the
//! channels that broke out still need `y` while the others run the body again, so `y` is
//! live through the whole loop and interferes with `x` (Mesa 4d1959e6932, 76b4255cd80).
//!
//! Only whole-VGRF copies are candidates (§7.4 170200e0fcb, 27d7ef094a5; §10.3 32
//! `ChangingTemporaryCompoundRegisterNotChangesOriginal`): a plain MOV from offset 0 of a
//! packed VGRF into offset 0 of a packed VGRF of the same size and type, writing all of
//! it, with no predicate, saturate, source modifier, accumulator update or conditional
//! modifier (deleting a `mov.cmod` would drop its flag write, §11.13, Mesa e581ddeeeec —
//! the `coalesce-drops-cmod-mov` zoo bug). Channels the MOV did not write held nothing in
//! `y` (its range starts at the MOV), so they may hold `x`'s bytes instead. A NoMask
//! instruction inside control flow touches channels outside the current mask (§9.2), which
//! per-register liveness does not model: a pair either of whose registers such an
//! instruction reads or writes is left alone (§11.12).

use crate::analysis::liveness;
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, RegKind};

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &["coalesce-cmod-mov", "coalesce"];

/// The VGRF a packed, register-aligned operand names.
fn whole_vgrf(r: &Reg) -> Option<u32> {
    match r.kind {
        RegKind::Vgrf {
            nr,
            offset: 0,
            stride: 1,
        } => Some(nr),
        _ => None,
    }
}

/// `(y, x)` of a `mov y, x` that copies the whole of VGRF `x` into the whole of VGRF `y`
/// and does nothing else. With `drop_cmod` (zoo) a MOV with a conditional modifier counts.
fn candidate(p: &Program, inst: &Inst, drop_cmod: bool) -> Option<(u32, u32)> {
    let src = inst.srcs.first()?;
    let plain = inst.op == Opcode::Mov
        && inst.predicate.is_none()
        && (inst.cmod.is_none() || drop_cmod)
        && !inst.saturate
        && !inst.acc_wr
        && !src.negate
        && !src.abs
        && src.ty == inst.dst.ty;
    let (y, x) = (whole_vgrf(&inst.dst)?, whole_vgrf(src)?);
    let size = *p.vgrf_sizes.get(y as usize)?;
    let whole = p.vgrf_sizes.get(x as usize) == Some(&size)
        && inst.size_written() == size * REG_SIZE
        && inst.size_read(0) == size * REG_SIZE;
    (plain && whole && x != y).then_some((y, x))
}

/// VGRFs that a NoMask instruction inside control flow reads or writes: inside an
/// IF/ELSE/ENDIF or DO/WHILE, or after a HALT (before its HALT_TARGET), where the
/// execution mask may leave channels out that such an instruction still touches.
fn nomask_in_divergence(p: &Program) -> Vec<bool> {
    let mut out = vec![false; p.vgrf_sizes.len()];
    let mut depth = 0usize;
    let mut halted = false;
    for inst in p.insts() {
        match inst.op {
            Opcode::Endif | Opcode::While => depth = depth.saturating_sub(1),
            Opcode::HaltTarget => halted = false,
            _ => {}
        }
        if inst.nomask && (depth > 0 || halted) {
            for r in std::iter::once(&inst.dst).chain(&inst.srcs) {
                if let RegKind::Vgrf { nr, .. } = r.kind
                    && let Some(f) = out.get_mut(nr as usize)
                {
                    *f = true;
                }
            }
        }
        match inst.op {
            Opcode::If | Opcode::Do => depth += 1,
            Opcode::Halt => halted = true,
            _ => {}
        }
    }
    out
}

/// The register `v` has been renamed to.
fn find(renamed: &[u32], mut v: u32) -> u32 {
    while renamed[v as usize] != v {
        v = renamed[v as usize];
    }
    v
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_register_coalesce",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let drop_cmod = crate::zoo!(opts, CoalesceDropsCmodMov);
    let mut live = liveness::intervals(p, true);
    let mut nomask = nomask_in_divergence(p);
    let mut renamed: Vec<u32> = (0..p.vgrf_sizes.len() as u32).collect();
    let mut deleted = vec![];
    for (ip, inst) in p.insts().enumerate() {
        let Some((y, x)) = candidate(p, inst, drop_cmod) else {
            continue;
        };
        let (y, x) = (find(&renamed, y), find(&renamed, x));
        let (Some(lx), Some(ly)) = (live[x as usize], live[y as usize]) else {
            continue;
        };
        // The ranges meet only at the MOV: x ends there, y starts there.
        if x == y || lx.1 > ip || ly.0 < ip || nomask[x as usize] || nomask[y as usize] {
            continue;
        }
        renamed[y as usize] = x;
        live[x as usize] = Some((lx.0.min(ly.0), lx.1.max(ly.1)));
        live[y as usize] = None;
        nomask[x as usize] |= nomask[y as usize];
        note(if inst.cmod.is_some() {
            "coalesce-cmod-mov"
        } else {
            "coalesce"
        });
        deleted.push(ip);
    }
    if deleted.is_empty() {
        return Ok(false);
    }
    let rename = |r: &mut Reg| {
        if let RegKind::Vgrf { nr, .. } = &mut r.kind {
            *nr = find(&renamed, *nr);
        }
    };
    let mut out = Vec::with_capacity(p.inst_count());
    for (ip, mut inst) in p.take_insts().into_iter().enumerate() {
        if deleted.binary_search(&ip).is_ok() {
            continue;
        }
        rename(&mut inst.dst);
        inst.srcs.iter_mut().for_each(rename);
        out.push(inst);
    }
    p.set_insts(out);
    Ok(true)
}
