//! The regression gate (`eufuzz gate`): replay a corpus of self-describing reproducers
//! ([`crate::repro::directives`]) in parallel and compare every result with its expectation, for merge gating. An expected
//! failure that passes is an error (deqp-runner's rule): the bug was fixed, so the file's
//! expectation must say so.

use crate::check::{check, describe_verdict, input_sets};
use crate::error::{Error, Result};
use crate::identity::Identity;
use crate::options::compile_options;
use crate::repro::directives::{self, Directives, Expectation};
use compiler::Device;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How one (file, device) check compares with its expectation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Passed,
    Failed,
    /// Failed as its `# xfail:` says.
    XFail,
    /// Expected to fail (`# xfail:`) but passed: an error.
    XPass,
    Skipped,
}

/// The result of one (file, device) check.
#[derive(Clone, Debug, Serialize)]
pub struct GateResult {
    pub file: String,
    pub device: Option<String>,
    pub status: Status,
    /// What the file expects (`pass`, a signature, `xfail …`).
    pub expected: String,
    /// What happened: `pass`, a signature, or why nothing ran.
    pub actual: String,
    /// One line about the verdict (or the skip reason).
    pub detail: String,
    /// Why it was skipped, in a few words the summary counts by (`None` unless skipped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_reason: Option<String>,
    pub seconds: f64,
}

impl GateResult {
    pub fn is_error(&self) -> bool {
        matches!(self.status, Status::Failed | Status::XPass)
    }
}

fn describe(e: &Expectation) -> String {
    match e {
        Expectation::Pass => "pass".into(),
        Expectation::Fail(s) => s.clone(),
        Expectation::XFail { reason, signature } => match signature {
            Some(s) => format!("xfail {s} ({reason})"),
            None => format!("xfail ({reason})"),
        },
    }
}

/// Compares what happened (`actual`: `pass` or a signature) with the expectation.
pub fn judge(expect: &Expectation, actual: &str) -> Status {
    let failed = actual != "pass";
    match expect {
        Expectation::Pass if !failed => Status::Passed,
        Expectation::Fail(s) if s == actual => Status::Passed,
        Expectation::XFail { signature, .. } if failed => {
            if signature.as_deref().is_none_or(|s| s == actual) {
                Status::XFail
            } else {
                Status::Failed
            }
        }
        Expectation::XFail { .. } => Status::XPass,
        _ => Status::Failed,
    }
}

/// One unit of work: a file on one device (`None`: its own target).
struct Job {
    file: PathBuf,
    device: Option<Device>,
}

fn error(file: &Path, message: String) -> GateResult {
    GateResult {
        file: file.display().to_string(),
        device: None,
        status: Status::Failed,
        expected: "-".into(),
        actual: "error".into(),
        detail: message,
        skip_reason: None,
        seconds: 0.0,
    }
}

/// The jobs of one file, or the error that stops it from running: an unreadable file, bad
/// directives or a program that does not parse are one failure, not one per device.
fn plan(file: &Path) -> Result<Vec<Job>> {
    let text = crate::files::read_text(file)?;
    let d = directives::parse(&text)
        .map_err(|e| Error::Malformed(format!("{}:{e}", file.display())))?;
    compiler::text::parse_program(&text)
        .map_err(|e| Error::Malformed(format!("{}:{e}", file.display())))?;
    Ok(match d.devices {
        None => vec![Job {
            file: file.to_path_buf(),
            device: None,
        }],
        Some(devices) => devices
            .into_iter()
            .map(|dev| Job {
                file: file.to_path_buf(),
                device: Some(dev),
            })
            .collect(),
    })
}

/// Whether this build contains the zoo (a `# zoo:` file's bug is injected only then).
pub const ZOO_BUILD: bool = cfg!(feature = "zoo");

fn run_job(job: &Job) -> GateResult {
    let start = Instant::now();
    let mut r = run_job_untimed(job);
    r.seconds = start.elapsed().as_secs_f64();
    r
}

fn run_job_untimed(job: &Job) -> GateResult {
    let file = &job.file;
    let text = match crate::files::read_text(file) {
        Ok(t) => t,
        Err(e) => return error(file, e.to_string()),
    };
    let d: Directives = match directives::parse(&text) {
        Ok(d) => d,
        Err(e) => return error(file, format!("{}:{e}", file.display())),
    };
    let mut p = match compiler::text::parse_program(&text) {
        Ok(p) => p,
        Err(e) => return error(file, format!("{}:{e}", file.display())),
    };
    let own_target = job.device.is_none_or(|dv| dv == p.device);
    if let Some(dv) = job.device {
        p.device = dv;
    }
    let device = Some(p.device.name().to_string());
    let (expect, zoo) = match &d.zoo {
        Some(bug) if ZOO_BUILD => (d.expect.clone(), Some(bug.as_str())),
        // Without the zoo the file's bug does not exist: it must pass.
        Some(_) => (Expectation::Pass, None),
        None => (d.expect.clone(), None),
    };
    let expected = describe(&expect);
    // A finding of another compiler says nothing about eufuzz's: `check` judges it.
    if let Some(backend) = &d.backend {
        let why = format!("a finding of --backend {backend} (eufuzz check judges it)");
        return GateResult {
            status: Status::Skipped,
            device,
            expected,
            actual: "-".into(),
            detail: why.clone(),
            skip_reason: Some(why),
            ..error(file, String::new())
        };
    }
    if d.options.iter().any(|o| o == "--zoo") && !ZOO_BUILD {
        return GateResult {
            status: Status::Skipped,
            device,
            expected,
            actual: "-".into(),
            detail: "needs a zoo build".into(),
            skip_reason: Some("needs a zoo build".into()),
            ..error(file, String::new())
        };
    }
    let opts = match compile_options(&d.options, zoo) {
        Ok(o) => o,
        Err(e) => return error(file, e.context(file.display()).to_string()),
    };
    let invalid = compiler::validate::validate(&p);
    if let Some(v) = invalid.first() {
        let (status, skip_reason) = if own_target {
            (Status::Failed, None)
        } else {
            (
                Status::Skipped,
                Some(format!("not valid for the device ({})", v.rule)),
            )
        };
        return GateResult {
            status,
            skip_reason,
            device,
            expected,
            actual: "invalid".into(),
            detail: format!(
                "not a valid program for this device: [{}] {}",
                v.rule, v.message
            ),
            ..error(file, String::new())
        };
    }
    let (sets, sources) = input_sets(&p, d.inputs, 0);
    let report = check(&p, &sets, sources, &opts);
    let actual = if report.verdict.is_failure() {
        Identity::of(&report.verdict, report.culprit.as_ref()).signature
    } else if let oracle::differential::Verdict::Discard { reason } = &report.verdict {
        format!("discard/{}", reason.name())
    } else {
        "pass".into()
    };
    GateResult {
        file: file.display().to_string(),
        device,
        status: judge(&expect, &actual),
        expected,
        detail: describe_verdict(&report.verdict),
        actual,
        skip_reason: None,
        seconds: 0.0,
    }
}

/// Runs every file (each on its devices) with `jobs` threads; results in file order.
pub fn run(files: &[PathBuf], jobs: usize) -> Vec<GateResult> {
    let mut results = vec![];
    let mut work = vec![];
    for f in files {
        match plan(f) {
            Ok(js) => work.extend(js),
            Err(e) => results.push(error(f, e.to_string())),
        }
    }
    results.extend(crate::parallel::map_in_order(&work, jobs, run_job));
    results
}

/// `.eu` files under the given files and directories (recursively), sorted.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
        if !p.exists() {
            return Err(Error::Refused(format!(
                "{}: no such file or directory",
                p.display()
            )));
        }
        if p.is_dir() {
            let entries = std::fs::read_dir(p).map_err(|e| Error::io(p, "list", e))?;
            for e in entries {
                walk(&e.map_err(|e| Error::io(p, "list", e))?.path(), out)?;
            }
        } else if p.extension().is_some_and(|x| x == "eu") {
            out.push(p.to_path_buf());
        }
        Ok(())
    }
    let mut out = vec![];
    for p in paths {
        walk(p, &mut out)?;
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The summary line: `N passed, N failed, N xfail, N skipped` (xpasses count as failed),
/// the skips counted by reason (`(3 needs a zoo build, 1 not valid for the device
/// (dispatch-width))`), so that a skip is never silent.
pub fn summary(results: &[GateResult]) -> String {
    let count = |s: Status| results.iter().filter(|r| r.status == s).count();
    let mut reasons: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in results {
        if let Some(why) = &r.skip_reason {
            *reasons.entry(why).or_default() += 1;
        }
    }
    let why = if reasons.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = reasons.iter().map(|(r, n)| format!("{n} {r}")).collect();
        format!(" ({})", parts.join(", "))
    };
    format!(
        "{} passed, {} failed, {} xfail, {} skipped{why}",
        count(Status::Passed),
        count(Status::Failed) + count(Status::XPass),
        count(Status::XFail),
        count(Status::Skipped)
    )
}

/// The lines for the errors, then the summary.
pub fn render(results: &[GateResult]) -> String {
    let mut out = String::new();
    for r in results.iter().filter(|r| r.is_error()) {
        let at = r
            .device
            .as_deref()
            .map(|d| format!("@{d}"))
            .unwrap_or_default();
        let what = if r.status == Status::XPass {
            "XPASS"
        } else {
            "FAIL"
        };
        out.push_str(&format!(
            "{what} {}{at}: expected {}, got {}\n    {}\n",
            r.file, r.expected, r.actual, r.detail
        ));
    }
    out.push_str(&summary(results));
    out.push('\n');
    out
}

/// The JUnit cases of a gate run.
pub fn junit_cases(results: &[GateResult]) -> Vec<reports::junit::Case> {
    use reports::junit::{Case, CaseResult};
    results
        .iter()
        .map(|r| {
            let path = Path::new(&r.file);
            let class = path
                .parent()
                .map(|p| p.display().to_string().replace('/', "."))
                .unwrap_or_default();
            let name = format!(
                "{}{}",
                path.file_name()
                    .map_or(r.file.clone(), |n| n.to_string_lossy().into()),
                r.device
                    .as_deref()
                    .map(|d| format!("@{d}"))
                    .unwrap_or_default()
            );
            let result = match r.status {
                Status::Passed | Status::XFail => CaseResult::Passed,
                Status::Skipped => CaseResult::Skipped {
                    message: r.detail.clone(),
                },
                Status::Failed | Status::XPass => CaseResult::Failed {
                    message: format!("expected {}, got {}", r.expected, r.actual),
                    details: r.detail.clone(),
                },
            };
            Case {
                class,
                name,
                seconds: r.seconds,
                result,
            }
        })
        .collect()
}

/// What `--bless` did with one file whose results disagreed with its expectation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blessing {
    pub file: String,
    /// `Ok((old, new))`: its expectation was rewritten; `Err(why)`: it was left alone.
    pub change: std::result::Result<(String, String), String>,
}

/// Rewrites the `# expect:` line of every file whose results all disagree with it the same
/// way (an XPASS becomes `expect: pass`, its `# xfail:` line goes); a file that cannot be
/// blessed (results that differ by device, an unreadable file, a zoo file in a default
/// build) is left alone and said so.
pub fn bless(results: &[GateResult]) -> Result<Vec<Blessing>> {
    let mut out = vec![];
    let mut files: Vec<&str> = results
        .iter()
        .filter(|r| r.is_error())
        .map(|r| r.file.as_str())
        .collect();
    files.dedup();
    for f in files {
        let mine: Vec<&GateResult> = results
            .iter()
            .filter(|r| r.file == f && r.status != Status::Skipped)
            .collect();
        let mut actuals: Vec<&str> = mine.iter().map(|r| r.actual.as_str()).collect();
        actuals.sort_unstable();
        actuals.dedup();
        let refuse = |why: String| Blessing {
            file: f.to_string(),
            change: Err(why),
        };
        if actuals.len() != 1
            || matches!(actuals[0], "invalid" | "error")
            || actuals[0].starts_with("discard/")
        {
            out.push(refuse(format!(
                "results differ or cannot be expected ({})",
                actuals.join(", ")
            )));
            continue;
        }
        let path = Path::new(f);
        let text = crate::files::read_text(path)?;
        let d = directives::parse(&text).map_err(|e| Error::Malformed(format!("{f}:{e}")))?;
        if d.zoo.is_some() && !ZOO_BUILD {
            out.push(refuse("a zoo file (bless it in a zoo build)".into()));
            continue;
        }
        crate::files::write_atomic(
            path,
            directives::with_expectation(&text, &d, actuals[0]).as_bytes(),
        )?;
        out.push(Blessing {
            file: f.to_string(),
            change: Ok((describe(&d.expect), actuals[0].to_string())),
        });
    }
    Ok(out)
}

/// One line per blessing: what changed, or why a file was not blessed.
pub fn render_blessings(blessings: &[Blessing]) -> String {
    blessings
        .iter()
        .map(|b| match &b.change {
            Ok((from, to)) => format!("{}: expect {from} -> {to}\n", b.file),
            Err(why) => format!("{}: not blessed: {why}\n", b.file),
        })
        .collect()
}

/// The exit code of a gate run: problems when a result disagrees with its file, unless
/// `--bless` rewrote that file to expect what happened (then the corpus says what the
/// build does, which is what was asked).
pub fn exit(results: &[GateResult], blessings: &[Blessing]) -> crate::Exit {
    let blessed = |f: &str| blessings.iter().any(|b| b.file == f && b.change.is_ok());
    if results.iter().any(|r| r.is_error() && !blessed(&r.file)) {
        crate::Exit::Problems
    } else {
        crate::Exit::Ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_against_results() {
        let sig = "mismatch/lower_regioning/output";
        assert_eq!(judge(&Expectation::Pass, "pass"), Status::Passed);
        assert_eq!(judge(&Expectation::Pass, sig), Status::Failed);
        assert_eq!(judge(&Expectation::Fail(sig.into()), sig), Status::Passed);
        assert_eq!(
            judge(
                &Expectation::Fail(sig.into()),
                "hang/allocate_registers/fuel"
            ),
            Status::Failed
        );
        let xfail = |s: Option<&str>| Expectation::XFail {
            reason: "open".into(),
            signature: s.map(str::to_string),
        };
        assert_eq!(judge(&xfail(None), sig), Status::XFail);
        assert_eq!(judge(&xfail(Some(sig)), sig), Status::XFail);
        assert_eq!(judge(&xfail(Some("assert/x/y")), sig), Status::Failed);
        assert_eq!(judge(&xfail(None), "pass"), Status::XPass);
        assert_eq!(
            judge(&Expectation::Pass, "discard/undefined-branch"),
            Status::Failed
        );
    }
}
