//! Mesa-style tests of `opt_cmod_propagation` (docs/hardware/brw-backend.md §7.1 step 6, §10.3 1–21,
//! §11.14–18, §1.7): the positive folds compare the printed output and the progress flag and
//! agree on the emulator; each negative case of §10.3 (one test each, named after Mesa's
//! test as §10.3 gives it) shows no progress and that the forbidden rewrite would change an
//! output (or, where the rewrite cannot be expressed, that the validator rejects it).

mod common;

use common::opt_pass::*;
use compiler::passes::opt_cmod_propagation::run;
use compiler::program::Program;

/// Writes `(+f0.0) sel` of the two attrs as the colour, so the flag is observable.
const USE_FLAG: &str = "
    (+f0.0) sel(8) v2:F, attr0:F, attr1:F
    mov(8) v2+32:F, v0:F
    mov(8) v2+64:F, 0.0:F
    mov(8) v2+96:F, 0.0:F
    fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
";

/// Writes both f0.0 and f0.1 (as selects of 1.0 / 0.0) and v0, v1 as the colour.
const USE_BOTH_FLAGS: &str = "
    (+f0.0) sel(8) v7:F, 1.0:F, 0.0:F
    (+f0.1) sel(8) v7+32:F, 1.0:F, 0.0:F
    mov(8) v7+64:F, v0:F
    mov(8) v7+96:F, v1:F
    fb_write_logical(8) null:UD, v7:F, 4:UD, 0:UD { EOT }
";

fn body(lines: &str) -> String {
    format!("{lines}\n{USE_FLAG}")
}

fn both(lines: &str) -> String {
    format!("{lines}\n{USE_BOTH_FLAGS}")
}

/// A SKL SIMD8 program of `lines` followed by `USE_BOTH_FLAGS`, run first on `inputs`
/// (lines of an `INPUTS` section).
fn with_inputs(lines: &str, inputs: &str) -> Program {
    with_inputs_using(&both(lines), inputs)
}

/// A SKL SIMD8 program of exactly `text`, run first on `inputs`.
fn with_inputs_using(text: &str, inputs: &str) -> Program {
    program(
        "skl",
        8,
        &format!("START B0\n{text}\nEND B0\nINPUTS\n{inputs}\nEND INPUTS\n"),
    )
}

/// The negative-case check: no progress, and the forbidden rewrite changes an output.
fn expect_left(input: &Program, forbidden: &str) {
    expect_no_progress(run, input);
    expect_forbidden_rewrite_differs(input, forbidden);
}

/// For a rewrite the IR cannot express: no progress, and the validator rejects the
/// forbidden rewrite.
fn expect_left_invalid_rewrite(input: &Program, forbidden: &str) {
    expect_no_progress(run, input);
    let text = compiler::text::print_program(input);
    let header: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("START"))
        .collect();
    let rebuilt = format!("{}\nSTART B0\n{forbidden}\nEND B0\n", header.join("\n"));
    let mut p = compiler::text::parse_program(&rebuilt).expect("the forbidden rewrite parses");
    p.resplit();
    let violations = compiler::validate::validate(&p);
    assert!(
        !violations.is_empty(),
        "the validator accepts the forbidden rewrite:\n{forbidden}"
    );
}

// ---------------------------------------------------------------------------------------
// Positive folds.

#[test]
fn add_then_compare_with_zero_folds_into_the_add() {
    // §10.2's example: `add(8) dest src0 src1 | cmp.ge.f0(8) null dest 0.0f` →
    // `add.ge.f0(8) dest src0 src1`.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
            ",
        ),
    );
    expect_progress(run, &input, &body("add.ge.f0.0(8) v0:F, attr0:F, attr1:F"));
}

#[test]
fn mov_nz_folds_into_an_integer_producer() {
    let input = program(
        "hsw",
        8,
        &body(
            "
            and(8) v0:D, attr0:D, attr1:D
            mov.nz.f0.0(8) null:D, v0:D
            ",
        ),
    );
    expect_progress(run, &input, &body("and.nz.f0.0(8) v0:D, attr0:D, attr1:D"));
}

#[test]
fn a_write_of_the_other_flag_subregister_does_not_block_the_fold() {
    // §10.3 5, the `…_mismatch_flag` variants: f0.1 is not the flag the compare writes.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            cmp.l.f0.1(8) null:F, attr0:F, 0.5:F
            cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &body(
            "
            add.ge.f0.0(8) v0:F, attr0:F, attr1:F
            cmp.l.f0.1(8) null:F, attr0:F, 0.5:F
            ",
        ),
    );
}

#[test]
fn a_compare_into_f0_1_moves_the_producers_flag_to_f0_1() {
    // §11.15: the producer takes the compare's flag subregister with its modifier.
    let input = program(
        "skl",
        8,
        &both(
            "
            cmp.l.f0.0(8) null:F, attr2:F, 0.0:F
            add(8) v0:F, attr0:F, attr1:F
            cmp.ge.f0.1(8) null:F, v0:F, 0.0:F
            mov(8) v1:F, 0.0:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &both(
            "
            cmp.l.f0.0(8) null:F, attr2:F, 0.0:F
            add.ge.f0.1(8) v0:F, attr0:F, attr1:F
            mov(8) v1:F, 0.0:F
            ",
        ),
    );
}

#[test]
fn a_nomask_compare_folds_into_a_nomask_producer() {
    // §11.16: with the same write mask the producer writes the same flag bits.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F { NoMask }
            cmp.ge.f0.0(8) null:F, v0:F, 0.0:F { NoMask }
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &body("add.ge.f0.0(8) v0:F, attr0:F, attr1:F { NoMask }"),
    );
}

#[test]
fn a_test_repeating_the_producers_own_condition_is_dropped() {
    // The producer already wrote `v0 > 0` to f0.0; the compare would write it again.
    let input = program(
        "skl",
        8,
        &body(
            "
            add.g.f0.0(8) v0:F, attr0:F, attr1:F
            cmp.g.f0.0(8) null:F, v0:F, 0.0:F
            ",
        ),
    );
    expect_progress(run, &input, &body("add.g.f0.0(8) v0:F, attr0:F, attr1:F"));
}

#[test]
fn a_different_condition_replaces_the_producers_unread_one() {
    // The producer's `.g` write is overwritten by the compare before anything reads it.
    let input = program(
        "skl",
        8,
        &body(
            "
            add.g.f0.0(8) v0:F, attr0:F, attr1:F
            cmp.le.f0.0(8) null:F, v0:F, 0.0:F
            ",
        ),
    );
    expect_progress(run, &input, &body("add.le.f0.0(8) v0:F, attr0:F, attr1:F"));
}

#[test]
fn iadd_umov_z_and_nz_fold() {
    // §10.3 17 (its Z/NZ side): zero is zero whether the bits are read signed or unsigned.
    for cmod in ["z", "nz"] {
        let input = program(
            "skl",
            8,
            &body(&format!(
                "
                add(8) v0:D, attr0:D, attr1:D
                mov.{cmod}.f0.0(8) null:UD, v0:D
                "
            )),
        );
        expect_progress(
            run,
            &input,
            &body(&format!("add.{cmod}.f0.0(8) v0:D, attr0:D, attr1:D")),
        );
    }
}

#[test]
fn cmp_cmpnz_and_mov_nz_of_a_boolean_are_dropped() {
    // §10.3 10 (its allowed form): `d != 0` of the CMP's all-ones/zero result is the CMP's own
    // condition, which it already wrote to f0.0 — whatever type the boolean is read as.
    for test in [
        "cmp.nz.f0.0(8) null:F, v0:F, 0.0:F",
        "cmp.nz.f0.0(8) null:D, v0:D, 0:D",
        "cmp.nz.f0.0(8) null:UD, v0:UD, 0:UD",
        "mov.nz.f0.0(8) null:D, v0:D",
    ] {
        let input = program(
            "skl",
            8,
            &body(&format!(
                "
                cmp.l.f0.0(8) v0:F, attr0:F, attr1:F
                {test}
                "
            )),
        );
        expect_progress(run, &input, &body("cmp.l.f0.0(8) v0:F, attr0:F, attr1:F"));
    }
}

#[test]
fn cmp_andnz_one_is_dropped() {
    // §10.3 8 (the allowed form): the low bit of the CMP's result is its condition.
    let input = program(
        "skl",
        8,
        &body(
            "
            cmp.l.f0.0(8) v0:F, attr0:F, attr1:F
            and.nz.f0.0(8) null:UD, v0:UD, 1:UD
            ",
        ),
    );
    expect_progress(run, &input, &body("cmp.l.f0.0(8) v0:F, attr0:F, attr1:F"));
}

#[test]
fn cmp_cmpz_of_an_otherwise_unread_boolean_inverts_the_cmp() {
    // §11.14: `d == 0` is the CMP's negation. With nothing else reading d, the CMP may test
    // the inverse itself: L ↔ GE is exact on integers (no NaN).
    let input = program(
        "skl",
        8,
        &body(
            "
            mov(8) v0:F, attr2:F
            cmp.l.f0.0(8) v1:D, attr0:D, attr1:D
            cmp.z.f0.0(8) null:D, v1:D, 0:D
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &body(
            "
            mov(8) v0:F, attr2:F
            cmp.ge.f0.0(8) v1:D, attr0:D, attr1:D
            ",
        ),
    );
}

#[test]
fn not_to_or_of_booleans_folds_as_the_inverted_condition() {
    // §10.3 18: `~d != 0` is `d == 0` when d is 0 or all ones — an OR of CMP results.
    let input = program(
        "skl",
        8,
        &both(
            "
            cmp.l.f0.1(8) v1:D, attr0:F, attr1:F
            cmp.g.f0.1(8) v3:D, attr0:F, attr2:F
            or(8) v0:D, v1:D, v3:D
            not.nz.f0.0(8) null:D, v0:D
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &both(
            "
            cmp.l.f0.1(8) v1:D, attr0:F, attr1:F
            cmp.g.f0.1(8) v3:D, attr0:F, attr2:F
            or.z.f0.0(8) v0:D, v1:D, v3:D
            ",
        ),
    );
}

#[test]
fn subtract_merge_with_compare_l_and_g_on_floats() {
    // §10.3 13: `a − b < 0` ⇔ `a < b` for every float pair (Inf − Inf = NaN fails both).
    for cmod in ["l", "g"] {
        let input = program(
            "skl",
            8,
            &body(&format!(
                "
                add(8) v0:F, attr0:F, -attr1:F
                cmp.{cmod}.f0.0(8) null:F, attr0:F, attr1:F
                "
            )),
        );
        expect_progress(
            run,
            &input,
            &body(&format!("add.{cmod}.f0.0(8) v0:F, attr0:F, -attr1:F")),
        );
    }
}

#[test]
fn subtract_merge_with_compare_z_and_nz_on_integers() {
    // §10.3 13: a wrapped difference is zero exactly when the operands are equal, also
    // against an immediate (whose negation is the add's immediate).
    for cmod in ["z", "nz"] {
        let input = program(
            "skl",
            8,
            &body(&format!(
                "
                add(8) v0:D, attr0:D, -attr1:D
                cmp.{cmod}.f0.0(8) null:D, attr0:D, attr1:D
                "
            )),
        );
        expect_progress(
            run,
            &input,
            &body(&format!("add.{cmod}.f0.0(8) v0:D, attr0:D, -attr1:D")),
        );
    }
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:D, attr0:D, -4:D
            cmp.nz.f0.0(8) null:D, attr0:D, 4:D
            ",
        ),
    );
    expect_progress(run, &input, &body("add.nz.f0.0(8) v0:D, attr0:D, -4:D"));
}

// ---------------------------------------------------------------------------------------
// §10.3 1–21: the negative cases.

#[test]
fn cmp_nonzero() {
    // §10.3 1: a conditional modifier compares with zero; `>= 1.0` cannot be expressed.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            cmp.ge.f0.0(8) null:F, v0:F, 1.0:F
            ",
        ),
    );
    expect_left(&input, &body("add.ge.f0.0(8) v0:F, attr0:F, attr1:F"));
}

#[test]
fn non_cmod_instruction() {
    // §10.3 2: FBL cannot carry a conditional modifier.
    let input = program(
        "skl",
        8,
        &body(
            "
            fbl(8) v0:UD, attr0:UD
            cmp.ge.f0.0(8) null:UD, v0:UD, 0:UD
            ",
        ),
    );
    expect_left_invalid_rewrite(&input, &body("fbl.ge.f0.0(8) v0:UD, attr0:UD"));
}

#[test]
fn non_cmod_livechannel() {
    // §10.3 3 (SIMD32): a virtual operation takes no conditional modifier. This IR has no
    // FIND_LIVE_CHANNEL; the virtual integer quotient stands in for it.
    let text = "
        int_quot(32) v0:D, attr0:D, attr1:D
        cmp.z.f0.0(32) null:D, v0:D, 0:D
        (+f0.0) sel(32) v2:F, attr0:F, attr1:F
        fb_write_logical(32) null:UD, v2:F, 1:UD, 0:UD { EOT }
    ";
    let input = program("skl", 32, text);
    expect_left_invalid_rewrite(
        &input,
        "
        int_quot.z.f0.0(32) v0:D, attr0:D, attr1:D
        (+f0.0) sel(32) v2:F, attr0:F, attr1:F
        fb_write_logical(32) null:UD, v2:F, 1:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn intervening_flag_write() {
    // §10.3 4: the flag written earlier would be overwritten by the compare in between.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
            cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
            ",
        ),
    );
    expect_left(
        &input,
        &body(
            "
            add.ge.f0.0(8) v0:F, attr0:F, attr1:F
            cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
            ",
        ),
    );
}

#[test]
fn intervening_flag_read() {
    // §10.3 5: the SEL in between reads f0.0 as an older compare left it.
    let text = "
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        add(8) v0:F, attr0:F, attr1:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F
        cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
        (+f0.0) sel(8) v2:F, attr0:F, attr1:F
        mov(8) v2+32:F, v1:F
        mov(8) v2+64:F, v0:F
        mov(8) v2+96:F, 0.0:F
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
    ";
    let input = program("skl", 8, text);
    expect_left(
        &input,
        "
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        add.ge.f0.0(8) v0:F, attr0:F, attr1:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F
        (+f0.0) sel(8) v2:F, attr0:F, attr1:F
        mov(8) v2+32:F, v1:F
        mov(8) v2+64:F, v0:F
        mov(8) v2+96:F, 0.0:F
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn intervening_dest_write() {
    // §10.3 6: the sample overwrites v0+64 (its third component), so the compare tests the
    // texel, not the ADD's result.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0+64:F, attr0:F, attr1:F
            tex_logical(8) v0:F, attr2:F, attr2:F, 0:UD
            cmp.ge.f0.0(8) null:F, v0+64:F, 0.0:F
            ",
        ),
    );
    expect_left(
        &input,
        &body(
            "
            add.ge.f0.0(8) v0+64:F, attr0:F, attr1:F
            tex_logical(8) v0:F, attr2:F, attr2:F, 0:UD
            ",
        ),
    );
}

#[test]
fn different_types_cmod_with_zero() {
    // §10.3 7: `add d:D; cmp.ge null:F, d:F, 0.0` reinterprets the integer bits.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:D, attr0:D, attr1:D
            cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
            ",
        ),
    );
    expect_left(&input, &body("add.ge.f0.0(8) v0:D, attr0:D, attr1:D"));
}

#[test]
fn andnz_non_one() {
    // §10.3 8: only AND with 1 tests the CMP's boolean — §1.7 guarantees only its low bit,
    // and 38 does not include it. (The emulator writes all ones, on which any non-zero mask
    // happens to agree; a mask without any bit, 0, shows the pass must look at the mask.)
    let shape = |mask: u32| {
        body(&format!(
            "
            cmp.l.f0.0(8) v0:F, attr0:F, attr1:F
            and.nz.f0.0(8) null:UD, v0:UD, {mask}:UD
            "
        ))
    };
    let forbidden = body("cmp.l.f0.0(8) v0:F, attr0:F, attr1:F");
    expect_no_progress(run, &program("skl", 8, &shape(38)));
    expect_left(&program("skl", 8, &shape(0)), &forbidden);
}

#[test]
fn andz_one() {
    // §10.3 9: `and.z d, 1` tests the CMP's negation; folding needs an inverted CMP.
    let input = program(
        "skl",
        8,
        &body(
            "
            cmp.l.f0.0(8) v0:F, attr0:F, attr1:F
            and.z.f0.0(8) null:UD, v0:UD, 1:UD
            ",
        ),
    );
    expect_left(&input, &body("cmp.l.f0.0(8) v0:F, attr0:F, attr1:F"));
}

#[test]
fn cmp_cmpg_cmp_cmpg_d_cmp_cmpl_ud() {
    // §10.3 10: G/L of a boolean against 0: all ones is NaN as F and −1 as D (neither > 0),
    // 0xFFFFFFFF as UD is not < 0 — the second CMP is always false, unlike the first.
    for second in [
        "cmp.g.f0.0(8) null:F, v0:F, 0.0:F",
        "cmp.g.f0.0(8) null:D, v0:D, 0:D",
        "cmp.l.f0.0(8) null:UD, v0:UD, 0:UD",
    ] {
        let input = program(
            "skl",
            8,
            &body(&format!(
                "
                cmp.l.f0.0(8) v0:F, attr0:F, attr1:F
                {second}
                "
            )),
        );
        expect_left(&input, &body("cmp.l.f0.0(8) v0:F, attr0:F, attr1:F"));
    }
}

#[test]
fn plnnz_sel_cmpz() {
    // §10.3 11: changing the producer's `.nz` into `.z` changes what the SEL in between read
    // from f0.0. (This IR has no PLN; an ADD with a modifier stands in for it.)
    let text = "
        add.nz.f0.0(8) v0:F, attr0:F, attr1:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F
        cmp.z.f0.0(8) null:F, v0:F, 0.0:F
    ";
    let input = program("skl", 8, &both(text));
    expect_left(
        &input,
        &both(
            "
            add.z.f0.0(8) v0:F, attr0:F, attr1:F
            (+f0.0) sel(8) v1:F, attr0:F, attr1:F
            ",
        ),
    );
}

#[test]
fn subtract_not_merge_with_compare_intervening_partial_write_intervening_add_mismatch_flag() {
    // §10.3 12, four shapes. An intervening predicated write of b: the compare reads the new b.
    let input = program(
        "skl",
        8,
        &both(
            "
            mov(8) v1:F, attr1:F
            cmp.g.f0.1(8) null:F, attr2:F, 0.0:F
            add(8) v0:F, attr0:F, -v1:F
            (+f0.1) mov(8) v1:F, attr2:F
            cmp.l.f0.0(8) null:F, attr0:F, v1:F
            ",
        ),
    );
    expect_left(
        &input,
        &both(
            "
            mov(8) v1:F, attr1:F
            cmp.g.f0.1(8) null:F, attr2:F, 0.0:F
            add.l.f0.0(8) v0:F, attr0:F, -v1:F
            (+f0.1) mov(8) v1:F, attr2:F
            ",
        ),
    );
    // An intervening `add.z` writes f0.0.
    let input = program(
        "skl",
        8,
        &both(
            "
            add(8) v0:F, attr0:F, -attr1:F
            add.z.f0.0(8) v1:F, attr0:F, attr2:F
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            ",
        ),
    );
    expect_left(
        &input,
        &both(
            "
            add.l.f0.0(8) v0:F, attr0:F, -attr1:F
            add.z.f0.0(8) v1:F, attr0:F, attr2:F
            ",
        ),
    );
    // The add already writes f0.1 (read later); the compare writes f0.0.
    let input = program(
        "skl",
        8,
        &both(
            "
            add.g.f0.1(8) v0:F, attr0:F, -attr1:F
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            mov(8) v1:F, 0.0:F
            ",
        ),
    );
    expect_left(
        &input,
        &both(
            "
            add.l.f0.0(8) v0:F, attr0:F, -attr1:F
            mov(8) v1:F, 0.0:F
            ",
        ),
    );
    // A sum is not the difference the compare looks at.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            cmp.l.f0.0(8) null:F, attr0:F, attr1:F
            ",
        ),
    );
    expect_left(&input, &body("add.l.f0.0(8) v0:F, attr0:F, attr1:F"));
}

#[test]
fn subtract_merge_with_compare_le_ge_z_nz() {
    // §10.3 13, §11.18: with a = b = +Inf the difference is NaN, which fails LE/GE/Z and
    // passes NZ while the compare of the infinities gives the opposite.
    for cmod in ["le", "ge", "z", "nz"] {
        let input = with_inputs(
            &format!(
                "
                add(8) v0:F, attr0:F, -attr1:F
                cmp.{cmod}.f0.0(8) null:F, attr0:F, attr1:F
                mov(8) v1:F, 0.0:F
                "
            ),
            "thread 0 attr0 inf:F*8\nthread 0 attr1 inf:F*8",
        );
        expect_left(
            &input,
            &both(&format!(
                "
                add.{cmod}.f0.0(8) v0:F, attr0:F, -attr1:F
                mov(8) v1:F, 0.0:F
                "
            )),
        );
    }
    // On integers the difference wraps: 0x80000000 − 4 is positive, though INT_MIN < 4.
    for cmod in ["l", "le", "g", "ge"] {
        let input = with_inputs(
            &format!(
                "
                add(8) v0:D, attr0:D, -4:D
                cmp.{cmod}.f0.0(8) null:D, attr0:D, 4:D
                mov(8) v1:F, 0.0:F
                "
            ),
            "thread 0 attr0 0x80000000:UD*8",
        );
        expect_left(
            &input,
            &both(&format!(
                "
                add.{cmod}.f0.0(8) v0:D, attr0:D, -4:D
                mov(8) v1:F, 0.0:F
                "
            )),
        );
    }
}

#[test]
fn signed_unsigned_comparison_mismatch() {
    // §10.3 14 (bug 109404): the ASR's signed result compared as unsigned.
    let input = program(
        "skl",
        8,
        &body(
            "
            asr(8) v0:D, -attr0:W, 15:D
            cmp.le.f0.0(8) null:UD, v0:UD, 0:UD
            ",
        ),
    );
    expect_left(&input, &body("asr.le.f0.0(8) v0:D, -attr0:W, 15:D"));
}

#[test]
fn ior_f2i_nz() {
    // §10.3 15 / §11.17: `or d:D; mov.nz null:D, d:F` converts 0.5f's bits to the integer
    // 0, while the OR's own result (0x3f000000) is non-zero.
    let input = with_inputs(
        "
        or(8) v0:D, attr0:D, attr1:D
        mov.nz.f0.0(8) null:D, v0:F
        mov(8) v1:F, 0.0:F
        ",
        "thread 0 attr0 1056964608:UD*8\nthread 0 attr1 0:UD*8",
    );
    expect_left(
        &input,
        &both(
            "
            or.nz.f0.0(8) v0:D, attr0:D, attr1:D
            mov(8) v1:F, 0.0:F
            ",
        ),
    );
}

#[test]
fn fadd_f2u_and_fadd_f2i_all_conditions() {
    // §10.3 16: a float→integer MOV truncates (−1, 1) to 0 and clamps negatives to 0 for
    // UD; so for every condition some sum answers differently before and after conversion.
    for ty in ["UD", "D"] {
        for cmod in ["z", "nz", "g", "ge", "l", "le"] {
            let input = with_inputs(
                &format!(
                    "
                    add(8) v0:F, attr0:F, attr1:F
                    mov.{cmod}.f0.0(8) null:{ty}, v0:F
                    mov(8) v1:F, 0.0:F
                    "
                ),
                "thread 0 attr0 0.5:F -0.5:F -3.0:F 3.0:F 0.0:F 0.25:F -0.25:F 7.0:F\n\
                 thread 0 attr1 0.0:F*8",
            );
            expect_left(
                &input,
                &both(&format!(
                    "
                    add.{cmod}.f0.0(8) v0:F, attr0:F, attr1:F
                    mov(8) v1:F, 0.0:F
                    "
                )),
            );
        }
    }
}

#[test]
fn iadd_umov_l_g_le_ge() {
    // §10.3 17: a signed sum compared as unsigned: a negative sum is below zero signed and
    // far above it unsigned.
    for cmod in ["l", "g", "le", "ge"] {
        let input = with_inputs(
            &format!(
                "
                add(8) v0:D, attr0:D, attr1:D
                mov.{cmod}.f0.0(8) null:UD, v0:D
                mov(8) v1:F, 0.0:F
                "
            ),
            "thread 0 attr0 -5:D 5:D -1:D 0:D 7:D -7:D 1:D 3:D\nthread 0 attr1 0:D*8",
        );
        expect_left(
            &input,
            &both(&format!(
                "
                add.{cmod}.f0.0(8) v0:D, attr0:D, attr1:D
                mov(8) v1:F, 0.0:F
                "
            )),
        );
    }
}

#[test]
fn not_to_uadd_not_to_fadd_not_to_fadd_to_ud() {
    // §10.3 18: `~d != 0` means `d != 0xFFFFFFFF`, not `d == 0`, for an arithmetic result.
    for (producer, test, folded) in [
        (
            "add(8) v0:UD, attr0:UD, attr1:UD",
            "not.nz.f0.0(8) null:UD, v0:UD",
            "add.z.f0.0(8) v0:UD, attr0:UD, attr1:UD",
        ),
        (
            "add(8) v0:F, attr0:F, attr1:F",
            "not.nz.f0.0(8) null:D, v0:D",
            "add.z.f0.0(8) v0:F, attr0:F, attr1:F",
        ),
        (
            "add(8) v0:F, attr0:F, attr1:F",
            "not.nz.f0.0(8) null:UD, v0:UD",
            "add.z.f0.0(8) v0:F, attr0:F, attr1:F",
        ),
    ] {
        let input = program(
            "skl",
            8,
            &both(&format!("{producer}\n{test}\nmov(8) v1:F, 0.0:F")),
        );
        expect_left(&input, &both(&format!("{folded}\nmov(8) v1:F, 0.0:F")));
    }
}

#[test]
fn not_to_or_of_non_booleans_is_left() {
    // §10.3 18: only for a boolean is `~d != 0` the same as `d == 0`; OR of arbitrary
    // values (here 1 | 0 = 1: ~1 is non-zero, yet 1 is not zero) is not folded.
    let input = with_inputs(
        "
        or(8) v0:D, attr0:D, attr1:D
        not.nz.f0.0(8) null:D, v0:D
        mov(8) v1:F, 0.0:F
        ",
        "thread 0 attr0 1:D*8\nthread 0 attr1 0:D*8",
    );
    expect_left(
        &input,
        &both(
            "
            or.z.f0.0(8) v0:D, attr0:D, attr1:D
            mov(8) v1:F, 0.0:F
            ",
        ),
    );
}

#[test]
fn not_to_or_intervening_flag_read_incompatible_value_and_compatible_value_mismatch_flag() {
    // §10.3 19. A SEL between reads f0.0, which the fold would set early.
    let booleans = "
        cmp.l.f0.1(8) v5:D, attr0:F, attr1:F
        cmp.g.f0.1(8) v3:D, attr0:F, attr2:F
        cmp.l.f0.0(8) null:F, attr2:F, 0.0:F
    ";
    let input = program(
        "skl",
        8,
        &both(&format!(
            "
            {booleans}
            or(8) v0:D, v5:D, v3:D
            (+f0.0) sel(8) v4:F, attr0:F, attr1:F
            not.nz.f0.0(8) null:D, v0:D
            mov(8) v1:F, v4:F
            "
        )),
    );
    expect_left(
        &input,
        &both(&format!(
            "
            {booleans}
            or.z.f0.0(8) v0:D, v5:D, v3:D
            (+f0.0) sel(8) v4:F, attr0:F, attr1:F
            mov(8) v1:F, v4:F
            "
        )),
    );
    // The OR already writes the compatible `.z` — but to f0.1, which a SEL reads; the NOT
    // writes f0.0. One instruction cannot write both.
    let input = program(
        "skl",
        8,
        &both(&format!(
            "
            {booleans}
            or.z.f0.1(8) v0:D, v5:D, v3:D
            (+f0.1) sel(8) v4:F, attr0:F, attr1:F
            not.nz.f0.0(8) null:D, v0:D
            mov(8) v1:F, v4:F
            "
        )),
    );
    expect_left(
        &input,
        &both(&format!(
            "
            {booleans}
            or.z.f0.0(8) v0:D, v5:D, v3:D
            (+f0.1) sel(8) v4:F, attr0:F, attr1:F
            mov(8) v1:F, v4:F
            "
        )),
    );
}

#[test]
fn prop_across_sel_gfx5_and_prop_into_sel_gfx5() {
    // §10.3 20. Across: Gen4/5 runs `sel.ge` as CMPN + SEL on a flag (lower_alu_restrictions
    // picks one), so moving the flag write above it may have it clobbered; the forbidden
    // rewrite is shown in that lowered form with f0.0.
    let input = program(
        "g45",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            sel.ge(8) v1:F, attr0:F, attr2:F
            cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
            mov(8) v2+96:F, v1:F
            ",
        ),
    );
    expect_left(
        &input,
        &body(
            "
            add.ge.f0.0(8) v0:F, attr0:F, attr1:F
            cmpn.ge.f0.0(8) null:F, attr0:F, attr2:F
            (+f0.0) sel(8) v1:F, attr0:F, attr2:F
            mov(8) v2+96:F, v1:F
            ",
        ),
    );
    // Also on f0.1: lowering needs a flag not live at the SEL, and with f0.0 and f0.1 both
    // live across it there would be none.
    let input = program(
        "g45",
        8,
        &both(
            "
            cmp.l.f0.0(8) null:F, attr2:F, 0.0:F
            add(8) v0:F, attr0:F, attr1:F
            sel.ge(8) v1:F, attr0:F, attr2:F
            cmp.ge.f0.1(8) null:F, v0:F, 0.0:F
            ",
        ),
    );
    expect_no_progress(run, &input);
    // Into: a SEL's modifier compares its sources (min/max), not its result with zero.
    let input = program(
        "g45",
        8,
        &body(
            "
            sel.l(8) v0:F, attr0:F, attr1:F
            cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
            ",
        ),
    );
    expect_left(&input, &body("sel.ge(8) v0:F, attr0:F, attr1:F"));
}

#[test]
fn a_fold_crosses_a_min_max_from_gen6_on() {
    // §1.7: from Gen6 on `sel.cond` is a real min/max that writes no flag.
    let input = program(
        "skl",
        8,
        &body(
            "
            add(8) v0:F, attr0:F, attr1:F
            sel.ge(8) v1:F, attr0:F, attr2:F
            cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
            mov(8) v2+96:F, v1:F
            ",
        ),
    );
    expect_progress(
        run,
        &input,
        &body(
            "
            add.ge.f0.0(8) v0:F, attr0:F, attr1:F
            sel.ge(8) v1:F, attr0:F, attr2:F
            mov(8) v2+96:F, v1:F
            ",
        ),
    );
}

#[test]
fn cmp_to_add_float_e() {
    // §10.3 21: `add.sat d, x, −10` is 0 for every x ≤ 10, not only x = 10.
    let shape = |cmod: &str, sat: &str| {
        with_inputs(
            &format!(
                "
                add{sat}(8) v0:F, attr0:F, -10.0:F
                cmp.{cmod}.f0.0(8) null:F, attr0:F, 10.0:F
                mov(8) v1:F, 0.0:F
                "
            ),
            "thread 0 attr0 5.0:F 10.0:F 11.0:F -3.0:F 10.5:F 9.5:F 0.0:F 20.0:F",
        )
    };
    expect_left(
        &shape("z", ".sat"),
        &both("add.sat.z.f0.0(8) v0:F, attr0:F, -10.0:F\nmov(8) v1:F, 0.0:F"),
    );
    // Saturation alone blocks the merge: `.l` merges unsaturated but a clamped difference is
    // never below zero.
    expect_left(
        &shape("l", ".sat"),
        &both("add.sat.l.f0.0(8) v0:F, attr0:F, -10.0:F\nmov(8) v1:F, 0.0:F"),
    );
    expect_progress(
        run,
        &shape("l", ""),
        &both("add.l.f0.0(8) v0:F, attr0:F, -10.0:F\nmov(8) v1:F, 0.0:F"),
    );
}

// ---------------------------------------------------------------------------------------
// §11.14–16: inversion, flag subregisters, write masks.

#[test]
fn cmp_cmpz_of_a_boolean_read_elsewhere_is_left() {
    // §11.14: `cmp.z t, a, b; mov.z null, t` — the MOV's flag is the CMP's negation, and
    // inverting the CMP would change t, which the colour reads.
    let input = program(
        "skl",
        8,
        &body(
            "
            cmp.z.f0.0(8) v0:F, attr0:F, attr1:F
            mov.z.f0.0(8) null:F, v0:F
            ",
        ),
    );
    expect_left(&input, &body("cmp.z.f0.0(8) v0:F, attr0:F, attr1:F"));
}

#[test]
fn a_float_inequality_is_not_inverted() {
    // §1.7: with a NaN both `a < b` and `a >= b` are false, so a float `cmp.l` has no exact
    // inverse, even when nothing else reads its result.
    let input = with_inputs_using(
        &body(
            "
            mov(8) v0:F, attr2:F
            cmp.l.f0.0(8) v1:D, attr0:F, attr1:F
            cmp.z.f0.0(8) null:D, v1:D, 0:D
            ",
        ),
        "thread 0 attr0 nan:F*8\nthread 0 attr1 1.0:F*8",
    );
    expect_left(
        &input,
        &body(
            "
            mov(8) v0:F, attr2:F
            cmp.ge.f0.0(8) v1:D, attr0:F, attr1:F
            ",
        ),
    );
}

#[test]
fn a_test_on_another_flag_subregister_than_the_cmp_is_left() {
    // §11.15: the CMP writes f0.1, the test f0.0: dropping the test leaves f0.0 stale.
    let input = program(
        "skl",
        8,
        &both(
            "
            cmp.l.f0.1(8) v0:F, attr0:F, attr1:F
            cmp.nz.f0.0(8) null:F, v0:F, 0.0:F
            mov(8) v1:F, 0.0:F
            ",
        ),
    );
    expect_left(
        &input,
        &both(
            "
            cmp.l.f0.1(8) v0:F, attr0:F, attr1:F
            mov(8) v1:F, 0.0:F
            ",
        ),
    );
}

#[test]
fn a_nomask_test_of_a_masked_result_is_left() {
    // §11.16: the NoMask MOV writes f0.0 for the channels the dispatch mask leaves off, the
    // masked ADD does not; the flag read as data shows those bits.
    let input = with_inputs(
        "
        mov(8) v1:F, 1.0:F { NoMask }
        mov(1) f0.0<0;1,0>:UW, 0:UW { NoMask }
        (+f0.0) sel(8) v2:F, attr0:F, attr1:F
        add(8) v1:F, attr0:F, attr1:F
        mov.nz.f0.0(8) null:F, v1:F { NoMask }
        mov(8) v0:UD, f0.0<0;1,0>:UW
        ",
        "thread 0 dispatch_mask 0x0f\nthread 0 attr0 1.0:F*8\nthread 0 attr1 1.0:F*8",
    );
    expect_left(
        &input,
        &both(
            "
            mov(8) v1:F, 1.0:F { NoMask }
            mov(1) f0.0<0;1,0>:UW, 0:UW { NoMask }
            (+f0.0) sel(8) v2:F, attr0:F, attr1:F
            add.nz.f0.0(8) v1:F, attr0:F, attr1:F
            mov(8) v0:UD, f0.0<0;1,0>:UW
            ",
        ),
    );
}

#[test]
fn a_compare_in_another_channel_group_is_left() {
    // Mesa 95ac3b1daea: after a SIMD split the producer and the compare cover different
    // channels.
    let text = "
        add(8) v0:F, attr0:F, attr1:F { 2Q }
        cmp.ge.f0.0(8) null:F, v0:F, 0.0:F
        (+f0.0) sel(8) v2:F, attr0:F, attr1:F
        mov(8) v2+32:F, 0.0:F
        mov(8) v2+64:F, 0.0:F
        mov(8) v2+96:F, 0.0:F
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD { EOT }
    ";
    expect_no_progress(run, &program("skl", 16, text));
}

#[test]
fn a_saturated_producer_is_left() {
    // This version leaves every saturated producer: when a fold through `.sat` is right
    // took Mesa several fixes (§7.4 36abb0c6918, §10.3 21).
    let input = program(
        "skl",
        8,
        &body(
            "
            add.sat(8) v0:F, attr0:F, attr1:F
            cmp.z.f0.0(8) null:F, v0:F, 0.0:F
            ",
        ),
    );
    expect_no_progress(run, &input);
}
