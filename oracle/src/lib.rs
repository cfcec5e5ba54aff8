//! Everything that judges a program: the EU emulator ([`emu`]) with its strict hardware
//! mode ([`strict`]), run inputs ([`inputs`]) and the program generator ([`generator`]).

pub mod compare;
pub mod culprit;
pub mod differential;
pub mod emu;
pub mod generator;
pub mod inputs;
pub mod strict;

pub use emu::result::{Outcome, RunResult};
pub use emu::{Prepared, Registers, RunConfig, run, run_inspect};
