//! Mesa-style tests of `opt_cse` (docs/hardware/brw-backend.md §7.1 step 3, §7.4 CSE commits, §10.3 33).

mod common;

use common::opt_pass::*;
use compiler::passes::opt_cse::{PASS, run};

fn with_write(body: &str) -> String {
    format!(
        "{body}
        mov(8) v2+64:F, 0.0:F
        mov(8) v2+96:F, 0.0:F
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD {{ EOT }}"
    )
}

#[test]
fn a_repeated_expression_becomes_a_copy() {
    let input = program(
        "skl",
        8,
        &with_write(
            "
            add(8) v0:F, attr0:F, -attr1:F
            add(8) v1:F, attr0:F, -attr1:F
            mul(8) v2:F, v0:F, attr2:F
            mul(8) v2+32:F, v1:F, attr2:F
            ",
        ),
    );
    // The second ADD (ip 1) recomputes the first: the pass's contract names it.
    assert_eq!(contract(&PASS, &input), ["expression-recomputed 1"]);
    // The second MUL reads v1, a copy of v0: it is not the same expression as the first.
    let output = expect_progress(
        run,
        &input,
        &with_write(
            "
            add(8) v0:F, attr0:F, -attr1:F
            mov(8) v1:F, v0:F
            mul(8) v2:F, v0:F, attr2:F
            mul(8) v2+32:F, v1:F, attr2:F
            ",
        ),
    );
    assert!(contract(&PASS, &output).is_empty());
}

#[test]
fn commuted_integer_sources_match() {
    let input = program(
        "skl",
        8,
        &with_write(
            "
            mul(8) v2:D, attr0:D, attr1:D
            mul(8) v2+32:D, attr1:D, attr0:D
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &with_write(
            "
            mul(8) v2:D, attr0:D, attr1:D
            mov(8) v2+32:D, v2:D
            ",
        ),
    );
}

#[test]
fn commuted_float_sources_do_not_match() {
    // Which of two NaN sources a product carries is not documented, so the pass does not
    // treat commuted float sources as one expression (`is_commutative`). (The emulator's
    // choice does not depend on the order, so there is no negative case to run.)
    let text = "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nvgrf v0 1\n\
                vgrf v1 1\nvgrf v2 4\nSTART B0\n\
                mul(8) v0:F, attr0:F, attr1:F\n\
                mul(8) v1:F, attr1:F, attr0:F\n\
                xor(8) v2:UD, v0:UD, 0:UD\n\
                xor(8) v2+32:UD, v1:UD, 0:UD\n\
                mov(8) v2+64:F, 0.0:F\n\
                mov(8) v2+96:F, 0.0:F\n\
                fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }\n\
                END B0\n\
                INPUTS\n    thread 0 attr0 2147483646:UD*8\n    thread 0 attr1 2147483647:UD*8\n\
                END INPUTS\n";
    let input = parse(text);
    expect_no_progress(run, &input);
}

#[test]
fn a_redefined_source_ends_the_expression() {
    let text = with_write(
        "
        add(8) v0:F, attr0:F, 1.0:F
        mov(8) v2:F, v0:F
        add(8) v1:F, attr0:F, attr1:F
        add(8) v0:F, v1:F, 1.0:F
        add(8) v2+32:F, attr0:F, 1.0:F
        ",
    );
    let input = program("skl", 8, &text);
    // v0 no longer holds attr0 + 1 when the last ADD recomputes it.
    expect_no_progress(run, &input);
    assert!(contract(&PASS, &input).is_empty());
    expect_forbidden_rewrite_differs(
        &input,
        &with_write(
            "
            add(8) v0:F, attr0:F, 1.0:F
            mov(8) v2:F, v0:F
            add(8) v1:F, attr0:F, attr1:F
            add(8) v0:F, v1:F, 1.0:F
            mov(8) v2+32:F, v0:F
            ",
        ),
    );
}

#[test]
fn saturate_and_nomask_are_part_of_the_key() {
    // Mesa 70171a9c89e: NoMask was ignored when matching; and a saturated result is not the
    // unsaturated one.
    let text = with_write(
        "
        add.sat(8) v2:F, attr0:F, attr1:F
        add(8) v2+32:F, attr0:F, attr1:F
        ",
    );
    let input = program("skl", 8, &text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        &with_write(
            "
            add.sat(8) v2:F, attr0:F, attr1:F
            mov(8) v2+32:F, v2:F
            ",
        ),
    );
    let masked_then_nomask = with_write(
        "
        add(8) v2:F, attr0:F, attr1:F
        add(8) v2+32:F, attr0:F, attr1:F { NoMask }
        ",
    );
    expect_no_progress(run, &program("skl", 8, &masked_then_nomask));
}

#[test]
fn instructions_writing_flags_are_not_merged() {
    // §10.3 33: two flag-writing instructions with different sources; and a flag write is
    // an effect beyond the destination.
    let text = with_write(
        "
        add.nz.f0.0(8) v2:F, attr0:F, attr1:F
        add.nz.f0.1(8) v2+32:F, attr0:F, attr1:F
        ",
    );
    expect_no_progress(run, &program("skl", 8, &text));
}
