//! `opt_combine_constants` (docs/hardware/brw-backend.md §7.1 after `lower_load_payload`, §7.2 between
//! `lower_load_payload` and `lower_integer_multiplication`): immediates the encoding cannot
//! take in their slot are promoted to registers, each distinct constant loaded once for all
//! the instructions that use it.
//!
//! Which slots cannot hold an immediate (docs/hardware/eu-hardware.md §3.3, §7.3), the cases
//! `lower_alu_restrictions` would otherwise load one instruction at a time:
//! - three-source instructions on Align16 parts (up to Gfx10): no immediate at all;
//!   on Align1 parts (Gfx11+): no immediate in src1 (a MAD whose src2 is a register swaps
//!   the two instead, so that case is left), only 16-bit ones in src0/src2, and not both;
//! - two-source instructions: src0, unless the instruction can swap its sources
//!   (commutative ADD/AND/OR/XOR/AVG, CMP with the reversed condition, integer SEL, a
//!   predicated SEL with the inverted predicate), or whenever src1 is an immediate too.
//!
//! Only 16- and 32-bit scalar immediates are promoted; 64-bit ones, byte and vector
//! immediates stay with `lower_alu_restrictions`. MUL and the accumulator operations
//! (MAC, MACH, ADDC, SUBB) are left: `lower_integer_multiplication`, which runs after this
//! pass, picks its lowering from whether src1 is an immediate (§6).
//!
//! Placement: the constant is loaded into a fresh VGRF by a SIMD1 **NoMask** MOV (Mesa
//! 2c7a703b05a, §11.21) in the common dominator of the blocks that use it, before the first
//! use if that block has one, else before the block's closing control-flow instruction;
//! uses read it as a scalar `<0>` region. Dominance is taken over logical *and* physical
//! CFG edges (§9.1): the load must run on every path the SIMD thread takes to a use, not
//! only on the paths a channel takes. The emulator's jumps all land at a block start or on
//! a block's closing ELSE/WHILE (§9.2); a block closed by ELSE or WHILE dominates no other
//! block over physical edges (the ELSE block reaches the else-branch only physically and
//! the ENDIF also from the IF or the else-branch; the block after a WHILE is also reached
//! from the DO), so a load placed before a use in such a block is skipped only with that
//! use. NoMask matters because the dominator may run with fewer channels than a use
//! (after a HALT, in divergent flow, §9.2): a masked load would leave the scalar
//! unwritten when channel 0 is not running there.
//!
//! Constants are combined by bit pattern and type only (no conversions between types,
//! cf. Mesa 21223acf7d5 D→W sign check); source modifiers stay on each use.

use crate::analysis::dominance::{Dominators, block_succs};
use crate::cfg::Cfg;
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;
use crate::reg::Reg;
use crate::zoo;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`):
/// a load placed in a block other than a use's, one load shared by several instructions,
/// and any promotion.
const REWRITES: &[&str] = &[
    "hoisted-to-dominator",
    "shared-constant",
    "promoted-constant",
];

/// Whether immediate source `i` of `inst` cannot stay an immediate on this device and
/// this pass promotes it (see the module notes).
fn must_promote(p: &Program, inst: &Inst, i: usize) -> bool {
    let s = inst.srcs[i];
    if !s.is_imm() || s.ty.is_vector_imm() || !matches!(s.ty.size(), 2 | 4) {
        return false;
    }
    if inst.op.is_3src() && inst.srcs.len() == 3 {
        if p.device.info().has_align16 {
            return true;
        }
        let imm16 = |r: &Reg| r.is_imm() && r.ty.size() == 2;
        return match i {
            // A MAD swaps a src1 immediate with a register src2 instead.
            1 => inst.op != Opcode::Mad || inst.srcs[2].is_imm() || s.ty.size() != 2,
            2 => s.ty.size() != 2 || imm16(&inst.srcs[0]),
            _ => s.ty.size() != 2,
        };
    }
    if i != 0 || inst.srcs.len() != 2 || !two_source_alu(inst.op) {
        return false;
    }
    if inst.srcs[1].is_imm() {
        return true;
    }
    let float = inst.srcs.iter().any(|r| r.ty.is_float());
    let swappable = match inst.op {
        Opcode::Add | Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Avg | Opcode::Cmp => true,
        Opcode::Sel => inst.predicate.is_some() || !float,
        _ => false,
    };
    !swappable
}

/// Two-source ALU operations whose src0 this pass may replace by a register.
fn two_source_alu(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        Sel | Shr
            | Shl
            | Asr
            | Rol
            | Ror
            | Cmp
            | Cmpn
            | Add
            | And
            | Or
            | Xor
            | Avg
            | Bfi1
            | Pow
            | IntQuotient
            | IntRemainder
    )
}

/// One distinct constant and the sources that will read it: (block, instruction, source).
struct Constant {
    imm: Reg,
    uses: Vec<(usize, usize, usize)>,
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "opt_combine_constants",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

/// Runs the pass; returns whether it promoted any immediate.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let cfg = Cfg::build(p);
    let dom = Dominators::new(&block_succs(&cfg, true), 0);
    let mut constants: Vec<Constant> = vec![];
    for (b, block) in p.blocks.iter().enumerate() {
        if !dom.reachable(b) {
            continue;
        }
        for (k, inst) in block.insts.iter().enumerate() {
            for i in 0..inst.srcs.len() {
                if !must_promote(p, inst, i) {
                    continue;
                }
                let s = inst.srcs[i];
                let plain = Reg {
                    negate: false,
                    abs: false,
                    ..s
                };
                match constants.iter_mut().find(|c| c.imm == plain) {
                    Some(c) => c.uses.push((b, k, i)),
                    None => constants.push(Constant {
                        imm: plain,
                        uses: vec![(b, k, i)],
                    }),
                }
            }
        }
    }
    if constants.is_empty() {
        return Ok(false);
    }
    let masked = zoo!(opts, CombineConstantsMasked);
    // Loads to insert: (block, before instruction, load), in the order constants were met.
    let mut loads: Vec<(usize, usize, Inst)> = vec![];
    for c in &constants {
        let ty = c.imm.ty;
        let reg = super::temp(p, ty, ty.size()).with_stride(0);
        let blocks: Vec<usize> = c.uses.iter().map(|u| u.0).collect();
        let d = blocks[1..]
            .iter()
            .fold(blocks[0], |acc, &b| dom.common(acc, b));
        let at = match c.uses.iter().filter(|u| u.0 == d).map(|u| u.1).min() {
            Some(first_use) => first_use,
            None => {
                let insts = &p.blocks[d].insts;
                let closes = insts
                    .last()
                    .is_some_and(|i| crate::program::ends_block(i.op));
                insts.len() - usize::from(closes)
            }
        };
        let mut load = Inst::new(Opcode::Mov, 1, reg, vec![c.imm]);
        load.nomask = !masked;
        loads.push((d, at, load));
        for &(b, k, i) in &c.uses {
            let s = &mut p.blocks[b].insts[k].srcs[i];
            *s = Reg {
                negate: s.negate,
                abs: s.abs,
                ..reg
            };
        }
        note("promoted-constant");
        let instructions = {
            let mut at: Vec<(usize, usize)> = c.uses.iter().map(|u| (u.0, u.1)).collect();
            at.dedup();
            at.len()
        };
        if instructions > 1 {
            note("shared-constant");
        }
        if blocks.iter().any(|&b| b != d) {
            note("hoisted-to-dominator");
        }
    }
    // Later positions first, so earlier indices stay valid; of the loads at one position
    // the last is inserted first, so they end up in the order the constants were met.
    let mut loads: Vec<(usize, (usize, usize, Inst))> = loads.into_iter().enumerate().collect();
    loads.sort_by_key(|(j, (b, at, _))| std::cmp::Reverse((*b, *at, *j)));
    for (_, (b, at, load)) in loads {
        p.blocks[b].insts.insert(at, load);
    }
    // A load before a DO lands in the DO's block: re-split so the DO stands alone again.
    p.resplit();
    Ok(true)
}
