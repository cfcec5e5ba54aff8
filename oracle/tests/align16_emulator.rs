//! Known answers for Align16 execution. Every expected value below is derived from the
//! spec text cited next to it (docs/hardware/eu-hardware.md §1.3, docs/hardware/fp64-align16.md §1–§3, §10), never from
//! running the emulator.
//!
//! Data layout used throughout: a dvec4 per vertex (docs/hardware/fp64-align16.md §1.1) in g40 (vertex 0:
//! x0..w0 = 10, 11, 12, 13) and g41 (vertex 1: x1..w1 = 20, 21, 22, 23), loaded with an
//! Align1 move from attr0. 32-bit tests use the floats 1..8 in g40 (vertex 0 = 1, 2, 3, 4 in
//! bytes 0..16, vertex 1 = 5, 6, 7, 8 in bytes 16..32).

mod common;

use common::{df, elems_of, f};
use compiler::inputs::{Inputs, Value};
use compiler::text::parse_program;
use compiler::types::Type;
use oracle::{Outcome, Registers, RunConfig, run_inspect};

const LOAD_DF: &str = "    mov(8) g40<4;4,1>:DF, attr0:DF { NoMask }";
const LOAD_F: &str = "    mov(8) g40<8;8,1>:F, attr0:F { NoMask }";
/// Fills g50/g51 with -1.0 DFs (or g50 with -1.0 floats) so untouched bytes are visible.
const FILL_DF: &str = "    mov(8) g50<4;4,1>:DF, attr1:DF { NoMask }";
const FILL_F: &str = "    mov(8) g50<8;8,1>:F, attr1:F { NoMask }";

fn inputs(dispatch_mask: Option<u32>) -> Inputs {
    let mut inputs = Inputs::default();
    let dvec: Vec<Value> = [10.0, 11.0, 12.0, 13.0, 20.0, 21.0, 22.0, 23.0]
        .into_iter()
        .map(df)
        .collect();
    let floats: Vec<Value> = (1..=8).map(|k| f(k as f32)).collect();
    // attr0 holds the DFs first (64 bytes); its first 8 dwords read as F would be DF
    // halves, so the 32-bit tests read attr2 instead.
    inputs.attrs.insert((0, 0), dvec);
    inputs.attrs.insert((0, 1), vec![df(-1.0); 8]);
    inputs.attrs.insert((0, 2), floats);
    inputs.attrs.insert((0, 3), vec![f(-1.0); 8]);
    if let Some(m) = dispatch_mask {
        inputs.dispatch_masks.insert(0, m);
    }
    inputs
}

fn run_on(target: &str, body: &[&str], dispatch_mask: Option<u32>, strict: bool) -> Registers {
    let text = format!(
        "eu 1\ntarget {target}\ndispatch 8\nthreads 1\nattr attr0 4\nattr attr1 4\nattr attr2 1\nattr attr3 1\n\
         START B0\n{}\nEND B0\n",
        body.join("\n")
    )
    // The 32-bit loads read attr2/attr3 (see `inputs`).
    .replace("attr0:F", "attr2:F")
    .replace("attr1:F", "attr3:F");
    let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let cfg = RunConfig {
        strict,
        fuel: 10_000,
        ..RunConfig::default()
    };
    let (r, mut regs) = run_inspect(&p, &inputs(dispatch_mask), &cfg);
    assert_eq!(r.outcome, Outcome::Completed, "{text}");
    regs.remove(0)
}

fn run(target: &str, body: &[&str]) -> Registers {
    run_on(target, body, None, false)
}

/// `n` DFs from g`nr` on, `None` where undefined.
fn dfs(regs: &Registers, nr: usize, n: usize) -> Vec<Option<f64>> {
    let (bytes, def) = regs.grf(nr, (n * 8).div_ceil(32));
    elems_of(bytes, def, Type::DF, n)
        .into_iter()
        .map(|b| b.map(f64::from_bits))
        .collect()
}

fn floats(regs: &Registers, nr: usize, n: usize) -> Vec<Option<f32>> {
    let (bytes, def) = regs.grf(nr, (n * 4).div_ceil(32));
    elems_of(bytes, def, Type::F, n)
        .into_iter()
        .map(|b| b.map(|b| f32::from_bits(b as u32)))
        .collect()
}

fn some<T: Copy>(v: &[T]) -> Vec<Option<T>> {
    v.iter().map(|&x| Some(x)).collect()
}

/// Component `k` (0 = x .. 3 = w) of vertex `v` of the dvec4 in g40/g41.
fn dvec(v: usize, k: usize) -> f64 {
    (10 * (v + 1) + k) as f64
}

#[test]
fn vstride0_at_subreg16_reads_the_section_3_1_sequence() {
    // docs/hardware/fp64-align16.md §3.1: `mov(8) r2.x:DF r0.2<0>.xyzw:DF` reads, for x0 y0 z0 w0 x1 y1
    // z1 w1, the DFs r0.2 r0.3 r0.2 r0.3 r1.2 r1.3 r1.2 r1.3. With a full writemask every
    // one of them lands in g50/g51.
    let regs = run(
        "hsw",
        &[LOAD_DF, "    mov(8) g50:DF, g40.2<0>.xyzw:DF { Align16 }"],
    );
    assert_eq!(
        dfs(&regs, 50, 8),
        some(&[12.0, 13.0, 12.0, 13.0, 22.0, 23.0, 22.0, 23.0])
    );
    // With the example's .x writemask only x0 and x1 are written (§2: bit i enables DF
    // component i); y, z, w keep the fill.
    let regs = run(
        "hsw",
        &[
            LOAD_DF,
            FILL_DF,
            "    mov(8) g50.x:DF, g40.2<0>.xyzw:DF { Align16 }",
        ],
    );
    assert_eq!(
        dfs(&regs, 50, 8),
        some(&[12.0, -1.0, -1.0, -1.0, 22.0, -1.0, -1.0, -1.0])
    );
}

#[test]
fn every_row_of_the_section_1_4_swizzle_table_on_hsw() {
    // docs/hardware/fp64-align16.md §1.4: the logical swizzle each emitted hardware operand yields, on
    // gN = g40 holding the dvec4 of both vertices. `<4>` rows also hold with `<2>` on HSW
    // (§1.2: both mean a 16-byte row pitch).
    let rows = [
        ("xyzw", "g40<4>.xyzw"),
        ("xxzz", "g40<4>.xyxy"),
        ("yyww", "g40<4>.zwzw"),
        ("yxwz", "g40<4>.zwxy"),
        ("xyzw", "g40<2>.xyzw"),
        ("xxzz", "g40<2>.xyxy"),
        ("yyww", "g40<2>.zwzw"),
        ("yxwz", "g40<2>.zwxy"),
        ("xxxx", "g40<0>.xyxy"),
        ("yyyy", "g40<0>.zwzw"),
        ("xyxy", "g40<0>.xyzw"),
        ("yxyx", "g40<0>.zwxy"),
        ("zzzz", "g40.2<0>.xyxy"),
        ("wwww", "g40.2<0>.zwzw"),
        ("zwzw", "g40.2<0>.xyzw"),
        ("wzwz", "g40.2<0>.zwxy"),
    ];
    for (logical, operand) in rows {
        let inst = format!("    mov(8) g50:DF, {operand}:DF {{ Align16 }}");
        let regs = run("hsw", &[LOAD_DF, &inst]);
        let expected: Vec<Option<f64>> = (0..2)
            .flat_map(|v| logical.chars().map(move |ch| (v, ch)))
            .map(|(v, ch)| Some(dvec(v, "xyzw".find(ch).unwrap())))
            .collect();
        assert_eq!(dfs(&regs, 50, 8), expected, "logical {logical} = {operand}");
    }
}

#[test]
fn gen8_does_not_bump_a_vstride0_source_for_the_second_half() {
    // docs/hardware/fp64-align16.md §11 df-gen7-swizzle-on-gen8: without the Gen7 decompression bug
    // (§3.1), a VertStride-0 source replicates for vertex 1 too: "vertex 1 reads vertex 0
    // data".
    let regs = run(
        "bdw",
        &[LOAD_DF, "    mov(8) g50:DF, g40.2<0>.xyzw:DF { Align16 }"],
    );
    assert_eq!(
        dfs(&regs, 50, 8),
        some(&[12.0, 13.0, 12.0, 13.0, 12.0, 13.0, 12.0, 13.0])
    );
}

#[test]
fn the_second_half_reads_what_the_first_half_wrote() {
    // docs/hardware/fp64-align16.md §3.1 / §10 item 2: an exec-8 DF instruction runs as two 4-wide halves
    // in order, half 1 reading its sources (one GRF on) after half 0 has written. Here half
    // 0 writes 2·(10, 11, 12, 13) into g41, which half 1 then reads as its source.
    let regs = run(
        "hsw",
        &[
            LOAD_DF,
            "    add(8) g41:DF, g40<4>.xyzw:DF, g40<4>.xyzw:DF { Align16 }",
        ],
    );
    assert_eq!(
        dfs(&regs, 41, 8),
        some(&[20.0, 22.0, 24.0, 26.0, 40.0, 44.0, 48.0, 52.0])
    );
}

#[test]
fn halves_and_nibbles_use_their_own_channel_enables() {
    // docs/hardware/fp64-align16.md §3.1: half 1 of an exec-8 DF instruction uses channel enables 4..7;
    // §10 item 3: an exec-4 DF instruction takes enables from bits group..group+3 (NibCtrl)
    // and reads its sources without a register bump.
    let regs = run_on(
        "hsw",
        &[
            LOAD_DF,
            FILL_DF,
            "    mov(8) g50:DF, g40<4>.xyzw:DF { Align16 }",
        ],
        Some(0x0f),
        false,
    );
    assert_eq!(
        dfs(&regs, 50, 8),
        some(&[10.0, 11.0, 12.0, 13.0, -1.0, -1.0, -1.0, -1.0])
    );
    // Dispatch mask 0x5f: channels 4 and 6 are on among 4..7, so the 2N nibble writes
    // components x and z of g50 from g40 (vertex 0's data: no bump at exec 4).
    let regs = run_on(
        "hsw",
        &[
            LOAD_DF,
            FILL_DF,
            "    mov(4) g50:DF, g40<4>.xyzw:DF { 2N Align16 }",
        ],
        Some(0x5f),
        false,
    );
    assert_eq!(dfs(&regs, 50, 4), some(&[10.0, -1.0, 12.0, -1.0]));
}

#[test]
fn a_32bit_swizzle_permutes_each_vec4() {
    // docs/hardware/eu-hardware.md §1.3: a source swizzle picks, per 4-channel group, the 32-bit
    // component of that group's vec4; VertStride 4 steps to the next vec4, 0 replicates.
    let regs = run(
        "hsw",
        &[LOAD_F, "    mov(8) g50:F, g40<4>.zwxy:F { Align16 }"],
    );
    assert_eq!(
        floats(&regs, 50, 8),
        some(&[3.0, 4.0, 1.0, 2.0, 7.0, 8.0, 5.0, 6.0])
    );
    let regs = run("hsw", &[LOAD_F, "    mov(8) g50:F, g40<4>.y:F { Align16 }"]);
    assert_eq!(
        floats(&regs, 50, 8),
        some(&[2.0, 2.0, 2.0, 2.0, 6.0, 6.0, 6.0, 6.0])
    );
    let regs = run(
        "ivb",
        &[LOAD_F, "    mov(8) g50:F, g40<0>.wzyx:F { Align16 }"],
    );
    assert_eq!(
        floats(&regs, 50, 8),
        some(&[4.0, 3.0, 2.0, 1.0, 4.0, 3.0, 2.0, 1.0])
    );
    // Sub-register 1 (16 bytes): the vec4 of vertex 1, replicated.
    let regs = run(
        "hsw",
        &[LOAD_F, "    mov(8) g50:F, g40.4<0>.xyzw:F { Align16 }"],
    );
    assert_eq!(
        floats(&regs, 50, 8),
        some(&[5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0])
    );
}

#[test]
fn a_writemask_leaves_the_other_components_untouched() {
    // docs/hardware/eu-hardware.md §1.3: bit i of the 4-bit writemask enables component i of each vec4.
    let regs = run(
        "skl",
        &[
            LOAD_F,
            FILL_F,
            "    add(8) g50.xz:F, g40<4>.xyzw:F, g40<4>.xyzw:F { Align16 }",
        ],
    );
    assert_eq!(
        floats(&regs, 50, 8),
        some(&[2.0, -1.0, 6.0, -1.0, 10.0, -1.0, 14.0, -1.0])
    );
}

#[test]
fn unconfirmed_df_effects_are_undefined() {
    // docs/hardware/fp64-align16.md §2/§12: what a .xy or .zw writemask writes on a DF destination is not
    // documented, so nothing written there may be trusted: every component of g50/g51.
    for mask in ["xy", "zw"] {
        let inst = format!("    mov(8) g50.{mask}:DF, g40<4>.xyzw:DF {{ Align16 }}");
        let regs = run("hsw", &[LOAD_DF, FILL_DF, &inst]);
        assert_eq!(dfs(&regs, 50, 8), vec![None; 8], ".{mask}");
    }
    // §4 rule 3, §12: exec-8 Align16 DF SEL misreads its predicate on Gen7 (pattern
    // unknown): undefined. Exec 4 is the form Mesa emits and computes normally.
    let flags = "    mov(1) f0.0<0;1,0>:UW, 0x00f0:UW { NoMask }";
    let regs = run(
        "hsw",
        &[
            LOAD_DF,
            flags,
            "    (+f0.0) sel(8) g50:DF, g40<4>.xyzw:DF, g40<4>.xyzw:DF { Align16 }",
        ],
    );
    assert_eq!(dfs(&regs, 50, 8), vec![None; 8]);
    let regs = run(
        "hsw",
        &[
            LOAD_DF,
            flags,
            "    (+f0.0) sel(4) g50:DF, g40<4>.xyzw:DF, g40<4>.xyzw:DF { Align16 }",
        ],
    );
    assert_eq!(dfs(&regs, 50, 4), some(&[10.0, 11.0, 12.0, 13.0]));
}

#[test]
fn strict_mode_rejects_align16_on_icl_with_the_named_rule() {
    // docs/hardware/eu-hardware.md §1.3 / §6.1: "Align16 mode doesn't exist on Gfx11+".
    let text = "eu 1\ntarget icl\ndispatch 8\nSTART B0\n    mov(8) g20<8;8,1>:F, 1.0:F\n    mov(8) g21:F, g20<4>.xyzw:F { Align16 }\nEND B0\n";
    let p = parse_program(text).unwrap();
    let cfg = RunConfig {
        strict: true,
        fuel: 100,
        ..RunConfig::default()
    };
    let (r, regs) = run_inspect(&p, &Inputs::default(), &cfg);
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.rule.as_deref() == Some("align16-gfx11") && d.ip == 1),
        "{:?}",
        r.diagnostics
    );
    // A broken restriction leaves the destination undefined.
    assert!(regs[0].grf(21, 1).1.iter().all(|&d| d == 0));
    // The same instruction on skl is legal and moves the vec4s.
    let p = parse_program(&text.replace("icl", "skl")).unwrap();
    let (r, regs) = run_inspect(&p, &Inputs::default(), &cfg);
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(floats(&regs[0], 21, 8), some(&[1.0f32; 8]));
}

#[test]
fn a_compressed_32bit_vstride0_source_is_bumped_on_gen7_only() {
    // docs/hardware/fp64-align16.md §3.1: "the same bug hits any compressed Gen7 instruction with a
    // vstride-0, width>1 source ... second half of a compressed instruction adds 1 GRF to
    // every source except true scalars"; docs/hardware/eu-hardware.md §1.3: otherwise VertStride 0
    // replicates the same vec4 for every 4-channel group. g40 holds 1..8, g41 9..16.
    let load = "    mov(16) g40<8;8,1>:F, attr0:F { NoMask }";
    let inst = "    mov(16) g50:F, g40<0>.xyzw:F { NoMask Align16 }";
    let text = |target: &str| {
        format!(
            "eu 1\ntarget {target}\ndispatch 8\nthreads 1\nattr attr0 2\nSTART B0\n{load}\n{inst}\nEND B0\n"
        )
    };
    let mut inputs = Inputs::default();
    inputs
        .attrs
        .insert((0, 0), (1..=16).map(|k| f(k as f32)).collect());
    let cfg = RunConfig {
        fuel: 100,
        ..RunConfig::default()
    };
    let run16 = |target: &str| {
        let p = parse_program(&text(target)).unwrap();
        let (r, regs) = run_inspect(&p, &inputs, &cfg);
        assert_eq!(r.outcome, Outcome::Completed);
        floats(&regs[0], 50, 16)
    };
    let vec4 = [1.0, 2.0, 3.0, 4.0];
    let next = [9.0, 10.0, 11.0, 12.0];
    let hsw: Vec<f32> = [vec4, vec4, next, next].concat();
    assert_eq!(run16("hsw"), some(&hsw));
    assert_eq!(run16("skl"), some(&[vec4; 4].concat()));
}

#[test]
fn a_masked_off_component_writes_nothing_and_its_flag_bit_is_unknown() {
    // docs/hardware/eu-hardware.md §1.3: the writemask enables components. Whether it also gates the
    // conditional modifier's flag write is not documented, so those bits are undefined;
    // the enabled components' bits are the comparison (1 < 2.5, 2 < 2.5, 3, 4 not).
    let regs = run(
        "hsw",
        &[
            LOAD_F,
            FILL_F,
            "    mov(1) f0.0<0;1,0>:UW, 0:UW { NoMask }",
            "    cmp.l.f0.0(8) g50.xy:F, g40<4>.xyzw:F, 2.5:F { Align16 }",
        ],
    );
    let bits: Vec<Option<bool>> = (0..8)
        .map(|c| (regs.flags_def >> c & 1 != 0).then_some(regs.flags >> c & 1 != 0))
        .collect();
    assert_eq!(
        bits,
        vec![
            Some(true),
            Some(true),
            None,
            None,
            Some(false),
            Some(false),
            None,
            None
        ]
    );
    let t = f32::from_bits(u32::MAX);
    let got = floats(&regs, 50, 8);
    assert_eq!(got[2], Some(-1.0));
    assert_eq!(got[3], Some(-1.0));
    assert!(got[0].is_some_and(|x| x.to_bits() == t.to_bits()) && got[4] == Some(0.0));
}

#[test]
fn random_align16_instructions_never_crash_the_emulator_and_run_deterministically() {
    // Random Align16 instructions on fixed GRFs (any exec size, group, type, sub-register,
    // VertStride, swizzle, writemask, predicate) on Gen7..Gfx11: the emulator completes,
    // faults or runs out of fuel, never panics, and the same program gives the same result.
    use compiler::inst::Predicate;
    use compiler::reg::{Reg, Region, Swizzle};
    use compiler::{Device, Inst, Opcode, Program};
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
    let mut completed = 0;
    for round in 0..600 {
        let device = ["hsw", "ivb", "bdw", "skl", "icl"][round % 5];
        let mut p: Program = parse_program(&format!(
            "eu 1\ntarget {device}\ndispatch 8\nthreads 1\nSTART B0\n    nop(1)\nEND B0\n"
        ))
        .unwrap();
        p.blocks[0].insts.clear();
        for _ in 0..3 {
            let ty = [Type::F, Type::D, Type::UD, Type::DF][rng.random_range(0..4)];
            let operand = |rng: &mut rand_chacha::ChaCha8Rng| {
                let sub = [0u8, 16, 4][rng.random_range(0..3)];
                let vstride = [0u8, 2, 4, 8][rng.random_range(0..4)];
                Reg::grf(rng.random_range(2..126), sub, Region::align16(vstride), ty)
                    .swizzled(Swizzle(rng.random()))
            };
            let op = [
                Opcode::Mov,
                Opcode::Add,
                Opcode::Sel,
                Opcode::Cmp,
                Opcode::Mad,
            ][rng.random_range(0..5)];
            let nsrc = match op {
                Opcode::Mov => 1,
                Opcode::Mad => 3,
                _ => 2,
            };
            let dst = operand(&mut rng).masked(rng.random_range(1..16));
            let srcs = (0..nsrc).map(|_| operand(&mut rng)).collect();
            let exec = [1u8, 2, 4, 8, 16][rng.random_range(0..5)];
            let mut inst = Inst::new(op, exec, dst, srcs)
                .with_group([0, 4, 8][rng.random_range(0..3)])
                .with_align16();
            if rng.random() {
                inst = inst.with_pred(Predicate::NORMAL, 0);
            }
            if op == Opcode::Cmp || (op == Opcode::Sel && inst.predicate.is_none()) {
                inst = inst.with_cmod(compiler::inst::CondMod::L, 0);
            }
            if rng.random() {
                inst = inst.with_nomask();
            }
            p.blocks[0].insts.push(inst);
        }
        p.device = Device::from_name(device).unwrap();
        for strict in [false, true] {
            let cfg = RunConfig {
                strict,
                fuel: 100,
                ..RunConfig::default()
            };
            let first = oracle::run(&p, &Inputs::default(), &cfg);
            assert_eq!(first, oracle::run(&p, &Inputs::default(), &cfg));
            completed += usize::from(first.outcome == Outcome::Completed);
        }
    }
    assert!(completed > 600, "only {completed} runs completed");
}
