//! A program decoded once and run on any number of input sets. Decoding — operand
//! resolution, control-flow matching, fast-path classification and, in strict mode, the
//! hardware-restriction rules — depends only on the program and the run mode, never on the
//! inputs, so a differential check decodes each program once instead of once per input set.

use super::decode::{DecodeError, Decoded, decode};
use super::exec::Ctx;
use super::result::{DiagKind, Diagnostic, Outcome, RunResult};
use super::{Registers, RunConfig, execute};
use compiler::inputs::Inputs;
use compiler::{Device, Program};
use std::collections::BTreeMap;

/// `program` decoded for one run configuration.
pub struct Prepared<'p> {
    program: &'p Program,
    cfg: RunConfig,
    /// The decoded program, or why it cannot run (every run then faults the same way).
    decoded: Result<Decoded<'p>, DecodeError>,
    /// Strict mode: one diagnostic per broken restriction, reported by every run.
    restrictions: Vec<Diagnostic>,
    /// Whether threads can race on buffers (then every run probes the writers first).
    writes_buffers: bool,
}

impl<'p> Prepared<'p> {
    /// Decodes `p` for runs with `cfg` (its fuel is only the default of [`Prepared::run`]).
    pub fn new(p: &'p Program, cfg: &RunConfig) -> Prepared<'p> {
        let hardware_mul = cfg.strict || cfg.hardware_mul;
        let decoded = decode(p, cfg.strict, hardware_mul);
        let restrictions = match &decoded {
            Ok(d) => strict_diagnostics(d, p.device),
            // An instruction that cannot even be decoded (ExecSize 64 or 128) still names
            // the restriction it breaks (`invalid-exec-size`), ahead of the fault.
            Err(_) if cfg.strict => undecodable_diagnostics(p),
            Err(_) => vec![],
        };
        Prepared {
            program: p,
            cfg: *cfg,
            decoded,
            restrictions,
            writes_buffers: writes_buffers(p),
        }
    }

    /// Runs on `inputs` with the configuration's fuel.
    pub fn run(&self, inputs: &Inputs) -> RunResult {
        self.run_inspect(inputs).0
    }

    /// Runs on `inputs` with the fuel and write limit of `limits` instead of the
    /// configuration's (they depend on the reference run of the same inputs).
    pub fn run_limited(&self, inputs: &Inputs, limits: &RunConfig) -> RunResult {
        self.run_full(inputs, limits.fuel, limits.max_writes).0
    }

    /// Runs on `inputs` and also returns every thread's final registers.
    pub fn run_inspect(&self, inputs: &Inputs) -> (RunResult, Vec<Registers>) {
        self.run_full(inputs, self.cfg.fuel, self.cfg.max_writes)
    }

    fn run_full(&self, inputs: &Inputs, fuel: u64, max_writes: u64) -> (RunResult, Vec<Registers>) {
        let p = self.program;
        let mut result = RunResult {
            outcome: Outcome::Completed,
            threads: vec![],
            buffers: BTreeMap::new(),
            stray_writes: vec![],
            diagnostics: vec![],
            steps: 0,
            channel_ops: 0,
        };
        let decoded = match &self.decoded {
            Ok(d) => d,
            Err(e) => {
                result.diagnostics = self.restrictions.clone();
                result.outcome = Outcome::Fault {
                    thread: 0,
                    ip: e.ip,
                    message: e.message.clone(),
                };
                return (result, vec![]);
            }
        };
        result.diagnostics = self.restrictions.clone();
        let cfg = RunConfig {
            fuel,
            max_writes,
            ..self.cfg
        };
        let ctx = Ctx {
            device: p.device,
            dispatch_width: p.dispatch_width as u32,
            hardware_mul: cfg.strict || cfg.hardware_mul,
            fast_path: cfg.fast_path,
            decoded,
        };
        let writers = if p.threads > 1 && self.writes_buffers {
            // First pass: which thread writes which buffer byte, so that the real run can
            // treat a read of a byte another thread writes as racy whatever the schedule.
            let mut probe = result.clone();
            let (_, owners) = execute(p, inputs, &cfg, &ctx, decoded, BTreeMap::new(), &mut probe);
            owners
        } else {
            BTreeMap::new()
        };
        let (regs, _) = execute(p, inputs, &cfg, &ctx, decoded, writers, &mut result);
        (result, regs)
    }
}

fn strict_diagnostics(decoded: &Decoded, device: Device) -> Vec<Diagnostic> {
    let mut out = vec![];
    for (ip, d) in decoded.insts.iter().enumerate() {
        for v in &d.violations {
            out.push(Diagnostic {
                kind: DiagKind::HardwareRestriction,
                thread: 0,
                ip,
                rule: Some(v.rule.to_string()),
                message: format!("{} ({device})", v.message),
            });
        }
    }
    out
}

/// Strict diagnostics of a program that failed to decode, straight from the rule tables.
fn undecodable_diagnostics(p: &Program) -> Vec<Diagnostic> {
    let checker = crate::strict::Checker::new(p.device);
    p.insts()
        .enumerate()
        .flat_map(|(ip, inst)| {
            checker.check(inst).into_iter().map(move |v| Diagnostic {
                kind: DiagKind::HardwareRestriction,
                thread: 0,
                ip,
                rule: Some(v.rule.to_string()),
                message: format!("{} ({})", v.message, p.device),
            })
        })
        .collect()
}

/// Whether `p` writes buffers (so threads can race on them).
fn writes_buffers(p: &Program) -> bool {
    p.insts().any(|i| {
        i.op == compiler::Opcode::UntypedWriteLogical
            || matches!(
                i.desc.map(|d| d.kind),
                Some(compiler::inst::MsgKind::UntypedWrite { .. })
            )
    })
}
