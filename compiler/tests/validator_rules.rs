//! Every validator rule: a program that breaks it (the rule is reported) and a closely
//! related program that does not (no violation at all).

use compiler::program::Block;
use compiler::text::parse_program;
use compiler::validate::{ALL_RULES, Rule, Violation, validate, validate_inst};
use compiler::{Inst, Opcode, Program, Reg, Type};
use std::collections::BTreeSet;

/// A program on `target`/`dispatch` with a few declared registers and `body` as its
/// instructions, split into canonical blocks.
fn prog(target: &str, dispatch: u32, body: &str) -> Program {
    let text = format!(
        "eu 1\ntarget {target}\ndispatch {dispatch}\nthreads 1\nuniforms 2\nattr attr0 2\n\
         vgrf v0 2\nvgrf v1 2\nvgrf v2 4\nvgrf v3 8\nSTART B0\n{body}\nEND B0\n"
    );
    let mut p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    p.resplit();
    p
}

fn rules_of(p: &Program) -> BTreeSet<Rule> {
    let violations = validate(p);
    per_instruction_verdicts_agree(p, &violations);
    violations.into_iter().map(|v| v.rule).collect()
}

/// `validate_inst` on each instruction reports exactly what `validate` reports at that
/// instruction, apart from the control-flow rules, which need the whole program: the
/// generator filters with `validate_inst`, so a checker only `validate` runs would let it
/// emit programs the pass manager then rejects.
fn per_instruction_verdicts_agree(p: &Program, violations: &[Violation]) {
    let whole_program = [Rule::CfUnmatched, Rule::HaltTarget];
    for (ip, inst) in p.insts().enumerate() {
        let mut alone = validate_inst(p, ip, inst);
        alone.sort_by_key(|v| v.rule);
        let in_program: Vec<Violation> = violations
            .iter()
            .filter(|v| v.ip == Some(ip) && !whole_program.contains(&v.rule))
            .cloned()
            .collect();
        assert_eq!(alone, in_program, "ip {ip}: {inst:?}");
    }
}

/// Asserts `bad` reports `rule` and `good` reports nothing.
fn case(rule: Rule, good: Program, bad: Program) {
    let good_v = validate(&good);
    per_instruction_verdicts_agree(&good, &good_v);
    assert!(
        good_v.is_empty(),
        "{rule}: good program has violations: {good_v:?}"
    );
    let bad_rules = rules_of(&bad);
    assert!(
        bad_rules.contains(&rule),
        "{rule}: not reported for the bad program; got {bad_rules:?}"
    );
}

fn skl16(body: &str) -> Program {
    prog("skl", 16, body)
}

/// A vec4-stage (`stage vs`) program on `target` with dispatch `dispatch`: eight uniforms
/// (two vec4 slots, one dvec4), a dvec4 attribute, a vec4 VGRF `v0` and a dvec4 VGRF `v1`.
fn vs_on(target: &str, dispatch: u32, body: &str) -> Program {
    let text = format!(
        "eu 1\ntarget {target}\nstage vs\ndispatch {dispatch}\nthreads 1\nuniforms 8\n\
         attr attr0 2\nvgrf v0 1\nvgrf v1 2\nSTART B0\n{body}\nEND B0\n"
    );
    let mut p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    p.resplit();
    p
}

fn vs(body: &str) -> Program {
    vs_on("hsw", 8, body)
}

#[test]
fn dispatch_width() {
    case(
        Rule::DispatchWidth,
        prog("skl", 32, "mov(16) v0:F, 1.0:F"),
        prog("skl", 12, "mov(8) v0:F, 1.0:F { NoMask }"),
    );
    assert!(rules_of(&prog("g45", 32, "mov(16) v0:F, 1.0:F")).contains(&Rule::DispatchWidth));
}

#[test]
fn thread_count() {
    let good = skl16("mov(16) v0:F, 1.0:F");
    let mut bad = good.clone();
    bad.threads = 0;
    case(Rule::ThreadCount, good, bad);
}

#[test]
fn empty_block() {
    let good = skl16("mov(16) v0:F, 1.0:F");
    let mut bad = good.clone();
    bad.blocks.push(Block::default());
    case(Rule::EmptyBlock, good, bad);
}

#[test]
fn block_boundary() {
    let body = "cmp.l.f0.0(16) null:F, v0:F, 0.0:F\n(+f0.0) if(16)\nmov(16) v0:F, 1.0:F\nendif(16)";
    let good = skl16(&format!("mov(16) v0:F, 1.0:F\n{body}"));
    let mut bad = good.clone();
    let all = bad.take_insts();
    bad.blocks = vec![Block { insts: all }];
    case(Rule::BlockBoundary, good, bad);
}

#[test]
fn exec_size() {
    case(
        Rule::ExecSize,
        skl16("mov(4) v0:F, 1.0:F { NoMask }"),
        skl16("mov(3) v0:F, 1.0:F { NoMask }"),
    );
}

#[test]
fn group_misaligned() {
    case(
        Rule::GroupMisaligned,
        skl16("mov(8) v0:F, 1.0:F { 2Q }"),
        skl16("mov(8) v0:F, 1.0:F { group4 }"),
    );
}

#[test]
fn nomask_wider_than_dispatch() {
    case(
        Rule::NomaskWiderThanDispatch,
        prog("skl", 8, "mov(16) v0:F, 1.0:F { NoMask }"),
        prog("skl", 8, "mov(16) v0:F, 1.0:F"),
    );
}

#[test]
fn group_beyond_dispatch() {
    case(
        Rule::GroupBeyondDispatch,
        skl16("mov(8) v0:F, 1.0:F { 2Q }"),
        skl16("mov(8) v0:F, 1.0:F { 3Q }"),
    );
}

#[test]
fn source_count() {
    case(
        Rule::SourceCount,
        skl16("add(16) v0:F, v1:F, 1.0:F"),
        skl16("add(16) v0:F, 1.0:F"),
    );
}

#[test]
fn flag_out_of_range() {
    case(
        Rule::FlagOutOfRange,
        prog("skl", 8, "cmp.l.f1.0(8) null:F, attr0:F, 0.0:F"),
        prog("g45", 8, "cmp.l.f1.0(8) null:F, attr0:F, 0.0:F"),
    );
    // f1.1 holds bits 48..64: a 32-wide compare would run off the end of the flag file.
    let wide = prog("skl", 32, "cmp.l.f1.1(32) null:F, attr0:F, 0.0:F");
    assert!(rules_of(&wide).contains(&Rule::FlagOutOfRange));
}

#[test]
fn eot_not_last() {
    case(
        Rule::EotNotLast,
        skl16("mov(16) v3:F, 1.0:F\nfb_write_logical(16) null:UD, v3:F, 4:UD, 0:UD { EOT }"),
        skl16("fb_write_logical(16) null:UD, v3:F, 4:UD, 0:UD { EOT }\nmov(16) v3:F, 1.0:F"),
    );
}

#[test]
fn eot_on_non_send() {
    case(
        Rule::EotOnNonSend,
        skl16("fb_write_logical(16) null:UD, v3:F, 4:UD, 0:UD { EOT }"),
        skl16("mov(16) v0:F, 1.0:F { EOT }"),
    );
}

#[test]
fn dst_file() {
    let good = skl16("mov(16) v0:F, u0:F");
    case(Rule::DstFile, good.clone(), skl16("mov(16) u0:F, v0:F"));
    case(Rule::DstFile, good.clone(), skl16("mov(16) attr0:F, v0:F"));
    case(Rule::DstFile, good, skl16("mov(16) -v0:F, v1:F"));
}

#[test]
fn vgrf_undeclared() {
    case(
        Rule::VgrfUndeclared,
        skl16("mov(16) v3:F, 1.0:F"),
        skl16("mov(16) v9:F, 1.0:F"),
    );
}

#[test]
fn vgrf_write_out_of_bounds() {
    // v0 is 64 bytes: SIMD16 F fits at offset 0 but not at offset 32.
    case(
        Rule::VgrfWriteOutOfBounds,
        skl16("mov(8) v0+32:F, 1.0:F { NoMask }"),
        skl16("mov(16) v0+32:F, 1.0:F"),
    );
    // A strided write's last element decides, not exec_size × stride.
    case(
        Rule::VgrfWriteOutOfBounds,
        skl16("mov(16) v0<2>:W, 1:W"),
        skl16("mov(16) v0+4<2>:W, 1:W"),
    );
}

#[test]
fn vgrf_read_out_of_bounds() {
    case(
        Rule::VgrfReadOutOfBounds,
        skl16("mov(16) v1:F, v2+64:F"),
        skl16("mov(16) v1:F, v2+68:F"),
    );
    // A send payload is read whole: mlen 3 registers from a 2-register VGRF.
    let send = |mlen: u32| {
        skl16(&format!(
            "send(16) null:UD, v2:UD, null:UD desc(rt_write target=0 mlen={mlen} ex_mlen=0 rlen=0 header) {{ EOT }}"
        ))
    };
    case(Rule::VgrfReadOutOfBounds, send(3), send(5));
}

#[test]
fn attr_out_of_bounds() {
    case(
        Rule::AttrOutOfBounds,
        skl16("mov(16) v0:F, attr0:F"),
        skl16("mov(16) v0:F, attr0+4:F"),
    );
    assert!(rules_of(&skl16("mov(16) v0:F, attr1:F")).contains(&Rule::AttrOutOfBounds));
}

#[test]
fn uniform_out_of_bounds() {
    case(
        Rule::UniformOutOfBounds,
        skl16("mov(16) v0:F, u1:F"),
        skl16("mov(16) v0:F, u2:F"),
    );
}

#[test]
fn grf_out_of_range() {
    case(
        Rule::GrfOutOfRange,
        skl16("mov(8) g127<8;8,1>:F, 1.0:F { NoMask }"),
        skl16("mov(8) g127.1<8;8,1>:F, 1.0:F { NoMask }"),
    );
}

#[test]
fn arf_out_of_range() {
    // g45 has one flag register (f0.0, f0.1); Gen7+ has two.
    case(
        Rule::ArfOutOfRange,
        prog("g45", 8, "mov(1) f0.1<0;1,0>:UW, 0:UW { NoMask }"),
        prog("g45", 8, "mov(1) f1.0<0;1,0>:UW, 0:UW { NoMask }"),
    );
    case(
        Rule::ArfOutOfRange,
        prog("skl", 8, "mov(1) f1.1<0;1,0>:UW, 0:UW { NoMask }"),
        prog("skl", 8, "mov(1) f3.0<0;1,0>:UW, 0:UW { NoMask }"),
    );
    case(
        Rule::ArfOutOfRange,
        prog("skl", 8, "mov(8) acc1<8;8,1>:F, attr0:F"),
        prog("skl", 8, "mov(8) acc9<8;8,1>:F, attr0:F"),
    );
}

#[test]
fn vgrf_dst_stride_zero() {
    case(
        Rule::VgrfDstStrideZero,
        skl16("mov(1) v0<0>:F, 1.0:F { NoMask }"),
        skl16("mov(16) v0<0>:F, 1.0:F"),
    );
}

#[test]
fn illegal_type() {
    let good = skl16("and(16) v0:UD, v1:UD, 0xff:UD");
    case(
        Rule::IllegalType,
        good.clone(),
        skl16("and(16) v0:F, v1:F, v1:F"),
    );
    case(
        Rule::IllegalType,
        good.clone(),
        skl16("add(16) v0:F, v1:F, v1:D"),
    );
    case(Rule::IllegalType, good.clone(), skl16("rcp(16) v0:D, v1:D"));
    case(Rule::IllegalType, good.clone(), skl16("mov(16) v0:W, 7:B"));
    case(
        Rule::IllegalType,
        good.clone(),
        skl16("mov(16) v0:F, v1:VF"),
    );
    // docs/hardware/eu-hardware.md §3.5: no saturate on an integer multiply with a dword
    // source, a W×D one included; W×W may saturate.
    case(
        Rule::IllegalType,
        skl16("mul.sat(16) v0:D, v1:W, v1:W"),
        skl16("mul.sat(16) v0:D, v1:D, v1:W"),
    );
    case(
        Rule::IllegalType,
        good.clone(),
        skl16("mul.sat(16) v0:D, v1:UW, v1:UD"),
    );
    // §6.10: BFI2's sources have its destination's type.
    case(
        Rule::IllegalType,
        skl16("bfi2(16) v0:UD, v1:UD, v1:UD, v1:UD"),
        skl16("bfi2(16) v0:UD, v1:D, v1:D, v1:D"),
    );
    case(
        Rule::IllegalType,
        good.clone(),
        skl16("bfi2(16) v0:D, v1:D, v1:D, v1:UD"),
    );
    // §3.7: no conversion between a 64-bit type and HF, by any instruction.
    case(
        Rule::IllegalType,
        prog("skl", 8, "frc(8) v0:F, v1:DF"),
        prog("skl", 8, "frc(8) v0:HF, v1:DF"),
    );
}

#[test]
fn no_64bit_float() {
    let body = "add(8) v2:DF, v2:DF, v2:DF { NoMask }";
    case(
        Rule::No64bitFloat,
        prog("skl", 16, body),
        prog("icl", 16, body),
    );
    // IVB has DF registers but no DF immediates.
    let imm = "add(8) v2:DF, v2:DF, 1.0:DF { NoMask }";
    case(
        Rule::No64bitFloat,
        prog("bdw", 16, imm),
        prog("hsw", 16, imm),
    );
}

#[test]
fn no_64bit_int() {
    let body = "add(8) v2:Q, v2:Q, 1:Q { NoMask }";
    case(
        Rule::No64bitInt,
        prog("bdw", 16, body),
        prog("hsw", 16, body),
    );
}

#[test]
fn no_half_float() {
    let body = "mov(16) v0:HF, 1.0:F";
    case(
        Rule::NoHalfFloat,
        prog("skl", 16, body),
        prog("hsw", 16, body),
    );
}

#[test]
fn three_src_mixed_types() {
    case(
        Rule::ThreeSrcMixedTypes,
        skl16("mad(16) v0:F, v1:F, v1:F, v1:F"),
        skl16("mad(16) v0:F, v1:F, v1:D, v1:F"),
    );
    // And one width: no 64↔32-bit conversion inside a three-source instruction.
    case(
        Rule::ThreeSrcMixedTypes,
        prog("chv", 8, "mad(8) v0:DF, v1:DF, v1:DF, 0.5:DF"),
        prog("chv", 8, "mad(8) v0:DF, 0.0:F, v1:F, v1:F"),
    );
}

#[test]
fn imm_out_of_range() {
    case(
        Rule::ImmOutOfRange,
        skl16("mov(16) v0:D, 0xffffffff:D"),
        skl16("mov(16) v0:D, 0x100000000:D"),
    );
}

#[test]
fn cf_unmatched() {
    let cond = "cmp.l.f0.0(16) null:F, attr0:F, 0.0:F\n";
    let good = skl16(&format!(
        "mov(16) v0:D, 0:D\ndo(16)\n{cond}(+f0.0) if(16)\nbreak(16)\nelse(16)\nadd(16) v0:D, v0:D, 1:D\nendif(16)\nwhile(16)"
    ));
    case(Rule::CfUnmatched, good.clone(), skl16("else(16)"));
    case(
        Rule::CfUnmatched,
        good.clone(),
        skl16(&format!("{cond}(+f0.0) if(16)\nmov(16) v0:F, 1.0:F")),
    );
    case(Rule::CfUnmatched, good.clone(), skl16("break(16)"));
    case(Rule::CfUnmatched, good.clone(), skl16("while(16)"));
    case(
        Rule::CfUnmatched,
        good,
        skl16(&format!(
            "do(16)\n{cond}(+f0.0) if(16)\nwhile(16)\nendif(16)"
        )),
    );
}

#[test]
fn halt_target() {
    let cond = "cmp.l.f0.0(16) null:F, attr0:F, 0.0:F\n";
    let good = skl16(&format!(
        "{cond}(+f0.0) halt(16)\nmov(16) v0:F, 1.0:F\nhalt_target(16)"
    ));
    case(
        Rule::HaltTarget,
        good.clone(),
        skl16(&format!("{cond}(+f0.0) halt(16)")),
    );
    case(
        Rule::HaltTarget,
        good,
        skl16(&format!(
            "{cond}(+f0.0) if(16)\n(+f0.0) halt(16)\nhalt_target(16)\nendif(16)"
        )),
    );
}

#[test]
fn send_payload() {
    // header= belongs to load_payload only.
    case(
        Rule::SendPayload,
        skl16("load_payload(8) v0:UD, v1:UD, v1+32:UD { NoMask header=1 }"),
        skl16("mov(16) v0:F, v1:F { header=2 }"),
    );
    let fb = |comps: u32| {
        skl16(&format!(
            "fb_write_logical(16) null:UD, v3:F, {comps}:UD, 0:UD {{ EOT }}"
        ))
    };
    case(Rule::SendPayload, fb(4), fb(5));
    case(
        Rule::SendPayload,
        skl16("untyped_read_logical(16) v0:UD, v1:UD, 1:UD, 1:UD"),
        skl16("untyped_read_logical(16) v0:UD, v1:F, 1:UD, 1:UD"),
    );
    let scratch = |body: &str| {
        let mut p = skl16(body);
        p.scratch_size = 1024;
        p
    };
    case(
        Rule::SendPayload,
        scratch("scratch_read(16) v0:UD, 32:UD"),
        scratch("scratch_read(16) v0:UD, 36:UD"),
    );
    // A hardware SEND needs a descriptor, and its lengths must match the message.
    let mut no_desc = skl16("mov(16) v0:F, 1.0:F");
    no_desc.blocks[0].insts = vec![Inst::new(
        Opcode::Send,
        16,
        Reg::null(Type::UD),
        vec![Reg::vgrf(3, Type::UD), Reg::null(Type::UD)],
    )];
    let good_send = skl16(
        "send(16) v0:UD, v1:UD, null:UD desc(untyped_read surface=1 comps=1 mlen=2 ex_mlen=0 rlen=2)",
    );
    case(Rule::SendPayload, good_send.clone(), no_desc);
    case(
        Rule::SendPayload,
        good_send,
        skl16(
            "send(16) v2:UD, v1:UD, null:UD desc(untyped_read surface=1 comps=2 mlen=2 ex_mlen=0 rlen=2)",
        ),
    );
}

#[test]
fn scratch_out_of_bounds() {
    let with = |n: u32, body: &str| {
        let mut p = skl16(body);
        p.scratch_size = n;
        p
    };
    case(
        Rule::ScratchOutOfBounds,
        with(128, "scratch_write(16) null:UD, v0:UD, 64:UD"),
        with(64, "scratch_write(16) null:UD, v0:UD, 64:UD"),
    );
}

#[test]
fn vec4_stage() {
    let body = "add(8) v1.xz:DF, attr0.zwxy:DF, u0.yyyy:DF { Align16 }";
    for target in ["ivb", "byt", "hsw"] {
        assert!(validate(&vs_on(target, 8, body)).is_empty(), "{target}");
    }
    // Devices the stage is not modelled on (no FP64 before Gen7, scalar VS from Gfx8).
    case(Rule::Vec4Stage, vs(body), vs_on("skl", 8, body));
    case(Rule::Vec4Stage, vs(body), vs_on("g45", 8, body));
    // SIMD4x2 is 8 channels.
    case(Rule::Vec4Stage, vs(body), vs_on("hsw", 16, body));
    // One vertex (4) or both (8), nothing else.
    case(
        Rule::Vec4Stage,
        vs("mov(4) v0+16:F, attr0+32:F { Align16 }"),
        vs("mov(2) v0:F, attr0:F { Align16 }"),
    );
    // A whole vec4 of the operand's type: a DF operand at byte 16 splits one.
    case(
        Rule::Vec4Stage,
        vs("mov(4) v1+32:DF, attr0.yxwz:DF { Align16 }"),
        vs("mov(4) v1+16:DF, attr0.yxwz:DF { Align16 }"),
    );
    // Between 64-bit and 32-bit data only a MOV converts (docs/hardware/fp64-align16.md
    // §5.2): a DF compare writes a dvec4, an arithmetic operation one width.
    case(
        Rule::Vec4Stage,
        vs("mov(8) v0:F, v1:DF { Align16 }"),
        vs("add(8) v0:F, v1:DF, v1:DF { Align16 }"),
    );
    case(
        Rule::Vec4Stage,
        vs("cmp.l.f0.0(8) v1:DF, attr0:DF, v1:DF { Align16 }"),
        vs("cmp.l.f0.0(8) v0:D, attr0:DF, v1:DF { Align16 }"),
    );
    case(
        Rule::Vec4Stage,
        vs("mul(8) v1:DF, attr0:DF, 0.5:DF { Align16 }"),
        vs("mul(8) v1:DF, attr0:DF, v0:F { Align16 }"),
    );
    // No pixels to write.
    case(
        Rule::Vec4Stage,
        vs("urb_write_logical(8) null:UD, v0:F, 0:UD, 1:UD { EOT }"),
        vs("fb_write_logical(8) null:UD, v0:F, 4:UD, 0:UD { EOT }"),
    );
    // A fragment program has no vec4 components on virtual registers.
    case(
        Rule::Vec4Stage,
        prog("hsw", 8, "mov(8) g4.xz:F, g6<4>.zwxy:F { Align16 }"),
        prog("hsw", 8, "mov(8) v0.xz:F, attr0.zwxy:F { Align16 }"),
    );
    // A vec4 uniform reads up to the highest component its swizzle names: with 8
    // uniforms (32 bytes) a double at u6 fits, W of a dvec4 at u4 does not.
    case(
        Rule::UniformOutOfBounds,
        vs("mov(8) v1:DF, u6.xxxx:DF { Align16 }"),
        vs("mov(8) v1:DF, u4.wwww:DF { Align16 }"),
    );
    assert!(validate(&vs("mov(8) v1:DF, u0.xyzw:DF { Align16 }")).is_empty());
}

#[test]
fn urb_write_form() {
    let good = || vs("urb_write_logical(8) null:UD, v1:DF, 30:UD, 1:UD { EOT }");
    for bad in [
        // only in the vec4 stage
        prog(
            "hsw",
            8,
            "urb_write_logical(8) null:UD, v0:F, 0:UD, 1:UD { EOT }",
        ),
        // both vertices, masked
        vs("urb_write_logical(4) null:UD, v0:F, 0:UD, 1:UD { EOT }"),
        vs("urb_write_logical(8) null:UD, v0:F, 0:UD, 1:UD { NoMask EOT }"),
        // a dvec4 at slot 31 needs slot 32
        vs("urb_write_logical(8) null:UD, v1:DF, 31:UD, 1:UD { EOT }"),
        vs("urb_write_logical(8) null:UD, v0:F, 0:UD, 5:UD { EOT }"),
        // huge immediates are reported, not overflowed (found by the round-trip proptest)
        vs("urb_write_logical(8) null:UD, v1:DF, 1:UD, 9223372036854775808:UQ { EOT }"),
        vs("urb_write_logical(8) null:UD, v0:F, 18446744073709551615:UQ, 1:UD { EOT }"),
        vs("urb_write_logical(8) null:UD, v0:F, v0:UD, 1:UD { EOT }"),
        // data: a whole VGRF register, no modifiers, no swizzle
        vs("urb_write_logical(8) null:UD, attr0:F, 0:UD, 1:UD { EOT }"),
        vs("urb_write_logical(8) null:UD, v1+16:F, 0:UD, 1:UD { EOT }"),
        vs("urb_write_logical(8) null:UD, -v0:F, 0:UD, 1:UD { EOT }"),
        vs("urb_write_logical(8) null:UD, v0:W, 0:UD, 1:UD { EOT }"),
        vs("urb_write_logical(8) v1:UD, v0:F, 0:UD, 1:UD { EOT }"),
    ] {
        case(Rule::UrbWriteForm, good(), bad);
    }
}

/// Every rule has a test above; this keeps the list honest when rules are added.
#[test]
fn every_rule_is_covered() {
    let source = include_str!("validator_rules.rs");
    // The pass manager's rules are about a pass, not a program: their tests run the
    // manager (oracle/tests/progress_contract.rs) or the pass's postcondition
    // (oracle/tests/opt_dead_code_eliminate.rs).
    for rule in ALL_RULES.into_iter().filter(|&r| !r.is_pass_contract()) {
        let variant = format!("{rule:?}");
        assert!(
            source.contains(&format!("Rule::{variant},")),
            "rule {rule} has no case() test"
        );
    }
}

#[test]
fn unsupported_opcode() {
    case(
        Rule::UnsupportedOpcode,
        prog("ivb", 8, "bfrev(8) v0:UD, attr0:UD"),
        prog("g45", 8, "bfrev(8) v0:UD, attr0:UD"),
    );
    case(
        Rule::UnsupportedOpcode,
        prog("icl", 8, "rol(8) v0:UD, attr0:UD, 3:UD"),
        prog("skl", 8, "rol(8) v0:UD, attr0:UD, 3:UD"),
    );
}

#[test]
fn bfi2_takes_no_modifiers() {
    case(
        Rule::IllegalType,
        prog("skl", 8, "bfi2(8) v0:UD, attr0:UD, attr0:UD, v1:UD"),
        prog("skl", 8, "bfi2.nz.f0.0(8) v0:UD, attr0:UD, attr0:UD, v1:UD"),
    );
}

#[test]
fn messages_and_payloads_take_no_source_modifiers() {
    case(
        Rule::IllegalType,
        skl16("load_payload(16) v2:UD, attr0:UD, v0:UD"),
        skl16("load_payload(16) v2:UD, attr0:UD, -v0:UD"),
    );
    case(
        Rule::IllegalType,
        skl16("tex_logical(16) v3:F, attr0:F, v0:F, 0:UD"),
        skl16("tex_logical(16) v3:F, (abs)attr0:F, v0:F, 0:UD"),
    );
}

#[test]
fn cmod_not_supported() {
    // docs/hardware/brw-backend.md §10.3 #2: FBL cannot carry a conditional modifier.
    case(
        Rule::CmodNotSupported,
        prog("skl", 8, "fbl(8) v0:UD, attr0:UD"),
        prog("skl", 8, "fbl.ge.f0.0(8) v0:UD, attr0:UD"),
    );
    for bad in [
        "fbh.z.f0.0(8) v0:UD, attr0:UD",
        "cbit.nz.f0.0(8) v0:UD, attr0:UD",
        "bfrev.g.f0.0(8) v0:UD, attr0:UD",
        "lzd.l.f0.0(8) v0:UD, attr0:UD",
        "rcp.ge.f0.0(8) v0:F, attr0:F",
    ] {
        assert!(
            rules_of(&prog("skl", 8, bad)).contains(&Rule::CmodNotSupported),
            "{bad}"
        );
    }
    // Not applicable: opcodes that take a modifier, and MULH, whose lowering tests the
    // product with a separate compare.
    for good in [
        "add.ge.f0.0(8) v0:F, attr0:F, 1.0:F",
        "mov.nz.f0.0(8) v0:UD, attr0:UD",
        "mulh.l.f0.0(8) v0:D, attr0:D, v1:D",
    ] {
        assert!(validate(&prog("skl", 8, good)).is_empty(), "{good}");
    }
}

#[test]
fn add3_exists_from_gfx12_5_with_word_or_dword_integers() {
    // docs/hardware/eu-hardware.md §7.3: ADD3 on Gfx12.5+, integer D/UD/W/UW only.
    let body = "add3(8) v0:D, attr0:D, v1:D, 7:W";
    case(
        Rule::UnsupportedOpcode,
        prog("dg2", 8, body),
        prog("tgl", 8, body),
    );
    case(
        Rule::IllegalType,
        prog("dg2", 8, body),
        prog("dg2", 8, "add3(8) v0:F, attr0:F, v1:F, v1:F"),
    );
}

/// A null destination's type is encoded too: `null:Q` needs 64-bit integers (found by the
/// gate running a chv regression on every device).
#[test]
fn typed_null_destinations_need_their_type() {
    case(
        Rule::No64bitInt,
        prog("skl", 8, "    mul.nz.f0.0(8) null:Q, v0:D, v1:D"),
        prog("icl", 8, "    mul.nz.f0.0(8) null:Q, v0:D, v1:D"),
    );
    case(
        Rule::No64bitFloat,
        prog("skl", 8, "    cmp.l.f0.0(8) null:DF, v2:DF, v2:DF"),
        prog("icl", 8, "    cmp.l.f0.0(8) null:DF, v0:F, v1:F"),
    );
}

#[test]
fn condition_missing() {
    // docs/hardware/eu-hardware.md §6.10: CMP/CMPN must have a condition; SEL is predicated or has one.
    case(
        Rule::ConditionMissing,
        prog("skl", 8, "cmp.l.f0.0(8) null:F, attr0:F, 1.0:F"),
        prog("skl", 8, "cmp(8) null:F, attr0:F, 1.0:F"),
    );
    case(
        Rule::ConditionMissing,
        prog("skl", 8, "sel.ge(8) v0:F, attr0:F, 1.0:F"),
        prog("skl", 8, "sel(8) v0:F, attr0:F, 1.0:F"),
    );
    assert!(
        !rules_of(&prog("skl", 8, "(+f0.0) sel(8) v0:F, attr0:F, 1.0:F"))
            .contains(&Rule::ConditionMissing)
    );
}

#[test]
fn subgroup_form() {
    let good = "find_live_channel(16) v0<0>:UD { NoMask }\n\
                broadcast(16) v1<0>:F, attr0:F, v0<0>:UD { NoMask }\n\
                broadcast(16) v1+4<0>:F, attr0:F, 15:UD { NoMask }";
    for bad in [
        // Not NoMask.
        "find_live_channel(16) v0<0>:UD",
        // Predicated.
        "(+f0.0) find_live_channel(16) v0<0>:UD { NoMask }",
        // One element per channel instead of one scalar.
        "find_live_channel(16) v0:UD { NoMask }",
        // Not a UD channel index.
        "find_live_channel(16) v0<0>:D { NoMask }",
        // An index beyond the execution size.
        "broadcast(16) v1<0>:F, attr0:F, 16:UD { NoMask }",
        // An index that is not uniform.
        "broadcast(16) v1<0>:F, attr0:F, v0:UD { NoMask }",
        // A destination narrower than the value.
        "broadcast(16) v1<0>:UW, attr0:F, 0:UD { NoMask }",
        // A source modifier on a bit copy.
        "broadcast(16) v1<0>:F, -attr0:F, 0:UD { NoMask }",
        "broadcast.sat(16) v1<0>:F, attr0:F, 0:UD { NoMask }",
    ] {
        case(Rule::SubgroupForm, skl16(good), skl16(bad));
    }
    // docs/hardware/brw-backend.md §10.3 #3: the virtual op cannot carry a conditional modifier.
    case(
        Rule::CmodNotSupported,
        skl16(good),
        skl16("find_live_channel.z.f0.0(16) v0<0>:UD { NoMask }"),
    );
}

#[test]
fn align16_fields_only_where_align16_reads_them() {
    use compiler::reg::{Swizzle, WriteMask};
    // Virtual operands carry vec4 components only in the vec4 stage (`vec4-stage`).
    let good = || vs("mov(8) v0.xz:F, attr0.zwxy:F { Align16 }");
    case(
        Rule::Align16Form,
        good(),
        vs("mov(8) v0.xz:F, attr0.zwxy:F"),
    );
    let edit = |f: &dyn Fn(&mut Inst)| {
        let mut p = good();
        f(&mut p.blocks[0].insts[0]);
        p
    };
    for bad in [
        edit(&|i| i.dst.writemask = WriteMask(0)),
        edit(&|i| i.dst.swizzle = Swizzle::replicate(1)),
        edit(&|i| i.srcs[0].writemask = WriteMask(1)),
        edit(&|i| i.srcs[0] = Reg::imm_f(1.0).swizzled(Swizzle::replicate(2))),
    ] {
        assert!(
            rules_of(&bad).contains(&Rule::Align16Form),
            "{:?}",
            bad.blocks[0].insts[0]
        );
    }
}
