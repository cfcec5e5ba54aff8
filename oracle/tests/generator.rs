//! The generator: valid programs, deterministic decoding, knobs respected.

use compiler::text::print_program;
use oracle::generator::knobs::Knobs;
use oracle::generator::{from_seed, generate};

#[test]
fn generated_programs_are_valid() {
    let knobs = Knobs::default();
    let mut bad = vec![];
    for seed in 0..400 {
        let g = from_seed(seed, &knobs);
        let v = compiler::validate::validate(&g.program);
        if !v.is_empty() {
            bad.push(format!(
                "seed {seed}: {:?}\n{}",
                v.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
                print_program(&g.program)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} invalid programs; first:\n{}",
        bad.len(),
        bad[0]
    );
}

#[test]
fn same_bytes_same_program() {
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let a = generate(&mut arbitrary::Unstructured::new(&bytes), &Knobs::default());
    let b = generate(&mut arbitrary::Unstructured::new(&bytes), &Knobs::default());
    assert_eq!(a.program, b.program);
    assert_eq!(
        from_seed(9, &Knobs::default()).program,
        from_seed(9, &Knobs::default()).program
    );
}
