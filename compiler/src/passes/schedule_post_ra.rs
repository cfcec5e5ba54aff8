//! `schedule_post_ra`: the post-RA instruction scheduler (brw-backend.md §7.1, after
//! register allocation). Top-down list scheduling of each block over the fixed GRFs the
//! allocator chose (`super::schedule`): register reuse now adds WAR/WAW dependencies on
//! physical registers (Mesa 8b6d22109f4 was a missed write-after-write on fixed GRFs),
//! which the byte-range dependencies of `super::schedule_deps` include.

use super::schedule::{Mode, schedule};
use super::schedule_deps::Rules;
use crate::pipeline::{CompileOptions, note};
use crate::program::Program;

/// The rewrites this pass notes, most specific first (see `passes::rewrite_kinds`).
pub const REWRITES: &[&str] = &[
    "reorder-across-halt",
    "reorder-ignoring-flag-war",
    "reorder",
];

pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, String> {
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
