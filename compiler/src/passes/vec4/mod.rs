//! The vec4 (SIMD4x2, Align16) double-precision lowering of docs/hardware/fp64-align16.md, one pass per
//! file, with the helpers the passes share (`df_region`'s region table, `restrictions`,
//! `bytes`, `register_allocation`). The vec4 versions of passes the scalar pipeline also
//! has are named with a `vec4_` prefix (`vec4_opt_cse`), since pass records, `--skip` and
//! culprit reports know passes by name alone.

pub mod bytes;
pub mod convert_to_hw_regs;
pub mod df_region;
pub mod lower_df_conversions;
pub mod lower_simd_width;
pub mod lower_urb_write;
pub mod opt_copy_propagation;
pub mod opt_cse;
pub mod opt_dead_code_eliminate;
pub mod register_allocation;
pub mod restrictions;
pub mod scalarize_df;
pub mod setup_imm_df;
