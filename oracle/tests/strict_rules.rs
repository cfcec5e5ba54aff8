//! Every strict-mode restriction rule: a violating and a fully legal instruction on a device
//! the rule applies to, and the violating instruction on a device where it does not.

use compiler::device::ALL_DEVICES;
use compiler::text::parse_program;
use compiler::{Device, Inst};
use oracle::strict::{self, all_rule_names, check};

fn inst(device: &str, text: &str) -> Inst {
    let src = format!("eu 1\ntarget {device}\ndispatch 16\nSTART B0\n    {text}\nEND B0\n");
    let p = parse_program(&src).unwrap_or_else(|e| panic!("{e}: {text}"));
    p.insts()
        .next()
        .cloned()
        .unwrap_or_else(|| panic!("no instruction in {text}"))
}

fn rules(device: &str, text: &str) -> Vec<&'static str> {
    let d = Device::from_name(device).unwrap_or_else(|| panic!("device {device}"));
    check(&inst(device, text), d)
        .into_iter()
        .map(|r| r.rule)
        .collect()
}

/// (rule, device it applies to, device it does not apply to, violating, legal)
type Case = (
    &'static str,
    &'static str,
    Option<&'static str>,
    &'static str,
    &'static str,
);

fn cases() -> Vec<Case> {
    vec![
        (
            "invalid-exec-size",
            "skl",
            None,
            "mov(3) g10<4;4,1>:F, g2<4;4,1>:F { NoMask }",
            "mov(4) g10<4;4,1>:F, g2<4;4,1>:F { NoMask }",
        ),
        (
            "exec-size-offset-factor",
            "tgl",
            Some("skl"),
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F { group4 }",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F { 2Q }",
        ),
        (
            "unencodable-region",
            "skl",
            None,
            "mov(8) g10<8;8,1>:F, g2<3;3,1>:F",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "exec-size-lt-width",
            "skl",
            None,
            "mov(4) g10<4;4,1>:F, g2<8;8,1>:F { NoMask }",
            "mov(4) g10<4;4,1>:F, g2<4;4,1>:F { NoMask }",
        ),
        (
            "width1-hstride-nonzero",
            "skl",
            None,
            "mov(8) g10<8;8,1>:F, g2<1;1,1>:F",
            "mov(8) g10<8;8,1>:F, g2<1;1,0>:F",
        ),
        (
            "exec-eq-width-vstride",
            "skl",
            None,
            "mov(8) g10<8;8,1>:F, g2<4;8,1>:F",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "exec-width-one-strides",
            "skl",
            None,
            "mov(1) g10<1;1,1>:F, g2<1;1,0>:F { NoMask }",
            "mov(1) g10<1;1,1>:F, g2<0;1,0>:F { NoMask }",
        ),
        (
            "zero-strides-width",
            "skl",
            None,
            "mov(8) g10<8;8,1>:F, g2<0;4,0>:F",
            "mov(8) g10<8;8,1>:F, g2<0;1,0>:F",
        ),
        (
            "row-crosses-grf",
            "skl",
            None,
            "mov(8) g10<8;8,1>:F, g2<16;8,2>:F",
            "mov(8) g10<8;8,1>:F, g2<8;4,2>:F",
        ),
        (
            "dst-hstride-zero",
            "skl",
            None,
            "mov(8) g10<0;1,0>:F, g2<8;8,1>:F",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "src-spans-more-than-two-grfs",
            "skl",
            None,
            "mov(16) g10<8;8,1>:F, g2<32;8,4>:F",
            "mov(16) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "dst-spans-more-than-two-grfs",
            "skl",
            None,
            "mov(16) g10<16;8,2>:F, g2<8;8,1>:F",
            "mov(16) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "dst-uneven-split",
            "bdw",
            Some("skl"),
            "mov(8) g10.2<8;8,1>:F, g2<8;8,1>:F",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "dst-uneven-split",
            "skl",
            None,
            "rcp(8) g10.2<8;8,1>:F, g2<8;8,1>:F",
            "rcp(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "dst-oword-split",
            "bdw",
            Some("skl"),
            "mov(4) g10.1<4;4,1>:D, g2.6<2;2,1>:D { NoMask }",
            "mov(4) g10<4;4,1>:D, g2.6<2;2,1>:D { NoMask }",
        ),
        (
            "dst-reg-from-one-src-reg",
            "hsw",
            Some("bdw"),
            "mov(8) g10<16;8,2>:D, g2.6<2;2,1>:D",
            "mov(8) g10<16;8,2>:D, g2<8;4,2>:D",
        ),
        (
            "src-regs-same-offset",
            "hsw",
            Some("bdw"),
            "mov(8) g10<16;8,2>:D, g2.4<4;4,1>:D",
            "mov(8) g10<16;8,2>:D, g2<8;4,2>:D",
        ),
        (
            "src-must-span-two-grfs",
            "hsw",
            Some("bdw"),
            "mov(8) g10<16;8,2>:D, g2<4;4,1>:D",
            "mov(8) g10<16;8,2>:D, g2<8;4,2>:D",
        ),
        (
            "src0-null",
            "skl",
            None,
            "mov(8) g10<8;8,1>:F, null:F",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "src1-null",
            "skl",
            None,
            "add(8) g10<8;8,1>:F, g2<8;8,1>:F, null:F",
            "add(8) g10<8;8,1>:F, g2<8;8,1>:F, 1.0:F",
        ),
        (
            "eot-grf-range",
            "skl",
            Some("g45"),
            "send(8) null:UD, g10<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0) { EOT }",
            "send(8) null:UD, g120<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0) { EOT }",
        ),
        (
            "send-from-non-grf",
            "skl",
            Some("g45"),
            "send(8) null:UD, acc0<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0)",
            "send(8) null:UD, g10<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0)",
        ),
        // Register-indirect addressing (docs/hardware/eu-hardware.md §1.4).
        (
            "indirect-src1",
            "skl",
            None,
            "add(8) g10<8;8,1>:F, g2<8;8,1>:F, g[a0.0]<8;8,1>:F",
            "add(8) g10<8;8,1>:F, g[a0.0]<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "indirect-3src",
            "skl",
            None,
            "mad(8) g10<8;8,1>:F, g[a0.0 + 64]<8;8,1>:F, g4<8;8,1>:F, g6<8;8,1>:F",
            "mad(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F, g6<8;8,1>:F",
        ),
        (
            "send-indirect-src0",
            "skl",
            Some("tgl"),
            "send(8) null:UD, g[a0.0]<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0)",
            "send(8) null:UD, g10<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0)",
        ),
        (
            "mixed-float-indirect-src",
            "skl",
            Some("hsw"),
            "add(8) g10<8;8,1>:F, g[a0.1]<8;8,1>:F, g4<8;8,1>:HF",
            "add(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:HF",
        ),
        (
            "qword-lp-indirect",
            "bxt",
            Some("skl"),
            "add(4) g10<4;4,1>:DF, g[a0.0]<4;4,1>:DF, g6<4;4,1>:DF { NoMask }",
            "add(4) g10<4;4,1>:DF, g2<4;4,1>:DF, g6<4;4,1>:DF { NoMask }",
        ),
        (
            "xehp-vx1-vxh-float",
            "dg2",
            Some("tgl"),
            "mov(8) g10<8;8,1>:F, g[a0.0]<VxH;1,0>:F",
            "mov(8) g10<8;8,1>:D, g[a0.0]<VxH;1,0>:D",
        ),
        (
            "split-send-src1",
            "skl",
            Some("bdw"),
            "send(8) null:UD, g10<8;8,1>:UD, acc0<8;8,1>:UD desc(untyped_write surface=0 comps=1 mlen=1 ex_mlen=1 rlen=0)",
            "send(8) null:UD, g10<8;8,1>:UD, g12<8;8,1>:UD desc(untyped_write surface=0 comps=1 mlen=1 ex_mlen=1 rlen=0)",
        ),
        (
            "split-send-overlap",
            "skl",
            Some("bdw"),
            "send(8) null:UD, g10<8;8,1>:UD, g10<8;8,1>:UD desc(untyped_write surface=0 comps=1 mlen=1 ex_mlen=1 rlen=0)",
            "send(8) null:UD, g10<8;8,1>:UD, g12<8;8,1>:UD desc(untyped_write surface=0 comps=1 mlen=1 ex_mlen=1 rlen=0)",
        ),
        (
            "r127-send-overlap",
            "skl",
            Some("icl"),
            "send(8) g126<8;8,1>:UD, g126<8;8,1>:UD, null:UD desc(untyped_read surface=0 comps=2 mlen=1 ex_mlen=0 rlen=2)",
            "send(8) g120<8;8,1>:UD, g126<8;8,1>:UD, null:UD desc(untyped_read surface=0 comps=2 mlen=1 ex_mlen=0 rlen=2)",
        ),
        (
            "byte-src1",
            "icl",
            Some("skl"),
            "add(8) g10<8;8,1>:W, g2<8;8,1>:W, g3<8;8,1>:B",
            "add(8) g10<8;8,1>:W, g2<8;8,1>:W, g3<8;8,1>:W",
        ),
        (
            "byte-src12-3src",
            "icl",
            Some("skl"),
            "mad(8) g10<8;8,1>:W, g2<8;8,1>:W, g3<8;8,1>:B, g4<8;8,1>:W",
            "mad(8) g10<8;8,1>:W, g2<8;8,1>:W, g3<8;8,1>:W, g4<8;8,1>:W",
        ),
        (
            "df-dst-unsupported",
            "icl",
            Some("skl"),
            "mov(4) g10<4;4,1>:DF, g2<4;4,1>:DF { NoMask }",
            "mov(4) g10<4;4,1>:F, g2<4;4,1>:F { NoMask }",
        ),
        (
            "df-src-unsupported",
            "icl",
            Some("skl"),
            "mov(4) g10<8;4,2>:F, g2<4;4,1>:DF { NoMask }",
            "mov(4) g10<4;4,1>:F, g2<4;4,1>:F { NoMask }",
        ),
        (
            "q-dst-unsupported",
            "hsw",
            Some("bdw"),
            "mov(4) g10<4;4,1>:Q, g2<4;4,1>:Q { NoMask }",
            "mov(4) g10<4;4,1>:D, g2<4;4,1>:D { NoMask }",
        ),
        (
            "q-src-unsupported",
            "hsw",
            Some("bdw"),
            "mov(4) g10<8;4,2>:D, g2<4;4,1>:Q { NoMask }",
            "mov(4) g10<4;4,1>:D, g2<4;4,1>:D { NoMask }",
        ),
        (
            "invalid-dst-type-encoding",
            "skl",
            Some("bdw"),
            "mov(8) g10<8;8,1>:VF, g2<8;8,1>:F",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "invalid-src-type-encoding",
            "skl",
            Some("bdw"),
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:VF",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "invalid-type-encoding",
            "hsw",
            Some("skl"),
            "add(8) g10<16;8,2>:HF, g2<16;8,2>:HF, g4<16;8,2>:HF",
            "add(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            "packed-byte-dst",
            "skl",
            None,
            "add(8) g10<32;8,1>:B, g2<16;8,2>:B, 1:W",
            "mov(8) g10<32;8,1>:B, g2<16;8,2>:B",
        ),
        (
            "byte-64bit-conversion",
            "skl",
            None,
            "mov(4) g10<32;4,8>:UB, g2<4;4,1>:DF { NoMask }",
            "mov(4) g10<8;4,2>:F, g2<4;4,1>:DF { NoMask }",
        ),
        (
            "hf-64bit-conversion",
            "skl",
            None,
            "mov(4) g10<16;4,4>:HF, g2<4;4,1>:DF { NoMask }",
            "mov(4) g10<8;4,2>:F, g2<4;4,1>:DF { NoMask }",
        ),
        (
            "int-hf-dst-stride",
            "skl",
            None,
            "mov(8) g10<8;8,1>:HF, g2<8;8,1>:D",
            "mov(8) g10<16;8,2>:HF, g2<8;8,1>:D",
        ),
        (
            "int-hf-dst-align",
            "skl",
            None,
            "mov(8) g10.1<16;8,2>:HF, g2<8;8,1>:D",
            "mov(8) g10<16;8,2>:HF, g2<8;8,1>:D",
        ),
        (
            "hf-dst-word-alignment",
            "skl",
            Some("bdw"),
            "mov(8) g10<32;8,4>:HF, g2<8;8,1>:F",
            "mov(8) g10<8;8,1>:HF, g2<8;8,1>:F",
        ),
        (
            "dst-stride-exec-ratio",
            "skl",
            None,
            "mov(8) g10<8;8,1>:W, g2<8;8,1>:D",
            "mov(8) g10<16;8,2>:W, g2<8;8,1>:D",
        ),
        (
            "dst-stride-exec-ratio",
            "bdw",
            None,
            "mov(8) g10<8;8,1>:W, g2<8;8,1>:D",
            "mov(8) g10<16;8,2>:W, g2<8;8,1>:D",
        ),
        (
            "dst-subreg-exec-align-byte",
            "bdw",
            None,
            "mov(8) g10.2<32;8,4>:B, g2<8;8,1>:D",
            "mov(8) g10.1<32;8,4>:B, g2<8;8,1>:D",
        ),
        (
            "dst-subreg-exec-align-byte",
            "skl",
            None,
            "mov(8) g10.2<32;8,4>:B, g2<8;8,1>:D",
            "mov(8) g10.1<32;8,4>:B, g2<8;8,1>:D",
        ),
        (
            "dst-subreg-exec-align",
            "skl",
            None,
            "mov(8) g10.1<16;8,2>:W, g2<8;8,1>:D",
            "mov(8) g10<16;8,2>:W, g2<8;8,1>:D",
        ),
        (
            "mixed-float-f-dst-simd8",
            "skl",
            Some("hsw"),
            "add(16) g10<8;8,1>:F, g2<8;8,1>:F, g4<16;16,1>:HF",
            "add(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:HF",
        ),
        // The elk variants (Gen8: a MOV is limited too, and mixed float is exempt from the
        // narrowing rules only on CHV).
        (
            "mixed-float-f-dst-simd8",
            "bdw",
            Some("hsw"),
            "mov(16) g10<8;8,1>:F, g4<16;16,1>:HF",
            "mov(8) g10<8;8,1>:F, g4<8;8,1>:HF",
        ),
        (
            "mixed-float-packed-hf-simd8",
            "chv",
            Some("hsw"),
            "mov(16) g10<16;16,1>:HF, g4<8;8,1>:F",
            "mov(8) g10<8;8,1>:HF, g4<8;8,1>:F",
        ),
        (
            "mixed-float-packed-hf-simd8",
            "skl",
            Some("hsw"),
            "add(16) g10<16;16,1>:HF, g2<16;16,1>:HF, g4<8;8,1>:F",
            "add(8) g10<8;8,1>:HF, g2<8;8,1>:HF, g4<8;8,1>:F",
        ),
        (
            "mixed-math-strided-hf",
            "skl",
            Some("hsw"),
            "rcp(8) g10<8;8,1>:F, g2<8;8,1>:HF",
            "rcp(8) g10<8;8,1>:F, g2<16;8,2>:HF",
        ),
        (
            "mixed-packed-hf-oword-aligned",
            "skl",
            Some("hsw"),
            "add(8) g10.4<8;8,1>:HF, g2<8;8,1>:HF, g4<8;8,1>:F",
            "add(8) g10<8;8,1>:HF, g2<8;8,1>:HF, g4<8;8,1>:F",
        ),
        (
            "mixed-packed-hf-max-simd8",
            "skl",
            Some("hsw"),
            "mov(16) g10<16;16,1>:HF, g2<8;8,1>:F",
            "mov(8) g10<8;8,1>:HF, g2<8;8,1>:F",
        ),
        (
            "mixed-acc-register-aligned",
            "skl",
            Some("hsw"),
            "add(8) g10<8;8,1>:HF, acc0.1<8;8,1>:F, g4<8;8,1>:HF",
            "add(8) g10<16;8,2>:HF, acc0<8;8,1>:F, g4<8;8,1>:HF",
        ),
        (
            "mixed-acc-hf-dst-stride",
            "skl",
            Some("hsw"),
            "add(8) g10<8;8,1>:HF, acc0<8;8,1>:F, g4<8;8,1>:HF",
            "add(8) g10<16;8,2>:HF, acc0<8;8,1>:F, g4<8;8,1>:HF",
        ),
        (
            "qword-lp-stride",
            "bxt",
            Some("skl"),
            "add(4) g10<8;4,2>:DF, g2<4;4,1>:DF, g6<4;4,1>:DF { NoMask }",
            "add(4) g10<4;4,1>:DF, g2<4;4,1>:DF, g6<4;4,1>:DF { NoMask }",
        ),
        (
            "qword-lp-vstride",
            "bxt",
            Some("skl"),
            "add(4) g10<4;4,1>:DF, g2<4;4,1>:DF, g6<4;2,1>:DF { NoMask }",
            "add(4) g10<4;4,1>:DF, g2<4;4,1>:DF, g6<4;4,1>:DF { NoMask }",
        ),
        (
            "qword-lp-offset",
            "bxt",
            Some("skl"),
            "add(2) g10<2;2,1>:DF, g2.1<2;2,1>:DF, g6<2;2,1>:DF { NoMask }",
            "add(2) g10.1<2;2,1>:DF, g2.1<2;2,1>:DF, g6.1<2;2,1>:DF { NoMask }",
        ),
        (
            "qword-lp-arf",
            "bxt",
            Some("skl"),
            "add(4) g10<4;4,1>:DF, g2<4;4,1>:DF, g6<4;4,1>:DF { NoMask AccWrEnable }",
            "add(4) g10<4;4,1>:DF, g2<4;4,1>:DF, g6<4;4,1>:DF { NoMask }",
        ),
        (
            "xehp-lsb-move",
            "dg2",
            Some("tgl"),
            "mov(8) g10<8;8,1>:F, g2<8;4,2>:F",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "xehp-explicit-arf",
            "dg2",
            Some("tgl"),
            "mov(8) g10<8;8,1>:F, tm0<0;1,0>:F",
            "mov(8) g10<8;8,1>:F, acc0<8;8,1>:F",
        ),
        (
            "mul-dw-lower-precision-modifier",
            "tgl",
            Some("skl"),
            "mul(8) g10<8;8,1>:D, g2<8;8,1>:D, -g4<16;8,2>:W",
            "mul(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<16;8,2>:W",
        ),
        (
            "cmp-needs-cmod",
            "skl",
            None,
            "cmp(8) null:F, g2<8;8,1>:F, g4<8;8,1>:F",
            "cmp.l.f0.0(8) null:F, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            "cmp-acc-dst",
            "hsw",
            Some("bdw"),
            "cmp.l.f0.0(8) acc0<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
            "cmp.l.f0.0(8) null:F, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            "sel-pred-xor-cmod",
            "skl",
            Some("g45"),
            "sel(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
            "sel.ge(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            "sel-cmod-gen4",
            "g45",
            Some("skl"),
            "(+f0.0) sel.ge(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
            "(+f0.0) sel(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            "sel-pred-gen4",
            "g45",
            Some("skl"),
            "sel(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
            "(+f0.0) sel(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            "mul-float-int-mix",
            "skl",
            Some("bdw"),
            "mul(8) g10<8;8,1>:F, g2<8;8,1>:D, g4<8;8,1>:F",
            "mul(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            "mul-int-acc-src",
            "skl",
            Some("hsw"),
            "mul(8) g10<8;8,1>:D, acc0<8;8,1>:D, g4<16;8,2>:W",
            "mul(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<16;8,2>:W",
        ),
        (
            "mul-int-acc-src",
            "bdw",
            Some("hsw"),
            "mul(8) g10<8;8,1>:D, acc0<8;8,1>:D, g4<16;8,2>:W",
            "mul(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<16;8,2>:W",
        ),
        (
            "mul-acc-src",
            "hsw",
            Some("bdw"),
            "mul(8) g10<8;8,1>:F, acc0<8;8,1>:F, g4<8;8,1>:F",
            "mul(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            "mul-dw-src0",
            "skl",
            Some("g45"),
            "mul(8) g10<8;8,1>:D, g2<16;8,2>:W, g4<8;8,1>:D",
            "mul(8) g10<8;8,1>:D, g4<8;8,1>:D, g2<16;8,2>:W",
        ),
        (
            "mul-float-dst-dword-src",
            "hsw",
            Some("bdw"),
            "mul(8) g10<8;8,1>:F, g2<8;8,1>:D, g4<8;8,1>:D",
            "mul(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<16;8,2>:W",
        ),
        (
            "mul-dwxdw-acc-dst",
            "bdw",
            Some("skl"),
            "mul(8) acc0<8;8,1>:D, g2<8;8,1>:D, g4<8;8,1>:D",
            "mul(8) acc0<8;8,1>:D, g2<8;8,1>:D, g4<16;8,2>:UW",
        ),
        (
            "dw-mul-sat-cmod",
            "skl",
            None,
            "mul.sat(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<16;8,2>:W",
            "mul(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<16;8,2>:W",
        ),
        (
            "int-div-modifiers",
            "skl",
            None,
            "int_quot(8) g10<8;8,1>:D, -g2<8;8,1>:D, g4<8;8,1>:D",
            "int_quot(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<8;8,1>:D",
        ),
        (
            "logic-abs",
            "skl",
            Some("hsw"),
            "and(8) g10<8;8,1>:UD, (abs)g2<8;8,1>:UD, g4<8;8,1>:UD",
            "and(8) g10<8;8,1>:UD, g2<8;8,1>:UD, g4<8;8,1>:UD",
        ),
        (
            "logic-acc-modifier",
            "skl",
            Some("hsw"),
            "and(8) g10<8;8,1>:UD, -acc0<8;8,1>:UD, g4<8;8,1>:UD",
            "and(8) g10<8;8,1>:UD, acc0<8;8,1>:UD, g4<8;8,1>:UD",
        ),
        (
            "logic-cmod-oru",
            "skl",
            None,
            "and.o.f0.0(8) g10<8;8,1>:UD, g2<8;8,1>:UD, g4<8;8,1>:UD",
            "and.z.f0.0(8) g10<8;8,1>:UD, g2<8;8,1>:UD, g4<8;8,1>:UD",
        ),
        (
            "cmod-simd32-gen7",
            "hsw",
            Some("bdw"),
            "add.z.f0.0(32) g10<16;16,1>:UW, g2<16;16,1>:UW, g4<16;16,1>:UW { NoMask }",
            "add(32) g10<16;16,1>:UW, g2<16;16,1>:UW, g4<16;16,1>:UW { NoMask }",
        ),
        (
            "cmod-simd32-3src",
            "bdw",
            Some("tgl"),
            "mad.z.f0.0(32) g10<16;16,1>:HF, g2<16;16,1>:HF, g4<16;16,1>:HF, g6<16;16,1>:HF",
            "mad.z.f0.0(16) g10<16;16,1>:HF, g2<16;16,1>:HF, g4<16;16,1>:HF, g6<16;16,1>:HF",
        ),
        (
            "bfi2-cmod",
            "skl",
            None,
            "bfi2.z.f0.0(8) g10<8;8,1>:UD, g2<8;8,1>:UD, g4<8;8,1>:UD, g6<8;8,1>:UD",
            "bfi2(8) g10<8;8,1>:UD, g2<8;8,1>:UD, g4<8;8,1>:UD, g6<8;8,1>:UD",
        ),
        (
            "bfi2-sat",
            "skl",
            None,
            "bfi2.sat(8) g10<8;8,1>:UD, g2<8;8,1>:UD, g4<8;8,1>:UD, g6<8;8,1>:UD",
            "bfi2(8) g10<8;8,1>:UD, g2<8;8,1>:UD, g4<8;8,1>:UD, g6<8;8,1>:UD",
        ),
        (
            "bfi2-dst-type",
            "skl",
            None,
            "bfi2(8) g10<8;8,1>:W, g2<8;8,1>:W, g4<8;8,1>:W, g6<8;8,1>:W",
            "bfi2(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<8;8,1>:D, g6<8;8,1>:D",
        ),
        (
            "bfi2-src-type",
            "skl",
            None,
            "bfi2(8) g10<8;8,1>:UD, g2<8;8,1>:D, g4<8;8,1>:UD, g6<8;8,1>:UD",
            "bfi2(8) g10<8;8,1>:UD, g2<8;8,1>:UD, g4<8;8,1>:UD, g6<8;8,1>:UD",
        ),
        (
            "avg-float",
            "skl",
            Some("bdw"),
            "avg(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
            "avg(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<8;8,1>:D",
        ),
        (
            "avg-64bit",
            "skl",
            Some("bdw"),
            "avg(4) g10<4;4,1>:Q, g2<4;4,1>:Q, g6<4;4,1>:Q { NoMask }",
            "avg(4) g10<4;4,1>:D, g2<4;4,1>:D, g6<4;4,1>:D { NoMask }",
        ),
        (
            "add-float-int-mix",
            "skl",
            Some("bdw"),
            "add(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:D",
            "add(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            "3src-align16-imm",
            "skl",
            Some("icl"),
            "mad(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F, 1.0:F",
            "mad(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F, g6<8;8,1>:F",
        ),
        (
            "3src-align16-region",
            "skl",
            Some("icl"),
            "mad(8) g10<8;8,1>:F, g2<16;8,2>:F, g4<8;8,1>:F, g6<8;8,1>:F",
            "mad(8) g10<8;8,1>:F, g2<0;1,0>:F, g4<8;8,1>:F, g6<8;8,1>:F",
        ),
        (
            "3src-simd16",
            "ivb",
            Some("hsw"),
            "mad(16) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F, g6<8;8,1>:F",
            "mad(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F, g6<8;8,1>:F",
        ),
        (
            "3src-src1-imm",
            "icl",
            Some("skl"),
            "mad(8) g10<8;8,1>:F, g2<8;8,1>:F, 1.0:HF, g6<8;8,1>:F",
            "mad(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F, g6<8;8,1>:F",
        ),
        (
            "3src-two-imm",
            "icl",
            Some("skl"),
            "mad(8) g10<8;8,1>:HF, 1.0:HF, g4<8;8,1>:HF, 2.0:HF",
            "mad(8) g10<8;8,1>:HF, 1.0:HF, g4<8;8,1>:HF, g6<8;8,1>:HF",
        ),
        (
            "3src-imm-16bit",
            "icl",
            Some("skl"),
            "mad(8) g10<8;8,1>:F, 1.0:F, g4<8;8,1>:F, g6<8;8,1>:F",
            "mad(8) g10<8;8,1>:F, 1.0:HF, g4<8;8,1>:F, g6<8;8,1>:F",
        ),
        (
            "3src-dst-hstride",
            "icl",
            Some("skl"),
            "mad(8) g10<32;8,4>:F, g2<8;8,1>:F, g4<8;8,1>:F, g6<8;8,1>:F",
            "mad(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F, g6<8;8,1>:F",
        ),
        (
            "logical-opcode",
            "skl",
            None,
            "mulh(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<8;8,1>:D",
            "mul(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<16;8,2>:W",
        ),
        (
            "unsupported-instruction",
            "skl",
            Some("dg2"),
            "add3(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<8;8,1>:D, g6<8;8,1>:D",
            "add(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<8;8,1>:D",
        ),
        (
            "unsupported-instruction",
            "g45",
            Some("hsw"),
            "rcp(8) g10<8;8,1>:F, g2<8;8,1>:F",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "vector-imm-dst-align",
            "skl",
            None,
            "mov(8) g10.2<8;8,1>:F, [1.0, 2.0, 0.5, 0.25]:VF",
            "mov(8) g10<8;8,1>:F, [1.0, 2.0, 0.5, 0.25]:VF",
        ),
        (
            "vf-dst-stride",
            "skl",
            None,
            "mov(8) g10<16;8,2>:F, [1.0, 2.0, 0.5, 0.25]:VF",
            "mov(8) g10<8;8,1>:F, [1.0, 2.0, 0.5, 0.25]:VF",
        ),
        (
            // docs/hardware/brw-backend.md §10.3 #2; legal where the opcode takes a modifier.
            "cmod-not-supported",
            "skl",
            None,
            "fbl.ge.f0.0(8) g10<8;8,1>:UD, g2<8;8,1>:UD",
            "fbl(8) g10<8;8,1>:UD, g2<8;8,1>:UD",
        ),
        (
            "cmod-not-supported",
            "hsw",
            None,
            "cbit.z.f0.0(8) g10<8;8,1>:UD, g2<8;8,1>:UD",
            "add.z.f0.0(8) g10<8;8,1>:UD, g2<8;8,1>:UD, g4<8;8,1>:UD",
        ),
        (
            // docs/hardware/eu-hardware.md §3.3; not applicable to one-source instructions (see below).
            "imm-src0-two-source",
            "skl",
            None,
            "add(8) g10<8;8,1>:F, 1.0:F, g2<8;8,1>:F",
            "add(8) g10<8;8,1>:F, g2<8;8,1>:F, 1.0:F",
        ),
        (
            "imm-src0-two-source",
            "hsw",
            None,
            "cmp.l.f0.0(8) null:D, 3:D, g2<8;8,1>:D",
            "cmp.g.f0.0(8) null:D, g2<8;8,1>:D, 3:D",
        ),
        (
            "imm-64bit-multi-source",
            "skl",
            None,
            "add(4) g10<4;4,1>:DF, g2<4;4,1>:DF, 1.0:DF { NoMask }",
            "mov(4) g10<4;4,1>:DF, 1.0:DF { NoMask }",
        ),
        (
            "send-payload-subreg",
            "skl",
            None,
            "send(8) null:UD, g120.4<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0) { EOT }",
            "send(8) null:UD, g120<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0) { EOT }",
        ),
        (
            // docs/hardware/eu-hardware.md §6.3: the reply is rlen whole registers.
            "send-response-subreg",
            "skl",
            None,
            "send(8) g20.8<8;8,1>:UD, g10<8;8,1>:UD, null:UD desc(untyped_read surface=0 comps=1 mlen=1 ex_mlen=0 rlen=1)",
            "send(8) g20<8;8,1>:UD, g10<8;8,1>:UD, null:UD desc(untyped_read surface=0 comps=1 mlen=1 ex_mlen=0 rlen=1)",
        ),
        (
            // docs/hardware/brw-backend.md §1.7, §4.1 rule 7: not a restriction from Gen8 on.
            "simd32-masked-pre-gen8",
            "ivb",
            Some("bdw"),
            "mov(32) g10<8;8,1>:UW, g2<8;8,1>:UW",
            "mov(32) g10<8;8,1>:UW, g2<8;8,1>:UW { NoMask }",
        ),
        (
            // docs/hardware/eu-hardware.md §6.4: mixed float is exempt only on CHV among Gen4–8 parts.
            "dst-subreg-exec-align",
            "bdw",
            Some("chv"),
            "add(8) g10.1<16;8,2>:HF, g2<8;8,1>:F, g4<8;8,1>:F",
            "add(8) g10<16;8,2>:HF, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            // docs/hardware/eu-hardware.md §5.1, §6.9: no DepCtrl on 64-bit operations on CHV/BXT/GLK.
            "qword-lp-depctrl",
            "chv",
            Some("bdw"),
            "mov(4) g10<4;4,1>:DF, g2<4;4,1>:DF { NoMask NoDDClr }",
            "mov(4) g10<4;4,1>:DF, g2<4;4,1>:DF { NoMask }",
        ),
        (
            "qword-lp-depctrl",
            "bxt",
            Some("skl"),
            "mov(4) g10<4;4,1>:DF, g2<4;4,1>:DF { NoMask NoDDChk }",
            "mov(4) g10<4;4,1>:DF, g2<4;4,1>:DF { NoMask }",
        ),
        (
            // docs/hardware/eu-hardware.md §0.1: Gfx12 has SWSB instead of the DepCtrl bits.
            "depctrl-gfx12",
            "tgl",
            Some("skl"),
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F { NoDDClr NoDDChk }",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            // docs/hardware/eu-hardware.md §6.10, §7.3: ADD3 (Gfx12.5) is integer D/UD/W/UW only.
            "add3-dst-type",
            "dg2",
            Some("tgl"),
            "add3(8) g10<8;8,1>:F, g2<8;8,1>:D, g4<8;8,1>:D, g6<8;8,1>:D",
            "add3(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<8;8,1>:D, g6<8;8,1>:D",
        ),
        (
            "add3-src-type",
            "dg2",
            Some("tgl"),
            "add3(8) g10<8;8,1>:D, g2<32;8,4>:B, g4<8;8,1>:D, g6<8;8,1>:D",
            "add3(8) g10<8;8,1>:D, g2<16;8,2>:W, g4<8;8,1>:D, g6<8;8,1>:D",
        ),
        (
            // docs/hardware/eu-hardware.md §3.3: ADD3 immediates must be W/UW.
            "add3-imm-type",
            "dg2",
            Some("tgl"),
            "add3(8) g10<8;8,1>:D, 1:D, g4<8;8,1>:D, g6<8;8,1>:D",
            "add3(8) g10<8;8,1>:D, 1:W, g4<8;8,1>:D, g6<8;8,1>:D",
        ),
        // Align16 (docs/hardware/eu-hardware.md §1.3, §5.2, §6.1, §6.5, §6.6, §6.9; docs/hardware/fp64-align16.md §10.5)
        (
            "align16-gfx11",
            "icl",
            Some("skl"),
            "mov(8) g10:F, g2<4>.xyzw:F { Align16 }",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        (
            "align16-dst-hstride",
            "skl",
            None,
            "mov(8) g10<8;8,2>:F, g2<4>.xyzw:F { Align16 }",
            "mov(8) g10:F, g2<4>.zwxy:F { Align16 }",
        ),
        (
            "align16-vstride",
            "hsw",
            None,
            "mov(8) g10:F, g2<8>.xyzw:F { Align16 }",
            "mov(8) g10.xz:F, g2<0>.xyzw:F { Align16 }",
        ),
        (
            "align16-vstride",
            "ivb",
            Some("hsw"),
            "mov(8) g10:F, g2<2>.xyzw:F { Align16 }",
            "mov(8) g10:F, g2<4>.xyzw:F { Align16 }",
        ),
        (
            "align16-subreg-unit",
            "skl",
            None,
            "mov(4) g10:F, g2.1<4>.xyzw:F { Align16 }",
            "mov(4) g10.4:F, g2.4<4>.xyzw:F { Align16 }",
        ),
        (
            "mixed-float-align16-vstride",
            "bdw",
            None,
            "add(8) g10:F, g2<0>.xyzw:HF, g4<4>.xyzw:F { Align16 }",
            "add(8) g10:F, g2<4>.xyzw:HF, g4<4>.xyzw:F { Align16 }",
        ),
        (
            "mixed-float-align16-simd8",
            "bdw",
            None,
            "add(16) g10:F, g2<4>.xyzw:HF, g4<4>.xyzw:F { Align16 }",
            "add(8) g10:F, g2<4>.xyzw:HF, g4<4>.xyzw:F { Align16 }",
        ),
        (
            "mixed-float-align16-acc",
            "bdw",
            None,
            "add(8) g10:F, acc0<4;4,1>.xyzw:HF, g4<4>.xyzw:F { Align16 }",
            "add(8) g10:F, g2<4>.xyzw:HF, g4<4>.xyzw:F { Align16 }",
        ),
        (
            "align16-qword-exec-size",
            "bdw",
            Some("hsw"),
            "mov(4) g10:DF, g2<4>.xyzw:F { Align16 }",
            "mov(2) g10:DF, g2<4>.xyzw:F { Align16 }",
        ),
        (
            "3src-repctrl-64bit",
            "hsw",
            None,
            "mad(4) g10:DF, g2<0>.xyzw:DF, g4<4>.xyzw:DF, g6<4>.xyzw:DF { Align16 }",
            "mad(4) g10:DF, g2<4>.xyzw:DF, g4<4>.xyzw:DF, g6<4>.xyzw:DF { Align16 }",
        ),
        (
            "df-align16-swizzle-pair",
            "hsw",
            None,
            "mov(4) g10:DF, g2<4>.yxzw:DF { Align16 }",
            "mov(4) g10:DF, g2<4>.zwxy:DF { Align16 }",
        ),
        (
            "df-align16-row-crosses-grf",
            "hsw",
            None,
            "mov(4) g10:DF, g2.2<4>.xyzw:DF { Align16 }",
            "mov(4) g10:DF, g2.2<0>.xyzw:DF { Align16 }",
        ),
        (
            "align16-src-must-span-two-grfs",
            "hsw",
            Some("bdw"),
            "mov(8) g10:DF, g2<4>.xyzw:F { Align16 }",
            "mov(8) g10:DF, g2.2<0>.xyzw:DF { Align16 }",
        ),
        (
            "depctrl-64bit",
            "hsw",
            Some("skl"),
            "mov(4) g10:DF, g2<4>.xyzw:DF { NoDDClr Align16 }",
            "mov(4) g10:F, g2<4>.xyzw:F { NoDDClr Align16 }",
        ),
        (
            "ivb-align16-exec-size",
            "ivb",
            Some("hsw"),
            "mov(8) g10:DF, g2<4>.xyzw:DF { Align16 }",
            "mov(4) g10:DF, g2<4>.xyzw:DF { 2N Align16 }",
        ),
        (
            "df-align16-writemask-xy-zw",
            "hsw",
            None,
            "mov(4) g10.zw:DF, g2<4>.xyzw:DF { Align16 }",
            "mov(4) g10.xz:DF, g2<4>.xyzw:DF { Align16 }",
        ),
        (
            "df-align16-sel-exec8",
            "hsw",
            Some("bdw"),
            "(+f0.0) sel(8) g10:DF, g2<4>.xyzw:DF, g4<4>.xyzw:DF { Align16 }",
            "(+f0.0) sel(4) g10:DF, g2<4>.xyzw:DF, g4<4>.xyzw:DF { Align16 }",
        ),
        (
            "v-dst-stride",
            "skl",
            None,
            "mov(8) g10<8;8,1>:D, 0x76543210:V",
            "mov(8) g10<16;8,1>:W, 0x76543210:V",
        ),
    ]
}

#[test]
fn every_rule_breaks_and_passes_where_it_should() {
    let mut failures = vec![];
    for (rule, dev, other, bad, good) in cases() {
        let got = rules(dev, bad);
        if !got.contains(&rule) {
            failures.push(format!(
                "{rule} on {dev}: not reported for `{bad}` (got {got:?})"
            ));
        }
        let legal = rules(dev, good);
        if !legal.is_empty() {
            failures.push(format!("{rule} on {dev}: legal `{good}` reports {legal:?}"));
        }
        if let Some(o) = other {
            let got = rules(o, bad);
            if got.contains(&rule) {
                failures.push(format!("{rule}: reported on {o}, where it does not apply"));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Every rule in the table, each family's variant of a check included, has a case on a device
/// that evaluates that very rule (a variant shares its check's name).
#[test]
fn every_rule_has_a_case() {
    let cases = cases();
    let covered: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let missing: Vec<_> = all_rule_names()
        .into_iter()
        .filter(|r| !covered.contains(r))
        .collect();
    assert!(missing.is_empty(), "rules without a test case: {missing:?}");
    let evaluates = |device: &str, id: &str| {
        strict::rules(Device::from_name(device).unwrap()).any(|r| r.id == id)
    };
    let mut uncovered: Vec<&str> = ALL_DEVICES
        .into_iter()
        .flat_map(strict::rules)
        .filter(|rule| {
            !cases
                .iter()
                .any(|c| c.0 == rule.name && evaluates(c.1, rule.id))
        })
        .map(|rule| rule.id)
        .collect();
    uncovered.sort_unstable();
    uncovered.dedup();
    assert!(
        uncovered.is_empty(),
        "rules without a case on a device that evaluates them: {uncovered:?}"
    );
}

#[test]
fn a_broken_restriction_makes_the_destination_undefined() {
    use compiler::inputs::Inputs;
    use oracle::{RunConfig, run_inspect};
    let text = "eu 1\ntarget skl\ndispatch 8\nSTART B0\n    mov(8) g20<8;8,1>:F, 1.0:F\n    mov(8) g21<8;8,1>:F, g20<16;8,2>:F\nEND B0\n";
    let p = parse_program(text).unwrap();
    let (r, regs) = run_inspect(
        &p,
        &Inputs::default(),
        &RunConfig {
            strict: true,
            fuel: 1000,
            ..RunConfig::default()
        },
    );
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.rule.as_deref() == Some("row-crosses-grf") && d.ip == 1)
    );
    let (g20, d20) = regs[0].grf(20, 1);
    assert!(d20.iter().all(|&x| x == 1) && g20[..4] == 1.0f32.to_le_bytes());
    assert!(regs[0].grf(21, 1).1.iter().all(|&x| x == 0));
}

/// Rules that must stay silent where they do not apply (a third case next to the
/// violating/legal pair above, for rules that exist on every part).
#[test]
fn new_rules_are_not_applicable_elsewhere() {
    for (rule, dev, text) in [
        // One-source instructions take any immediate in src0, 64-bit ones too.
        ("imm-src0-two-source", "skl", "mov(8) g10<8;8,1>:F, 1.0:F"),
        (
            "imm-64bit-multi-source",
            "skl",
            "mov(4) g10<4;4,1>:Q, 0x100000000:Q { NoMask }",
        ),
        // A one-source math function ignores its (null) second source.
        (
            "imm-src0-two-source",
            "skl",
            "rcp(8) g10<8;8,1>:F, g2<8;8,1>:F",
        ),
        // Only SEND payloads are register-aligned; ALU sources may start anywhere.
        (
            "send-payload-subreg",
            "skl",
            "mov(4) g10<4;4,1>:UD, g2.4<4;4,1>:UD { NoMask }",
        ),
        // Only a SEND's reply is register-aligned; ALU destinations may start anywhere.
        (
            "send-response-subreg",
            "skl",
            "mov(4) g10.4<4;4,1>:UD, g2<4;4,1>:UD { NoMask }",
        ),
        // Control flow is not split by width lowering.
        ("simd32-masked-pre-gen8", "ivb", "endif(32)"),
        (
            "cmod-not-supported",
            "skl",
            "add.ge.f0.0(8) g10<8;8,1>:F, g2<8;8,1>:F, 1.0:F",
        ),
        // ADD3 is no instruction before Gfx12.5 (unsupported-instruction says so there).
        (
            "add3-imm-type",
            "tgl",
            "add3(8) g10<8;8,1>:D, 1:D, g4<8;8,1>:D, g6<8;8,1>:D",
        ),
        // DepCtrl on a 32-bit operation is fine on the low-power parts.
        (
            "qword-lp-depctrl",
            "chv",
            "mov(8) g10<8;8,1>:F, g2<8;8,1>:F { NoDDClr NoDDChk }",
        ),
    ] {
        let got = rules(dev, text);
        assert!(
            !got.contains(&rule),
            "{rule} reported for `{text}` on {dev}"
        );
    }
}

/// ExecSize 64 and 128 parse, and a strict run names `invalid-exec-size` rather than only
/// faulting (docs/hardware/eu-hardware.md §1.1: ExecSize codes 6 and 7 are invalid; §6.1).
#[test]
fn wide_exec_sizes_reach_the_strict_rule() {
    use oracle::{RunConfig, run};
    for n in [64, 128] {
        let text = format!(
            "eu 1\ntarget skl\ndispatch 8\nSTART B0\n    mov({n}) g10<8;8,1>:UB, g2<8;8,1>:UB {{ NoMask }}\nEND B0\n"
        );
        let p = parse_program(&text).unwrap();
        let r = run(
            &p,
            &Default::default(),
            &RunConfig {
                strict: true,
                fuel: 100,
                ..RunConfig::default()
            },
        );
        assert!(
            r.diagnostics
                .iter()
                .any(|d| d.rule.as_deref() == Some("invalid-exec-size") && d.ip == 0),
            "ExecSize {n}: {:?}",
            r.diagnostics
        );
    }
}

/// MAC reads the accumulator implicitly (docs/hardware/eu-hardware.md §4), which the 64-bit low-power rules
/// forbid (§5.1: "MAC, AccWrEnable, or non-null ARF src/dst") and the mixed-float HF rule
/// counts as an accumulator source (§6.5).
#[test]
fn mac_is_an_implicit_accumulator_read() {
    let qword = "mac(4) g10<4;4,1>:DF, g2<4;4,1>:DF, g4<4;4,1>:DF { NoMask }";
    assert!(rules("chv", qword).contains(&"qword-lp-arf"));
    assert!(!rules("bdw", qword).contains(&"qword-lp-arf"));
    let mul = "mul(4) g10<4;4,1>:DF, g2<4;4,1>:DF, g4<4;4,1>:DF { NoMask }";
    assert!(!rules("chv", mul).contains(&"qword-lp-arf"));
    let hf = "mac(8) g10<8;8,1>:HF, g2<8;8,1>:F, g4<8;8,1>:F";
    assert!(rules("skl", hf).contains(&"mixed-acc-hf-dst-stride"));
    let hf2 = "mac(8) g10<16;8,2>:HF, g2<8;8,1>:F, g4<8;8,1>:F";
    assert!(!rules("skl", hf2).contains(&"mixed-acc-hf-dst-stride"));
}

/// MAC computes acc + src0 × src1 (docs/hardware/eu-hardware.md §4): 10 + 3 × −4 = −2 in every channel; a
/// float MAC's rounding is not documented, so its result is undefined.
#[test]
fn mac_adds_the_product_to_the_accumulator() {
    use oracle::{RunConfig, run_inspect};
    let run = |body: &str| {
        let text = format!("eu 1\ntarget skl\ndispatch 8\nSTART B0\n{body}\nEND B0\n");
        let p = parse_program(&text).unwrap();
        run_inspect(
            &p,
            &Default::default(),
            &RunConfig {
                strict: true,
                fuel: 100,
                ..RunConfig::default()
            },
        )
    };
    let (r, regs) = run(
        "    mov(8) g2<8;8,1>:D, 3:D\n    mov(8) g4<8;8,1>:D, -4:D\n    mov(8) acc0<8;8,1>:D, 10:D\n    mac(8) g10<8;8,1>:D, g2<8;8,1>:D, g4<8;8,1>:D",
    );
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let (g, d) = regs[0].grf(10, 1);
    assert!(d.iter().all(|&x| x == 1));
    for c in 0..8 {
        assert_eq!(g[4 * c..4 * c + 4], (-2i32).to_le_bytes(), "channel {c}");
    }
    let (_, regs) = run(
        "    mov(8) g2<8;8,1>:F, 3.0:F\n    mov(8) g4<8;8,1>:F, 2.0:F\n    mov(8) acc0<8;8,1>:F, 1.0:F\n    mac(8) g10<8;8,1>:F, g2<8;8,1>:F, g4<8;8,1>:F",
    );
    assert!(regs[0].grf(10, 1).1.iter().all(|&x| x == 0));
}

/// Known answers from docs/hardware/eu-hardware.md for register-indirect operands: their region is
/// encoded in the same fields as a direct operand's (§1.4; both validators decode VertStride,
/// Width and HorzStride, and the destination's HorzStride, whatever the addressing mode), so a
/// rule on strides judges it — one whose stride breaks the rule is reported, one whose stride
/// respects it is not. Only its address is unknown until it runs, so rules on sub-register
/// offsets leave it alone. (Other rules an indirect operand breaks, such as
/// `mixed-float-indirect-src` or `qword-lp-indirect`, may be reported too: each case checks
/// its one rule.)
#[test]
fn indirect_operands_are_judged_by_their_encoded_region() {
    // (rule, device, reported, not reported)
    let cases = [
        // §6.4: execution type D (4 bytes) into a W destination needs stride × 2 = 4.
        (
            "dst-stride-exec-ratio",
            "skl",
            "mov(8) g[a0.0]<1>:W, g2<8;8,1>:D",
            "mov(8) g[a0.0]<2>:W, g2<8;8,1>:D",
        ),
        (
            "dst-stride-exec-ratio",
            "bdw",
            "mov(8) g[a0.0]<1>:W, g2<8;8,1>:D",
            "mov(8) g[a0.0]<2>:W, g2<8;8,1>:D",
        ),
        // §6.4: integer ↔ HF, destination stride × size must be 4.
        (
            "int-hf-dst-stride",
            "skl",
            "mov(8) g[a0.0]<1>:HF, g2<8;8,1>:D",
            "mov(8) g[a0.0]<2>:HF, g2<8;8,1>:D",
        ),
        // §6.4: a packed (stride 1) byte destination only for a raw MOV.
        (
            "packed-byte-dst",
            "skl",
            "add(8) g[a0.0]<1>:B, g2<32;8,4>:B, g4<32;8,4>:B",
            "add(8) g[a0.0]<4>:B, g2<32;8,4>:B, g4<32;8,4>:B",
        ),
        // §6.8: VF needs a dword destination stride, V/UV a word one.
        (
            "vf-dst-stride",
            "skl",
            "mov(8) g[a0.0]<2>:F, [1.0, 2.0, 0.5, 0.25]:VF",
            "mov(8) g[a0.0]<1>:F, [1.0, 2.0, 0.5, 0.25]:VF",
        ),
        (
            "v-dst-stride",
            "skl",
            "mov(8) g[a0.0]<2>:W, 0x76543210:V",
            "mov(8) g[a0.0]<1>:W, 0x76543210:V",
        ),
        // §6.5 (Align1): SIMD16 mixed float with a packed HF destination.
        (
            "mixed-float-packed-hf-simd8",
            "skl",
            "add(16) g[a0.0]<1>:HF, g2<8;8,1>:F, g4<8;8,1>:F",
            "add(16) g[a0.0]<2>:HF, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            "mixed-packed-hf-max-simd8",
            "bdw",
            "mov(16) g[a0.0]<1>:HF, g2<8;8,1>:F",
            "mov(16) g[a0.0]<2>:HF, g2<8;8,1>:F",
        ),
        // §6.5: an accumulator source (MAC) and an HF destination need destination stride 2.
        (
            "mixed-acc-hf-dst-stride",
            "skl",
            "mac(8) g[a0.0]<1>:HF, g2<8;8,1>:F, g4<8;8,1>:F",
            "mac(8) g[a0.0]<2>:HF, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        // §6.5 (Align1): mixed-mode math needs HF inputs with HorzStride > 1.
        (
            "mixed-math-strided-hf",
            "skl",
            "sin(8) g10<8;8,1>:F, g[a0.0]<8;8,1>:HF",
            "sin(8) g10<8;8,1>:F, g[a0.0]<16;8,2>:HF",
        ),
        // §5.1 / §6.9 (CHV, BXT, GLK, Align1): source and destination byte strides equal and a
        // multiple of 8, read from an indirect source's and an indirect destination's region.
        (
            "qword-lp-stride",
            "chv",
            "mov(4) g10<4;4,1>:DF, g[a0.0]<8;4,2>:DF { NoMask }",
            "mov(4) g10<4;4,1>:DF, g[a0.0]<4;4,1>:DF { NoMask }",
        ),
        (
            "qword-lp-stride",
            "bxt",
            "mov(4) g[a0.0]<2>:DF, g2<4;4,1>:DF { NoMask }",
            "mov(4) g[a0.0]<1>:DF, g2<4;4,1>:DF { NoMask }",
        ),
        // §5.1: VertStride = Width × HorzStride, for an indirect source too.
        (
            "qword-lp-vstride",
            "glk",
            "mov(4) g10<4;4,1>:DF, g[a0.0]<2;4,1>:DF { NoMask }",
            "mov(4) g10<4;4,1>:DF, g[a0.0]<4;4,1>:DF { NoMask }",
        ),
        // §5.4 (Gfx12.5, float destination): the destination's byte stride as encoded.
        (
            "xehp-lsb-move",
            "dg2",
            "mov(8) g[a0.0]<2>:F, g2<8;8,1>:F",
            "mov(8) g[a0.0]<1>:F, g2<8;8,1>:F",
        ),
    ];
    let mut failures = vec![];
    for (rule, dev, bad, good) in cases {
        let got = rules(dev, bad);
        if !got.contains(&rule) {
            failures.push(format!(
                "{rule} on {dev}: not reported for `{bad}` ({got:?})"
            ));
        }
        let got = rules(dev, good);
        if got.contains(&rule) {
            failures.push(format!("{rule} on {dev}: reported for `{good}` ({got:?})"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// A register-indirect operand's offset is unknown until it runs (docs/hardware/eu-hardware.md §1.4):
/// the rules comparing sub-register offsets (§5.1 offset rule, §5.4 LSB rule, §6.4 and §6.5
/// destination alignment) do not judge it.
#[test]
fn indirect_offsets_are_not_judged() {
    for (rule, dev, text) in [
        (
            "qword-lp-offset",
            "chv",
            "mov(2) g[a0.0]<1>:DF, g2.8<2;2,1>:DF { NoMask }",
        ),
        ("xehp-lsb-move", "dg2", "mov(8) g[a0.0]<1>:F, g2.4<8;8,1>:F"),
        (
            "int-hf-dst-align",
            "skl",
            "mov(8) g[a0.2]<2>:HF, g2<8;8,1>:D",
        ),
        (
            "dst-subreg-exec-align",
            "skl",
            "mov(8) g[a0.1]<2>:W, g2<8;8,1>:D",
        ),
    ] {
        let got = rules(dev, text);
        assert!(
            !got.contains(&rule),
            "{rule} reported for `{text}` on {dev}: {got:?}"
        );
    }
}

/// Rules the documents state for Align1 only do not judge an Align16 instruction, whose
/// destination stride is always 1 and whose sources have only a VertStride
/// (docs/hardware/eu-hardware.md §1.3): the 64-bit low-power regioning rules (§5.1 "regioning in
/// Align1", §6.9), the Align1 mixed-float rows (§6.5, strided HF math inputs among them) and
/// the Align1 integer ↔ HF conversion rows (§6.4). Align16 has its own rows, which do.
#[test]
fn align1_rules_do_not_judge_align16() {
    // (Align1-only rule, device, Align16 instruction, Align1 instruction that breaks it)
    let cases = [
        (
            "qword-lp-stride",
            "chv",
            "mov(2) g10:DF, g2<4>.xyzw:F { NoMask Align16 }",
            "mov(2) g10<2;2,1>:DF, g2<2;2,1>:F { NoMask }",
        ),
        (
            "qword-lp-vstride",
            "bxt",
            "mov(2) g10:DF, g2<0>.xyzw:DF { NoMask Align16 }",
            "mov(2) g10<2;2,1>:DF, g2<0;2,1>:DF { NoMask }",
        ),
        (
            "qword-lp-offset",
            "chv",
            "mov(2) g10.16:DF, g2<4>.xyzw:DF { NoMask Align16 }",
            "mov(2) g10.16<2;2,1>:DF, g2<2;2,1>:DF { NoMask }",
        ),
        (
            "mixed-math-strided-hf",
            "skl",
            "sin(4) g10:F, g2<4>.xyzw:HF { Align16 }",
            "sin(4) g10<4;4,1>:F, g2<4;4,1>:HF",
        ),
        (
            "mixed-acc-hf-dst-stride",
            "skl",
            "mac(4) g10:HF, g2<4>.xyzw:F, g4<4>.xyzw:F { Align16 }",
            "mac(4) g10<4;4,1>:HF, g2<4;4,1>:F, g4<4;4,1>:F",
        ),
        (
            "mixed-float-packed-hf-simd8",
            "skl",
            "add(16) g10:HF, g2<4>.xyzw:F, g4<4>.xyzw:F { Align16 }",
            "add(16) g10<16;16,1>:HF, g2<8;8,1>:F, g4<8;8,1>:F",
        ),
        (
            "mixed-packed-hf-max-simd8",
            "bdw",
            "mov(16) g10:HF, g2<4>.xyzw:F { Align16 }",
            "mov(16) g10<16;16,1>:HF, g2<8;8,1>:F",
        ),
        (
            "int-hf-dst-stride",
            "skl",
            "mov(4) g10:HF, g2<4>.xyzw:D { Align16 }",
            "mov(4) g10<4;4,1>:HF, g2<4;4,1>:D",
        ),
    ];
    let mut failures = vec![];
    for (rule, dev, align16, align1) in cases {
        let got = rules(dev, align16);
        if got.contains(&rule) {
            failures.push(format!(
                "{rule} on {dev}: judged Align16 `{align16}` ({got:?})"
            ));
        }
        let got = rules(dev, align1);
        if !got.contains(&rule) {
            failures.push(format!(
                "{rule} on {dev}: not reported for Align1 `{align1}` ({got:?})"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    // Align16 mixed float keeps its own rows (§6.5): SIMD8, no accumulator read.
    assert!(
        rules(
            "skl",
            "add(16) g10:HF, g2<4>.xyzw:F, g4<4>.xyzw:F { Align16 }"
        )
        .contains(&"mixed-float-align16-simd8")
    );
    assert!(
        rules(
            "skl",
            "mac(4) g10:HF, g2<4>.xyzw:F, g4<4>.xyzw:F { Align16 }"
        )
        .contains(&"mixed-float-align16-acc")
    );
}

/// docs/hardware/brw-backend.md §1.8: the logical operations and the spill/fill pseudo-operations have no
/// hardware instruction, on any part, and compiled code must not contain them; the operations
/// Mesa's generator expands (math functions, SEND, BROADCAST, FIND_LIVE_CHANNEL, control flow)
/// are hardware code.
#[test]
fn virtual_opcodes_are_rejected_on_every_device() {
    use compiler::reg::{Reg, Region};
    use compiler::{Opcode, Type};
    let g = |nr: u16, ty: Type| Reg::grf(nr, 0, Region::PACKED8, ty);
    let virtual_insts = [
        Inst::new(Opcode::LoadPayload, 8, g(10, Type::F), vec![g(2, Type::F)]),
        Inst::new(
            Opcode::Mulh,
            8,
            g(10, Type::D),
            vec![g(2, Type::D), g(4, Type::D)],
        ),
        Inst::new(
            Opcode::ScratchRead,
            8,
            g(10, Type::UD),
            vec![Reg::imm_ud(64)],
        ),
        Inst::new(
            Opcode::ScratchWrite,
            8,
            Reg::null(Type::UD),
            vec![g(10, Type::UD), Reg::imm_ud(64)],
        ),
        Inst::new(
            Opcode::UntypedReadLogical,
            8,
            g(10, Type::UD),
            vec![g(2, Type::UD), Reg::imm_ud(0), Reg::imm_ud(1)],
        ),
    ];
    for device in ALL_DEVICES {
        for inst in &virtual_insts {
            let got: Vec<_> = check(inst, device).into_iter().map(|r| r.rule).collect();
            assert_eq!(
                got.first(),
                Some(&"logical-opcode"),
                "{:?} on {device:?}",
                inst.op
            );
        }
    }
    for text in [
        "mov(8) g10<8;8,1>:F, g2<8;8,1>:F",
        "rcp(8) g10<8;8,1>:F, g2<8;8,1>:F",
        "find_live_channel(8) g10<0;1,0>:UD { NoMask }",
        "send(8) null:UD, g10<8;8,1>:UD, null:UD desc(rt_write target=0 mlen=4 ex_mlen=0 rlen=0)",
    ] {
        for dev in ["skl", "hsw", "tgl"] {
            assert!(
                !rules(dev, text).contains(&"logical-opcode"),
                "`{text}` on {dev}"
            );
        }
    }
}
