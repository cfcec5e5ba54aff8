//! Mesa-style tests of `scalarize_df` (docs/hardware/fp64-align16.md §1.5, §1.6, §2).

mod common;

use common::vec4_pass::*;
use compiler::passes::vec4::scalarize_df::run;

#[test]
fn supported_swizzles_stay_whole() {
    // XYZW, XXZZ, YYWW, YXWZ natively; XXXX..WZWZ through Gen7's VertStride 0 (§1.4).
    let input = vec4_program(
        "hsw",
        "add(8) v2:DF, v0:DF, v1.xxzz:DF { Align16 }
         add(8) v3:DF, v0.yyww:DF, v1.yxwz:DF { Align16 }
         add(8) v4.xzw:DF, v0.z:DF, v1.wzwz:DF { Align16 }",
    );
    expect_unchanged(run, &input);
}

#[test]
fn an_unsupported_swizzle_splits_per_written_component() {
    // XXYY has no encoding: each written component reads its own source component
    // replicated; the 32-bit-free copies keep saturate and the predicate.
    let input = vec4_program("hsw", "add.sat(8) v2.xyw:DF, v0.xxyy:DF, v1:DF { Align16 }");
    expect_rewrite(
        run,
        &input,
        "add.sat(8) v2.x:DF, v0.x:DF, v1.x:DF { Align16 }
         add.sat(8) v2.y:DF, v0.x:DF, v1.y:DF { Align16 }
         add.sat(8) v2.w:DF, v0.y:DF, v1.w:DF { Align16 }",
    );
}

#[test]
fn xy_and_zw_writemasks_always_split() {
    // §2: no DF encoding for .xy/.zw, even with identity swizzles; .xz stays whole.
    let input = vec4_program(
        "hsw",
        "mov(8) v2.zw:DF, v0:DF { Align16 }
         mov(8) v3.xz:DF, v0.xyzw:DF { Align16 }",
    );
    expect_rewrite(
        run,
        &input,
        "mov(8) v2.z:DF, v0.z:DF { Align16 }
         mov(8) v2.w:DF, v0.w:DF { Align16 }
         mov(8) v3.xz:DF, v0.xyzw:DF { Align16 }",
    );
}

#[test]
fn uniforms_reading_z_or_w_split() {
    // §1.5: a uniform's VertStride 0 cannot reach z/w, even with XYZW.
    let input = vec4_program("hsw", "add(8) v2:DF, u0:DF, v1:DF { Align16 }");
    expect_rewrite(
        run,
        &input,
        "add(8) v2.x:DF, u0.x:DF, v1.x:DF { Align16 }
         add(8) v2.y:DF, u0.y:DF, v1.y:DF { Align16 }
         add(8) v2.z:DF, u0.z:DF, v1.z:DF { Align16 }
         add(8) v2.w:DF, u0.w:DF, v1.w:DF { Align16 }",
    );
    expect_unchanged(
        run,
        &vec4_program("hsw", "add(8) v2:DF, u0.xyxy:DF, v1:DF { Align16 }"),
    );
}

/// An instruction that already writes one component with a replicated swizzle would split
/// into itself: it stays, and the pass reports no progress (regression
/// `vec4-scalarize-df-one-component-no-progress.eu`: progress for an unchanged program).
#[test]
fn a_one_component_write_that_would_split_into_itself_is_no_progress() {
    let input = vec4_program("hsw", "mov(4) v2.y:DF, u0.z:DF { Align16 }");
    expect_unchanged(run, &input);
}

#[test]
fn align1_dword_moves_and_32_bit_instructions_are_left_alone() {
    let input = vec4_program(
        "hsw",
        "pick_low_32bit(8) v2:UD, v0:DF
         mov(8) v3.xy:F, v1.xxyy:F { Align16 }",
    );
    expect_unchanged(run, &input);
}

#[test]
fn a_split_instruction_reading_its_own_destination_goes_through_a_temporary() {
    // The .z copy would overwrite the z the .w copy reads: the copies write a temporary.
    let input = vec4_program("hsw", "mul(8) v0.zw:DF, v0.yxwz:DF, v0.zzxx:DF { Align16 }");
    expect_rewrite(
        run,
        &input,
        "mul(8) v8.z:DF, v0.w:DF, v0.x:DF { Align16 }
         mul(8) v8.w:DF, v0.z:DF, v0.x:DF { Align16 }
         mov(8) v0.z:DF, v8.z:DF { Align16 }
         mov(8) v0.w:DF, v8.w:DF { Align16 }",
    );
}

#[test]
fn a_compare_keeps_its_flag_write_whole() {
    // Split copies of a compare would each write every channel's flag: the unsupported
    // source is resolved into a temporary first.
    let input = vec4_program(
        "hsw",
        "cmp.l.f0.0(8) null:DF, v0:DF, -v1.xxyy:DF { Align16 }
         (+f0.0) mov(8) v2:DF, v0:DF { Align16 }",
    );
    expect_rewrite(
        run,
        &input,
        "mov(8) v8.x:DF, v1.x:DF { Align16 }
         mov(8) v8.y:DF, v1.x:DF { Align16 }
         mov(8) v8.z:DF, v1.y:DF { Align16 }
         mov(8) v8.w:DF, v1.y:DF { Align16 }
         cmp.l.f0.0(8) null:DF, v0.xyzw:DF, -v8.xyzw:DF { Align16 }
         (+f0.0) mov(8) v2:DF, v0.xyzw:DF { Align16 }",
    );
}
