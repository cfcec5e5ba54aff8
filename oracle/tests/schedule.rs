//! Mesa-style tests of the instruction scheduler (docs/hardware/brw-backend.md §7.1 end, §7.4, §11.25):
//! reorderings the dependency rules allow, checked on the printed order and the emulator,
//! and one case per kind of dependency where top-down scheduling would hoist a
//! long-latency instruction (its critical path is longest) if the dependency were missed,
//! with the forbidden order shown to change an output.
//!
//! The expected orders follow from the scheduler's documented model (`compiler::passes::
//! schedule`): top-down issues, among the instructions whose operands are ready, the one
//! with the longest latency path to the end of the block (RCP 22 cycles, ALU 6, a
//! render-target write 30). The blocks are small enough that the order is determined.

mod common;

use common::opt_pass::*;
use compiler::analysis::schedule_deps::Rules;
use compiler::pass::{CompileOptions, PassError};
use compiler::passes::schedule::{Mode, schedule};
use compiler::passes::schedule_post_ra::run;
use compiler::program::Program;

/// Bottom-up LIFO scheduling, the register-pressure mode `allocate_registers` tries second.
fn lifo(p: &mut Program, _: &CompileOptions) -> Result<bool, PassError> {
    Ok(schedule(p, Mode::Lifo, Rules::CORRECT))
}

#[test]
fn a_math_op_is_hoisted_above_independent_alu_work() {
    // The RCP heads the longest path (22 + 6 + 30): it issues first, the ADD fills its
    // latency.
    let input = program(
        "skl",
        8,
        "
        add(8) v0:F, attr0:F, 1.0:F
        rcp(8) v1:F, attr1:F
        add(8) v2:F, v0:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 1:UD, 0:UD { EOT }
        ",
    );
    expect_progress(
        run,
        &input,
        "
        rcp(8) v1:F, attr1:F
        add(8) v0:F, attr0:F, 1.0:F
        add(8) v2:F, v0:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 1:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn disjoint_bytes_of_one_vgrf_do_not_order_writes() {
    // v2 and v2+32 are different registers of the same VGRF: no dependency.
    let input = program(
        "skl",
        8,
        "
        mov(8) v2:F, attr0:F
        rcp(8) v2+32:F, attr1:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
        ",
    );
    expect_progress(
        run,
        &input,
        "
        rcp(8) v2+32:F, attr1:F
        mov(8) v2:F, attr0:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn a_predicate_on_another_flag_subregister_does_not_order_a_flag_write() {
    // The SEL reads f0.0; the second CMP writes f0.1 (bits 16..24, §1.2): independent, so
    // that CMP, at the head of the longest path (SEL, RCP, the write), is issued first.
    let input = program(
        "skl",
        8,
        "
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        (+f0.0) sel(8) v2:F, attr0:F, attr1:F
        cmp.g.f0.1(8) null:F, attr1:F, 2.0:F
        (+f0.1) sel(8) v1:F, attr0:F, attr1:F
        rcp(8) v2+32:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
        ",
    );
    expect_progress(
        run,
        &input,
        "
        cmp.g.f0.1(8) null:F, attr1:F, 2.0:F
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        (+f0.1) sel(8) v1:F, attr0:F, attr1:F
        (+f0.0) sel(8) v2:F, attr0:F, attr1:F
        rcp(8) v2+32:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn nomask_instructions_move_freely_inside_a_block() {
    // §9.2: the execution mask is constant inside a block, so a NoMask write means the same
    // wherever it lands there (channels 1 and 3 are not dispatched).
    let text = "
        START B0
            add(8) v0:F, attr0:F, 1.0:F
            rcp(8) v1:F, attr1:F { NoMask }
            add(8) v2:F, v0:F, v1:F
            fb_write_logical(8) null:UD, v2:F, 1:UD, 0:UD { EOT }
        END B0

        INPUTS
            thread 0 dispatch_mask 0xf5
            thread 0 attr0 1.0:F*8
            thread 0 attr1 2.0:F*8
        END INPUTS
        ";
    let input = program("skl", 8, text);
    expect_progress(
        run,
        &input,
        "
        rcp(8) v1:F, attr1:F { NoMask }
        add(8) v0:F, attr0:F, 1.0:F
        add(8) v2:F, v0:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 1:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn lifo_places_each_producer_right_before_its_consumer() {
    let input = program(
        "skl",
        8,
        "
        mov(8) v0:F, attr0:F
        mov(8) v1:F, attr1:F
        add(8) v2:F, v0:F, 1.0:F
        add(8) v2+32:F, v1:F, 1.0:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
        ",
    );
    // From the write up: of the two ADDs it reads, the earlier in program order goes right
    // before it, each MOV right before its ADD.
    expect_progress(
        lifo,
        &input,
        "
        mov(8) v1:F, attr1:F
        add(8) v2+32:F, v1:F, 1.0:F
        mov(8) v0:F, attr0:F
        add(8) v2:F, v0:F, 1.0:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn a_register_write_waits_for_an_earlier_read() {
    // WAR on v0: the ADD reads the MOV's v0, the RCP then overwrites it.
    let text = "
        mov(8) v0:F, attr1:F
        add(8) v2:F, v0:F, 1.0:F
        rcp(8) v0:F, attr0:F
        mul(8) v2+32:F, v0:F, 2.0:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
    ";
    let input = program("skl", 8, text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        "
        mov(8) v0:F, attr1:F
        rcp(8) v0:F, attr0:F
        add(8) v2:F, v0:F, 1.0:F
        mul(8) v2+32:F, v0:F, 2.0:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn partially_overlapping_strided_writes_stay_in_order() {
    // WAW by byte range: the MOV writes every other dword of v1 from byte 4 (§1.4 offset
    // and stride), the RCP the first register; they share dwords 1, 3, 5 and 7.
    let text = "
        mov(8) v1+4<2>:F, attr1:F
        rcp(8) v1:F, attr0:F
        fb_write_logical(8) null:UD, v1:F, 1:UD, 0:UD { EOT }
    ";
    let input = program("skl", 8, text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        "
        rcp(8) v1:F, attr0:F
        mov(8) v1+4<2>:F, attr1:F
        fb_write_logical(8) null:UD, v1:F, 1:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn a_flag_write_waits_for_an_earlier_predicated_read() {
    // WAR on flag bits 0..8 (the `sched-ignores-flag-war` zoo bug when missed).
    let text = "
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        (+f0.0) sel(8) v2:F, attr0:F, attr1:F
        cmp.g.f0.0(8) null:F, attr1:F, 2.0:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F
        rcp(8) v2+32:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
    ";
    let input = program("skl", 8, text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        "
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        cmp.g.f0.0(8) null:F, attr1:F, 2.0:F
        (+f0.0) sel(8) v2:F, attr0:F, attr1:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F
        rcp(8) v2+32:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn flag_writes_stay_in_order() {
    // WAW on f0.0: the SEL must see the second compare's bits.
    let text = "
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        cmp.g.f0.0(8) null:F, attr1:F, 2.0:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F
        rcp(8) v2:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 1:UD, 0:UD { EOT }
    ";
    let input = program("skl", 8, text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        "
        cmp.g.f0.0(8) null:F, attr1:F, 2.0:F
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        (+f0.0) sel(8) v1:F, attr0:F, attr1:F
        rcp(8) v2:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 1:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn an_accumulator_write_waits_for_an_earlier_accumulator_read() {
    // §1.6: AccWrEnable updates acc0 implicitly; the MOV reads the first ADD's value.
    let text = "
        add(8) v0:F, attr0:F, 1.0:F { AccWrEnable }
        mov(8) v2:F, acc0<8;8,1>:F
        add(8) v1:F, attr1:F, 2.0:F { AccWrEnable }
        rcp(8) v2+32:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
    ";
    let input = program("skl", 8, text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        "
        add(8) v0:F, attr0:F, 1.0:F { AccWrEnable }
        add(8) v1:F, attr1:F, 2.0:F { AccWrEnable }
        mov(8) v2:F, acc0<8;8,1>:F
        rcp(8) v2+32:F, v1:F
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
        ",
    );
}

/// A program with buffer 0 (64 zero bytes) and `body` as block B0.
fn with_buffer(body: &str) -> Program {
    program(
        "skl",
        8,
        &format!(
            "START B0\n{body}\nEND B0\n\nINPUTS\n    buffer 0 0:UD*16\n    \
             thread 0 attr0 1.0:F*8\n    thread 0 attr1 2.0:F*8\nEND INPUTS\n"
        ),
    )
}

#[test]
fn a_load_stays_after_a_store() {
    // Memory: the load of dword 0 must see the store (every channel stores attr1 there).
    let text = "
        mov(8) v3:UD, 0:UD
        untyped_write_logical(8) null:UD, v3:UD, attr1:UD, 0:UD, 1:UD
        untyped_read_logical(8) v1:UD, v3:UD, 0:UD, 1:UD
        add(8) v2:F, v1:F, 1.0:F
        fb_write_logical(8) null:UD, v2:F, 1:UD, 0:UD { EOT }
    ";
    let input = with_buffer(text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        "
        mov(8) v3:UD, 0:UD
        untyped_read_logical(8) v1:UD, v3:UD, 0:UD, 1:UD
        untyped_write_logical(8) null:UD, v3:UD, attr1:UD, 0:UD, 1:UD
        add(8) v2:F, v1:F, 1.0:F
        fb_write_logical(8) null:UD, v2:F, 1:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn fixed_grf_writes_stay_in_order_after_allocation() {
    // Post-RA WAW on a physical register (Mesa 8b6d22109f4): g40 must end with the RCP.
    let text = "
        mov(8) g40<8;8,1>:F, attr0:F
        rcp(8) g40<8;8,1>:F, attr1:F
        mov(8) g120<8;8,1>:F, g40<8;8,1>:F
        send(8) null:UD, g120<8;8,1>:F, null:UD desc(rt_write target=0 mlen=1 ex_mlen=0 rlen=0) { EOT }
    ";
    let input = program("skl", 8, text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        "
        rcp(8) g40<8;8,1>:F, attr1:F
        mov(8) g40<8;8,1>:F, attr0:F
        mov(8) g120<8;8,1>:F, g40<8;8,1>:F
        send(8) null:UD, g120<8;8,1>:F, null:UD desc(rt_write target=0 mlen=1 ex_mlen=0 rlen=0) { EOT }
        ",
    );
}

#[test]
fn nothing_moves_across_a_halt() {
    // §11.25: below the HALT channel 0 (alpha 0.0) is parked until the HALT_TARGET, so the
    // ADD would not write its channel of v0, which the write after the target reads.
    let text = "
        START B0
            rcp(8) v1:F, attr1:F
            cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
            add(8) v0:F, v1:F, 1.0:F
            (+f0.0) halt(8)
        END B0

        START B1
            halt_target(8)
            fb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD { EOT }
        END B1

        INPUTS
            thread 0 attr0 0.0:F 1.0:F*7
            thread 0 attr1 2.0:F*8
        END INPUTS
    ";
    let input = program("skl", 8, text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        "
        rcp(8) v1:F, attr1:F
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        (+f0.0) halt(8)
        add(8) v0:F, v1:F, 1.0:F
        halt_target(8)
        fb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn nothing_moves_into_or_out_of_an_if() {
    // The RCP after the ENDIF heads the longest path, but ENDIF starts its block (§9.1):
    // hoisted into the IF it would run only for the channels with attr0 < 0.5.
    let text = "
        START B0
            cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
            mov(8) v2:F, 0.0:F
            (+f0.0) if(8)
        END B0

        START B1
            mov(8) v2+32:F, attr0:F
        END B1

        START B2
            endif(8)
            rcp(8) v2:F, attr1:F
            fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
        END B2

        INPUTS
            thread 0 attr0 0.0:F 1.0:F 0.0:F 1.0:F 0.0:F 1.0:F 0.0:F 1.0:F
            thread 0 attr1 2.0:F*8
        END INPUTS
    ";
    let input = program("skl", 8, text);
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(
        &input,
        "
        cmp.l.f0.0(8) null:F, attr0:F, 0.5:F
        mov(8) v2:F, 0.0:F
        (+f0.0) if(8)
        rcp(8) v2:F, attr1:F
        mov(8) v2+32:F, attr0:F
        endif(8)
        fb_write_logical(8) null:UD, v2:F, 2:UD, 0:UD { EOT }
        ",
    );
}

#[test]
fn allocation_falls_back_to_lifo_before_spilling() {
    // 32 reciprocals into 4-register VGRFs, then their sum: in program order (and
    // top-down, which issues the long-latency RCPs first) all 32 × 4 registers are live
    // at once, more than the 122 GRFs after the payload (g0, attr0) and below g127; LIFO computes each term right
    // before it is added. §7.1: only the last mode may spill.
    let mut text = String::from("eu 1\ntarget skl\ndispatch 8\nattr attr0 4\n");
    for v in 0..32 {
        text += &format!("vgrf v{v} 6\n");
    }
    text += "vgrf v32 1\nSTART B0\n";
    for v in 0..32 {
        text += &format!("    rcp(8) v{v}:F, attr0+{}<0>:F\n", 4 * v);
    }
    text += "    add(8) v32:F, v0:F, v1:F\n";
    for v in 2..32 {
        text += &format!("    add(8) v32:F, v32:F, v{v}:F\n");
    }
    text += "    fb_write_logical(8) null:UD, v32:F, 1:UD, 0:UD { EOT }\nEND B0\n";
    let input = parse(&text);
    let rewrites = |opts: &CompileOptions| {
        let c = compiler::pipeline::compile(&input, opts);
        assert_eq!(c.outcome, compiler::pipeline::Outcome::Compiled);
        let ra = c.passes.iter().find(|r| r.name == "allocate_registers");
        (ra.expect("allocated").rewrites.clone(), c.program)
    };
    // split_virtual_grfs would cut each 6-register VGRF down to the register it uses.
    let unsplit = CompileOptions {
        skip: vec!["split_virtual_grfs".into()],
        ..CompileOptions::default()
    };
    let (optimised, program) = rewrites(&unsplit);
    assert!(optimised.contains(&"schedule-lifo"), "{optimised:?}");
    assert!(!optimised.contains(&"spill"), "{optimised:?}");
    if let Some(d) = disagreement(&input, &program) {
        panic!("the LIFO-scheduled program disagrees: {d}");
    }
    let o0 = CompileOptions {
        o0: true,
        ..CompileOptions::default()
    };
    let (unscheduled, _) = rewrites(&o0);
    assert!(unscheduled.contains(&"spill"), "{unscheduled:?}");
}

#[test]
fn estimate_counts_latency_stalls_and_loop_trips() {
    // Known answers from the model: an RCP (22 cycles) and an ADD reading it issue at 0 and
    // 22 and the ADD leaves the port at 23; the render-target write waits for the ADD (6).
    let p = program(
        "skl",
        8,
        "
        rcp(8) v1:F, attr1:F
        add(8) v0:F, v1:F, 1.0:F
        fb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD { EOT }
        ",
    );
    assert_eq!(compiler::passes::schedule::estimate_cycles(&p), 29);
}
