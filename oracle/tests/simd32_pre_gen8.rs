//! Before Gen8 a non-NoMask SIMD32 instruction applies the low 16 execution-mask bits to both
//! halves (docs/hardware/brw-backend.md §1.7; the reason width lowering caps such instructions at SIMD16,
//! §4.1 rule 7). Strict (hardware) mode models the aliasing and names the rule.

use compiler::inputs::Inputs;
use compiler::text::parse_program;
use oracle::{RunConfig, run_inspect};

/// Fills g10..g11 (32 UW channels) with 5 under NoMask, then a masked `mov(32)` of 7; returns
/// which of the 32 words the masked move touched (its bytes no longer hold a defined 5).
fn touched(device: &str, mask: u32) -> (Vec<bool>, Vec<String>) {
    let text = format!(
        "eu 1\ntarget {device}\ndispatch 32\nSTART B0\n    mov(32) g10<16;16,1>:UW, 5:UW {{ NoMask }}\n    mov(32) g10<16;16,1>:UW, 7:UW\nEND B0\n"
    );
    let p = parse_program(&text).unwrap();
    let mut inputs = Inputs::default();
    inputs.dispatch_masks.insert(0, mask);
    let (r, regs) = run_inspect(
        &p,
        &inputs,
        &RunConfig {
            strict: true,
            fuel: 100,
            ..RunConfig::default()
        },
    );
    let (bytes, def) = regs[0].grf(10, 2);
    let words = (0..32)
        .map(|c| !(def[2 * c] == 1 && def[2 * c + 1] == 1 && bytes[2 * c..2 * c + 2] == [5, 0]))
        .collect();
    let rules = r
        .diagnostics
        .iter()
        .filter_map(|d| d.rule.clone())
        .collect();
    (words, rules)
}

#[test]
fn second_half_uses_the_low_mask_bits_on_ivb() {
    // High half dispatched, low half not: on IVB the high half follows the (off) low bits.
    let (words, rules) = touched("ivb", 0xffff_0000);
    assert!(
        words.iter().all(|&t| !t),
        "no channel may execute: {words:?}"
    );
    assert!(rules.contains(&"simd32-masked-pre-gen8".to_string()));
    // Low half dispatched: both halves execute.
    let (words, _) = touched("ivb", 0x0000_ffff);
    assert!(
        words.iter().all(|&t| t),
        "every channel executes: {words:?}"
    );
}

#[test]
fn gen8_uses_every_mask_bit() {
    let (words, rules) = touched("bdw", 0xffff_0000);
    assert!(words[..16].iter().all(|&t| !t) && words[16..].iter().all(|&t| t));
    assert!(!rules.contains(&"simd32-masked-pre-gen8".to_string()));
}
