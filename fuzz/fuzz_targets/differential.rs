//! The differential check under libFuzzer: bytes → generated program and inputs → the
//! optimising pipeline against the reference on the emulator. Any failing verdict (mismatch,
//! compiler assertion, hardware restriction, panic, hang, emulator fault) is a crash; its
//! artifact replays with `eufuzz import ARTIFACT > repro.eu && eufuzz check repro.eu`.
//! Knobs come from `EUFUZZ_KNOBS`.

#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use oracle::differential::{check, input_sets};
use oracle::generator::generate;
use oracle::generator::knobs::Knobs;
use std::sync::OnceLock;

fn knobs() -> &'static Knobs {
    static KNOBS: OnceLock<Knobs> = OnceLock::new();
    KNOBS.get_or_init(|| Knobs::from_env().unwrap_or_else(|e| panic!("{e}")))
}

fuzz_target!(|data: &[u8]| {
    let g = generate(&mut Unstructured::new(data), knobs());
    let sets = input_sets(&g.program, 0, 0);
    let checked = check(&g.program, &sets, &Default::default());
    assert!(
        !checked.verdict.is_failure(),
        "{:?}\n{}",
        checked.verdict,
        compiler::text::print_program(&g.program)
    );
});
