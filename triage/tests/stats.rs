//! `eufuzz stats`, `stats-compare` and `compile --stats` as a user runs them: shader-db rows
//! and comparisons, compile failures and unreadable files as rows, a run against itself.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn eufuzz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eufuzz"))
        .args(args)
        .output()
        .expect("run eufuzz")
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eufuzz-stats-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

const SINK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/stats/move-load-const-sink.eu"
);

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The CSV rows of a run (header dropped), split into columns.
fn rows(csv: &Path) -> Vec<Vec<String>> {
    fs::read_to_string(csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

#[test]
fn a_row_has_the_figures_of_the_compiled_program() {
    let out = eufuzz(&["compile", "--stats", SINK]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "program,device,instructions,sends,loops,cycles,spills,fills,scratch_bytes,\
         max_live_registers,compile_us,error"
    );
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    // The compiled program (see `eufuzz compile`): cmp, four movs and the IF in B0; the
    // load and the MAD in B1; ENDIF, four payload movs and the SEND in B2. One SEND, no
    // loop, 7 + 7 + 11 cycles, nothing spilled. Peak pressure: the 4-register colour v2
    // and the 4-register EOT payload copied from it are live together at the end (8); in
    // B1 only v2 and the moved load are (5).
    assert_eq!(
        &row[1..10],
        ["skl", "14", "1", "0", "25", "0", "0", "0", "8"]
    );
    assert_eq!(row[11], "");
    let ir = text(&eufuzz(&["compile", SINK]).stdout);
    assert!(ir.contains("START B1 <-B0 (7 cycles)\n"), "{ir}");
    let instructions = ir
        .lines()
        .skip_while(|l| !l.starts_with("START"))
        .filter(|l| l.starts_with("    "))
        .count();
    assert_eq!(instructions, 14);
}

#[test]
fn skipping_move_load_const_shows_in_the_comparison() {
    let dir = scratch("skip");
    let (a, b) = (dir.join("a.csv"), dir.join("b.csv"));
    assert!(eufuzz(&["stats", SINK, "--out", path(&a)]).status.success());
    let out = eufuzz(&[
        "stats",
        SINK,
        "--skip",
        "move_load_const",
        "--out",
        path(&b),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let cmp = text(
        &eufuzz(&[
            "stats-compare",
            path(&a),
            path(&b),
            "--metric",
            "cycles,instructions",
        ])
        .stdout,
    );
    // Without the pass the load stays in B0 and B1 is the MAD alone (see the file).
    assert!(
        cmp.contains("total cycles in shared programs: 25 -> 19 (-24.00%)\n"),
        "{cmp}"
    );
    assert!(cmp.contains("total instructions in shared programs: 14 -> 14 (+0.00%)\n"));
    assert!(cmp.contains("helped: 1\nHURT: 0\n"));
    // One affected program: no interval, and the verdict says so.
    assert!(cmp.contains("fewer than two affected programs"), "{cmp}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_compared_with_itself_has_no_change_in_any_metric() {
    let dir = scratch("self");
    let a = dir.join("a.csv");
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/examples");
    let out = eufuzz(&["stats", corpus, "--all-devices", "--out", path(&a)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(rows(&a).len() > 35, "every example on several devices");
    let cmp = text(&eufuzz(&["stats-compare", path(&a), path(&a)]).stdout);
    assert_eq!(
        cmp.matches("helped: 0\nHURT: 0\nNo change.\n").count(),
        8,
        "{cmp}"
    );
    let json = eufuzz(&["stats-compare", path(&a), path(&a), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["metrics"].as_array().unwrap().len(), 8);
    assert!(
        v["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["verdict"] == "no-change")
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unreadable_files_and_failed_compilations_are_rows() {
    let dir = scratch("rows");
    fs::write(
        dir.join("bad.eu"),
        "eu 1\ntarget skl\ndispatch 8\nSTART B0\n    mov(8\n",
    )
    .unwrap();
    // A 130-register attr: the thread payload does not fit the 128 GRFs of skl, which
    // lower_payload_inputs refuses.
    fs::write(
        dir.join("huge.eu"),
        "eu 1\ntarget skl\ndispatch 8\nattr attr0 130\nvgrf v0 4\n\nSTART B0\n    \
         mov(8) v0:F, attr0:F\n    \
         fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD { EOT }\nEND B0\n",
    )
    .unwrap();
    let csv = dir.join("run.csv");
    let out = eufuzz(&["stats", path(&dir), "--out", path(&csv)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let lines = fs::read_to_string(&csv).unwrap();
    let r: Vec<&str> = lines.lines().skip(1).collect();
    assert_eq!(r.len(), 2);
    assert!(
        r[0].contains("bad.eu,-,0,") && r[0].contains("bad.eu:5:10: expected `)`"),
        "{r:?}"
    );
    assert!(
        r[1].ends_with(
            ",pass lower_payload_inputs failed: the thread payload needs 131 GRFs; skl has 128"
        ),
        "{r:?}"
    );
    let err = text(&out.stderr);
    assert!(err.contains("bad.eu:5:"), "{err}");
    let bad = eufuzz(&[
        "stats",
        path(&dir),
        "--skip",
        "no_such_pass",
        "--out",
        path(&csv),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("no pass named `no_such_pass`"));
    let unknown = eufuzz(&[
        "stats-compare",
        path(&csv),
        path(&csv),
        "--metric",
        "instrs",
    ]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("unknown metric `instrs`"));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_shader_corpus_is_what_its_generator_command_makes() {
    // scripts/gen-shader-corpus.sh: corpus/shaders/realistic/sNNNN.eu is `eufuzz gen --seed
    // NNNN --knobs profile=realistic`, byte for byte (seeds whose program branches on an
    // undefined value are skipped, so some numbers are missing).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/shaders/realistic");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 1000, "{} programs", names.len());
    for name in names.iter().step_by(50) {
        let seed = name.trim_start_matches('s').trim_end_matches(".eu");
        let out = eufuzz(&["gen", "--seed", seed, "--knobs", "profile=realistic"]);
        assert!(out.status.success());
        assert_eq!(
            text(&out.stdout),
            fs::read_to_string(dir.join(name)).unwrap(),
            "{name}"
        );
    }
}
