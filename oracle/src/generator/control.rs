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

    fn predicate(&mut self) -> Predicate {
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
    /// whatever BREAK and CONTINUE do.
    pub(super) fn counted_loop(&mut self) {
        let w = self.width;
        let Some(flag) = self.loop_flags.pop() else {
            return self.alu();
        };
        let trips = 1 + self.choose(MAX_TRIPS as usize) as i32;
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
        let outer_no_continue = self.no_continue;
        self.no_continue = late;
        self.depth += 1;
        self.loop_depth += 1;
        if self.chance(1, 3) {
            self.exit_value(cnt);
        }
        self.nested_block();
        self.loop_depth -= 1;
        self.depth -= 1;
        self.no_continue = outer_no_continue;
        if late {
            self.emit(condition);
        }
        self.emit(Inst::control(Opcode::While, w).with_pred(Predicate::NORMAL, flag));
        self.loop_flags.push(flag);
    }

    /// A value first made inside the loop and kept by the channels that BREAK with it: a
    /// NoMask temporary at the top of the body, a masked one from it, then
    /// `if (data-dependent) { z = u; break; }`. `z` is read only by the final write (channels
    /// that never broke leave it undefined), so it must stay live through the whole loop —
    /// liveness needs the loop's physical edges.
    fn exit_value(&mut self, cnt: Reg) {
        let w = self.width;
        let regs = self.regs_for(Type::D);
        let t = Reg::vgrf(self.new_vgrf(regs), Type::D);
        let u = Reg::vgrf(self.new_vgrf(regs), Type::D);
        let z = self.new_vgrf(regs);
        let k = 1 + self.choose(7) as i32;
        self.emit(Inst::new(Opcode::Mul, w, t, vec![cnt, Reg::imm_d(k)]).with_nomask());
        self.emit(Inst::new(Opcode::Add, w, u, vec![t, Reg::imm_d(7)]));
        self.set_flag(w, 0);
        let pred = self.predicate();
        self.emit(Inst::control(Opcode::If, w).with_pred(pred, self.general_flag));
        self.emit(Inst::new(Opcode::Mov, w, Reg::vgrf(z, Type::D), vec![u]));
        self.emit(Inst::control(Opcode::Break, w));
        self.emit(Inst::control(Opcode::Endif, w));
        self.exit_vals.push(super::Val {
            nr: z,
            offset: 0,
            ty: Type::D,
        });
    }

    pub(super) fn break_or_continue(&mut self) {
        let w = self.width;
        self.set_flag(w, 0);
        let op = if self.no_continue || self.chance(1, 2) {
            Opcode::Break
        } else {
            Opcode::Continue
        };
        let pred = self.predicate();
        self.emit(Inst::control(op, w).with_pred(pred, self.general_flag));
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
