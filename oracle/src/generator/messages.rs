//! Messages and payloads: buffer reads and writes, texture samples, scratch, render-target
//! writes (the final one with EOT folds every value in), LOAD_PAYLOAD.

use super::{Gen, Val, plain};
use crate::generator::knobs::Feature;
use crate::inputs::BUFFER_BYTES;
use compiler::Opcode;
use compiler::inst::Inst;
use compiler::reg::{REG_SIZE, Reg};
use compiler::types::Type;

/// Surfaces generated programs use.
const SURFACES: u32 = 3;

/// Per-thread scratch a program uses on most devices; on Ivy Bridge/Bay Trail (12 KB per
/// thread) programs sometimes go past the limit, into "unlimited scratch" — past 64 KB, so
/// the FFTID × size adjustment needs more than a 16-bit immediate.
const SCRATCH_BYTES: u32 = 4096;
const BIG_SCRATCH_BYTES: u32 = 80 * 1024;

impl Gen<'_, '_> {
    /// Bytes one component (a dword per channel) of a message payload takes.
    fn component_bytes(&self) -> u32 {
        self.regs_for(Type::UD) * REG_SIZE
    }

    /// A buffer address: a dword-aligned byte offset below the buffer size minus four
    /// components, from an input.
    pub(super) fn address(&mut self) {
        let nr = self.new_vgrf(self.regs_for(Type::UD));
        let v = Val {
            nr,
            offset: 0,
            ty: Type::UD,
        };
        let src = self.src(Type::UD, false);
        let mask = (BUFFER_BYTES as u32 - 16 - 1) & !3;
        let inst = Inst::new(
            Opcode::And,
            self.width,
            self.val_reg(v),
            vec![src.retype(Type::UD), Reg::imm_ud(mask)],
        );
        if self.try_emit(inst) {
            self.addrs.push(v);
        } else {
            let k = self.choose(self.p.attr_sizes.len()) as u32;
            self.emit(Inst::new(
                Opcode::And,
                self.width,
                self.val_reg(v),
                vec![Reg::attr(k, Type::UD), Reg::imm_ud(mask)],
            ));
            self.addrs.push(v);
        }
    }

    /// A payload of `n` components, each a copy of a dword value (masked moves: the
    /// message reads only the channels that run it).
    fn payload(&mut self, n: u32) -> Reg {
        let bytes = self.component_bytes();
        let nr = self.new_vgrf(n * self.regs_for(Type::UD));
        for k in 0..n {
            let src = self.src(Type::UD, true);
            let dst = Reg::vgrf(nr, Type::UD).byte_offset(k * bytes);
            if !self.try_emit(Inst::new(Opcode::Mov, self.width, dst, vec![src])) {
                let attr = Reg::attr(0, Type::UD);
                self.emit(Inst::new(Opcode::Mov, self.width, dst, vec![attr]));
            }
        }
        Reg::vgrf(nr, Type::UD)
    }

    /// `n` new UD or F values for the components a message returns. One time in four (fuzz
    /// programs only) they start at a dword inside the VGRF's first register rather than
    /// at its start, a destination the SEND cannot write in its own layout, so the
    /// lowering must reply into a temporary and copy (lower_logical_sends).
    fn result_components(&mut self, n: u32, ty: Type) -> (Reg, Vec<Val>) {
        let bytes = self.component_bytes();
        let skew = if !self.realistic && self.chance(1, 4) {
            4 * (1 + self.choose(7) as u32)
        } else {
            0
        };
        let extra = u32::from(skew > 0);
        let nr = self.new_vgrf(n * self.regs_for(Type::UD) + extra);
        let vals = (0..n)
            .map(|k| Val {
                nr,
                offset: skew + k * bytes,
                ty,
            })
            .collect();
        (Reg::vgrf(nr, ty).byte_offset(skew), vals)
    }

    pub(super) fn buffer_access(&mut self) {
        if self.addrs.is_empty() {
            return self.alu();
        }
        let addr = self.pick(&self.addrs.clone());
        let surface = self.choose(SURFACES as usize) as u32;
        let comps = 1 + self.choose(4) as u32;
        let w = self.width;
        if self.uniform_control() && self.chance(1, 2) {
            let (dst, vals) = self.result_components(comps, Type::UD);
            self.emit(Inst::new(
                Opcode::UntypedReadLogical,
                w,
                dst,
                vec![self.val_reg(addr), Reg::imm_ud(surface), Reg::imm_ud(comps)],
            ));
            self.vals.extend(vals);
        } else {
            let data = self.payload(comps);
            let inst = Inst::new(
                Opcode::UntypedWriteLogical,
                w,
                Reg::null(Type::UD),
                vec![
                    self.val_reg(addr),
                    data,
                    Reg::imm_ud(surface),
                    Reg::imm_ud(comps),
                ],
            );
            let inst = self.maybe_predicated(inst);
            self.emit(inst);
        }
    }

    /// A NoMask buffer read or write at exec size 1, 2 or 4 (`scalar` shape), as Mesa's
    /// backend loads and stores values every channel shares. Its payload is narrower than
    /// a register per component, so the lowering builds it with MOVs instead of a
    /// LOAD_PAYLOAD (lower_logical_sends). The address is a scalar masked into the buffer;
    /// a read's components become new scalars, a write's data are scalars, push constants,
    /// immediates or a value's first channels.
    pub(super) fn scalar_message(&mut self) {
        let exec: u8 = self.pick(&[1, 1, 2, 4]);
        let comps = 1 + self.choose(4) as u32;
        let surface = self.choose(SURFACES as usize) as u32;
        let regs = (comps * exec as u32 * 4).div_ceil(REG_SIZE);
        let vgrfs_before = self.p.vgrf_sizes.len();
        let addr = Reg::vgrf(self.new_vgrf(1), Type::UD);
        let base = self.scalar_source(Type::UD, exec, false);
        let mask = (BUFFER_BYTES as u32 - 16 - 1) & !3;
        let and = Inst::new(Opcode::And, exec, addr, vec![base, Reg::imm_ud(mask)]).with_nomask();
        if !self.try_emit(and) {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            return self.alu();
        }
        let nr = self.new_vgrf(regs);
        let data = Reg::vgrf(nr, Type::UD);
        let read = self.uniform_control() && self.chance(1, 2);
        let inst = if read {
            Inst::new(
                Opcode::UntypedReadLogical,
                exec,
                data,
                vec![addr, Reg::imm_ud(surface), Reg::imm_ud(comps)],
            )
        } else {
            for k in 0..comps {
                let src = self.scalar_source(Type::UD, exec, true);
                let at = data.byte_offset(k * exec as u32 * 4);
                let mov = Inst::new(Opcode::Mov, exec, at, vec![plain(src)]).with_nomask();
                if !self.try_emit(mov) {
                    let fallback = Reg::imm_ud(k);
                    self.emit(Inst::new(Opcode::Mov, exec, at, vec![fallback]).with_nomask());
                }
            }
            Inst::new(
                Opcode::UntypedWriteLogical,
                exec,
                Reg::null(Type::UD),
                vec![addr, data, Reg::imm_ud(surface), Reg::imm_ud(comps)],
            )
        };
        self.emit(inst.with_nomask());
        if read {
            self.scalars.extend((0..comps * exec as u32).map(|k| Val {
                nr,
                offset: 4 * k,
                ty: Type::UD,
            }));
        }
    }

    /// `inst` (a message at the dispatch width) predicated on a fresh compare one time in
    /// four when the program has predication: the message then runs only in the channels
    /// whose flag bit agrees, and every lowering of it (payload moves, the SEND, scratch
    /// headers and per-register pieces) must keep the predicate and its flag subregister.
    fn maybe_predicated(&mut self, inst: Inst) -> Inst {
        if self.realistic || !self.has(Feature::Predication) || !self.chance(1, 4) {
            return inst;
        }
        self.set_flag(inst.exec_size, inst.group);
        let pred = if self.chance(1, 2) {
            compiler::inst::Predicate::NORMAL
        } else {
            compiler::inst::Predicate::INVERSE
        };
        inst.with_pred(pred, self.general_flag)
    }

    pub(super) fn texture(&mut self) {
        if !self.uniform_control() {
            return self.alu();
        }
        let u = plain(self.src(Type::F, false));
        let v = plain(self.src(Type::F, false));
        let surface = self.choose(SURFACES as usize) as u32;
        let vgrfs_before = self.p.vgrf_sizes.len();
        let (dst, vals) = self.result_components(4, Type::F);
        let inst = Inst::new(
            Opcode::TexLogical,
            self.width,
            dst,
            vec![u, v, Reg::imm_ud(surface)],
        );
        if self.try_emit(inst) {
            self.vals.extend(vals);
        } else {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            self.alu();
        }
    }

    /// A scratch write of a dword value, or a read back of a slot written in full (at the
    /// top level) into a value.
    pub(super) fn scratch(&mut self) {
        let limit = if self.info.max_scratch_per_thread < BIG_SCRATCH_BYTES && self.chance(1, 3) {
            BIG_SCRATCH_BYTES
        } else {
            SCRATCH_BYTES
        };
        let bytes = self.component_bytes();
        let dwords: Vec<Val> = self
            .vals
            .iter()
            .copied()
            .filter(|v| v.ty.size() == 4)
            .collect();
        let w = self.width;
        let read = !self.scratch_written.is_empty() && !dwords.is_empty() && self.chance(1, 2);
        let offset = if read {
            self.pick(&self.scratch_written.clone())
        } else {
            let slots = (limit - bytes) / 16;
            16 * self.choose(slots as usize) as u32
        };
        self.scratch_used = self.scratch_used.max(offset + bytes);
        self.p.scratch_size = self.scratch_used.next_multiple_of(1024);
        if !read {
            let data = plain(self.src(Type::UD, false));
            if !data.is_vgrf() && !matches!(data.kind, compiler::reg::RegKind::Attr { .. }) {
                return self.alu();
            }
            let inst = Inst::new(
                Opcode::ScratchWrite,
                w,
                Reg::null(Type::UD),
                vec![data, Reg::imm_ud(offset)],
            );
            let inst = self.maybe_predicated(inst);
            let whole = inst.predicate.is_none();
            if !self.try_emit(inst) {
                return self.alu();
            }
            // Only a full write where every live channel runs defines the whole slot; a
            // later write to an overlapping slot may be partial, so it forgets them.
            self.scratch_written
                .retain(|&o| o + bytes <= offset || offset + bytes <= o);
            if self.uniform_control() && whole {
                self.scratch_written.push(offset);
            }
        } else {
            let (dst, new) = if self.uniform_control() && self.chance(3, 4) {
                let nr = self.new_vgrf(self.regs_for(Type::UD));
                let v = Val {
                    nr,
                    offset: 0,
                    ty: Type::UD,
                };
                (self.val_reg(v), Some(v))
            } else {
                let v = self.pick(&dwords);
                (self.val_reg(v), None)
            };
            let inst = Inst::new(Opcode::ScratchRead, w, dst, vec![Reg::imm_ud(offset)]);
            // (A new value must be written in every channel: never predicated.)
            let inst = if new.is_none() {
                self.maybe_predicated(inst)
            } else {
                inst
            };
            self.emit(inst);
            self.vals.extend(new);
        }
    }

    /// A render-target write of some values to target 1–3 (the final write is target 0).
    pub(super) fn rt_write(&mut self) {
        let comps = 1 + self.choose(4) as u32;
        let color = self.payload(comps).retype(Type::F);
        let target = 1 + self.choose(3) as u32;
        self.emit(Inst::new(
            Opcode::FbWriteLogical,
            self.width,
            Reg::null(Type::UD),
            vec![color, Reg::imm_ud(comps), Reg::imm_ud(target)],
        ));
    }

    /// LOAD_PAYLOAD gathering dword values into one multi-component value. At SIMD8, fuzz
    /// programs sometimes make the first one or two sources header sources: each copied as
    /// eight NoMask UD channels of the operand, region and all (docs/hardware/brw-backend.md
    /// §7.3), which at SIMD8 puts channel c's dword where a component would, so the value
    /// reads the same. Any source may be one: a uniform is broadcast, as the lowering's
    /// MOV broadcasts it.
    pub(super) fn load_payload(&mut self) {
        if !self.uniform_control() {
            return self.alu();
        }
        let n = 2 + self.choose(3) as u32;
        let srcs: Vec<Reg> = (0..n).map(|_| plain(self.src(Type::UD, false))).collect();
        let header = if self.width == 8 && !self.realistic && self.chance(1, 3) {
            1 + self.choose(2) as u8
        } else {
            0
        };
        // (Fuzz programs: sometimes a hole, a null source whose component is left as it
        // was, so nothing reads it as a value.)
        let hole = (!self.realistic && self.chance(1, 4)).then(|| self.choose(n as usize));
        let mut srcs = srcs;
        if let Some(k) = hole {
            srcs[k] = Reg::null(Type::UD);
        }
        let vgrfs_before = self.p.vgrf_sizes.len();
        let (dst, mut vals) = self.result_components(n, Type::UD);
        if let Some(k) = hole {
            vals.remove(k);
        }
        let mut inst = Inst::new(Opcode::LoadPayload, self.width, dst, srcs);
        inst.header_size = header;
        if self.try_emit(inst) {
            self.vals.extend(vals);
        } else {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            self.alu();
        }
    }

    /// The EOT render-target write: every value is XOR-folded into one of four colour
    /// components, so any value that differs shows up.
    pub(super) fn final_write(&mut self) {
        let w = self.width;
        let bytes = self.component_bytes();
        let nr = self.new_vgrf(4 * self.regs_for(Type::UD));
        let comp = |k: u32| Reg::vgrf(nr, Type::UD).byte_offset(k * bytes);
        for k in 0..4 {
            let src = self.attr_component(k);
            self.emit(Inst::new(Opcode::Mov, w, comp(k), vec![src]));
        }
        let vals: Vec<Val> = self.vals.iter().chain(&self.exit_vals).copied().collect();
        for (i, v) in vals.iter().enumerate() {
            let c = comp(i as u32 % 4);
            let parts: Vec<Reg> = match v.ty.size() {
                8 => vec![
                    Reg::vgrf(v.nr, Type::UD)
                        .byte_offset(v.offset)
                        .with_stride(2),
                    Reg::vgrf(v.nr, Type::UD)
                        .byte_offset(v.offset + 4)
                        .with_stride(2),
                ],
                4 => vec![self.val_reg(*v).retype(Type::UD)],
                _ => vec![self.val_reg(*v).retype(Type::UW)],
            };
            for part in parts {
                let xor = Inst::new(Opcode::Xor, w, c, vec![c, part]);
                if !self.try_emit(xor) {
                    let t = Reg::vgrf(self.new_vgrf(self.regs_for(Type::UD)), Type::UD);
                    self.emit(Inst::new(Opcode::Mov, w, t, vec![part]));
                    self.emit(Inst::new(Opcode::Xor, w, c, vec![c, t]));
                }
            }
        }
        if self.has(Feature::HwSend) && w <= 16 && self.chance(1, 2) {
            let comps: Vec<Reg> = (0..4).map(comp).collect();
            return self.hw_final_write(&comps);
        }
        self.emit(
            Inst::new(
                Opcode::FbWriteLogical,
                w,
                Reg::null(Type::UD),
                vec![Reg::vgrf(nr, Type::F), Reg::imm_ud(4), Reg::imm_ud(0)],
            )
            .with_eot(),
        );
    }

    fn attr_component(&mut self, k: u32) -> Reg {
        let n = self.p.attr_sizes.len() as u32;
        Reg::attr(k % n, Type::UD)
            .byte_offset(if k >= n { 4 } else { 0 })
            .with_stride(1)
    }
}
