//! The vec4 (SIMD4x2, Align16) double-precision lowering of fp64-align16.md, one pass per
//! file, with the DF region table the passes share (`df_region`).

pub mod bytes;
pub mod convert_to_hw_regs;
pub mod df_region;
pub mod lower_df_conversions;
pub mod lower_simd_width;
pub mod opt_cse;
pub mod opt_dead_code_eliminate;
pub mod register_allocation;
pub mod restrictions;
pub mod scalarize_df;
pub mod setup_imm_df;
