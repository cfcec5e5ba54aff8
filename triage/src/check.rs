//! Checking a program: run the lowering pipeline and compare the compiled program's run
//! (strict hardware mode) with the reference run of the input, locate the culprit pass,
//! and describe the result in words (what `compile`, `check`, the gate, `import` and the
//! report show).

use crate::error::{Error, Result};
use crate::options::CompileArgs;
use crate::repro::directives;
use compiler::inputs::Inputs;
use compiler::pipeline::{Compilation, CompileOptions, Outcome as CompileOutcome};
use compiler::text::print_program_with_cycles;
use compiler::{Device, Program};
use oracle::compare::Difference;
use oracle::culprit::{Basis, Culprit};
use oracle::differential::Verdict;
use oracle::emu::result::StrayTarget;
use std::fmt::Write;
use std::path::Path;

/// What `check` runs a file with: the devices and compile options its directives ask for,
/// with the command line's flags added.
pub struct FileCheck {
    pub devices: Vec<Option<Device>>,
    pub compile: CompileOptions,
    pub inputs: usize,
    /// The file's `# backend:` directive: judge that compiler, not eufuzz's pipeline.
    pub backend: Option<String>,
}

/// The devices, options and input sets `check` runs `f` with: the file's directives, to
/// which the command line adds its flags; its `--zoo` (`none` included) replaces the file's
/// bug, and `--device` or `all_devices` replace the file's devices.
pub fn file_check(
    f: &Path,
    args: &CompileArgs,
    all_devices: bool,
    inputs: usize,
) -> Result<FileCheck> {
    let text = crate::files::read_text(f)?;
    let d =
        directives::parse(&text).map_err(|e| Error::Malformed(format!("{}:{e}", f.display())))?;
    let device = args.device()?;
    let devices = if all_devices {
        compiler::device::ALL_DEVICES
            .iter()
            .copied()
            .map(Some)
            .collect()
    } else if device.is_some() {
        vec![device]
    } else {
        d.devices
            .map_or(vec![None], |ds| ds.into_iter().map(Some).collect())
    };
    let cli = args.flags.options(None)?;
    let mut file = crate::options::parse_words(&d.options).map_err(|e| e.context(f.display()))?;
    let file_zoo = if args.flags.zoo.is_some() {
        file.zoo = None;
        None
    } else {
        d.zoo.as_deref().filter(|_| crate::gate::ZOO_BUILD)
    };
    let mut compile = file.options(file_zoo).map_err(|e| e.context(f.display()))?;
    if args.flags.zoo.is_some() {
        compile.zoo = cli.zoo;
    }
    compile.spill_all |= cli.spill_all;
    compile.o0 |= cli.o0;
    compile.baseline_o0 |= cli.baseline_o0;
    compile.pre_ra_schedule = cli.pre_ra_schedule.or(compile.pre_ra_schedule);
    Ok(FileCheck {
        devices,
        compile,
        inputs: inputs.max(d.inputs),
        backend: d.backend,
    })
}

/// Problems of a compilation itself: a pass failed, panicked, or broke a validator rule.
pub fn compilation_problems(c: &Compilation) -> Vec<String> {
    let mut out = vec![];
    match &c.outcome {
        CompileOutcome::Compiled => {}
        CompileOutcome::Failed { pass, message, .. } => {
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

/// Prints the compiled IR with its static cycle estimate as a comment line (or the IR
/// after every pass).
pub fn render_compile(c: &Compilation, after_all: bool) -> String {
    let mut out = String::new();
    if after_all {
        for r in &c.passes {
            let rewrites = if r.rewrites.is_empty() {
                String::new()
            } else {
                format!(" [{}]", r.rewrites.join(", "))
            };
            let _ = writeln!(
                out,
                "# ---- after {}{}{rewrites}",
                r.label,
                if r.progress { "" } else { " (no change)" }
            );
            if let Some(ir) = &r.ir {
                out.push_str(&annotated(ir));
            }
        }
    } else {
        // The static estimate of compiler::passes::schedule (in-order issue with latency
        // stalls, loop bodies counted LOOP_TRIPS times), for comparing compilations.
        let _ = writeln!(
            out,
            "# static cycle estimate: {} (loop bodies x{})",
            compiler::passes::schedule::estimate_cycles(&c.program),
            compiler::passes::schedule::LOOP_TRIPS
        );
        out.push_str(&annotated(&c.program));
    }
    out
}

/// The IR with each block's cycle estimate on its START line, as Mesa's dumps show it.
fn annotated(p: &Program) -> String {
    print_program_with_cycles(p, &compiler::passes::schedule::block_cycles(p))
}

/// The verdict of `check` on one file and device.
pub struct CheckReport {
    /// Validator rules the input itself breaks on this device (then nothing is compiled).
    pub unsupported: Vec<String>,
    /// Why the program's stage does not exist on this device, if it does not (the vec4
    /// stage off Gen7/7.5, `compiler::Stage::unsupported_on`): the stated reason a
    /// retargeted check skips the device.
    pub stage_unsupported: Option<&'static str>,
    pub verdict: Verdict,
    pub culprit: Option<Culprit>,
    /// Where each input set came from, for the report.
    pub input_sources: Vec<String>,
}

impl CheckReport {
    pub fn agrees(&self) -> bool {
        !self.verdict.is_failure()
    }
}

/// The input sets of a check: the file's own inputs (if any), then `extra` generated ones
/// from `seed` on (at least one set in all).
pub fn input_sets(p: &Program, extra: usize, seed: u64) -> (Vec<Inputs>, Vec<String>) {
    let extra = if p.inputs.is_none() {
        extra.max(1)
    } else {
        extra
    };
    let sets = oracle::differential::input_sets(p, extra, seed);
    let mut sources: Vec<String> = p
        .inputs
        .iter()
        .map(|_| "the file's INPUTS".to_string())
        .collect();
    sources
        .extend((0..extra as u64).map(|k| format!("generated from seed {}", seed.wrapping_add(k))));
    (sets, sources)
}

/// Runs the differential check and, on a failure, finds the culprit pass (no output).
pub fn check(
    p: &Program,
    sets: &[Inputs],
    sources: Vec<String>,
    opts: &CompileOptions,
) -> CheckReport {
    let mut unsupported: Vec<String> = compiler::validate::validate(p)
        .iter()
        .map(|v| v.rule.to_string())
        .collect();
    unsupported.dedup();
    let checked = oracle::differential::check(p, sets, opts);
    let culprit = if checked.verdict.is_failure() {
        oracle::culprit::localise(p, sets, opts, &checked)
    } else {
        None
    };
    CheckReport {
        unsupported,
        stage_unsupported: p.stage.unsupported_on(p.device),
        verdict: checked.verdict,
        culprit,
        input_sources: sources,
    }
}

/// One line saying what a failing verdict is.
pub fn describe_verdict(v: &Verdict) -> String {
    match v {
        Verdict::Pass => "pass".into(),
        Verdict::Discard { reason } => format!("discarded: {}", reason.name()),
        Verdict::Mismatch { differences, .. } => {
            format!("mismatch: {} differing output dword(s)", differences.len())
        }
        Verdict::CompilerAssertion {
            pass,
            rule,
            ip,
            message,
        } => format!(
            "compiler assertion: after {pass}: [{rule}] ip {}: {message}",
            ip.map_or("-".into(), |i| i.to_string())
        ),
        Verdict::HardwareViolation {
            rule, ip, message, ..
        } => {
            format!("hardware restriction broken at ip {ip}: [{rule}] {message}")
        }
        Verdict::CompileError {
            pass,
            code,
            message,
        } => format!("pass {pass} failed [{code}]: {message}"),
        Verdict::Panic {
            pass,
            message,
            location,
        } => format!("pass {pass} panicked at {location}: {message}"),
        Verdict::Hang { steps, .. } => {
            format!("hang: the compiled program ran out of fuel after {steps} steps")
        }
        Verdict::EmulatorFault {
            compiled, message, ..
        } => format!(
            "emulator fault in the {} run: {message}",
            if *compiled { "compiled" } else { "reference" }
        ),
    }
}

/// Counts of `check` verdicts over files (and devices).
#[derive(Default)]
pub struct CheckTally {
    pub agree: usize,
    /// Checks whose every input set was discarded (reference undefined or out of fuel).
    pub discarded: usize,
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
        } else if matches!(r.verdict, Verdict::Discard { .. }) {
            self.discarded += 1;
        } else if r.agrees() {
            self.agree += 1;
        } else {
            self.disagree += 1;
        }
    }

    pub fn summary(&self) -> String {
        format!(
            "{} check(s): {} agree, {} discarded, {} disagree, {} invalid, {} skipped (not valid for the device), {} unreadable file(s)",
            self.agree + self.discarded + self.disagree + self.invalid + self.skipped,
            self.agree,
            self.discarded,
            self.disagree,
            self.invalid,
            self.skipped,
            self.unreadable
        )
    }

    /// Malformed if a file could not be read, else Problems if any check disagreed or a
    /// file is invalid for its own target, else Undecided if any check had every input set
    /// discarded, else Ok.
    pub fn exit(&self) -> crate::Exit {
        use crate::Exit;
        if self.unreadable > 0 {
            Exit::Malformed
        } else if self.disagree + self.invalid > 0 {
            Exit::Problems
        } else if self.discarded > 0 {
            Exit::Undecided
        } else {
            Exit::Ok
        }
    }
}

/// Where a stray write went, as reports name it: `stray write to surface 3 (not provided)
/// at byte 16`.
fn stray_write_location(target: &StrayTarget, offset: Option<u64>) -> String {
    let place = match target {
        StrayTarget::Surface { surface } => format!("surface {surface} (not provided)"),
        StrayTarget::Scratch => "scratch outside the thread's slot".into(),
    };
    let at = offset.map_or("an undefined address".into(), |o| format!("byte {o}"));
    format!("stray write to {place} at {at}")
}

/// What one value a difference compares is: (dword, defined-byte mask), or `None` where
/// the run wrote nothing.
pub type Compared = Option<(u32, u8)>;

/// Where a difference that compares values is, and the reference's and the compiled run's
/// values there; `None` for the differences described whole (extra writes, EOT, outcome,
/// a surface only one run has). `check` and the nightly report show the same places.
pub fn compared_values(d: &Difference) -> Option<(String, Compared, Compared)> {
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
        } => Some((
            format!("thread {thread} rt{target} ch{channel} write {write} component {component}"),
            Some((*expected, *expected_defined)),
            *actual,
        )),
        Difference::Output {
            thread,
            slot,
            vertex,
            write,
            component,
            expected,
            expected_defined,
            actual,
        } => Some((
            format!(
                "thread {thread} output slot {slot} vertex {vertex} write {write} component {component}"
            ),
            Some((*expected, *expected_defined)),
            *actual,
        )),
        Difference::Buffer {
            surface,
            offset,
            expected,
            expected_defined,
            actual,
            actual_defined,
        } => Some((
            format!("buffer {surface} byte {offset}"),
            Some((*expected, *expected_defined)),
            Some((*actual, *actual_defined)),
        )),
        Difference::StrayWrite {
            target,
            offset,
            expected,
            actual,
        } => Some((stray_write_location(target, *offset), *expected, *actual)),
        _ => None,
    }
}

/// One output difference, bytes as hex with `..` for undefined ones.
pub fn describe_difference(d: &Difference) -> String {
    let show = |w: Compared| {
        let Some((v, m)) = w else {
            return "nothing".to_string();
        };
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
        Difference::ExtraWrite {
            thread,
            target,
            channel,
            write,
        } => {
            format!("thread {thread} rt{target} ch{channel}: unexpected write {write}")
        }
        Difference::ExtraOutput {
            thread,
            slot,
            vertex,
            write,
        } => {
            format!("thread {thread} output slot {slot} vertex {vertex}: unexpected write {write}")
        }
        Difference::Surface { surface, expected } => {
            let (has, lacks) = if *expected {
                ("reference", "compiled")
            } else {
                ("compiled", "reference")
            };
            format!("buffer {surface}: the {has} run has it, the {lacks} run does not")
        }
        Difference::Eot { thread, expected } => format!("thread {thread}: EOT expected {expected}"),
        Difference::Outcome { expected, actual } => {
            format!(
                "run {}, expected {}",
                crate::render::outcome(actual),
                crate::render::outcome(expected)
            )
        }
        Difference::Color { .. }
        | Difference::Output { .. }
        | Difference::Buffer { .. }
        | Difference::StrayWrite { .. } => compared_values(d)
            .map(|(at, expected, actual)| {
                format!("{at}: expected {} got {}", show(expected), show(actual))
            })
            .unwrap_or_default(),
    }
}

/// Human-readable verdict.
/// `retargeted`: compiled for another device than the file's target, where being an invalid
/// program only means the file does not apply there. `full`: the whole IR diff.
pub fn render_check(
    name: &str,
    device: compiler::Device,
    retargeted: bool,
    r: &CheckReport,
    full: bool,
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
    if let Some(why) = r.stage_unsupported.filter(|_| retargeted) {
        let _ = writeln!(out, "{name}: skipped on {device}: {why}");
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
    match &r.verdict {
        Verdict::Pass => {
            let _ = writeln!(
                out,
                "{name}: ok on {device} (compiled run refines the reference)"
            );
            return out;
        }
        Verdict::Discard { reason } => {
            let _ = writeln!(out, "{name}: discarded on {device}: {}", reason.name());
            return out;
        }
        v => {
            let _ = writeln!(out, "{name}: FAIL on {device}: {}", describe_verdict(v));
            // The name the failure is filed and gated under: what a reproducer's
            // `# signature:` line says it replays.
            let signature = crate::identity::Identity::of(v, r.culprit.as_ref()).signature;
            let _ = writeln!(out, "  signature: {signature}");
        }
    }
    if let Some(k) = r.verdict.input_set() {
        let from = r.input_sources.get(k).map_or("?", String::as_str);
        let _ = writeln!(out, "  input set {k} ({from})");
    }
    let differences = match (&r.verdict, &r.culprit) {
        (Verdict::Mismatch { differences, .. }, _) => differences.clone(),
        (_, Some(c)) => c.differences.clone(),
        _ => vec![],
    };
    if let Some(c) = &r.culprit {
        let why = match c.basis {
            Basis::Reported => "it reported the failure itself",
            Basis::FirstNonRefining => {
                "the first pass whose output no longer refines the reference"
            }
            Basis::RuleOwner => "the pass that legalises this hardware rule",
        };
        let _ = writeln!(out, "  culprit pass: {} ({why})", c.pass);
    }
    if !differences.is_empty() {
        let _ = writeln!(out, "  output diff (expected vs actual, .. = undefined):");
        for d in differences.iter().take(12) {
            let _ = writeln!(out, "    {}", describe_difference(d));
        }
        if differences.len() > 12 {
            let _ = writeln!(out, "    ... {} more", differences.len() - 12);
        }
    }
    if let Some(c) = &r.culprit
        && !c.ir_diff.is_empty()
    {
        let lines: Vec<&str> = c.ir_diff.lines().collect();
        let limit = if full { lines.len() } else { 80 };
        let _ = writeln!(out, "  IR diff across {}:", c.pass);
        for l in lines.iter().take(limit) {
            let _ = writeln!(out, "    {l}");
        }
        if lines.len() > limit {
            let _ = writeln!(
                out,
                "    ... {} more lines (--full-diff shows all)",
                lines.len() - limit
            );
        }
    }
    out
}
