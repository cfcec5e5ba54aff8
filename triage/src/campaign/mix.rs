//! The mix of a feedback campaign: how many of a worker's cases mutate corpus entries
//! rather than run their seed's fresh program, and how often each mutation operator is
//! drawn.
//!
//! A fixed half of mutated cases and uniformly drawn operators (the first design) lost to
//! no feedback at all on the feature count: in a 10-minute default campaign, mutated cases
//! reached new instruction combinations far less often than fresh ones (they stay near
//! their parent, on its device), and those are 96 % of all features; and the operators
//! differed by half (in a 3-minute campaign, a rewritten device or width byte brought 0.38
//! new features per case it took part in, a bit flip 0.25). Yet mutation is what reaches
//! the rare rewrites, rules and control-flow shapes. So each worker measures what each
//! origin and each operator brings — new features per case, as a discounted mean over
//! about the last [`ORIGIN_WINDOW`] cases ([`OPS_WINDOW`] mutated cases for the
//! operators), so the estimate follows the campaign as the easy features run out — and leans
//! toward what pays ([`Yields::mix`]), as MOpt does for AFL's operators, with floors so
//! that nothing stops being measured.
//!
//! Determinism: a worker's yields are a function of its own cases in stream order (the
//! features a case reaches are a function of its input), they are saved in the
//! checkpoint, and a failure waiting to be filed keeps the mix its case was drawn with,
//! so a re-run draws the same input.

use super::mutate::{Mutation, OPS};
use serde::{Deserialize, Serialize};

/// Thousandths (integers, so that a mix is saved and compared exactly).
pub type Permille = u16;

/// The share of mutated cases before both origins have [`WARMUP`] cases measured: the
/// least. Early on nearly every fresh program reaches something new, and mutation earns
/// its share by what it brings (starting from a half, a campaign was behind one without
/// feedback for its first minutes).
pub const START: Permille = MIN;

/// The least share of either origin.
pub const MIN: Permille = 100;

/// The greatest share of mutated cases.
pub const MAX: Permille = 900;

/// The least weight of an operator, in thousandths of all (uniform is 1000 / `OPS.len()`).
pub const MIN_WEIGHT: Permille = 20;

/// Cases measured (of an origin, or with an operator) before the mix moves from its start.
pub const WARMUP: u64 = 64;

/// The window of the origins' averages, in cases of the worker (either origin): each case
/// weighs every earlier one down by `1 - 1 / ORIGIN_WINDOW`.
pub const ORIGIN_WINDOW: f64 = 2048.0;

/// The window of the operators' averages, in mutated cases.
pub const OPS_WINDOW: f64 = 1024.0;

/// What a worker's next case draws from: the share of mutated cases, and each
/// operator's weight (in the order of [`OPS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mix {
    pub share: Permille,
    pub weights: [Permille; OPS.len()],
}

impl Default for Mix {
    fn default() -> Mix {
        Mix {
            share: START,
            weights: [(1000 / OPS.len()) as Permille; OPS.len()],
        }
    }
}

/// New features per case, by origin and by operator, as a worker has measured them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Yields {
    pub fresh: Average,
    pub mutated: Average,
    /// Per operator, over the mutated cases it took part in (each of a case's operators
    /// is credited with the case's new features).
    pub ops: [Average; OPS.len()],
}

/// A discounted mean: every step of its scope (a case, or a mutated case) weighs all the
/// values before it down, whether or not this average got a value in that step. So the
/// mean of an origin drawn in one case of ten describes the same recent stretch of the
/// campaign as the other's, not an older one (a moving average per origin counted in its
/// own cases, the first version, reached ten times further back for the rarer origin, to
/// when features came easier, and overrated it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Average {
    /// Values recorded in all (for [`WARMUP`]).
    pub cases: u64,
    /// The discounted sum of the values and of their weights.
    pub sum: f64,
    pub weight: f64,
}

impl Average {
    fn decay(&mut self, window: f64) {
        let keep = 1.0 - 1.0 / window;
        self.sum *= keep;
        self.weight *= keep;
    }

    fn add(&mut self, value: f64) {
        self.cases += 1;
        self.sum += value;
        self.weight += 1.0;
    }

    fn mean(&self) -> f64 {
        if self.weight > 0.0 {
            self.sum / self.weight
        } else {
            0.0
        }
    }
}

/// Weighs an operator against the others by its squared mean (one that pays twice as much
/// as another is drawn four times as often: squaring leans harder than matching the ratio,
/// which would keep spending a third of the draws on what pays half as much).
fn squared(a: &Average) -> f64 {
    a.mean() * a.mean()
}

/// Weighs an origin against the other by its mean to the fourth power: near greedy, since
/// two origins are easy to tell apart and every case given to the one paying less is lost
/// (at twice the yield, the better origin gets 16 cases for the other's one, so the floors
/// decide). With squares, a 10-minute campaign gave a quarter of its cases to mutation
/// while mutation paid a third of what fresh programs did.
fn fourth(a: &Average) -> f64 {
    squared(a) * squared(a)
}

impl Yields {
    /// Records a case (`mutation`: how it was made, `None` for a fresh one) that reached
    /// `new` features the worker had not seen.
    pub fn record(&mut self, mutation: Option<&Mutation>, new: usize) {
        let new = new as f64;
        self.fresh.decay(ORIGIN_WINDOW);
        self.mutated.decay(ORIGIN_WINDOW);
        let Some(m) = mutation else {
            self.fresh.add(new);
            return;
        };
        self.mutated.add(new);
        for a in &mut self.ops {
            a.decay(OPS_WINDOW);
        }
        let mut seen = [false; OPS.len()];
        for op in &m.ops {
            if let Some(i) = OPS.iter().position(|o| o == op)
                && !seen[i]
            {
                seen[i] = true;
                self.ops[i].add(new);
            }
        }
    }

    /// The mix these yields call for.
    pub fn mix(&self) -> Mix {
        Mix {
            share: self.share(),
            weights: self.weights(),
        }
    }

    /// The share of mutated cases, clamped to [`MIN`]..=[`MAX`]; [`START`] until both
    /// origins are measured or while neither pays.
    fn share(&self) -> Permille {
        if self.fresh.cases < WARMUP || self.mutated.cases < WARMUP {
            return START;
        }
        let (m, f) = (fourth(&self.mutated), fourth(&self.fresh));
        if m + f <= 0.0 {
            return START;
        }
        ((1000.0 * m / (m + f)).round() as Permille).clamp(MIN, MAX)
    }

    /// The operators' weights, each at least [`MIN_WEIGHT`]; uniform until every operator
    /// is measured or while none pays.
    fn weights(&self) -> [Permille; OPS.len()] {
        let total: f64 = self.ops.iter().map(squared).sum();
        if self.ops.iter().any(|a| a.cases < WARMUP) || total <= 0.0 {
            return Mix::default().weights;
        }
        self.ops
            .map(|a| ((1000.0 * squared(&a) / total).round() as Permille).max(MIN_WEIGHT))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mutation(ops: &[&'static str]) -> Mutation {
        Mutation {
            bytes: vec![],
            parent: String::new(),
            ops: ops.to_vec(),
        }
    }

    fn measured(fresh: usize, mutated: usize, cases: u64) -> Yields {
        let mut y = Yields::default();
        for _ in 0..cases {
            y.record(None, fresh);
            y.record(Some(&mutation(&["bit-flip"])), mutated);
        }
        y
    }

    fn share(y: &Yields) -> Permille {
        y.mix().share
    }

    #[test]
    fn the_share_starts_low_and_waits_for_both_origins() {
        assert_eq!(Yields::default().mix(), Mix::default());
        let mut y = Yields::default();
        for _ in 0..1000 {
            y.record(None, 5);
        }
        assert_eq!(share(&y), START, "no mutated case measured yet");
    }

    #[test]
    fn the_share_leans_toward_the_origin_that_pays_more() {
        // A quarter more: 2.44 to 1 (29 %); twice: 16 to 1, clamped.
        assert_eq!(share(&measured(5, 4, WARMUP)), 291);
        assert_eq!(share(&measured(4, 5, WARMUP)), 709);
        assert_eq!(share(&measured(2, 1, WARMUP)), MIN);
        assert_eq!(share(&measured(1, 2, WARMUP)), MAX);
        assert_eq!(share(&measured(3, 3, WARMUP)), 500);
        // Far apart: clamped, so neither origin stops being measured.
        assert_eq!(share(&measured(10, 1, WARMUP)), MIN);
        assert_eq!(share(&measured(1, 10, WARMUP)), MAX);
        assert_eq!(share(&measured(0, 0, WARMUP)), START);
    }

    #[test]
    fn old_yields_fade_after_the_window() {
        // Mutation paid well early on, then nothing: after a few windows the share is low.
        let mut y = measured(1, 4, 256);
        assert!(share(&y) > 800);
        for _ in 0..4 * ORIGIN_WINDOW as usize {
            y.record(None, 1);
            y.record(Some(&mutation(&["bit-flip"])), 0);
        }
        assert_eq!(share(&y), MIN);
        assert!(y.mutated.mean() < 0.1, "{}", y.mutated.mean());
    }

    #[test]
    fn operators_are_weighed_by_what_they_bring() {
        let mut y = Yields::default();
        // Uniform until every operator has been measured.
        for _ in 0..WARMUP {
            y.record(Some(&mutation(&["splice"])), 2);
        }
        assert_eq!(y.mix().weights, Mix::default().weights);
        for _ in 0..WARMUP {
            for op in OPS {
                let new = if op == "splice" { 2 } else { 1 };
                // An operator used twice in one case is credited once.
                y.record(Some(&mutation(&[op, op])), new);
            }
        }
        let w = y.mix().weights;
        let splice = OPS.iter().position(|o| *o == "splice").unwrap();
        // `splice` paid about twice the others: about four times their weight.
        let other = w[(splice + 1) % OPS.len()];
        assert!(
            w.iter()
                .enumerate()
                .all(|(i, &x)| i == splice || x == other),
            "{w:?}"
        );
        assert!((3 * other..=5 * other).contains(&w[splice]), "{w:?}");
        // One that brings nothing keeps the floor.
        for _ in 0..4 * OPS_WINDOW as usize {
            y.record(Some(&mutation(&["erase"])), 0);
        }
        let erase = OPS.iter().position(|o| *o == "erase").unwrap();
        assert_eq!(y.mix().weights[erase], MIN_WEIGHT);
    }

    #[test]
    fn a_rare_origin_is_measured_over_the_same_stretch_as_the_other() {
        // Both origins pay the same, less and less; mutation gets one case in ten. Their
        // means must agree, or the rarer one looks better for being measured longer ago.
        let mut y = Yields::default();
        let m = mutation(&["bit-flip"]);
        for t in 0..20_000usize {
            let new = (20_000 - t) / 1000;
            y.record((t % 10 == 0).then_some(&m), new);
        }
        let (f, m) = (y.fresh.mean(), y.mutated.mean());
        assert!((f - m).abs() < 0.15 * f, "fresh {f}, mutated {m}");
    }
}
