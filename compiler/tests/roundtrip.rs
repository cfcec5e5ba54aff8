//! `parse(print(p)) == p` for every program the IR can hold: arbitrary programs decoded
//! from random bytes (valid or not; their inputs cut to fit the declarations), printed and
//! parsed back, and validated without panics.

use arbitrary::{Arbitrary, Unstructured};
use compiler::Program;
use compiler::text::{parse_program, print_program};
use proptest::prelude::*;

fn round_trip(bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut u = Unstructured::new(bytes);
    let Ok(p) = Program::arbitrary(&mut u) else {
        return Ok(());
    };
    let mut p = p;
    compiler::inputs::fit_inputs(&mut p);
    let text = print_program(&p);
    let parsed = parse_program(&text)
        .map_err(|e| TestCaseError::fail(format!("{e}\n--- printed ---\n{text}")))?;
    prop_assert_eq!(&parsed, &p, "printed:\n{}", text);
    prop_assert_eq!(print_program(&parsed), text);
    // The validator and CFG are total too: any program gets violations, never a panic.
    let _ = compiler::validate::validate(&p);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn arbitrary_programs_round_trip(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        round_trip(&bytes)?;
    }
}

/// Every example in the corpus round-trips, comments included, and is already canonical.
#[test]
fn corpus_examples_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/examples");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus/examples") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_none_or(|e| e != "eu") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let doc = compiler::text::parse_document(&text)
            .unwrap_or_else(|e| panic!("{}:{e}", path.display()));
        let printed = compiler::text::print_document(&doc);
        assert_eq!(printed, text, "{} is not canonical", path.display());
        let again = parse_program(&printed).expect("reparse");
        assert_eq!(again, doc.program, "{}", path.display());
        count += 1;
    }
    assert!(count >= 20, "only {count} examples");
}
