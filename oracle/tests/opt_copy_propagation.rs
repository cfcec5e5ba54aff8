//! Mesa-style tests of `opt_copy_propagation` (brw-backend.md §7.1 step 4, §10.3 30): the
//! pass rewrites reads of a copy to read its source; the copy itself stays for DCE.

mod common;

use common::opt_pass::*;
use compiler::passes::opt_copy_propagation::run;

const WRITE: &str = "fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }";

fn with_write(body: &str) -> String {
    format!("{body}\n    {WRITE}")
}

#[test]
fn a_chain_of_copies_collapses_onto_the_input() {
    let input = program(
        "skl",
        8,
        &with_write(
            "
            mov(8) v0:F, attr0:F
            mov(8) v1:F, v0:F
            add(8) v2:F, v1:F, -v0:F
            mov(8) v2+32:F, v1:F
            mov(8) v2+64:F, v1:F
            mov(8) v2+96:F, v1:F
            ",
        ),
    );
    // Both reads of v1 become reads of v0 and every read of v0 a read of attr0; the
    // negation on the use stays on the use.
    expect_progress(
        run,
        &input,
        &with_write(
            "
            mov(8) v0:F, attr0:F
            mov(8) v1:F, attr0:F
            add(8) v2:F, attr0:F, -attr0:F
            mov(8) v2+32:F, attr0:F
            mov(8) v2+64:F, attr0:F
            mov(8) v2+96:F, attr0:F
            ",
        ),
    );
}

#[test]
fn a_copy_whose_source_is_redefined_is_not_propagated_past_the_write() {
    let body = with_write(
        "
        mov(8) v0:F, attr0:F
        mov(8) v1:F, v0:F
        add(8) v0:F, attr0:F, attr1:F
        mul(8) v2:F, v1:F, v0:F
        mov(8) v2+32:F, v0:F
        mov(8) v2+64:F, v0:F
        mov(8) v2+96:F, v0:F
        ",
    );
    let input = program("skl", 8, &body);
    // After the ADD, v1 still holds the old v0, which is attr0 (not redefined): the MUL
    // reads attr0 for v1 and keeps reading the new v0.
    expect_progress(
        run,
        &input,
        &with_write(
            "
            mov(8) v0:F, attr0:F
            mov(8) v1:F, attr0:F
            add(8) v0:F, attr0:F, attr1:F
            mul(8) v2:F, attr0:F, v0:F
            mov(8) v2+32:F, v0:F
            mov(8) v2+64:F, v0:F
            mov(8) v2+96:F, v0:F
            ",
        ),
    );
    // Reading the redefined v0 in the MUL instead of v1 would change the product.
    expect_forbidden_rewrite_differs(
        &input,
        &with_write(
            "
            mov(8) v0:F, attr0:F
            mov(8) v1:F, attr0:F
            add(8) v0:F, attr0:F, attr1:F
            mul(8) v2:F, v0:F, v0:F
            mov(8) v2+32:F, v0:F
            mov(8) v2+64:F, v0:F
            mov(8) v2+96:F, v0:F
            ",
        ),
    );
}

#[test]
fn a_saturating_copy_is_not_propagated() {
    // §10.3 30: `mov.sat t, x` is never folded into its users.
    let body = with_write(
        "
        mov.sat(8) v1:F, attr0:F
        add(8) v2:F, v1:F, attr1:F
        mov(8) v2+32:F, v1:F
        mov(8) v2+64:F, v1:F
        mov(8) v2+96:F, v1:F
        ",
    );
    let input = program("skl", 8, &body);
    expect_no_progress(run, &input);
    let forbidden = with_write(
        "
        mov.sat(8) v1:F, attr0:F
        add(8) v2:F, attr0:F, attr1:F
        mov(8) v2+32:F, attr0:F
        mov(8) v2+64:F, attr0:F
        mov(8) v2+96:F, attr0:F
        ",
    );
    expect_forbidden_rewrite_differs(&input, &forbidden);
}

#[test]
fn a_predicated_copy_is_not_propagated() {
    // A predicated MOV writes only some channels: the others keep v1's earlier value.
    let body = with_write(
        "
        mov(8) v1:F, attr1:F
        cmp.l.f0.0(8) null:F, attr0:F, 0.0:F
        (+f0.0) mov(8) v1:F, attr0:F
        mov(8) v2:F, v1:F
        mov(8) v2+32:F, v1:F
        mov(8) v2+64:F, v1:F
        mov(8) v2+96:F, v1:F
        ",
    );
    let input = program("skl", 8, &body);
    expect_no_progress(run, &input);
    let forbidden = body.replace("mov(8) v2:F, v1:F", "mov(8) v2:F, attr0:F");
    expect_forbidden_rewrite_differs(&input, &forbidden);
}

#[test]
fn a_nomask_read_of_a_masked_copy_is_not_propagated() {
    // §9.2: the NoMask ADD reads v1 in channels the masked copy did not write (the
    // dispatch mask leaves some out), where v1 still holds attr1.
    let text = "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nvgrf v0 1\nvgrf v1 4\n\
         START B0\n\
         mov(8) v0:F, attr1:F { NoMask }\n\
         mov(8) v0:F, attr0:F\n\
         add(8) v1:F, v0:F, 1.0:F { NoMask }\n\
         mov(8) v1+32:F, 0.0:F { NoMask }\n\
         mov(8) v1+64:F, 0.0:F { NoMask }\n\
         mov(8) v1+96:F, 0.0:F { NoMask }\n\
         fb_write_logical(8) null:UD, v1:F, 4:UD, 0:UD { EOT }\nEND B0\n";
    let input = parse(text);
    expect_no_progress(run, &input);
}

#[test]
fn copies_do_not_cross_channel_groups() {
    // The second half of a SIMD16 copy, read by an instruction of the first half, is a
    // different set of channels.
    let body = "
        mov(8) v1:F, attr0:F { 2Q }
        add(8) v2:F, v1:F, 1.0:F
        mov(8) v2+32:F, v1:F
        mov(8) v2+64:F, v1:F
        mov(8) v2+96:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
    ";
    expect_no_progress(run, &program("skl", 16, body));
}
