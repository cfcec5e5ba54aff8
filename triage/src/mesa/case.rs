//! A campaign case judged through Mesa (`eufuzz campaign --backend mesa[:PASS]`): the
//! case's program (its seed's, or a mutated corpus entry's, exactly as the normal campaign
//! generates it) goes through the shim this worker's child keeps, and its verdict, tally,
//! features and reproducer are made for the campaign engine ([`crate::campaign`]), which
//! files, buckets, reduces and checkpoints them as it does its own. The reduction of a
//! filed failure ([`reduce_failure`]) is here too: the reduction threads run it, each with
//! a shim of its own.
//!
//! A Mesa failure's bucket key is its signature (`mismatch/mesa:PASS`,
//! `crash/mesa:PASS/assert:FILE:LINE`): Mesa's passes record no rewrites to key on.

use super::Backend;
use super::check::{Culprit, MesaVerdict, check, identify, refusal_class};
use super::shim::Shim;
use crate::Result;
use crate::campaign::case::{self, Found, Input, Setup, Tally};
use crate::campaign::intern::intern;
use crate::campaign::{features, phase};
use crate::check::describe_difference;
use compiler::Program;
use oracle::generator::Generated;
use std::fmt::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// A worker child's Mesa backend: one long-lived shim process, started again when Mesa
/// kills it.
pub struct Runner {
    shim: Shim,
    backend: Backend,
}

impl Runner {
    /// A runner for `backend`; an error naming the build script when the shim is not
    /// built. Each request to the shim may take `timeout` (then it is a hang).
    pub fn open(backend: &Backend, timeout: Duration) -> Result<Runner> {
        Ok(Runner {
            shim: Shim::open(timeout)?,
            backend: backend.clone(),
        })
    }

    /// Runs the case of `input`: its contribution to the statistics, and the failure if
    /// any. A panic of the generator or the emulator, or a shim that cannot be started,
    /// is a `harness-panic` failure, as in the normal campaign.
    pub fn run(&mut self, setup: &Setup, input: &Input) -> (Tally, Option<Found>) {
        phase::mark(phase::GENERATE);
        let generated = case::catching(|| input.generate(&setup.knobs));
        phase::mark(phase::CHECK);
        let (g, used) = match generated {
            Ok(x) => x,
            Err((message, location)) => return harness(setup, input, None, &message, &location),
        };
        if case::oversized(&g.program) {
            let tally = Tally {
                outcome: "discard",
                discard: Some("oversized"),
                device: Some(g.program.device.name()),
                features: features::ids(&["discard:oversized".to_string()]),
                used,
                mutated: input.mutation.is_some(),
                ..Tally::default()
            };
            return (tally, None);
        }
        let restarts = self.shim.restarts;
        let judged = case::catching(|| self.judge(setup, input, &g));
        let (mut tally, found) = match judged {
            Ok(Ok(x)) => x,
            Ok(Err(e)) => {
                let message = format!("the Mesa shim could not run the case: {e}");
                return harness(setup, input, Some(g), &message, file!());
            }
            Err((message, location)) => return harness(setup, input, Some(g), &message, &location),
        };
        tally.used = used;
        tally.mutated = input.mutation.is_some();
        tally.shim_restarts = self.shim.restarts - restarts;
        (tally, found)
    }

    fn judge(
        &mut self,
        setup: &Setup,
        input: &Input,
        g: &Generated,
    ) -> Result<(Tally, Option<Found>)> {
        let (pass, inputs) = (self.backend.pass.as_str(), self.backend.inputs);
        let p = &g.program;
        let v = check(&mut self.shim, pass, p, inputs, input.seed)?;
        let mut tally = Tally {
            outcome: v.kind(),
            device: Some(p.device.name()),
            opcodes: p.insts().map(|i| i.op.name()).collect(),
            ..Tally::default()
        };
        let mut progress = None;
        let mut output = None;
        let mut discard = None;
        match &v {
            MesaVerdict::Pass {
                progress: true,
                output: o,
                ..
            } => {
                let name = intern(&format!("mesa:{pass}"));
                tally.passes.push(name);
                progress = Some(name);
                output = Some(&**o);
            }
            MesaVerdict::Pass { output: o, .. } => output = Some(&**o),
            MesaVerdict::Discard { reason } => {
                let class = discard_class(reason);
                tally.discard = Some(class);
                discard = Some(class.to_string());
            }
            MesaVerdict::Refused { reason } => {
                let class = intern(&refusal_class(reason));
                tally.refused = Some(class);
                discard = Some(format!("refused/{class}"));
            }
            MesaVerdict::BadOutput { detail, .. } => {
                if let Some(rule) = detail.strip_prefix("invalid:") {
                    tally.rules.push(rule.to_string());
                }
            }
            _ => {}
        }
        tally.features = features::ids(&features::of_backend(
            p,
            v.kind(),
            discard.as_deref(),
            progress,
            output,
        ));
        if !v.is_failure() {
            return Ok((tally, None));
        }
        let (signature, culprit) = identify(&mut self.shim, pass, p, inputs, input.seed, &v)?;
        let found = failure(setup, &self.backend, input, g, &v, signature, culprit);
        Ok((tally, Some(found)))
    }
}

/// A discard's cause, as the statistics count it.
fn discard_class(reason: &str) -> &'static str {
    if reason.starts_with("invalid program") {
        "invalid-input"
    } else {
        "undefined-or-unfinished-reference"
    }
}

/// A harness panic (or a shim that could not run) as the case's failure.
fn harness(
    setup: &Setup,
    input: &Input,
    g: Option<Generated>,
    message: &str,
    location: &str,
) -> (Tally, Option<Found>) {
    let tally = Tally {
        outcome: case::HARNESS_PANIC,
        device: g.as_ref().map(|g| g.program.device.name()),
        mutated: input.mutation.is_some(),
        ..Tally::default()
    };
    let found = case::harness_panic(setup, input, g, message, location);
    (tally, Some(found))
}

/// The verdict line of a reproducer's header.
fn verdict_line(v: &MesaVerdict, pass: &str) -> String {
    match v {
        MesaVerdict::Mismatch { set, .. } => format!(
            "mismatch: the output of Mesa's {pass} does not refine the input on input set {set}"
        ),
        MesaVerdict::Crash { detail, .. } => format!("crash: Mesa died in {pass} ({detail})"),
        MesaVerdict::Hang => format!("hang: the shim gave no reply in time ({pass})"),
        MesaVerdict::BadOutput { detail, .. } => {
            format!("bad-output: the output of Mesa's {pass} cannot be judged ({detail})")
        }
        other => other.kind().to_string(),
    }
}

/// The `# culprit pass:` line of a failure of the campaign's pass `run`, and for a failure
/// localised in Mesa's loop the `# culprit:` line saying which pass run it was.
fn culprit_line(run: &str, culprit: Option<&Culprit>) -> String {
    match culprit {
        Some(c) => format!(
            "# culprit pass: mesa:{}\n# culprit: {}\n",
            c.pass,
            c.describe(run)
        ),
        None => format!("# culprit pass: mesa:{run}\n"),
    }
}

/// The program carrying the inputs it fails on (a mismatch's distinguishing set), with
/// the channel diff above it and Mesa's output below it as comments.
fn program_text(p: &Program, v: &MesaVerdict) -> String {
    let mut s = String::new();
    let mut program = p.clone();
    let mut mesa_output = None;
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
    s.push_str(&compiler::text::print_program(&program));
    if let Some(out) = mesa_output {
        let _ = writeln!(s, "\n# Mesa's output:");
        for line in out.lines() {
            let _ = writeln!(s, "#   {line}");
        }
    }
    s
}

/// The failure of a case, as the campaign files it.
fn failure(
    setup: &Setup,
    backend: &Backend,
    input: &Input,
    g: &Generated,
    v: &MesaVerdict,
    signature: String,
    culprit: Option<Culprit>,
) -> Found {
    let kind = v.kind();
    let head = format!(
        "# eufuzz reproducer\n# verdict: {}\n# signature: {signature}\n",
        verdict_line(v, &backend.pass)
    );
    let mut body = case::common_lines(setup);
    body.push_str(&culprit_line(&backend.pass, culprit.as_ref()));
    if let MesaVerdict::Mismatch { set, .. } = v {
        body.push_str(&format!(
            "# failing inputs: input set {set} of the campaign (kept below)\n"
        ));
    }
    body.push_str(&case::origin(g, input, kind, &setup.knobs));
    body.push_str(&program_text(&g.program, v));
    let mut program = g.program.clone();
    if let MesaVerdict::Mismatch { inputs, .. } = v {
        program.inputs = Some((**inputs).clone());
    }
    let culprit_pass = culprit.map_or_else(|| backend.pass.clone(), |c| c.pass);
    Found {
        seed: input.seed,
        kind: kind.into(),
        unreduced_key: signature.clone(),
        alike: signature.clone(),
        signature,
        culprit_pass: Some(format!("mesa:{culprit_pass}")),
        without_zoo_bug: None,
        program: Some(program),
        head,
        body,
        // A hang costs the shim's whole timeout per reduction step.
        reducible: !matches!(v, MesaVerdict::Hang),
        bytes: input.mutation.clone(),
    }
}

/// A filed failure reduced by the Mesa reducer ([`super::reduce`]).
pub struct Reduced {
    /// The reduced program's signature, its bucket key (`None` if it no longer fails).
    pub key: Option<String>,
    /// The reduced reproducer's lines above its `# bucket:` line, after `# original:`.
    head: String,
    /// The reduced reproducer's text below its `# bucket:` line.
    body: String,
}

impl Reduced {
    /// The text of `NAME.reduced.eu` beside `original`, in `bucket`.
    pub fn file_text(&self, original: &Path, bucket: &str) -> String {
        format!(
            "# eufuzz reduced reproducer\n# original: {}\n{}# bucket: {bucket}\n{}",
            original.display(),
            self.head,
            self.body
        )
    }
}

/// Reduces the failing program `p` of a campaign against `backend` within `budget`, keeping
/// its signature (its own inputs are judged; a program without inputs gets the backend's
/// generated sets from seed 0). `None` when `p` does not fail.
pub fn reduce_failure(
    shim: &mut Shim,
    backend: &Backend,
    p: &Program,
    budget: Duration,
) -> Result<Option<Reduced>> {
    let started = Instant::now();
    let pass = backend.pass.as_str();
    let extra = if p.inputs.is_some() {
        0
    } else {
        backend.inputs
    };
    let v = check(shim, pass, p, extra, 0)?;
    if !v.is_failure() {
        return Ok(None);
    }
    let (signature, _) = identify(shim, pass, p, extra, 0, &v)?;
    let r = super::reduce::reduce(shim, pass, p, &signature, extra, 0, budget)?;
    let v = check(shim, pass, &r, extra, 0)?;
    let (signature, culprit) = identify(shim, pass, &r, extra, 0, &v)?;
    let mut head = format!("# backend: {}\n# signature: {signature}\n", backend.flag());
    head.push_str(&culprit_line(pass, culprit.as_ref()));
    head.push_str(&format!(
        "# size: {} -> {} instructions\n# reduction: {:.1} s\n",
        p.inst_count(),
        r.inst_count(),
        started.elapsed().as_secs_f64()
    ));
    Ok(Some(Reduced {
        key: v.is_failure().then_some(signature),
        head,
        body: program_text(&r, &v),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repro::{header_value, replays_in_process};

    fn backend() -> Backend {
        Backend {
            pass: "opt_cse".into(),
            inputs: 4,
        }
    }

    fn setup() -> Setup {
        Setup {
            knobs: oracle::generator::knobs::Knobs::parse(super::super::KNOBS).unwrap(),
            compile: Default::default(),
            zoo: None,
            options: vec![],
            backend: Some(backend()),
        }
    }

    #[test]
    fn a_mismatch_is_filed_with_its_distinguishing_inputs_and_names_its_backend() {
        let (setup, input) = (setup(), Input::fresh(3));
        let (g, _) = input.generate(&setup.knobs);
        let inputs = oracle::inputs::generate(&g.program, 7);
        let v = MesaVerdict::Mismatch {
            set: 2,
            inputs: Box::new(inputs.clone()),
            differences: vec![],
            output: "eu 1\nmesa output line\n".into(),
        };
        let sig = "mismatch/mesa:opt_cse".to_string();
        let found = failure(&setup, &backend(), &input, &g, &v, sig.clone(), None);
        assert_eq!((found.kind.as_str(), found.reducible), ("mismatch", true));
        assert_eq!(found.culprit_pass.as_deref(), Some("mesa:opt_cse"));
        assert_eq!(found.alike, sig);
        let text = found.reproducer(&found.unreduced_key);
        assert_eq!(header_value(&text, "signature"), Some(sig.as_str()));
        assert_eq!(header_value(&text, "bucket"), Some(sig.as_str()));
        assert_eq!(header_value(&text, "backend"), Some("mesa:opt_cse"));
        assert!(text.contains("#   mesa output line\n"), "{text}");
        // The file is the program with the inputs it fails on, and eufuzz's own pipeline
        // does not replay it (bucket, rebucket and report leave it alone).
        let p = compiler::text::parse_program(&text).unwrap();
        assert_eq!(p.inputs, Some(inputs));
        assert_eq!(p.inst_count(), g.program.inst_count());
        assert!(!replays_in_process(&text));
        assert_eq!(found.program.unwrap().inputs, p.inputs);
    }

    #[test]
    fn a_hang_is_not_reduced_and_a_crash_keeps_its_assertion() {
        let (setup, input) = (setup(), Input::fresh(4));
        let (g, _) = input.generate(&setup.knobs);
        let hang = failure(
            &setup,
            &backend(),
            &input,
            &g,
            &MesaVerdict::Hang,
            "hang/mesa:opt_cse".into(),
            None,
        );
        assert!(!hang.reducible);
        let crash = MesaVerdict::Crash {
            detail: "assert:brw_fs.cpp:2657".into(),
            stderr: "eufuzz-mesa-shim: brw_fs.cpp:2657: Assertion failed".into(),
        };
        let culprit = Culprit {
            step: 5,
            pass: "opt_algebraic".into(),
        };
        let sig = "crash/mesa:opt_algebraic/assert:brw_fs.cpp:2657";
        let loop_backend = Backend {
            pass: "opt_loop".into(),
            inputs: 4,
        };
        let f = failure(
            &setup,
            &loop_backend,
            &input,
            &g,
            &crash,
            sig.into(),
            Some(culprit),
        );
        let text = f.reproducer(sig);
        assert!(
            text.contains("# stderr: eufuzz-mesa-shim: brw_fs.cpp:2657"),
            "{text}"
        );
        assert_eq!(
            header_value(&text, "culprit pass"),
            Some("mesa:opt_algebraic")
        );
        assert_eq!(
            header_value(&text, "culprit"),
            Some("Mesa's opt_algebraic (pass run 5 of opt_loop)")
        );
        assert_eq!(f.culprit_pass.as_deref(), Some("mesa:opt_algebraic"));
        compiler::text::parse_program(&text).unwrap();
    }

    #[test]
    fn a_reduction_is_written_with_its_origin_and_bucket() {
        let r = Reduced {
            key: Some("mismatch/mesa:opt_cse".into()),
            head: "# backend: mesa:opt_cse\n# signature: mismatch/mesa:opt_cse\n".into(),
            body: "eu 1\n".into(),
        };
        let text = r.file_text(Path::new("out/mismatch-3.eu"), "mismatch/mesa:opt_cse");
        assert!(text.starts_with("# eufuzz reduced reproducer\n# original: out/mismatch-3.eu\n"));
        assert_eq!(header_value(&text, "bucket"), Some("mismatch/mesa:opt_cse"));
        assert!(
            text.ends_with("# bucket: mismatch/mesa:opt_cse\neu 1\n"),
            "{text}"
        );
    }

    #[test]
    fn discards_are_counted_by_cause() {
        assert_eq!(discard_class("invalid program: rule x"), "invalid-input");
        assert_eq!(
            discard_class("undecided on 3 input set(s)"),
            "undefined-or-unfinished-reference"
        );
    }
}
