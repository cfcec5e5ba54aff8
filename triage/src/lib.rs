//! The eufuzz library: everything the `eufuzz` commands do, as functions that decide and
//! return plain data (printing is the commands' job, in `src/commands/`).
//!
//! - [`check`]: compile a program and judge it against the reference ([`check::check`]),
//!   and the words that describe a verdict.
//! - [`identity`]: the one name of a failure — its signature and bucket key.
//! - [`options`]: compile options as flags, one codec for the command line and the
//!   `# options:` line of reproducers.
//! - [`repro`]: reproducer files — header lines and directives.
//! - [`reduce`]: the test-case reducer.
//! - [`campaign`]: the campaign engine (workers, filing, reduction threads, checkpoints,
//!   merging shards).
//! - [`gate`]: the regression gate over a corpus of self-describing reproducers.
//! - [`buckets`]: listing and re-keying campaign reproducers.
//! - [`outlock`]: one writer per output directory (campaign, merge, rebucket).
//! - [`bisect`]: the commit that introduced (or fixed) a failure, by building revisions.
//! - [`report`]: the morning report of a campaign directory.
//! - [`shader_db`]: shader-db statistics rows.
//! - [`verdicts`]: one line per (program, device) naming its verdict, to compare revisions.
//! - [`mesa`]: Mesa 22.3's own passes as the backend under test, through the C++ shim.
//! - [`generate`], [`equiv`], [`run`], [`canonical`], [`validation`]: the smaller jobs.
//! - [`error`]: errors with kinds, and the exit codes they give.

pub mod bisect;
pub mod buckets;
pub mod campaign;
pub mod canonical;
pub mod check;
pub mod equiv;
pub mod error;
pub mod files;
pub mod gate;
pub mod generate;
pub mod identity;
pub mod interrupt;
pub mod load;
pub mod mesa;
pub mod options;
pub mod outlock;
pub mod parallel;
pub mod reduce;
pub mod render;
pub mod report;
pub mod repro;
pub mod run;
pub mod shader_db;
pub mod validation;
pub mod verdicts;

pub use error::{Error, Exit, Result};
