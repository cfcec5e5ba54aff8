//! Self-describing reproducers: header comment directives that say how a `.eu` file is run
//! and what it must give, so `eufuzz gate` and `eufuzz check` need no flags.
//!
//! | directive | meaning |
//! | --- | --- |
//! | `# expect: pass` | every check passes (the default) |
//! | `# expect: SIGNATURE` | the check fails with exactly this signature (`kind/pass/detail`) |
//! | `# xfail: REASON [SIGNATURE]` | a known open bug: failing (with SIGNATURE, if given) is expected; passing is an error |
//! | `# options: --spill-all -O0 --zoo NAME` | compile options |
//! | `# devices: all` or `skl,icl` | devices to check on (default: the file's target) |
//! | `# inputs: K` | generated input sets besides the file's own (default 0; 1 without INPUTS) |
//! | `# zoo: NAME` | the zoo bug the file exposes: injected in zoo builds, where `expect` applies; in default builds the file must pass |
//!
//! Directives are comment lines of the header (before the first block); other comments are
//! left alone. Keys are lower-case, followed by `: `.

use compiler::Device;

/// What a file expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    Pass,
    Fail(String),
    /// Known failure; the signature, when given, must match.
    XFail {
        reason: String,
        signature: Option<String>,
    },
}

/// The directives of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directives {
    pub expect: Expectation,
    /// Line of the `# expect:` directive (1-based), for `--bless`.
    pub expect_line: Option<usize>,
    pub options: Vec<String>,
    /// `None`: the file's own target.
    pub devices: Option<Vec<Device>>,
    pub inputs: usize,
    pub zoo: Option<String>,
}

impl Default for Directives {
    fn default() -> Self {
        Directives {
            expect: Expectation::Pass,
            expect_line: None,
            options: vec![],
            devices: None,
            inputs: 0,
            zoo: None,
        }
    }
}

fn devices(value: &str) -> Result<Vec<Device>, String> {
    if value == "all" {
        return Ok(compiler::device::ALL_DEVICES.to_vec());
    }
    value
        .split(',')
        .map(|d| {
            Device::from_name(d.trim()).ok_or_else(|| format!("unknown device `{}`", d.trim()))
        })
        .collect()
}

/// Parses the directives of `text`; errors are `line:col: message`.
pub fn parse(text: &str) -> Result<Directives, String> {
    let mut d = Directives::default();
    for (k, line) in text.lines().enumerate() {
        if line.starts_with("START ") {
            break;
        }
        let Some(body) = line.strip_prefix("# ") else {
            continue;
        };
        let Some((key, value)) = body.split_once(": ") else {
            continue;
        };
        let value = value.trim();
        let at = |msg: String| format!("{}:{}: {msg}", k + 1, line.len() - value.len() + 1);
        match key {
            "expect" => {
                d.expect = match value {
                    "pass" => Expectation::Pass,
                    sig if sig.split('/').count() >= 3 => Expectation::Fail(sig.to_string()),
                    other => {
                        return Err(at(format!(
                            "expected `pass` or a signature kind/pass/detail, found `{other}`"
                        )));
                    }
                };
                d.expect_line = Some(k + 1);
            }
            "xfail" => {
                let (reason, signature) = match value.rsplit_once('[') {
                    Some((r, s)) if s.ends_with(']') => (
                        r.trim().to_string(),
                        Some(s.trim_end_matches(']').trim().to_string()),
                    ),
                    _ => (value.to_string(), None),
                };
                d.expect = Expectation::XFail { reason, signature };
            }
            "options" => d.options = value.split_whitespace().map(str::to_string).collect(),
            "devices" => d.devices = Some(devices(value).map_err(at)?),
            // Campaign reproducers before directives existed said where their inputs came
            // from on an `# inputs:` line; those stay readable.
            "inputs" if value.starts_with("input set ") => {}
            "inputs" => {
                d.inputs = value
                    .parse()
                    .map_err(|_| at(format!("expected a number of input sets, found `{value}`")))?
            }
            "zoo" => d.zoo = Some(value.to_string()),
            _ => {}
        }
    }
    Ok(d)
}

/// `text` with its `# expect:` directive set to `value` (inserted after the `eu` line when
/// the file has none) and any `# xfail:` directive removed.
pub fn with_expectation(text: &str, d: &Directives, value: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let line = format!("# expect: {value}");
    let header_end = lines
        .iter()
        .position(|l| l.starts_with("START "))
        .unwrap_or(lines.len());
    let is_xfail = |i: usize, l: &str| i < header_end && l.starts_with("# xfail: ");
    match d.expect_line {
        Some(n) => lines[n - 1] = line,
        None => {
            let at = lines
                .iter()
                .position(|l| l.starts_with("eu "))
                .map_or(0, |i| i + 1);
            lines.insert(at, line);
        }
    }
    let kept: Vec<String> = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| !is_xfail(*i, l))
        .map(|(_, l)| l.clone())
        .collect();
    let mut out = kept.join("\n");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_parse() {
        let d = parse(
            "eu 1\n# A comment: not a directive\n# expect: mismatch/lower_regioning/output\n# options: --spill-all -O0\n# devices: skl,icl\n# inputs: 4\n# zoo: spill-fill-masked\ntarget skl\nSTART B0\n# expect: pass\n",
        )
        .expect("valid");
        assert_eq!(
            d.expect,
            Expectation::Fail("mismatch/lower_regioning/output".into())
        );
        assert_eq!(d.expect_line, Some(3));
        assert_eq!(d.options, vec!["--spill-all", "-O0"]);
        assert_eq!(d.devices, Some(vec![Device::Skl, Device::Icl]));
        assert_eq!(d.inputs, 4);
        assert_eq!(d.zoo.as_deref(), Some("spill-fill-masked"));
    }

    #[test]
    fn xfail_with_and_without_signature() {
        let d = parse("# xfail: open since Tuesday [mismatch/lower_simd_width/output]\n")
            .expect("valid");
        assert_eq!(
            d.expect,
            Expectation::XFail {
                reason: "open since Tuesday".into(),
                signature: Some("mismatch/lower_simd_width/output".into())
            }
        );
        let d = parse("# xfail: flaky emulator\n").expect("valid");
        assert!(matches!(
            d.expect,
            Expectation::XFail {
                signature: None,
                ..
            }
        ));
    }

    #[test]
    fn malformed_directives_are_located() {
        assert_eq!(
            parse("eu 1\n# inputs: many\n").unwrap_err(),
            "2:11: expected a number of input sets, found `many`"
        );
        assert!(
            parse("# devices: skl,nosuch\n")
                .unwrap_err()
                .contains("nosuch")
        );
        assert!(parse("# expect: maybe\n").is_err());
        assert_eq!(
            parse("# inputs: input set 1 of the campaign (kept below)\n").map(|d| d.inputs),
            Ok(0)
        );
    }

    #[test]
    fn blessing_replaces_or_inserts_the_expectation() {
        let text = "eu 1\n# expect: pass\ntarget skl\n";
        let d = parse(text).expect("valid");
        assert_eq!(
            with_expectation(text, &d, "hang/allocate_registers/fuel"),
            "eu 1\n# expect: hang/allocate_registers/fuel\ntarget skl\n"
        );
        let text = "eu 1\ntarget skl\n";
        let d = parse(text).expect("valid");
        assert_eq!(
            with_expectation(text, &d, "pass"),
            "eu 1\n# expect: pass\ntarget skl\n"
        );
        let text = "eu 1\n# xfail: open [a/b/c]\ntarget skl\n";
        let d = parse(text).expect("valid");
        assert_eq!(
            with_expectation(text, &d, "pass"),
            "eu 1\n# expect: pass\ntarget skl\n"
        );
    }
}
