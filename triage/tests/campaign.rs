//! Campaigns as a nightly job runs them: stopped by Ctrl-C within a second with final
//! statistics written, killed with `kill -9` at a random moment and resumed with every
//! reproducer intact and the statistics continuing, sharded and merged.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn eufuzz() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_eufuzz"));
    c.env("CI", "true");
    c
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eufuzz-campaign-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn spawn(args: &[&str]) -> Child {
    eufuzz()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start eufuzz campaign")
}

fn stats(dir: &Path) -> serde_json::Value {
    let text = fs::read_to_string(dir.join("stats.json")).expect("stats.json");
    serde_json::from_str(&text).expect("stats.json is JSON")
}

/// Waits (up to a minute) until the campaign in `dir` has checkpointed `execs` cases.
fn wait_for_execs(dir: &Path, execs: u64) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if let Ok(text) = fs::read_to_string(dir.join("stats.json"))
            && let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
            && v["execs"].as_u64().unwrap_or(0) >= execs
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("no checkpoint with {execs} execs in {}", dir.display());
}

/// A pseudo-random delay (the clock's nanoseconds): killing at a different moment each run.
#[cfg(feature = "zoo")]
fn random_ms(below: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::SystemTime::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    nanos % below
}

#[test]
fn ctrl_c_stops_within_a_second_and_writes_final_statistics() {
    let dir = scratch("ctrl-c");
    let out = dir.display().to_string();
    let mut child = spawn(&[
        "campaign",
        "--time",
        "120",
        "--jobs",
        "2",
        "--out",
        &out,
        "--checkpoint-every",
        "0.5",
    ]);
    wait_for_execs(&dir, 1);
    let checkpointed = stats(&dir)["seconds"].as_f64().unwrap();
    // SAFETY: signalling the child this test started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let sent = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            sent.elapsed() < Duration::from_secs(10),
            "the campaign did not stop"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = sent.elapsed();
    assert!(took < Duration::from_secs(1), "stopping took {took:?}");
    assert!(matches!(status.code(), Some(0 | 1)), "{status:?}");
    let s = stats(&dir);
    assert!(s["seconds"].as_f64().unwrap() >= checkpointed);
    assert!(s["seconds"].as_f64().unwrap() < 60.0);
    assert_eq!(s["jobs"], 2);
    assert!(s["execs"].as_u64().unwrap() >= 1);
    // Stopped before its time: the statistics say so, for the report.
    assert_eq!(s["interrupted"], true, "{s}");
    assert_eq!(s["time_limit"], 120);
    fs::remove_dir_all(&dir).unwrap();
}

/// Every reproducer in `dir` parses, and `eufuzz check` still fails on a few of them.
#[cfg(feature = "zoo")]
fn reproducers_intact(dir: &Path) -> usize {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eu"))
        .collect();
    files.sort();
    for f in &files {
        let text = fs::read_to_string(f).unwrap();
        compiler::text::parse_program(&text)
            .unwrap_or_else(|e| panic!("{}: does not parse: {e}", f.display()));
        let bytes = f.with_extension("bytes");
        let name = f.to_string_lossy();
        if !name.ends_with(".reduced.eu") {
            assert!(bytes.exists(), "{}: no .bytes beside it", f.display());
        }
    }
    for f in files
        .iter()
        .filter(|f| !f.to_string_lossy().ends_with(".reduced.eu"))
        .take(4)
    {
        let out = eufuzz().arg("check").arg(f).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{}: {text}", f.display());
    }
    files.len()
}

#[cfg(feature = "zoo")]
#[test]
fn kill_9_at_a_random_moment_then_resume_keeps_every_reproducer_and_continues() {
    let dir = scratch("kill-9");
    let out = dir.display().to_string();
    let mut child = spawn(&[
        "campaign",
        "--zoo",
        "all",
        "--time",
        "300",
        "--jobs",
        "2",
        "--out",
        &out,
        "--checkpoint-every",
        "0.3",
        "--reduce-budget",
        "1",
        "--seed",
        "11",
    ]);
    wait_for_execs(&dir, 1);
    std::thread::sleep(Duration::from_millis(200 + random_ms(2500)));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = stats(&dir);
    let execs_before = before["execs"].as_u64().unwrap();
    reproducers_intact(&dir);

    let resumed = eufuzz()
        .args(["campaign", "--resume", &out, "--time", "3"])
        .output()
        .unwrap();
    assert!(
        matches!(resumed.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let after = stats(&dir);
    assert!(after["execs"].as_u64().unwrap() > execs_before, "{after}");
    assert_eq!(after["started_unix"], before["started_unix"]);
    assert!(after["seconds"].as_f64().unwrap() > before["seconds"].as_f64().unwrap());
    assert_eq!(after["zoo"], "all");
    let samples = after["timeline"].as_array().unwrap();
    assert!(
        samples
            .windows(2)
            .all(|w| w[0]["execs"].as_u64() <= w[1]["execs"].as_u64())
    );
    // Every failure listed has its reproducer, no seed is filed twice, every file is intact.
    let failures = after["failures"].as_array().unwrap();
    assert!(!failures.is_empty());
    let mut seeds: Vec<u64> = failures
        .iter()
        .map(|f| f["seed"].as_u64().unwrap())
        .collect();
    seeds.sort();
    let n = seeds.len();
    seeds.dedup();
    assert_eq!(seeds.len(), n, "a failure was filed twice");
    for f in failures {
        if let Some(file) = f["file"].as_str() {
            assert!(Path::new(file).exists(), "{file} listed but missing");
        }
    }
    assert!(reproducers_intact(&dir) > 0);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_refuses_a_directory_without_a_checkpoint() {
    let dir = scratch("no-checkpoint");
    let out = eufuzz()
        .args(["campaign", "--resume"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("checkpoint.json"));
    fs::remove_dir_all(&dir).unwrap();
}

/// One writer per output directory: while a campaign runs, a second campaign, a merge into
/// it and a rebucket of it refuse (exit 2, naming the holder) and change nothing; the
/// first goes on and releases the lock when it ends.
#[test]
fn a_running_campaign_keeps_its_output_directory_to_itself() {
    let dir = scratch("locked");
    let out = dir.join("out");
    let out_arg = out.to_str().unwrap();
    let mut first = spawn(&[
        "campaign", "--time", "30", "--jobs", "1", "--seed", "3", "--out", out_arg,
    ]);
    wait_for_execs(&out, 1);
    let before = stats(&out);
    let refused = |args: &[&str]| {
        let o = eufuzz().args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(
            err.contains("is in use: `eufuzz campaign` (pid "),
            "{args:?}: {err}"
        );
    };
    refused(&["campaign", "--time", "5", "--seed", "4", "--out", out_arg]);
    refused(&["rebucket", out_arg]);
    let shard = dir.join("shard");
    fs::create_dir_all(&shard).unwrap();
    refused(&["merge", out_arg, shard.to_str().unwrap()]);
    // The first campaign's statistics are its own: same seed, going on.
    wait_for_execs(&out, before["execs"].as_u64().unwrap() + 1);
    assert_eq!(stats(&out)["seed"], before["seed"]);
    first.kill().unwrap();
    first.wait().unwrap();
    // Killed: its lock is stale, and the next writer takes it over with a note.
    let o = eufuzz().args(["rebucket", out_arg]).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("took over the lock"));
    assert!(!out.join(".eufuzz-lock").exists());
    fs::remove_dir_all(&dir).unwrap();
}

/// `rebucket` and `bucket` refuse a directory that is not a campaign's output, and leave
/// its files as they are.
#[test]
fn rebucket_refuses_a_directory_that_is_not_a_campaign() {
    let dir = scratch("not-a-campaign");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/examples");
    let file = dir.join("example.eu");
    let name = fs::read_dir(&examples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "eu"))
        .unwrap();
    fs::copy(&name, &file).unwrap();
    let text = fs::read_to_string(&file).unwrap();
    for command in ["rebucket", "bucket"] {
        let o = eufuzz().arg(command).arg(&dir).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{command}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("not a campaign's output"),
            "{command}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    fs::remove_dir_all(&dir).unwrap();
}

/// The `# KEY: value` header line of a reproducer.
#[cfg(feature = "zoo")]
fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| l.strip_prefix(&format!("# {key}: ")))
}

#[cfg(feature = "zoo")]
#[test]
fn fuzz_crash_artifacts_import_into_the_campaigns_buckets() {
    let dir = scratch("import-buckets");
    let found = dir.join("campaign");
    let imported = dir.join("imported");
    fs::create_dir_all(&imported).unwrap();
    let run = eufuzz()
        .args([
            "campaign",
            "--zoo",
            "all",
            "--reduce-budget",
            "0",
            "--jobs",
            "2",
        ])
        .args(["--time", "4", "--seed", "3", "--out"])
        .arg(&found)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let mut compared = 0;
    for e in fs::read_dir(&found).unwrap() {
        let eu = e.unwrap().path();
        if eu.extension().is_none_or(|x| x != "eu") {
            continue;
        }
        let text = fs::read_to_string(&eu).unwrap();
        // The differential fuzz target checks a program on its own inputs only: input set 0.
        if header(&text, "failing inputs").is_none_or(|s| !s.starts_with("input set 0 ")) {
            continue;
        }
        // A campaign's .bytes file is what libFuzzer saves as a crash artifact.
        let out = eufuzz()
            .args(["import", "--zoo", "all"])
            .arg(eu.with_extension("bytes"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let target = imported.join(eu.file_name().unwrap());
        fs::write(&target, &out.stdout).unwrap();
        let again = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            header(&again, "bucket"),
            header(&text, "bucket"),
            "{}",
            eu.display()
        );
        compared += 1;
    }
    assert!(compared >= 3, "only {compared} failures on input set 0");
    let listing = |d: &Path| {
        let out = eufuzz().args(["bucket", "--json"]).arg(d).output().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut keys: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["key"].as_str().unwrap().to_string())
            .collect();
        keys.sort();
        keys
    };
    let campaign_keys = listing(&found);
    for k in listing(&imported) {
        assert!(
            campaign_keys.contains(&k),
            "{k} not among {campaign_keys:?}"
        );
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// A campaign output with statistics and one reproducer `NAME` whose program is `body`.
fn shard_output(dir: &Path, execs: u64, name: &str, body: &str) {
    fs::create_dir_all(dir).unwrap();
    let eu = dir.join(format!("{name}.eu"));
    fs::write(&eu, format!("# bucket: b/{body}\n{body}")).unwrap();
    fs::write(dir.join(format!("{name}.bytes")), body).unwrap();
    let stats = serde_json::json!({
        "execs": execs, "seconds": 10.0, "jobs": 2, "revision": "r",
        "outcomes": {"pass": execs}, "devices": {"skl": execs},
        "failures": [{"kind": "mismatch", "signature": "s", "bucket": format!("b/{body}"),
                      "seconds": 1.0, "file": eu.display().to_string(), "seed": 1}],
        "timeline": [{"seconds": 10.0, "execs": execs, "failures": 1, "buckets": 1}]
    });
    fs::write(dir.join("stats.json"), stats.to_string()).unwrap();
}

#[test]
fn merge_adds_up_shards_and_never_overwrites_a_reproducer() {
    let dir = scratch("merge");
    let (a, b, out) = (dir.join("a"), dir.join("b"), dir.join("out"));
    shard_output(&a, 100, "mismatch-1", "one");
    shard_output(&b, 50, "mismatch-1", "two");
    let run = eufuzz()
        .arg("merge")
        .arg(&out)
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("1 reproducer(s) renamed"));
    assert_eq!(
        fs::read_to_string(out.join("mismatch-1.eu")).unwrap(),
        "# bucket: b/one\none"
    );
    assert_eq!(
        fs::read_to_string(out.join("mismatch-1-2.eu")).unwrap(),
        "# bucket: b/two\ntwo"
    );
    assert_eq!(
        fs::read_to_string(out.join("mismatch-1-2.bytes")).unwrap(),
        "two"
    );
    let s = stats(&out);
    assert_eq!(s["execs"], 150);
    assert_eq!(s["jobs"], 4);
    assert_eq!(s["devices"]["skl"], 150);
    let files: Vec<&str> = s["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert!(
        files[0].ends_with("out/mismatch-1.eu") && files[1].ends_with("out/mismatch-1-2.eu"),
        "{files:?}"
    );
    // Merging into a directory that already holds statistics is refused.
    let again = eufuzz().arg("merge").arg(&out).arg(&a).output().unwrap();
    assert_eq!(again.status.code(), Some(2));
    let missing = eufuzz()
        .arg("merge")
        .arg(dir.join("new"))
        .arg(dir.join("nope"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("stats.json"));
    fs::remove_dir_all(&dir).unwrap();
}
