//! The historical-bug zoo: Mesa bugs (brw-backend.md §11) that can be re-injected into the
//! passes, one at a time, selected by kebab-case name. Only builds with the `zoo` feature
//! contain them; elsewhere no bug exists and every check below is the constant `false`.

#[cfg(feature = "zoo")]
mod bugs {
    /// A re-injectable historical bug.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Bug {
        /// §11.4: EOT on the first SIMD-split piece instead of the last.
        SimdSplitEotFirst,
        /// Seed lower_simd_width: pieces wider than the original not made NoMask.
        SimdSplitWideNotNomask,
        /// §11.3: re-split pieces offset by the absolute group, not the delta.
        SimdSplitGroupAbsolute,
        /// §11.5: a source aliasing the flag the instruction writes is not copied.
        SimdSplitFlagAlias,
        /// §11.6: a predicated instruction zipped without pre-copying the old destination.
        SimdZipIgnoresPredicate,
        /// §11.1: the integer MUL's accumulator destination rewritten through a GRF.
        RegioningAccDstRewrite,
        /// §11.2: the required destination stride not capped at 4 elements.
        RegioningNoStrideCap,
        /// §11.8: a D immediate in 32768..65535 used as W.
        ImulSignedImmAsW,
        /// §11.9: src1 modifiers applied to the 16-bit halves.
        ImulSrc1ModifierHalves,
        /// §11.10: the low product written into a destination that overlaps a source.
        ImulDstOverlap,
        /// §11.22: fills (and spills) emitted with the instruction's channel mask.
        SpillFillMasked,
        /// §11.23: FFTID × real per-thread size multiplied with a truncated 16-bit immediate.
        ScratchFftidImmTruncated,
        /// §11.23: HSW per-thread scratch size encoded as if 0 meant 1 KB.
        ScratchHswSizeEncoding,
        /// §11.24: liveness without the physical CFG edges of divergent loops.
        RaNoPhysicalLoopEdges,
    }

    /// Every bug with its name.
    pub const ALL: [(Bug, &str); 14] = [
        (Bug::SimdSplitEotFirst, "simd-split-eot-first"),
        (Bug::SimdSplitWideNotNomask, "simd-split-wide-not-nomask"),
        (Bug::SimdSplitGroupAbsolute, "simd-split-group-absolute"),
        (Bug::SimdSplitFlagAlias, "simd-split-flag-alias"),
        (Bug::SimdZipIgnoresPredicate, "simd-zip-ignores-predicate"),
        (Bug::RegioningAccDstRewrite, "regioning-acc-dst-rewrite"),
        (Bug::RegioningNoStrideCap, "regioning-no-stride-cap"),
        (Bug::ImulSignedImmAsW, "imul-signed-imm-as-w"),
        (Bug::ImulSrc1ModifierHalves, "imul-src1-modifier-halves"),
        (Bug::ImulDstOverlap, "imul-dst-overlap"),
        (Bug::SpillFillMasked, "spill-fill-masked"),
        (Bug::ScratchFftidImmTruncated, "scratch-fftid-imm-truncated"),
        (Bug::ScratchHswSizeEncoding, "scratch-hsw-size-encoding"),
        (Bug::RaNoPhysicalLoopEdges, "ra-no-physical-loop-edges"),
    ];
}

#[cfg(feature = "zoo")]
pub use bugs::{ALL, Bug};

/// The bug a compilation injects, if any (always none without the `zoo` feature).
#[cfg(feature = "zoo")]
pub type Selected = Option<Bug>;
/// The bug a compilation injects, if any (always none without the `zoo` feature).
#[cfg(not(feature = "zoo"))]
pub type Selected = ();

/// Looks a bug up by name.
pub fn select(name: &str) -> Result<Selected, String> {
    #[cfg(feature = "zoo")]
    {
        ALL.iter()
            .find(|(_, n)| *n == name)
            .map(|(b, _)| Some(*b))
            .ok_or_else(|| {
                let names: Vec<_> = ALL.iter().map(|(_, n)| *n).collect();
                format!(
                    "unknown zoo bug `{name}`: expected one of {}",
                    names.join(", ")
                )
            })
    }
    #[cfg(not(feature = "zoo"))]
    {
        Err(format!(
            "zoo bug `{name}` needs a build with the zoo feature (cargo build -p triage --features zoo)"
        ))
    }
}

/// Whether `opts` injects `bug`: `zoo!(opts, SimdSplitEotFirst)`. Always `false` without
/// the `zoo` feature.
#[cfg(feature = "zoo")]
#[macro_export]
macro_rules! zoo {
    ($opts:expr, $bug:ident) => {{
        let opts: &$crate::pipeline::CompileOptions = $opts;
        opts.zoo == Some($crate::zoo::Bug::$bug)
    }};
}

/// Whether `opts` injects `bug`: always `false` in this build (no `zoo` feature).
#[cfg(not(feature = "zoo"))]
#[macro_export]
macro_rules! zoo {
    ($opts:expr, $bug:ident) => {{
        let _: &$crate::pipeline::CompileOptions = $opts;
        false
    }};
}
