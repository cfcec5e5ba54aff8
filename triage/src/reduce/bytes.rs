//! Shrinking the generator's choice sequence (Hypothesis-style) before the IR reducer runs:
//! bytes that decode to a program failing the same way are kept when they are shorter, or as
//! long and lexicographically smaller. Small, zero-heavy choice sequences decode to programs
//! with fewer and simpler generator decisions, which gives the IR reducer a head start.

use crate::campaign::{EXTRA_INPUT_SETS, signature};
use arbitrary::Unstructured;
use compiler::Program;
use compiler::pipeline::CompileOptions;
use oracle::differential::{check, input_sets};
use oracle::generator::generate;
use oracle::generator::knobs::Knobs;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Where the bytes came from, so a candidate is checked the way the campaign checked it.
pub struct Origin {
    pub knobs: Knobs,
    /// The campaign seed: extra input sets are generated from it.
    pub seed: u64,
}

/// The program `bytes` decode to, how many bytes decoding used, and the failing program
/// (carrying the input set it fails on) with its signature.
fn decode_and_judge(
    bytes: &[u8],
    origin: &Origin,
    opts: &CompileOptions,
) -> (usize, Option<(Program, String)>) {
    let mut u = Unstructured::new(bytes);
    let g = generate(&mut u, &origin.knobs);
    let used = bytes.len() - u.len();
    let sets = input_sets(&g.program, EXTRA_INPUT_SETS, origin.seed);
    let checked = check(&g.program, &sets, opts);
    if !checked.verdict.is_failure() {
        return (used, None);
    }
    let culprit = oracle::culprit::localise(&g.program, &sets, opts, &checked);
    let mut p = g.program;
    p.inputs = sets
        .get(checked.verdict.input_set().unwrap_or(0))
        .cloned()
        .or(p.inputs);
    (
        used,
        Some((p, signature(&checked.verdict, culprit.as_ref()))),
    )
}

/// Whether `a` is a better (shorter, then lexicographically smaller) choice sequence.
fn better(a: &[u8], b: &[u8]) -> bool {
    (a.len(), a) < (b.len(), b)
}

/// Candidate sequences: the prefix decoding read (lengths may be read from the end, so it is
/// only a candidate), then ever smaller blocks deleted or zeroed, then single bytes halved.
fn candidates(best: &[u8], used: usize) -> Vec<Vec<u8>> {
    let mut out = vec![];
    if used < best.len() {
        out.push(best[..used].to_vec());
    }
    let mut block = (best.len() / 2).max(1);
    loop {
        for start in (0..best.len()).step_by(block) {
            let end = (start + block).min(best.len());
            let mut deleted = best.to_vec();
            deleted.drain(start..end);
            out.push(deleted);
            if best[start..end].iter().any(|&b| b != 0) {
                let mut zeroed = best.to_vec();
                zeroed[start..end].fill(0);
                out.push(zeroed);
            }
        }
        if block == 1 {
            break;
        }
        block /= 2;
    }
    for i in 0..best.len() {
        if best[i] > 1 {
            let mut halved = best.to_vec();
            halved[i] /= 2;
            out.push(halved);
        }
    }
    out
}

/// Shrinks `bytes` while they decode to a program failing with `target`; returns the failing
/// program of the best sequence, or `None` if the original bytes do not fail that way.
pub fn shrink(
    bytes: &[u8],
    origin: &Origin,
    opts: &CompileOptions,
    target: &str,
    budget: Duration,
) -> Option<(Vec<u8>, Program)> {
    let start = Instant::now();
    let (used, judged) = decode_and_judge(bytes, origin, opts);
    let (mut program, signature) = judged?;
    if signature != target {
        return None;
    }
    let mut best = bytes.to_vec();
    let mut best_used = used;
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    // Where the last kept candidate was: the next search resumes there, wrapping around, so
    // the block size is kept instead of starting over from halves (as the IR reducer does).
    let mut resume = 0;
    'improve: while start.elapsed() < budget {
        let all = candidates(&best, best_used);
        let n = all.len();
        for i in (0..n).map(|k| (resume.min(n) + k) % n) {
            if start.elapsed() >= budget {
                break 'improve;
            }
            let c = &all[i];
            if !better(c, &best) || !seen.insert(c.clone()) {
                continue;
            }
            if let (used, Some((p, s))) = decode_and_judge(c, origin, opts)
                && s == target
            {
                best = c.clone();
                best_used = used;
                program = p;
                resume = i;
                continue 'improve;
            }
        }
        break;
    }
    Some((best, program))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_all_better() {
        let best = vec![7, 0, 3, 200, 1];
        for c in candidates(&best, 3) {
            assert!(better(&c, &best), "{c:?}");
        }
    }
}
