//! CFG edges between the blocks of a [`Program`].
//!
//! Logical edges are the program's semantics; physical edges are the extra paths a SIMD
//! thread takes because some channels keep executing while others have left (Mesa
//! 4d1959e6932). Liveness must follow both, or a value live across a divergent BREAK gets
//! its register reused while the channels that broke out still need it.
//!
//! * DO → body (logical), DO → after WHILE (physical: channels that already broke out).
//! * BREAK → after WHILE (logical), BREAK → DO (physical), fall-through (logical if
//!   predicated, else physical).
//! * CONTINUE → DO (logical), fall-through (logical if predicated, else physical).
//! * WHILE → DO (logical), → after WHILE (logical if predicated, else physical).
//! * IF → then-block and → else-block or ENDIF (logical).
//! * ELSE → ENDIF (logical), → else-block (physical: the thread runs both sides).
//! * HALT → the next HALT_TARGET (logical), fall-through (logical if predicated, else
//!   physical).
//!
//! Unbalanced control flow (which the validator reports) degrades to fall-through edges, so
//! the edges of any program, valid or not, are well defined.

use crate::opcode::Opcode;
use crate::program::Program;
use serde::{Deserialize, Serialize};

/// Kind of a CFG edge.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum EdgeKind {
    Logical,
    Physical,
}

/// An edge to block `to`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Edge {
    pub to: usize,
    pub kind: EdgeKind,
}

/// Successors and predecessors of every block.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Cfg {
    pub succs: Vec<Vec<Edge>>,
    pub preds: Vec<Vec<Edge>>,
}

/// Where the structured targets of each control-flow instruction are, as block indices.
struct Targets {
    /// For a block ending in IF: the block after ELSE, or the ENDIF block.
    if_false: Vec<Option<usize>>,
    /// For a block ending in ELSE: the ENDIF block.
    else_end: Vec<Option<usize>>,
    /// For blocks ending in BREAK/CONTINUE/WHILE/DO: (DO block, block after WHILE).
    loop_of: Vec<Option<(usize, Option<usize>)>>,
    /// For each block: the first block after it that starts with a HALT_TARGET, where the
    /// channels a HALT at its end parks rejoin (every HALT_TARGET re-enables the halted
    /// channels, §9.2; control only moves forward to one outside loops).
    halt_target: Vec<Option<usize>>,
}

fn find_targets(p: &Program) -> Targets {
    let n = p.blocks.len();
    let mut t = Targets {
        if_false: vec![None; n],
        else_end: vec![None; n],
        loop_of: vec![None; n],
        halt_target: vec![None; n],
    };
    // Open IFs: (IF block, ELSE block if seen). Open loops: (DO block, blocks to patch).
    let mut ifs: Vec<(usize, Option<usize>)> = vec![];
    let mut loops: Vec<(usize, Vec<usize>)> = vec![];
    for (b, block) in p.blocks.iter().enumerate() {
        let first = block.insts.first().map(|i| i.op);
        let last = block.insts.last().map(|i| i.op);
        if first == Some(Opcode::Endif)
            && let Some((if_b, else_b)) = ifs.pop()
        {
            match else_b {
                Some(e) => {
                    t.else_end[e] = Some(b);
                }
                None => t.if_false[if_b] = Some(b),
            }
        }
        if first == Some(Opcode::HaltTarget) {
            for earlier in t.halt_target[..b].iter_mut().rev() {
                if earlier.is_some() {
                    break;
                }
                *earlier = Some(b);
            }
        }
        match last {
            Some(Opcode::If) => ifs.push((b, None)),
            Some(Opcode::Else) => {
                if let Some(top) = ifs.last_mut() {
                    t.if_false[top.0] = Some(b + 1);
                    top.1 = Some(b);
                }
            }
            Some(Opcode::Do) => loops.push((b, vec![b])),
            Some(Opcode::Break) | Some(Opcode::Continue) => {
                if let Some(top) = loops.last_mut() {
                    top.1.push(b);
                }
            }
            Some(Opcode::While) => {
                if let Some((do_b, members)) = loops.pop() {
                    let after = (b + 1 < n).then_some(b + 1);
                    for m in members.into_iter().chain([b]) {
                        t.loop_of[m] = Some((do_b, after));
                    }
                }
            }
            _ => {}
        }
    }
    t
}

impl Cfg {
    pub fn build(p: &Program) -> Cfg {
        let n = p.blocks.len();
        let t = find_targets(p);
        let mut cfg = Cfg {
            succs: vec![vec![]; n],
            preds: vec![vec![]; n],
        };
        let next = |b: usize| (b + 1 < n).then_some(b + 1);
        for (b, block) in p.blocks.iter().enumerate() {
            let Some(last) = block.insts.last() else {
                continue;
            };
            let predicated = last.predicate.is_some();
            let fall_kind = if predicated {
                EdgeKind::Logical
            } else {
                EdgeKind::Physical
            };
            let mut edges: Vec<(Option<usize>, EdgeKind)> = vec![];
            match (last.op, t.loop_of[b]) {
                (Opcode::If, _) => {
                    edges.push((next(b), EdgeKind::Logical));
                    edges.push((t.if_false[b], EdgeKind::Logical));
                }
                (Opcode::Else, _) if t.else_end[b].is_some() => {
                    edges.push((t.else_end[b], EdgeKind::Logical));
                    edges.push((next(b), EdgeKind::Physical));
                }
                (Opcode::Do, Some((_, after))) => {
                    edges.push((next(b), EdgeKind::Logical));
                    edges.push((after, EdgeKind::Physical));
                }
                (Opcode::Break, Some((do_b, after))) => {
                    edges.push((next(b), fall_kind));
                    edges.push((after, EdgeKind::Logical));
                    edges.push((Some(do_b), EdgeKind::Physical));
                }
                (Opcode::Continue, Some((do_b, _))) => {
                    edges.push((next(b), fall_kind));
                    edges.push((Some(do_b), EdgeKind::Logical));
                }
                (Opcode::While, Some((do_b, after))) => {
                    edges.push((Some(do_b), EdgeKind::Logical));
                    edges.push((after, fall_kind));
                }
                (Opcode::Halt, _) if t.halt_target[b].is_some() => {
                    edges.push((next(b), fall_kind));
                    edges.push((t.halt_target[b], EdgeKind::Logical));
                }
                _ => edges.push((next(b), EdgeKind::Logical)),
            }
            for (to, kind) in edges {
                if let Some(to) = to.filter(|&to| to < n) {
                    cfg.add(b, to, kind);
                }
            }
        }
        cfg
    }

    /// Adds an edge unless one already joins the two blocks (a logical edge wins).
    fn add(&mut self, from: usize, to: usize, kind: EdgeKind) {
        if let Some(e) = self.succs[from].iter_mut().find(|e| e.to == to) {
            if kind == EdgeKind::Logical {
                e.kind = EdgeKind::Logical;
                if let Some(p) = self.preds[to].iter_mut().find(|e| e.to == from) {
                    p.kind = EdgeKind::Logical;
                }
            }
            return;
        }
        self.succs[from].push(Edge { to, kind });
        self.preds[to].push(Edge { to: from, kind });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Device;
    use crate::inst::{Inst, Predicate};

    fn program(ops: &[(Opcode, bool)]) -> Program {
        let mut p = Program::new(Device::Skl, 8);
        p.set_insts(
            ops.iter()
                .map(|&(op, pred)| {
                    let i = Inst::control(op, 8);
                    if pred {
                        i.with_pred(Predicate::NORMAL, 0)
                    } else {
                        i
                    }
                })
                .collect(),
        );
        p
    }

    fn succs(cfg: &Cfg, b: usize) -> Vec<(usize, EdgeKind)> {
        cfg.succs[b].iter().map(|e| (e.to, e.kind)).collect()
    }

    #[test]
    fn if_else_edges() {
        use EdgeKind::*;
        // B0: if | B1: nop else | B2: nop | B3: endif
        let p = program(&[
            (Opcode::If, true),
            (Opcode::Nop, false),
            (Opcode::Else, false),
            (Opcode::Nop, false),
            (Opcode::Endif, false),
        ]);
        let cfg = Cfg::build(&p);
        assert_eq!(succs(&cfg, 0), vec![(1, Logical), (2, Logical)]);
        assert_eq!(succs(&cfg, 1), vec![(3, Logical), (2, Physical)]);
        assert_eq!(succs(&cfg, 2), vec![(3, Logical)]);
    }

    #[test]
    fn loop_with_divergent_break_has_physical_edges() {
        use EdgeKind::*;
        // B0: do | B1: break(pred) | B2: nop while | B3: nop
        let p = program(&[
            (Opcode::Do, false),
            (Opcode::Break, true),
            (Opcode::Nop, false),
            (Opcode::While, false),
            (Opcode::Nop, false),
        ]);
        let cfg = Cfg::build(&p);
        assert_eq!(succs(&cfg, 0), vec![(1, Logical), (3, Physical)]);
        assert_eq!(
            succs(&cfg, 1),
            vec![(2, Logical), (3, Logical), (0, Physical)]
        );
        assert_eq!(succs(&cfg, 2), vec![(0, Logical), (3, Physical)]);
    }

    #[test]
    fn halt_rejoins_at_the_next_halt_target() {
        use EdgeKind::*;
        // B0: halt_target halt(pred) | B1: nop | B2: halt_target nop
        let p = program(&[
            (Opcode::HaltTarget, false),
            (Opcode::Halt, true),
            (Opcode::Nop, false),
            (Opcode::HaltTarget, false),
            (Opcode::Nop, false),
        ]);
        let cfg = Cfg::build(&p);
        assert_eq!(succs(&cfg, 0), vec![(1, Logical), (2, Logical)]);
    }
}
