//! A fixed-GRF destination's region is only its horizontal stride (docs/hardware/eu-hardware.md §1.2,
//! "Destination (region is just HorzStride)"): execution writes exactly the bytes the strict
//! rules count, whatever vstride/width the operand carries.

use compiler::text::parse_program;
use oracle::strict::check;
use oracle::{RunConfig, run_inspect};

#[test]
fn destination_vstride_and_width_are_ignored() {
    // Read as a source region, <32;4,1> would put channels 4..8 at elements 32..36 (g14);
    // as a destination, channel c is element c: g10 bytes 0..32 only.
    let dst_inst = "mov(8) g10<32;4,1>:F, 2.0:F";
    let text = format!("eu 1\ntarget skl\ndispatch 8\nSTART B0\n    {dst_inst}\nEND B0\n");
    let p = parse_program(&text).unwrap();
    let inst = p.insts().next().unwrap().clone();
    assert!(
        check(&inst, compiler::Device::Skl).is_empty(),
        "strict rules count one register for this destination"
    );
    let (r, regs) = run_inspect(
        &p,
        &Default::default(),
        &RunConfig {
            strict: true,
            fuel: 100,
            ..RunConfig::default()
        },
    );
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let (g10, d10) = regs[0].grf(10, 1);
    assert!(d10.iter().all(|&d| d == 1), "all of g10 written");
    for c in 0..8 {
        assert_eq!(g10[4 * c..4 * c + 4], 2.0f32.to_le_bytes(), "channel {c}");
    }
    let (_, d14) = regs[0].grf(11, 4);
    assert!(d14.iter().all(|&d| d == 0), "nothing written past g10");
}

#[test]
fn destination_hstride_still_strides() {
    // <8;8,2> as a destination: channel c at element 2c (g10 and g11, every other dword).
    let text = "eu 1\ntarget skl\ndispatch 8\nSTART B0\n    mov(8) g10<1;1,2>:UD, 7:UD\nEND B0\n";
    let p = parse_program(text).unwrap();
    let (_, regs) = run_inspect(
        &p,
        &Default::default(),
        &RunConfig {
            strict: false,
            fuel: 100,
            ..RunConfig::default()
        },
    );
    let (g, d) = regs[0].grf(10, 2);
    for e in 0..16 {
        let written = e % 2 == 0;
        assert_eq!(d[4 * e] == 1, written, "element {e}");
        if written {
            assert_eq!(g[4 * e..4 * e + 4], 7u32.to_le_bytes());
        }
    }
}
