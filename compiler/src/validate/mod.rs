//! The IR validator: the invariants Mesa asserts (`brw_validate`, builder assertions), as
//! named rules reporting structured violations — never aborting. The pass manager runs it
//! after every pass, so a broken invariant becomes a verdict naming the pass and the rule.

mod align16;
mod control_flow;
mod exec;
mod incremental;
mod messages;
mod operands;
mod structure;
mod subgroup;
mod types;
mod vec4;

use crate::inst::Inst;
use crate::program::Program;
pub use incremental::Incremental;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A validator rule. The kebab-case name is stable: bucket signatures and corpus headers use it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Rule {
    /// Dispatch width not 8/16/32, or beyond what the device dispatches.
    DispatchWidth,
    /// A run needs at least one thread.
    ThreadCount,
    /// A block with no instructions.
    EmptyBlock,
    /// Blocks not split where control flow says (see `program::split_blocks`).
    BlockBoundary,
    /// Execution size not 1, 2, 4, 8, 16 or 32.
    ExecSize,
    /// Group (first channel) not a multiple of the execution size.
    GroupMisaligned,
    /// A masked (non-NoMask) instruction wider than the dispatch width.
    NomaskWiderThanDispatch,
    /// A masked instruction whose channels run past the dispatch width.
    GroupBeyondDispatch,
    /// Wrong number of sources for the opcode.
    SourceCount,
    /// Flag subregister the device does not have.
    FlagOutOfRange,
    /// EOT on an instruction that is not the last one.
    EotNotLast,
    /// EOT on an instruction that cannot end the thread.
    EotOnNonSend,
    /// Destination in a file that cannot be written (IMM, UNIFORM, ATTR) or with modifiers.
    DstFile,
    /// A VGRF number with no declaration.
    VgrfUndeclared,
    /// A write past the end of its VGRF.
    VgrfWriteOutOfBounds,
    /// A read past the end of its VGRF.
    VgrfReadOutOfBounds,
    /// ATTR access past its declaration.
    AttrOutOfBounds,
    /// UNIFORM access past the push constants.
    UniformOutOfBounds,
    /// Fixed GRF beyond the device's register file.
    GrfOutOfRange,
    /// Architecture register the device does not have (f2.0 on a two-flag part, acc2, a1).
    ArfOutOfRange,
    /// VGRF destination with stride 0 on a multi-channel instruction.
    VgrfDstStrideZero,
    /// Operand types the opcode does not accept.
    IllegalType,
    /// DF operand on a device without 64-bit float (or DF immediate before Gen8).
    No64bitFloat,
    /// Q/UQ operand on a device without 64-bit integers.
    No64bitInt,
    /// HF operand on a device without half float.
    NoHalfFloat,
    /// 3-source instruction mixing integer and float sources.
    ThreeSrcMixedTypes,
    /// Immediate bits beyond its type's width.
    ImmOutOfRange,
    /// Unbalanced or misnested IF/ELSE/ENDIF/DO/WHILE, BREAK/CONTINUE outside a loop.
    CfUnmatched,
    /// HALT with no HALT_TARGET after it, or a HALT_TARGET inside control flow.
    HaltTarget,
    /// A message whose payload, descriptor or parameters have the wrong shape.
    SendPayload,
    /// A scratch read/write beyond the program's declared per-thread scratch size.
    ScratchOutOfBounds,
    /// The opcode does not exist on the device (bit operations and ADDC/SUBB before Gen7,
    /// ROL/ROR before Gen11).
    UnsupportedOpcode,
    /// A conditional modifier on an opcode that cannot carry one (FBL and the other
    /// bit-scan/count ops, BFI2, rotates, math; see `Opcode::can_do_cmod`).
    CmodNotSupported,
    /// A CMP/CMPN without a conditional modifier, or a SEL with neither a predicate nor a
    /// conditional modifier: the instruction has no condition to compare or select by.
    ConditionMissing,
    /// FIND_LIVE_CHANNEL or BROADCAST not in its one form: NoMask, unpredicated, no
    /// saturate, a scalar destination, a scalar UD index (see `validate/subgroup.rs`).
    SubgroupForm,
    /// An Align16 swizzle or writemask where nothing reads it: on an Align1 instruction, a
    /// swizzle on a destination or a writemask on a source, an empty writemask, or either
    /// on an immediate/null/indirect operand (see `validate/align16.rs`).
    Align16Form,
    /// A vec4-stage (`stage vs`) program off its SIMD4x2 model: a device the stage is not
    /// modelled on, dispatch width not 8, an instruction not 4 or 8 channels wide, a
    /// fragment-only message; or an Align16 instruction on a VGRF/ATTR/UNIFORM operand in a
    /// fragment program, where vec4 components mean nothing (see `validate/vec4.rs`).
    Vec4Stage,
    /// A `urb_write_logical` not in its one form: vec4 stage, exec 8, group 0, masked, no
    /// predicate or modifiers, null destination, data a register-aligned VGRF of 32- or
    /// 64-bit type with an identity swizzle, immediate first slot 0..31 and value count
    /// 1..4 whose slots stay below 32.
    UrbWriteForm,
    /// Not a rule of a program but of a pass, checked by the pass manager between passes:
    /// a pass reports progress exactly when it changed the program. The optimisation loop
    /// runs until no pass progresses, so progress without a change would loop forever in
    /// Mesa's `do { … } while (progress)`; the manager validates again only after progress,
    /// so a change without progress would go unchecked. Mesa's pass tests hold every pass
    /// to it (`EXPECT_PROGRESS`/`EXPECT_NO_PROGRESS`: the printed program changes iff the
    /// pass reports progress; docs/hardware/brw-backend.md §10.2).
    ProgressContract,
    /// Not a rule of a program but of `opt_dead_code_eliminate` (and of the vec4 pass after
    /// a run without progress), checked by the pass manager: no instruction is left whose
    /// every result is read nowhere and that has no other effect. Mesa's DCE removes every
    /// such instruction (docs/hardware/brw-backend.md §7.1 item 7); one that stays changes
    /// no output, so only this contract sees a DCE that keeps dead code, such as one that
    /// takes a min/max's conditional modifier for a flag write.
    DeadCodeKept,
    /// Not a rule of a program but of `split_virtual_grfs`, checked by the pass manager
    /// after each of its runs: every register boundary inside a VGRF that some operand
    /// names is crossed by some operand (Mesa splits at every other one;
    /// docs/hardware/brw-backend.md §7.1, §7.2).
    UnsplitVgrf,
    /// Not a rule of a program but of `dead_control_flow_eliminate`: no IF/ENDIF or
    /// IF/ELSE/ENDIF with nothing inside is left (docs/hardware/brw-backend.md §7.1 step 9).
    EmptyIfKept,
    /// Not a rule of a program but of `opt_predicated_break`: no predicated IF around a lone
    /// unpredicated BREAK or CONTINUE of its own exec controls is left
    /// (docs/hardware/brw-backend.md §7.1 step 5).
    JumpInIfKept,
    /// Not a rule of a program but of `compact_virtual_grfs`: every declared VGRF is named by
    /// some operand (docs/hardware/brw-backend.md §7.1 step 15).
    UnusedVgrfKept,
    /// Not a rule of a program but of `eliminate_find_live_channel`: with packed dispatch,
    /// no group-0 FIND_LIVE_CHANNEL outside control flow before the first HALT
    /// (docs/hardware/brw-backend.md §7.1 step 14, §9.2).
    LiveChannelKept,
    /// Not a rule of a program but of `opt_redundant_halt`: no HALT only NOPs separate from
    /// the first HALT_TARGET, no HALT_TARGET no HALT can reach (docs/hardware/brw-backend.md
    /// §7.1, §7.2).
    RedundantHaltKept,
    /// Not a rule of a program but of `opt_algebraic`: no integer identity, fold of two
    /// integer immediates or saturate of an immediate already in range is left that the
    /// validator would accept in its simpler form (docs/hardware/brw-backend.md §7.1 item 2).
    AlgebraKept,
    /// Not a rule of a program but of `opt_cse`: no expression in a block is followed by an
    /// exact recomputation of it with nothing between that changes its result or what it
    /// read (docs/hardware/brw-backend.md §7.1 item 3).
    ExpressionRecomputed,
}

/// Every rule, in declaration order.
pub const ALL_RULES: [Rule; 48] = [
    Rule::DispatchWidth,
    Rule::ThreadCount,
    Rule::EmptyBlock,
    Rule::BlockBoundary,
    Rule::ExecSize,
    Rule::GroupMisaligned,
    Rule::NomaskWiderThanDispatch,
    Rule::GroupBeyondDispatch,
    Rule::SourceCount,
    Rule::FlagOutOfRange,
    Rule::EotNotLast,
    Rule::EotOnNonSend,
    Rule::DstFile,
    Rule::VgrfUndeclared,
    Rule::VgrfWriteOutOfBounds,
    Rule::VgrfReadOutOfBounds,
    Rule::AttrOutOfBounds,
    Rule::UniformOutOfBounds,
    Rule::GrfOutOfRange,
    Rule::ArfOutOfRange,
    Rule::VgrfDstStrideZero,
    Rule::IllegalType,
    Rule::No64bitFloat,
    Rule::No64bitInt,
    Rule::NoHalfFloat,
    Rule::ThreeSrcMixedTypes,
    Rule::ImmOutOfRange,
    Rule::CfUnmatched,
    Rule::HaltTarget,
    Rule::SendPayload,
    Rule::ScratchOutOfBounds,
    Rule::UnsupportedOpcode,
    Rule::CmodNotSupported,
    Rule::ConditionMissing,
    Rule::SubgroupForm,
    Rule::Align16Form,
    Rule::Vec4Stage,
    Rule::UrbWriteForm,
    Rule::ProgressContract,
    Rule::DeadCodeKept,
    Rule::UnsplitVgrf,
    Rule::EmptyIfKept,
    Rule::JumpInIfKept,
    Rule::UnusedVgrfKept,
    Rule::LiveChannelKept,
    Rule::RedundantHaltKept,
    Rule::AlgebraKept,
    Rule::ExpressionRecomputed,
];

impl Rule {
    /// Whether this is a contract of a pass that the pass manager checks after the pass
    /// runs, not a rule of the program (the previous pass's record does not carry it over).
    pub fn is_pass_contract(self) -> bool {
        matches!(
            self,
            Rule::ProgressContract
                | Rule::DeadCodeKept
                | Rule::UnsplitVgrf
                | Rule::EmptyIfKept
                | Rule::JumpInIfKept
                | Rule::UnusedVgrfKept
                | Rule::LiveChannelKept
                | Rule::RedundantHaltKept
                | Rule::AlgebraKept
                | Rule::ExpressionRecomputed
        )
    }

    /// The stable kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::DispatchWidth => "dispatch-width",
            Rule::ThreadCount => "thread-count",
            Rule::EmptyBlock => "empty-block",
            Rule::BlockBoundary => "block-boundary",
            Rule::ExecSize => "exec-size",
            Rule::GroupMisaligned => "group-misaligned",
            Rule::NomaskWiderThanDispatch => "nomask-wider-than-dispatch",
            Rule::GroupBeyondDispatch => "group-beyond-dispatch",
            Rule::SourceCount => "source-count",
            Rule::FlagOutOfRange => "flag-out-of-range",
            Rule::EotNotLast => "eot-not-last",
            Rule::EotOnNonSend => "eot-on-non-send",
            Rule::DstFile => "dst-file",
            Rule::VgrfUndeclared => "vgrf-undeclared",
            Rule::VgrfWriteOutOfBounds => "vgrf-write-out-of-bounds",
            Rule::VgrfReadOutOfBounds => "vgrf-read-out-of-bounds",
            Rule::AttrOutOfBounds => "attr-out-of-bounds",
            Rule::UniformOutOfBounds => "uniform-out-of-bounds",
            Rule::GrfOutOfRange => "grf-out-of-range",
            Rule::ArfOutOfRange => "arf-out-of-range",
            Rule::VgrfDstStrideZero => "vgrf-dst-stride-zero",
            Rule::IllegalType => "illegal-type",
            Rule::No64bitFloat => "no-64bit-float",
            Rule::No64bitInt => "no-64bit-int",
            Rule::NoHalfFloat => "no-half-float",
            Rule::ThreeSrcMixedTypes => "3src-mixed-types",
            Rule::ImmOutOfRange => "imm-out-of-range",
            Rule::CfUnmatched => "cf-unmatched",
            Rule::HaltTarget => "halt-target",
            Rule::SendPayload => "send-payload",
            Rule::ScratchOutOfBounds => "scratch-out-of-bounds",
            Rule::UnsupportedOpcode => "unsupported-opcode",
            Rule::CmodNotSupported => "cmod-not-supported",
            Rule::ConditionMissing => "condition-missing",
            Rule::SubgroupForm => "subgroup-form",
            Rule::Align16Form => "align16-form",
            Rule::Vec4Stage => "vec4-stage",
            Rule::UrbWriteForm => "urb-write-form",
            Rule::ProgressContract => "progress-contract",
            Rule::DeadCodeKept => "dead-code-kept",
            Rule::UnsplitVgrf => "unsplit-vgrf",
            Rule::EmptyIfKept => "empty-if-kept",
            Rule::JumpInIfKept => "jump-in-if-kept",
            Rule::UnusedVgrfKept => "unused-vgrf-kept",
            Rule::LiveChannelKept => "live-channel-kept",
            Rule::RedundantHaltKept => "redundant-halt-kept",
            Rule::AlgebraKept => "algebra-kept",
            Rule::ExpressionRecomputed => "expression-recomputed",
        }
    }

    pub fn from_name(s: &str) -> Option<Rule> {
        ALL_RULES.iter().copied().find(|r| r.name() == s)
    }
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rule, D::Error> {
        let name = String::deserialize(d)?;
        Rule::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown validator rule `{name}`")))
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One broken invariant: which rule, at which instruction (`ip` in program order; `None` for
/// program-level rules), and what exactly is wrong.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Violation {
    pub rule: Rule,
    pub ip: Option<usize>,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ip {
            Some(ip) => write!(f, "[{}] ip {ip}: {}", self.rule, self.message),
            None => write!(f, "[{}] {}", self.rule, self.message),
        }
    }
}

/// Collects violations; rule checkers push into it.
pub(crate) struct Report {
    pub violations: Vec<Violation>,
}

impl Report {
    pub fn add(&mut self, rule: Rule, ip: Option<usize>, message: impl Into<String>) {
        self.violations.push(Violation {
            rule,
            ip,
            message: message.into(),
        });
    }
}

/// Checks every rule on a program; an empty result means the program is valid.
pub fn validate(p: &Program) -> Vec<Violation> {
    let mut r = Report { violations: vec![] };
    check_program(p, &mut r);
    for (ip, inst) in p.insts().enumerate() {
        check_inst(p, ip, inst, &mut r);
    }
    sort(&mut r.violations);
    r.violations
}

/// Program-level violations first, then by instruction and rule.
fn sort(violations: &mut [Violation]) {
    violations.sort_by_key(|v| (v.ip.map_or(0, |ip| ip + 1), v.rule));
}

/// The per-instruction rules for `inst` as if it stood at `ip` of `p` (declarations, device
/// and dispatch width come from `p`): lets a generator keep only instructions the validator
/// accepts without building the whole program first. The whole-program rules (the header and
/// block structure, reported with no `ip`, and control-flow nesting: `cf-unmatched`,
/// `halt-target`) are left to [`validate`]: they need the instructions around `inst`.
pub fn validate_inst(p: &Program, ip: usize, inst: &Inst) -> Vec<Violation> {
    let mut r = Report { violations: vec![] };
    check_inst(p, ip, inst, &mut r);
    r.violations
}

/// The whole-program checks, which only [`validate`] runs: they need the instructions around
/// any one instruction (block split, control-flow nesting) or only the program's header.
fn check_program(p: &Program, r: &mut Report) {
    structure::check(p, r);
    vec4::check_program(p, r);
    control_flow::check(p, r);
}

/// The per-instruction checkers, listed once for [`validate`] and [`validate_inst`]: the
/// generator filters with the latter, so a checker missing there would let it emit programs
/// the former rejects.
fn check_inst(p: &Program, ip: usize, inst: &Inst, r: &mut Report) {
    exec::check(p, ip, inst, r);
    operands::check(p, ip, inst, r);
    types::check(p, ip, inst, r);
    messages::check(p, ip, inst, r);
    subgroup::check(ip, inst, r);
    align16::check(ip, inst, r);
    vec4::check(p, ip, inst, r);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_names_round_trip() {
        for r in ALL_RULES {
            assert_eq!(Rule::from_name(r.name()), Some(r));
            assert_eq!(
                serde_json::to_string(&r).unwrap_or_default(),
                format!("\"{}\"", r.name())
            );
        }
    }
}
