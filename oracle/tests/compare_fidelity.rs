//! The comparison is as strict as the module doc of `oracle::compare` says: bit-exact except
//! for the payloads of NaNs that float operations produced, and every write either program
//! makes counts, including writes to memory the inputs do not provide.

use compiler::inputs::{Inputs, Value};
use compiler::text::parse_program;
use oracle::compare::{Difference, compare};
use oracle::emu::result::StrayTarget;
use oracle::{RunConfig, RunResult, run};

/// A one-thread SIMD8 skl program with two attrs, a 4-register `v0` and `v1`.
fn program(threads: u32, scratch: u32, body: &str) -> String {
    format!(
        "eu 1\ntarget skl\ndispatch 8\nthreads {threads}\nscratch {scratch}\nattr attr0 2\nattr attr1 2\n\
         vgrf v0 4\nvgrf v1 4\nvgrf v2 1\nvgrf v3 1\nSTART B0\n{body}\nEND B0\n"
    )
}

fn run_text(text: &str, inputs: &Inputs) -> RunResult {
    let p = parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    run(&p, inputs, &RunConfig::default())
}

/// Runs two programs on the same inputs and compares them.
fn differences(a: &str, b: &str, inputs: &Inputs) -> Vec<Difference> {
    let (ra, rb) = (run_text(a, inputs), run_text(b, inputs));
    assert_eq!(ra.outcome, oracle::Outcome::Completed, "{a}");
    assert_eq!(rb.outcome, oracle::Outcome::Completed, "{b}");
    compare(&ra, &rb)
}

/// `body` computes v0, which the program writes as one colour component.
fn one_output(body: &str) -> String {
    program(
        1,
        0,
        &format!("{body}\nfb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD {{ EOT }}"),
    )
}

fn attrs(a: Value, b: Value) -> Inputs {
    let mut inputs = Inputs::default();
    inputs.attrs.insert((0, 0), vec![a; 16]);
    inputs.attrs.insert((0, 1), vec![b; 16]);
    inputs
}

#[test]
fn integer_results_with_nan_bit_patterns_are_compared_exactly() {
    let inputs = attrs(Value::d(0), Value::d(0));
    // 0 + (-1) and 0 + (-2): an integer add, whose results read as F are both NaNs.
    let a = one_output("add(8) v0:D, attr0:D, -1:D");
    let b = one_output("add(8) v0:D, attr0:D, -2:D");
    assert!(!differences(&a, &b, &inputs).is_empty(), "-1 vs -2");
    let a = one_output("or(8) v0:UD, attr0:UD, 0xffff000f:UD");
    let b = one_output("or(8) v0:UD, attr0:UD, 0xffffffff:UD");
    assert!(
        !differences(&a, &b, &inputs).is_empty(),
        "0xffff000f vs 0xffffffff"
    );
}

#[test]
fn nan_payloads_of_float_operations_may_differ() {
    // Each add propagates its own NaN source, so the two results have other payloads;
    // both are NaNs a float operation produced, whose payload is the operation's choice.
    let inputs = attrs(
        Value::f(f32::from_bits(0x7fc0_0001)),
        Value::f(f32::from_bits(0xffc0_0002)),
    );
    let a = one_output("add(8) v0:F, attr0:F, 0.0:F");
    let b = one_output("add(8) v0:F, attr1:F, 0.0:F");
    let (ra, rb) = (run_text(&a, &inputs), run_text(&b, &inputs));
    let value = |r: &RunResult| r.threads[0].rt_writes[0].channels[0].values[0];
    assert_ne!(value(&ra), value(&rb), "the payloads differ");
    assert_eq!(compare(&ra, &rb), vec![]);
}

#[test]
fn double_nan_payloads_of_float_operations_may_differ() {
    // DF NaNs whose low dwords (payload bits only) are not F NaNs: the tolerance follows
    // the float operation's element, not a dword's own bit pattern.
    let mut inputs = Inputs::default();
    let nan = |payload: u64| Value::new(compiler::types::Type::DF, 0x7ff8_0000_0000_0000 | payload);
    inputs.attrs.insert((0, 0), vec![nan(1); 8]);
    inputs.attrs.insert((0, 1), vec![nan(2); 8]);
    let text = |srcs: &str| {
        program(
            1,
            0,
            &format!(
                "add(8) v0:DF, {srcs}\nfb_write_logical(8) null:UD, v0:F, 2:UD, 0:UD {{ EOT }}"
            ),
        )
    };
    let (a, b) = (text("attr0:DF, attr0:DF"), text("attr1:DF, attr1:DF"));
    let (ra, rb) = (run_text(&a, &inputs), run_text(&b, &inputs));
    assert_ne!(ra.threads[0].rt_writes, rb.threads[0].rt_writes);
    assert_eq!(compare(&ra, &rb), vec![]);
}

#[test]
fn copied_nans_are_compared_exactly() {
    // NaN inputs moved without a float operation keep their exact bits.
    let inputs = attrs(
        Value::f(f32::from_bits(0x7fc0_0001)),
        Value::f(f32::from_bits(0x7fc0_0002)),
    );
    let a = one_output("mov(8) v0:F, attr0:F");
    let b = one_output("mov(8) v0:F, attr1:F");
    assert!(!differences(&a, &b, &inputs).is_empty());
}

#[test]
fn a_produced_nan_copied_as_integer_data_may_still_differ() {
    // The payload of a NaN a float operation produced is the operation's choice, and a copy
    // of its bits (a MOV of its own type, integer or float, no modifiers) carries that
    // choice along: Mesa folds `mul x, 1.0` to `mov x`, whose NaN is the input's own. Plain,
    // strided and flag-writing moves keep the mark (the emulator's three paths for them).
    let inputs = attrs(
        Value::f(f32::from_bits(0x7fc0_0001)),
        Value::f(f32::from_bits(0xffc0_0002)),
    );
    for copy in [
        "mov(8) v0:UD, v1:UD",
        "mov(8) v0:UD, v1<1>:UD\nmov(8) v2:UD, v0:UD\nmov(8) v0:UD, v2:UD",
        "mov(8) v0:F, v1:F",
        "mov.nz.f0.0(8) v0:UD, v1:UD",
    ] {
        let a = one_output(&format!("add(8) v1:F, attr0:F, 0.0:F\n{copy}"));
        let b = one_output(&format!("add(8) v1:F, attr1:F, 0.0:F\n{copy}"));
        assert_eq!(differences(&a, &b, &inputs), vec![], "{copy}");
    }
    // An integer operation on the bits is not a copy: its result is compared exactly.
    let a = one_output("add(8) v1:F, attr0:F, 0.0:F\nxor(8) v0:UD, v1:UD, 1:UD");
    let b = one_output("add(8) v1:F, attr1:F, 0.0:F\nxor(8) v0:UD, v1:UD, 1:UD");
    assert!(!differences(&a, &b, &inputs).is_empty());
}

#[test]
fn signed_zeros_differ() {
    let inputs = attrs(Value::f(1.0), Value::f(1.0));
    let a = one_output("mul(8) v0:F, attr0:F, 0.0:F");
    let b = one_output("mul(8) v0:F, attr0:F, -0.0:F");
    assert!(!differences(&a, &b, &inputs).is_empty(), "+0.0 vs -0.0");
}

#[test]
fn a_write_to_a_surface_without_a_buffer_is_an_extra_side_effect() {
    let inputs = attrs(Value::ud(0), Value::ud(7));
    let a = one_output("mov(8) v0:UD, attr1:UD");
    let b = one_output(
        "mov(8) v0:UD, attr1:UD\nuntyped_write_logical(8) null:UD, attr0:UD, attr1:UD, 3:UD, 1:UD",
    );
    let diffs = differences(&a, &b, &inputs);
    assert!(
        diffs.iter().any(|d| matches!(
            d,
            Difference::StrayWrite {
                target: StrayTarget::Surface { surface: 3 },
                offset: Some(0),
                expected: None,
                actual: Some((7, 0xf)),
            }
        )),
        "{diffs:?}"
    );
    // The reverse: the compiled program misses the reference's write.
    assert!(!differences(&b, &a, &inputs).is_empty());
    // The same write in both is no difference.
    assert_eq!(differences(&b, &b, &inputs), vec![]);
}

#[test]
fn a_write_past_the_end_of_a_provided_buffer_is_kept() {
    let mut inputs = attrs(Value::ud(64), Value::ud(7));
    inputs.buffers.insert(0, vec![Value::ud(0); 4]);
    let a = one_output("mov(8) v0:UD, attr1:UD");
    let b = one_output(
        "mov(8) v0:UD, attr1:UD\nuntyped_write_logical(8) null:UD, attr0:UD, attr1:UD, 0:UD, 1:UD",
    );
    let diffs = differences(&a, &b, &inputs);
    assert!(
        diffs.iter().any(|d| matches!(
            d,
            Difference::StrayWrite {
                target: StrayTarget::Surface { surface: 0 },
                offset: Some(64),
                ..
            }
        )),
        "{diffs:?}"
    );
}

#[test]
fn a_buffer_present_in_only_one_run_is_a_difference() {
    let text = one_output(
        "mov(8) v0:UD, attr1:UD\nuntyped_write_logical(8) null:UD, attr0:UD, attr1:UD, 0:UD, 1:UD",
    );
    let mut with = attrs(Value::ud(0), Value::ud(7));
    let without = with.clone();
    with.buffers.insert(0, vec![Value::ud(0); 4]);
    let (r_with, r_without) = (run_text(&text, &with), run_text(&text, &without));
    assert!(compare(&r_with, &r_without).iter().any(|d| matches!(
        d,
        Difference::Surface {
            surface: 0,
            expected: true
        }
    )),);
    assert!(compare(&r_without, &r_with).iter().any(|d| matches!(
        d,
        Difference::Surface {
            surface: 0,
            expected: false
        }
    )),);
}

/// Each of two threads writes its FFTID at scratch offset 0 through a hardware header with
/// per-thread size encoding `enc` (the threads are laid out 2 KB apart).
fn scratch_writer(enc: u32) -> String {
    program(
        2,
        2048,
        &format!(
            "mov(8) v2:UD, 0:UD {{ NoMask }}\n\
             mov(1) v2+12:UD, {enc}:UD {{ NoMask }}\n\
             and(1) v2+20:UD, g0.5<0;1,0>:UD, 0xfffffc00:UD {{ NoMask }}\n\
             and(8) v3:UD, g0.5<0;1,0>:UD, 0x3ff:UD\n\
             send(8) null:UD, v2:UD, v3:UD desc(scratch_write mlen=1 ex_mlen=1 rlen=0 header) {{ NoMask }}\n\
             mov(8) v0:UD, v3:UD\n\
             fb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD {{ EOT }}"
        ),
    )
}

#[test]
fn a_scratch_write_into_another_threads_slot_is_a_side_effect() {
    let inputs = Inputs::default();
    // skl encodes 2 KB as 1 (1 KB << enc); encoding 0 (1 KB) puts thread 1 at byte 1024,
    // inside thread 0's slot.
    let own = run_text(&scratch_writer(1), &inputs);
    assert_eq!(own.stray_writes, vec![], "each thread stays in its slot");
    let diffs = compare(&own, &run_text(&scratch_writer(0), &inputs));
    assert!(
        diffs.iter().any(|d| matches!(
            d,
            Difference::StrayWrite {
                target: StrayTarget::Scratch,
                offset: Some(1024),
                expected: None,
                actual: Some((1, 0xf)),
            }
        )),
        "{diffs:?}"
    );
}

#[test]
fn render_target_writes_the_reference_never_makes_are_reported() {
    let inputs = attrs(Value::f(1.0), Value::f(2.0));
    let a = program(
        1,
        0,
        "mov(8) v0:F, attr0:F\nfb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD { EOT }",
    );
    // Another render target.
    let b = program(
        1,
        0,
        "mov(8) v0:F, attr0:F\nfb_write_logical(8) null:UD, v0:F, 1:UD, 1:UD\n\
         fb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD { EOT }",
    );
    let diffs = differences(&a, &b, &inputs);
    assert!(
        diffs
            .iter()
            .any(|d| matches!(d, Difference::ExtraWrite { target: 1, .. })),
        "{diffs:?}"
    );
    // Channels the reference never writes (it writes the low four only).
    let a4 = program(
        1,
        0,
        "mov(8) v0:F, attr0:F\nfb_write_logical(4) null:UD, v0:F, 1:UD, 0:UD { EOT }",
    );
    let diffs = differences(&a4, &a, &inputs);
    assert!(
        diffs
            .iter()
            .any(|d| matches!(d, Difference::ExtraWrite { channel: 4, .. })),
        "{diffs:?}"
    );
}
