//! `setup_imm_df` (docs/hardware/fp64-align16.md §1.2): Gen7 ALU instructions cannot take a DF
//! immediate, so each one is loaded into a dvec4 temporary first and read back with the
//! logical swizzle .xxxx. Haswell loads it with DIM (NoMask); Ivybridge, which has no DIM,
//! writes its two dwords with two NoMask 32-bit Align16 moves per GRF (writemask .x the low
//! dword, .y the high one) at exec 4, groups 0 and 4 — one GRF per vertex.
//!
//! Mesa emits these loads while translating NIR; here they are a pass that runs first.
//! DIM itself keeps its immediate.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, Swizzle};
use crate::types::Type;

/// Rewrite kinds this pass notes.
const REWRITES: &[&str] = &["imm-df-dim", "imm-df-two-movs"];

/// The instructions that load `bits` into the dvec4 `tmp`.
fn load(p: &Program, tmp: Reg, bits: u64) -> Vec<Inst> {
    if p.device.info().verx10 == 75 {
        note("imm-df-dim");
        let dim = Inst::new(Opcode::Dim, 8, tmp, vec![Reg::imm(bits, Type::DF)]);
        return vec![dim.with_align16().with_nomask()];
    }
    note("imm-df-two-movs");
    let dwords = [bits as u32, (bits >> 32) as u32];
    (0..2u32)
        .flat_map(|half| {
            dwords.iter().enumerate().map(move |(k, &word)| {
                let dst = tmp
                    .retype(Type::UD)
                    .byte_offset(half * REG_SIZE)
                    .masked(1 << k);
                Inst::new(Opcode::Mov, 4, dst, vec![Reg::imm_ud(word)])
                    .with_group(4 * half as u8)
                    .with_align16()
                    .with_nomask()
            })
        })
        .collect()
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "setup_imm_df",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; progress when a DF immediate was moved into a register.
pub fn run(p: &mut Program, _: &CompileOptions) -> Result<bool, PassError> {
    if p.device.info().verx10 / 10 != 7 {
        return Ok(false);
    }
    let mut progress = false;
    let mut out = vec![];
    for mut inst in p.take_insts() {
        if inst.is_align16() && inst.op != Opcode::Dim {
            for s in inst.srcs.iter_mut() {
                if let (Some(bits), Type::DF) = (s.imm_bits(), s.ty) {
                    let tmp = crate::passes::temp(p, Type::DF, 2 * REG_SIZE);
                    out.extend(load(p, tmp, bits));
                    *s = Reg {
                        negate: s.negate,
                        abs: s.abs,
                        ..tmp.swizzled(Swizzle::replicate(0))
                    };
                    progress = true;
                }
            }
        }
        out.push(inst);
    }
    p.set_insts(out);
    Ok(progress)
}
