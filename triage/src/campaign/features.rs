//! Semantic features of one case: cheap facts about what the compilation and the compiled
//! program exercised, recorded per case so that a feedback campaign keeps the generator
//! inputs that reached something new (see [`super::corpus`]).
//!
//! A feature is a short string `KIND:detail` ([`of`]); the campaign keeps its stable 64-bit
//! id ([`id`]: FNV-1a of the string, the kind's index in the top byte so that counts per
//! kind can be read back from ids alone). The kinds:
//!
//! - `rewrite:PASS/KIND`: a rewrite kind a pass noted (`PassRecord::rewrites`);
//! - `pass:PASS`: a pass that made progress;
//! - `tally:PASS/NAME/N`: a figure a pass measured (spills, …), N its log2 bucket;
//! - `rule:NAME`: a validator rule broken after a pass, or the strict hardware rule a
//!   compiled program broke (strict rules are predicates without a cheap "boundary" form,
//!   so only broken rules count);
//! - `inst:DEVICE/OPCODE/TYPE/EXEC/REGION`: each instruction of the compiled program by
//!   opcode, destination type (`+m` when a source has another type), execution size and
//!   region class, that of its least regular operand (from the most regular: `n` null,
//!   `i` immediate, `c` contiguous, `s` scalar, `a` architecture register, `t` strided,
//!   `x` indirect). One class per instruction, not one per operand: with a class per
//!   operand nearly every program reached a new combination, and the corpus grew with
//!   four cases in five;
//! - `cf:OP@NEST`: each control-flow instruction of the input program with its enclosing
//!   constructs, innermost first, at most three (`I` if, `E` else, `D` loop, `H` in a HALT
//!   region; `-` at the top), and `cf:depth=N` (N capped at 4);
//! - `outcome:KIND` and `discard:REASON`: the verdict.
//!
//! The feature set of a case is a function of its program, compile options and inputs:
//! deterministic like the verdict.

use compiler::pipeline::Compilation;
use compiler::reg::{Reg, RegKind};
use compiler::{Inst, Opcode, Program};
use oracle::differential::{Checked, Verdict};

/// The feature kinds, in the order of their index in an id's top byte.
pub const KINDS: [&str; 8] = [
    "rewrite", "pass", "tally", "rule", "inst", "cf", "outcome", "discard",
];

/// The stable id of a feature string: FNV-1a 64 of the string, its top byte replaced by
/// the index of its kind in [`KINDS`] (255 for an unknown kind).
pub fn id(feature: &str) -> u64 {
    let kind = feature.split(':').next().unwrap_or("");
    let index = KINDS.iter().position(|k| *k == kind).unwrap_or(255) as u64;
    (index << 56) | (fnv1a(feature.as_bytes()) & ((1 << 56) - 1))
}

/// FNV-1a, 64 bits: stable across builds and machines (unlike `DefaultHasher`).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The kind of a feature id (`None` for an unknown kind).
pub fn kind_of(id: u64) -> Option<&'static str> {
    KINDS.get((id >> 56) as usize).copied()
}

/// Counts of `ids` per kind.
pub fn by_kind<'a>(
    ids: impl IntoIterator<Item = &'a u64>,
) -> std::collections::BTreeMap<String, u64> {
    let mut out = std::collections::BTreeMap::new();
    for &i in ids {
        *out.entry(kind_of(i).unwrap_or("other").to_string())
            .or_default() += 1;
    }
    out
}

/// The region class of an operand (see the module documentation).
fn class(r: &Reg) -> char {
    match r.kind {
        RegKind::Null => 'n',
        RegKind::Imm(_) => 'i',
        RegKind::Uniform { .. } => 's',
        RegKind::Vgrf { stride, .. } | RegKind::Attr { stride, .. } => match stride {
            0 => 's',
            1 => 'c',
            _ => 't',
        },
        RegKind::Fixed { region, .. } => {
            if region.hstride == 0 && (region.vstride == 0 || region.width == 1) {
                's'
            } else if region.hstride == 1 && region.vstride == region.width {
                'c'
            } else {
                't'
            }
        }
        RegKind::Arf { .. } => 'a',
        RegKind::Indirect { .. } => 'x',
    }
}

/// Region classes from the most regular to the least: an instruction's class is that of
/// its least regular operand.
const CLASS_ORDER: &str = "nicsatx";

/// What an `inst:` feature tells apart in an instruction: its opcode, destination type,
/// whether a source has another type, execution size and region class.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct InstShape {
    op: Opcode,
    ty: compiler::types::Type,
    mixed: bool,
    exec_size: u8,
    region: char,
}

impl InstShape {
    fn of(i: &Inst) -> InstShape {
        let rank = |c: char| CLASS_ORDER.find(c).unwrap_or(0);
        let mut region = class(&i.dst);
        let mut mixed = false;
        for s in &i.srcs {
            let c = class(s);
            if rank(c) > rank(region) {
                region = c;
            }
            mixed |= s.ty != i.dst.ty && !matches!(s.kind, RegKind::Null);
        }
        InstShape {
            op: i.op,
            ty: i.dst.ty,
            mixed,
            exec_size: i.exec_size,
            region,
        }
    }

    fn feature(&self, device: &str) -> String {
        format!(
            "inst:{device}/{}/{}{}/{}/{}",
            self.op.name(),
            self.ty,
            if self.mixed { "+m" } else { "" },
            self.exec_size,
            self.region
        )
    }
}

/// The `inst:` features of `insts`, each shape formatted once (compiled programs repeat
/// their shapes many times, and formatting every instruction was 3 % of a campaign case).
fn inst_features<'a>(device: &str, insts: impl Iterator<Item = &'a Inst>, out: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    for i in insts {
        let shape = InstShape::of(i);
        if seen.insert(shape) {
            out.push(shape.feature(device));
        }
    }
}

/// The control-flow features of `p` (see the module documentation).
fn control_flow(p: &Program, out: &mut Vec<String>) {
    let mut stack: Vec<char> = vec![];
    let mut halted = false;
    let mut deepest = 0;
    for i in p.insts() {
        match i.op {
            Opcode::If
            | Opcode::Else
            | Opcode::Endif
            | Opcode::Do
            | Opcode::While
            | Opcode::Break
            | Opcode::Continue
            | Opcode::Halt
            | Opcode::HaltTarget => {}
            _ => continue,
        }
        if matches!(i.op, Opcode::Endif | Opcode::While) {
            stack.pop();
        }
        if i.op == Opcode::Else {
            stack.pop();
        }
        let mut nest: String = stack.iter().rev().take(3).collect();
        if halted {
            nest.push('H');
        }
        if nest.is_empty() {
            nest.push('-');
        }
        out.push(format!("cf:{}@{nest}", i.op.name()));
        match i.op {
            Opcode::If => stack.push('I'),
            Opcode::Else => stack.push('E'),
            Opcode::Do => stack.push('D'),
            Opcode::Halt => halted = true,
            Opcode::HaltTarget => halted = false,
            _ => {}
        }
        deepest = deepest.max(stack.len());
    }
    out.push(format!("cf:depth={}", deepest.min(4)));
}

/// The features of the compilation: rewrites, passes, tallies and rules broken.
fn compilation(c: &Compilation, out: &mut Vec<String>) {
    for r in &c.passes {
        if r.progress {
            out.push(format!("pass:{}", r.name));
        }
        for k in &r.rewrites {
            out.push(format!("rewrite:{}/{k}", r.name));
        }
        for (k, n) in &r.tallies {
            if *n > 0 {
                out.push(format!("tally:{}/{k}/{}", r.name, n.ilog2()));
            }
        }
        for v in &r.violations {
            out.push(format!("rule:{}", v.rule.name()));
        }
    }
    inst_features(c.program.device.name(), c.program.insts(), out);
}

/// The features of a case: the input program `p` and what checking it gave. Sorted,
/// without duplicates.
pub fn of(p: &Program, checked: &Checked) -> Vec<String> {
    let mut out = vec![format!("outcome:{}", checked.verdict.kind())];
    match &checked.verdict {
        Verdict::Discard { reason } => out.push(format!("discard:{}", reason.name())),
        Verdict::HardwareViolation { rule, .. } => out.push(format!("rule:{rule}")),
        _ => {}
    }
    control_flow(p, &mut out);
    if let Some(c) = &checked.compilation {
        compilation(c, &mut out);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The features of a case judged through another backend (Mesa's passes through the shim),
/// which reports no rewrites, tallies or rule checks of its own: the input's control flow,
/// `outcome:KIND`, `discard:REASON` (a refusal is `discard:refused/CAUSE`), `pass:NAME`
/// when the backend's pass changed the program, and the instructions of the backend's
/// output (on the input's device). Sorted, without duplicates.
pub fn of_backend(
    p: &Program,
    outcome: &str,
    discard: Option<&str>,
    progress: Option<&str>,
    output: Option<&Program>,
) -> Vec<String> {
    let mut out = vec![format!("outcome:{outcome}")];
    if let Some(d) = discard {
        out.push(format!("discard:{d}"));
    }
    if let Some(pass) = progress {
        out.push(format!("pass:{pass}"));
    }
    control_flow(p, &mut out);
    if let Some(o) = output {
        inst_features(p.device.name(), o.insts(), &mut out);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The ids of `features`, sorted, without duplicates.
pub fn ids(features: &[String]) -> Vec<u64> {
    let mut out: Vec<u64> = features.iter().map(|f| id(f)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::pipeline::CompileOptions;

    /// An example with an IF/ELSE and a counted loop on G45, checked as `eufuzz check` does.
    fn example() -> (Program, Checked) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus/examples/gen45-minmax-flags-g45.eu");
        let mut p = crate::load::load_program(&path, None).expect("the example loads");
        if p.inputs.is_none() {
            p.inputs = Some(oracle::inputs::generate(&p, 1));
        }
        let sets: Vec<_> = p.inputs.iter().cloned().collect();
        let checked = oracle::differential::check(&p, &sets, &CompileOptions::default());
        (p, checked)
    }

    #[test]
    fn a_known_program_has_the_features_it_exercises() {
        let (p, checked) = example();
        let f = of(&p, &checked);
        for want in [
            "outcome:pass",
            "cf:if@-",
            "cf:else@-",
            "cf:do@-",
            "cf:while@-",
            "cf:depth=1",
            "pass:lower_alu_restrictions",
            // Gen4 SEL takes no conditional modifier: min/max become CMPN + SEL.
            "rewrite:lower_alu_restrictions/gen4-min-max",
            "inst:g45/cmpn/F/16/c",
            "inst:g45/sel/F/16/c",
            // The D × immediate multiply, split to SIMD8 with a word source.
            "rewrite:lower_simd_width/split",
            "inst:g45/mul/D+m/8/c",
            "tally:allocate_registers/max-live-registers/4",
        ] {
            assert!(f.iter().any(|x| x == want), "{want} not in {f:#?}");
        }
        assert!(f.iter().any(|x| x.starts_with("rewrite:")), "{f:#?}");
        assert!(
            f.iter()
                .all(|x| !x.starts_with("inst:") || x.starts_with("inst:g45/"))
        );
        // Deterministic, sorted, and every id carries its kind.
        assert_eq!(of(&p, &checked), f);
        assert!(f.windows(2).all(|w| w[0] < w[1]));
        for x in &f {
            let kind = x.split(':').next().unwrap();
            assert_eq!(kind_of(id(x)), Some(kind), "{x}");
        }
        assert_ne!(id("inst:skl/add/F/8/ccc"), id("inst:skl/add/F/16/ccc"));
        let counts = by_kind(&ids(&f));
        assert_eq!(counts.values().sum::<u64>(), f.len() as u64);
        assert_eq!(counts["outcome"], 1);
    }
}
