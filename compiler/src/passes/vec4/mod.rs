//! The vec4 (SIMD4x2, Align16) double-precision lowering of fp64-align16.md, one pass per
//! file, with the DF region table the passes share (`df_region`).

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

use crate::pipeline::{Pass, Stage};

/// The vec4 passes, under the names pass records, `--skip` and culprit reports use; the
/// vec4 versions of passes the scalar pipeline also has carry a `vec4_` prefix.
const SETUP_IMM_DF: Pass = Pass {
    name: "setup_imm_df",
    run: setup_imm_df::run,
};
const LOWER_DF_CONVERSIONS: Pass = Pass {
    name: "lower_df_conversions",
    run: lower_df_conversions::run,
};
const DCE: Pass = Pass {
    name: "vec4_opt_dead_code_eliminate",
    run: opt_dead_code_eliminate::run,
};
const COPY_PROPAGATION: Pass = Pass {
    name: "vec4_opt_copy_propagation",
    run: opt_copy_propagation::run,
};
const CSE: Pass = Pass {
    name: "vec4_opt_cse",
    run: opt_cse::run,
};
const LOWER_SIMD_WIDTH: Pass = Pass {
    name: "vec4_lower_simd_width",
    run: lower_simd_width::run,
};
const SCALARIZE_DF: Pass = Pass {
    name: "scalarize_df",
    run: scalarize_df::run,
};
const LOWER_URB_WRITE: Pass = Pass {
    name: "lower_urb_write",
    run: lower_urb_write::run,
};
const CONVERT_TO_HW_REGS: Pass = Pass {
    name: "convert_to_hw_regs",
    run: convert_to_hw_regs::run,
};

/// The rewrite kinds of vec4 pass `name` (see `passes::rewrite_kinds`).
pub fn rewrite_kinds(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "setup_imm_df" => setup_imm_df::REWRITES,
        "lower_df_conversions" => lower_df_conversions::REWRITES,
        "vec4_opt_dead_code_eliminate" => opt_dead_code_eliminate::REWRITES,
        "vec4_opt_cse" => opt_cse::REWRITES,
        "vec4_opt_copy_propagation" => opt_copy_propagation::REWRITES,
        "vec4_lower_simd_width" => lower_simd_width::REWRITES,
        "scalarize_df" => scalarize_df::REWRITES,
        "convert_to_hw_regs" => convert_to_hw_regs::REWRITES,
        "lower_urb_write" => lower_urb_write::REWRITES,
        _ => return None,
    })
}

/// The vec4 mandatory lowering (`-O0`), in fp64-align16.md §9's order: the DF immediates
/// and conversions Mesa emits while translating NIR, the SIMD split, `scalarize_df`, the
/// URB write's payload, then register placement and hardware encoding.
pub fn mandatory() -> Vec<Stage> {
    [
        SETUP_IMM_DF,
        LOWER_DF_CONVERSIONS,
        LOWER_SIMD_WIDTH,
        SCALARIZE_DF,
        LOWER_URB_WRITE,
        CONVERT_TO_HW_REGS,
    ]
    .into_iter()
    .map(Stage::Once)
    .collect()
}

/// The vec4 optimising pipeline (§9): the mandatory lowering with the optimisation loop
/// (DCE, copy propagation, CSE — the loop's passes this model has) after the emit-time
/// steps, and copy propagation and DCE again after the SIMD split, as Mesa runs them. CSE
/// also runs there: the split is where instructions of different groups appear (§6,
/// 8f39b3668a), so its group restriction is exercised.
pub fn optimising() -> Vec<Stage> {
    use Stage::{Fixpoint, Once};
    const OPT_LOOP: &[Pass] = &[DCE, COPY_PROPAGATION, CSE];
    vec![
        Once(SETUP_IMM_DF),
        Once(LOWER_DF_CONVERSIONS),
        Fixpoint(OPT_LOOP),
        Once(LOWER_SIMD_WIDTH),
        Once(COPY_PROPAGATION),
        Once(CSE),
        Once(DCE),
        Once(SCALARIZE_DF),
        Once(LOWER_URB_WRITE),
        Once(CONVERT_TO_HW_REGS),
    ]
}
