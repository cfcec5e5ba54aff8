//! Regions, control flow, the accumulator, scratch across threads, and messages.

mod common;

use common::*;
use compiler::inputs::Inputs;
use compiler::text::parse_program;
use compiler::types::Type;
use oracle::emu::result::DiagKind;
use oracle::{Outcome, RunConfig, run, run_inspect};

fn grf_elems(regs: &oracle::Registers, nr: usize, ty: Type, n: usize) -> Vec<Option<u64>> {
    let (bytes, def) = regs.grf(nr, 4);
    elems_of(bytes, def, ty, n)
}

/// attr0 = 0, 1, 2, … 31 as UD: it lives in g1..g4 (no uniforms, so attrs follow g0).
fn ramp() -> Vec<compiler::Value> {
    (0..32).map(ud).collect()
}

fn some(v: &[u64]) -> Vec<Option<u64>> {
    v.iter().map(|&x| Some(x)).collect()
}

// ---------------------------------------------------------------- regions

#[test]
fn scalar_region_broadcasts() {
    let r = ramp();
    let (_, regs) = run_body(
        "skl",
        8,
        "mov(8) g20<8;8,1>:UD, g1.3<0;1,0>:UD",
        &[&r],
        true,
    );
    assert_eq!(grf_elems(&regs, 20, Type::UD, 8), some(&[3; 8]));
}

#[test]
fn two_dimensional_regions() {
    let r = ramp();
    // <8;4,1>: rows of four, the second row 8 elements on (g2.0).
    let (_, regs) = run_body("skl", 8, "mov(8) g20<8;8,1>:UD, g1<8;4,1>:UD", &[&r], true);
    assert_eq!(
        grf_elems(&regs, 20, Type::UD, 8),
        some(&[0, 1, 2, 3, 8, 9, 10, 11])
    );
    // <4;2,2>: pairs two apart, each row four on.
    let (_, regs) = run_body("skl", 8, "mov(8) g20<8;8,1>:UD, g1<4;2,2>:UD", &[&r], true);
    assert_eq!(
        grf_elems(&regs, 20, Type::UD, 8),
        some(&[0, 2, 4, 6, 8, 10, 12, 14])
    );
    // <0;4,1>: one row of four, repeated.
    let (_, regs) = run_body(
        "skl",
        8,
        "mov(8) g20<8;8,1>:UD, g1.4<0;4,1>:UD",
        &[&r],
        true,
    );
    assert_eq!(
        grf_elems(&regs, 20, Type::UD, 8),
        some(&[4, 5, 6, 7, 4, 5, 6, 7])
    );
}

#[test]
fn grf_crossing_and_subregister_offsets() {
    let r = ramp();
    // Starting at g1.4, <4;4,1> reaches into g2 through the vertical stride.
    let (res, regs) = run_body(
        "skl",
        8,
        "mov(8) g20<8;8,1>:UD, g1.4<4;4,1>:UD",
        &[&r],
        true,
    );
    assert!(res.diagnostics.is_empty(), "{:?}", res.diagnostics);
    assert_eq!(
        grf_elems(&regs, 20, Type::UD, 8),
        some(&[4, 5, 6, 7, 8, 9, 10, 11])
    );
    // Words: g1.2:UW is the low half of dword 1; <4;4,2> reads every other word, rows
    // overlapping by four words.
    let (_, regs) = run_body(
        "skl",
        8,
        "mov(8) g20<8;8,1>:UD, g1.2<4;4,2>:UW",
        &[&r],
        true,
    );
    assert_eq!(
        grf_elems(&regs, 20, Type::UD, 8),
        some(&[1, 2, 3, 4, 3, 4, 5, 6])
    );
    let (_, regs) = run_body(
        "skl",
        8,
        "mov(8) g20<8;8,1>:UD, g1<16;8,2>:UW",
        &[&r],
        false,
    );
    assert_eq!(
        grf_elems(&regs, 20, Type::UD, 8),
        some(&[0, 1, 2, 3, 4, 5, 6, 7])
    );
    // A strided destination: every other dword of g20..g21.
    let (_, regs) = run_body(
        "skl",
        8,
        "mov(8) g20<16;8,2>:UD, g1<8;8,1>:UD",
        &[&r],
        false,
    );
    let got = grf_elems(&regs, 20, Type::UD, 16);
    assert_eq!(
        got.iter().step_by(2).copied().collect::<Vec<_>>(),
        some(&[0, 1, 2, 3, 4, 5, 6, 7])
    );
    assert!(got.iter().skip(1).step_by(2).all(Option::is_none));
}

// ---------------------------------------------------------------- control flow

/// Runs a SIMD8 program on attr0 = `a` with an optional dispatch mask; returns v0 as UD.
fn cf(
    body: &str,
    a: &[compiler::Value],
    dispatch: Option<u32>,
) -> (oracle::RunResult, Vec<Option<u64>>) {
    let text = program_text("skl", 8, body);
    let mut p = parse_program(&text).unwrap();
    p.resplit();
    assert!(
        compiler::validate::validate(&p).is_empty(),
        "{:?}",
        compiler::validate::validate(&p)
    );
    let mut inputs = Inputs::default();
    inputs.attrs.insert((0, 0), a.to_vec());
    if let Some(m) = dispatch {
        inputs.dispatch_masks.insert(0, m);
    }
    let (r, regs) = run_inspect(&p, &inputs, &RunConfig::default());
    assert_eq!(r.outcome, Outcome::Completed);
    let v = elems(&regs[0], 0, Type::UD, 8);
    (r, v)
}

#[test]
fn nested_divergent_if_else() {
    let a: Vec<_> = [0, 1, 2, 3, 4, 5, 6, 7].map(d).to_vec();
    let body = "mov(8) v0:UD, 0:UD\n\
        cmp.l.f0.0(8) null:D, attr0:D, 4:D\n\
        (+f0.0) if(8)\n\
          cmp.l.f0.1(8) null:D, attr0:D, 2:D\n\
          (+f0.1) if(8)\n mov(8) v0:UD, 10:UD\n else(8)\n mov(8) v0:UD, 20:UD\n endif(8)\n\
        else(8)\n\
          cmp.z.f0.1(8) null:D, attr0:D, 6:D\n\
          (+f0.1) if(8)\n mov(8) v0:UD, 30:UD\n endif(8)\n\
        endif(8)\n\
        add(8) v0:UD, v0:UD, 1:UD";
    let (_, v) = cf(body, &a, None);
    assert_eq!(v, some(&[11, 11, 21, 21, 1, 1, 31, 1]));
    // Disabled channels at dispatch are never written.
    let (_, v) = cf(body, &a, Some(0b1010_1010));
    assert_eq!(v[1], Some(11));
    assert!(v[0].is_none() && v[2].is_none() && v[4].is_none() && v[6].is_none());
}

#[test]
fn loop_with_breaks_in_different_iterations_and_continue() {
    // Channel c counts up until its counter reaches attr0[c]; odd iterations are skipped
    // for the sum with CONTINUE.
    let a: Vec<_> = [0, 1, 2, 3, 5, 8, 1, 4].map(d).to_vec();
    let body = "mov(8) v1:D, 0:D\nmov(8) v0:D, 0:D\n\
        do(8)\n\
          cmp.ge.f0.0(8) null:D, v1:D, attr0:D\n\
          (+f0.0) break(8)\n\
          add(8) v1:D, v1:D, 1:D\n\
          and.nz.f0.1(8) null:UD, v1:UD, 1:UD\n\
          (+f0.1) cont(8)\n\
          add(8) v0:D, v0:D, v1:D\n\
        while(8)\n\
        mul(8) v0:D, v0:D, 100:D\n\
        add(8) v0:D, v0:D, v1:D";
    let (r, v) = cf(body, &a, None);
    // Sum of even numbers ≤ n, ×100, plus n.
    let want: Vec<u64> = [0u64, 1, 2, 3, 5, 8, 1, 4]
        .iter()
        .map(|&n| (2..=n).step_by(2).sum::<u64>() * 100 + n)
        .collect();
    assert_eq!(v, some(&want));
    assert!(!r.branched_on_undefined());
}

#[test]
fn predicated_while_is_a_do_while() {
    let a: Vec<_> = [0, 1, 2, 3, 0, 0, 7, 2].map(d).to_vec();
    let body = "mov(8) v0:D, 0:D\n\
        do(8)\n add(8) v0:D, v0:D, 1:D\n cmp.l.f0.0(8) null:D, v0:D, attr0:D\n(+f0.0) while(8)";
    let (_, v) = cf(body, &a, None);
    assert_eq!(v, some(&[1, 1, 2, 3, 1, 1, 7, 2]));
}

#[test]
fn halt_then_later_writes() {
    let a: Vec<_> = [0, 1, 0, 1, 1, 0, 0, 1].map(d).to_vec();
    let body = "mov(8) v0:UD, 1:UD\n\
        cmp.nz.f0.0(8) null:D, attr0:D, 0:D\n\
        (+f0.0) halt(8)\n\
        mov(8) v0:UD, 2:UD\n\
        halt_target(8)\n\
        add(8) v0:UD, v0:UD, 10:UD";
    let (_, v) = cf(body, &a, None);
    // Halted channels skip the write of 2 but rejoin for the final add.
    assert_eq!(v, some(&[12, 11, 12, 11, 11, 12, 12, 11]));
}

#[test]
fn nomask_inside_a_branch_hits_inactive_channels_but_not_skipped_blocks() {
    let a: Vec<_> = [0, 1, 0, 0, 0, 0, 0, 0].map(d).to_vec();
    let body = "mov(8) v0:UD, 0:UD\nmov(8) v1:UD, 0:UD\n\
        cmp.nz.f0.0(8) null:D, attr0:D, 0:D\n\
        (+f0.0) if(8)\n mov(8) v0:UD, 7:UD { NoMask }\n endif(8)\n\
        cmp.g.f0.0(8) null:D, attr0:D, 5:D\n\
        (+f0.0) if(8)\n mov(8) v1:UD, 9:UD { NoMask }\n endif(8)";
    let text = program_text("skl", 8, body);
    let mut p = parse_program(&text).unwrap();
    p.resplit();
    let mut inputs = Inputs::default();
    inputs.attrs.insert((0, 0), a);
    let (_, regs) = run_inspect(&p, &inputs, &RunConfig::default());
    // One channel takes the first branch: the NoMask write reaches all eight channels.
    assert_eq!(elems(&regs[0], 0, Type::UD, 8), some(&[7; 8]));
    // No channel takes the second: the hardware jumps over it, the NoMask write never runs.
    assert_eq!(elems(&regs[0], 1, Type::UD, 8), some(&[0; 8]));
}

#[test]
fn branch_on_undefined_flag_is_reported() {
    let a = [d(0); 8];
    let (r, _) = cf(
        "mov(8) v0:UD, 0:UD\n(+f1.0) if(8)\nmov(8) v0:UD, 1:UD\nendif(8)",
        &a,
        None,
    );
    assert!(r.branched_on_undefined());
    assert!(
        r.diagnostics
            .iter()
            .any(|x| x.kind == DiagKind::UndefinedBranch && x.ip == 1)
    );
}

#[test]
fn fuel_runs_out_in_an_endless_loop() {
    let text = program_text("skl", 8, "do(8)\nnop(1)\nwhile(8)");
    let mut p = parse_program(&text).unwrap();
    p.resplit();
    let r = run(
        &p,
        &Inputs::default(),
        &RunConfig {
            strict: false,
            fuel: 500,
            ..RunConfig::default()
        },
    );
    assert_eq!(r.outcome, Outcome::OutOfFuel { steps: 500 });
}

/// A loop that never ends with a render-target write in its body stops at the run's write
/// limit, long before its fuel, so that its records cannot fill memory; the limit counts
/// every recorded message.
#[test]
fn a_writing_loop_stops_at_the_write_limit() {
    let body =
        "mov(8) v0:UD, 7:UD\ndo(8)\nfb_write_logical(8) null:UD, v0:UD, 1:UD, 0:UD\nwhile(8)";
    let mut p = parse_program(&program_text("skl", 8, body)).unwrap();
    p.resplit();
    let config = RunConfig {
        fuel: 1_000_000,
        max_writes: 10,
        ..RunConfig::default()
    };
    let r = run(&p, &Inputs::default(), &config);
    assert_eq!(r.outcome, Outcome::WriteLimit { writes: 11 });
    assert_eq!(r.writes(), 11);
    // MOV and DO, ten iterations of write and WHILE, then the eleventh write: the run
    // stops before its next step.
    assert_eq!(r.steps, 2 + 2 * 10 + 1);
}

// ---------------------------------------------------------------- accumulator

const MULH_BODY: &str = "mul(8) acc0<8;8,1>:UD, attr0:UD, attr1<2>:UW\nmach(8) v0:UD, attr0:UD, attr1:UD\nmov(8) v1:UD, acc0<8;8,1>:UD";

#[test]
fn mul_mach_gives_the_exact_high_half() {
    let a: Vec<_> = [
        0xffff_fff0u32,
        0x8000_0000,
        0xdead_beef,
        0xffff_ffff,
        3,
        0x8000_0001,
        0x1234_5678,
        0,
    ]
    .map(ud)
    .to_vec();
    let b: Vec<_> = [
        0x8000_0001u32,
        0x8000_0000,
        0xcafe_f00d,
        0xffff_ffff,
        0xffff_ffff,
        0x8000_0001,
        0x9abc_def0,
        5,
    ]
    .map(ud)
    .to_vec();
    let (_, regs) = run_body("skl", 8, MULH_BODY, &[&a, &b], false);
    let full: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x.bits * y.bits).collect();
    assert_eq!(
        elems(&regs, 0, Type::UD, 8),
        some(&full.iter().map(|p| p >> 32).collect::<Vec<_>>())
    );
    // MACH leaves the low half in the accumulator.
    assert_eq!(
        elems(&regs, 1, Type::UD, 8),
        some(&full.iter().map(|p| p & 0xffff_ffff).collect::<Vec<_>>())
    );
    // Signed: D operands.
    let body = "mul(8) acc0<8;8,1>:D, attr0:D, attr1<2>:UW\nmach(8) v0:D, attr0:D, attr1:D";
    let (_, regs) = run_body("skl", 8, body, &[&a, &b], false);
    let want: Vec<u64> = a
        .iter()
        .zip(&b)
        .map(|(x, y)| {
            (((x.bits as u32 as i32 as i64) * (y.bits as u32 as i32 as i64)) >> 32) as u32 as u64
        })
        .collect();
    assert_eq!(elems(&regs, 0, Type::D, 8), some(&want));
}

#[test]
fn mov_into_the_accumulator_leaves_the_high_half_undefined() {
    let a: Vec<_> = (0..8).map(|i| ud(0x8000_0000 + i)).collect();
    let b: Vec<_> = (0..8).map(|i| ud(0xffff_0000 + i)).collect();
    let body = "mul(8) v2:UD, attr0:UD, attr1<2>:UW\nmov(8) acc0<8;8,1>:UD, v2:UD\nmach(8) v0:UD, attr0:UD, attr1:UD";
    let (_, regs) = run_body("skl", 8, body, &[&a, &b], false);
    assert!(elems(&regs, 0, Type::UD, 8).iter().all(Option::is_none));
}

#[test]
fn hardware_mul_without_dxd_reads_low_16_bits_of_src1() {
    let a: Vec<_> = [3u32, 0x10000, 7, 1].map(ud).to_vec();
    let b: Vec<_> = [0x1_0002u32, 5, 0xffff_0003, 0x12345].map(ud).to_vec();
    let body = "mul(4) g20<8;8,1>:UD, g1<4;4,1>:UD, g5<4;4,1>:UD { NoMask }";
    // IVB has no DxD multiply: the product uses src1's low word.
    let (_, regs) = run_body("ivb", 8, body, &[&a, &b], true);
    assert_eq!(
        grf_elems(&regs, 20, Type::UD, 4),
        some(&[6, 0x50000, 21, 0x2345])
    );
    // SKL multiplies all 32 bits.
    let (_, regs) = run_body("skl", 8, body, &[&a, &b], true);
    assert_eq!(
        grf_elems(&regs, 20, Type::UD, 4),
        some(&[
            0x3_0006,
            0x50000,
            (7u64 * 0xffff_0003) & 0xffff_ffff,
            0x12345
        ])
    );
}

#[test]
fn ivb_second_quarter_mach_has_no_integer_acc1() {
    let a: Vec<_> = (0..16).map(|i| ud(0x8000_0000 + i)).collect();
    let body = "mul(8) acc0<8;8,1>:UD, attr0+32:UD, attr1+32<2>:UW { 2Q }\nmach(8) v0+32:UD, attr0+32:UD, attr1+32:UD { 2Q }";
    let (_, regs) = run_body("ivb", 16, body, &[&a, &a], false);
    assert!(
        elems(&regs, 0, Type::UD, 16)[8..]
            .iter()
            .all(Option::is_none)
    );
    let (_, regs) = run_body("hsw", 16, body, &[&a, &a], false);
    assert!(
        elems(&regs, 0, Type::UD, 16)[8..]
            .iter()
            .all(Option::is_some)
    );
}

// ---------------------------------------------------------------- scratch and threads

/// Each thread writes its FFTID at scratch offset `write_at`, then reads offset `read_at`,
/// using a hardware scratch header with the per-thread size encoding `enc`.
fn scratch_program(write_at: u32, read_at: u32, enc: &str) -> String {
    format!(
        "eu 1\ntarget skl\ndispatch 8\nthreads 2\nscratch 2048\nvgrf v0 1\nvgrf v1 1\nvgrf v2 1\nvgrf v3 1\nSTART B0\n\
         mov(8) v0:UD, 0:UD {{ NoMask }}\n\
         {enc}\n\
         and(1) v0+20:UD, g0.5<0;1,0>:UD, 0xfffffc00:UD {{ NoMask }}\n\
         mov(8) v1:UD, v0:UD {{ NoMask }}\n\
         mov(1) v0+8:UD, {w}:UD {{ NoMask }}\n\
         mov(1) v1+8:UD, {r}:UD {{ NoMask }}\n\
         and(8) v2:UD, g0.5<0;1,0>:UD, 0x3ff:UD\n\
         send(8) null:UD, v0:UD, v2:UD desc(scratch_write mlen=1 ex_mlen=1 rlen=0 header) {{ NoMask }}\n\
         send(8) v3:UD, v1:UD, null:UD desc(scratch_read mlen=1 ex_mlen=0 rlen=1 header) {{ NoMask }}\n\
         END B0\n",
        w = write_at / 16,
        r = read_at / 16,
    )
}

fn scratch_run(text: &str) -> Vec<Vec<Option<u64>>> {
    let p = parse_program(text).unwrap_or_else(|e| panic!("{e}"));
    let (r, regs) = run_inspect(&p, &Inputs::default(), &RunConfig::default());
    assert_eq!(r.outcome, Outcome::Completed);
    regs.iter().map(|t| elems(t, 3, Type::UD, 8)).collect()
}

#[test]
fn threads_with_correct_scratch_sizes_keep_their_data() {
    let correct = "and(1) v0+12:UD, g0.3<0;1,0>:UD, 0xf:UD { NoMask }";
    let got = scratch_run(&scratch_program(1024, 1024, correct));
    assert_eq!(got[0], some(&[0; 8]));
    assert_eq!(got[1], some(&[1; 8]));
    // Thread 1 reading its own offset 0 finds nothing there.
    let got = scratch_run(&scratch_program(1024, 0, correct));
    assert!(got[1].iter().all(Option::is_none));
}

#[test]
fn wrong_per_thread_size_reads_the_other_threads_data() {
    // Encoding 0 (1 KB) although the threads were laid out 2 KB apart: thread 1's offset 0
    // is thread 0's offset 1024.
    let wrong = "mov(1) v0+12:UD, 0:UD { NoMask }";
    let got = scratch_run(&scratch_program(1024, 0, wrong));
    assert_eq!(got[1], some(&[0; 8]), "thread 1 sees thread 0's FFTID");
}

#[test]
fn masked_scratch_access_touches_enabled_channels_only() {
    let text = "eu 1\ntarget skl\ndispatch 8\nthreads 1\nscratch 1024\nvgrf v0 1\nvgrf v1 1\nSTART B0\n\
        mov(8) v0:UD, 5:UD { NoMask }\nscratch_write(8) null:UD, v0:UD, 0:UD { NoMask }\n\
        mov(8) v0:UD, 9:UD\nscratch_write(8) null:UD, v0:UD, 0:UD\n\
        scratch_read(8) v1:UD, 0:UD\nscratch_read(8) v0:UD, 0:UD { NoMask }\nEND B0\n";
    let p = parse_program(text).unwrap();
    let mut inputs = Inputs::default();
    inputs.dispatch_masks.insert(0, 0b0000_1111);
    let (_, regs) = run_inspect(&p, &inputs, &RunConfig::default());
    // The masked write only replaced the enabled channels' dwords.
    assert_eq!(
        elems(&regs[0], 0, Type::UD, 8),
        some(&[9, 9, 9, 9, 5, 5, 5, 5])
    );
    // A masked read lands only in enabled channels.
    let masked = elems(&regs[0], 1, Type::UD, 8);
    assert_eq!(masked[..4], some(&[9; 4])[..]);
    assert!(masked[4..].iter().all(Option::is_none));
}

// ---------------------------------------------------------------- messages

#[test]
fn render_target_writes_record_enabled_channels() {
    let text = "eu 1\ntarget skl\ndispatch 8\nthreads 2\nvgrf v0 4\nSTART B0\n\
        mov(8) v0:F, 1.0:F\nmov(8) v0+32:F, 2.0:F\nfb_write_logical(8) null:UD, v0:F, 2:UD, 1:UD { EOT }\nEND B0\n";
    let p = parse_program(text).unwrap();
    let mut inputs = Inputs::default();
    inputs.dispatch_masks.insert(1, 0b101);
    let r = run(&p, &inputs, &RunConfig::default());
    assert_eq!(r.threads.len(), 2);
    assert!(r.threads.iter().all(|t| t.eot && t.rt_writes.len() == 1));
    let w = &r.threads[1].rt_writes[0];
    assert_eq!((w.target, w.components), (1, 2));
    assert_eq!(
        w.channels.iter().map(|c| c.channel).collect::<Vec<_>>(),
        vec![0, 2]
    );
    assert_eq!(
        w.channels[0].values,
        vec![1.0f32.to_bits(), 2.0f32.to_bits()]
    );
    assert_eq!(w.channels[0].defined, vec![0xf, 0xf]);
    assert_eq!(r.threads[0].rt_writes[0].channels.len(), 8);
}

#[test]
fn buffer_reads_and_writes_are_bounds_checked() {
    let text = "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nvgrf v0 1\nvgrf v1 1\nSTART B0\n\
        shl(8) v0:UD, attr0:UD, 2:UD\n\
        untyped_read_logical(8) v1:UD, v0:UD, 0:UD, 1:UD\n\
        add(8) v1:UD, v1:UD, 100:UD\n\
        untyped_write_logical(8) null:UD, v0:UD, v1:UD, 0:UD, 1:UD\nEND B0\n";
    let p = parse_program(text).unwrap();
    let mut inputs = Inputs::default();
    inputs
        .attrs
        .insert((0, 0), [0u32, 1, 2, 3, 4, 5, 6, 100].map(ud).to_vec());
    inputs
        .buffers
        .insert(0, (0..8u32).map(|i| ud(i * 10)).collect());
    let r = run(&p, &inputs, &RunConfig::default());
    let b = &r.buffers[&0];
    let word = |i: usize| {
        u32::from_le_bytes([
            b.bytes[4 * i],
            b.bytes[4 * i + 1],
            b.bytes[4 * i + 2],
            b.bytes[4 * i + 3],
        ])
    };
    assert_eq!(
        (0..7).map(word).collect::<Vec<_>>(),
        vec![100, 110, 120, 130, 140, 150, 160]
    );
    assert_eq!(
        word(7),
        70,
        "channel 7 read and wrote out of bounds: dropped"
    );
    assert!(
        r.diagnostics
            .iter()
            .any(|x| x.kind == DiagKind::OutOfBounds)
    );
}

#[test]
fn texture_sample_is_deterministic() {
    let text = "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nvgrf v0 4\nSTART B0\n\
        tex_logical(8) v0:F, attr0:F, attr1:F, 3:UD\nEND B0\n";
    let p = parse_program(text).unwrap();
    let mut inputs = Inputs::default();
    inputs.attrs.insert(
        (0, 0),
        [0.0f32, 0.5, 1.25, -0.25, f32::NAN, 0.0, 0.0, 0.0]
            .map(f)
            .to_vec(),
    );
    inputs.attrs.insert(
        (0, 1),
        [0.0f32, 0.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0].map(f).to_vec(),
    );
    let (_, regs) = run_inspect(&p, &inputs, &RunConfig::default());
    let r = elems(&regs[0], 0, Type::F, 8);
    // u = 0.5, v = 0.25 → x = 8, y = 4 → r = (8 ^ 4 ^ 3) / 15 = 15 / 15.
    assert_eq!(r[1], Some(1.0f32.to_bits() as u64));
    // u = -0.25 wraps to 0.75 → x = 12: g = 12 / 15.
    let g = elems(&regs[0], 0, Type::F, 16);
    assert_eq!(g[8 + 3], Some((12.0f32 / 15.0).to_bits() as u64));
    assert_eq!(r[4], Some(0), "NaN coordinates sample zero");
}

#[test]
fn load_payload_copies_header_unmasked_and_components_masked() {
    let text = "eu 1\ntarget skl\ndispatch 8\nvgrf v0 1\nvgrf v1 1\nvgrf v2 3\nSTART B0\n\
        mov(8) v0:UD, 7:UD { NoMask }\nmov(8) v1:UD, 9:UD { NoMask }\n\
        load_payload(8) v2:UD, v0:UD, v1:UD, v1:UD { header=1 }\nEND B0\n";
    let p = parse_program(text).unwrap();
    let mut inputs = Inputs::default();
    inputs.dispatch_masks.insert(0, 0b0000_0011);
    let (_, regs) = run_inspect(&p, &inputs, &RunConfig::default());
    let v = elems(&regs[0], 2, Type::UD, 24);
    assert_eq!(v[..8], some(&[7; 8])[..], "the header is copied whole");
    assert_eq!(v[8..10], some(&[9, 9])[..]);
    assert!(
        v[10..16].iter().all(Option::is_none),
        "disabled channels are not copied"
    );
}

/// A header source is read as eight NoMask UD channels of the operand, region and all, the
/// MOV `lower_load_payload` makes of it (docs/hardware/brw-backend.md §7.3): a scalar region
/// repeats its dword, and `<0;4,1>` repeats its first four dwords.
#[test]
fn load_payload_reads_a_header_source_through_its_region() {
    let text = "eu 1\ntarget skl\ndispatch 8\nvgrf v0 3\nSTART B0\n\
        mov(8) g10<8;8,1>:UD, 0x76543210:UV { NoMask }\n\
        load_payload(8) v0:UD, g10.2<0;1,0>:UD, g10.4<0;4,1>:UD, g10<8;8,1>:UD { header=2 }\nEND B0\n";
    let p = parse_program(text).unwrap();
    let mut inputs = Inputs::default();
    inputs.dispatch_masks.insert(0, 0b0000_0001);
    let (_, regs) = run_inspect(&p, &inputs, &RunConfig::default());
    let v = elems(&regs[0], 0, Type::UD, 24);
    assert_eq!(
        v[..8],
        some(&[2; 8])[..],
        "a scalar header source is broadcast"
    );
    assert_eq!(
        v[8..16],
        some(&[4, 5, 6, 7, 4, 5, 6, 7])[..],
        "a 2-D header source follows its rows"
    );
    assert_eq!(v[16], Some(0));
    assert!(v[17..].iter().all(Option::is_none), "one channel enabled");
}

/// Threads may all read the same input bytes; a byte one thread writes is racy for every
/// other thread that reads it, whichever order the schedule happens to run them in.
#[test]
fn buffer_races_are_undefined_whatever_the_schedule() {
    let program = |body: &str| {
        parse_program(&format!(
            "eu 1\ntarget skl\ndispatch 8\nthreads 2\nattr attr0 1\nvgrf v0 1\nvgrf v1 1\nvgrf v2 4\n\
             START B0\n    mov(8) v0:UD, 0:UD\n    untyped_read_logical(8) v1:UD, v0:UD, 0:UD, 1:UD\n\
             {body}    mov(8) v2:UD, v1:UD\n    fb_write_logical(8) null:UD, v2:F, 1:UD, 0:UD {{ EOT }}\nEND B0\n"
        ))
        .unwrap()
    };
    let mut inputs = Inputs::default();
    inputs.buffers.insert(0, vec![ud(7); 64]);
    let read_value = |r: &oracle::RunResult, t: usize| {
        let ch = &r.threads[t].rt_writes[0].channels[0];
        (ch.values[0], ch.defined[0])
    };
    let readers = run(&program(""), &inputs, &RunConfig::default());
    assert_eq!(read_value(&readers, 0), (7, 0xf));
    assert_eq!(read_value(&readers, 1), (7, 0xf));
    // Thread 1 writes byte 0 only after every read; thread 0's read is still racy, and so
    // is thread 1's own read (thread 0 writes the same byte).
    let writer = "    untyped_write_logical(8) null:UD, v0:UD, attr0:UD, 0:UD, 1:UD\n";
    let r = run(&program(writer), &inputs, &RunConfig::default());
    assert_eq!(
        read_value(&r, 0).1,
        0,
        "a read of a byte another thread writes"
    );
    assert_eq!(r.buffers[&0].defined[0], 0, "two threads wrote the byte");
    assert_eq!(r.buffers[&0].defined[8], 1, "untouched bytes stay defined");
}

/// A MOV between operands of one type copies bits (docs/hardware/eu-hardware.md §3.6): a flag
/// subregister saved to a register and moved back keeps the bits its writers defined, and the
/// byte no instruction wrote stays undefined (the Gen4/5 min/max lowering saves a live flag
/// this way).
#[test]
fn a_flag_saved_to_a_register_and_restored_keeps_its_defined_byte() {
    let text = "eu 1\ntarget g45\ndispatch 8\nvgrf v0 1\nvgrf v1 1\nvgrf v2 1\nSTART B0\n\
        mov(8) v2:D, 0x76543210:V\n\
        cmp.g.f0.0(8) null:D, v2:D, 3:D\n\
        mov(1) v0:UW, f0.0<0;1,0>:UW { NoMask }\n\
        cmp.l.f0.0(8) null:D, v2:D, 3:D\n\
        mov(1) f0.0<8;8,1>:UW, v0<0>:UW { NoMask }\n\
        mov(8) v1:D, 0:D\n\
        (+f0.0) mov(8) v1:D, 1:D\nEND B0\n";
    let p = parse_program(text).unwrap();
    let mut inputs = Inputs::default();
    inputs.dispatch_masks.insert(0, 0xff);
    let (_, regs) = run_inspect(&p, &inputs, &RunConfig::default());
    let saved = elems(&regs[0], 0, Type::UB, 2);
    assert_eq!(
        saved,
        [Some(0xf0), None],
        "bits 4..7 are set, byte 1 unwritten"
    );
    let v1 = elems(&regs[0], 1, Type::D, 8);
    assert_eq!(
        v1,
        some(&[0, 0, 0, 0, 1, 1, 1, 1]),
        "the restored bits of g > 3"
    );
}
