//! Test harness: run a few instructions with per-channel inputs and read registers back.

#![allow(dead_code)]

pub mod opt_pass;
pub mod vec4_pass;

use compiler::inputs::{Inputs, Value};
use compiler::text::parse_program;
use compiler::types::Type;
use oracle::{Registers, RunConfig, RunResult, run_inspect};

pub fn f(x: f32) -> Value {
    Value::f(x)
}
pub fn d(x: i32) -> Value {
    Value::d(x)
}
pub fn ud(x: u32) -> Value {
    Value::ud(x)
}
pub fn w(x: i16) -> Value {
    Value::new(Type::W, x as u16 as u64)
}
pub fn uw(x: u16) -> Value {
    Value::new(Type::UW, x as u64)
}
pub fn hf(x: f32) -> Value {
    Value::new(Type::HF, half::f16::from_f32(x).to_bits() as u64)
}
pub fn df(x: f64) -> Value {
    Value::new(Type::DF, x.to_bits())
}
pub fn q(x: i64) -> Value {
    Value::new(Type::Q, x as u64)
}
pub fn uq(x: u64) -> Value {
    Value::new(Type::UQ, x)
}

/// A program on `target` (8 channels) with attr0..attr2 (64 bytes each) and v0..v3
/// (128 bytes each), `body` as its instructions.
pub fn program_text(target: &str, dispatch: u32, body: &str) -> String {
    format!(
        "eu 1\ntarget {target}\ndispatch {dispatch}\nthreads 1\nattr attr0 4\nattr attr1 4\nattr attr2 4\n\
         vgrf v0 4\nvgrf v1 4\nvgrf v2 4\nvgrf v3 4\nSTART B0\n{body}\nEND B0\n"
    )
}

/// Runs `body` with `srcs[k]` as attr k of thread 0.
pub fn run_body(
    target: &str,
    dispatch: u32,
    body: &str,
    srcs: &[&[Value]],
    strict: bool,
) -> (RunResult, Registers) {
    let text = program_text(target, dispatch, body);
    let mut p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    p.resplit();
    let mut inputs = Inputs::default();
    for (k, values) in srcs.iter().enumerate() {
        inputs.attrs.insert((0, k as u32), values.to_vec());
    }
    let cfg = RunConfig {
        strict,
        fuel: 100_000,
        ..RunConfig::default()
    };
    let (r, mut regs) = run_inspect(&p, &inputs, &cfg);
    assert!(regs.len() == 1, "no thread ran: {:?}", r.outcome);
    (r, regs.remove(0))
}

/// `n` elements of `ty` from the start of `v<nr>`: `Some(bits)` if defined.
pub fn elems(regs: &Registers, nr: usize, ty: Type, n: usize) -> Vec<Option<u64>> {
    let (bytes, def) = regs.vgrf(nr);
    elems_of(bytes, def, ty, n)
}

/// `n` elements of `ty` from bytes with defined flags: `Some(bits)` if defined.
pub fn elems_of(bytes: &[u8], def: &[u8], ty: Type, n: usize) -> Vec<Option<u64>> {
    let size = ty.size() as usize;
    (0..n)
        .map(|i| {
            let at = i * size;
            let mut buf = [0u8; 8];
            buf[..size].copy_from_slice(&bytes[at..at + size]);
            def[at..at + size]
                .iter()
                .all(|&x| x != 0)
                .then(|| u64::from_le_bytes(buf))
        })
        .collect()
}

/// Runs one instruction writing `v0` and returns its first `n` elements of `ty`.
pub fn alu(target: &str, inst: &str, srcs: &[&[Value]], ty: Type, n: usize) -> Vec<Option<u64>> {
    let (r, regs) = run_body(target, 8, inst, srcs, false);
    assert_eq!(r.outcome, oracle::Outcome::Completed, "{inst}");
    elems(&regs, 0, ty, n)
}

/// Expected defined values as bits.
pub fn bits(values: &[Value]) -> Vec<Option<u64>> {
    values.iter().map(|v| Some(v.bits & mask(v.ty))).collect()
}

fn mask(t: Type) -> u64 {
    match t.size() {
        8 => u64::MAX,
        n => (1u64 << (8 * n)) - 1,
    }
}
