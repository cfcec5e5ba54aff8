//! `lower_logical_sends`: render-target writes, untyped buffer access and texture samples
//! become payloads (LOAD_PAYLOAD, copied with the instruction's channel mask) and hardware
//! SENDs in the formats the emulator documents (`oracle/src/emu/messages.rs`): component k
//! of a payload is `rpc` registers, one dword per channel. Results land in a temporary and
//! are copied out when the destination is not whole, packed registers.

use super::temp;
use crate::inst::{Inst, MsgDesc, MsgKind};
use crate::opcode::Opcode;
use crate::pass::{CompileOptions, Pass, PassError};
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, RegKind};
use crate::types::Type;

/// Registers per payload component.
fn rpc(n: u32) -> u32 {
    (n * 4).div_ceil(REG_SIZE).max(1)
}

/// Controls of `inst` on an instruction building its payload: same channels, no predicate.
fn like(inst: &Inst, i: Inst) -> Inst {
    Inst {
        group: inst.group,
        nomask: inst.nomask,
        ..i
    }
}

fn dword(r: Reg) -> Reg {
    r.retype(Type::int_of_size(4, false))
}

/// A payload of the given components (each one SIMD component of `inst`'s width).
fn payload(p: &mut Program, inst: &Inst, comps: &[Reg], out: &mut Vec<Inst>) -> Reg {
    let n = inst.exec_size as u32;
    let regs = rpc(n) * comps.len() as u32;
    let dst = Reg::vgrf(p.alloc_vgrf(regs), Type::UD);
    if n >= 8 {
        let lp = Inst::new(
            Opcode::LoadPayload,
            inst.exec_size,
            dst,
            comps.iter().map(|c| dword(*c)).collect(),
        );
        out.push(like(inst, lp));
    } else {
        for (k, c) in comps.iter().enumerate() {
            let at = dst.byte_offset(k as u32 * rpc(n) * REG_SIZE);
            out.push(like(
                inst,
                Inst::new(Opcode::Mov, inst.exec_size, at, vec![dword(*c)]),
            ));
        }
    }
    dst
}

fn components(r: &Reg, n: u32, count: u32) -> Vec<Reg> {
    (0..count).map(|k| r.component(n, k)).collect()
}

fn send(inst: &Inst, dst: Reg, p1: Reg, p2: Reg, desc: MsgDesc) -> Inst {
    let mut s = Inst::new(Opcode::Send, inst.exec_size, dst, vec![p1, p2]);
    s.desc = Some(desc);
    s.group = inst.group;
    s.nomask = inst.nomask;
    s.predicate = inst.predicate;
    s.flag_subreg = inst.flag_subreg;
    s.eot = inst.eot;
    s
}

/// Whether results can be written straight into `dst` in the SEND's layout.
fn direct(dst: &Reg, n: u32) -> bool {
    n >= 8
        && matches!(dst.kind, RegKind::Vgrf { offset, stride: 1, .. } if offset % REG_SIZE == 0)
        && dst.ty.size() == 4
}

/// Sends a message whose reply is `comps` components, writing them to `dst`.
fn with_reply(
    p: &mut Program,
    inst: &Inst,
    comps: u32,
    p1: Reg,
    mut desc: MsgDesc,
    out: &mut Vec<Inst>,
) {
    let n = inst.exec_size as u32;
    desc.rlen = (comps * rpc(n)) as u8;
    if direct(&inst.dst, n) {
        out.push(send(inst, dword(inst.dst), p1, Reg::null(Type::UD), desc));
        return;
    }
    let t = temp(p, Type::UD, desc.rlen as u32 * REG_SIZE);
    out.push(send(inst, t, p1, Reg::null(Type::UD), desc));
    for k in 0..comps {
        let from = t.byte_offset(k * rpc(n) * REG_SIZE);
        let mut mov = like(
            inst,
            Inst::new(
                Opcode::Mov,
                inst.exec_size,
                dword(inst.dst.component(n, k)),
                vec![from],
            ),
        );
        mov.predicate = inst.predicate;
        mov.flag_subreg = inst.flag_subreg;
        out.push(mov);
    }
}

fn lower(p: &mut Program, inst: Inst, opts: &CompileOptions, out: &mut Vec<Inst>) -> bool {
    if inst.op.is_message() {
        crate::pass::note(inst.op.name());
    }
    let n = inst.exec_size as u32;
    let desc = |kind, mlen: u32, ex_mlen: u32| MsgDesc {
        kind,
        mlen: mlen as u8,
        ex_mlen: ex_mlen as u8,
        rlen: 0,
        header: false,
    };
    match inst.op {
        Opcode::FbWriteLogical => {
            let comps = inst.message_components();
            let target = inst.imm_src(2).unwrap_or(0) as u8;
            let pl = payload(p, &inst, &components(&inst.srcs[0], n, comps), out);
            out.push(send(
                &inst,
                Reg::null(Type::UD),
                pl,
                Reg::null(Type::UD),
                desc(MsgKind::RtWrite { target }, comps * rpc(n), 0),
            ));
        }
        Opcode::UntypedReadLogical => {
            let comps = inst.message_components();
            let surface = inst.imm_src(1).unwrap_or(0) as u8;
            let pl = payload(p, &inst, &[inst.srcs[0]], out);
            with_reply(
                p,
                &inst,
                comps,
                pl,
                desc(
                    MsgKind::UntypedRead {
                        surface,
                        comps: comps as u8,
                    },
                    rpc(n),
                    0,
                ),
                out,
            );
        }
        Opcode::UntypedWriteLogical => {
            let comps = inst.message_components();
            let surface = inst.imm_src(2).unwrap_or(0) as u8;
            let addr = payload(p, &inst, &[inst.srcs[0]], out);
            let data = payload(p, &inst, &components(&inst.srcs[1], n, comps), out);
            out.push(send(
                &inst,
                Reg::null(Type::UD),
                addr,
                data,
                desc(
                    MsgKind::UntypedWrite {
                        surface,
                        comps: comps as u8,
                    },
                    rpc(n),
                    comps * rpc(n),
                ),
            ));
        }
        Opcode::TexLogical => {
            let surface = inst.imm_src(2).unwrap_or(0) as u8;
            let pl = payload(p, &inst, &[inst.srcs[0], inst.srcs[1]], out);
            with_reply(
                p,
                &inst,
                4,
                pl,
                desc(MsgKind::Sample { surface }, 2 * rpc(n), 0),
                out,
            );
        }
        Opcode::Send => return align_payloads(p, inst, opts, out),
        _ => {
            out.push(inst);
            return false;
        }
    }
    true
}

/// A hardware SEND (hand-written, or from an earlier lowering) takes each payload as whole
/// registers from a register number: the hardware has no sub-register there
/// (docs/hardware/eu-hardware.md §6.3, mlen/ex_mlen count registers). A payload that starts inside a
/// register (`v0+16`, `g55.4`) is copied, register by register with NoMask raw moves, into a fresh
/// VGRF the SEND then reads; EOT or not (allocate_registers moves EOT payloads again, into
/// g112–g127). The IR validator accepts such a payload (docs/hardware/brw-backend.md §3 item 12 sets no
/// offset rule), so legalising it is this pass's job, as for the payloads it builds itself.
fn align_payloads(
    p: &mut Program,
    mut inst: Inst,
    opts: &CompileOptions,
    out: &mut Vec<Inst>,
) -> bool {
    let mut changed = false;
    for i in 0..inst.srcs.len().min(2) {
        let s = inst.srcs[i];
        let offset = match s.kind {
            RegKind::Vgrf { offset, .. } | RegKind::Attr { offset, .. } => offset,
            RegKind::Fixed { subnr, .. } => u32::from(subnr),
            _ => continue,
        };
        let regs = inst.size_read(i).div_ceil(REG_SIZE);
        if regs == 0 || offset.is_multiple_of(REG_SIZE) || crate::zoo!(opts, SendPayloadSubregKept)
        {
            continue;
        }
        let copy = Reg::vgrf(p.alloc_vgrf(regs), Type::UD);
        // Register `r` of the payload; a fixed GRF's as a region the hardware can read
        // from that sub-register (one dword per row when it is not aligned).
        let from = |r: u32| match s.kind {
            RegKind::Fixed { nr, subnr, .. } => super::fixed_operand(
                u32::from(nr) * REG_SIZE + u32::from(subnr) + r * REG_SIZE,
                1,
                Type::UD,
                8,
                false,
            ),
            _ => s.retype(Type::UD).with_stride(1).byte_offset(r * REG_SIZE),
        };
        for r in 0..regs {
            let mov = Inst::new(Opcode::Mov, 8, copy.byte_offset(r * REG_SIZE), vec![from(r)]);
            out.push(mov.with_nomask());
        }
        inst.srcs[i] = copy.retype(s.ty);
        changed = true;
    }
    out.push(inst);
    changed
}

/// This pass, as the registry (`passes::registry`) and the pipelines know it.
/// It notes the name of every message it lowers: kinds of equal standing, listed in
/// alphabetical order (a test checks the list is every message opcode's name).
pub const PASS: Pass = Pass {
    name: "lower_logical_sends",
    rewrites: &[
        "fb_write_logical",
        "scratch_read",
        "scratch_write",
        "send",
        "tex_logical",
        "untyped_read_logical",
        "untyped_write_logical",
        "urb_write_logical",
    ],
    run,
    postcondition: None,
};

pub fn run(p: &mut Program, opts: &CompileOptions) -> Result<bool, PassError> {
    let mut progress = false;
    let mut out = vec![];
    for inst in p.take_insts() {
        progress |= lower(p, inst, opts, &mut out);
    }
    p.set_insts(out);
    Ok(progress)
}
