//! `eufuzz equiv` and `eufuzz check` as a user runs them: exit codes for programs of
//! different shapes and for undecided checks, and the wrong rewrites in corpus/equiv/ that
//! the default number of generated input sets must find.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn eufuzz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eufuzz"))
        .args(args)
        .output()
        .expect("run eufuzz")
}

fn text_of(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eufuzz-equiv-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, contents: &str) -> String {
    let p = dir.join(name);
    fs::write(&p, contents).unwrap();
    p.display().to_string()
}

fn corpus(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/equiv")
        .join(name)
        .display()
        .to_string()
}

/// A SIMD16 program writing `attr0 + u0` to render target 0, with the given header lines.
fn shaped(target: &str, dispatch: u32, threads: u32, uniforms: u32, attrs: &[u32]) -> String {
    let mut text = format!(
        "eu 1\ntarget {target}\ndispatch {dispatch}\nthreads {threads}\nuniforms {uniforms}\n"
    );
    for (k, size) in attrs.iter().enumerate() {
        text += &format!("attr attr{k} {size}\n");
    }
    text += &format!(
        "vgrf v0 8\nSTART B0\n    add({dispatch}) v0:F, attr0:F, u0:F\n    \
         fb_write_logical({dispatch}) null:UD, v0:F, 1:UD, 0:UD {{ EOT }}\nEND B0\n"
    );
    text
}

#[test]
fn equiv_refuses_programs_that_take_different_inputs() {
    let dir = scratch("shapes");
    let a = write(&dir, "a.eu", &shaped("skl", 16, 1, 1, &[2]));
    let same = write(&dir, "same.eu", &shaped("skl", 16, 1, 1, &[2]));
    let out = eufuzz(&["equiv", &a, &same, "--inputs", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text_of(&out));

    let cases = [
        (
            shaped("bdw", 16, 1, 1, &[2]),
            "target: A has skl, B has bdw",
        ),
        (
            shaped("skl", 8, 1, 1, &[2]),
            "dispatch width: A has 16, B has 8",
        ),
        (shaped("skl", 16, 2, 1, &[2]), "threads: A has 1, B has 2"),
        (shaped("skl", 16, 1, 2, &[2]), "uniforms: A has 1, B has 2"),
        (
            shaped("skl", 16, 1, 1, &[2, 2]),
            "attrs: A has 1 (attr0 2), B has 2 (attr0 2, attr1 2)",
        ),
        (
            shaped("skl", 16, 1, 1, &[4]),
            "attrs: A has 1 (attr0 2), B has 1 (attr0 4)",
        ),
    ];
    for (k, (b_text, why)) in cases.iter().enumerate() {
        let b = write(&dir, &format!("b{k}.eu"), b_text);
        let out = eufuzz(&["equiv", &a, &b]);
        assert_eq!(out.status.code(), Some(4), "{why}: {}", text_of(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("take different inputs"), "{stderr}");
        assert!(stderr.contains(why), "{stderr}");
    }
    let b = write(&dir, "all.eu", &shaped("bdw", 8, 2, 2, &[2]));
    let stderr = String::from_utf8_lossy(&eufuzz(&["equiv", &a, &b]).stderr).into_owned();
    for field in ["target", "dispatch width", "threads", "uniforms"] {
        assert!(stderr.contains(&format!("  {field}: A has")), "{stderr}");
    }
}

/// Branches on a VGRF nothing wrote: every input set is discarded.
const UNDEFINED_BRANCH: &str = "eu 1\ntarget skl\ndispatch 16\nthreads 1\nvgrf v0 2\nvgrf v1 8\n\
START B0\n    cmp.l.f0.0(16) null:F, v0:F, 0.5:F\n    (+f0.0) if(16)\nEND B0\n\
START B1\n    mov(16) v1:F, 1.0:F\nEND B1\n\
START B2\n    endif(16)\n    mov(16) v1:F, 2.0:F\n    fb_write_logical(16) null:UD, v1:F, 1:UD, 0:UD { EOT }\nEND B2\n";

#[test]
fn undecided_has_its_own_exit_code_in_equiv_and_check() {
    let dir = scratch("undecided");
    let a = write(&dir, "a.eu", UNDEFINED_BRANCH);
    let out = eufuzz(&["equiv", &a, &a]);
    assert_eq!(out.status.code(), Some(3), "{}", text_of(&out));
    assert!(text_of(&out).contains("UNDECIDED"));
    let out = eufuzz(&["check", &a, "--inputs", "3"]);
    assert_eq!(out.status.code(), Some(3), "{}", text_of(&out));
    assert!(text_of(&out).contains("1 discarded"), "{}", text_of(&out));
    for help in [&["--help"][..], &["equiv", "--help"], &["check", "--help"]] {
        let help_text = text_of(&eufuzz(help)).to_lowercase();
        assert!(
            help_text.contains("3 undecided") || help_text.contains("3 (undecided)"),
            "{help:?}: {help_text}"
        );
    }
}

/// The wrong rewrites of corpus/equiv/ (docs/hardware/brw-backend.md §10.3 #13, §11 #18 and a dropped
/// saturate after a sample) are found with the default number of generated input sets.
#[test]
fn corpus_equiv_pairs_are_not_equivalent() {
    for pair in [
        "subtract-merge-inf",
        "subtract-merge-inf-uniform",
        "subtract-merge-int",
        "sample-saturate",
    ] {
        let (a, b) = (
            corpus(&format!("{pair}-a.eu")),
            corpus(&format!("{pair}-b.eu")),
        );
        let out = eufuzz(&["equiv", &a, &b]);
        assert_eq!(out.status.code(), Some(1), "{pair}: {}", text_of(&out));
        assert!(text_of(&out).contains("NOT EQUIVALENT"), "{pair}");
        let same = eufuzz(&["equiv", &a, &a]);
        assert_eq!(same.status.code(), Some(0), "{pair}: {}", text_of(&same));
    }
}

/// A dropped saturate after a sample shows on a float surface and not on a unorm one.
#[test]
fn dropped_saturate_shows_on_float_surfaces_only() {
    let dir = scratch("saturate");
    let coords = "    thread 0 attr0 0.03:F 0.09:F 0.15:F 0.22:F 0.28:F 0.34:F 0.4:F 0.47:F 0.53:F 0.59:F 0.65:F 0.72:F 0.78:F 0.84:F 0.9:F 0.97:F\n    thread 0 attr1 0.5:F*8 0.25:F*8\n";
    let b = corpus("sample-saturate-b.eu");
    let source = fs::read_to_string(corpus("sample-saturate-a.eu")).unwrap();
    for (format, code) in [("unorm", 0), ("float", 1)] {
        let text = format!("{source}\nINPUTS\n    texture 0 {format}\n{coords}END INPUTS\n");
        let a = write(&dir, &format!("a-{format}.eu"), &text);
        let out = eufuzz(&["equiv", &a, &b, "--inputs", "0"]);
        assert_eq!(out.status.code(), Some(code), "{format}: {}", text_of(&out));
    }
}
