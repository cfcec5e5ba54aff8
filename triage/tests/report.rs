//! `eufuzz report` on small campaign directories: the three report files, new / still open
//! / gone buckets against a previous night or a history file, appending to the history,
//! the exit codes, and the replay of a bucket's reproducer (with the zoo bug it was found
//! with in a zoo build; named as not replayable in the default build).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BUCKET: &str = "rewrite/lower_integer_multiplication/dword-destination-overlap";

fn eufuzz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eufuzz"))
        .args(args)
        .output()
        .expect("run eufuzz")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eufuzz-report-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A campaign directory as the campaign leaves it: stats.json with the fields of the
/// parallel campaign, and one reproducer (the imul-dst-overlap zoo program, found with
/// that bug injected) whose bucket failed three times.
fn campaign_dir(dir: &Path) {
    let zoo = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/zoo/imul-dst-overlap.eu"),
    )
    .unwrap();
    let program: String = zoo
        .lines()
        .filter(|l| !l.starts_with("# expect:") && !l.starts_with("# zoo:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let reproducer = format!(
        "# eufuzz reproducer\n# signature: mismatch/lower_integer_multiplication/output\n# bucket: {BUCKET}\n# options: --zoo imul-dst-overlap\n{program}"
    );
    fs::write(dir.join("mismatch-7.eu"), reproducer).unwrap();
    let failure = |seconds: f64, seed: u64| {
        format!(
            r#"{{"kind": "mismatch", "culprit_pass": "lower_integer_multiplication", "signature": "mismatch/lower_integer_multiplication/output", "bucket": "{BUCKET}", "seconds": {seconds}, "file": null, "seed": {seed}}}"#
        )
    };
    let stats = format!(
        r#"{{"execs": 1000, "seconds": 10.0, "execs_per_sec": 100.0, "jobs": 2,
  "revision": "abc1234", "started_unix": 1795600000,
  "discarded": {{"undefined-branch": 20}}, "outcomes": {{"pass": 977, "discard": 20, "mismatch": 3}},
  "opcode_hits": {{"mov": 5000, "mul": 40}}, "pass_fires": {{"opt_cse": 100}},
  "devices": {{"icl": 500, "skl": 500}}, "rules_hit": {{}},
  "timeline": [{{"seconds": 5.0, "execs": 480, "failures": 1, "buckets": 1}}, {{"seconds": 10.0, "execs": 1000, "failures": 3, "buckets": 1}}],
  "failures": [{}, {}, {}], "zoo": "imul-dst-overlap"}}"#,
        failure(1.5, 7),
        failure(4.0, 9),
        failure(8.0, 12)
    );
    fs::write(dir.join("stats.json"), stats).unwrap();
}

fn outputs(dir: &Path) -> [String; 3] {
    ["r.html", "r.md", "r.json"].map(|n| dir.join(n).display().to_string())
}

#[test]
fn a_first_night_writes_three_reports_and_fails_on_the_new_bucket() {
    let dir = scratch("first");
    let night = dir.join("night1");
    fs::create_dir_all(&night).unwrap();
    campaign_dir(&night);
    let [html, md, json] = outputs(&dir);
    let history = dir.join("history.jsonl");
    let out = eufuzz(&[
        "report",
        s(&night),
        "--html",
        &html,
        "--md",
        &md,
        "--json",
        &json,
        "--append-history",
        s(&history),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "a new bucket: {stderr}");
    assert!(
        stderr.contains("1 new (1 not known), 0 still open, 0 gone"),
        "{stderr}"
    );

    let page = fs::read_to_string(&html).unwrap();
    assert!(page.contains(BUCKET));
    assert!(!page.contains("http"), "the page fetches nothing");
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["summary"]["new"], 1);
    assert_eq!(report["summary"]["jobs"], 2);
    assert_eq!(report["summary"]["revision"], "abc1234");
    assert_eq!(report["buckets"][0]["count"], 3);
    assert_eq!(report["buckets"][0]["first_seconds"], 1.5);
    let replay = &report["buckets"][0]["reproducer"];
    assert_eq!(replay["file"], "mismatch-7.eu");
    if cfg!(feature = "zoo") {
        // The zoo build replays it with its bug: the culprit, the IR diff across it and
        // the channel diff of a wrong product.
        let r = &replay["replay"];
        assert_eq!(
            r["culprit_pass"], "lower_integer_multiplication",
            "{replay}"
        );
        assert!(
            r["verdict"].as_str().unwrap().starts_with("mismatch"),
            "{r}"
        );
        assert!(r["ir_diff"].as_str().unwrap().contains("+++"), "{r}");
        assert!(!r["channel_diff"].as_array().unwrap().is_empty(), "{r}");
        assert!(page.contains("IR diff across <code>lower_integer_multiplication</code>"));
        // Re-checked with no bug injected it passes: the zoo's bug, not the compiler's.
        assert_eq!(r["fails_without_zoo"], false, "{r}");
    } else {
        let why = replay["replay_error"].as_str().unwrap();
        assert!(why.contains("--zoo imul-dst-overlap"), "{why}");
        assert!(page.contains("not replayed: "));
    }
    let markdown = fs::read_to_string(&md).unwrap();
    assert!(
        markdown.contains(&format!("| **NEW** | `{BUCKET}` | 3 | 3000 | 0 | – |")),
        "{markdown}"
    );
    let lines = fs::read_to_string(&history).unwrap();
    assert_eq!(lines.lines().count(), 1);
    assert!(lines.contains(&format!("\"{BUCKET}\":3")), "{lines}");

    // Reporting the same night again replaces its history line.
    let out = eufuzz(&[
        "report",
        s(&night),
        "--previous",
        s(&history),
        "--json",
        &json,
        "--append-history",
        s(&history),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "still new: not compared with itself"
    );
    assert_eq!(fs::read_to_string(&history).unwrap().lines().count(), 1);

    // The next night finds the same bucket again: still open, no failure; the trend has
    // both nights.
    let night2 = dir.join("night2");
    fs::create_dir_all(&night2).unwrap();
    campaign_dir(&night2);
    let stats = fs::read_to_string(night2.join("stats.json")).unwrap();
    fs::write(
        night2.join("stats.json"),
        stats.replace("1795600000", "1795686400"),
    )
    .unwrap();
    let out = eufuzz(&[
        "report",
        s(&night2),
        "--previous",
        s(&history),
        "--json",
        &json,
        "--append-history",
        s(&history),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("0 new (0 not known), 1 still open, 0 gone"),
        "{stderr}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["buckets"][0]["status"], "open");
    assert_eq!(report["buckets"][0]["previous_count"], 3);
    assert_eq!(report["history"].as_array().unwrap().len(), 2);
    assert_eq!(fs::read_to_string(&history).unwrap().lines().count(), 2);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn buckets_of_a_previous_campaign_directory_that_are_not_found_again_are_gone() {
    let dir = scratch("gone");
    let before = dir.join("before");
    let tonight = dir.join("tonight");
    fs::create_dir_all(&before).unwrap();
    fs::create_dir_all(&tonight).unwrap();
    campaign_dir(&before);
    // Tonight: an older campaign's stats (no jobs, revision, timeline …) and nothing found.
    fs::write(
        tonight.join("stats.json"),
        r#"{"execs": 50, "seconds": 1.0, "execs_per_sec": 50.0, "outcomes": {"pass": 50}}"#,
    )
    .unwrap();
    let [html, md, json] = outputs(&dir);
    let out = eufuzz(&[
        "report",
        s(&tonight),
        "--previous",
        s(&before),
        "--html",
        &html,
        "--md",
        &md,
        "--json",
        &json,
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["summary"]["gone"], 1);
    assert_eq!(report["buckets"][0]["key"], BUCKET);
    assert_eq!(report["buckets"][0]["status"], "gone");
    assert_eq!(report["summary"]["jobs"], 1, "older stats: one worker");
    assert_eq!(report["summary"]["revision"], "unknown");
    let markdown = fs::read_to_string(&md).unwrap();
    assert!(
        markdown.contains(&format!("| gone | `{BUCKET}` | 0 | 0.00 | 3 | 3000 |")),
        "{markdown}"
    );

    // The previous night's reproducer reported with statistics that lack its failures:
    // counted from the files, its signature from the reproducer's header.
    fs::write(before.join("stats.json"), r#"{"execs": 10}"#).unwrap();
    let out = eufuzz(&["report", s(&before), "--json", &json]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["buckets"][0]["count"], 1);
    assert_eq!(
        report["buckets"][0]["signatures"][0],
        "mismatch/lower_integer_multiplication/output"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unreadable_inputs_exit_2_and_leave_the_history_alone() {
    let dir = scratch("bad");
    let out = eufuzz(&["report", s(&dir)]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("stats.json") && stderr.contains("--stats-json"),
        "{stderr}"
    );

    campaign_dir(&dir);
    fs::write(dir.join("stats.json"), "{\"execs\": \"many\"}").unwrap();
    let out = eufuzz(&["report", s(&dir)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stats.json: line 1"));

    campaign_dir(&dir);
    let history = dir.join("history.jsonl");
    let broken = "{\"date\": \"2026-11-24 02:00\"}\nnot json\n";
    fs::write(&history, broken).unwrap();
    let out = eufuzz(&["report", s(&dir), "--append-history", s(&history)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("history.jsonl: line 2"));
    assert_eq!(fs::read_to_string(&history).unwrap(), broken);
    fs::remove_dir_all(&dir).unwrap();
}

/// The nightly job's second report: with `--bisections`, a new bucket that `eufuzz bisect
/// --json` bisected says which commit introduced it, in all three formats.
#[test]
fn a_bisected_new_bucket_names_the_commit_that_introduced_it_in_every_format() {
    let dir = scratch("bisected");
    let night = dir.join("night1");
    fs::create_dir_all(night.join("bisect")).unwrap();
    campaign_dir(&night);
    // What `eufuzz bisect --json` writes (the fields the report reads, and others).
    let result = format!(
        r#"{{"mode": "introduced", "bucket": "{BUCKET}", "signature": "mismatch/lower_integer_multiplication/output",
  "finding": {{"kind": "found", "commits": {{"hash": "777c73b0123456789", "subject": "imul: drop the overlap test", "date": "2026-11-26T20:02:41+00:00"}}}},
  "probes": [], "builds": 3, "seconds": 900.0}}"#
    );
    fs::write(night.join("bisect/1.json"), result).unwrap();
    let [html, md, json] = outputs(&dir);
    let out = eufuzz(&[
        "report",
        s(&night),
        "--bisections",
        s(&night.join("bisect")),
        "--html",
        &html,
        "--md",
        &md,
        "--json",
        &json,
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = "introduced by 777c73b012 imul: drop the overlap test";
    for f in [&html, &md] {
        let text = fs::read_to_string(f).unwrap();
        assert!(text.contains(line), "{f}: {text}");
    }
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let b = &report["buckets"][0]["bisection"];
    assert_eq!(b["mode"], "introduced");
    assert_eq!(b["commits"][0]["hash"], "777c73b0123456789");
    assert_eq!(b["commits"][0]["subject"], "imul: drop the overlap test");
    // A result that is not one stops the report with its file named.
    fs::write(night.join("bisect/2.json"), "not json").unwrap();
    let out = eufuzz(&[
        "report",
        s(&night),
        "--bisections",
        s(&night.join("bisect")),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("2.json: not a bisection result"));
    fs::remove_dir_all(&dir).unwrap();
}
