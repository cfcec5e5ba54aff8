//! What one revision's `eufuzz check REPRO` says, and which side of the change that puts
//! the revision on. The tool under bisection is that revision's own binary, so only what
//! every `check` has printed is relied on: the exit code (0 agree, 1 disagree, 2 unreadable,
//! 3 undecided) and the `  signature: KIND/PASS/DETAIL` line under a failure.

use super::search::Mark;

/// How a revision's check of the reproducer ended.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The check agreed (exit code 0).
    Pass,
    /// The check disagreed with these signatures (one per device checked).
    Fails(Vec<String>),
    /// No verdict to bisect on: the revision does not build, cannot read the file (an older
    /// parser meeting a newer text form), is undecided, or the check crashed.
    NoVerdict(String),
}

/// The outcome of a finished `check` from its exit code (`None`: killed by a signal), its
/// standard output and the first line of its standard error.
pub fn outcome(code: Option<i32>, stdout: &str, stderr: &str) -> Outcome {
    let first_error = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    match code {
        Some(0) => Outcome::Pass,
        Some(1) => {
            let signatures: Vec<String> = stdout
                .lines()
                .filter_map(|l| l.trim_start().strip_prefix("signature: "))
                .map(|s| s.trim().to_string())
                .collect();
            if signatures.is_empty() {
                // INVALID for its own target, or a check too old to print signatures.
                let why = stdout.lines().next().unwrap_or("no signature printed");
                Outcome::NoVerdict(format!("fails without a signature: {why}"))
            } else {
                Outcome::Fails(signatures)
            }
        }
        Some(2) => Outcome::NoVerdict(format!("cannot read the reproducer: {first_error}")),
        Some(3) => Outcome::NoVerdict("undecided: every input set was discarded".into()),
        Some(c) => Outcome::NoVerdict(format!("check exited with {c}: {first_error}")),
        None => Outcome::NoVerdict("check was killed by a signal".into()),
    }
}

/// The side an outcome puts a revision on when bisecting `signature`: for a regression a
/// pass is old and that signature new, for a fix (`fixed`) the other way round. Anything
/// else (another signature, no verdict) is skipped, with the reason.
pub fn mark(outcome: &Outcome, signature: &str, fixed: bool) -> (Mark, Option<String>) {
    let (fails, passes) = if fixed {
        (Mark::Old, Mark::New)
    } else {
        (Mark::New, Mark::Old)
    };
    match outcome {
        Outcome::Pass => (passes, None),
        Outcome::Fails(s) if s.iter().any(|x| x == signature) => (fails, None),
        Outcome::Fails(s) => (
            Mark::Skip,
            Some(format!("fails with another signature: {}", s.join(", "))),
        ),
        Outcome::NoVerdict(why) => (Mark::Skip, Some(why.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAIL: &str = "r.eu: FAIL on skl: mismatch\n  signature: mismatch/dce/output\n  culprit pass: dce\n1 check(s): 0 agree\n";

    #[test]
    fn exit_codes_and_signature_lines_make_the_outcome() {
        assert_eq!(outcome(Some(0), "ok", ""), Outcome::Pass);
        assert_eq!(
            outcome(Some(1), FAIL, ""),
            Outcome::Fails(vec!["mismatch/dce/output".into()])
        );
        let old = outcome(Some(2), "", "r.eu:1:1: expected `eu 1`\n");
        assert_eq!(
            old,
            Outcome::NoVerdict("cannot read the reproducer: r.eu:1:1: expected `eu 1`".into())
        );
        assert!(
            matches!(outcome(Some(1), "r.eu: INVALID\n", ""), Outcome::NoVerdict(w) if w.contains("INVALID"))
        );
        assert!(matches!(outcome(Some(3), "", ""), Outcome::NoVerdict(_)));
        assert!(matches!(outcome(None, "", ""), Outcome::NoVerdict(w) if w.contains("signal")));
    }

    #[test]
    fn a_fix_inverts_the_sides_and_other_signatures_are_skipped() {
        let fails = Outcome::Fails(vec!["mismatch/dce/output".into()]);
        assert_eq!(mark(&fails, "mismatch/dce/output", false).0, Mark::New);
        assert_eq!(mark(&fails, "mismatch/dce/output", true).0, Mark::Old);
        assert_eq!(
            mark(&Outcome::Pass, "mismatch/dce/output", false).0,
            Mark::Old
        );
        assert_eq!(
            mark(&Outcome::Pass, "mismatch/dce/output", true).0,
            Mark::New
        );
        let (m, why) = mark(&fails, "assert/cse/x", false);
        assert_eq!(m, Mark::Skip);
        assert!(why.unwrap().contains("mismatch/dce/output"));
    }
}
