//! Scratch: a write then a read of the same per-thread offset returns the data
//! (docs/hardware/brw-backend.md §8, docs/hardware/eu-hardware.md §8), in the logical form and as hardware messages
//! with a header (g0.5 holds the scratch base and FFTID, docs/hardware/brw-backend.md §8.2).

use crate::common::*;
use crate::{Setup, all, run_program, vgrf};
use compiler::types::Type;

#[test]
fn logical_scratch_write_then_read() {
    let text = "eu 1\ntarget skl\ndispatch 8\nthreads 1\nscratch 2048\nattr attr0 1\n\
                vgrf v0 1\nvgrf v1 1\nSTART B0\n\
                scratch_write(8) null:UD, attr0:UD, 1024:UD\n\
                scratch_write(8) null:UD, attr0:UD, 0:UD\n\
                mov(8) v1:UD, 0:UD\n\
                scratch_write(8) null:UD, v1:UD, 0:UD\n\
                scratch_read(8) v0:UD, 1024:UD\n\
                scratch_read(8) v1:UD, 0:UD\n\
                END B0\n";
    let a: Vec<_> = (0..8).map(|i| ud(0xabc0 + i)).collect();
    let regs = run_program(Setup::logical("skl", 8), text, &[&a]);
    // Offset 1024 keeps attr0; offset 0 was overwritten with zeros.
    assert_eq!(
        vgrf(&regs, 0, Type::UD, 8),
        all(&(0..8).map(|i| 0xabc0 + i).collect::<Vec<_>>())
    );
    assert_eq!(vgrf(&regs, 1, Type::UD, 8), all(&[0; 8]));
}

#[test]
fn hardware_scratch_messages_round_trip() {
    // Header: a copy of g0 with the OWord offset in dword 2 (offset 64 bytes = 4 OWords)
    // and the scratch base from g0.5 (docs/hardware/brw-backend.md §8.2); the data in the second part.
    let text = "eu 1\ntarget skl\ndispatch 8\nthreads 1\nscratch 2048\nattr attr0 1\n\
                vgrf v0 1\nvgrf v1 1\nvgrf v2 1\nvgrf v3 1\nSTART B0\n\
                mov(8) v0:UD, g0<8;8,1>:UD { NoMask }\n\
                and(1) v0+20:UD, g0.5<0;1,0>:UD, 0xfffffc00:UD { NoMask }\n\
                mov(1) v0+8:UD, 4:UD { NoMask }\n\
                send(8) null:UD, v0:UD, attr0:UD desc(scratch_write mlen=1 ex_mlen=1 rlen=0 header) { NoMask }\n\
                send(8) v3:UD, v0:UD, null:UD desc(scratch_read mlen=1 ex_mlen=0 rlen=1 header) { NoMask }\n\
                END B0\n";
    let a: Vec<_> = (0..8).map(|i| ud(100 + i)).collect();
    let regs = run_program(Setup::logical("skl", 8), text, &[&a]);
    assert_eq!(
        vgrf(&regs, 3, Type::UD, 8),
        all(&(100..108).collect::<Vec<_>>())
    );
}

#[test]
fn a_simd16_header_in_the_last_register_is_one_register() {
    // A SEND's payloads are register ranges given by mlen and ex_mlen (docs/hardware/eu-hardware.md §8):
    // a SIMD16 scratch write with its header in g127 reads g127 alone as payload 1, however
    // wide the instruction. Header as docs/hardware/brw-backend.md §8.2 (offset 0 in dword 2, the HSW
    // size encoding of 2 KB, 0, in dword 3, the base from g0.5); the data is attr0 (g1..g2),
    // read back into g20..g21.
    let text = "eu 1\ntarget hsw\ndispatch 16\nthreads 1\nscratch 2048\nattr attr0 2\nSTART B0\n\
                mov(8) g127<8;8,1>:UD, 0:UD { NoMask }\n\
                mov(1) g127.2<8;8,1>:UD, 0:UD { NoMask }\n\
                mov(1) g127.3<8;8,1>:UD, 0:UD { NoMask }\n\
                and(1) g127.5<8;8,1>:UD, g0.5<0;1,0>:UD, 0xfffffc00:UD { NoMask }\n\
                send(16) null:UD, g127<8;8,1>:UD, g1<8;8,1>:UD desc(scratch_write mlen=1 ex_mlen=2 rlen=0 header) { NoMask }\n\
                send(16) g20<8;8,1>:UD, g127<8;8,1>:UD, null:UD desc(scratch_read mlen=1 ex_mlen=0 rlen=2 header) { NoMask }\n\
                END B0\n";
    let a: Vec<_> = (0..16).map(|i| ud(500 + i)).collect();
    let regs = run_program(Setup::strict("hsw", 16), text, &[&a]);
    assert_eq!(
        crate::grf(&regs, 20, Type::UD, 16),
        all(&(500..516).collect::<Vec<_>>())
    );
}
