//! Printed-IR tests of the vec4 `convert_to_hw_regs` (docs/hardware/fp64-align16.md §1.4, §3.2, §4):
//! register placement, payload inputs and the hardware encoding of DF Align16 operands.
//! The payload of `vec4_program` is g0 (header), g1–g2 (sixteen uniform dwords), attr0 in
//! g3–g4 and attr1 in g5–g6, so VGRFs are placed from g7 on.

mod common;

use common::vec4_pass::*;
use compiler::passes::vec4::convert_to_hw_regs::run;

#[test]
fn the_section_1_4_table_in_hardware_operands() {
    let input = vec4_program_bare(
        "hsw",
        "mov(8) v0:DF, attr0:DF { Align16 }
         add(8) v1:DF, v0.yxwz:DF, v0.z:DF { Align16 }
         add(8) v2.xz:DF, v1.xyxy:DF, v1.wzwz:DF { Align16 }
         add(8) v3:DF, v2.yyww:DF, v2.xxzz:DF { Align16 }",
    );
    // Native swizzles keep <4>; Gen7 swizzles take <0>, at sub-register 16 (gN.2 in DF
    // elements) for z/w pairs. Each value dies where the next is born (no hazard between
    // different registers of an exec-8 instruction... except its own sources: v1 may not
    // take v0's registers, v2 not v1's, v3 not v2's).
    expect_printed(
        run,
        &input,
        "mov(8) g7:DF, g3<4>.xyzw:DF { Align16 }
         add(8) g9:DF, g7<4>.zwxy:DF, g7.2<0>.xyxy:DF { Align16 }
         add(8) g7.xz:DF, g9<0>.xyzw:DF, g9.2<0>.zwxy:DF { Align16 }
         add(8) g9:DF, g7<4>.zwzw:DF, g7<4>.xyxy:DF { Align16 }",
    );
}

#[test]
fn uniforms_read_vstride_0_and_exec_4_pieces_keep_their_group() {
    let input = vec4_program_bare(
        "hsw",
        "add(4) v0:DF, attr0:DF, u4.x:DF { Align16 }
         add(4) v0+32:DF, attr0+32:DF, u4.x:DF { 2N Align16 }
         add(8) v1:F, attr1:F, u0.wzyx:F { Align16 }",
    );
    // u4 is dword 4 = g1.4 (byte 16): a DF uniform there is already at sub-register 16.
    expect_printed(
        run,
        &input,
        "add(4) g7:DF, g3<4>.xyzw:DF, g1.2<0>.xyxy:DF { Align16 }
         add(4) g8:DF, g4<4>.xyzw:DF, g1.2<0>.xyxy:DF { 2N Align16 }
         add(8) g7:F, g5<4>.xyzw:F, g1<0>.wzyx:F { Align16 }",
    );
}

#[test]
fn align1_dword_moves_get_ordinary_regions() {
    // PICK's DF source is the UD dwords it picks (§5.3: stride 2 from dword 0). The last
    // move reads and writes one GRF (no hazard): its result may take g7.
    let input = vec4_program_bare(
        "hsw",
        "mov(8) v0:DF, attr0:DF { Align16 }
         mov(8) v1<2>:F, v0:DF
         pick_low_32bit(8) v2:UD, v1:DF
         mov(8) v3:F, v2.xyzw:F { Align16 }",
    );
    expect_printed(
        run,
        &input,
        "mov(8) g7:DF, g3<4>.xyzw:DF { Align16 }
         mov(8) g9<16;8,2>:F, g7<4;4,1>:DF
         pick_low_32bit(8) g7<8;8,1>:UD, g9<8;4,2>:UD
         mov(8) g7:F, g7<4>.xyzw:F { Align16 }",
    );
}

#[test]
fn a_32_bit_source_inside_a_vec4_folds_its_offset_into_the_swizzle() {
    // u1 is dword 1 of slot 0 (g1.1); u6.xy is dwords 6, 7 (slot 1, byte 16 of g1).
    let input = vec4_program_bare(
        "hsw",
        "add(8) v0:F, attr1:F, u1.xxyz:F { Align16 }
         add(8) v1:F, attr1:F, u6.xyxy:F { Align16 }",
    );
    expect_printed(
        run,
        &input,
        "add(8) g7:F, g5<4>.xyzw:F, g1<0>.yyzw:F { Align16 }
         add(8) g7:F, g5<4>.xyzw:F, g1.4<0>.zwzw:F { Align16 }",
    );
}
