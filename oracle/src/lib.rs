//! Everything that judges a program: the EU emulator ([`emu`]) with its strict hardware
//! mode ([`strict`]), and run inputs ([`inputs`]).

pub mod compare;
pub mod emu;
pub mod inputs;
pub mod strict;

pub use emu::result::{Outcome, RunResult};
pub use emu::{Registers, RunConfig, run, run_inspect};
