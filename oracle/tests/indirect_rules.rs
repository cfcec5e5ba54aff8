//! Register-indirect restriction rules beyond the one case each in `strict_rules.rs`: the
//! shapes each rule must not touch, and the variants the documents name (docs/hardware/eu-hardware.md
//! §1.4, §5.1, §5.4, §6.5, §6.9).

use compiler::Device;
use compiler::text::parse_program;
use oracle::strict::check;

fn rules(device: &str, text: &str) -> Vec<&'static str> {
    let src = format!("eu 1\ntarget {device}\ndispatch 16\nSTART B0\n    {text}\nEND B0\n");
    let p = parse_program(&src).unwrap_or_else(|e| panic!("{e}: {text}"));
    let inst = p.insts().next().cloned().expect("one instruction");
    let d = Device::from_name(device).expect("device");
    check(&inst, d).into_iter().map(|r| r.rule).collect()
}

#[test]
fn indirect_src0_and_single_source_are_not_src1() {
    // §1.4: only src1 of a two-source instruction is restricted.
    assert!(!rules("skl", "mov(8) g10<8;8,1>:F, g[a0.0]<8;8,1>:F").contains(&"indirect-src1"));
    assert!(!rules("skl", "rsq(8) g10<8;8,1>:F, g[a0.0]<8;8,1>:F").contains(&"indirect-src1"));
}

#[test]
fn three_source_destination_must_be_direct_too() {
    // §7.3: the 3-source encodings have no addressing mode, so an indirect dst is rejected.
    let mad = "mad(8) g[a0.0]<1>:F, g2<8;8,1>:F, g4<8;8,1>:F, g6<8;8,1>:F";
    assert!(rules("skl", mad).contains(&"indirect-3src"));
    // A two-source instruction with an indirect destination is not a 3-source case.
    let add = "add(8) g[a0.0]<1>:F, g2<8;8,1>:F, g4<8;8,1>:F";
    assert!(!rules("skl", add).contains(&"indirect-3src"));
}

#[test]
fn split_sends_are_not_the_direct_src0_rule() {
    // §6.3 "non-split send with indirect src0": a send with an extended payload is split.
    let split = "send(8) null:UD, g[a0.0]<8;8,1>:UD, g20<8;8,1>:UD desc(rt_write target=0 mlen=4 ex_mlen=2 rlen=0)";
    assert!(!rules("skl", split).contains(&"send-indirect-src0"));
}

#[test]
fn mixed_float_rule_is_about_sources_only() {
    // §6.5 "mixed float with any indirect source": an indirect destination is not covered,
    // and a non-mixed instruction with an indirect source is fine.
    let dst = "add(8) g[a0.0]<1>:F, g2<8;8,1>:F, g4<8;8,1>:HF";
    assert!(!rules("skl", dst).contains(&"mixed-float-indirect-src"));
    let pure = "add(8) g10<8;8,1>:F, g[a0.0]<8;8,1>:F, g4<8;8,1>:F";
    assert!(!rules("skl", pure).contains(&"mixed-float-indirect-src"));
    // elk applies it from Gen8 on (bdw).
    let src = "add(8) g10<8;8,1>:F, g[a0.0]<8;8,1>:F, g4<8;8,1>:HF";
    assert!(rules("bdw", src).contains(&"mixed-float-indirect-src"));
}

#[test]
fn low_power_qword_parts_reject_indirect_dst_and_dw_multiply() {
    // §5.1: destination too; "double precision" includes the integer DW×DW multiply.
    let dst = "mov(4) g[a0.0]<1>:DF, g2<4;4,1>:DF { NoMask }";
    assert!(rules("chv", dst).contains(&"qword-lp-indirect"));
    assert!(rules("glk", dst).contains(&"qword-lp-indirect"));
    assert!(!rules("bdw", dst).contains(&"qword-lp-indirect"));
    let mul = "mul(8) g10<8;8,1>:D, g[a0.0]<8;8,1>:D, g4<8;8,1>:D";
    assert!(rules("chv", mul).contains(&"qword-lp-indirect"));
    // A 32-bit operation with an indirect operand is fine there.
    let add = "add(8) g10<8;8,1>:D, g[a0.0]<8;8,1>:D, g4<8;8,1>:D";
    assert!(!rules("chv", add).contains(&"qword-lp-indirect"));
}

#[test]
fn xehp_rule_covers_vx1_and_qword_but_not_one_dimensional_origins() {
    // §5.4, §6.9: Vx1 as well as VxH; Q data; a plain 1-D indirect region is allowed.
    let vx1 = "mov(8) g10<8;8,1>:F, g[a0.0]<Vx1;2,1>:F";
    assert!(rules("dg2", vx1).contains(&"xehp-vx1-vxh-float"));
    let plain = "mov(8) g10<8;8,1>:F, g[a0.0]<8;8,1>:F";
    assert!(!rules("dg2", plain).contains(&"xehp-vx1-vxh-float"));
    let q = "mov(8) g10<8;8,1>:Q, g[a0.0]<VxH;1,0>:Q";
    assert!(rules("dg2", q).contains(&"xehp-vx1-vxh-float"));
}

#[test]
fn indirect_regions_get_the_width_and_stride_checks() {
    // §6.6: the region fields of an indirect source are checked like a direct one's ...
    let wide = "mov(4) g10<4;4,1>:D, g[a0.0]<8;8,1>:D { NoMask }";
    assert!(rules("skl", wide).contains(&"exec-size-lt-width"));
    let w1 = "mov(8) g10<8;8,1>:D, g[a0.0]<1;1,1>:D";
    assert!(rules("skl", w1).contains(&"width1-hstride-nonzero"));
    let dst = "mov(8) g[a0.0]<0;1,0>:D, g2<8;8,1>:D";
    assert!(rules("skl", dst).contains(&"dst-hstride-zero"));
    let vx1_wide = "mov(2) g10<2;2,1>:D, g[a0.0]<Vx1;4,1>:D { NoMask }";
    assert!(rules("skl", vx1_wide).contains(&"exec-size-lt-width"));
    // ... but VertStride 0xF is encodable there and skips the later Align1 checks.
    let vxh1 = "mov(1) g10<0;1,1>:D, g[a0.0]<VxH;1,0>:D { NoMask }";
    assert_eq!(rules("skl", vxh1), Vec::<&str>::new());
    let vx1 = "mov(8) g10<8;8,1>:D, g[a0.0]<Vx1;8,1>:D";
    assert_eq!(rules("skl", vx1), Vec::<&str>::new());
    // A direct source with VertStride 15 is not encodable.
    let direct = "mov(8) g10<8;8,1>:D, g2<15;8,1>:D";
    assert!(rules("skl", direct).contains(&"unencodable-region"));
}
