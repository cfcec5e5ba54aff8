//! Mesa as a backend under test (issue 28): programs go through Mesa 22.3's own brw passes
//! by way of `eufuzz-mesa-shim` (compiler/mesa-shim/, built by scripts/mesa-build.sh), and
//! what comes back is judged against the input's reference run, as `eufuzz equiv` does.
//!
//! - [`protocol`]: the framed request/reply format spoken over the shim's stdin/stdout.
//! - [`shim`]: finding, starting and restarting the shim process.
//! - [`check`]: one program through one Mesa pass, and its verdict.
//! - [`model`]: eufuzz's own pass of the same name on the same program, for comparison.
//! - [`reduce`]: a failure reduced, keeping its signature.
//! - [`case`]: one campaign case through a Mesa pass, for the campaign engine
//!   ([`crate::campaign`]), and the reduction of a filed failure.

pub mod case;
pub mod check;
pub mod model;
pub mod protocol;
pub mod reduce;
pub mod shim;

use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// A campaign's backend when it is Mesa (`--backend mesa[:PASS]`): kept in the campaign's
/// settings, so a checkpoint resumes against the same pass.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backend {
    /// The shim's pass name (`opt_loop` for `--backend mesa`).
    pub pass: String,
    /// Generated input sets per program besides its own.
    pub inputs: usize,
}

impl Backend {
    /// The `--backend` value that names it again, as reproducers write it.
    pub fn flag(&self) -> String {
        format!("mesa:{}", self.pass)
    }
}

/// Generated input sets per program besides its own, unless `--inputs` says otherwise.
pub const DEFAULT_INPUTS: usize = 4;

/// The generator knobs a Mesa campaign starts from (the knobs given on the command line are
/// added to them): they keep the generator away from what the shim cannot map at all
/// (scratch, fixed GRFs, hardware sends, textures, HALT, live-channel ops, flags read as
/// data, implicit-accumulator ops), which it would otherwise refuse by the thousand.
pub const KNOBS: &str = "stage=fs features=-scratch,-fixed-grf,-hw-send,-texture,-halt,-live-channel,-flag-data ops=-addc,-subb,-mach,-mac";

/// The pass a `--backend` value names: `mesa:PASS`, or `mesa` for Mesa's optimisation
/// loop (`opt_loop`).
pub fn backend_pass(backend: &str) -> Result<String> {
    match backend.split_once(':') {
        None if backend == "mesa" => Ok("opt_loop".into()),
        Some(("mesa", pass)) if !pass.is_empty() => Ok(pass.into()),
        _ => Err(Error::Usage(format!(
            "--backend {backend}: expected mesa or mesa:PASS (the passes: eufuzz-mesa-shim --list)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backend_names_a_pass() {
        assert_eq!(backend_pass("mesa").unwrap(), "opt_loop");
        assert_eq!(backend_pass("mesa:opt_cse").unwrap(), "opt_cse");
        assert!(backend_pass("llvm").is_err());
        assert!(backend_pass("mesa:").is_err());
    }
}
