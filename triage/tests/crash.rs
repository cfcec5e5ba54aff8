//! Crash isolation (issue #25 item 6): with each of the zoo's faults on — a pass that
//! recurses without end, one that loops forever, one that grows the program until memory
//! runs out — a campaign runs its full time, files every case that took its child process
//! down in a bucket of its own with a reproducer that replays it, counts them in its
//! statistics, and judges the same seeds the same way every time.
#![cfg(feature = "zoo")]

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn eufuzz() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_eufuzz"));
    c.env("CI", "true");
    c
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eufuzz-crash-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs a campaign of fresh seeds from `seed` on `jobs` workers into `out` for `time`
/// seconds with `zoo` on; returns its statistics and how long it took.
fn campaign(
    out: &Path,
    zoo: &str,
    seed: u64,
    time: u64,
    jobs: u32,
    extra: &[&str],
) -> (Value, Duration) {
    let start = Instant::now();
    let (seed, time, jobs) = (seed.to_string(), time.to_string(), jobs.to_string());
    let mut args = vec![
        "campaign",
        "--zoo",
        zoo,
        "--seed",
        &seed,
        "--time",
        &time,
        "--jobs",
        &jobs,
        "--feedback",
        "off",
        "--reduce-budget",
        "0",
    ];
    args.extend_from_slice(extra);
    let status = eufuzz()
        .args(&args)
        .arg("--out")
        .arg(out)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run eufuzz campaign");
    let took = start.elapsed();
    assert_eq!(status.code(), Some(1), "failures found: exit code 1");
    let stats = serde_json::from_str(&fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    (stats, took)
}

fn count(stats: &Value, outcome: &str) -> u64 {
    stats["outcomes"][outcome].as_u64().unwrap_or(0)
}

/// The failures of the campaign, as (seed, signature, bucket, file).
fn failures(stats: &Value) -> Vec<(u64, String, String, Option<String>)> {
    stats["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["seed"].as_u64().unwrap(),
                f["signature"].as_str().unwrap().to_string(),
                f["bucket"].as_str().unwrap().to_string(),
                f["file"].as_str().map(str::to_string),
            )
        })
        .collect()
}

/// The campaign ran its full time, every case counted, and every failure is `signature`,
/// counted as `outcome` in the statistics, with a child restarted for each.
fn filed_and_went_on(stats: &Value, time: u64, outcome: &str, signature: &str) {
    assert!(
        stats["seconds"].as_f64().unwrap() >= time as f64,
        "{}",
        stats["seconds"]
    );
    let found = failures(stats);
    assert!(!found.is_empty(), "nothing filed: {}", stats["outcomes"]);
    for (_, sig, bucket, _) in &found {
        assert_eq!((sig.as_str(), bucket.as_str()), (signature, signature));
    }
    assert_eq!(count(stats, outcome), found.len() as u64);
    // A child is started again for the next case after each death (not after one at the
    // very end of a worker's run). A hang dies twice: killed by the adaptive timeout, then
    // by the longer one of the run that confirms it; and a case the adaptive timeout
    // killed whose second run finishes (only slow) is one more death, filed as nothing.
    let hang = outcome == "hang";
    let deaths = found.len() as u64 * if hang { 2 } else { 1 };
    let restarts = stats["restarts"].as_u64().unwrap();
    let jobs = stats["jobs"].as_u64().unwrap();
    assert!(
        (hang || restarts <= deaths) && restarts + jobs >= deaths,
        "{restarts} restarts for {deaths} deaths"
    );
    // The campaign went on: most cases passed, also after the first death.
    assert!(
        count(stats, "pass") > 2 * found.len() as u64,
        "{}",
        stats["outcomes"]
    );
    assert!(stats["execs"].as_u64().unwrap() > 10);
}

/// The program of a fresh seed, as `eufuzz gen` prints it.
fn generated(seed: u64) -> String {
    let out = eufuzz()
        .args(["gen", "--seed", &seed.to_string()])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn check(file: &str, extra: &[&str]) -> Output {
    eufuzz()
        .arg("check")
        .args(extra)
        .arg(file)
        .output()
        .unwrap()
}

/// A written reproducer: its header names the verdict and carries the zoo option it needs,
/// it parses, and its program is fine with the fault switched off (it agrees, or its own
/// inputs are discarded: exit code 0 or 3, never a disagreement or a crash).
fn reproducer(file: &str, verdict: &str, zoo: &str) -> String {
    let text = fs::read_to_string(file).unwrap();
    assert!(text.contains(&format!("# verdict: {verdict}")), "{text}");
    assert!(
        text.contains(&format!("# options: --zoo {zoo}\n")),
        "{text}"
    );
    compiler::text::parse_program(&text).unwrap();
    let clean = check(file, &["--zoo", "none"]);
    let said = String::from_utf8_lossy(&clean.stdout);
    assert!(matches!(clean.status.code(), Some(0 | 3)), "{said}");
    text
}

#[test]
fn a_pass_that_recurses_without_end_is_a_crash_finding_and_the_same_seeds_crash_again() {
    let dir = scratch("recursion");
    let zoo = "rol-fold-recursion";
    // Seed 180 is the first from 175 with a ROL (generator format 23).
    let start = 175;
    let (stats, _) = campaign(&dir.join("a"), zoo, start, 6, 1, &[]);
    filed_and_went_on(&stats, 6, "crash", "crash/opt_algebraic/stack-overflow");
    let found = failures(&stats);
    let file = found[0].3.clone().expect("the first crash is written");
    let text = reproducer(&file, "crash: stack-overflow in opt_algebraic", zoo);
    assert!(text.contains("# culprit pass: opt_algebraic"));
    assert!(text.contains("rol("));
    // It replays from its own header: `check` dies of the same overflow.
    let replay = check(&file, &[]);
    let stderr = String::from_utf8_lossy(&replay.stderr);
    assert!(stderr.contains("has overflowed its stack"), "{stderr}");
    // The nightly's later steps take the directory without dying of it: rebucket keeps
    // the key, and the report lists the bucket without replaying it in-process.
    let a = dir.join("a");
    let rebucket = eufuzz()
        .args(["rebucket", "--reduce"])
        .arg(&a)
        .output()
        .unwrap();
    assert!(rebucket.status.code().is_some(), "{rebucket:?}");
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
    let md = dir.join("report.md");
    let report = eufuzz()
        .arg("report")
        .arg(&a)
        .arg("--md")
        .arg(&md)
        .output()
        .unwrap();
    assert!(matches!(report.status.code(), Some(0 | 1)), "{report:?}");
    let md = fs::read_to_string(&md).unwrap();
    assert!(md.contains("crash/opt_algebraic/stack-overflow"), "{md}");
    // Determinism: one worker and no feedback run seeds 175, 176, ...; exactly the seeds
    // whose program has a ROL crash, in this run and in a second one.
    let execs = stats["execs"].as_u64().unwrap();
    let crashed: Vec<u64> = found.iter().map(|f| f.0).collect();
    for seed in start..start + execs.min(40) {
        let has_rol = generated(seed).contains("    rol(");
        assert_eq!(crashed.contains(&seed), has_rol, "seed {seed}");
    }
    let (again, _) = campaign(&dir.join("b"), zoo, start, 3, 1, &[]);
    let common = start + execs.min(again["execs"].as_u64().unwrap());
    let second: Vec<u64> = failures(&again)
        .iter()
        .map(|f| f.0)
        .filter(|s| *s < common)
        .collect();
    let first: Vec<u64> = crashed.into_iter().filter(|s| *s < common).collect();
    assert_eq!(first, second);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_pass_that_grows_the_program_without_bound_is_an_out_of_memory_finding() {
    let dir = scratch("growth");
    let zoo = "ror-split-growth";
    // Seed 339 grows the program (generator format 13); starting just before it keeps the
    // debug build's eight seconds enough.
    let (stats, _) = campaign(&dir, zoo, 335, 8, 1, &["--case-memory", "256"]);
    filed_and_went_on(&stats, 8, "crash", "crash/lower_simd_width/out-of-memory");
    let file = failures(&stats)[0].3.clone().expect("written");
    let text = reproducer(&file, "crash: out-of-memory in lower_simd_width", zoo);
    assert!(text.contains("memory allocation of"), "{text}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_twenty_second_campaign_reports_a_pass_that_loops_forever() {
    let dir = scratch("hang");
    let zoo = "rotate-count-endless-loop";
    // Seed 430 hangs the pass at once in a campaign (generator format 23).
    let (stats, took) = campaign(&dir, zoo, 425, 20, 2, &[]);
    filed_and_went_on(&stats, 20, "hang", "hang/opt_copy_propagation/cpu-time");
    // Found within the adaptive timeout, far below the 30-s cap; the campaign was not
    // held up by the stuck cases.
    let first = stats["failures"][0]["seconds"].as_f64().unwrap();
    assert!(first < 15.0, "{first}");
    assert!(took < Duration::from_secs(30), "{took:?}");
    let file = failures(&stats)[0].3.clone().expect("written");
    let text = reproducer(&file, "hang: the case ran over its cpu-time cap of ", zoo);
    assert!(text.contains(" s in opt_copy_propagation\n"), "{text}");
    fs::remove_dir_all(&dir).unwrap();
}

/// Runs `eufuzz campaign ARGS`, which must exit with `code`; its statistics and how long
/// it took.
fn run_campaign(args: &[&str], dir: &Path, code: i32) -> (Value, Duration) {
    let start = Instant::now();
    let status = eufuzz()
        .args(args)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(code));
    let stats = serde_json::from_str(&fs::read_to_string(dir.join("stats.json")).unwrap()).unwrap();
    (stats, start.elapsed())
}

#[test]
fn a_case_still_running_at_the_end_is_reported_not_counted_and_resumed() {
    let dir = scratch("unfinished");
    let out = dir.display().to_string();
    // Seed 430 loops forever at once (generator format 23): with no case time measured
    // yet, the timeout is the 30-s cap, so it is still running when the 3-s campaign ends.
    let args = [
        "campaign",
        "--zoo",
        "rotate-count-endless-loop",
        "--seed",
        "430",
        "--time",
        "3",
        "--jobs",
        "1",
        "--feedback",
        "off",
        "--out",
        &out,
    ];
    let (stats, took) = run_campaign(&args, &dir, 0);
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert_eq!(stats["execs"], 0);
    let u = &stats["unfinished"][0];
    assert_eq!(u["seed"], 430);
    assert_eq!(u["phase"], "opt_copy_propagation");
    assert!(u["seconds"].as_f64().unwrap() >= 2.0, "{u}");
    // No child outlives the campaign, and no phase file is left behind.
    let names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with(".phase")), "{names:?}");
    // Not counted as done: the resumed campaign runs it again.
    let (resumed, _) = run_campaign(&["campaign", "--resume", &out, "--time", "2"], &dir, 0);
    assert_eq!(resumed["execs"], 0);
    assert_eq!(resumed["unfinished"][0]["seed"], 430);
    fs::remove_dir_all(&dir).unwrap();
}
