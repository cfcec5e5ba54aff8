//! FIND_LIVE_CHANNEL and BROADCAST (docs/hardware/brw-backend.md §1.1, §9.2; docs/hardware/eu-hardware.md §2.1): the
//! index of the first channel the execution mask enables — dispatched, not parked by an IF
//! or a HALT — relative to the instruction's group, and the copy of one channel's element,
//! each written as one scalar whatever the mask.

use crate::common::*;
use crate::{Setup, all, run, vgrf};
use compiler::types::Type;

fn ramp(base: u32) -> Vec<compiler::Value> {
    (0..32).map(|c| ud(base + c)).collect()
}

/// The scalar (first dword) of `v<nr>`.
fn scalar(regs: &oracle::Registers, nr: usize) -> Option<u64> {
    vgrf(regs, nr, Type::UD, 1)[0]
}

#[test]
fn at_top_level_with_every_channel_dispatched_it_is_zero() {
    let regs = run(
        Setup::logical("skl", 8),
        "find_live_channel(8) v0<0>:UD { NoMask }",
        &[],
    );
    assert_eq!(scalar(&regs, 0), Some(0));
}

#[test]
fn the_dispatch_mask_counts() {
    // §9.2: the execution mask includes the dispatch mask; channels 0..3 are not live.
    let regs = run(
        Setup::logical("skl", 8).masked(0b1111_0000),
        "find_live_channel(8) v0<0>:UD { NoMask }",
        &[],
    );
    assert_eq!(scalar(&regs, 0), Some(4));
}

#[test]
fn inside_an_if_taken_by_channels_3_and_up_it_is_3() {
    // §9.2: IF parks the channels whose predicate fails (attr0 = channel < 3).
    let body = "cmp.ge.f0.0(8) null:UD, attr0:UD, 3:UD\n\
                (+f0.0) if(8)\n\
                find_live_channel(8) v0<0>:UD { NoMask }\n\
                endif(8)\n\
                find_live_channel(8) v1<0>:UD { NoMask }";
    let regs = run(Setup::logical("skl", 8), body, &[&ramp(0)]);
    assert_eq!(scalar(&regs, 0), Some(3));
    // ENDIF restores the mask.
    assert_eq!(scalar(&regs, 1), Some(0));
}

#[test]
fn after_a_halt_of_lane_0_it_is_the_next_lane() {
    // §9.2: HALT parks its channels until the HALT_TARGET, which re-enables them.
    let body = "cmp.z.f0.0(8) null:UD, attr0:UD, 0:UD\n\
                (+f0.0) halt(8)\n\
                find_live_channel(8) v0<0>:UD { NoMask }\n\
                halt_target(8)\n\
                find_live_channel(8) v1<0>:UD { NoMask }";
    let regs = run(Setup::logical("skl", 8), body, &[&ramp(0)]);
    assert_eq!(scalar(&regs, 0), Some(1));
    assert_eq!(scalar(&regs, 1), Some(0));
}

#[test]
fn the_index_is_relative_to_the_group() {
    // §1.1 `group`: the instruction's channels are [group, group + exec_size); channel 13
    // is channel 5 of the second quarter.
    let regs = run(
        Setup::logical("skl", 16).masked(0b0010_0000_0000_0000),
        "find_live_channel(8) v0<0>:UD { 2Q NoMask }",
        &[],
    );
    assert_eq!(scalar(&regs, 0), Some(5));
}

#[test]
fn no_live_channel_gives_fbl_of_zero() {
    // Mesa lowers FIND_LIVE_CHANNEL to FBL of the live-channel mask (§7.2); FBL of 0 is
    // 0xFFFFFFFF (no bit set). Channels 8..15 are not dispatched.
    let regs = run(
        Setup::logical("skl", 16).masked(0x00ff),
        "find_live_channel(8) v0<0>:UD { 2Q NoMask }",
        &[],
    );
    assert_eq!(scalar(&regs, 0), Some(0xffff_ffff));
}

#[test]
fn broadcast_copies_the_indexed_channel_to_a_scalar() {
    // §1.1 BROADCAST: dst = src0 in the channel src1 names, whatever that channel's mask
    // (channel 6 is not dispatched; attr0 is still its input).
    let body = "broadcast(8) v0<0>:UD, attr0:UD, 6:UD { NoMask }\n\
                mov(1) v2<0>:UD, 2:UD { NoMask }\n\
                broadcast(8) v1<0>:UD, attr0:UD, v2<0>:UD { NoMask }";
    let regs = run(Setup::logical("skl", 8).masked(0x0f), body, &[&ramp(100)]);
    assert_eq!(scalar(&regs, 0), Some(106));
    assert_eq!(scalar(&regs, 1), Some(102));
    // Only the scalar is written: the rest of v0 stays undefined.
    assert_eq!(vgrf(&regs, 0, Type::UD, 2)[1], None);
}

#[test]
fn uniformize_inside_an_if() {
    // Mesa's emit_uniformize: the value of the first live channel, here channel 3 of the IF.
    let body = "cmp.ge.f0.0(8) null:UD, attr0:UD, 3:UD\n\
                (+f0.0) if(8)\n\
                find_live_channel(8) v0<0>:UD { NoMask }\n\
                broadcast(8) v1<0>:UD, attr1:UD, v0<0>:UD { NoMask }\n\
                mov(8) v2:UD, v1<0>:UD\n\
                endif(8)";
    let regs = run(Setup::logical("skl", 8), body, &[&ramp(0), &ramp(40)]);
    let mut want = vec![None; 3];
    want.extend(all(&[43; 5]));
    assert_eq!(vgrf(&regs, 2, Type::UD, 8), want);
}

#[test]
fn an_index_beyond_the_execution_size_is_undefined() {
    // The documents give no result for it: the model leaves the destination undefined.
    let body = "mov(1) v2<0>:UD, 8:UD { NoMask }\n\
                broadcast(8) v1<0>:UD, attr0:UD, v2<0>:UD { NoMask }";
    let regs = run(Setup::logical("skl", 8), body, &[&ramp(0)]);
    assert_eq!(scalar(&regs, 1), None);
}

#[test]
fn the_pseudo_instructions_run_in_hardware_ir() {
    // They reach hardware IR as pseudo-instructions (compiler `hw::is_send_like`) and run
    // on fixed GRFs; attr0 is g1.
    let body = "find_live_channel(8) g20<8;8,1>:UD { NoMask }\n\
                broadcast(8) g21<8;8,1>:UD, g1<8;8,1>:UD, g20<0;1,0>:UD { NoMask }";
    let regs = run(Setup::strict("skl", 8).masked(0b1100), body, &[&ramp(70)]);
    assert_eq!(crate::grf(&regs, 20, Type::UD, 1), all(&[2]));
    assert_eq!(crate::grf(&regs, 21, Type::UD, 1), all(&[72]));
}
