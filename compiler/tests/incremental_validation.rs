//! The pass manager validates incrementally (`validate::Incremental`): after each pass it
//! checks again only instructions that differ from the program validated before. On real
//! pass sequences — every corpus program through the pipeline, default and with every VGRF
//! spilled — and on hand-made edits that change an instruction's validity without changing
//! the instruction, it must give exactly what a full validation gives.

use compiler::pass::CompileOptions;
use compiler::pipeline::compile;
use compiler::validate::{Incremental, validate};
use compiler::{Inst, Program};

mod common;

fn programs() -> Vec<Program> {
    common::corpus_programs(&["examples", "regressions", "zoo"])
}

/// Feeds `sequence` to one incremental validator, comparing each result with `validate`.
fn same_as_full(sequence: &[Program]) {
    let mut incremental = Incremental::default();
    for p in sequence {
        assert_eq!(
            incremental.validate(p),
            validate(p),
            "{}",
            compiler::text::print_program(p)
        );
    }
}

#[test]
fn every_pass_of_every_corpus_program_validates_as_in_full() {
    let mut checked = 0;
    for p in programs() {
        for spill_all in [false, true] {
            let opts = CompileOptions {
                keep_ir: true,
                spill_all,
                ..Default::default()
            };
            let c = compile(&p, &opts);
            let mut sequence = vec![p.clone()];
            sequence.extend(c.passes.iter().filter_map(|r| r.ir.clone()));
            checked += sequence.len();
            same_as_full(&sequence);
        }
    }
    assert!(checked > 1000, "only {checked} programs checked");
}

fn parse(text: &str) -> Program {
    compiler::text::parse_program(text).unwrap()
}

const TWO_MOVES: &str = "eu 1\ntarget skl\ndispatch 8\nvgrf v0 1\nvgrf v1 1\n\nSTART B0\n    \
                         mov(8) v0:F, 1.0:F\n    mov(8) v1:F, v0:F\n    \
                         fb_write_logical(8) null:UD, v1:F, 1:UD, 0:UD { EOT }\nEND B0\n";

fn insts_mut(p: &mut Program) -> &mut Vec<Inst> {
    &mut p.blocks[0].insts
}

#[test]
fn an_unchanged_instruction_is_checked_again_when_its_vgrf_shrinks() {
    let valid = parse(TWO_MOVES);
    let mut shrunk = valid.clone();
    shrunk.vgrf_sizes[0] = 0;
    assert!(!validate(&shrunk).is_empty());
    same_as_full(&[valid.clone(), shrunk.clone(), valid]);
}

#[test]
fn appended_vgrfs_keep_clean_instructions_and_undeclared_ones_are_reported() {
    let valid = parse(TWO_MOVES);
    let mut undeclared = valid.clone();
    undeclared.vgrf_sizes.pop();
    let mut grown = valid.clone();
    grown.vgrf_sizes.push(2);
    same_as_full(&[undeclared.clone(), valid.clone(), grown, undeclared, valid]);
}

#[test]
fn header_changes_and_edits_in_the_middle_are_checked_again() {
    let valid = parse(TWO_MOVES);
    let mut narrower = valid.clone();
    narrower.dispatch_width = 16;
    let mut inserted = valid.clone();
    let mut wide = insts_mut(&mut inserted)[0].clone();
    wide.exec_size = 32;
    insts_mut(&mut inserted).insert(1, wide);
    let mut eot_early = valid.clone();
    insts_mut(&mut eot_early).swap(1, 2);
    same_as_full(&[
        valid.clone(),
        narrower,
        valid.clone(),
        inserted,
        valid.clone(),
        eot_early,
        valid,
    ]);
}
