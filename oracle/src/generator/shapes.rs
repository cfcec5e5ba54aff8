//! Shapes that compiler mutants exposed (issue 9 item 10): operands and destinations a
//! pass must legalise or keep apart, each behind its own swarm feature so a campaign can
//! focus on it (`features=vector-imm`). Every shape is valid by construction (checked with
//! the validator's per-instruction rules) and well defined: new values are written in full
//! where every live channel runs, everything else writes into values already defined.

use super::alu::{CONDS, Operands, arity, op_types};
use super::{Gen, Val, at_group, plain};
use crate::generator::knobs::{Feature, SHAPE_FEATURES};
use compiler::Opcode;
use compiler::inst::{CondMod, Inst, MsgDesc, MsgKind, Predicate};
use compiler::reg::{REG_SIZE, Reg, RegKind, Region};
use compiler::types::Type;

/// Surfaces generated programs use (as in `messages.rs`).
const SURFACES: u32 = 3;

/// Two- and three-source opcodes that take an immediate in src0 or byte views in src1/src2.
const MULTI_SOURCE: [Opcode; 14] = [
    Opcode::Add,
    Opcode::Mul,
    Opcode::And,
    Opcode::Or,
    Opcode::Xor,
    Opcode::Shl,
    Opcode::Shr,
    Opcode::Asr,
    Opcode::Sel,
    Opcode::Cmp,
    Opcode::Avg,
    Opcode::Mad,
    Opcode::Bfe,
    Opcode::Bfi2,
];

impl Gen<'_, '_> {
    /// The opcodes among `ops` this program drew (so knobs that deny one are obeyed).
    fn drawn(&self, ops: &[Opcode]) -> Vec<Opcode> {
        ops.iter()
            .copied()
            .filter(|op| self.ops.contains(op))
            .collect()
    }

    /// Whether this program drew any shape feature.
    pub(super) fn has_shape(&self) -> bool {
        SHAPE_FEATURES.iter().any(|&f| self.has(f))
    }

    /// One statement of a shape feature this program drew.
    pub(super) fn shape(&mut self) {
        let on: Vec<Feature> = SHAPE_FEATURES
            .into_iter()
            .filter(|&f| self.has(f))
            .collect();
        match self.pick(&on) {
            Feature::VectorImm => self.vector_imm(),
            Feature::MessageSlice => self.message_slice(),
            Feature::AliasedSplit => self.aliased_split(),
            Feature::MulFlags => self.mul_flags(),
            Feature::HwSend => self.hw_send(),
            Feature::ImmSrc0 => self.multi_source(Operands::ImmSrc0),
            Feature::FixedGrf if self.chance(1, 3) => self.overwritten_input(),
            Feature::FixedGrf => self.uneven_value(),
            Feature::MixedMul => self.mixed_mul(),
            _ => self.multi_source(Operands::ByteSrc),
        }
    }

    /// A V/UV/VF immediate: 8 signed/unsigned nibbles or 4 restricted floats (§6.8).
    fn vector_imm_operand(&mut self) -> Reg {
        let ty = self.pick(&[Type::V, Type::UV, Type::VF]);
        let bits = u64::from(self.u.arbitrary::<u32>().unwrap_or(0));
        Reg::imm(bits, ty)
    }

    /// A vector immediate as a MOV source into a destination of some layout and type (legal
    /// ones: 16-byte aligned, stride × size 2 bytes for V/UV and 4 for VF — docs/hardware/eu-hardware.md §3.3,
    /// §6.8; others, misaligned, wider or of another type, the compiler must legalise), or as src1 of
    /// ADD/MUL/SEL/CMP at the dispatch width.
    fn vector_imm(&mut self) {
        let imm = self.vector_imm_operand();
        let vgrfs_before = self.p.vgrf_sizes.len();
        let vf = imm.ty == Type::VF;
        let inst = if self.chance(1, 2) {
            let wider: Vec<Val> = self
                .vals
                .iter()
                .copied()
                .filter(|v| v.ty.size() >= 2)
                .collect();
            let dst = if !wider.is_empty() && self.chance(1, 2) {
                // A strided, possibly misaligned, slice of a wider value.
                let ty = match (vf, self.chance(1, 2)) {
                    (true, true) => Type::W,
                    (false, true) => Type::UW,
                    (_, false) => Type::UB,
                };
                let wider: Vec<Val> = wider
                    .into_iter()
                    .filter(|v| v.ty.size() > ty.size())
                    .collect();
                if wider.is_empty() {
                    return self.alu();
                }
                Some((self.part_of(&wider, ty), None))
            } else {
                // One in three into a value of any type: the MOV then also converts, and
                // the compiler must legalise a destination the vector type cannot have.
                let ty = if self.chance(1, 3) {
                    self.any_type()
                } else if vf {
                    Type::F
                } else {
                    self.pick(&[Type::W, Type::UW])
                };
                self.dst(ty)
            };
            let Some((dst, new)) = dst else {
                return self.alu();
            };
            let (exec, group) = self.exec_group();
            let inst = Inst::new(Opcode::Mov, exec, at_group(dst, group as u32), vec![imm])
                .with_group(group);
            (inst, new)
        } else {
            let ops = self.drawn(&[Opcode::Add, Opcode::Mul, Opcode::Sel, Opcode::Cmp]);
            if ops.is_empty() {
                return self.alu();
            }
            let op = self.pick(&ops);
            let ty = if vf {
                Type::F
            } else {
                self.pick(&[Type::W, Type::UW, Type::D, Type::UD])
            };
            let src_ty = if vf { Type::F } else { imm.ty.exec_type() };
            let a = self.src(src_ty, false);
            let Some((dst, new)) = self.dst(ty) else {
                return self.alu();
            };
            let mut inst = Inst::new(op, self.width, dst, vec![a, imm]);
            match op {
                Opcode::Sel => inst.cmod = Some(self.pick(&[CondMod::L, CondMod::Ge])),
                Opcode::Cmp => inst = inst.with_cmod(self.pick(&CONDS), self.general_flag),
                _ => {}
            }
            (inst, new)
        };
        self.emit_or_alu(inst.0, inst.1, vgrfs_before);
    }

    /// Emits `inst` (recording the value it defines), or an ALU statement instead if the
    /// validator rejects it.
    fn emit_or_alu(&mut self, inst: Inst, new: Option<Val>, vgrfs_before: usize) {
        if self.try_emit(inst) {
            self.vals.extend(new);
        } else {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            self.alu();
        }
    }

    /// A message whose destination is not whole registers: an untyped read or a sample
    /// into a register offset of a new VGRF (`v+16`: new values), or a one-component
    /// untyped read or a scratch read into a strided dword slice of a live 64-bit value.
    fn message_slice(&mut self) {
        let wide: Vec<Val> = self
            .vals
            .iter()
            .copied()
            .filter(|v| v.ty.size() == 8)
            .collect();
        let vgrfs_before = self.p.vgrf_sizes.len();
        if !wide.is_empty() && (!self.uniform_control() || self.chance(1, 2)) {
            let slice = self.part_of(&wide, Type::UD);
            if !self.addrs.is_empty() && (self.scratch_written.is_empty() || self.chance(1, 2)) {
                let addr = self.pick(&self.addrs.clone());
                let surface = self.choose(SURFACES as usize) as u32;
                let inst = Inst::new(
                    Opcode::UntypedReadLogical,
                    self.width,
                    slice,
                    vec![self.val_reg(addr), Reg::imm_ud(surface), Reg::imm_ud(1)],
                );
                return self.emit_or_alu(inst, None, vgrfs_before);
            }
            if !self.scratch_written.is_empty() {
                let offset = self.pick(&self.scratch_written.clone());
                let inst = Inst::new(
                    Opcode::ScratchRead,
                    self.width,
                    slice,
                    vec![Reg::imm_ud(offset)],
                );
                return self.emit_or_alu(inst, None, vgrfs_before);
            }
        }
        if !self.uniform_control() {
            return self.alu();
        }
        let bytes = self.regs_for(Type::UD) * REG_SIZE;
        let skip = self.pick(&[4u32, 16, REG_SIZE, REG_SIZE + 16]);
        let (inst, comps, ty) = if !self.addrs.is_empty() && self.chance(1, 2) {
            let addr = self.pick(&self.addrs.clone());
            let surface = self.choose(SURFACES as usize) as u32;
            let comps = 1 + self.choose(4) as u32;
            let read = Inst::new(
                Opcode::UntypedReadLogical,
                self.width,
                Reg::null(Type::UD),
                vec![self.val_reg(addr), Reg::imm_ud(surface), Reg::imm_ud(comps)],
            );
            (read, comps, Type::UD)
        } else {
            let u = plain(self.src(Type::F, false));
            let v = plain(self.src(Type::F, false));
            let surface = self.choose(SURFACES as usize) as u32;
            let tex = Inst::new(
                Opcode::TexLogical,
                self.width,
                Reg::null(Type::F),
                vec![u, v, Reg::imm_ud(surface)],
            );
            (tex, 4, Type::F)
        };
        let nr = self.new_vgrf((skip + comps * bytes).div_ceil(REG_SIZE));
        let vals: Vec<Val> = (0..comps)
            .map(|k| Val {
                nr,
                offset: skip + k * bytes,
                ty,
            })
            .collect();
        let inst = Inst {
            dst: Reg::vgrf(nr, ty).byte_offset(skip),
            ..inst
        };
        if self.try_emit(inst) {
            self.vals.extend(vals);
        } else {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            self.alu();
        }
    }

    /// An instruction at the dispatch width whose source is its own destination read with
    /// a different layout: a narrower packed view (`mov v:D, v:W`, `mov v:DF, v:F`), maybe
    /// shifted by some elements. The reference reads every source before writing; the
    /// compiler's split halves must not read what an earlier half wrote.
    fn aliased_split(&mut self) {
        let wide: Vec<Val> = self
            .vals
            .iter()
            .copied()
            .filter(|v| v.ty.size() >= 4)
            .collect();
        if wide.is_empty() {
            return self.alu();
        }
        let v = self.pick(&wide);
        let narrower: Vec<Type> = [Type::F, Type::D, Type::UD, Type::W, Type::UW, Type::HF]
            .into_iter()
            .filter(|t| t.size() < v.ty.size())
            .filter(|t| *t != Type::HF || self.types.contains(&Type::HF))
            .collect();
        let ty = self.pick(&narrower);
        // The view stays inside the value: it covers `width × size` of `width × v.size`.
        let spare = self.width as u32 * (v.ty.size() - ty.size()) / ty.size();
        let shift = match self.choose(3) {
            0 => 0,
            1 => 1.min(spare),
            _ => spare,
        };
        let view = self.val_reg(v).retype(ty).byte_offset(shift * ty.size());
        let (op, srcs) = if self.chance(2, 3) || !self.ops.contains(&Opcode::Add) {
            (Opcode::Mov, vec![view])
        } else {
            let other = self.src(ty, true);
            (Opcode::Add, vec![view, other])
        };
        let inst = Inst::new(op, self.width, self.val_reg(v), srcs);
        if !self.try_emit(inst) {
            self.alu();
        }
    }

    /// MUL/MULH into null with a conditional modifier, read back by a predicated SEL; or a
    /// 64-bit product (Q×Q, D×D→Q) with a push-constant, immediate or scalar operand. A DW
    /// MUL cannot take a conditional modifier on the hardware (docs/hardware/
    /// eu-hardware.md §4), so a D/UD `mul.cond null` (fuzz programs only) makes the
    /// lowering test the low dword of the product it builds instead.
    fn mul_flags(&mut self) {
        let int64 = self.info.has_64bit_int;
        if int64 && self.ops.contains(&Opcode::Mul) && self.chance(1, 2) {
            return self.wide_product();
        }
        let mut tys = vec![Type::F, Type::W, Type::UW];
        tys.extend(
            self.types
                .iter()
                .filter(|t| matches!(t, Type::HF | Type::DF)),
        );
        if int64 {
            tys.extend([Type::Q, Type::UQ]);
        }
        if !self.realistic {
            tys.extend([Type::D, Type::UD]);
        }
        let ty = self.pick(&tys);
        let ops = self.drawn(&[Opcode::Mul, Opcode::Mul, Opcode::Mul, Opcode::Mulh]);
        if ops.is_empty() {
            return self.alu();
        }
        let op = self.pick(&ops);
        let (ty, a, b) = if op == Opcode::Mulh {
            let t = self.pick(&[Type::D, Type::UD]);
            (t, self.src(t, false), self.src(t, true))
        } else {
            (ty, self.src(ty, false), self.src(ty, true))
        };
        let flag = self.general_flag;
        let inst =
            Inst::new(op, self.width, Reg::null(ty), vec![a, b]).with_cmod(self.pick(&CONDS), flag);
        if !self.try_emit(inst) {
            return self.alu();
        }
        self.flag_to_value();
    }

    /// A SEL predicated on the general flag into a new or existing dword value: the flag
    /// a shape just wrote becomes data.
    fn flag_to_value(&mut self) {
        let vgrfs_before = self.p.vgrf_sizes.len();
        let Some((dst, new)) = self.dst(Type::UD) else {
            return;
        };
        if !self.ops.contains(&Opcode::Sel) {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            return;
        }
        let (a, b) = (self.attr_src(Type::UD), self.src(Type::UD, true));
        let sel = Inst::new(Opcode::Sel, self.width, dst, vec![a, b])
            .with_pred(Predicate::NORMAL, self.general_flag);
        if self.try_emit(sel) {
            self.vals.extend(new);
        } else {
            self.p.vgrf_sizes.truncate(vgrfs_before);
        }
    }

    /// `mul v:Q, a, b` from Q or D sources, one (or both) a push constant, an immediate or
    /// a scalar attr region; sometimes into null with a conditional modifier.
    fn wide_product(&mut self) {
        let src_ty = self.pick(&[Type::Q, Type::UQ, Type::D, Type::UD]);
        let dst_ty = if src_ty.is_signed() {
            Type::Q
        } else {
            Type::UQ
        };
        let scalar = |g: &mut Self| match g.choose(3) {
            0 => g.uniform_src(src_ty),
            1 => g.imm(src_ty),
            _ => {
                let k = g.choose(g.p.attr_sizes.len()) as u32;
                Reg::attr(k, src_ty).with_stride(0)
            }
        };
        let a = if self.chance(1, 3) {
            scalar(self)
        } else {
            self.src(src_ty, false)
        };
        let b = scalar(self);
        let (a, b) = if self.chance(1, 2) { (a, b) } else { (b, a) };
        let vgrfs_before = self.p.vgrf_sizes.len();
        if self.chance(1, 3) {
            let inst = Inst::new(Opcode::Mul, self.width, Reg::null(dst_ty), vec![a, b])
                .with_cmod(self.pick(&CONDS), self.general_flag);
            if self.try_emit(inst) {
                return self.flag_to_value();
            }
            return self.alu();
        }
        let Some((dst, new)) = self.dst(dst_ty) else {
            return self.alu();
        };
        let inst = Inst::new(Opcode::Mul, self.width, dst, vec![a, b]);
        self.emit_or_alu(inst, new, vgrfs_before);
    }

    /// A hardware-form message: LOAD_PAYLOAD of an address (and data) then SEND, an
    /// untyped read into new values or an untyped write (data in the first payload or the
    /// extended one). SIMD8/16 only: wider SENDs are what width lowering exists to avoid.
    fn hw_send(&mut self) {
        if self.width > 16 {
            return self.alu();
        }
        if self.addrs.is_empty() {
            if !self.uniform_control() {
                return self.alu();
            }
            self.address();
        }
        let addr = self.pick(&self.addrs.clone());
        let rpc = self.regs_for(Type::UD);
        let surface = self.choose(SURFACES as usize) as u8;
        let comps = 1 + self.choose(4) as u32;
        let w = self.width;
        if self.uniform_control() && self.chance(1, 2) {
            let vgrfs_before = self.p.vgrf_sizes.len();
            let pl = self.payload_at(rpc);
            let load = Inst::new(Opcode::LoadPayload, w, pl, vec![self.val_reg(addr)]);
            if !self.try_emit(load) {
                self.p.vgrf_sizes.truncate(vgrfs_before);
                return self.alu();
            }
            let nr = self.new_vgrf(comps * rpc);
            let desc = MsgDesc {
                kind: MsgKind::UntypedRead {
                    surface,
                    comps: comps as u8,
                },
                mlen: rpc as u8,
                ex_mlen: 0,
                rlen: (comps * rpc) as u8,
                header: false,
            };
            self.emit(send(w, Reg::vgrf(nr, Type::UD), pl, desc));
            self.vals.extend((0..comps).map(|k| Val {
                nr,
                offset: k * rpc * REG_SIZE,
                ty: Type::UD,
            }));
            return;
        }
        let data: Vec<Reg> = (0..comps)
            .map(|_| plain(self.src(Type::UD, false)))
            .collect();
        let split = self.chance(1, 2);
        let desc = MsgDesc {
            kind: MsgKind::UntypedWrite {
                surface,
                comps: comps as u8,
            },
            mlen: if split { rpc } else { rpc * (1 + comps) } as u8,
            ex_mlen: if split { rpc * comps } else { 0 } as u8,
            rlen: 0,
            header: false,
        };
        let addr = self.val_reg(addr);
        let (vgrfs_before, insts_before) = (self.p.vgrf_sizes.len(), self.insts.len());
        let (loads, inst) = if split {
            let p1 = self.payload_at(rpc);
            let p2 = self.payload_at(rpc * comps);
            let mut s = send(w, Reg::null(Type::UD), p1, desc);
            s.srcs[1] = p2;
            (
                vec![
                    Inst::new(Opcode::LoadPayload, w, p1, vec![addr]),
                    Inst::new(Opcode::LoadPayload, w, p2, data),
                ],
                s,
            )
        } else {
            let pl = self.payload_at(rpc * (1 + comps));
            let srcs = std::iter::once(addr).chain(data).collect();
            (
                vec![Inst::new(Opcode::LoadPayload, w, pl, srcs)],
                send(w, Reg::null(Type::UD), pl, desc),
            )
        };
        let ok = loads.into_iter().all(|l| self.try_emit(l)) && self.try_emit(inst);
        if !ok {
            self.insts.truncate(insts_before);
            self.p.vgrf_sizes.truncate(vgrfs_before);
            self.alu();
        }
    }

    /// A message payload of `regs` registers: a VGRF of its own, or (`fixed-grf`,
    /// `hw-send` in fuzz programs) at a dword offset of a larger VGRF — a register or half
    /// of one in, or any sub-register (docs/hardware/brw-backend.md §1).
    fn payload_at(&mut self, regs: u32) -> Reg {
        if self.realistic || !self.chance(1, 4) {
            return Reg::vgrf(self.new_vgrf(regs), Type::UD);
        }
        let offset = match self.choose(4) {
            0 => 16,
            1 => REG_SIZE,
            2 => REG_SIZE + 16,
            _ => 4 * (1 + self.choose(7)) as u32,
        };
        let after = self.choose(2) as u32;
        let nr = self.new_vgrf(regs + offset.div_ceil(REG_SIZE) + after);
        Reg::vgrf(nr, Type::UD).byte_offset(offset)
    }

    /// The final colour components `comp` as a hardware EOT write: LOAD_PAYLOAD into a
    /// non-zero register offset of a VGRF larger than the payload, then SEND from there.
    pub(super) fn hw_final_write(&mut self, comp: &[Reg]) {
        let w = self.width;
        let rpc = self.regs_for(Type::UD);
        let before = 1 + self.choose(3) as u32;
        let after = self.choose(3) as u32;
        // Fuzz programs also start it at a sub-register (isolate_eot_payloads copies it).
        let sub = if self.chance(1, 3) {
            4 * (1 + self.choose(7)) as u32
        } else {
            0
        };
        let nr = self.new_vgrf(before + 4 * rpc + after + (sub > 0) as u32);
        let pl = Reg::vgrf(nr, Type::UD).byte_offset(before * REG_SIZE + sub);
        self.emit(Inst::new(Opcode::LoadPayload, w, pl, comp.to_vec()));
        let desc = MsgDesc {
            kind: MsgKind::RtWrite { target: 0 },
            mlen: (4 * rpc) as u8,
            ex_mlen: 0,
            rlen: 0,
            header: false,
        };
        self.emit(send(w, Reg::null(Type::UD), pl, desc).with_eot());
    }

    /// A NoMask operation on scalars, as Mesa's backend computes uniform values (a
    /// uniformised index, an address, a loop bound): exec size 1, sometimes 2 or 4
    /// (channels 0.. of the group), its sources scalars, push constants, immediates or one
    /// channel of a per-channel value. The result goes to a new register or to the next
    /// free elements of a register other scalars already use (partial writes of one VGRF
    /// that liveness, DCE and coalescing must keep apart), or, inside control flow, over
    /// an earlier scalar (a NoMask write in a block no channel enters does not run, so
    /// only scalars defined before may be written there). Every channel later reads a
    /// written element through a `<0>` region (`src`).
    pub(super) fn scalar_op(&mut self) {
        if self.has(Feature::Buffer) && self.chance(1, 6) {
            return self.scalar_message();
        }
        let exec: u8 = match self.choose(6) {
            0 => 4,
            1 => 2,
            _ => 1,
        };
        let op = self.pick(&self.ops.clone());
        let types = self.types_for(op);
        if types.is_empty() {
            return self.alu();
        }
        let ty = self.pick(&types);
        let size = ty.size();
        let bytes = exec as u32 * size;
        let vgrfs_before = self.p.vgrf_sizes.len();
        let (nr, offset) = if self.uniform_control() {
            let shared = self
                .scalars
                .iter()
                .map(|s| (s.nr, s.offset + s.ty.size()))
                .filter(|&(nr, end)| {
                    let start = end.next_multiple_of(size);
                    start + bytes <= self.p.vgrf_sizes[nr as usize] * REG_SIZE
                        && !self.scalars.iter().any(|s| s.nr == nr && s.offset >= start)
                })
                .collect::<Vec<_>>();
            if !shared.is_empty() && self.chance(1, 2) {
                let (nr, end) = self.pick(&shared);
                (nr, end.next_multiple_of(size))
            } else {
                (self.new_vgrf(1), 0)
            }
        } else {
            let same: Vec<Val> = self
                .scalars
                .iter()
                .copied()
                .filter(|s| s.ty == ty && s.offset % REG_SIZE + bytes <= REG_SIZE)
                .filter(|s| {
                    (0..exec as u32).all(|k| {
                        self.scalars
                            .iter()
                            .any(|t| t.nr == s.nr && t.offset == s.offset + k * size && t.ty == ty)
                    })
                })
                .collect();
            if same.is_empty() {
                return self.alu();
            }
            let s = self.pick(&same);
            (s.nr, s.offset)
        };
        // Scalar operations are mixed float as often as per-channel ones: one-channel mixed
        // math is what width lowering leaves of mixed math it splits to SIMD1, and no HF
        // source of it can have the HorzStride mixed math needs (docs/hardware/
        // eu-hardware.md §6.5).
        let mixed = self.mixed_float(op, ty);
        let srcs: Vec<Reg> = (0..arity(op))
            .map(|i| {
                let src_ty = if mixed {
                    self.pick(&[Type::F, Type::HF])
                } else {
                    ty
                };
                self.scalar_source(src_ty, exec, i > 0 || op == Opcode::Mov)
            })
            .collect();
        let dst = Reg::vgrf(nr, ty).byte_offset(offset);
        let mut inst = Inst::new(op, exec, dst, srcs).with_nomask();
        if matches!(op, Opcode::Addc | Opcode::Subb) {
            inst.acc_wr = true;
        }
        if matches!(op, Opcode::Cmp | Opcode::Cmpn) {
            inst = inst.with_cmod(self.pick(&CONDS), self.general_flag);
        } else if op == Opcode::Sel {
            inst.cmod = Some(if self.chance(1, 2) {
                CondMod::L
            } else {
                CondMod::Ge
            });
        } else if self.has(Feature::Modifiers) && op.ir_can_do_cmod() && self.chance(1, 8) {
            inst = inst.with_cmod(self.pick(&CONDS), self.general_flag);
        }
        if self.has(Feature::Modifiers) && ty.is_float() && self.chance(1, 6) {
            inst.saturate = true;
        }
        if !self.try_emit(inst) {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            return self.alu();
        }
        for k in 0..exec as u32 {
            let v = Val {
                nr,
                offset: offset + k * size,
                ty,
            };
            if !self
                .scalars
                .iter()
                .any(|s| s.nr == nr && s.offset == v.offset && s.ty == ty)
            {
                self.scalars.push(v);
            }
        }
    }

    /// A source of a scalar operation: a scalar, a push constant, an immediate, one channel
    /// of a per-channel value read through `<0>`, or (exec size above 1) the value's first
    /// channels.
    pub(super) fn scalar_source(&mut self, ty: Type, exec: u8, allow_imm: bool) -> Reg {
        let r = match self.choose(6) {
            0 if allow_imm => self.imm(ty),
            1 => self.uniform_src(ty),
            2 | 3 => match self.scalar_read(ty) {
                Some(r) => r,
                None => self.uniform_src(ty),
            },
            4 if exec > 1 => self.src(ty, false),
            _ => {
                let same: Vec<Val> = self
                    .vals
                    .iter()
                    .copied()
                    .filter(|v| v.ty.size() == ty.size())
                    .collect();
                if same.is_empty() {
                    self.uniform_src(ty)
                } else {
                    let v = self.pick(&same);
                    let k = self.choose(self.width as usize) as u32;
                    Reg::vgrf(v.nr, ty)
                        .byte_offset(v.offset + k * ty.size())
                        .with_stride(0)
                }
            }
        };
        if self.has(Feature::Modifiers) && !r.is_imm() && self.chance(1, 6) {
            r.negated()
        } else {
            r
        }
    }

    /// One defined scalar of `ty`'s size, read by every channel.
    pub(super) fn scalar_read(&mut self, ty: Type) -> Option<Reg> {
        let same: Vec<Val> = self
            .scalars
            .iter()
            .copied()
            .filter(|s| s.ty.size() == ty.size())
            .collect();
        if same.is_empty() {
            return None;
        }
        let s = self.pick(&same);
        Some(Reg::vgrf(s.nr, ty).byte_offset(s.offset).with_stride(0))
    }

    /// A two- or three-source ALU instruction with an immediate in src0 or byte views in
    /// src1/src2 (the opcodes this program drew, else ADD).
    fn multi_source(&mut self, shape: Operands) {
        let ops = self.drawn(&MULTI_SOURCE);
        if ops.is_empty() {
            return self.alu();
        }
        for _ in 0..4 {
            let op = self.pick(&ops);
            debug_assert!(arity(op) >= 2 && !op_types(op).is_empty());
            if self.try_alu(op, shape) {
                return;
            }
        }
        self.alu();
    }
}

/// The three-source opcodes (their types: `op_types`).
const THREE_SOURCE: [Opcode; 5] = [
    Opcode::Mad,
    Opcode::Lrp,
    Opcode::Bfe,
    Opcode::Bfi2,
    Opcode::Add3,
];

/// Mixed-width integer multiply operand types (src0, src1): a word by a dword either way,
/// signed or not (Mesa's `lower_mul_dword_inst` territory, docs/hardware/eu-hardware.md §4).
const MIXED_MUL: [(Type, Type); 8] = [
    (Type::W, Type::D),
    (Type::D, Type::W),
    (Type::UW, Type::UD),
    (Type::UD, Type::UW),
    (Type::W, Type::UD),
    (Type::UD, Type::W),
    (Type::UW, Type::D),
    (Type::D, Type::UW),
];

impl Gen<'_, '_> {
    /// A new value at any sub-register of a VGRF one register larger than it needs: at
    /// SIMD8 a dword value from `v+28` has one channel in the first register and seven in
    /// the next (unevenly split, straddling). `fix_registers` may later move the VGRF to
    /// fixed GRFs (`g44.7`). One in two is written by a three-source instruction (below).
    fn uneven_value(&mut self) {
        if !self.uniform_control() {
            return self.alu();
        }
        let vgrfs_before = self.p.vgrf_sizes.len();
        let three: Vec<Opcode> = self
            .drawn(&THREE_SOURCE)
            .into_iter()
            .filter(|&op| !self.types_for(op).is_empty())
            .collect();
        if !three.is_empty() && self.chance(1, 2) {
            let op = self.pick(&three);
            let types = self.types_for(op);
            let ty = self.pick(&types);
            let v = self.uneven_slot(ty);
            return self.three_source_uneven(op, v, vgrfs_before);
        }
        // 64-bit values one time in three where the program has them: inside a register
        // they are what the 64-bit region rules of the low-power parts (CHV, BXT, GLK)
        // restrict most (docs/hardware/eu-hardware.md §5.1), and a uniform draw over the
        // program's types rarely picks them.
        let wide: Vec<Type> = self
            .types
            .iter()
            .copied()
            .filter(|t| t.size() == 8)
            .collect();
        let ty = if !wide.is_empty() && self.chance(1, 3) {
            self.pick(&wide)
        } else {
            self.any_type()
        };
        let v = self.uneven_slot(ty);
        let a = self.src(ty, false);
        let ops = self.drawn(&[Opcode::Add, Opcode::Mul, Opcode::Sel]);
        let inst = if !ops.is_empty() && self.chance(1, 2) {
            let op = self.pick(&ops);
            let b = self.src(ty, true);
            let mut inst = Inst::new(op, self.width, self.val_reg(v), vec![a, b]);
            if op == Opcode::Sel {
                inst.cmod = Some(self.pick(&[CondMod::L, CondMod::Ge]));
            }
            inst
        } else {
            Inst::new(Opcode::Mov, self.width, self.val_reg(v), vec![a])
        };
        self.emit_or_alu(inst, Some(v), vgrfs_before);
    }

    /// An input overwritten between two uses of it, as a post-RA program may reuse the
    /// thread payload: an instruction reading an attribute, a write of a per-channel
    /// value into that attribute's payload GRFs (a fixed-GRF destination, so the write
    /// and the reads are in different register files until `lower_payload_inputs`), then
    /// the same instruction again, which must see the new bytes. Every pass that carries a
    /// value across instructions (CSE, copy and cmod propagation, scheduling) has to take
    /// the write as killing the attribute.
    fn overwritten_input(&mut self) {
        let dwords: Vec<Type> = [Type::F, Type::D, Type::UD]
            .into_iter()
            .filter(|t| self.types.contains(t))
            .collect();
        if dwords.is_empty() || self.p.attr_sizes.is_empty() {
            return self.alu();
        }
        let ty = self.pick(&dwords);
        let k = self.choose(self.p.attr_sizes.len());
        let input = Reg::attr(k as u32, ty);
        let ops = self.drawn(&[Opcode::Add, Opcode::Mul, Opcode::Sel, Opcode::Xor]);
        let op = if ops.is_empty() {
            Opcode::Mov
        } else {
            self.pick(&ops)
        };
        let op = if op == Opcode::Xor && ty == Type::F {
            Opcode::Add
        } else {
            op
        };
        let other = self.src(ty, true);
        let use_of = |g: &mut Self| {
            let (dst, new) = g.dst(ty)?;
            let srcs = if op == Opcode::Mov {
                vec![input]
            } else {
                vec![input, other]
            };
            let mut inst = Inst::new(op, g.width, dst, srcs);
            if op == Opcode::Sel {
                inst.cmod = Some(CondMod::L);
            }
            Some((inst, new))
        };
        let Some((first, first_new)) = use_of(self) else {
            return self.alu();
        };
        if !self.try_emit(first) {
            return self.alu();
        }
        self.vals.extend(first_new);
        let base = compiler::payload::PayloadLayout::new(&self.p).attr_bases[k] as u32;
        let dst = compiler::passes::fixed_operand(base, 1, ty, self.width as u32, true);
        let value = self.src(ty, false);
        if !self.try_emit(Inst::new(Opcode::Mov, self.width, dst, vec![value])) {
            return;
        }
        if let Some((again, new)) = use_of(self)
            && self.try_emit(again)
        {
            self.vals.extend(new);
        }
    }

    /// A place for a new value of `ty` at any sub-register of a new VGRF one register
    /// larger than the value needs.
    fn uneven_slot(&mut self, ty: Type) -> Val {
        let size = ty.size();
        let offset = size * self.choose((REG_SIZE / size) as usize) as u32;
        let nr = self.new_vgrf(self.regs_for(ty) + 1);
        Val { nr, offset, ty }
    }

    /// A three-source instruction (MAD, LRP, BFE, BFI2) at the dispatch width writing the
    /// new value `v`, which may start inside a register, and reading other values that do
    /// (one source in two is such a value when there is one). Align16 three-source operands
    /// have their sub-register in dwords but the compiler keeps them register-aligned and
    /// packed (docs/hardware/eu-hardware.md §1.3, §7.3): it must copy such operands in and
    /// out. One MAD or LRP in three carries a conditional modifier whose flag a predicated
    /// SEL then reads: at SIMD32 with 16-bit data a case for the SIMD16 limit of ternary
    /// instructions with a conditional modifier (docs/hardware/brw-backend.md §4.1 rule 3).
    fn three_source_uneven(&mut self, op: Opcode, v: Val, vgrfs_before: usize) {
        let inside: Vec<Val> = self
            .vals
            .iter()
            .copied()
            .filter(|w| w.ty == v.ty && !w.offset.is_multiple_of(REG_SIZE))
            .collect();
        let srcs: Vec<Reg> = (0..arity(op))
            .map(|i| {
                if !inside.is_empty() && self.chance(1, 2) {
                    let w = self.pick(&inside);
                    self.val_reg(w)
                } else {
                    self.src(v.ty, i > 0)
                }
            })
            .collect();
        let mut inst = Inst::new(op, self.width, self.val_reg(v), srcs);
        let tested = matches!(op, Opcode::Mad | Opcode::Lrp) && self.chance(1, 3);
        if tested {
            inst = inst.with_cmod(self.pick(&CONDS), self.general_flag);
        }
        if !self.try_emit(inst) {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            return self.alu();
        }
        self.vals.push(v);
        if tested {
            self.flag_to_value();
        }
    }

    /// `mul d:D, a:W, b:D`-style multiplies: a word and a dword operand in either order,
    /// one sometimes an immediate, either sometimes negated or absolute.
    fn mixed_mul(&mut self) {
        if !self.ops.contains(&Opcode::Mul) {
            return self.alu();
        }
        let (ta, tb) = self.pick(&MIXED_MUL);
        let operand = |g: &mut Self, ty: Type, imm: bool| {
            if imm && g.chance(1, 4) {
                return g.imm(ty);
            }
            let r = g.src(ty, false);
            match g.choose(6) {
                0 if !r.is_imm() => r.negated(),
                1 if !r.is_imm() => r.with_abs(),
                _ => r,
            }
        };
        let imm_a = self.chance(1, 4);
        let a = operand(self, ta, imm_a);
        let b = operand(self, tb, true);
        let signed = ta.is_signed() || tb.is_signed();
        let dst_ty = match (signed, self.chance(1, 4)) {
            (_, true) => self.pick(&[Type::W, Type::UW]),
            (true, false) => Type::D,
            (false, false) => Type::UD,
        };
        let vgrfs_before = self.p.vgrf_sizes.len();
        let Some((dst, new)) = self.dst(dst_ty) else {
            return self.alu();
        };
        let inst = Inst::new(Opcode::Mul, self.width, dst, vec![a, b]);
        self.emit_or_alu(inst, new, vgrfs_before);
    }
}

/// Registers kept free above the fixed ones, besides twice the VGRFs left, for the
/// temporaries lowering adds (a SIMD16 sampler response alone takes eight).
const FIXED_ROOM: u32 = 16;

/// Most registers left free before each group of fixed GRFs (the first one right after
/// the payload), so that register allocation must place the VGRFs left around them.
const FIXED_GAP: u32 = 3;

/// First GRF of EOT payloads on Gen7+ (`allocate_registers`), where EOT message sources
/// moved to fixed GRFs go.
const EOT_FIRST_GRF: u32 = 112;

/// `fixed-grf`: moves VGRFs to fixed GRFs, as a post-RA program has them — all of them
/// (one program in two: then the program has no VGRFs, unless an instruction reads and
/// writes one) or a random half. Each moved VGRF gets registers of
/// its own, from just above the payload up with small random holes between them; payloads
/// of EOT SENDs go to g112 and up. Register allocation leaves every GRF the program
/// names alone (`allocate_registers`, docs/pipeline.md "Fixed GRFs in the input"), so the
/// VGRFs left and the lowering temporaries go in the holes and above. Regions come from
/// `compiler::passes::fixed_operand` (a destination's and a scalar's given by their
/// stride). Nothing changes if the registers do not fit or the moved program breaks a
/// validator rule.
pub(super) fn fix_registers(p: &mut compiler::Program, u: &mut arbitrary::Unstructured) {
    let n = p.vgrf_sizes.len();
    let all = u.ratio(1u8, 2).unwrap_or(false);
    let mut moved: Vec<bool> = (0..n)
        .map(|_| all || u.arbitrary::<bool>().unwrap_or(false))
        .collect();
    let mut eot = vec![false; n];
    let vgrf = |r: &Reg| match r.kind {
        RegKind::Vgrf { nr, .. } => Some(nr as usize),
        _ => None,
    };
    for inst in p.insts() {
        let srcs: Vec<usize> = inst.srcs.iter().filter_map(vgrf).collect();
        // Only a hardware SEND's EOT message must sit in g112 and up; a logical EOT
        // message's sources are copied into a payload register allocation places there.
        if inst.eot && inst.op == Opcode::Send {
            srcs.iter().for_each(|&v| eot[v] = true);
            // A message starting inside a register is copied to g112 and up (allocation
            // places the copy): its own registers there would leave the copy no room.
            for s in &inst.srcs {
                if let RegKind::Vgrf { nr, offset, .. } = s.kind
                    && offset % REG_SIZE != 0
                {
                    moved[nr as usize] = false;
                }
            }
        }
        // A destination more than four elements strided has no hardware region (HorzStride
        // is at most 4): only a VGRF, which lowering writes through a wider type, can be it.
        if let RegKind::Vgrf { nr, stride, .. } = inst.dst.kind
            && stride > 4
        {
            moved[nr as usize] = false;
        }
        // The destination of a Gen4/5 min/max stays virtual: dead-code elimination removes
        // only VGRF writes, so a dead `sel.l` into a fixed GRF would stay, and its
        // lowering needs a free flag subregister the program may not have.
        if inst.op == Opcode::Sel
            && inst.cmod.is_some()
            && p.device.info().verx10 < 60
            && let Some(d) = vgrf(&inst.dst)
        {
            moved[d] = false;
        }
    }
    let info = p.device.info();
    let top = if info.verx10 >= 80 {
        info.grf_count - 1
    } else {
        info.grf_count
    };
    let mut first = vec![0u32; n];
    let mut next_eot = EOT_FIRST_GRF;
    for v in 0..n {
        if !(moved[v] && eot[v]) {
            continue;
        }
        if next_eot + p.vgrf_sizes[v] <= top {
            first[v] = next_eot;
            next_eot += p.vgrf_sizes[v];
        } else {
            moved[v] = false;
        }
    }
    let mut next = compiler::payload::PayloadLayout::new(p).regs as u32;
    for v in (0..n).filter(|&v| moved[v] && !eot[v]) {
        next += u.int_in_range(0..=FIXED_GAP).unwrap_or(0);
        first[v] = next;
        next += p.vgrf_sizes[v];
    }
    // Above the fixed registers, room for the VGRFs left and the temporaries lowering adds
    // (the holes between fixed registers are too small for most of them).
    let left: u32 = (0..n).filter(|&v| !moved[v]).map(|v| p.vgrf_sizes[v]).sum();
    if next + 2 * left + FIXED_ROOM > EOT_FIRST_GRF || !moved.contains(&true) {
        return;
    }
    let lower = |r: &Reg, exec: u32, is_dst: bool| -> Option<Reg> {
        let RegKind::Vgrf { nr, offset, stride } = r.kind else {
            return None;
        };
        if !moved[nr as usize] {
            return None;
        }
        let byte = first[nr as usize] * REG_SIZE + offset;
        let mut out = compiler::passes::fixed_operand(byte, stride as u32, r.ty, exec, is_dst);
        out.negate = r.negate;
        out.abs = r.abs;
        Some(out)
    };
    let mut q = p.clone();
    for block in &mut q.blocks {
        for inst in &mut block.insts {
            let exec = inst.exec_size as u32;
            if let Some(d) = lower(&inst.dst, exec, true) {
                inst.dst = d;
            }
            for s in &mut inst.srcs {
                if let Some(r) = lower(s, exec, false) {
                    *s = r;
                }
            }
        }
    }
    two_dimensional_sources(&mut q, u);
    if moved.iter().all(|&m| m) {
        q.vgrf_sizes.clear();
    }
    if compiler::validate::validate(&q).is_empty() {
        *p = q;
    }
}

/// Some fixed-GRF sources of ALU instructions read through a two-dimensional region
/// instead of their linear one: rows repeated (`<0;4,1>`), an element repeated along a
/// row (`<4;4,0>`, `<2;2,0>` as derivatives read a subspan) or rows overlapping
/// (`<2;4,1>`). Lowering splits and copies such operands by the region, not by a stride
/// (docs/hardware/eu-hardware.md §1.1, §1.6), and relocation alone only makes linear
/// regions. Each region reads only elements its linear region covered, so only bytes the
/// program wrote, and obeys the hardware's region rules (so a rule broken after lowering
/// is the compiler's doing); an instruction keeps its linear regions otherwise.
fn two_dimensional_sources(p: &mut compiler::Program, u: &mut arbitrary::Unstructured) {
    let checker = crate::strict::Checker::new(p.device);
    let steering = steers_loops(p);
    let mut ip = 0;
    let mut changes = Vec::new();
    for (b, block) in p.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            ip += 1;
            let alu = !inst.op.is_message() && !inst.op.is_control_flow() && !inst.op.is_3src();
            if !alu || !u.ratio(1u8, 3).unwrap_or(false) {
                continue;
            }
            let mut variant = inst.clone();
            let n = inst.exec_size as u32;
            for s in &mut variant.srcs {
                if let RegKind::Fixed { region, .. } = &mut s.kind
                    && let Some(stride) = region.linear_stride()
                    && let Some(r) = two_dimensional(stride, n, u)
                {
                    *region = r;
                }
            }
            // The region must be one the hardware takes for the instruction as written:
            // the variant breaks no region rule its linear original does not (the logical
            // program may break others, which lowering is there to fix).
            if variant == *inst
                || steering[ip - 1]
                || !compiler::validate::validate_inst(p, ip - 1, &variant).is_empty()
            {
                continue;
            }
            let already: Vec<&str> = checker.check(inst).into_iter().map(|r| r.rule).collect();
            if checker
                .check(&variant)
                .iter()
                .all(|r| already.contains(&r.rule))
            {
                changes.push((b, i, variant));
            }
        }
    }
    for (b, i, inst) in changes {
        p.blocks[b].insts[i] = inst;
    }
}

/// Per instruction in program order, whether its values decide when a loop ends, so that
/// its sources keep their linear regions: a conditional modifier whose flag control flow
/// reads next (WHILE, or the IF around a BREAK), and an instruction in a loop that updates
/// one of its own sources (a loop counter). The generator's loops end because each channel counts
/// its own iterations (control.rs); a counter read through a two-dimensional region reads
/// another channel's, and a channel still in the loop would wait forever for the count of
/// one that left it. (The region is drawn all the same, so the draws of the other
/// instructions do not move.)
fn steers_loops(p: &compiler::Program) -> Vec<bool> {
    let insts: Vec<&Inst> = p.blocks.iter().flat_map(|b| &b.insts).collect();
    let next_flag_reader = |from: usize, flag: u8| {
        insts[from + 1..]
            .iter()
            .find(|i| i.flag_subreg == flag && (i.predicate.is_some() || i.writes_flag()))
    };
    let mut depth = 0u32;
    insts
        .iter()
        .enumerate()
        .map(|(ip, inst)| {
            match inst.op {
                Opcode::Do => depth += 1,
                Opcode::While => depth = depth.saturating_sub(1),
                _ => {}
            }
            let counts = depth > 0
                && inst
                    .dst
                    .footprint(inst.exec_size as u32)
                    .is_some_and(|(a, b)| {
                        matches!(inst.dst.kind, RegKind::Fixed { .. })
                            && inst.srcs.iter().any(|s| {
                                matches!(s.kind, RegKind::Fixed { .. })
                                    && s.footprint(inst.exec_size as u32)
                                        .is_some_and(|(c, d)| c < b && a < d)
                            })
                    });
            let tested = inst.writes_flag()
                && next_flag_reader(ip, inst.flag_subreg).is_some_and(|r| {
                    r.op.is_control_flow() && r.predicate.is_some() && !r.writes_flag()
                });
            counts || tested
        })
        .collect()
}

/// A non-linear region for `n` channels that reads only elements `0..=(n-1)·stride`, the
/// ones the linear region of `stride` reads; `None` if the draw gives no such region.
fn two_dimensional(stride: u32, n: u32, u: &mut arbitrary::Unstructured) -> Option<Region> {
    let width = [2u32, 4, 8][u.int_in_range(0..=2).unwrap_or(0)].min(n);
    let hstride = if u.arbitrary::<bool>().unwrap_or(false) {
        0
    } else {
        stride
    };
    let vstride =
        [0, stride, width * stride / 2, width * stride][u.int_in_range(0..=3).unwrap_or(0)];
    let region = Region::new(vstride as u8, width as u8, hstride as u8);
    let legal = width >= 2
        && matches!(hstride, 0 | 1 | 2 | 4)
        && (vstride == 0 || (vstride <= 32 && vstride.is_power_of_two()));
    let inside = (n / width - 1) * vstride + (width - 1) * hstride <= (n - 1) * stride;
    (legal && inside && region.linear_stride().is_none() && !region.is_scalar()).then_some(region)
}

/// A SEND of `desc` with payload `pl` (no extended payload) at the full width.
fn send(width: u8, dst: Reg, pl: Reg, desc: MsgDesc) -> Inst {
    let mut s = Inst::new(Opcode::Send, width, dst, vec![pl, Reg::null(Type::UD)]);
    s.desc = Some(desc);
    s
}
