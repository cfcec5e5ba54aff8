//! The pipeline under libFuzzer: no generated program makes a pass panic, refuse it, or
//! leave IR that breaks a validator rule.

#![no_main]

use arbitrary::Unstructured;
use compiler::pipeline::{Outcome, compile};
use libfuzzer_sys::fuzz_target;
use oracle::generator::generate;
use oracle::generator::knobs::Knobs;

fuzz_target!(|data: &[u8]| {
    let g = generate(&mut Unstructured::new(data), &Knobs::default());
    let c = compile(&g.program, &Default::default());
    assert_eq!(c.outcome, Outcome::Compiled, "{}", compiler::text::print_program(&g.program));
    if let Some((pass, violations)) = c.first_violation() {
        panic!("after {pass}: {violations:?}");
    }
});
