//! Every pass, once. The pipelines (`pipeline::order`) say in which order passes run; the
//! `passes!` lists of `passes/mod.rs` and `passes/vec4/mod.rs` say which passes exist, so that what is known about a pass by its name (its
//! rewrite kinds, for bucket keys; whether `--skip` names a pass) comes from the pass's own
//! [`Pass`] value rather than from a table kept beside it.
//!
//! Adding a pass `opt_foo` takes: the file `passes/opt_foo.rs` with its `run` and a
//! `pub const PASS: Pass = Pass { name: "opt_foo", rewrites: &[..], run  postcondition: None, }`; the line
//! `opt_foo,` in the `passes!` list of `passes/mod.rs` (which declares the module and
//! registers the pass); and `Once(&opt_foo::PASS)` (or an entry of an optimisation loop)
//! where it runs in `pipeline/order.rs`. The pipeline tests then check it is registered
//! and, in debug builds, that it notes only the kinds it declares.

use crate::pass::Pass;

/// Every registered pass: the scalar passes, then the vec4 ones, each in the order of its
/// first run.
pub fn all() -> impl Iterator<Item = &'static Pass> {
    super::PASSES.iter().chain(super::vec4::PASSES).copied()
}

/// The registered pass called `name`.
pub fn find(name: &str) -> Option<&'static Pass> {
    all().find(|p| p.name == name)
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
        let mut names: Vec<&str> = all().map(|p| p.name).collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "a pass name is registered twice");
    }

    #[test]
    fn declared_kinds_are_unique_per_pass() {
        for p in all() {
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
