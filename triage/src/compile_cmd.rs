//! `eufuzz compile` and `eufuzz check`: run the lowering pipeline, and compare the compiled
//! program's run (strict hardware mode) with the reference run of the input.

use crate::load::load_document;
use compiler::inputs::Inputs;
use compiler::pipeline::{Compilation, CompileOptions, Outcome as CompileOutcome, compile};
use compiler::text::print_program;
use compiler::{Device, Program};
use oracle::compare::{Difference, compare};
use oracle::emu::result::DiagKind;
use oracle::{RunConfig, run};
use std::fmt::Write;
use std::path::Path;

/// Shared options of `compile` and `check`.
pub struct Options {
    pub device: Option<Device>,
    pub compile: CompileOptions,
}

/// Loads a program, retargeted if asked.
pub fn load(path: &Path, device: Option<Device>) -> Result<Program, String> {
    let mut p = load_document(path)?.program;
    if let Some(d) = device {
        p.device = d;
    }
    Ok(p)
}

/// Problems of a compilation itself: a pass failed, panicked, or broke a validator rule.
pub fn compilation_problems(c: &Compilation) -> Vec<String> {
    let mut out = vec![];
    match &c.outcome {
        CompileOutcome::Compiled => {}
        CompileOutcome::Failed { pass, message } => {
            out.push(format!("pass {pass} failed: {message}"))
        }
        CompileOutcome::Panicked {
            pass,
            message,
            location,
        } => out.push(format!("pass {pass} panicked at {location}: {message}")),
    }
    if let Some((pass, vs)) = c.first_violation() {
        for v in vs {
            out.push(format!("after {pass}: {v}"));
        }
    }
    out
}

/// Prints the compiled IR (or the IR after every pass).
pub fn render_compile(c: &Compilation, after_all: bool) -> String {
    let mut out = String::new();
    if after_all {
        for r in &c.passes {
            let _ = writeln!(
                out,
                "# ---- after {}{}",
                r.name,
                if r.progress { "" } else { " (no change)" }
            );
            if let Some(ir) = &r.ir {
                out.push_str(&print_program(ir));
            }
        }
    } else {
        out.push_str(&print_program(&c.program));
    }
    out
}

/// The verdict of `check` on one file.
pub struct CheckReport {
    /// Validator rules the input itself breaks on this device (then nothing is compiled).
    pub unsupported: Vec<String>,
    pub problems: Vec<String>,
    pub differences: Vec<Difference>,
}

impl CheckReport {
    pub fn agrees(&self) -> bool {
        self.problems.is_empty() && self.differences.is_empty()
    }
}

/// Compiles and runs both paths on `inputs` (no output).
pub fn check(p: &Program, inputs: &Inputs, opts: &CompileOptions) -> CheckReport {
    let mut unsupported: Vec<String> = compiler::validate::validate(p)
        .iter()
        .map(|v| v.rule.to_string())
        .collect();
    unsupported.dedup();
    if !unsupported.is_empty() {
        return CheckReport {
            unsupported,
            problems: vec![],
            differences: vec![],
        };
    }
    let reference = run(p, inputs, &RunConfig::default());
    let compiled = compile(p, opts);
    let mut problems = compilation_problems(&compiled);
    if compiled.outcome != CompileOutcome::Compiled {
        return CheckReport {
            unsupported,
            problems,
            differences: vec![],
        };
    }
    let cfg = RunConfig {
        strict: true,
        fuel: RunConfig::default().fuel * 8,
        ..RunConfig::default()
    };
    let result = run(&compiled.program, inputs, &cfg);
    for d in result
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagKind::HardwareRestriction)
    {
        problems.push(format!(
            "hardware restriction at ip {}: [{}] {}",
            d.ip,
            d.rule.as_deref().unwrap_or("?"),
            d.message
        ));
    }
    let differences = compare(&reference, &result);
    CheckReport {
        unsupported,
        problems,
        differences,
    }
}

/// Counts of `check` verdicts over files (and devices).
#[derive(Default)]
pub struct CheckTally {
    pub agree: usize,
    pub skipped: usize,
    /// Files that are not valid programs for their own target.
    pub invalid: usize,
    pub disagree: usize,
    pub unreadable: usize,
}

impl CheckTally {
    pub fn add(&mut self, retargeted: bool, r: &CheckReport) {
        if !r.unsupported.is_empty() && !retargeted {
            self.invalid += 1;
        } else if !r.unsupported.is_empty() {
            self.skipped += 1;
        } else if r.agrees() {
            self.agree += 1;
        } else {
            self.disagree += 1;
        }
    }

    pub fn summary(&self) -> String {
        format!(
            "{} check(s): {} agree, {} disagree, {} invalid, {} skipped (not valid for the device), {} unreadable file(s)",
            self.agree + self.disagree + self.invalid + self.skipped,
            self.agree,
            self.disagree,
            self.invalid,
            self.skipped,
            self.unreadable
        )
    }

    /// 2 if a file could not be read, else 1 if any check disagreed or a file is invalid
    /// for its own target, else 0.
    pub fn exit_code(&self) -> i32 {
        if self.unreadable > 0 {
            2
        } else if self.disagree + self.invalid > 0 {
            1
        } else {
            0
        }
    }
}

fn describe(d: &Difference) -> String {
    let show = |v: u32, m: u8| {
        let bytes = v.to_le_bytes();
        (0..4)
            .rev()
            .map(|b| {
                if m >> b & 1 == 1 {
                    format!("{:02x}", bytes[b])
                } else {
                    "..".into()
                }
            })
            .collect::<String>()
    };
    match d {
        Difference::Color {
            thread,
            target,
            channel,
            write,
            component,
            expected,
            expected_defined,
            actual,
        } => format!(
            "thread {thread} rt{target} ch{channel} write {write} component {component}: expected {} got {}",
            show(*expected, *expected_defined),
            actual.map_or("nothing".into(), |(v, m)| show(v, m))
        ),
        Difference::ExtraWrite {
            thread,
            target,
            channel,
            write,
        } => {
            format!("thread {thread} rt{target} ch{channel}: unexpected write {write}")
        }
        Difference::Buffer {
            surface,
            offset,
            expected,
            expected_defined,
            actual,
            actual_defined,
        } => format!(
            "buffer {surface} byte {offset}: expected {} got {}",
            show(*expected, *expected_defined),
            show(*actual, *actual_defined)
        ),
        Difference::Eot { thread, expected } => format!("thread {thread}: EOT expected {expected}"),
        Difference::Outcome { expected, actual } => {
            format!("run ended {actual:?}, expected {expected:?}")
        }
    }
}

/// Human-readable verdict.
/// `retargeted`: compiled for another device than the file's target, where being an invalid
/// program only means the file does not apply there.
pub fn render_check(
    name: &str,
    device: compiler::Device,
    retargeted: bool,
    r: &CheckReport,
) -> String {
    let mut out = String::new();
    if !r.unsupported.is_empty() && !retargeted {
        let _ = writeln!(
            out,
            "{name}: INVALID: breaks {} on its own target {device} (`eufuzz validate` shows where)",
            r.unsupported.join(", ")
        );
        return out;
    }
    if !r.unsupported.is_empty() {
        let _ = writeln!(
            out,
            "{name}: skipped: not a valid program for {device} ({})",
            r.unsupported.join(", ")
        );
        return out;
    }
    if r.agrees() {
        let _ = writeln!(out, "{name}: ok (compiled run refines the reference)");
        return out;
    }
    let _ = writeln!(out, "{name}: FAIL");
    for p in &r.problems {
        let _ = writeln!(out, "  {p}");
    }
    for d in r.differences.iter().take(12) {
        let _ = writeln!(out, "  mismatch: {}", describe(d));
    }
    if r.differences.len() > 12 {
        let _ = writeln!(out, "  ... {} more mismatches", r.differences.len() - 12);
    }
    out
}
