//! The EU emulator: one implementation that executes logical IR (virtual registers, logical
//! messages), every partly-lowered stage, and hardware IR in strict mode.
//!
//! Threads run one after another, each with its own register space, flags, accumulator and
//! inputs; buffers and the scratch buffer are shared. Fuel bounds the total number of
//! instructions executed.

mod align16;
mod alu;
pub mod decode;
mod dword_half;
mod exec;
mod fast;
mod indirect;
pub mod layout;
mod messages;
mod operand;
mod prepared;
pub mod result;
mod state;
mod urb;
pub mod value;

use compiler::inputs::{Inputs, values_to_bytes};
use compiler::reg::REG_SIZE;
use compiler::{Opcode, Program};
use decode::Decoded;
use exec::Ctx;
use layout::{Layout, SCRATCH_BASE};
use messages::Memory;
pub use prepared::Prepared;
use result::{BufferState, Diagnostic, Outcome, RunResult, ThreadResult};
use state::{ACC_LANES, AccLane, Space, Thread, garbage};
pub use state::{FLOAT_NAN, is_defined};
use std::collections::BTreeMap;

/// How to run a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// Hardware IR: no virtual registers, hardware MUL precision, every instruction checked
    /// against the device's restriction rules.
    pub strict: bool,
    /// Maximum instructions executed over all threads.
    pub fuel: u64,
    /// Maximum output writes a run records (render-target and URB messages, stray
    /// writes): a run ends with [`Outcome::WriteLimit`] past it. Fuel alone does not bound
    /// a run's memory: a compiled loop that never ends with a message in its body records
    /// one per iteration until its fuel runs out, millions of them, gigabytes.
    pub max_writes: u64,
    /// Integer multiplies with the hardware's precision (a device without a 32×32
    /// multiplier reads only the low 16 bits of src1) without the rest of strict mode: for
    /// partly lowered IR after integer-multiply lowering, where no full-precision DxD MUL
    /// should remain.
    pub hardware_mul: bool,
    /// Use the array kernels for common 32-bit ALU instructions. Turning it off runs every
    /// instruction through the per-channel reference implementation, to cross-check them.
    pub fast_path: bool,
}

impl RunConfig {
    /// This configuration without strict mode (for IR that still has VGRFs).
    pub fn logical(self) -> RunConfig {
        RunConfig {
            strict: false,
            ..self
        }
    }
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            strict: false,
            hardware_mul: false,
            fuel: 1_000_000,
            max_writes: MAX_WRITES,
            fast_path: true,
        }
    }
}

/// The default [`RunConfig::max_writes`]: far more messages than a generated program
/// makes (its loops run a few iterations), and at most some hundred megabytes recorded.
pub const MAX_WRITES: u64 = 100_000;

/// Per-thread scratch size the hardware is programmed with (g0.3), and the real per-thread
/// size the scratch buffer is laid out for (larger when a program needs more than the
/// device allows and manages its own partitioning).
pub fn scratch_sizes(p: &Program) -> (u32, u32) {
    let info = p.device.info();
    let enc = info.scratch_encoding;
    let programmed = enc.round_up(p.scratch_size.min(info.max_scratch_per_thread));
    let real = programmed.max(p.scratch_size.next_multiple_of(1024));
    (programmed, real)
}

/// Writes the given input values from `base` on, within a payload of `len` bytes. Bytes the
/// inputs do not give stay undefined (their garbage kept): a missing attr channel or push
/// constant is not 0.0, so an output computed from it is not compared (issue 9 item 3).
fn write_payload(space: &mut Space, base: usize, values: &[compiler::Value], len: usize) {
    let mut bytes = values_to_bytes(values);
    bytes.truncate(len);
    space.write_bytes(base, &bytes, &vec![1; bytes.len()]);
}

fn new_thread(
    p: &Program,
    layout: &Layout,
    inputs: &Inputs,
    index: u32,
    (programmed, real): (u32, u32),
) -> Thread {
    let mut space = Space::undefined(layout.total);
    let reg = REG_SIZE as usize;
    let enc = p.device.info().scratch_encoding.encode(programmed);
    let mut g0 = [0u8; 32];
    g0[12..16].copy_from_slice(&enc.to_le_bytes());
    g0[20..24].copy_from_slice(&(SCRATCH_BASE | (index & 0x3ff)).to_le_bytes());
    space.write_bytes(0, &g0, &[1; 32]);
    let uniform_len = (p.uniforms as usize * 4).div_ceil(reg) * reg;
    write_payload(
        &mut space,
        layout.uniform_base,
        &inputs.uniforms,
        uniform_len,
    );
    for (k, (&base, &size)) in layout.attr_bases.iter().zip(&p.attr_sizes).enumerate() {
        let len = size as usize * reg;
        let values = inputs
            .attrs
            .get(&(index, k as u32))
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        write_payload(&mut space, base, values, len);
    }
    let dispatch = inputs.dispatch_mask(index, p.dispatch_width as u32);
    Thread {
        index,
        fftid: index,
        space,
        flags: u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7].map(|i| garbage(i + 7))),
        flags_def: 0,
        acc: [AccLane {
            value: 0x5a5a_5a5a_5a5a,
            defined_bits: 0,
        }; ACC_LANES],
        address: Space::undefined(indirect::ADDRESS_BYTES),
        active: dispatch,
        dispatched: dispatch,
        halted: 0,
        stack: vec![],
        ip: 0,
        logical_scratch_region: real,
    }
}

fn memory(p: &Program, inputs: &Inputs, real_scratch: u32) -> Memory {
    let buffers = inputs
        .buffers
        .iter()
        .map(|(&s, values)| {
            let bytes = values_to_bytes(values);
            let def = vec![1; bytes.len()];
            (s, Space { bytes, def })
        })
        .collect();
    let scratch_len = p.threads.max(1) as usize * real_scratch as usize;
    let owners = inputs
        .buffers
        .iter()
        .map(|(&s, v)| (s, vec![0; compiler::inputs::values_to_bytes(v).len()]))
        .collect();
    Memory {
        buffers,
        owners,
        other_writers: BTreeMap::new(),
        scratch: Space::undefined(scratch_len.min(256 << 20)),
        textures: inputs.textures.clone(),
        stray: vec![],
    }
}

/// Instructions and channel-operations executed so far, and the fuel limit.
struct Budget {
    steps: u64,
    channel_ops: u64,
    fuel: u64,
    /// Render-target and URB messages recorded (stray writes are counted in memory).
    writes: u64,
    max_writes: u64,
}

/// Where a thread stands after one step.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Running,
    Done,
}

/// Executes one instruction of a thread; `Err` for an emulator fault.
fn step(
    t: &mut Thread,
    ctx: &Ctx,
    mem: &mut Memory,
    out: &mut ThreadResult,
    diags: &mut Vec<Diagnostic>,
    budget: &mut Budget,
    effects: &mut exec::Effects,
) -> Result<Step, (Option<usize>, String)> {
    let insts = &ctx.decoded.insts;
    if t.ip >= insts.len() {
        return Ok(Step::Done);
    }
    budget.steps += 1;
    let ip = t.ip;
    let d = &insts[ip];
    let op = d.inst.op;
    if op.is_control_flow() || op == Opcode::Nop {
        exec::exec_control(t, d, ctx, diags).map_err(|e| (Some(ip), e.to_string()))?;
        return Ok(if t.ip >= insts.len() {
            Step::Done
        } else {
            Step::Running
        });
    }
    if op.is_message() || op == Opcode::LoadPayload {
        let effect = messages::exec_message(t, d, ip, ctx, mem, diags)
            .map_err(|e| (Some(ip), e.to_string()))?;
        budget.channel_ops += effect.channels as u64;
        if let Some(w) = effect.rt_write {
            out.rt_writes.push(w);
            budget.writes += 1;
        }
        budget.writes += effect.urb_writes.len() as u64;
        out.urb_writes.extend(effect.urb_writes);
    } else if op.is_subgroup() {
        exec::exec_subgroup(t, d, ctx);
        budget.channel_ops += 1;
    } else if let Some(k) = d.kernel.filter(|_| ctx.fast_path) {
        budget.channel_ops += fast::exec(t, d, k, ctx) as u64;
    } else {
        exec::indirect_diagnostics(t, d, ctx, ip, diags);
        budget.channel_ops += exec::exec_alu(t, d, ctx, effects) as u64;
    }
    if d.inst.eot {
        out.eot = true;
        return Ok(Step::Done);
    }
    t.ip = ip + 1;
    Ok(if t.ip >= insts.len() {
        Step::Done
    } else {
        Step::Running
    })
}

/// A thread's registers at its end, for inspection (tests, register dumps).
#[derive(Clone, Debug)]
pub struct Registers {
    pub layout: Layout,
    bytes: Vec<u8>,
    def: Vec<u8>,
    pub flags: u64,
    pub flags_def: u64,
}

impl Registers {
    /// Bytes and defined flags of `v<nr>`.
    pub fn vgrf(&self, nr: usize) -> (&[u8], &[u8]) {
        let start = self.layout.vgrf_bases[nr];
        let end = self
            .layout
            .vgrf_bases
            .get(nr + 1)
            .copied()
            .unwrap_or(self.layout.total);
        (&self.bytes[start..end], &self.def[start..end])
    }

    /// Bytes and defined flags of GRFs `g<nr>` onward, `count` registers.
    pub fn grf(&self, nr: usize, count: usize) -> (&[u8], &[u8]) {
        let r = REG_SIZE as usize;
        (
            &self.bytes[nr * r..(nr + count) * r],
            &self.def[nr * r..(nr + count) * r],
        )
    }
}

/// Runs `p` on `inputs`.
pub fn run(p: &Program, inputs: &Inputs, cfg: &RunConfig) -> RunResult {
    Prepared::new(p, cfg).run(inputs)
}

/// Runs `p` on `inputs` and also returns every thread's final registers.
pub fn run_inspect(p: &Program, inputs: &Inputs, cfg: &RunConfig) -> (RunResult, Vec<Registers>) {
    Prepared::new(p, cfg).run_inspect(inputs)
}

/// Runs every thread to the end (or a fault, or out of fuel) into `result`; returns the
/// final registers and which thread wrote each buffer byte.
fn execute(
    p: &Program,
    inputs: &Inputs,
    cfg: &RunConfig,
    ctx: &Ctx,
    decoded: &Decoded,
    other_writers: BTreeMap<u8, Vec<u8>>,
    result: &mut RunResult,
) -> (Vec<Registers>, BTreeMap<u8, Vec<u8>>) {
    let sizes = scratch_sizes(p);
    let mut mem = memory(p, inputs, sizes.1);
    mem.other_writers = other_writers;
    let mut budget = Budget {
        steps: 0,
        channel_ops: 0,
        fuel: cfg.fuel,
        writes: 0,
        max_writes: cfg.max_writes,
    };
    // Hardware threads run concurrently: one instruction of each live thread per round, in
    // thread order (deterministic). Buffer bytes shared between threads are racy and
    // undefined (see messages.rs), so the schedule cannot change a defined result.
    let mut threads: Vec<Thread> = (0..p.threads)
        .map(|index| new_thread(p, &decoded.layout, inputs, index, sizes))
        .collect();
    let mut outs: Vec<ThreadResult> = vec![ThreadResult::default(); threads.len()];
    let mut live: Vec<bool> = vec![true; threads.len()];
    // A packed-dispatch program is never dispatched with other masks (Program docs): such
    // inputs describe no run of it.
    if p.packed_dispatch
        && let Some(t) = threads
            .iter()
            .find(|t| !Inputs::dispatch_mask_is_packed(t.dispatched))
    {
        result.outcome = Outcome::Fault {
            thread: t.index,
            ip: None,
            message: format!(
                "dispatch mask 0x{:x} is not packed (channels 0..N), but the program has packed dispatch",
                t.dispatched
            ),
        };
        live.fill(false);
    }
    // A vec4 thread runs vertex 0 alone or both vertices (compiler::program::Stage).
    if p.stage.is_vec4()
        && let Some(t) = threads
            .iter()
            .find(|t| !compiler::program::VEC4_DISPATCH_MASKS.contains(&t.dispatched))
    {
        result.outcome = Outcome::Fault {
            thread: t.index,
            ip: None,
            message: format!(
                "dispatch mask 0x{:x} in the vec4 stage: a thread runs vertex 0 alone (0x0f) or both vertices (0xff)",
                t.dispatched
            ),
        };
        live.fill(false);
    }
    let mut effects = exec::Effects::default();
    'rounds: while live.iter().any(|&l| l) {
        for (index, t) in threads.iter_mut().enumerate() {
            if !live[index] {
                continue;
            }
            if budget.steps >= budget.fuel {
                result.outcome = Outcome::OutOfFuel {
                    steps: budget.steps,
                };
                break 'rounds;
            }
            let writes = budget.writes + mem.stray.len() as u64;
            if writes > budget.max_writes {
                result.outcome = Outcome::WriteLimit { writes };
                break 'rounds;
            }
            match step(
                t,
                ctx,
                &mut mem,
                &mut outs[index],
                &mut result.diagnostics,
                &mut budget,
                &mut effects,
            ) {
                Ok(Step::Running) => {}
                Ok(Step::Done) => live[index] = false,
                Err((ip, message)) => {
                    result.outcome = Outcome::Fault {
                        thread: index as u32,
                        ip,
                        message,
                    };
                    break 'rounds;
                }
            }
        }
    }
    result.steps = budget.steps;
    result.channel_ops = budget.channel_ops;
    result.threads = outs;
    let regs = threads
        .into_iter()
        .map(|t| Registers {
            layout: decoded.layout.clone(),
            bytes: t.space.bytes,
            def: t.space.def,
            flags: t.flags,
            flags_def: t.flags_def,
        })
        .collect();
    let owners = std::mem::take(&mut mem.owners);
    result.stray_writes = std::mem::take(&mut mem.stray);
    result.buffers = mem
        .buffers
        .into_iter()
        .map(|(s, space)| {
            (
                s,
                BufferState {
                    bytes: space.bytes,
                    defined: space.def,
                },
            )
        })
        .collect();
    (regs, owners)
}
