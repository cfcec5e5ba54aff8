//! The instruction builder with Mesa's builder assertions (`brw_builder`, docs/hardware/brw-backend.md §2),
//! reported as errors instead of aborts so that a pass bug becomes a verdict, not a crash.
//!
//! A builder carries the execution controls new instructions get: width, first channel
//! (`group`) and NoMask. Narrowing to a sub-group is only allowed inside the parent's
//! channels unless the builder is NoMask, and a masked instruction must be exactly as wide as
//! its builder — the invariants that keep "no masked instruction wider than the dispatch
//! width" true.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::program::Program;
use crate::reg::Reg;
use crate::types::Type;
use serde::Serialize;
use std::fmt;

/// A broken builder assertion.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub enum BuildError {
    /// `group(n, i)` asked for channels outside the parent while not NoMask.
    GroupOutsideParent { width: u32, n: u32, i: u32 },
    /// A masked instruction whose width differs from the builder's.
    MaskedWidthMismatch { builder: u32, exec_size: u32 },
    /// Execution size above 32 or not a power of two.
    BadExecSize { exec_size: u32 },
    /// A one-source ALU op wider than 1 writing a scalar region.
    ScalarDestination { exec_size: u32 },
    /// `emit_minmax` with a modifier other than GE (max) or L (min).
    BadMinMax,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::GroupOutsideParent { width, n, i } => write!(
                f,
                "group({n}, {i}) is outside the parent's {width} channels and the builder is not NoMask"
            ),
            BuildError::MaskedWidthMismatch { builder, exec_size } => write!(
                f,
                "masked instruction of width {exec_size} emitted from a builder of width {builder}"
            ),
            BuildError::BadExecSize { exec_size } => {
                write!(f, "execution size {exec_size} is not a power of two ≤ 32")
            }
            BuildError::ScalarDestination { exec_size } => write!(
                f,
                "{exec_size}-wide one-source instruction writes a scalar (stride 0) destination"
            ),
            BuildError::BadMinMax => write!(f, "min/max needs the .ge or .l modifier"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Execution controls for new instructions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Builder {
    /// Width of instructions this builder emits (Mesa's builder `dispatch_width`).
    pub width: u32,
    /// First channel.
    pub group: u32,
    pub nomask: bool,
}

impl Builder {
    /// A builder for the whole program: its dispatch width, group 0, masked.
    pub fn for_program(p: &Program) -> Builder {
        Builder {
            width: p.dispatch_width as u32,
            group: 0,
            nomask: false,
        }
    }

    /// A builder inheriting an instruction's controls (inserting next to it).
    pub fn at(inst: &Inst) -> Builder {
        Builder {
            width: inst.exec_size as u32,
            group: inst.group as u32,
            nomask: inst.nomask,
        }
    }

    /// Sets NoMask (never clears it).
    pub fn exec_all(mut self) -> Builder {
        self.nomask = true;
        self
    }

    /// Width `n`, channel group `i·n` relative to this builder. Outside the parent's channels
    /// this is only legal under NoMask, and the group then restarts at 0 so that instructions
    /// never carry a group misaligned to their own width.
    pub fn group(self, n: u32, i: u32) -> Result<Builder, BuildError> {
        if n <= self.width && i < self.width / n.max(1) {
            Ok(Builder {
                width: n,
                group: self.group + i * n,
                nomask: self.nomask,
            })
        } else if self.nomask {
            Ok(Builder {
                width: n,
                group: 0,
                nomask: true,
            })
        } else {
            Err(BuildError::GroupOutsideParent {
                width: self.width,
                n,
                i,
            })
        }
    }

    /// The `i`th 8-wide quarter.
    pub fn quarter(self, i: u32) -> Result<Builder, BuildError> {
        self.group(8, i)
    }

    /// One channel, NoMask: for values that are the same in every channel.
    pub fn uniform(self) -> Builder {
        Builder {
            width: 1,
            group: 0,
            nomask: true,
        }
    }

    /// Stamps this builder's controls on `inst`, checking the builder assertions.
    pub fn emit(&self, mut inst: Inst) -> Result<Inst, BuildError> {
        let exec_size = inst.exec_size as u32;
        if exec_size > 32 || !exec_size.is_power_of_two() {
            return Err(BuildError::BadExecSize { exec_size });
        }
        if !self.nomask && exec_size != self.width {
            return Err(BuildError::MaskedWidthMismatch {
                builder: self.width,
                exec_size,
            });
        }
        if inst.op.src_count() == crate::opcode::SrcCount::Exactly(1)
            && !inst.op.is_math()
            && exec_size > 1
            && inst.dst.is_uniform()
        {
            return Err(BuildError::ScalarDestination { exec_size });
        }
        inst.group = self.group as u8;
        inst.nomask = self.nomask;
        Ok(inst)
    }

    /// A plain ALU instruction at this builder's width.
    pub fn alu(&self, op: Opcode, dst: Reg, srcs: &[Reg]) -> Result<Inst, BuildError> {
        self.emit(Inst::new(op, self.width as u8, dst, srcs.to_vec()))
    }

    pub fn mov(&self, dst: Reg, src: Reg) -> Result<Inst, BuildError> {
        self.alu(Opcode::Mov, dst, &[src])
    }

    /// `sel.ge` (max) or `sel.l` (min).
    pub fn minmax(
        &self,
        dst: Reg,
        a: Reg,
        b: Reg,
        cmod: crate::inst::CondMod,
    ) -> Result<Inst, BuildError> {
        use crate::inst::CondMod;
        if !matches!(cmod, CondMod::Ge | CondMod::L) {
            return Err(BuildError::BadMinMax);
        }
        Ok(self.alu(Opcode::Sel, dst, &[a, b])?.with_cmod(cmod, 0))
    }

    /// Allocates a VGRF holding `n` components of `ty` at this builder's width.
    pub fn vgrf(&self, p: &mut Program, ty: Type, n: u32) -> Reg {
        let bytes = (self.width * ty.size() * n).max(1);
        let nr = p.alloc_vgrf(bytes.div_ceil(crate::reg::REG_SIZE));
        Reg::vgrf(nr, ty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Device;

    fn b16() -> Builder {
        Builder::for_program(&Program::new(Device::Skl, 16))
    }

    #[test]
    fn group_inside_parent_adds_offset() {
        let q = b16().group(8, 1).unwrap();
        assert_eq!((q.width, q.group), (8, 8));
        // Nested: second 4-wide nibble of the second quarter.
        let n = q.group(4, 1).unwrap();
        assert_eq!((n.width, n.group), (4, 12));
    }

    #[test]
    fn group_outside_parent_needs_nomask() {
        let q = b16().group(8, 1).unwrap();
        assert_eq!(
            q.group(16, 0),
            Err(BuildError::GroupOutsideParent {
                width: 8,
                n: 16,
                i: 0
            })
        );
        let wide = q.exec_all().group(16, 0).unwrap();
        assert_eq!((wide.width, wide.group, wide.nomask), (16, 0, true));
    }

    #[test]
    fn masked_instruction_must_match_builder_width() {
        let b = b16();
        let dst = Reg::vgrf(0, Type::F);
        let narrow = Inst::new(Opcode::Mov, 8, dst, vec![Reg::imm_f(1.0)]);
        assert_eq!(
            b.emit(narrow.clone()),
            Err(BuildError::MaskedWidthMismatch {
                builder: 16,
                exec_size: 8
            })
        );
        let ok = b.exec_all().emit(narrow).unwrap();
        assert!(ok.nomask);
        let wide = Inst::new(Opcode::Mov, 32, dst, vec![Reg::imm_f(1.0)]);
        assert!(b.emit(wide).is_err());
        assert!(b.mov(dst, Reg::imm_f(2.0)).is_ok());
    }

    #[test]
    fn scalar_destination_and_minmax_checks() {
        let b = b16();
        let scalar = Reg::vgrf(0, Type::F).with_stride(0);
        assert_eq!(
            b.mov(scalar, Reg::imm_f(1.0)),
            Err(BuildError::ScalarDestination { exec_size: 16 })
        );
        assert!(b.uniform().mov(scalar, Reg::imm_f(1.0)).is_ok());
        let v = Reg::vgrf(1, Type::F);
        assert_eq!(
            b.minmax(v, v, v, crate::inst::CondMod::Z),
            Err(BuildError::BadMinMax)
        );
    }
}
