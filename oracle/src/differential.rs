//! The differential check: the input program on the emulator in logical mode (the
//! reference) against the default pipeline's output in strict hardware mode, on several
//! input sets, judged by refinement (ARCHITECTURE.md, "Verdicts"). Failing verdicts name the pass
//! that caused them ([`crate::culprit`]).

use crate::compare::{Difference, compare};
use crate::emu::result::DiagKind;
use crate::{Outcome, Prepared, RunConfig, RunResult};
use compiler::Program;
use compiler::inputs::Inputs;
use compiler::pass::CompileOptions;
use compiler::pipeline::{Compilation, Outcome as CompileOutcome, compile};
use serde::{Deserialize, Serialize};

/// How much more fuel the compiled program gets than the reference needed (plus
/// [`FUEL_BASE`]): lowering, spills and scratch setup grow the instruction count.
pub const FUEL_GROWTH: u64 = 64;
pub const FUEL_BASE: u64 = 100_000;
/// Output writes the compiled program may record beyond [`FUEL_GROWTH`] times the
/// reference's: splitting a message into SIMD pieces multiplies them, never by more than
/// that, so a compiled run stopped at its limit has written what the reference did not.
pub const WRITES_BASE: u64 = 1_000;

/// Why a program (or one input set) could not be judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiscardReason {
    /// The reference branched on an undefined value.
    UndefinedBranch,
    /// The reference ran out of fuel.
    ReferenceOutOfFuel,
    /// The input breaks a validator rule on its device.
    InvalidProgram,
    /// With `--baseline o0`: the `-O0` compilation failed or did not run cleanly on this
    /// input set, so there is no baseline to compare with (the reference baseline reports
    /// that failure as a lowering bug).
    BaselineFailed,
    /// The reference recorded more output writes than a run may
    /// ([`crate::emu::MAX_WRITES`]).
    ReferenceWriteLimit,
}

impl DiscardReason {
    pub fn name(self) -> &'static str {
        match self {
            DiscardReason::UndefinedBranch => "undefined-branch",
            DiscardReason::ReferenceOutOfFuel => "reference-out-of-fuel",
            DiscardReason::InvalidProgram => "invalid-program",
            DiscardReason::BaselineFailed => "baseline-failed",
            DiscardReason::ReferenceWriteLimit => "reference-write-limit",
        }
    }
}

/// The verdict on one program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Verdict {
    Pass,
    Discard {
        reason: DiscardReason,
    },
    /// The compiled run does not refine the reference on input set `input_set`.
    Mismatch {
        input_set: usize,
        differences: Vec<Difference>,
    },
    /// A pass's output broke a validator rule.
    CompilerAssertion {
        pass: String,
        rule: String,
        ip: Option<usize>,
        message: String,
    },
    /// The compiled program breaks a hardware restriction (strict mode).
    HardwareViolation {
        rule: String,
        ip: usize,
        message: String,
        /// The input set whose run executed the instruction (a restriction is checked
        /// where an instruction runs, so another input set may never reach it): what a
        /// reproducer must keep to replay it.
        #[serde(default)]
        input_set: usize,
    },
    /// A pass refused the program (e.g. it ran out of registers).
    CompileError {
        pass: String,
        /// The error's stable code (`compiler::pass::PassError::code`), which keeps naming
        /// the same kind of error when its message is reworded. Empty in verdicts recorded
        /// before codes existed.
        #[serde(default)]
        code: String,
        message: String,
    },
    Panic {
        pass: String,
        message: String,
        location: String,
    },
    /// The compiled program ran out of fuel where the reference did not.
    Hang {
        input_set: usize,
        steps: u64,
    },
    /// The emulator could not run the reference or the compiled program.
    EmulatorFault {
        input_set: usize,
        compiled: bool,
        message: String,
    },
}

impl Verdict {
    /// Short kebab-case kind, as in bucket signatures and campaign statistics.
    pub fn kind(&self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Discard { .. } => "discard",
            Verdict::Mismatch { .. } => "mismatch",
            Verdict::CompilerAssertion { .. } => "assert",
            Verdict::HardwareViolation { .. } => "hardware",
            Verdict::CompileError { .. } => "compile-error",
            Verdict::Panic { .. } => "panic",
            Verdict::Hang { .. } => "hang",
            Verdict::EmulatorFault { .. } => "emulator-fault",
        }
    }

    /// Whether this verdict is a failure to report (not a pass or a discard).
    pub fn is_failure(&self) -> bool {
        !matches!(self, Verdict::Pass | Verdict::Discard { .. })
    }

    /// The input set the verdict was reached on, if it depends on one.
    pub fn input_set(&self) -> Option<usize> {
        match self {
            Verdict::Mismatch { input_set, .. }
            | Verdict::Hang { input_set, .. }
            | Verdict::HardwareViolation { input_set, .. }
            | Verdict::EmulatorFault { input_set, .. } => Some(*input_set),
            _ => None,
        }
    }
}

/// Run configuration of the reference path.
pub fn reference_config() -> RunConfig {
    RunConfig::default()
}

/// Run configuration of the compiled program, from the reference run on the same inputs:
/// strict, with fuel for code growth and room for the messages split into pieces.
pub fn compiled_config(reference: &RunResult) -> RunConfig {
    RunConfig {
        strict: true,
        fuel: reference.steps * FUEL_GROWTH + FUEL_BASE,
        max_writes: compiled_write_limit(reference),
        ..RunConfig::default()
    }
}

/// The output writes a compiled program (or another compiler's output) may record on the
/// inputs of `reference`: its messages split into pieces, and no more.
pub fn compiled_write_limit(reference: &RunResult) -> u64 {
    reference.writes() * FUEL_GROWTH + WRITES_BASE
}

/// What a check found, with the compilation (for pass statistics and localisation).
pub struct Checked {
    pub verdict: Verdict,
    pub compilation: Option<Compilation>,
    /// Reference runs of the input sets that were judged (index = input set).
    pub references: Vec<Option<RunResult>>,
}

impl Checked {
    /// The most steps any reference run took (0 when none ran): the reducer sizes the fuel
    /// of a program's variants from it.
    pub fn longest_reference(&self) -> u64 {
        self.references
            .iter()
            .flatten()
            .map(|r| r.steps)
            .max()
            .unwrap_or(0)
    }
}

/// Judges the verdict of a compilation itself, before anything runs.
fn compile_verdict(c: &Compilation) -> Option<Verdict> {
    match &c.outcome {
        CompileOutcome::Panicked {
            pass,
            message,
            location,
        } => {
            return Some(Verdict::Panic {
                pass: pass.clone(),
                message: message.clone(),
                location: location.clone(),
            });
        }
        CompileOutcome::Failed {
            pass,
            code,
            message,
        } => {
            return Some(Verdict::CompileError {
                pass: pass.clone(),
                code: code.to_string(),
                message: message.clone(),
            });
        }
        CompileOutcome::Compiled => {}
    }
    c.first_violation()
        .map(|(pass, vs)| Verdict::CompilerAssertion {
            pass: pass.to_string(),
            rule: vs[0].rule.name().to_string(),
            ip: vs[0].ip,
            message: vs[0].message.clone(),
        })
}

/// Judges one compiled run against its reference.
fn run_verdict(input_set: usize, reference: &RunResult, compiled: &RunResult) -> Option<Verdict> {
    if let Some(d) = compiled
        .diagnostics
        .iter()
        .find(|d| d.kind == DiagKind::HardwareRestriction)
    {
        return Some(Verdict::HardwareViolation {
            rule: d.rule.clone().unwrap_or_default(),
            ip: d.ip,
            message: d.message.clone(),
            input_set,
        });
    }
    match &compiled.outcome {
        Outcome::OutOfFuel { steps } => {
            return Some(Verdict::Hang {
                input_set,
                steps: *steps,
            });
        }
        Outcome::Fault { message, .. } => {
            return Some(Verdict::EmulatorFault {
                input_set,
                compiled: true,
                message: message.clone(),
            });
        }
        // Compared below: the outcome itself is the difference (the compiled run wrote far
        // more than the reference did).
        Outcome::WriteLimit { .. } | Outcome::Completed => {}
    }
    let differences = compare(reference, compiled);
    (!differences.is_empty()).then_some(Verdict::Mismatch {
        input_set,
        differences,
    })
}

/// Runs the full differential check of `p` on `input_sets`.
pub fn check(p: &Program, input_sets: &[Inputs], opts: &CompileOptions) -> Checked {
    check_with_reference_fuel(p, input_sets, opts, reference_config().fuel)
}

/// [`check`] with the reference run limited to `fuel` steps (a reference that needs more is
/// discarded as out of fuel). The reducer uses it so a variant whose loop no longer ends
/// costs a few times the original's steps, not the full default fuel.
pub fn check_with_reference_fuel(
    p: &Program,
    input_sets: &[Inputs],
    opts: &CompileOptions,
    fuel: u64,
) -> Checked {
    if !compiler::validate::validate(p).is_empty() {
        return Checked {
            verdict: Verdict::Discard {
                reason: DiscardReason::InvalidProgram,
            },
            compilation: None,
            references: vec![],
        };
    }
    let compilation = compile(p, opts);
    let baseline = (opts.baseline_o0 && !opts.o0).then(|| {
        compile(
            p,
            &CompileOptions {
                o0: true,
                ..opts.clone()
            },
        )
    });
    // A baseline that does not compile cleanly leaves nothing to compare with: that failure
    // is the mandatory lowering's, which the reference baseline reports.
    if baseline
        .as_ref()
        .is_some_and(|b| compile_verdict(b).is_some())
    {
        return Checked {
            verdict: Verdict::Discard {
                reason: DiscardReason::BaselineFailed,
            },
            compilation: Some(compilation),
            references: vec![],
        };
    }
    if let Some(v) = compile_verdict(&compilation) {
        return Checked {
            verdict: v,
            compilation: Some(compilation),
            references: vec![],
        };
    }
    // Decoded once for every input set; the compiled program only once a reference
    // completes, and its fuel (which depends on that reference) is set per run.
    let reference_program = Prepared::new(
        p,
        &RunConfig {
            fuel,
            ..reference_config()
        },
    );
    let mut baseline_program = None;
    let mut compiled_program = None;
    let mut references = vec![];
    let mut discard = None;
    let mut judged = 0;
    for (k, inputs) in input_sets.iter().enumerate() {
        let reference = reference_program.run(inputs);
        let reason = match &reference.outcome {
            Outcome::OutOfFuel { .. } => Some(DiscardReason::ReferenceOutOfFuel),
            Outcome::WriteLimit { .. } => Some(DiscardReason::ReferenceWriteLimit),
            _ if reference.branched_on_undefined() => Some(DiscardReason::UndefinedBranch),
            Outcome::Fault { message, .. } => {
                let verdict = Verdict::EmulatorFault {
                    input_set: k,
                    compiled: false,
                    message: message.clone(),
                };
                references.push(Some(reference));
                return Checked {
                    verdict,
                    compilation: Some(compilation),
                    references,
                };
            }
            Outcome::Completed => None,
        };
        if let Some(r) = reason {
            discard.get_or_insert(r);
            references.push(None);
            continue;
        }
        let config = compiled_config(&reference);
        // With `--baseline o0` the -O0 program's strict run is what the optimised one must
        // refine; the input's own run still decides what is discarded.
        let reference = match &baseline {
            None => reference,
            Some(b) => {
                let run = baseline_program
                    .get_or_insert_with(|| Prepared::new(&b.program, &config))
                    .run_limited(inputs, &config);
                if run_verdict(k, &reference, &run).is_some() {
                    discard.get_or_insert(DiscardReason::BaselineFailed);
                    references.push(None);
                    continue;
                }
                let mut run = run;
                crate::compare::restrict_defined(&mut run, &reference);
                run
            }
        };
        judged += 1;
        let compiled = compiled_program
            .get_or_insert_with(|| Prepared::new(&compilation.program, &config))
            .run_limited(inputs, &config);
        let verdict = run_verdict(k, &reference, &compiled);
        references.push(Some(reference));
        if let Some(verdict) = verdict {
            return Checked {
                verdict,
                compilation: Some(compilation),
                references,
            };
        }
    }
    let verdict = match discard {
        Some(reason) if judged == 0 => Verdict::Discard { reason },
        _ => Verdict::Pass,
    };
    Checked {
        verdict,
        compilation: Some(compilation),
        references,
    }
}

/// Input sets for a program: its own inputs (if it carries any), then `extra` generated
/// from seeds `seed`, `seed + 1`, …
pub fn input_sets(p: &Program, extra: usize, seed: u64) -> Vec<Inputs> {
    p.inputs
        .iter()
        .cloned()
        .chain((0..extra as u64).map(|k| crate::inputs::generate(p, seed.wrapping_add(k))))
        .collect()
}
