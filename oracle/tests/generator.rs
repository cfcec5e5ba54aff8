//! The generator: valid programs, deterministic decoding, knobs respected.

use compiler::text::print_program;
use oracle::generator::knobs::Knobs;
use oracle::generator::{from_seed, generate};

#[test]
fn generated_programs_are_valid() {
    let knobs = Knobs::default();
    let mut bad = vec![];
    for seed in 0..400 {
        let g = from_seed(seed, &knobs);
        let v = compiler::validate::validate(&g.program);
        if !v.is_empty() {
            bad.push(format!(
                "seed {seed}: {:?}\n{}",
                v.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
                print_program(&g.program)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} invalid programs; first:\n{}",
        bad.len(),
        bad[0]
    );
}

#[test]
fn same_bytes_same_program() {
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let a = generate(&mut arbitrary::Unstructured::new(&bytes), &Knobs::default());
    let b = generate(&mut arbitrary::Unstructured::new(&bytes), &Knobs::default());
    assert_eq!(a.program, b.program);
    assert_eq!(
        from_seed(9, &Knobs::default()).program,
        from_seed(9, &Knobs::default()).program
    );
}

/// Decoding the same bytes twice gives the same program, inputs and verdict.
#[test]
fn same_bytes_same_program_inputs_and_verdict() {
    use oracle::differential::{check, input_sets};
    for seed in 0..40 {
        let bytes = oracle::generator::seed_bytes(seed);
        let one = generate(&mut arbitrary::Unstructured::new(&bytes), &Knobs::default());
        let two = generate(&mut arbitrary::Unstructured::new(&bytes), &Knobs::default());
        assert_eq!(one.program, two.program);
        assert!(one.program.inputs.is_some());
        let v1 = check(
            &one.program,
            &input_sets(&one.program, 2, seed),
            &Default::default(),
        );
        let v2 = check(
            &two.program,
            &input_sets(&two.program, 2, seed),
            &Default::default(),
        );
        assert_eq!(v1.verdict, v2.verdict, "seed {seed}");
    }
}

#[test]
fn knobs_focus_the_generator() {
    let knobs = Knobs::parse("devices=icl dispatch=16 ops=-mad,-mul features=-loop,-halt").unwrap();
    for seed in 0..100 {
        let g = from_seed(seed, &knobs);
        let p = &g.program;
        assert_eq!((p.device, p.dispatch_width), (compiler::Device::Icl, 16));
        assert!(
            !p.insts().any(|i| matches!(
                i.op,
                compiler::Opcode::Mad | compiler::Opcode::Do | compiler::Opcode::Halt
            )),
            "seed {seed}:\n{}",
            print_program(p)
        );
        assert!(
            p.insts()
                .all(|i| i.op != compiler::Opcode::Mul || i.dst.is_accumulator())
        );
    }
}

/// Programs are well defined: the reference almost never branches on undefined values, and
/// the swarm reaches most opcodes and every feature the device allows.
#[test]
fn generated_programs_are_well_defined_and_varied() {
    use oracle::differential::{Verdict, check, input_sets};
    let mut discarded = 0;
    let mut ops = std::collections::HashSet::new();
    let (mut flag_data, mut break_only_loops, mut toggle_loops) = (0, 0, 0);
    let n = 300;
    for seed in 0..n {
        let g = from_seed(seed, &Knobs::default());
        ops.extend(g.program.insts().map(|i| i.op));
        let flag_source = |r: &compiler::Reg| {
            matches!(
                r.kind,
                compiler::reg::RegKind::Arf {
                    file: compiler::reg::Arf::Flag,
                    ..
                }
            )
        };
        flag_data +=
            g.program
                .insts()
                .any(|i| i.cmod.is_some() && i.srcs.iter().any(flag_source)) as u32;
        break_only_loops += g
            .program
            .insts()
            .any(|i| i.op == compiler::Opcode::While && i.predicate.is_none())
            as u32;
        let insts: Vec<_> = g.program.insts().collect();
        toggle_loops += insts.windows(2).any(|w| {
            w[0].op == compiler::Opcode::Sel
                && w[0].nomask
                && w[0].predicate.is_some()
                && w[1].cmod == Some(compiler::inst::CondMod::Z)
                && w[1].srcs[0] == w[0].dst
        }) as u32;
        let c = check(
            &g.program,
            &input_sets(&g.program, 0, 0),
            &Default::default(),
        );
        discarded += matches!(c.verdict, Verdict::Discard { .. }) as u64;
    }
    assert!(discarded * 100 / n < 5, "{discarded} of {n} discarded");
    // The shapes zoo bugs need: a conditional modifier rewriting the flag its source
    // reads, loops left only through exit-value BREAKs, and loops whose condition is
    // carried by a NoMask SEL.
    assert!(flag_data > 0, "no instruction reads the flag it writes");
    assert!(break_only_loops > 0, "no loop left only through BREAK");
    assert!(toggle_loops > 0, "no loop carried by a NoMask SEL");
    let alu_hit = oracle::generator::ALU_OPS
        .iter()
        .filter(|o| ops.contains(o))
        .count();
    assert!(
        alu_hit * 10 >= oracle::generator::ALU_OPS.len() * 9,
        "only {alu_hit} ALU opcodes in {n} programs"
    );
    for op in [
        compiler::Opcode::If,
        compiler::Opcode::Do,
        compiler::Opcode::Break,
        compiler::Opcode::Continue,
        compiler::Opcode::Halt,
        compiler::Opcode::Mach,
        compiler::Opcode::LoadPayload,
        compiler::Opcode::UntypedWriteLogical,
        compiler::Opcode::UntypedReadLogical,
        compiler::Opcode::TexLogical,
        compiler::Opcode::ScratchWrite,
        compiler::Opcode::ScratchRead,
        compiler::Opcode::FbWriteLogical,
    ] {
        assert!(ops.contains(&op), "{} never generated", op.name());
    }
}

/// Whether `i` has the shape its issue-9 item-10 feature stands for.
fn has_shape(feature: &str, i: &compiler::inst::Inst) -> bool {
    use compiler::Opcode;
    use compiler::reg::RegKind;
    let vgrf = |r: &compiler::Reg| match r.kind {
        RegKind::Vgrf { nr, offset, stride } => Some((nr, offset, stride)),
        _ => None,
    };
    let message = matches!(
        i.op,
        Opcode::UntypedReadLogical | Opcode::TexLogical | Opcode::ScratchRead
    );
    match feature {
        "vector-imm" => i.srcs.iter().any(|s| s.is_imm() && s.ty.is_vector_imm()),
        "message-slice" => {
            message
                && vgrf(&i.dst).is_some_and(|(_, offset, stride)| offset % 32 != 0 || stride != 1)
        }
        "aliased-split" => vgrf(&i.dst).is_some_and(|(nr, ..)| {
            i.srcs
                .iter()
                .any(|s| vgrf(s).is_some_and(|x| x.0 == nr) && s.ty.size() != i.dst.ty.size())
        }),
        "mul-flags" => {
            matches!(i.op, Opcode::Mul | Opcode::Mulh) && i.dst.is_null() && i.cmod.is_some()
        }
        "wide-product" => {
            i.op == Opcode::Mul
                && i.exec_size >= 16
                && i.dst.ty.size() == 8
                && i.srcs.iter().any(|s| {
                    s.is_imm()
                        || s.is_uniform()
                        || matches!(s.kind, RegKind::Attr { stride: 0, .. })
                })
        }
        "hw-send" => i.op == Opcode::Send,
        "eot-at-offset" => {
            i.op == Opcode::Send && i.eot && vgrf(&i.srcs[0]).is_some_and(|(_, o, _)| o > 0)
        }
        "imm-src0" => i.op != Opcode::Mov && i.srcs.len() >= 2 && i.srcs[0].is_imm(),
        "byte-src" => i.op != Opcode::Mov && i.srcs.iter().skip(1).any(|s| s.ty.size() == 1),
        _ => unreachable!("{feature}"),
    }
}

/// Each shape compiler mutants exposed (issue 9 item 10) occurs in programs focused on its
/// feature, and those programs are valid and almost never discarded.
#[test]
fn mutant_shapes_occur_under_their_features() {
    use oracle::differential::{Verdict, check, input_sets};
    let n = 60;
    for (feature, shape, knobs) in [
        ("vector-imm", "vector-imm", ""),
        ("message-slice", "message-slice", ""),
        ("aliased-split", "aliased-split", ""),
        ("mul-flags", "mul-flags", ""),
        (
            "mul-flags",
            "wide-product",
            "devices=chv,bxt,glk dispatch=16,32",
        ),
        ("hw-send", "hw-send", ""),
        ("hw-send", "eot-at-offset", "dispatch=8,16"),
        ("imm-src0", "imm-src0", ""),
        ("byte-src", "byte-src", "devices=icl,tgl,dg2"),
    ] {
        let knobs = Knobs::parse(&format!("features={feature} {knobs}")).unwrap();
        let (mut with_shape, mut discarded) = (0, 0);
        for seed in 0..n {
            let g = from_seed(seed, &knobs);
            let v = compiler::validate::validate(&g.program);
            assert!(
                v.is_empty(),
                "{feature} seed {seed}: {v:?}\n{}",
                print_program(&g.program)
            );
            with_shape += g.program.insts().any(|i| has_shape(shape, i)) as u32;
            let c = check(
                &g.program,
                &input_sets(&g.program, 0, 0),
                &Default::default(),
            );
            discarded += matches!(c.verdict, Verdict::Discard { .. }) as u32;
        }
        assert!(
            with_shape * 8 >= n as u32,
            "{shape} in only {with_shape} of {n} programs focused on {feature}"
        );
        assert!(
            discarded * 20 < n as u32,
            "{discarded} of {n} {feature} programs discarded"
        );
    }
}
