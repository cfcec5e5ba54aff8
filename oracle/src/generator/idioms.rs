//! Optimiser idioms (issue 10 item 4): the shapes the optimisation passes act on, each
//! behind its own swarm feature so a campaign can focus on one (`features=cmod-idiom`).
//! The passes and the historical bugs each shape is for are named on its function
//! (docs/hardware/brw-backend.md §7.1, §10.3, §11). Like every statement, each idiom is valid by
//! construction and well defined: new values are written in full where every live channel
//! runs, flags are set before they are read, NoMask reads only values defined in every
//! channel the dispatch enabled.

use super::alu::{CONDS, arity};
use super::{Gen, Val};
use crate::generator::knobs::{Feature, IDIOM_FEATURES};
use compiler::Opcode;
use compiler::inst::{CondMod, Inst, Predicate};
use compiler::reg::{Reg, RegKind};
use compiler::types::Type;

/// Producers whose conditional modifier tests their own result (the folds of
/// `opt_cmod_propagation`), and some that it must not take (CMP, SEL, integer MUL).
const PRODUCERS: [Opcode; 8] = [
    Opcode::Add,
    Opcode::And,
    Opcode::Or,
    Opcode::Xor,
    Opcode::Mul,
    Opcode::Asr,
    Opcode::Sel,
    Opcode::Mov,
];

/// Immediates the constant idioms share between instructions and blocks.
const SHARED_INTS: [i32; 6] = [3, -7, 40000, 0x7fff_ffff, 65536, 0x1234];
const SHARED_FLOATS: [f32; 5] = [2.5, -0.75, 1.0e6, 0.1, 3.0];

impl Gen<'_, '_> {
    /// Whether this program drew any optimiser idiom.
    pub(super) fn has_idiom(&self) -> bool {
        IDIOM_FEATURES.iter().any(|&f| self.has(f))
    }

    /// One statement of an optimiser idiom this program drew.
    pub(super) fn idiom(&mut self) {
        let on: Vec<Feature> = IDIOM_FEATURES
            .into_iter()
            .filter(|&f| self.has(f))
            .collect();
        match self.pick(&on) {
            Feature::CmodIdiom => self.cmod_idiom(),
            Feature::SatIdiom => self.sat_idiom(),
            Feature::CopyChain => self.copy_chain(),
            Feature::RepeatedExpr => self.repeated_expr(),
            Feature::SharedConst => self.shared_const(),
            Feature::IfMoves => self.if_moves(),
            Feature::LiveChannel => self.live_channel(),
            _ => self.dead_value(),
        }
    }

    /// One of `ops` this program drew (MOV and CMP always: every program has them), or
    /// `None` if it drew none of them.
    fn idiom_op(&mut self, ops: &[Opcode]) -> Option<Opcode> {
        let drawn: Vec<Opcode> = ops
            .iter()
            .copied()
            .filter(|op| matches!(op, Opcode::Mov | Opcode::Cmp) || self.ops.contains(op))
            .collect();
        (!drawn.is_empty()).then(|| self.pick(&drawn))
    }

    /// One of the types the idioms compute in, if the program has any.
    fn idiom_type(&mut self) -> Option<Type> {
        let types = self.idiom_types();
        (!types.is_empty()).then(|| self.pick(&types))
    }

    /// The 32-bit types of this program the idioms compute in.
    fn idiom_types(&self) -> Vec<Type> {
        [Type::F, Type::D, Type::UD]
            .into_iter()
            .filter(|t| self.types.contains(t))
            .collect()
    }

    /// A flag subregister no enclosing loop is testing: the general one or a free loop flag.
    fn free_flag(&mut self) -> u8 {
        let mut flags = vec![self.general_flag];
        flags.extend(self.loop_flags.iter().copied());
        self.pick(&flags)
    }

    /// The zero of `ty` as an immediate.
    fn zero(ty: Type) -> Reg {
        if ty.is_float() {
            Reg::imm_f(0.0)
        } else {
            Reg::imm(0, ty)
        }
    }

    /// Emits `inst` writing to a new or existing value of its destination's type
    /// (`Some(new)` is recorded once the instruction is in); false if it was refused.
    fn emit_into(&mut self, mut inst: Inst, ty: Type) -> Option<Reg> {
        let vgrfs_before = self.p.vgrf_sizes.len();
        let (dst, new) = self.dst(ty)?;
        inst.dst = dst;
        if self.try_emit(inst) {
            if let Some(v) = new {
                self.vals.push(v);
            }
            Some(dst)
        } else {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            None
        }
    }

    /// `(+f) sel d, a, b`: makes the flag `flag` observable (each channel picks a or b).
    fn observe_flag(&mut self, flag: u8, nomask: bool) {
        let ty = self.pick(&self.idiom_types());
        let a = self.src(ty, false);
        let b = self.src(ty, true);
        let pred = if self.chance(1, 2) {
            Predicate::NORMAL
        } else {
            Predicate::INVERSE
        };
        let mut sel =
            Inst::new(Opcode::Sel, self.width, Reg::null(ty), vec![a, b]).with_pred(pred, flag);
        if nomask {
            sel = sel.with_nomask();
        }
        if self.emit_into(sel, ty).is_none() {
            self.alu();
        }
    }

    /// A producer of a new or existing `ty` value from two sources: `op d, a, b`.
    fn producer(&mut self, op: Opcode, ty: Type, nomask: bool) -> Option<Reg> {
        let a = self.src(ty, false);
        let b = self.src(ty, true);
        let srcs = operands(op, [a, b]);
        let mut inst = Inst::new(op, self.width, Reg::null(ty), srcs);
        inst.nomask = nomask;
        if op == Opcode::Sel {
            inst.cmod = Some(if self.chance(1, 2) {
                CondMod::L
            } else {
                CondMod::Ge
            });
        }
        self.emit_into(inst, ty)
    }

    /// Arithmetic and a compare of its result that `opt_cmod_propagation` may fold, or
    /// must not (§10.3: compared with zero or with a value, `mov.cond`, a conversion,
    /// `cmp; and.nz d, 1`, CMP after CMP, the subtract merge `add d, a, -b; cmp a, b`),
    /// on the general flag or another subregister (§11.15), sometimes a NoMask test of a
    /// masked producer inside divergent control flow (§11.16); the flag then selects a value.
    fn cmod_idiom(&mut self) {
        let types = self.idiom_types();
        if types.is_empty() {
            return self.alu();
        }
        let ty = self.pick(&types);
        let flag = self.free_flag();
        let cond = self.pick(&CONDS);
        let w = self.width;
        let nomask_test = self.depth > 0 && self.chance(1, 4);
        // Or the other way round (fuzz programs): a NoMask producer and a masked test, which
        // cmod propagation must not fold either (§11.16); inside an IF the flag bits of the
        // channels in the other branch hold the IF's own compare, so a NoMask read of them
        // tells a fold that wrote them.
        let nomask_producer =
            !nomask_test && self.depth > 0 && !self.realistic && self.chance(1, 4);
        let test = match self.choose(7) {
            0 | 1 => {
                let Some(x) = self
                    .idiom_op(&PRODUCERS)
                    .and_then(|op| self.producer(op, ty, nomask_producer))
                else {
                    return self.alu();
                };
                Inst::new(Opcode::Cmp, w, Reg::null(ty), vec![x, Self::zero(ty)])
            }
            2 => {
                let Some(x) = self
                    .idiom_op(&PRODUCERS)
                    .and_then(|op| self.producer(op, ty, nomask_producer))
                else {
                    return self.alu();
                };
                // Sometimes a conversion: the value converted to another type, or its bits
                // read as another type and converted back (`mov.nz null:D, d:F`, §10.3 15).
                match self.choose(if self.realistic { 4 } else { 5 }) {
                    0 => {
                        let dst_ty = self.pick(&types);
                        Inst::new(Opcode::Mov, w, Reg::null(dst_ty), vec![x])
                    }
                    // (Fuzz programs: `and.cond null, x, 1` of a producer that is not a
                    // CMP, which cmod propagation must leave alone, §10.3.)
                    4 if ty.is_int() => {
                        Inst::new(Opcode::And, w, Reg::null(ty), vec![x, Reg::imm(1, ty)])
                    }
                    1 => {
                        let other = self.pick(&types);
                        Inst::new(Opcode::Mov, w, Reg::null(ty), vec![x.retype(other)])
                    }
                    _ => Inst::new(Opcode::Mov, w, Reg::null(ty), vec![x]),
                }
            }
            3 => {
                let Some(x) = self
                    .idiom_op(&PRODUCERS)
                    .and_then(|op| self.producer(op, ty, nomask_producer))
                else {
                    return self.alu();
                };
                let other = self.src(ty, true);
                Inst::new(Opcode::Cmp, w, Reg::null(ty), vec![x, other])
            }
            4 => {
                // The subtract merge: `add d, a, -b` then `cmp.cond a, b`.
                let a = self.src(ty, false);
                let b = self.src(ty, false);
                let mut add = Inst::new(Opcode::Add, w, Reg::null(ty), vec![a, b.negated()]);
                add.nomask = nomask_producer;
                if self.emit_into(add, ty).is_none() {
                    return self.alu();
                }
                Inst::new(Opcode::Cmp, w, Reg::null(ty), vec![a, b])
            }
            _ => {
                // A boolean from CMP, tested again: `and.nz d, 1`, `mov.z`, `cmp.nz d, 0`.
                let bool_ty = if ty == Type::F { Type::D } else { ty };
                let a = self.src(ty, false);
                let b = self.src(ty, true);
                let first = self.pick(&CONDS);
                let cmp = Inst::new(Opcode::Cmp, w, Reg::null(bool_ty), vec![a, b])
                    .with_cmod(first, flag);
                let Some(d) = self.emit_into(cmp, bool_ty) else {
                    return self.alu();
                };
                // (Fuzz programs also combine two booleans and test the NOT of that:
                // `and g, d, e; not.cond null, g`, which cmod propagation may fold into the
                // AND with the inverse condition.)
                let variant = if self.realistic {
                    self.choose(3)
                } else {
                    self.choose(6)
                };
                match variant {
                    0 => Inst::new(
                        Opcode::And,
                        w,
                        Reg::null(bool_ty),
                        vec![d, Reg::imm(1, bool_ty)],
                    ),
                    1 => Inst::new(Opcode::Mov, w, Reg::null(bool_ty), vec![d]),
                    // (Fuzz programs: the compare's result tested by a NOT, or read as
                    // another type by a MOV test, `mov.nz null:F, d:F` of a D boolean.)
                    4 => Inst::new(Opcode::Not, w, Reg::null(bool_ty), vec![d]),
                    5 => {
                        let other = self.pick(&types);
                        Inst::new(Opcode::Mov, w, Reg::null(other), vec![d.retype(other)])
                    }
                    3 => {
                        let (a2, b2) = (self.src(ty, false), self.src(ty, true));
                        let cmp2 = Inst::new(Opcode::Cmp, w, Reg::null(bool_ty), vec![a2, b2])
                            .with_cmod(self.pick(&CONDS), flag);
                        let Some(e) = self.emit_into(cmp2, bool_ty) else {
                            return self.alu();
                        };
                        let op = if self.chance(1, 2) {
                            Opcode::And
                        } else {
                            Opcode::Or
                        };
                        // One operand sometimes carries a modifier, or is the immediate
                        // 0 or ~0 instead of the second compare: the AND/OR is then no
                        // boolean of two compares, which the NOT fold must check (§10.3).
                        let (d, e) = match self.choose(4) {
                            0 => (d.negated(), e),
                            1 => (d, Reg { abs: true, ..e }),
                            2 => {
                                let ones = u64::MAX >> (64 - 8 * bool_ty.size());
                                let k = if self.chance(1, 2) { 0 } else { ones };
                                (d, Reg::imm(k, bool_ty))
                            }
                            _ => (d, e),
                        };
                        let both = Inst::new(op, w, Reg::null(bool_ty), vec![d, e]);
                        let Some(g) = self.emit_into(both, bool_ty) else {
                            return self.alu();
                        };
                        Inst::new(Opcode::Not, w, Reg::null(bool_ty), vec![g])
                    }
                    _ => Inst::new(
                        Opcode::Cmp,
                        w,
                        Reg::null(bool_ty),
                        vec![d, Self::zero(bool_ty)],
                    ),
                }
            }
        };
        let mut test = test.with_cmod(cond, flag);
        if nomask_test {
            test = test.with_nomask();
        }
        if !self.try_emit(test) {
            return self.alu();
        }
        self.observe_flag(flag, nomask_test || nomask_producer);
    }

    /// `op t, a, b; mov.sat y, t` (`opt_saturate_propagation`), sometimes with a negated
    /// source, another use of `t`, or a predicated integer SEL read as float (§11.19).
    fn sat_idiom(&mut self) {
        if !self.types.contains(&Type::F) {
            return self.alu();
        }
        if !self.realistic && self.chance(1, 3) {
            return self.sat_after_barrier();
        }
        let w = self.width;
        // The producer writes a temporary the MOV reads (in the same channels): a value
        // the final write also read could not take the saturation.
        let temp = |g: &mut Self, ty: Type| Reg::vgrf(g.new_vgrf(g.regs_for(ty)), ty);
        let producer = if self.types.contains(&Type::UD) && self.chance(1, 4) {
            let flag = self.general_flag;
            self.set_flag(w, 0);
            let a = self.src(Type::UD, false);
            let b = self.src(Type::UD, true);
            Inst::new(Opcode::Sel, w, temp(self, Type::UD), vec![a, b])
                .with_pred(Predicate::NORMAL, flag)
        } else {
            let op = self
                .idiom_op(&[Opcode::Add, Opcode::Mul, Opcode::Mad, Opcode::Sel])
                .unwrap_or(Opcode::Mov);
            let srcs = (0..arity(op)).map(|i| self.src(Type::F, i > 0)).collect();
            let mut inst = Inst::new(op, w, temp(self, Type::F), srcs);
            if op == Opcode::Sel {
                inst.cmod = Some(CondMod::Ge);
            }
            // (Fuzz programs: a producer that saturates already, which makes the MOV's
            // saturation redundant, §10.3.)
            inst.saturate = !self.realistic && self.chance(1, 4);
            inst
        };
        let t = producer.dst.retype(Type::F);
        if !self.try_emit(producer) {
            return self.alu();
        }
        let src = match self.choose(4) {
            0 => t.negated(),
            1 if self.has(Feature::Modifiers) => t.with_abs(),
            _ => t,
        };
        let mov = Inst::new(Opcode::Mov, w, Reg::null(Type::F), vec![src]).with_sat();
        if self.emit_into(mov, Type::F).is_some() && self.chance(1, 4) {
            let add = Inst::new(Opcode::Add, w, Reg::null(Type::F), vec![t, t]);
            self.emit_into(add, Type::F);
        }
    }

    /// `mov.sat y, t` after a producer of `t` that cannot take the saturation (fuzz
    /// programs, `opt_saturate_propagation`): a math instruction, a producer whose
    /// conditional modifier another instruction reads, one with AccWrEnable; or after
    /// `t`'s producer, a partial write of another register of `t`'s VGRF.
    fn sat_after_barrier(&mut self) {
        let w = self.width;
        let rpc = self.regs_for(Type::F);
        let vgrfs_before = self.p.vgrf_sizes.len();
        let (mut flag_read, mut partial) = (None, false);
        let nr = self.new_vgrf(2 * rpc);
        let t = Reg::vgrf(nr, Type::F);
        let producer = match self.choose(4) {
            0 => {
                let math = self.drawn_ops(&[
                    Opcode::Rcp,
                    Opcode::Rsq,
                    Opcode::Sqrt,
                    Opcode::Exp2,
                    Opcode::Log2,
                    Opcode::Sin,
                    Opcode::Cos,
                    Opcode::Pow,
                ]);
                let op = if math.is_empty() {
                    Opcode::Rcp
                } else {
                    self.pick(&math)
                };
                let srcs = (0..arity(op)).map(|_| self.src(Type::F, false)).collect();
                Inst::new(op, w, t, srcs)
            }
            1 => {
                let flag = self.free_flag();
                flag_read = Some(flag);
                let (a, b) = (self.src(Type::F, false), self.src(Type::F, true));
                let op = self.idiom_op(&[Opcode::Add, Opcode::Mul, Opcode::Mov]);
                let op = op.unwrap_or(Opcode::Mov);
                Inst::new(op, w, t, operands(op, [a, b])).with_cmod(self.pick(&CONDS), flag)
            }
            2 => {
                let (a, b) = (self.src(Type::F, false), self.src(Type::F, true));
                let mut inst = Inst::new(Opcode::Add, w, t, vec![a, b]);
                inst.acc_wr = true;
                inst
            }
            _ => {
                partial = true;
                let (a, b) = (self.src(Type::F, false), self.src(Type::F, true));
                Inst::new(Opcode::Add, w, t, vec![a, b])
            }
        };
        if !self.try_emit(producer) {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            return self.alu();
        }
        if partial {
            // The other register(s) of the VGRF, at the full width or a narrower group.
            let other = t.byte_offset(rpc * compiler::reg::REG_SIZE);
            let src = self.src(Type::F, true);
            let mov = Inst::new(Opcode::Mov, w, other, vec![src]);
            if !self.try_emit(mov) {
                self.emit(Inst::new(Opcode::Mov, w, other, vec![Reg::imm_f(1.5)]));
            }
        }
        let src = if self.chance(1, 4) { t.negated() } else { t };
        let mov = Inst::new(Opcode::Mov, w, Reg::null(Type::F), vec![src]).with_sat();
        if self.emit_into(mov, Type::F).is_none() {
            self.alu();
        }
        if let Some(flag) = flag_read {
            self.observe_flag(flag, false);
        }
    }

    /// The opcodes of `ops` this program drew.
    fn drawn_ops(&self, ops: &[Opcode]) -> Vec<Opcode> {
        ops.iter()
            .copied()
            .filter(|op| self.ops.contains(op))
            .collect()
    }

    /// Copies and constants for `opt_copy_propagation` and `opt_register_coalesce`:
    /// `mov t, x; mov u, t; op d, u, t`, `mov k, imm; op d, a, k` (a dword constant into
    /// a multiply with a word operand, §11.11), and `mov.nz y, x` with the flag read
    /// (§11.13).
    fn copy_chain(&mut self) {
        let types = self.idiom_types();
        if types.is_empty() || !self.uniform_control() {
            return self.alu();
        }
        let ty = self.pick(&types);
        let w = self.width;
        match self.choose(4) {
            0 => {
                let x = self.src(ty, false);
                let Some(t) = self.emit_into(Inst::new(Opcode::Mov, w, Reg::null(ty), vec![x]), ty)
                else {
                    return self.alu();
                };
                let Some(u) = self.emit_into(Inst::new(Opcode::Mov, w, Reg::null(ty), vec![t]), ty)
                else {
                    return;
                };
                let op = match self.idiom_op(&[Opcode::Add, Opcode::Mul, Opcode::Sel, Opcode::And])
                {
                    Some(Opcode::And) if ty == Type::F => Opcode::Mov,
                    Some(op) => op,
                    None => Opcode::Mov,
                };
                let srcs = operands(op, [u, t]);
                let mut inst = Inst::new(op, w, Reg::null(ty), srcs);
                if op == Opcode::Sel {
                    inst.cmod = Some(CondMod::Ge);
                }
                self.emit_into(inst, ty);
            }
            1 => {
                let k = if ty == Type::F {
                    Reg::imm_f(self.pick(&SHARED_FLOATS))
                } else {
                    Reg::imm(self.pick(&SHARED_INTS) as u32 as u64, ty)
                };
                let Some(t) = self.emit_into(Inst::new(Opcode::Mov, w, Reg::null(ty), vec![k]), ty)
                else {
                    return self.alu();
                };
                let a = self.src(ty, false);
                let Some(op) = self.idiom_op(&[Opcode::Add, Opcode::Mul, Opcode::Sel]) else {
                    return;
                };
                let srcs = if self.chance(1, 2) {
                    vec![t, a]
                } else {
                    vec![a, t]
                };
                let mut inst = Inst::new(op, w, Reg::null(ty), srcs);
                if op == Opcode::Sel {
                    inst.cmod = Some(CondMod::L);
                }
                self.emit_into(inst, ty);
            }
            2 if self.types.contains(&Type::D)
                && self.types.contains(&Type::W)
                && self.ops.contains(&Opcode::Mul) =>
            {
                let k = Reg::imm_d(self.pick(&SHARED_INTS));
                let Some(t) = self.emit_into(
                    Inst::new(Opcode::Mov, w, Reg::null(Type::D), vec![k]),
                    Type::D,
                ) else {
                    return self.alu();
                };
                let word = self.src(Type::W, false);
                let mul = Inst::new(Opcode::Mul, w, Reg::null(Type::D), vec![t, word]);
                if self.emit_into(mul, Type::D).is_none() {
                    self.alu();
                }
            }
            _ => {
                let flag = self.free_flag();
                let x = self.src(ty, false);
                let cond = self.pick(&[CondMod::Nz, CondMod::Z]);
                let mov = Inst::new(Opcode::Mov, w, Reg::null(ty), vec![x]).with_cmod(cond, flag);
                if self.emit_into(mov, ty).is_none() {
                    return self.alu();
                }
                self.observe_flag(flag, false);
            }
        }
    }

    /// The same expression twice (`opt_cse`), sometimes with something in between, and
    /// `mul.sat d1, -a, b; mul.sat d2, a, b` (§11.20).
    fn repeated_expr(&mut self) {
        // (Realistic programs decode as in format 8.)
        if !self.realistic && self.chance(1, 2) && self.repeat_earlier() {
            return;
        }
        let Some(ty) = self.idiom_type() else {
            return self.alu();
        };
        let w = self.width;
        let a = self.src(ty, false);
        let b = self.src(ty, true);
        let Some(op) = self.idiom_op(&[Opcode::Add, Opcode::Mul, Opcode::Xor, Opcode::Mad]) else {
            return self.alu();
        };
        let op = match op {
            Opcode::Xor if ty == Type::F => Opcode::Add,
            Opcode::Mad if ty != Type::F => Opcode::Mul,
            op => op,
        };
        let neg_sat = ty == Type::F && op == Opcode::Mul && self.chance(1, 2);
        let make = |first: bool| {
            let srcs = match op {
                Opcode::Mad => vec![a, b, a],
                _ if neg_sat && first => vec![a.negated(), b],
                _ => vec![a, b],
            };
            let inst = Inst::new(op, w, Reg::null(ty), srcs);
            if neg_sat { inst.with_sat() } else { inst }
        };
        if self.emit_into(make(true), ty).is_none() {
            return self.alu();
        }
        if self.chance(1, 3) {
            self.alu();
        }
        self.emit_into(make(false), ty);
    }

    /// An instruction the program already has, again, with a new destination: any ALU
    /// instruction or message, with whatever was written in between (`opt_cse` must tell
    /// a value still available from one a write has killed: a buffer or scratch read after
    /// a store to it, an expression after one of its sources changed). Its sources are
    /// still defined here: values never become undefined once written in full. False if no
    /// earlier instruction qualifies.
    fn repeat_earlier(&mut self) -> bool {
        let candidates: Vec<usize> = (0..self.insts.len())
            .filter(|&i| self.repeatable(&self.insts[i]))
            .collect();
        if candidates.is_empty() {
            return false;
        }
        // Messages are few among a program's instructions but the riskiest to repeat.
        let messages: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| self.insts[i].op.is_message())
            .collect();
        let at = if !messages.is_empty() && self.chance(1, 2) {
            self.pick(&messages)
        } else {
            self.pick(&candidates)
        };
        let original = self.insts[at].clone();
        let mut inst = original.clone();
        let dst_ty = if original.op.is_message() || !self.chance(1, 2) {
            original.dst.ty
        } else {
            self.vary(&mut inst)
        };
        let vgrfs_before = self.p.vgrf_sizes.len();
        let mut new_vals = Vec::new();
        match original.dst.kind {
            RegKind::Null => {}
            RegKind::Vgrf { nr, .. } if original.op.is_message() => {
                let copy = self.new_vgrf(self.p.vgrf_sizes[nr as usize]);
                inst.dst = Reg::vgrf(copy, original.dst.ty);
                new_vals = self
                    .vals
                    .iter()
                    .filter(|v| v.nr == nr)
                    .map(|&v| Val { nr: copy, ..v })
                    .collect();
            }
            _ => match self.dst(dst_ty) {
                Some((dst, new)) => {
                    inst.dst = dst;
                    new_vals.extend(new);
                }
                None => return false,
            },
        }
        if self.try_emit(inst) {
            self.vals.extend(new_vals);
            true
        } else {
            self.p.vgrf_sizes.truncate(vgrfs_before);
            false
        }
    }

    /// A near duplicate: `inst` with at most one of the things a CSE key compares changed —
    /// its destination type (redrawn, so sometimes the same), saturate, one source's
    /// modifier, or the order of two sources —
    /// so every field `opt_cse` matches on has programs where it alone tells two
    /// expressions apart (a swapped commutative operation is the one the pass may still
    /// merge, docs/hardware/brw-backend.md §7.1). Returns the destination type to use.
    fn vary(&mut self, inst: &mut Inst) -> Type {
        let registers: Vec<usize> = (0..inst.srcs.len())
            .filter(|&i| !inst.srcs[i].is_imm())
            .collect();
        match self.choose(4) {
            0 => return self.any_type(),
            1 => inst.saturate = !inst.saturate,
            2 if !registers.is_empty() => {
                let i = self.pick(&registers);
                inst.srcs[i] = if self.chance(1, 2) {
                    inst.srcs[i].negated()
                } else {
                    inst.srcs[i].with_abs()
                };
            }
            _ if inst.srcs.len() >= 2 => {
                let first = usize::from(inst.srcs.len() == 3 && self.chance(1, 2));
                inst.srcs.swap(first, first + 1);
            }
            _ => inst.saturate = !inst.saturate,
        }
        inst.dst.ty
    }

    /// Whether `inst` may be emitted again here with a new destination and still read only
    /// defined values and leave the generator's bookkeeping true: no flags read or
    /// written, no NoMask, no EOT or control flow, sources that are values, addresses,
    /// attributes, uniforms or immediates, a scratch slot still written in full.
    fn repeatable(&self, inst: &Inst) -> bool {
        let known = |r: &Reg| match r.kind {
            RegKind::Vgrf { nr, .. } => self.vals.iter().chain(&self.addrs).any(|v| v.nr == nr),
            RegKind::Attr { .. } | RegKind::Uniform { .. } | RegKind::Imm(_) => true,
            _ => false,
        };
        let plain_flags = inst.predicate.is_none() && inst.cmod.is_none() && !inst.nomask;
        if !plain_flags || inst.eot || inst.op.is_control_flow() || inst.acc_wr {
            return false;
        }
        match inst.op {
            // A store's data payload is a VGRF of its own, written in full before it.
            Opcode::UntypedWriteLogical => known(&inst.srcs[0]),
            Opcode::UntypedReadLogical | Opcode::TexLogical => {
                self.uniform_control() && inst.srcs.iter().all(known)
            }
            Opcode::ScratchRead => {
                self.uniform_control()
                    && matches!(inst.srcs[0].kind, RegKind::Imm(o) if self.scratch_written.contains(&(o as u32)))
            }
            // (MACH, MAC, ADDC and SUBB read or write the accumulator besides their operands.)
            op if op.is_message()
                || matches!(
                    op,
                    Opcode::LoadPayload | Opcode::Mach | Opcode::Mac | Opcode::Addc | Opcode::Subb
                ) =>
            {
                false
            }
            _ => {
                matches!(
                    inst.dst.kind,
                    RegKind::Vgrf {
                        stride: 1,
                        offset: 0,
                        ..
                    }
                ) && inst.exec_size == self.width
                    && inst.group == 0
                    && inst.srcs.iter().all(known)
            }
        }
    }

    /// A constant shared by several instructions and blocks (`opt_combine_constants`,
    /// `move_load_const`): `mov k, imm` at the top, then uses of `k` (or of the immediate
    /// itself, in three-source instructions too) only inside one IF, inside a loop, or in
    /// two blocks.
    fn shared_const(&mut self) {
        let types = self.idiom_types();
        if types.is_empty() || !self.uniform_control() {
            return self.alu();
        }
        let ty = self.pick(&types);
        let w = self.width;
        let imm = if ty == Type::F {
            Reg::imm_f(self.pick(&SHARED_FLOATS))
        } else {
            Reg::imm(self.pick(&SHARED_INTS) as u32 as u64, ty)
        };
        let via_register = self.chance(2, 3);
        let k = if via_register {
            let nr = self.new_vgrf(self.regs_for(ty));
            let k = Reg::vgrf(nr, ty);
            self.emit(Inst::new(Opcode::Mov, w, k, vec![imm]));
            self.vals.push(Val { nr, offset: 0, ty });
            k
        } else {
            imm
        };
        let uses = |g: &mut Self| {
            for _ in 0..1 + g.choose(2) {
                // Sometimes read as a scalar: channel 0's element, whichever channels run.
                let k = if !k.is_imm() && g.chance(1, 3) {
                    k.with_stride(0)
                } else {
                    k
                };
                let a = g.src(ty, false);
                let mad = ty == Type::F && g.ops.contains(&Opcode::Mad) && g.chance(1, 2);
                let (op, srcs) = match g.idiom_op(&[Opcode::Add, Opcode::Mul]) {
                    _ if mad => (Opcode::Mad, vec![a, g.src(ty, false), k]),
                    Some(op) => (op, vec![a, k]),
                    None => (Opcode::Sel, vec![a, k]),
                };
                let mut inst = Inst::new(op, w, Reg::null(ty), srcs);
                if op == Opcode::Sel {
                    inst.cmod = Some(CondMod::Ge);
                }
                if g.emit_into(inst, ty).is_none() {
                    g.alu();
                }
            }
        };
        let (ifs, loops) = (self.has(Feature::If), self.has(Feature::Loop));
        match self.choose(3) {
            0 if ifs => {
                self.set_flag(w, 0);
                let pred = self.predicate();
                self.emit(Inst::control(Opcode::If, w).with_pred(pred, self.general_flag));
                self.depth += 1;
                uses(self);
                self.depth -= 1;
                self.emit(Inst::control(Opcode::Endif, w));
            }
            // (Gen4/5 keep no flag live across a loop body: min/max lowering needs one.)
            1 if loops && !self.loop_flags.is_empty() && self.info.flag_subregs >= 4 => {
                let flag = self.loop_flags.pop().unwrap_or(self.general_flag);
                let cnt = Reg::vgrf(self.new_vgrf(self.regs_for(Type::D)), Type::D);
                self.emit(Inst::new(Opcode::Mov, w, cnt, vec![Reg::imm_d(0)]));
                self.emit(Inst::control(Opcode::Do, w));
                self.depth += 1;
                self.loop_depth += 1;
                self.emit(Inst::new(Opcode::Add, w, cnt, vec![cnt, Reg::imm_d(1)]));
                // The loop condition first, so a CONTINUE may skip the rest of the body:
                // channels that skip the first iteration's uses (a load sunk into the loop
                // would not write them, while a scalar read takes channel 0).
                let trips = 1 + self.choose(3) as i32;
                self.emit(
                    Inst::new(
                        Opcode::Cmp,
                        w,
                        Reg::null(Type::D),
                        vec![cnt, Reg::imm_d(trips)],
                    )
                    .with_cmod(CondMod::L, flag),
                );
                if self.chance(1, 2) {
                    self.set_flag(w, 0);
                    let pred = self.predicate();
                    self.emit(
                        Inst::control(Opcode::Continue, w).with_pred(pred, self.general_flag),
                    );
                }
                uses(self);
                self.set_flag(w, 0);
                let pred = self.predicate();
                self.emit(Inst::control(Opcode::Break, w).with_pred(pred, self.general_flag));
                self.loop_depth -= 1;
                self.depth -= 1;
                self.emit(Inst::control(Opcode::While, w).with_pred(Predicate::NORMAL, flag));
                self.loop_flags.push(flag);
            }
            _ if ifs => {
                uses(self);
                self.set_flag(w, 0);
                let pred = self.predicate();
                self.emit(Inst::control(Opcode::If, w).with_pred(pred, self.general_flag));
                self.depth += 1;
                uses(self);
                self.depth -= 1;
                self.emit(Inst::control(Opcode::Endif, w));
            }
            _ => uses(self),
        }
    }

    /// An IF/ELSE whose blocks only move into the same values (`opt_peephole_sel`).
    fn if_moves(&mut self) {
        let types = self.idiom_types();
        if types.is_empty() || self.vals.is_empty() || !self.has(Feature::If) {
            return self.alu();
        }
        let w = self.width;
        let n = 1 + self.choose(2);
        let dsts: Vec<Val> = (0..n)
            .filter_map(|_| {
                let ty = self.pick(&types);
                let same: Vec<Val> = self.vals.iter().copied().filter(|v| v.ty == ty).collect();
                (!same.is_empty()).then(|| self.pick(&same))
            })
            .collect();
        let mut dsts = dsts;
        dsts.dedup_by_key(|v| v.nr);
        if dsts.is_empty() {
            return self.alu();
        }
        // Fuzz programs: the ELSE arm moves into the same values in another order, or
        // into other values (`opt_peephole_sel` must pair them by destination).
        let mut else_dsts = dsts.clone();
        if !self.realistic && self.chance(1, 2) {
            if dsts.len() > 1 && self.chance(1, 2) {
                else_dsts.reverse();
            } else {
                let ty = self.pick(&types);
                let same: Vec<Val> = self.vals.iter().copied().filter(|v| v.ty == ty).collect();
                if !same.is_empty() {
                    let k = self.choose(else_dsts.len());
                    else_dsts[k] = self.pick(&same);
                    if self.chance(1, 2) {
                        else_dsts.push(self.pick(&same));
                    }
                    else_dsts.dedup_by_key(|v| (v.nr, v.offset));
                }
            }
        }
        self.set_flag(w, 0);
        let pred = self.predicate();
        self.emit(Inst::control(Opcode::If, w).with_pred(pred, self.general_flag));
        let else_too = self.chance(3, 4);
        for part in 0..if else_too { 2 } else { 1 } {
            if part == 1 {
                self.emit(Inst::control(Opcode::Else, w));
            }
            self.depth += 1;
            let arm = if part == 0 { &dsts } else { &else_dsts };
            for d in arm.clone().iter() {
                let mut src = super::plain(self.src(d.ty, true));
                // (Fuzz programs: sometimes a MOV that is no plain copy, which the SEL
                // peephole must not merge as one: a saturate or a source modifier.)
                let variant = if self.realistic { 0 } else { self.choose(8) };
                if variant == 1 && !src.is_imm() {
                    src = src.negated();
                } else if variant == 2 && !src.is_imm() {
                    src = src.with_abs();
                }
                let mut mov = Inst::new(Opcode::Mov, w, self.val_reg(*d), vec![src]);
                mov.saturate = variant == 3 && d.ty.is_float();
                if !self.try_emit(mov) {
                    let fallback =
                        Inst::new(Opcode::Mov, w, self.val_reg(*d), vec![Self::zero(d.ty)]);
                    self.emit(fallback);
                }
            }
            self.depth -= 1;
        }
        self.emit(Inst::control(Opcode::Endif, w));
    }

    /// A value computed and never read (`opt_dead_code_eliminate`), sometimes with a
    /// conditional modifier whose flag is read (the write must stay, with a null
    /// destination).
    fn dead_value(&mut self) {
        let Some(ty) = self.idiom_type() else {
            return self.alu();
        };
        let w = self.width;
        if !self.realistic && self.chance(1, 3) {
            return self.dead_minmax_or_conversion(ty);
        }
        let a = self.src(ty, false);
        let b = self.src(ty, true);
        let t = Reg::vgrf(self.new_vgrf(self.regs_for(ty)), ty);
        let op = match self.idiom_op(&[Opcode::Add, Opcode::Or, Opcode::Mov]) {
            Some(Opcode::Or) if ty == Type::F => Opcode::Mov,
            Some(op) => op,
            None => Opcode::Mov,
        };
        let srcs = operands(op, [a, b]);
        let mut inst = Inst::new(op, w, t, srcs);
        let flag = self.free_flag();
        let with_flag = self.chance(1, 3);
        if with_flag {
            inst = inst.with_cmod(self.pick(&CONDS), flag);
        }
        if !self.try_emit(inst) {
            return self.alu();
        }
        if with_flag {
            self.observe_flag(flag, false);
        }
    }

    /// Fuzz programs: a dead min/max (`sel.l`/`sel.ge`, whose conditional modifier writes
    /// no flag) while two flag subregisters are live across it — on Gen4/5 all of them —
    /// or a dead conversion from a 64-bit value with a conditional modifier whose flag is
    /// read (`mov.ge.f0.1 d:UD, x:DF`: the destination becomes null).
    fn dead_minmax_or_conversion(&mut self, ty: Type) {
        let w = self.width;
        let wide: Vec<Type> = [Type::DF, Type::Q, Type::UQ]
            .into_iter()
            .filter(|t| self.types.contains(t))
            .collect();
        if !wide.is_empty() && self.chance(1, 2) {
            let from = self.pick(&wide);
            let a = self.src(from, false);
            let t = Reg::vgrf(self.new_vgrf(self.regs_for(ty)), ty);
            let flag = self.free_flag();
            let mov = Inst::new(Opcode::Mov, w, t, vec![a]).with_cmod(self.pick(&CONDS), flag);
            if !self.try_emit(mov) {
                return self.alu();
            }
            return self.observe_flag(flag, false);
        }
        let other: Vec<u8> = self.loop_flags.clone();
        let second = (!other.is_empty()).then(|| self.pick(&other));
        if let Some(f) = second {
            let (a, b) = (self.src(ty, false), self.src(ty, true));
            let cmp = Inst::new(Opcode::Cmp, w, Reg::null(ty), vec![a, b])
                .with_cmod(self.pick(&CONDS), f);
            if !self.try_emit(cmp) {
                return self.alu();
            }
        }
        self.set_flag(w, 0);
        let (a, b) = (self.src(ty, false), self.src(ty, true));
        let t = Reg::vgrf(self.new_vgrf(self.regs_for(ty)), ty);
        let mut sel = Inst::new(Opcode::Sel, w, t, vec![a, b]);
        sel.cmod = Some(self.pick(&[CondMod::L, CondMod::Ge]));
        if !self.try_emit(sel) {
            self.alu();
        }
        self.observe_flag(self.general_flag, false);
        if let Some(f) = second {
            self.observe_flag(f, false);
        }
    }

    /// `find_live_channel t; broadcast b, x, t` and a use of the uniform `b`: at the top
    /// of a packed-dispatch program `eliminate_find_live_channel` makes `t` 0; inside
    /// divergent control flow or after a HALT it must not (§9.2, §11.25). The subgroup
    /// operations write scalars with NoMask, so they make new values at any depth.
    fn live_channel(&mut self) {
        let Some(ty) = self.idiom_type() else {
            return self.alu();
        };
        if !self.realistic && self.chance(1, 3) {
            return self.vote(ty);
        }
        let w = self.width;
        let t = Reg::vgrf(self.new_vgrf(1), Type::UD).with_stride(0);
        let b = Reg::vgrf(self.new_vgrf(1), ty).with_stride(0);
        let x = super::plain(self.src(ty, false));
        // Sometimes the channel is an immediate (a constant invocation index, which
        // `lower_broadcast` turns into a scalar MOV): no FIND_LIVE_CHANNEL then.
        if !self.realistic && self.chance(1, 4) {
            let k = self.choose(w as usize) as u32;
            let broadcast =
                Inst::new(Opcode::Broadcast, w, b, vec![x, Reg::imm_ud(k)]).with_nomask();
            if !self.try_emit(broadcast) {
                return self.alu();
            }
            return self.use_uniform(b, ty);
        }
        let find = Inst::new(Opcode::FindLiveChannel, w, t, vec![]).with_nomask();
        let broadcast = Inst::new(Opcode::Broadcast, w, b, vec![x, t]).with_nomask();
        if !self.try_emit(find) {
            return self.alu();
        }
        if !self.try_emit(broadcast) {
            self.insts.pop();
            return self.alu();
        }
        self.use_uniform(b, ty);
    }

    /// `vote_any`/`vote_all` as Mesa's fragment backend builds them: the flag set to the
    /// operation's identity (NoMask), a compare that writes only the live channels' bits,
    /// then a NoMask exec-1 MOV predicated on ANY<w>H or ALL<w>H, which reads every flag
    /// bit of the dispatch at once (docs/hardware/eu-hardware.md §2.3), into a scalar.
    /// The horizontal predicates are what flag liveness, dependency tracking and
    /// `opt_cmod_propagation` must read as a whole group, not one bit per channel.
    fn vote(&mut self, ty: Type) {
        use compiler::inst::PredKind;
        let w = self.width;
        let g = self.general_flag;
        let any = self.chance(1, 2);
        let (flag_ty, ones) = if w == 32 {
            (Type::UD, u64::from(u32::MAX))
        } else {
            (Type::UW, u64::from(u16::MAX))
        };
        let kind = match (w, any) {
            (8, true) => PredKind::Any8H,
            (8, false) => PredKind::All8H,
            (16, true) => PredKind::Any16H,
            (16, false) => PredKind::All16H,
            (_, true) => PredKind::Any32H,
            (_, false) => PredKind::All32H,
        };
        let identity = if any { 0 } else { ones };
        let set = Inst::new(
            Opcode::Mov,
            1,
            Reg::flag(g).retype(flag_ty),
            vec![Reg::imm(identity, flag_ty)],
        )
        .with_nomask();
        let before = self.insts.len();
        if !self.try_emit(set) {
            return self.alu();
        }
        // Sometimes the vote tests a value computed right there: a compare with zero that
        // `opt_cmod_propagation` folds into its producer, under the horizontal reader.
        let produced = match self.idiom_op(&PRODUCERS) {
            Some(op) if self.chance(1, 2) => self.producer(op, ty, false),
            _ => None,
        };
        let a = produced.unwrap_or_else(|| self.src(ty, false));
        let b = if produced.is_some() || self.chance(1, 2) {
            Self::zero(ty)
        } else {
            self.src(ty, true)
        };
        let cond = self.pick(&CONDS);
        let cmp = Inst::new(Opcode::Cmp, w, Reg::null(ty), vec![a, b]).with_cmod(cond, g);
        let r = Reg::vgrf(self.new_vgrf(1), ty).with_stride(0);
        let yes = match ty {
            Type::F => Reg::imm_f(1.0),
            Type::D => Reg::imm_d(-1),
            _ => Reg::imm_ud(u32::MAX),
        };
        let clear = Inst::new(Opcode::Mov, 1, r, vec![Self::zero(ty)]).with_nomask();
        let vote = Inst::new(Opcode::Mov, 1, r, vec![yes])
            .with_nomask()
            .with_pred(
                compiler::inst::Predicate {
                    kind,
                    inverse: self.chance(1, 4),
                },
                g,
            );
        if ![cmp, clear, vote]
            .into_iter()
            .all(|inst| self.try_emit(inst))
        {
            // (A produced value stays: it was written in full and is recorded.)
            if produced.is_none() {
                self.insts.truncate(before);
            }
            return self.alu();
        }
        self.use_uniform(r, ty);
    }

    /// A use of the broadcast scalar `b` of `ty` (MOV, or an ADD/MUL/SEL beside another
    /// value), so that it is live.
    fn use_uniform(&mut self, b: Reg, ty: Type) {
        let w = self.width;
        let a = self.src(ty, false);
        let op = self
            .idiom_op(&[Opcode::Add, Opcode::Mul, Opcode::Sel])
            .unwrap_or(Opcode::Mov);
        let srcs = if op == Opcode::Mov {
            vec![b]
        } else {
            vec![a, b]
        };
        let mut inst = Inst::new(op, w, Reg::null(ty), srcs);
        if op == Opcode::Sel {
            inst.cmod = Some(CondMod::L);
        }
        if self.emit_into(inst, ty).is_none() {
            self.alu();
        }
    }
}

/// The first sources of `srcs` that `op` reads (one for MOV, two for ALU ops).
fn operands(op: Opcode, srcs: [Reg; 2]) -> Vec<Reg> {
    srcs[..arity(op)].to_vec()
}
