//! One program through one Mesa pass: send it to the shim, read Mesa's result back as a
//! program, and judge it against the input's reference run by refinement
//! ([`crate::equiv::judge`]), the culprit being the Mesa pass.

use super::protocol::Reply;
use super::shim::{Answer, Shim};
use crate::Result;
use crate::check::describe_difference;
use crate::equiv::{Equivalence, judge, shape_differences};
use compiler::Program;
use compiler::inputs::Inputs;
use oracle::compare::Difference;
use std::fmt::Write;

/// The verdict on one program.
#[derive(Clone, Debug)]
pub enum MesaVerdict {
    /// Mesa's output refines the input on `judged` input sets.
    Pass {
        progress: bool,
        judged: usize,
        output: Box<Program>,
    },
    /// Nothing to judge: the input is invalid for its device, or its reference branches
    /// on undefined values or does not finish on every input set.
    Discard { reason: String },
    /// The shim refused the program (outside the mapping); `reason` is its one line.
    Refused { reason: String },
    /// Mesa's output does not refine the input on input set `set`.
    Mismatch {
        set: usize,
        inputs: Box<Inputs>,
        differences: Vec<Difference>,
        output: String,
    },
    /// The shim died in the pass (a Mesa assertion or crash).
    Crash { detail: String, stderr: String },
    /// The shim did not answer in time.
    Hang,
    /// Mesa's output is not a program eufuzz can judge (it does not parse, takes other
    /// inputs or breaks an IR validator rule): the mapping, the model or Mesa is wrong.
    BadOutput { detail: String, output: String },
}

impl MesaVerdict {
    /// Whether this verdict is a failure to report.
    pub fn is_failure(&self) -> bool {
        !matches!(
            self,
            MesaVerdict::Pass { .. } | MesaVerdict::Discard { .. } | MesaVerdict::Refused { .. }
        )
    }

    /// The verdict's kind, as the first word of its signature.
    pub fn kind(&self) -> &'static str {
        match self {
            MesaVerdict::Pass { .. } => "pass",
            MesaVerdict::Discard { .. } => "discard",
            MesaVerdict::Refused { .. } => "refused",
            MesaVerdict::Mismatch { .. } => "mismatch",
            MesaVerdict::Crash { .. } => "crash",
            MesaVerdict::Hang => "hang",
            MesaVerdict::BadOutput { .. } => "bad-output",
        }
    }

    /// `kind/mesa:PASS/detail`, the failure's bucket signature (empty detail omitted).
    pub fn signature(&self, pass: &str) -> String {
        let kind = self.kind();
        let detail = match self {
            MesaVerdict::Refused { reason } => refusal_class(reason),
            MesaVerdict::Crash { detail, .. } | MesaVerdict::BadOutput { detail, .. } => {
                detail.clone()
            }
            _ => String::new(),
        };
        if detail.is_empty() {
            format!("{kind}/mesa:{pass}")
        } else {
            format!("{kind}/mesa:{pass}/{detail}")
        }
    }
}

/// A refusal reason without its line number and quoted operands, so that refusals group
/// by cause (`operand '…': fixed GRFs, ARFs and indirect operands are not mapped`).
pub fn refusal_class(reason: &str) -> String {
    let mut s = reason;
    if let Some(rest) = s.strip_prefix("line ")
        && let Some((_, after)) = rest.split_once(": ")
    {
        s = after;
    }
    let mut out = String::new();
    let mut quoted = false;
    for c in s.chars() {
        if c == '\'' {
            if !quoted {
                out.push_str("'…'");
            }
            quoted = !quoted;
        } else if !quoted {
            out.push(c);
        }
    }
    out
}

/// Checks `p` through Mesa's `pass` on its own inputs and `extra` generated sets from
/// `seed`. The program sent carries no INPUTS: the reference run keeps them.
pub fn check(
    shim: &mut Shim,
    pass: &str,
    p: &Program,
    extra: usize,
    seed: u64,
) -> Result<MesaVerdict> {
    Ok(check_with_text(shim, pass, p, extra, seed)?.0)
}

/// [`check`], with the text the shim answered (empty when it refused, crashed or hung).
fn check_with_text(
    shim: &mut Shim,
    pass: &str,
    p: &Program,
    extra: usize,
    seed: u64,
) -> Result<(MesaVerdict, String)> {
    if let Some(v) = compiler::validate::validate(p).first() {
        let reason = format!("invalid program: {v}");
        return Ok((MesaVerdict::Discard { reason }, String::new()));
    }
    let mut sent = p.clone();
    sent.inputs = None;
    let text = compiler::text::print_program(&sent);
    let (progress, output) = match shim.run(pass, &text)? {
        Answer::Reply(Reply::Refused { reason }) => {
            return Ok((MesaVerdict::Refused { reason }, String::new()));
        }
        Answer::Reply(Reply::Ran { progress, text }) => (progress, text),
        Answer::Crashed { detail, stderr } => {
            return Ok((MesaVerdict::Crash { detail, stderr }, String::new()));
        }
        Answer::Hung => return Ok((MesaVerdict::Hang, String::new())),
    };
    Ok((judge_output(p, progress, &output, extra, seed), output))
}

/// Judges Mesa's output `output` of the input `p`.
fn judge_output(p: &Program, progress: bool, output: &str, extra: usize, seed: u64) -> MesaVerdict {
    let output = output.to_string();
    let bad = |detail: String| MesaVerdict::BadOutput {
        detail,
        output: output.clone(),
    };
    let b = match compiler::text::parse_program(&output) {
        Ok(b) => b,
        Err(e) => return bad(format!("unparsable: {e}")),
    };
    if !shape_differences(p, &b).is_empty() {
        return bad("shape".into());
    }
    if let Some(v) = compiler::validate::validate(&b).first() {
        return bad(format!("invalid:{}", v.rule));
    }
    match judge(p, &b, extra, seed) {
        Equivalence::Equivalent { judged } => MesaVerdict::Pass {
            progress,
            judged,
            output: Box::new(b),
        },
        Equivalence::Undecided { sets } => MesaVerdict::Discard {
            reason: format!("undecided on {sets} input set(s)"),
        },
        Equivalence::NotEquivalent {
            set,
            inputs,
            differences,
        } => MesaVerdict::Mismatch {
            set,
            inputs: Box::new(inputs),
            differences,
            output,
        },
    }
}

/// Mesa's optimisation loop as the shim names it (`--backend mesa`).
pub const LOOP: &str = "opt_loop";

/// Pass runs of the loop tried at most when localising (the shim refuses a loop that has
/// not converged after 100 rounds of 14 passes).
const MAX_LOOP_STEPS: u32 = 1500;

/// The Mesa pass a failure of the loop is first seen after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Culprit {
    /// How many passes of the loop had run (the culprit is the last of them).
    pub step: u32,
    pub pass: String,
}

impl Culprit {
    /// The words a check and a reproducer header both use for it (`run` the pass run).
    pub fn describe(&self, run: &str) -> String {
        format!("Mesa's {} (pass run {} of {run})", self.pass, self.step)
    }
}

/// For a failure of [`LOOP`]: runs the loop stopped after 1, 2, … passes (`opt_loop@N`)
/// and names the first pass after which the program fails as `target` (the whole loop's
/// verdict: the same kind and detail) — as the pipeline's culprit is
/// found for eufuzz's own passes. A failure of another kind on the way (an earlier pass's
/// miscompile before a later pass crashes) does not stop the search: the culprit is the
/// pass that did what the signature says. `None` when no prefix of the loop fails so.
pub fn localise(
    shim: &mut Shim,
    p: &Program,
    extra: usize,
    seed: u64,
    target: &MesaVerdict,
) -> Result<Option<Culprit>> {
    // The failure being localised, with its detail (assertion site, validator rule) but
    // whatever pass: a different failure met on the way is not this one.
    let wanted = target.signature("");
    for step in 1..=MAX_LOOP_STEPS {
        let (v, text) = check_with_text(shim, &format!("{LOOP}@{step}"), p, extra, seed)?;
        let header = |key: &str| {
            text.lines()
                .map_while(|l| l.strip_prefix("# "))
                .find_map(|l| l.strip_prefix(key))
                .map(str::to_string)
        };
        let same_kind = v.is_failure() && v.signature("") == wanted;
        if let (true, MesaVerdict::Crash { stderr, .. }) = (same_kind, &v) {
            let pass = stderr
                .lines()
                .rev()
                .find_map(|l| l.strip_prefix("eufuzz-mesa-shim: pass "))
                .unwrap_or("unknown")
                .to_string();
            return Ok(Some(Culprit { step, pass }));
        }
        if same_kind {
            let pass = header("mesa-last-pass: ").unwrap_or_else(|| "unknown".into());
            return Ok(Some(Culprit { step, pass }));
        }
        if matches!(v, MesaVerdict::Crash { .. } | MesaVerdict::Hang) {
            return Ok(None); // another failure ends the loop before this one shows
        }
        if text.is_empty() || header("mesa-loop-finished").is_some() {
            return Ok(None);
        }
    }
    Ok(None)
}

/// A failure's signature, its culprit being the Mesa pass: for [`LOOP`], the pass
/// [`localise`] finds (and the culprit itself); for one pass, that pass.
pub fn identify(
    shim: &mut Shim,
    pass: &str,
    p: &Program,
    extra: usize,
    seed: u64,
    v: &MesaVerdict,
) -> Result<(String, Option<Culprit>)> {
    if pass != LOOP || !v.is_failure() {
        return Ok((v.signature(pass), None));
    }
    let culprit = localise(shim, p, extra, seed, v)?;
    let name = culprit.as_ref().map_or(pass, |c| c.pass.as_str());
    Ok((v.signature(name), culprit))
}

/// The lines `eufuzz check --backend mesa:PASS` prints for one file.
pub fn render(file: &str, pass: &str, v: &MesaVerdict, culprit: Option<&Culprit>) -> String {
    let mut s = String::new();
    let head = match v {
        MesaVerdict::Pass {
            progress, judged, ..
        } => format!(
            "pass (mesa:{pass} {}; refines the input on {judged} input set(s))",
            if *progress {
                "changed it"
            } else {
                "made no progress"
            }
        ),
        MesaVerdict::Discard { reason } => format!("discard: {reason}"),
        MesaVerdict::Refused { reason } => format!("refused by the shim: {reason}"),
        _ => format!(
            "FAIL {}",
            v.signature(culprit.map_or(pass, |c| c.pass.as_str()))
        ),
    };
    let _ = writeln!(s, "{file}: {head}");
    if let Some(c) = culprit {
        let _ = writeln!(s, "  culprit: {}", c.describe(pass));
    }
    match v {
        MesaVerdict::Mismatch {
            set,
            inputs,
            differences,
            output,
        } => {
            let _ = writeln!(s, "  input set {set}:");
            for line in compiler::text::print_inputs(inputs).lines() {
                let _ = writeln!(s, "    {line}");
            }
            let _ = writeln!(
                s,
                "  channel diff (expected from the input vs Mesa's output, .. = undefined):"
            );
            for d in differences.iter().take(16) {
                let _ = writeln!(s, "    {}", describe_difference(d));
            }
            let _ = writeln!(s, "  Mesa's output:");
            for line in output.lines() {
                let _ = writeln!(s, "    {line}");
            }
        }
        MesaVerdict::Crash { stderr, .. } => {
            for line in stderr.lines() {
                let _ = writeln!(s, "  stderr: {line}");
            }
        }
        MesaVerdict::BadOutput { output, .. } => {
            let _ = writeln!(s, "  Mesa's output:");
            for line in output.lines() {
                let _ = writeln!(s, "    {line}");
            }
        }
        _ => {}
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_group_by_cause() {
        assert_eq!(
            refusal_class("line 12: opcode 'send' is not mapped"),
            "opcode '…' is not mapped"
        );
        assert_eq!(
            refusal_class("scratch memory is not mapped"),
            "scratch memory is not mapped"
        );
    }
}
