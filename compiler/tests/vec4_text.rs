//! The vec4 stage in the text form (corpus/README.md, "The vec4 stage"): the `stage vs`
//! header line, the `urb_write_logical` output and its hardware `urb_write` descriptor;
//! exact round trips, fragment files printing as before, and clear errors.

use compiler::inst::MsgKind;
use compiler::text::{parse_program, print_program};
use compiler::{Opcode, Stage};

const VS: &str = "eu 1
target hsw
stage vs
dispatch 8
threads 1
uniforms 8
attr attr0 2
vgrf v0 1
vgrf v1 2

START B0
    add(8) v1.xyw:DF, attr0.zwxy:DF, u4.y:DF { Align16 }
    mov(4) v0+16.x:F, u0.wzyx:F { Align16 }
    urb_write_logical(8) null:UD, v1:DF, 0:UD, 1:UD { EOT }
END B0
";

#[test]
fn a_vertex_program_round_trips_exactly() {
    let p = parse_program(VS).unwrap();
    assert_eq!(p.stage, Stage::Vertex);
    assert_eq!(p.insts().last().unwrap().op, Opcode::UrbWriteLogical);
    assert_eq!(print_program(&p), VS);
}

#[test]
fn fragment_programs_print_no_stage_line() {
    let fs = VS.replace("stage vs\n", "");
    let p = parse_program(&fs).unwrap();
    assert_eq!(p.stage, Stage::Fragment);
    assert!(!print_program(&p).contains("stage"));
    // An explicit `stage fs` is the default, printed as nothing.
    let explicit = parse_program(&VS.replace("stage vs", "stage fs")).unwrap();
    assert_eq!(explicit, p);
}

#[test]
fn the_hardware_urb_write_descriptor_round_trips() {
    let text = VS.replace(
        "    urb_write_logical(8) null:UD, v1:DF, 0:UD, 1:UD { EOT }\n",
        "    send(8) null:UD, g10<8;8,1>:UD, null:UD desc(urb_write slot=3 mlen=3 ex_mlen=0 rlen=0 header) { EOT }\n",
    );
    let p = parse_program(&text).unwrap();
    let desc = p.insts().last().unwrap().desc.unwrap();
    assert_eq!(desc.kind, MsgKind::UrbWrite { slot: 3 });
    assert_eq!((desc.mlen, desc.header), (3, true));
    assert_eq!(print_program(&p), text);
}

#[test]
fn bad_stage_lines_are_clear_errors() {
    let e = parse_program(&VS.replace("stage vs", "stage gs"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown stage `gs`: expected fs or vs"), "{e}");
    let e = parse_program(&VS.replace("stage vs\n", "stage vs\nstage vs\n"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("`stage` given twice"), "{e}");
}
