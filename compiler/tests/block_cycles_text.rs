//! The per-block cycle annotation of dumps (`START B1 <-B0 (40 cycles)`, as Mesa prints
//! it): printed on request, read back and dropped by the parser, rejected when malformed.

use compiler::passes::schedule::{block_cycles, estimate_cycles};
use compiler::text::{parse_program, print_program, print_program_with_cycles};

const TEXT: &str = "eu 1\ntarget skl\ndispatch 8\nthreads 1\nattr attr0 1\nvgrf v0 1\nvgrf v1 1\n\n\
                    START B0\n    rcp(8) v0:F, attr0:F\n    add(8) v1:F, v0:F, 1.0:F\n    \
                    cmp.l.f0.0(8) null:F, v1:F, 1.0:F\n    (+f0.0) if(8)\nEND B0 ->B1 ->B2\n\n\
                    START B1 <-B0\n    mov(8) v1:F, 2.0:F\nEND B1 ->B2\n\n\
                    START B2 <-B0 <-B1\n    endif(8)\nEND B2\n";

#[test]
fn annotated_dumps_show_each_blocks_estimate_and_parse_back() {
    let p = parse_program(TEXT).unwrap();
    let cycles = block_cycles(&p);
    // B0: rcp issues at 0 (latency 22, schedule.rs); the add waits for it and issues at
    // 22; the cmp waits 6 for the add (28); the if waits 6 for the flag (34) and leaves the
    // port at 35. B1: one mov. B2: one endif.
    assert_eq!(cycles, vec![35, 1, 1]);
    assert_eq!(cycles.iter().sum::<u64>(), estimate_cycles(&p));
    let dump = print_program_with_cycles(&p, &cycles);
    assert!(dump.contains("START B0 (35 cycles)\n"), "{dump}");
    assert!(dump.contains("START B2 <-B0 <-B1 (1 cycles)\n"), "{dump}");
    assert_eq!(parse_program(&dump).unwrap(), p);
    assert_eq!(print_program(&parse_program(&dump).unwrap()), TEXT);
}

#[test]
fn a_malformed_annotation_is_located() {
    for (bad, col, needle) in [
        ("START B1 <-B0 (40 cyc)", 1, "expected `(N cycles)`"),
        ("START B1 <-B0 (cycles)", 1, "expected a cycle count"),
        (
            "START B1 (4 cycles) <-B0",
            1,
            "expected the end of the START line",
        ),
    ] {
        let text = TEXT.replace("START B1 <-B0", bad);
        let e = parse_program(&text).unwrap_err();
        assert_eq!(e.line, 16, "{e:?}");
        assert!(e.col >= col && e.msg.contains(needle), "{bad}: {e:?}");
    }
}
