//! The 64-bit restrictions Mesa's vec4 optimisation passes and register allocator obey
//! (docs/hardware/fp64-align16.md §4, §6), one predicate each (§10 item 9), so each can be knocked out
//! on its own by a zoo bug and each pass states exactly which it applies.

use crate::inst::Inst;
use crate::pass::CompileOptions;
use crate::reg::REG_SIZE;

/// DCE (§6, 553700cf55): whether writing `inst`'s destination ends the liveness of the
/// bytes it covers. SET_LOW/HIGH_32BIT write one dword of each DF element through a
/// DF-typed destination, so they never do: packDouble2x32 is SET_LOW then SET_HIGH into
/// one register, and the SET_LOW is not dead.
pub fn write_kills_liveness(inst: &Inst, opts: &CompileOptions) -> bool {
    !inst.op.is_dword_half_set() || crate::zoo!(opts, DceSetHalfKilled)
}

/// CSE (§6, 8f39b3668a): two instructions compute the same values only over the same
/// channels: equal exec size and group. The split halves of one DF instruction with only
/// uniform sources are otherwise identical, but each runs with its own vertex's enables.
pub fn cse_same_channels(a: &Inst, b: &Inst, opts: &CompileOptions) -> bool {
    a.exec_size == b.exec_size && (a.group == b.group || crate::zoo!(opts, CseIgnoresGroup))
}

/// Register allocation (§4, 73610384a8 `has_source_and_destination_hazard`): an
/// instruction writing more than one GRF runs as two halves, the second reading its
/// sources after the first has written, so its destination may not share a register with
/// any source even when that source dies here.
pub fn has_source_and_destination_hazard(inst: &Inst, opts: &CompileOptions) -> bool {
    inst.size_written() > REG_SIZE && !crate::zoo!(opts, DfCompressedHazardIgnored)
}

/// Copy propagation (§6): only a register-aligned use reading one GRF at most is a
/// candidate, so an exec-8 DF source (64 bytes) never is: its two vertices live in two
/// registers, which the hardware's second-half rules treat apart (§3).
pub fn copy_prop_reads_one_aligned_grf(inst: &Inst, arg: usize) -> bool {
    let src = &inst.srcs[arg];
    inst.size_read(arg) <= REG_SIZE && crate::passes::reg_offset(src) == 0
}

/// Copy propagation (§6, 6637312847): before Gen8, a uniform value may not replace the
/// source of an instruction writing more than one GRF (the compressed instruction's
/// second half would read the register after the uniform's).
pub fn copy_prop_uniform_into_multi_grf(
    inst: &Inst,
    value: &crate::reg::Reg,
    generation: u32,
) -> bool {
    !(generation < 8 && inst.size_written() > REG_SIZE && value.is_uniform())
}

/// Copy propagation (§6, 93eae0d2a4): an exec-4 instruction may not read a 32-bit uniform
/// directly (it would be a `<0,4,1>` region at exec 4, against ExecSize = Width).
pub fn copy_prop_uniform_32bit_into_exec4(inst: &Inst, value: &crate::reg::Reg) -> bool {
    let uniform = matches!(value.kind, crate::reg::RegKind::Uniform { .. });
    !(inst.exec_size == 4 && uniform && value.ty.size() == 4)
}

/// Copy propagation (§6, 70cc6b0a02): the value and the use must have the same type size:
/// a swizzle or writemask means other bytes at another size.
pub fn copy_prop_same_type_size(use_: &crate::reg::Reg, value: &crate::reg::Reg) -> bool {
    use_.ty.size() == value.ty.size()
}

/// Copy propagation (§6, b9cd3f5b49): neither the use nor the value may start inside a
/// register (a 16-byte offset names the other vertex's half).
pub fn copy_prop_register_aligned(use_: &crate::reg::Reg, value: &crate::reg::Reg) -> bool {
    let aligned = |r: &crate::reg::Reg| match r.kind {
        crate::reg::RegKind::Vgrf { offset, .. }
        | crate::reg::RegKind::Attr { offset, .. }
        | crate::reg::RegKind::Uniform { offset, .. } => offset % REG_SIZE == 0,
        _ => true,
    };
    aligned(use_) && aligned(value)
}

/// Constant propagation (§6, 0fec5e9867): never a 64-bit immediate, nor into a 64-bit
/// source (Gen7 has no DF immediates in ALU instructions, §1.2).
pub fn const_prop_not_64bit(use_: &crate::reg::Reg, value: &crate::reg::Reg) -> bool {
    !value.is_imm() || (value.ty.size() < 8 && use_.ty.size() < 8)
}
