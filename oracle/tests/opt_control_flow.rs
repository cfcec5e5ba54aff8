//! Mesa-style tests of the control-flow clean-ups: `opt_predicated_break` (docs/hardware/brw-backend.md
//! §7.1 step 5) and `dead_control_flow_eliminate` (§7.1 step 9).

mod common;

use common::opt_pass::*;
use compiler::passes::{dead_control_flow_eliminate, opt_predicated_break};

/// A loop counting v1 up per channel until it reaches attr0 & 7, `body` deciding the exit;
/// the count is the output.
fn counting_loop(exit: &str) -> String {
    format!(
        "
        and(8) v0:UD, attr0:UD, 7:UD
        mov(8) v1:UD, 0:UD
        do(8)
        cmp.ge.f0.0(8) null:UD, v1:UD, v0:UD
        {exit}
        add(8) v1:UD, v1:UD, 1:UD
        while(8)
        mov(8) v2:F, v1:UD
        mov(8) v2+32:F, 0.0:F
        mov(8) v2+64:F, 0.0:F
        mov(8) v2+96:F, 0.0:F
        fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD {{ EOT }}
        "
    )
}

#[test]
fn an_if_holding_only_a_break_becomes_a_predicated_break() {
    let input = program(
        "skl",
        8,
        &counting_loop("(+f0.0) if(8)\nbreak(8)\nendif(8)"),
    );
    // The IF is at ip 4; a pass that left it would break its contract.
    assert_eq!(
        contract(&opt_predicated_break::PASS, &input),
        ["jump-in-if-kept 4"]
    );
    let output = expect_progress(
        opt_predicated_break::run,
        &input,
        &counting_loop("(+f0.0) break(8)"),
    );
    assert!(contract(&opt_predicated_break::PASS, &output).is_empty());
}

#[test]
fn an_if_holding_more_than_the_break_is_left() {
    // The ADD inside the IF runs only for the channels about to break: predicating the
    // BREAK alone would run it for every channel.
    let exit = "(+f0.0) if(8)\nadd(8) v1:UD, v1:UD, 100:UD\nbreak(8)\nendif(8)";
    let input = program("skl", 8, &counting_loop(exit));
    expect_no_progress(opt_predicated_break::run, &input);
    assert!(contract(&opt_predicated_break::PASS, &input).is_empty());
    expect_forbidden_rewrite_differs(
        &input,
        &counting_loop("add(8) v1:UD, v1:UD, 100:UD\n(+f0.0) break(8)"),
    );
}

#[test]
fn empty_ifs_are_deleted_and_non_empty_ones_kept() {
    let body = |middle: &str| {
        format!(
            "
            mov(8) v2:F, attr0:F
            cmp.l.f0.0(8) null:F, attr1:F, 0.0:F
            {middle}
            mov(8) v2+32:F, 0.0:F
            mov(8) v2+64:F, 0.0:F
            mov(8) v2+96:F, 0.0:F
            fb_write_logical(8) null:UD, v2:F, 4:UD, 0:UD {{ EOT }}
            "
        )
    };
    let input = program(
        "skl",
        8,
        &body("(+f0.0) if(8)\nelse(8)\nendif(8)\n(-f0.0) if(8)\nendif(8)"),
    );
    // The IF/ELSE/ENDIF at ip 2 and the IF/ENDIF at ip 5 break the pass's contract.
    assert_eq!(
        contract(&dead_control_flow_eliminate::PASS, &input),
        ["empty-if-kept 2", "empty-if-kept 5"]
    );
    let output = expect_progress(dead_control_flow_eliminate::run, &input, &body(""));
    assert!(contract(&dead_control_flow_eliminate::PASS, &output).is_empty());
    let kept = program(
        "skl",
        8,
        &body("(+f0.0) if(8)\nmov(8) v2:F, attr1:F\nendif(8)"),
    );
    expect_no_progress(dead_control_flow_eliminate::run, &kept);
    assert!(contract(&dead_control_flow_eliminate::PASS, &kept).is_empty());
    // Deleting an IF with an instruction inside would run that instruction everywhere.
    expect_forbidden_rewrite_differs(&kept, &body("mov(8) v2:F, attr1:F"));
}
