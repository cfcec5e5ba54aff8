//! The pipeline's contract with its passes: a pass reports progress exactly when it
//! changed the program. The pass manager relies on it (a run without progress is not
//! validated again), so every pass is held to it on generated programs, on every device
//! the generator draws, with and without spilling; and the manager reports a pass that
//! breaks it either way as a `progress-contract` violation of that pass.

use compiler::pass::{CompileOptions, Pass, PassError};

use compiler::pipeline::compile;
use compiler::text::print_program;
use oracle::generator::from_seed;
use oracle::generator::knobs::Knobs;

fn check(seed: u64, opts: &CompileOptions) {
    let g = from_seed(seed, &Knobs::default());
    let c = compile(
        &g.program,
        &CompileOptions {
            keep_ir: true,
            ..opts.clone()
        },
    );
    let mut previous = g.program.clone();
    for r in &c.passes {
        let ir = r.ir.as_ref().expect("kept IR");
        assert_eq!(
            r.progress,
            *ir != previous,
            "seed {seed}: {} reported progress {} but {} the program:\n{}",
            r.label,
            r.progress,
            if *ir != previous { "changed" } else { "kept" },
            print_program(ir)
        );
        previous = ir.clone();
    }
}

#[test]
fn no_progress_means_no_change() {
    for seed in 0..150 {
        check(seed, &CompileOptions::default());
    }
    let spill = CompileOptions {
        spill_all: true,
        ..CompileOptions::default()
    };
    for seed in 150..200 {
        check(seed, &spill);
    }
}

/// A pass that changes nothing and says it did.
fn claims_progress(_: &mut compiler::Program, _: &CompileOptions) -> Result<bool, PassError> {
    Ok(true)
}

/// A pass that negates the first source of the first ADD and says it did nothing.
fn hides_a_change(p: &mut compiler::Program, _: &CompileOptions) -> Result<bool, PassError> {
    let add = p
        .blocks
        .iter_mut()
        .flat_map(|b| b.insts.iter_mut())
        .find(|i| i.op == compiler::Opcode::Add);
    if let Some(add) = add {
        add.srcs[0] = add.srcs[0].negated();
    }
    Ok(false)
}

/// A pass that negates the first source of the first ADD and says so.
fn honest(p: &mut compiler::Program, o: &CompileOptions) -> Result<bool, PassError> {
    hides_a_change(p, o)?;
    Ok(true)
}

static FIRST: Pass = Pass {
    name: "first",
    rewrites: &[],
    run: honest,
    postcondition: None,
};
static CLAIMS: Pass = Pass {
    name: "claims_progress",
    rewrites: &[],
    run: claims_progress,
    postcondition: None,
};
static HIDES: Pass = Pass {
    name: "hides_a_change",
    rewrites: &[],
    run: hides_a_change,
    postcondition: None,
};
static HONEST: Pass = Pass {
    name: "honest",
    rewrites: &[],
    run: honest,
    postcondition: None,
};

fn add_program() -> compiler::Program {
    compiler::text::parse_program(
        "eu 1\ntarget skl\ndispatch 8\nattr attr0 1\nvgrf v0 1\n\nSTART B0\n    \
         add(8) v0:F, attr0:F, attr0:F\n    \
         fb_write_logical(8) null:UD, v0:F, 1:UD, 0:UD { EOT }\nEND B0\n",
    )
    .unwrap()
}

/// The rule of each pass record (`-` for none).
fn first_rules(c: &compiler::pipeline::Compilation) -> Vec<(String, String)> {
    c.passes
        .iter()
        .map(|r| {
            let rule = r
                .violations
                .first()
                .map_or("-".into(), |v| v.rule.to_string());
            (r.label.clone(), rule)
        })
        .collect()
}

#[test]
fn the_manager_reports_a_pass_that_breaks_the_contract_either_way() {
    use compiler::pipeline::{Stage, compile_with};
    let p = add_program();
    let opts = CompileOptions::default();
    // (The first pass of a compilation has nothing to be compared with: it is validated.)
    let c = compile_with(
        &p,
        &[
            Stage::Once(&FIRST),
            Stage::Once(&CLAIMS),
            Stage::Once(&HIDES),
        ],
        &opts,
    );
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        first_rules(&c),
        pairs(&[
            ("first", "-"),
            ("claims_progress", "progress-contract"),
            ("hides_a_change", "progress-contract"),
        ])
    );
    assert!(
        c.passes[1].violations[0]
            .message
            .contains("reported progress")
    );
    assert!(
        c.passes[2].violations[0]
            .message
            .contains("reported no progress")
    );
    let culprit = c.first_violation().map(|(pass, _)| pass);
    assert_eq!(culprit, Some("claims_progress"));
    // A pass after a contract breaker that keeps its program does not inherit the breach.
    let c2 = compile_with(
        &p,
        &[
            Stage::Once(&FIRST),
            Stage::Once(&CLAIMS),
            Stage::Once(&CLAIMS_NOTHING),
        ],
        &opts,
    );
    assert!(c2.passes[2].violations.is_empty(), "{:?}", first_rules(&c2));
    // Honest passes, changing or not, break nothing.
    let c = compile_with(
        &p,
        &[
            Stage::Once(&FIRST),
            Stage::Once(&HONEST),
            Stage::Fixpoint(&NOTHING_LOOP),
        ],
        &opts,
    );
    assert!(c.first_violation().is_none(), "{:?}", first_rules(&c));
}

/// A pass that changes nothing and says so.
fn does_nothing(_: &mut compiler::Program, _: &CompileOptions) -> Result<bool, PassError> {
    Ok(false)
}

static CLAIMS_NOTHING: Pass = Pass {
    name: "does_nothing",
    rewrites: &[],
    run: does_nothing,
    postcondition: None,
};
static NOTHING_LOOP: [&Pass; 1] = [&CLAIMS_NOTHING];

static HONEST_AGAIN: Pass = Pass {
    name: "honest_again",
    rewrites: &[],
    run: honest,
    postcondition: None,
};
static UNDOING_LOOP: [&Pass; 2] = [&HONEST, &HONEST_AGAIN];

#[test]
fn an_optimisation_loop_whose_passes_undo_each_other_breaks_the_contract() {
    use compiler::pipeline::{MAX_LOOP_ITERATIONS, Stage, compile_with};
    let c = compile_with(
        &add_program(),
        &[Stage::Once(&FIRST), Stage::Fixpoint(&UNDOING_LOOP)],
        &CompileOptions::default(),
    );
    let last = format!("honest#{MAX_LOOP_ITERATIONS}");
    let (pass, violations) = c.first_violation().expect("a violation");
    assert_eq!(pass, "honest");
    assert_eq!(violations[0].rule.to_string(), "progress-contract");
    assert!(violations[0].message.contains("did not converge"));
    // Only the last iteration's passes are blamed: each earlier one kept the contract.
    let blamed: Vec<&str> = c
        .passes
        .iter()
        .filter(|r| !r.violations.is_empty())
        .map(|r| r.label.as_str())
        .collect();
    assert_eq!(
        blamed,
        [
            last.as_str(),
            &format!("honest_again#{MAX_LOOP_ITERATIONS}")
        ]
    );
}
