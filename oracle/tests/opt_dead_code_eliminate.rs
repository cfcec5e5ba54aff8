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

#[test]
fn a_dead_min_max_goes_although_its_flag_subregister_is_read_elsewhere() {
    // A SEL's conditional modifier picks the minimum or maximum and writes no flag
    // (docs/hardware/brw-backend.md §10.3 item 20): f0.0, read by the predicated SEL, is the CMP's.
    // On G45 keeping the dead `sel.l` left lower_alu_restrictions no free flag for its CMPN.
    let body = |minmax: &str| {
        with_write(&format!(
            "
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            cmp.g.f0.1(8) null:F, attr0:F, 0.5:F
            {minmax}
            (+f0.0) sel(8) v1:F, attr0:F, attr1:F
            (+f0.1) sel(8) v2:F, v1:F, 3.0:F
            "
        ))
    };
    for target in ["g45", "skl"] {
        let input = program(target, 8, &body("sel.l(8) v0:F, attr0:F, attr1:F"));
        expect_progress(run, &input, &body(""));
    }
}

#[test]
fn a_dead_value_keeps_a_destination_a_null_one_could_not_stride() {
    // On CHV a 64-bit execution type needs a qword destination stride
    // (docs/hardware/eu-hardware.md §5.1) and a null destination is packed: the dead value keeps its
    // register; on SKL it becomes null as usual.
    let body = |dst: &str| {
        with_write(&format!(
            "
            mov(8) v1:DF, attr0:DF
            mov.ge.f0.1(8) {dst}, v1:DF
            (+f0.1) sel(8) v2:F, attr1:F, attr2:F
            "
        ))
    };
    let input = program("chv", 8, &body("v0<2>:UD"));
    expect_no_progress(run, &input);
    let input = program("skl", 8, &body("v0<2>:UD"));
    expect_progress(run, &input, &body("null:UD"));
}

#[test]
fn a_null_write_of_no_flag_is_dead() {
    // docs/hardware/brw-backend.md §7.1 step 7: an instruction with a null destination and no
    // live flag result does nothing, and Mesa's DCE removes it; a predicated one as well.
    let input = program(
        "skl",
        8,
        &with_write(
            "
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            add(8) null:F, attr0:F, attr1:F
            (+f0.0) mov(8) null:F, attr0:F
            mov(8) v2:F, attr2:F
            ",
        ),
    );
    expect_progress(run, &input, &with_write("mov(8) v2:F, attr2:F"));
    assert_eq!(
        contract(&compiler::passes::opt_dead_code_eliminate::PASS, &input),
        ["dead-code-kept 1", "dead-code-kept 2"]
    );
}

#[test]
fn a_flag_write_none_of_whose_bytes_is_read_is_dead() {
    // docs/hardware/brw-backend.md §7.1 step 7: Mesa's DCE tracks flag liveness by the
    // byte. The second-half compare writes bits 8..16 of f0.0; the SEL reads bits 0..8 of
    // it, so that compare is dead though its subregister is read, and the first-half one
    // is live.
    let body = |second_half: &str| {
        with_write(&format!(
            "
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            {second_half}
            (+f0.0) sel(8) v2:F, attr0:F, attr1:F
            "
        ))
    };
    let input = program(
        "skl",
        16,
        &body("cmp.l.f0.0(8) null:F, attr0+32:F, attr1+32:F { 2Q }"),
    );
    assert_eq!(
        contract(&compiler::passes::opt_dead_code_eliminate::PASS, &input),
        ["dead-code-kept 1"]
    );
    let output = expect_progress(run, &input, &body(""));
    assert!(contract(&compiler::passes::opt_dead_code_eliminate::PASS, &output).is_empty());
}

#[test]
fn a_value_no_instruction_reads_breaks_the_contract_until_it_goes() {
    // A VGRF nothing reads, written by an instruction with no other effect, is dead
    // wherever it stands; the first-half compare's flag is read by the SEL and stays.
    let input = program(
        "skl",
        8,
        &with_write(
            "
            add(8) v5:F, attr0:F, attr1:F
            mul.l.f0.0(8) v6:F, attr0:F, attr1:F
            (+f0.0) sel(8) v2:F, attr0:F, attr1:F
            ",
        ),
    );
    assert_eq!(
        contract(&compiler::passes::opt_dead_code_eliminate::PASS, &input),
        ["dead-code-kept 0"]
    );
    let output = expect_progress(
        run,
        &input,
        &with_write(
            "
            mul.l.f0.0(8) null:F, attr0:F, attr1:F
            (+f0.0) sel(8) v2:F, attr0:F, attr1:F
            ",
        ),
    );
    assert!(contract(&compiler::passes::opt_dead_code_eliminate::PASS, &output).is_empty());
}
