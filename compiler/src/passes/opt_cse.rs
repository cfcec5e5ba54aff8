//! `opt_cse`: not yet implemented (placeholder while the optimising pipeline is built).

use crate::pipeline::CompileOptions;
use crate::program::Program;

/// The rewrites this pass notes, most specific first (see `passes::rewrite_kinds`).
pub const REWRITES: &[&str] = &[];

/// Runs the pass; returns whether it changed the program.
pub fn run(_p: &mut Program, _opts: &CompileOptions) -> Result<bool, String> {
    Ok(false)
}
