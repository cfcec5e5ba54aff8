//! Known answers for the Align1 dword-half moves and DIM (docs/hardware/fp64-align16.md §5.3, §10 items
//! 6–7). Every expected value is derived from the spec text, never from running the
//! emulator: PICK_LOW/HIGH gather the low/high dword of each DF element into a packed
//! 32-bit result; SET_LOW/HIGH write one dword of each DF element and leave the other;
//! `packDouble2x32` is SET_LOW then SET_HIGH into one register; DIM writes its 64-bit
//! immediate to every enabled DF channel.

mod common;

use common::{df, elems, elems_of, run_body, ud};
use compiler::inputs::Value;
use compiler::types::Type;
use oracle::Outcome;

/// Eight DFs whose halves are told apart: element k is low 0x1000+k, high 0x2000+k.
fn halves() -> Vec<Value> {
    (0..8u64)
        .map(|k| Value::new(Type::UQ, (0x2000 + k) << 32 | (0x1000 + k)))
        .collect()
}

fn run(body: &str, srcs: &[&[Value]]) -> oracle::Registers {
    let (r, regs) = run_body("hsw", 8, body, srcs, false);
    assert_eq!(r.outcome, Outcome::Completed, "{body}");
    regs
}

#[test]
fn pick_gathers_one_dword_of_each_df_element() {
    let regs = run(
        "mov(8) v0:UQ, attr0:UQ\n\
         pick_low_32bit(8) v1:UD, v0:DF\n\
         pick_high_32bit(8) v2:UD, v0:DF",
        &[&halves()],
    );
    let low: Vec<_> = (0..8).map(|k| Some(0x1000 + k)).collect();
    let high: Vec<_> = (0..8).map(|k| Some(0x2000 + k)).collect();
    assert_eq!(elems(&regs, 1, Type::UD, 8), low);
    assert_eq!(elems(&regs, 2, Type::UD, 8), high);
}

#[test]
fn set_writes_one_dword_and_keeps_the_other() {
    let fill = vec![df(-1.0); 8]; // 0xBFF00000_00000000
    let words: Vec<Value> = (0..8).map(|k| ud(0xAB00 + k)).collect();
    let regs = run(
        "mov(8) v0:DF, attr0:DF\n\
         mov(8) v1:DF, attr0:DF\n\
         set_low_32bit(8) v0:DF, attr1:UD\n\
         set_high_32bit(8) v1:DF, attr1:UD",
        &[&fill, &words],
    );
    let low: Vec<_> = (0..8u64)
        .map(|k| Some(0xBFF0_0000 << 32 | (0xAB00 + k)))
        .collect();
    let high: Vec<_> = (0..8u64).map(|k| Some((0xAB00 + k) << 32)).collect();
    assert_eq!(elems(&regs, 0, Type::DF, 8), low);
    assert_eq!(elems(&regs, 1, Type::DF, 8), high);
}

#[test]
fn pack_double_2x32_is_set_low_then_set_high() {
    // packDouble2x32(lo, hi) of 0x00000000 / 0x40090000 is 3.125; v0 starts undefined
    // and both halves become defined only after both writes.
    let lo = vec![ud(0); 8];
    let hi = vec![ud(0x4009_0000); 8];
    let regs = run(
        "set_low_32bit(8) v0:DF, attr0:UD\n\
         set_high_32bit(8) v0:DF, attr1:UD\n\
         set_low_32bit(8) v1:DF, attr0:UD",
        &[&lo, &hi],
    );
    assert_eq!(
        elems(&regs, 0, Type::DF, 8),
        vec![Some(3.125f64.to_bits()); 8]
    );
    // SET_LOW alone leaves the high dword as it was: undefined.
    assert_eq!(elems(&regs, 1, Type::DF, 8), vec![None; 8]);
    assert_eq!(elems(&regs, 1, Type::UD, 16)[0], Some(0));
}

#[test]
fn dim_writes_its_immediate_to_every_enabled_df_channel() {
    let regs = run(
        "dim(8) g40:DF, 2.5:DF { Align16 NoMask }\n\
         dim(8) g42.x:DF, -0.75:DF { Align16 NoMask }",
        &[],
    );
    let grf = |nr| {
        let (bytes, def) = regs.grf(nr, 2);
        elems_of(bytes, def, Type::DF, 8)
    };
    assert_eq!(grf(40), vec![Some(2.5f64.to_bits()); 8]);
    let x = Some((-0.75f64).to_bits());
    // Writemask .x: DF component x of each vertex only (§2).
    assert_eq!(grf(42), vec![x, None, None, None, x, None, None, None]);
}

#[test]
fn dim_is_the_one_df_immediate_haswell_encodes() {
    // §1.2: HSW has no DF immediates in ALU instructions, only DIM; IVB has no DIM.
    let rules = |target: &str, inst: &str| {
        let text = format!("eu 1\ntarget {target}\ndispatch 8\nSTART B0\n    {inst}\nEND B0\n");
        let p = compiler::text::parse_program(&text).expect("parses");
        let device = compiler::Device::from_name(target).expect("device");
        let inst = p.insts().next().expect("one instruction");
        let mut names: Vec<_> = oracle::strict::check(inst, device)
            .into_iter()
            .map(|r| r.rule)
            .collect();
        names.dedup();
        names
    };
    let dim = "dim(8) g40:DF, 2.5:DF { Align16 NoMask }";
    assert_eq!(rules("hsw", dim), Vec::<&str>::new());
    assert!(rules("ivb", dim).contains(&"invalid-type-encoding"));
    let mov = "mov(8) g40:DF, 2.5:DF { Align16 NoMask }";
    assert!(rules("hsw", mov).contains(&"invalid-type-encoding"));
}
