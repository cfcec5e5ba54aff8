//! Emulator throughput in channel-operations per second (instructions × channels they run
//! for), on SIMD16 ALU-heavy code and on control-flow-heavy code.
//!
//! Run: `cargo bench -p oracle --bench emulator`.

use compiler::inputs::Inputs;
use compiler::text::parse_program;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oracle::{RunConfig, run};
use std::hint::black_box;

/// The allocator `eufuzz` runs with (triage/src/main.rs), so the figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// SIMD16 float and integer arithmetic in a counted loop (the loop overhead is small).
fn alu_program() -> String {
    let mut body = String::new();
    for _ in 0..16 {
        body.push_str(
            "    mad(16) v1:F, v1:F, v2:F, attr0:F\n    mul(16) v2:F, v2:F, 0.999:F\n    add(16) v3:D, v3:D, attr1:D\n    xor(16) v4:UD, v4:UD, v3:UD\n    sel.ge(16) v5:F, v1:F, v2:F\n    mov(16) v6:D, v1:F\n    shl(16) v7:UD, v4:UD, 3:UD\n    add(16) v1:F, v1:F, -v5:F\n",
        );
    }
    format!(
        "eu 1\ntarget skl\ndispatch 16\nthreads 4\nattr attr0 2\nattr attr1 2\n{}\
         START B0\n    mov(16) v0:D, 0:D\n{}\n    mov(16) v1:F, 1.0:F\n    mov(16) v2:F, 0.5:F\n    mov(16) v3:D, 1:D\n    mov(16) v4:UD, 7:UD\nEND B0\n\
         START B1\n    do(16)\nEND B1\nSTART B2\n{body}    add(16) v0:D, v0:D, 1:D\n    cmp.l.f0.0(16) null:D, v0:D, 64:D\n    (+f0.0) while(16)\nEND B2\n\
         START B3\n    fb_write_logical(16) null:UD, v8:F, 4:UD, 0:UD {{ EOT }}\nEND B3\n",
        (0..9)
            .map(|i| format!("vgrf v{i} {}\n", if i == 8 { 8 } else { 2 }))
            .collect::<String>(),
        "    mov(16) v8:F, 0.0:F\n    mov(16) v8+64:F, 0.0:F\n    mov(16) v8+128:F, 0.0:F\n    mov(16) v8+192:F, 0.0:F"
    )
}

/// Divergent nested IF/ELSE and a loop whose channels break in different iterations.
fn control_flow_program() -> String {
    let inner = "        cmp.g.f0.1(16) null:D, v1:D, attr0:D\n        (+f0.1) if(16)\n            add(16) v2:D, v2:D, 3:D\n        else(16)\n            add(16) v2:D, v2:D, -1:D\n        endif(16)\n";
    format!(
        "eu 1\ntarget skl\ndispatch 16\nthreads 4\nattr attr0 2\nattr attr1 2\nvgrf v0 2\nvgrf v1 2\nvgrf v2 2\nvgrf v3 8\n\
         START B0\n    mov(16) v1:D, 0:D\n    mov(16) v2:D, 0:D\n    mov(16) v3:F, 0.0:F\n    mov(16) v3+64:F, 0.0:F\n    mov(16) v3+128:F, 0.0:F\n    mov(16) v3+192:F, 0.0:F\nEND B0\n\
         START B1\n    do(16)\nEND B1\nSTART B2\n    add(16) v1:D, v1:D, 1:D\n    cmp.ge.f0.0(16) null:D, v1:D, attr1:D\n    (+f0.0) break(16)\nEND B2\n\
         START B3\n{inner}{inner}    and.z.f0.0(16) null:UD, v1:UD, 1:UD\n    (+f0.0) if(16)\n        add(16) v2:D, v2:D, v1:D\n    endif(16)\n    while(16)\nEND B3\n\
         START B4\n    fb_write_logical(16) null:UD, v3:F, 4:UD, 0:UD {{ EOT }}\nEND B4\n"
    )
}

fn inputs(p: &compiler::Program) -> Inputs {
    let mut i = Inputs::default();
    for t in 0..p.threads {
        i.attrs.insert(
            (t, 0),
            (0..16).map(|c| compiler::Value::d(c * 3 % 17)).collect(),
        );
        i.attrs.insert(
            (t, 1),
            (0..16).map(|c| compiler::Value::d(40 + c * 4)).collect(),
        );
    }
    i
}

fn bench(c: &mut Criterion, name: &str, text: &str) {
    let mut p = parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    p.resplit();
    assert!(
        compiler::validate::validate(&p).is_empty(),
        "{:?}",
        compiler::validate::validate(&p)
    );
    let inputs = inputs(&p);
    let cfg = RunConfig {
        strict: false,
        fuel: 10_000_000,
        ..RunConfig::default()
    };
    let probe = run(&p, &inputs, &cfg);
    assert_eq!(probe.outcome, oracle::Outcome::Completed);
    let mut g = c.benchmark_group("emulator");
    g.throughput(Throughput::Elements(probe.channel_ops));
    g.bench_function(name, |b| {
        b.iter(|| run(black_box(&p), black_box(&inputs), &cfg))
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    bench(c, "simd16_alu", &alu_program());
    bench(c, "control_flow", &control_flow_program());
}

criterion_group!(emulator, benches);
criterion_main!(emulator);
