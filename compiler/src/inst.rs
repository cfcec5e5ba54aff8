//! Instructions (`brw_inst`): opcode, execution controls, operands, message descriptors,
//! and the size helpers every pass and the validator agree on.

use crate::opcode::Opcode;
use crate::reg::{REG_SIZE, Reg, RegKind};
use crate::types::Type;
use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};

/// Predicate control: how the flag bits select channels.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub enum PredKind {
    /// Channel `c` uses flag bit `group + c`.
    Normal,
    AnyV,
    AllV,
    Any2H,
    All2H,
    Any4H,
    All4H,
    Any8H,
    All8H,
    Any16H,
    All16H,
    Any32H,
    All32H,
}

/// Every predicate kind with its printed suffix (`(+f0.0.any16h)`).
pub const PRED_NAMES: [(PredKind, &str); 13] = [
    (PredKind::Normal, ""),
    (PredKind::AnyV, "anyv"),
    (PredKind::AllV, "allv"),
    (PredKind::Any2H, "any2h"),
    (PredKind::All2H, "all2h"),
    (PredKind::Any4H, "any4h"),
    (PredKind::All4H, "all4h"),
    (PredKind::Any8H, "any8h"),
    (PredKind::All8H, "all8h"),
    (PredKind::Any16H, "any16h"),
    (PredKind::All16H, "all16h"),
    (PredKind::Any32H, "any32h"),
    (PredKind::All32H, "all32h"),
];

impl PredKind {
    pub fn suffix(self) -> &'static str {
        PRED_NAMES
            .iter()
            .find(|(k, _)| *k == self)
            .map(|(_, s)| *s)
            .unwrap_or("")
    }

    /// For the horizontal any/all forms: how many consecutive flag bits form one group.
    pub fn horizontal_group(self) -> Option<u32> {
        use PredKind::*;
        match self {
            Any2H | All2H => Some(2),
            Any4H | All4H => Some(4),
            Any8H | All8H => Some(8),
            Any16H | All16H => Some(16),
            Any32H | All32H => Some(32),
            _ => None,
        }
    }
}

/// A predicate: kind plus inversion. The flag subregister lives in [`Inst::flag_subreg`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub struct Predicate {
    pub kind: PredKind,
    pub inverse: bool,
}

impl Predicate {
    pub const NORMAL: Predicate = Predicate {
        kind: PredKind::Normal,
        inverse: false,
    };
    pub const INVERSE: Predicate = Predicate {
        kind: PredKind::Normal,
        inverse: true,
    };
}

/// Conditional modifier (`BRW_CONDITIONAL_*`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub enum CondMod {
    Z,
    Nz,
    G,
    Ge,
    L,
    Le,
    /// Gen4/5 only.
    R,
    /// Overflow.
    O,
    /// Unordered (NaN).
    U,
}

pub const CMOD_NAMES: [(CondMod, &str); 9] = [
    (CondMod::Z, "z"),
    (CondMod::Nz, "nz"),
    (CondMod::G, "g"),
    (CondMod::Ge, "ge"),
    (CondMod::L, "l"),
    (CondMod::Le, "le"),
    (CondMod::R, "r"),
    (CondMod::O, "o"),
    (CondMod::U, "u"),
];

impl CondMod {
    pub fn name(self) -> &'static str {
        CMOD_NAMES
            .iter()
            .find(|(c, _)| *c == self)
            .map(|(_, s)| *s)
            .unwrap_or("?")
    }
}

/// The operation a hardware SEND asks its shared function for. The byte layout of each
/// payload is documented by the emulator, which is its one consumer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub enum MsgKind {
    /// Render-target write: colour channels for render target `target`.
    RtWrite { target: u8 },
    /// Untyped surface read of `comps` dwords per channel from buffer `surface`.
    UntypedRead { surface: u8, comps: u8 },
    /// Untyped surface write of `comps` dwords per channel to buffer `surface`.
    UntypedWrite { surface: u8, comps: u8 },
    /// Scratch block read of `rlen` registers at the header's offset.
    ScratchRead,
    /// Scratch block write of `mlen - 1` registers at the header's offset.
    ScratchWrite,
    /// Sampler: one 2-D sample from texture `surface`, four components back.
    Sample { surface: u8 },
    /// Vec4-stage URB write (the hardware form of `urb_write_logical`, SIMD4x2): a header
    /// register, then one register per output slot from `slot` on, vertex 0's four dwords
    /// in bytes 0–15 and vertex 1's in 16–31 (a dvec4 output is two such slots, x,y then
    /// z,w). Nothing comes back.
    UrbWrite { slot: u8 },
}

/// Message descriptor of a hardware SEND.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub struct MsgDesc {
    pub kind: MsgKind,
    /// Registers of the first payload.
    pub mlen: u8,
    /// Registers of the second ("extended") payload.
    pub ex_mlen: u8,
    /// Registers written back.
    pub rlen: u8,
    /// Whether the first payload register is a message header.
    pub header: bool,
}

/// Access mode (docs/hardware/eu-hardware.md §1.3): how operands are addressed. Align1 walks
/// `<vstride;width,hstride>` regions per channel; Align16 treats operands as vec4s of 32-bit
/// components with a swizzle per source and a writemask on the destination (Gen4 through
/// Gfx10 only).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize, Arbitrary)]
pub enum AccessMode {
    #[default]
    Align1,
    Align16,
}

/// One instruction. Execution controls follow Mesa: `group` is the first channel of the
/// execution/predicate mask the instruction uses, `nomask` is `force_writemask_all`.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub struct Inst {
    pub op: Opcode,
    pub exec_size: u8,
    pub group: u8,
    pub nomask: bool,
    pub predicate: Option<Predicate>,
    pub cmod: Option<CondMod>,
    /// The 16-bit flag subregister (0 = f0.0, 1 = f0.1, 2 = f1.0, ...) read by the predicate
    /// and written by the conditional modifier.
    pub flag_subreg: u8,
    pub saturate: bool,
    /// AccWrEnable: also update the accumulator.
    pub acc_wr: bool,
    /// NoDDClr: do not clear the destination's dependency scoreboard entry (a pre-Gfx12
    /// scheduling hint, docs/hardware/brw-backend.md §1.1 `no_dd_clear`). It changes no result: the
    /// emulator runs instructions in order; the strict rules say where it may appear.
    #[serde(default)]
    pub no_dd_clear: bool,
    /// NoDDChk: do not wait on the destination's dependency scoreboard (`no_dd_check`).
    #[serde(default)]
    pub no_dd_check: bool,
    pub eot: bool,
    /// Align1 (the default, not printed) or Align16 (`{ Align16 }`).
    #[serde(default)]
    pub access_mode: AccessMode,
    /// LOAD_PAYLOAD: how many leading sources are whole-register header sources.
    pub header_size: u8,
    pub dst: Reg,
    pub srcs: Vec<Reg>,
    pub desc: Option<MsgDesc>,
}

impl Inst {
    /// A plain instruction: masked, group 0, no predicate or modifiers.
    pub fn new(op: Opcode, exec_size: u8, dst: Reg, srcs: Vec<Reg>) -> Inst {
        Inst {
            op,
            exec_size,
            group: 0,
            nomask: false,
            predicate: None,
            cmod: None,
            flag_subreg: 0,
            saturate: false,
            acc_wr: false,
            no_dd_clear: false,
            no_dd_check: false,
            eot: false,
            access_mode: AccessMode::Align1,
            header_size: 0,
            dst,
            srcs,
            desc: None,
        }
    }

    /// A control-flow instruction (no operands).
    pub fn control(op: Opcode, exec_size: u8) -> Inst {
        Inst::new(op, exec_size, Reg::null(Type::UD), vec![])
    }

    pub fn with_group(mut self, group: u8) -> Inst {
        self.group = group;
        self
    }

    pub fn with_nomask(mut self) -> Inst {
        self.nomask = true;
        self
    }

    pub fn with_pred(mut self, pred: Predicate, flag_subreg: u8) -> Inst {
        self.predicate = Some(pred);
        self.flag_subreg = flag_subreg;
        self
    }

    pub fn with_cmod(mut self, cmod: CondMod, flag_subreg: u8) -> Inst {
        self.cmod = Some(cmod);
        self.flag_subreg = flag_subreg;
        self
    }

    pub fn with_sat(mut self) -> Inst {
        self.saturate = true;
        self
    }

    /// The same instruction in Align16 access mode.
    pub fn with_align16(mut self) -> Inst {
        self.access_mode = AccessMode::Align16;
        self
    }

    pub fn is_align16(&self) -> bool {
        self.access_mode == AccessMode::Align16
    }

    pub fn with_eot(mut self) -> Inst {
        self.eot = true;
        self
    }

    /// Immediate source `i` as an unsigned integer, if it is one.
    pub fn imm_src(&self, i: usize) -> Option<u64> {
        self.srcs.get(i).and_then(|s| s.imm_bits())
    }

    /// Components per channel moved by a message (1..=4 for the logical sends; for
    /// `urb_write_logical`, the number of vec4 values, also 1..=4 per message).
    /// Out-of-range counts (which the validator reports) are clamped to 1..=4 here so that
    /// size arithmetic stays meaningful.
    pub fn message_components(&self) -> u32 {
        let count = match self.op {
            Opcode::FbWriteLogical => self.imm_src(1).unwrap_or(4),
            Opcode::UntypedReadLogical => self.imm_src(2).unwrap_or(1),
            Opcode::UntypedWriteLogical => self.imm_src(3).unwrap_or(1),
            Opcode::TexLogical => 4,
            Opcode::UrbWriteLogical => self.imm_src(2).unwrap_or(1),
            _ => 1,
        };
        count.clamp(1, 4) as u32
    }

    /// Bytes of one SIMD component of `reg` at this instruction's width (stride 0 → one element).
    pub fn component_bytes(&self, reg: &Reg) -> u32 {
        let n = self.exec_size as u32;
        match reg.kind {
            RegKind::Vgrf { stride, .. } | RegKind::Attr { stride, .. } => {
                if stride == 0 {
                    reg.ty.size()
                } else {
                    n * stride as u32 * reg.ty.size()
                }
            }
            _ => reg
                .footprint(n)
                .map(|(start, end)| u32::try_from(end - start).unwrap_or(u32::MAX))
                .unwrap_or(0),
        }
    }

    /// Bytes written to the destination (Mesa's `size_written`).
    pub fn size_written(&self) -> u32 {
        if self.dst.is_null() || self.op.is_control_flow() {
            return 0;
        }
        let n = self.exec_size as u32;
        match self.op {
            Opcode::LoadPayload => {
                let header = (self.header_size as usize).min(self.srcs.len());
                (header as u32 * REG_SIZE).saturating_add(
                    ((self.srcs.len() - header) as u32)
                        .saturating_mul(self.component_bytes(&self.dst)),
                )
            }
            Opcode::UntypedReadLogical | Opcode::TexLogical => {
                self.message_components() * n * self.dst.ty.size()
            }
            Opcode::Send => self.desc.map(|d| d.rlen as u32 * REG_SIZE).unwrap_or(0),
            // One scalar (`Opcode::FindLiveChannel` docs).
            Opcode::FindLiveChannel | Opcode::Broadcast => self.dst.ty.size(),
            _ => self.component_bytes(&self.dst),
        }
    }

    /// Bytes read from source `i` (Mesa's `size_read`).
    pub fn size_read(&self, i: usize) -> u32 {
        let Some(src) = self.srcs.get(i) else {
            return 0;
        };
        if src.is_null() || src.is_imm() {
            return 0;
        }
        let n = self.exec_size as u32;
        match (self.op, i) {
            // A header register is copied by an exec-8 NoMask UD MOV of the operand
            // (docs/hardware/brw-backend.md §7.3), so it reads what that MOV's region reads:
            // one whole register for the usual linear source, one dword for a uniform.
            (Opcode::LoadPayload, i) if i < self.header_size as usize => src
                .retype(Type::UD)
                .footprint(8)
                .map_or(REG_SIZE, |(start, end)| (end - start) as u32),
            (Opcode::FbWriteLogical | Opcode::UrbWriteLogical, 0) => {
                self.message_components() * self.component_bytes(src)
            }
            (Opcode::UntypedWriteLogical, 1) => {
                self.message_components() * self.component_bytes(src)
            }
            (Opcode::Send, 0) => self.desc.map(|d| d.mlen as u32 * REG_SIZE).unwrap_or(0),
            (Opcode::Send, 1) => self.desc.map(|d| d.ex_mlen as u32 * REG_SIZE).unwrap_or(0),
            (Opcode::ScratchWrite, 0) => n * src.ty.size(),
            _ => self.component_bytes(src),
        }
    }

    /// Whether the write leaves some bytes of the destination's registers untouched by this
    /// instruction (predicated, writemasked, strided, or not covering whole registers).
    pub fn is_partial_write(&self) -> bool {
        if self.predicate.is_some() && self.op != Opcode::Sel {
            return true;
        }
        if self.is_align16() && !self.dst.writemask.is_full() {
            return true;
        }
        if self.op.is_dword_half_set() {
            return true;
        }
        match self.dst.kind {
            RegKind::Vgrf { offset, stride, .. } => {
                let size = self.size_written();
                stride != 1 || offset % REG_SIZE != 0 || !size.is_multiple_of(REG_SIZE)
            }
            _ => false,
        }
    }

    /// Whether a conditional modifier on this instruction writes the flag register
    /// (SEL's modifier selects min/max instead).
    pub fn writes_flag(&self) -> bool {
        self.cmod.is_some() && self.op != Opcode::Sel
    }

    /// Number of flag bits consumed or produced per channel range: `(first bit, count)` in
    /// the concatenated flag file (f0.0 = bits 0..16, f0.1 = 16..32, ...).
    pub fn flag_bits(&self) -> (u32, u32) {
        (
            16 * self.flag_subreg as u32 + self.group as u32,
            self.exec_size as u32,
        )
    }
}
