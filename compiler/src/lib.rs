//! The backend under test: a model of Mesa's scalar brw/i965 backend.
//!
//! This crate knows nothing about fuzzing. It holds the IR ([`program`], [`inst`], [`reg`],
//! [`types`], [`opcode`]), its text form ([`text`]), the device table ([`device`]), the CFG
//! ([`cfg`]), Mesa's builder assertions ([`builder`]) and the IR validator ([`validate`]).
//!
//! Compilation is layered so that no module circle forms: [`pass`] says what a pass is
//! and may use (options, rewrite notes, errors) and imports no pass; the passes
//! ([`passes`], one file each, listed in `passes::registry`) import it and the analyses
//! ([`analysis`]); the pass manager ([`pipeline`]) orders and runs the passes.

pub mod analysis;
pub mod builder;
pub mod cfg;
pub mod contracts;
pub mod device;
pub mod hw;
pub mod inputs;
pub mod inst;
pub mod opcode;
pub mod pass;
pub mod passes;
pub mod payload;
pub mod pipeline;
pub mod program;
pub mod reg;
pub mod stats;
pub mod text;
pub mod types;
pub mod validate;
pub mod zoo;

pub use device::Device;
pub use inputs::{Inputs, Value};
pub use inst::Inst;
pub use opcode::Opcode;
pub use program::{Program, Stage};
pub use reg::Reg;
pub use types::Type;
