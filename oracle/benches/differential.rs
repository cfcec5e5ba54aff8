//! Differential-check throughput on the default generator settings, and where the time
//! goes: generating a program (with inputs), compiling it, running the reference and the
//! compiled program on the emulator (decoded once per program, as the check does, and run
//! on each input set). One iteration handles one program of a fixed set of 256 seeds, so
//! the figures are per program (checks per second = 1 / time).
//!
//! Run: `cargo bench -p oracle --bench differential`.

use compiler::pipeline::compile;
use criterion::{Criterion, criterion_group, criterion_main};
use oracle::differential::{FUEL_BASE, FUEL_GROWTH, check, input_sets, reference_config};
use oracle::generator::from_seed;
use oracle::generator::knobs::Knobs;
use oracle::{Prepared, RunConfig};
use std::hint::black_box;

/// The allocator `eufuzz` runs with (triage/src/main.rs), so the figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const PROGRAMS: u64 = 256;

fn bench(c: &mut Criterion) {
    let knobs = Knobs::default();
    let programs: Vec<_> = (0..PROGRAMS)
        .map(|s| from_seed(s, &knobs).program)
        .collect();
    let sets: Vec<_> = programs.iter().map(|p| input_sets(p, 2, 0)).collect();
    let compiled: Vec<_> = programs
        .iter()
        .map(|p| compile(p, &Default::default()).program)
        .collect();
    let mut group = c.benchmark_group("differential");
    let mut k = 0usize;
    let mut next = || {
        k = (k + 1) % PROGRAMS as usize;
        k
    };
    group.bench_function("generate", |b| {
        b.iter(|| from_seed(black_box(next() as u64), &knobs))
    });
    group.bench_function("compile", |b| {
        b.iter(|| compile(black_box(&programs[next()]), &Default::default()))
    });
    group.bench_function("emulate_reference", |b| {
        b.iter(|| {
            let i = next();
            let prepared = Prepared::new(&programs[i], &reference_config());
            for s in &sets[i] {
                black_box(prepared.run(s));
            }
        })
    });
    group.bench_function("emulate_compiled", |b| {
        b.iter(|| {
            let i = next();
            // The fuel of a compiled program whose reference took 100,000 steps.
            let config = RunConfig {
                strict: true,
                fuel: 100_000 * FUEL_GROWTH + FUEL_BASE,
                ..RunConfig::default()
            };
            let prepared = Prepared::new(&compiled[i], &config);
            for s in &sets[i] {
                black_box(prepared.run(s));
            }
        })
    });
    group.bench_function("check", |b| {
        b.iter(|| {
            let i = next();
            let g = from_seed(i as u64, &knobs);
            let sets = input_sets(&g.program, 2, i as u64);
            black_box(check(&g.program, &sets, &Default::default()))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
