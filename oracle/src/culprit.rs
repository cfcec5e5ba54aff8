//! Culprit-pass localisation. A pass that panics, refuses the program or breaks a validator
//! rule names itself. For wrong results, hangs and emulator faults, the IR after every pass
//! runs on the failing input set — in logical mode until register allocation (with
//! hardware multiply precision once integer multiplies are lowered), in strict mode from
//! it on — and the first pass whose output no longer refines the reference is the
//! culprit. A hardware restriction is blamed on the pass whose job is to legalise it.

use crate::compare::{Difference, compare};
use crate::differential::{Checked, Verdict, compiled_config, reference_config};
use crate::{Outcome, RunConfig, run};
use compiler::inputs::Inputs;
use compiler::pass::CompileOptions;
use compiler::pipeline::compile;
use compiler::text::print_program;
use compiler::{Opcode, Program};
use serde::{Deserialize, Serialize};

/// How the culprit was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// The pass panicked, failed or broke a validator rule itself.
    Reported,
    /// The first pass whose output does not refine the reference.
    FirstNonRefining,
    /// The pass responsible for legalising the broken hardware restriction.
    RuleOwner,
}

/// The pass a failure is blamed on, with the evidence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Culprit {
    pub pass: String,
    /// Which run of the pass, as an index into the compilation's pass records (a pass such
    /// as `lower_simd_width` runs more than once); `None` when the pass did not finish.
    pub run: Option<usize>,
    /// The kinds of rewrite that run made (`compiler::pass::note`), sorted; empty when
    /// the pass did not finish.
    #[serde(default)]
    pub rewrites: Vec<String>,
    pub basis: Basis,
    /// Unified diff of the IR before and after the pass (empty if the pass panicked).
    pub ir_diff: String,
    /// How the output after the pass differs from the reference (wrong-result failures).
    pub differences: Vec<Difference>,
}

/// The lowering pass whose job is to make instructions satisfy hardware rule `rule`.
pub fn legalising_pass(rule: &str) -> &'static str {
    match rule {
        "invalid-exec-size"
        | "3src-simd16"
        | "dst-spans-more-than-two-grfs"
        | "src-spans-more-than-two-grfs"
        | "simd32-masked-pre-gen8" => "lower_simd_width",
        "eot-grf-range" | "r127-send-overlap" | "split-send-overlap" => "allocate_registers",
        "send-from-non-grf"
        | "split-send-src1"
        | "send-payload-subreg"
        | "send-response-subreg"
        | "send-indirect-src0" => "lower_logical_sends",
        // Register-indirect operands are hardware-form regions (Mesa's MOV_INDIRECT lowers to
        // them); making an operand direct or splitting it is regioning work.
        "indirect-src1"
        | "indirect-3src"
        | "mixed-float-indirect-src"
        | "qword-lp-indirect"
        | "xehp-vx1-vxh-float" => "lower_regioning",
        r if r.starts_with("mul-") || r == "dw-mul-sat-cmod" => "lower_integer_multiplication",
        r if r.starts_with("3src-")
            || r.starts_with("logic-")
            || r.starts_with("sel-")
            || r.starts_with("cmp-")
            || r.starts_with("bfi2-")
            || r.starts_with("avg-")
            || r.starts_with("imm-")
            || r.starts_with("add3-")
            || matches!(
                r,
                "src0-null"
                    | "src1-null"
                    | "unsupported-instruction"
                    | "int-div-modifiers"
                    | "cmod-not-supported"
            ) =>
        {
            "lower_alu_restrictions"
        }
        _ => "lower_regioning",
    }
}

/// The pass whose job is to lower the virtual opcode `op` (`logical-opcode`,
/// docs/hardware/brw-backend.md §1.8): a logical send, MULH or LOAD_PAYLOAD left in compiled
/// code was missed by the pass that lowers its kind; a spill or fill by register allocation,
/// which lowers the scratch operations it emits.
pub fn lowering_pass(op: Opcode, vec4: bool) -> &'static str {
    match op {
        Opcode::UrbWriteLogical if vec4 => "lower_urb_write",
        _ if vec4 => "convert_to_hw_regs",
        Opcode::Mulh => "lower_integer_multiplication",
        Opcode::LoadPayload => "lower_load_payload",
        Opcode::ScratchRead | Opcode::ScratchWrite => "allocate_registers",
        _ => "lower_logical_sends",
    }
}

/// The vec4 pass whose job is to make instructions satisfy hardware rule `rule`
/// (docs/hardware/fp64-align16.md §9): the exec-size rules are the SIMD split's, the DF swizzle and
/// writemask rules `scalarize_df`'s, every other operand rule the hardware encoding's.
pub fn vec4_legalising_pass(rule: &str) -> &'static str {
    match rule {
        "invalid-exec-size"
        | "align16-src-must-span-two-grfs"
        | "ivb-align16-exec-size"
        | "df-align16-sel-exec8" => "vec4_lower_simd_width",
        "df-align16-writemask-xy-zw" | "df-align16-swizzle-pair" => "scalarize_df",
        _ => "convert_to_hw_regs",
    }
}

fn diff(before: &Program, after: Option<&Program>, pass: &str) -> String {
    let Some(after) = after else {
        return String::new();
    };
    let (a, b) = (print_program(before), print_program(after));
    similar::TextDiff::from_lines(a.as_str(), b.as_str())
        .unified_diff()
        .context_radius(3)
        .header(&format!("before {pass}"), &format!("after {pass}"))
        .to_string()
}

/// Finds the pass to blame for a failing `checked` verdict of `p`.
pub fn localise(
    p: &Program,
    input_sets: &[Inputs],
    opts: &CompileOptions,
    checked: &Checked,
) -> Option<Culprit> {
    let keep = CompileOptions {
        keep_ir: true,
        ..opts.clone()
    };
    let c = compile(p, &keep);
    let stages: Vec<(&str, &Program)> = c
        .passes
        .iter()
        .filter_map(|r| r.ir.as_ref().map(|ir| (r.name, ir)))
        .collect();
    let before = |at: usize| if at == 0 { p } else { stages[at - 1].1 };
    let at = |i: usize, basis: Basis| Culprit {
        pass: stages[i].0.to_string(),
        run: Some(i),
        rewrites: c.passes[i].rewrites.iter().map(|k| k.to_string()).collect(),
        basis,
        ir_diff: diff(before(i), Some(stages[i].1), &c.passes[i].label),
        differences: vec![],
    };
    // A pass known by name only: its first run that broke a rule, or its last run (the
    // last chance to legalise), or, if it never ran, the pass alone.
    let named = |pass: &str, basis: Basis| {
        let runs = || stages.iter().enumerate().filter(|(_, (n, _))| *n == pass);
        let broke = runs().find(|(i, _)| !c.passes[*i].violations.is_empty());
        match broke.or_else(|| runs().next_back()) {
            Some((i, _)) => at(i, basis),
            None => Culprit {
                pass: pass.to_string(),
                run: None,
                rewrites: vec![],
                basis,
                ir_diff: String::new(),
                differences: vec![],
            },
        }
    };
    match &checked.verdict {
        Verdict::Pass | Verdict::Discard { .. } => None,
        Verdict::Panic { pass, .. } | Verdict::CompileError { pass, .. } => {
            let input = stages.last().map_or(p, |(_, ir)| *ir);
            Some(Culprit {
                pass: pass.clone(),
                run: None,
                rewrites: vec![],
                basis: Basis::Reported,
                ir_diff: format!(
                    "(the pass did not finish; its input was)\n{}",
                    print_program(input)
                ),
                differences: vec![],
            })
        }
        Verdict::CompilerAssertion { pass, .. } => Some(named(pass, Basis::Reported)),
        Verdict::HardwareViolation { rule, ip, .. } => {
            let op = c.program.insts().nth(*ip).map(|i| i.op);
            let owner = match op {
                Some(op) if rule == "logical-opcode" => lowering_pass(op, p.stage.is_vec4()),
                _ if p.stage.is_vec4() => vec4_legalising_pass(rule),
                _ => legalising_pass(rule),
            };
            Some(named(owner, Basis::RuleOwner))
        }
        Verdict::Mismatch { input_set, .. }
        | Verdict::Hang { input_set, .. }
        | Verdict::EmulatorFault { input_set, .. } => {
            let inputs = input_sets.get(*input_set)?;
            let reference = match checked.references.get(*input_set) {
                Some(Some(r)) => r.clone(),
                _ => run(p, inputs, &reference_config()),
            };
            let mut mul_lowered = false;
            // Hardware code from register allocation on: before it, a program may hold no
            // VGRF (only fixed GRFs) and still read ATTRs or hold logical sends.
            let allocation = [
                compiler::passes::allocate_registers::PASS.name,
                compiler::passes::vec4::convert_to_hw_regs::PASS.name,
            ];
            let mut allocated = false;
            for (i, (name, ir)) in stages.iter().enumerate() {
                let lowers_mul = *name == "lower_integer_multiplication";
                mul_lowered |= lowers_mul;
                allocated |= allocation.contains(name);
                // A run without progress left the IR as the previous run made it, which
                // refined the reference (or the search would have stopped): running it again
                // in the same mode gives the same result. Skipping it saves the runs of
                // optimisation-loop rounds that change nothing (a reduction of a
                // register-allocation bug: 1.0 s CPU instead of 1.1-1.7 s, same result).
                if i > 0 && !c.passes[i].progress && !lowers_mul {
                    continue;
                }
                let cfg = if !allocated {
                    RunConfig {
                        hardware_mul: mul_lowered,
                        ..compiled_config(&reference)
                    }
                    .logical()
                } else {
                    compiled_config(&reference)
                };
                let result = run(ir, inputs, &cfg);
                let differences = match result.outcome {
                    Outcome::Completed => compare(&reference, &result),
                    _ => vec![],
                };
                if result.outcome != Outcome::Completed || !differences.is_empty() {
                    let mut cu = at(i, Basis::FirstNonRefining);
                    cu.differences = differences;
                    return Some(cu);
                }
            }
            Some(at(stages.len().checked_sub(1)?, Basis::FirstNonRefining))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::legalising_pass;

    #[test]
    fn new_rules_blame_the_pass_that_legalises_them() {
        for (rule, pass) in [
            ("simd32-masked-pre-gen8", "lower_simd_width"),
            ("imm-src0-two-source", "lower_alu_restrictions"),
            ("imm-64bit-multi-source", "lower_alu_restrictions"),
            ("cmod-not-supported", "lower_alu_restrictions"),
            ("add3-imm-type", "lower_alu_restrictions"),
            ("send-payload-subreg", "lower_logical_sends"),
            ("send-response-subreg", "lower_logical_sends"),
            ("qword-lp-depctrl", "lower_regioning"),
        ] {
            assert_eq!(legalising_pass(rule), pass, "{rule}");
        }
    }

    #[test]
    fn a_logical_opcode_is_blamed_on_the_pass_that_lowers_it() {
        use super::lowering_pass;
        use compiler::Opcode::*;
        for (op, vec4, pass) in [
            (Mulh, false, "lower_integer_multiplication"),
            (LoadPayload, false, "lower_load_payload"),
            (ScratchRead, false, "allocate_registers"),
            (ScratchWrite, false, "allocate_registers"),
            (FbWriteLogical, false, "lower_logical_sends"),
            (UntypedReadLogical, false, "lower_logical_sends"),
            (TexLogical, false, "lower_logical_sends"),
            (UrbWriteLogical, true, "lower_urb_write"),
        ] {
            assert_eq!(lowering_pass(op, vec4), pass, "{op:?}");
        }
    }
}
