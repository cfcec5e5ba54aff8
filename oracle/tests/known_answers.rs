//! Known answers: small programs whose expected outputs are derived by hand from the
//! documents (`/work/shared/spec/eu-hardware.md`, `docs/hardware/brw-backend.md`), each naming the section
//! it comes from. No expectation here was produced by running the emulator: when one
//! disagrees with it, the emulator is what gets fixed (against the cited section).
//!
//! Where a document is silent or marks a behaviour [P?], the test says so and checks the
//! model the emulator documents for it (usually: the result is undefined).

mod common;

mod known_answers {
    mod accumulator;
    mod bit_ops;
    mod cmods;
    mod conversions;
    mod indirect;
    mod masks;
    mod math;
    mod multiply;
    mod nan;
    mod regions;
    mod saturate;
    mod scratch;
    mod subgroup;
}

use compiler::inputs::{Inputs, Value};
use compiler::text::parse_program;
use compiler::types::Type;
use oracle::{Outcome, Registers, RunConfig, run_inspect};

/// How a known-answer program runs.
#[derive(Clone, Copy)]
pub struct Setup<'a> {
    pub target: &'a str,
    pub dispatch: u32,
    /// The thread's dispatch mask (all channels when `None`).
    pub mask: Option<u32>,
    /// Hardware IR (fixed GRFs, the device's multiplier, restriction rules).
    pub strict: bool,
}

impl Setup<'static> {
    /// Logical IR, all channels dispatched.
    pub fn logical(target: &'static str, dispatch: u32) -> Setup<'static> {
        Setup {
            target,
            dispatch,
            mask: None,
            strict: false,
        }
    }

    /// Hardware IR, all channels dispatched.
    pub fn strict(target: &'static str, dispatch: u32) -> Setup<'static> {
        Setup {
            strict: true,
            ..Setup::logical(target, dispatch)
        }
    }
}

impl Setup<'_> {
    /// The same setup with dispatch mask `mask`.
    pub fn masked(self, mask: u32) -> Self {
        Setup {
            mask: Some(mask),
            ..self
        }
    }
}

/// Runs `body` (attr k of thread 0 = `srcs[k]`, laid out as in `common::program_text`:
/// attr0 = g1..g4, attr1 = g5..g8, attr2 = g9..g12) to completion and returns the thread's
/// registers.
pub fn run(setup: Setup, body: &str, srcs: &[&[Value]]) -> Registers {
    let text = common::program_text(setup.target, setup.dispatch, body);
    run_program(setup, &text, srcs)
}

/// Runs a whole program text (its target and dispatch width are its own; `setup` gives the
/// dispatch mask and the mode).
pub fn run_program(setup: Setup, text: &str, srcs: &[&[Value]]) -> Registers {
    let body = text;
    let mut p = parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    p.resplit();
    let mut inputs = Inputs::default();
    for (k, values) in srcs.iter().enumerate() {
        inputs.attrs.insert((0, k as u32), values.to_vec());
    }
    if let Some(mask) = setup.mask {
        inputs.dispatch_masks.insert(0, mask);
    }
    // Every answer holds for the fast path and for the per-channel reference alike.
    let [fast, reference] = [true, false].map(|fast_path| {
        let cfg = RunConfig {
            strict: setup.strict,
            fuel: 10_000,
            fast_path,
            ..RunConfig::default()
        };
        let (r, mut regs) = run_inspect(&p, &inputs, &cfg);
        assert_eq!(r.outcome, Outcome::Completed, "{body}");
        assert!(
            r.diagnostics.is_empty(),
            "{body}\nunexpected diagnostics: {:?}",
            r.diagnostics
        );
        regs.remove(0)
    });
    let everything = |regs: &Registers| {
        let (bytes, def) = regs.grf(0, regs.layout.total / 32);
        (bytes.to_vec(), def.to_vec(), regs.flags, regs.flags_def)
    };
    assert!(
        everything(&fast) == everything(&reference),
        "{body}\nthe fast path and the reference disagree"
    );
    fast
}

/// `n` elements of `ty` from the start of GRF `g<nr>` (`Some(bits)` if defined).
pub fn grf(regs: &Registers, nr: usize, ty: Type, n: usize) -> Vec<Option<u64>> {
    let (bytes, def) = regs.grf(nr, 4);
    common::elems_of(bytes, def, ty, n)
}

/// `n` elements of `ty` from the start of `v<nr>`.
pub fn vgrf(regs: &Registers, nr: usize, ty: Type, n: usize) -> Vec<Option<u64>> {
    common::elems(regs, nr, ty, n)
}

/// Every value defined, as given.
pub fn all(bits: &[u64]) -> Vec<Option<u64>> {
    bits.iter().map(|&b| Some(b)).collect()
}

/// Flag bits `first..first + n` of the flag file: `Some(bit)` if defined.
pub fn flag_bits(regs: &Registers, first: u32, n: u32) -> Vec<Option<bool>> {
    (first..first + n)
        .map(|b| (regs.flags_def >> b & 1 != 0).then_some(regs.flags >> b & 1 != 0))
        .collect()
}

/// F bits of `x`.
pub fn fb(x: f32) -> u64 {
    x.to_bits() as u64
}
