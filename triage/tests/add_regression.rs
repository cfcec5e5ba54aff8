//! `scripts/add-regression.sh` cannot lie: it files `# expect: pass` only for a file that
//! passes on the build it uses, files a failure as an xfail with its `# zoo:` bug, and on
//! any other outcome (a zoo file and a build without the zoo, a typo in an option) stops
//! with a message, exits non-zero and leaves nothing in the regressions directory. The
//! script runs with this build's `eufuzz` (`EUFUZZ`) into a scratch directory
//! (`REGRESSIONS`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "eufuzz-add-regression-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Runs the script on `repro` (relative to the repository) filing into `dir`.
fn add_regression(repro: &str, dir: &Path, extra: &[&str]) -> Output {
    Command::new(root().join("scripts/add-regression.sh"))
        .arg(root().join(repro))
        .arg("found")
        .args(extra)
        .env("EUFUZZ", env!("CARGO_BIN_EXE_eufuzz"))
        .env("REGRESSIONS", dir)
        .output()
        .expect("the script runs")
}

/// The names in `dir`, hidden ones included.
fn left_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("the scratch directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect()
}

fn gate(file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eufuzz"))
        .arg("gate")
        .arg(file)
        .output()
        .expect("the gate runs")
}

const EXAMPLE: &str = "corpus/examples/simd16-discard-halt.eu";
const ZOO_FILE: &str = "corpus/zoo/imul-dst-overlap.eu";

#[test]
fn a_typo_in_an_option_aborts_and_leaves_nothing() {
    let dir = scratch("typo");
    let o = add_regression(EXAMPLE, &dir, &["--spil-all"]);
    assert_ne!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--spil-all"), "{err}");
    assert_eq!(left_in(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_file_that_passes_is_filed_as_a_pass_the_gate_accepts() {
    let dir = scratch("pass");
    let o = add_regression(EXAMPLE, &dir, &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(left_in(&dir), ["found.eu"]);
    let filed = std::fs::read_to_string(dir.join("found.eu")).unwrap();
    assert!(filed.starts_with("eu 1\n# expect: pass\n"), "{filed}");
    assert_eq!(gate(&dir.join("found.eu")).status.code(), Some(0));
    // A second filing under the same name is refused and changes nothing.
    let again = add_regression(EXAMPLE, &dir, &[]);
    assert_ne!(again.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.join("found.eu")).unwrap(),
        filed
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A zoo file with a build that cannot inject its bug: without the zoo it would pass and be
/// filed as a pass, which is the lie this guards against.
#[cfg(not(feature = "zoo"))]
#[test]
fn a_zoo_file_without_the_zoo_build_aborts_and_leaves_nothing() {
    let dir = scratch("no-zoo");
    let o = add_regression(ZOO_FILE, &dir, &[]);
    assert_ne!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("zoo feature"), "{err}");
    assert_eq!(left_in(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}

/// In the zoo build the same file fails: it is reduced and filed as an xfail naming its
/// signature, with its bug in `# zoo:` (so the default-build gate expects a pass).
#[cfg(feature = "zoo")]
#[test]
fn a_zoo_failure_is_filed_as_an_xfail_with_its_zoo_bug() {
    let dir = scratch("zoo");
    let o = add_regression(ZOO_FILE, &dir, &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(left_in(&dir), ["found.eu"]);
    let filed = std::fs::read_to_string(dir.join("found.eu")).unwrap();
    assert!(
        filed.contains("# xfail: open, found ")
            && filed.contains("[mismatch/lower_integer_multiplication/output]\n"),
        "{filed}"
    );
    assert!(filed.contains("\n# zoo: imul-dst-overlap\n"), "{filed}");
    assert!(!filed.contains("--zoo"), "{filed}");
    assert_eq!(gate(&dir.join("found.eu")).status.code(), Some(0));
    std::fs::remove_dir_all(&dir).ok();
}
