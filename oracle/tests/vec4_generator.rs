//! The vec4-stage generator (`stage=vs` knob): valid `stage vs` programs on the devices
//! that run the stage, deterministic, fully defined on the reference run, and covering
//! what issue 15 item 5 asks for (DF arithmetic, conversions, swizzles, writemasks,
//! uniforms, per-vertex divergent control flow, predication, one-vertex instructions).

use compiler::inst::Inst;
use compiler::text::print_program;
use compiler::{Opcode, Program, Stage, Type};
use oracle::emu::result::DiagKind;
use oracle::generator::from_seed;
use oracle::generator::knobs::{Feature, Knobs};
use oracle::{Outcome, RunConfig, run};

fn vs() -> Knobs {
    Knobs::parse("stage=vs").unwrap()
}

fn programs(n: u64) -> Vec<(u64, Program)> {
    (0..n).map(|s| (s, from_seed(s, &vs()).program)).collect()
}

#[test]
fn vec4_programs_are_valid_and_on_vec4_devices() {
    for (seed, p) in programs(300) {
        assert_eq!(p.stage, Stage::Vertex, "seed {seed}");
        assert!(
            Stage::Vertex.unsupported_on(p.device).is_none(),
            "seed {seed}"
        );
        let v = compiler::validate::validate(&p);
        assert!(v.is_empty(), "seed {seed}: {v:?}\n{}", print_program(&p));
    }
}

#[test]
fn vec4_programs_are_fully_defined_on_their_reference_run() {
    for (seed, p) in programs(200) {
        let r = run(&p, p.inputs.as_ref().unwrap(), &RunConfig::default());
        assert_eq!(r.outcome, Outcome::Completed, "seed {seed}");
        assert!(
            !r.diagnostics
                .iter()
                .any(|d| d.kind == DiagKind::UndefinedBranch),
            "seed {seed} branches on undefined values"
        );
        let writes: Vec<_> = r.threads.iter().flat_map(|t| &t.urb_writes).collect();
        assert!(!writes.is_empty(), "seed {seed} outputs nothing");
        for w in writes {
            for v in &w.vertices {
                assert_eq!(v.defined, vec![0xf; 4], "seed {seed} slot {}", w.slot);
            }
        }
        assert!(r.threads.iter().all(|t| t.eot), "seed {seed}");
    }
}

#[test]
fn the_same_seed_gives_the_same_vec4_program_and_the_knobs_hold() {
    assert_eq!(from_seed(5, &vs()).program, from_seed(5, &vs()).program);
    let hsw = Knobs::parse("stage=vs devices=hsw,skl features=-if").unwrap();
    for seed in 0..30 {
        let g = from_seed(seed, &hsw);
        assert_eq!(
            g.program.device,
            compiler::Device::Hsw,
            "skl has no vec4 stage"
        );
        assert!(!g.features.contains(&Feature::If));
        assert!(g.program.insts().all(|i| i.op != Opcode::If));
    }
    let no_loops = Knobs::parse("stage=vs features=-loop").unwrap();
    for seed in 0..30 {
        let g = from_seed(seed, &no_loops);
        assert!(!g.features.contains(&Feature::Loop));
        assert!(g.program.insts().all(|i| i.op != Opcode::Do));
    }
    // The default knobs make vec4 programs for their share (format 6); `stage=fs` none.
    assert!((0..30).any(|s| from_seed(s, &Knobs::default()).program.stage == Stage::Vertex));
    let fs = Knobs::parse("stage=fs").unwrap();
    assert!((0..30).all(|s| from_seed(s, &fs).program.stage == Stage::Fragment));
}

#[test]
fn vec4_programs_cover_the_vec4_df_shapes() {
    let all: Vec<Inst> = programs(150)
        .into_iter()
        .flat_map(|(_, p)| p.insts().cloned().collect::<Vec<_>>())
        .collect();
    let any = |what: &str, f: &dyn Fn(&Inst) -> bool| {
        assert!(all.iter().any(f), "no generated instruction has {what}");
    };
    let df = |i: &Inst| i.dst.ty == Type::DF || i.srcs.iter().any(|s| s.ty == Type::DF);
    let conv = |from: Type, to: Type| {
        move |i: &Inst| i.op == Opcode::Mov && i.dst.ty == to && i.srcs[0].ty == from
    };
    any("a DF add", &|i| i.op == Opcode::Add && i.dst.ty == Type::DF);
    any("a DF multiply", &|i| {
        i.op == Opcode::Mul && i.dst.ty == Type::DF
    });
    any("f2d", &conv(Type::F, Type::DF));
    any("i2d", &conv(Type::D, Type::DF));
    any("d2f", &conv(Type::DF, Type::F));
    any("d2i", &conv(Type::DF, Type::D));
    any("a non-identity DF swizzle", &|i| {
        i.srcs
            .iter()
            .any(|s| s.ty == Type::DF && !s.swizzle.is_identity())
    });
    any("a DF .xy writemask", &|i| {
        i.dst.ty == Type::DF && i.dst.writemask.0 == 0b0011
    });
    any("a DF uniform", &|i| {
        i.srcs
            .iter()
            .any(|s| s.ty == Type::DF && matches!(s.kind, compiler::reg::RegKind::Uniform { .. }))
    });
    any("a predicated DF instruction", &|i| {
        i.predicate.is_some() && df(i)
    });
    any("an exec-4 instruction for vertex 1", &|i| {
        i.exec_size == 4 && i.group == 4
    });
    any("an IF", &|i| i.op == Opcode::If);
    any("a DF compare", &|i| i.op == Opcode::Cmp && df(i));
    any("packDouble2x32's SET_LOW", &|i| i.op == Opcode::SetLow32);
    any("packDouble2x32's SET_HIGH", &|i| i.op == Opcode::SetHigh32);
}

#[test]
fn vec4_immediates_occur_only_where_the_vec4_ir_has_them() {
    // Format 8: F, D and DF immediates as a MOV's source and as src1 of two-source
    // instructions (docs/hardware/fp64-align16.md §6), never in src0 of one.
    let mut seen = std::collections::HashSet::new();
    for (seed, p) in programs(300) {
        for inst in p.blocks.iter().flat_map(|b| &b.insts) {
            for (k, s) in inst.srcs.iter().enumerate() {
                if s.is_imm() && inst.is_align16() {
                    assert!(
                        inst.srcs.len() == 1 || k == 1,
                        "seed {seed}: immediate in src{k} of {inst:?}"
                    );
                    seen.insert((inst.op == Opcode::Mov, s.ty));
                }
            }
        }
    }
    for ty in [Type::F, Type::D, Type::DF] {
        for mov in [true, false] {
            assert!(
                seen.contains(&(mov, ty)),
                "no {ty:?} immediate (mov: {mov})"
            );
        }
    }
}
