//! The pass manager: an ordered, named pipeline from logical IR to hardware IR. After every
//! pass the IR validator runs and its violations are recorded with the pass name; progress
//! is counted; panics are caught and reported with the pass name. The oracle localises a
//! failing case by stopping after pass k or skipping a named pass.

use crate::passes;
use crate::program::Program;
use crate::validate::{Violation, validate};
use serde::Serialize;

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
    /// (brw-backend.md §7.1), so which one a program gets depends on its register
    /// pressure; naming it lets a reduced reproducer of an allocation failure keep the
    /// schedule its original had without keeping the pressure that chose it.
    pub pre_ra_schedule: Option<crate::passes::schedule::Mode>,
}

/// A pass: a name and a function that rewrites the program, returning whether it changed
/// anything, or why it could not compile it.
#[derive(Clone, Copy)]
pub struct Pass {
    pub name: &'static str,
    pub run: fn(&mut Program, &CompileOptions) -> Result<bool, String>,
}

/// A step of the pipeline: one pass, or a list of passes run in turn until none of them
/// makes progress (Mesa's optimisation loop).
#[derive(Clone, Copy)]
pub enum Stage {
    Once(Pass),
    Fixpoint(&'static [Pass]),
}

/// Iterations after which an optimisation loop stops even if a pass still reports
/// progress (passes that undo each other would otherwise never end).
pub const MAX_LOOP_ITERATIONS: u32 = 10;

/// What one pass did.
#[derive(Clone, Debug, Serialize)]
pub struct PassRecord {
    pub name: &'static str,
    /// The name, with the loop iteration for passes of the optimisation loop
    /// (`opt_cmod_propagation#2`): what `--print-after-all` and `--stop-after` use.
    pub label: String,
    pub progress: bool,
    /// Validator violations in the pass's output.
    pub violations: Vec<Violation>,
    /// The kinds of rewrite the pass made (see [`note`]), sorted: what a failure's bucket
    /// is keyed on, since a reduced reproducer exercises little more than the faulty one.
    pub rewrites: Vec<&'static str>,
    /// Figures the pass measured (see [`tally`]), e.g. the register allocator's spills.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub tallies: std::collections::BTreeMap<&'static str, u64>,
    /// The IR after the pass, when asked for.
    #[serde(skip)]
    pub ir: Option<Program>,
}

/// How a compilation ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    Compiled,
    /// A pass refused the program (e.g. more registers than the device has).
    Failed {
        pass: String,
        message: String,
    },
    /// A pass panicked.
    Panicked {
        pass: String,
        message: String,
        /// `file:line:col` of the panic.
        location: String,
    },
}

/// The result of a compilation.
#[derive(Clone, Debug)]
pub struct Compilation {
    /// The compiled program; after a failed or panicking pass, the IR as that pass left it.
    pub program: Program,
    pub passes: Vec<PassRecord>,
    pub outcome: Outcome,
}

impl Compilation {
    /// The first pass whose output broke a validator rule, with its violations.
    pub fn first_violation(&self) -> Option<(&'static str, &[Violation])> {
        self.passes
            .iter()
            .find(|r| !r.violations.is_empty())
            .map(|r| (r.name, r.violations.as_slice()))
    }
}

/// The ordered stages for these options: `-O0` is the mandatory lowering and RA only.
pub fn pipeline(opts: &CompileOptions) -> Vec<Stage> {
    if opts.o0 {
        passes::mandatory()
    } else {
        passes::optimising()
    }
}

/// The vec4 stage's pipeline for these options (fp64-align16.md §9, `passes::vec4`).
pub fn vec4_pipeline(opts: &CompileOptions) -> Vec<Stage> {
    if opts.o0 {
        passes::vec4::mandatory()
    } else {
        passes::vec4::optimising()
    }
}

/// The stages that compile `input`: the vec4 pipeline for the vec4 stage.
fn stages_for(input: &Program, opts: &CompileOptions) -> Vec<Stage> {
    if input.stage.is_vec4() {
        vec4_pipeline(opts)
    } else {
        pipeline(opts)
    }
}

/// Every pass name the pipelines for `opts` (scalar, then vec4) can run, in first-run
/// order, without repeats.
pub fn pass_names(opts: &CompileOptions) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = vec![];
    for stage in pipeline(opts).into_iter().chain(vec4_pipeline(opts)) {
        let passes = match stage {
            Stage::Once(p) => vec![p],
            Stage::Fixpoint(ps) => ps.to_vec(),
        };
        for p in passes {
            if !names.contains(&p.name) {
                names.push(p.name);
            }
        }
    }
    names
}

thread_local! {
    /// The rewrites the running pass noted.
    static REWRITES: std::cell::RefCell<std::collections::BTreeSet<&'static str>> =
        const { std::cell::RefCell::new(std::collections::BTreeSet::new()) };
    /// The figures the running pass tallied.
    static TALLIES: std::cell::RefCell<std::collections::BTreeMap<&'static str, u64>> =
        const { std::cell::RefCell::new(std::collections::BTreeMap::new()) };
    /// Set while a pass runs: its panics are reported in the outcome, not printed.
    static IN_PASS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static PANIC_LOCATION: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Whether a rewrite kind is a device parameter (the scratch size encoding) rather than a
/// rule the pass chose: moving a program to another device changes it and nothing else.
pub fn is_device_parameter(rewrite: &str) -> bool {
    rewrite.starts_with("scratch-size-")
}

/// Records that the running pass made a rewrite of this kind (a short kebab-case name,
/// e.g. `split-eot`): the pass record lists them, and bucket keys of failures use them.
pub fn note(rewrite: &'static str) {
    REWRITES.with(|r| r.borrow_mut().insert(rewrite));
}

/// Records a figure the running pass measured (the register allocator's `spills`, `fills`
/// and `max-live-registers`): only the pass knows which of the scratch messages it wrote
/// are its own, so shader-db statistics read them from the pass record.
pub fn tally(name: &'static str, value: u64) {
    TALLIES.with(|t| t.borrow_mut().insert(name, value));
}

/// Installs (once) a panic hook that records where a pass panicked and keeps it quiet;
/// panics outside passes go to the previous hook as before.
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_PASS.with(|f| f.get()) {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_default();
                PANIC_LOCATION.with(|l| *l.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs one pass, catching a panic as (message, location).
fn run_pass(
    pass: &Pass,
    work: &mut Program,
    opts: &CompileOptions,
) -> Result<Result<bool, String>, (String, String)> {
    install_panic_hook();
    REWRITES.with(|r| r.borrow_mut().clear());
    TALLIES.with(|t| t.borrow_mut().clear());
    IN_PASS.with(|f| f.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (pass.run)(work, opts)));
    IN_PASS.with(|f| f.set(false));
    result.map_err(|e| {
        (
            panic_message(e),
            PANIC_LOCATION.with(|l| l.borrow().clone()),
        )
    })
}

fn panic_message(e: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = e.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = e.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".into()
    }
}

/// Why a compilation stopped early.
enum Stop {
    /// `--stop-after` reached.
    Requested,
    /// The pass failed or panicked.
    Ended(Outcome),
}

/// Runs `pass` on `program` and records it under `label`. The pass works in place: when
/// it fails or panics, `program` is the IR as the pass left it.
///
/// A pass reports progress exactly when it changed the program (a contract the pipeline
/// tests check on generated programs), so a pass run without progress keeps the previous
/// record's violations: most runs in the optimisation loop change nothing, and neither a
/// copy of the program nor a fingerprint of it is needed to know.
fn step(
    pass: &Pass,
    label: String,
    program: &mut Program,
    records: &mut Vec<PassRecord>,
    opts: &CompileOptions,
) -> Result<bool, Stop> {
    match run_pass(pass, program, opts) {
        Ok(Ok(progress)) => {
            let violations = match records.last() {
                Some(prev) if !progress => prev.violations.clone(),
                _ => validate(program),
            };
            let stop = opts
                .stop_after
                .as_deref()
                .is_some_and(|s| s == label || s == pass.name);
            records.push(PassRecord {
                name: pass.name,
                label,
                progress,
                rewrites: REWRITES.with(|r| r.borrow().iter().copied().collect()),
                tallies: TALLIES.with(|t| t.borrow().clone()),
                violations,
                ir: opts.keep_ir.then(|| program.clone()),
            });
            if stop {
                Err(Stop::Requested)
            } else {
                Ok(progress)
            }
        }
        Ok(Err(message)) => Err(Stop::Ended(Outcome::Failed {
            pass: pass.name.into(),
            message,
        })),
        Err((message, location)) => Err(Stop::Ended(Outcome::Panicked {
            pass: pass.name.into(),
            message,
            location,
        })),
    }
}

/// Runs the stages in order; the optimisation loop repeats until no pass of it progresses.
fn run_stages(
    program: &mut Program,
    records: &mut Vec<PassRecord>,
    opts: &CompileOptions,
) -> Result<(), Stop> {
    let skipped = |p: &Pass| opts.skip.iter().any(|s| s == p.name);
    for stage in stages_for(program, opts) {
        match stage {
            Stage::Once(pass) => {
                if !skipped(&pass) {
                    step(&pass, pass.name.to_string(), program, records, opts)?;
                }
            }
            Stage::Fixpoint(passes) => {
                for iteration in 1..=MAX_LOOP_ITERATIONS {
                    let mut progress = false;
                    for pass in passes.iter().filter(|p| !skipped(p)) {
                        let label = format!("{}#{iteration}", pass.name);
                        progress |= step(pass, label, program, records, opts)?;
                    }
                    if !progress {
                        break;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Why the pipeline cannot take `input` at all: the scalar passes model Mesa's scalar (fs)
/// backend, which never sees Align16; rewriting Align16 operands as Align1 regions would
/// produce wrong code that looks like a compiler bug. Only the vec4 stage's pipeline lowers
/// Align16 code.
fn unsupported_input(input: &Program) -> Option<Outcome> {
    if input.stage.is_vec4() {
        return None;
    }
    let ip = input.insts().position(|i| i.is_align16())?;
    Some(Outcome::Failed {
        pass: "input".into(),
        message: format!(
            "ip {ip} is an Align16 instruction: the scalar pipeline has no Align16 (vec4) lowering; run Align16 hardware IR with `eufuzz run --strict`"
        ),
    })
}

/// Compiles `input` through the pipeline.
pub fn compile(input: &Program, opts: &CompileOptions) -> Compilation {
    let mut program = input.clone();
    let mut records = vec![];
    if let Some(outcome) = unsupported_input(input) {
        return Compilation {
            program,
            passes: records,
            outcome,
        };
    }
    let outcome = match run_stages(&mut program, &mut records, opts) {
        Ok(()) | Err(Stop::Requested) => Outcome::Compiled,
        Err(Stop::Ended(outcome)) => outcome,
    };
    Compilation {
        program,
        passes: records,
        outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_records_list_the_rewrites_each_run_made() {
        // SKL writes render targets at most 16 wide: the SIMD32 write is split, its EOT on
        // the second piece, in the first run of lower_simd_width only.
        let text = "eu 1\ntarget skl\ndispatch 32\nvgrf v0 16\n\nSTART B0\n    \
                    fb_write_logical(32) null:UD, v0:F, 4:UD, 0:UD { EOT }\nEND B0\n";
        let p = crate::text::parse_program(text).unwrap();
        let c = compile(&p, &CompileOptions::default());
        let runs: Vec<&PassRecord> = c
            .passes
            .iter()
            .filter(|r| r.name == "lower_simd_width")
            .collect();
        assert!(runs[0].rewrites.contains(&"split-eot"), "{:?}", runs[0]);
        assert!(runs[0].rewrites.contains(&"split"));
        assert!(runs[1..].iter().all(|r| r.rewrites.is_empty()));
    }

    fn simple() -> Program {
        let text = "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nvgrf v0 4\n\nSTART B0\n    \
                    mov(8) v0:F, attr0:F\n    \
                    fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD { EOT }\nEND B0\n";
        crate::text::parse_program(text).unwrap()
    }

    #[test]
    fn o0_runs_only_the_mandatory_lowering() {
        let c = compile(
            &simple(),
            &CompileOptions {
                o0: true,
                ..Default::default()
            },
        );
        let names: Vec<&str> = c.passes.iter().map(|r| r.name).collect();
        assert_eq!(names.len(), 11, "{names:?}");
        assert!(
            names
                .iter()
                .all(|n| n.starts_with("lower_") || *n == "allocate_registers")
        );
        assert_eq!(c.outcome, Outcome::Compiled);
    }

    #[test]
    fn loop_records_carry_their_iteration_and_stop_after_takes_a_label() {
        let c = compile(&simple(), &CompileOptions::default());
        let labels: Vec<&str> = c.passes.iter().map(|r| r.label.as_str()).collect();
        assert!(labels.contains(&"opt_cse#1"), "{labels:?}");
        assert!(labels.contains(&"opt_dead_code_eliminate"), "{labels:?}");
        // The loop ends with an iteration in which no pass progressed.
        let last = c.passes.iter().rfind(|r| r.label.contains('#')).unwrap();
        let n: usize = last.label.rsplit('#').next().unwrap().parse().unwrap();
        let final_round = c
            .passes
            .iter()
            .filter(|r| r.label.ends_with(&format!("#{n}")));
        assert!(final_round.clone().count() > 0 && final_round.clone().all(|r| !r.progress));
        let stopped = compile(
            &simple(),
            &CompileOptions {
                stop_after: Some("opt_cse#1".into()),
                ..Default::default()
            },
        );
        assert_eq!(stopped.passes.last().unwrap().label, "opt_cse#1");
    }
}
