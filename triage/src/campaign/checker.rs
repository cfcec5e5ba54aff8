//! What checks a campaign's cases: eufuzz's own pipeline against the reference
//! ([`super::case::run`]), or Mesa's passes through a shim process the worker's child keeps
//! for the whole campaign ([`crate::mesa::case`]). Everything around a case — seeds,
//! workers, child processes, feedback, filing, reduction, checkpoints — is the same for
//! both; only this choice differs.

use super::Settings;
use super::case::{self, Found, Input, Setup, Tally};
use crate::error::Result;
use crate::mesa::case::Runner;
use std::time::Duration;

/// The checker of one process's cases.
pub enum Checker {
    /// eufuzz's optimising pipeline against the reference on the emulator.
    Pipeline,
    /// Mesa's pass (or loop) through this process's long-lived shim.
    Mesa(Box<Runner>),
}

impl Checker {
    /// The checker `setup` asks for; for Mesa, a shim whose requests may each take the
    /// campaign's `--case-timeout` (an error naming the build script when it is not built).
    pub fn new(setup: &Setup, settings: &Settings) -> Result<Checker> {
        Ok(match &setup.backend {
            None => Checker::Pipeline,
            Some(b) => {
                let timeout = Duration::from_secs(settings.case_timeout.max(1));
                Checker::Mesa(Box::new(Runner::open(b, timeout)?))
            }
        })
    }

    /// Runs the case of `input`: its tally, and its failure if any.
    pub fn run(&mut self, setup: &Setup, input: &Input) -> (Tally, Option<Found>) {
        match self {
            Checker::Pipeline => case::run(setup, input),
            Checker::Mesa(r) => r.run(setup, input),
        }
    }
}
