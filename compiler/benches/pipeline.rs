//! Compile time of the default pipeline (every lowering pass, the validator after each,
//! register allocation) on straight-line SIMD16 programs of 50 and 200 instructions, on
//! Skylake and on Ice Lake (which also splits 32×32-bit multiplies), and with every VGRF
//! spilled.
//!
//! Run: `cargo bench -p compiler --bench pipeline`.

use compiler::pass::CompileOptions;

use compiler::pipeline::{Outcome, compile};
use compiler::text::parse_program;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// The allocator `eufuzz` runs with (triage/src/main.rs), so the figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A program of exactly `n` instructions: arithmetic, conversions, compares and selects over
/// earlier values (picked by a fixed LCG, so values stay live across the program), ending
/// with a SIMD16 framebuffer write.
fn program_text(target: &str, n: usize) -> String {
    const VALUES: usize = 40;
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut pick = |bound: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % bound
    };
    let mut body = vec![
        "    mov(16) v0:F, attr0:F".to_string(),
        "    mov(16) v1:D, attr1:D".to_string(),
    ];
    let mut written = 2;
    let mut count = 2;
    while count < n - 5 {
        let dst = written % VALUES;
        let (a, b) = (pick(written.min(VALUES)), pick(written.min(VALUES)));
        let line = match pick(7) {
            0 => format!("    add(16) v{dst}:F, v{a}:F, v{b}:F"),
            1 => format!("    mul(16) v{dst}:F, v{a}:F, attr0:F"),
            2 => format!("    mad(16) v{dst}:F, v{a}:F, v{b}:F, 0.5:F"),
            3 => format!("    mul(16) v{dst}:D, v{a}:D, v{b}:D"),
            4 => format!("    mov(16) v{dst}:D, v{a}:F"),
            5 => format!("    add(16) v{dst}:D, v{a}:D, 70000:D"),
            _ => format!(
                "    cmp.l.f0.0(16) null:F, v{a}:F, v{b}:F\n    (+f0.0) sel(16) v{dst}:F, v{a}:F, v{b}:F"
            ),
        };
        count += line.lines().count();
        body.push(line);
        written += 1;
    }
    let body = body.join("\n");
    let vgrfs: String = (0..VALUES).map(|v| format!("vgrf v{v} 2\n")).collect();
    let text = format!(
        "eu 1\ntarget {target}\ndispatch 16\nattr attr0 2\nattr attr1 2\n{vgrfs}vgrf v{VALUES} 8\n\
         START B0\n{body}\n    mov(16) v{VALUES}:F, v0:F\n    mov(16) v{VALUES}+64:F, v1:F\n    \
         mov(16) v{VALUES}+128:F, v2:F\n    mov(16) v{VALUES}+192:F, v3:F\n    \
         fb_write_logical(16) null:UD, v{VALUES}:F, 4:UD, 0:UD {{ EOT }}\nEND B0\n"
    );
    let lines = text.lines().filter(|l| l.starts_with("    ")).count();
    assert!(
        lines.abs_diff(n) <= 1,
        "{lines} instructions instead of {n}"
    );
    text
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("pipeline");
    for (target, n, spill_all) in [
        ("skl", 50, false),
        ("skl", 200, false),
        ("icl", 50, false),
        ("icl", 200, false),
        ("skl", 200, true),
    ] {
        let text = program_text(target, n);
        let mut p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        p.resplit();
        let opts = CompileOptions {
            spill_all,
            ..CompileOptions::default()
        };
        let check = compile(&p, &opts);
        assert_eq!(check.outcome, Outcome::Compiled, "{text}");
        let name = if spill_all {
            format!("{target}-spill-all")
        } else {
            target.to_string()
        };
        group.bench_with_input(BenchmarkId::new(name, n), &p, |b, p| {
            b.iter(|| compile(black_box(p), &opts))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
