//! The `.eu` text form: a readable, exactly round-tripping rendering of [`Program`]s, close to
//! Mesa's printed IR. Every reproducer, corpus file and report uses it.
//!
//! ```text
//! eu 1                      # version line: lets old corpora be migrated
//! target skl
//! dispatch 16
//! threads 1
//! vgrf v0 2                 # size in 32-byte registers, declared in order
//!
//! START B0
//!     mov(16) v0:F, 1.5:F
//!     cmp.l.f0.0(16) null:F, v0:F, attr0:F
//!     (+f0.0) sel(16) v0:F, v0:F, 0.0:F
//!     mov(8) v0+32:F, g2.1<0;1,0>:F { 2Q NoMask }
//! END B0
//! ```
//!
//! [`Program`]: crate::program::Program

mod parse;
mod print;

pub use parse::{ParseError, parse_program};
pub use print::{TEXT_VERSION, print_imm, print_inst, print_program, print_reg};
