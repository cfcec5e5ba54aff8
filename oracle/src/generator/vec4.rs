//! The vec4-stage generator (`stage=vs` knob): logical `stage vs` programs of the shape
//! Mesa's vec4 backend compiles for FP64 (docs/hardware/fp64-align16.md): dvec4 arithmetic with logical
//! swizzles and writemasks, f2d/d2f/i2d/d2i conversions, vec4 uniforms (float and dvec4
//! slots), per-vertex divergent IF/ELSE and per-channel predication, one-vertex (exec 4)
//! updates, counted loops with per-vertex BREAKs, and a URB write of what was computed.
//!
//! Well defined on the reference run, as the fragment generator's programs are: every value
//! is written in full at the top level before it is read; writemasked, predicated, exec-4
//! and divergent writes only update values that already exist; the flag register is set in
//! full by a compare before anything reads it; IF and BREAK conditions compare replicated
//! components (`.xxxx`), so all four channels of a vertex branch together, as Mesa's vec4
//! IFs do. A value computed in full inside a loop body is read only later in the same
//! iteration: a vertex that left the loop early may never have written it. Valid by
//! construction: every instruction passes the validator where it stands or is replaced. The fragment generator never reaches this module, so the default
//! profile's programs do not change.

use super::choose;
use super::knobs::{Feature, Knobs};
use arbitrary::Unstructured;
use compiler::device::ALL_DEVICES;
use compiler::inst::{CondMod, Inst, Predicate};
use compiler::reg::{REG_SIZE, Reg, Swizzle};
use compiler::types::Type;
use compiler::{Opcode, Program, Stage};
use std::collections::BTreeSet;

/// The features that mean something for a vec4 program; the swarm draws each on or off.
pub const VEC4_FEATURES: [Feature; 7] = [
    Feature::If,
    Feature::Loop,
    Feature::Predication,
    Feature::Narrow,
    Feature::Modifiers,
    Feature::Threads,
    Feature::PartialDispatch,
];

/// The conditional modifiers of vec4 compares and flag-setting values.
const CONDS: [CondMod; 5] = [CondMod::L, CondMod::Ge, CondMod::Z, CondMod::Nz, CondMod::G];

/// The flag subregister compares write and predicates read.
const FLAG: u8 = 0;

/// Most iterations a generated loop runs.
const MAX_TRIPS: usize = 3;

/// The three kinds of vec4 data: float and int vec4s (one register) and dvec4s (two).
const TYPES: [Type; 3] = [Type::F, Type::D, Type::DF];

/// Bytes of one vertex's vec4 of `ty` (its offset step between vertices).
fn vertex_bytes(ty: Type) -> u32 {
    4 * ty.size()
}

/// A whole vec4 value of both vertices: `ty` data from byte `offset` of VGRF `nr`.
#[derive(Clone, Copy, Debug)]
struct Val {
    nr: u32,
    offset: u32,
    ty: Type,
}

/// Where a source operand can come from.
#[derive(Clone, Copy, Debug)]
enum Source {
    Value(Val),
    /// `attr<nr>` holding a vec4 of `ty`.
    Attr(u32, Type),
    /// A uniform vec4 of `ty` from dword `u<nr>` on (shared by both vertices).
    Uniform(u32, Type),
}

impl Source {
    fn ty(self) -> Type {
        match self {
            Source::Value(v) => v.ty,
            Source::Attr(_, ty) | Source::Uniform(_, ty) => ty,
        }
    }

    /// The operand, for vertex `vertex` of an exec-4 instruction when given.
    fn reg(self, vertex: Option<u32>) -> Reg {
        let step = |ty| vertex.map_or(0, |q| q * vertex_bytes(ty));
        match self {
            Source::Value(v) => Reg::vgrf(v.nr, v.ty).byte_offset(v.offset + step(v.ty)),
            Source::Attr(nr, ty) => Reg::attr(nr, ty).byte_offset(step(ty)),
            Source::Uniform(nr, ty) => Reg::uniform(nr, ty),
        }
    }
}

/// Generation state for one vec4 program.
struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    p: Program,
    features: BTreeSet<Feature>,
    sources: Vec<Source>,
    vals: Vec<Val>,
    /// VGRFs allocated at the start and not yet written: values declared before the ones
    /// they are computed from (below).
    declared: Vec<Val>,
    insts: Vec<Inst>,
    /// IF and loop nesting.
    depth: u32,
    /// IFs between this point and the innermost loop (or the program's top level): a value
    /// is computed in full only where this is 0.
    in_if: u32,
    /// Enclosing loops (a BREAK needs one).
    loops: u32,
    budget: u32,
}

/// Generates a vec4-stage program from `u` within `knobs` (devices that do not run the
/// stage are left out; with none left, every device that does).
pub fn generate(u: &mut Unstructured, knobs: &Knobs) -> super::Generated {
    let supported = |d: &compiler::Device| Stage::Vertex.unsupported_on(*d).is_none();
    let mut devices: Vec<_> = knobs.devices.iter().copied().filter(supported).collect();
    if devices.is_empty() {
        devices = ALL_DEVICES.into_iter().filter(supported).collect();
    }
    let device = devices[choose(u, devices.len())];
    let mut features = BTreeSet::new();
    for f in VEC4_FEATURES {
        if u.arbitrary::<bool>().unwrap_or(false) && knobs.allows_feature(f) {
            features.insert(f);
        }
    }
    let mut p = Program::new(device, 8);
    p.stage = Stage::Vertex;
    p.threads = if features.contains(&Feature::Threads) {
        2
    } else {
        1
    };
    let mut sources = vec![];
    // Uniforms: one to three items, a float vec4 (one slot) or a dvec4 (two slots). One
    // dvec4 in three starts mid-row, two dwords after the end of the item before it (a
    // `double` uniform at an offset that is not a multiple of 16 bytes, Mesa 8aa6ada838,
    // docs/hardware/fp64-align16.md §7): its components straddle rows, so the compiler
    // reads it one component at a time. The next item starts at the next vec4 slot again
    // (a vec4 read from inside a slot is no layout Mesa makes, §1.1).
    let mut dwords = 0;
    for _ in 0..1 + choose(u, 3) {
        let ty = if u.arbitrary::<bool>().unwrap_or(false) {
            Type::DF
        } else {
            Type::F
        };
        if ty == Type::DF && u.ratio(1u8, 3).unwrap_or(false) {
            dwords += 2;
        }
        sources.push(Source::Uniform(dwords, ty));
        dwords = (dwords + ty.size()).next_multiple_of(4);
    }
    p.uniforms = dwords;
    for a in 0..2 + choose(u, 3) as u32 {
        let ty = TYPES[choose(u, TYPES.len())];
        p.attr_sizes.push(2 * vertex_bytes(ty) / REG_SIZE);
        sources.push(Source::Attr(a, ty));
    }
    let mut g = Gen {
        u,
        p,
        features,
        sources,
        vals: vec![],
        declared: vec![],
        insts: vec![],
        depth: 0,
        in_if: 0,
        loops: 0,
        budget: 0,
    };
    g.budget = 6 + g.choose(24) as u32;
    g.declare();
    g.program();
    let Gen {
        u,
        mut p,
        insts,
        features,
        ..
    } = g;
    p.set_insts(insts);
    let partial = if features.contains(&Feature::PartialDispatch) {
        2
    } else {
        0
    };
    p.inputs = Some(crate::inputs::draw(&p, partial, &mut |n| {
        u.int_in_range(0..=n - 1).unwrap_or(0)
    }));
    super::Generated {
        program: p,
        features: features.into_iter().collect(),
        opcodes: vec![],
    }
}

impl Gen<'_, '_> {
    fn choose(&mut self, n: usize) -> usize {
        choose(self.u, n)
    }

    fn chance(&mut self, num: u8, den: u8) -> bool {
        self.u.ratio(num, den).unwrap_or(false)
    }

    fn has(&self, f: Feature) -> bool {
        self.features.contains(&f)
    }

    fn program(&mut self) {
        for _ in 0..3 + self.choose(4) {
            self.new_value();
        }
        // The flag is set in full before any predicate or IF reads it.
        self.compare(false);
        while self.budget > 0 {
            self.statement();
        }
        self.outputs();
    }

    fn statement(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        match self.choose(11) {
            0 | 1 if self.in_if == 0 => self.new_value(),
            2 if self.in_if == 0 => self.conversion(),
            5 if self.in_if == 0 => self.pack(),
            3 if self.depth < 2 && self.budget > 2 && self.has(Feature::If) => self.if_else(),
            6 if self.depth < 2 && self.budget > 3 && self.has(Feature::Loop) => {
                self.counted_loop()
            }
            7 if self.loops > 0 => self.early_break(),
            4 => self.compare(self.depth > 0),
            8 if self.in_if == 0 => self.repeat(),
            _ => self.update(),
        }
    }

    /// An earlier ALU instruction again, into a new value: what vec4 CSE merges when no
    /// source changed in between (an update of one of them, or of the destination the
    /// first one wrote when it also reads it, must stop it) and copy propagation then
    /// reads through.
    fn repeat(&mut self) {
        let earlier: Vec<Inst> = self
            .insts
            .iter()
            .filter(|i| {
                i.is_align16()
                    && i.dst.is_vgrf()
                    && i.exec_size == 8
                    && i.group == 0
                    && i.predicate.is_none()
                    && !i.op.is_control_flow()
                    && !i.op.is_message()
                    && matches!(
                        i.op,
                        Opcode::Add
                            | Opcode::Mul
                            | Opcode::And
                            | Opcode::Or
                            | Opcode::Xor
                            | Opcode::Not
                            | Opcode::Shl
                            | Opcode::Asr
                            | Opcode::Sel
                            | Opcode::Mov
                            | Opcode::Frc
                            | Opcode::Rndd
                            | Opcode::Rnde
                            | Opcode::Rndz
                    )
            })
            .cloned()
            .collect();
        if earlier.is_empty() {
            return self.update();
        }
        let mut inst = earlier[self.choose(earlier.len())].clone();
        let ty = if self.chance(1, 2) {
            self.vary(&mut inst)
        } else {
            inst.dst.ty
        };
        let val = self.alloc(ty);
        inst.dst = Reg::vgrf(val.nr, ty);
        if inst.cmod.is_some() && inst.op != Opcode::Sel {
            inst.cmod = None;
        }
        if self.try_emit(inst) {
            self.vals.push(val);
        }
    }

    /// A near duplicate of an earlier instruction, as the fragment generator makes them:
    /// at most one thing the vec4 CSE key compares changed — the destination type (redrawn,
    /// so sometimes the same), one
    /// source's swizzle or modifier, or the order of two register sources — so each of
    /// those fields `vec4_opt_cse` matches on has programs where it alone tells two
    /// expressions apart (docs/hardware/fp64-align16.md §6). Not saturate: the sign of a
    /// saturated −0.0 is not documented (docs/hardware/eu-hardware.md §3.5), and vec4
    /// programs keep every output defined. Returns the destination type to use.
    fn vary(&mut self, inst: &mut Inst) -> Type {
        let registers: Vec<usize> = (0..inst.srcs.len())
            .filter(|&i| !inst.srcs[i].is_imm())
            .collect();
        let k = self.choose(4);
        if k == 0 || registers.is_empty() {
            return TYPES[self.choose(TYPES.len())];
        }
        if k == 3 && registers.len() == 2 {
            inst.srcs.swap(0, 1);
        } else {
            let i = registers[self.choose(registers.len())];
            let src = inst.srcs[i];
            inst.srcs[i] = if k == 1 || src.ty == Type::D {
                src.swizzled(self.swizzle())
            } else {
                src.negated()
            };
        }
        inst.dst.ty
    }

    /// One of the sources of type `ty` (callers ask only for types that have one,
    /// `has_type`).
    fn pick(&mut self, ty: Type) -> Source {
        let candidates: Vec<Source> = self
            .sources
            .iter()
            .copied()
            .chain(self.vals.iter().map(|&v| Source::Value(v)))
            .filter(|s| s.ty() == ty)
            .collect();
        candidates[self.choose(candidates.len())]
    }

    /// A source of type `ty` with a swizzle: identity, a Mesa-native DF swizzle, a
    /// replicated component or any of the 256.
    fn source(&mut self, ty: Type, vertex: Option<u32>) -> Reg {
        let s = self.pick(ty);
        let swizzle = self.swizzle();
        let mut reg = s.reg(vertex).swizzled(swizzle);
        if self.has(Feature::Modifiers) && ty != Type::D && self.chance(1, 4) {
            reg = if self.chance(1, 2) {
                reg.negated()
            } else {
                reg.with_abs()
            };
        }
        reg
    }

    /// An immediate of `ty`, only where Mesa's vec4 IR has one: a MOV's source or the last
    /// source of a two-source instruction (docs/hardware/eu-hardware.md §3.3: src1 only).
    /// A DF immediate is for `setup_imm_df` to load (Gen7 ALU instructions take none,
    /// docs/hardware/fp64-align16.md §1.2); an F or D one is what copy propagation may
    /// move into other instructions, within the §6 rules.
    fn immediate(&mut self, ty: Type) -> Reg {
        const FLOATS: [f64; 8] = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -1024.25, 3.0e9];
        let k = self.choose(FLOATS.len());
        match ty {
            Type::DF => Reg::imm_df(FLOATS[k] * if self.chance(1, 2) { 1.0 } else { 1.0 / 3.0 }),
            Type::F => Reg::imm_f(FLOATS[k] as f32),
            _ => Reg::imm_d([0, 1, -1, 2, 7, -65536, i32::MAX, i32::MIN][k]),
        }
    }

    fn swizzle(&mut self) -> Swizzle {
        const NATIVE: [[u8; 4]; 4] = [[0, 1, 2, 3], [0, 0, 2, 2], [1, 1, 3, 3], [1, 0, 3, 2]];
        match self.choose(6) {
            0 | 1 => Swizzle::XYZW,
            2 => Swizzle::new(NATIVE[self.choose(4)]),
            3 => Swizzle::replicate(self.choose(4) as u8),
            _ => Swizzle(self.u.arbitrary::<u8>().unwrap_or(0xe4)),
        }
    }

    /// Whether some source of `ty` exists.
    /// The values computed so far whose type `keep` accepts.
    fn vals_where(&self, keep: impl Fn(Type) -> bool) -> Vec<Val> {
        self.vals.iter().copied().filter(|v| keep(v.ty)).collect()
    }

    fn has_type(&self, ty: Type) -> bool {
        self.sources.iter().any(|s| s.ty() == ty) || self.vals.iter().any(|v| v.ty == ty)
    }

    /// A type that has a source.
    fn any_type(&mut self) -> Type {
        let types: Vec<Type> = TYPES.into_iter().filter(|&t| self.has_type(t)).collect();
        types[self.choose(types.len())]
    }

    /// An ALU instruction of `ty` into `dst`: the opcode and its sources.
    fn alu(&mut self, ty: Type, dst: Reg, vertex: Option<u32>) -> Inst {
        let exec = if vertex.is_some() { 4 } else { 8 };
        let ops: &[Opcode] = match ty {
            Type::D => &[
                Opcode::Add,
                Opcode::And,
                Opcode::Or,
                Opcode::Xor,
                Opcode::Mov,
                Opcode::Not,
                Opcode::Shl,
                Opcode::Asr,
            ],
            Type::F => &[
                Opcode::Add,
                Opcode::Mul,
                Opcode::Sel,
                Opcode::Mov,
                Opcode::Frc,
                Opcode::Rndd,
                Opcode::Rnde,
                Opcode::Rndz,
            ],
            _ => &[Opcode::Add, Opcode::Mul, Opcode::Sel, Opcode::Mov],
        };
        let op = ops[self.choose(ops.len())];
        // One-source operations stand beside MOV where copy propagation tells copies apart.
        let n = super::alu::arity(op);
        let mut srcs: Vec<Reg> = (0..n).map(|_| self.source(ty, vertex)).collect();
        if (n == 2 || op == Opcode::Mov) && self.chance(1, 5) {
            srcs[n - 1] = self.immediate(ty);
        }
        let mut inst = Inst::new(op, exec, dst, srcs).with_align16();
        if op == Opcode::Sel {
            let cmod = [CondMod::L, CondMod::Ge][self.choose(2)];
            inst = inst.with_cmod(cmod, FLAG);
        }
        if let Some(q) = vertex {
            inst = inst.with_group(4 * q as u8);
        }
        inst
    }

    /// Emits `inst` if the validator accepts it where it stands.
    fn try_emit(&mut self, inst: Inst) -> bool {
        let at = self.insts.len();
        let ok = compiler::validate::validate_inst(&self.p, at, &inst).is_empty();
        if ok {
            self.insts.push(inst);
        }
        ok
    }

    /// Up to three VGRFs allocated before anything is computed, one program in two, as
    /// Mesa's vec4 backend allocates the VGRFs of NIR registers at the start of a function
    /// and first writes them later. Their numbers are below those of the values computed
    /// first, so register allocation (which places VGRFs in number order) places them
    /// first, in registers of values that die before they are born. A value dying as the
    /// source of an exec-8 DF instruction then shares a register with such a value while
    /// the instruction's destination cannot, and the destination may land on the source's
    /// second register, where the instruction's first half writes what its second half
    /// still reads (docs/hardware/fp64-align16.md §4, §10.2).
    fn declare(&mut self) {
        if !self.chance(1, 2) {
            return;
        }
        for _ in 0..1 + self.choose(3) {
            let ty = TYPES[self.choose(TYPES.len())];
            let nr = self.p.alloc_vgrf(2 * vertex_bytes(ty) / REG_SIZE);
            self.declared.push(Val { nr, offset: 0, ty });
        }
    }

    /// A VGRF for a new value of `ty`: a declared one of the type (one time in two when
    /// there is one) or a fresh one.
    fn alloc(&mut self, ty: Type) -> Val {
        if let Some(i) = self.declared.iter().position(|v| v.ty == ty)
            && self.chance(1, 2)
        {
            return self.declared.remove(i);
        }
        let nr = self.p.alloc_vgrf(2 * vertex_bytes(ty) / REG_SIZE);
        Val { nr, offset: 0, ty }
    }

    /// A fresh value computed in full (top level only).
    fn new_value(&mut self) {
        let ty = self.any_type();
        let val = self.alloc(ty);
        let dst = Reg::vgrf(val.nr, ty);
        for _ in 0..4 {
            let inst = self.alu(ty, dst, None);
            let inst = self.maybe_flag_writer(inst);
            if self.try_emit(inst) {
                self.vals.push(val);
                return;
            }
        }
        let src = self.source(ty, None);
        self.insts
            .push(Inst::new(Opcode::Mov, 8, dst, vec![src]).with_align16());
        self.vals.push(val);
    }

    /// A fresh value converted from another type (f2d, i2d, d2f, d2i).
    fn conversion(&mut self) {
        let pairs: Vec<(Type, Type)> = [
            (Type::F, Type::DF),
            (Type::D, Type::DF),
            (Type::DF, Type::F),
            (Type::DF, Type::D),
        ]
        .into_iter()
        .filter(|&(from, _)| self.has_type(from))
        .collect();
        if pairs.is_empty() {
            return self.new_value();
        }
        let (from, to) = pairs[self.choose(pairs.len())];
        let val = self.alloc(to);
        let src = self.source(from, None);
        let inst = Inst::new(Opcode::Mov, 8, Reg::vgrf(val.nr, to), vec![src]).with_align16();
        if self.try_emit(inst) {
            self.vals.push(val);
        }
    }

    /// packDouble2x32 (docs/hardware/fp64-align16.md §5.3, §6): a fresh dvec4 whose low and high dwords
    /// are the bits of two 32-bit vec4s, written by SET_LOW_32BIT then SET_HIGH_32BIT.
    /// Each writes half of every DF, so neither may end the other's liveness (the vec4 DCE
    /// restriction of 553700cf55). SET is an Align1 operation: plain sources, no swizzle.
    ///
    /// One pack in three instead rewrites one half of an existing dvec4 in place, from a
    /// 32-bit value or from the dvec4's own first register read as dwords: a SET whose
    /// source overlaps its destination, which splitting must read before any piece writes.
    fn pack(&mut self) {
        let halves: Vec<Type> = [Type::F, Type::D]
            .into_iter()
            .filter(|&t| self.has_type(t))
            .collect();
        let doubles = self.vals_where(|ty| ty == Type::DF);
        if !doubles.is_empty() && self.chance(1, 3) {
            let val = doubles[self.choose(doubles.len())];
            let dst = Reg::vgrf(val.nr, Type::DF).byte_offset(val.offset);
            let src = if halves.is_empty() || self.chance(1, 2) {
                dst.retype(Type::UD)
            } else {
                let ty = halves[self.choose(halves.len())];
                self.pick(ty).reg(None).retype(Type::UD)
            };
            let op = if self.chance(1, 2) {
                Opcode::SetLow32
            } else {
                Opcode::SetHigh32
            };
            self.try_emit(Inst::new(op, 8, dst, vec![src]));
            return;
        }
        if halves.is_empty() {
            return self.conversion();
        }
        let val = self.alloc(Type::DF);
        let dst = Reg::vgrf(val.nr, Type::DF);
        let half = |g: &mut Self, op| {
            let ty = halves[g.choose(halves.len())];
            let src = g.pick(ty).reg(None).retype(Type::UD);
            g.try_emit(Inst::new(op, 8, dst, vec![src]))
        };
        // The value is whole only when both halves were written; otherwise nothing reads it.
        if half(self, Opcode::SetLow32) && half(self, Opcode::SetHigh32) {
            self.vals.push(val);
        }
    }

    /// An update of an existing value: a writemask, maybe a predicate, maybe one vertex.
    fn update(&mut self) {
        if self.vals.is_empty() {
            return self.new_value();
        }
        let i = self.choose(self.vals.len());
        let val = self.vals[i];
        let vertex =
            (self.has(Feature::Narrow) && self.chance(1, 3)).then(|| self.choose(2) as u32);
        // Every component one time in four (a whole write, which CSE may reuse). After a
        // flag write under a partial writemask, one update in two writes just the
        // components whose flag bits it defined, so a predicate may read them.
        let defined = self.flag_defined();
        let mask = if defined != 0xf && self.chance(1, 2) {
            defined
        } else if self.chance(1, 4) {
            0xf
        } else {
            1 + self.choose(15) as u8
        };
        let step = vertex.map_or(0, |q| q * vertex_bytes(val.ty));
        let dst = Reg::vgrf(val.nr, val.ty)
            .byte_offset(val.offset + step)
            .masked(mask);
        let mut inst = self.alu(val.ty, dst, vertex);
        // One in three reads the value it updates (`sum = sum + x`), a source the write
        // itself changes.
        if self.chance(1, 3)
            && !inst.srcs.is_empty()
            && !inst.srcs[0].is_imm()
            && inst.srcs[0].ty == val.ty
        {
            let swizzle = self.swizzle();
            inst.srcs[0] = Source::Value(val).reg(vertex).swizzled(swizzle);
        }
        // Under a partial writemask the flag writer is one whose flag bits the other
        // components leave undefined (a DF one of .xy or .zw is split per component by
        // scalarize_df, whose flag bits must still come out as one instruction's).
        let mut inst = self.maybe_flag_writer(inst);
        if self.has(Feature::Predication)
            && inst.cmod.is_none()
            && mask & !defined == 0
            && self.chance(1, 2)
        {
            let pred = if self.chance(1, 2) {
                Predicate::NORMAL
            } else {
                Predicate::INVERSE
            };
            inst = inst.with_pred(pred, FLAG);
        }
        self.try_emit(inst);
    }

    /// `inst` with a conditional modifier one time in five (with `modifiers`, where the IR
    /// takes one): a value that also sets the flag, which DCE must keep while the flag is
    /// read even when the value is not.
    fn maybe_flag_writer(&mut self, inst: Inst) -> Inst {
        if self.has(Feature::Modifiers)
            && inst.cmod.is_none()
            && inst.op.ir_can_do_cmod()
            && self.chance(1, 5)
        {
            return inst.with_cmod(CONDS[self.choose(CONDS.len())], FLAG);
        }
        inst
    }

    /// The components whose flag bits are defined after the instructions so far, in
    /// program order (conservative across control flow, where a compare always comes
    /// first): a conditional modifier under a partial writemask leaves the bits of the
    /// other components undefined (the emulator's reading, `writemask_effects` in
    /// oracle/src/emu/exec.rs), and a flag write of every component defines them again.
    fn flag_defined(&self) -> u8 {
        let mut mask = 0xf;
        for i in self.insts.iter().rev().filter(|i| i.writes_flag()) {
            let written = if i.dst.is_null() {
                0xf
            } else {
                i.dst.writemask.0 & 0xf
            };
            mask &= written;
            if written == 0xf {
                break;
            }
        }
        mask
    }

    /// `cmp` into the flag. A `replicated` compare reads one component of each vertex in
    /// all four channels, so the flag agrees across a vertex (what an IF needs).
    fn compare(&mut self, replicated: bool) {
        let ty = self.any_type();
        let cond = CONDS[self.choose(CONDS.len())];
        let mut a = self.source(ty, None);
        let mut b = self.source(ty, None);
        if replicated {
            a = a.swizzled(Swizzle::replicate(self.choose(4) as u8));
            b = b.swizzled(Swizzle::replicate(self.choose(4) as u8));
        }
        if ty == Type::DF && !replicated && self.in_if == 0 && self.chance(1, 3) {
            return self.double_compare(cond, a, b);
        }
        // Not DF: a compare writes no VGRF, so `setup_imm_df` has no DF immediate to load
        // there (the validator's `df_imm_lowered`), and the first compare must stand.
        if ty != Type::DF && self.chance(1, 5) {
            b = self.immediate(ty);
        }
        // At the top level a 32-bit compare sometimes also writes its boolean (all ones or
        // zero) into a new D value, as Mesa's vec4 backend emits comparisons; the value
        // may stay unread while the flag is read.
        let boolean =
            (ty != Type::DF && self.in_if == 0 && self.chance(1, 3)).then(|| self.alloc(Type::D));
        let dst = boolean.map_or(Reg::null(ty), |v| Reg::vgrf(v.nr, Type::D));
        let inst = Inst::new(Opcode::Cmp, 8, dst, vec![a, b])
            .with_align16()
            .with_cmod(cond, FLAG);
        if self.try_emit(inst) {
            self.vals.extend(boolean);
        }
    }

    /// A 64-bit comparison's boolean, as Mesa's vec4 backend makes one (`nir_emit_alu`,
    /// docs/hardware/fp64-align16.md §5.3): CMP into a dvec4 temporary, which also sets the
    /// flag, then PICK_LOW_32BIT of it, a new D value (each DF's low dword is its
    /// all-ones or zero). With a VGRF destination, the second source may be a DF immediate
    /// (`setup_imm_df` loads it).
    fn double_compare(&mut self, cond: CondMod, a: Reg, mut b: Reg) {
        if self.chance(1, 3) {
            b = self.immediate(Type::DF);
        }
        let tmp = self.alloc(Type::DF);
        let cmp = Inst::new(Opcode::Cmp, 8, Reg::vgrf(tmp.nr, Type::DF), vec![a, b])
            .with_align16()
            .with_cmod(cond, FLAG);
        if !self.try_emit(cmp) {
            return;
        }
        let res = self.alloc(Type::D);
        let pick = Inst::new(
            Opcode::PickLow32,
            8,
            Reg::vgrf(res.nr, Type::D),
            vec![Reg::vgrf(tmp.nr, Type::DF)],
        );
        if self.try_emit(pick) {
            self.vals.push(res);
        }
    }

    /// A per-vertex divergent IF/ELSE: a replicated compare, then updates in each arm.
    fn if_else(&mut self) {
        self.compare(true);
        let pred = Inst::control(Opcode::If, 8).with_pred(Predicate::NORMAL, FLAG);
        self.insts.push(pred);
        self.depth += 1;
        self.in_if += 1;
        for _ in 0..1 + self.choose(3) {
            self.statement();
        }
        if self.chance(1, 2) {
            self.insts.push(Inst::control(Opcode::Else, 8));
            for _ in 0..1 + self.choose(3) {
                self.statement();
            }
        }
        self.in_if -= 1;
        self.depth -= 1;
        self.insts.push(Inst::control(Opcode::Endif, 8));
    }

    /// `cnt = 0; do { cnt += 1; … ; if (cnt.x >= trips) break; } while`, or the same
    /// loop ended by `(+f0) while` after `cnt.x < trips`. Every vertex still in the loop
    /// counts each iteration, so it ends after at most `trips` iterations whatever the
    /// body's BREAKs do. Values computed in the body stay inside it, and values from before
    /// the loop are read and updated across its back edge: what vec4 register allocation
    /// has to keep alive over the whole loop (docs/hardware/fp64-align16.md §10.2).
    fn counted_loop(&mut self) {
        let trips = 1 + self.choose(MAX_TRIPS) as i32;
        let cnt_nr = self.p.alloc_vgrf(1);
        let cnt = Reg::vgrf(cnt_nr, Type::D);
        let first = self.vals.len();
        let outer_if = self.in_if;
        self.insts
            .push(Inst::new(Opcode::Mov, 8, cnt, vec![Reg::imm_d(0)]).with_align16());
        self.insts.push(Inst::control(Opcode::Do, 8));
        self.insts
            .push(Inst::new(Opcode::Add, 8, cnt, vec![cnt, Reg::imm_d(1)]).with_align16());
        self.depth += 1;
        self.loops += 1;
        self.in_if = 0;
        for _ in 0..1 + self.choose(4) {
            self.statement();
        }
        self.in_if = outer_if;
        self.loops -= 1;
        self.depth -= 1;
        self.vals.truncate(first);
        let exit_in_while = self.chance(1, 2);
        let cond = if exit_in_while {
            CondMod::L
        } else {
            CondMod::Ge
        };
        let test = Inst::new(
            Opcode::Cmp,
            8,
            Reg::null(Type::D),
            vec![cnt.swizzled(Swizzle::replicate(0)), Reg::imm_d(trips)],
        )
        .with_align16()
        .with_cmod(cond, FLAG);
        self.insts.push(test);
        if exit_in_while {
            self.insts
                .push(Inst::control(Opcode::While, 8).with_pred(Predicate::NORMAL, FLAG));
        } else {
            self.insts
                .push(Inst::control(Opcode::Break, 8).with_pred(Predicate::NORMAL, FLAG));
            self.insts.push(Inst::control(Opcode::While, 8));
        }
        // Each vertex counted every iteration it ran: the count is whole after the loop.
        if self.in_if == 0 {
            self.vals.push(Val {
                nr: cnt_nr,
                offset: 0,
                ty: Type::D,
            });
        }
    }

    /// A BREAK of the vertices a replicated compare selects: predicated, or inside an IF
    /// (the form Mesa's vec4 backend emits for `if (c) break;`) when IFs are drawn.
    fn early_break(&mut self) {
        self.compare(true);
        let pred = if self.chance(1, 2) {
            Predicate::NORMAL
        } else {
            Predicate::INVERSE
        };
        if !self.has(Feature::If) || self.chance(1, 2) {
            self.insts
                .push(Inst::control(Opcode::Break, 8).with_pred(pred, FLAG));
        } else {
            self.insts
                .push(Inst::control(Opcode::If, 8).with_pred(pred, FLAG));
            self.insts.push(Inst::control(Opcode::Break, 8));
            self.insts.push(Inst::control(Opcode::Endif, 8));
        }
    }

    /// The URB writes: up to four dvec4 values from slot 0, then up to four 32-bit vec4s,
    /// each copied into one payload VGRF; the last write ends the thread.
    fn outputs(&mut self) {
        let dvec4s = self.vals_where(|ty| ty == Type::DF);
        let vec4s = self.vals_where(|ty| ty != Type::DF);
        let mut writes = vec![];
        let mut slot = 0;
        for (vals, ty) in [(dvec4s, Type::DF), (vec4s, Type::UD)] {
            let n = vals.len().min(4);
            if n == 0 {
                continue;
            }
            let picked: Vec<Val> = vals[vals.len() - n..].to_vec();
            let per = 2 * vertex_bytes(ty);
            let out = self.p.alloc_vgrf(n as u32 * per / REG_SIZE);
            for (i, v) in picked.iter().enumerate() {
                let src = Reg::vgrf(v.nr, ty).byte_offset(v.offset);
                let dst = Reg::vgrf(out, ty).byte_offset(i as u32 * per);
                self.insts
                    .push(Inst::new(Opcode::Mov, 8, dst, vec![src]).with_align16());
            }
            writes.push((out, ty, slot, n as u32));
            slot += n as u32 * if ty == Type::DF { 2 } else { 1 };
        }
        let last = writes.len().saturating_sub(1);
        for (i, (out, ty, slot, n)) in writes.into_iter().enumerate() {
            let mut inst = Inst::new(
                Opcode::UrbWriteLogical,
                8,
                Reg::null(Type::UD),
                vec![Reg::vgrf(out, ty), Reg::imm_ud(slot), Reg::imm_ud(n)],
            );
            if i == last {
                inst = inst.with_eot();
            }
            self.insts.push(inst);
        }
    }
}
