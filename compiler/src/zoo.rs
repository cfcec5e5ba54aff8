//! The historical-bug zoo: Mesa bugs (docs/hardware/brw-backend.md §11) that can be re-injected into the
//! passes, selected by kebab-case name (several at once as `a,b,c`, or `all`, so bucketing
//! can be measured on a mix of bugs). Only builds with the `zoo` feature
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
        /// §11.17: cmod propagated through a float/integer conversion.
        CmodThroughConversion,
        /// §11.20: `mul.sat d2, a, b` after `mul.sat d1, -a, b` replaced by `mov d2, -d1`.
        CseNegSatMul,
        /// §11.14: a Z test of a CMP's result dropped as if it tested the CMP's condition.
        CmodIntoCmp,
        /// §11.15: the fold ignores the flag subregister the test writes.
        CmodFlagSubreg,
        /// §11.16: a NoMask test folded into a masked producer.
        CmodWritemaskMismatch,
        /// §11.18: the subtract merge taken for every condition (Inf − Inf, integer wrap).
        CmodSubMergeInf,
        /// §11.19: `.sat` moved into a producer of another type (`sel.sat t:UD` for a
        /// `mov.sat y:F, t:F`), where it clamps as an integer.
        SatpropTypeMismatch,
        /// §11.21: the combined constant's load in the dominator emitted without NoMask.
        CombineConstantsMasked,
        /// move_load_const: a constant load sunk into a loop body the definition was outside.
        MoveLoadConstIntoLoop,
        /// move_load_const: a constant load sunk into the last using block, past the others.
        MoveLoadConstMultiBlock,
        /// §9.2, §11.25: FIND_LIVE_CHANNEL → 0 also after a HALT (which may have parked lane 0).
        EflcAfterHalt,
        /// §7.2 `opt_remove_redundant_halts`: a HALT removed although instructions the halted
        /// channels must skip stand between it and its HALT_TARGET.
        RedundantHaltOverWork,
        /// §11.25: the post-RA scheduler lets instructions move across a HALT.
        SchedAcrossHalt,
        /// The post-RA scheduler drops write-after-read dependencies on flag bits.
        SchedIgnoresFlagWar,
        /// §11.11: a DW constant commuted into src1 of a 32×16 MUL.
        CopypropDwConstIntoMul,
        /// §11.12: available copies met over logical CFG edges only.
        CopypropNomaskDivergentLoop,
        /// §11.13: a coalescable `mov.cmod` deleted with its flag write.
        CoalesceDropsCmodMov,
        /// docs/hardware/fp64-align16.md §11: a Z/W source encoded without moving to sub-register 16.
        DfZwNoSuboffset,
        /// §11: a Z/W source at sub-register 16 keeps a non-zero VertStride.
        DfZwNonzeroVstride,
        /// §11: a uniform DF source reading z/w taken as natively supported.
        DfUniformZwSupported,
        /// §11: a DF writemask of exactly .xy/.zw not scalarized.
        DfWritemaskXyKept,
        /// §11: XXYY added to the natively supported DF swizzles.
        DfExtraNativeSwizzle,
        /// §11: the second exec-4 piece of a split offsets its uniform source.
        DfSplitOffsetsUniform,
        /// §11: the generator ignores the group of an exec-4 DF piece (no NibCtrl).
        DfSplitNoNibctrl,
        /// §11 (73610384a8): RA lets a compressed DF instruction's dst overlap its source.
        DfCompressedHazardIgnored,
        /// §11 (8f39b3668a): vec4 CSE matches instructions of different groups.
        CseIgnoresGroup,
        /// §11 (553700cf55): vec4 DCE lets SET_LOW/HIGH_32BIT end the liveness it overwrites.
        DceSetHalfKilled,
        /// Found in review (issue #24): a null destination of a 64-bit-execution instruction
        /// keeps its 4-byte stride on CHV/BXT/GLK (eu-hardware §5.1 qword-lp-stride).
        RegioningNullDstStride,
        /// Found in review: only VGRF/ATTR destinations are split evenly between their two
        /// registers on Gen ≤ 8; a fixed-GRF one (`g44.7`) is left uneven.
        SimdSplitFixedDstUneven,
        /// Found in review: a piece narrower than a fixed-GRF source's row keeps the row's
        /// region (`add(1) .., g40.1<8;8,1>`: ExecSize < Width).
        SimdSplitFixedSrcRegion,
        /// Found in review: a MUL of a narrower integer (src0) by a dword (src1) keeps the
        /// dword in src1 (mul-dw-src0, Gen7+).
        MulDwordSrc1Kept,
        /// Found in the first 20,000 programs of generator format 23: a predicated three-source instruction
        /// whose destination moves through a temporary is copied back under its predicate,
        /// which its own conditional modifier has just rewritten (brw-backend.md §5.4).
        ThreeSrcCopyPredicated,
        /// Found in review: a non-EOT SEND payload at a sub-register offset is not moved to a
        /// register boundary (send-payload-subreg).
        SendPayloadSubregKept,
        /// Found in review: DCE counts a min/max SEL's conditional modifier as a flag write and
        /// keeps a dead SEL whose flag subregister is read elsewhere. On Gen4/5 this once left
        /// no free flag for its CMPN; now the lowering saves a live flag, and DCE's
        /// postcondition (dead-code-kept) is what sees the kept SEL.
        DceMinmaxSelFlag,
        /// Found by a campaign (2026-11-27): the Gen4/5 min/max lowering takes a flag for
        /// dead when its next access is any write, though a masked write in the other IF arm
        /// leaves the min/max's channels' bits for a NoMask read there.
        MinmaxFlagOtherArmKill,
        /// Found by a campaign (2026-11-27): EOT payloads are placed in the order live
        /// intervals start, so values that started earlier can fill g112 and up first.
        RaEotPayloadInStartOrder,
        /// Found by a campaign (2026-11-27): a one-channel conversion to HF keeps a packed
        /// destination at a sub-register that is not oword aligned (mixed float).
        RegioningSimd1HfPacked,
        /// Found by a campaign (2026-11-27, generator format 14): mixed-mode math judges its
        /// HF sources by their element stride, not by the HorzStride they are encoded with,
        /// so a scalar push constant (`<0;1,0>`) or a wide stride written as one-element
        /// rows (`<4;1,0>`) stays, though Align1 mixed math needs HorzStride above 1.
        RegioningMixedMathHstride,
        /// Found by a campaign (2026-11-27, generator format 16): on DG2 every source of a
        /// mixed-math instruction is copied to the destination's offset, though there an
        /// HF source of a destination that straddles a register can only be one-element
        /// rows (HorzStride 0), which Align1 mixed math forbids.
        RegioningMixedMathAlignedCopy,
        /// Found by a campaign (2026-11-27, generator format 17): a predicated MACH/MAC
        /// whose destination straddles a register copies the old destination into its
        /// temporary through the destination's region (`g35.7<8;8,1>`), a source row that
        /// crosses a register.
        SimdAccReaderOldValueRegion,
        /// Fault injection (issue #25): a rotate's count folded by recursing on the count it
        /// was given, so the recursion never reaches its base case (stack overflow).
        RolFoldRecursion,
        /// Fault injection: an immediate rotate count reduced modulo a width read as 0, so
        /// the reduction loops forever (a hang inside the pass).
        RotateCountEndlessLoop,
        /// Fault injection: a word rotate split into pieces as wide as itself, each split
        /// again, so the pass grows the program until memory runs out.
        RorSplitGrowth,
    }

    /// Every bug with its name.
    pub const ALL: &[(Bug, &str)] = &[
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
        (Bug::CmodThroughConversion, "cmod-through-conversion"),
        (Bug::CseNegSatMul, "cse-neg-sat-mul"),
        (Bug::CmodIntoCmp, "cmod-into-cmp"),
        (Bug::CmodFlagSubreg, "cmod-flag-subreg"),
        (Bug::CmodWritemaskMismatch, "cmod-writemask-mismatch"),
        (Bug::CmodSubMergeInf, "cmod-sub-merge-inf"),
        (Bug::SatpropTypeMismatch, "satprop-type-mismatch"),
        (Bug::CombineConstantsMasked, "combine-constants-masked"),
        (Bug::MoveLoadConstIntoLoop, "move-load-const-into-loop"),
        (Bug::MoveLoadConstMultiBlock, "move-load-const-multi-block"),
        (Bug::EflcAfterHalt, "eflc-after-halt"),
        (Bug::RedundantHaltOverWork, "redundant-halt-over-work"),
        (Bug::SchedAcrossHalt, "sched-across-halt"),
        (Bug::SchedIgnoresFlagWar, "sched-ignores-flag-war"),
        (Bug::CopypropDwConstIntoMul, "copyprop-dw-const-into-mul"),
        (
            Bug::CopypropNomaskDivergentLoop,
            "copyprop-nomask-divergent-loop",
        ),
        (Bug::CoalesceDropsCmodMov, "coalesce-drops-cmod-mov"),
        (Bug::DfZwNoSuboffset, "df-zw-no-suboffset"),
        (Bug::DfZwNonzeroVstride, "df-zw-nonzero-vstride"),
        (Bug::DfUniformZwSupported, "df-uniform-zw-supported"),
        (Bug::DfWritemaskXyKept, "df-writemask-xy-kept"),
        (Bug::DfExtraNativeSwizzle, "df-extra-native-swizzle"),
        (Bug::DfSplitOffsetsUniform, "df-split-offsets-uniform"),
        (Bug::DfSplitNoNibctrl, "df-split-no-nibctrl"),
        (
            Bug::DfCompressedHazardIgnored,
            "df-compressed-hazard-ignored",
        ),
        (Bug::CseIgnoresGroup, "cse-ignores-group"),
        (Bug::DceSetHalfKilled, "dce-set-half-killed"),
        (Bug::RegioningNullDstStride, "regioning-null-dst-stride"),
        (Bug::SimdSplitFixedDstUneven, "simd-split-fixed-dst-uneven"),
        (Bug::SimdSplitFixedSrcRegion, "simd-split-fixed-src-region"),
        (Bug::MulDwordSrc1Kept, "mul-dword-src1-kept"),
        (Bug::ThreeSrcCopyPredicated, "three-src-copy-predicated"),
        (Bug::SendPayloadSubregKept, "send-payload-subreg-kept"),
        (Bug::DceMinmaxSelFlag, "dce-minmax-sel-flag"),
        (Bug::MinmaxFlagOtherArmKill, "minmax-flag-other-arm-kill"),
        (
            Bug::RaEotPayloadInStartOrder,
            "ra-eot-payload-in-start-order",
        ),
        (Bug::RegioningSimd1HfPacked, "regioning-simd1-hf-packed"),
        (
            Bug::RegioningMixedMathHstride,
            "regioning-mixed-math-hstride",
        ),
        (
            Bug::RegioningMixedMathAlignedCopy,
            "regioning-mixed-math-aligned-copy",
        ),
        (
            Bug::SimdAccReaderOldValueRegion,
            "simd-acc-reader-old-value-region",
        ),
    ];

    /// The faults a pass can be made to commit (issue #25): not wrong code but a crash of
    /// the compiler — endless recursion, an endless loop, unbounded growth — to show that a
    /// campaign files them and goes on (docs/campaigns.md, "Crash isolation"). Selected by
    /// name like the bugs of [`ALL`], but not part of `all`: a `--zoo all` campaign is about
    /// wrong code, and `check` or the reducer, which run in-process, would die with them.
    pub const FAULTS: &[(Bug, &str)] = &[
        (Bug::RolFoldRecursion, "rol-fold-recursion"),
        (Bug::RotateCountEndlessLoop, "rotate-count-endless-loop"),
        (Bug::RorSplitGrowth, "ror-split-growth"),
    ];

    /// The pass that holds `bug`: where localisation must find it.
    pub fn holder(bug: Bug) -> &'static str {
        use Bug::*;
        match bug {
            SimdSplitEotFirst
            | SimdSplitWideNotNomask
            | SimdSplitGroupAbsolute
            | SimdSplitFlagAlias
            | SimdZipIgnoresPredicate => "lower_simd_width",
            RegioningAccDstRewrite | RegioningNoStrideCap => "lower_regioning",
            ImulSignedImmAsW | ImulSrc1ModifierHalves | ImulDstOverlap => {
                "lower_integer_multiplication"
            }
            SpillFillMasked
            | ScratchFftidImmTruncated
            | ScratchHswSizeEncoding
            | RaNoPhysicalLoopEdges => "allocate_registers",
            CmodThroughConversion
            | CmodIntoCmp
            | CmodFlagSubreg
            | CmodWritemaskMismatch
            | CmodSubMergeInf => "opt_cmod_propagation",
            CseNegSatMul => "opt_cse",
            SatpropTypeMismatch => "opt_saturate_propagation",
            CombineConstantsMasked => "opt_combine_constants",
            MoveLoadConstIntoLoop | MoveLoadConstMultiBlock => "move_load_const",
            EflcAfterHalt => "eliminate_find_live_channel",
            RedundantHaltOverWork => "opt_redundant_halt",
            SchedAcrossHalt | SchedIgnoresFlagWar => "schedule_post_ra",
            CopypropDwConstIntoMul | CopypropNomaskDivergentLoop => "opt_copy_propagation",
            CoalesceDropsCmodMov => "opt_register_coalesce",
            // The DF region bugs live in the table scalarize_df and convert_to_hw_regs
            // share (passes/vec4/df_region.rs), but the logical IR scalarize_df leaves is
            // still right: only the hardware encoding is wrong. An .xy/.zw DF writemask is
            // scalarize_df's to remove (strict rule df-align16-writemask-xy-zw).
            DfWritemaskXyKept => "scalarize_df",
            DfZwNoSuboffset
            | DfZwNonzeroVstride
            | DfUniformZwSupported
            | DfExtraNativeSwizzle
            | DfSplitNoNibctrl
            | DfCompressedHazardIgnored => "convert_to_hw_regs",
            DfSplitOffsetsUniform => "vec4_lower_simd_width",
            CseIgnoresGroup => "vec4_opt_cse",
            DceSetHalfKilled => "vec4_opt_dead_code_eliminate",
            RegioningNullDstStride => "lower_regioning",
            // Both live in lower_simd_width, but what they leave is an illegal region
            // (dst-uneven-split, exec-size-lt-width), and a broken hardware rule is blamed on
            // the pass that legalises regions (oracle::culprit::legalising_pass).
            SimdSplitFixedDstUneven | SimdSplitFixedSrcRegion | SimdAccReaderOldValueRegion => {
                "lower_regioning"
            }
            MulDwordSrc1Kept => "lower_integer_multiplication",
            ThreeSrcCopyPredicated => "lower_alu_restrictions",
            SendPayloadSubregKept => "lower_logical_sends",
            // The IR it leaves computes the right values; the pass's own postcondition
            // (dead-code-kept) names it.
            DceMinmaxSelFlag => "opt_dead_code_eliminate",
            MinmaxFlagOtherArmKill => "lower_alu_restrictions",
            RaEotPayloadInStartOrder => "allocate_registers",
            RegioningSimd1HfPacked | RegioningMixedMathHstride | RegioningMixedMathAlignedCopy => {
                "lower_regioning"
            }
            RolFoldRecursion => "opt_algebraic",
            RotateCountEndlessLoop => "opt_copy_propagation",
            RorSplitGrowth => "lower_simd_width",
        }
    }
}

#[cfg(feature = "zoo")]
pub use bugs::{ALL, Bug, FAULTS, holder};

/// The bugs a compilation injects (none by default): one bit per bug, so the zoo holds at
/// most 64 (a test checks that it fits).
#[cfg(feature = "zoo")]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Selected(u64);

#[cfg(feature = "zoo")]
impl Selected {
    /// Whether `bug` is injected.
    pub fn contains(self, bug: Bug) -> bool {
        self.0 >> bug as u64 & 1 != 0
    }

    fn with(self, bug: Bug) -> Selected {
        Selected(self.0 | 1 << bug as u64)
    }
}

/// Each bug of `s` injected alone, in zoo order: a failure of a several-bug run is
/// attributed to the first of them that makes it fail on its own.
#[cfg(feature = "zoo")]
pub fn each_alone(s: &Selected) -> Vec<Selected> {
    let s = *s;
    ALL.iter()
        .chain(FAULTS)
        .filter(|(b, _)| s.contains(*b))
        .map(|(b, _)| Selected::default().with(*b))
        .collect()
}

/// The names of the bugs of `s`, comma-separated in zoo order (`none` for none): what
/// `--zoo` takes back, for a reproducer's `# options:` line.
#[cfg(feature = "zoo")]
pub fn names(s: &Selected) -> String {
    let names: Vec<&str> = ALL
        .iter()
        .chain(FAULTS)
        .filter(|(b, _)| s.contains(*b))
        .map(|(_, n)| *n)
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(",")
    }
}

/// The names of the bugs of `s`: `none` without the `zoo` feature.
#[cfg(not(feature = "zoo"))]
pub fn names(_: &Selected) -> String {
    "none".into()
}

/// Each bug of `s` injected alone: none without the `zoo` feature.
#[cfg(not(feature = "zoo"))]
pub fn each_alone(_: &Selected) -> Vec<Selected> {
    vec![]
}

/// The bugs a compilation injects (always none without the `zoo` feature).
#[cfg(not(feature = "zoo"))]
pub type Selected = ();

/// Looks bugs up by name: one name, a comma-separated list, `all`, or `none` (no bug, e.g.
/// to run a zoo reproducer with its bug off).
pub fn select(names: &str) -> Result<Selected, String> {
    #[cfg(feature = "zoo")]
    {
        if names == "none" {
            return Ok(Selected::default());
        }
        if names == "all" {
            return Ok(ALL.iter().fold(Selected::default(), |s, (b, _)| s.with(*b)));
        }
        names.split(',').try_fold(Selected::default(), |s, name| {
            ALL.iter()
                .chain(FAULTS)
                .find(|(_, n)| *n == name)
                .map(|(b, _)| s.with(*b))
                .ok_or_else(|| {
                    let known: Vec<_> = ALL.iter().chain(FAULTS).map(|(_, n)| *n).collect();
                    format!(
                        "unknown zoo bug `{name}`: expected `all` or a comma-separated list of {}",
                        known.join(", ")
                    )
                })
        })
    }
    #[cfg(not(feature = "zoo"))]
    {
        if names == "none" {
            return Ok(());
        }
        Err(format!(
            "zoo bug `{names}` needs a build with the zoo feature (cargo build -p triage --features zoo)"
        ))
    }
}

/// Whether `opts` injects `bug`: `zoo!(opts, SimdSplitEotFirst)`. Always `false` without
/// the `zoo` feature.
#[cfg(feature = "zoo")]
#[macro_export]
macro_rules! zoo {
    ($opts:expr, $bug:ident) => {{
        let opts: &$crate::pass::CompileOptions = $opts;
        opts.zoo.contains($crate::zoo::Bug::$bug)
    }};
}

/// Whether `opts` injects `bug`: always `false` in this build (no `zoo` feature).
#[cfg(not(feature = "zoo"))]
#[macro_export]
macro_rules! zoo {
    ($opts:expr, $bug:ident) => {{
        let _: &$crate::pass::CompileOptions = $opts;
        false
    }};
}

#[cfg(all(test, feature = "zoo"))]
mod tests {
    use super::*;

    #[test]
    fn each_alone_splits_a_selection_in_zoo_order() {
        let two = select("spill-fill-masked,imul-dst-overlap").expect("known names");
        let alone = each_alone(&two);
        assert_eq!(alone.len(), 2);
        assert_eq!(alone[0], select("imul-dst-overlap").unwrap());
        assert_eq!(alone[1], select("spill-fill-masked").unwrap());
        assert!(each_alone(&Selected::default()).is_empty());
    }

    #[test]
    fn lists_and_all_select_several_bugs() {
        let two = select("imul-dst-overlap,spill-fill-masked").expect("known names");
        assert!(two.contains(Bug::ImulDstOverlap));
        assert!(two.contains(Bug::SpillFillMasked));
        assert!(!two.contains(Bug::SimdSplitEotFirst));
        let all = select("all").expect("all");
        assert!(ALL.iter().all(|(b, _)| all.contains(*b)));
        assert!(select("imul-dst-overlap,no-such-bug").is_err());
        assert_eq!(select("none"), Ok(Selected::default()));
    }

    #[test]
    fn faults_are_selected_by_name_but_not_by_all() {
        let all = select("all").unwrap();
        for (bug, name) in FAULTS {
            assert!(!all.contains(*bug), "{name}");
            let one = select(name).unwrap();
            assert!(one.contains(*bug));
            assert_eq!(names(&one), *name);
            assert_eq!(each_alone(&one), vec![one]);
        }
    }

    #[test]
    fn every_bug_has_its_own_bit() {
        let every: Vec<_> = ALL.iter().chain(FAULTS).collect();
        assert!(
            every.len() <= u64::BITS as usize,
            "the zoo outgrew Selected"
        );
        for (bug, name) in every.iter().copied() {
            let one = select(name).expect("known name");
            let others: Vec<_> = every.iter().filter(|(b, _)| b != bug).collect();
            assert!(one.contains(*bug), "{name}");
            assert!(others.iter().all(|(b, _)| !one.contains(*b)), "{name}");
        }
    }
}
