//! The 64-bit restrictions Mesa's vec4 optimisation passes and register allocator obey
//! (fp64-align16.md §4, §6), one predicate each (§10 item 9), so each can be knocked out
//! on its own by a zoo bug and each pass states exactly which it applies.

use crate::inst::Inst;
use crate::pipeline::CompileOptions;
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
