//! The order passes run in: the scalar pipelines (`-O0` and optimising) and the vec4 ones.
//! Passes are the values the pass files declare (`passes::*::PASS`); adding a pass to a
//! pipeline is one line here.

use super::Stage::{self, Fixpoint, Once};
use crate::pass::Pass;
use crate::passes::{self, vec4};

/// The mandatory lowering, in order (Mesa's order of brw_optimize's lowering steps): what
/// `-O0` runs.
pub fn mandatory() -> Vec<Stage> {
    use passes::*;
    vec![
        Once(&lower_simd_width::PASS),
        Once(&lower_logical_sends::PASS),
        Once(&lower_load_payload::PASS),
        Once(&lower_simd_width::PASS),
        Once(&lower_integer_multiplication::PASS),
        Once(&lower_broadcast::PASS),
        Once(&lower_regioning::PASS),
        Once(&lower_alu_restrictions::PASS),
        Once(&lower_simd_width::PASS),
        Once(&lower_payload_inputs::PASS),
        Once(&allocate_registers::PASS),
    ]
}

/// The optimisation loop in the order of docs/hardware/brw-backend.md §7.1 steps 2–15 (the MRF passes
/// model Gen ≤ 6 message registers this backend does not have): run to a fixpoint.
/// `move_load_const` (a NIR pass in Mesa, not in §7.1) comes last, so it sees only the
/// constant loads the clean-ups left; it only sinks loads, and nothing in the loop hoists
/// them back. Register coalescing is step 12, after saturate propagation (step 11).
const OPT_LOOP: &[&Pass] = {
    use passes::*;
    &[
        &opt_algebraic::PASS,
        &opt_cse::PASS,
        &opt_copy_propagation::PASS,
        &opt_predicated_break::PASS,
        &opt_cmod_propagation::PASS,
        &opt_dead_code_eliminate::PASS,
        &opt_peephole_sel::PASS,
        &dead_control_flow_eliminate::PASS,
        &opt_saturate_propagation::PASS,
        &opt_register_coalesce::PASS,
        &move_load_const::PASS,
        &eliminate_find_live_channel::PASS,
        &compact_virtual_grfs::PASS,
    ]
};

/// The default pipeline (docs/hardware/brw-backend.md §7.1/§7.2): the pre-loop, the optimisation loop
/// to a fixpoint, then the mandatory lowering in its order with the clean-ups Mesa runs
/// after each lowering step, and RA.
///
/// `opt_combine_constants` runs right after `lower_load_payload` and its clean-ups, before
/// `lower_integer_multiplication` (§7.1, §7.2), once: nothing after it sinks loads again.
/// Register allocation schedules first (§7.1, see `schedule`), and the post-RA scheduler
/// runs after it. Coalescing also follows lower_logical_sends and lower_load_payload (§7.1).
///
/// Copy propagation is not re-run after `lower_regioning`: this backend's copy
/// propagation does not re-check the regioning restrictions that pass legalised.
pub fn optimising() -> Vec<Stage> {
    use passes::*;
    vec![
        Once(&split_virtual_grfs::PASS),
        Once(&opt_dead_code_eliminate::PASS),
        Once(&eliminate_find_live_channel::PASS),
        Fixpoint(OPT_LOOP),
        Once(&lower_simd_width::PASS),
        Once(&lower_logical_sends::PASS),
        Once(&opt_copy_propagation::PASS),
        Once(&opt_cse::PASS),
        Once(&opt_register_coalesce::PASS),
        Once(&opt_dead_code_eliminate::PASS),
        Once(&opt_redundant_halt::PASS),
        Once(&lower_load_payload::PASS),
        Once(&opt_register_coalesce::PASS),
        Once(&lower_simd_width::PASS),
        Once(&opt_dead_code_eliminate::PASS),
        Once(&opt_combine_constants::PASS),
        Once(&lower_integer_multiplication::PASS),
        Once(&lower_broadcast::PASS),
        Once(&lower_regioning::PASS),
        Once(&opt_dead_code_eliminate::PASS),
        Once(&lower_alu_restrictions::PASS),
        Once(&lower_simd_width::PASS),
        Once(&lower_payload_inputs::PASS),
        Once(&allocate_registers::PASS),
        Once(&schedule_post_ra::PASS),
    ]
}

/// The vec4 mandatory lowering (`-O0`), in docs/hardware/fp64-align16.md §9's order: the DF immediates
/// and conversions Mesa emits while translating NIR, the SIMD split, `scalarize_df`, the
/// URB write's payload, then register placement and hardware encoding.
pub fn vec4_mandatory() -> Vec<Stage> {
    use vec4::*;
    vec![
        Once(&setup_imm_df::PASS),
        Once(&lower_df_conversions::PASS),
        Once(&lower_simd_width::PASS),
        Once(&scalarize_df::PASS),
        Once(&lower_urb_write::PASS),
        Once(&convert_to_hw_regs::PASS),
    ]
}

/// The vec4 optimising pipeline (§9): the mandatory lowering with the optimisation loop
/// (DCE, copy propagation, CSE — the loop's passes this model has) after the emit-time
/// steps, and copy propagation and DCE again after the SIMD split, as Mesa runs them. CSE
/// also runs there: the split is where instructions of different groups appear (§6,
/// 8f39b3668a), so its group restriction is exercised.
pub fn vec4_optimising() -> Vec<Stage> {
    use vec4::*;
    const OPT_LOOP: &[&Pass] = &[
        &opt_dead_code_eliminate::PASS,
        &opt_copy_propagation::PASS,
        &opt_cse::PASS,
    ];
    vec![
        Once(&setup_imm_df::PASS),
        Once(&lower_df_conversions::PASS),
        Fixpoint(OPT_LOOP),
        Once(&lower_simd_width::PASS),
        Once(&opt_copy_propagation::PASS),
        Once(&opt_cse::PASS),
        Once(&opt_dead_code_eliminate::PASS),
        Once(&scalarize_df::PASS),
        Once(&lower_urb_write::PASS),
        Once(&convert_to_hw_regs::PASS),
    ]
}
