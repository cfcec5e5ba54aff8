//! `eufuzz run --strict` on Align16 hardware IR: rejected on Gfx11+ with the named rule
//! (docs/hardware/eu-hardware.md §6.1 "Align16 mode doesn't exist on Gfx11+"), accepted on HSW.

use std::process::Command;

const PROGRAM: &str = "eu 1\ntarget TARGET\ndispatch 8\nthreads 1\n\nSTART B0\n    mov(8) g20<8;8,1>:F, 1.0:F\n    mov(8) g21.xz:F, g20<4>.zwxy:F { Align16 }\nEND B0\n";

fn run_strict(target: &str) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("eufuzz-align16-{target}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("align16.eu");
    std::fs::write(&path, PROGRAM.replace("TARGET", target)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_eufuzz"))
        .args(["run", "--strict"])
        .arg(&path)
        .output()
        .expect("run eufuzz");
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn strict_run_rejects_align16_on_gfx11_and_later_with_the_named_rule() {
    for target in ["icl", "tgl"] {
        let (code, text) = run_strict(target);
        assert_eq!(code, Some(1), "{target}: {text}");
        assert!(
            text.contains("[align16-gfx11]")
                && text.contains("Align16 mode doesn't exist on Gfx11+"),
            "{target}: {text}"
        );
    }
    let (code, text) = run_strict("hsw");
    assert_eq!(code, Some(0), "hsw: {text}");
    assert!(!text.contains("align16"), "hsw: {text}");
}
