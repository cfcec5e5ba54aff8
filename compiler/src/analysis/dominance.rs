//! Dominator trees over a program's blocks, for the passes that place code by them
//! (`opt_combine_constants` puts a constant load in the common dominator of its uses,
//! `move_load_const` sinks one into a block the definition dominates and that post-dominates
//! it). Iterative dominators in reverse postorder (Cooper, Harvey and Kennedy's "A Simple,
//! Fast Dominance Algorithm") over any edge list: the CFG's logical edges, logical and
//! physical ones together, or a reversed graph for post-dominance.

use crate::cfg::{Cfg, EdgeKind};
use crate::opcode::Opcode;
use crate::program::Program;

/// Immediate dominators of the nodes of a graph, from one entry node.
pub struct Dominators {
    /// Immediate dominator of each node; the entry's is itself; `None`: unreachable.
    idom: Vec<Option<usize>>,
    /// Position of each reachable node in reverse postorder (the entry is 0).
    rpo: Vec<usize>,
}

impl Dominators {
    /// Dominators of `succs` (successor lists of nodes `0..succs.len()`) from `entry`; a
    /// graph without nodes (a program without blocks) has no reachable node.
    pub fn new(succs: &[Vec<usize>], entry: usize) -> Dominators {
        let n = succs.len();
        if n == 0 {
            return Dominators {
                idom: vec![],
                rpo: vec![],
            };
        }
        let mut preds = vec![vec![]; n];
        for (from, tos) in succs.iter().enumerate() {
            for &to in tos {
                preds[to].push(from);
            }
        }
        let order = reverse_postorder(succs, entry);
        let mut rpo = vec![usize::MAX; n];
        for (i, &b) in order.iter().enumerate() {
            rpo[b] = i;
        }
        let mut idom = vec![None; n];
        idom[entry] = Some(entry);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().skip(1) {
                let mut new = None;
                for &p in &preds[b] {
                    if idom[p].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(q) => intersect(&idom, &rpo, p, q),
                    });
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        Dominators { idom, rpo }
    }

    /// Whether node `b` is reachable from the entry.
    pub fn reachable(&self, b: usize) -> bool {
        self.idom[b].is_some()
    }

    /// Whether `a` dominates `b` (every path from the entry to `b` passes `a`; a node
    /// dominates itself). False when either is unreachable.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        if !self.reachable(a) || !self.reachable(b) {
            return false;
        }
        let mut x = b;
        loop {
            if x == a {
                return true;
            }
            let up = self.idom[x].unwrap_or(x);
            if up == x {
                return false;
            }
            x = up;
        }
    }

    /// The nearest node dominating both `a` and `b` (both reachable).
    pub fn common(&self, a: usize, b: usize) -> usize {
        intersect(&self.idom, &self.rpo, a, b)
    }
}

fn intersect(idom: &[Option<usize>], rpo: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while rpo[a] > rpo[b] {
            a = idom[a].unwrap_or(a);
        }
        while rpo[b] > rpo[a] {
            b = idom[b].unwrap_or(b);
        }
    }
    a
}

fn reverse_postorder(succs: &[Vec<usize>], entry: usize) -> Vec<usize> {
    let mut seen = vec![false; succs.len()];
    let mut post = vec![];
    // Iterative DFS: (node, next successor to visit).
    let mut stack = vec![(entry, 0)];
    seen[entry] = true;
    while let Some((b, i)) = stack.pop() {
        if let Some(&s) = succs[b].get(i) {
            stack.push((b, i + 1));
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
        }
    }
    post.reverse();
    post
}

/// Successor lists of the program's blocks: logical edges only (the paths channels take),
/// or logical and physical ones (the paths the SIMD thread takes, docs/hardware/brw-backend.md §9.1).
pub fn block_succs(cfg: &Cfg, physical_too: bool) -> Vec<Vec<usize>> {
    cfg.succs
        .iter()
        .map(|edges| {
            edges
                .iter()
                .filter(|e| physical_too || e.kind == EdgeKind::Logical)
                .map(|e| e.to)
                .collect()
        })
        .collect()
}

/// For every block, the loops it is inside, outermost first, each named by its DO block.
/// The DO block itself is outside its loop: the WHILE jumps back to the instruction after
/// the DO (docs/hardware/brw-backend.md §9.2), so the DO runs once per entry into the loop.
pub fn loop_nests(p: &Program) -> Vec<Vec<usize>> {
    let mut open: Vec<usize> = vec![];
    p.blocks
        .iter()
        .enumerate()
        .map(|(b, block)| {
            let nest = open.clone();
            match block.insts.last().map(|i| i.op) {
                Some(Opcode::Do) => open.push(b),
                Some(Opcode::While) => {
                    open.pop();
                }
                _ => {}
            }
            nest
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diamond_and_loop_dominators() {
        // 0 -> 1, 2; 1 -> 3; 2 -> 3; 3 -> 4; 4 -> 3 (loop), 4 -> 5.
        let succs = vec![vec![1, 2], vec![3], vec![3], vec![4], vec![3, 5], vec![]];
        let d = Dominators::new(&succs, 0);
        assert!(d.dominates(0, 5));
        assert!(!d.dominates(1, 3));
        assert!(d.dominates(3, 4) && d.dominates(4, 5));
        assert_eq!(d.common(1, 2), 0);
        assert_eq!(d.common(4, 5), 4);
        assert_eq!(d.common(1, 4), 0);
    }

    #[test]
    fn a_graph_without_nodes_has_no_dominators() {
        let d = Dominators::new(&[], 0);
        assert!(d.idom.is_empty());
    }

    #[test]
    fn unreachable_nodes_are_dominated_by_nothing() {
        let succs = vec![vec![1], vec![], vec![1]];
        let d = Dominators::new(&succs, 0);
        assert!(!d.reachable(2));
        assert!(!d.dominates(0, 2));
        assert!(d.dominates(0, 1));
    }
}
