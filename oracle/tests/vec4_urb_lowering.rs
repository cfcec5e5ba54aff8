//! `lower_logical_sends` on vec4 programs: each `urb_write_logical` becomes a header, one
//! payload register per slot (a dvec4 reordered into x,y and z,w slots) and a hardware
//! `urb_write` SEND, and the lowered program — still run in logical mode — writes exactly
//! the outputs the original does, for the hand-written examples and generated programs.

use compiler::inst::MsgKind;
use compiler::passes::lower_logical_sends;
use compiler::text::{parse_program, print_program};
use compiler::{Opcode, Program};
use oracle::generator::from_seed;
use oracle::generator::knobs::Knobs;
use oracle::{RunConfig, run};
use std::path::Path;

fn lowered(p: &Program) -> Program {
    let mut q = p.clone();
    let progress = lower_logical_sends::run(&mut q, &Default::default()).unwrap();
    assert!(progress, "{}", print_program(p));
    assert!(q.insts().all(|i| i.op != Opcode::UrbWriteLogical));
    assert!(q.insts().any(|i| {
        i.desc
            .is_some_and(|d| matches!(d.kind, MsgKind::UrbWrite { .. }))
    }));
    let v = compiler::validate::validate(&q);
    assert!(v.is_empty(), "{v:?}\n{}", print_program(&q));
    q
}

/// Same outputs, byte for byte and definedness for definedness.
fn same_outputs(p: &Program, what: &str) {
    let q = lowered(p);
    let inputs = p.inputs.as_ref().unwrap();
    let a = run(p, inputs, &RunConfig::default());
    let b = run(&q, inputs, &RunConfig::default());
    assert_eq!(a.outcome, b.outcome, "{what}");
    for (ta, tb) in a.threads.iter().zip(&b.threads) {
        assert!(!ta.urb_writes.is_empty(), "{what}");
        assert_eq!(
            ta.urb_writes,
            tb.urb_writes,
            "{what}\n{}",
            print_program(&q)
        );
        assert_eq!(ta.eot, tb.eot, "{what}");
    }
}

#[test]
fn lowered_urb_writes_of_the_examples_write_the_same_outputs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/examples");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("vec4-") {
            let p = parse_program(&std::fs::read_to_string(&path).unwrap()).unwrap();
            same_outputs(&p, &name);
            count += 1;
        }
    }
    assert!(count >= 8);
}

#[test]
fn lowered_urb_writes_of_generated_programs_write_the_same_outputs() {
    let knobs = Knobs::parse("stage=vs").unwrap();
    for seed in 0..100 {
        same_outputs(&from_seed(seed, &knobs).program, &format!("seed {seed}"));
    }
}

#[test]
fn a_dvec4_output_is_reordered_into_xy_and_zw_slots() {
    let p = parse_program(
        "eu 1\ntarget hsw\nstage vs\ndispatch 8\nthreads 1\nvgrf v0 2\n\nSTART B0\n    \
         urb_write_logical(8) null:UD, v0:DF, 3:UD, 1:UD { EOT }\nEND B0\n",
    )
    .unwrap();
    let q = lowered(&p);
    let text = print_program(&q);
    // Slot 3 = v0 bytes 0..16 (vertex 0's x,y) then 32..48 (vertex 1's x,y); slot 4 the z,w.
    for line in [
        "mov(4) v1+32:UD, v0:UD { NoMask }",
        "mov(4) v1+48:UD, v0+32:UD { NoMask }",
        "mov(4) v1+64:UD, v0+16:UD { NoMask }",
        "mov(4) v1+80:UD, v0+48:UD { NoMask }",
        "desc(urb_write slot=3 mlen=3 ex_mlen=0 rlen=0 header) { EOT }",
    ] {
        assert!(text.contains(line), "no `{line}` in\n{text}");
    }
}
