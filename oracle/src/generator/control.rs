//! Control flow: divergent IF/ELSE, counted loops with BREAK/CONTINUE, HALT.

use super::Gen;
use compiler::Opcode;
use compiler::inst::{CondMod, Inst, Predicate};
use compiler::reg::Reg;
use compiler::types::Type;

/// Most iterations a generated loop runs.
const MAX_TRIPS: i32 = 4;

impl Gen<'_, '_> {
    /// Statements of a nested block.
    fn nested_block(&mut self) {
        let n = 1 + self.choose(4);
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.statement();
        }
    }

    pub(super) fn predicate(&mut self) -> Predicate {
        if self.chance(1, 3) {
            Predicate::INVERSE
        } else {
            Predicate::NORMAL
        }
    }

    pub(super) fn if_else(&mut self) {
        let w = self.width;
        self.set_flag(w, 0);
        let pred = self.predicate();
        self.emit(Inst::control(Opcode::If, w).with_pred(pred, self.general_flag));
        self.depth += 1;
        self.nested_block();
        if self.chance(1, 2) {
            self.emit(Inst::control(Opcode::Else, w));
            self.nested_block();
        }
        self.depth -= 1;
        self.emit(Inst::control(Opcode::Endif, w));
    }

    /// `cnt = 0; do { cnt += 1; f = cnt < trips; … } while (f)`: every channel still in
    /// the loop counts each iteration, so the loop ends after at most `trips` iterations
    /// whatever BREAK and CONTINUE do. Where every channel runs, sometimes the loop instead
    /// leaves only through BREAKs that set an exit value (`exit_value_loop`).
    pub(super) fn counted_loop(&mut self) {
        let w = self.width;
        let Some(flag) = self.loop_flags.pop() else {
            return self.alu();
        };
        let trips = 1 + self.choose(MAX_TRIPS as usize) as i32;
        // (Gen4/5 keep no flag live across a loop body; this loop tests two inside it.)
        if self.uniform_control() && self.info.flag_subregs >= 4 && self.chance(1, 3) {
            // (The realistic profile keeps its programs: the shader-db corpus is pinned.)
            if !self.realistic && self.chance(1, 2) {
                self.toggle_loop(flag);
            } else {
                self.exit_value_loop(flag, trips);
            }
            self.loop_flags.push(flag);
            return;
        }
        let cnt = Reg::vgrf(self.new_vgrf(self.regs_for(Type::D)), Type::D);
        let condition = Inst::new(
            Opcode::Cmp,
            w,
            Reg::null(Type::D),
            vec![cnt, Reg::imm_d(trips)],
        )
        .with_cmod(CondMod::L, flag);
        // With only two flag subregisters (Gen4/5), Mesa never keeps a flag live across a
        // loop body (gen4 min/max lowering needs a free one): test right before WHILE; then
        // CONTINUE, which would skip the test, is not generated in this loop.
        let late = self.info.flag_subregs < 4;
        self.emit(Inst::new(Opcode::Mov, w, cnt, vec![Reg::imm_d(0)]));
        self.emit(Inst::control(Opcode::Do, w));
        self.emit(Inst::new(Opcode::Add, w, cnt, vec![cnt, Reg::imm_d(1)]));
        if !late {
            self.emit(condition.clone());
        }
        self.loop_body(late, false);
        if self.chance(1, 2) {
            // A last jump in the body, under the body's own rules.
            let outer = (self.no_continue, self.no_break);
            (self.no_continue, self.no_break) = (late, false);
            self.depth += 1;
            self.loop_depth += 1;
            self.break_or_continue();
            self.loop_depth -= 1;
            self.depth -= 1;
            (self.no_continue, self.no_break) = outer;
        }
        if late {
            self.emit(condition);
        }
        self.emit(Inst::control(Opcode::While, w).with_pred(Predicate::NORMAL, flag));
        self.loop_flags.push(flag);
    }

    /// A loop body; `no_continue` / `no_break` say which jumps its own statements may not use.
    fn loop_body(&mut self, no_continue: bool, no_break: bool) {
        let outer = (self.no_continue, self.no_break);
        (self.no_continue, self.no_break) = (no_continue, no_break);
        self.depth += 1;
        self.loop_depth += 1;
        self.nested_block();
        self.loop_depth -= 1;
        self.depth -= 1;
        (self.no_continue, self.no_break) = outer;
    }

    /// A loop left only through BREAKs that all set `z`:
    /// `cnt = 0; do { cnt += 1; t = cnt·k (NoMask); u = t + 7;
    /// if (cnt >= trips) { z = u; break; } if (data) { z = u; break; } … } while (true)`
    /// (or `z = t` in both exits).
    /// `z` is defined on every path to its read after the loop, so only the loop's physical
    /// edges keep it live through the top of the body, where the next iteration's NoMask
    /// write of `t` would clobber it in the channels that already left (Mesa 4d1959e6932).
    fn exit_value_loop(&mut self, flag: u8, trips: i32) {
        let w = self.width;
        let regs = self.regs_for(Type::D);
        let cnt = Reg::vgrf(self.new_vgrf(regs), Type::D);
        let t = Reg::vgrf(self.new_vgrf(regs), Type::D);
        let u = Reg::vgrf(self.new_vgrf(regs), Type::D);
        let z = self.new_vgrf(regs);
        let k = 1 + self.choose(7) as i32;
        self.emit(Inst::new(Opcode::Mov, w, cnt, vec![Reg::imm_d(0)]));
        self.emit(Inst::control(Opcode::Do, w));
        self.emit(Inst::new(Opcode::Add, w, cnt, vec![cnt, Reg::imm_d(1)]));
        self.emit(Inst::new(Opcode::Mul, w, t, vec![cnt, Reg::imm_d(k)]).with_nomask());
        self.emit(Inst::new(Opcode::Add, w, u, vec![t, Reg::imm_d(7)]));
        let last = Inst::new(
            Opcode::Cmp,
            w,
            Reg::null(Type::D),
            vec![cnt, Reg::imm_d(trips)],
        )
        .with_cmod(CondMod::Ge, flag);
        self.emit(last);
        // Sometimes the exit copies the NoMask value itself: the copy must not be
        // propagated or coalesced away (Mesa d4015bcb388, 76b4255cd80; §11.12).
        let exit = if self.chance(1, 2) { t } else { u };
        self.break_with(Reg::vgrf(z, Type::D), exit, Predicate::NORMAL, flag);
        self.set_flag(w, 0);
        let pred = self.predicate();
        self.break_with(Reg::vgrf(z, Type::D), exit, pred, self.general_flag);
        self.loop_body(false, true);
        self.emit(Inst::control(Opcode::While, w));
        self.exit_vals.push(super::Val {
            nr: z,
            offset: 0,
            ty: Type::D,
        });
    }

    /// A loop left when a value carried through a NoMask SEL turns zero:
    /// `f = x != 0; do { t = f ? x : 0 (NoMask); f = t == 0; z = f ? k : y; … } while (!f)`.
    /// A channel with x ≠ 0 runs the body twice (t = x, then 0), the others once, whatever
    /// the body does. `z` is written after `t`'s last read in every iteration, so only the
    /// loop's physical edges keep it live through the next iteration's NoMask SEL, which
    /// would clobber it in the channels that already left: the bug of `exit_value_loop`
    /// (Mesa 4d1959e6932) in a loop without a counter, whose reproducers reduce further.
    fn toggle_loop(&mut self, flag: u8) {
        let w = self.width;
        let regs = self.regs_for(Type::D);
        let x = self.src(Type::D, false);
        let y = self.src(Type::D, false);
        let t = Reg::vgrf(self.new_vgrf(regs), Type::D);
        let z = self.new_vgrf(regs);
        let k = 1 + self.choose(7) as i32;
        let test = |op: CondMod, a: Reg| {
            Inst::new(Opcode::Cmp, w, Reg::null(Type::D), vec![a, Reg::imm_d(0)])
                .with_cmod(op, flag)
        };
        self.emit(test(CondMod::Nz, x));
        self.emit(Inst::control(Opcode::Do, w));
        self.emit(
            Inst::new(Opcode::Sel, w, t, vec![x, Reg::imm_d(0)])
                .with_pred(Predicate::NORMAL, flag)
                .with_nomask(),
        );
        self.emit(test(CondMod::Z, t));
        self.emit(
            Inst::new(
                Opcode::Sel,
                w,
                Reg::vgrf(z, Type::D),
                vec![y, Reg::imm_d(k)],
            )
            .with_pred(Predicate::INVERSE, flag),
        );
        self.loop_body(false, false);
        self.emit(Inst::control(Opcode::While, w).with_pred(Predicate::INVERSE, flag));
        self.exit_vals.push(super::Val {
            nr: z,
            offset: 0,
            ty: Type::D,
        });
    }

    /// `(pred) if { z = u; break; } endif`.
    fn break_with(&mut self, z: Reg, u: Reg, pred: Predicate, flag: u8) {
        let w = self.width;
        self.emit(Inst::control(Opcode::If, w).with_pred(pred, flag));
        self.emit(Inst::new(Opcode::Mov, w, z, vec![u]));
        self.emit(Inst::control(Opcode::Break, w));
        self.emit(Inst::control(Opcode::Endif, w));
    }

    pub(super) fn break_or_continue(&mut self) {
        let w = self.width;
        self.set_flag(w, 0);
        let op = if self.no_break {
            Opcode::Continue
        } else if self.no_continue || self.chance(1, 2) {
            Opcode::Break
        } else {
            Opcode::Continue
        };
        let pred = self.predicate();
        if self.chance(1, 2) {
            // The form `opt_predicated_break` turns into a predicated jump (§7.1 step 5).
            self.emit(Inst::control(Opcode::If, w).with_pred(pred, self.general_flag));
            self.emit(Inst::control(op, w));
            self.emit(Inst::control(Opcode::Endif, w));
        } else {
            self.emit(Inst::control(op, w).with_pred(pred, self.general_flag));
        }
    }

    /// A discard: the channels the compare selects stop until the HALT_TARGET.
    pub(super) fn halt(&mut self) {
        let w = self.width;
        self.set_flag(w, 0);
        let pred = self.predicate();
        self.emit(Inst::control(Opcode::Halt, w).with_pred(pred, self.general_flag));
        self.halted = true;
    }
}
