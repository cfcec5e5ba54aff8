//! Opcodes: the EU ALU set, the math functions, the logical (virtual) operations that the
//! lowering passes turn into hardware instructions, hardware SEND, and control flow.

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};

/// Every operation the IR can express, hardware or virtual.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Arbitrary)]
pub enum Opcode {
    // Moves and logic.
    Mov,
    Sel,
    Not,
    And,
    Or,
    Xor,
    Shr,
    Shl,
    Asr,
    Rol,
    Ror,
    Cmp,
    Cmpn,
    // Arithmetic.
    Add,
    Addc,
    Subb,
    Avg,
    Mul,
    Mach,
    /// Multiply-accumulate: `acc + src0 × src1` (reads the accumulator implicitly).
    Mac,
    /// Three-source integer add (Gfx12.5+).
    Add3,
    Mad,
    Lrp,
    Frc,
    Rndu,
    Rndd,
    Rnde,
    Rndz,
    // Bit operations.
    Bfrev,
    Bfe,
    Bfi1,
    Bfi2,
    Fbh,
    Fbl,
    Cbit,
    Lzd,
    // Extended math (the MATH instruction's functions).
    Rcp,
    Rsq,
    Sqrt,
    Exp2,
    Log2,
    Sin,
    Cos,
    Pow,
    IntQuotient,
    IntRemainder,
    // Logical operations, lowered before register allocation.
    LoadPayload,
    Mulh,
    FbWriteLogical,
    UntypedReadLogical,
    UntypedWriteLogical,
    ScratchRead,
    ScratchWrite,
    TexLogical,
    /// The vec4 stage's output message (`stage vs`, a model of Mesa's VS URB write with
    /// EOT): `urb_write_logical(8) null:UD, DATA, SLOT:UD, COUNT:UD`. It writes `COUNT`
    /// consecutive vec4 values of DATA, laid out as a vec4 VGRF of DATA's type
    /// (docs/hardware/fp64-align16.md §1.1: a 32-bit vec4 is one register, vertex 0 in bytes 0–15 and
    /// vertex 1 in 16–31; a dvec4 is two registers, one per vertex), to the output slots
    /// from `SLOT` on; a dvec4 takes two slots (x,y then z,w), as Mesa's 64-bit outputs do.
    /// Channel `c` of the instruction is component `c % 4` of vertex `c / 4`: the emulator
    /// records each enabled vertex's components per slot (`emu::result::UrbWrite`).
    UrbWriteLogical,
    /// `SHADER_OPCODE_FIND_LIVE_CHANNEL` (docs/hardware/brw-backend.md §1.1): the index, relative to the
    /// instruction's group, of the first channel of its `exec_size` channels that the
    /// current execution mask enables (§9.2: dispatched, not parked by control flow or
    /// HALT), written as one scalar UD. NoMask is required and does not change the result:
    /// the operation reads the mask instead of being gated by it. No channel enabled gives
    /// 0xFFFFFFFF, what FBL of an empty mask gives. It stays in hardware IR as a
    /// pseudo-instruction (see `hw::is_pseudo`).
    FindLiveChannel,
    /// `SHADER_OPCODE_BROADCAST` (§1.1): the scalar destination receives, bit for bit, the
    /// element of src0 (read as a region of `exec_size` channels) in the channel that src1
    /// (a scalar UD, uniform across channels) names. NoMask is required; src0 is read
    /// whatever its channel's enable. An index at or beyond `exec_size` leaves the
    /// destination undefined.
    Broadcast,
    /// `VEC4_OPCODE_PICK_LOW_32BIT` (docs/hardware/fp64-align16.md §5.3): the 32-bit destination channel
    /// `c` (packed) receives the low dword of the source's DF element `c`. An Align1
    /// operation: Align16 would need 32-bit logical swizzles the IR does not carry.
    PickLow32,
    /// `VEC4_OPCODE_PICK_HIGH_32BIT` (§5.3): as PICK_LOW, the high dword.
    PickHigh32,
    /// `VEC4_OPCODE_SET_LOW_32BIT` (§5.3): the low dword of the DF destination element `c`
    /// receives the 32-bit source channel `c`; the high dword is untouched (a partial write,
    /// so it never ends the liveness of what it overwrites, §6).
    SetLow32,
    /// `VEC4_OPCODE_SET_HIGH_32BIT` (§5.3): as SET_LOW, the high dword.
    SetHigh32,
    /// `DIM` (docs/hardware/fp64-align16.md §1.2, §10 item 7): Haswell's one way to load a 64-bit
    /// immediate, which its ALU instructions cannot take: every enabled DF channel of the
    /// destination receives the DF immediate source.
    Dim,
    // Hardware message.
    Send,
    // Control flow.
    If,
    Else,
    Endif,
    Do,
    While,
    Break,
    Continue,
    Halt,
    HaltTarget,
    Nop,
}

/// Every opcode with its printed name (Mesa's `brw_instruction_name` spelling where one exists).
pub const OPCODE_NAMES: [(Opcode, &str); 73] = [
    (Opcode::Mov, "mov"),
    (Opcode::Sel, "sel"),
    (Opcode::Not, "not"),
    (Opcode::And, "and"),
    (Opcode::Or, "or"),
    (Opcode::Xor, "xor"),
    (Opcode::Shr, "shr"),
    (Opcode::Shl, "shl"),
    (Opcode::Asr, "asr"),
    (Opcode::Rol, "rol"),
    (Opcode::Ror, "ror"),
    (Opcode::Cmp, "cmp"),
    (Opcode::Cmpn, "cmpn"),
    (Opcode::Add, "add"),
    (Opcode::Addc, "addc"),
    (Opcode::Subb, "subb"),
    (Opcode::Avg, "avg"),
    (Opcode::Mul, "mul"),
    (Opcode::Mach, "mach"),
    (Opcode::Mac, "mac"),
    (Opcode::Add3, "add3"),
    (Opcode::Mad, "mad"),
    (Opcode::Lrp, "lrp"),
    (Opcode::Frc, "frc"),
    (Opcode::Rndu, "rndu"),
    (Opcode::Rndd, "rndd"),
    (Opcode::Rnde, "rnde"),
    (Opcode::Rndz, "rndz"),
    (Opcode::Bfrev, "bfrev"),
    (Opcode::Bfe, "bfe"),
    (Opcode::Bfi1, "bfi1"),
    (Opcode::Bfi2, "bfi2"),
    (Opcode::Fbh, "fbh"),
    (Opcode::Fbl, "fbl"),
    (Opcode::Cbit, "cbit"),
    (Opcode::Lzd, "lzd"),
    (Opcode::Rcp, "rcp"),
    (Opcode::Rsq, "rsq"),
    (Opcode::Sqrt, "sqrt"),
    (Opcode::Exp2, "exp2"),
    (Opcode::Log2, "log2"),
    (Opcode::Sin, "sin"),
    (Opcode::Cos, "cos"),
    (Opcode::Pow, "pow"),
    (Opcode::IntQuotient, "int_quot"),
    (Opcode::IntRemainder, "int_rem"),
    (Opcode::LoadPayload, "load_payload"),
    (Opcode::Mulh, "mulh"),
    (Opcode::FbWriteLogical, "fb_write_logical"),
    (Opcode::UntypedReadLogical, "untyped_read_logical"),
    (Opcode::UntypedWriteLogical, "untyped_write_logical"),
    (Opcode::ScratchRead, "scratch_read"),
    (Opcode::ScratchWrite, "scratch_write"),
    (Opcode::TexLogical, "tex_logical"),
    (Opcode::UrbWriteLogical, "urb_write_logical"),
    (Opcode::FindLiveChannel, "find_live_channel"),
    (Opcode::Broadcast, "broadcast"),
    (Opcode::PickLow32, "pick_low_32bit"),
    (Opcode::PickHigh32, "pick_high_32bit"),
    (Opcode::SetLow32, "set_low_32bit"),
    (Opcode::SetHigh32, "set_high_32bit"),
    (Opcode::Dim, "dim"),
    (Opcode::Send, "send"),
    (Opcode::If, "if"),
    (Opcode::Else, "else"),
    (Opcode::Endif, "endif"),
    (Opcode::Do, "do"),
    (Opcode::While, "while"),
    (Opcode::Break, "break"),
    (Opcode::Continue, "cont"),
    (Opcode::Halt, "halt"),
    (Opcode::HaltTarget, "halt_target"),
    (Opcode::Nop, "nop"),
];

/// How many sources an opcode takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SrcCount {
    Exactly(usize),
    /// LOAD_PAYLOAD: header plus one source per component, at least one.
    AtLeast(usize),
}

impl Opcode {
    pub fn name(self) -> &'static str {
        OPCODE_NAMES
            .iter()
            .find(|(o, _)| *o == self)
            .map(|(_, n)| *n)
            .unwrap_or("?")
    }

    pub fn from_name(s: &str) -> Option<Opcode> {
        OPCODE_NAMES.iter().find(|(_, n)| *n == s).map(|(o, _)| *o)
    }

    pub fn src_count(self) -> SrcCount {
        use Opcode::*;
        SrcCount::Exactly(match self {
            Mov | Not | Frc | Rndu | Rndd | Rnde | Rndz | Bfrev | Fbh | Fbl | Cbit | Lzd | Rcp
            | Rsq | Sqrt | Exp2 | Log2 | Sin | Cos | PickLow32 | PickHigh32 | SetLow32
            | SetHigh32 | Dim => 1,
            Sel | And | Or | Xor | Shr | Shl | Asr | Rol | Ror | Cmp | Cmpn | Add | Addc | Subb
            | Avg | Mul | Mach | Mac | Bfi1 | Pow | IntQuotient | IntRemainder | Mulh => 2,
            Mad | Lrp | Bfe | Bfi2 | Add3 => 3,
            LoadPayload => return SrcCount::AtLeast(1),
            // color, component count (imm), render target (imm)
            FbWriteLogical => 3,
            // address, surface (imm), component count (imm)
            UntypedReadLogical => 3,
            // address, data, surface (imm), component count (imm)
            UntypedWriteLogical => 4,
            // byte offset (imm)
            ScratchRead => 1,
            // data, byte offset (imm)
            ScratchWrite => 2,
            // u, v, surface (imm)
            TexLogical => 3,
            // data, first output slot (imm), vec4 value count (imm)
            UrbWriteLogical => 3,
            // value, channel index
            Broadcast => 2,
            FindLiveChannel => 0,
            // payload, extended payload
            Send => 2,
            If | Else | Endif | Do | While | Break | Continue | Halt | HaltTarget | Nop => 0,
        })
    }

    pub fn is_control_flow(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            If | Else | Endif | Do | While | Break | Continue | Halt | HaltTarget
        )
    }

    /// Three-source (Align16 on older parts) instructions.
    pub fn is_3src(self) -> bool {
        matches!(
            self,
            Opcode::Mad | Opcode::Lrp | Opcode::Bfe | Opcode::Bfi2 | Opcode::Add3
        )
    }

    /// Extended math functions (one MATH instruction each in hardware).
    pub fn is_math(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Rcp | Rsq | Sqrt | Exp2 | Log2 | Sin | Cos | Pow | IntQuotient | IntRemainder
        )
    }

    /// Virtual operations that must be lowered before the program reaches hardware.
    pub fn is_logical(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            LoadPayload
                | Mulh
                | FbWriteLogical
                | UntypedReadLogical
                | UntypedWriteLogical
                | TexLogical
                | UrbWriteLogical
        )
    }

    /// Operations with no hardware instruction (docs/hardware/brw-backend.md §1.8): the logical
    /// operations, and the register allocator's spill/fill pseudo-operations, which
    /// `allocate_registers` lowers to SENDs as Mesa's `brw_lower_fill_and_spill` lowers
    /// `LSC_FILL`/`LSC_SPILL`. Compiled code contains none of them. (FIND_LIVE_CHANNEL,
    /// BROADCAST and the vec4 dword moves are not among them: they are what Mesa's
    /// generator expands into hardware instructions, and compiled code keeps them.)
    pub fn is_virtual(self) -> bool {
        self.is_logical() || matches!(self, Opcode::ScratchRead | Opcode::ScratchWrite)
    }

    /// Operations that talk to a shared function (logical sends, scratch, SEND itself).
    pub fn is_message(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            FbWriteLogical
                | UntypedReadLogical
                | UntypedWriteLogical
                | ScratchRead
                | ScratchWrite
                | TexLogical
                | UrbWriteLogical
                | Send
        )
    }

    /// FIND_LIVE_CHANNEL and BROADCAST: NoMask operations across the channels of their group
    /// whose destination is one scalar element (`v0<0>:UD`), not one element per channel.
    pub fn is_subgroup(self) -> bool {
        matches!(self, Opcode::FindLiveChannel | Opcode::Broadcast)
    }

    /// The Align1 opcodes that move one dword of each DF element (docs/hardware/fp64-align16.md §5.3):
    /// `scalarize_df` leaves them whole, and they take no swizzle or writemask.
    pub fn is_dword_half_move(self) -> bool {
        matches!(
            self,
            Opcode::PickLow32 | Opcode::PickHigh32 | Opcode::SetLow32 | Opcode::SetHigh32
        )
    }

    /// SET_LOW/HIGH_32BIT: the destination keeps the other dword of each DF element.
    pub fn is_dword_half_set(self) -> bool {
        matches!(self, Opcode::SetLow32 | Opcode::SetHigh32)
    }

    /// Operations that may end the thread.
    pub fn can_eot(self) -> bool {
        matches!(
            self,
            Opcode::Send | Opcode::FbWriteLogical | Opcode::UrbWriteLogical
        )
    }

    /// Operations with effects beyond their destination (never dead code).
    pub fn has_side_effects(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            FbWriteLogical | UntypedWriteLogical | ScratchWrite | UrbWriteLogical | Send
        ) || self.is_control_flow()
    }

    /// Bitwise logic ops, where `negate` means NOT and `abs` is undefined (Gen8+).
    pub fn is_logic(self) -> bool {
        matches!(self, Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not)
    }

    /// Hardware operations that accept a conditional modifier (docs/hardware/brw-backend.md §10.3 #2: FBL
    /// cannot carry one, so a compare cannot be folded into it; docs/hardware/eu-hardware.md §6.10: BFI2
    /// cannot). The documents list no more; the other bit-scan/count operations (FBH, CBIT,
    /// BFREV, LZD), bit-field ops, rotates, MACH and the math functions are left out as the
    /// conservative reading: a modifier there is rejected rather than given invented flag
    /// semantics (MAC included). ADD3 takes one (docs/hardware/brw-backend.md §10.3 #33, `add3.nz`). SEL's
    /// modifier selects min/max instead of writing the flag.
    pub fn can_do_cmod(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Mov | Sel
                | Not
                | And
                | Or
                | Xor
                | Shr
                | Shl
                | Asr
                | Cmp
                | Cmpn
                | Add
                | Add3
                | Addc
                | Subb
                | Avg
                | Mul
                | Mad
                | Lrp
                | Frc
                | Rndu
                | Rndd
                | Rnde
                | Rndz
        )
    }

    /// Operations the IR accepts a conditional modifier on: the hardware ones, plus MULH,
    /// whose lowering tests the finished product with a separate `mov.cmod`.
    pub fn ir_can_do_cmod(self) -> bool {
        self.can_do_cmod() || self == Opcode::Mulh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/hardware/brw-backend.md §1.8: the logical sends, MULH, LOAD_PAYLOAD and the spill/fill
    /// pseudo-operations have no hardware instruction; the EU instructions, the math
    /// functions, SEND, control flow and the generator-expanded operations do.
    #[test]
    fn virtual_opcodes_are_the_ones_without_a_hardware_instruction() {
        use Opcode::*;
        let virtual_ops = [
            LoadPayload,
            Mulh,
            FbWriteLogical,
            UntypedReadLogical,
            UntypedWriteLogical,
            ScratchRead,
            ScratchWrite,
            TexLogical,
            UrbWriteLogical,
        ];
        for (op, name) in OPCODE_NAMES {
            assert_eq!(op.is_virtual(), virtual_ops.contains(&op), "{name}");
        }
    }

    #[test]
    fn names_are_unique_and_round_trip() {
        for (op, name) in OPCODE_NAMES {
            assert_eq!(Opcode::from_name(name), Some(op));
            assert_eq!(op.name(), name);
        }
        let mut names: Vec<_> = OPCODE_NAMES.iter().map(|(_, n)| *n).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), OPCODE_NAMES.len());
    }
}
