//! `validate` checks each distinct instruction once and gives its repeats the same
//! violations at their own `ip` (lowered code repeats instructions a lot): the result must
//! be what checking every instruction on its own (`validate_inst`) gives, on hand-made
//! repeats and on every corpus program, before and after compiling it.

use compiler::pass::CompileOptions;
use compiler::pipeline::compile;
use compiler::text::parse_program;
use compiler::validate::{Rule, Violation, validate, validate_inst};
use compiler::{Inst, Program};

/// Per instruction, the violations `validate` reports against those `validate_inst` gives
/// (both ordered by rule, as `validate` orders them); whole-program and control-flow rules
/// are `validate`'s alone.
fn assert_same_per_instruction(p: &Program) {
    let all = validate(p);
    let insts: Vec<&Inst> = p.insts().collect();
    for (ip, inst) in insts.iter().enumerate() {
        let whole = |v: &&Violation| matches!(v.rule, Rule::CfUnmatched | Rule::HaltTarget);
        let got: Vec<&Violation> = all
            .iter()
            .filter(|v| v.ip == Some(ip))
            .filter(|v| !whole(v))
            .collect();
        let mut want = validate_inst(p, ip, inst);
        want.sort_by_key(|v| v.rule);
        assert_eq!(got, want.iter().collect::<Vec<_>>(), "ip {ip}");
    }
}

#[test]
fn repeats_get_their_own_ip_and_only_the_last_instruction_may_end_the_thread() {
    let text = "eu 1\ntarget skl\ndispatch 8\nvgrf v0 1\n\nSTART B0\n    \
                mov(16) v0:F, 1.0:F\n    mov(16) v0:F, 1.0:F\n    \
                fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD { EOT }\n    \
                fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD { EOT }\nEND B0\n";
    let mut p = parse_program(text).unwrap();
    p.resplit();
    let vs = validate(&p);
    let at = |ip| -> Vec<Rule> {
        vs.iter()
            .filter(|v| v.ip == Some(ip))
            .map(|v| v.rule)
            .collect()
    };
    assert!(!at(0).is_empty());
    assert_eq!(at(0), at(1));
    assert!(at(2).contains(&Rule::EotNotLast), "{vs:?}");
    assert!(!at(3).contains(&Rule::EotNotLast), "{vs:?}");
    assert_same_per_instruction(&p);
}

#[test]
fn every_corpus_program_validates_as_instruction_by_instruction() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus");
    let mut checked = 0;
    for dir in ["examples", "regressions", "zoo"] {
        for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            let f = entry.unwrap().path();
            if f.extension().is_none_or(|x| x != "eu") {
                continue;
            }
            let Ok(p) = parse_program(&std::fs::read_to_string(&f).unwrap()) else {
                continue;
            };
            assert_same_per_instruction(&p);
            for spill_all in [false, true] {
                let opts = CompileOptions {
                    spill_all,
                    ..CompileOptions::default()
                };
                assert_same_per_instruction(&compile(&p, &opts).program);
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} programs");
}
