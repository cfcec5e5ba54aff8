//! Mesa-style tests of `eliminate_find_live_channel` (docs/hardware/brw-backend.md §7.1 step 14, §7.2
//! pre-loop, §9.2): FIND_LIVE_CHANNEL becomes `mov 0` only where channel 0 is live — packed
//! dispatch, outside control flow, before any HALT, in group 0 — and the negative cases
//! show on the emulator that the rewrite elsewhere would change an output. Also §10.3 #3:
//! cmod propagation does not fold a compare into FIND_LIVE_CHANNEL.

mod common;

use common::opt_pass::*;
use compiler::passes::eliminate_find_live_channel::{PASS, run};
use compiler::program::Program;

/// A SIMD`dispatch` program with attr0 = 10 + channel (UD), attr1 = channel (UD), v0..v3,
/// `body` as its blocks, its own inputs (dispatch mask `mask`) and packed dispatch when
/// asked. The body broadcasts attr0 from the channel in v0 and writes it as the colour, so
/// the live channel chosen is observable.
fn prog(dispatch: u32, packed: bool, mask: u32, body: &str) -> Program {
    let ramp = |base: u32| -> String {
        (0..dispatch)
            .map(|c| format!("{}:UD", base + c))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let packed = if packed { "packed_dispatch\n" } else { "" };
    parse(&format!(
        "eu 1\ntarget skl\ndispatch {dispatch}\n{packed}threads 1\nattr attr0 2\nattr attr1 2\n\
         vgrf v0 1\nvgrf v1 1\nvgrf v2 2\nvgrf v3 8\n{body}\nINPUTS\n    \
         thread 0 dispatch_mask 0x{mask:x}\n    thread 0 attr0 {}\n    thread 0 attr1 {}\n\
         END INPUTS\n",
        ramp(10),
        ramp(0)
    ))
}

/// The tail every program ends with: v1 = attr0[v0], colour = (v1, v0, 0, 0) as UD bits.
fn tail(w: u32) -> String {
    format!(
        "    broadcast({w}) v1<0>:UD, attr0:UD, v0<0>:UD {{ NoMask }}
    mov({w}) v3:UD, v1<0>:UD
    mov({w}) v3+{o1}:UD, v0<0>:UD
    mov({w}) v3+{o2}:UD, 0:UD
    mov({w}) v3+{o3}:UD, 0:UD
    fb_write_logical({w}) null:UD, v3:UD, 4:UD, 0:UD {{ EOT }}",
        o1 = w * 4,
        o2 = w * 8,
        o3 = w * 12
    )
}

fn straight(first: &str, w: u32) -> String {
    format!("START B0\n{first}\n{}\nEND B0", tail(w))
}

#[test]
fn top_level_find_live_channel_becomes_zero() {
    // §9.2: packed dispatch, outside control flow, before any HALT: channel 0 is live.
    let input = prog(
        8,
        true,
        0x3f,
        &straight("    find_live_channel(8) v0<0>:UD { NoMask }", 8),
    );
    assert_eq!(contract(&PASS, &input), ["live-channel-kept 0"]);
    let output = expect_progress(
        run,
        &input,
        &straight("    mov(1) v0<0>:UD, 0:UD { NoMask }", 8),
    );
    assert!(contract(&PASS, &output).is_empty());
}

#[test]
fn find_live_channel_after_a_closed_if_becomes_zero() {
    // Once the ENDIF has restored the mask, the instruction is outside control flow again.
    let body = |flc: &str| {
        format!(
            "START B0
    cmp.ge.f0.0(8) null:UD, attr1:UD, 3:UD
    (+f0.0) if(8)
END B0
START B1
    mov(8) v2:UD, 1:UD
END B1
START B2
    endif(8)
{flc}
{}
END B2",
            tail(8)
        )
    };
    let input = prog(
        8,
        true,
        0xff,
        &body("    find_live_channel(8) v0<0>:UD { NoMask }"),
    );
    expect_progress(run, &input, &body("    mov(1) v0<0>:UD, 0:UD { NoMask }"));
}

#[test]
fn not_without_packed_dispatch() {
    // §9.2: without packed dispatch channel 0 need not have been dispatched; with mask
    // 0xfe the first live channel is 1.
    let input = prog(
        8,
        false,
        0xfe,
        &straight("    find_live_channel(8) v0<0>:UD { NoMask }", 8),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &straight("    mov(1) v0<0>:UD, 0:UD { NoMask }", 8));
}

#[test]
fn not_inside_an_if() {
    // §9.2: inside control flow channel 0 may be parked; the IF runs channels 3..7 only,
    // so the live channel is 3, not 0.
    let body = |flc: &str| {
        format!(
            "START B0
    mov(8) v3:UD, 0:UD
    mov(8) v3+32:UD, 0:UD
    mov(8) v3+64:UD, 0:UD
    mov(8) v3+96:UD, 0:UD
    cmp.ge.f0.0(8) null:UD, attr1:UD, 3:UD
    (+f0.0) if(8)
END B0
START B1
{flc}
    broadcast(8) v1<0>:UD, attr0:UD, v0<0>:UD {{ NoMask }}
    mov(8) v3:UD, v1<0>:UD
END B1
START B2
    endif(8)
    fb_write_logical(8) null:UD, v3:UD, 4:UD, 0:UD {{ EOT }}
END B2"
        )
    };
    let flc = "    find_live_channel(8) v0<0>:UD { NoMask }";
    let zero = "    mov(1) v0<0>:UD, 0:UD { NoMask }";
    let input = prog(8, true, 0xff, &body(flc));
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &body(zero));
}

#[test]
fn not_after_a_halt() {
    // §9.2, §11.25: after a HALT channel 0 may be halted; here the HALT parks channel 0
    // (attr1 = 0 there), so the live channel is 1.
    let body = |flc: &str| {
        format!(
            "START B0
    mov(8) v3:UD, 0:UD
    mov(8) v3+32:UD, 0:UD
    mov(8) v3+64:UD, 0:UD
    mov(8) v3+96:UD, 0:UD
    cmp.z.f0.0(8) null:UD, attr1:UD, 0:UD
    (+f0.0) halt(8)
END B0
START B1
{flc}
    broadcast(8) v1<0>:UD, attr0:UD, v0<0>:UD {{ NoMask }}
    mov(8) v3:UD, v1<0>:UD
END B1
START B2
    halt_target(8)
    fb_write_logical(8) null:UD, v3:UD, 4:UD, 0:UD {{ EOT }}
END B2"
        )
    };
    let flc = "    find_live_channel(8) v0<0>:UD { NoMask }";
    let zero = "    mov(1) v0<0>:UD, 0:UD { NoMask }";
    let input = prog(8, true, 0xff, &body(flc));
    expect_no_progress(run, &input);
    // After the HALT the pass owes nothing.
    assert!(contract(&PASS, &input).is_empty());
    expect_forbidden_rewrite_differs(&input, &body(zero));
}

#[test]
fn not_for_a_later_group() {
    // Group 8 scans channels 8..15, whose first is not known to be live: with packed
    // dispatch 0x00ff none of them is, and FIND_LIVE_CHANNEL of an empty mask gives
    // 0xFFFFFFFF (FBL of 0), not 0.
    let body = |flc: &str| {
        format!(
            "START B0
{flc}
    mov(16) v3:UD, v0<0>:UD
    mov(16) v3+64:UD, 0:UD
    mov(16) v3+128:UD, 0:UD
    mov(16) v3+192:UD, 0:UD
    fb_write_logical(16) null:UD, v3:UD, 4:UD, 0:UD {{ EOT }}
END B0"
        )
    };
    let input = prog(
        16,
        true,
        0x00ff,
        &body("    find_live_channel(8) v0<0>:UD { 2Q NoMask }"),
    );
    expect_no_progress(run, &input);
    expect_forbidden_rewrite_differs(&input, &body("    mov(1) v0<0>:UD, 0:UD { NoMask }"));
}

#[test]
fn cmod_propagation_leaves_find_live_channel_alone() {
    // §10.3 #3 (`non_cmod_livechannel`, Mesa 2dbb66997e2): the virtual opcode cannot carry
    // a conditional modifier, so the compare of its result stays.
    let input = prog(
        8,
        false,
        0xfe,
        "START B0
    find_live_channel(8) v0<0>:UD { NoMask }
    cmp.z.f0.0(8) null:UD, v0<0>:UD, 0:UD
    mov(8) v3:UD, 0:UD
    (+f0.0) mov(8) v3:UD, 1:UD
    mov(8) v3+32:UD, 0:UD
    mov(8) v3+64:UD, 0:UD
    mov(8) v3+96:UD, 0:UD
    fb_write_logical(8) null:UD, v3:UD, 4:UD, 0:UD { EOT }
END B0",
    );
    expect_no_progress(compiler::passes::opt_cmod_propagation::run, &input);
}
