//! The program generator: turns bytes (libFuzzer's, or a seed's ChaCha stream) into a
//! valid, well-defined logical-IR program with its inputs, through `arbitrary::Unstructured`.
//!
//! Valid by construction: every instruction is checked with the validator's per-instruction
//! rules as it is made and replaced if it breaks one. Well defined: every value is written
//! in full at the top level before it is read, new values are only made where every live
//! channel runs (outside divergent control flow and outside a HALT region), loops count
//! down a counter, and branches test values that are defined. Swarm testing: each program
//! draws its own subset of features and opcodes, inside the focus knobs.
//!
//! The same bytes give the same program on every machine; [`FORMAT_VERSION`] changes when
//! the decoding does.

mod alu;
mod control;
mod idioms;
pub mod knobs;
mod messages;
mod shapes;
mod vec4;

use crate::generator::knobs::{
    ALL_FEATURES, FORMAT6_FEATURES, FUZZ_ONLY_FEATURES, Feature, Knobs, Profile,
};
use arbitrary::Unstructured;
use compiler::device::{ALL_DEVICES, DeviceInfo};
use compiler::inst::Inst;
use compiler::reg::{REG_SIZE, Reg, RegKind};
use compiler::types::Type;
use compiler::{Opcode, Program};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// Version of the bytes → program decoding: the same bytes give the same program within
/// a version, not across versions. 3: the shape features of issue 9 item 10 (seven more
/// feature draws, a statement kind for them, a hardware-form final write). 4: the
/// optimiser idioms of issue 10 (eight more feature draws, a statement kind for them,
/// a packed-dispatch draw). 5: loops left through a value carried by a NoMask SEL
/// (`toggle_loop`; realistic programs are unchanged). 6: issue 24 item 3 — a vec4 draw
/// first (default fuzz knobs: [`VEC4_SHARE`]), two more feature draws (`fixed-grf`,
/// `mixed-mul`), payloads at any offset, the `sat-idiom`, `if-moves` and `dead-value`
/// variants, and the fixed-GRF relocation (realistic programs are unchanged). 7: the
/// fixed-GRF relocation in default fuzz programs, placed just above the payload with holes
/// (allocation leaves the program's own GRFs alone), SIMD32 included, flag-only compares
/// whose null destination has another type than their sources, BROADCASTs of an
/// immediate channel index, and NOT tests of an AND/OR of two compares; realistic programs
/// are unchanged. 8: vec4 immediates (F, D and DF) as a MOV's source and as the last
/// source of two-source instructions and compares. 9: `repeated-expr` also repeats any
/// earlier ALU instruction or message with a new destination, fixed-GRF sources read
/// through two-dimensional regions, and NOT, SHL, ASR and the F roundings in vec4
/// programs (realistic programs are unchanged). 10: the fixed-GRF sources that decide
/// when a loop ends (a loop counter's update, a compare whose flag control flow reads)
/// keep their linear regions; format 9 could read another channel's counter and make a
/// loop that never ends (realistic programs are unchanged). 11: the shapes the mutation
/// score showed missing (docs/mutation-score.md): `fixed-grf` values at a sub-register
/// written and read by three-source instructions (some with a conditional modifier whose
/// flag is read), vec4 dvec4 uniforms starting mid-row, and vec4 values whose VGRFs are
/// declared before the values they are computed from (realistic programs are unchanged).
/// 12: vec4 programs have counted loops with per-vertex BREAKs and values computed inside
/// loop bodies; fuzz programs with the `live-channel` idiom also make subgroup votes, an
/// exec-1 MOV predicated on ANY<w>H/ALL<w>H (realistic programs are unchanged). 13: a
/// LOAD_PAYLOAD header source may be any source (a uniform, an immediate, a fixed GRF read
/// through a two-dimensional region), now that the emulator reads a header as the
/// lowering's MOV does, and LOAD_PAYLOAD holes (null sources); NoMask cmod producers with
/// masked tests; boolean tests by NOT, by a MOV of another type, of AND/OR operands with
/// modifiers or immediates, and `and.cond x, 1` of non-CMP producers; saturating
/// producers before `mov.sat`; IF/ELSE arms whose MOVs saturate or carry a source
/// modifier; vec4 SET_LOW/HIGH_32BIT rewriting a dvec4 half in place, and 64-bit compares
/// into a dvec4 then PICK_LOW_32BIT (realistic programs are unchanged). 14: mixed-float
/// operations: one F or HF operation in four other than a MOV (math and MAD/LRP included)
/// draws each source's type from F and HF (realistic programs are unchanged). 15: the
/// `scalar` shape: NoMask operations at exec size 1, 2 or 4 on scalars packed into shared
/// registers, read back by every channel through `<0>` regions; predicated scratch
/// writes, scratch reads into existing values and buffer writes; vec4 ALU instructions
/// that also set the flag, and vec4 compares into a D value (realistic programs are
/// unchanged). 16: `fixed-grf` also overwrites an input's payload GRFs between two uses
/// of it; vec4 programs repeat earlier ALU instructions into new values, and their
/// updates write every component one time in four and read the value they update one
/// time in three (realistic programs are unchanged). 17: NoMask buffer reads and writes at
/// exec size 1, 2 or 4 among the `scalar` operations; D/UD MULs into null with a
/// conditional modifier; predicated MACHs updating an existing value; buffer-read and
/// texture results starting at a dword inside a register (realistic programs are
/// unchanged). 18: scalar operations are mixed float as often as per-channel ones
/// (realistic programs are unchanged). 19: one vec4 update in five also sets the flag (a
/// conditional modifier under a partial writemask). 20: after such a flag write, a
/// predicated vec4 update writes only components whose flag bits are defined (format 19
/// could read the undefined ones and leave outputs undefined), and one update in two
/// writes exactly those components. 21: ADD3 on the parts that have it (Gfx12.5) and
/// opcodes drawn only on the devices that have them; `repeated-expr` and vec4 repeats make
/// near duplicates one time in two (one thing a CSE key compares changed: destination
/// type, saturate, a source's modifier or swizzle, the order of two sources); vector
/// immediates moved into values of any type (realistic programs are unchanged). 22:
/// predicated flag writes — one compare in four of those into null, and one predicated
/// ALU instruction in four that can take a condition, predicated on the flag their
/// condition writes (realistic programs are unchanged). 23: one float CMP in four tests
/// "unordered" (`.u`), among them the compares that set flags for predicates and branches
/// (realistic programs are unchanged).
pub const FORMAT_VERSION: u32 = 23;

/// The share of default fuzz programs that are vec4 (`stage=vs`) programs: one in five,
/// the vec4 pipeline's share of the compiler's pass code (`compiler/src/passes/vec4/`,
/// 1,748 of 8,816 lines). Drawn only when the knobs name no stage, feature, opcode or
/// dispatch width, are the fuzz profile, and allow a device that runs the stage.
pub const VEC4_SHARE: (u8, u8) = (1, 5);

/// Whether `knobs` leave room for the vec4 share.
fn draws_vec4(knobs: &Knobs) -> bool {
    let runs = |d: &compiler::Device| compiler::Stage::Vertex.unsupported_on(*d).is_none();
    !knobs.stage_named
        && knobs.profile == Profile::Fuzz
        && knobs.features.is_empty()
        && knobs.ops.is_empty()
        && (knobs.dispatch.is_empty() || knobs.dispatch.contains(&8))
        && (knobs.devices.is_empty() || knobs.devices.iter().any(runs))
}

/// Bytes a seed expands to (far more than a program needs; the rest is unused).
const SEED_BYTES: usize = 1 << 14;

/// A generated program and what the swarm drew for it.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The program, with its inputs.
    pub program: Program,
    pub features: Vec<Feature>,
    pub opcodes: Vec<Opcode>,
}

/// The ALU opcodes the generator can use directly (MACH comes with `Feature::MulHigh`),
/// and the logical MULH.
pub const ALU_OPS: [Opcode; 45] = [
    Opcode::Mov,
    Opcode::Sel,
    Opcode::Not,
    Opcode::And,
    Opcode::Or,
    Opcode::Xor,
    Opcode::Shr,
    Opcode::Shl,
    Opcode::Asr,
    Opcode::Rol,
    Opcode::Ror,
    Opcode::Cmp,
    Opcode::Cmpn,
    Opcode::Add,
    Opcode::Addc,
    Opcode::Subb,
    Opcode::Avg,
    Opcode::Mul,
    Opcode::Mad,
    Opcode::Lrp,
    Opcode::Frc,
    Opcode::Rndu,
    Opcode::Rndd,
    Opcode::Rnde,
    Opcode::Rndz,
    Opcode::Bfrev,
    Opcode::Bfe,
    Opcode::Bfi1,
    Opcode::Bfi2,
    Opcode::Fbh,
    Opcode::Fbl,
    Opcode::Cbit,
    Opcode::Lzd,
    Opcode::Rcp,
    Opcode::Rsq,
    Opcode::Sqrt,
    Opcode::Exp2,
    Opcode::Log2,
    Opcode::Sin,
    Opcode::Cos,
    Opcode::Pow,
    Opcode::IntQuotient,
    Opcode::IntRemainder,
    Opcode::Mulh,
    Opcode::Add3,
];

/// A value the program can read: `ty` elements, one per channel, packed from `offset` of
/// VGRF `nr`, defined in every channel that was live where it was made.
#[derive(Clone, Copy, Debug)]
struct Val {
    nr: u32,
    offset: u32,
    ty: Type,
}

/// Generation state for one program.
struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    p: Program,
    info: &'static DeviceInfo,
    width: u8,
    features: BTreeSet<Feature>,
    ops: Vec<Opcode>,
    types: Vec<Type>,
    vals: Vec<Val>,
    insts: Vec<Inst>,
    /// Nesting of IF and DO.
    depth: u32,
    loop_depth: u32,
    /// Inside a loop whose condition is tested right before WHILE (no CONTINUE there).
    no_continue: bool,
    /// Inside a loop every exit of which sets its exit value: no plain BREAK.
    no_break: bool,
    /// Between a HALT and its HALT_TARGET.
    halted: bool,
    /// Flag subregister for compares feeding IF, BREAK, HALT and predication.
    general_flag: u8,
    /// Flag subregisters still free for loop conditions.
    loop_flags: Vec<u8>,
    /// Buffer addresses (UD values, in bounds, dword aligned).
    addrs: Vec<Val>,
    /// Statements left to generate.
    budget: u32,
    /// The realistic profile: more values live at the top.
    realistic: bool,
    scratch_used: u32,
    /// Scratch offsets last written in full by a top-level write.
    scratch_written: Vec<u32>,
    /// Values defined only in the channels that left a loop with them: folded into the
    /// final write, never read otherwise.
    exit_vals: Vec<Val>,
    /// Scalars (one element, read by every channel through a `<0>` region), written with
    /// NoMask where every value they read was defined.
    scalars: Vec<Val>,
}

/// Generates a program from `u` within `knobs`.
pub fn generate(u: &mut Unstructured, knobs: &Knobs) -> Generated {
    if knobs.stage.is_vec4()
        || (draws_vec4(knobs) && u.ratio(VEC4_SHARE.0, VEC4_SHARE.1).unwrap_or(false))
    {
        return vec4::generate(u, knobs);
    }
    let devices: Vec<_> = if knobs.devices.is_empty() {
        ALL_DEVICES.to_vec()
    } else {
        knobs.devices.clone()
    };
    let device = devices[choose(u, devices.len())];
    let info = device.info();
    // Realistic programs are SIMD8 or SIMD16 unless asked otherwise: a driver compiles
    // SIMD32 only for small shaders and drops it when it spills.
    let realistic = knobs.profile == Profile::Realistic;
    let widths: Vec<u8> = [8u8, 16, 32]
        .into_iter()
        .filter(|&w| w as u32 <= info.max_dispatch_width)
        .filter(|&w| {
            if knobs.dispatch.is_empty() {
                !(realistic && w == 32)
            } else {
                knobs.dispatch.contains(&w)
            }
        })
        .collect();
    let width = if widths.is_empty() {
        8
    } else {
        widths[choose(u, widths.len())]
    };
    let mut features = BTreeSet::new();
    for f in ALL_FEATURES {
        // (Realistic programs draw none of the format-6 features: they decode as before.)
        if realistic && (FORMAT6_FEATURES.contains(&f) || FUZZ_ONLY_FEATURES.contains(&f)) {
            continue;
        }
        // Register pressure is slow to compile and run: one program in eight.
        let on = if f == Feature::Pressure {
            u.ratio(1u8, 8).unwrap_or(false)
        } else if FORMAT6_FEATURES.contains(&f) {
            // Their known failures are frequent while unfixed: one program in four.
            u.ratio(1u8, 4).unwrap_or(false)
        } else {
            u.arbitrary::<bool>().unwrap_or(false)
        };
        if knobs.allows_feature(f) && on {
            features.insert(f);
        }
    }
    // Only the device's own opcodes (BFE and the like from Gen7, ROL/ROR from Gen11,
    // ADD3 from Gfx12.5): one the device lacks would only be drawn to be rejected.
    let mut ops: Vec<Opcode> = ALU_OPS
        .into_iter()
        .filter(|&op| knobs.allows_op(op))
        .filter(|&op| compiler::hw::first_generation(op).is_none_or(|g| info.verx10 >= g))
        .filter(|_| u.ratio(2u8, 3).unwrap_or(true))
        .collect();
    if ops.is_empty() {
        ops = [Opcode::Mov, Opcode::Add]
            .into_iter()
            .filter(|&op| knobs.allows_op(op))
            .collect();
    }
    if !knobs.allows_op(Opcode::Mach) {
        features.remove(&Feature::MulHigh);
    }
    // Realistic programs compute mostly in 32-bit floats (F drawn twice as often).
    let mut types = if realistic {
        vec![Type::F, Type::F, Type::D, Type::UD]
    } else {
        vec![Type::F, Type::D, Type::UD, Type::W, Type::UW]
    };
    if features.contains(&Feature::HalfFloat) && info.has_half_float {
        types.push(Type::HF);
    }
    if features.contains(&Feature::Float64) && info.has_64bit_float {
        types.push(Type::DF);
    }
    if features.contains(&Feature::Int64) && info.has_64bit_int {
        types.push(Type::Q);
        types.push(Type::UQ);
    }
    let mut p = Program::new(device, width);
    // Channel 0 guaranteed live lets FIND_LIVE_CHANNEL become 0 (docs/hardware/brw-backend.md §9.2).
    p.packed_dispatch =
        features.contains(&Feature::LiveChannel) && u.arbitrary::<bool>().unwrap_or(false);
    p.threads = if features.contains(&Feature::Threads) {
        2 + choose(u, 2) as u32
    } else {
        1
    };
    p.uniforms = 4 + 2 * choose(u, 3) as u32;
    let attrs = 2 + choose(u, 2);
    // Eight bytes per channel, so 64-bit values can be read from an attr too.
    p.attr_sizes = vec![width as u32 * 8 / REG_SIZE; attrs];
    let (general_flag, loop_flags) = flags(u, info, width);
    let budget = match (features.contains(&Feature::Pressure), realistic) {
        (true, false) => 40,
        (false, false) => 6 + choose(u, 24) as u32,
        (true, true) => 60,
        (false, true) => 24 + choose(u, 48) as u32,
    };
    let mut g = Gen {
        u,
        p,
        info,
        width,
        features,
        ops,
        types,
        vals: vec![],
        insts: vec![],
        depth: 0,
        loop_depth: 0,
        no_continue: false,
        no_break: false,
        halted: false,
        general_flag,
        loop_flags,
        addrs: vec![],
        budget,
        realistic,
        scratch_used: 0,
        scratch_written: vec![],
        exit_vals: vec![],
        scalars: vec![],
    };
    g.program();
    let Gen {
        u,
        mut p,
        insts,
        features,
        ops,
        scratch_used,
        ..
    } = g;
    p.scratch_size = scratch_used.next_multiple_of(1024);
    p.set_insts(insts);
    if features.contains(&Feature::FixedGrf) {
        shapes::fix_registers(&mut p, u);
    }
    // Half the threads of a partial-dispatch program start with some channels disabled.
    let partial = if features.contains(&Feature::PartialDispatch) {
        2
    } else {
        0
    };
    p.inputs = Some(crate::inputs::draw(&p, partial, &mut |n| {
        u.int_in_range(0..=n - 1).unwrap_or(0)
    }));
    Generated {
        program: p,
        features: features.into_iter().collect(),
        opcodes: ops,
    }
}

/// Generates the program a seed stands for: the seed's ChaCha8 bytes through [`generate`].
pub fn from_seed(seed: u64, knobs: &Knobs) -> Generated {
    let bytes = seed_bytes(seed);
    generate(&mut Unstructured::new(&bytes), knobs)
}

/// The bytes a seed expands to (what `eufuzz campaign` saves with a failure).
pub fn seed_bytes(seed: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut bytes = vec![0u8; SEED_BYTES];
    rng.fill_bytes(&mut bytes);
    bytes
}

/// An index below `n` (0 when the bytes run out).
fn choose(u: &mut Unstructured, n: usize) -> usize {
    if n <= 1 {
        return 0;
    }
    u.choose_index(n).unwrap_or(0)
}

/// The general flag and the loop flags: SIMD32 uses whole 32-bit flag registers.
fn flags(u: &mut Unstructured, info: &DeviceInfo, width: u8) -> (u8, Vec<u8>) {
    let step = if width == 32 { 2 } else { 1 };
    let mut all: Vec<u8> = (0..info.flag_subregs as u8).step_by(step).collect();
    let general = all.remove(choose(u, all.len()));
    (general, all)
}

impl Gen<'_, '_> {
    fn chance(&mut self, num: u8, den: u8) -> bool {
        self.u.ratio(num, den).unwrap_or(false)
    }

    fn choose(&mut self, n: usize) -> usize {
        choose(self.u, n)
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.choose(items.len())]
    }

    /// One of this program's value types.
    fn any_type(&mut self) -> Type {
        let i = self.choose(self.types.len());
        self.types[i]
    }

    fn has(&self, f: Feature) -> bool {
        self.features.contains(&f)
    }

    /// Registers a per-channel value of `ty` takes.
    fn regs_for(&self, ty: Type) -> u32 {
        (self.width as u32 * ty.size()).div_ceil(REG_SIZE)
    }

    /// Whether every live channel runs here, so a full write defines a value everywhere.
    fn uniform_control(&self) -> bool {
        self.depth == 0 && !self.halted
    }

    fn new_vgrf(&mut self, regs: u32) -> u32 {
        self.p.alloc_vgrf(regs)
    }

    fn val_reg(&self, v: Val) -> Reg {
        Reg::vgrf(v.nr, v.ty).byte_offset(v.offset)
    }

    /// Emits `inst` if the validator accepts it where it stands.
    fn try_emit(&mut self, inst: Inst) -> bool {
        let ok = compiler::validate::validate_inst(&self.p, self.insts.len(), &inst).is_empty();
        if ok {
            self.insts.push(inst);
        }
        ok
    }

    /// Emits an instruction the generator builds to be valid (control flow, moves of
    /// declared values); a violation is a generator bug, caught by the validity tests.
    fn emit(&mut self, inst: Inst) {
        self.insts.push(inst);
    }

    fn program(&mut self) {
        let initial = match (self.has(Feature::Pressure), self.realistic) {
            (true, false) => 40 + self.choose(30),
            (true, true) => 24 + self.choose(24),
            (false, false) => 3 + self.choose(5),
            (false, true) => 6 + self.choose(10),
        };
        for _ in 0..initial {
            self.initial_value();
        }
        if self.has(Feature::Buffer) {
            for _ in 0..1 + self.choose(2) {
                self.address();
            }
        }
        while self.budget > 0 {
            self.statement();
            if self.halted && self.depth == 0 && self.chance(1, 3) {
                self.emit(Inst::control(Opcode::HaltTarget, self.width));
                self.halted = false;
            }
        }
        if self.halted {
            self.emit(Inst::control(Opcode::HaltTarget, self.width));
            self.halted = false;
        }
        self.final_write();
    }

    /// One statement at the current nesting.
    fn statement(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let nested = self.depth < 3 && self.budget > 2;
        // Scalar programs make one statement in six a scalar operation, so scalars share
        // registers and feed the rest of the program often enough to matter.
        if self.has(Feature::Scalar) && self.chance(1, 6) {
            return self.scalar_op();
        }
        match self.choose(23) {
            0 | 1 if nested && self.has(Feature::If) => self.if_else(),
            2 if nested && self.has(Feature::Loop) && !self.loop_flags.is_empty() => {
                self.counted_loop()
            }
            3 if self.loop_depth > 0 => self.break_or_continue(),
            4 if self.has(Feature::Halt) && self.loop_depth == 0 && !self.halted => self.halt(),
            5 if self.has(Feature::Buffer) => self.buffer_access(),
            6 if self.has(Feature::Texture) => self.texture(),
            7 if self.has(Feature::Scratch) => self.scratch(),
            8 if self.has(Feature::RtWrites) => self.rt_write(),
            9 if self.has(Feature::LoadPayload) => self.load_payload(),
            10 if self.has(Feature::MulHigh) => self.mul_high(),
            11 if self.has(Feature::NomaskInCf) && self.depth > 0 => self.nomask_move(),
            12 if self.has(Feature::FlagData) => self.flag_as_data(),
            13..=15 if self.has_shape() => self.shape(),
            16..=19 if self.has_idiom() => self.idiom(),
            _ => self.alu(),
        }
    }
}

/// `r` without source modifiers (messages copy raw bits; MUL/MACH pairs come from MULH
/// lowering, which materialises modifiers first).
fn plain(mut r: Reg) -> Reg {
    r.negate = false;
    r.abs = false;
    r
}

/// Moves `reg` (a VGRF or ATTR operand) to the channels of a narrower instruction's group.
fn at_group(reg: Reg, group: u32) -> Reg {
    let mut r = reg;
    match &mut r.kind {
        RegKind::Vgrf { offset, stride, .. } | RegKind::Attr { offset, stride, .. } => {
            *offset += group * reg.ty.size() * *stride as u32;
        }
        _ => {}
    }
    r
}
