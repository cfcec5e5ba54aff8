//! Every pass, once. The pipelines (`pipeline::order`) say in which order passes run; this
//! list says which passes exist, so that what is known about a pass by its name (its
//! rewrite kinds, for bucket keys; whether `--skip` names a pass) comes from the pass's own
//! [`Pass`] value rather than from a table kept beside it.
//!
//! Adding a pass `opt_foo` takes: the file `passes/opt_foo.rs` with its `run` and a
//! `pub const PASS: Pass = Pass { name: "opt_foo", rewrites: &[..], run }`; `pub mod
//! opt_foo;` in `passes/mod.rs`; `&opt_foo::PASS,` below; and `Once(&opt_foo::PASS)` (or
//! an entry of an optimisation loop) where it runs in `pipeline/order.rs`. The pipeline
//! tests then check it is registered and, in debug builds, that it notes only the kinds it
//! declares.

use super::*;
use crate::pass::Pass;

/// The registered passes: the scalar passes, then the vec4 ones, in the order of their
/// first run.
pub const ALL: &[&Pass] = &[
    // Scalar (fs) passes.
    &lower_simd_width::PASS,
    &lower_logical_sends::PASS,
    &lower_load_payload::PASS,
    &lower_integer_multiplication::PASS,
    &lower_broadcast::PASS,
    &lower_regioning::PASS,
    &lower_alu_restrictions::PASS,
    &lower_payload_inputs::PASS,
    &allocate_registers::PASS,
    &split_virtual_grfs::PASS,
    &opt_dead_code_eliminate::PASS,
    &eliminate_find_live_channel::PASS,
    &opt_algebraic::PASS,
    &opt_cse::PASS,
    &opt_copy_propagation::PASS,
    &opt_predicated_break::PASS,
    &opt_cmod_propagation::PASS,
    &opt_peephole_sel::PASS,
    &dead_control_flow_eliminate::PASS,
    &opt_saturate_propagation::PASS,
    &opt_register_coalesce::PASS,
    &move_load_const::PASS,
    &compact_virtual_grfs::PASS,
    &opt_redundant_halt::PASS,
    &opt_combine_constants::PASS,
    &schedule_post_ra::PASS,
    // vec4 (Align16) passes.
    &vec4::setup_imm_df::PASS,
    &vec4::lower_df_conversions::PASS,
    &vec4::opt_dead_code_eliminate::PASS,
    &vec4::opt_copy_propagation::PASS,
    &vec4::opt_cse::PASS,
    &vec4::lower_simd_width::PASS,
    &vec4::scalarize_df::PASS,
    &vec4::lower_urb_write::PASS,
    &vec4::convert_to_hw_regs::PASS,
];

/// The registered pass called `name`.
pub fn find(name: &str) -> Option<&'static Pass> {
    ALL.iter().copied().find(|p| p.name == name)
}

/// The kinds of rewrite pass `name` notes, most specific first ([`Pass::rewrites`]); none
/// for a name no pass has (such as `input`, the pipeline's own refusal).
pub fn rewrite_kinds(name: &str) -> &'static [&'static str] {
    find(name).map_or(&[], |p| p.rewrites)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = ALL.iter().map(|p| p.name).collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "a pass name is registered twice");
    }

    #[test]
    fn declared_kinds_are_unique_per_pass() {
        for p in ALL {
            let mut kinds = p.rewrites.to_vec();
            kinds.sort();
            kinds.dedup();
            assert_eq!(
                kinds.len(),
                p.rewrites.len(),
                "{} declares a kind twice",
                p.name
            );
        }
    }

    #[test]
    fn lower_logical_sends_declares_every_message_name_alphabetically() {
        let mut names: Vec<&str> = crate::opcode::OPCODE_NAMES
            .iter()
            .filter(|(o, _)| o.is_message())
            .map(|(_, n)| *n)
            .collect();
        names.sort();
        assert_eq!(rewrite_kinds("lower_logical_sends"), names.as_slice());
    }
}
