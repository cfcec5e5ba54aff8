//! `eufuzz gate`: expectations in file headers, unexpected passes of known failures, JUnit
//! output, blessing, and malformed directives reported with their location.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PROGRAM: &str = "target skl
dispatch 8
vgrf v0 4

START B0
    mov(8) v0:F, 1.0:F
    mov(8) v0+32:F, 0.5:F
    mov(8) v0+64:F, 0.25:F
    mov(8) v0+96:F, 1.0:F
    fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD { EOT }
END B0
";

fn eufuzz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eufuzz"))
        .args(args)
        .output()
        .expect("eufuzz runs")
}

fn corpus(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let d = std::env::temp_dir().join(format!("eufuzz-gate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    for (file, directives) in files {
        std::fs::write(d.join(file), format!("eu 1\n{directives}{PROGRAM}")).expect("write");
    }
    d
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn matching_expectations_pass() {
    let d = corpus(
        "ok",
        &[
            ("a.eu", "# expect: pass\n"),
            ("b.eu", ""),
            ("c.eu", "# devices: skl,icl,g45\n# inputs: 2\n"),
        ],
    );
    let o = eufuzz(&["gate", path(&d), "--jobs", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).ends_with("5 passed, 0 failed, 0 xfail, 0 skipped\n"));
}

#[test]
fn an_expected_failure_that_passes_is_an_error() {
    let d = corpus(
        "xpass",
        &[
            (
                "fixed.eu",
                "# xfail: open bug 12 [mismatch/lower_regioning/output]\n",
            ),
            ("ok.eu", "# expect: pass\n"),
        ],
    );
    let junit = d.join("junit.xml");
    let o = eufuzz(&["gate", path(&d), "--junit", path(&junit)]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("XPASS "), "{out}");
    assert!(out.contains(
        "fixed.eu@skl: expected xfail mismatch/lower_regioning/output (open bug 12), got pass"
    ));
    assert!(out.ends_with("1 passed, 1 failed, 0 xfail, 0 skipped\n"));
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    assert!(xml.contains("tests=\"2\" failures=\"1\""), "{xml}");
    assert!(xml.contains("<failure message=\"expected xfail"));
    // Blessing records the fix.
    let o = eufuzz(&["gate", path(&d.join("fixed.eu")), "--bless"]);
    assert!(
        stdout(&o).contains("fixed.eu: expect xfail"),
        "{}",
        stdout(&o)
    );
    let o = eufuzz(&["gate", path(&d)]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn bless_rewrites_what_changed() {
    let d = corpus(
        "bless",
        &[("stale.eu", "# expect: mismatch/lower_simd_width/output\n")],
    );
    let o = eufuzz(&["gate", path(&d)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("FAIL "));
    let o = eufuzz(&["gate", path(&d), "--bless"]);
    assert_eq!(o.status.code(), Some(0), "blessed as asked: {}", stdout(&o));
    assert!(stdout(&o).contains("stale.eu: expect mismatch/lower_simd_width/output -> pass"));
    let text = std::fs::read_to_string(d.join("stale.eu")).expect("file");
    assert!(text.starts_with("eu 1\n# expect: pass\n"), "{text}");
    let o = eufuzz(&["gate", path(&d)]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn malformed_directives_name_their_place() {
    let d = corpus("bad", &[("bad.eu", "# inputs: lots\n")]);
    let o = eufuzz(&["gate", path(&d)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("bad.eu:2:11: expected a number of input sets, found `lots`"),
        "{}",
        stdout(&o)
    );
    let o = eufuzz(&["gate", path(&d.join("missing.eu"))]);
    assert_eq!(o.status.code(), Some(2));
}

/// A program that does not parse is one failure with its parse error, however many devices
/// its header names.
#[test]
fn an_unreadable_file_is_one_failure_with_its_parse_error() {
    let d = corpus("unparsable", &[]);
    std::fs::write(
        d.join("broken.eu"),
        format!(
            "eu 1\n# devices: all\n{}",
            PROGRAM.replace("mov(8) v0:F", "mvo(8) v0:F")
        ),
    )
    .expect("write");
    let o = eufuzz(&["gate", path(&d)]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert_eq!(out.matches("FAIL ").count(), 1, "{out}");
    assert!(out.contains("broken.eu:8:5: unknown opcode `mvo`"), "{out}");
    assert!(
        out.ends_with("0 passed, 1 failed, 0 xfail, 0 skipped\n"),
        "{out}"
    );
    // Blessing cannot make it expected: it says so and the run still fails.
    let o = eufuzz(&["gate", path(&d), "--bless"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("broken.eu: not blessed"),
        "{}",
        stdout(&o)
    );
}

/// A misspelt directive or two expectations are errors at their line, not ignored.
#[test]
fn unknown_and_contradictory_directives_are_located_errors() {
    let d = corpus(
        "directives",
        &[
            (
                "typo.eu",
                "# xfial: open [mismatch/lower_regioning/output]\n",
            ),
            ("both.eu", "# expect: pass\n# xfail: open\n"),
        ],
    );
    let o = eufuzz(&["gate", path(&d)]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("typo.eu:2:3: unknown directive `# xfial:` (did you mean `# xfail:`?)"),
        "{out}"
    );
    assert!(
        out.contains("both.eu:3:3: `# xfail:` contradicts `# expect:` on line 2"),
        "{out}"
    );
    assert!(
        out.ends_with("0 passed, 2 failed, 0 xfail, 0 skipped\n"),
        "{out}"
    );
}

/// Skips are counted by reason in the summary: a file whose options inject a zoo bug is
/// skipped by a default build, and says why.
#[cfg(not(feature = "zoo"))]
#[test]
fn skips_are_counted_by_reason() {
    let d = corpus(
        "skips",
        &[
            ("ok.eu", "# devices: skl,icl\n"),
            ("zoo.eu", "# options: --zoo imul-dst-overlap\n"),
        ],
    );
    let o = eufuzz(&["gate", path(&d)]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).ends_with("2 passed, 0 failed, 0 xfail, 1 skipped (1 needs a zoo build)\n"),
        "{}",
        stdout(&o)
    );
}

/// A regression whose fix is flipped back (its zoo bug injected) fails the gate, by name.
#[cfg(feature = "zoo")]
#[test]
fn a_reverted_fix_fails_the_gate_and_names_the_file() {
    let zoo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/zoo/imul-dst-overlap.eu");
    let text = std::fs::read_to_string(zoo).expect("zoo file");
    // The file as a fixed regression: expected to pass, its bug named only in comments.
    let regression: String = text
        .lines()
        .filter(|l| !l.starts_with("# zoo: ") && !l.starts_with("# expect: "))
        .map(|l| format!("{l}\n"))
        .collect();
    let d = std::env::temp_dir().join(format!("eufuzz-gate-revert-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    let file = d.join("imul-in-place.eu");
    std::fs::write(
        &file,
        regression.replacen("eu 1\n", "eu 1\n# expect: pass\n", 1),
    )
    .expect("write");
    let o = eufuzz(&["gate", path(&d)]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Flip the fix back: the same file compiled with the bug.
    let reverted = std::fs::read_to_string(&file).expect("file").replacen(
        "# expect: pass\n",
        "# expect: pass\n# options: --zoo imul-dst-overlap\n",
        1,
    );
    std::fs::write(&file, reverted).expect("write");
    let o = eufuzz(&["gate", path(&d)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("FAIL ") && stdout(&o).contains("imul-in-place.eu@"),
        "{}",
        stdout(&o)
    );
}
