//! The identity of a failure: its signature (what a reduction must keep) and its bucket key
//! (which root cause it is filed under). Campaigns, the reducer, the gate, `bucket`,
//! `rebucket` and `import` all name failures through [`Identity`], so a failure is called
//! the same everywhere.
//!
//! The signature is `kind/culprit pass/detail`: the rule broken, the panic site, `output`
//! for a mismatch, `fuel` for a hang, the compile error's code. The bucket key is one name
//! per root cause, stable across runs, machines and reductions, so twenty reports of one
//! bug group into one bucket:
//!
//! | failure | key |
//! | --- | --- |
//! | panic | `panic/PASS/normalised message/source file of the panic` |
//! | mismatch, validator assertion, hardware restriction, hang | `rewrite/PASS/REWRITE` |
//! | … when the culprit pass rewrote nothing | `rewrite/PASS/-/RULE` (assertion, hardware) or `rewrite/PASS/-/KIND` |
//! | compile error | `compile-error/PASS/CODE`: the error's stable code (`out-of-registers`), never words of its message |
//! | emulator fault | `emulator-fault/PASS/reference\|compiled` |
//!
//! REWRITE is the most specific kind of rewrite the culprit pass made in its failing run
//! (`split-eot`; see `compiler::pass::note` and each pass's `Pass::rewrites`). A
//! bug lives in one of a pass's rules, and a reduced reproducer exercises little besides
//! it, so the most specific rewrite names the rule — whatever
//! the bug's symptom: one faulty rule can give a wrong result on one program and break a
//! hardware restriction on another, and the symptom (the verdict kind, the rule broken,
//! the device) stays in the signature. Keys are meant for reduced reproducers: campaigns
//! key each failure on its reduction. The first instruction the pass changed and the lanes
//! that differ are details of a failure (`details`), not part of the key: on unreduced
//! programs they vary within one bug.
//!
//! Normalising a message replaces numbers by `N` and keeps its first clause, so registers,
//! sizes and addresses do not split a bucket.

use compiler::pipeline::CompileOptions;
use compiler::{Opcode, Program};
use oracle::compare::Difference;
use oracle::culprit::Culprit;
use oracle::differential::Verdict;

/// A message with numbers (decimal and hex) replaced by `N`, cut at its first `:` or `;`,
/// words joined by `-`.
pub fn normalise(message: &str) -> String {
    let first = message.split([':', ';', '(']).next().unwrap_or_default();
    let mut out = String::new();
    for word in first.split_whitespace() {
        let w: String = if word.trim_start_matches('-').starts_with("0x")
            || word.chars().any(|c| c.is_ascii_digit())
        {
            "N".into()
        } else {
            word.chars()
                .filter(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
                .collect::<String>()
                .to_lowercase()
        };
        if !w.is_empty() {
            if !out.is_empty() {
                out.push('-');
            }
            out.push_str(&w);
        }
    }
    out
}

/// `compiler/src/passes/foo.rs:12:5` → `compiler/src/passes/foo.rs`.
fn source_file(location: &str) -> &str {
    location.split(':').next().unwrap_or(location)
}

/// The opcode and destination type printed on an instruction line of the text form:
/// `(+f0.0) mul.sat.l.f0.0(8) v1:D, …` → `mul:D`.
pub fn opcode_and_type(line: &str) -> Option<String> {
    let line = line.trim();
    let line = if line.starts_with('(') {
        line.split_once(") ")?.1
    } else {
        line
    };
    let (head, rest) = line.split_once('(')?;
    let op = head.split('.').next()?;
    Opcode::from_name(op)?;
    // Operands are separated by ", "; a region's own commas have no space after them.
    let dst = rest.split_once(')')?.1.split(", ").next()?.trim();
    let ty = dst.rsplit_once(':').map_or("-", |(_, t)| t);
    Some(format!("{op}:{ty}"))
}

/// The first instruction a unified IR diff adds.
fn first_changed(ir_diff: &str) -> Option<String> {
    ir_diff
        .lines()
        .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
        .find_map(|l| opcode_and_type(&l[1..]))
}

/// Which lanes a mismatch touches.
fn lanes(differences: &[Difference], dispatch_width: u32) -> &'static str {
    let mut channels: Vec<u32> = vec![];
    let mut buffer = false;
    for d in differences {
        match d {
            Difference::Color { channel, .. } | Difference::ExtraWrite { channel, .. } => {
                channels.push(*channel)
            }
            // Vec4 stage: component k of vertex q is channel 4q + k.
            Difference::Output {
                vertex, component, ..
            } => channels.push(vertex * 4 + *component as u32),
            Difference::ExtraOutput { vertex, .. } => {
                channels.extend((0..4).map(|k| vertex * 4 + k))
            }
            Difference::Outcome { .. } | Difference::Eot { .. } => return "outcome",
            _ => buffer = true,
        }
    }
    channels.sort_unstable();
    channels.dedup();
    match channels.as_slice() {
        [] if buffer => "buffer",
        [] => "outcome",
        [_] => "one-lane",
        cs if cs.len() as u32 >= dispatch_width => "all-lanes",
        cs if cs.iter().all(|&c| c >= dispatch_width / 2) => "upper-half",
        _ => "some-lanes",
    }
}

/// The most specific kind of rewrite (by `compiler::passes::rewrite_kinds`) the culprit's
/// run made; `-` when it made none.
pub fn rewrite(culprit: Option<&Culprit>) -> String {
    let Some(culprit) = culprit else {
        return "-".into();
    };
    let rank = |kind: &str| {
        compiler::passes::rewrite_kinds(&culprit.pass)
            .iter()
            .position(|k| *k == kind)
            .unwrap_or(usize::MAX)
    };
    culprit
        .rewrites
        .iter()
        .min_by_key(|k| (rank(k), k.as_str()))
        .map_or("-".into(), String::clone)
}

/// How one failure is named: the signature a reduction keeps and the bucket it is filed in.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Identity {
    /// `kind/pass/detail`.
    pub signature: String,
    /// The bucket key.
    pub bucket: String,
}

impl Identity {
    /// The identity of a verdict and its culprit.
    pub fn of(v: &Verdict, culprit: Option<&Culprit>) -> Identity {
        Identity {
            signature: signature(v, culprit),
            bucket: key(v, culprit),
        }
    }

    /// The identity of `p` run on its own inputs, if it fails.
    pub fn of_program(p: &Program, opts: &CompileOptions) -> Option<Identity> {
        let sets: Vec<_> = p.inputs.iter().cloned().collect();
        let checked = oracle::differential::check(p, &sets, opts);
        checked.verdict.is_failure().then(|| {
            let culprit = oracle::culprit::localise(p, &sets, opts, &checked);
            Identity::of(&checked.verdict, culprit.as_ref())
        })
    }
}

/// The bucket signature: kind / culprit pass / rule, panic site or what differed.
fn signature(v: &Verdict, culprit: Option<&Culprit>) -> String {
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
        Verdict::CompileError { code, .. } => code.clone(),
        Verdict::Pass | Verdict::Discard { .. } => "-".into(),
    };
    format!("{}/{pass}/{detail}", v.kind())
}

/// The bucket key of a failing verdict and its culprit.
fn key(v: &Verdict, culprit: Option<&Culprit>) -> String {
    let pass = culprit.map_or("-", |c| c.pass.as_str());
    let kind = v.kind();
    match v {
        Verdict::Panic {
            message, location, ..
        } => format!(
            "{kind}/{pass}/{}/{}",
            normalise(message),
            source_file(location)
        ),
        Verdict::CompileError { code, .. } => format!("{kind}/{pass}/{code}"),
        Verdict::EmulatorFault { compiled, .. } => format!(
            "{kind}/{pass}/{}",
            if *compiled { "compiled" } else { "reference" }
        ),
        Verdict::Pass | Verdict::Discard { .. } => format!("{kind}/{pass}"),
        Verdict::CompilerAssertion { rule, .. } | Verdict::HardwareViolation { rule, .. } => {
            rewrite_key(pass, &rewrite(culprit), rule)
        }
        Verdict::Mismatch { .. } | Verdict::Hang { .. } => {
            rewrite_key(pass, &rewrite(culprit), kind)
        }
    }
}

/// `rewrite/PASS/REWRITE`, or `rewrite/PASS/-/WHAT` when the pass rewrote nothing.
fn rewrite_key(pass: &str, rewrite: &str, what: &str) -> String {
    if rewrite == "-" {
        format!("rewrite/{pass}/-/{what}")
    } else {
        format!("rewrite/{pass}/{rewrite}")
    }
}

/// The bucket key of `p` run on its own inputs, if it fails.
pub fn key_of_program(p: &Program, opts: &CompileOptions) -> Option<String> {
    Identity::of_program(p, opts).map(|i| i.bucket)
}

/// What a failure looks like beyond its key: for a mismatch, the first instruction the
/// culprit pass changed (`mul:D`) and which lanes differ (`upper-half`).
pub fn details(p: &Program, v: &Verdict, culprit: Option<&Culprit>) -> Option<String> {
    let Verdict::Mismatch { differences, .. } = v else {
        return None;
    };
    let op = culprit
        .and_then(|c| first_changed(&c.ir_diff))
        .unwrap_or_else(|| "-".into());
    let diffs = match culprit {
        Some(c) if !c.differences.is_empty() => &c.differences,
        _ => differences,
    };
    Some(format!("{op} {}", lanes(diffs, p.dispatch_width as u32)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compile_errors_are_named_by_their_code_not_their_words() {
        let error = |message: &str| Verdict::CompileError {
            pass: "allocate_registers".into(),
            code: "out-of-registers".into(),
            message: message.into(),
        };
        let a = Identity::of(
            &error("out of registers: v3 (2 GRFs) cannot be placed"),
            None,
        );
        let b = Identity::of(&error("no register left for v12 after 9 spills"), None);
        assert_eq!(a, b);
        assert_eq!(a.bucket, "compile-error/-/out-of-registers");
        assert_eq!(a.signature, "compile-error/-/out-of-registers");
    }

    #[test]
    fn messages_lose_numbers_and_details() {
        assert_eq!(
            normalise("ran out of registers: 131 needed, 128 available"),
            "ran-out-of-registers"
        );
        assert_eq!(
            normalise("index out of bounds the len is 4 but the index is 17"),
            "index-out-of-bounds-the-len-is-N-but-the-index-is-N"
        );
        assert_eq!(normalise("bad offset 0x1f0 in v12"), "bad-offset-N-in-N");
    }

    #[test]
    fn instruction_lines_name_opcode_and_type() {
        assert_eq!(
            opcode_and_type("    (+f0.0) mul.sat.l.f0.0(8) v1:D, v0:D, 3:UW { NoMask }"),
            Some("mul:D".into())
        );
        assert_eq!(
            opcode_and_type("mov(16) g4<1>:F, g2<8;8,1>:F"),
            Some("mov:F".into())
        );
        assert_eq!(
            opcode_and_type("mov(16) g10<8;8,1>:HF, g1.5<0;1,0>:HF"),
            Some("mov:HF".into())
        );
        assert_eq!(opcode_and_type("START B0"), None);
        assert_eq!(
            first_changed(
                "--- before\n+++ after\n@@ -1 +1 @@\n-    mul(8) v1:D, v0:D, v1:D\n+    mul(8) v2:D, v0:D, v1:UW\n+    add(8) v1:UW, v1:UW, v2:UW\n"
            ),
            Some("mul:D".into())
        );
    }

    fn color(channel: u32) -> Difference {
        Difference::Color {
            thread: 0,
            target: 0,
            channel,
            write: 0,
            component: 0,
            expected: 1,
            expected_defined: 0xf,
            actual: None,
        }
    }

    #[test]
    fn lane_patterns() {
        let all: Vec<_> = (0..16).map(color).collect();
        assert_eq!(lanes(&all, 16), "all-lanes");
        let upper: Vec<_> = (8..16).map(color).collect();
        assert_eq!(lanes(&upper, 16), "upper-half");
        assert_eq!(lanes(&[color(3)], 16), "one-lane");
        assert_eq!(lanes(&[color(1), color(3)], 16), "some-lanes");
    }
}
