//! The historical-bug zoo: each bug's corpus/zoo program passes the check with the bug
//! off and fails with it on. Runs only in builds with the zoo feature:
//! `cargo test -p triage --features zoo --test zoo`. The checks call the triage library as
//! `eufuzz check` and `eufuzz rebucket` do; the CLI itself is tested in `cli.rs`.

#![cfg(feature = "zoo")]

use std::path::Path;
use triage::Exit;
use triage::check::{CheckTally, check as check_program, file_check, input_sets, render_check};
use triage::options::{CompileArgs, parse_words};

/// Every zoo bug's name with the check arguments its program's `# options:` directive
/// asks for (besides `--zoo`).
fn bugs() -> Vec<(&'static str, Vec<String>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/zoo");
    compiler::zoo::ALL
        .iter()
        .map(|(_, name)| {
            let file = dir.join(format!("{name}.eu"));
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{name}: no corpus/zoo program: {e}"));
            let mut words = text
                .lines()
                .filter_map(|l| l.strip_prefix("# options: "))
                .flat_map(|l| l.split_whitespace().map(str::to_string))
                .collect::<Vec<_>>()
                .into_iter();
            let mut extra = vec![];
            while let Some(w) = words.next() {
                if w == "--zoo" {
                    words.next();
                } else {
                    extra.push(w);
                }
            }
            (*name, extra)
        })
        .collect()
}

/// The pass each bug lives in: what localisation must report.
fn holder(bug: &str) -> &'static str {
    let (b, _) = compiler::zoo::ALL
        .iter()
        .find(|(_, n)| *n == bug)
        .expect("a zoo bug");
    compiler::zoo::holder(*b)
}

/// What `eufuzz check FILE EXTRA [--zoo BUG]` exits with and prints.
fn check(file: &str, extra: &[String], zoo: Option<&str>) -> (Exit, String) {
    let mut words = extra.to_vec();
    if let Some(bug) = zoo {
        words.extend(["--zoo".to_string(), bug.to_string()]);
    }
    let args = CompileArgs {
        device: None,
        flags: parse_words(&words).expect("valid flags"),
    };
    let path = Path::new(file);
    let fc = file_check(path, &args, false, 0).expect("a readable zoo file");
    let p = triage::load::load_program(path, None).expect("a zoo program");
    let mut tally = CheckTally::default();
    let mut out = String::new();
    for device in fc.devices {
        let mut q = p.clone();
        if let Some(d) = device {
            q.device = d;
        }
        let (sets, sources) = input_sets(&q, fc.inputs, 0);
        let report = check_program(&q, &sets, sources, &fc.compile);
        tally.add(false, &report);
        out.push_str(&render_check(file, q.device, false, &report, false));
    }
    (tally.exit(), out)
}

#[test]
fn every_zoo_bug_is_exposed_by_its_program() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/zoo");
    let mut failures = vec![];
    for (bug, extra) in bugs() {
        let file = dir.join(format!("{bug}.eu")).display().to_string();
        let (clean, out) = check(&file, &extra, Some("none"));
        if clean != Exit::Ok {
            failures.push(format!("{bug}: fails with the bug off:\n{out}"));
        }
        let (buggy, out) = check(&file, &extra, Some(bug));
        if buggy != Exit::Problems || !out.contains("FAIL") {
            failures.push(format!(
                "{bug}: not exposed with the bug on ({buggy:?}):\n{out}"
            ));
        }
        let culprit = format!("culprit pass: {} (", holder(bug));
        if !out.contains(&culprit) {
            failures.push(format!("{bug}: culprit is not {}:\n{out}", holder(bug)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Bucket keys name the culprit pass's most specific rewrite (or, for a refusal, its error
/// code): each bug's program lands in a bucket of its own, under the pass that holds the bug.
#[test]
fn every_zoo_bug_has_a_bucket_of_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/zoo");
    let dir = std::env::temp_dir().join(format!("eufuzz-zoo-buckets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (bug, extra) in bugs() {
        let text = std::fs::read_to_string(src.join(format!("{bug}.eu"))).unwrap();
        // As a campaign files it: a `# bucket:` line (rebucket rewrites only such files).
        let options = format!(
            "# bucket: unknown\n# options: --zoo {bug} {}\n",
            extra.join(" ")
        );
        std::fs::write(dir.join(format!("{bug}.eu")), options + &text).unwrap();
    }
    triage::buckets::rebucket(std::slice::from_ref(&dir)).expect("rebucket");
    let mut keys = std::collections::BTreeMap::new();
    for (bug, _) in bugs() {
        let text = std::fs::read_to_string(dir.join(format!("{bug}.eu"))).unwrap();
        let key = text
            .lines()
            .find_map(|l| l.strip_prefix("# bucket: "))
            .unwrap_or_else(|| panic!("{bug}: no bucket line"))
            .to_string();
        // A bug whose symptom is its own pass refusing the program (ra-eot-payload-in-start-order:
        // no room left for an EOT payload) is keyed by that pass's error code.
        assert!(
            key.starts_with(&format!("rewrite/{}/", holder(bug)))
                || key.starts_with(&format!("compile-error/{}/", holder(bug))),
            "{bug}: {key}"
        );
        if let Some(other) = keys.insert(key.clone(), bug) {
            panic!("{bug} and {other} share the bucket {key}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Instructions of a program text (lines inside blocks, not block markers).
fn instructions(text: &str) -> usize {
    let mut inside = false;
    let mut n = 0;
    for l in text.lines() {
        if l.starts_with("START ") {
            inside = true;
        } else if l.starts_with("END ") {
            inside = false;
        } else if inside && !l.trim().is_empty() {
            n += 1;
        }
    }
    n
}

/// `rebucket --reduce` is the follow-up stage for what a campaign filed unreduced: a
/// several-bug reproducer is reduced against the one bug that makes it fail alone (named
/// in the reduction's `# options:`), keyed on its reduction, and nothing is reduced twice
/// or overwritten; a reproducer that no longer fails is reported, not reduced.
#[test]
fn rebucket_reduce_reduces_what_a_campaign_left_unreduced() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = std::env::temp_dir().join(format!("eufuzz-rebucket-reduce-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Both bugs live in schedule_post_ra and give one signature; the program fails with
    // sched-across-halt alone (see its `# zoo:` line).
    let text = std::fs::read_to_string(root.join("corpus/zoo/sched-across-halt.eu")).unwrap();
    let original = format!(
        "# bucket: unknown\n# options: --zoo sched-ignores-flag-war,sched-across-halt\n{text}"
    );
    std::fs::write(dir.join("mismatch-1.eu"), &original).unwrap();
    let fine =
        std::fs::read_to_string(root.join("corpus/examples/addc-subb-carry-bdw.eu")).unwrap();
    std::fs::write(
        dir.join("mismatch-2.eu"),
        format!("# bucket: unknown\n{fine}"),
    )
    .unwrap();
    let dirs = std::slice::from_ref(&dir);
    let run = || {
        let reduced =
            triage::buckets::reduce_unreduced(dirs, std::time::Duration::from_secs(30), 2)
                .expect("reduce");
        triage::buckets::rebucket(dirs).expect("rebucket");
        reduced
    };
    let (reduced, not) = run();
    assert_eq!(reduced, 1);
    assert_eq!(not, [dir.join("mismatch-2.eu")]);
    let reduced = std::fs::read_to_string(dir.join("mismatch-1.reduced.eu")).unwrap();
    assert!(
        reduced.contains("# options: --zoo sched-across-halt\n"),
        "{reduced}"
    );
    assert!(
        instructions(&reduced) <= instructions(&original),
        "{reduced}"
    );
    let key = |t: &str| {
        t.lines()
            .find_map(|l| l.strip_prefix("# bucket: "))
            .map(str::to_string)
    };
    assert_eq!(
        key(&reduced).as_deref(),
        Some("rewrite/schedule_post_ra/reorder-across-halt")
    );
    let rekeyed = std::fs::read_to_string(dir.join("mismatch-1.eu")).unwrap();
    assert_eq!(key(&rekeyed), key(&reduced));
    assert!(!dir.join("mismatch-2.reduced.eu").exists());
    let (again, _) = run();
    assert_eq!(again, 0, "nothing is reduced twice");
    assert_eq!(
        std::fs::read_to_string(dir.join("mismatch-1.reduced.eu")).unwrap(),
        reduced
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Whether the pass belongs to the optimising pipeline only (`-O0` does not run it).
fn is_optimisation(pass: &str) -> bool {
    pass.starts_with("opt_")
        || pass.starts_with("vec4_opt_")
        || pass.starts_with("schedule_")
        || matches!(pass, "move_load_const" | "eliminate_find_live_channel")
}

/// `--baseline o0` tells an optimisation bug from a lowering bug: against the `-O0`
/// compilation an optimiser bug still fails with the same culprit, while a lowering bug
/// that miscompiles (which the `-O0` baseline shares) leaves nothing to compare and the
/// check is undecided.
#[test]
fn baseline_o0_keeps_optimiser_bugs_and_drops_lowering_bugs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/zoo");
    let mut failures = vec![];
    for (bug, mut extra) in bugs() {
        let file = dir.join(format!("{bug}.eu")).display().to_string();
        extra.extend(["--baseline".to_string(), "o0".to_string()]);
        let (code, out) = check(&file, &extra, Some(bug));
        let culprit = format!("culprit pass: {} (", holder(bug));
        if is_optimisation(holder(bug)) {
            if code != Exit::Problems || !out.contains(&culprit) {
                failures.push(format!("{bug}: not found against -O0 ({code:?}):\n{out}"));
            }
        } else if code == Exit::Problems && !out.contains("signature: compile-error/") {
            // A lowering bug that makes the optimised compile refuse the program
            // (ra-eot-payload-in-start-order) fails against any baseline; one that
            // miscompiles is shared by the -O0 baseline.
            failures.push(format!("{bug}: a lowering bug failed against -O0:\n{out}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every reproducer a `--zoo all` campaign writes, reduced or not, replays its recorded
/// signature with `eufuzz check FILE` and no flags: its header carries every option and
/// zoo bug it needs (the reductions name only the bugs they need).
#[test]
fn every_reproducer_of_a_zoo_all_campaign_replays_alone() {
    let dir = std::env::temp_dir().join(format!("eufuzz-zoo-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let eufuzz = env!("CARGO_BIN_EXE_eufuzz");
    let out = dir.to_str().expect("utf-8");
    let status = std::process::Command::new(eufuzz)
        .args(["campaign", "--zoo", "all", "--time", "10", "--jobs", "2"])
        .args(["--seed", "5", "--reduce-budget", "3", "--per-bucket", "2"])
        .args(["--out", out, "--progress-every", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("the campaign runs");
    assert_eq!(
        status.code(),
        Some(1),
        "a --zoo all campaign finds failures"
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eu"))
        .collect();
    files.sort();
    let reduced = files
        .iter()
        .filter(|f| f.to_string_lossy().ends_with(".reduced.eu"))
        .count();
    assert!(reduced > 0 && files.len() > reduced, "{files:?}");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let signature = text
            .lines()
            .find_map(|l| l.strip_prefix("# signature: "))
            .unwrap_or_else(|| panic!("{}: no signature\n{text}", f.display()));
        let o = std::process::Command::new(eufuzz)
            .arg("check")
            .arg(f)
            .output()
            .expect("check runs");
        let shown = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(1),
            "{}:\n{text}\n{shown}",
            f.display()
        );
        assert!(
            shown.contains(&format!("  signature: {signature}\n")),
            "{} does not replay {signature}:\n{shown}",
            f.display()
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Programs of fixed GRFs alone (the generator's `fixed-grf` shape) hold no VGRF before
/// register allocation, yet still read ATTRs and hold logical sends: the culprit search must
/// run their IR in logical mode until allocation. Run in strict mode, the unchanged IR after
/// the first pass faulted on the ATTR and took the blame (a campaign with
/// `redundant-halt-over-work` blamed `split_virtual_grfs`, which changed nothing).
#[test]
fn a_program_without_vgrfs_blames_the_pass_holding_the_bug() {
    let file = std::env::temp_dir().join(format!("eufuzz-no-vgrf-{}.eu", std::process::id()));
    std::fs::write(
        &file,
        "eu 1\ntarget skl\ndispatch 8\nthreads 1\nattr attr0 1\n\nSTART B0\n    \
         mov(8) g13<8;8,1>:D, attr0:D\n    halt(8)\nEND B0\n\nSTART B1\n    \
         mov(8) g13<8;8,1>:D, 1:D\nEND B1\n\nSTART B2\n    halt_target(8)\n    \
         xor(8) g15<8;8,1>:UD, 0:UD, g13<8;8,1>:UD\n    \
         fb_write_logical(8) null:UD, g15<8;8,1>:F, 1:UD, 0:UD { EOT }\nEND B2\n",
    )
    .unwrap();
    let (exit, out) = check(
        &file.display().to_string(),
        &[],
        Some("redundant-halt-over-work"),
    );
    std::fs::remove_file(&file).unwrap();
    assert_eq!(exit, Exit::Problems, "{out}");
    assert!(out.contains("culprit pass: opt_redundant_halt ("), "{out}");
}
