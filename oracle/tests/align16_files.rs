//! The hand-written Align16 hardware-IR programs in `tests/data/align16/`: each runs in
//! strict mode on its own inputs without a diagnostic, and its render-target write equals
//! the `# expected-rt COMPONENT: v0 .. v7` lines its header derives from the spec. (They
//! live here, not in corpus/examples, because `eufuzz check --all-devices` compiles its
//! input through the Align1 pipeline and runs it on Gfx11+, where Align16 does not exist.)

use compiler::text::parse_program;
use oracle::{Outcome, RunConfig, run};
use std::path::Path;

/// (component index, expected floats of channels 0..8) from the header.
fn expectations(text: &str) -> Vec<(usize, Vec<f32>)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("# expected-rt "))
        .map(|l| {
            let (comp, values) = l.split_once(':').expect("`COMPONENT: values`");
            let k = "rgba".find(comp.trim()).expect("component r, g, b or a");
            let values = values
                .split_whitespace()
                .map(|v| v.parse().expect("a float"))
                .collect();
            (k, values)
        })
        .collect()
}

#[test]
fn align16_programs_run_strict_and_write_the_expected_colours() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/align16");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/data/align16") {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.display();
        let p = parse_program(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let inputs = p.inputs.clone().expect("the file's INPUTS");
        let cfg = RunConfig {
            strict: true,
            fuel: 1000,
            ..RunConfig::default()
        };
        let r = run(&p, &inputs, &cfg);
        assert_eq!(r.outcome, Outcome::Completed, "{name}");
        assert!(r.diagnostics.is_empty(), "{name}: {:?}", r.diagnostics);
        let write = &r.threads[0].rt_writes[0];
        let expected = expectations(&text);
        assert_eq!(expected.len(), 4, "{name}: one line per component");
        for (k, values) in expected {
            let got: Vec<Option<f32>> = write
                .channels
                .iter()
                .map(|ch| (ch.defined[k] == 0xf).then(|| f32::from_bits(ch.values[k])))
                .collect();
            let want: Vec<Option<f32>> = values.into_iter().map(Some).collect();
            assert_eq!(got, want, "{name}: component {}", &"rgba"[k..=k]);
        }
        count += 1;
    }
    assert!(count >= 2, "only {count} files");
}

#[test]
fn the_scalar_pipeline_refuses_align16_input_with_a_clear_error() {
    use compiler::pass::CompileOptions;
    use compiler::pipeline::{Outcome as CompileOutcome, compile};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/align16");
    let text = std::fs::read_to_string(dir.join("vec4-swizzle-writemask-hsw.eu")).unwrap();
    let p = parse_program(&text).unwrap();
    let c = compile(&p, &CompileOptions::default());
    match c.outcome {
        CompileOutcome::Failed {
            pass,
            code,
            message,
        } => {
            assert_eq!(pass, "input");
            assert_eq!(code, "align16-input");
            assert!(
                message.starts_with("ip 0 is an Align16 instruction"),
                "{message}"
            );
        }
        other => panic!("compiled Align16 input: {other:?}"),
    }
    assert!(c.passes.is_empty());
}
