//! The hand-written vec4-stage examples (`corpus/examples/vec4-*.eu`): each runs in logical
//! mode on its own inputs, and its outputs are exactly the `# expected-output` lines its
//! header derives by hand from docs/hardware/fp64-align16.md — every (thread, slot, vertex) listed, with
//! the listed values, and nothing else written.
//!
//! Line format: `# expected-output thread T slot S vertex V TYPE: a b c d`, TYPE `df` (a
//! dvec4 over slots S and S+1), `f` (four floats) or `d` (four int32s in slot S).

use compiler::text::parse_program;
use oracle::emu::result::{ChannelColor, RunResult};
use oracle::{Outcome, RunConfig, run};
use std::collections::BTreeMap;
use std::path::Path;

/// (thread, slot, vertex) -> the four dwords expected there.
type Expected = BTreeMap<(u32, u8, u32), [u32; 4]>;

fn dwords_of(ty: &str, values: &[&str]) -> Vec<u32> {
    let num = |v: &str| -> f64 { v.parse().unwrap_or_else(|_| panic!("a number: {v}")) };
    match ty {
        "df" => values
            .iter()
            .flat_map(|v| {
                let b = num(v).to_bits();
                [b as u32, (b >> 32) as u32]
            })
            .collect(),
        "f" => values.iter().map(|v| (num(v) as f32).to_bits()).collect(),
        "d" => values
            .iter()
            .map(|v| v.parse::<i32>().expect("an int32") as u32)
            .collect(),
        other => panic!("unknown type `{other}`"),
    }
}

fn expectations(text: &str) -> Expected {
    let mut out = Expected::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("# expected-output ") else {
            continue;
        };
        let (head, values) = rest.split_once(':').expect("`...: values`");
        let w: Vec<&str> = head.split_whitespace().collect();
        let [_, t, _, s, _, v, ty] = w[..] else {
            panic!("`thread T slot S vertex V TYPE`: {line}")
        };
        let (t, s, v): (u32, u8, u32) =
            (t.parse().unwrap(), s.parse().unwrap(), v.parse().unwrap());
        let values: Vec<&str> = values.split_whitespace().collect();
        assert_eq!(values.len(), 4, "{line}");
        let dwords = dwords_of(ty, &values);
        for (k, chunk) in dwords.chunks(4).enumerate() {
            let slot = s + k as u8;
            let d = [chunk[0], chunk[1], chunk[2], chunk[3]];
            assert!(
                out.insert((t, slot, v), d).is_none(),
                "{line} repeats a slot"
            );
        }
    }
    out
}

fn written(r: &RunResult) -> Expected {
    let mut out = Expected::new();
    for (t, thread) in r.threads.iter().enumerate() {
        for w in &thread.urb_writes {
            for ChannelColor {
                channel,
                values,
                defined,
                ..
            } in &w.vertices
            {
                assert!(defined.iter().all(|&d| d == 0xf), "undefined output");
                let d = [values[0], values[1], values[2], values[3]];
                out.insert((t as u32, w.slot, *channel), d);
            }
        }
    }
    out
}

#[test]
fn vec4_examples_write_the_outputs_their_headers_derive() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/examples");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus/examples") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("vec4-") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let p = parse_program(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(p.stage.is_vec4(), "{name}");
        let r = run(&p, p.inputs.as_ref().expect(&name), &RunConfig::default());
        assert_eq!(r.outcome, Outcome::Completed, "{name}");
        assert!(r.diagnostics.is_empty(), "{name}: {:?}", r.diagnostics);
        let want = expectations(&text);
        assert!(!want.is_empty(), "{name} has no expected-output lines");
        assert_eq!(written(&r), want, "{name}");
        count += 1;
    }
    assert!(count >= 8, "only {count} vec4 examples");
}
