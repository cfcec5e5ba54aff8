//! Records the build's git revision (`git describe --always --dirty`) as `EUFUZZ_REVISION`
//! for campaign statistics, so a report says what was fuzzed. `EUFUZZ_REVISION` in the
//! environment wins (builds from a source archive); without git it is `unknown`.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    println!("cargo:rerun-if-env-changed=EUFUZZ_REVISION");
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        for f in ["HEAD", "index"] {
            println!("cargo:rerun-if-changed={dir}/{f}");
        }
    }
    let revision = std::env::var("EUFUZZ_REVISION")
        .ok()
        .filter(|s| !s.is_empty())
        .or_else(|| git(&["describe", "--always", "--dirty"]))
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=EUFUZZ_REVISION={revision}");
}
