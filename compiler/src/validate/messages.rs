//! Message rules: logical sends, scratch access, LOAD_PAYLOAD and hardware SEND must have the
//! payload shape and parameters their shared function expects.

use super::{Report, Rule};
use crate::inst::{Inst, MsgKind};
use crate::opcode::Opcode;
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg};

fn is_register(r: &Reg) -> bool {
    !r.is_imm() && !r.is_null()
}

fn imm_in(inst: &Inst, i: usize, lo: u64, hi: u64) -> bool {
    inst.srcs.get(i).is_some_and(Reg::is_imm)
        && inst.imm_src(i).is_some_and(|v| (lo..=hi).contains(&v))
}

fn dword(r: &Reg) -> bool {
    r.ty.size() == 4
}

pub(super) fn check(p: &Program, ip: usize, inst: &Inst, r: &mut Report) {
    if matches!(inst.op, Opcode::ScratchRead | Opcode::ScratchWrite) {
        let read = inst.op == Opcode::ScratchRead;
        let data = if read {
            inst.dst
        } else {
            inst.srcs.first().copied().unwrap_or(inst.dst)
        };
        let offset = inst.imm_src(if read { 0 } else { 1 }).unwrap_or(0);
        let end = offset + inst.exec_size as u64 * data.ty.size() as u64;
        if end > p.scratch_size as u64 {
            r.add(
                Rule::ScratchOutOfBounds,
                Some(ip),
                format!(
                    "scratch bytes {offset}..{end} but the program declares `scratch {}`",
                    p.scratch_size
                ),
            );
        }
    }
    if inst.desc.is_some() && inst.op != Opcode::Send {
        r.add(
            Rule::SendPayload,
            Some(ip),
            format!("{} cannot carry a message descriptor", inst.op.name()),
        );
    }
    if inst.header_size != 0 && inst.op != Opcode::LoadPayload {
        r.add(
            Rule::SendPayload,
            Some(ip),
            format!(
                "{} has no header sources (header={} is for load_payload)",
                inst.op.name(),
                inst.header_size
            ),
        );
    }
    let mut problems: Vec<String> = vec![];
    let mut need = |ok: bool, msg: &str| {
        if !ok {
            problems.push(msg.to_string());
        }
    };
    let src = |i: usize| {
        inst.srcs
            .get(i)
            .copied()
            .unwrap_or(Reg::null(crate::types::Type::UD))
    };
    match inst.op {
        Opcode::FbWriteLogical => {
            need(
                is_register(&src(0)) && dword(&src(0)),
                "the colour (source 0) must be a 32-bit register",
            );
            need(
                imm_in(inst, 1, 1, 4),
                "the component count (source 1) must be an immediate 1..4",
            );
            need(
                imm_in(inst, 2, 0, 7),
                "the render target (source 2) must be an immediate 0..7",
            );
            need(
                inst.dst.is_null(),
                "a render-target write has no destination",
            );
        }
        Opcode::UntypedReadLogical => {
            need(
                is_register(&src(0)) && dword(&src(0)) && src(0).ty.is_int(),
                "the address (source 0) must be a D/UD register",
            );
            need(
                imm_in(inst, 1, 0, 7),
                "the surface (source 1) must be an immediate 0..7",
            );
            need(
                imm_in(inst, 2, 1, 4),
                "the component count (source 2) must be an immediate 1..4",
            );
            need(
                is_register(&inst.dst) && dword(&inst.dst),
                "the destination must be a 32-bit register",
            );
        }
        Opcode::UntypedWriteLogical => {
            need(
                is_register(&src(0)) && dword(&src(0)) && src(0).ty.is_int(),
                "the address (source 0) must be a D/UD register",
            );
            need(
                is_register(&src(1)) && dword(&src(1)),
                "the data (source 1) must be a 32-bit register",
            );
            need(
                imm_in(inst, 2, 0, 7),
                "the surface (source 2) must be an immediate 0..7",
            );
            need(
                imm_in(inst, 3, 1, 4),
                "the component count (source 3) must be an immediate 1..4",
            );
            need(inst.dst.is_null(), "an untyped write has no destination");
        }
        Opcode::ScratchRead => {
            need(
                imm_in(inst, 0, 0, u32::MAX as u64) && inst.imm_src(0).is_some_and(|o| o % 16 == 0),
                "the offset (source 0) must be an OWord-aligned immediate",
            );
            need(
                is_register(&inst.dst),
                "a scratch read needs a destination register",
            );
        }
        Opcode::ScratchWrite => {
            need(
                is_register(&src(0)),
                "the data (source 0) must be a register",
            );
            need(
                imm_in(inst, 1, 0, u32::MAX as u64) && inst.imm_src(1).is_some_and(|o| o % 16 == 0),
                "the offset (source 1) must be an OWord-aligned immediate",
            );
            need(inst.dst.is_null(), "a scratch write has no destination");
        }
        Opcode::TexLogical => {
            need(
                is_register(&src(0))
                    && is_register(&src(1))
                    && src(0).ty.is_float()
                    && src(1).ty.is_float(),
                "the coordinates (sources 0, 1) must be float registers",
            );
            need(
                imm_in(inst, 2, 0, 7),
                "the texture (source 2) must be an immediate 0..7",
            );
            need(
                is_register(&inst.dst) && dword(&inst.dst),
                "the destination must be a 32-bit register",
            );
        }
        Opcode::LoadPayload => {
            need(
                inst.dst.is_vgrf() || matches!(inst.dst.kind, crate::reg::RegKind::Fixed { .. }),
                "LOAD_PAYLOAD writes a VGRF or GRF",
            );
            need(
                (inst.header_size as usize) <= inst.srcs.len(),
                "the header is longer than the source list",
            );
        }
        Opcode::Send => match inst.desc {
            None => need(false, "SEND needs a message descriptor"),
            Some(d) => {
                need(is_register(&src(0)), "payload 1 must be a register");
                need(d.mlen >= 1, "mlen must be at least 1");
                need(
                    (d.ex_mlen == 0) == src(1).is_null(),
                    "payload 2 must be null exactly when ex_mlen is 0",
                );
                need(
                    (d.rlen == 0) == inst.dst.is_null(),
                    "the destination must be null exactly when rlen is 0",
                );
                let regs_per_comp = (inst.exec_size as u32 * 4).div_ceil(REG_SIZE).max(1);
                let data = (d.mlen as u32 + d.ex_mlen as u32).saturating_sub(d.header as u32);
                match d.kind {
                    MsgKind::RtWrite { .. } => need(
                        d.rlen == 0
                            && data.is_multiple_of(regs_per_comp)
                            && data / regs_per_comp <= 4,
                        "an RT write carries 1..4 colour components and returns nothing",
                    ),
                    MsgKind::UntypedRead { comps, .. } => need(
                        d.rlen as u32 == comps as u32 * regs_per_comp && data == regs_per_comp,
                        "an untyped read sends one address per channel and returns comps × channels dwords",
                    ),
                    MsgKind::UntypedWrite { comps, .. } => need(
                        d.rlen == 0 && data == regs_per_comp * (1 + comps as u32),
                        "an untyped write sends addresses then comps × channels dwords",
                    ),
                    MsgKind::ScratchRead => need(
                        d.header && d.mlen == 1 && d.ex_mlen == 0 && d.rlen >= 1,
                        "a scratch read is a header-only message returning rlen registers",
                    ),
                    MsgKind::ScratchWrite => need(
                        d.header && d.mlen >= 1 && d.rlen == 0 && data >= 1,
                        "a scratch write is a header plus data registers",
                    ),
                    MsgKind::Sample { .. } => need(
                        d.rlen as u32 == 4 * regs_per_comp && data == 2 * regs_per_comp,
                        "a sample sends u, v and returns four components",
                    ),
                    MsgKind::UrbWrite { slot } => need(
                        d.header
                            && d.rlen == 0
                            && data >= 1
                            && slot as u64 + data as u64 <= super::vec4::URB_SLOTS
                            && inst.exec_size == 8,
                        "a URB write is exec 8, a header plus one register per output slot below 32, returning nothing",
                    ),
                }
            }
        },
        _ => {}
    }
    for msg in problems {
        r.add(
            Rule::SendPayload,
            Some(ip),
            format!("{}: {msg}", inst.op.name()),
        );
    }
}
