//! The pass manager: an ordered, named pipeline from logical IR to hardware IR. After every
//! pass the IR validator runs and its violations are recorded with the pass name; progress
//! is counted; panics are caught and reported with the pass name. The oracle localises a
//! failing case by stopping after pass k or skipping a named pass.

mod order;

/// Re-exported for triage, whose paths stay put while it is rewritten in parallel; the
/// options and rewrite kinds belong to `crate::pass`, where new code should name them.
pub use crate::pass::{CompileOptions, is_device_parameter};
pub use order::{mandatory, optimising, vec4_mandatory, vec4_optimising};

use crate::pass::{Pass, PassError};
use crate::program::Program;
use crate::validate::{Incremental, Violation};
use serde::Serialize;

/// A step of the pipeline: one pass, or a list of passes run in turn until none of them
/// makes progress (Mesa's optimisation loop).
#[derive(Clone, Copy)]
pub enum Stage {
    Once(&'static Pass),
    Fixpoint(&'static [&'static Pass]),
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
    /// The kinds of rewrite the pass made (see [`crate::pass::note`]), sorted: what a failure's bucket
    /// is keyed on, since a reduced reproducer exercises little more than the faulty one.
    pub rewrites: Vec<&'static str>,
    /// Figures the pass measured (see [`crate::pass::tally`]), e.g. the register allocator's spills.
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
        /// The error's stable code ([`PassError::code`]): what tells compile errors apart
        /// when their messages differ only in numbers or wording.
        code: &'static str,
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
    if opts.o0 { mandatory() } else { optimising() }
}

/// The vec4 stage's pipeline for these options (docs/hardware/fp64-align16.md §9).
pub fn vec4_pipeline(opts: &CompileOptions) -> Vec<Stage> {
    if opts.o0 {
        vec4_mandatory()
    } else {
        vec4_optimising()
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
    static PANIC_LOCATION: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Installs (once) a panic hook that records where a pass panicked and keeps it quiet;
/// panics outside passes go to the previous hook as before.
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if crate::pass::in_pass() {
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

/// Told the name of each pass as it starts, and `None` when it has returned or panicked.
/// A campaign's child process keeps the name where its parent reads it after the child
/// died: a stack overflow, an abort or a kill for a hang cannot be caught, so this is how
/// the pass that took the process down is named.
pub type PassObserver = fn(Option<&'static str>);

static OBSERVER: std::sync::OnceLock<PassObserver> = std::sync::OnceLock::new();

/// Installs the process's pass observer; returns `false` (and changes nothing) if one is
/// installed already. Without one, running a pass costs one atomic load more.
pub fn observe_passes(observer: PassObserver) -> bool {
    OBSERVER.set(observer).is_ok()
}

/// Runs one pass, catching a panic as (message, location).
fn run_pass(
    pass: &Pass,
    work: &mut Program,
    opts: &CompileOptions,
) -> Result<Result<bool, PassError>, (String, String)> {
    install_panic_hook();
    let observer = OBSERVER.get();
    if let Some(f) = observer {
        f(Some(pass.name));
    }
    crate::pass::begin_run();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (pass.run)(work, opts)));
    crate::pass::end_run();
    if let Some(f) = observer {
        f(None);
    }
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

/// In debug builds, panics when `pass` noted a rewrite kind it does not declare: bucket
/// keys rank a culprit's kinds by the declared list, so an undeclared kind would silently
/// rank last. Checked after the run, outside the pass's panic catching, so the panic is
/// the caller's (a test's), not a compile outcome.
fn check_declared(pass: &Pass, noted: &[&'static str]) {
    if cfg!(debug_assertions) {
        for kind in noted {
            assert!(
                pass.rewrites.contains(kind),
                "pass {} noted rewrite kind `{kind}`, which its `rewrites` does not declare",
                pass.name
            );
        }
    }
}

/// Marks the passes of an optimisation-loop iteration that progressed although the
/// iteration as a whole left the program as it was: the progress contract of the loop.
fn report_cycle(iteration: &mut [PassRecord]) {
    for record in iteration.iter_mut().filter(|r| r.progress) {
        let cycle = Violation {
            rule: crate::validate::Rule::ProgressContract,
            ip: None,
            message: format!(
                "the optimisation loop did not converge in {MAX_LOOP_ITERATIONS} iterations: \
                 its passes progress and undo each other, so it would never end"
            ),
        };
        record.violations.insert(0, cycle);
    }
}

/// `violations` after the violation of a pass whose reported progress (`progress`) is
/// not what it did, which comes first.
fn with_contract(progress: bool, violations: Vec<Violation>) -> Vec<Violation> {
    let contract = Violation {
        rule: crate::validate::Rule::ProgressContract,
        ip: None,
        message: if progress {
            "the pass reported progress but left the program as it was".into()
        } else {
            "the pass changed the program but reported no progress".into()
        },
    };
    std::iter::once(contract).chain(violations).collect()
}

/// Runs `pass` on `program` and records it under `label`. The pass works in place: when
/// it fails or panics, `program` is the IR as the pass left it.
///
/// A pass reports progress exactly when it changed the program
/// ([`Rule::ProgressContract`](crate::validate::Rule::ProgressContract)), checked here
/// against the validator's copy of the program it last validated: a run without progress
/// that changed nothing keeps the previous record's violations (most runs in the
/// optimisation loop change nothing), and a run that breaks the contract either way
/// records the violation first.
fn step(
    pass: &Pass,
    label: String,
    program: &mut Program,
    records: &mut Vec<PassRecord>,
    validator: &mut Incremental,
    opts: &CompileOptions,
) -> Result<bool, Stop> {
    match run_pass(pass, program, opts) {
        Ok(Ok(progress)) => {
            let rewrites = crate::pass::noted();
            check_declared(pass, &rewrites);
            let violations = match records.last() {
                // The program's violations hold again; the previous pass's own do not.
                Some(prev) if !progress && validator.differs(program) == Some(false) => prev
                    .violations
                    .iter()
                    .filter(|v| !v.rule.is_pass_contract())
                    .cloned()
                    .collect(),
                _ => {
                    let compared = !records.is_empty();
                    let violations = validator.validate(program);
                    if compared && validator.unchanged() == progress {
                        with_contract(progress, violations)
                    } else {
                        violations
                    }
                }
            };
            let violations = match pass.postcondition {
                Some(contract) if contract.holds_after(progress) => contract.check()(program)
                    .into_iter()
                    .chain(violations)
                    .collect(),
                _ => violations,
            };
            let stop = opts
                .stop_after
                .as_deref()
                .is_some_and(|s| s == label || s == pass.name);
            records.push(PassRecord {
                name: pass.name,
                label,
                progress,
                rewrites,
                tallies: crate::pass::tallied(),
                violations,
                ir: opts.keep_ir.then(|| program.clone()),
            });
            if stop {
                Err(Stop::Requested)
            } else {
                Ok(progress)
            }
        }
        Ok(Err(error)) => Err(Stop::Ended(Outcome::Failed {
            pass: pass.name.into(),
            code: error.code(),
            message: error.to_string(),
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
    stages: &[Stage],
    program: &mut Program,
    records: &mut Vec<PassRecord>,
    opts: &CompileOptions,
) -> Result<(), Stop> {
    let skipped = |p: &Pass| opts.skip.iter().any(|s| s == p.name);
    let mut validator = Incremental::default();
    for &stage in stages {
        match stage {
            Stage::Once(pass) => {
                if !skipped(pass) {
                    step(
                        pass,
                        pass.name.to_string(),
                        program,
                        records,
                        &mut validator,
                        opts,
                    )?;
                }
            }
            Stage::Fixpoint(passes) => {
                for iteration in 1..=MAX_LOOP_ITERATIONS {
                    // The last iteration allowed is watched: if its passes progress and
                    // leave the program as it was, they undo each other and the loop
                    // would never end.
                    let before = (iteration == MAX_LOOP_ITERATIONS).then(|| program.clone());
                    let first = records.len();
                    let mut progress = false;
                    for &pass in passes.iter().filter(|p| !skipped(p)) {
                        let label = format!("{}#{iteration}", pass.name);
                        progress |= step(pass, label, program, records, &mut validator, opts)?;
                    }
                    if !progress {
                        break;
                    }
                    if before.as_ref() == Some(program) {
                        report_cycle(&mut records[first..]);
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
    let error = PassError::Align16Input { ip };
    Some(Outcome::Failed {
        pass: "input".into(),
        code: error.code(),
        message: error.to_string(),
    })
}

/// Compiles `input` through the pipeline.
pub fn compile(input: &Program, opts: &CompileOptions) -> Compilation {
    compile_with(input, &stages_for(input, opts), opts)
}

/// Compiles `input` through `stages` instead of the pipeline, under the same pass manager
/// (validation, the progress contract, panics and `--stop-after`): for checking the manager
/// itself, and for running a pass list of one's own.
pub fn compile_with(input: &Program, stages: &[Stage], opts: &CompileOptions) -> Compilation {
    let mut program = input.clone();
    let mut records = vec![];
    if let Some(outcome) = unsupported_input(input) {
        return Compilation {
            program,
            passes: records,
            outcome,
        };
    }
    let outcome = match run_stages(stages, &mut program, &mut records, opts) {
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

    fn compiled(text: &str, spill_all: bool) -> Compilation {
        let p = crate::text::parse_program(text).unwrap();
        let opts = CompileOptions {
            spill_all,
            ..Default::default()
        };
        compile(&p, &opts)
    }

    fn scratch_sends(p: &Program, write: bool) -> u64 {
        p.insts()
            .filter(|i| match i.desc {
                Some(d) => {
                    matches!(
                        (d.kind, write),
                        (crate::inst::MsgKind::ScratchWrite, true)
                            | (crate::inst::MsgKind::ScratchRead, false)
                    )
                }
                None => false,
            })
            .count() as u64
    }

    #[test]
    fn spills_and_fills_count_only_the_scratch_messages_allocation_added() {
        let text = "eu 1\ntarget skl\ndispatch 8\nscratch 1024\nattr attr0 1\nvgrf v0 1\n\
                    vgrf v1 1\n\nSTART B0\n    mov(8) v0:F, attr0:F\n    \
                    scratch_write(8) null:UD, v0:UD, 0:UD\n    \
                    add(8) v1:F, v0:F, 1.0:F\n    \
                    fb_write_logical(8) null:UD, v1:F, 4:UD, 0:UD { EOT }\nEND B0\n";
        let plain = compiled(text, false);
        let s = crate::stats::program_stats(&plain);
        // Nothing spilled: the program's own scratch write is not a spill.
        assert_eq!((s.spills, s.fills), (0, 0));
        assert_eq!(scratch_sends(&plain.program, true), 1);
        let spilled = compiled(text, true);
        let s = crate::stats::program_stats(&spilled);
        assert!(s.spills > 0 && s.fills > 0, "{s:?}");
        assert_eq!(scratch_sends(&spilled.program, true), s.spills + 1);
        assert_eq!(scratch_sends(&spilled.program, false), s.fills);
    }

    /// A pass that notes a kind it does not declare.
    const UNDECLARED: Pass = Pass {
        name: "undeclared",
        rewrites: &["declared"],
        run: |_, _| {
            crate::pass::note("declared");
            crate::pass::note("not-declared");
            Ok(false)
        },
        postcondition: None,
    };

    #[test]
    #[cfg_attr(
        debug_assertions,
        should_panic(expected = "pass undeclared noted rewrite kind `not-declared`")
    )]
    fn noting_an_undeclared_kind_fails_in_debug_builds() {
        let mut p = simple();
        let mut records = vec![];
        let _ = step(
            &UNDECLARED,
            UNDECLARED.name.into(),
            &mut p,
            &mut records,
            &mut Incremental::default(),
            &CompileOptions::default(),
        );
    }

    #[test]
    fn every_pipeline_pass_is_registered() {
        let all = [
            mandatory(),
            optimising(),
            vec4_mandatory(),
            vec4_optimising(),
        ];
        for stage in all.into_iter().flatten() {
            let passes = match stage {
                Stage::Once(p) => vec![p],
                Stage::Fixpoint(ps) => ps.to_vec(),
            };
            for p in passes {
                let registered = crate::passes::registry::find(p.name)
                    .unwrap_or_else(|| panic!("{} is not registered", p.name));
                assert_eq!(registered.rewrites, p.rewrites, "{}", p.name);
            }
        }
    }

    /// The corpus programs the kind check compiles: every hand-written one and a tenth of
    /// the generated realistic shaders, scalar and vec4, on the devices they target.
    fn corpus() -> Vec<String> {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for e in entries.flatten() {
                let path = e.path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|x| x == "eu") {
                    out.push(path);
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let mut paths = vec![];
        walk(&root, &mut paths);
        paths.sort();
        let mut realistic = 0;
        paths
            .into_iter()
            .filter(|p| {
                if !p.components().any(|c| c.as_os_str() == "realistic") {
                    return true;
                }
                realistic += 1;
                realistic % 10 == 0
            })
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .collect()
    }

    /// Compile options to try a corpus file with: the defaults, `-O0`, `--spill-all`, and
    /// in zoo builds the file's own `# zoo:` bug with each of those.
    fn option_sets(text: &str) -> Vec<CompileOptions> {
        let mut zoos = vec![crate::zoo::Selected::default()];
        for line in text.lines() {
            if let Some(name) = line.strip_prefix("# zoo: ")
                && let Ok(bug) = crate::zoo::select(name.trim())
            {
                zoos.push(bug);
            }
        }
        let mut sets = vec![];
        for zoo in zoos {
            for (o0, spill_all) in [(false, false), (true, false), (false, true)] {
                sets.push(CompileOptions {
                    o0,
                    spill_all,
                    zoo,
                    ..Default::default()
                });
            }
        }
        sets
    }

    /// Every kind a pass notes while compiling the corpus is one it declares: `step`
    /// asserts it in debug builds, so a pass that notes an undeclared kind panics here.
    #[test]
    #[cfg_attr(not(debug_assertions), ignore = "the check is a debug assertion")]
    fn passes_note_only_the_kinds_they_declare() {
        let files = corpus();
        let mut compiled = 0;
        let mut vec4 = 0;
        let mut devices = std::collections::HashSet::new();
        for text in &files {
            let Ok(p) = crate::text::parse_program(text) else {
                continue;
            };
            for opts in option_sets(text) {
                // Whatever the outcome: only `step`'s check may panic out of `compile`.
                let _ = compile(&p, &opts);
                compiled += 1;
            }
            vec4 += usize::from(p.stage.is_vec4());
            devices.insert(p.device);
        }
        assert!(compiled > 500, "only {compiled} compilations");
        assert!(vec4 >= 10, "only {vec4} vec4 programs");
        assert!(devices.len() >= 10, "devices: {devices:?}");
    }
}
