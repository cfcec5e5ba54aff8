//! A program prepared for execution: operands resolved, control-flow targets matched,
//! hardware-restriction violations attached (strict mode).

use super::layout::Layout;
use super::operand::{Operand, OperandError, resolve, resolve_dst};
use compiler::types::Type;
use compiler::{Inst, Opcode, Program};
use rustc_hash::FxHashMap;

/// Control-flow targets of one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CfTargets {
    /// IF: its ELSE, if any.
    pub else_ip: Option<usize>,
    /// IF/ELSE: the ENDIF.
    pub endif_ip: usize,
    /// WHILE/BREAK/CONTINUE: the loop's DO.
    pub do_ip: usize,
    /// DO/BREAK/CONTINUE: the loop's WHILE.
    pub while_ip: usize,
}

/// A hardware restriction an instruction breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restriction {
    pub rule: &'static str,
    pub message: &'static str,
}

/// One instruction ready to execute.
#[derive(Clone, Debug)]
pub struct DInst<'p> {
    pub inst: &'p Inst,
    pub dst: Operand,
    pub srcs: Vec<Operand>,
    pub cf: CfTargets,
    /// Strict mode: restrictions broken; the destination becomes undefined.
    pub violations: Vec<Restriction>,
    /// The fast-path kernel, for the common 32-bit ALU shapes.
    pub kernel: Option<super::fast::Kernel>,
    /// Hardware mode before Gen8, a non-NoMask SIMD32 instruction: the second half of the
    /// channels uses the low 16 execution-mask bits again (docs/hardware/brw-backend.md §1.7, "Pre-gen8: a
    /// SIMD32 instruction applies the low 16 mask bits to both halves"). Logical IR keeps
    /// per-channel semantics: its SIMD32 instructions are split before they reach hardware.
    pub low_mask_halves: bool,
    /// Align16 instructions: writemask, compressed halves and unconfirmed effects
    /// (align16.rs); `None` in Align1.
    pub align16: Option<super::align16::Plan>,
}

/// A program ready to execute (borrowing the program's instructions).
#[derive(Clone, Debug)]
pub struct Decoded<'p> {
    pub insts: Vec<DInst<'p>>,
    pub layout: Layout,
    /// Every HALT_TARGET, in program order: halted channels wake at the next one.
    pub halt_targets: Vec<usize>,
}

impl Decoded<'_> {
    /// The first HALT_TARGET at or after `ip`.
    pub fn next_halt_target(&self, ip: usize) -> Option<usize> {
        self.halt_targets.iter().copied().find(|&h| h >= ip)
    }
}

/// Why a program cannot be executed at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub ip: Option<usize>,
    pub message: String,
}

/// Largest register space a thread may have (a guard against absurd declarations).
pub const MAX_SPACE_BYTES: usize = 64 << 20;

fn match_control_flow(insts: &[&Inst]) -> Result<(Vec<CfTargets>, Vec<usize>), DecodeError> {
    let mut targets = vec![CfTargets::default(); insts.len()];
    let mut ifs: Vec<usize> = vec![];
    let mut loops: Vec<(usize, Vec<usize>)> = vec![];
    let mut halt_targets = vec![];
    let unbalanced = |ip: usize, what: &str| DecodeError {
        ip: Some(ip),
        message: format!("unbalanced control flow: {what}"),
    };
    for (ip, inst) in insts.iter().enumerate() {
        match inst.op {
            Opcode::If => ifs.push(ip),
            Opcode::Else => {
                let &if_ip = ifs
                    .last()
                    .ok_or_else(|| unbalanced(ip, "ELSE without IF"))?;
                if targets[if_ip].else_ip.is_some() {
                    return Err(unbalanced(ip, "second ELSE"));
                }
                targets[if_ip].else_ip = Some(ip);
            }
            Opcode::Endif => {
                let if_ip = ifs
                    .pop()
                    .ok_or_else(|| unbalanced(ip, "ENDIF without IF"))?;
                targets[if_ip].endif_ip = ip;
                if let Some(e) = targets[if_ip].else_ip {
                    targets[e].endif_ip = ip;
                }
            }
            Opcode::Do => loops.push((ip, vec![])),
            Opcode::Break | Opcode::Continue => {
                let top = loops
                    .last_mut()
                    .ok_or_else(|| unbalanced(ip, "BREAK/CONTINUE outside a loop"))?;
                top.1.push(ip);
            }
            Opcode::While => {
                let (do_ip, members) = loops
                    .pop()
                    .ok_or_else(|| unbalanced(ip, "WHILE without DO"))?;
                for m in members.into_iter().chain([do_ip, ip]) {
                    targets[m].do_ip = do_ip;
                    targets[m].while_ip = ip;
                }
            }
            Opcode::HaltTarget => {
                halt_targets.push(ip);
            }
            _ => {}
        }
    }
    if let Some(&ip) = ifs.last() {
        return Err(unbalanced(ip, "IF without ENDIF"));
    }
    if let Some((ip, _)) = loops.last() {
        return Err(unbalanced(*ip, "DO without WHILE"));
    }
    Ok((targets, halt_targets))
}

/// Prepares `p` for execution. In strict mode every instruction is checked against the
/// device's hardware restrictions and virtual registers are a fault.
/// `hardware_mul`: integer multiplies take the hardware's precision (see `RunConfig`).
pub fn decode(p: &Program, strict: bool, hardware_mul: bool) -> Result<Decoded<'_>, DecodeError> {
    let layout = Layout::new(p);
    if layout.total > MAX_SPACE_BYTES {
        return Err(DecodeError {
            ip: None,
            message: format!(
                "register space of {} bytes is too large to emulate",
                layout.total
            ),
        });
    }
    if layout.payload_regs > (p.device.info().grf_count as usize) {
        return Err(DecodeError {
            ip: None,
            message: format!(
                "the thread payload needs {} GRFs; {} has {}",
                layout.payload_regs,
                p.device,
                p.device.info().grf_count
            ),
        });
    }
    let insts: Vec<&Inst> = p.insts().collect();
    let (targets, halt_targets) = match_control_flow(&insts)?;
    let checker = strict.then(|| crate::strict::Checker::new(p.device));
    let mut out: Vec<DInst> = Vec::with_capacity(insts.len());
    // Decoding an instruction depends only on the instruction, the layout and the mode
    // (the restriction rules are functions of the instruction and device alone), and
    // lowered code repeats instructions a lot (scratch headers, spills and fills): a
    // repeat copies its first decoding, with its own control-flow targets. (FxHash: the
    // derived `Hash` feeds many small fields, which SipHash makes cost more than the
    // decoding saved; the keys are our own programs, so collision resistance is moot.)
    let mut first_of: FxHashMap<&Inst, usize> =
        FxHashMap::with_capacity_and_hasher(insts.len(), Default::default());
    for (ip, (inst, cf)) in insts.into_iter().zip(targets).enumerate() {
        if let Some(&first) = first_of.get(inst) {
            let d = DInst {
                cf,
                ..out[first].clone()
            };
            out.push(d);
            continue;
        }
        first_of.insert(inst, ip);
        let exec = inst.exec_size as u32;
        let fault = |e: OperandError| DecodeError {
            ip: Some(ip),
            message: match e {
                OperandError::VirtualInHardware(m)
                | OperandError::OutOfSpace(m)
                | OperandError::NotModelled(m) => m,
            },
        };
        if !(1..=32).contains(&exec) {
            return Err(DecodeError {
                ip: Some(ip),
                message: format!("execution size {exec} cannot be executed"),
            });
        }
        let group = inst.group as u32;
        // A hardware SEND's operands are register ranges (mlen, ex_mlen, rlen registers
        // from the first byte), not regions its channels walk: a SIMD16 header in g127 is
        // one register, not g127..g128.
        let walk = if inst.op == compiler::Opcode::Send {
            1
        } else {
            exec
        };
        // FIND_LIVE_CHANNEL and BROADCAST write one scalar, whatever region a fixed
        // destination carries.
        let dst_walk = if inst.op.is_subgroup() { 1 } else { walk };
        let info = p.device.info();
        let align16 = (inst.is_align16() && !inst.op.is_control_flow())
            .then(|| super::align16::plan(inst, info));
        let (dst, srcs) = if align16.is_some() {
            let dst =
                super::align16::resolve_dst(&inst.dst, inst, &layout, strict).map_err(fault)?;
            let srcs = inst
                .srcs
                .iter()
                .map(|s| super::align16::resolve_src(s, inst, info, &layout, strict))
                .collect::<Result<Vec<_>, _>>()
                .map_err(fault)?;
            (dst, srcs)
        } else {
            let dst = resolve_dst(&inst.dst, dst_walk, group, &layout, strict).map_err(fault)?;
            let header = header_sources(inst);
            let srcs = inst
                .srcs
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    if i < header {
                        resolve(&s.retype(Type::UD), 8, 0, &layout, strict)
                    } else {
                        resolve(s, walk, group, &layout, strict)
                    }
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(fault)?;
            (dst, srcs)
        };
        let (dst, srcs) = super::dword_half::retarget(inst.op, dst, srcs);
        let violations = checker.as_ref().map_or(vec![], |c| c.check(inst));
        let low_mask_halves = strict && exec == 32 && !inst.nomask && p.device.info().verx10 < 80;
        let mut d = DInst {
            inst,
            dst,
            srcs,
            cf,
            violations,
            kernel: None,
            low_mask_halves,
            align16,
        };
        if align16.is_none() {
            d.kernel = super::fast::classify(&d, hardware_mul, info.has_integer_dword_mul);
        }
        out.push(d);
    }
    Ok(Decoded {
        insts: out,
        layout,
        halt_targets,
    })
}

/// How many of a LOAD_PAYLOAD's sources are header registers. Each is read as Mesa's
/// `lower_load_payload` copies it (docs/hardware/brw-backend.md §7.3): eight UD channels of
/// the operand, its region and all, under NoMask, whatever the instruction's own width, so a
/// uniform or a two-dimensional header source means what the lowering's MOV makes of it.
fn header_sources(inst: &Inst) -> usize {
    if inst.op == Opcode::LoadPayload {
        inst.header_size as usize
    } else {
        0
    }
}
