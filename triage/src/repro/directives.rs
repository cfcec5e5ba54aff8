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
//! | `# zoo: NAME` or `a,b` | the zoo bugs the file exposes: injected in zoo builds, where `expect` applies; in default builds the file must pass |
//! | `# backend: mesa` or `mesa:PASS` | the file is a finding of another compiler (a campaign with `--backend` writes it): `check` judges that backend's output, the gate skips the file |
//!
//! Directives are comment lines of the header (before the first block); other comments are
//! left alone. Keys are lower-case, followed by `: `. A key one typo away from a directive
//! (`# xfial:`, `# expext:`) is an error, not a comment: a misspelt expectation would
//! otherwise be ignored and the file gated as `pass`. So are two expectations (`# expect:`
//! with `# xfail:`, or either twice).

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
    /// `mesa` or `mesa:PASS`: the compiler the file is checked against, if not eufuzz's.
    pub backend: Option<String>,
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
            backend: None,
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

/// The directive keys.
const KEYS: &[&str] = &[
    "expect", "xfail", "options", "devices", "inputs", "zoo", "backend",
];

/// Edits (insertions, deletions, substitutions, swaps of neighbours) between two words.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// The directive an unknown key is most likely a misspelling of: one edit away from a short
/// key, two from a longer one (free comments such as `# job:` or `# swizzle:` are not).
fn misspelt(key: &str) -> Option<&'static str> {
    if !key.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
        return None;
    }
    KEYS.iter()
        .copied()
        .find(|k| distance(key, k) <= if k.len() <= 4 { 1 } else { 2 })
}

/// Parses the directives of `text`; errors are `line:col: message`.
pub fn parse(text: &str) -> Result<Directives, String> {
    let mut d = Directives::default();
    // The line of the expectation seen so far (`# expect:` or `# xfail:`), and its key.
    let mut expectation: Option<(usize, &str)> = None;
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
        if matches!(key, "expect" | "xfail") {
            if let Some((first, other)) = expectation {
                return Err(format!(
                    "{}:3: `# {key}:` contradicts `# {other}:` on line {first}: a file has one expectation",
                    k + 1
                ));
            }
            expectation = Some((k + 1, key));
        }
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
            "backend" => {
                crate::mesa::backend_pass(value)
                    .map_err(|_| at(format!("expected `mesa` or `mesa:PASS`, found `{value}`")))?;
                d.backend = Some(value.to_string());
            }
            other => {
                if let Some(meant) = misspelt(other) {
                    return Err(format!(
                        "{}:3: unknown directive `# {other}:` (did you mean `# {meant}:`?)",
                        k + 1
                    ));
                }
            }
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
        assert_eq!(d.backend, None);
    }

    #[test]
    fn backend_names_mesa_or_one_of_its_passes() {
        let d = parse("eu 1\n# backend: mesa:opt_cse\ntarget skl\n").expect("valid");
        assert_eq!(d.backend.as_deref(), Some("mesa:opt_cse"));
        assert_eq!(
            parse("eu 1\n# backend: llvm\n").unwrap_err(),
            "2:12: expected `mesa` or `mesa:PASS`, found `llvm`"
        );
        assert!(
            parse("# bakend: mesa\n")
                .unwrap_err()
                .contains("did you mean `# backend:`")
        );
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
    fn misspelt_directives_are_errors_and_free_comments_are_not() {
        assert_eq!(
            parse("eu 1\n# xfial: open\ntarget skl\n").unwrap_err(),
            "2:3: unknown directive `# xfial:` (did you mean `# xfail:`?)"
        );
        for typo in ["expext", "expected", "option", "device", "input", "zo"] {
            assert!(parse(&format!("# {typo}: x\n")).is_err(), "{typo}");
        }
        let comments =
            "# job: a\n# swizzle: b\n# size: 3 -> 2\n# Zoo: imul (§1)\n# culprit pass: x\n";
        assert!(parse(comments).is_ok());
        // Below the header, comments are the program's.
        assert!(parse("START B0\n# xfial: x\n").is_ok());
    }

    #[test]
    fn two_expectations_are_a_contradiction() {
        assert_eq!(
            parse("eu 1\n# expect: pass\n# xfail: open [a/b/c]\n").unwrap_err(),
            "3:3: `# xfail:` contradicts `# expect:` on line 2: a file has one expectation"
        );
        assert!(parse("# expect: pass\n# expect: a/b/c\n").is_err());
        assert!(parse("# xfail: one\n# xfail: two\n").is_err());
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
