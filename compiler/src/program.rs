//! A whole shader program: target, dispatch, register declarations and a CFG of blocks.

use crate::device::Device;
use crate::inputs::Inputs;
use crate::inst::Inst;
use crate::opcode::Opcode;
use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};

/// A basic block. Boundaries follow Mesa's CFG construction (see [`split_blocks`]).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize, Arbitrary)]
pub struct Block {
    pub insts: Vec<Inst>,
}

/// A program as every stage of the pipeline sees it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub struct Program {
    pub device: Device,
    /// Dispatch width: 8, 16 or 32 channels per thread.
    pub dispatch_width: u8,
    /// Packed dispatch (brw-backend.md §9.2, `brw_stage_has_packed_dispatch`; compute
    /// shaders): every thread starts with its lowest N ≥ 1 channels live, so channel 0 is
    /// live at thread start. Without it (the fragment-shader model) any channels may be
    /// dispatched, channel 0 included. Inputs for such a program give packed masks
    /// (`Inputs::dispatch_mask_is_packed`); the emulator refuses others.
    #[serde(default)]
    pub packed_dispatch: bool,
    /// Hardware threads a run dispatches (each with its own registers and inputs).
    pub threads: u32,
    /// Size of each VGRF in 32-byte units, indexed by VGRF number.
    pub vgrf_sizes: Vec<u32>,
    /// Size of each ATTR (per-channel input) in 32-byte units.
    pub attr_sizes: Vec<u32>,
    /// Number of 32-bit push constants (`u0`…).
    pub uniforms: u32,
    /// Bytes of scratch space each thread uses (spills, scratch reads/writes).
    pub scratch_size: u32,
    pub blocks: Vec<Block>,
    /// Inputs the file carries for running the program.
    pub inputs: Option<Inputs>,
}

/// Whether an instruction of this opcode begins a new block (it is a jump target).
pub fn starts_block(op: Opcode) -> bool {
    matches!(op, Opcode::Do | Opcode::Endif | Opcode::HaltTarget)
}

/// Whether an instruction of this opcode is the last of its block (it may jump).
pub fn ends_block(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::If
            | Opcode::Else
            | Opcode::While
            | Opcode::Break
            | Opcode::Continue
            | Opcode::Halt
            | Opcode::Do
    )
}

/// Sizes of the canonical basic blocks of an instruction list, in order: a block ends after
/// IF, ELSE, WHILE, BREAK, CONTINUE, HALT and DO, and a new one starts at DO, ENDIF and
/// HALT_TARGET. No block is empty.
pub fn block_sizes(ops: impl Iterator<Item = Opcode>) -> Vec<usize> {
    let mut sizes = Vec::new();
    let mut cur = 0;
    for op in ops {
        if starts_block(op) && cur > 0 {
            sizes.push(cur);
            cur = 0;
        }
        cur += 1;
        if ends_block(op) {
            sizes.push(cur);
            cur = 0;
        }
    }
    if cur > 0 {
        sizes.push(cur);
    }
    sizes
}

/// Splits a straight instruction list into canonical basic blocks ([`block_sizes`]).
pub fn split_blocks(insts: Vec<Inst>) -> Vec<Block> {
    let sizes = block_sizes(insts.iter().map(|i| i.op));
    let mut rest = insts.into_iter();
    sizes
        .into_iter()
        .map(|n| Block {
            insts: rest.by_ref().take(n).collect(),
        })
        .collect()
}

impl Program {
    /// An empty program with no registers or instructions.
    pub fn new(device: Device, dispatch_width: u8) -> Program {
        Program {
            device,
            dispatch_width,
            packed_dispatch: false,
            threads: 1,
            vgrf_sizes: vec![],
            attr_sizes: vec![],
            uniforms: 0,
            scratch_size: 0,
            blocks: vec![],
            inputs: None,
        }
    }

    /// Replaces the instructions, splitting them into canonical blocks.
    pub fn set_insts(&mut self, insts: Vec<Inst>) {
        self.blocks = split_blocks(insts);
    }

    /// Re-splits the blocks after a change that may have moved block boundaries.
    pub fn resplit(&mut self) {
        let insts = self.take_insts();
        self.set_insts(insts);
    }

    /// All instructions in program order, leaving the program empty.
    pub fn take_insts(&mut self) -> Vec<Inst> {
        std::mem::take(&mut self.blocks)
            .into_iter()
            .flat_map(|b| b.insts)
            .collect()
    }

    /// Instructions in program order; the position is the instruction's `ip`.
    pub fn insts(&self) -> impl Iterator<Item = &Inst> {
        self.blocks.iter().flat_map(|b| b.insts.iter())
    }

    pub fn inst_count(&self) -> usize {
        self.blocks.iter().map(|b| b.insts.len()).sum()
    }

    /// Whether any operand still names a VGRF (IR before register allocation, which the
    /// emulator runs only in logical mode).
    pub fn has_vgrf_operands(&self) -> bool {
        self.insts()
            .any(|i| std::iter::once(&i.dst).chain(&i.srcs).any(|r| r.is_vgrf()))
    }

    /// Allocates a VGRF of `size` registers and returns its number.
    pub fn alloc_vgrf(&mut self, size: u32) -> u32 {
        self.vgrf_sizes.push(size);
        (self.vgrf_sizes.len() - 1) as u32
    }

    /// The `ip` of the first instruction of each block.
    pub fn block_starts(&self) -> Vec<usize> {
        let mut ip = 0;
        self.blocks
            .iter()
            .map(|b| {
                let start = ip;
                ip += b.insts.len();
                start
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inst::Inst;

    fn cf(op: Opcode) -> Inst {
        Inst::control(op, 8)
    }

    fn nop() -> Inst {
        Inst::control(Opcode::Nop, 8)
    }

    #[test]
    fn blocks_split_at_control_flow() {
        let insts = vec![
            nop(),
            cf(Opcode::If),
            nop(),
            cf(Opcode::Else),
            nop(),
            cf(Opcode::Endif),
            cf(Opcode::Do),
            nop(),
            cf(Opcode::Break),
            cf(Opcode::While),
            nop(),
        ];
        let sizes: Vec<usize> = split_blocks(insts).iter().map(|b| b.insts.len()).collect();
        // [nop if] [nop else] [nop] [endif] [do] [nop break] [while] [nop]
        assert_eq!(sizes, vec![2, 2, 1, 1, 1, 2, 1, 1]);
    }
}
