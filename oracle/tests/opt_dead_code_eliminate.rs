//! Mesa-style tests of `opt_dead_code_eliminate` (docs/hardware/brw-backend.md §7.1 step 7, §7.4 DCE
//! commits).

mod common;

use common::opt_pass::*;
use compiler::passes::opt_dead_code_eliminate::run;

const WRITE: &str = "
    mov(8) v2+32:F, 0.0:F
    mov(8) v2+64:F, 0.0:F
    mov(8) v2+96:F, 0.0:F
    fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
";

fn with_write(body: &str) -> String {
    format!("{body}\n{WRITE}")
}

#[test]
fn a_chain_of_dead_values_goes() {
    let input = program(
        "skl",
        8,
        &with_write(
            "
            add(8) v0:F, attr0:F, attr1:F
            mul(8) v1:F, v0:F, v0:F
            mov(8) v2:F, attr2:F
            ",
        ),
    );
    expect_progress(run, &input, &with_write("mov(8) v2:F, attr2:F"));
}

#[test]
fn a_dead_value_whose_flag_is_read_keeps_its_flag_write() {
    // Mesa 68a4c796d52: the destination becomes null, the conditional modifier stays.
    let input = program(
        "skl",
        8,
        &with_write(
            "
            add.ge.f0.0(8) v0:F, attr0:F, attr1:F
            (+f0.0) sel(8) v2:F, attr0:F, attr1:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &with_write(
            "
            add.ge.f0.0(8) null:F, attr0:F, attr1:F
            (+f0.0) sel(8) v2:F, attr0:F, attr1:F
            ",
        ),
    );
    // Dropping the flag write as well would leave the SEL reading an unwritten flag.
    expect_forbidden_rewrite_differs(&input, &with_write("(+f0.0) sel(8) v2:F, attr0:F, attr1:F"));
}

#[test]
fn a_flag_nobody_reads_is_dead() {
    let input = program(
        "skl",
        8,
        &with_write(
            "
            cmp.l.f0.1(8) null:F, attr0:F, 0.0:F
            mov(8) v2:F, attr2:F
            ",
        ),
    );
    expect_progress(run, &input, &with_write("mov(8) v2:F, attr2:F"));
}

#[test]
fn values_that_reach_an_output_stay() {
    // A partial (predicated) write and the full write before it both feed the output.
    let input = program(
        "skl",
        8,
        &with_write(
            "
            mov(8) v2:F, attr1:F
            cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
            (+f0.0) mov(8) v2:F, attr0:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &with_write(
            "
            cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
            (+f0.0) mov(8) v2:F, attr0:F
            ",
        ),
    );
}

#[test]
fn a_value_used_after_control_flow_stays() {
    let text = "
        START B0
        mov(8) v0:F, attr0:F
        cmp.l.f0.0(8) null:F, attr1:F, 0.0:F
        (+f0.0) if(8)
        END B0
        START B1
        add(8) v0:F, attr0:F, attr1:F
        END B1
        START B2
        endif(8)
        mov(8) v2:F, v0:F
        mov(8) v2+32:F, 0.0:F
        mov(8) v2+64:F, 0.0:F
        mov(8) v2+96:F, 0.0:F
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
        END B2
    ";
    expect_no_progress(run, &program("skl", 8, text));
}
