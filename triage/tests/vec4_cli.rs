//! The vec4-stage examples (`corpus/examples/vec4-*.eu`) through the CLI: `eufuzz run`
//! shows their outputs per slot and vertex, and `eufuzz check --all-devices` skips every
//! device the stage is not modelled on with the stated reason, and on Gen7/7.5 compiles
//! them with the vec4 pipeline and agrees.

use compiler::device::ALL_DEVICES;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn eufuzz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eufuzz"))
        .args(args)
        .output()
        .expect("run eufuzz")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn vec4_examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("vec4-"))
        })
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{} vec4 examples", files.len());
    files
}

#[test]
fn run_shows_the_outputs_per_slot_and_vertex() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/examples/vec4-df-add-native-swizzles-hsw.eu");
    let out = eufuzz(&["run", file.to_str().unwrap()]);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    assert!(
        shown.contains("thread 0: 8 output slot write(s)"),
        "{shown}"
    );
    // Slot 6 holds x, y of attr0 + attr1.yxwz: (21, 12) for vertex 0, (65, 56) for vertex 1.
    let slot6 = shown.split("output slot 6").nth(1).unwrap();
    assert!(slot6.contains("as DF: 21.0, 12.0"), "{shown}");
    assert!(slot6.contains("as DF: 65.0, 56.0"), "{shown}");
}

#[test]
fn check_skips_devices_without_the_stage_and_agrees_on_the_others() {
    for file in vec4_examples() {
        let path = file.to_str().unwrap();
        let p = compiler::text::parse_program(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let out = eufuzz(&["check", "--all-devices", path]);
        let shown = text(&out);
        for device in ALL_DEVICES {
            let name = device.name();
            let line = shown
                .lines()
                .find(|l| l.starts_with(&format!("{path}: ")) && l.contains(&format!(" {name}")))
                .unwrap_or_else(|| panic!("{path}: no line for {name}:\n{shown}"));
            match p.stage.unsupported_on(device) {
                Some(why) => assert_eq!(line, format!("{path}: skipped on {name}: {why}")),
                None => assert!(line.starts_with(&format!("{path}: ok on {name}")), "{line}"),
            }
        }
        let skipped = ALL_DEVICES
            .iter()
            .filter(|d| p.stage.unsupported_on(**d).is_some())
            .count();
        assert_eq!(skipped, 9, "ivb, byt and hsw run the vec4 stage");
        assert!(
            !shown.contains("disagree") || shown.contains(" 0 disagree"),
            "{shown}"
        );
    }
}
