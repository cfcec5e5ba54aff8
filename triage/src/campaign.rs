//! `eufuzz campaign`: a single-worker loop of generate → differential check, with a
//! one-line progress display, every failure written as a replayable `.eu` reproducer (its
//! failing inputs, verdict and culprit in header comments) plus the generator bytes, and
//! statistics at the end.

use crate::files::write_atomic;
use crate::gen_cmd::provenance;
use compiler::pipeline::CompileOptions;
use compiler::text::print_program;
use oracle::culprit::{Culprit, localise};
use oracle::differential::{Verdict, check, input_sets};
use oracle::generator::knobs::Knobs;
use oracle::generator::{from_seed, seed_bytes};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Generated input sets per program, besides the program's own.
pub const EXTRA_INPUT_SETS: usize = 2;

/// One failure found by a campaign.
#[derive(Serialize, Clone, Debug)]
pub struct Failure {
    pub kind: String,
    pub culprit_pass: Option<String>,
    pub signature: String,
    /// The bucket key ([`crate::bucket::key`]) of this failure's reduction when it is
    /// written, of the first reduction of its kind when its bucket is full, or of the
    /// failure itself when the campaign does not reduce.
    pub bucket: String,
    pub seconds: f64,
    /// The reproducer, or `None` when its bucket already had `--per-bucket` of them.
    pub file: Option<String>,
    pub seed: u64,
    /// The reduced reproducer, when the failure was written and the campaign reduces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduced: Option<String>,
    /// With `--zoo`: whether the program also fails with the bug switched off (a failure
    /// of its own, not the injected bug's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub without_zoo_bug: Option<bool>,
}

/// Campaign statistics (the `--stats-json` file).
#[derive(Serialize, Default, Debug)]
pub struct Stats {
    pub execs: u64,
    pub seconds: f64,
    pub execs_per_sec: f64,
    pub discarded: BTreeMap<String, u64>,
    pub outcomes: BTreeMap<String, u64>,
    pub opcode_hits: BTreeMap<String, u64>,
    pub pass_fires: BTreeMap<String, u64>,
    pub failures: Vec<Failure>,
}

/// What to run.
pub struct Campaign {
    pub time: Duration,
    pub seed: u64,
    pub out: PathBuf,
    pub knobs: Knobs,
    pub compile: CompileOptions,
    pub zoo: Option<String>,
    /// Stop at the first failure (with `--zoo`: the first one the bug causes), for
    /// measuring time to detection.
    pub stop_on_failure: bool,
    /// Seconds to spend reducing the first failure of each signature (0: do not reduce).
    pub reduce_budget: Duration,
    /// Reproducers kept per bucket at most (later ones are counted, not written).
    pub per_bucket: usize,
    /// The compile options as `check` flags, written into reproducers so they replay.
    pub options_line: String,
}

/// The bucket signature: kind / culprit pass / rule, panic site or what differed.
pub fn signature(v: &Verdict, culprit: Option<&Culprit>) -> String {
    let pass = culprit.map_or("-", |c| c.pass.as_str());
    let detail = match v {
        Verdict::CompilerAssertion { rule, .. } | Verdict::HardwareViolation { rule, .. } => {
            rule.clone()
        }
        Verdict::Panic { location, .. } => location.clone(),
        Verdict::Mismatch { .. } => "output".into(),
        Verdict::Hang { .. } => "fuel".into(),
        Verdict::EmulatorFault { compiled, .. } => {
            if *compiled { "compiled" } else { "reference" }.into()
        }
        Verdict::CompileError { message, .. } => message
            .split([':', ','])
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join("-"),
        Verdict::Pass | Verdict::Discard { .. } => "-".into(),
    };
    format!("{}/{pass}/{detail}", v.kind())
}

/// The generated program carrying the input set it failed on.
fn failing_program(
    g: &oracle::generator::Generated,
    sets: &[compiler::inputs::Inputs],
    v: &Verdict,
) -> compiler::Program {
    let mut p = g.program.clone();
    p.inputs = sets.get(v.input_set().unwrap_or(0)).cloned().or(p.inputs);
    p
}

/// Reduces a failing program within the campaign's budget, keeping its signature.
fn reduce_failure(c: &Campaign, p: &compiler::Program) -> Option<crate::reduce::Reduced> {
    let target = crate::reduce::interesting::judge(p, &c.compile);
    if !target.signature.contains('/') || target.signature.starts_with("discard/") {
        return None;
    }
    let settings = crate::reduce::Settings {
        opts: c.compile.clone(),
        jobs: 1,
        budget: c.reduce_budget,
        max_rounds: 8,
    };
    Some(crate::reduce::reduce(p, &target, &settings, |_| {}))
}

/// Writes a reduction as `NAME.reduced.eu` next to the original; returns its path.
fn save_reduction(
    c: &Campaign,
    r: &crate::reduce::Reduced,
    bucket: &str,
    file: &str,
    name: &str,
) -> Result<String, String> {
    let text = format!(
        "{}# bucket: {bucket}\n{}",
        crate::reduce_cmd::header(Path::new(file), r, None),
        print_program(&r.program)
    );
    let path = c.out.join(format!("{name}.reduced.eu"));
    write_atomic(&path, text.as_bytes())?;
    Ok(path.display().to_string())
}

/// The reproducer text: header comments, then the program carrying the failing inputs.
fn reproducer(
    g: &oracle::generator::Generated,
    seed: u64,
    sets: &[compiler::inputs::Inputs],
    v: &Verdict,
    culprit: Option<&Culprit>,
    bucket: &str,
    c: &Campaign,
) -> String {
    let p = failing_program(g, sets, v);
    let set = v.input_set().unwrap_or(0);
    let mut head = String::from("# eufuzz reproducer\n");
    head.push_str(&format!(
        "# verdict: {}\n",
        crate::compile_cmd::describe_verdict(v)
    ));
    head.push_str(&format!("# signature: {}\n", signature(v, culprit)));
    head.push_str(&format!("# bucket: {bucket}\n"));
    if let Some(d) = crate::bucket::details(&p, v, culprit) {
        head.push_str(&format!("# details: {d}\n"));
    }
    if let Some(cu) = culprit {
        head.push_str(&format!("# culprit pass: {} ({:?})\n", cu.pass, cu.basis));
    }
    if let Some(z) = &c.zoo {
        head.push_str(&format!("# zoo bug injected: {z}\n"));
    }
    if !c.options_line.is_empty() {
        head.push_str(&format!("# options: {}\n", c.options_line));
    }
    head.push_str(&format!(
        "# failing inputs: input set {set} of the campaign (kept below)\n"
    ));
    head.push_str(&provenance(g, Some(seed), &c.knobs));
    format!("{head}{}", print_program(&p))
}

fn save(dir: &Path, name: &str, text: &str, bytes: &[u8]) -> Result<String, String> {
    let eu = dir.join(format!("{name}.eu"));
    write_atomic(&eu, text.as_bytes())?;
    write_atomic(&dir.join(format!("{name}.bytes")), bytes)?;
    Ok(eu.display().to_string())
}

impl Stats {
    fn progress_line(&self, elapsed: f64) -> String {
        let discarded: u64 = self.discarded.values().sum();
        let valid = if self.execs == 0 {
            0.0
        } else {
            100.0 * (self.execs - discarded) as f64 / self.execs as f64
        };
        format!(
            "{:>6.0}s  execs {:>8}  {:>7.0}/s  valid {:>5.1}%  failures {}",
            elapsed,
            self.execs,
            self.execs as f64 / elapsed.max(1e-9),
            valid,
            self.failures.len()
        )
    }

    /// The end-of-campaign summary.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "{} execs in {:.1}s ({:.0}/s)\noutcomes: {:?}\ndiscarded: {:?}\nopcodes hit: {}\npasses fired: {:?}\nfailures: {}\n",
            self.execs,
            self.seconds,
            self.execs_per_sec,
            self.outcomes,
            self.discarded,
            self.opcode_hits.len(),
            self.pass_fires,
            self.failures.len()
        );
        if let Some(f) = self
            .failures
            .iter()
            .find(|f| f.without_zoo_bug == Some(false))
        {
            out.push_str(&format!(
                "zoo bug detected after {:.1}s: {}\n",
                f.seconds, f.signature
            ));
        }
        for f in &self.failures {
            let note = if f.without_zoo_bug == Some(true) {
                "  (fails without the zoo bug too)"
            } else {
                ""
            };
            out.push_str(&format!(
                "  {:>8.1}s  {}  {}{note}\n",
                f.seconds,
                f.bucket,
                f.file.as_deref().unwrap_or("(bucket full, not written)")
            ));
        }
        out
    }
}

/// Runs the campaign until its time is up (or Ctrl-C, or the first failure if asked).
pub fn run(c: &Campaign, stop: Arc<AtomicBool>) -> Result<Stats, String> {
    std::fs::create_dir_all(&c.out).map_err(|e| format!("{}: {e}", c.out.display()))?;
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut last_progress = Instant::now();
    let interactive = std::env::var_os("CI").is_none();
    let mut seen = std::collections::BTreeSet::new();
    // The bucket of each kind of failure (`alike` below): its first reduction's key.
    let mut bucket_of: BTreeMap<String, String> = BTreeMap::new();
    let mut per_bucket: BTreeMap<String, usize> = BTreeMap::new();
    let mut i = 0u64;
    while start.elapsed() < c.time && !stop.load(Ordering::Relaxed) {
        let seed = c.seed.wrapping_add(i);
        i += 1;
        let g = from_seed(seed, &c.knobs);
        for inst in g.program.insts() {
            *stats
                .opcode_hits
                .entry(inst.op.name().to_string())
                .or_default() += 1;
        }
        let sets = input_sets(&g.program, EXTRA_INPUT_SETS, seed);
        let checked = check(&g.program, &sets, &c.compile);
        stats.execs += 1;
        *stats
            .outcomes
            .entry(checked.verdict.kind().to_string())
            .or_default() += 1;
        if let Some(comp) = &checked.compilation {
            for r in comp.passes.iter().filter(|r| r.progress) {
                *stats.pass_fires.entry(r.name.to_string()).or_default() += 1;
            }
        }
        if let Verdict::Discard { reason } = &checked.verdict {
            *stats
                .discarded
                .entry(reason.name().to_string())
                .or_default() += 1;
        }
        if checked.verdict.is_failure() {
            let found_at = start.elapsed().as_secs_f64();
            let culprit = localise(&g.program, &sets, &c.compile, &checked);
            let sig = signature(&checked.verdict, culprit.as_ref());
            let unreduced = crate::bucket::key(&checked.verdict, culprit.as_ref());
            // Failures alike in signature, device and everything the culprit did are of one
            // kind. A failure that will be written is reduced and keyed on its own
            // reduction; one whose kind's bucket is full only counts there. The first
            // reduction of a kind names the kind's bucket.
            let alike = format!(
                "{sig} {} {}",
                g.program.device.name(),
                culprit
                    .as_ref()
                    .map(|cu| cu.rewrites.join("+"))
                    .unwrap_or_default()
            );
            let known = bucket_of.get(&alike).cloned();
            let full = |b: &String| per_bucket.get(b).copied().unwrap_or(0) >= c.per_bucket;
            let mut reduction = None;
            let bucket = match known {
                _ if c.reduce_budget.is_zero() => unreduced,
                Some(b) if full(&b) => b,
                known => {
                    let p = failing_program(&g, &sets, &checked.verdict);
                    reduction = reduce_failure(c, &p);
                    let b = reduction
                        .as_ref()
                        .and_then(|r| crate::bucket::key_of_program(&r.program, &c.compile))
                        .unwrap_or(unreduced);
                    if known.is_none() {
                        bucket_of.insert(alike, b.clone());
                    }
                    b
                }
            };
            let without_zoo_bug = c.zoo.as_ref().map(|_| {
                let clean = CompileOptions {
                    zoo: Default::default(),
                    ..c.compile.clone()
                };
                check(&g.program, &sets, &clean).verdict.is_failure()
            });
            let kept = per_bucket.entry(bucket.clone()).or_default();
            *kept += 1;
            let (file, reduced) = if *kept <= c.per_bucket {
                let text = reproducer(
                    &g,
                    seed,
                    &sets,
                    &checked.verdict,
                    culprit.as_ref(),
                    &bucket,
                    c,
                );
                let name = format!("{}-{seed}", checked.verdict.kind());
                let file = save(&c.out, &name, &text, &seed_bytes(seed))?;
                let reduced = match &reduction {
                    Some(r) => Some(save_reduction(c, r, &bucket, &file, &name)?),
                    None => None,
                };
                (Some(file), reduced)
            } else {
                (None, None)
            };
            if interactive && seen.insert(bucket.clone()) {
                eprintln!("\r\x1b[2Knew: {bucket}  {}", file.as_deref().unwrap_or("-"));
            }
            stats.failures.push(Failure {
                kind: checked.verdict.kind().to_string(),
                culprit_pass: culprit.map(|c| c.pass),
                signature: sig,
                bucket,
                seconds: found_at,
                file,
                seed,
                reduced,
                without_zoo_bug,
            });
            if c.stop_on_failure && without_zoo_bug != Some(true) {
                break;
            }
        }
        if interactive && last_progress.elapsed() > Duration::from_millis(500) {
            eprint!("\r{}", stats.progress_line(start.elapsed().as_secs_f64()));
            last_progress = Instant::now();
        }
    }
    stats.seconds = start.elapsed().as_secs_f64();
    stats.execs_per_sec = stats.execs as f64 / stats.seconds.max(1e-9);
    if interactive {
        eprintln!("\r{}", stats.progress_line(stats.seconds));
    }
    Ok(stats)
}
