//! The Align16 text form (corpus/README.md, "Align16"): the `{ Align16 }` control, source
//! swizzles, destination writemasks, the `<V>` short region and the omitted destination
//! region; their canonical printing, round trips of every combination, and clear errors.

use compiler::inst::AccessMode;
use compiler::reg::{Reg, RegKind, Region, Swizzle, WriteMask};
use compiler::text::{parse_program, print_program};
use compiler::types::Type;
use compiler::{Inst, Opcode, Program};
use proptest::prelude::*;

fn program(body: &str) -> String {
    format!(
        "eu 1\ntarget hsw\ndispatch 8\nthreads 1\nvgrf v0 2\nvgrf v1 2\n\nSTART B0\n    {body}\nEND B0\n"
    )
}

fn first(text: &str) -> Inst {
    let p = parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    p.insts().next().unwrap().clone()
}

#[test]
fn canonical_lines_parse_to_the_fields_and_print_back() {
    let text = program("add(8) g2.xz:DF, g4.2<0>.zwxy:DF, g6<4>.x:DF { Align16 }");
    let inst = first(&text);
    assert_eq!(inst.access_mode, AccessMode::Align16);
    assert_eq!(inst.dst.writemask, WriteMask(0b0101));
    assert_eq!(
        inst.dst.kind,
        RegKind::Fixed {
            nr: 2,
            subnr: 0,
            region: Region::align16(4)
        }
    );
    assert_eq!(inst.srcs[0].swizzle.comps(), [2, 3, 0, 1]);
    assert_eq!(
        inst.srcs[0].kind,
        RegKind::Fixed {
            nr: 4,
            subnr: 16,
            region: Region::align16(0)
        }
    );
    assert_eq!(inst.srcs[1].swizzle, Swizzle::replicate(0));
    assert_eq!(print_program(&parse_program(&text).unwrap()), text);

    for line in [
        "mov(8) g2:F, g4<4>.xyzw:F { Align16 }",
        "mov(4) g2.w:F, -(abs)g4.4<2>.wzyx:F { 2N NoMask Align16 }",
        "mov(8) v0+16.xy:F, v1<2>.zzzz:F { Align16 }",
        "mov(8) g2<8;8,1>.y:F, acc0<4;4,1>.xyzw:F { Align16 }",
        "mad(8) g2:F, g4<0>.x:F, g6<4>.xyzw:F, g8<4>.yyyy:F { Align16 }",
        "mov(8) g2<8;8,1>:F, g4<4;4,1>:F",
    ] {
        let text = program(line);
        let printed = print_program(&parse_program(&text).unwrap());
        let expected = program(&line.replace(".yyyy", ".y").replace(".zzzz", ".z"));
        assert_eq!(printed, expected, "{line}");
    }
}

#[test]
fn equivalent_spellings_print_canonically() {
    // A full writemask prints no suffix; the Align16 destination region <4;4,1> prints no
    // region; a source's replicated swizzle prints one letter; an Align16 source region
    // <V;4,1> prints <V>.
    let text = program("mov(8) g2<4;4,1>.xyzw:F, g4<0;4,1>.wwww:F { Align16 }");
    assert_eq!(
        print_program(&parse_program(&text).unwrap()),
        program("mov(8) g2:F, g4<0>.w:F { Align16 }")
    );
}

#[test]
fn malformed_align16_operands_are_reported() {
    for (line, needle) in [
        ("mov(8) g2:F, g4<4>.xyzw:F", "Align16"),
        ("mov(8) g2<8;8,1>:F, g4<4>:F", "Align16"),
        ("mov(8) g2.yx:F, g4<4>.xyzw:F { Align16 }", "writemask"),
        ("mov(8) g2.xx:F, g4<4>.xyzw:F { Align16 }", "writemask"),
        ("mov(8) g2:F, g4<4>.xy:F { Align16 }", "swizzle"),
        ("mov(8) g2:F, g4<4>.xyzwx:F { Align16 }", "swizzle"),
    ] {
        let err = parse_program(&program(line)).expect_err(line);
        assert!(err.msg.contains(needle), "{line}: {err}");
        assert_eq!(err.line, 9, "{line}: {err}");
    }
}

#[test]
fn existing_align1_programs_are_unchanged() {
    // No new field shows in an Align1 line, and the defaults are what every constructor gives.
    let r = Reg::grf(4, 0, Region::PACKED8, Type::F);
    assert!(r.swizzle.is_identity() && r.writemask.is_full());
    assert_eq!(
        Inst::new(Opcode::Mov, 8, r, vec![r]).access_mode,
        AccessMode::Align1
    );
    let text = program("mov(8) g2<8;8,1>:F, g4.1<4;4,1>:F");
    assert_eq!(print_program(&parse_program(&text).unwrap()), text);
}

#[test]
fn a_partial_writemask_is_a_partial_write() {
    // Liveness and dead-code passes must not treat `v0.xz` as killing all of v0.
    let whole = first(&program("mov(8) v0:F, v1.zwxy:F { Align16 }"));
    let part = first(&program("mov(8) v0.xz:F, v1.zwxy:F { Align16 }"));
    assert!(!whole.is_partial_write());
    assert!(part.is_partial_write());
}

fn operand(kind: u8, nr: u8, sub16: bool, vstride: u8, ty: Type) -> Reg {
    match kind % 3 {
        0 => Reg::grf(
            nr as u16 % 100,
            if sub16 { 16 } else { 0 },
            Region::align16(vstride),
            ty,
        ),
        1 => Reg::vgrf(nr as u32 % 2, ty).byte_offset(if sub16 { 16 } else { 0 }),
        _ => Reg::grf(nr as u16 % 100, 0, Region::new(8, 8, 1), ty),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    /// `parse(print(p)) == p` for Align16 (and Align1) instructions with any swizzle and
    /// any non-empty writemask on fixed GRFs and VGRFs.
    #[test]
    fn swizzles_and_writemasks_round_trip(
        align16 in any::<bool>(),
        kinds in prop::array::uniform3(any::<u8>()),
        nrs in prop::array::uniform3(any::<u8>()),
        subs in prop::array::uniform3(any::<bool>()),
        vstrides in prop::array::uniform3(prop::sample::select(vec![0u8, 2, 4])),
        swizzles in prop::array::uniform2(any::<u8>()),
        mask in 1u8..16,
        ty in prop::sample::select(vec![Type::F, Type::D, Type::UD, Type::DF]),
    ) {
        let mut p: Program = parse_program(&program("nop(1)")).unwrap();
        let dst = operand(kinds[0], nrs[0], subs[0], vstrides[0], ty).masked(mask);
        let srcs = (0..2)
            .map(|k| {
                operand(kinds[k + 1], nrs[k + 1], subs[k + 1], vstrides[k + 1], ty)
                    .swizzled(Swizzle(swizzles[k]))
            })
            .collect();
        let mut inst = Inst::new(Opcode::Add, 8, dst, srcs);
        if align16 {
            inst = inst.with_align16();
        }
        p.blocks[0].insts[0] = inst;
        let text = print_program(&p);
        let parsed = parse_program(&text)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&parsed, &p, "printed:\n{}", text);
        prop_assert_eq!(print_program(&parsed), text);
    }
}
