//! Operand rules: writable destination files, declared registers, reads and writes inside
//! their VGRF/ATTR/UNIFORM/GRF bounds (Mesa's original two `validate()` invariants, extended
//! to every file).

use super::{Report, Rule};
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::program::Program;
use crate::reg::{Arf, REG_SIZE, Reg, RegKind};

/// Bytes `[start, end)` an operand touches: the exact channel footprint for ALU operands,
/// the whole payload for message operands and LOAD_PAYLOAD headers.
fn extent(inst: &Inst, reg: &Reg, payload_bytes: Option<u32>) -> Option<(u64, u64)> {
    let (start, end) = reg.footprint(inst.exec_size as u32)?;
    Some(match payload_bytes {
        Some(size) => (start, start + size as u64),
        None => (start, end),
    })
}

/// Whether operand sizes come from the message / payload rather than the channel region.
fn payload_sized(inst: &Inst, src: Option<usize>) -> bool {
    match (inst.op, src) {
        (Opcode::LoadPayload, Some(i)) => i < inst.header_size as usize,
        (Opcode::LoadPayload, None) => true,
        // One scalar written, whatever region a fixed destination carries.
        (op, None) if op.is_subgroup() => true,
        (op, _) => op.is_message(),
    }
}

fn check_bounds(
    p: &Program,
    ip: usize,
    inst: &Inst,
    reg: &Reg,
    is_dst: bool,
    size: Option<u32>,
    r: &mut Report,
) {
    if let RegKind::Indirect { addr, region, .. } = reg.kind {
        check_address_subregisters(ip, inst, addr, region, r);
        return;
    }
    let Some((start, end)) = extent(inst, reg, size) else {
        return;
    };
    let what = if is_dst { "writes" } else { "reads" };
    match reg.kind {
        RegKind::Vgrf { nr, .. } => {
            let Some(&regs) = p.vgrf_sizes.get(nr as usize) else {
                r.add(
                    Rule::VgrfUndeclared,
                    Some(ip),
                    format!("v{nr} is not declared"),
                );
                return;
            };
            if end > regs as u64 * REG_SIZE as u64 {
                let rule = if is_dst {
                    Rule::VgrfWriteOutOfBounds
                } else {
                    Rule::VgrfReadOutOfBounds
                };
                r.add(
                    rule,
                    Some(ip),
                    format!(
                        "{what} bytes {start}..{end} of v{nr}, which has {} bytes ({regs} registers)",
                        regs as u64 * REG_SIZE as u64
                    ),
                );
            }
        }
        RegKind::Attr { nr, .. } => {
            let limit = p
                .attr_sizes
                .get(nr as usize)
                .map(|s| *s as u64 * REG_SIZE as u64);
            if limit.is_none_or(|l| end > l) {
                r.add(
                    Rule::AttrOutOfBounds,
                    Some(ip),
                    format!(
                        "{what} bytes {start}..{end} of attr{nr}, which has {} bytes",
                        limit.unwrap_or(0)
                    ),
                );
            }
        }
        RegKind::Uniform { .. } if end > p.uniforms as u64 * 4 => {
            r.add(
                Rule::UniformOutOfBounds,
                Some(ip),
                format!(
                    "{what} push-constant bytes {start}..{end} of {}",
                    p.uniforms as u64 * 4
                ),
            );
        }
        RegKind::Fixed { .. } => {
            let info = p.device.info();
            let limit = (info.grf_count * info.grf_size) as u64;
            if end > limit {
                r.add(
                    Rule::GrfOutOfRange,
                    Some(ip),
                    format!(
                        "{what} GRF bytes {start}..{end}; {} has {} GRFs",
                        info.name, info.grf_count
                    ),
                );
            }
        }
        RegKind::Arf { file, nr, .. } => {
            let info = p.device.info();
            // Bytes each ARF file has: flags 2 per subregister, acc0+acc1, one register else.
            let (bytes, name) = match file {
                Arf::Flag => (info.flag_subregs as u64 * 2, "flag registers"),
                Arf::Acc => (2 * REG_SIZE as u64, "accumulators acc0/acc1"),
                _ => (REG_SIZE as u64, "one register"),
            };
            let per_reg = match file {
                Arf::Flag => 4,
                _ => REG_SIZE as u64,
            };
            let base = nr as u64 * per_reg;
            if base + end > bytes {
                r.add(
                    Rule::ArfOutOfRange,
                    Some(ip),
                    format!(
                        "{what} {}{nr} bytes {}..{}; {} has {bytes} bytes of {name}",
                        file.prefix(),
                        base + start,
                        base + end,
                        info.name
                    ),
                );
            }
        }
        _ => {}
    }
}

/// Address subregisters in `a0` (16-bit each, docs/hardware/eu-hardware.md §1.4).
const ADDRESS_SUBREGISTERS: u32 = 16;

/// A register-indirect operand's GRF bytes are known only at run time (the emulator checks
/// them), but the address subregisters it takes are static: a0.N, or one per row (Vx1) or per
/// channel (VxH) from a0.N on (docs/hardware/eu-hardware.md §1.4). All must exist.
fn check_address_subregisters(
    ip: usize,
    inst: &Inst,
    addr: u8,
    region: crate::reg::Region,
    r: &mut Report,
) {
    let n = (inst.exec_size as u32).max(1);
    let last = if region.is_one_dimensional() {
        addr as u32 + n.div_ceil(region.width.max(1) as u32) - 1
    } else {
        addr as u32
    };
    if last >= ADDRESS_SUBREGISTERS {
        r.add(
            Rule::ArfOutOfRange,
            Some(ip),
            format!(
                "indirect operand needs address subregisters up to a0.{last}; a0 has a0.0..a0.15"
            ),
        );
    }
}

pub(super) fn check(p: &Program, ip: usize, inst: &Inst, r: &mut Report) {
    let dst = &inst.dst;
    match dst.kind {
        RegKind::Imm(_) | RegKind::Uniform { .. } | RegKind::Attr { .. } => r.add(
            Rule::DstFile,
            Some(ip),
            "the destination must be a register that can be written (VGRF, GRF, ARF or null)",
        ),
        _ if dst.negate || dst.abs => r.add(
            Rule::DstFile,
            Some(ip),
            "the destination cannot carry source modifiers",
        ),
        RegKind::Vgrf { stride: 0, nr, .. } if inst.exec_size > 1 && !inst.op.is_subgroup() => r
            .add(
                Rule::VgrfDstStrideZero,
                Some(ip),
                format!("{}-wide write to v{nr} with stride 0", inst.exec_size),
            ),
        _ => {}
    }
    if !inst.op.is_control_flow() {
        let size = payload_sized(inst, None).then(|| inst.size_written());
        check_bounds(p, ip, inst, dst, true, size, r);
    }
    for (i, src) in inst.srcs.iter().enumerate() {
        let size = payload_sized(inst, Some(i)).then(|| inst.size_read(i));
        check_bounds(p, ip, inst, src, false, size, r);
    }
}
