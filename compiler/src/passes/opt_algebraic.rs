//! `opt_algebraic` (docs/hardware/brw-backend.md §7.1 step 2): peephole algebra. An instruction whose
//! result a simpler one computes exactly is replaced by it, keeping its destination and
//! exec controls (predicate, conditional modifier, saturate, flag subregister).
//!
//! Only rewrites that give the same bits for every input are made, because the fuzz oracle
//! compares results bit for bit (floats too, but for the payload of a NaN a float operation
//! produced):
//! - integer `add x, a, 0`, `mul x, a, 1`, `or x, a, 0`, `xor x, a, 0` and `and x, a, -1`
//!   → `mov x, a`; integer `mul x, a, 0` and `and x, a, 0` → `mov x, 0`. Integer results
//!   are exact until the destination type truncates or saturates them (docs/hardware/eu-hardware.md
//!   §3.5, §3.6), and a MOV converts the same value the same way. The immediate may be
//!   either source of these commutative operations; a logic operation's source must carry
//!   no modifier (there `negate` is a bitwise NOT, a MOV's is arithmetic, §3.6).
//! - `sel x, a, a` (either form) → `mov x, a`: both forms pick one of two equal values
//!   (§2.3; min/max of a NaN and itself is that NaN). For float types only when `a` carries
//!   a source modifier: a SEL is a float operation that quiets a signalling NaN while an
//!   unmodified same-type MOV copies its bits (§3.6: a MOV with a modifier is not a raw
//!   move). Not on Gen4/5, where `sel.cond` is a CMPN + SEL pair that writes the flag
//!   (docs/hardware/brw-backend.md §1.7).
//! - `mov.sat x, imm` → `mov x, imm` when the immediate already lies in the clamp range:
//!   a float in [+0.0, 1.0], or an integer of the destination's own type (§3.5).
//! - integer `add`, `mul`, `and`, `or`, `xor` of two immediates → `mov x, result`, the
//!   exact result truncated to the destination's 16- or 32-bit type; not when saturating.
//!
//! Float identities and float constants are not folded: `x + 0.0` is +0.0 for x = −0.0,
//! `x · 0.0` is NaN for infinities and −0.0 for negative x, and `x · 1.0` / `x + −0.0`
//! quiet a signalling NaN (an integer read of the result tells). Only instructions writing a
//! VGRF from VGRFs, inputs and immediates are rewritten (see [`plain_operands`]). Every
//! replacement is checked with the validator's instruction rules and kept only when they
//! accept it.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Contract, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{Reg, RegKind};
use crate::types::Type;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &[
    "alg-sel-equal",
    "alg-constant-fold",
    "alg-int-zero",
    "alg-int-identity",
    "alg-sat-imm",
];

/// The zoo's `rol-fold-recursion`, a fault rather than wrong code: a rotate by `count`
/// unrolled as a rotate by one of the rotate by `count - 1`, where the recursion is passed
/// `count` itself, so it never reaches zero and overflows the stack. (The frame's address
/// escapes, so the recursion cannot be turned into a loop.)
#[cfg(feature = "zoo")]
fn unrolled_rotate(inst: &Inst, count: u32) -> usize {
    if count == 0 {
        return 0;
    }
    let frame = [count as u8; 256];
    std::hint::black_box(&frame);
    let step = std::hint::black_box(inst.clone());
    let deeper = unrolled_rotate(&step, std::hint::black_box(count));
    deeper + usize::from(frame[std::hint::black_box(0)])
}

/// The value of an integer immediate of at most 32 bits, sign- or zero-extended from its
/// type.
fn int_imm(r: &Reg) -> Option<i64> {
    let bits = r.imm_bits()?;
    if r.negate || r.abs || r.ty.is_float() || r.ty.is_vector_imm() {
        return None;
    }
    Some(match r.ty {
        Type::B => bits as u8 as i8 as i64,
        Type::UB => bits as u8 as i64,
        Type::W => bits as u16 as i16 as i64,
        Type::UW => bits as u16 as i64,
        Type::D => bits as u32 as i32 as i64,
        Type::UD => bits as u32 as i64,
        _ => return None,
    })
}

/// What an integer operation with the immediate `k` as one operand reduces to.
enum Reduced {
    /// The other operand, unchanged.
    Operand,
    /// Zero.
    Zero,
}

fn reduce(op: Opcode, k: i64) -> Option<Reduced> {
    use Opcode::*;
    match (op, k) {
        (Add | Or | Xor, 0) | (Mul, 1) | (And, -1) => Some(Reduced::Operand),
        (Mul | And, 0) => Some(Reduced::Zero),
        _ => None,
    }
}

/// `inst` as a MOV from `src`, keeping every control.
pub(crate) fn as_mov(inst: &Inst, src: Reg) -> Inst {
    Inst {
        op: Opcode::Mov,
        srcs: vec![src],
        ..inst.clone()
    }
}

/// The integer identity rewrite of `inst`, with its rewrite kind.
fn integer_identity(inst: &Inst) -> Option<(Inst, &'static str)> {
    let two_source = matches!(
        inst.op,
        Opcode::Add | Opcode::Mul | Opcode::And | Opcode::Or | Opcode::Xor
    ) && inst.srcs.len() == 2;
    let all_int = std::iter::once(&inst.dst)
        .chain(&inst.srcs)
        .all(|r| r.ty.is_int() && !r.ty.is_vector_imm());
    if !two_source || !all_int || inst.acc_wr {
        return None;
    }
    let (imm, other) = match (int_imm(&inst.srcs[1]), int_imm(&inst.srcs[0])) {
        (Some(k), _) => (k, inst.srcs[0]),
        (None, Some(k)) => (k, inst.srcs[1]),
        (None, None) => return None,
    };
    if inst.op.is_logic() && (other.negate || other.abs) {
        return None;
    }
    match reduce(inst.op, imm)? {
        Reduced::Operand => Some((as_mov(inst, other), "alg-int-identity")),
        Reduced::Zero => Some((as_mov(inst, Reg::imm(0, inst.dst.ty)), "alg-int-zero")),
    }
}

/// `sel x, a, a` → `mov x, a` (see the module notes).
fn equal_select(inst: &Inst, ver: u32) -> Option<(Inst, &'static str)> {
    let [a, b] = inst.srcs.as_slice() else {
        return None;
    };
    let float_quiets = a.ty.is_float() && !a.negate && !a.abs;
    let ok = inst.op == Opcode::Sel
        && a == b
        && !float_quiets
        && !a.ty.is_vector_imm()
        && !inst.acc_wr
        && (ver >= 6 || inst.cmod.is_none());
    if !ok {
        return None;
    }
    let mov = Inst {
        predicate: None,
        cmod: None,
        ..as_mov(inst, *a)
    };
    Some((mov, "alg-sel-equal"))
}

/// `mov.sat x, imm` → `mov x, imm` when saturation leaves the immediate as it is.
fn saturated_immediate(inst: &Inst) -> Option<(Inst, &'static str)> {
    let src = inst.srcs.first()?;
    let bits = src.imm_bits()?;
    let in_range = match src.ty {
        Type::F => {
            let v = f32::from_bits(bits as u32);
            bits == 0 || (v > 0.0 && v <= 1.0)
        }
        t => t.is_int() && !t.is_vector_imm(),
    };
    let ok = inst.op == Opcode::Mov
        && inst.saturate
        && src.ty == inst.dst.ty
        && !src.negate
        && !src.abs
        && in_range;
    ok.then(|| {
        (
            Inst {
                saturate: false,
                ..inst.clone()
            },
            "alg-sat-imm",
        )
    })
}

/// `op imm, imm` → `mov x, result` for the integer operations whose result is the exact
/// value the destination type then truncates (no saturate: that clamps the full result).
fn constant_fold(inst: &Inst) -> Option<(Inst, &'static str)> {
    let [a, b] = inst.srcs.as_slice() else {
        return None;
    };
    let (a, b) = (int_imm(a)?, int_imm(b)?);
    let value = match inst.op {
        Opcode::Add => a.wrapping_add(b),
        Opcode::Mul => a.wrapping_mul(b),
        Opcode::And => a & b,
        Opcode::Or => a | b,
        Opcode::Xor => a ^ b,
        _ => return None,
    };
    let dst = inst.dst.ty;
    let ok =
        matches!(dst, Type::W | Type::UW | Type::D | Type::UD) && !inst.saturate && !inst.acc_wr;
    ok.then(|| {
        let bits = value as u64 & ((1u64 << (8 * dst.size())) - 1);
        (as_mov(inst, Reg::imm(bits, dst)), "alg-constant-fold")
    })
}

/// Whether `inst` only writes a VGRF and only reads VGRFs, inputs and immediates: an
/// accumulator destination keeps more bits from a MUL than from a MOV (docs/hardware/brw-backend.md
/// §1.6), and architecture registers have effects of their own.
fn plain_operands(inst: &Inst) -> bool {
    matches!(inst.dst.kind, RegKind::Vgrf { .. })
        && inst.srcs.iter().all(|s| {
            matches!(
                s.kind,
                RegKind::Vgrf { .. }
                    | RegKind::Attr { .. }
                    | RegKind::Uniform { .. }
                    | RegKind::Imm(_)
            )
        })
}

/// The simpler instruction for `inst`, if any, with its rewrite kind.
fn simplify(inst: &Inst, ver: u32) -> Option<(Inst, &'static str)> {
    if inst.op.is_message() || inst.op.is_control_flow() || inst.eot || !plain_operands(inst) {
        return None;
    }
    constant_fold(inst)
        .or_else(|| integer_identity(inst))
        .or_else(|| equal_select(inst, ver))
        .or_else(|| saturated_immediate(inst))
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_algebraic",
    rewrites: REWRITES,
    run,
    postcondition: Some(Contract::RunWithoutProgress(
        crate::contracts::opt_algebraic::postcondition,
    )),
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    if crate::zoo!(opts, RolFoldRecursion) {
        #[cfg(feature = "zoo")]
        for inst in p.insts().filter(|i| i.op == Opcode::Rol) {
            std::hint::black_box(unrolled_rotate(inst, 32));
        }
    }
    let ver = p.device.info().verx10 / 10;
    let mut replacements = vec![];
    for (ip, inst) in p.insts().enumerate() {
        if let Some((new, kind)) = simplify(inst, ver)
            && crate::validate::validate_inst(p, ip, &new).is_empty()
        {
            replacements.push((ip, new, kind));
        }
    }
    if replacements.is_empty() {
        return Ok(false);
    }
    let mut insts = p.take_insts();
    for (ip, new, kind) in replacements {
        note(kind);
        insts[ip] = new;
    }
    p.set_insts(insts);
    Ok(true)
}
