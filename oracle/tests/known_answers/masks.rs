//! Masks: the dispatch mask, NoMask, predication, IF/ELSE, channel-group offsets and `ce0`
//! (docs/hardware/eu-hardware.md §1.7, §2.1, §2.3; docs/hardware/brw-backend.md §1.2, §1.7, §9.2).

use crate::common::*;
use crate::{Setup, all, run, vgrf};
use compiler::types::Type;

fn ramp() -> Vec<compiler::Value> {
    (0..32).map(ud).collect()
}

#[test]
fn dispatch_mask_limits_a_masked_write() {
    // §2.1: enabled(c) = dispatch(c) & cf_active(c); undispatched channels are not written
    // (v0 starts undefined, so they stay undefined).
    let regs = run(
        Setup::logical("skl", 8).masked(0b0101_1010),
        "mov(8) v0:UD, 7:UD",
        &[],
    );
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 8),
        vec![None, Some(7), None, Some(7), Some(7), None, Some(7), None]
    );
}

#[test]
fn nomask_writes_every_channel() {
    // §2.1 / docs/hardware/brw-backend.md §9.2: NoMask sets the write enable of all channels.
    let regs = run(
        Setup::logical("skl", 8).masked(0b0000_0001),
        "mov(8) v0:UD, 7:UD { NoMask }",
        &[],
    );
    assert_eq!(vgrf(&regs, 0, Type::UD, 8), all(&[7; 8]));
}

#[test]
fn predicate_and_inverse_predicate() {
    // §2.3: channel c is written only if flag bit (O + c) is set (inverted with `-`).
    let body = "cmp.g.f0.0(8) null:UD, attr0:UD, 4:UD\n\
                mov(8) v0:UD, 0:UD\n\
                (+f0.0) mov(8) v0:UD, 1:UD\n\
                mov(8) v1:UD, 0:UD\n\
                (-f0.0) mov(8) v1:UD, 1:UD";
    let regs = run(Setup::logical("skl", 8), body, &[&ramp()]);
    assert_eq!(vgrf(&regs, 0, Type::UD, 8), all(&[0, 0, 0, 0, 0, 1, 1, 1]));
    assert_eq!(vgrf(&regs, 1, Type::UD, 8), all(&[1, 1, 1, 1, 1, 0, 0, 0]));
}

#[test]
fn if_else_masks() {
    // docs/hardware/brw-backend.md §9.2: IF parks the channels whose predicate fails until ELSE; ELSE
    // swaps; ENDIF restores.
    let body = "cmp.l.f0.0(8) null:UD, attr0:UD, 3:UD\n\
                (+f0.0) if(8)\n\
                mov(8) v0:UD, 10:UD\n\
                else(8)\n\
                mov(8) v0:UD, 20:UD\n\
                endif(8)\n\
                add(8) v0:UD, v0:UD, 1:UD";
    let regs = run(Setup::logical("skl", 8), body, &[&ramp()]);
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 8),
        all(&[11, 11, 11, 21, 21, 21, 21, 21])
    );
}

#[test]
fn second_quarter_uses_mask_bits_8_to_15() {
    // §1.7: channel i of a 2Q instruction uses bit 8 + i of the execution mask. Dispatch
    // 0x0f00 | 0x00ff: of the second quarter only channels 8..11 are live.
    let regs = run(
        Setup::logical("skl", 16).masked(0x0fff),
        "mov(8) v0+32:UD, 9:UD { 2Q }",
        &[],
    );
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 16)[8..],
        vec![Some(9), Some(9), Some(9), Some(9), None, None, None, None]
    );
}

#[test]
fn second_quarter_predicate_uses_flag_bits_8_to_15() {
    // §1.7 / §2.3 / docs/hardware/brw-backend.md §1.2: channel c reads flag bit 16·subreg + group + c.
    let body = "mov(1) f0.0<0;1,0>:UW, 0x0500:UW { NoMask }\n\
                mov(16) v0:UD, 0:UD\n\
                (+f0.0) mov(8) v0+32:UD, 1:UD { 2Q }";
    let regs = run(Setup::logical("skl", 16), body, &[]);
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 16),
        all(&[0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0])
    );
}

#[test]
fn ce0_reflects_control_flow_shifted_by_the_quarter() {
    // §2.1: ce0 reflects control flow; §1.7: quarter control shifts the value read. In an
    // IF taken by channels 0..9 of 16, ce0<0;1,0>:UB reads 0xff in 1Q and 0x03 in 2Q.
    let body = "cmp.l.f0.0(16) null:UD, attr0:UD, 10:UD\n\
                (+f0.0) if(16)\n\
                mov(1) v0:UB, ce0<0;1,0>:UB { NoMask }\n\
                mov(1) v0+1:UB, ce0<0;1,0>:UB { NoMask group8 }\n\
                endif(16)";
    let regs = run(Setup::logical("skl", 16), body, &[&ramp()]);
    assert_eq!(vgrf(&regs, 0, Type::UB, 2), all(&[0xff, 0x03]));
}

#[test]
fn ce0_does_not_include_the_dispatch_mask() {
    // §2.1: ce0 "doesn't consider the thread dispatch mask" (Mesa ANDs it with sr0.2), so
    // the bits of undispatched channels are not the dispatch mask's zeros: they are not
    // defined by the documents. With channels 12..15 undispatched, ce0<0;1,0>:UW is undefined while
    // its low byte (channels 0..7, all dispatched and active) is 0xff.
    let body = "mov(1) v0:UW, ce0<0;1,0>:UW { NoMask }\n\
                mov(1) v1:UB, ce0<0;1,0>:UB { NoMask }";
    let regs = run(Setup::logical("skl", 16).masked(0x0fff), body, &[]);
    assert_eq!(vgrf(&regs, 0, Type::UW, 1), vec![None]);
    assert_eq!(vgrf(&regs, 1, Type::UB, 1), all(&[0xff]));
}
