//! Pass contracts: what each pass guarantees of every program it leaves, beyond the
//! validator's rules, checked by the pass manager after each run of the pass
//! (`Pass::postcondition`). A pass that silently stops doing its job (dead code kept, a
//! fold left undone) changes no output, so no differential comparison sees it; its
//! contract does. Each states only what Mesa's pass guarantees, from the documentation
//! (docs/validator.md lists them with their sources), and lives here, apart from the pass
//! it judges, so that a fault in the pass's code is not also a fault in its judge.

pub mod compact_virtual_grfs;
pub mod dead_control_flow_eliminate;
pub mod eliminate_find_live_channel;
pub mod opt_algebraic;
pub mod opt_cse;
pub mod opt_dead_code_eliminate;
pub mod opt_predicated_break;
pub mod opt_redundant_halt;
pub mod split_virtual_grfs;
pub mod vec4_opt_cse;
pub mod vec4_opt_dead_code_eliminate;

use crate::inst::Inst;
use crate::program::Program;
use crate::validate::{Rule, Violation};

/// What a local CSE leaves ([`Rule::ExpressionRecomputed`]), for the scalar and the vec4
/// pass, which differ only in what they take for an expression and a recomputation: in
/// each block, an `expression` other than a MOV that `recomputes` an earlier one with
/// nothing between that `disturbs` the earlier one.
fn recomputations(
    p: &Program,
    pass: &str,
    expression: fn(&Inst) -> bool,
    recomputes: fn(&Inst, &Inst) -> bool,
    disturbs: fn(&Inst, &Inst) -> bool,
) -> Vec<Violation> {
    let mut violations = vec![];
    let mut ip = 0;
    for block in &p.blocks {
        let insts = &block.insts;
        for (j, later) in insts.iter().enumerate() {
            if !expression(later) {
                continue;
            }
            let available = (0..j).rev().find(|&k| {
                let earlier = &insts[k];
                earlier.op != crate::opcode::Opcode::Mov
                    && expression(earlier)
                    && recomputes(earlier, later)
                    && !insts[k + 1..j].iter().any(|i| disturbs(i, earlier))
            });
            if let Some(k) = available {
                violations.push(Violation {
                    rule: Rule::ExpressionRecomputed,
                    ip: Some(ip + j),
                    message: format!(
                        "{} recomputes the value of ip {}, yet {pass} kept it",
                        later.op.name(),
                        ip + k
                    ),
                });
            }
        }
        ip += insts.len();
    }
    violations
}
