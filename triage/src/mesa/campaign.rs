//! A campaign against a Mesa pass: generated programs (one seed after another) through the
//! shim, for a time or a number of cases. One shim process serves the whole campaign and
//! is restarted when a pass kills it. Failures are filed in the output directory, at most
//! `per_signature` per signature; refusals are counted by cause, since what the shim
//! refuses is what this campaign does not test.

use super::check::{Culprit, MesaVerdict, check, identify, refusal_class};
use super::shim::Shim;
use crate::Result;
use crate::check::describe_difference;
use crate::files::{write_atomic, write_new};
use compiler::text::print_program;
use oracle::generator::knobs::Knobs;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What a campaign runs.
pub struct Settings {
    pub pass: String,
    pub seed: u64,
    pub time: Duration,
    /// Stop after this many cases (whichever of time and cases comes first).
    pub cases: Option<u64>,
    pub knobs: Knobs,
    /// Generated input sets per program besides its own.
    pub inputs: usize,
    pub out: PathBuf,
    pub per_signature: u64,
    /// Time spent reducing the first failure of each signature (zero: none).
    pub reduce_budget: Duration,
}

/// Reduces a filed failure on its own inputs (the reproducer carries the distinguishing
/// set) and writes `KIND-SEED.reduced.eu` beside it.
fn reduce_one(
    shim: &mut Shim,
    settings: &Settings,
    text: &str,
    sig: &str,
    seed: u64,
) -> Result<()> {
    let p = compiler::text::parse_program(text)
        .map_err(|e| crate::Error::Malformed(format!("a reproducer does not parse: {e}")))?;
    let extra = if p.inputs.is_some() {
        0
    } else {
        settings.inputs
    };
    let identity = |shim: &mut Shim, p: &compiler::Program| -> Result<String> {
        let v = check(shim, &settings.pass, p, extra, seed)?;
        Ok(identify(shim, &settings.pass, p, extra, seed, &v)?.0)
    };
    if identity(shim, &p)? != sig {
        return Ok(()); // only with the generated input sets: left unreduced
    }
    let r = super::reduce::reduce(
        shim,
        &settings.pass,
        &p,
        sig,
        extra,
        seed,
        settings.reduce_budget,
    )?;
    let v = check(shim, &settings.pass, &r, extra, seed)?;
    let (sig, culprit) = identify(shim, &settings.pass, &r, extra, seed, &v)?;
    let kind = sig.split('/').next().unwrap_or("failure");
    let path = settings.out.join(format!("{kind}-{seed}.reduced.eu"));
    let text = reproducer(&r, &settings.pass, Some(seed), &v, &sig, culprit.as_ref());
    write_new(&path, text.as_bytes())?;
    Ok(())
}

/// What a campaign saw.
#[derive(Default, serde::Serialize)]
pub struct Stats {
    pub cases: u64,
    pub passes: u64,
    /// Passing cases in which Mesa's pass changed the program.
    pub progress: u64,
    pub discards: u64,
    pub refused: BTreeMap<String, u64>,
    pub failures: BTreeMap<String, u64>,
    pub restarts: u64,
    pub seconds: f64,
}

impl Stats {
    /// Judged cases (passes and failures) per second.
    pub fn checks_per_second(&self) -> f64 {
        let judged = self.passes + self.failures.values().sum::<u64>();
        judged as f64 / self.seconds.max(1e-9)
    }

    /// The summary printed at the end (and every few seconds).
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let refused: u64 = self.refused.values().sum();
        let failed: u64 = self.failures.values().sum();
        let _ = writeln!(
            s,
            "{} cases in {:.1} s: {} pass ({} changed by the pass), {} failed, {} refused, {} discarded; {:.1} judged checks/s; shim restarts: {}",
            self.cases,
            self.seconds,
            self.passes,
            self.progress,
            failed,
            refused,
            self.discards,
            self.checks_per_second(),
            self.restarts
        );
        for (sig, n) in &self.failures {
            let _ = writeln!(s, "  failure {n:6}  {sig}");
        }
        let mut by_count: Vec<_> = self.refused.iter().collect();
        by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (why, n) in by_count {
            let _ = writeln!(s, "  refused {n:6}  {why}");
        }
        s
    }
}

/// The reproducer of a failure: the program with its inputs, headed by what happened and
/// followed by Mesa's output as comments.
pub fn reproducer(
    p: &compiler::Program,
    pass: &str,
    seed: Option<u64>,
    v: &MesaVerdict,
    signature: &str,
    culprit: Option<&Culprit>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# backend: mesa:{pass}");
    let _ = writeln!(s, "# signature: {signature}");
    if let Some(c) = culprit {
        let _ = writeln!(s, "# culprit: {}", c.describe(pass));
    }
    if let Some(seed) = seed {
        let _ = writeln!(s, "# seed: {seed}");
    }
    let mut mesa_output = None;
    let mut program = p.clone();
    match v {
        MesaVerdict::Mismatch {
            set,
            inputs,
            differences,
            output,
        } => {
            let _ = writeln!(s, "# input set {set}; channel diff (expected vs Mesa):");
            for d in differences.iter().take(8) {
                let _ = writeln!(s, "#   {}", describe_difference(d));
            }
            // The distinguishing inputs become the file's own, so it replays as it is.
            program.inputs = Some((**inputs).clone());
            mesa_output = Some(output);
        }
        MesaVerdict::Crash { stderr, .. } => {
            for line in stderr.lines() {
                let _ = writeln!(s, "# stderr: {line}");
            }
        }
        MesaVerdict::BadOutput { output, .. } => mesa_output = Some(output),
        _ => {}
    }
    s.push_str(&print_program(&program));
    if let Some(out) = mesa_output {
        let _ = writeln!(s, "\n# Mesa's output:");
        for line in out.lines() {
            let _ = writeln!(s, "#   {line}");
        }
    }
    s
}

/// Runs the campaign; `progress` is called with the statistics every few seconds.
pub fn run(
    shim: &mut Shim,
    settings: &Settings,
    mut progress: impl FnMut(&Stats),
) -> Result<Stats> {
    std::fs::create_dir_all(&settings.out)
        .map_err(|e| crate::Error::io(&settings.out, "create", e))?;
    let start = Instant::now();
    let mut last_report = Instant::now();
    let mut stats = Stats::default();
    let mut seed = settings.seed;
    while start.elapsed() < settings.time && settings.cases.is_none_or(|n| stats.cases < n) {
        let g = oracle::generator::from_seed(seed, &settings.knobs);
        let p = g.program;
        let v = check(shim, &settings.pass, &p, settings.inputs, seed)?;
        stats.cases += 1;
        match &v {
            MesaVerdict::Pass { progress, .. } => {
                stats.passes += 1;
                stats.progress += *progress as u64;
            }
            MesaVerdict::Discard { .. } => stats.discards += 1,
            MesaVerdict::Refused { reason } => {
                *stats.refused.entry(refusal_class(reason)).or_default() += 1;
            }
            _ => {
                let (sig, culprit) = identify(shim, &settings.pass, &p, settings.inputs, seed, &v)?;
                let n = stats.failures.entry(sig.clone()).or_default();
                *n += 1;
                if *n <= settings.per_signature {
                    let kind = sig.split('/').next().unwrap_or("failure");
                    let path = settings.out.join(format!("{kind}-{seed}.eu"));
                    let text =
                        reproducer(&p, &settings.pass, Some(seed), &v, &sig, culprit.as_ref());
                    write_new(&path, text.as_bytes())?;
                    if *n == 1 && !settings.reduce_budget.is_zero() {
                        reduce_one(shim, settings, &text, &sig, seed)?;
                    }
                }
            }
        }
        seed += 1;
        if last_report.elapsed() >= Duration::from_secs(10) {
            stats.seconds = start.elapsed().as_secs_f64();
            stats.restarts = shim.restarts;
            progress(&stats);
            last_report = Instant::now();
        }
    }
    stats.seconds = start.elapsed().as_secs_f64();
    stats.restarts = shim.restarts;
    let json = serde_json::to_string_pretty(&stats).expect("statistics serialise");
    write_atomic(&settings.out.join("mesa-stats.json"), json.as_bytes())?;
    Ok(stats)
}
