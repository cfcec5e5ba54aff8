//! Shrinking the generator's choice sequence (Hypothesis-style) before the IR reducer runs:
//! bytes that decode to a program failing the same way are kept when they are shorter, or as
//! long and lexicographically smaller. Small, zero-heavy choice sequences decode to programs
//! with fewer and simpler generator decisions, which gives the IR reducer a head start.

use crate::campaign::EXTRA_INPUT_SETS;
use crate::identity::Identity;
use arbitrary::Unstructured;
use compiler::Program;
use compiler::pipeline::CompileOptions;
use oracle::differential::{check_with_reference_fuel, input_sets, reference_config};
use oracle::generator::generate;
use oracle::generator::knobs::Knobs;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

/// Where the bytes came from, so a candidate is checked the way the campaign checked it.
pub struct Origin {
    pub knobs: Knobs,
    /// The campaign seed: extra input sets are generated from it.
    pub seed: u64,
}

/// How a candidate sequence is judged: the original's verdict kind (a candidate failing
/// another way is not localised, the expensive part) and the reference fuel a candidate
/// gets (a few times the original's steps, as `interesting::variant_fuel` gives IR
/// variants: a candidate whose loop no longer ends is rejected fast).
struct Judging<'a> {
    origin: &'a Origin,
    opts: &'a CompileOptions,
    kind: Option<&'a str>,
    fuel: u64,
}

/// The program `bytes` decode to, how many bytes decoding used, the steps of its longest
/// reference run, and the failing program (carrying the input set it fails on) with its
/// signature.
fn decode_and_judge(bytes: &[u8], j: &Judging) -> (usize, u64, Option<(Program, String)>) {
    let mut u = Unstructured::new(bytes);
    let g = generate(&mut u, &j.origin.knobs);
    let used = bytes.len() - u.len();
    let sets = input_sets(&g.program, EXTRA_INPUT_SETS, j.origin.seed);
    let checked = check_with_reference_fuel(&g.program, &sets, j.opts, j.fuel);
    let steps = checked.longest_reference();
    let kind = checked.verdict.kind();
    if !checked.verdict.is_failure() || j.kind.is_some_and(|k| k != kind) {
        return (used, steps, None);
    }
    let culprit = oracle::culprit::localise(&g.program, &sets, j.opts, &checked);
    let mut p = g.program;
    p.inputs = sets
        .get(checked.verdict.input_set().unwrap_or(0))
        .cloned()
        .or(p.inputs);
    (
        used,
        steps,
        Some((
            p,
            Identity::of(&checked.verdict, culprit.as_ref()).signature,
        )),
    )
}

/// Whether `a` is a better (shorter, then lexicographically smaller) choice sequence.
fn better(a: &[u8], b: &[u8]) -> bool {
    (a.len(), a) < (b.len(), b)
}

/// The smallest block of bytes deleted or zeroed. Finer edits (single bytes deleted, zeroed
/// or halved) made four in five of the tests and most of the time of a reduction, for
/// programs no smaller than the IR reducer makes of a coarser result.
const MIN_BLOCK: usize = 8;

/// One candidate change to a choice sequence. Candidates are listed as edits and built
/// one at a time: a sequence of 16 KiB has some 65,000 of them, too many to build up front.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edit {
    /// Only the first `n` bytes.
    Prefix(usize),
    Delete(usize, usize),
    Zero(usize, usize),
}

impl Edit {
    fn apply(self, best: &[u8]) -> Vec<u8> {
        let mut out = best.to_vec();
        match self {
            Edit::Prefix(n) => out.truncate(n),
            Edit::Delete(start, end) => {
                out.drain(start..end);
            }
            Edit::Zero(start, end) => out[start..end].fill(0),
        }
        out
    }
}

/// Candidate sequences: the prefix decoding read (lengths may be read from the end, so it is
/// only a candidate), then ever smaller blocks deleted or zeroed, down to [`MIN_BLOCK`].
fn candidates(best: &[u8], used: usize) -> Vec<Edit> {
    let mut out = vec![];
    if used < best.len() {
        out.push(Edit::Prefix(used));
    }
    let mut block = (best.len() / 2).max(1);
    loop {
        for start in (0..best.len()).step_by(block) {
            let end = (start + block).min(best.len());
            out.push(Edit::Delete(start, end));
            if best[start..end].iter().any(|&b| b != 0) {
                out.push(Edit::Zero(start, end));
            }
        }
        if block <= MIN_BLOCK {
            break;
        }
        block /= 2;
    }
    out
}

fn hash(bytes: &[u8]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
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
    let mut judging = Judging {
        origin,
        opts,
        kind: None,
        fuel: reference_config().fuel,
    };
    let (used, steps, judged) = decode_and_judge(bytes, &judging);
    let (mut program, signature) = judged?;
    if signature != target {
        return None;
    }
    judging.kind = target.split('/').next();
    judging.fuel = super::interesting::fuel_for_steps(steps);
    let mut best = bytes.to_vec();
    let mut best_used = used;
    // Hashes of the sequences tested (a sequence may be up to 16 KiB).
    let mut seen: HashSet<u64> = HashSet::new();
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
            let c = all[i].apply(&best);
            if !better(&c, &best) || !seen.insert(hash(&c)) {
                continue;
            }
            if let (used, _, Some((p, s))) = decode_and_judge(&c, &judging)
                && s == target
            {
                best = c;
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
        for e in candidates(&best, 3) {
            assert!(better(&e.apply(&best), &best), "{e:?}");
        }
    }

    #[test]
    fn blocks_stop_halving_at_the_minimum() {
        let best = vec![1u8; 100];
        let widths: Vec<usize> = candidates(&best, 100)
            .into_iter()
            .map(|e| match e {
                Edit::Delete(start, end) | Edit::Zero(start, end) => {
                    assert!(end - start > MIN_BLOCK / 2 || end == best.len(), "{e:?}");
                    end - start
                }
                Edit::Prefix(_) => unreachable!("decoding read every byte"),
            })
            .collect();
        // Halves, quarters, … down to the first width at or below the minimum (100 → 6).
        assert_eq!(widths.iter().max(), Some(&50));
        assert!(widths.contains(&6));
        assert!(!widths.contains(&3));
    }
}
