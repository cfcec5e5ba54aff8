//! `schedule_post_ra`: the post-RA instruction scheduler (docs/hardware/brw-backend.md §7.1, after
//! register allocation). Top-down list scheduling of each block over the fixed GRFs the
//! allocator chose (`super::schedule`): register reuse now adds WAR/WAW dependencies on
//! physical registers (Mesa 8b6d22109f4 was a missed write-after-write on fixed GRFs),
//! which the byte-range dependencies of `crate::analysis::schedule_deps` include.

use super::schedule::{Mode, schedule};
use crate::analysis::schedule_deps::Rules;
use crate::pass::{CompileOptions, Pass, PassError, note};
use crate::program::Program;

/// The rewrites this pass notes, most specific first (see `Pass::rewrites`).
const REWRITES: &[&str] = &[
    "reorder-across-halt",
    "reorder-ignoring-flag-war",
    "reorder",
];

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "schedule_post_ra",
    rewrites: REWRITES,
    run,
    postcondition: None,
};

pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let rules = Rules {
        halt_is_barrier: !crate::zoo!(opts, SchedAcrossHalt),
        flag_war: !crate::zoo!(opts, SchedIgnoresFlagWar),
    };
    let changed = schedule(p, Mode::TopDown, rules);
    if changed {
        note("reorder");
    }
    Ok(changed)
}
