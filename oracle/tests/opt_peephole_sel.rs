//! Mesa-style tests of `opt_peephole_sel` (docs/hardware/brw-backend.md §7.1 step 8): IF/ELSE/ENDIF whose
//! sides only copy into the same destinations become predicated SELs, and the shapes where
//! that would change an output are left.

mod common;

use common::opt_pass::*;
use compiler::passes::opt_peephole_sel::run;

/// A divergent IF on attr0 < attr1 with `then` and `otherwise` as its sides, `after`
/// following the ENDIF; v0 and v1 are the colour's first two components.
fn branch_then(then: &str, otherwise: &str, after: &str) -> String {
    format!(
        "
        mov(8) v0:F, 0.0:F
        mov(8) v1:F, 0.0:F
        cmp.l.f0.0(8) null:F, attr0:F, attr1:F
        (+f0.0) if(8)
        {then}
        else(8)
        {otherwise}
        endif(8)
        {after}
        mov(8) v2:UD, v0:UD
        mov(8) v2+32:UD, v1:UD
        mov(8) v2+64:UD, 0:UD
        mov(8) v2+96:UD, 0:UD
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD {{ EOT }}
        "
    )
}

/// [`branch_then`] with nothing after the ENDIF.
fn branch(then: &str, otherwise: &str) -> String {
    branch_then(then, otherwise, "")
}

/// The same program with `sels` before an empty IF/ELSE/ENDIF.
fn selected_then(sels: &str, after: &str) -> String {
    format!(
        "
        mov(8) v0:F, 0.0:F
        mov(8) v1:F, 0.0:F
        cmp.l.f0.0(8) null:F, attr0:F, attr1:F
        {sels}
        (+f0.0) if(8)
        else(8)
        endif(8)
        {after}
        mov(8) v2:UD, v0:UD
        mov(8) v2+32:UD, v1:UD
        mov(8) v2+64:UD, 0:UD
        mov(8) v2+96:UD, 0:UD
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD {{ EOT }}
        "
    )
}

/// [`selected_then`] with nothing after the ENDIF.
fn selected(sels: &str) -> String {
    selected_then(sels, "")
}

#[test]
fn copies_on_both_sides_become_selects() {
    // Float copies select bits as UD (a float SEL would quiet a signalling NaN).
    let input = program(
        "skl",
        8,
        &branch(
            "mov(8) v0:F, attr0:F\nmov(8) v1:D, attr2:D",
            "mov(8) v0:F, attr1:F\nmov(8) v1:D, u0:D",
        ),
    );
    expect_progress(
        run,
        &input,
        &selected(
            "(+f0.0) sel(8) v0:UD, attr0:UD, attr1:UD\n(+f0.0) sel(8) v1:UD, attr2:UD, u0:UD",
        ),
    );
}

#[test]
fn an_immediate_then_value_swaps_the_sources_and_inverts_the_predicate() {
    // 1065353216 is the bits of 1.0.
    let input = program(
        "skl",
        8,
        &branch("mov(8) v0:F, 1.0:F", "mov(8) v0:F, attr1:F"),
    );
    expect_progress(
        run,
        &input,
        &selected("(-f0.0) sel(8) v0:UD, attr1:UD, 1065353216:UD"),
    );
}

#[test]
fn two_immediates_go_through_a_fresh_register() {
    // SEL takes an immediate only in src1 (docs/hardware/eu-hardware.md §3.3); 1065353216 and
    // 1056964608 are the bits of 1.0 and 0.5.
    let input = program(
        "skl",
        8,
        &branch("mov(8) v0:F, 1.0:F", "mov(8) v0:F, 0.5:F"),
    );
    let output = expect_progress(
        run,
        &input,
        &selected("mov(8) v8:UD, 1065353216:UD\n(+f0.0) sel(8) v0:UD, v8:UD, 1056964608:UD"),
    );
    assert_eq!(output.vgrf_sizes.len(), 9, "one VGRF added");
}

#[test]
fn a_copy_of_a_value_written_on_the_same_side_is_left() {
    // The THEN side copies v0 before it overwrites v0: the MOVs of a side run one after
    // another, so the SEL for v1, after the one for v0, would read the new v0.
    let input = program(
        "skl",
        8,
        &branch(
            "mov(8) v1:F, v0:F\nmov(8) v0:F, attr0:F",
            "mov(8) v1:F, attr2:F\nmov(8) v0:F, attr1:F",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &selected(
            "(+f0.0) sel(8) v0:UD, attr0:UD, attr1:UD\n(+f0.0) sel(8) v1:UD, v0:UD, attr2:UD",
        ),
    );
}

#[test]
fn a_flag_write_inside_a_side_is_left() {
    // The CMP runs only in the THEN channels; hoisted with the copies it would write f0.0
    // in the ELSE channels too, which the SEL after the ENDIF reads.
    let after = "(+f0.0) sel(8) v1:F, 1.0:F, 0.0:F";
    let text = branch_then(
        "mov(8) v0:F, attr0:F\ncmp.ge.f0.0(8) null:F, attr0:F, attr2:F",
        "mov(8) v0:F, attr1:F",
        after,
    );
    let input = program("skl", 8, &text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &selected_then(
            "(+f0.0) sel(8) v0:UD, attr0:UD, attr1:UD\ncmp.ge.f0.0(8) null:F, attr0:F, attr2:F",
            after,
        ),
    );
}

#[test]
fn sides_writing_different_destinations_are_left() {
    // v0 keeps its old value in the ELSE channels and v1 in the THEN channels.
    let text = branch("mov(8) v0:F, attr0:F", "mov(8) v1:F, attr1:F");
    let input = program("skl", 8, &text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &selected("(+f0.0) sel(8) v0:UD, attr0:UD, attr1:UD"),
    );
}

#[test]
fn a_converting_copy_is_left() {
    // Only raw copies become SELs: the MOV converts D to F, which a UD select would not.
    let text = branch("mov(8) v0:F, attr0:D", "mov(8) v0:F, attr1:D");
    let input = program("skl", 8, &text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &selected("(+f0.0) sel(8) v0:UD, attr0:UD, attr1:UD"),
    );
}

#[test]
fn a_float_select_would_quiet_a_signalling_nan() {
    // Why the SELs copy bits as UD: with F sources, the SEL quiets a signalling NaN the
    // MOV copies as it is (0x7f800001 → 0x7fc00001).
    let text = "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nvgrf v0 1\n\
                vgrf v1 1\nvgrf v2 4\nSTART B0\n"
        .to_string()
        + &branch("mov(8) v0:F, attr0:F", "mov(8) v0:F, attr1:F")
        + "END B0\nINPUTS\n    thread 0 attr0 0x7f800001:UD*8\n    \
           thread 0 attr1 0x7f800002:UD 0x7f800001:UD*7\nEND INPUTS\n";
    let input = parse(&text);
    expect_progress(
        run,
        &input,
        &selected("(+f0.0) sel(8) v0:UD, attr0:UD, attr1:UD"),
    );
    expect_forbidden_rewrite_differs(&input, &selected("(+f0.0) sel(8) v0:F, attr0:F, attr1:F"));
}
