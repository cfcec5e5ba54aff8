//! Which seed each case runs: workers and shards take disjoint, interleaved slices of one
//! seed space, so the same `--seed`, `--jobs` and `--shard` always give the same cases.
//!
//! Case `i` of worker `w` (of `jobs`) in shard `K/N` runs seed
//! `seed + (i·jobs + w)·N + (K − 1)` (wrapping). Shards are the residues modulo `N`, so two
//! shards never share a seed whatever `--jobs` each machine uses; within a shard the
//! workers interleave. One worker and no shard gives `seed + i`, as the single-worker
//! campaign did.

use serde::{Deserialize, Serialize};

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole seed space.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Parses `K/N` with 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard `{text}`: expected K/N with 1 <= K <= N (e.g. 2/4)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The seed of case `index` of `worker` (see the module documentation).
pub fn seed_of(base: u64, jobs: u64, shard: Shard, worker: u64, index: u64) -> u64 {
    let global = index
        .wrapping_mul(jobs)
        .wrapping_add(worker)
        .wrapping_mul(shard.count)
        .wrapping_add(shard.index - 1);
    base.wrapping_add(global)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn one_worker_without_shard_runs_consecutive_seeds() {
        let seeds: Vec<u64> = (0..4).map(|i| seed_of(10, 1, Shard::ALL, 0, i)).collect();
        assert_eq!(seeds, [10, 11, 12, 13]);
    }

    #[test]
    fn workers_and_shards_never_share_a_seed() {
        let mut seen = BTreeSet::new();
        for (k, jobs) in [(1, 2), (2, 3), (3, 1)] {
            let shard = Shard { index: k, count: 3 };
            for w in 0..jobs {
                for i in 0..50 {
                    assert!(
                        seen.insert(seed_of(7, jobs, shard, w, i)),
                        "shard {k} worker {w} case {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn shards_parse_and_reject_nonsense() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(Shard::parse("2/4").unwrap().to_string(), "2/4");
        for bad in ["0/4", "5/4", "1/0", "x/2", "3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
