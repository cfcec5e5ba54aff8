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

/// The kind of shader a program is, which decides how its channels, inputs and outputs are
/// laid out.
///
/// * `Fragment` (the default, no header line): Mesa's scalar (brw/fs) model — one channel
///   per pixel, ATTR/UNIFORM read per channel / as scalars, output by `fb_write_logical`.
/// * `Vertex` (`stage vs`): Mesa's vec4 backend (docs/hardware/fp64-align16.md §1.1), SIMD4x2 dispatch:
///   dispatch width 8 = two vertices × four components, channel `c` is component `c % 4`
///   of vertex `c / 4`. A 32-bit vec4 VGRF/ATTR value is one register (vertex 0 in bytes
///   0–15, vertex 1 in 16–31), a dvec4 two (vertex 0 in the first, vertex 1 in the second);
///   uniforms are vec4 slots (slot `k` = `u<4k>`, 16 bytes; a dvec3/dvec4 takes two);
///   Align16 swizzles and writemasks on these virtual operands count components of the
///   operand's own type. Output goes through `urb_write_logical`. A thread runs vertex 0
///   alone (dispatch mask `0x0f`) or both (`0xff`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize, Arbitrary)]
pub enum Stage {
    #[default]
    Fragment,
    Vertex,
}

impl Stage {
    /// The word of the `stage` header line.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Fragment => "fs",
            Stage::Vertex => "vs",
        }
    }

    pub fn from_name(name: &str) -> Option<Stage> {
        match name {
            "fs" => Some(Stage::Fragment),
            "vs" => Some(Stage::Vertex),
            _ => None,
        }
    }

    /// Whether this is the vec4 (SIMD4x2, Align16) stage.
    pub fn is_vec4(self) -> bool {
        self == Stage::Vertex
    }

    /// Why `device` cannot run programs of this stage, if it cannot. The vec4 stage is
    /// modelled on Gen7/7.5 only (ivb, byt, hsw): the parts whose vertex shaders Mesa's vec4
    /// backend compiles with FP64 (docs/hardware/fp64-align16.md §8 and the series it describes). Gen4–6
    /// have no DF; from Gfx8 Mesa compiles vertex shaders with the scalar backend, and
    /// Align16 is gone on Gfx11+ (docs/hardware/eu-hardware.md §1.3). `check --all-devices` skips such a
    /// device with this reason; the validator reports it (`vec4-stage`).
    pub fn unsupported_on(self, device: Device) -> Option<&'static str> {
        let verx10 = device.info().verx10;
        match self {
            Stage::Fragment => None,
            Stage::Vertex if verx10 < 70 => {
                Some("the vec4 stage is modelled on Gen7/7.5 only (no FP64 before Gen7)")
            }
            Stage::Vertex if verx10 >= 80 => Some(
                "the vec4 stage is modelled on Gen7/7.5 only (Gfx8+ vertex shaders use the scalar backend; no Align16 on Gfx11+)",
            ),
            Stage::Vertex => None,
        }
    }
}

/// Components of a vec4 (channels per vertex) in the vec4 stage.
pub const VEC4_COMPONENTS: u32 = 4;

/// Dispatch masks a vec4-stage thread may start with: vertex 0 alone, or both vertices.
pub const VEC4_DISPATCH_MASKS: [u32; 2] = [0x0f, 0xff];

/// A program as every stage of the pipeline sees it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub struct Program {
    pub device: Device,
    /// Fragment (scalar) or vertex (vec4) program; see [`Stage`].
    #[serde(default)]
    #[arbitrary(default)]
    pub stage: Stage,
    /// Dispatch width: 8, 16 or 32 channels per thread.
    pub dispatch_width: u8,
    /// Packed dispatch (docs/hardware/brw-backend.md §9.2, `brw_stage_has_packed_dispatch`; compute
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
            stage: Stage::Fragment,
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

    /// Whether this is hardware code, as register allocation leaves it: no virtual
    /// register (VGRF, ATTR, UNIFORM) and no logical opcode. A program of fixed GRFs alone
    /// may still be logical code, reading its inputs as ATTRs or writing through a
    /// logical send.
    pub fn is_hardware_form(&self) -> bool {
        let is_virtual = |r: &crate::reg::Reg| {
            matches!(
                r.kind,
                crate::reg::RegKind::Vgrf { .. }
                    | crate::reg::RegKind::Attr { .. }
                    | crate::reg::RegKind::Uniform { .. }
            )
        };
        !self
            .insts()
            .any(|i| i.op.is_logical() || std::iter::once(&i.dst).chain(&i.srcs).any(is_virtual))
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
    fn fixed_grfs_alone_are_not_hardware_form() {
        let text = "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\n\nSTART B0\n    \
                    mov(8) g13<8;8,1>:D, attr0:D\n    \
                    fb_write_logical(8) null:UD, g13<8;8,1>:F, 1:UD, 0:UD { EOT }\nEND B0\n";
        let p = crate::text::parse_program(text).unwrap();
        assert!(!p.has_vgrf_operands() && !p.is_hardware_form());
        let compiled = crate::pipeline::compile(&p, &Default::default()).program;
        assert!(compiled.is_hardware_form());
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
