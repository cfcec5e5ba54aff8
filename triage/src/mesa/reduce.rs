//! Reducing a failure of a Mesa pass: the reducer's own steps
//! ([`crate::reduce::candidates::STEPS`], coarse to fine, in their fixed order), a variant
//! kept when the same Mesa pass fails it with the same signature. Greedy and deterministic:
//! the first smaller variant that keeps the signature wins, until no step finds one or the
//! time is up.

use super::check::check;
use super::shim::Shim;
use crate::Result;
use crate::reduce::candidates::{STEPS, size};
use compiler::Program;
use std::time::{Duration, Instant};

/// Reduces `p`, which fails `pass` with `signature` on its own inputs and `extra`
/// generated input sets from `seed`.
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
                    if check(shim, pass, &v, extra, seed)?.signature(pass) == signature {
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
