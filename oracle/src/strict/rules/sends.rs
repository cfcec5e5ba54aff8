//! SEND, EOT and payload restrictions (docs/hardware/eu-hardware.md §1.6, §6.3).

use super::regions::rule;
use compiler::reg::{Reg, RegKind};
use compiler::{Inst, Opcode};

fn send(inst: &Inst) -> Option<compiler::inst::MsgDesc> {
    (inst.op == Opcode::Send).then_some(inst.desc).flatten()
}

fn grf_nr(r: &Reg) -> Option<u32> {
    match r.kind {
        RegKind::Fixed { nr, .. } => Some(nr as u32),
        _ => None,
    }
}

/// Split sends: SENDS before Gfx12 (a second payload), every SEND from Gfx12 on.
fn is_split(inst: &Inst, verx10: u32) -> bool {
    send(inst).is_some_and(|d| d.ex_mlen > 0 || verx10 >= 120)
}

rule!(
    EOT_RANGE,
    "eot-grf-range",
    "send with EOT must use g112-g127",
    |i, _| { i.op == Opcode::Send && i.eot && i.srcs.iter().filter_map(grf_nr).any(|nr| nr < 112) }
);
rule!(
    SEND_NON_GRF,
    "send-from-non-grf",
    "send from non-GRF",
    |i, _| { i.op == Opcode::Send && i.srcs.first().is_some_and(|s| grf_nr(s).is_none()) }
);
rule!(
    SPLIT_SRC1,
    "split-send-src1",
    "src1 of split send must be a GRF or NULL",
    |i, d| is_split(i, d.verx10)
        && i.srcs
            .get(1)
            .is_some_and(|s| !s.is_null() && grf_nr(s).is_none())
);
rule!(
    SPLIT_OVERLAP,
    "split-send-overlap",
    "split send payloads must not overlap",
    |i, d| {
        let (Some(desc), Some(a), Some(b)) = (
            send(i),
            i.srcs.first().and_then(grf_nr),
            i.srcs.get(1).and_then(grf_nr),
        ) else {
            return false;
        };
        is_split(i, d.verx10)
            && desc.ex_mlen > 0
            && a < b + desc.ex_mlen as u32
            && b < a + desc.mlen.max(1) as u32
    }
);
rule!(
    R127_OVERLAP,
    "r127-send-overlap",
    "r127 must not be used for return address when there is a src and dest overlap",
    |i, _| {
        let (Some(desc), Some(dst), Some(src)) =
            (send(i), grf_nr(&i.dst), i.srcs.first().and_then(grf_nr))
        else {
            return false;
        };
        dst + desc.rlen as u32 > 127 && src + desc.mlen as u32 > dst
    }
);
rule!(
    // A SEND payload is counted in whole registers (mlen/ex_mlen, docs/hardware/eu-hardware.md §6.3, whose
    // overlap rule compares register numbers only): the hardware takes the payload's
    // register number and no sub-register, so a payload starting inside a register would
    // send bytes the program did not mean. [P?] The documents do not state the encoding;
    // rejecting it is the conservative reading. The text is ours.
    SEND_PAYLOAD_SUBREG,
    "send-payload-subreg",
    "A SEND payload must start at sub-register 0",
    |i, _| {
        i.op == Opcode::Send
            && i.srcs
                .iter()
                .take(2)
                .any(|s| matches!(s.kind, RegKind::Fixed { subnr, .. } if subnr != 0))
    }
);
rule!(
    // The response is counted in whole registers too (rlen, docs/hardware/eu-hardware.md
    // §6.3): the hardware writes rlen registers from the destination's register number, so
    // a destination inside a register would put every reply component off by its
    // sub-register. [P?] As for the payload, the documents do not state the encoding;
    // rejecting it is the conservative reading, and no lowering of ours or Mesa's writes a
    // response there. The text is ours.
    SEND_RESPONSE_SUBREG,
    "send-response-subreg",
    "A SEND response must start at sub-register 0",
    |i, _| i.op == Opcode::Send && matches!(i.dst.kind, RegKind::Fixed { subnr, .. } if subnr != 0)
);
