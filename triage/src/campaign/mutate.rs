//! Mutation: a feedback campaign's case either runs its seed's fresh program, as every case
//! of a campaign without feedback does, or mutates a corpus entry's bytes and runs the
//! program they decode to.
//!
//! Every choice comes from a ChaCha8 stream seeded from the case seed, and the entries come
//! from the worker's view of the corpus (the base corpus, then the worker's own entries:
//! see [`super::corpus`]), so a case is a function of its seed and that view.
//!
//! **Mix.** Once the view is non-empty, a share of the cases mutate, and each operator is
//! drawn with a weight: both are the worker's measured mix (see [`super::mix`]). Fresh
//! seeds are what found every bug so far (swarm-drawn programs, all of the generator's
//! shapes); mutation spends its cases near programs that reached something rare.
//!
//! **Operators** (one to four stacked, as libFuzzer stacks its mutations): byte-level —
//! bit flip, byte set, an interesting value (0, 1, ±1 at the type limits, small powers of
//! two) written as 1, 2 or 4 bytes, insert random bytes, erase a chunk, duplicate a chunk,
//! copy part of another entry over this one, splice (this entry's head, another's tail);
//! structure-aware, because the generator decodes its choices front to back — the
//! *aligned* splice keeps the other entry's tail at the same offset (the same decision
//! point, roughly), `redraw-tail` keeps a prefix and lets fresh random bytes decide the
//! rest of the program, `device-or-width` rewrites one of the first two bytes, which
//! choose the device and the dispatch width (with the device fixed by knobs, the width and
//! the first feature draw), and `swarm` rewrites one of the next [`HEADER`] bytes, where
//! the generator draws the program's swarm configuration (its features, operations and
//! types), so the program is decoded again under another configuration. After the operators, [`TAIL`] fresh random bytes are appended,
//! so that a program that now decodes further gets random choices rather than the zeros an
//! exhausted input gives.

use super::corpus::Entry;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::mix::Mix;

/// Fresh random bytes appended after the mutations.
pub const TAIL: usize = 1024;

/// Longest mutated input (what a seed expands to; the generator reads far less).
pub const MAX_LEN: usize = 1 << 14;

/// Mixed into the case seed, so the mutation stream is not the seed's program bytes.
const SALT: u64 = 0x6d75_7461_7465_2d31;

/// The operators, by name (the names go into a mutated reproducer's header).
pub const OPS: [&str; 12] = [
    "bit-flip",
    "byte-set",
    "interesting",
    "insert",
    "erase",
    "duplicate",
    "copy-part",
    "splice",
    "splice-aligned",
    "redraw-tail",
    "device-or-width",
    "swarm",
];

/// The bytes after the first two that `swarm` rewrites: the generator's swarm draws (one
/// byte each for its 38 features and 44 operations, and the types), roughly.
pub const HEADER: usize = 96;

const INTERESTING: [u32; 14] = [
    0,
    1,
    2,
    3,
    4,
    8,
    16,
    32,
    64,
    0x7f,
    0x80,
    0xff,
    0x7fff,
    0xffff_ffff,
];

/// A mutated input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutation {
    pub bytes: Vec<u8>,
    /// The entry mutated.
    pub parent: String,
    /// The operators applied, in order.
    pub ops: Vec<&'static str>,
}

/// The corpus a worker may mutate: the base corpus and its own entries.
#[derive(Clone, Copy)]
pub struct View<'a> {
    pub base: &'a [Entry],
    pub own: &'a [Entry],
}

impl View<'_> {
    pub fn len(&self) -> usize {
        self.base.len() + self.own.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn get(&self, i: usize) -> &Entry {
        if i < self.base.len() {
            &self.base[i]
        } else {
            &self.own[i - self.base.len()]
        }
    }

    fn pick(&self, rng: &mut ChaCha8Rng) -> &Entry {
        self.get(rng.random_range(0..self.len()))
    }

    /// The entry to mutate: the shortest of [`TOURNAMENT`] uniform draws (the first on a
    /// tie). Entries are the programs that reached something new, and those are about
    /// twice as long as fresh ones (123 against 69 instructions on average in a 10-minute
    /// default campaign), while compile time grows faster than length; favouring short
    /// entries, as AFL's favoured set and libFuzzer's preference for small inputs do, keeps
    /// mutated cases about as cheap as fresh ones. The byte length stands for the program's
    /// size because the generator reads its choices front to back and an entry is the
    /// prefix its program read; unlike a timing, it is the same on every machine.
    fn pick_parent(&self, rng: &mut ChaCha8Rng) -> &Entry {
        let mut best = self.pick(rng);
        for _ in 1..TOURNAMENT {
            let other = self.pick(rng);
            if other.bytes.len() < best.bytes.len() {
                best = other;
            }
        }
        best
    }
}

/// Draws per parent choice (see [`View::pick_parent`]).
const TOURNAMENT: usize = 3;

/// The mutation case `seed` runs with `view` and the worker's `mix`, or `None` for its
/// fresh program.
pub fn plan(seed: u64, view: View, mix: &Mix) -> Option<Mutation> {
    if view.is_empty() {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ SALT);
    if !rng.random_bool(f64::from(mix.share.min(1000)) / 1000.0) {
        return None;
    }
    let parent = view.pick_parent(&mut rng);
    let mut bytes = parent.bytes.to_vec();
    let mut ops = vec![];
    for _ in 0..rng.random_range(1..=4) {
        let op = OPS[weighted(&mix.weights, &mut rng)];
        let other = view.pick(&mut rng).bytes.clone();
        apply(op, &mut bytes, &other, &mut rng);
        bytes.truncate(MAX_LEN);
        ops.push(op);
    }
    let tail = TAIL.min(MAX_LEN - bytes.len());
    let start = bytes.len();
    bytes.resize(start + tail, 0);
    rng.fill_bytes(&mut bytes[start..]);
    Some(Mutation {
        bytes,
        parent: parent.name.clone(),
        ops,
    })
}

/// An index drawn with probability proportional to its weight (uniform if all are 0).
fn weighted(weights: &[u16], rng: &mut ChaCha8Rng) -> usize {
    let total: u32 = weights.iter().map(|&w| u32::from(w)).sum();
    if total == 0 {
        return rng.random_range(0..weights.len());
    }
    let mut x = rng.random_range(0..total);
    for (i, &w) in weights.iter().enumerate() {
        if x < u32::from(w) {
            return i;
        }
        x -= u32::from(w);
    }
    weights.len() - 1
}

/// A position in `0..=len` (inclusive: inserting at the end).
fn position(rng: &mut ChaCha8Rng, len: usize) -> usize {
    rng.random_range(0..=len)
}

/// A chunk `start..end` of a sequence of `len` > 0 bytes, at most `max` long.
fn chunk(rng: &mut ChaCha8Rng, len: usize, max: usize) -> (usize, usize) {
    let n = rng.random_range(1..=max.min(len));
    let start = rng.random_range(0..=len - n);
    (start, start + n)
}

/// Applies operator `op` to `b` (`other`: another entry, for the crossovers).
fn apply(op: &str, b: &mut Vec<u8>, other: &[u8], rng: &mut ChaCha8Rng) {
    if b.is_empty() && !matches!(op, "insert" | "splice" | "splice-aligned") {
        // Nothing to change in place: grow it instead.
        b.push(rng.random());
        return;
    }
    match op {
        "bit-flip" => {
            let i = rng.random_range(0..b.len());
            b[i] ^= 1 << rng.random_range(0..8);
        }
        "byte-set" => {
            let i = rng.random_range(0..b.len());
            b[i] = rng.random();
        }
        "interesting" => {
            let v = INTERESTING[rng.random_range(0..INTERESTING.len())];
            let width = [1usize, 2, 4][rng.random_range(0..3)].min(b.len());
            let i = rng.random_range(0..=b.len() - width);
            b[i..i + width].copy_from_slice(&v.to_le_bytes()[..width]);
        }
        "insert" => {
            let at = position(rng, b.len());
            let n = rng.random_range(1..=16);
            let new: Vec<u8> = (0..n).map(|_| rng.random()).collect();
            b.splice(at..at, new);
        }
        "erase" => {
            let (s, e) = chunk(rng, b.len(), 16);
            b.drain(s..e);
        }
        "duplicate" => {
            let (s, e) = chunk(rng, b.len(), 32);
            let part = b[s..e].to_vec();
            let at = position(rng, b.len());
            b.splice(at..at, part);
        }
        "copy-part" if !other.is_empty() => {
            let (s, e) = chunk(rng, other.len(), 64);
            let n = (e - s).min(b.len());
            let at = rng.random_range(0..=b.len() - n);
            b[at..at + n].copy_from_slice(&other[s..s + n]);
        }
        "splice" | "splice-aligned" => {
            let cut = position(rng, b.len());
            let from = if op == "splice-aligned" {
                cut.min(other.len())
            } else {
                position(rng, other.len())
            };
            b.truncate(cut);
            b.extend_from_slice(&other[from..]);
        }
        "redraw-tail" => {
            b.truncate(position(rng, b.len()));
        }
        "device-or-width" => {
            let i = rng.random_range(0..b.len().min(2));
            b[i] = rng.random();
        }
        "swarm" => {
            let i = rng.random_range(0..b.len().min(2 + HEADER));
            b[i] = rng.random();
        }
        _ => {
            // `copy-part` from an empty entry: a bit flip instead.
            let i = rng.random_range(0..b.len());
            b[i] ^= 1 << rng.random_range(0..8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mix in which every case mutates.
    fn always() -> Mix {
        Mix {
            share: 1000,
            ..Mix::default()
        }
    }

    fn entries() -> Vec<Entry> {
        vec![
            Entry::new((0..200).collect()),
            Entry::new(vec![]),
            Entry::new(vec![7; 3]),
        ]
    }

    #[test]
    fn no_corpus_no_mutation_and_the_share_mutates() {
        let none = View {
            base: &[],
            own: &[],
        };
        assert!((0..100).all(|s| plan(s, none, &always()).is_none()));
        let base = entries();
        let view = View {
            base: &base,
            own: &[],
        };
        let mutated = |share| {
            (0..1000)
                .filter(|&s| {
                    plan(
                        s,
                        view,
                        &Mix {
                            share,
                            ..Mix::default()
                        },
                    )
                    .is_some()
                })
                .count()
        };
        assert!((400..600).contains(&mutated(500)), "{}", mutated(500));
        assert!((50..150).contains(&mutated(100)), "{}", mutated(100));
        assert!((850..950).contains(&mutated(900)), "{}", mutated(900));
    }

    #[test]
    fn short_entries_are_mutated_more_often() {
        // Of three uniform draws from {short, long}, all three long: 1/8 of the time.
        let base = vec![Entry::new(vec![1; 10]), Entry::new(vec![2; 1000])];
        let view = View {
            base: &base,
            own: &[],
        };
        let parents: Vec<_> = (0..4000).filter_map(|s| plan(s, view, &always())).collect();
        let short = parents.iter().filter(|m| m.parent == base[0].name).count();
        let share = short as f64 / parents.len() as f64;
        assert!((0.83..0.92).contains(&share), "{share}");
    }

    #[test]
    fn mutations_are_a_function_of_seed_and_view_and_stay_bounded() {
        let base = entries();
        let own = vec![Entry::new(vec![1; 16_000])];
        let view = View {
            base: &base,
            own: &own,
        };
        let mut used = std::collections::BTreeSet::new();
        for seed in 0..2000 {
            let a = plan(seed, view, &always());
            assert_eq!(a, plan(seed, view, &always()), "seed {seed}");
            if let Some(m) = a {
                assert!(m.bytes.len() <= MAX_LEN);
                assert!(!m.ops.is_empty() && m.ops.len() <= 4);
                used.extend(m.ops);
            }
        }
        assert_eq!(used.len(), OPS.len(), "{used:?}");
        // Another view, another mutation (for some seed at least).
        let fewer = View {
            base: &base[..1],
            own: &[],
        };
        assert!((0..50).any(|s| plan(s, view, &always()) != plan(s, fewer, &always())));
    }

    #[test]
    fn operators_are_drawn_by_their_weights() {
        let base = entries();
        let view = View {
            base: &base,
            own: &[],
        };
        let mut only_swarm = Mix {
            share: 1000,
            ..Mix::default()
        };
        only_swarm.weights = [0; OPS.len()];
        only_swarm.weights[OPS.len() - 1] = 1;
        let ops: std::collections::BTreeSet<_> = (0..200)
            .filter_map(|s| plan(s, view, &only_swarm))
            .flat_map(|m| m.ops)
            .collect();
        assert_eq!(ops, ["swarm"].into());
    }
}
