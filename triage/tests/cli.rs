//! The `eufuzz` binary as a user runs it: exit codes, messages, files left on disk.

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

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eufuzz-cli-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, contents: &str) -> String {
    let p = dir.join(name);
    fs::write(&p, contents).unwrap();
    p.display().to_string()
}

const VALID: &str = "eu 1\n# a comment that must survive formatting\ntarget skl\ndispatch 16\nthreads 1\nvgrf v0 8\n\nSTART B0\n    mov(16) v0:F, 1.0:F\n    fb_write_logical(16) null:UD, v0:F, 4:UD, 0:UD { EOT }\nEND B0\n";

#[test]
fn validate_reports_rule_with_file_line_and_exit_1() {
    let dir = scratch("validate");
    let bad = write(
        &dir,
        "wide.eu",
        "eu 1\ntarget skl\ndispatch 8\nvgrf v0 2\nSTART B0\n    mov(16) v0:F, 1.0:F\nEND B0\n",
    );
    let out = eufuzz(&["validate", &bad]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!("{bad}:6: ip 0: [nomask-wider-than-dispatch]")),
        "{stdout}"
    );
    assert!(stdout.contains("    mov(16) v0:F, 1.0:F"), "{stdout}");

    let good = write(&dir, "good.eu", VALID);
    let out = eufuzz(&["validate", &good]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    let out = eufuzz(&["validate", "--json", &bad]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["files"][0]["violations"][0]["rule"],
        "nomask-wider-than-dispatch"
    );
    assert_eq!(json["files"][0]["violations"][0]["line"], 6);
}

#[test]
fn malformed_input_is_a_located_error_with_exit_2() {
    let dir = scratch("malformed");
    let cases = [
        (
            "truncated.eu",
            "eu 1\ntarget skl\ndispatch 8\nSTART B0\n    nop(1)\n",
            ":6:1: file ends inside block B0",
        ),
        (
            "opcode.eu",
            "eu 1\ntarget skl\ndispatch 8\nSTART B0\n    frob(8)\nEND B0\n",
            ":5:5: unknown opcode `frob`",
        ),
        (
            "region.eu",
            "eu 1\ntarget skl\ndispatch 8\nvgrf v0 1\nSTART B0\n    mov(8) v0:F, g1<8;8>:F\nEND B0\n",
            ":6:24: expected `,` in a region",
        ),
        (
            "type.eu",
            "eu 1\ntarget skl\ndispatch 8\nvgrf v0 1\nSTART B0\n    mov(8) v0:X, 1:D\nEND B0\n",
            ":6:15: unknown type `X`",
        ),
        (
            "block.eu",
            "eu 1\ntarget skl\ndispatch 8\nSTART B1\n    nop(1)\nEND B1\n",
            ":4:7: expected block B0",
        ),
    ];
    for (name, contents, needle) in cases {
        let path = write(&dir, name, contents);
        for cmd in ["validate", "fmt"] {
            let out = eufuzz(&[cmd, &path]);
            assert_eq!(out.status.code(), Some(2), "{cmd} {name}");
            let stderr = text(&out.stderr);
            assert!(
                stderr.contains(&format!("{path}{needle}")),
                "{cmd} {name}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
        assert_eq!(
            fs::read_to_string(dir.join(name)).unwrap(),
            contents,
            "fmt must not touch a file it cannot parse"
        );
    }
    let missing = eufuzz(&["validate", &dir.join("nope.eu").display().to_string()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("cannot read"));
}

#[test]
fn fmt_check_shows_diff_and_fmt_rewrites_keeping_comments() {
    let dir = scratch("fmt");
    let messy = VALID.replace(
        "    mov(16) v0:F, 1.0:F",
        "  mov(16)   v0:F,1.0:F   # set red",
    );
    let path = write(&dir, "messy.eu", &messy);
    let out = eufuzz(&["fmt", "--check", &path]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("not in canonical form"), "{stdout}");
    assert!(
        stdout.contains("+    mov(16) v0:F, 1.0:F  # set red"),
        "{stdout}"
    );
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        messy,
        "--check writes nothing"
    );

    let out = eufuzz(&["fmt", &path]);
    assert_eq!(out.status.code(), Some(0));
    let formatted = fs::read_to_string(&path).unwrap();
    assert!(formatted.contains("# a comment that must survive formatting"));
    assert!(formatted.contains("    mov(16) v0:F, 1.0:F  # set red"));
    assert_eq!(eufuzz(&["fmt", "--check", &path]).status.code(), Some(0));
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "no temporary files left: {names:?}");
}

#[test]
fn help_lists_commands() {
    let out = eufuzz(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("fmt") && stdout.contains("validate"),
        "{stdout}"
    );
    assert_eq!(eufuzz(&["frobnicate"]).status.code(), Some(2));
}

fn corpus_examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/examples");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eu"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_example_runs_on_its_own_inputs() {
    let files = corpus_examples();
    assert!(
        files.len() >= 20,
        "corpus/examples has {} programs",
        files.len()
    );
    for f in files {
        let text = fs::read_to_string(&f).unwrap();
        assert!(
            text.contains("\nINPUTS\n"),
            "{} carries no inputs",
            f.display()
        );
        let path = f.display().to_string();
        let out = eufuzz(&["run", "--json", &path]);
        assert_eq!(out.status.code(), Some(0), "{path}: {}", text_of(&out));
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r["outcome"]["kind"], "completed", "{path}");
        let undefined_branch = r["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["kind"] == "undefined-branch");
        assert!(!undefined_branch, "{path} branches on undefined values");
        let writes: usize = r["threads"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                t["rt_writes"].as_array().unwrap().len() + t["urb_writes"].as_array().unwrap().len()
            })
            .sum();
        let buffers = r["buffers"].as_object().unwrap().len();
        assert!(writes + buffers > 0, "{path} makes nothing observable");
    }
}

#[test]
fn every_example_compiles_and_agrees_on_every_device_it_supports_at_every_level() {
    let files: Vec<PathBuf> = corpus_examples();
    let paths: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    // The default pipeline, with forced spilling, -O0, and against the -O0 baseline.
    let variants: [&[&str]; 4] = [&[], &["--spill-all"], &["-O0"], &["--baseline", "o0"]];
    for variant in variants {
        let mut args = vec!["check", "--all-devices"];
        args.extend(variant);
        args.extend(paths.iter().map(String::as_str));
        let out = eufuzz(&args);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{}", text_of(&out));
        let summary = stdout.lines().last().unwrap();
        let agree: usize = summary
            .split(", ")
            .find_map(|part| part.strip_suffix(" agree"))
            .and_then(|n| n.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no agree count in `{summary}`"));
        // Every example is valid for at least its own target, most for several devices.
        assert!(
            agree >= files.len() * 2,
            "only {agree} agreeing checks: {summary}"
        );
        assert!(summary.contains(" 0 disagree"), "{summary}");
        for f in &paths {
            assert!(
                stdout.contains(&format!("{f}: ok")),
                "{f} was not compiled for any device"
            );
        }
    }
}

#[test]
fn check_reports_an_unreadable_file_and_goes_on() {
    let dir = scratch("check-unreadable");
    let bad = write(&dir, "bad.eu", "eu 1\ntarget skl\ndispatch x\n");
    let good = corpus_examples()[0].display().to_string();
    let out = eufuzz(&["check", &bad, &good]);
    assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
    assert!(text(&out.stderr).contains("bad.eu:3:"), "{}", text_of(&out));
    assert!(text(&out.stdout).contains(&format!("{good}: ok")));
    assert!(text(&out.stdout).contains("1 unreadable file(s)"));
}

#[test]
fn check_calls_a_program_invalid_for_its_own_target_invalid_but_skips_other_devices() {
    let dir = scratch("check-invalid");
    let program = "eu 1\ntarget icl\ndispatch 8\nattr attr0 1\nvgrf v0 2\nSTART B0\n    \
                   mov(8) v0:DF, attr0:F\nEND B0\n";
    let on_icl = write(&dir, "df-icl.eu", program);
    let out = eufuzz(&["check", &on_icl]);
    assert_eq!(out.status.code(), Some(1), "{}", text_of(&out));
    assert!(
        text(&out.stdout).contains("INVALID: breaks no-64bit-float on its own target icl"),
        "{}",
        text_of(&out)
    );
    let out = eufuzz(&["check", "--device", "tgl", &on_icl]);
    assert_eq!(out.status.code(), Some(0), "{}", text_of(&out));
    assert!(
        text(&out.stdout).contains("skipped: not a valid program for tgl (no-64bit-float)"),
        "{}",
        text_of(&out)
    );
    let out = eufuzz(&["check", "--device", "skl", &on_icl]);
    assert_eq!(out.status.code(), Some(0), "{}", text_of(&out));
    assert!(text(&out.stdout).contains("ok"), "{}", text_of(&out));
}

fn text_of(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

#[test]
fn run_prints_channels_and_strict_mode_faults_on_virtual_registers() {
    let dir = scratch("run");
    let path = write(&dir, "p.eu", VALID);
    let out = eufuzz(&["run", &path]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("render target 0 (4 components, EOT)"),
        "{stdout}"
    );
    assert!(stdout.contains("ch7   3f800000 (1.0)"), "{stdout}");
    let out = eufuzz(&["run", "--strict", &path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("emulator fault in thread 0 at ip 0: v0 in hardware code"),
        "{}",
        text(&out.stdout)
    );
}

/// Inputs that do not fit the program are malformed input for every command that reads
/// the file: `file:line:col` and exit 2, not a silent "undecided".
#[test]
fn inputs_that_do_not_fit_the_program_are_located_errors() {
    let dir = scratch("misfit-inputs");
    let program = VALID.replace("threads 1\n", "threads 1\nattr attr0 2\n");
    let cases = [
        (
            "    thread 0 attr3 1.0:F\n",
            ":15:14: attr3 is not declared",
        ),
        (
            "    thread 4 attr0 1.0:F\n",
            ":15:12: thread 4 does not exist",
        ),
        (
            "    thread 0 attr0 0:D*24\n",
            ":15:14: 24 values (96 bytes) given for attr0",
        ),
        (
            "    uniforms 1:D\n",
            ":15:5: uniforms given, but the program declares none",
        ),
        (
            "    thread 0 dispatch_mask 0x10000\n",
            ":15:28: dispatch mask 0x10000 has channels beyond the dispatch width 16",
        ),
    ];
    for (k, (inputs, expected)) in cases.iter().enumerate() {
        let path = write(
            &dir,
            &format!("misfit-{k}.eu"),
            &format!("{program}\nINPUTS\n{inputs}END INPUTS\n"),
        );
        for command in ["check", "run"] {
            let out = eufuzz(&[command, &path]);
            assert_eq!(out.status.code(), Some(2), "{command} {inputs}");
            let shown = text_of(&out);
            assert!(
                shown.contains(&format!("{path}{expected}")),
                "{command} {inputs}: {shown}"
            );
        }
    }
}

/// `run` executes only programs the validator accepts, unless forced.
#[test]
fn run_refuses_a_program_the_validator_rejects_unless_forced() {
    let dir = scratch("run-invalid");
    let path = write(
        &dir,
        "wide.eu",
        &VALID.replace("dispatch 16", "dispatch 64"),
    );
    let out = eufuzz(&["run", &path]);
    assert_eq!(out.status.code(), Some(2));
    let shown = text_of(&out);
    assert!(shown.contains("validator rule dispatch-width"), "{shown}");
    assert!(shown.contains("--force"), "{shown}");
    let forced = eufuzz(&["run", "--force", &path]);
    assert_ne!(forced.status.code(), Some(2), "{}", text_of(&forced));
}

#[test]
fn save_inputs_keeps_a_seed_with_the_program() {
    let dir = scratch("save");
    let path = write(
        &dir,
        "p.eu",
        &VALID.replace("threads 1\nvgrf v0 8", "threads 1\nattr attr0 2\nvgrf v0 8"),
    );
    let seeded = eufuzz(&["run", "--json", "--seed", "9", &path]);
    let out = eufuzz(&["run", "--seed", "9", "--save-inputs", &path]);
    assert_eq!(out.status.code(), Some(0), "{}", text_of(&out));
    let saved = fs::read_to_string(&path).unwrap();
    assert!(saved.contains("INPUTS\n    thread 0"), "{saved}");
    assert!(saved.contains("# a comment that must survive formatting"));
    let replay = eufuzz(&["run", "--json", &path]);
    assert_eq!(
        text(&replay.stdout),
        text(&seeded.stdout),
        "the saved inputs replay the seed"
    );
}

#[cfg(not(feature = "zoo"))]
#[test]
fn default_builds_have_no_zoo() {
    let out = eufuzz(&["compile", "--zoo", "simd-split-eot-first", "x.eu"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("needs a build with the zoo feature"),
        "{}",
        text(&out.stderr)
    );
}

/// Every reproducer a campaign found (and was fixed) keeps passing.
#[test]
fn regression_reproducers_pass() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/regressions");
    // Known open bugs (`# xfail:`) are the gate's business (`eufuzz gate corpus`); every
    // fixed one must pass with extra generated inputs too.
    let mut files: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eu"))
        .filter(|p| !fs::read_to_string(p).unwrap().contains("\n# xfail: "))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut args = vec!["check", "--inputs", "4"];
    args.extend(files.iter().map(String::as_str));
    let out = eufuzz(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text_of(&out));
    assert!(text(&out.stdout).contains(" 0 disagree"));
}

#[test]
fn gen_is_deterministic_valid_and_checks() {
    let dir = scratch("gen");
    let one = eufuzz(&[
        "gen",
        "--seed",
        "17",
        "--devices",
        "skl",
        "--dispatch",
        "16",
    ]);
    let two = eufuzz(&[
        "gen",
        "--seed",
        "17",
        "--devices",
        "skl",
        "--dispatch",
        "16",
    ]);
    assert_eq!(one.status.code(), Some(0), "{}", text_of(&one));
    assert_eq!(one.stdout, two.stdout);
    let text = text(&one.stdout);
    assert!(text.contains("# generated: eufuzz gen --seed 17"));
    assert!(text.contains("target skl\ndispatch 16\n"));
    let file = write(&dir, "g.eu", &text);
    assert_eq!(eufuzz(&["validate", &file]).status.code(), Some(0));
    let check = eufuzz(&["check", &file]);
    assert!(
        text_of(&check).contains("g.eu: ok on skl") || text_of(&check).contains("discarded"),
        "{}",
        text_of(&check)
    );
    let bad = eufuzz(&["gen", "--seed", "1", "--features", "warp-drive"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text_of(&bad).contains("warp-drive"));
}

#[test]
fn import_decodes_bytes_into_a_reproducer() {
    let dir = scratch("import");
    let bytes: Vec<u8> = (0..2000u32).map(|i| (i * 7919 % 251) as u8).collect();
    let path = dir.join("crash.bytes");
    fs::write(&path, &bytes).unwrap();
    let p = path.display().to_string();
    let one = eufuzz(&["import", &p]);
    assert_eq!(one.status.code(), Some(0), "{}", text_of(&one));
    assert_eq!(one.stdout, eufuzz(&["import", &p]).stdout);
    let file = write(&dir, "repro.eu", &text(&one.stdout));
    assert_eq!(eufuzz(&["validate", &file]).status.code(), Some(0));
    assert_eq!(eufuzz(&["import", "/no/such/file"]).status.code(), Some(2));
}

#[test]
fn equiv_accepts_the_compiled_program_and_rejects_a_changed_one() {
    let dir = scratch("equiv");
    let a = corpus_examples()
        .into_iter()
        .find(|f| f.display().to_string().contains("texture-sample-modulate"))
        .unwrap()
        .display()
        .to_string();
    let compiled = eufuzz(&["compile", &a]);
    assert_eq!(compiled.status.code(), Some(0), "{}", text_of(&compiled));
    let b = write(&dir, "b.eu", &text(&compiled.stdout));
    let same = eufuzz(&["equiv", &a, &b, "--inputs", "4"]);
    assert_eq!(same.status.code(), Some(0), "{}", text_of(&same));
    assert!(text(&same.stdout).contains("equivalent on"));
    let source = fs::read_to_string(&a).unwrap();
    let changed = source.replacen("mul(16)", "add(16)", 1);
    assert_ne!(changed, source, "the example has a mul(16) to change");
    let c = write(&dir, "c.eu", &changed);
    let differs = eufuzz(&["equiv", &a, &c, "--inputs", "4"]);
    assert_eq!(differs.status.code(), Some(1), "{}", text_of(&differs));
    assert!(text(&differs.stdout).contains("NOT EQUIVALENT"));
    assert!(text(&differs.stdout).contains("distinguishing inputs:\nINPUTS"));
}

/// A program whose one output is the integer `value` (an immediate move into a D register).
fn integer_output(value: i32) -> String {
    format!(
        "eu 1\ntarget skl\ndispatch 8\nthreads 1\nvgrf v0 1\nSTART B0\n    mov(8) v0:D, {value}:D\n    \
         fb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD {{ EOT }}\nEND B0\n"
    )
}

#[test]
fn equiv_tells_integer_outputs_apart_even_when_they_read_as_nans() {
    // -1 and -2 are both NaN bit patterns as F, but no float operation made them.
    let dir = scratch("equiv-int-nan");
    let a = write(&dir, "a.eu", &integer_output(-1));
    let b = write(&dir, "b.eu", &integer_output(-2));
    let out = eufuzz(&["equiv", &a, &b, "--inputs", "2"]);
    assert_eq!(out.status.code(), Some(1), "{}", text_of(&out));
    assert!(text(&out.stdout).contains("NOT EQUIVALENT"));
}

#[test]
fn campaign_writes_statistics() {
    let dir = scratch("campaign");
    let out = dir.join("out").display().to_string();
    let stats = dir.join("stats.json").display().to_string();
    let run = eufuzz(&[
        "campaign",
        "--time",
        "3",
        "--seed",
        "5",
        "--out",
        &out,
        "--stats-json",
        &stats,
    ]);
    assert!(
        matches!(run.status.code(), Some(0 | 1)),
        "{}",
        text_of(&run)
    );
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&stats).unwrap()).unwrap();
    for key in [
        "execs",
        "execs_per_sec",
        "discarded",
        "outcomes",
        "opcode_hits",
        "pass_fires",
        "failures",
    ] {
        assert!(json.get(key).is_some(), "no {key} in {json}");
    }
    assert!(json["execs"].as_u64().unwrap() > 10);
    assert!(json["pass_fires"]["allocate_registers"].as_u64().unwrap() > 0);
    // Ran its full time: a full night, with the deadline a report charts up to.
    assert_eq!(json["interrupted"], false, "{json}");
    assert_eq!(json["time_limit"], 3);
    for f in json["failures"].as_array().unwrap() {
        // (A failure of a full bucket is only counted: no file.)
        let Some(file) = f["file"].as_str() else {
            assert!(f["file"].is_null(), "{f}");
            continue;
        };
        assert!(
            fs::read_to_string(file)
                .unwrap()
                .contains("# eufuzz reproducer")
        );
        assert!(Path::new(&file.replace(".eu", ".bytes")).exists());
    }
}

/// Without the Mesa build, `--backend mesa` stops with exit code 2 and names the script
/// that builds it (and checks nothing).
#[test]
fn mesa_backend_without_the_build_says_how_to_get_it() {
    let dir = scratch("mesa-missing");
    let file = write(&dir, "ok.eu", VALID);
    for args in [
        vec!["check", file.as_str(), "--backend", "mesa:opt_cse"],
        vec![
            "campaign",
            "--backend",
            "mesa",
            "--time",
            "1",
            "--out",
            dir.to_str().unwrap(),
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_eufuzz"))
            .args(&args)
            .env("EUFUZZ_MESA_SHIM", dir.join("no-such-shim"))
            .output()
            .expect("run eufuzz");
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains("scripts/mesa-build.sh"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let bad = eufuzz(&["check", file.as_str(), "--backend", "llvm"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("expected mesa or mesa:PASS"));
}

/// A Mesa campaign's reproducer says `# backend: mesa:PASS`: `check` judges it through
/// Mesa without the flag (here: stops, as the build is missing), `--backend eufuzz`
/// judges it with eufuzz's pipeline, and the gate skips it.
#[test]
fn a_reproducers_backend_line_chooses_the_compiler_it_is_checked_against() {
    let dir = scratch("mesa-line");
    let file = write(
        &dir,
        "finding.eu",
        &VALID.replace("eu 1\n", "eu 1\n# backend: mesa:opt_cse\n"),
    );
    let through_mesa = Command::new(env!("CARGO_BIN_EXE_eufuzz"))
        .args(["check", file.as_str()])
        .env("EUFUZZ_MESA_SHIM", dir.join("no-such-shim"))
        .output()
        .expect("run eufuzz");
    assert_eq!(through_mesa.status.code(), Some(2));
    assert!(text(&through_mesa.stderr).contains("scripts/mesa-build.sh"));
    let own = eufuzz(&["check", file.as_str(), "--backend", "eufuzz"]);
    assert_eq!(own.status.code(), Some(0), "{}", text(&own.stderr));
    assert!(
        text(&own.stdout).contains("1 check(s): 1 agree"),
        "{}",
        text(&own.stdout)
    );
    let gate = eufuzz(&["gate", dir.to_str().unwrap()]);
    assert_eq!(gate.status.code(), Some(0), "{}", text(&gate.stdout));
    assert!(
        text(&gate.stdout).contains("a finding of --backend mesa:opt_cse"),
        "{}",
        text(&gate.stdout)
    );
}
