//! Reducing a failure of a Mesa pass: the reducer's own steps
//! ([`crate::reduce::candidates::STEPS`], coarse to fine, in their fixed order), a variant
//! kept when the same Mesa pass fails it with the same signature. Greedy and deterministic:
//! the first smaller variant that keeps the signature wins, until no step finds one or the
//! time is up.

use super::check::{check, identify};
use super::shim::Shim;
use crate::Result;
use crate::reduce::candidates::{STEPS, size};
use compiler::Program;
use std::time::{Duration, Instant};

/// Reduces `p`, which fails `pass` with `signature` (its culprit localised, see
/// [`identify`]) on its own inputs and `extra` generated input sets from `seed`.
pub fn reduce(
    shim: &mut Shim,
    pass: &str,
    p: &Program,
    signature: &str,
    extra: usize,
    seed: u64,
    budget: Duration,
) -> Result<Program> {
    let start = Instant::now();
    let mut best = p.clone();
    loop {
        let before = size(&best);
        for step in &STEPS {
            'step: loop {
                let current = size(&best);
                for v in (step.variants)(&best) {
                    if start.elapsed() >= budget {
                        return Ok(best);
                    }
                    if size(&v) >= current || !compiler::validate::validate(&v).is_empty() {
                        continue;
                    }
                    let verdict = check(shim, pass, &v, extra, seed)?;
                    if verdict.signature(pass).split('/').next() != signature.split('/').next() {
                        continue; // another kind of failure, or none: no need to localise
                    }
                    if identify(shim, pass, &v, extra, seed, &verdict)?.0 == signature {
                        best = v;
                        continue 'step;
                    }
                }
                break;
            }
        }
        if size(&best) == before {
            return Ok(best);
        }
    }
}
