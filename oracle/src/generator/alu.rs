//! ALU statements: operand choice (values, inputs, push constants, immediates, strided
//! views), destinations, modifiers, predication, narrow instructions, MUL/MACH pairs.

use super::{Gen, Val, at_group, plain};
use crate::generator::knobs::Feature;
use compiler::Opcode;
use compiler::inst::{CondMod, Inst, Predicate};
use compiler::reg::{Arf, Reg, RegKind, Region};
use compiler::types::Type;

const INT_IMMS: [i64; 16] = [
    0,
    1,
    -1,
    2,
    3,
    -7,
    31,
    32,
    33,
    0x7fff,
    0x8000,
    -32768,
    0xffff,
    40000,
    65536,
    0x7fff_ffff,
];

const FLOAT_IMMS: [f64; 12] = [
    0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 0.1, 1.0e-40, 3.0e38, 1.0e6, -4.0, 0.25,
];

/// How an ALU instruction's sources are drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Operands {
    /// Each from the usual pool (values, inputs, push constants, immediates after src0).
    Drawn,
    /// An immediate in src0, which the compiler must move (docs/hardware/eu-hardware.md §3.3).
    ImmSrc0,
    /// Byte-typed views in src1/src2, which Gfx11+ must legalise (`Feature::ByteSrc`).
    ByteSrc,
}

pub(super) const CONDS: [CondMod; 6] = [
    CondMod::Z,
    CondMod::Nz,
    CondMod::G,
    CondMod::Ge,
    CondMod::L,
    CondMod::Le,
];

/// Result types an opcode can have (before the device's own type set is applied).
pub(super) fn op_types(op: Opcode) -> &'static [Type] {
    use Opcode::*;
    match op {
        Not | And | Or | Xor | Shr | Shl | Asr | Rol | Ror => {
            &[Type::D, Type::UD, Type::W, Type::UW, Type::Q, Type::UQ]
        }
        Addc | Subb => &[Type::UD],
        Avg | Add3 => &[Type::D, Type::UD, Type::W, Type::UW],
        Mad | Lrp | Frc | Rndu | Rndd | Rnde | Rndz => &[Type::F, Type::HF, Type::DF],
        Bfrev | Bfe | Bfi1 | Bfi2 | Fbh | Fbl | Cbit | Lzd | Mulh | IntQuotient | IntRemainder => {
            &[Type::D, Type::UD]
        }
        Rcp | Rsq | Sqrt | Exp2 | Log2 | Sin | Cos | Pow => &[Type::F, Type::HF],
        _ => &[
            Type::F,
            Type::D,
            Type::UD,
            Type::W,
            Type::UW,
            Type::HF,
            Type::DF,
            Type::Q,
            Type::UQ,
        ],
    }
}

pub(super) fn arity(op: Opcode) -> usize {
    use Opcode::*;
    match op {
        Mov | Not | Frc | Rndu | Rndd | Rnde | Rndz | Bfrev | Fbh | Fbl | Cbit | Lzd | Rcp
        | Rsq | Sqrt | Exp2 | Log2 | Sin | Cos => 1,
        Mad | Lrp | Bfe | Bfi2 | Add3 => 3,
        _ => 2,
    }
}

impl Gen<'_, '_> {
    /// A new value from the inputs or an immediate, at the top of the program.
    pub(super) fn initial_value(&mut self) {
        let ty = self.any_type();
        let nr = self.new_vgrf(self.regs_for(ty));
        let v = Val { nr, offset: 0, ty };
        let src = match self.choose(4) {
            0 => self.uniform_src(ty),
            1 => self.imm(ty),
            _ => {
                let k = self.choose(self.p.attr_sizes.len()) as u32;
                let attr_ty = if ty.size() == 2 { Type::UD } else { ty };
                Reg::attr(k, attr_ty)
            }
        };
        let inst = Inst::new(Opcode::Mov, self.width, self.val_reg(v), vec![src]);
        if self.try_emit(inst) {
            self.vals.push(v);
        } else {
            let k = self.choose(self.p.attr_sizes.len()) as u32;
            let mov = Inst::new(
                Opcode::Mov,
                self.width,
                Reg::vgrf(nr, Type::UD),
                vec![Reg::attr(k, Type::UD)],
            );
            if ty.size() >= 4 && self.try_emit(mov) {
                self.vals.push(v);
            }
        }
    }

    pub(super) fn imm(&mut self, ty: Type) -> Reg {
        if ty.is_float() {
            let x = self.pick(&FLOAT_IMMS);
            match ty {
                Type::DF => Reg::imm_df(x),
                Type::HF => Reg::imm(half::f16::from_f64(x).to_bits() as u64, Type::HF),
                _ => Reg::imm_f(x as f32),
            }
        } else {
            let x = self.pick(&INT_IMMS);
            match ty.size() {
                2 => Reg::imm(x as u64 & 0xffff, ty),
                4 => Reg::imm(x as u64 & 0xffff_ffff, ty),
                _ => Reg::imm(x as u64, ty),
            }
        }
    }

    /// A push constant read as a scalar of `ty`.
    pub(super) fn uniform_src(&mut self, ty: Type) -> Reg {
        let n = self.p.uniforms;
        match ty.size() {
            8 => Reg::uniform(2 * self.choose(n as usize / 2) as u32, ty),
            4 => Reg::uniform(self.choose(n as usize) as u32, ty),
            size => {
                let nr = self.choose(n as usize) as u32;
                let offset = size * self.choose((4 / size) as usize) as u32;
                Reg::new(RegKind::Uniform { nr, offset }, ty)
            }
        }
    }

    /// A defined per-channel (or scalar) source of `ty`.
    pub(super) fn src(&mut self, ty: Type, allow_imm: bool) -> Reg {
        let same: Vec<Val> = self
            .vals
            .iter()
            .copied()
            .filter(|v| v.ty.size() == ty.size())
            .collect();
        let mut r = match self.choose(10) {
            0 if allow_imm => self.imm(ty),
            1 => self.uniform_src(ty),
            2 | 3 if self.has(Feature::Strided) => self.strided_view(ty),
            4 => self.attr_src(ty),
            5 if self.has(Feature::Scalar) && self.chance(1, 2) => {
                self.scalar_read(ty).unwrap_or_else(|| self.attr_src(ty))
            }
            _ if !same.is_empty() => {
                let v = self.pick(&same);
                self.val_reg(v).retype(ty)
            }
            _ => self.attr_src(ty),
        };
        if self.has(Feature::Modifiers) && !r.is_imm() && self.chance(1, 6) {
            r = if self.chance(1, 2) {
                r.negated()
            } else {
                r.with_abs()
            };
        }
        r
    }

    pub(super) fn attr_src(&mut self, ty: Type) -> Reg {
        let k = self.choose(self.p.attr_sizes.len()) as u32;
        // An attr holds eight bytes per channel: narrow types can be read at a wide stride.
        let wide = self.has(Feature::Strided) && self.chance(1, 2);
        let stride = match (ty.size(), wide) {
            (1, true) => 8,
            (1, false) => 4,
            (2, true) => 4,
            (2, false) => 2,
            (4, true) => 2,
            _ => 1,
        };
        let offset = if stride > 1 {
            ty.size() * self.choose(stride as usize) as u32
        } else {
            0
        };
        Reg::attr(k, ty).with_stride(stride).byte_offset(offset)
    }

    /// A narrower type read out of a wider value: `v+2<2>:W` of a dword value, `v+4<2>:UD`
    /// of a qword value.
    pub(super) fn strided_view(&mut self, ty: Type) -> Reg {
        let wider: Vec<Val> = self
            .vals
            .iter()
            .copied()
            .filter(|v| v.ty.size() > ty.size())
            .collect();
        if wider.is_empty() {
            return self.attr_src(ty);
        }
        self.part_of(&wider, ty)
    }

    /// Every `ty`-sized part at one position of one of the `wider` values, as a strided view.
    pub(super) fn part_of(&mut self, wider: &[Val], ty: Type) -> Reg {
        let v = self.pick(wider);
        let stride = v.ty.size() / ty.size();
        let part = self.choose(stride as usize) as u32;
        Reg::vgrf(v.nr, ty)
            .byte_offset(v.offset + part * ty.size())
            .with_stride(stride as u8)
    }

    /// Where a result of `ty` goes: a new value (where that is well defined), an existing
    /// value of the type, or a strided part of a wider value. `None` if nothing fits.
    pub(super) fn dst(&mut self, ty: Type) -> Option<(Reg, Option<Val>)> {
        self.dst_where(ty, true)
    }

    /// Like [`Gen::dst`], but a new value only if `full_write` (the instruction writes
    /// every channel of the dispatch width: a narrower one would leave the rest undefined).
    pub(super) fn dst_where(&mut self, ty: Type, full_write: bool) -> Option<(Reg, Option<Val>)> {
        let same: Vec<Val> = self.vals.iter().copied().filter(|v| v.ty == ty).collect();
        let wider: Vec<Val> = self
            .vals
            .iter()
            .copied()
            .filter(|v| v.ty.size() > ty.size())
            .collect();
        if self.has(Feature::Strided) && !wider.is_empty() && self.chance(1, 6) {
            return Some((self.part_of(&wider, ty), None));
        }
        if full_write && self.uniform_control() && (same.is_empty() || self.chance(1, 2)) {
            let nr = self.new_vgrf(self.regs_for(ty));
            let v = Val { nr, offset: 0, ty };
            return Some((self.val_reg(v), Some(v)));
        }
        if same.is_empty() {
            return None;
        }
        let v = self.pick(&same);
        Some((self.val_reg(v), None))
    }

    /// Execution size and group: the dispatch width, or a narrower piece of it.
    pub(super) fn exec_group(&mut self) -> (u8, u8) {
        if self.has(Feature::Narrow) && self.width >= 16 && self.chance(1, 4) {
            let exec = if self.width == 32 && self.chance(1, 2) {
                16
            } else {
                8
            };
            let group = exec * self.choose((self.width / exec) as usize) as u8;
            (exec, group)
        } else {
            (self.width, 0)
        }
    }

    /// An ALU instruction (a MOV if a few tries at the drawn opcodes all break a rule).
    pub(super) fn alu(&mut self) {
        for _ in 0..4 {
            let i = self.choose(self.ops.len());
            let op = self.ops[i];
            if self.try_alu(op, Operands::Drawn) {
                return;
            }
        }
        self.try_alu(Opcode::Mov, Operands::Drawn);
    }

    /// The result types `op` can have that this program uses.
    pub(super) fn types_for(&self, op: Opcode) -> Vec<Type> {
        op_types(op)
            .iter()
            .copied()
            .filter(|t| self.types.contains(t))
            .collect()
    }

    pub(super) fn try_alu(&mut self, op: Opcode, shape: Operands) -> bool {
        let types = self.types_for(op);
        if types.is_empty() {
            return false;
        }
        let ty = self.pick(&types);
        let (exec, group) = self.exec_group();
        let src_ty =
            match op {
                Opcode::Mov if self.has(Feature::Strided) && self.chance(1, 4) => {
                    if self.chance(1, 2) { Type::UB } else { Type::B }
                }
                Opcode::Mov => self.any_type(),
                Opcode::Add | Opcode::Mul | Opcode::Avg if ty.is_int() && self.chance(1, 4) => {
                    let ints: Vec<Type> =
                        self.types.iter().copied().filter(|t| t.is_int()).collect();
                    self.pick(&ints)
                }
                _ => ty,
            };
        let mixed = self.mixed_float(op, ty);
        let srcs: Vec<Reg> = (0..arity(op))
            .map(|i| {
                let src_ty = if mixed {
                    self.pick(&[Type::F, Type::HF])
                } else {
                    src_ty
                };
                let s = match (shape, i) {
                    (Operands::ImmSrc0, 0) => self.imm(src_ty),
                    (Operands::ByteSrc, 1 | 2) => {
                        let b = if self.chance(1, 2) { Type::B } else { Type::UB };
                        self.strided_view(b)
                    }
                    _ => self.src(src_ty, i > 0 || op == Opcode::Mov),
                };
                at_group(s, group as u32)
            })
            .collect();
        let cmp = matches!(op, Opcode::Cmp | Opcode::Cmpn);
        let vgrfs_before = self.p.vgrf_sizes.len();
        let (dst, new) = if cmp && self.chance(2, 3) {
            // A flag-only compare's null destination may have another type than its
            // sources (Mesa's `cmp null:D, a:F, b:F`; a 32-bit null for 64-bit sources,
            // whose stride the low-power parts then constrain).
            let null_ty = if !self.realistic && self.chance(1, 3) {
                self.any_type()
            } else {
                ty
            };
            (Reg::null(null_ty), None)
        } else {
            match self.dst_where(ty, exec == self.width) {
                Some(d) => d,
                None => return false,
            }
        };
        // Inside divergent control flow, sometimes go through a short-lived temporary
        // (read right after by the channels that wrote it): register pressure inside loops.
        let via_temp = !self.uniform_control()
            && new.is_none()
            && !cmp
            && dst.kind_stride() == Some(1)
            && self.chance(1, 3);
        let (dst, final_dst) = if via_temp {
            let t = Reg::vgrf(self.new_vgrf(self.regs_for(ty)), ty);
            (t, Some(dst))
        } else {
            (dst, None)
        };
        let mut inst = Inst::new(op, exec, at_group(dst, group as u32), srcs).with_group(group);
        if op == Opcode::Addc || op == Opcode::Subb {
            inst.acc_wr = true;
        }
        let flag = self.general_flag;
        if cmp {
            let cond = self.compare_condition(op, ty);
            inst = inst.with_cmod(cond, flag);
            if !self.realistic
                && self.has(Feature::Predication)
                && new.is_none()
                && self.chance(1, 4)
            {
                inst = self.predicated_flag_write(inst, exec, group);
            }
        } else if op == Opcode::Sel {
            if self.chance(1, 2) {
                inst.cmod = Some(if self.chance(1, 2) {
                    CondMod::L
                } else {
                    CondMod::Ge
                });
            } else {
                self.set_flag(exec, group);
                inst = inst.with_pred(Predicate::NORMAL, flag);
            }
        } else if self.has(Feature::Predication) && new.is_none() && self.chance(1, 6) {
            // (A new value must be written in every channel: never predicated.)
            if !self.realistic
                && self.has(Feature::Modifiers)
                && op.ir_can_do_cmod()
                && self.chance(1, 4)
            {
                inst = inst.with_cmod(self.pick(&CONDS), flag);
                inst = self.predicated_flag_write(inst, exec, group);
            } else {
                self.set_flag(exec, group);
                let pred = if self.chance(1, 2) {
                    Predicate::NORMAL
                } else {
                    Predicate::INVERSE
                };
                inst = inst.with_pred(pred, flag);
            }
        } else if self.has(Feature::Modifiers) && self.chance(1, 8) && op.ir_can_do_cmod() {
            inst = inst.with_cmod(self.pick(&CONDS), flag);
        }
        if self.has(Feature::Modifiers) && ty.is_float() && self.chance(1, 6) {
            inst.saturate = true;
        }
        let pred = (inst.predicate, inst.flag_subreg);
        if self.try_emit(inst) {
            if let Some(v) = new {
                self.vals.push(v);
            }
            if let (Some(to), Some(t)) = (final_dst, Some(dst)) {
                let mut mov = Inst::new(
                    Opcode::Mov,
                    exec,
                    at_group(to, group as u32),
                    vec![at_group(t, group as u32)],
                )
                .with_group(group);
                mov.predicate = pred.0;
                mov.flag_subreg = pred.1;
                self.emit(mov);
            }
            true
        } else {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            false
        }
    }

    /// Whether this float operation draws each source's type from F and HF (one in four
    /// where the program has both): mixed-float mode (docs/hardware/eu-hardware.md §3.4
    /// for the execution type, §6.5 for its restrictions), which the lowering passes must
    /// legalise (SIMD8 limits, strided HF math inputs, oword-aligned packed HF results).
    /// Math and three-source MAD/LRP included; a MOV already converts between any two
    /// types.
    pub(super) fn mixed_float(&mut self, op: Opcode, ty: Type) -> bool {
        matches!(ty, Type::F | Type::HF)
            && op != Opcode::Mov
            && !self.realistic
            && self.types.contains(&Type::F)
            && self.types.contains(&Type::HF)
            && self.chance(1, 4)
    }

    /// `inst`, whose conditional modifier writes the general flag, predicated on that same
    /// flag after setting it: Mesa's demote (`(+f0.1) cmp.z.f0.1 null`, `brw_fs_nir.cpp`).
    /// The channels whose predicate fails keep their flag bits (docs/hardware/eu-hardware.md
    /// §2.3: a predicated instruction writes only the channels whose bit is set, and a
    /// conditional modifier updates the bits of the enabled channels), so a pass that
    /// takes such a write for a whole one — DCE's flag liveness, cmod propagation, a
    /// SIMD split, the Gen4/5 min/max flag tracking — drops bits the program still holds.
    pub(super) fn predicated_flag_write(&mut self, inst: Inst, exec: u8, group: u8) -> Inst {
        self.set_flag(exec, group);
        let pred = if self.chance(1, 2) {
            Predicate::NORMAL
        } else {
            Predicate::INVERSE
        };
        inst.with_pred(pred, self.general_flag)
    }

    /// A compare's condition: one float CMP in four tests "unordered" (a NaN operand), the
    /// condition no other one inverts, so a pass that swaps, inverts or folds a compare's
    /// condition must leave it alone (docs/hardware/brw-backend.md §1.7); otherwise any of
    /// [`CONDS`]. (CMPN's NaN rules make `.u` mean something else: never drawn for it.)
    fn compare_condition(&mut self, op: Opcode, ty: Type) -> CondMod {
        if !self.realistic && op == Opcode::Cmp && ty.is_float() && self.chance(1, 4) {
            CondMod::U
        } else {
            self.pick(&CONDS)
        }
    }

    /// Sets the general flag for `exec` channels from `group` with a compare of defined values.
    pub(super) fn set_flag(&mut self, exec: u8, group: u8) {
        for _ in 0..4 {
            let ty = self.any_type();
            let a = at_group(self.src(ty, false), group as u32);
            let b = at_group(self.src(ty, true), group as u32);
            let cond = self.compare_condition(Opcode::Cmp, ty);
            let inst = Inst::new(Opcode::Cmp, exec, Reg::null(ty), vec![a, b])
                .with_group(group)
                .with_cmod(cond, self.general_flag);
            if self.try_emit(inst) {
                return;
            }
        }
        let inst = Inst::new(
            Opcode::Cmp,
            exec,
            Reg::null(Type::UD),
            vec![
                at_group(self.attr_src(Type::UD), group as u32),
                Reg::imm_ud(0x8000_0000),
            ],
        )
        .with_group(group)
        .with_cmod(CondMod::L, self.general_flag);
        self.emit(inst);
    }

    /// The general flag read as data by an instruction whose conditional modifier writes
    /// that same flag (Mesa fa6e74e33e5): split into halves, the first half's flag update
    /// must not reach what the second half reads. The flag is first set in full (NoMask) so
    /// every byte read is defined.
    pub(super) fn flag_as_data(&mut self) {
        let g = self.general_flag;
        let (set_ty, bytes) = if self.width == 32 {
            (Type::UD, 4)
        } else {
            (Type::UW, 2)
        };
        let types: Vec<Type> = self
            .types
            .iter()
            .copied()
            .filter(|t| t.size() <= 4 && *t != Type::HF)
            .collect();
        if types.is_empty() {
            return self.alu();
        }
        let ty = self.pick(&types);
        let vgrfs_before = self.p.vgrf_sizes.len();
        let Some((dst, new)) = self.dst(ty) else {
            return self.alu();
        };
        let bits = u64::from(self.u.arbitrary::<u32>().unwrap_or(0)) & ((1 << (8 * bytes)) - 1);
        let set = Inst::new(
            Opcode::Mov,
            1,
            Reg::flag(g).retype(set_ty),
            vec![Reg::imm(bits, set_ty)],
        )
        .with_nomask();
        let flag_bytes = Reg::arf(
            Arf::Flag,
            g / 2,
            (g % 2) * 2,
            Region::new(0, bytes, 1),
            Type::UB,
        );
        let cond = self.pick(&CONDS);
        let inst = Inst::new(Opcode::Mov, self.width, dst, vec![flag_bytes]).with_cmod(cond, g);
        self.emit(set);
        if self.try_emit(inst) {
            if let Some(v) = new {
                self.vals.push(v);
            }
        } else {
            self.insts.pop();
            self.p.vgrf_sizes.truncate(vgrfs_before);
            self.alu();
        }
    }

    /// A NoMask move inside divergent control flow: it writes inactive channels too.
    pub(super) fn nomask_move(&mut self) {
        let same: Vec<Val> = self
            .vals
            .iter()
            .copied()
            .filter(|v| v.ty.size() == 4)
            .collect();
        if same.is_empty() {
            return self.alu();
        }
        let d = self.pick(&same);
        let s = self.pick(&same);
        let inst = Inst::new(
            Opcode::Mov,
            self.width,
            self.val_reg(d),
            vec![self.val_reg(s).retype(d.ty)],
        )
        .with_nomask();
        if !self.try_emit(inst) {
            self.alu();
        }
    }

    /// The high 32 bits of a 32×32 multiply as the hardware computes them: `mul acc0` with
    /// the low word of src1, then `mach`, one 8-wide pair per group of eight channels.
    pub(super) fn mul_high(&mut self) {
        let ty = if self.chance(1, 2) { Type::UD } else { Type::D };
        // What MULH lowering emits: sources without modifiers (those are materialised).
        let a = plain(self.src(ty, false));
        let b = plain(self.src(ty, false));
        let vgrfs_before = self.p.vgrf_sizes.len();
        let (dst, new) = match self.dst(ty) {
            Some(d) if d.0.kind_stride() == Some(1) => d,
            _ => {
                self.p.vgrf_sizes.truncate(vgrfs_before);
                return self.alu();
            }
        };
        if a.kind_stride() != Some(1) || b.kind_stride() != Some(1) || a.abs || b.abs {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            return self.alu();
        }
        // An update of an existing value may be predicated (fuzz programs only): the
        // MACH then keeps the old value where the predicate fails, which a split of it
        // through a temporary must copy in first (lower_simd_width).
        let predicated =
            new.is_none() && !self.realistic && self.has(Feature::Predication) && self.chance(1, 4);
        if predicated {
            self.set_flag(self.width, 0);
        }
        let mut pair = vec![];
        for group in (0..self.width).step_by(8) {
            let g = group as u32;
            let low = at_group(b, g).retype(Type::UW).with_stride(2);
            pair.push(
                Inst::new(Opcode::Mul, 8, Reg::acc(0, ty), vec![at_group(a, g), low])
                    .with_group(group),
            );
            let mach = Inst::new(
                Opcode::Mach,
                8,
                at_group(dst, g),
                vec![at_group(a, g), at_group(b, g)],
            )
            .with_group(group);
            pair.push(if predicated {
                mach.with_pred(Predicate::NORMAL, self.general_flag)
            } else {
                mach
            });
        }
        let ip = self.insts.len();
        let ok = pair
            .iter()
            .enumerate()
            .all(|(k, i)| compiler::validate::validate_inst(&self.p, ip + k, i).is_empty());
        if !ok {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            return self.alu();
        }
        self.insts.extend(pair);
        if let Some(v) = new {
            self.vals.push(v);
        }
    }
}

/// The element stride of a VGRF or ATTR operand (scalars and other files: `None` or 0).
pub(super) trait KindStride {
    fn kind_stride(&self) -> Option<u8>;
}

impl KindStride for Reg {
    fn kind_stride(&self) -> Option<u8> {
        match self.kind {
            RegKind::Vgrf { stride, .. } | RegKind::Attr { stride, .. } => Some(stride),
            _ => None,
        }
    }
}
