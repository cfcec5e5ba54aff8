//! shader-db statistics of one compilation: the figures compiler engineers compare across
//! a corpus before and after a change (instructions, SENDs, loops, the static cycle
//! estimate, spills, fills, scratch size and register pressure).

use crate::opcode::Opcode;
use crate::passes::schedule::estimate_cycles;
use crate::pipeline::Compilation;
use serde::{Deserialize, Serialize};

/// One compiled program's figures. Every field is "lower is better".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramStats {
    /// Hardware instructions, without HALT_TARGET (a label the HALT jumps are patched to;
    /// it emits no instruction).
    pub instructions: u64,
    /// SEND instructions (messages: render-target writes, loads, stores, scratch).
    pub sends: u64,
    /// Loops (DO … WHILE).
    pub loops: u64,
    /// The scheduler's static estimate ([`estimate_cycles`]).
    pub cycles: u64,
    /// Scratch writes the register allocator added.
    pub spills: u64,
    /// Scratch reads the register allocator added.
    pub fills: u64,
    /// Per-thread scratch bytes (the program's own scratch and the spill slots).
    pub scratch_bytes: u64,
    /// The most GRFs live at once in the program the allocator placed.
    pub max_live_registers: u64,
}

/// The figures of a finished compilation (of any outcome: a failed one's figures describe
/// the IR the failing pass left, so callers report the failure instead).
pub fn program_stats(c: &Compilation) -> ProgramStats {
    let p = &c.program;
    let count = |f: &dyn Fn(Opcode) -> bool| p.insts().filter(|i| f(i.op)).count() as u64;
    let tally = |name: &str| {
        c.passes
            .iter()
            .rev()
            .find(|r| r.name == "allocate_registers")
            .and_then(|r| r.tallies.get(name).copied())
            .unwrap_or(0)
    };
    ProgramStats {
        instructions: count(&|op| op != Opcode::HaltTarget),
        sends: count(&|op| op == Opcode::Send),
        loops: count(&|op| op == Opcode::Do),
        cycles: estimate_cycles(p),
        spills: tally("spills"),
        fills: tally("fills"),
        scratch_bytes: u64::from(p.scratch_size),
        max_live_registers: tally("max-live-registers"),
    }
}
