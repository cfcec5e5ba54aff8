//! Reduction steps: each turns a program into smaller variants, coarse ones first, in a
//! fixed order (so a reduction is deterministic). Variants may be invalid; the validator
//! and the interestingness test throw those away.

use compiler::inputs::{Inputs, Value};
use compiler::inst::{CondMod, Inst, MsgKind, Predicate};
use compiler::reg::{Reg, RegKind, Swizzle};
use compiler::types::Type;
use compiler::{Device, Opcode, Program};

/// A named family of variants.
pub struct Step {
    pub name: &'static str,
    pub variants: fn(&Program) -> Vec<Program>,
    /// Variants count only if the culprit pass makes the same kinds of rewrite on them as
    /// on the program (`compiler::pass::note`; device parameters aside): a move to
    /// another device must not slip from one bug to another that fails the same way there.
    /// (Other passes may differ: SIMD widths and region rules are the device's own.)
    pub same_rewrites: bool,
}

/// Every step, from coarse to fine.
pub const STEPS: [Step; 16] = [
    Step {
        name: "device",
        variants: earlier_devices,
        same_rewrites: true,
    },
    Step {
        name: "threads",
        variants: fewer_threads,
        same_rewrites: false,
    },
    Step {
        name: "control-flow",
        variants: simpler_control_flow,
        same_rewrites: false,
    },
    Step {
        name: "message-components",
        variants: fewer_components,
        same_rewrites: false,
    },
    Step {
        name: "logical-rt-write",
        variants: logical_rt_writes,
        same_rewrites: false,
    },
    Step {
        name: "instructions",
        variants: fewer_instructions,
        same_rewrites: false,
    },
    Step {
        name: "forward",
        variants: forwarded_sources,
        same_rewrites: false,
    },
    Step {
        name: "carry-read",
        variants: carried_reads,
        same_rewrites: false,
    },
    Step {
        name: "fold-compare",
        variants: folded_compares,
        same_rewrites: false,
    },
    Step {
        name: "dispatch",
        variants: narrower_dispatch,
        same_rewrites: false,
    },
    Step {
        name: "one-vertex",
        variants: one_vertex,
        same_rewrites: false,
    },
    Step {
        name: "operands",
        variants: simpler_operands,
        same_rewrites: false,
    },
    Step {
        name: "inputs-as-operands",
        variants: inputs_as_operands,
        same_rewrites: false,
    },
    Step {
        name: "controls",
        variants: fewer_controls,
        same_rewrites: false,
    },
    Step {
        name: "declarations",
        variants: fewer_declarations,
        same_rewrites: false,
    },
    Step {
        name: "inputs",
        variants: simpler_inputs,
        same_rewrites: false,
    },
];

/// A size that every accepted step makes strictly smaller, so reduction terminates:
/// instructions weigh most, then threads and dispatch width, then operands, controls,
/// declarations and input values.
pub fn size(p: &Program) -> u64 {
    let insts = p.inst_count() as u64;
    let mut fine = 0u64;
    for i in p.insts() {
        fine += i.srcs.iter().map(operand_weight).sum::<u64>();
        fine += 2 * i
            .srcs
            .iter()
            .filter(|s| is_vec4_uniform_double(i, s))
            .count() as u64;
        fine += operand_weight(&i.dst);
        fine += i.predicate.is_some() as u64
            + i.cmod.is_some() as u64
            + i.saturate as u64
            + i.nomask as u64
            + (i.flag_subreg != 0) as u64
            + i.exec_size as u64 / 8;
    }
    let decls = (p.vgrf_sizes.len() + p.attr_sizes.len()) as u64
        + p.uniforms as u64
        + (p.scratch_size != 0) as u64;
    let inputs = p.inputs.as_ref().map_or(0, input_weight);
    insts * 1_000_000
        + (p.threads as u64 - 1) * 100_000
        + (p.dispatch_width as u64 / 8) * 10_000
        + fine * 50
        + decls * 10
        + inputs
        + device_rank(p.device) as u64
}

/// The order the reducer prefers devices in: the common big-core parts first, then the
/// parts with extra restrictions, the oldest last. A reduction moves to the first device
/// that still fails the same way, so reports of one bug from many devices end on one.
const DEVICE_PREFERENCE: [Device; 12] = [
    Device::Skl,
    Device::Bdw,
    Device::Icl,
    Device::Tgl,
    Device::Hsw,
    Device::Ivb,
    Device::Dg2,
    Device::Chv,
    Device::Bxt,
    Device::Glk,
    Device::Byt,
    Device::G45,
];

fn device_rank(d: Device) -> usize {
    DEVICE_PREFERENCE
        .iter()
        .position(|&x| x == d)
        .unwrap_or(DEVICE_PREFERENCE.len())
}

/// The same program on each device preferred to its own, most preferred first.
fn earlier_devices(p: &Program) -> Vec<Program> {
    DEVICE_PREFERENCE[..device_rank(p.device)]
        .iter()
        .map(|&d| {
            let mut q = p.clone();
            q.device = d;
            q
        })
        .collect()
}

/// The bits of 1 in type `ty`.
fn one(ty: Type) -> u64 {
    match ty {
        Type::F => 1.0f32.to_bits() as u64,
        Type::DF => 1.0f64.to_bits(),
        Type::HF => 0x3c00,
        _ => 1,
    }
}

/// 0 is simpler than 1, which is simpler than anything else.
fn bits_weight(bits: u64, ty: Type) -> u64 {
    match bits {
        0 => 0,
        b if b == one(ty) => 1,
        _ => 2,
    }
}

fn operand_weight(r: &Reg) -> u64 {
    let kind = match r.kind {
        RegKind::Null => 0,
        RegKind::Imm(bits) => bits_weight(bits, r.ty),
        RegKind::Uniform { .. } => 2,
        // An input is simpler than a computed value (see `inputs_as_operands`).
        RegKind::Attr { .. } => 3,
        _ => 4,
    };
    kind + r.negate as u64 + r.abs as u64 + (r.swizzle != Swizzle::XYZW) as u64
}

/// A 64-bit uniform read by an Align16 instruction: a uniform dvec4 is the vec4 operand
/// that takes the compiler most work (`scalarize_df` splits a read of its z/w into
/// components, each read with VertStride 0 from a register half), so it weighs more than
/// an input attribute (below a computed value, above an attribute), and the reducer trades
/// it for one when the failure allows.
fn is_vec4_uniform_double(inst: &Inst, r: &Reg) -> bool {
    inst.is_align16() && matches!(r.kind, RegKind::Uniform { .. }) && r.ty.size() == 8
}

fn value_weight(v: &Value) -> u64 {
    bits_weight(v.bits, v.ty)
}

fn input_weight(i: &Inputs) -> u64 {
    let values = i
        .uniforms
        .iter()
        .chain(i.buffers.values().flatten())
        .chain(i.attrs.values().flatten());
    values.map(value_weight).sum::<u64>()
        + i.buffers.len() as u64
        + i.attrs.len() as u64
        + i.dispatch_masks.len() as u64
}

fn with_insts(p: &Program, insts: Vec<Inst>) -> Program {
    let mut q = Program {
        blocks: vec![],
        ..p.clone()
    };
    q.set_insts(insts);
    q
}

fn flat(p: &Program) -> Vec<Inst> {
    p.insts().cloned().collect()
}

/// One thread, then half as many, then one fewer.
fn fewer_threads(p: &Program) -> Vec<Program> {
    let mut counts = vec![1, p.threads / 2, p.threads.saturating_sub(1)];
    counts.retain(|&n| n >= 1 && n < p.threads);
    counts.dedup();
    counts
        .into_iter()
        .map(|n| {
            let mut q = p.clone();
            q.threads = n;
            if let Some(i) = q.inputs.as_mut() {
                i.dispatch_masks.retain(|&t, _| t < n);
                i.attrs.retain(|&(t, _), _| t < n);
            }
            q
        })
        .collect()
}

/// A structured region: an IF (with optional ELSE) or a loop, by instruction index.
enum Region {
    If {
        start: usize,
        els: Option<usize>,
        end: usize,
    },
    Loop {
        start: usize,
        end: usize,
    },
}

fn regions(insts: &[Inst]) -> Vec<Region> {
    let mut out = vec![];
    let mut stack: Vec<(Opcode, usize, Option<usize>)> = vec![];
    for (ip, i) in insts.iter().enumerate() {
        match i.op {
            Opcode::If | Opcode::Do => stack.push((i.op, ip, None)),
            Opcode::Else => {
                if let Some(top) = stack.last_mut() {
                    top.2 = Some(ip);
                }
            }
            Opcode::Endif => {
                if let Some((Opcode::If, start, els)) = stack.pop() {
                    out.push(Region::If {
                        start,
                        els,
                        end: ip,
                    });
                }
            }
            Opcode::While => {
                if let Some((Opcode::Do, start, _)) = stack.pop() {
                    out.push(Region::Loop { start, end: ip });
                }
            }
            _ => {}
        }
    }
    // Outermost (earliest start) first: removing it removes the most.
    out.sort_by_key(|r| match r {
        Region::If { start, .. } | Region::Loop { start, .. } => *start,
    });
    out
}

fn without(insts: &[Inst], drop: impl Fn(usize) -> bool) -> Vec<Inst> {
    insts
        .iter()
        .enumerate()
        .filter(|(ip, _)| !drop(*ip))
        .map(|(_, i)| i.clone())
        .collect()
}

/// Whole regions removed, or replaced by one branch / one pass through the loop body; an
/// IF's branches predicated instead (`(+f0) if; break; endif` → `(+f0) break`); an ELSE
/// dropped with its branch, or the THEN branch dropped and the IF's predicate inverted; a
/// last BREAK made the WHILE's predicate.
fn simpler_control_flow(p: &Program) -> Vec<Program> {
    let insts = flat(p);
    let mut out = vec![];
    for r in regions(&insts) {
        match r {
            Region::If { start, els, end } => {
                out.push(without(&insts, |ip| (start..=end).contains(&ip)));
                let else_at = els.unwrap_or(end);
                out.push(without(&insts, |ip| {
                    ip == start || (else_at..=end).contains(&ip)
                }));
                if let Some(e) = els {
                    out.push(without(&insts, |ip| (start..=e).contains(&ip) || ip == end));
                }
                out.extend(predicated_branches(&insts, start, els, end, true));
                out.extend(predicated_branches(&insts, start, els, end, false));
                if let Some(e) = els {
                    out.push(without(&insts, |ip| (e..end).contains(&ip)));
                    if let Some(pred) = insts[start].predicate {
                        let mut v = without(&insts, |ip| (start + 1..=e).contains(&ip));
                        v[start].predicate = Some(Predicate {
                            inverse: !pred.inverse,
                            ..pred
                        });
                        out.push(v);
                    }
                }
            }
            Region::Loop { start, end } => {
                out.push(without(&insts, |ip| (start..=end).contains(&ip)));
                let depth_zero_exits = loop_exits(&insts, start, end);
                out.push(without(&insts, |ip| {
                    ip == start || ip == end || depth_zero_exits.contains(&ip)
                }));
                out.extend(exit_at_while(&insts, end));
            }
        }
    }
    out.into_iter().map(|i| with_insts(p, i)).collect()
}

/// The IF `start..=end` without its IF, ELSE and ENDIF, each branch's instructions
/// predicated as the IF selects them (the ELSE branch by the inverse predicate) — all of
/// them, or (`all` false) only the jumps (BREAK, CONTINUE, HALT), the rest running
/// unconditionally: `(+f0) if; mov z, x; break; endif` → `mov z, x; (+f0) break` keeps z a
/// full definition, which a liveness bug may need. None if the IF has no predicate or a
/// branch holds control flow or predicated instructions.
fn predicated_branches(
    insts: &[Inst],
    start: usize,
    els: Option<usize>,
    end: usize,
    all: bool,
) -> Option<Vec<Inst>> {
    let pred = insts[start].predicate?;
    let flag = insts[start].flag_subreg;
    let body = |ip: usize| ip > start && ip < end && Some(ip) != els;
    let plain = (start + 1..end)
        .filter(|&ip| body(ip))
        .all(|ip| insts[ip].predicate.is_none() && !is_structural(insts[ip].op));
    if !plain {
        return None;
    }
    let jump = |op: Opcode| matches!(op, Opcode::Break | Opcode::Continue | Opcode::Halt);
    let mut v = insts.to_vec();
    for (ip, inst) in v.iter_mut().enumerate().filter(|(ip, _)| body(*ip)) {
        if !all && !jump(inst.op) {
            continue;
        }
        let in_else = els.is_some_and(|e| ip > e);
        inst.predicate = Some(Predicate {
            inverse: pred.inverse != in_else,
            ..pred
        });
        inst.flag_subreg = flag;
    }
    Some(without(&v, |ip| {
        ip == start || ip == end || Some(ip) == els
    }))
}

/// The loop ending at `end` with a predicated BREAK right before its unpredicated WHILE
/// made to leave at the WHILE instead: `(+f0) break; while` → `(-f0) while` (the channels
/// that would break stop looping there), one instruction fewer.
fn exit_at_while(insts: &[Inst], end: usize) -> Option<Vec<Inst>> {
    let last = end.checked_sub(1).map(|ip| &insts[ip])?;
    let pred = last.predicate?;
    if last.op != Opcode::Break || insts[end].predicate.is_some() {
        return None;
    }
    let mut v = insts.to_vec();
    v[end].predicate = Some(Predicate {
        inverse: !pred.inverse,
        ..pred
    });
    v[end].flag_subreg = last.flag_subreg;
    v.remove(end - 1);
    Some(v)
}

/// BREAKs and CONTINUEs of the loop `start..=end` itself (not of loops nested in it).
fn loop_exits(insts: &[Inst], start: usize, end: usize) -> Vec<usize> {
    let mut depth = 0;
    let mut out = vec![];
    for (ip, i) in insts.iter().enumerate().take(end).skip(start + 1) {
        match i.op {
            Opcode::Do => depth += 1,
            Opcode::While => depth -= 1,
            Opcode::Break | Opcode::Continue if depth == 0 => out.push(ip),
            _ => {}
        }
    }
    out
}

fn is_structural(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::If | Opcode::Else | Opcode::Endif | Opcode::Do | Opcode::While
    )
}

/// Delta debugging over the instruction list: chunks of half the removable instructions,
/// then quarters, … down to single instructions.
fn fewer_instructions(p: &Program) -> Vec<Program> {
    let insts = flat(p);
    let removable: Vec<usize> = (0..insts.len())
        .filter(|&ip| !is_structural(insts[ip].op))
        .collect();
    let mut out = vec![];
    let mut chunk = removable.len().div_ceil(2).max(1);
    loop {
        for piece in removable.chunks(chunk) {
            out.push(without(&insts, |ip| piece.contains(&ip)));
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    out.into_iter().map(|i| with_insts(p, i)).collect()
}

/// An instruction removed and the reads of its result up to the next write of that VGRF
/// made to read one of its sources instead (`add v1, v0, 1; xor v2, v1, u0` →
/// `xor v2, v0, u0`): the step between an input and the instruction the bug needs goes,
/// which removing either alone cannot do when the other reads an unwritten value. Only
/// reads of exactly the destination's region, and sources of the same element size.
fn forwarded_sources(p: &Program) -> Vec<Program> {
    let insts = flat(p);
    let mut out = vec![];
    for (ip, inst) in insts.iter().enumerate() {
        let RegKind::Vgrf { nr, .. } = inst.dst.kind else {
            continue;
        };
        if is_structural(inst.op) || inst.desc.is_some() || inst.op == Opcode::LoadPayload {
            continue;
        }
        let writes_nr = |i: &Inst| matches!(i.dst.kind, RegKind::Vgrf { nr: n, .. } if n == nr);
        let until = (ip + 1..insts.len())
            .find(|&k| writes_nr(&insts[k]))
            .map_or(insts.len(), |k| k + 1);
        let reads: Vec<(usize, usize)> = (ip + 1..until)
            .flat_map(|k| {
                insts[k]
                    .srcs
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.kind == inst.dst.kind)
                    .map(move |(j, _)| (k, j))
            })
            .collect();
        if reads.is_empty() {
            continue;
        }
        for src in &inst.srcs {
            let forwardable = matches!(
                src.kind,
                RegKind::Vgrf { .. }
                    | RegKind::Attr { .. }
                    | RegKind::Uniform { .. }
                    | RegKind::Imm(_)
            ) && src.kind != inst.dst.kind;
            let fits = reads
                .iter()
                .all(|&(k, j)| insts[k].srcs[j].ty.size() == src.ty.size());
            if !forwardable || !fits {
                continue;
            }
            let mut v = insts.clone();
            for &(k, j) in &reads {
                let read = &mut v[k].srcs[j];
                read.kind = src.kind;
                read.negate ^= src.negate;
                read.abs |= src.abs;
            }
            v.remove(ip);
            out.push(with_insts(p, v));
        }
    }
    out
}

/// An instruction removed and one of its register sources read instead by the next
/// instruction, in place of an immediate of the same element size (`xor v9, v9, v4; xor
/// v10, 0, v5` → `xor v10, v4, v5`). The register is still read where it was, one
/// instruction later, so live ranges keep their shape: a failure that depends on which
/// register the allocator picks (or on what it spills) survives the removal, where
/// removing the read alone ends a range early and moves every allocation after it.
fn carried_reads(p: &Program) -> Vec<Program> {
    let insts = flat(p);
    let alu = |i: &Inst| {
        !is_structural(i.op)
            && !i.op.is_control_flow()
            && !i.op.is_message()
            && i.desc.is_none()
            && i.op != Opcode::LoadPayload
    };
    let mut out = vec![];
    for ip in 0..insts.len() {
        let inst = &insts[ip];
        if !alu(inst) {
            continue;
        }
        let regs = inst
            .srcs
            .iter()
            .filter(|r| matches!(r.kind, RegKind::Vgrf { .. }));
        for src in regs {
            for to in (ip + 1..insts.len()).take(CARRY_WINDOW) {
                let next = &insts[to];
                if !alu(next) {
                    break;
                }
                for (k, slot) in next.srcs.iter().enumerate() {
                    // An immediate, or a read of the instruction's own destination (which
                    // it writes anyway, so that value is live there regardless).
                    let free = slot.is_imm() || slot.kind == next.dst.kind;
                    if !free || slot.ty.size() != src.ty.size() {
                        continue;
                    }
                    let mut v = insts.clone();
                    v[to].srcs[k] = src.retype(slot.ty);
                    v.remove(ip);
                    out.push(with_insts(p, v));
                }
            }
        }
    }
    out
}

/// How many following instructions a read may be carried into.
const CARRY_WINDOW: usize = 3;

/// A compare that only sets a flag (`cmp.l.f1.1 null, a, b`) removed, its conditional
/// modifier (or the opposite one) and flag moved onto an earlier instruction that sets no
/// flag, which then compares its own result with zero (`mov v0, 0.0; …; cmp.l.f1.1 null,
/// 0, 0` → `mov.l.f1.1 v0, 0.0`). What the flag is needed for is often only "false for
/// every channel" or "differs between channels", which many results give; the compare's
/// own instruction then goes.
fn folded_compares(p: &Program) -> Vec<Program> {
    let insts = flat(p);
    let mut out = vec![];
    for (ip, cmp) in insts.iter().enumerate() {
        let flag_only = matches!(cmp.op, Opcode::Cmp) && cmp.dst.is_null() && cmp.cmod.is_some();
        if !flag_only || cmp.predicate.is_some() {
            continue;
        }
        for (host, inst) in insts.iter().enumerate().take(ip) {
            let plain = inst.cmod.is_none()
                && inst.predicate.is_none()
                && inst.desc.is_none()
                && !is_structural(inst.op)
                && !inst.op.is_control_flow()
                && !inst.op.is_message()
                && matches!(inst.dst.kind, RegKind::Vgrf { .. });
            if !plain {
                continue;
            }
            for cmod in [cmp.cmod, cmp.cmod.and_then(opposite)]
                .into_iter()
                .flatten()
            {
                let mut v = insts.clone();
                v[host].cmod = Some(cmod);
                v[host].flag_subreg = cmp.flag_subreg;
                v.remove(ip);
                out.push(with_insts(p, v));
            }
        }
    }
    out
}

/// The conditional modifier true exactly where `c` is false (for ordered values).
fn opposite(c: CondMod) -> Option<CondMod> {
    Some(match c {
        CondMod::Z => CondMod::Nz,
        CondMod::Nz => CondMod::Z,
        CondMod::G => CondMod::Le,
        CondMod::Le => CondMod::G,
        CondMod::Ge => CondMod::L,
        CondMod::L => CondMod::Ge,
        _ => return None,
    })
}

/// Each register source replaced by an input attribute read with the same type and region
/// (`cmp.l null:F, v2:F, 1.0:F` → `cmp.l null:F, attr0:F, 1.0:F`): another defined value,
/// one that varies by channel, so the instructions that computed the source from inputs
/// can go (a chain of conversions the forwarding step cannot see through, as it needs
/// sources of the read's element size). A vec4 uniform dvec4 too, keeping its swizzle.
fn inputs_as_operands(p: &Program) -> Vec<Program> {
    let insts = flat(p);
    let mut out = vec![];
    for (ip, inst) in insts.iter().enumerate() {
        if inst.desc.is_some() || inst.op == Opcode::LoadPayload || inst.op.is_message() {
            continue;
        }
        for (k, src) in inst.srcs.iter().enumerate() {
            let stride = match src.kind {
                RegKind::Vgrf { stride, .. } => stride,
                _ if is_vec4_uniform_double(inst, src) => 1,
                _ => continue,
            };
            for nr in 0..p.attr_sizes.len() as u32 {
                let mut v = insts.clone();
                v[ip].srcs[k].kind = RegKind::Attr {
                    nr,
                    offset: 0,
                    stride,
                };
                out.push(with_insts(p, v));
            }
            if is_vec4_uniform_double(inst, src) {
                out.extend(uniform_as_new_attr(p, &insts, ip, k));
            }
        }
    }
    out
}

/// Source `k` of instruction `ip`, a vec4 uniform dvec4, read instead from a new input
/// attribute that holds the uniform's four values for each vertex: the same values, so the
/// failure stays, without the uniform's splitting and VertStride-0 encodings (the existing
/// attributes of a generated vec4 program hold 32-bit vectors, too small for a dvec4).
fn uniform_as_new_attr(p: &Program, insts: &[Inst], ip: usize, k: usize) -> Option<Program> {
    let src = insts[ip].srcs[k];
    let RegKind::Uniform { nr, offset } = src.kind else {
        return None;
    };
    let inputs = p.inputs.as_ref()?;
    let bytes = compiler::inputs::values_to_bytes(&inputs.uniforms);
    let start = (nr * 4 + offset) as usize;
    let dvec4: Vec<Value> = bytes
        .get(start..start + 32)?
        .chunks(8)
        .map(|c| Value::new(Type::DF, u64::from_le_bytes(c.try_into().expect("8 bytes"))))
        .collect();
    let attr = p.attr_sizes.len() as u32;
    let mut v = insts.to_vec();
    v[ip].srcs[k].kind = RegKind::Attr {
        nr: attr,
        offset: 0,
        stride: 1,
    };
    let mut q = with_insts(p, v);
    // One dvec4 per vertex: two registers.
    q.attr_sizes.push(2);
    let values: Vec<Value> = dvec4.iter().chain(&dvec4).copied().collect();
    let q_inputs = q.inputs.as_mut()?;
    for thread in 0..p.threads {
        q_inputs.attrs.insert((thread, attr), values.clone());
    }
    Some(q)
}

/// A render-target write of several colour components reduced to one of them, so the
/// instructions computing the others can go (a generated program writes four, most of
/// them constant padding).
fn fewer_components(p: &Program) -> Vec<Program> {
    let insts = flat(p);
    let mut out = vec![];
    for (ip, inst) in insts.iter().enumerate() {
        let comps = inst.message_components();
        if inst.op != Opcode::FbWriteLogical || comps <= 1 {
            continue;
        }
        for k in 0..comps {
            let mut v = insts.clone();
            v[ip].srcs[0] = inst.srcs[0].component(inst.exec_size as u32, k);
            v[ip].srcs[1] = Reg::imm(1, inst.srcs[1].ty);
            out.push(with_insts(p, v));
        }
    }
    out
}

/// A lowered render-target write (`load_payload` of the colour components, then an EOT
/// `send` of the payload) made one logical write of one of those components
/// (`fb_write_logical null, v0, 1, TARGET`): one instruction instead of two, and the
/// compiler builds the payload itself. Generated programs hold both forms.
fn logical_rt_writes(p: &Program) -> Vec<Program> {
    let insts = flat(p);
    let mut out = vec![];
    for (ip, send) in insts.iter().enumerate() {
        let Some(desc) = send.desc else { continue };
        let MsgKind::RtWrite { target } = desc.kind else {
            continue;
        };
        let Some(payload) = send
            .srcs
            .first()
            .filter(|r| matches!(r.kind, RegKind::Vgrf { .. }))
        else {
            continue;
        };
        // The last write of the payload before the SEND, if a LOAD_PAYLOAD made it.
        let Some(lp) = (0..ip)
            .rev()
            .find(|&k| insts[k].dst.kind == payload.kind)
            .filter(|&k| insts[k].op == Opcode::LoadPayload)
        else {
            continue;
        };
        let header = insts[lp].header_size as usize;
        for colour in insts[lp].srcs.iter().skip(header) {
            if colour.is_imm() || colour.is_null() {
                continue;
            }
            let mut write = Inst::new(
                Opcode::FbWriteLogical,
                send.exec_size,
                Reg::null(Type::UD),
                vec![
                    colour.retype(Type::F),
                    Reg::imm(1, Type::UD),
                    Reg::imm(u64::from(target), Type::UD),
                ],
            );
            write.group = send.group;
            write.nomask = send.nomask;
            write.predicate = send.predicate;
            write.flag_subreg = send.flag_subreg;
            write.eot = send.eot;
            let mut v = insts.clone();
            v[ip] = write;
            v.remove(lp);
            out.push(with_insts(p, v));
        }
    }
    out
}

/// Half the dispatch width: masked instructions shrink to it, those entirely beyond it go.
fn narrower_dispatch(p: &Program) -> Vec<Program> {
    if p.dispatch_width <= 8 {
        return vec![];
    }
    let width = p.dispatch_width / 2;
    let insts = flat(p)
        .into_iter()
        .filter(|i| i.nomask || i.group < width)
        .map(|mut i| {
            if !i.nomask && i.exec_size > width {
                i.exec_size = width;
            }
            i
        })
        .collect();
    let mut q = with_insts(p, insts);
    q.dispatch_width = width;
    // The channels past the new width are gone: the masks (which the emulator already cut
    // to the width) say so, or the reduced file would not parse.
    if let Some(i) = q.inputs.as_mut() {
        let all = (1u32 << width) - 1;
        i.dispatch_masks.values_mut().for_each(|m| *m &= all);
    }
    vec![q]
}

/// A vec4 instruction over both vertices (SIMD4x2, exec 8) made to run for the first
/// vertex alone (exec 4): it is then not split into per-vertex pieces, so a failure that one
/// vertex shows keys on the rule it breaks rather than on the splitting every two-vertex
/// 64-bit instruction gets (`nibctrl`).
fn one_vertex(p: &Program) -> Vec<Program> {
    let insts = flat(p);
    let mut out = vec![];
    for (ip, inst) in insts.iter().enumerate() {
        let plain = !inst.op.is_control_flow() && !inst.op.is_message() && inst.desc.is_none();
        if plain && inst.is_align16() && inst.exec_size == 8 && inst.group == 0 {
            let mut v = insts.clone();
            v[ip].exec_size = 4;
            out.push(with_insts(p, v));
        }
    }
    out
}

/// The simplest immediates of a type, simplest first.
fn simple_immediates(ty: Type) -> Vec<Reg> {
    if ty.is_float() || ty.is_int() {
        vec![Reg::imm(0, ty), Reg::imm(one(ty), ty)]
    } else {
        vec![]
    }
}

/// Each source replaced by 0 or 1 of its type or by the first uniform, or stripped of its
/// modifiers, or (Align16) read with the identity swizzle: a vec4 failure that does not
/// depend on a swizzle then keys on the rule it breaks, not on the swizzle's region rewrite.
fn simpler_operands(p: &Program) -> Vec<Program> {
    let insts = flat(p);
    let mut out = vec![];
    for (ip, inst) in insts.iter().enumerate() {
        if inst.desc.is_some() || inst.op == Opcode::LoadPayload {
            continue;
        }
        for (k, src) in inst.srcs.iter().enumerate() {
            let mut replacements = vec![];
            if src.negate || src.abs {
                replacements.push(Reg {
                    negate: false,
                    abs: false,
                    ..*src
                });
            }
            if src.swizzle != Swizzle::XYZW {
                replacements.push(Reg {
                    swizzle: Swizzle::XYZW,
                    ..*src
                });
            }
            if !src.is_imm() && !src.is_null() {
                replacements.extend(simple_immediates(src.ty));
                // A value known only at run time, for a bug that needs a register operand.
                let fits = p.uniforms * 4 >= src.ty.size();
                if fits && !matches!(src.kind, RegKind::Uniform { .. }) {
                    replacements.push(Reg::uniform(0, src.ty));
                }
            }
            if src.is_imm() {
                replacements.extend(
                    simple_immediates(src.ty)
                        .into_iter()
                        .filter(|r| operand_weight(r) < operand_weight(src)),
                );
            }
            for r in replacements {
                let mut v = insts.clone();
                v[ip].srcs[k] = r;
                out.push(with_insts(p, v));
            }
        }
    }
    out
}

/// Predicates, conditional modifiers, saturate and NoMask dropped one at a time, and flag
/// subregisters nothing uses any more reset to f0.0.
fn fewer_controls(p: &Program) -> Vec<Program> {
    let insts = flat(p);
    let mut out = vec![];
    let edits: [fn(&mut Inst) -> bool; 5] = [
        |i| i.predicate.take().is_some(),
        |i| i.cmod.take().is_some(),
        |i| std::mem::take(&mut i.saturate),
        |i| std::mem::take(&mut i.nomask),
        |i| i.predicate.is_none() && i.cmod.is_none() && std::mem::take(&mut i.flag_subreg) != 0,
    ];
    for ip in 0..insts.len() {
        if is_structural(insts[ip].op) {
            continue;
        }
        for edit in edits {
            let mut v = insts.clone();
            if edit(&mut v[ip]) {
                out.push(with_insts(p, v));
            }
        }
    }
    out
}

fn operands(p: &Program) -> impl Iterator<Item = &Reg> {
    p.insts()
        .flat_map(|i| std::iter::once(&i.dst).chain(&i.srcs))
}

/// Unused VGRFs and attrs removed (and the rest renumbered), unused trailing uniforms
/// dropped.
fn fewer_declarations(p: &Program) -> Vec<Program> {
    let mut out = vec![];
    let used_vgrf =
        |n: u32| operands(p).any(|r| matches!(r.kind, RegKind::Vgrf { nr, .. } if nr == n));
    if let Some(n) = (0..p.vgrf_sizes.len() as u32)
        .rev()
        .find(|&n| !used_vgrf(n))
    {
        let mut q = renumbered(p, |k| match k {
            RegKind::Vgrf { nr, offset, stride } if nr > n => RegKind::Vgrf {
                nr: nr - 1,
                offset,
                stride,
            },
            k => k,
        });
        q.vgrf_sizes.remove(n as usize);
        out.push(q);
    }
    let used_attr =
        |n: u32| operands(p).any(|r| matches!(r.kind, RegKind::Attr { nr, .. } if nr == n));
    if let Some(n) = (0..p.attr_sizes.len() as u32)
        .rev()
        .find(|&n| !used_attr(n))
    {
        let mut q = renumbered(p, |k| match k {
            RegKind::Attr { nr, offset, stride } if nr > n => RegKind::Attr {
                nr: nr - 1,
                offset,
                stride,
            },
            k => k,
        });
        q.attr_sizes.remove(n as usize);
        if let Some(i) = q.inputs.as_mut() {
            i.attrs = std::mem::take(&mut i.attrs)
                .into_iter()
                .filter(|((_, a), _)| *a != n)
                .map(|((t, a), v)| ((t, if a > n { a - 1 } else { a }), v))
                .collect();
        }
        out.push(q);
    }
    if p.scratch_size != 0 {
        out.push(Program {
            scratch_size: 0,
            ..p.clone()
        });
    }
    let highest_uniform_byte = operands(p)
        .filter_map(|r| match r.kind {
            RegKind::Uniform { nr, offset } => Some(nr * 4 + offset + r.ty.size()),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let needed = highest_uniform_byte.div_ceil(4);
    if needed < p.uniforms {
        let mut q = p.clone();
        q.uniforms = needed;
        if let Some(i) = q.inputs.as_mut() {
            i.uniforms.truncate(needed as usize);
        }
        out.push(q);
    }
    out
}

fn renumbered(p: &Program, f: impl Fn(RegKind) -> RegKind) -> Program {
    let insts = flat(p)
        .into_iter()
        .map(|mut i| {
            i.dst.kind = f(i.dst.kind);
            for s in &mut i.srcs {
                s.kind = f(s.kind);
            }
            i
        })
        .collect();
    with_insts(p, insts)
}

fn simplest_values(ty: Type) -> [Value; 2] {
    [Value::new(ty, 0), Value::new(ty, one(ty))]
}

/// Dispatch masks and buffers dropped, whole value lists made uniform, single values
/// made 0 or 1.
fn simpler_inputs(p: &Program) -> Vec<Program> {
    let Some(inputs) = &p.inputs else {
        return vec![];
    };
    let mut out: Vec<Inputs> = vec![];
    for t in inputs.dispatch_masks.keys() {
        let mut i = inputs.clone();
        i.dispatch_masks.remove(t);
        out.push(i);
    }
    for s in inputs.buffers.keys() {
        let mut i = inputs.clone();
        i.buffers.remove(s);
        out.push(i);
    }
    for (key, values) in &inputs.attrs {
        if let Some(&first) = values.first() {
            for v in simplest_values(first.ty).into_iter().chain([first]) {
                let uniform: Vec<Value> = values.iter().map(|_| v).collect();
                if &uniform != values {
                    let mut i = inputs.clone();
                    i.attrs.insert(*key, uniform);
                    out.push(i);
                }
            }
        }
    }
    let lists = inputs.uniforms.len()
        + inputs.buffers.values().map(Vec::len).sum::<usize>()
        + inputs.attrs.values().map(Vec::len).sum::<usize>();
    // Value by value only while that stays affordable.
    if lists <= 512 {
        for k in 0..inputs.uniforms.len() {
            for v in simplest_values(inputs.uniforms[k].ty) {
                if value_weight(&v) < value_weight(&inputs.uniforms[k]) {
                    let mut i = inputs.clone();
                    i.uniforms[k] = v;
                    out.push(i);
                }
            }
        }
        for (key, values) in &inputs.attrs {
            for (k, old) in values.iter().enumerate() {
                for v in simplest_values(old.ty) {
                    if value_weight(&v) < value_weight(old) {
                        let mut i = inputs.clone();
                        i.attrs.get_mut(key).expect("present")[k] = v;
                        out.push(i);
                    }
                }
            }
        }
        for (s, values) in &inputs.buffers {
            for (k, old) in values.iter().enumerate() {
                for v in simplest_values(old.ty) {
                    if value_weight(&v) < value_weight(old) {
                        let mut i = inputs.clone();
                        i.buffers.get_mut(s).expect("present")[k] = v;
                        out.push(i);
                    }
                }
            }
        }
    }
    out.into_iter()
        .map(|i| Program {
            inputs: Some(i),
            ..p.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::text::parse_program;

    fn program(body: &str) -> Program {
        parse_program(&format!(
            "eu 1\ntarget skl\ndispatch 8\nvgrf v0 1\nvgrf v1 1\n\n{body}"
        ))
        .expect("parses")
    }

    #[test]
    fn every_variant_is_smaller() {
        let p = program(
            "START B0\n    mov(8) v0:F, 2.5:F\n    cmp.l.f0.0(8) null:F, v0:F, 1.0:F\n    (+f0.0) if(8)\nEND B0 ->B1 ->B2\n\nSTART B1 <-B0\n    add.sat(8) v1:F, -v0:F, v0:F\nEND B1 ->B2\n\nSTART B2 <-B0 <-B1\n    endif(8)\nEND B2\n",
        );
        for step in &STEPS {
            for v in (step.variants)(&p) {
                assert!(
                    size(&v) < size(&p),
                    "{} made a variant no smaller",
                    step.name
                );
            }
        }
    }

    #[test]
    fn a_render_target_write_keeps_one_component() {
        let text = "eu 1\ntarget skl\ndispatch 8\nvgrf v0 4\n\nSTART B0\n    fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD { EOT }\nEND B0\n";
        let p = compiler::text::parse_program(text).unwrap();
        let variants = fewer_components(&p);
        let printed: Vec<String> = variants
            .iter()
            .map(|v| compiler::text::print_inst(v.insts().next().unwrap()))
            .collect();
        assert_eq!(
            printed,
            [
                "fb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD { EOT }",
                "fb_write_logical(8) null:UD, v0+32:F, 1:UD, 0:UD { EOT }",
                "fb_write_logical(8) null:UD, v0+64:F, 1:UD, 0:UD { EOT }",
                "fb_write_logical(8) null:UD, v0+96:F, 1:UD, 0:UD { EOT }",
            ]
        );
        assert!(variants.iter().all(|v| size(v) < size(&p)));
    }

    #[test]
    fn devices_are_tried_in_preference_order_before_the_own() {
        let mut p = program("START B0\n    mov(8) v0:F, 2.5:F\nEND B0\n");
        p.device = Device::Hsw;
        let tried: Vec<Device> = earlier_devices(&p).iter().map(|v| v.device).collect();
        assert_eq!(tried, [Device::Skl, Device::Bdw, Device::Icl, Device::Tgl]);
        p.device = Device::Skl;
        assert!(earlier_devices(&p).is_empty());
    }

    #[test]
    fn control_flow_regions_are_removed_or_flattened() {
        let p = program(
            "START B0\n    mov(8) v0:F, 2.5:F\n    cmp.l.f0.0(8) null:F, v0:F, 1.0:F\n    (+f0.0) if(8)\nEND B0 ->B1 ->B2\n\nSTART B1 <-B0\n    add(8) v1:F, v0:F, v0:F\nEND B1 ->B2\n\nSTART B2 <-B0 <-B1\n    endif(8)\nEND B2\n",
        );
        let variants = simpler_control_flow(&p);
        let ops: Vec<Vec<Opcode>> = variants
            .iter()
            .map(|v| v.insts().map(|i| i.op).collect())
            .collect();
        // Removed; the branch alone; the branch predicated (all of it, or only its jumps:
        // it has none, so the ADD runs unpredicated as in the second variant).
        assert_eq!(
            ops,
            vec![
                vec![Opcode::Mov, Opcode::Cmp],
                vec![Opcode::Mov, Opcode::Cmp, Opcode::Add],
                vec![Opcode::Mov, Opcode::Cmp, Opcode::Add],
                vec![Opcode::Mov, Opcode::Cmp, Opcode::Add],
            ]
        );
        let add = |v: &Program| v.insts().nth(2).expect("an ADD").predicate;
        assert_eq!(add(&variants[2]), Some(Predicate::NORMAL));
        assert_eq!(add(&variants[3]), None);
    }

    fn printed(p: &Program) -> Vec<String> {
        p.insts().map(compiler::text::print_inst).collect()
    }

    #[test]
    fn an_if_becomes_predicated_instructions_or_a_predicated_jump() {
        let p = program(
            "START B0\n    do(8)\nEND B0\n\nSTART B1\n    cmp.l.f0.1(8) null:F, v0:F, 1.0:F\n    (-f0.1) if(8)\nEND B1\n\nSTART B2\n    mov(8) v1:F, v0:F\n    break(8)\nEND B2\n\nSTART B3\n    endif(8)\n    while(8)\nEND B3\n",
        );
        let variants: Vec<Vec<String>> = simpler_control_flow(&p).iter().map(printed).collect();
        let all = [
            "do(8)",
            "cmp.l.f0.1(8) null:F, v0:F, 1.0:F",
            "(-f0.1) mov(8) v1:F, v0:F",
            "(-f0.1) break(8)",
            "while(8)",
        ];
        let jumps = [
            "do(8)",
            "cmp.l.f0.1(8) null:F, v0:F, 1.0:F",
            "mov(8) v1:F, v0:F",
            "(-f0.1) break(8)",
            "while(8)",
        ];
        assert!(variants.iter().any(|v| v == &all), "{variants:?}");
        assert!(variants.iter().any(|v| v == &jumps), "{variants:?}");
    }

    #[test]
    fn an_else_goes_with_its_branch_or_the_then_branch_goes_and_the_if_inverts() {
        let p = program(
            "START B0\n    cmp.l.f0.0(8) null:F, v0:F, 1.0:F\n    (+f0.0) if(8)\nEND B0\n\nSTART B1\n    mov(8) v1:F, 1.0:F\n    else(8)\nEND B1\n\nSTART B2\n    mov(8) v1:F, 2.0:F\nEND B2\n\nSTART B3\n    endif(8)\nEND B3\n",
        );
        let variants: Vec<Vec<String>> = simpler_control_flow(&p).iter().map(printed).collect();
        let cmp = "cmp.l.f0.0(8) null:F, v0:F, 1.0:F";
        let then_only = [cmp, "(+f0.0) if(8)", "mov(8) v1:F, 1.0:F", "endif(8)"];
        let else_only = [cmp, "(-f0.0) if(8)", "mov(8) v1:F, 2.0:F", "endif(8)"];
        assert!(variants.iter().any(|v| v == &then_only), "{variants:?}");
        assert!(variants.iter().any(|v| v == &else_only), "{variants:?}");
    }

    #[test]
    fn a_read_is_carried_into_the_next_instruction() {
        let p = parse_program(
            "eu 1\ntarget skl\ndispatch 8\nvgrf v0 1\nvgrf v1 1\nvgrf v2 1\nvgrf v3 1\n\nSTART B0\n    xor(8) v2:UD, v2:UD, v0:UD\n    xor(8) v3:UD, 0:UD, v1:UD\nEND B0\n",
        )
        .expect("parses");
        let variants: Vec<Vec<String>> = carried_reads(&p).iter().map(printed).collect();
        // Either register the first XOR read takes the second's immediate.
        assert_eq!(
            variants,
            [
                ["xor(8) v3:UD, v2:UD, v1:UD"],
                ["xor(8) v3:UD, v0:UD, v1:UD"]
            ]
        );
        // Up to three instructions on, and in place of a read of the destination too.
        let q = parse_program(
            "eu 1\ntarget skl\ndispatch 8\nvgrf v0 1\nvgrf v1 1\nvgrf v2 1\nvgrf v3 1\n\nSTART B0\n    mov(8) v3:UD, v0:UD\n    mov(8) v1:UD, 1:UD\n    mov(8) v1:UD, 2:UD\n    xor(8) v2:UD, v2:UD, v1:UD\n    mov(8) v1:UD, 3:UD\nEND B0\n",
        )
        .expect("parses");
        let carried: Vec<String> = carried_reads(&q)
            .iter()
            .filter(|v| printed(v).len() == 4 && printed(v)[0] == "mov(8) v1:UD, 1:UD")
            .map(|v| printed(v)[1..].join("; "))
            .collect();
        assert_eq!(
            carried,
            [
                "mov(8) v1:UD, v0:UD; xor(8) v2:UD, v2:UD, v1:UD; mov(8) v1:UD, 3:UD",
                "mov(8) v1:UD, 2:UD; xor(8) v2:UD, v0:UD, v1:UD; mov(8) v1:UD, 3:UD",
            ]
        );
    }

    #[test]
    fn a_predicated_break_before_the_while_becomes_a_predicated_while() {
        let p = program(
            "START B0\n    do(8)\nEND B0\n\nSTART B1\n    add(8) v0:F, v0:F, 1.0:F\n    cmp.ge.f0.1(8) null:F, v0:F, 3.0:F\n    (+f0.1) break(8)\nEND B1\n\nSTART B2\n    while(8)\nEND B2\n",
        );
        let variants: Vec<Vec<String>> = simpler_control_flow(&p).iter().map(printed).collect();
        let at_while = [
            "do(8)",
            "add(8) v0:F, v0:F, 1.0:F",
            "cmp.ge.f0.1(8) null:F, v0:F, 3.0:F",
            "(-f0.1) while(8)",
        ];
        assert!(variants.iter().any(|v| v == &at_while), "{variants:?}");
    }

    #[test]
    fn a_source_is_forwarded_into_the_reads_of_the_result() {
        let p = parse_program(
            "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nvgrf v0 1\nvgrf v1 1\n\nSTART B0\n    add(8) v0:F, attr0:F, 1.0:F\n    mul(8) v1:F, v0:F, v0:F\n    mov(8) v0:F, 2.0:F\n    add(8) v1:F, v0:F, v1:F\nEND B0\n",
        )
        .expect("parses");
        let variants: Vec<Vec<String>> = forwarded_sources(&p).iter().map(printed).collect();
        // The reads up to the next write of v0 only; the write itself stays.
        let from_attr = [
            "mul(8) v1:F, attr0:F, attr0:F",
            "mov(8) v0:F, 2.0:F",
            "add(8) v1:F, v0:F, v1:F",
        ];
        assert_eq!(variants[0], from_attr);
        assert!(variants.iter().all(|v| v.len() == 3));
    }

    #[test]
    fn a_flag_only_compare_folds_into_an_earlier_instruction() {
        let p = program(
            "START B0\n    mov(8) v0:F, 0.0:F\nEND B0\n\nSTART B1\n    do(8)\nEND B1\n\nSTART B2\n    cmp.l.f1.1(8) null:D, 0:D, 0:D\n    add(8) v1:F, v0:F, 1.0:F\n    (+f1.1) while(8)\nEND B2\n",
        );
        let variants: Vec<Vec<String>> = folded_compares(&p).iter().map(printed).collect();
        // Only the MOV comes before the compare; DO is control flow.
        let rest = ["do(8)", "add(8) v1:F, v0:F, 1.0:F", "(+f1.1) while(8)"];
        let with = |mov: &str| {
            std::iter::once(mov.to_string())
                .chain(rest.map(String::from))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            variants,
            [
                with("mov.l.f1.1(8) v0:F, 0.0:F"),
                with("mov.ge.f1.1(8) v0:F, 0.0:F")
            ]
        );
        assert!(folded_compares(&p).iter().all(|v| size(v) < size(&p)));
    }

    /// A vec4 program: two dvec4 VGRFs on hsw.
    fn vec4_program(body: &str) -> Program {
        parse_program(&format!(
            "eu 1\ntarget hsw\nstage vs\ndispatch 8\nvgrf v0 2\nvgrf v1 2\n\n{body}"
        ))
        .expect("parses")
    }

    #[test]
    fn a_swizzle_becomes_the_identity() {
        let p = vec4_program("START B0\n    mov(8) v1.xy:DF, v0.zxzy:DF { Align16 }\nEND B0\n");
        let variants = simpler_operands(&p);
        let printed: Vec<Vec<String>> = variants.iter().map(printed).collect();
        assert_eq!(
            printed[0],
            ["mov(8) v1.xy:DF, v0.xyzw:DF { Align16 }"],
            "{printed:?}"
        );
        assert!(variants.iter().all(|v| size(v) < size(&p)));
    }

    #[test]
    fn a_two_vertex_instruction_runs_for_the_first_vertex_alone() {
        let p = vec4_program(
            "START B0\n    add(8) v1:DF, v0.xyzw:DF, 1.0:DF { Align16 }\n    mov(4) v0:DF, v1.xyzw:DF { 2N Align16 }\nEND B0\n",
        );
        let variants = one_vertex(&p);
        let printed: Vec<Vec<String>> = variants.iter().map(printed).collect();
        // Only the exec-8 instruction of group 0: the second vertex's piece stays.
        assert_eq!(
            printed,
            [[
                "add(4) v1:DF, v0.xyzw:DF, 1.0:DF { Align16 }",
                "mov(4) v0:DF, v1.xyzw:DF { 2N Align16 }"
            ]]
        );
        assert!(variants.iter().all(|v| size(v) < size(&p)));
    }

    #[test]
    fn a_vec4_uniform_dvec4_becomes_a_new_attribute_with_its_values() {
        let p = parse_program(
            "eu 1\ntarget hsw\nstage vs\ndispatch 8\nuniforms 8\nvgrf v0 2\nvgrf v1 2\n\nSTART B0\n    add(8) v1:DF, v0.xyzw:DF, u0.zwxy:DF { Align16 }\nEND B0\n\nINPUTS\n    uniforms 1.0:DF 2.0:DF 3.0:DF 4.0:DF\nEND INPUTS\n",
        )
        .expect("parses");
        let variants = inputs_as_operands(&p);
        assert_eq!(variants.len(), 1);
        let q = &variants[0];
        // The swizzle stays; the attribute holds the uniform's dvec4 for each vertex.
        assert_eq!(
            printed(q),
            ["add(8) v1:DF, v0.xyzw:DF, attr0.zwxy:DF { Align16 }"]
        );
        assert_eq!(q.attr_sizes, [2]);
        let dvec4 = [1.0f64, 2.0, 3.0, 4.0].map(|x| Value::new(Type::DF, x.to_bits()));
        let both: Vec<Value> = dvec4.iter().chain(&dvec4).copied().collect();
        assert_eq!(q.inputs.as_ref().expect("inputs").attrs[&(0, 0)], both);
        assert!(size(q) < size(&p));
    }

    #[test]
    fn a_register_source_becomes_an_input() {
        let p = parse_program(
            "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nattr attr1 1\nvgrf v0 1\nvgrf v1 1\n\nSTART B0\n    mul(8) v1:D, v0<0>:D, 3:D\nEND B0\n",
        )
        .expect("parses");
        let variants = inputs_as_operands(&p);
        let printed: Vec<Vec<String>> = variants.iter().map(printed).collect();
        // The region (here a scalar) stays; every attribute is tried.
        assert_eq!(
            printed,
            [
                ["mul(8) v1:D, attr0<0>:D, 3:D"],
                ["mul(8) v1:D, attr1<0>:D, 3:D"]
            ]
        );
        assert!(variants.iter().all(|v| size(v) < size(&p)));
    }

    #[test]
    fn a_lowered_render_target_write_becomes_a_logical_one() {
        let p = parse_program(
            "eu 1\ntarget skl\ndispatch 8\nuniforms 1\nvgrf v0 1\nvgrf v1 4\n\nSTART B0\n    mov(8) v0:F, 2.0:F\n    load_payload(8) v1:UD, u0:UD, 0:UD, v0:UD, 0:UD\n    send(8) null:UD, v1:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0) { EOT }\nEND B0\n",
        )
        .expect("parses");
        let variants: Vec<Vec<String>> = logical_rt_writes(&p).iter().map(printed).collect();
        // One variant per register component (immediates are no colour of their own).
        assert_eq!(
            variants,
            [
                [
                    "mov(8) v0:F, 2.0:F",
                    "fb_write_logical(8) null:UD, u0:F, 1:UD, 0:UD { EOT }"
                ],
                [
                    "mov(8) v0:F, 2.0:F",
                    "fb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD { EOT }"
                ]
            ]
        );
    }

    #[test]
    fn unused_vgrfs_are_dropped_and_renumbered() {
        let p = program("START B0\n    mov(8) v1:F, 2.5:F\nEND B0\n");
        let v = fewer_declarations(&p);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].vgrf_sizes.len(), 1);
        let dst = v[0].insts().next().expect("one instruction").dst;
        assert!(matches!(dst.kind, RegKind::Vgrf { nr: 0, .. }));
    }
}
