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
