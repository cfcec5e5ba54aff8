//! The pipeline's contract with its passes: a pass reports progress exactly when it
//! changed the program. The pass manager relies on it (a run without progress is not
//! validated again), so every pass is held to it on generated programs, on every device
//! the generator draws, with and without spilling.

use compiler::pass::CompileOptions;

use compiler::pipeline::compile;
use compiler::text::print_program;
use oracle::generator::from_seed;
use oracle::generator::knobs::Knobs;

fn check(seed: u64, opts: &CompileOptions) {
    let g = from_seed(seed, &Knobs::default());
    let c = compile(
        &g.program,
        &CompileOptions {
            keep_ir: true,
            ..opts.clone()
        },
    );
    let mut previous = g.program.clone();
    for r in &c.passes {
        let ir = r.ir.as_ref().expect("kept IR");
        assert_eq!(
            r.progress,
            *ir != previous,
            "seed {seed}: {} reported progress {} but {} the program:\n{}",
            r.label,
            r.progress,
            if *ir != previous { "changed" } else { "kept" },
            print_program(ir)
        );
        previous = ir.clone();
    }
}

#[test]
fn no_progress_means_no_change() {
    for seed in 0..150 {
        check(seed, &CompileOptions::default());
    }
    let spill = CompileOptions {
        spill_all: true,
        ..CompileOptions::default()
    };
    for seed in 150..200 {
        check(seed, &spill);
    }
}
