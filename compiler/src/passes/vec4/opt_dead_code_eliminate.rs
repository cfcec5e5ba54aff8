//! The vec4 `opt_dead_code_eliminate` (docs/hardware/fp64-align16.md §6): removes instructions none of
//! whose written bytes are read before being overwritten.
//!
//! Per block, backwards, with byte-exact writes (writemasks honoured, `bytes.rs`). At the
//! end of a block every byte any instruction of the program reads counts as live, which
//! keeps the pass right across branches and loops without a data-flow solve. An
//! instruction ends the liveness of what it writes only when it writes it for certain:
//! not predicated, not a SET_LOW/HIGH_32BIT (§6, `restrictions::write_kills_liveness`),
//! and, in a block that also runs NoMask instructions, only if it is NoMask itself (a
//! masked write leaves disabled channels' bytes to a NoMask reader).

use super::bytes::{Span, overlap, read, written};
use super::restrictions::write_kills_liveness;
use crate::inst::Inst;
use crate::pass::{CompileOptions, Contract, Pass, PassError, note};
use crate::program::Program;

/// Rewrite kinds this pass notes.
const REWRITES: &[&str] = &["dead-value"];

/// Whether nothing but its destination makes `inst` worth keeping.
fn removable(inst: &Inst) -> bool {
    !inst.op.has_side_effects()
        && !inst.op.is_message()
        && !inst.writes_flag()
        && !inst.acc_wr
        && !inst.eot
        && inst.dst.is_vgrf()
}

/// Byte-granular live set: the spans still live, merged lazily.
#[derive(Clone, Default)]
struct Live(Vec<Span>);

impl Live {
    fn any(&self, s: Span) -> bool {
        self.0.iter().any(|&l| overlap(l, s))
    }

    fn add(&mut self, s: Span) {
        self.0.push(s);
    }

    /// Removes the bytes of `s` from every live span.
    fn kill(&mut self, s: Span) {
        let mut out = Vec::with_capacity(self.0.len() + 1);
        for &(nr, a, b) in &self.0 {
            if nr != s.0 || b <= s.1 || s.2 <= a {
                out.push((nr, a, b));
                continue;
            }
            if a < s.1 {
                out.push((nr, a, s.1));
            }
            if s.2 < b {
                out.push((nr, s.2, b));
            }
        }
        self.0 = out;
    }
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
pub const PASS: Pass = Pass {
    name: "vec4_opt_dead_code_eliminate",
    rewrites: REWRITES,
    run,
    postcondition: Some(Contract::RunWithoutProgress(
        crate::contracts::vec4_opt_dead_code_eliminate::postcondition,
    )),
};

/// Runs the pass; progress when an instruction was removed.
pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let mut read_anywhere = Live::default();
    for inst in p.insts() {
        for s in &inst.srcs {
            if let Some(span) = read(inst, s) {
                read_anywhere.add(span);
            }
        }
    }
    let mut progress = false;
    for block in &mut p.blocks {
        let has_nomask = block.insts.iter().any(|i| i.nomask);
        let mut live = read_anywhere.clone();
        let mut keep = vec![true; block.insts.len()];
        for (k, inst) in block.insts.iter().enumerate().rev() {
            let writes = written(inst);
            if removable(inst) && !writes.iter().any(|&w| live.any(w)) {
                keep[k] = false;
                progress = true;
                note("dead-value");
                continue;
            }
            let certain = inst.predicate.is_none() && (inst.nomask || !has_nomask);
            if certain && write_kills_liveness(inst, opts) {
                for w in writes {
                    live.kill(w);
                }
            }
            for s in &inst.srcs {
                if let Some(span) = read(inst, s) {
                    live.add(span);
                }
            }
        }
        let mut flags = keep.into_iter();
        block.insts.retain(|_| flags.next().unwrap_or(true));
    }
    if progress {
        // A block may have lost every instruction: rebuild the canonical blocks.
        p.resplit();
    }
    Ok(progress)
}
