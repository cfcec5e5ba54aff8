//! JUnit XML, the test-report format CI systems (GitHub, GitLab, Jenkins) display: one
//! `<testsuite>` of `<testcase>`s, each passed, failed (with a message and details) or
//! skipped.

use crate::markup::escape;
use serde::Serialize;
use std::fmt::Write;

/// How one test case ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum CaseResult {
    Passed,
    Failed { message: String, details: String },
    Skipped { message: String },
}

/// One test case.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Case {
    /// Groups cases in CI views (e.g. the corpus directory).
    pub class: String,
    pub name: String,
    pub seconds: f64,
    pub result: CaseResult,
}

/// The whole report: one suite named `suite` holding `cases`.
pub fn render(suite: &str, cases: &[Case]) -> String {
    let failures = cases
        .iter()
        .filter(|c| matches!(c.result, CaseResult::Failed { .. }))
        .count();
    let skipped = cases
        .iter()
        .filter(|c| matches!(c.result, CaseResult::Skipped { .. }))
        .count();
    let seconds: f64 = cases.iter().map(|c| c.seconds).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{0}\" tests=\"{1}\" failures=\"{2}\" skipped=\"{3}\" time=\"{4:.3}\">",
        escape(suite),
        cases.len(),
        failures,
        skipped,
        seconds
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"{0}\" tests=\"{1}\" failures=\"{2}\" errors=\"0\" skipped=\"{3}\" time=\"{4:.3}\">",
        escape(suite),
        cases.len(),
        failures,
        skipped,
        seconds
    );
    for c in cases {
        let _ = write!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
            escape(&c.class),
            escape(&c.name),
            c.seconds
        );
        match &c.result {
            CaseResult::Passed => out.push_str("/>\n"),
            CaseResult::Failed { message, details } => {
                let _ = writeln!(
                    out,
                    ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>",
                    escape(message),
                    escape(details)
                );
            }
            CaseResult::Skipped { message } => {
                let _ = writeln!(
                    out,
                    ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                    escape(message)
                );
            }
        }
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_counts_and_escapes() {
        let cases = vec![
            Case {
                class: "corpus.regressions".into(),
                name: "a.eu@skl".into(),
                seconds: 0.25,
                result: CaseResult::Passed,
            },
            Case {
                class: "corpus.zoo".into(),
                name: "b.eu@icl".into(),
                seconds: 0.5,
                result: CaseResult::Failed {
                    message: "expected pass, got mismatch/x/<out>".into(),
                    details: "a & b\u{1}".into(),
                },
            },
            Case {
                class: "corpus.zoo".into(),
                name: "c.eu".into(),
                seconds: 0.0,
                result: CaseResult::Skipped {
                    message: "zoo build only".into(),
                },
            },
        ];
        let xml = render("eufuzz gate", &cases);
        assert!(xml.contains(
            "<testsuite name=\"eufuzz gate\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"0.750\">"
        ));
        assert!(xml.contains(
            "<testcase classname=\"corpus.regressions\" name=\"a.eu@skl\" time=\"0.250\"/>"
        ));
        assert!(xml.contains(
            "<failure message=\"expected pass, got mismatch/x/&lt;out&gt;\">a &amp; b?</failure>"
        ));
        assert!(xml.contains("<skipped message=\"zoo build only\"/>"));
        assert!(xml.ends_with("</testsuites>\n"));
    }
}
