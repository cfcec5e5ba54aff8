//! Malformed `.eu` input: each case is a clear error at the right line and column, never a
//! panic.

use compiler::text::{ParseError, parse_program};

const HEADER: &str = "eu 1\ntarget skl\ndispatch 16\nvgrf v0 2\nvgrf v1 2\n";

fn error_of(text: &str) -> ParseError {
    match parse_program(text) {
        Ok(p) => panic!("parsed unexpectedly: {p:?}"),
        Err(e) => e,
    }
}

/// Asserts the error is at `line:col` and its message contains `needle`.
fn expect(text: &str, line: usize, col: usize, needle: &str) {
    let e = error_of(text);
    assert_eq!((e.line, e.col), (line, col), "wrong position for: {e}");
    assert!(
        e.msg.contains(needle),
        "message `{}` lacks `{needle}`",
        e.msg
    );
}

#[test]
fn truncated_file_inside_a_block() {
    let text = format!("{HEADER}START B0\n    mov(16) v0:F, 1.0:F\n");
    expect(&text, 8, 1, "file ends inside block B0");
}

#[test]
fn truncated_instruction() {
    let text = format!("{HEADER}START B0\n    mov(16) v0:F,\nEND B0\n");
    expect(&text, 7, 18, "expected an operand");
    let text = format!("{HEADER}START B0\n    mov(1\nEND B0\n");
    expect(&text, 7, 10, "expected `)`");
}

#[test]
fn unknown_opcode() {
    let text = format!("{HEADER}START B0\n    fmul(16) v0:F, v1:F, v1:F\nEND B0\n");
    expect(&text, 7, 5, "unknown opcode `fmul`");
}

#[test]
fn bad_region() {
    let text = format!("{HEADER}START B0\n    mov(8) v0:F, g2<8,8,1>:F\nEND B0\n");
    expect(&text, 7, 22, "expected `;` in a region");
    let text = format!("{HEADER}START B0\n    mov(8) v0:F, g2:F\nEND B0\n");
    expect(&text, 7, 20, "expected a region");
    let text = format!("{HEADER}START B0\n    mov(8) v0:F, g2<8;8,1000>:F\nEND B0\n");
    expect(&text, 7, 25, "horizontal stride `1000` is out of range");
}

#[test]
fn bad_type() {
    let text = format!("{HEADER}START B0\n    mov(16) v0:FF, v1:F\nEND B0\n");
    expect(&text, 7, 16, "unknown type `FF`");
    let text = format!("{HEADER}START B0\n    mov(16) v0, v1:F\nEND B0\n");
    expect(&text, 7, 15, "expected `:` and a type");
}

#[test]
fn missing_block() {
    // B1 skipped.
    let text = format!("{HEADER}START B0\n    nop(1)\nEND B0\nSTART B2\n    nop(1)\nEND B2\n");
    expect(&text, 9, 7, "expected block B1");
    // Instructions outside any block.
    let text = format!("{HEADER}    mov(16) v0:F, 1.0:F\n");
    expect(&text, 6, 5, "unknown header line `mov`");
    // END for a different block.
    let text = format!("{HEADER}START B0\n    nop(1)\nEND B1\n");
    expect(&text, 8, 5, "`END B1` closes block B0");
}

#[test]
fn header_errors() {
    expect("target skl\n", 1, 1, "expected the version line `eu 1`");
    expect("eu 2\n", 1, 5, "text-form version 2 is not supported");
    expect("eu 1\ntarget skylake\n", 2, 8, "unknown device `skylake`");
    expect(
        "eu 1\ntarget skl\ndispatch 8\nvgrf v1 2\n",
        4,
        6,
        "expected `v0`",
    );
    expect("eu 1\ntarget skl\n", 3, 1, "missing `dispatch");
    expect("", 1, 1, "empty file");
}

#[test]
fn immediates_and_flags() {
    let text = format!("{HEADER}START B0\n    mov(16) v0:W, 40000:W\nEND B0\n");
    expect(&text, 7, 19, "immediate 40000 is out of range for type W");
    let text = format!("{HEADER}START B0\n    mov(16) v0:F, [1.0, 0.1, 1.0, 1.0]:VF\nEND B0\n");
    expect(&text, 7, 25, "`0.1` is not a VF");
    let text = format!("{HEADER}START B0\n    mov(16) v0:HF, 65520:HF\nEND B0\n");
    expect(&text, 7, 20, "65520 is too large for type HF");
    let text = format!("{HEADER}START B0\n    mov(16) v0:F, 1e-50:F\nEND B0\n");
    expect(&text, 7, 19, "1e-50 is too small for type F");
    let text = format!("{HEADER}START B0\n    (+f0.2) mov(16) v0:F, 1.0:F\nEND B0\n");
    expect(&text, 7, 11, "flag subregister must be .0 or .1");
    let text = format!("{HEADER}START B0\n    mov(16) v0:F, 1.0:F {{ Quarter }}\nEND B0\n");
    expect(&text, 7, 27, "unknown control `Quarter`");
}

#[test]
fn wrong_edges_are_reported() {
    let text = format!("{HEADER}START B0\n    nop(1)\nEND B0 ->B3\n");
    expect(&text, 8, 4, "B0 has successors none but the file says ->B3");
}

/// Every prefix of a valid file either parses or errors; nothing panics.
#[test]
fn every_truncation_is_an_error_not_a_panic() {
    let text = format!(
        "{HEADER}uniforms 1\nSTART B0\n    (-f0.1.any8h) sel.ge(8) v0+4<2>:W, -(abs)g2.1<0;1,0>:W, -(5:W) {{ 2Q NoMask }}\n    send(16) v0:UD, v1:UD, null:UD desc(sample surface=1 mlen=2 ex_mlen=0 rlen=2 header)\nEND B0\n"
    );
    assert!(parse_program(&text).is_ok());
    for cut in 0..text.len() {
        if text.is_char_boundary(cut) {
            let _ = parse_program(&text[..cut]);
        }
    }
}

mod mutations {
    use super::*;
    use proptest::prelude::*;

    const VALID: &str = "eu 1\ntarget skl\ndispatch 16\nuniforms 1\nattr attr0 2\nvgrf v0 2\nvgrf v1 4\n\
        START B0\n    cmp.l.f0.0(16) null:F, attr0:F, u0:F\n    (+f0.0) if(16)\nEND B0\n\
        START B1\n    mov(8) v1+4<2>:W, -(abs)g2.1<0;1,0>:W { 2Q NoMask }\n    else(16)\nEND B1\n\
        START B2\n    mad.sat(16) v0:F, v0:F, 0x7fc00001:F, [1.0, 0.5, 2.0, -0.25]:VF\nEND B2\n\
        START B3\n    endif(16)\n    fb_write_logical(16) null:UD, v1:F, 2:UD, 0:UD { EOT }\nEND B3\n";

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Deleting, duplicating or replacing a few bytes of a valid file never panics the
        /// parser, and whatever still parses prints to text that parses to the same program.
        #[test]
        fn mutated_files_never_panic(edits in prop::collection::vec((0usize..4096, 0u8..3, any::<u8>()), 1..6)) {
            let mut bytes = VALID.as_bytes().to_vec();
            for (pos, kind, byte) in edits {
                let at = pos % (bytes.len() + 1);
                match kind {
                    0 if at < bytes.len() => { bytes.remove(at); }
                    1 => bytes.insert(at, b"<>;,.:-()[]{}#0123456789abcdefgvuxBDFWQ \n"[byte as usize % 41]),
                    _ if at < bytes.len() => bytes[at] = byte,
                    _ => {}
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(p) = parse_program(&text) {
                let printed = compiler::text::print_program(&p);
                prop_assert_eq!(parse_program(&printed).ok(), Some(p));
            }
        }
    }
}
