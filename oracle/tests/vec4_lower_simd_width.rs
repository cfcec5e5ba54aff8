//! Mesa-style tests of the vec4 `lower_simd_width` (docs/hardware/fp64-align16.md §4, §8).

mod common;

use common::vec4_pass::*;
use compiler::passes::vec4::lower_simd_width::run;

#[test]
fn a_df_instruction_with_a_uniform_is_split_and_the_uniform_stays_put() {
    // §4 rule 3: a uniform reads one GRF or less under a two-GRF destination.
    let input = vec4_program("hsw", "add(8) v2:DF, v0:DF, u0.xyxy:DF { Align16 }");
    expect_rewrite(
        run,
        &input,
        "add(4) v2:DF, v0.xyzw:DF, u0.xyxy:DF { Align16 }
         add(4) v2+32:DF, v0+32.xyzw:DF, u0.xyxy:DF { 2N Align16 }",
    );
}

#[test]
fn haswell_keeps_a_df_instruction_of_two_grf_operands_whole() {
    let input = vec4_program(
        "hsw",
        "add(8) v2.xz:DF, v0.yxwz:DF, v1:DF { Align16 }
         mov(8) v3:F, v1:F { Align16 }",
    );
    expect_unchanged(run, &input);
}

#[test]
fn ivybridge_splits_every_df_instruction_and_df_sel_is_split_on_haswell() {
    // §8: IVB has no exec-8 DF; §4: compressed DF SEL misreads its predicate on Gen7.
    let input = vec4_program("ivb", "add(8) v2.xz:DF, v0.yxwz:DF, v1:DF { Align16 }");
    expect_rewrite(
        run,
        &input,
        "add(4) v2.xz:DF, v0.yxwz:DF, v1.xyzw:DF { Align16 }
         add(4) v2+32.xz:DF, v0+32.yxwz:DF, v1+32.xyzw:DF { 2N Align16 }",
    );
    let input = vec4_program("hsw", "(+f0.0) sel(8) v2:DF, v0:DF, v1:DF { Align16 }");
    expect_rewrite(
        run,
        &input,
        "(+f0.0) sel(4) v2:DF, v0.xyzw:DF, v1.xyzw:DF { Align16 }
         (+f0.0) sel(4) v2+32:DF, v0+32.xyzw:DF, v1+32.xyzw:DF { 2N Align16 }",
    );
}

#[test]
fn an_in_place_conversion_goes_through_temporaries() {
    // f2d in place: piece 0 would overwrite the floats piece 1 reads (§4). Each piece
    // writes a temporary; predicated moves copy them afterwards.
    let input = vec4_program("hsw", "(+f0.0) mov(8) v0:DF, v0:F");
    expect_rewrite(
        run,
        &input,
        "(+f0.0) mov(4) v8:DF, v0:F
         (+f0.0) mov(4) v9:DF, v0+16:F { 2N }
         (+f0.0) mov(4) v0:DF, v8:DF
         (+f0.0) mov(4) v0+32:DF, v9:DF { 2N }",
    );
}

#[test]
fn a_split_set_high_starts_its_temporary_from_the_destination() {
    // SET_HIGH writes half of each DF: the temporary must hold the other half too.
    let input = vec4_program("ivb", "set_high_32bit(8) v0:DF, v0+4:UD");
    expect_rewrite(
        run,
        &input,
        "mov(4) v8:DF, v0:DF
         set_high_32bit(4) v8:DF, v0+4:UD
         mov(4) v9:DF, v0+32:DF { 2N }
         set_high_32bit(4) v9:DF, v0+20:UD { 2N }
         mov(4) v0:DF, v8:DF
         mov(4) v0+32:DF, v9:DF { 2N }",
    );
}

#[test]
fn a_df_compare_into_null_is_sized_by_its_type() {
    // The null destination of a DF compare counts as two GRFs: a uniform source splits it.
    let input = vec4_program(
        "hsw",
        "cmp.l.f0.0(8) null:DF, v0:DF, u0.xyxy:DF { Align16 }
         (+f0.0) mov(8) v1:DF, v0:DF { Align16 }",
    );
    expect_rewrite(
        run,
        &input,
        "cmp.l.f0.0(4) null:DF, v0.xyzw:DF, u0.xyxy:DF { Align16 }
         cmp.l.f0.0(4) null:DF, v0+32.xyzw:DF, u0.xyxy:DF { 2N Align16 }
         (+f0.0) mov(8) v1:DF, v0.xyzw:DF { Align16 }",
    );
}

/// The rewrite kinds `vec4_lower_simd_width` notes compiling `body` on hsw.
fn split_kinds(body: &str) -> Vec<&'static str> {
    let c = compiler::pipeline::compile(&vec4_program("hsw", body), &Default::default());
    c.passes
        .into_iter()
        .find(|r| r.name == "vec4_lower_simd_width")
        .expect("the pass ran")
        .rewrites
}

#[test]
fn a_split_instruction_reading_a_uniform_notes_the_uniform_rule_first() {
    // The uniform rule (every piece reads the uniform where the whole instruction did, §4)
    // is what a bug in the split of a uniform source breaks, whichever reason split the
    // instruction: it is the pass's most specific rewrite, so such a bug keys on it.
    let kinds = compiler::passes::rewrite_kinds("vec4_lower_simd_width");
    assert_eq!(kinds[0], "split-uniform-source");
    for (body, reason) in [
        (
            "add(8) v2:DF, v0:DF, u0.xyxy:DF { Align16 }",
            "split-single-grf-source",
        ),
        (
            "sel.l(8) v2:DF, v0:DF, u0.xyzw:DF { Align16 }",
            "split-df-sel",
        ),
    ] {
        let noted = split_kinds(body);
        assert!(noted.contains(&"split-uniform-source"), "{body}");
        assert!(noted.contains(&reason), "{body}");
    }
    // Without a uniform, only the reason.
    assert_eq!(
        split_kinds("sel.l(8) v2:DF, v0:DF, v1:DF { Align16 }"),
        ["split-df-sel"]
    );
}
