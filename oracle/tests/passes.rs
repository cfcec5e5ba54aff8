//! Mesa-style tests of each lowering pass: build input IR, run the one pass, compare the
//! printed result with the expected IR, and run input and output on the emulator with
//! several generated inputs to show the output refines the input (same observable writes,
//! and, before register allocation, the same bytes in every VGRF the input declares).

use compiler::pass::{CompileOptions, PassError};
use compiler::passes::{
    allocate_registers, lower_alu_restrictions, lower_integer_multiplication, lower_load_payload,
    lower_logical_sends, lower_payload_inputs, lower_regioning, lower_simd_width,
};
use compiler::program::Program;
use compiler::text::{parse_program, print_inst};
use oracle::compare::{Dword, compare, refines};
use oracle::inputs::generate;
use oracle::{Outcome, RunConfig, run_inspect};

type PassFn = fn(&mut Program, &CompileOptions) -> Result<bool, PassError>;

/// Seeds of the generated inputs each input/output pair is run on.
const SEEDS: std::ops::Range<u64> = 0..8;

/// A valid program on `target` with two uniform registers, attr0/attr1 (4 registers each),
/// v0/v1 (4), v2 (8), v3 (16) and `body` as its one block.
fn program(target: &str, dispatch: u32, body: &str) -> Program {
    let text = format!(
        "eu 1\ntarget {target}\ndispatch {dispatch}\nuniforms 2\nattr attr0 4\nattr attr1 4\n\
         vgrf v0 4\nvgrf v1 4\nvgrf v2 8\nvgrf v3 16\nSTART B0\n{body}\nEND B0\n"
    );
    let mut p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    p.resplit();
    let violations = compiler::validate::validate(&p);
    assert!(violations.is_empty(), "invalid test input: {violations:?}");
    p
}

fn printed(p: &Program) -> Vec<String> {
    p.insts().map(print_inst).collect()
}

fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// The first way `output` fails to refine `input` over the generated inputs, if any.
fn disagreement(input: &Program, output: &Program) -> Option<String> {
    let cfg = RunConfig::default();
    let compare_vgrfs = output.has_vgrf_operands();
    for seed in SEEDS {
        let inputs = generate(input, seed);
        let (expected, expected_regs) = run_inspect(input, &inputs, &cfg);
        assert_eq!(expected.outcome, Outcome::Completed, "input did not run");
        let (actual, actual_regs) = run_inspect(output, &inputs, &cfg);
        if let Some(d) = compare(&expected, &actual).first() {
            return Some(format!("seed {seed}: {d:?}"));
        }
        if !compare_vgrfs {
            assert!(
                expected.threads.iter().any(|t| !t.rt_writes.is_empty()),
                "allocated IR is compared through render-target writes, and the input makes none"
            );
            continue;
        }
        for (thread, (e, a)) in expected_regs.iter().zip(&actual_regs).enumerate() {
            for v in 0..input.vgrf_sizes.len() {
                let (eb, ed) = e.vgrf(v);
                let (ab, ad) = a.vgrf(v);
                for at in (0..eb.len()).step_by(4) {
                    let (e, a) = (
                        Dword::from_flags(&eb[at..at + 4], &ed[at..at + 4]),
                        Dword::from_flags(&ab[at..at + 4], &ad[at..at + 4]),
                    );
                    if !refines(e, a) {
                        return Some(format!(
                            "seed {seed}, thread {thread}: v{v}+{at} is {:#010x} (defined {:#x}), expected {:#010x} (defined {:#x})",
                            a.value, a.defined, e.value, e.defined
                        ));
                    }
                }
            }
        }
    }
    None
}

fn check_pass_with(
    pass: PassFn,
    opts: &CompileOptions,
    target: &str,
    dispatch: u32,
    body: &str,
    expected: &str,
) {
    let input = program(target, dispatch, body);
    let mut output = input.clone();
    let progress = pass(&mut output, opts).unwrap_or_else(|e| panic!("pass failed: {e}"));
    assert!(progress, "the pass reported no progress");
    let got = printed(&output);
    let want = lines(expected);
    if got != want {
        let (want, got) = (want.join("\n"), got.join("\n"));
        let diff = similar::TextDiff::from_lines(want.as_str(), got.as_str())
            .unified_diff()
            .header("expected", "actual")
            .to_string();
        panic!("unexpected output:\n{diff}");
    }
    if let Some(d) = disagreement(&input, &output) {
        panic!("output does not refine input: {d}");
    }
}

fn check_pass(pass: PassFn, target: &str, dispatch: u32, body: &str, expected: &str) {
    check_pass_with(
        pass,
        &CompileOptions::default(),
        target,
        dispatch,
        body,
        expected,
    );
}

/// A pass given IR it has nothing to do for reports no progress and leaves it unchanged.
fn check_no_progress(pass: PassFn, target: &str, dispatch: u32, body: &str) {
    let input = program(target, dispatch, body);
    let mut output = input.clone();
    let progress = pass(&mut output, &CompileOptions::default()).unwrap();
    assert!(!progress, "the pass reported progress");
    assert_eq!(printed(&output), printed(&input));
}

#[test]
fn the_emulator_comparison_catches_a_wrong_lowering() {
    let input = program("icl", 8, "    mul(8) v0:D, attr0:D, attr1:D");
    let mut output = input.clone();
    lower_integer_multiplication::run(&mut output, &CompileOptions::default()).unwrap();
    assert_eq!(disagreement(&input, &output), None);
    // Dropping the high-half add leaves only the low 16 bits of the second operand's product.
    let broken: Vec<_> = output
        .take_insts()
        .into_iter()
        .filter(|i| i.op != compiler::opcode::Opcode::Add)
        .collect();
    output.set_insts(broken);
    assert!(disagreement(&input, &output).is_some());
}

#[test]
fn legal_instructions_are_left_alone() {
    let body = "    add(8) v0:F, attr0:F, attr1:F\n    mul(8) v1:F, v0:F, 2.0:F";
    check_no_progress(lower_simd_width::run, "skl", 8, body);
    check_no_progress(lower_logical_sends::run, "skl", 8, body);
    check_no_progress(lower_load_payload::run, "skl", 8, body);
    check_no_progress(lower_integer_multiplication::run, "skl", 8, body);
    check_no_progress(lower_regioning::run, "skl", 8, body);
    check_no_progress(lower_alu_restrictions::run, "skl", 8, body);
}

#[test]
fn splits_simd32_alu_into_halves() {
    check_pass(
        lower_simd_width::run,
        "skl",
        32,
        "
        add(32) v0:F, attr1:F, attr0:F
        ",
        "
        add(16) v0:F, attr1:F, attr0:F
        add(16) v0+64:F, attr1+64:F, attr0+64:F { 2H }
        ",
    );
}

#[test]
fn splits_simd32_framebuffer_write_and_its_payload() {
    check_pass(
        lower_simd_width::run,
        "skl",
        32,
        "
        mov(32) v3:F, attr0:F
        mov(32) v3+128:F, attr1:F
        add(32) v3+256:F, attr0:F, attr1:F
        mul(32) v3+384:F, attr0:F, attr1:F
        fb_write_logical(32) null:UD, v3:F, 4:UD, 0:UD { EOT }
        ",
        "
        mov(16) v3:F, attr0:F
        mov(16) v3+64:F, attr0+64:F { 2H }
        mov(16) v3+128:F, attr1:F
        mov(16) v3+192:F, attr1+64:F { 2H }
        add(16) v3+256:F, attr0:F, attr1:F
        add(16) v3+320:F, attr0+64:F, attr1+64:F { 2H }
        mul(16) v3+384:F, attr0:F, attr1:F
        mul(16) v3+448:F, attr0+64:F, attr1+64:F { 2H }
        mov(16) v4:F, v3:F
        mov(16) v4+64:F, v3+128:F
        mov(16) v4+128:F, v3+256:F
        mov(16) v4+192:F, v3+384:F
        mov(16) v5:F, v3+64:F { 2H }
        mov(16) v5+64:F, v3+192:F { 2H }
        mov(16) v5+128:F, v3+320:F { 2H }
        mov(16) v5+192:F, v3+448:F { 2H }
        fb_write_logical(16) null:UD, v4:F, 4:UD, 0:UD
        fb_write_logical(16) null:UD, v5:F, 4:UD, 0:UD { 2H EOT }
        ",
    );
}

#[test]
fn splits_simd16_double_precision_keeping_the_predicate() {
    check_pass(
        lower_simd_width::run,
        "skl",
        16,
        "
        cmp.l.f0.0(16) null:F, attr0:F, 0.0:F
        (+f0.0) add(16) v2:DF, u0:DF, u0:DF
        ",
        "
        cmp.l.f0.0(16) null:F, attr0:F, 0.0:F
        (+f0.0) add(8) v2:DF, u0:DF, u0:DF
        (+f0.0) add(8) v2+64:DF, u0:DF, u0:DF { 2Q }
        ",
    );
}

#[test]
fn widens_g45_simd8_sampler_message_to_simd16() {
    check_pass(
        lower_simd_width::run,
        "g45",
        8,
        "
        tex_logical(8) v2:F, attr0:F, attr1:F, 1:UD
        ",
        "
        mov(8) v4:F, attr0:F
        mov(8) v5:F, attr1:F
        tex_logical(16) v6:F, v4:F, v5:F, 1:UD { NoMask }
        mov(8) v2:F, v6:F
        mov(8) v2+32:F, v6+64:F
        mov(8) v2+64:F, v6+128:F
        mov(8) v2+96:F, v6+192:F
        ",
    );
}

#[test]
fn framebuffer_write_becomes_payload_and_eot_send() {
    check_pass(
        lower_logical_sends::run,
        "skl",
        16,
        "
        mov(16) v2:F, attr0:F
        mov(16) v2+64:F, attr1:F
        mov(16) v2+128:F, attr0+64:F
        mov(16) v2+192:F, attr1+64:F
        fb_write_logical(16) null:UD, v2:F, 4:UD, 0:UD { EOT }
        ",
        "
        mov(16) v2:F, attr0:F
        mov(16) v2+64:F, attr1:F
        mov(16) v2+128:F, attr0+64:F
        mov(16) v2+192:F, attr1+64:F
        load_payload(16) v4:UD, v2:UD, v2+64:UD, v2+128:UD, v2+192:UD
        send(16) null:UD, v4:UD, null:UD desc(rt_write target=0 mlen=8 ex_mlen=0 rlen=0) { EOT }
        ",
    );
}

#[test]
fn predicated_untyped_read_keeps_its_predicate() {
    check_pass(
        lower_logical_sends::run,
        "skl",
        16,
        "
        cmp.g.f0.1(16) null:F, attr1:F, 0.0:F
        (+f0.1) untyped_read_logical(16) v2:UD, attr0:UD, 3:UD, 2:UD
        ",
        "
        cmp.g.f0.1(16) null:F, attr1:F, 0.0:F
        load_payload(16) v4:UD, attr0:UD
        (+f0.1) send(16) v2:UD, v4:UD, null:UD desc(untyped_read surface=3 comps=2 mlen=2 ex_mlen=0 rlen=4)
        ",
    );
}

#[test]
fn load_payload_becomes_header_and_per_source_moves() {
    check_pass(
        lower_load_payload::run,
        "skl",
        8,
        "
        load_payload(8) v2:UD, attr1:UD, attr0:F, null:UD, attr1:D { header=1 }
        ",
        "
        mov(8) v2:UD, attr1:UD { NoMask }
        mov(8) v2+32:F, attr0:F
        mov(8) v2+96:D, attr1:D
        ",
    );
}

/// A header source that is not a whole register's dwords is copied as the header MOV reads
/// it (docs/hardware/brw-backend.md §7.3): a uniform is broadcast, and an immediate fills
/// the register; the emulator reads LOAD_PAYLOAD's header the same way, so the two agree.
#[test]
fn load_payload_header_of_a_uniform_is_broadcast_by_its_move() {
    check_pass(
        lower_load_payload::run,
        "skl",
        8,
        "
        load_payload(8) v2:UD, u1:UD, 5:UD, attr0:UD { header=2 }
        ",
        "
        mov(8) v2:UD, u1:UD { NoMask }
        mov(8) v2+32:UD, 5:UD { NoMask }
        mov(8) v2+64:UD, attr0:UD
        ",
    );
}

#[test]
fn small_immediates_use_word_multiplies() {
    check_pass(
        lower_integer_multiplication::run,
        "icl",
        8,
        "
        mul(8) v0:D, attr0:D, 40000:D
        mul(8) v1:D, attr0:D, -7:D
        ",
        "
        mul(8) v0:D, attr0:D, 40000:UW
        mul(8) v1:D, attr0:D, -7:W
        ",
    );
}

#[test]
fn dword_multiply_on_gen11_is_split_into_word_halves() {
    check_pass(
        lower_integer_multiplication::run,
        "icl",
        8,
        "
        mul.nz.f0.0(8) v0:D, attr0:D, -attr1:D
        ",
        "
        mov(8) v4:D, -attr1:D
        mul(8) v5:UD, attr0:D, v4<2>:UW
        mul(8) v6:UD, attr0:D, v4+2<2>:UW
        add(8) v5+2<2>:UW, v5+2<2>:UW, v6<2>:UW
        mov.nz.f0.0(8) v0:D, v5:D
        ",
    );
}

#[test]
fn mulh_becomes_mul_into_accumulator_and_mach() {
    check_pass(
        lower_integer_multiplication::run,
        "skl",
        8,
        "
        mulh(8) v0:UD, attr0:UD, attr1:UD
        ",
        "
        mul(8) acc0<8;8,1>:UD, attr0:UD, attr1<2>:UW
        mach(8) v0:UD, attr0:UD, attr1:UD
        ",
    );
}

#[test]
fn gen7_mulh_pair_that_would_split_goes_through_packed_temporaries() {
    // A stride-2 destination spanning two registers with a one-register src1 copy would
    // make the MACH split in half on Gen7, and a split MACH reads the wrong accumulator
    // lanes: the pair runs on packed copies instead.
    check_pass(
        lower_integer_multiplication::run,
        "ivb",
        8,
        "
        mov(8) v0:UD, attr0:UD
        mov(8) v0+32:UD, attr0+32:UD
        mulh(8) v0+4<2>:D, v0+4<2>:D, (abs)attr1:D
        ",
        "
        mov(8) v0:UD, attr0:UD
        mov(8) v0+32:UD, attr0+32:UD
        mov(8) v4:D, (abs)attr1:D
        mov(8) v5:D, v0+4<2>:D
        mul(8) acc0<8;8,1>:D, v5:D, v4<2>:UW
        mach(8) v6:D, v5:D, v4:D
        mov(8) v0+4<2>:D, v6:D
        ",
    );
}

#[test]
fn narrow_destinations_go_through_a_strided_temporary() {
    check_pass(
        lower_regioning::run,
        "skl",
        8,
        "
        mov(8) v0:HF, attr0:F
        add(8) v1:W, attr0:D, attr1:D
        ",
        "
        mov(8) v4<2>:HF, attr0:F
        mov(8) v0:UW, v4<2>:UW
        add(8) v5<2>:W, attr0:D, attr1:D
        mov(8) v1:UW, v5<2>:UW
        ",
    );
}

#[test]
fn mixed_math_reads_half_floats_at_an_encoded_stride_above_one() {
    // Align1 mixed-mode math needs HF sources with HorzStride > 1 (docs/hardware/
    // eu-hardware.md §6.5). A push constant is encoded <0;1,0> (HorzStride 0), and a stride of
    // four HF from byte 6 cannot be rows of a register, so it is encoded as one-element rows
    // <4;1,0>: both are copied, as raw words, to a temporary read at a stride of 2. A
    // stride-2 source already has HorzStride 2 and stays.
    check_pass(
        lower_regioning::run,
        "skl",
        8,
        "
        sqrt(8) v0:F, u0:HF
        sqrt(8) v1:F, attr0+6<4>:HF
        sqrt(8) v2:F, attr1+2<2>:HF
        ",
        "
        mov(8) v4<2>:UW, u0:UW
        sqrt(8) v0:F, v4<2>:HF
        mov(8) v5<2>:UW, attr0+6<4>:UW
        sqrt(8) v1:F, v5<2>:HF
        sqrt(8) v2:F, attr1+2<2>:HF
        ",
    );
}

#[test]
fn dg2_mixed_math_into_a_straddling_destination_goes_through_an_aligned_temporary() {
    // Gfx12.5 wants every source of a float-destination instruction at the destination's
    // offset and stride (docs/hardware/eu-hardware.md §3.7, §6.9). A two-channel F destination at byte 28
    // straddles a register, and an HF copy aligned to it could only be encoded as
    // one-element rows (HorzStride 0), which Align1 mixed math forbids for HF inputs (§6.5):
    // the math writes an offset-0 temporary instead and a raw move puts the result in place.
    // Where the destination does not straddle, the HF source goes to a stride-2 temporary
    // and that to the destination's offset.
    check_pass(
        lower_regioning::run,
        "dg2",
        8,
        "
        cos(2) v0+28:F, u1+2:HF { group6 }
        cos(4) v1+4:F, u1+2:HF
        ",
        "
        mov(2) v4<2>:UW, u1+2:UW { group6 }
        cos(2) v5:F, v4<2>:HF { group6 }
        mov(2) v0+28:UD, v5:UD { group6 }
        mov(4) v6<2>:UW, u1+2:UW
        mov(4) v7+4<2>:UW, v6<2>:UW
        cos(4) v1+4:F, v7+4<2>:HF
        ",
    );
}

#[test]
fn one_channel_mixed_math_reads_half_float_sources_as_float() {
    // A one-channel region is always <0;1,0>, so a one-channel piece of mixed math can never
    // read an HF source at the HorzStride above 1 that Align1 mixed math needs
    // (docs/hardware/eu-hardware.md §6.5). The source is converted to F first: exact, and
    // the math computes in F anyway (§3.4). An HF destination is allowed and stays.
    check_pass(
        lower_regioning::run,
        "bdw",
        8,
        "
        pow(1) v1+2<2>:HF, attr0+4<2>:F, u0:HF { group1 }
        sqrt(1) v2:F, attr1+6:HF { group3 }
        ",
        "
        mov(1) v4:F, u0:HF { group1 }
        pow(1) v1+2<2>:HF, attr0+4<2>:F, v4:F { group1 }
        mov(1) v5:F, attr1+6:HF { group3 }
        sqrt(1) v2:F, v5:F { group3 }
        ",
    );
}

#[test]
fn one_channel_strided_half_float_destination_is_encoded_at_horizontal_stride_two() {
    // A packed HF result of Align1 mixed math must be oword aligned (docs/hardware/
    // eu-hardware.md §6.5), and byte 22 of a register is not. One channel writes the same
    // two bytes whatever the stride, so the allocator encodes a one-channel HF destination
    // of stride 4 as HorzStride 2 (<16;8,2>), which is not packed. (v1 is four registers, more
    // than the message reads, so it is copied into g112.)
    check_pass_with(
        allocate_registers::run,
        &CompileOptions {
            o0: true,
            ..CompileOptions::default()
        },
        "skl",
        8,
        "
        sin(1) v0+22<4>:HF, g2<0;1,0>:F
        mov(8) v2:F, v0+16:HF
        mov(8) v1:UD, v2:UD
        send(8) null:UD, v1:UD, null:UD desc(rt_write target=0 mlen=1 ex_mlen=0 rlen=0) { EOT }
        ",
        "
        sin(1) g10.11<16;8,2>:HF, g2<0;1,0>:F
        mov(8) g14<8;8,1>:F, g10.8<8;8,1>:HF
        mov(8) g10<8;8,1>:UD, g14<8;8,1>:UD
        mov(8) g112<8;8,1>:UD, g10<8;8,1>:UD { NoMask }
        send(8) null:UD, g112<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=1 ex_mlen=0 rlen=0) { EOT }
        ",
    );
}

#[test]
fn predicated_mach_into_a_straddling_fixed_grf_reads_the_old_value_through_a_legal_region() {
    // MACH reads the accumulator lanes its quarter picks, so it is never split (docs/
    // hardware/brw-backend.md §4.2): a destination that straddles g35/g36 gets a packed
    // temporary, and, predicated, the temporary starts as a copy of the old destination.
    // That copy reads g35.7 as a source, and eight dwords from g35.7 in one row of
    // `<8;8,1>` would cross a register, which a source row may not (docs/hardware/
    // eu-hardware.md §1.5): it reads them as one-element rows, `<1;1,0>`.
    check_pass(
        lower_simd_width::run,
        "bdw",
        8,
        "
        cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
        mov(8) g35<8;8,1>:UD, attr0:UD
        mov(8) g36<8;8,1>:UD, attr1:UD
        mul(8) acc0<8;8,1>:UD, attr0:UD, attr1<2>:UW
        (+f0.0) mach(8) g35.7<8;8,1>:UD, attr0:UD, attr1:UD
        mov(8) v0:UD, g35.7<1;1,0>:UD
        ",
        "
        cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
        mov(8) g35<8;8,1>:UD, attr0:UD
        mov(8) g36<8;8,1>:UD, attr1:UD
        mul(8) acc0<8;8,1>:UD, attr0:UD, attr1<2>:UW
        mov(8) v4:UD, g35.7<1;1,0>:UD
        (+f0.0) mach(8) v4:UD, attr0:UD, attr1:UD
        mov(2) g35.7<8;8,1>:UD, v4:UD
        mov(2) g36.1<8;8,1>:UD, v4+8:UD { group2 }
        mov(2) g36.3<8;8,1>:UD, v4+16:UD { group4 }
        mov(2) g36.5<8;8,1>:UD, v4+24:UD { group6 }
        mov(8) v0:UD, g35.7<1;1,0>:UD
        ",
    );
}

#[test]
fn in_place_fixed_grf_split_goes_through_a_temporary() {
    // The W source reads the 32 bytes of g15 that the first SIMD8 half writes as F: split
    // in place, the second half would read the first half's result (an overlap of fixed
    // GRFs, which the pass compares by their bytes as it does VGRFs).
    check_pass(
        lower_simd_width::run,
        "hsw",
        16,
        "
        mov(16) g15<8;8,1>:UD, attr0:UD
        add(16) g15<8;8,1>:F, g15<16;16,1>:W, 1:W
        mov(16) v2:F, g15<8;8,1>:F
        ",
        "
        mov(16) g15<8;8,1>:UD, attr0:UD
        add(8) v4:F, g15<8;8,1>:W, 1:W
        add(8) v5:F, g15.8<8;8,1>:W, 1:W { 2Q }
        mov(8) g15<8;8,1>:F, v4:F
        mov(8) g16<8;8,1>:F, v5:F { 2Q }
        mov(16) v2:F, g15<8;8,1>:F
        ",
    );
}

#[test]
fn chv_compare_into_a_half_float_null_takes_the_sources_type() {
    // No conversion exists between 64-bit types and HF (docs/hardware/eu-hardware.md §6),
    // and a compare's flag comes from its sources: the null destination becomes Q.
    check_pass(
        lower_regioning::run,
        "chv",
        8,
        "
        cmpn.z.f1.0(8) null:HF, attr0:Q, 0:Q
        (+f1.0) mov(8) v1:F, 1.0:F
        ",
        "
        cmpn.z.f1.0(8) null:Q, attr0:Q, 0:Q
        (+f1.0) mov(8) v1:F, 1.0:F
        ",
    );
}

#[test]
fn chv_compare_into_a_64bit_null_with_one_narrow_source_takes_the_sources_type() {
    // The execution type of HF and UB sources is a word type, yet each source still
    // converts to the Q destination, and HF ↔ 64-bit has no conversion
    // (docs/hardware/eu-hardware.md §6): the null becomes HF like the first source.
    check_pass(
        lower_regioning::run,
        "chv",
        8,
        "
        cmp.ge.f0.0(8) null:Q, 0.0:HF, attr0:UB
        (+f0.0) mov(8) v1:F, 1.0:F
        ",
        "
        cmp.ge.f0.0(8) null:HF, 0.0:HF, attr0:UB
        (+f0.0) mov(8) v1:F, 1.0:F
        ",
    );
}

#[test]
fn chv_three_source_df_copy_moves_dword_halves() {
    // An Align16 source must start a register (docs/hardware/eu-hardware.md §1.3), so
    // v1+16 is copied; a DF move from offset 16 to offset 0 breaks the low-power rule that
    // source and destination share an offset (§5.1), so the dword halves move instead.
    check_pass(
        lower_alu_restrictions::run,
        "chv",
        8,
        "
        mov(8) v1:DF, attr0:F
        mad(2) v2:DF, v1+16:DF, v1:DF, v1:DF
        ",
        "
        mov(8) v1:DF, attr0:F
        mov(2) v4<2>:UD, v1+16<2>:UD
        mov(2) v4+4<2>:UD, v1+20<2>:UD
        mad(2) v2:DF, v4:DF, v1:DF, v1:DF
        ",
    );
}

#[test]
fn chv_float_to_double_source_is_made_dword_aligned() {
    check_pass(
        lower_regioning::run,
        "chv",
        8,
        "
        mov(8) v2:DF, attr0:F
        ",
        "
        mov(8) v4<2>:UD, attr0:UD
        mov(8) v2:DF, v4<2>:F
        ",
    );
}

#[test]
fn a_region_read_as_one_row_gets_the_row_vertical_stride() {
    check_pass(
        lower_regioning::run,
        "ivb",
        8,
        "
        mov(1) f1.0<0;1,0>:UD, 2583757315:UD { NoMask }
        mov(4) v0:UD, f1.0<0;4,1>:UB
        mov(4) v0+16:UD, f1.0<0;4,1>:UB { 2N }
        ",
        "
        mov(1) f1.0<0;1,0>:UD, 2583757315:UD { NoMask }
        mov(4) v0:UD, f1.0<4;4,1>:UB
        mov(4) v0+16:UD, f1.0<4;4,1>:UB { 2N }
        ",
    );
}

#[test]
fn immediates_move_to_legal_sources() {
    check_pass(
        lower_alu_restrictions::run,
        "skl",
        8,
        "
        add(8) v0:F, 1.5:F, attr0:F
        cmp.l.f0.0(8) null:D, 3:D, attr0:D
        mad(8) v1:F, v0:F, 2.0:F, attr1:F
        ",
        "
        add(8) v0:F, attr0:F, 1.5:F
        cmp.g.f0.0(8) null:D, attr0:D, 3:D
        mov(1) v4<0>:F, 2.0:F { NoMask }
        mad(8) v1:F, v0:F, v4<0>:F, attr1:F
        ",
    );
}

#[test]
fn three_source_immediates_are_loaded_into_registers() {
    check_pass(
        lower_alu_restrictions::run,
        "icl",
        8,
        "
        mad(8) v1:F, 0.5:F, 2.0:F, attr1:F
        ",
        "
        mov(1) v4<0>:F, 0.5:F { NoMask }
        mov(1) v5<0>:F, 2.0:F { NoMask }
        mad(8) v1:F, v4<0>:F, attr1:F, v5<0>:F
        ",
    );
}

#[test]
fn a_predicated_flag_write_moved_through_a_temporary_is_copied_back_unpredicated() {
    // docs/hardware/brw-backend.md §5.4: a three-source destination at a sub-register
    // (Align16, SKL) moves through a temporary. The MAD's .nz rewrites f0.0, which its
    // predicate read, so a predicated copy back would read the new bits: the temporary is
    // first loaded from the destination and the copy back runs unpredicated.
    check_pass(
        lower_alu_restrictions::run,
        "skl",
        8,
        "
        cmp.z.f0.0(8) null:D, attr0:D, 0:D
        (-f0.0) mad.nz(8) v1+16:F, attr1:F, attr1+32:F, attr0:F
        fb_write_logical(8) null:UD, v1+16:F, 1:UD, 0:UD { EOT }
        ",
        "
        cmp.z.f0.0(8) null:D, attr0:D, 0:D
        mov(8) v4:UD, v1+16:UD
        (-f0.0) mad.nz(8) v4:F, attr1:F, attr1+32:F, attr0:F
        mov(8) v1+16:F, v4:F
        fb_write_logical(8) null:UD, v1+16:F, 1:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn a_mixed_float_result_into_a_64_bit_destination_keeps_single_precision() {
    // No direct conversion from HF to a 64-bit type (docs/hardware/eu-hardware.md §3.7): the
    // operation computes into a temporary first. An F source makes it mixed-float, whose
    // result is F (§3.4), so the temporary is F; an HF one would round the product to HF.
    check_pass(
        lower_regioning::run,
        "skl",
        8,
        "
        mul(8) v0:DF, u0:F, u1:HF
        mov(8) v1:F, v0:DF
        fb_write_logical(8) null:UD, v1:F, 1:UD, 0:UD { EOT }
        ",
        "
        mul(8) v4:F, u0:F, u1:HF
        mov(8) v0:DF, v4:F
        mov(8) v5<2>:F, v0:DF
        mov(8) v1:UD, v5<2>:UD
        fb_write_logical(8) null:UD, v1:F, 1:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn a_byte_source_of_a_64_bit_shift_is_widened_to_a_word() {
    // No byte ↔ 64-bit conversion (docs/hardware/eu-hardware.md §3.7): the byte is first
    // widened, to W, the class a byte is read in (§3.4), so that a shift of a negative byte
    // sees the same bits as before (corpus/regressions/shr-of-negative-byte-widened-for-64-bit-execution.eu).
    check_pass(
        lower_regioning::run,
        "skl",
        8,
        "
        shr(8) v0:Q, u0:B, 0:Q
        fb_write_logical(8) null:UD, v0<2>:F, 1:UD, 0:UD { EOT }
        ",
        "
        mov(8) v4:W, u0:B
        shr(8) v0:Q, v4:W, 0:Q
        fb_write_logical(8) null:UD, v0<2>:F, 1:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn attrs_and_uniforms_become_payload_registers() {
    check_pass(
        lower_payload_inputs::run,
        "skl",
        16,
        "
        add(16) v2:F, attr1+64:F, u1:F
        mul(16) v2+64:F, attr0:F, u0:F
        mov(16) v2+128:F, attr1:F
        mov(16) v2+192:F, attr0+64:F
        send(16) null:UD, v2:UD, null:UD desc(rt_write target=0 mlen=8 ex_mlen=0 rlen=0) { EOT }
        ",
        "
        add(16) v2:F, g8<8;8,1>:F, g1.1<0;1,0>:F
        mul(16) v2+64:F, g2<8;8,1>:F, g1<0;1,0>:F
        mov(16) v2+128:F, g6<8;8,1>:F
        mov(16) v2+192:F, g4<8;8,1>:F
        send(16) null:UD, v2:UD, null:UD desc(rt_write target=0 mlen=8 ex_mlen=0 rlen=0) { EOT }
        ",
    );
}

#[test]
fn eot_payload_is_allocated_in_g112() {
    // In program order (-O0 does not schedule): the placement is what is tested.
    check_pass_with(
        allocate_registers::run,
        &CompileOptions {
            o0: true,
            ..CompileOptions::default()
        },
        "skl",
        16,
        "
        add(16) v0:F, g8<8;8,1>:F, g1.1<0;1,0>:F
        mul(16) v1:F, v0:F, g2<8;8,1>:F
        mov(16) v2:F, v1:F
        mov(16) v2+64:F, v0:F
        mov(16) v2+128:F, g6<8;8,1>:F
        mov(16) v2+192:F, g4<8;8,1>:F
        send(16) null:UD, v2:UD, null:UD desc(rt_write target=0 mlen=8 ex_mlen=0 rlen=0) { EOT }
        ",
        "
        add(16) g10<8;8,1>:F, g8<8;8,1>:F, g1.1<0;1,0>:F
        mul(16) g14<8;8,1>:F, g10<8;8,1>:F, g2<8;8,1>:F
        mov(16) g112<8;8,1>:F, g14<8;8,1>:F
        mov(16) g114<8;8,1>:F, g10<8;8,1>:F
        mov(16) g116<8;8,1>:F, g6<8;8,1>:F
        mov(16) g118<8;8,1>:F, g4<8;8,1>:F
        send(16) null:UD, g112<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=8 ex_mlen=0 rlen=0) { EOT }
        ",
    );
}

#[test]
fn allocation_leaves_the_programs_own_grfs_alone() {
    // g10–g11 and g13–g14 are the program's (docs/pipeline.md, "Fixed GRFs in the input"):
    // v0 (two GRFs) does not go to g10 as it would otherwise, nor into the one-register
    // hole at g12, but to g15.
    check_pass_with(
        allocate_registers::run,
        &CompileOptions {
            o0: true,
            ..CompileOptions::default()
        },
        "skl",
        16,
        "
        mov(16) g10<8;8,1>:F, 1.0:F
        add(16) v0:F, g8<8;8,1>:F, g10<8;8,1>:F
        mov(16) g13<8;8,1>:F, v0:F
        mov(16) v2:F, v0:F
        mov(16) v2+64:F, g13<8;8,1>:F
        mov(16) v2+128:F, g6<8;8,1>:F
        mov(16) v2+192:F, g4<8;8,1>:F
        send(16) null:UD, v2:UD, null:UD desc(rt_write target=0 mlen=8 ex_mlen=0 rlen=0) { EOT }
        ",
        "
        mov(16) g10<8;8,1>:F, 1.0:F
        add(16) g15<8;8,1>:F, g8<8;8,1>:F, g10<8;8,1>:F
        mov(16) g13<8;8,1>:F, g15<8;8,1>:F
        mov(16) g112<8;8,1>:F, g15<8;8,1>:F
        mov(16) g114<8;8,1>:F, g13<8;8,1>:F
        mov(16) g116<8;8,1>:F, g6<8;8,1>:F
        mov(16) g118<8;8,1>:F, g4<8;8,1>:F
        send(16) null:UD, g112<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=8 ex_mlen=0 rlen=0) { EOT }
        ",
    );
}

#[test]
fn oversized_eot_vgrf_is_copied_into_g112() {
    // In program order (-O0 does not schedule): the placement is what is tested.
    check_pass_with(
        allocate_registers::run,
        &CompileOptions {
            o0: true,
            ..CompileOptions::default()
        },
        "skl",
        16,
        "
        add(16) v0:F, g8<8;8,1>:F, g1.1<0;1,0>:F
        mov(16) v3:F, v0:F
        mov(16) v3+64:F, v0:F
        mov(16) v3+128:F, g6<8;8,1>:F
        mov(16) v3+192:F, g4<8;8,1>:F
        send(16) null:UD, v3:UD, null:UD desc(rt_write target=0 mlen=8 ex_mlen=0 rlen=0) { EOT }
        ",
        "
        add(16) g10<8;8,1>:F, g8<8;8,1>:F, g1.1<0;1,0>:F
        mov(16) g14<8;8,1>:F, g10<8;8,1>:F
        mov(16) g16<8;8,1>:F, g10<8;8,1>:F
        mov(16) g18<8;8,1>:F, g6<8;8,1>:F
        mov(16) g20<8;8,1>:F, g4<8;8,1>:F
        mov(8) g112<8;8,1>:UD, g14<8;8,1>:UD { NoMask }
        mov(8) g113<8;8,1>:UD, g15<8;8,1>:UD { NoMask }
        mov(8) g114<8;8,1>:UD, g16<8;8,1>:UD { NoMask }
        mov(8) g115<8;8,1>:UD, g17<8;8,1>:UD { NoMask }
        mov(8) g116<8;8,1>:UD, g18<8;8,1>:UD { NoMask }
        mov(8) g117<8;8,1>:UD, g19<8;8,1>:UD { NoMask }
        mov(8) g118<8;8,1>:UD, g20<8;8,1>:UD { NoMask }
        mov(8) g119<8;8,1>:UD, g21<8;8,1>:UD { NoMask }
        send(16) null:UD, g112<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=8 ex_mlen=0 rlen=0) { EOT }
        ",
    );
}

#[test]
fn spill_all_goes_through_scratch() {
    let opts = CompileOptions {
        spill_all: true,
        ..CompileOptions::default()
    };
    check_pass_with(
        allocate_registers::run,
        &opts,
        "skl",
        8,
        "
        add(8) v0:F, g4<8;8,1>:F, g1.1<0;1,0>:F
        mul(8) v1+32:F, v0:F, v0:F
        mov(8) v1:F, v0:F
        mov(8) v1+64:F, g6<8;8,1>:F
        mov(8) v1+96:F, g7<8;8,1>:F
        send(8) null:UD, v1:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0) { EOT }
        ",
        "
        and(1) g10<8;8,1>:UD, g0.5<0;1,0>:UD, 4294966272:UD { NoMask }
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) g12<8;8,1>:UD, g11<8;8,1>:UD, null:UD desc(scratch_read mlen=1 ex_mlen=0 rlen=1 header) { NoMask }
        add(8) g12<8;8,1>:F, g4<8;8,1>:F, g1.1<0;1,0>:F
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) null:UD, g11<8;8,1>:UD, g12<8;8,1>:UD desc(scratch_write mlen=1 ex_mlen=1 rlen=0 header) { NoMask }
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) g12<8;8,1>:UD, g11<8;8,1>:UD, null:UD desc(scratch_read mlen=1 ex_mlen=0 rlen=1 header) { NoMask }
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 10:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) g13<8;8,1>:UD, g11<8;8,1>:UD, null:UD desc(scratch_read mlen=1 ex_mlen=0 rlen=1 header) { NoMask }
        mul(8) g13<8;8,1>:F, g12<8;8,1>:F, g12<8;8,1>:F
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 10:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) null:UD, g11<8;8,1>:UD, g13<8;8,1>:UD desc(scratch_write mlen=1 ex_mlen=1 rlen=0 header) { NoMask }
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) g12<8;8,1>:UD, g11<8;8,1>:UD, null:UD desc(scratch_read mlen=1 ex_mlen=0 rlen=1 header) { NoMask }
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 8:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) g13<8;8,1>:UD, g11<8;8,1>:UD, null:UD desc(scratch_read mlen=1 ex_mlen=0 rlen=1 header) { NoMask }
        mov(8) g13<8;8,1>:F, g12<8;8,1>:F
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 8:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) null:UD, g11<8;8,1>:UD, g13<8;8,1>:UD desc(scratch_write mlen=1 ex_mlen=1 rlen=0 header) { NoMask }
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 12:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) g12<8;8,1>:UD, g11<8;8,1>:UD, null:UD desc(scratch_read mlen=1 ex_mlen=0 rlen=1 header) { NoMask }
        mov(8) g12<8;8,1>:F, g6<8;8,1>:F
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 12:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) null:UD, g11<8;8,1>:UD, g12<8;8,1>:UD desc(scratch_write mlen=1 ex_mlen=1 rlen=0 header) { NoMask }
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 14:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) g12<8;8,1>:UD, g11<8;8,1>:UD, null:UD desc(scratch_read mlen=1 ex_mlen=0 rlen=1 header) { NoMask }
        mov(8) g12<8;8,1>:F, g7<8;8,1>:F
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 14:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(8) null:UD, g11<8;8,1>:UD, g12<8;8,1>:UD desc(scratch_write mlen=1 ex_mlen=1 rlen=0 header) { NoMask }
        mov(8) g11<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.2<8;8,1>:UD, 8:UD { NoMask }
        mov(1) g11.3<8;8,1>:UD, 0:UD { NoMask }
        mov(1) g11.5<8;8,1>:UD, g10<0;1,0>:UD { NoMask }
        send(32) g112<8;8,1>:UD, g11<8;8,1>:UD, null:UD desc(scratch_read mlen=1 ex_mlen=0 rlen=4 header) { NoMask }
        send(8) null:UD, g112<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0) { EOT }
        ",
    );
}

#[test]
fn dword_multiply_into_a_word_destination_converts_at_the_end() {
    check_pass(
        lower_integer_multiplication::run,
        "hsw",
        8,
        "
        mul(8) v0:W, attr0:D, attr1:D
        ",
        "
        mul(8) v4:UD, attr0:D, attr1<2>:UW
        mul(8) v5:UD, attr0:D, attr1+2<2>:UW
        add(8) v4+2<2>:UW, v4+2<2>:UW, v5<2>:UW
        mov(8) v0:W, v4:UD
        ",
    );
}

/// A Q×Q multiply whose only result is its flag (null destination, conditional modifier)
/// still tests the product: through a UQ temporary and a MOV.cmod into the null.
#[test]
fn qword_multiply_into_null_keeps_its_conditional_modifier() {
    check_pass(
        lower_integer_multiplication::run,
        "bdw",
        8,
        "
        mul.nz.f0.0(8) null:Q, attr0:Q, attr1:Q
        mov(8) v1:UD, 0:UD
        (+f0.0) mov(8) v1:UD, 1:UD
        ",
        "
        mul(8) v6:UQ, attr0<2>:UD, attr1<2>:UD
        mov(8) v4:UD, v6<2>:UD
        mov(8) v5:UD, v6+4<2>:UD
        mul(8) v7:UD, attr0+4<2>:UD, attr1<2>:UD
        mul(8) v8:UD, attr0<2>:UD, attr1+4<2>:UD
        add(8) v5:UD, v5:UD, v7:UD
        add(8) v5:UD, v5:UD, v8:UD
        mov(8) v9<2>:UD, v4:UD
        mov(8) v9+4<2>:UD, v5:UD
        mov.nz.f0.0(8) null:Q, v9:UQ
        mov(8) v1:UD, 0:UD
        (+f0.0) mov(8) v1:UD, 1:UD
        ",
    );
}

#[test]
fn gen45_min_max_with_an_immediate_src0_loads_it_for_cmpn_and_sel() {
    // docs/hardware/eu-hardware.md §3.3: a two-source instruction takes an immediate in src1 only; the
    // CMPN of the Gen4/5 min/max lowering keeps the operand order (±0/NaN ties).
    check_pass(
        lower_alu_restrictions::run,
        "g45",
        8,
        "
        sel.l(8) v0:F, 1.5:F, attr0:F
        ",
        "
        mov(1) v4<0>:F, 1.5:F { NoMask }
        cmpn.l.f0.0(8) null:F, v4<0>:F, attr0:F
        (+f0.0) sel(8) v0:F, v4<0>:F, attr0:F
        ",
    );
}

#[test]
fn dg2_vector_immediate_for_a_float_destination_takes_its_stride() {
    // docs/hardware/brw-backend.md §5.1, docs/hardware/eu-hardware.md §5.4/§6.9: on DG2 a float destination's channels
    // must sit at the same byte positions as each source's (xehp-lsb-move).
    check_pass(
        lower_alu_restrictions::run,
        "dg2",
        8,
        "
        mul(8) v0<2>:F, attr0<2>:F, [0.0, 1.0, 2.0, 0.5]:VF
        ",
        "
        mov(8) v4:F, [0.0, 1.0, 2.0, 0.5]:VF
        mov(8) v5<2>:UD, v4:UD
        mul(8) v0<2>:F, attr0<2>:F, v5<2>:F
        ",
    );
}

#[test]
fn bytes_eight_apart_are_written_through_word_containers() {
    // A destination hstride is at most 4 elements (docs/hardware/eu-hardware.md §1.5): a byte slice of a
    // 64-bit value is computed 4 bytes apart, then each byte replaces the low part of the
    // word that holds it, the word's other byte written back unchanged.
    check_pass(
        lower_regioning::run,
        "glk",
        8,
        "
        mov(8) v2+1<8>:UB, attr0:UB
        ",
        "
        mov(8) v4<4>:UB, attr0:UB
        mov(8) v5:UW, v2<4>:UW
        mov(8) v5+1<2>:UB, v4<4>:UB
        mov(8) v2<4>:UW, v5:UW
        ",
    );
}

#[test]
fn split_pieces_of_a_vector_immediate_start_at_their_own_element() {
    // Channel c of an instruction reads element c of a V immediate (docs/hardware/eu-hardware.md §6.8):
    // the piece for channels 4..7 reads elements 4..7 as its 0..3.
    check_pass(
        lower_simd_width::run,
        "bdw",
        8,
        "
        mov(8) v1+4<2>:UW, 0x76543210:V
        ",
        "
        mov(4) v1+4<2>:UW, 0x76543210:V
        mov(2) v1+20<2>:UW, 0x32107654:V { group4 }
        mov(2) v1+28<2>:UW, 0x54321076:V { group6 }
        ",
    );
}

#[test]
fn a_mach_is_not_split_for_its_destination() {
    // Quarter control, not the group, picks the accumulator lanes a MACH reads
    // (docs/hardware/eu-hardware.md §1.7): a MACH into a destination 4 bytes into a register writes a
    // packed temporary whole, and only the copy into place is split (Gen7: a destination
    // spanning two registers unevenly is split, §1.5).
    check_pass(
        lower_simd_width::run,
        "ivb",
        8,
        "
        mul(8) acc0<8;8,1>:D, attr0:D, attr1<2>:UW
        mach(8) v1+4:D, attr0:D, attr1:D
        ",
        "
        mul(8) acc0<8;8,1>:D, attr0:D, attr1<2>:UW
        mach(8) v4:D, attr0:D, attr1:D
        mov(4) v1+4:D, v4:D
        mov(2) v1+20:D, v4+16:D { group4 }
        mov(1) v1+28:D, v4+24:D { group6 }
        mov(1) v1+32:D, v4+28:D { group7 }
        ",
    );
}

// The six bugs found from outside the campaigns (issue #24 item 4): each lowering now
// legalises the general case, not only the program it was found with.

#[test]
fn chv_null_destination_of_a_64bit_instruction_gets_a_qword_stride() {
    // docs/hardware/eu-hardware.md §5.1: with a 64-bit execution type the destination stride must
    // equal the sources' qword stride; a null destination is packed, so a strided
    // temporary takes its place (nothing is copied back: only the flag is a result).
    check_pass(
        lower_regioning::run,
        "chv",
        8,
        "
        mov(8) v2:DF, attr0:DF
        mov.ge.f0.1(8) null:UD, v2:DF
        (+f0.1) sel(8) v0:UD, attr0:UD, attr1:UD
        ",
        "
        mov(8) v2:DF, attr0:DF
        mov.ge.f0.1(8) v4<2>:UD, v2:DF
        (+f0.1) sel(8) v0:UD, attr0:UD, attr1:UD
        ",
    );
    // Without the restriction the null destination stays.
    check_no_progress(
        lower_regioning::run,
        "skl",
        8,
        "
        mov(8) v2:DF, attr0:DF
        mov.ge.f0.1(8) null:UD, v2:DF
        (+f0.1) sel(8) v0:UD, attr0:UD, attr1:UD
        ",
    );
}

#[test]
fn bdw_fixed_grf_destination_is_split_evenly_and_pieces_read_one_row() {
    // docs/hardware/eu-hardware.md §1.5, §6.7: g44.7 puts one channel in g44 and seven in g45; pieces
    // of two split each register pair evenly, and each reads its own row of g40
    // (ExecSize ≥ Width, §1.6).
    check_pass(
        lower_simd_width::run,
        "bdw",
        8,
        "
        mov(8) g40<8;8,1>:F, attr0:F
        add(8) g44.7<8;8,1>:F, g40<8;8,1>:F, 1.0:F
        mov(8) v0:F, g45<8;8,1>:F
        ",
        "
        mov(8) g40<8;8,1>:F, attr0:F
        add(2) g44.7<8;8,1>:F, g40<2;2,1>:F, 1.0:F
        add(2) g45.1<8;8,1>:F, g40.2<2;2,1>:F, 1.0:F { group2 }
        add(2) g45.3<8;8,1>:F, g40.4<2;2,1>:F, 1.0:F { group4 }
        add(2) g45.5<8;8,1>:F, g40.6<2;2,1>:F, 1.0:F { group6 }
        mov(8) v0:F, g45<8;8,1>:F
        ",
    );
}

#[test]
fn hsw_single_channel_pieces_read_fixed_sources_as_scalars() {
    // A destination straddling a register boundary is halved down to SIMD1 on Gen7
    // (docs/hardware/brw-backend.md §4.1); one channel of g40<8;8,1> is the element <0;1,0>.
    check_pass(
        lower_simd_width::run,
        "hsw",
        8,
        "
        mov(8) g40<8;8,1>:F, attr0:F
        add(8) v0+28:F, g40<8;8,1>:F, 1.0:F
        mov(8) v1:F, v0+32:F
        ",
        "
        mov(8) g40<8;8,1>:F, attr0:F
        add(1) v0+28:F, g40<0;1,0>:F, 1.0:F
        add(1) v0+32:F, g40.1<0;1,0>:F, 1.0:F { group1 }
        add(1) v0+36:F, g40.2<0;1,0>:F, 1.0:F { group2 }
        add(1) v0+40:F, g40.3<0;1,0>:F, 1.0:F { group3 }
        add(1) v0+44:F, g40.4<0;1,0>:F, 1.0:F { group4 }
        add(1) v0+48:F, g40.5<0;1,0>:F, 1.0:F { group5 }
        add(1) v0+52:F, g40.6<0;1,0>:F, 1.0:F { group6 }
        add(1) v0+56:F, g40.7<0;1,0>:F, 1.0:F { group7 }
        mov(8) v1:F, v0+32:F
        ",
    );
}

#[test]
fn a_dword_beside_a_narrower_integer_moves_to_src0() {
    // docs/hardware/eu-hardware.md §4: from Gen7 the DW operand of a DW × W/B multiply must be src0.
    check_pass(
        lower_integer_multiplication::run,
        "skl",
        8,
        "
        mul(8) v0:D, attr0:W, attr1:D
        mul(8) v1:D, -attr0:W, 7:D
        mul(8) v2:D, attr0:B, 100000:D
        ",
        "
        mul(8) v0:D, attr1:D, attr0:W
        mul(8) v1:D, -attr0:W, 7:W
        mov(8) v4:D, 100000:D
        mul(8) v2:D, v4:D, attr0:B
        ",
    );
}

#[test]
fn a_send_payload_inside_a_register_is_copied_to_a_register_boundary() {
    // docs/hardware/eu-hardware.md §6.3: a SEND takes whole payload registers from a register number.
    check_pass(
        lower_logical_sends::run,
        "skl",
        8,
        "
        mov(8) v2+16:F, attr0:F
        mov(8) v2+48:F, attr1:F
        mov(8) v2+80:F, 0.5:F
        mov(8) v2+112:F, 1.0:F
        send(8) null:UD, v2+16:F, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0)
        ",
        "
        mov(8) v2+16:F, attr0:F
        mov(8) v2+48:F, attr1:F
        mov(8) v2+80:F, 0.5:F
        mov(8) v2+112:F, 1.0:F
        mov(8) v4:UD, v2+16:UD { NoMask }
        mov(8) v4+32:UD, v2+48:UD { NoMask }
        mov(8) v4+64:UD, v2+80:UD { NoMask }
        mov(8) v4+96:UD, v2+112:UD { NoMask }
        send(8) null:UD, v4:F, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0)
        ",
    );
}

#[test]
fn split_pieces_of_a_row_repeating_one_element_read_that_element() {
    // `g20<1;8,0>` gives all eight channels element 0. The uneven destination split (Gen8)
    // makes pieces narrower than the row; each reads the element as `<0;1,0>`, since
    // `<0;4,0>` would break "VertStride = HorzStride = 0 -> Width 1"
    // (docs/hardware/eu-hardware.md §1.6).
    check_pass(
        lower_simd_width::run,
        "bdw",
        8,
        "
        mov(8) g20<8;8,1>:D, attr0:D
        add(8) g21.1<8;8,1>:D, g20<1;8,0>:D, 5:D
        mov(8) v0:D, g21<8;8,1>:D
        mov(8) v1:D, g22<8;8,1>:D
        ",
        "
        mov(8) g20<8;8,1>:D, attr0:D
        add(4) g21.1<8;8,1>:D, g20<0;1,0>:D, 5:D
        add(2) g21.5<8;8,1>:D, g20<0;1,0>:D, 5:D { group4 }
        add(2) g21.7<8;8,1>:D, g20<0;1,0>:D, 5:D { group6 }
        mov(8) v0:D, g21<8;8,1>:D
        mov(8) v1:D, g22<8;8,1>:D
        ",
    );
}

#[test]
fn a_piece_one_row_wide_reads_that_row_with_its_own_vertical_stride() {
    // HSW: the UD destination strided by two spans two registers and the DF source row
    // `g8<0;4,1>` one, so the conversion is halved (docs/hardware/brw-backend.md §4.1 rule
    // 7). Each SIMD4 piece is one row: ExecSize = Width = 4 with HorzStride 1 needs
    // VertStride 4 (docs/hardware/eu-hardware.md §1.6 rule 3), and VertStride 0 repeated
    // the row, so both pieces read elements 0-3 of g8.
    check_pass(
        lower_simd_width::run,
        "hsw",
        8,
        "
        mov(4) g8<4;4,1>:DF, attr0:DF
        mov(8) v1<2>:UD, g8<0;4,1>:DF
        mov(8) v0:UD, v1<2>:UD
        ",
        "
        mov(4) g8<4;4,1>:DF, attr0:DF
        mov(4) v1<2>:UD, g8<4;4,1>:DF
        mov(4) v1+32<2>:UD, g8<4;4,1>:DF { 2N }
        mov(8) v0:UD, v1<2>:UD
        ",
    );
}

#[test]
fn a_two_dimensional_source_is_split_by_the_registers_its_rows_touch() {
    // `g40.4<4;4,0>:UD` read by 16 channels: elements 0, 4, 8 and 12, bytes 16 to 67, three
    // registers (a stride of 1 would count two). A source may span two (§1.5): halves.
    check_pass(
        lower_simd_width::run,
        "skl",
        16,
        "
        mov(8) g40<8;8,1>:UD, attr0:UD
        mov(8) g41<8;8,1>:UD, attr1:UD
        mov(8) g42<8;8,1>:UD, attr0+32:UD
        fbh(16) v3:UD, g40.4<4;4,0>:UD
        ",
        "
        mov(8) g40<8;8,1>:UD, attr0:UD
        mov(8) g41<8;8,1>:UD, attr1:UD
        mov(8) g42<8;8,1>:UD, attr0+32:UD
        fbh(8) v3:UD, g40.4<4;4,0>:UD
        fbh(8) v3+32:UD, g41.4<4;4,0>:UD { 2Q }
        ",
    );
    // On Gen7 a two-register destination needs two-register sources: `g40.1<0;4,1>:UW`
    // read by 16 channels is four words of one register, so the XOR is halved.
    check_pass(
        lower_simd_width::run,
        "hsw",
        16,
        "
        mov(16) g40<8;8,1>:UW, attr0<2>:UW
        xor(16) v3:UD, attr1:UD, g40.1<0;4,1>:UW
        ",
        "
        mov(16) g40<8;8,1>:UW, attr0<2>:UW
        xor(8) v3:UD, attr1:UD, g40.1<0;4,1>:UW
        xor(8) v3+32:UD, attr1+32:UD, g40.1<0;4,1>:UW { 2Q }
        ",
    );
}

#[test]
fn mulh_word_halves_keep_a_two_dimensional_region() {
    // The low words of `g20<4;4,0>:UD` (rows of four channels repeating elements 0 and 4)
    // are `g20<8;4,0>:UW`: both strides scaled, as Mesa's `subscript` does; a stride alone
    // gave `<0;1,0>`, element 0 for every channel.
    check_pass(
        lower_integer_multiplication::run,
        "skl",
        8,
        "
        mov(8) g20<8;8,1>:UD, attr0:UD
        mulh(8) v0:UD, attr1:UD, g20<4;4,0>:UD
        ",
        "
        mov(8) g20<8;8,1>:UD, attr0:UD
        mul(8) acc0<8;8,1>:UD, attr1:UD, g20<8;4,0>:UW
        mach(8) v0:UD, attr1:UD, g20<4;4,0>:UD
        ",
    );
}

#[test]
fn a_split_piece_of_one_row_reads_it_as_one_row() {
    // `g18<0;8,1>:UD` read by 16 channels is the row g18.0..7 twice (VertStride 0). Each
    // SIMD8 piece reads one row, encoded with ExecSize = Width = 8, where VertStride must
    // be Width × HorzStride (docs/hardware/eu-hardware.md §1.6): `g18<8;8,1>`, for the
    // second piece too (its row starts VertStride 0 bytes after the first).
    check_pass(
        lower_simd_width::run,
        "hsw",
        16,
        "
        mov(8) g18<8;8,1>:UD, attr0:UD
        mov(16) v0<2>:UW, g18<0;8,1>:UD
        ",
        "
        mov(8) g18<8;8,1>:UD, attr0:UD
        mov(8) v0<2>:UW, g18<8;8,1>:UD
        mov(8) v0+32<2>:UW, g18<8;8,1>:UD { 2Q }
        ",
    );
}

#[test]
fn dword_halves_of_a_two_dimensional_64bit_source_keep_its_rows() {
    // On BXT a 64-bit source must sit at its destination's offset with its stride
    // (docs/hardware/eu-hardware.md §5.1), so `g10.1<1;2,0>:DF` (channels reading elements
    // 0, 0, 1, 1) is copied to a temporary in dword halves. The halves keep the region
    // with both strides doubled, `<2;2,0>:UD` from dword 2 and 3; a stride alone made
    // them `<0;1,0>`, element 0 in every channel. (The first MOV's source is at another
    // offset than `g10.1` too: copied to a temporary, then written in dword halves.)
    check_pass(
        lower_regioning::run,
        "bxt",
        8,
        "
        mov(4) g10.1<8;8,1>:DF, attr0:DF
        rnde(4) v0:DF, g10.1<1;2,0>:DF
        ",
        "
        mov(4) v4:DF, attr0:DF
        mov(4) g10.2<16;8,2>:UD, v4<2>:UD
        mov(4) g10.3<16;8,2>:UD, v4+4<2>:UD
        mov(4) v5<2>:UD, g10.2<2;2,0>:UD
        mov(4) v5+4<2>:UD, g10.3<2;2,0>:UD
        rnde(4) v0:DF, v5:DF
        ",
    );
}

#[test]
fn gen45_min_max_leaves_a_flag_alone_that_a_nomask_read_in_the_other_arm_sees() {
    // docs/hardware/eu-hardware.md §2.1–§2.3: the ELSE arm's masked CMP writes only the ELSE
    // channels' bits of f0.0, and the NoMask SEL there reads all eight, so the THEN channels'
    // bits from the first CMP are still live at the min/max: its CMPN takes f0.1.
    check_pass(
        lower_alu_restrictions::run,
        "g45",
        8,
        "
        cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
        (+f0.0) if(8)
        sel.ge(8) v0:F, attr0:F, attr1:F
        else(8)
        cmp.g.f0.0(8) null:F, attr1:F, 0.0:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F { NoMask }
        endif(8)
        ",
        "
        cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
        (+f0.0) if(8)
        cmpn.ge.f0.1(8) null:F, attr0:F, attr1:F
        (+f0.1) sel(8) v0:F, attr0:F, attr1:F
        else(8)
        cmp.g.f0.0(8) null:F, attr1:F, 0.0:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F { NoMask }
        endif(8)
        ",
    );
}

#[test]
fn gen45_min_max_saves_and_restores_its_flag_when_every_flag_is_live() {
    // Both subregisters of g45's one flag register are read later (f0.1 after the ENDIF,
    // f0.0 by the NoMask SEL in the other arm), so the CMPN borrows f0.0: a word per channel
    // keeps the bits of the channels the CMPN writes (0, then 1 under the predicate), and a
    // CMP of those words writes the same bits back after the SEL.
    check_pass(
        lower_alu_restrictions::run,
        "g45",
        8,
        "
        cmp.g.f0.1(8) null:F, attr1:F, 0.5:F
        cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
        (+f0.0) if(8)
        sel.ge(8) v0:F, attr0:F, attr1:F
        else(8)
        cmp.g.f0.0(8) null:F, attr1:F, 0.0:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F { NoMask }
        endif(8)
        (+f0.1) sel(8) v2:F, attr0:F, attr1:F
        ",
        "
        cmp.g.f0.1(8) null:F, attr1:F, 0.5:F
        cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
        (+f0.0) if(8)
        mov(8) v4:UW, 0:UW
        (+f0.0) mov(8) v4:UW, 1:UW
        cmpn.ge.f0.0(8) null:F, attr0:F, attr1:F
        (+f0.0) sel(8) v0:F, attr0:F, attr1:F
        cmp.nz.f0.0(8) null:UW, v4:UW, 0:UW
        else(8)
        cmp.g.f0.0(8) null:F, attr1:F, 0.0:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F { NoMask }
        endif(8)
        (+f0.1) sel(8) v2:F, attr0:F, attr1:F
        ",
    );
}

#[test]
fn gen45_min_max_takes_a_flag_its_own_arm_overwrites_before_any_read() {
    // An unpredicated masked CMP at the min/max's own nesting writes every bit the CMPN does
    // (the same channels are enabled), so f0.0 is dead at the min/max and is used.
    check_pass(
        lower_alu_restrictions::run,
        "g45",
        8,
        "
        cmp.g.f0.1(8) null:F, attr1:F, 0.5:F
        sel.ge(8) v0:F, attr0:F, attr1:F
        cmp.g.f0.0(8) null:F, attr1:F, 0.0:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F { NoMask }
        (+f0.1) sel(8) v2:F, attr0:F, attr1:F
        ",
        "
        cmp.g.f0.1(8) null:F, attr1:F, 0.5:F
        cmpn.ge.f0.0(8) null:F, attr0:F, attr1:F
        (+f0.0) sel(8) v0:F, attr0:F, attr1:F
        cmp.g.f0.0(8) null:F, attr1:F, 0.0:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F { NoMask }
        (+f0.1) sel(8) v2:F, attr0:F, attr1:F
        ",
    );
}
