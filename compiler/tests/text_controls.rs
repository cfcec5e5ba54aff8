//! Instruction controls and execution sizes the strict rules judge, in the `.eu` text form:
//! they parse to the IR fields, print back identically, and malformed ones are reported
//! with their line and column.

use compiler::text::{parse_program, print_program};

fn program(body: &str) -> String {
    format!("eu 1\ntarget skl\ndispatch 8\nthreads 1\n\nSTART B0\n    {body}\nEND B0\n")
}

#[test]
fn dependency_controls_round_trip() {
    let text = program("mov(8) g10<8;8,1>:F, g2<8;8,1>:F { NoMask NoDDClr NoDDChk }");
    let p = parse_program(&text).unwrap();
    let inst = p.insts().next().unwrap();
    assert!(inst.no_dd_clear && inst.no_dd_check && inst.nomask);
    assert_eq!(print_program(&p), text);
    let one = program("mov(8) g10<8;8,1>:F, g2<8;8,1>:F { NoDDChk }");
    let q = parse_program(&one).unwrap();
    let inst = q.insts().next().unwrap();
    assert!(!inst.no_dd_clear && inst.no_dd_check);
    assert_eq!(print_program(&q), one);
}

#[test]
fn wide_exec_sizes_parse_for_the_strict_rule() {
    // ExecSize 64/128 have no encoding (docs/hardware/eu-hardware.md §1.1); the text form keeps them so
    // that the strict checker, not the parser, names the broken rule (invalid-exec-size).
    for n in [64, 128] {
        let text = program(&format!(
            "mov({n}) g10<8;8,1>:UB, g2<8;8,1>:UB {{ NoMask }}"
        ));
        let p = parse_program(&text).unwrap();
        assert_eq!(p.insts().next().unwrap().exec_size, n);
        assert_eq!(print_program(&p), text);
    }
}

#[test]
fn unknown_control_is_located() {
    let err = parse_program(&program("mov(8) g10<8;8,1>:F, g2<8;8,1>:F { NoDDClear }"))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("7:40:"), "{err}");
    assert!(
        err.contains("NoDDClr"),
        "the message lists the controls: {err}"
    );
}
