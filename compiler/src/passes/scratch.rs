//! Scratch space (docs/hardware/brw-backend.md §8): per-thread sizes and their encoding, message headers,
//! the "unlimited scratch" base adjustment, and lowering scratch reads/writes to SENDs.
//!
//! The driver (the emulator) lays threads out `real` bytes apart and programs each thread's
//! g0.3 with the encoding of `programmed`, which is `real` unless that exceeds the device's
//! per-thread limit. Past the limit the hardware would put thread i at `i × programmed`, so
//! the program moves its base itself: base − FFTID × programmed + FFTID × real. The multiplies
//! by constants go through integer-multiply lowering (a constant ≥ 65536 cannot be a 16-bit
//! immediate on parts without DxD multiply).

use super::lower_integer_multiplication::lower_mul;
use crate::inst::{Inst, MsgDesc, MsgKind};
use crate::opcode::Opcode;
use crate::pass::CompileOptions;
use crate::program::Program;
use crate::reg::{REG_SIZE, Reg, RegKind, Region};
use crate::types::Type;

/// Per-thread scratch bytes: (programmed into g0.3, real spacing of threads in the buffer).
pub fn sizes(p: &Program) -> (u32, u32) {
    let info = p.device.info();
    let enc = info.scratch_encoding;
    let programmed = enc.round_up(p.scratch_size.min(info.max_scratch_per_thread));
    let real = programmed.max(p.scratch_size.next_multiple_of(1024));
    (programmed, real)
}

/// The size encoding the compiler writes into scratch headers.
pub fn encoding(p: &Program, opts: &CompileOptions) -> u32 {
    let (programmed, _) = sizes(p);
    let enc = if crate::zoo!(opts, ScratchHswSizeEncoding) && p.device == crate::Device::Hsw {
        crate::device::ScratchEncoding::Pow2From1K
    } else {
        p.device.info().scratch_encoding
    };
    enc.encode(programmed)
}

fn nomask(inst: Inst) -> Inst {
    inst.with_nomask()
}

fn g0_dword(dword: u32) -> Reg {
    Reg::grf(0, (dword * 4) as u8, Region::SCALAR, Type::UD)
}

fn scalar(r: Reg) -> Reg {
    r.with_stride(0)
}

/// Instructions computing the scratch base (header dword 5) into a new scalar VGRF: the
/// thread's g0.5 base, moved for unlimited scratch.
pub fn base_setup(p: &mut Program, opts: &CompileOptions) -> (Reg, Vec<Inst>) {
    let base = Reg::vgrf(p.alloc_vgrf(1), Type::UD);
    let g05 = g0_dword(crate::payload::SCRATCH_BASE_DWORD);
    let mut out = vec![nomask(Inst::new(
        Opcode::And,
        1,
        scalar(base),
        vec![g05, Reg::imm_ud(0xffff_fc00)],
    ))];
    let info = p.device.info();
    let (programmed, real) = sizes(p);
    if p.scratch_size > info.max_scratch_per_thread {
        crate::pass::note("scratch-beyond-thread-limit");
        let fftid = Reg::vgrf(p.alloc_vgrf(1), Type::UD);
        out.push(nomask(Inst::new(
            Opcode::And,
            1,
            scalar(fftid),
            vec![g05, Reg::imm_ud(0x3ff)],
        )));
        let real_imm = if crate::zoo!(opts, ScratchFftidImmTruncated) {
            Reg::imm_uw(real as u16)
        } else {
            Reg::imm_ud(real)
        };
        for (factor, sign) in [(Reg::imm_ud(programmed), true), (real_imm, false)] {
            let t = Reg::vgrf(p.alloc_vgrf(1), Type::UD);
            let mul = nomask(Inst::new(
                Opcode::Mul,
                1,
                scalar(t),
                vec![scalar(fftid), factor],
            ));
            out.extend(lower_mul(p, mul, opts));
            let term = if sign { scalar(t).negated() } else { scalar(t) };
            out.push(nomask(Inst::new(
                Opcode::Add,
                1,
                scalar(base),
                vec![scalar(base), term],
            )));
        }
    }
    (scalar(base), out)
}

/// Instructions building a scratch message header for byte `offset` into a new VGRF.
fn header(p: &mut Program, offset: u32, enc: u32, base: Reg) -> (Reg, Vec<Inst>) {
    let h = Reg::vgrf(p.alloc_vgrf(1), Type::UD);
    let at = |bytes: u32| scalar(h.byte_offset(bytes));
    let out = vec![
        nomask(Inst::new(Opcode::Mov, 8, h, vec![Reg::imm_ud(0)])),
        nomask(Inst::new(
            Opcode::Mov,
            1,
            at(8),
            vec![Reg::imm_ud(offset / 16)],
        )),
        nomask(Inst::new(Opcode::Mov, 1, at(12), vec![Reg::imm_ud(enc)])),
        nomask(Inst::new(Opcode::Mov, 1, at(20), vec![base])),
    ];
    (h, out)
}

/// Whether an operand is a whole-register, packed VGRF range a SEND can use directly.
fn sendable(r: &Reg) -> bool {
    matches!(r.kind, RegKind::Vgrf { offset, stride: 1, .. } if offset % REG_SIZE == 0)
}

/// Lowers one scratch read/write (logical, per channel) to header + SEND. Per-channel data of
/// 4-byte elements maps channel c to dword c, so the channel mask carries over; other sizes
/// go through a NoMask read (and a masked merge for writes).
/// MOVs of `n` channels from `src` to `dst` in pieces no operand of which spans more than
/// two registers (this runs after SIMD-width lowering), each with `like`'s mask controls.
/// A piece's destination splits evenly across two registers (docs/hardware/eu-hardware.md §1.5, §6.7);
/// before Gen8 it stays within one register, since a two-register destination there needs
/// two-register sources read at the same offset (§6.7), which a strided or misaligned
/// operand does not give.
fn copy_in_pieces(p: &Program, like: &Inst, dst: Reg, src: Reg) -> Vec<Inst> {
    let n = like.exec_size as u32;
    let one_reg_dst = p.device.info().verx10 < 80;
    let bytes = |r: &Reg, first: u32, count: u32| {
        let (start, stride) = (super::reg_offset(r), super::byte_stride(r));
        (first..first + count).map(move |c| start + c * stride)
    };
    let regs = |r: &Reg, first: u32, count: u32| {
        let start = bytes(r, first, count).min().unwrap_or(0);
        let last = bytes(r, first, count).max().unwrap_or(0) + r.ty.size() - 1;
        last / REG_SIZE - start / REG_SIZE + 1
    };
    let legal = |piece: u32| {
        (0..n / piece).all(|k| {
            let first = k * piece;
            let start = super::reg_offset(&dst) + first * super::byte_stride(&dst);
            let low = bytes(&dst, first, piece)
                .filter(|&b| b / REG_SIZE == start / REG_SIZE)
                .count() as u32;
            let dst_regs = regs(&dst, first, piece);
            dst_regs <= 2
                && regs(&src, first, piece) <= 2
                && (dst_regs == 1 || (!one_reg_dst && 2 * low == piece))
        })
    };
    let mut piece = n;
    while piece > 1 && !legal(piece) {
        piece /= 2;
    }
    (0..n / piece)
        .map(|k| {
            let at = |r: Reg| r.byte_offset(k * piece * super::byte_stride(&r));
            Inst {
                exec_size: piece as u8,
                group: like.group + (k * piece) as u8,
                nomask: like.nomask,
                predicate: like.predicate,
                flag_subreg: like.flag_subreg,
                ..Inst::new(Opcode::Mov, piece as u8, at(dst), vec![at(src)])
            }
        })
        .collect()
}

fn lower_one(p: &mut Program, inst: Inst, enc: u32, base: Reg) -> Vec<Inst> {
    let read = inst.op == Opcode::ScratchRead;
    let offset = inst.imm_src(if read { 0 } else { 1 }).unwrap_or(0) as u32;
    let data = if read { inst.dst } else { inst.srcs[0] };
    let n = inst.exec_size as u32;
    let bytes = n * data.ty.size();
    let regs = bytes.div_ceil(REG_SIZE) as u8;
    let (hdr, mut out) = header(p, offset, enc, base);
    let per_channel_dwords = data.ty.size() == 4;
    let masked = |i: Inst| Inst {
        group: inst.group,
        nomask: inst.nomask,
        predicate: inst.predicate,
        flag_subreg: inst.flag_subreg,
        ..i
    };
    let ud = |r: Reg| r.retype(Type::int_of_size(data.ty.size(), false));
    let desc_read = MsgDesc {
        kind: MsgKind::ScratchRead,
        mlen: 1,
        ex_mlen: 0,
        rlen: regs,
        header: true,
    };
    let desc_write = MsgDesc {
        kind: MsgKind::ScratchWrite,
        mlen: 1,
        ex_mlen: regs,
        rlen: 0,
        header: true,
    };
    let send = |dst: Reg, payload2: Reg, desc: MsgDesc| {
        let mut s = Inst::new(Opcode::Send, inst.exec_size, dst, vec![hdr, payload2]);
        s.desc = Some(desc);
        s
    };
    if read {
        if per_channel_dwords && sendable(&data) {
            out.push(masked(send(ud(data), Reg::null(Type::UD), desc_read)));
        } else {
            let t = super::temp(p, ud(data).ty, bytes);
            out.push(nomask(send(t, Reg::null(Type::UD), desc_read)));
            out.extend(copy_in_pieces(p, &inst, ud(data), t));
        }
    } else if per_channel_dwords && sendable(&data) {
        out.push(masked(send(Reg::null(Type::UD), ud(data), desc_write)));
    } else {
        let t = super::temp(p, ud(data).ty, bytes);
        out.push(nomask(send(t, Reg::null(Type::UD), desc_read)));
        out.extend(copy_in_pieces(p, &inst, t, ud(data)));
        let (hdr2, more) = header(p, offset, enc, base);
        out.extend(more);
        let mut s = Inst::new(
            Opcode::Send,
            inst.exec_size,
            Reg::null(Type::UD),
            vec![hdr2, t],
        );
        s.desc = Some(desc_write);
        out.push(nomask(s));
    }
    out
}

/// Replaces every scratch read/write with header + SEND; the base is computed once at the
/// start of the program. Returns whether anything changed.
pub fn lower_scratch_ops(p: &mut Program, opts: &CompileOptions) -> bool {
    if !p
        .insts()
        .any(|i| matches!(i.op, Opcode::ScratchRead | Opcode::ScratchWrite))
    {
        return false;
    }
    crate::pass::note("scratch-messages");
    crate::pass::note(match p.device.info().scratch_encoding {
        crate::device::ScratchEncoding::Pow2From1K => "scratch-size-pow2-1k",
        crate::device::ScratchEncoding::Pow2From2K => "scratch-size-pow2-2k",
        crate::device::ScratchEncoding::LinearKb => "scratch-size-linear-kb",
    });
    let enc = encoding(p, opts);
    let (base, mut out) = base_setup(p, opts);
    for inst in p.take_insts() {
        if matches!(inst.op, Opcode::ScratchRead | Opcode::ScratchWrite) {
            out.extend(lower_one(p, inst, enc, base));
        } else {
            out.push(inst);
        }
    }
    p.set_insts(out);
    true
}
