//! The emulator under libFuzzer in strict mode: arbitrary programs (any registers, regions,
//! types, control flow — valid or not) and compiled generated programs never crash it;
//! they complete, fault, or run out of fuel. Programs too big to hold in memory are skipped.

#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use compiler::Program;
use compiler::inputs::Inputs;
use libfuzzer_sys::fuzz_target;
use oracle::{RunConfig, run};

fn small(p: &Program) -> bool {
    p.threads <= 8
        && p.vgrf_sizes.iter().map(|&s| s as u64).sum::<u64>() <= 4096
        && p.attr_sizes.iter().map(|&s| s as u64).sum::<u64>() <= 512
        && p.uniforms <= 1024
        && p.scratch_size <= 1 << 20
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let cfg = RunConfig {
        strict: true,
        fuel: 20_000,
        ..RunConfig::default()
    };
    if u.arbitrary::<bool>().unwrap_or(false) {
        if let (Ok(p), Ok(inputs)) = (Program::arbitrary(&mut u), Inputs::arbitrary(&mut u))
            && small(&p)
        {
            let _ = run(&p, &inputs, &cfg);
        }
    } else {
        let g = oracle::generator::generate(&mut u, &Default::default());
        let c = compiler::pipeline::compile(&g.program, &Default::default());
        let inputs = g.program.inputs.clone().unwrap_or_default();
        let _ = run(&c.program, &inputs, &cfg);
    }
});
