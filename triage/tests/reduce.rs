//! `eufuzz reduce`: campaign reproducers of zoo bugs shrink to a few instructions with the
//! same signature, deterministically whatever `--jobs` is; files that do not fail, or fail
//! differently than asked, are refused without writing anything.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn eufuzz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eufuzz"))
        .args(args)
        .output()
        .expect("eufuzz runs")
}

fn scratch_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("eufuzz-reduce-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn a_passing_program_is_refused_without_output() {
    let dir = scratch_dir("pass");
    let out = dir.join("out.eu");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/examples");
    let example = std::fs::read_dir(&corpus)
        .expect("examples")
        .map(|e| e.expect("entry").path())
        .find(|p| p.extension().is_some_and(|x| x == "eu"))
        .expect("an example");
    let o = eufuzz(&[
        "reduce",
        example.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not fail"));
    assert!(!out.exists());
}

/// A zoo program in a default build: its `# zoo:` bug is not injected, so there is nothing
/// to reduce, and the refusal says which build would have it.
#[cfg(not(feature = "zoo"))]
#[test]
fn a_zoo_file_in_a_default_build_is_refused_naming_the_zoo_build() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/zoo/imul-dst-overlap.eu");
    let dir = scratch_dir("default-zoo");
    let out = dir.join("out.eu");
    let o = eufuzz(&[
        "reduce",
        file.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--features zoo"), "{err}");
    assert!(!out.exists());
}

#[cfg(feature = "zoo")]
mod zoo {
    use super::*;

    fn data(name: &str) -> String {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name)
            .display()
            .to_string()
    }

    fn header_value<'a>(text: &'a str, key: &str) -> Option<&'a str> {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("# {key}: ")))
    }

    /// The program part of a reduced file (its header has timings).
    fn program_part(text: &str) -> String {
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// `eufuzz reduce FILE` without a bug injected refuses (exit 2), writing nothing.
    fn assert_nothing_to_reduce(file: &str, dir: &Path) {
        let out = dir.join("x.eu");
        let o = eufuzz(&["reduce", file, "-o", out.to_str().expect("utf-8")]);
        assert_eq!(o.status.code(), Some(2));
        assert!(!out.exists());
    }

    fn instructions(text: &str) -> usize {
        let p = compiler::text::parse_program(text).expect("the reduced file parses");
        p.inst_count()
    }

    /// Reduces `file` with a budget no machine reaches (a debug build on a loaded machine
    /// takes minutes), so the result is the fixpoint whatever the machine's speed.
    fn reduce(file: &str, extra: &[&str], out: &Path) -> String {
        let mut args = vec![
            "reduce",
            file,
            "-o",
            out.to_str().expect("utf-8"),
            "--budget",
            "3600",
        ];
        args.extend_from_slice(extra);
        let o = eufuzz(&args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        std::fs::read_to_string(out).expect("reduced file written")
    }

    /// `eufuzz reduce FILE` with no flags: the file's `# zoo:` bug is injected as `check`
    /// does, the reduction goes beside it with its options written, replays alone, and is
    /// never overwritten by a second run, nor the input by `-o FILE`.
    #[test]
    fn a_reproducer_reduces_with_its_own_directives_and_nothing_is_overwritten() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/zoo");
        let dir = scratch_dir("directives");
        let file = dir.join("imul.eu");
        let original = std::fs::read_to_string(root.join("imul-dst-overlap.eu")).unwrap();
        std::fs::write(&file, &original).unwrap();
        let path = file.to_str().expect("utf-8");
        let o = eufuzz(&["reduce", path, "--budget", "3600"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let beside = dir.join("imul.reduced.eu");
        let reduced = std::fs::read_to_string(&beside).expect("written beside the input");
        assert_eq!(
            header_value(&reduced, "options"),
            Some("--zoo imul-dst-overlap"),
            "{reduced}"
        );
        let signature = header_value(&reduced, "signature").expect("a signature");
        let replay = eufuzz(&["check", beside.to_str().expect("utf-8")]);
        assert_eq!(replay.status.code(), Some(1));
        assert!(
            String::from_utf8_lossy(&replay.stdout).contains(&format!("signature: {signature}"))
        );
        let again = eufuzz(&["reduce", path]);
        assert_eq!(again.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&again.stderr).contains("-o FILE"));
        let onto_itself = eufuzz(&["reduce", path, "-o", path]);
        assert_eq!(onto_itself.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&onto_itself.stderr).contains("--in-place"));
        assert_eq!(std::fs::read_to_string(&beside).unwrap(), reduced);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_multiply_miscompile_shrinks_and_keeps_its_signature() {
        let file = data("imul-dst-overlap-campaign.eu");
        let original = std::fs::read_to_string(&file).expect("data");
        let dir = scratch_dir("imul");
        let one = reduce(&file, &["--zoo", "imul-dst-overlap"], &dir.join("one.eu"));
        assert_eq!(
            header_value(&one, "signature"),
            header_value(&original, "signature")
        );
        assert_eq!(
            header_value(&one, "culprit pass"),
            Some("lower_integer_multiplication")
        );
        assert!(instructions(&original) > 60);
        assert!(instructions(&one) <= 12, "{one}");
        // The reduced file fails the same way when replayed.
        let replay = eufuzz(&[
            "check",
            "--zoo",
            "imul-dst-overlap",
            dir.join("one.eu").to_str().expect("utf-8"),
        ]);
        assert_eq!(replay.status.code(), Some(1));
        // Speculative parallel tests give the same result as one job.
        let two = reduce(
            &file,
            &["--zoo", "imul-dst-overlap", "--jobs", "3"],
            &dir.join("two.eu"),
        );
        assert_eq!(program_part(&one), program_part(&two));
    }

    #[test]
    fn a_spill_miscompile_needs_its_options_to_reduce() {
        let file = data("spill-fill-masked-campaign.eu");
        let dir = scratch_dir("spill");
        let reduced = reduce(
            &file,
            &["--zoo", "spill-fill-masked", "--spill-all"],
            &dir.join("r.eu"),
        );
        assert_eq!(
            header_value(&reduced, "signature"),
            Some("mismatch/allocate_registers/output")
        );
        assert!(instructions(&reduced) <= 20, "{reduced}");
        // Without the bug the same program passes: nothing to reduce.
        assert_nothing_to_reduce(&file, &dir);
    }

    #[test]
    fn a_seven_instruction_loop_liveness_program_keeps_its_bug_and_size() {
        let file = data("ra-no-physical-loop-edges-7.eu");
        let dir = scratch_dir("ra7");
        let reduced = reduce(
            &file,
            &["--zoo", "ra-no-physical-loop-edges"],
            &dir.join("r.eu"),
        );
        assert_eq!(
            header_value(&reduced, "signature"),
            Some("mismatch/allocate_registers/output")
        );
        // No step makes it smaller: every instruction is needed (README, reducer benchmark).
        assert_eq!(instructions(&reduced), 7, "{reduced}");
        // The allocator with the physical edges compiles it correctly: nothing to reduce.
        assert_nothing_to_reduce(&file, &dir);
    }

    #[test]
    fn an_allocation_failure_of_the_bottom_up_schedule_reduces_with_the_schedule_named() {
        let file = data("move-load-const-lifo-22.eu");
        let dir = scratch_dir("lifo");
        let out = dir.join("r.eu");
        let reduced = reduce(&file, &["--zoo", "move-load-const-into-loop"], &out);
        assert_eq!(
            header_value(&reduced, "signature"),
            Some("mismatch/allocate_registers/output")
        );
        assert_eq!(
            header_value(&reduced, "options"),
            Some("--pre-ra-schedule lifo --zoo move-load-const-into-loop")
        );
        // The values kept live only to make top-down allocation fail are gone.
        assert!(instructions(&reduced) <= 8, "{reduced}");
        let check = |path: &Path| {
            eufuzz(&["check", path.to_str().expect("utf-8")])
                .status
                .code()
        };
        // The file fails as it says with the options of its header …
        assert_eq!(check(&out), Some(1));
        // … and only with the schedule named.
        let unnamed = dir.join("unnamed.eu");
        let text = reduced.replace("--pre-ra-schedule lifo ", "");
        std::fs::write(&unnamed, text).expect("write");
        assert_eq!(check(&unnamed), Some(0));
    }

    #[test]
    fn another_signature_than_asked_is_refused() {
        let file = data("imul-dst-overlap-campaign.eu");
        let dir = scratch_dir("sig");
        let out = dir.join("r.eu");
        let o = eufuzz(&[
            "reduce",
            &file,
            "--zoo",
            "imul-dst-overlap",
            "--signature",
            "mismatch/lower_regioning/output",
            "-o",
            out.to_str().expect("utf-8"),
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("not as mismatch/lower_regioning"));
        assert!(!out.exists());
    }
}
