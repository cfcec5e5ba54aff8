//! The optimisation-pass test harness itself: it sees through a correct rewrite and
//! catches a wrong one, with and without control flow.

mod common;

use common::opt_pass::*;
use compiler::opcode::Opcode;
use compiler::pass::{CompileOptions, PassError};
use compiler::program::Program;

/// Deletes MOVs into v7 (which the test programs never read): a stand-in dead-code pass.
fn drop_movs_to_v7(p: &mut Program, _: &CompileOptions) -> Result<bool, PassError> {
    let before = p.inst_count();
    let insts: Vec<_> = p
        .take_insts()
        .into_iter()
        .filter(|i| !(i.op == Opcode::Mov && compiler::text::print_inst(i).contains(" v7")))
        .collect();
    p.set_insts(insts);
    Ok(p.inst_count() != before)
}

const BODY: &str = "
    mov(8) v7:F, attr0:F
    add(8) v0:F, attr0:F, attr1:F
    mov(8) v1:F, 1.0:F
    mov(8) v2:F, 0.5:F
    mov(8) v3:F, 1.0:F
    fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD { EOT }
";

#[test]
fn a_correct_rewrite_agrees_and_prints_as_expected() {
    let input = program("skl", 8, BODY);
    expect_progress(
        drop_movs_to_v7,
        &input,
        "
        add(8) v0:F, attr0:F, attr1:F
        mov(8) v1:F, 1.0:F
        mov(8) v2:F, 0.5:F
        mov(8) v3:F, 1.0:F
        fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD { EOT }
        ",
    );
    expect_no_progress(
        drop_movs_to_v7,
        &program("skl", 8, &BODY.replace("v7", "v6")),
    );
}

#[test]
fn a_wrong_rewrite_is_told_apart_with_and_without_control_flow() {
    let input = program("skl", 8, BODY);
    expect_forbidden_rewrite_differs(
        &input,
        "
        add(8) v0:F, attr0:F, attr0:F
        mov(8) v1:F, 1.0:F
        mov(8) v2:F, 0.5:F
        mov(8) v3:F, 1.0:F
        fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD { EOT }
        ",
    );
    let branchy = "
        mov(8) v0:F, attr0:F
        cmp.l.f0.0(8) null:F, attr1:F, 0.5:F
        (+f0.0) if(8)
        add(8) v0:F, attr0:F, attr1:F
        endif(8)
        mov(8) v1:F, 1.0:F
        mov(8) v2:F, 0.5:F
        mov(8) v3:F, 1.0:F
        fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD { EOT }
    ";
    let input = program("skl", 8, &format!("START B0\n{branchy}\nEND B0\n"));
    expect_forbidden_rewrite_differs(&input, &branchy.replace("(+f0.0) if", "(-f0.0) if"));
}
