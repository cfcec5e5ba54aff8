//! Feedback campaigns from the command line: the corpus kept in OUT/corpus across
//! `--resume`, shared between campaigns with `--corpus DIR`, united by `eufuzz merge`, and
//! (zoo builds) mutated cases' reproducers replaying with `eufuzz check` alone.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn eufuzz() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_eufuzz"));
    c.env("CI", "true");
    c
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eufuzz-feedback-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> Output {
    let out = eufuzz().args(args).output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// The entry files of a corpus directory.
fn entries(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .map(|l| {
            l.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".bytes"))
                .collect()
        })
        .unwrap_or_default()
}

/// The corpus names worker 0 added, from the checkpoint.
fn worker_corpus(dir: &Path) -> Vec<String> {
    json(&dir.join("checkpoint.json"))["workers"][0]["corpus"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_corpus_survives_resume_is_shared_through_corpus_dir_and_merged() {
    let dir = scratch("corpus");
    let (a, b, shared, merged) = (
        dir.join("a"),
        dir.join("b"),
        dir.join("shared"),
        dir.join("merged"),
    );
    let s = |p: &Path| p.display().to_string();
    let common = [
        "--jobs",
        "1",
        "--reduce-budget",
        "0",
        "--checkpoint-every",
        "0.5",
    ];
    let mut args = vec!["campaign", "--time", "3", "--seed", "5", "--out"];
    let a_text = s(&a);
    let shared_text = s(&shared);
    args.extend([a_text.as_str(), "--corpus", shared_text.as_str()]);
    args.extend(common);
    run(&args);
    let first = entries(&a.join("corpus"));
    assert!(!first.is_empty(), "no corpus kept");
    // Every new entry went back to the shared corpus too.
    assert_eq!(entries(&shared), first);
    let listed = worker_corpus(&a);
    assert_eq!(listed.len(), first.len());
    let st = json(&a.join("stats.json"));
    assert_eq!(st["feedback"], true);
    assert_eq!(st["corpus"].as_u64(), Some(first.len() as u64));
    assert!(st["features"].as_u64().unwrap() > 0);
    assert!(st["timeline"][0]["features"].as_u64().unwrap() > 0);

    // Resumed: the entries stay, the worker's list goes on from where it was.
    run(&["campaign", "--resume", &a_text, "--time", "2"]);
    assert!(entries(&a.join("corpus")).is_superset(&first));
    let resumed = worker_corpus(&a);
    assert!(resumed.starts_with(&listed), "{listed:?} then {resumed:?}");

    // Another campaign starts from the shared corpus: it is its base, copied into its own
    // OUT/corpus.
    let before = entries(&shared);
    let b_text = s(&b);
    let mut args = vec!["campaign", "--time", "2", "--seed", "900", "--out"];
    args.extend([b_text.as_str(), "--corpus", shared_text.as_str()]);
    args.extend(common);
    run(&args);
    let b_entries = entries(&b.join("corpus"));
    assert!(b_entries.is_superset(&before));
    let base: BTreeSet<String> = json(&b.join("checkpoint.json"))["base"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| format!("{}.bytes", n.as_str().unwrap()))
        .collect();
    assert_eq!(base, before);
    assert!(json(&b.join("stats.json"))["corpus"].as_u64().unwrap() >= before.len() as u64);
    assert!(entries(&shared).is_superset(&b_entries));

    // Merged shards: the union of their corpora.
    run(&["merge", &s(&merged), &a_text, &b_text]);
    let union: BTreeSet<String> = entries(&a.join("corpus"))
        .union(&b_entries)
        .cloned()
        .collect();
    assert_eq!(entries(&merged.join("corpus")), union);
    assert_eq!(
        json(&merged.join("stats.json"))["corpus"].as_u64(),
        Some(union.len() as u64)
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// Without feedback the cases that reached a new feature are still written to
/// `OUT/corpus` (what the campaign reached, for the next night and for coverage), but no
/// case mutates them.
#[test]
fn feedback_off_writes_its_corpus_and_mutates_nothing() {
    let dir = scratch("off");
    let out = dir.join("out").display().to_string();
    run(&[
        "campaign",
        "--time",
        "2",
        "--jobs",
        "1",
        "--feedback",
        "off",
        "--reduce-budget",
        "0",
        "--out",
        &out,
    ]);
    let st = json(&dir.join("out/stats.json"));
    assert_eq!(st["feedback"], false);
    assert_eq!(st["corpus"], 0);
    assert!(st["features"].as_u64().unwrap() > 0);
    assert!(st["origins"].get("mutated").is_none(), "{st}");
    let written = entries(&dir.join("out/corpus"));
    assert!(!written.is_empty());
    // Each entry reached a feature no earlier case had: never more entries than features.
    assert!(written.len() as u64 <= st["features"].as_u64().unwrap());
    fs::remove_dir_all(&dir).unwrap();
}

#[cfg(feature = "zoo")]
#[test]
fn mutated_cases_reproducers_replay_with_check_and_import() {
    let dir = scratch("mutated");
    let out = dir.display().to_string();
    run(&[
        "campaign",
        "--zoo",
        "all",
        "--time",
        "6",
        "--jobs",
        "1",
        "--seed",
        "3",
        "--reduce-budget",
        "0",
        "--per-bucket",
        "1000",
        "--out",
        &out,
    ]);
    let mutated: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eu"))
        .filter(|p| {
            fs::read_to_string(p)
                .unwrap()
                .contains("# generated: mutated bytes ")
        })
        .collect();
    assert!(!mutated.is_empty(), "no mutated case failed");
    for f in mutated.iter().take(3) {
        let text = fs::read_to_string(f).unwrap();
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(
            text.contains(&format!("mutated bytes {name}.bytes, input seed ")),
            "{text}"
        );
        // The reproducer alone replays: its header has the options, its body the inputs.
        let check = eufuzz().arg("check").arg(f).output().unwrap();
        assert_eq!(
            check.status.code(),
            Some(1),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&check.stdout)
        );
        // Its bytes decode to the same program.
        let bytes = f.with_extension("bytes");
        let import = eufuzz()
            .args(["import", "--zoo", "all"])
            .arg(&bytes)
            .output()
            .unwrap();
        let imported = String::from_utf8_lossy(&import.stdout);
        let signature = |t: &str| {
            t.lines()
                .find_map(|l| l.strip_prefix("# signature: "))
                .map(str::to_string)
        };
        assert!(signature(&imported).is_some(), "{imported}");
        let code = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| l.starts_with("    "))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(code(&imported), code(&text), "{}", f.display());
    }
    fs::remove_dir_all(&dir).unwrap();
}
