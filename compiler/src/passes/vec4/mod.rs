//! The vec4 (SIMD4x2, Align16) double-precision lowering of docs/hardware/fp64-align16.md, one pass per
//! file, with the helpers the passes share (`df_region`'s region table, `restrictions`,
//! `bytes`, `register_allocation`). The vec4 versions of passes the scalar pipeline also
//! has are named with a `vec4_` prefix (`vec4_opt_cse`), since pass records, `--skip` and
//! culprit reports know passes by name alone.

passes! {
    setup_imm_df,
    lower_df_conversions,
    opt_dead_code_eliminate,
    opt_copy_propagation,
    opt_cse,
    lower_simd_width,
    scalarize_df,
    lower_urb_write,
    convert_to_hw_regs,
}

pub mod bytes;
pub mod df_region;
pub mod register_allocation;
pub mod restrictions;
