//! What makes a candidate worth keeping: it fails with the same bucket signature as the
//! original, it is a valid program, and its reference run is no less defined than the
//! original's (a reducer that turns a miscompile into undefined behaviour is wrong).

use crate::identity::Identity;
use compiler::Program;
use compiler::pipeline::CompileOptions;
use oracle::emu::result::{DiagKind, RunResult};
use oracle::{Outcome, differential};

/// The verdict of one candidate, as far as the reducer cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// `kind/culprit/detail`, or `pass` / `discard/REASON` for programs that do not fail.
    pub signature: String,
    /// Output bytes the reference leaves undefined, plus one per diagnostic that signals
    /// undefined behaviour (undefined address, out-of-bounds access).
    pub undefinedness: usize,
    /// Steps of the longest reference run: a variant's reference gets a few times as many
    /// ([`variant_fuel`]), so variants whose loops never end fail fast.
    pub reference_steps: u64,
    /// The kinds of rewrite the culprit pass made in its failing run (device parameters
    /// aside), sorted.
    pub rewrites: Vec<String>,
    /// The most specific of them (`compiler::passes::rewrite_kinds`): what a bucket key
    /// names. A variant's must be one the original made (see [`Judgement::keeps`]).
    pub most_specific: Option<String>,
}

/// The reference fuel of a variant of a program judged `target`: a smaller program that
/// runs much longer than the original is not the same failure made smaller (its loop no
/// longer ends), and giving it the default fuel would make it the most expensive test.
pub fn variant_fuel(target: &Judgement) -> u64 {
    fuel_for_steps(target.reference_steps)
}

/// The reference fuel of a variant of a program whose longest reference run took `steps`
/// (never more than the default fuel).
pub fn fuel_for_steps(steps: u64) -> u64 {
    let default = differential::reference_config().fuel;
    steps
        .saturating_mul(VARIANT_FUEL_FACTOR)
        .saturating_add(VARIANT_FUEL_BASE)
        .min(default)
}

/// A variant's reference may run this many times the original's steps, plus
/// [`VARIANT_FUEL_BASE`].
const VARIANT_FUEL_FACTOR: u64 = 8;
const VARIANT_FUEL_BASE: u64 = 10_000;

/// Runs the differential check of `p` on its own inputs and names the result.
pub fn judge(p: &Program, opts: &CompileOptions) -> Judgement {
    judge_towards(p, opts, None)
}

/// [`judge`], skipping culprit localisation (the expensive part) when the verdict kind
/// already differs from `target`'s, with the reference fuel of [`variant_fuel`].
pub fn judge_towards(p: &Program, opts: &CompileOptions, target: Option<&Judgement>) -> Judgement {
    let sets: Vec<_> = p.inputs.iter().cloned().collect();
    let fuel = target.map_or(differential::reference_config().fuel, variant_fuel);
    let checked = differential::check_with_reference_fuel(p, &sets, opts, fuel);
    let reference_steps = checked.longest_reference();
    let undefinedness = checked
        .references
        .iter()
        .flatten()
        .map(undefined_outputs)
        .sum();
    let kind = checked.verdict.kind();
    let wanted = target.is_none_or(|t| t.signature.split('/').next() == Some(kind));
    let mut rewrites = vec![];
    let mut most_specific = None;
    let signature = if checked.verdict.is_failure() && !wanted {
        format!("{kind}/?")
    } else if checked.verdict.is_failure() {
        let culprit = oracle::culprit::localise(p, &sets, opts, &checked);
        if let Some(c) = &culprit {
            rewrites = c
                .rewrites
                .iter()
                .filter(|k| !compiler::pipeline::is_device_parameter(k))
                .cloned()
                .collect();
            rewrites.sort();
            let kinds = compiler::passes::rewrite_kinds(&c.pass);
            let rank = |k: &String| kinds.iter().position(|x| x == k).unwrap_or(usize::MAX);
            most_specific = rewrites
                .iter()
                .min_by_key(|k| (rank(k), k.as_str()))
                .cloned();
        }
        Identity::of(&checked.verdict, culprit.as_ref()).signature
    } else {
        match &checked.verdict {
            differential::Verdict::Discard { reason } => format!("discard/{}", reason.name()),
            v => v.kind().to_string(),
        }
    };
    Judgement {
        signature,
        undefinedness,
        reference_steps,
        rewrites,
        most_specific,
    }
}

/// How much of a reference run's observable behaviour is undefined.
fn undefined_outputs(r: &RunResult) -> usize {
    if r.outcome != Outcome::Completed {
        return usize::MAX / 4;
    }
    let colors: usize = r
        .threads
        .iter()
        .flat_map(|t| &t.rt_writes)
        .flat_map(|w| &w.channels)
        .flat_map(|c| &c.defined)
        .map(|&d| (!d & 0xf).count_ones() as usize)
        .sum();
    let diagnostics = r
        .diagnostics
        .iter()
        .filter(|d| matches!(d.kind, DiagKind::UndefinedAddress | DiagKind::OutOfBounds))
        .count();
    colors + diagnostics
}

impl Judgement {
    /// Whether a candidate judged `self` may replace a program judged `original`: the same
    /// signature, a reference no less defined, and a most specific culprit rewrite that the
    /// original's run also made. Two bugs of one pass share a signature; without the last
    /// rule a reduction can slip from one to the other (and so to another bucket, which the
    /// most specific rewrite names) when several bugs are present. (Other kinds may come
    /// and go: a smaller program is scheduled or spilled differently.)
    pub fn keeps(&self, original: &Judgement) -> bool {
        self.signature == original.signature
            && self.undefinedness <= original.undefinedness
            && self
                .most_specific
                .as_ref()
                .is_none_or(|k| original.rewrites.contains(k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(signature: &str, undefinedness: usize, kinds: &[&str]) -> Judgement {
        Judgement {
            signature: signature.into(),
            undefinedness,
            reference_steps: 1000,
            rewrites: kinds.iter().map(|k| k.to_string()).collect(),
            most_specific: kinds.first().map(|k| k.to_string()),
        }
    }

    #[test]
    fn a_variant_keeps_the_signature_the_definedness_and_the_named_rewrite() {
        let sig = "mismatch/move_load_const/output";
        let original = judged(sig, 2, &["moved-past-other-uses", "moved"]);
        assert!(judged(sig, 2, &["moved-past-other-uses"]).keeps(&original));
        assert!(judged(sig, 0, &["moved"]).keeps(&original));
        assert!(judged(sig, 0, &[]).keeps(&original));
        // Another bug of the same pass: same signature, a rewrite the original never made.
        assert!(!judged(sig, 0, &["moved-into-loop", "moved"]).keeps(&original));
        assert!(!judged(sig, 3, &["moved"]).keeps(&original));
        assert!(!judged("mismatch/opt_cse/output", 0, &["moved"]).keeps(&original));
    }

    #[test]
    fn variants_get_a_few_times_the_original_reference_steps() {
        let original = judged("mismatch/opt_cse/output", 0, &[]);
        assert_eq!(
            variant_fuel(&original),
            1000 * VARIANT_FUEL_FACTOR + VARIANT_FUEL_BASE
        );
        let long = Judgement {
            reference_steps: u64::MAX / 2,
            ..original
        };
        assert_eq!(variant_fuel(&long), differential::reference_config().fuel);
    }
}
