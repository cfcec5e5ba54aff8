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
    /// Stop after the pass at this index of the pipeline.
    pub stop_after: Option<usize>,
    /// Passes not to run, by name.
    pub skip: Vec<String>,
    /// Keep the IR after every pass (for dumps and localisation).
    pub keep_ir: bool,
    /// The historical bug to inject (only in `zoo` builds).
    pub zoo: crate::zoo::Selected,
}

/// A pass: a name and a function that rewrites the program, returning whether it changed
/// anything, or why it could not compile it.
#[derive(Clone, Copy)]
pub struct Pass {
    pub name: &'static str,
    pub run: fn(&mut Program, &CompileOptions) -> Result<bool, String>,
}

/// What one pass did.
#[derive(Clone, Debug, Serialize)]
pub struct PassRecord {
    pub name: &'static str,
    pub progress: bool,
    /// Validator violations in the pass's output.
    pub violations: Vec<Violation>,
    /// The kinds of rewrite the pass made (see [`note`]), sorted: what a failure's bucket
    /// is keyed on, since a reduced reproducer exercises little more than the faulty one.
    pub rewrites: Vec<&'static str>,
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

/// The ordered passes for these options.
pub fn pipeline(opts: &CompileOptions) -> Vec<Pass> {
    let _ = opts.o0;
    passes::mandatory()
}

thread_local! {
    /// The rewrites the running pass noted.
    static REWRITES: std::cell::RefCell<std::collections::BTreeSet<&'static str>> =
        const { std::cell::RefCell::new(std::collections::BTreeSet::new()) };
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

/// Compiles `input` through the pipeline.
pub fn compile(input: &Program, opts: &CompileOptions) -> Compilation {
    let mut program = input.clone();
    let mut records = vec![];
    let mut outcome = Outcome::Compiled;
    for (index, pass) in pipeline(opts).into_iter().enumerate() {
        if opts.skip.iter().any(|s| s == pass.name) {
            continue;
        }
        let mut work = program.clone();
        match run_pass(&pass, &mut work, opts) {
            Ok(Ok(progress)) => {
                program = work;
                records.push(PassRecord {
                    name: pass.name,
                    progress,
                    rewrites: REWRITES.with(|r| r.borrow().iter().copied().collect()),
                    violations: validate(&program),
                    ir: opts.keep_ir.then(|| program.clone()),
                });
            }
            Ok(Err(message)) => {
                outcome = Outcome::Failed {
                    pass: pass.name.into(),
                    message,
                };
                break;
            }
            Err((message, location)) => {
                outcome = Outcome::Panicked {
                    pass: pass.name.into(),
                    message,
                    location,
                };
                break;
            }
        }
        if opts.stop_after == Some(index) {
            break;
        }
    }
    Compilation {
        program,
        passes: records,
        outcome,
    }
}

/// Index of the first pass called `name`.
pub fn pass_index(opts: &CompileOptions, name: &str) -> Option<usize> {
    pipeline(opts).iter().position(|p| p.name == name)
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
}
