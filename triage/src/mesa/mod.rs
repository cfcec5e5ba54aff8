//! Mesa as a backend under test (issue 28): programs go through Mesa 22.3's own brw passes
//! by way of `eufuzz-mesa-shim` (compiler/mesa-shim/, built by scripts/mesa-build.sh), and
//! what comes back is judged against the input's reference run, as `eufuzz equiv` does.
//!
//! - [`protocol`]: the framed request/reply format spoken over the shim's stdin/stdout.
//! - [`shim`]: finding, starting and restarting the shim process.
//! - [`check`]: one program through one Mesa pass, and its verdict.
//! - [`model`]: eufuzz's own pass of the same name on the same program, for comparison.
//! - [`reduce`]: a failure reduced, keeping its signature.
//! - [`campaign`]: generated programs through a Mesa pass for a while, failures filed.

pub mod campaign;
pub mod check;
pub mod model;
pub mod protocol;
pub mod reduce;
pub mod shim;

use crate::{Error, Result};

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
