//! The scheduler's dependency graph leaves out edges other paths imply (memory ordered
//! through the last store, a fixed GRF through its last whole write); on real programs —
//! the corpus examples and regressions, before and after register allocation, default and
//! with every VGRF spilled — every graph it builds must imply the graph with every edge,
//! which is what keeps every schedule the same.

use compiler::analysis::schedule_deps::{Rules, build, build_every_edge};
use compiler::pass::CompileOptions;
use compiler::passes::schedule::{WINDOW, latency};
use compiler::payload::PayloadLayout;
use compiler::pipeline::compile;
use compiler::{Inst, Program};

mod common;

fn programs() -> Vec<Program> {
    common::corpus_programs(&["examples", "regressions"])
}

/// Checks every window of every block of `p`; returns how many edges were left out.
fn check(p: &Program) -> usize {
    let floor = (PayloadLayout::new(p).regs as u32 * 32) as u64;
    let mut left_out = 0;
    for block in &p.blocks {
        for window in block.insts.chunks(WINDOW) {
            let lat: Vec<u32> = window.iter().map(latency).collect();
            let reduced = build(window, &lat, Rules::CORRECT, floor);
            let full = build_every_edge(window, &lat, Rules::CORRECT, floor);
            assert!(reduced.implies(&full), "{}", print(window));
            left_out += (0..window.len())
                .map(|b| full.preds(b).len() - reduced.preds(b).len())
                .sum::<usize>();
        }
    }
    left_out
}

fn print(insts: &[Inst]) -> String {
    insts
        .iter()
        .map(compiler::text::print_inst)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_graph_implies_the_one_with_every_edge() {
    let programs = programs();
    assert!(programs.len() > 100, "{} programs", programs.len());
    let mut left_out = 0;
    for p in &programs {
        left_out += check(p);
        for spill_all in [false, true] {
            let opts = CompileOptions {
                spill_all,
                ..CompileOptions::default()
            };
            left_out += check(&compile(p, &opts).program);
        }
    }
    // The reduction happens: spilled programs rebuild their message headers in one GRF.
    assert!(left_out > 1000, "{left_out} edges left out");
}
