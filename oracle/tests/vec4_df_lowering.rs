//! Mesa-style tests of the Gen7 conversion sequences and DF immediates of the vec4 stage
//! (docs/hardware/fp64-align16.md §1.2, §5.2, §5.3).

mod common;

use common::vec4_pass::*;
use compiler::passes::vec4::{lower_df_conversions, setup_imm_df};

#[test]
fn d2f_resolves_the_swizzle_converts_in_align1_and_picks_the_low_dwords() {
    let input = vec4_program("hsw", "(+f0.0) mov.sat(8) v2.xz:F, v0.wzyx:DF { Align16 }");
    expect_rewrite(
        lower_df_conversions::run,
        &input,
        "mov(8) v8:DF, v0.wzyx:DF { Align16 }
         mov(8) v9<2>:F, v8:DF
         pick_low_32bit(8) v10:UD, v9:DF
         (+f0.0) mov.sat(8) v2.xz:F, v10.xyzw:F { Align16 }",
    );
}

#[test]
fn i2d_resolves_the_swizzle_then_converts_in_align1() {
    let input = vec4_program("ivb", "mov(8) v2.yw:DF, v0.yyww:D { Align16 }");
    expect_rewrite(
        lower_df_conversions::run,
        &input,
        "mov(8) v8:D, v0.yyww:D { Align16 }
         mov(8) v9:DF, v8:D
         mov(8) v2.yw:DF, v9.xyzw:DF { Align16 }",
    );
    // Moves between equal sizes are no conversions of §5.2.
    expect_unchanged(
        lower_df_conversions::run,
        &vec4_program("hsw", "mov(8) v2:D, v0.yyww:F { Align16 }"),
    );
}

#[test]
fn haswell_loads_a_df_immediate_with_dim_and_ivybridge_with_two_dword_moves() {
    let body = "add(8) v2:DF, v0:DF, -2.5:DF { Align16 }";
    expect_rewrite(
        setup_imm_df::run,
        &vec4_program("hsw", body),
        "dim(8) v8:DF, -2.5:DF { NoMask Align16 }
         add(8) v2:DF, v0.xyzw:DF, v8.x:DF { Align16 }",
    );
    // -2.5 = 0xC0040000_00000000: low dword 0, high dword 0xC0040000.
    expect_rewrite(
        setup_imm_df::run,
        &vec4_program("ivb", body),
        "mov(4) v8.x:UD, 0:UD { NoMask Align16 }
         mov(4) v8.y:UD, 3221487616:UD { NoMask Align16 }
         mov(4) v8+32.x:UD, 0:UD { 2N NoMask Align16 }
         mov(4) v8+32.y:UD, 3221487616:UD { 2N NoMask Align16 }
         add(8) v2:DF, v0.xyzw:DF, v8.x:DF { Align16 }",
    );
}
