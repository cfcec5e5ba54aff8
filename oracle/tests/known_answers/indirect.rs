//! Register-indirect addressing: docs/hardware/eu-hardware.md §1.4 (origin = address subregister `a0.x` +
//! signed immediate; the low 5 bits summed give the sub-register, the upper bits summed give
//! the register, a carry out of the sub-register part is dropped; Vx1 takes one address
//! subregister per row, VxH one per channel) and §1.2 (the region walks from the origin).
//! attr0 holds 0, 1, 2, … 31 as UD in g1..g4, so GRF byte `b` (32 ≤ b < 160) holds the
//! element (b − 32) / 4.

use crate::common::*;
use crate::{Setup, all, grf, run};
use compiler::inputs::Inputs;
use compiler::text::parse_program;
use compiler::types::Type;
use oracle::emu::result::DiagKind;
use oracle::{RunConfig, run_inspect};

fn ramp() -> Vec<compiler::Value> {
    (0..32).map(ud).collect()
}

#[test]
fn one_dimensional_region_walks_from_the_origin() {
    // a0.0 = 64 (g2), +8 → byte 72 = element 10; <4;4,1> reads 10 11 12 13 (§1.4, §1.2).
    let regs = run(
        Setup::strict("skl", 8),
        "mov(1) a0.0<0;1,1>:UW, 64:UW { NoMask }\n\
         mov(4) g20<4;4,1>:UD, g[a0.0 + 8]<4;4,1>:UD { NoMask }",
        &[&ramp()],
    );
    assert_eq!(grf(&regs, 20, Type::UD, 4), all(&[10, 11, 12, 13]));
}

#[test]
fn sub_register_carry_is_dropped() {
    // a0.0 = 88 (g2 byte 24) + 16: sub-register 24 + 16 = 40 → 8, the carry is dropped, so
    // the origin is g2 byte 8 = byte 72 = element 10, not byte 104 = element 18 (§1.4).
    let regs = run(
        Setup::strict("skl", 8),
        "mov(1) a0.0<0;1,1>:UW, 88:UW { NoMask }\n\
         mov(1) g20<0;1,1>:UD, g[a0.0 + 16]<0;1,0>:UD { NoMask }",
        &[&ramp()],
    );
    assert_eq!(grf(&regs, 20, Type::UD, 1), all(&[10]));
}

#[test]
fn vxh_gathers_one_address_per_channel() {
    // VxH: channel c reads at a0.c: bytes 32, 100, 64, 156 → elements 0, 17, 8, 31 (§1.4).
    let regs = run(
        Setup::strict("skl", 8),
        "mov(1) a0.0<0;1,1>:UW, 32:UW { NoMask }\n\
         mov(1) a0.1<0;1,1>:UW, 100:UW { NoMask }\n\
         mov(1) a0.2<0;1,1>:UW, 64:UW { NoMask }\n\
         mov(1) a0.3<0;1,1>:UW, 156:UW { NoMask }\n\
         mov(4) g20<4;4,1>:UD, g[a0.0]<VxH;1,0>:UD { NoMask }",
        &[&ramp()],
    );
    assert_eq!(grf(&regs, 20, Type::UD, 4), all(&[0, 17, 8, 31]));
}

#[test]
fn vx1_takes_one_address_per_row() {
    // Vx1 width 2: row 0 from a0.2 = 36 (element 1), row 1 from a0.3 = 96 (element 16),
    // each row walking hstride 1 → 1 2 16 17 (§1.4, §1.2).
    let regs = run(
        Setup::strict("skl", 8),
        "mov(1) a0.2<0;1,1>:UW, 36:UW { NoMask }\n\
         mov(1) a0.3<0;1,1>:UW, 96:UW { NoMask }\n\
         mov(4) g20<4;4,1>:UD, g[a0.2]<Vx1;2,1>:UD { NoMask }",
        &[&ramp()],
    );
    assert_eq!(grf(&regs, 20, Type::UD, 4), all(&[1, 2, 16, 17]));
}

#[test]
fn indirect_destination_writes_at_the_address() {
    // Destination g[a0.1 + 32]<2>: origin 608 + 32 = 640 = g20 byte 0; channel c lands at
    // element 2c (§1.4, §1.2 destination base + i·Hd·Sd); the odd elements stay undefined.
    let regs = run(
        Setup::strict("skl", 8),
        "mov(1) a0.1<0;1,1>:UW, 608:UW { NoMask }\n\
         mov(4) g[a0.1 + 32]<2>:UD, g1<4;4,1>:UD { NoMask }",
        &[&ramp()],
    );
    assert_eq!(
        grf(&regs, 20, Type::UD, 8),
        vec![Some(0), None, Some(1), None, Some(2), None, Some(3), None]
    );
}

#[test]
fn undefined_address_reads_undefined_and_is_reported() {
    // a0 is never written: the address is undefined, so the value is too (the emulator's
    // conservative model; §1.4 does not define it), with an undefined-address diagnostic.
    let text = program_text(
        "skl",
        8,
        "mov(1) g20<0;1,1>:UD, g[a0.0]<0;1,0>:UD { NoMask }",
    );
    let p = parse_program(&text).expect("parses");
    let cfg = RunConfig {
        strict: true,
        fuel: 1000,
        ..RunConfig::default()
    };
    let (r, regs) = run_inspect(&p, &Inputs::default(), &cfg);
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.kind == DiagKind::UndefinedAddress),
        "{:?}",
        r.diagnostics
    );
    assert_eq!(grf(&regs[0], 20, Type::UD, 1), vec![None]);
}

#[test]
fn address_outside_the_grf_file_is_reported() {
    // a0.0 = 4096 is beyond skl's 128 GRFs (4096 bytes): the read is undefined (§1.4 does
    // not define it) and reported as out of bounds.
    let text = program_text(
        "skl",
        8,
        "mov(1) a0.0<0;1,1>:UW, 4096:UW { NoMask }\n\
         mov(1) g20<0;1,1>:UD, g[a0.0]<0;1,0>:UD { NoMask }",
    );
    let p = parse_program(&text).expect("parses");
    let cfg = RunConfig {
        strict: true,
        fuel: 1000,
        ..RunConfig::default()
    };
    let (r, regs) = run_inspect(&p, &Inputs::default(), &cfg);
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.kind == DiagKind::OutOfBounds),
        "{:?}",
        r.diagnostics
    );
    assert_eq!(grf(&regs[0], 20, Type::UD, 1), vec![None]);
}

/// Runs `body` (strict, skl SIMD8, attr0 = the ramp) and returns the diagnostics' kinds and
/// the thread's registers.
fn run_with_diagnostics(body: &str) -> (Vec<DiagKind>, oracle::Registers) {
    let p = parse_program(&program_text("skl", 8, body)).expect("parses");
    let mut inputs = Inputs::default();
    inputs.attrs.insert((0, 0), ramp());
    let cfg = RunConfig {
        strict: true,
        fuel: 1000,
        ..RunConfig::default()
    };
    let (r, mut regs) = run_inspect(&p, &inputs, &cfg);
    (
        r.diagnostics.into_iter().map(|d| d.kind).collect(),
        regs.remove(0),
    )
}

#[test]
fn write_through_an_undefined_address_undefines_the_grf_file() {
    // The address could be anything, so every GRF byte it could reach — the whole file — is
    // undefined afterwards (the emulator's conservative model; §1.4 does not say), and the
    // write is reported.
    let (diags, regs) = run_with_diagnostics(
        "mov(1) g20<0;1,1>:UD, 7:UD { NoMask }\n\
         mov(1) g[a0.3]<1>:UD, 1:UD { NoMask }",
    );
    assert_eq!(diags, vec![DiagKind::UndefinedAddress]);
    assert_eq!(grf(&regs, 20, Type::UD, 1), vec![None]);
    assert_eq!(grf(&regs, 1, Type::UD, 1), vec![None]);
}

#[test]
fn write_outside_the_grf_file_is_dropped() {
    // a0.0 = 4064 (g127) + 64: the register parts add to 4128 ≥ 4096 (skl's 128 GRFs), so
    // the write is dropped and reported; g20 keeps 7 (§1.4 does not define it: dropped).
    let (diags, regs) = run_with_diagnostics(
        "mov(1) g20<0;1,1>:UD, 7:UD { NoMask }\n\
         mov(1) a0.0<0;1,1>:UW, 4064:UW { NoMask }\n\
         mov(1) g[a0.0 + 64]<1>:UD, 1:UD { NoMask }",
    );
    assert_eq!(diags, vec![DiagKind::OutOfBounds]);
    assert_eq!(grf(&regs, 20, Type::UD, 1), all(&[7]));
}
