//! Conditional modifiers only where the hardware has them (docs/hardware/brw-backend.md §10.3 #2): the
//! generator never emits one elsewhere, and a strict run of `fbl.ge` leaves its flag undefined
//! instead of setting it.

use compiler::text::parse_program;
use oracle::generator::from_seed;
use oracle::generator::knobs::Knobs;
use oracle::{RunConfig, run_inspect};

#[test]
fn generated_programs_put_cmods_only_where_allowed() {
    let knobs = Knobs::default();
    let mut with_cmod = 0;
    for seed in 0..300 {
        let g = from_seed(seed, &knobs);
        for inst in g.program.insts() {
            if inst.cmod.is_some() {
                with_cmod += 1;
                assert!(
                    inst.op.ir_can_do_cmod(),
                    "seed {seed}: {}",
                    compiler::text::print_inst(inst)
                );
            }
        }
    }
    assert!(with_cmod > 0, "no conditional modifiers generated at all");
}

#[test]
fn strict_fbl_with_cmod_sets_no_defined_flag() {
    let text = "eu 1\ntarget skl\ndispatch 8\nSTART B0\n    mov(8) g20<8;8,1>:UD, 0x10:UD\n    fbl.ge.f0.0(8) g21<8;8,1>:UD, g20<8;8,1>:UD\nEND B0\n";
    let p = parse_program(text).unwrap();
    let (r, regs) = run_inspect(
        &p,
        &Default::default(),
        &RunConfig {
            strict: true,
            fuel: 1000,
            ..RunConfig::default()
        },
    );
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.rule.as_deref() == Some("cmod-not-supported") && d.ip == 1),
        "{:?}",
        r.diagnostics
    );
    assert_eq!(regs[0].flags_def & 0xff, 0, "flag bits must be undefined");
}
