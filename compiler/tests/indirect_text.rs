//! The text form of register-indirect operands (docs/hardware/eu-hardware.md §1.4, §1.1): exact
//! spellings, `parse(print(p)) == p`, and located errors for malformed addresses.

use compiler::reg::{Arf, RegKind, Region};
use compiler::text::{parse_program, print_program};

fn program(body: &str) -> String {
    format!("eu 1\ntarget skl\ndispatch 16\nthreads 1\n\nSTART B0\n{body}\nEND B0\n")
}

/// The canonical spelling of each form, as printed, with what it parses to.
#[test]
fn each_form_parses_to_its_operand_and_prints_back() {
    let cases: [(&str, RegKind); 5] = [
        (
            "g[a0.2 + 16]<8;8,1>:F",
            RegKind::Indirect {
                addr: 2,
                offset: 16,
                region: Region::new(8, 8, 1),
            },
        ),
        (
            "g[a0.0]<VxH;1,0>:F",
            RegKind::Indirect {
                addr: 0,
                offset: 0,
                region: Region::new(Region::ONE_DIMENSIONAL, 1, 0),
            },
        ),
        (
            "g[a0.3 - 32]<Vx1;4,1>:UD",
            RegKind::Indirect {
                addr: 3,
                offset: -32,
                region: Region::new(Region::ONE_DIMENSIONAL, 4, 1),
            },
        ),
        (
            "g[a0.1]<0;1,0>:D",
            RegKind::Indirect {
                addr: 1,
                offset: 0,
                region: Region::SCALAR,
            },
        ),
        (
            "a0.1<0;1,0>:UW",
            RegKind::Arf {
                file: Arf::Address,
                nr: 0,
                subnr: 2,
                region: Region::SCALAR,
            },
        ),
    ];
    for (operand, kind) in cases {
        let text = program(&format!("    mov(8) g10<8;8,1>:F, {operand}"));
        let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let inst = p.insts().next().expect("one instruction");
        assert_eq!(inst.srcs[0].kind, kind, "{operand}");
        assert_eq!(print_program(&p), text, "{operand}");
    }
}

#[test]
fn destination_form_and_explicit_zero_offset() {
    // `+ 0` is accepted and printed without the offset; `<1>` is a destination's hstride.
    let text = program("    mov(8) g[a0.0 + 0]<1>:F, g2<8;8,1>:F");
    let p = parse_program(&text).expect("parses");
    let dst = p.insts().next().expect("one instruction").dst;
    assert_eq!(
        dst.kind,
        RegKind::Indirect {
            addr: 0,
            offset: 0,
            region: Region::new(0, 1, 1),
        }
    );
    assert_eq!(
        print_program(&p),
        program("    mov(8) g[a0.0]<1>:F, g2<8;8,1>:F")
    );
    let again = parse_program(&print_program(&p)).expect("reparses");
    assert_eq!(again, p);
}

#[test]
fn extreme_immediates_round_trip() {
    for offset in [i16::MIN, -1, 1, i16::MAX] {
        let kind = RegKind::Indirect {
            addr: 15,
            offset,
            region: Region::new(16, 8, 2),
        };
        let sign = if offset < 0 { '-' } else { '+' };
        let text = program(&format!(
            "    mov(8) g10<8;8,1>:W, g[a0.15 {sign} {}]<16;8,2>:W",
            offset.unsigned_abs()
        ));
        let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(p.insts().next().expect("inst").srcs[0].kind, kind);
        assert_eq!(print_program(&p), text);
    }
}

/// Asserts the error is at `line:col` (the instruction is on line 7) and says `needle`.
fn expect_error(body: &str, col: usize, needle: &str) {
    let text = program(body);
    let e = parse_program(&text).expect_err(body);
    assert_eq!((e.line, e.col), (7, col), "wrong position for: {e}");
    assert!(
        e.msg.contains(needle),
        "message `{}` lacks `{needle}`",
        e.msg
    );
}

#[test]
fn malformed_indirect_operands_are_located() {
    expect_error(
        "    mov(8) g10<8;8,1>:F, g[f0.0]<8;8,1>:F",
        28,
        "expected the address register `a0`",
    );
    expect_error(
        "    mov(8) g10<8;8,1>:F, g[a0]<8;8,1>:F",
        30,
        "expected `.` and an address subregister",
    );
    expect_error(
        "    mov(8) g10<8;8,1>:F, g[a0.0 + 40000]<8;8,1>:F",
        35,
        "address immediate 40000 is out of range",
    );
    expect_error(
        "    mov(8) g10<8;8,1>:F, g[a0.0 + 8<8;8,1>:F",
        36,
        "expected `]` closing an indirect address",
    );
    expect_error(
        "    mov(8) g10<8;8,1>:F, g[a0.0]<VxH;4,1>:F",
        38,
        "a `VxH` region has width 1",
    );
    expect_error(
        "    mov(8) g10<8;8,1>:F, g[a0.0]<Vx1;1,0>:F",
        38,
        "spelled `VxH`",
    );
    expect_error(
        "    mov(8) g10<8;8,1>:F, g[a0.0]<15;4,1>:F",
        34,
        "one-dimensional code",
    );
    expect_error(
        "    mov(8) g10<8;8,1>:F, g[a0.0]<Vy1;4,1>:F",
        34,
        "expected a vertical stride, `Vx1` or `VxH`",
    );
}

/// The validator checks the address subregisters an indirect operand takes (docs/hardware/eu-hardware.md
/// §1.4: a0.0..a0.15; Vx1 one per row, VxH one per channel).
#[test]
fn validator_rejects_missing_address_subregisters() {
    use compiler::validate::{Rule, validate};
    let rules = |body: &str| -> Vec<Rule> {
        let text = format!(
            "eu 1\ntarget skl\ndispatch 8\nthreads 1\nvgrf v0 1\nSTART B0\n{body}\nEND B0\n"
        );
        let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        validate(&p).into_iter().map(|v| v.rule).collect()
    };
    // VxH at SIMD8 from a0.8 takes a0.8..a0.15; from a0.9 it would need a0.16.
    assert_eq!(rules("    mov(8) v0:UD, g[a0.8]<VxH;1,0>:UD"), vec![]);
    assert!(rules("    mov(8) v0:UD, g[a0.9]<VxH;1,0>:UD").contains(&Rule::ArfOutOfRange));
    // Vx1 width 4 at SIMD8 takes two: a0.14, a0.15.
    assert_eq!(rules("    mov(8) v0:UD, g[a0.14]<Vx1;4,1>:UD"), vec![]);
    assert!(rules("    mov(8) v0:UD, g[a0.15]<Vx1;4,1>:UD").contains(&Rule::ArfOutOfRange));
    // A single-origin region needs only its own subregister, for the destination too.
    assert_eq!(rules("    mov(8) g[a0.15]<1>:UD, v0:UD"), vec![]);
    assert!(rules("    mov(8) g[a0.16]<1>:UD, v0:UD").contains(&Rule::ArfOutOfRange));
}
