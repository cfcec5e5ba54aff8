//! `eliminate_find_live_channel` (docs/hardware/brw-backend.md §7.1 step 14, §7.2 pre-loop):
//! FIND_LIVE_CHANNEL → `mov(1) dst, 0` where channel 0 is known to be live.
//!
//! §9.2: the execution mask is the dispatch mask minus the channels control flow or HALT
//! has disabled, and "`eliminate_find_live_channel` assumes channel 0 is live only outside
//! control flow and before the first HALT". So an instruction is rewritten only when all of
//! these hold:
//! - the program has packed dispatch (`Program::packed_dispatch`, §9.2
//!   `brw_stage_has_packed_dispatch`): otherwise channel 0 may not have been dispatched;
//! - it is outside every IF/ELSE and DO/WHILE: inside, channel 0 may be parked;
//! - no HALT comes before it in program order (a HALT anywhere, even in a branch, may
//!   park channel 0 until its HALT_TARGET; like Mesa, the scan stops at the first one);
//! - its group is 0: it scans channels `[0, exec_size)`, so the live channel 0 is its own
//!   channel 0 (a later group's first channel is not known to be live).
//!
//! The rewrite writes the same scalar (index 0) with a NoMask SIMD1 MOV.

use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Contract, Pass, PassError, note};
use crate::program::Program;
use crate::reg::Reg;

/// The rewrites this pass notes (see `Pass::rewrites`).
const REWRITES: &[&str] = &["find-live-channel-zero"];

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "eliminate_find_live_channel",
    rewrites: REWRITES,
    run,
    postcondition: Some(Contract::EveryRun(crate::contracts::eliminate_find_live_channel::postcondition)),
};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    if !p.packed_dispatch {
        return Ok(false);
    }
    let mut depth = 0u32;
    let mut progress = false;
    for inst in p.blocks.iter_mut().flat_map(|b| b.insts.iter_mut()) {
        match inst.op {
            Opcode::If | Opcode::Do => depth += 1,
            Opcode::Endif | Opcode::While => depth = depth.saturating_sub(1),
            // The scan ends here (the zoo bug carries on past it, §11.25).
            Opcode::Halt if !crate::zoo!(opts, EflcAfterHalt) => break,
            Opcode::FindLiveChannel if depth == 0 && inst.group == 0 => {
                *inst = Inst::new(Opcode::Mov, 1, inst.dst, vec![Reg::imm_ud(0)]).with_nomask();
                note("find-live-channel-zero");
                progress = true;
            }
            _ => {}
        }
    }
    Ok(progress)
}
