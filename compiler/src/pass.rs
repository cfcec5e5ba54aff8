//! What a pass is and what it may use of the pass manager: the options, the rewrite and
//! figure records (`note`, `tally`) and the error a pass refuses a program with.
//!
//! This module depends on no pass and not on the pipeline, so passes can import it without
//! the pipeline and every pass forming one circle of modules: the pipeline imports the
//! passes, the passes import this.

use crate::program::Program;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};

/// How to compile.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// `-O0`: mandatory lowering only.
    pub o0: bool,
    /// Spill every spillable VGRF to scratch (like INTEL_DEBUG=spill_fs).
    pub spill_all: bool,
    /// Stop after the first pass run with this label (`opt_cse#2`) or name.
    pub stop_after: Option<String>,
    /// Passes not to run, by name.
    pub skip: Vec<String>,
    /// Keep the IR after every pass (for dumps and localisation).
    pub keep_ir: bool,
    /// The historical bug to inject (only in `zoo` builds).
    pub zoo: crate::zoo::Selected,
    /// Differential checks compare this pipeline against the `-O0` compilation of the same
    /// program (`--baseline o0`) instead of against the input run directly: both sides then
    /// share the mandatory lowering, so a failure is an optimisation bug, not a lowering
    /// bug. The compiler itself ignores it.
    pub baseline_o0: bool,
    /// Allocate after this pre-RA scheduling mode only (spilling, if it needs any, still in
    /// program order). Mesa picks the first mode in turn that allocates without spilling
    /// (docs/hardware/brw-backend.md §7.1), so which one a program gets depends on its register
    /// pressure; naming it lets a reduced reproducer of an allocation failure keep the
    /// schedule its original had without keeping the pressure that chose it.
    pub pre_ra_schedule: Option<ScheduleMode>,
}

/// A scheduling mode (docs/hardware/brw-backend.md §7.1). It lives here, not with the scheduler
/// (`passes::schedule`, which re-exports it as `Mode`), because it is a compile option.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ScheduleMode {
    /// Top-down along the latency critical path.
    TopDown,
    /// Bottom-up, last ready first: register-pressure oriented.
    Lifo,
    /// Program order.
    None,
}

impl ScheduleMode {
    /// The rewrite kind `allocate_registers` notes for the mode it allocated with.
    pub fn rewrite(self) -> &'static str {
        match self {
            ScheduleMode::TopDown => "schedule-top-down",
            ScheduleMode::Lifo => "schedule-lifo",
            ScheduleMode::None => "schedule-none",
        }
    }

    /// The mode's name on the command line (`--pre-ra-schedule lifo`).
    pub fn name(self) -> &'static str {
        match self {
            ScheduleMode::TopDown => "top-down",
            ScheduleMode::Lifo => "lifo",
            ScheduleMode::None => "none",
        }
    }

    /// The mode called `name`, as [`ScheduleMode::name`] spells it.
    pub fn from_name(name: &str) -> Option<ScheduleMode> {
        [
            ScheduleMode::TopDown,
            ScheduleMode::Lifo,
            ScheduleMode::None,
        ]
        .into_iter()
        .find(|m| m.name() == name)
    }
}

/// A pass, described in one value so that its name, the rewrite kinds it may note and its
/// code cannot drift apart: the registry (`passes::registry`) lists these values, the
/// pipelines run them, and triage ranks a culprit's rewrites by `rewrites`.
#[derive(Debug)]
pub struct Pass {
    /// The name pass records, `--skip`, `--stop-after` and culprit reports use.
    pub name: &'static str,
    /// Every rewrite kind the pass may [`note`], most specific first: a failure's bucket is
    /// named by the most specific kind its culprit pass made. Kinds of equal standing
    /// (message names) are listed in alphabetical order, which ranks them as their names
    /// do. Noting a kind not listed here is a bug that debug builds catch in the pipeline.
    pub rewrites: &'static [&'static str],
    /// Rewrites the program in place; whether it changed anything, or why it cannot
    /// compile the program.
    pub run: fn(&mut Program, &CompileOptions) -> Result<bool, PassError>,
    /// What the pass guarantees of the programs it leaves, beyond the validator's rules,
    /// checked by the pass manager: a pass that silently stops doing its job (dead code
    /// kept) changes no output, so only its own contract can see it (`crate::contracts`).
    pub postcondition: Option<Contract>,
}

/// A pass's contract, and after which runs it holds.
#[derive(Clone, Copy, Debug)]
pub enum Contract {
    /// After every run: the pass finishes its job in one run.
    EveryRun(fn(&Program) -> Vec<crate::validate::Violation>),
    /// After a run that reported no progress: a pass that sweeps the program once, deciding
    /// from what it saw before the sweep, may leave work that its own changes exposed for
    /// its next run (Mesa's loop runs it again), but a run that found nothing to do leaves
    /// nothing to do.
    RunWithoutProgress(fn(&Program) -> Vec<crate::validate::Violation>),
}

impl Contract {
    /// The check itself, whichever runs it holds after.
    pub fn check(self) -> fn(&Program) -> Vec<crate::validate::Violation> {
        match self {
            Contract::EveryRun(check) | Contract::RunWithoutProgress(check) => check,
        }
    }

    /// Whether it holds after a run that reported `progress`.
    pub fn holds_after(self, progress: bool) -> bool {
        matches!(self, Contract::EveryRun(_)) || !progress
    }
}

/// Why a pass (or the pipeline, for its input) refused a program. Each variant has a stable
/// [`code`](PassError::code), so that a compile error's bucket does not depend on the
/// wording of its message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PassError {
    /// The scalar register allocator found a VGRF it could not place with nothing live
    /// left to spill.
    #[error(
        "out of registers: v{vgrf} ({size} GRFs) cannot be placed and nothing live can be spilled"
    )]
    OutOfRegisters { vgrf: usize, size: u32 },
    /// The scalar register allocator spilled as many rounds as there are VGRFs and still
    /// could not allocate.
    #[error("register allocation did not converge")]
    RaDidNotConverge,
    /// The thread payload alone needs more GRFs than the device has.
    #[error("the thread payload needs {needed} GRFs; {device} has {available}")]
    PayloadTooLarge {
        needed: usize,
        device: crate::Device,
        available: usize,
    },
    /// The vec4 register assignment ran out of GRFs (the vec4 pipeline does not spill).
    #[error("v{vgrf} does not fit: {grfs} GRFs, and the vec4 pipeline does not spill")]
    Vec4RegisterFileFull { vgrf: usize, grfs: u32 },
    /// The scalar pipeline was given Align16 code, which only the vec4 pipeline lowers.
    #[error(
        "ip {ip} is an Align16 instruction: the scalar pipeline has no Align16 (vec4) lowering; run Align16 hardware IR with `eufuzz run --strict`"
    )]
    Align16Input { ip: usize },
}

impl PassError {
    /// Every code, for tests and documentation.
    pub const CODES: &'static [&'static str] = &[
        "out-of-registers",
        "ra-did-not-converge",
        "payload-too-large",
        "vec4-register-file-full",
        "align16-input",
    ];

    /// The stable kebab-case code of this kind of error: what bucket keys of compile
    /// errors can use instead of the message's words.
    pub fn code(&self) -> &'static str {
        match self {
            PassError::OutOfRegisters { .. } => "out-of-registers",
            PassError::RaDidNotConverge => "ra-did-not-converge",
            PassError::PayloadTooLarge { .. } => "payload-too-large",
            PassError::Vec4RegisterFileFull { .. } => "vec4-register-file-full",
            PassError::Align16Input { .. } => "align16-input",
        }
    }
}

thread_local! {
    /// The rewrites the running pass noted.
    static REWRITES: RefCell<BTreeSet<&'static str>> = const { RefCell::new(BTreeSet::new()) };
    /// The figures the running pass tallied.
    static TALLIES: RefCell<BTreeMap<&'static str, u64>> = const { RefCell::new(BTreeMap::new()) };
    /// Set while a pass runs: its panics are reported in the outcome, not printed.
    static IN_PASS: Cell<bool> = const { Cell::new(false) };
}

/// Whether a rewrite kind is a device parameter (the scratch size encoding) rather than a
/// rule the pass chose: moving a program to another device changes it and nothing else.
pub fn is_device_parameter(rewrite: &str) -> bool {
    rewrite.starts_with("scratch-size-")
}

/// Records that the running pass made a rewrite of this kind (a short kebab-case name,
/// e.g. `split-eot`, declared in the pass's [`Pass::rewrites`]): the pass record lists
/// them, and bucket keys of failures use them.
pub fn note(rewrite: &'static str) {
    REWRITES.with(|r| r.borrow_mut().insert(rewrite));
}

/// Records a figure the running pass measured (the register allocator's `spills`, `fills`
/// and `max-live-registers`): only the pass knows which of the scratch messages it wrote
/// are its own, so shader-db statistics read them from the pass record.
pub fn tally(name: &'static str, value: u64) {
    TALLIES.with(|t| t.borrow_mut().insert(name, value));
}

/// Starts a pass's run: forgets the previous run's notes and tallies. The pipeline calls
/// this and [`end_run`] around every pass.
pub(crate) fn begin_run() {
    REWRITES.with(|r| r.borrow_mut().clear());
    TALLIES.with(|t| t.borrow_mut().clear());
    IN_PASS.with(|f| f.set(true));
}

/// Ends a pass's run (after it returned or panicked).
pub(crate) fn end_run() {
    IN_PASS.with(|f| f.set(false));
}

/// Whether a pass is running on this thread (its panics are the pipeline's to report).
pub(crate) fn in_pass() -> bool {
    IN_PASS.with(|f| f.get())
}

/// The rewrites the last run noted, sorted.
pub(crate) fn noted() -> Vec<&'static str> {
    REWRITES.with(|r| r.borrow().iter().copied().collect())
}

/// The figures the last run tallied.
pub(crate) fn tallied() -> BTreeMap<&'static str, u64> {
    TALLIES.with(|t| t.borrow().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contract_of_every_run_holds_after_progress_and_one_of_a_settled_run_does_not() {
        fn none(_: &Program) -> Vec<crate::validate::Violation> {
            vec![]
        }
        let every = Contract::EveryRun(none);
        let settled = Contract::RunWithoutProgress(none);
        assert!(every.holds_after(true) && every.holds_after(false));
        assert!(!settled.holds_after(true) && settled.holds_after(false));
    }

    #[test]
    fn error_codes_are_distinct_kebab_case_and_listed() {
        let errors = [
            PassError::OutOfRegisters { vgrf: 0, size: 1 },
            PassError::RaDidNotConverge,
            PassError::PayloadTooLarge {
                needed: 1,
                device: crate::Device::Skl,
                available: 0,
            },
            PassError::Vec4RegisterFileFull { vgrf: 0, grfs: 0 },
            PassError::Align16Input { ip: 0 },
        ];
        let codes: Vec<&str> = errors.iter().map(PassError::code).collect();
        assert_eq!(codes, PassError::CODES);
        let unique: BTreeSet<&str> = codes.iter().copied().collect();
        assert_eq!(unique.len(), codes.len());
        assert!(codes.iter().all(|c| {
            !c.is_empty()
                && c.split('-').all(|w| {
                    !w.is_empty()
                        && w.bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                })
        }));
    }
}
