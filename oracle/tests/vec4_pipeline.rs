//! Whole compilations of vec4 programs (docs/hardware/fp64-align16.md §9): each program below goes
//! through the vec4 pipeline (optimising and `-O0`) on Haswell and Ivybridge, and its
//! compiled, strictly checked run must refine the reference on its own inputs and eight
//! generated input sets. They cover what the generator does not make: DF immediates,
//! packDouble2x32 (SET_LOW/HIGH), loops, a uniform read at a sub-register, a conversion
//! under a writemask inside a branch.

use compiler::pass::CompileOptions;
use compiler::text::parse_program;
use oracle::differential::{Verdict, check, input_sets};

/// `body` is block B0's instructions, or whole blocks (`START B0` … `END Bn`).
fn program(target: &str, decls: &str, body: &str, inputs: &str) -> compiler::Program {
    let blocks = if body.contains("START B") {
        body.to_string()
    } else {
        format!("START B0\n{body}\nEND B0\n")
    };
    let text = format!(
        "eu 1\ntarget {target}\nstage vs\ndispatch 8\nthreads 1\n{decls}\n{blocks}\nINPUTS\n{inputs}\nEND INPUTS\n"
    );
    let mut p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    p.resplit();
    let violations = compiler::validate::validate(&p);
    assert!(violations.is_empty(), "{violations:?}\n{text}");
    p
}

/// Requires every compilation of the program to pass on hsw and ivb.
fn passes_everywhere(decls: &str, body: &str, inputs: &str) {
    for target in ["hsw", "ivb"] {
        let p = program(target, decls, body, inputs);
        for o0 in [false, true] {
            let opts = CompileOptions {
                o0,
                ..CompileOptions::default()
            };
            let checked = check(&p, &input_sets(&p, 8, 1), &opts);
            assert_eq!(
                checked.verdict,
                Verdict::Pass,
                "{target} -O0={o0}\n{}",
                compiler::text::print_program(&checked.compilation.unwrap().program)
            );
        }
    }
}

const DVEC4_IN: &str =
    "    thread 0 attr0 1.5:DF -2.0:DF 3.25:DF 4.0:DF -5.0:DF 6.5:DF 7.0:DF -8.0:DF";

#[test]
fn df_immediates_are_loaded_into_registers() {
    // §1.2: DIM on hsw, two dword moves per GRF on ivb, read .xxxx.
    passes_everywhere(
        "attr attr0 2\nvgrf v0 2\nvgrf v1 2",
        "    add(8) v0:DF, attr0.wzyx:DF, 0.125:DF { Align16 }\n    \
         mul(8) v1:DF, v0:DF, -3.0:DF { Align16 }\n    \
         urb_write_logical(8) null:UD, v1:DF, 0:UD, 1:UD { EOT }",
        DVEC4_IN,
    );
}

#[test]
fn pack_and_unpack_double_2x32() {
    // §5.3: unpackDouble2x32 by PICK_LOW/HIGH, packDouble2x32 by SET_LOW then SET_HIGH.
    passes_everywhere(
        "attr attr0 2\nvgrf v0 1\nvgrf v1 1\nvgrf v2 2",
        "    pick_low_32bit(8) v0:UD, attr0:DF\n    \
         pick_high_32bit(8) v1:UD, attr0:DF\n    \
         set_high_32bit(8) v2:DF, v0:UD\n    \
         set_low_32bit(8) v2:DF, v1:UD\n    \
         urb_write_logical(8) null:UD, v2:DF, 0:UD, 1:UD { EOT }",
        DVEC4_IN,
    );
}

#[test]
fn a_loop_accumulating_doubles_with_swizzles() {
    passes_everywhere(
        "attr attr0 2\nattr attr1 1\nvgrf v0 2\nvgrf v1 1",
        "START B0\n    \
         mov(8) v0:DF, attr0:DF { Align16 }\n    \
         mov(8) v1:F, attr1:F { Align16 }\n\
         END B0\nSTART B1\n    \
         do(8)\n\
         END B1\nSTART B2\n    \
         add(8) v0.xzw:DF, v0.yxwz:DF, v0.zwxy:DF { Align16 }\n    \
         add(8) v1:F, v1:F, -1.0:F { Align16 }\n    \
         cmp.g.f0.0(8) null:F, v1.xxxx:F, 0.0:F { Align16 }\n    \
         (+f0.0) while(8)\n\
         END B2\nSTART B3\n    \
         urb_write_logical(8) null:UD, v0:DF, 0:UD, 1:UD { EOT }\n\
         END B3\n",
        &format!("{DVEC4_IN}\n    thread 0 attr1 3.0:F*4 1.0:F*4"),
    );
}

#[test]
fn a_conversion_under_a_writemask_in_a_divergent_branch_with_sub_register_uniforms() {
    passes_everywhere(
        "uniforms 8\nattr attr0 2\nattr attr1 1\nvgrf v0 2\nvgrf v1 1",
        "START B0\n    \
         mov(8) v0:DF, attr0:DF { Align16 }\n    \
         add(8) v1:F, attr1:F, u1.xyyz:F { Align16 }\n    \
         cmp.l.f0.0(8) null:F, attr1.xxxx:F, 0.0:F { Align16 }\n    \
         (+f0.0) if(8)\n\
         END B0\nSTART B1\n    \
         mov.sat(8) v0.yw:DF, v1.zzxx:F { Align16 }\n    \
         else(8)\n\
         END B1\nSTART B2\n    \
         mov(8) v1.x:F, v0.w:DF { Align16 }\n\
         END B2\nSTART B3\n    \
         endif(8)\n    \
         urb_write_logical(8) null:UD, v0:DF, 0:UD, 1:UD\n    \
         urb_write_logical(8) null:UD, v1:F, 2:UD, 1:UD { EOT }\n\
         END B3\n",
        &format!(
            "    uniforms 0.5:F 0.25:F -4.0:F 8.0:F 1.0:F*4\n{DVEC4_IN}\n    \
             thread 0 attr1 -1.0:F 0.5:F 2.0:F 0.75:F 1.0:F 2.0:F 3.0:F 4.0:F"
        ),
    );
}

#[test]
fn a_df_uniform_starting_mid_row_is_read_one_component_at_a_time() {
    // u2 is byte 8 of the first uniform row: its components straddle rows.
    passes_everywhere(
        "uniforms 12\nattr attr0 2\nvgrf v0 2",
        "    add(8) v0:DF, attr0:DF, u2.yxyx:DF { Align16 }\n    \
         urb_write_logical(8) null:UD, v0:DF, 0:UD, 1:UD { EOT }",
        &format!("    uniforms 1.0:F 2.0:F 3.0:DF 4.0:DF 5.0:DF 6.0:DF 7.0:F 8.0:F\n{DVEC4_IN}"),
    );
}
