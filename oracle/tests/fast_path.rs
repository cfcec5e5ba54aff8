//! The fast-path kernels compute exactly what the per-channel reference implementation
//! computes: random instruction mixes (fast shapes and near misses, modifiers, saturate,
//! conditional modifiers, predicates, groups, undefined sources, word sources, raw moves of
//! every element size) on special-value inputs.

use compiler::text::parse_program;
use oracle::{RunConfig, run_inspect};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const OPS: [&str; 13] = [
    "mov", "add", "mul", "mad", "sel", "cmp", "and", "or", "xor", "not", "shl", "shr", "asr",
];

fn pick<'a>(rng: &mut ChaCha8Rng, xs: &[&'a str]) -> &'a str {
    xs[rng.random_range(0..xs.len())]
}

fn operand(rng: &mut ChaCha8Rng, ty: &str) -> String {
    let mods = pick(rng, &["", "", "", "-", "(abs)", "-(abs)"]);
    match rng.random_range(0..6u32) {
        0 => {
            let v = pick(
                rng,
                &[
                    "0",
                    "1",
                    "0x80000000",
                    "0xffffffff",
                    "0x7fffffff",
                    "0x3f800000",
                    "0x7fc00000",
                    "0xff800000",
                    "3",
                    "0x8000",
                ],
            );
            format!("{v}:{ty}")
        }
        1 => format!("{mods}attr{}:{ty}", rng.random_range(0..2u32)),
        _ => format!("{mods}v{}:{ty}", rng.random_range(0..6u32)),
    }
}

/// A raw MOV of any element size (what the fast path copies bytewise), 8 wide so that
/// 64-bit elements fit the registers, sometimes predicated or NoMask.
fn raw_move(rng: &mut ChaCha8Rng) -> String {
    let ty = pick(
        rng,
        &["B", "UB", "W", "UW", "HF", "F", "D", "DF", "Q", "UQ"],
    );
    let pred = match rng.random_range(0..4u32) {
        0 => "(+f0.0) ",
        1 => "(-f0.1) ",
        _ => "",
    };
    let controls = pick(rng, &["", " { NoMask }"]);
    let src = match rng.random_range(0..3u32) {
        0 => format!("attr{}:{ty}", rng.random_range(0..2u32)),
        _ => format!("v{}:{ty}", rng.random_range(0..6u32)),
    };
    let dst = rng.random_range(0..6u32);
    format!("{pred}mov(8) v{dst}:{ty}, {src}{controls}")
}

fn instruction(rng: &mut ChaCha8Rng) -> String {
    if rng.random_range(0..6u32) == 0 {
        return raw_move(rng);
    }
    let op = pick(rng, &OPS);
    let float = matches!(op, "mov" | "add" | "mul" | "mad" | "sel" | "cmp")
        && rng.random_range(0..2u32) == 0;
    let ty = |rng: &mut ChaCha8Rng| {
        if float {
            "F".to_string()
        } else {
            pick(rng, &["D", "UD", "D", "UD", "W", "UW"]).to_string()
        }
    };
    let dst_ty = if rng.random_range(0..(if op == "mov" { 2u32 } else { 8 })) == 0 {
        pick(rng, &["F", "D", "UD"]).to_string()
    } else {
        ty(rng)
    };
    let nsrc = match op {
        "mov" | "not" => 1,
        "mad" => 3,
        _ => 2,
    };
    let srcs: Vec<String> = (0..nsrc)
        .map(|_| {
            let t = ty(rng);
            operand(rng, &t)
        })
        .collect();
    let cmod = pick(rng, &["z", "nz", "g", "ge", "l", "le"]);
    let flag = pick(rng, &["f0.0", "f0.1"]);
    let mut head = op.to_string();
    let mut pred = String::new();
    if rng.random_range(0..4u32) == 0 && float {
        head.push_str(".sat");
    }
    match op {
        "sel" => head = format!("{head}.{cmod}"),
        "cmp" => head = format!("{head}.{cmod}.{flag}"),
        _ if rng.random_range(0..3u32) == 0 => head = format!("{head}.{cmod}.{flag}"),
        _ => {}
    }
    if op != "sel" && rng.random_range(0..4u32) == 0 {
        pred = format!("({}{flag}) ", pick(rng, &["+", "-"]));
    }
    let (exec, controls) = match rng.random_range(0..4u32) {
        0 => (8, " { 2Q }"),
        1 => (8, " { NoMask }"),
        2 => (16, " { NoMask }"),
        _ => (16, ""),
    };
    let dst = if op == "cmp" && rng.random_range(0..3u32) == 0 {
        format!("null:{dst_ty}")
    } else {
        format!("v{}:{dst_ty}", rng.random_range(0..6u32))
    };
    let offset = if controls.contains("2Q") { "+32" } else { "" };
    let dst = dst
        .replacen(':', &format!("{offset}:"), 1)
        .replace("null+32", "null");
    format!("{pred}{head}({exec}) {dst}, {}{controls}", srcs.join(", "))
}

fn program(rng: &mut ChaCha8Rng) -> String {
    let mut body = String::from(
        "    mov(16) v0:UD, attr0:UD\n    mov(16) v1:UD, attr1:UD\n    cmp.l.f0.0(16) null:D, attr0:D, attr1:D\n    cmp.g.f0.1(16) null:F, attr1:F, attr0:F\n",
    );
    for _ in 0..24 {
        body.push_str(&format!("    {}\n", instruction(rng)));
    }
    format!(
        "eu 1\ntarget skl\ndispatch 16\nthreads 2\nattr attr0 2\nattr attr1 2\nvgrf v0 2\nvgrf v1 2\nvgrf v2 2\nvgrf v3 2\nvgrf v4 2\nvgrf v5 2\nSTART B0\n{body}END B0\n"
    )
}

#[test]
fn fast_path_matches_the_reference_implementation() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xfa57);
    for case in 0..600 {
        let text = program(&mut rng);
        let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let inputs = oracle::inputs::generate(&p, case);
        let fast = run_inspect(&p, &inputs, &RunConfig::default());
        let slow = run_inspect(
            &p,
            &inputs,
            &RunConfig {
                fast_path: false,
                ..RunConfig::default()
            },
        );
        assert_eq!(fast.0, slow.0, "case {case}\n{text}");
        for (t, (a, b)) in fast.1.iter().zip(&slow.1).enumerate() {
            // Defined bytes must agree exactly, with their flags (the float-NaN mark
            // included); undefined ones may hold anything.
            let defined = |(bytes, def): (&[u8], &[u8])| {
                bytes
                    .iter()
                    .zip(def)
                    .map(|(&b, &d)| if d != 0 { Some((b, d)) } else { None })
                    .collect::<Vec<_>>()
            };
            for v in 0..6 {
                assert_eq!(
                    defined(a.vgrf(v)),
                    defined(b.vgrf(v)),
                    "case {case} thread {t} v{v}\n{text}"
                );
            }
            assert_eq!(
                (a.flags & a.flags_def, a.flags_def),
                (b.flags & b.flags_def, b.flags_def),
                "case {case} flags\n{text}"
            );
        }
    }
}

/// Register-indirect operands resolve against `a0` when they run, so the fast path must not
/// take them (it resolves addresses once per program): both paths agree on every GRF byte,
/// and the indirect results are really there (docs/hardware/eu-hardware.md §1.4).
#[test]
fn indirect_operands_agree_with_the_reference() {
    let text = "eu 1\ntarget skl\ndispatch 16\nthreads 2\nattr attr0 2\nattr attr1 2\nSTART B0\n\
        mov(1) a0.0<0;1,1>:UW, 64:UW { NoMask }\n\
        mov(1) a0.1<0;1,1>:UW, 96:UW { NoMask }\n\
        add(8) g20<8;8,1>:D, g[a0.0]<8;8,1>:D, 5:D { NoMask }\n\
        mov(8) g21<8;8,1>:UD, g[a0.0 + 4]<Vx1;4,1>:UD\n\
        add(8) g[a0.1 + 576]<1>:F, g[a0.0]<8;8,1>:F, g2<8;8,1>:F\n\
        mov(1) a0.0<0;1,1>:UW, 32:UW { NoMask }\n\
        add(8) g23<8;8,1>:D, g[a0.0]<8;8,1>:D, 5:D { NoMask }\n\
        END B0\n";
    let p = parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    for case in 0..8 {
        let inputs = oracle::inputs::generate(&p, case);
        let fast = run_inspect(&p, &inputs, &RunConfig::default());
        let slow = run_inspect(
            &p,
            &inputs,
            &RunConfig {
                fast_path: false,
                ..RunConfig::default()
            },
        );
        assert_eq!(fast.0, slow.0, "case {case}");
        for (a, b) in fast.1.iter().zip(&slow.1) {
            let (ab, ad) = a.grf(0, 24);
            let (bb, bd) = b.grf(0, 24);
            assert_eq!(ad, bd, "case {case}: defined bytes differ");
            for ((x, y), d) in ab.iter().zip(bb).zip(ad) {
                assert!(*d == 0 || x == y, "case {case}: a defined byte differs");
            }
            // g20 = g2 + 5 and g23 = g1 + 5 were computed through a0: each is defined
            // exactly where the register it read is.
            assert_eq!(ad[20 * 32..21 * 32], ad[2 * 32..3 * 32], "case {case}");
            assert_eq!(ad[23 * 32..24 * 32], ad[32..2 * 32], "case {case}");
        }
    }
}
