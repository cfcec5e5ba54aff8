//! `eufuzz bisect` on a scripted repository whose "build" makes a shell-script stand-in
//! for `eufuzz` (it answers `check` as the real one does): the commit that introduces the
//! fault and the one that fixes it are named exactly, revisions that do not build or
//! cannot read the file are skipped, binaries are reused from the cache, and Ctrl-C leaves
//! no worktree and no cache entry behind.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const SIG: &str = "mismatch/dead_code_eliminate/output";

/// The stand-in's body: `eufuzz check FILE` answers from the settings its build baked in.
const TOOL: &str = r#"
[ "$1" = check ] || exit 2
if [ "$READS" = 0 ]; then echo "$2:1:1: expected \`eu 1\`, found a newer version" >&2; exit 2; fi
if [ "$FAULT" = 1 ]; then
    echo "$2: FAIL on skl: mismatch"
    echo "  signature: mismatch/dead_code_eliminate/output"
    echo "1 check(s): 0 agree, 0 discarded, 1 disagree"
    exit 1
fi
echo "$2: ok on skl (compiled run refines the reference)"
"#;

/// The build: the stand-in is the settings file and the tool, made executable.
const BUILD: &str =
    "{ echo '#!/bin/sh'; cat settings; cat tool.sh; } > eufuzz && chmod +x eufuzz\n";

fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.org")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.org")
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A repository of eleven commits, returning their hashes oldest first:
/// 3 makes a stand-in that cannot read the reproducer, 4 does not build (5 repairs both),
/// 6 introduces the fault in the "pass" (dead_code_eliminate), 9 fixes it.
fn scripted_repo(dir: &Path) -> Vec<String> {
    let repo = dir.join("repo");
    fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    fs::write(repo.join("tool.sh"), TOOL).unwrap();
    let steps: [(&str, &str, &str); 11] = [
        (
            "FAULT=0\nREADS=1\n",
            BUILD,
            "initial: a compiler with a dead-code pass",
        ),
        ("FAULT=0\nREADS=1\n", BUILD, "docs: say what dce removes"),
        ("FAULT=0\nREADS=1 \n", BUILD, "dce: tidy"),
        ("FAULT=0\nREADS=0\n", BUILD, "text form: an older reader"),
        ("FAULT=0\nREADS=0\n", "exit 1\n", "build: break it"),
        ("FAULT=0\nREADS=1\n", BUILD, "build: repair it"),
        (
            "FAULT=1\nREADS=1\n",
            BUILD,
            "dce: remove writes under a predicate too",
        ),
        ("FAULT=1\nREADS=1 \n", BUILD, "scheduler: unrelated"),
        ("FAULT=1\nREADS=1\n", BUILD, "regalloc: unrelated"),
        ("FAULT=0\nREADS=1\n", BUILD, "dce: keep predicated writes"),
        ("FAULT=0\nREADS=1 \n", BUILD, "docs: the fix"),
    ];
    let mut hashes = vec![];
    for (settings, build, subject) in steps {
        fs::write(repo.join("settings"), settings).unwrap();
        fs::write(repo.join("build.sh"), build).unwrap();
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "--allow-empty", "-m", subject]);
        hashes.push(git(&repo, &["rev-parse", "HEAD"]).trim().to_string());
    }
    hashes
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eufuzz-bisect-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn reproducer(dir: &Path) -> PathBuf {
    let p = dir.join("r.eu");
    fs::write(
        &p,
        format!("# eufuzz reproducer\n# signature: {SIG}\n# bucket: rewrite/dce/pred\neu 1\n"),
    )
    .unwrap();
    p
}

fn bisect(dir: &Path, extra: &[&str]) -> Output {
    bisect_with(dir, "sh build.sh", extra)
}

fn bisect_with(dir: &Path, build: &str, extra: &[&str]) -> Output {
    let repro = reproducer(dir);
    Command::new(env!("CARGO_BIN_EXE_eufuzz"))
        .arg("bisect")
        .arg(&repro)
        .arg("--repo")
        .arg(dir.join("repo"))
        .arg("--cache")
        .arg(dir.join("cache"))
        .args(["--build-cmd", build, "--binary", "eufuzz"])
        .args(extra)
        .output()
        .expect("run eufuzz")
}

/// No worktree but the repository's own, and no temporary or stray entry in the cache.
fn assert_tidy(dir: &Path) {
    let list = git(&dir.join("repo"), &["worktree", "list"]);
    assert_eq!(list.lines().count(), 1, "{list}");
    assert!(!dir.join("cache/worktree").exists());
    for e in fs::read_dir(dir.join("cache/bin"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let names: Vec<String> = fs::read_dir(e.path())
            .unwrap()
            .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["eufuzz".to_string()], "{}", e.path().display());
    }
}

#[test]
fn names_the_introducing_commit_skipping_what_cannot_be_tested() {
    let dir = scratch("introduced");
    let h = scripted_repo(&dir);
    let json = dir.join("b.json");
    let out = bisect(
        &dir,
        &[
            "--good",
            &h[0],
            "--bad",
            &h[8],
            "--json",
            json.to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!(
            "first bad commit: {} dce: remove writes under a predicate too",
            h[6]
        )),
        "{stdout}"
    );
    // 4 does not build and 3 cannot read the file: both skipped, with the reason.
    let short = |i: usize| h[i][..10].to_string();
    assert!(
        stdout.contains(&format!("skipped {}: does not build", short(4))),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("skipped {}: cannot read the reproducer", short(3))),
        "{stdout}"
    );
    assert!(
        !stdout.contains(&short(0)) && !stdout.contains(&short(8)),
        "{stdout}"
    );
    let result: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(result["mode"], "introduced");
    assert_eq!(result["bucket"], "rewrite/dce/pred");
    assert_eq!(result["finding"]["kind"], "found");
    assert_eq!(result["finding"]["commits"]["hash"], h[6].as_str());
    assert_eq!(result["builds"], 4);
    assert_tidy(&dir);

    // Again: every binary comes from the cache (the failed build is retried).
    let again = bisect(&dir, &["--good", &h[0], "--bad", &h[8]]);
    let stdout = text(&again.stdout);
    assert!(
        stdout.contains("4 revision(s) tested for 8 commit(s) in the range (1 built)"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("first bad commit: {}", h[6])),
        "{stdout}"
    );
    assert_tidy(&dir);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn names_the_fixing_commit() {
    let dir = scratch("fixed");
    let h = scripted_repo(&dir);
    let out = bisect(&dir, &["--fixed", "--good", &h[6], "--bad", &h[10]]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!(
            "first fixed commit: {} dce: keep predicated writes",
            h[9]
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("fails with mismatch/dead_code_eliminate/output, not fixed yet"),
        "{stdout}"
    );
    assert!(stdout.contains("passes, fixed"), "{stdout}");
    assert_tidy(&dir);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_spent_time_budget_names_the_range_left() {
    let dir = scratch("budget");
    let h = scripted_repo(&dir);
    let out = bisect(&dir, &["--good", &h[0], "--bad", &h[8], "--time", "0"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("first bad commit is one of these (the time ran out)"),
        "{stdout}"
    );
    assert!(
        (1..=8).all(|i| stdout.contains(&h[i])) && !stdout.contains(&h[0]),
        "{stdout}"
    );
    assert_tidy(&dir);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ends_that_do_not_behave_as_said_and_bad_revisions_are_refused() {
    let dir = scratch("refused");
    let h = scripted_repo(&dir);
    // Nothing fails between 0 and 2: the answer would rest on --bad, which passes.
    let out = bisect(&dir, &["--good", &h[0], "--bad", &h[2]]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("at --bad"),
        "{}",
        text(&out.stderr)
    );
    let out = bisect(&dir, &["--good", "no-such-rev", "--bad", &h[2]]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no-such-rev: not a commit"));
    let out = bisect(&dir, &["--good", &h[5], "--bad", &h[2]]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not an ancestor"));
    assert_tidy(&dir);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ctrl_c_leaves_no_worktree_and_no_cache_entry() {
    let dir = scratch("ctrlc");
    let h = scripted_repo(&dir);
    let repro = reproducer(&dir);
    // A build that takes a minute: interrupted while it runs.
    let mut child = Command::new(env!("CARGO_BIN_EXE_eufuzz"))
        .arg("bisect")
        .arg(&repro)
        .arg("--repo")
        .arg(dir.join("repo"))
        .arg("--cache")
        .arg(dir.join("cache"))
        .args([
            "--build-cmd",
            "sleep 60 && sh build.sh",
            "--binary",
            "eufuzz",
        ])
        .args(["--good", &h[0], "--bad", &h[8]])
        .spawn()
        .unwrap();
    let wt = dir.join("cache/worktree");
    let start = Instant::now();
    while !wt.join("build.sh").exists() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(wt.exists(), "the build never started");
    // SAFETY: sends SIGINT to the child this test started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2));
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "the build was not stopped"
    );
    assert_tidy(&dir);
    assert_eq!(
        fs::read_dir(dir.join("cache/bin"))
            .map(|d| d.count())
            .unwrap_or(0),
        0
    );
    fs::remove_dir_all(&dir).unwrap();
}
