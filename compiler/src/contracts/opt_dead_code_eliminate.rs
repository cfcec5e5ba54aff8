//! The contract of `opt_dead_code_eliminate`: what it leaves in every program
//! (`Pass::postcondition`), stated apart from the pass (docs/validator.md, pass contracts):
//! its own reading of what the program reads and of what has effects, so that a pass that
//! miscounts either is seen keeping dead code.

use crate::inst::{Inst, PredKind};
use crate::opcode::Opcode;
use crate::program::Program;
use crate::reg::{Arf, RegKind};
use crate::validate::{Rule, Violation};

/// What a program reads anywhere: the VGRFs some operand reads, and the flag bytes some
/// predicate reads, one bit per byte (all of them when a flag register is read as an
/// operand or by a horizontal predicate).
struct ReadAnywhere {
    vgrfs: Vec<bool>,
    flag_bytes: u64,
}

/// The flag bytes an instruction's predicate or conditional modifier covers: Mesa tracks
/// flag liveness by the byte (`flag_mask` in Mesa's `brw_fs.cpp`; docs/hardware/brw-backend.md
/// §7.1 item 7), one bit per byte.
fn flag_bytes(inst: &Inst) -> u64 {
    let (first, count) = inst.flag_bits();
    (first / 8..(first + count.max(1)).div_ceil(8).min(64)).fold(0, |m, b| m | 1 << b)
}

impl ReadAnywhere {
    fn of(p: &Program) -> ReadAnywhere {
        let mut read = ReadAnywhere {
            vgrfs: vec![false; p.vgrf_sizes.len()],
            flag_bytes: 0,
        };
        for inst in p.insts() {
            for s in &inst.srcs {
                match s.kind {
                    RegKind::Vgrf { nr, .. } => {
                        if let Some(r) = read.vgrfs.get_mut(nr as usize) {
                            *r = true;
                        }
                    }
                    RegKind::Arf {
                        file: Arf::Flag, ..
                    } => read.flag_bytes = u64::MAX,
                    _ => {}
                }
            }
            match inst.predicate {
                Some(pred) if pred.kind == PredKind::Normal => read.flag_bytes |= flag_bytes(inst),
                Some(_) => read.flag_bytes = u64::MAX,
                None => {}
            }
        }
        read
    }

    fn vgrf(&self, nr: u32) -> bool {
        self.vgrfs.get(nr as usize).copied().unwrap_or(true)
    }

    fn any_flag_byte_of(&self, inst: &Inst) -> bool {
        self.flag_bytes & flag_bytes(inst) != 0
    }
}

/// Whether removing `inst` could change anything besides its destination and flag result:
/// messages and other side effects (control flow among them), EOT, accumulator writes
/// (explicit, or implicit in MACH, MAC, ADDC and SUBB), NOPs, and any architecture-register
/// operand.
fn has_effects(inst: &Inst) -> bool {
    inst.op.has_side_effects()
        || inst.op.is_message()
        || inst.eot
        || inst.acc_wr
        || matches!(
            inst.op,
            Opcode::Mach | Opcode::Mac | Opcode::Addc | Opcode::Subb | Opcode::Nop
        )
        || std::iter::once(&inst.dst)
            .chain(&inst.srcs)
            .any(|r| matches!(r.kind, RegKind::Arf { .. }))
}

/// What the pass leaves ([`Rule::DeadCodeKept`]): no instruction without other effects
/// whose every result is unread anywhere in the program — a null destination or a VGRF no
/// operand reads, and no flag write (by the instruction's own account,
/// `Inst::writes_flag`) or one none of whose bytes any predicate reads. Mesa's backward
/// liveness removes each of these, since a value read nowhere is live nowhere
/// (docs/hardware/brw-backend.md §7.1 item 7).
pub fn postcondition(p: &Program) -> Vec<Violation> {
    let read = ReadAnywhere::of(p);
    p.insts()
        .enumerate()
        .filter(|(_, i)| !has_effects(i))
        .filter_map(|(ip, i)| {
            let flag_read = i.writes_flag() && read.any_flag_byte_of(i);
            let what = match i.dst.kind {
                RegKind::Null if !flag_read => "writes nothing read anywhere",
                RegKind::Vgrf { nr, .. } if !read.vgrf(nr) && !flag_read => {
                    "writes a VGRF no instruction reads"
                }
                _ => return None,
            };
            Some(Violation {
                rule: Rule::DeadCodeKept,
                ip: Some(ip),
                message: format!(
                    "{} {what} and has no other effect, yet dead-code elimination kept it",
                    i.op.name()
                ),
            })
        })
        .collect()
}
