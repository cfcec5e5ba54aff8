//! shader-db style A/B statistics: how a compiler change moved one metric (instructions,
//! cycles, spills, …) over a corpus of programs, in the terms compiler engineers read on
//! mesa-dev — totals in shared and affected programs, helped/HURT counts with their
//! min/max/mean/median, 95 % mean confidence intervals (Student's t) of the change and of
//! the %-change, and a one-line verdict. Every metric here is "lower is better".
//!
//! The statistics are plain functions of plain data; rendering is separate.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};

/// One program's value of a metric in the run before and the run after a change.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pair {
    pub name: String,
    pub before: f64,
    pub after: f64,
}

/// min / max / mean / median of a list of numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    pub median: f64,
}

/// What the numbers say about one metric.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// No program changed.
    NoChange,
    /// Both confidence intervals lie below zero.
    Helped,
    /// Both confidence intervals lie above zero.
    Hurt,
    /// The value's interval includes zero.
    ValueIncludesZero,
    /// The %-change's interval includes zero.
    PercentIncludesZero,
    /// The two intervals exclude zero on opposite sides.
    IntervalsDisagree,
    /// Fewer than two affected programs: no interval can be computed.
    TooFewAffected,
}

/// The comparison of one metric between two runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricReport {
    pub metric: String,
    /// Programs present in both runs.
    pub shared: usize,
    pub total_before: f64,
    pub total_after: f64,
    /// Programs whose value changed.
    pub affected: usize,
    pub affected_before: f64,
    pub affected_after: f64,
    pub helped: usize,
    pub hurt: usize,
    /// Magnitudes of the helped programs' changes (absolute, and % of the old value).
    pub helped_abs: Option<Summary>,
    pub helped_rel: Option<Summary>,
    pub hurt_abs: Option<Summary>,
    pub hurt_rel: Option<Summary>,
    /// 95 % mean confidence interval of `after − before` over affected programs.
    pub value_ci: Option<(f64, f64)>,
    /// 95 % mean confidence interval of the %-change over affected programs whose old
    /// value is not zero.
    pub percent_ci: Option<(f64, f64)>,
    /// Affected programs left out of the %-change statistics because their old value is
    /// zero (a change from zero has no percentage).
    pub from_zero: usize,
    pub verdict: Verdict,
    /// The most helped and most hurt programs, largest change first.
    pub top_helped: Vec<Pair>,
    pub top_hurt: Vec<Pair>,
}

/// The summary of `values` (`None` when empty).
pub fn summarize(values: &[f64]) -> Option<Summary> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    };
    Some(Summary {
        min: sorted[0],
        max: sorted[n - 1],
        mean: sorted.iter().sum::<f64>() / n as f64,
        median,
    })
}

/// The 95 % confidence interval of the mean of `values` from Student's t distribution with
/// n − 1 degrees of freedom: mean ± t(0.975, n−1) · s / √n, s the sample standard deviation.
/// `None` for fewer than two values.
pub fn mean_confidence_interval(values: &[f64]) -> Option<(f64, f64)> {
    let n = values.len();
    if n < 2 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let t = StudentsT::new(0.0, 1.0, (n - 1) as f64)
        .ok()?
        .inverse_cdf(0.975);
    let half = t * variance.sqrt() / (n as f64).sqrt();
    Some((mean - half, mean + half))
}

/// The verdict for lower-is-better intervals.
fn verdict(affected: usize, value: Option<(f64, f64)>, percent: Option<(f64, f64)>) -> Verdict {
    if affected == 0 {
        return Verdict::NoChange;
    }
    let side = |ci: (f64, f64)| {
        if ci.1 < 0.0 {
            Some(-1)
        } else if ci.0 > 0.0 {
            Some(1)
        } else {
            None
        }
    };
    let (Some(value), Some(percent)) = (value, percent) else {
        return Verdict::TooFewAffected;
    };
    match (side(value), side(percent)) {
        (None, _) => Verdict::ValueIncludesZero,
        (_, None) => Verdict::PercentIncludesZero,
        (Some(-1), Some(-1)) => Verdict::Helped,
        (Some(1), Some(1)) => Verdict::Hurt,
        _ => Verdict::IntervalsDisagree,
    }
}

/// Compares `metric` over the programs both runs have; `top` bounds the lists of most
/// helped and most hurt programs.
pub fn compare_metric(metric: &str, pairs: &[Pair], top: usize) -> MetricReport {
    let affected: Vec<&Pair> = pairs.iter().filter(|p| p.before != p.after).collect();
    let helped: Vec<&Pair> = affected
        .iter()
        .copied()
        .filter(|p| p.after < p.before)
        .collect();
    let hurt: Vec<&Pair> = affected
        .iter()
        .copied()
        .filter(|p| p.after > p.before)
        .collect();
    let abs = |ps: &[&Pair]| {
        summarize(
            &ps.iter()
                .map(|p| (p.after - p.before).abs())
                .collect::<Vec<_>>(),
        )
    };
    let rel = |ps: &[&Pair]| {
        summarize(
            &ps.iter()
                .filter(|p| p.before != 0.0)
                .map(|p| ((p.after - p.before) / p.before * 100.0).abs())
                .collect::<Vec<_>>(),
        )
    };
    let diffs: Vec<f64> = affected.iter().map(|p| p.after - p.before).collect();
    let percents: Vec<f64> = affected
        .iter()
        .filter(|p| p.before != 0.0)
        .map(|p| (p.after - p.before) / p.before * 100.0)
        .collect();
    let value_ci = mean_confidence_interval(&diffs);
    let percent_ci = mean_confidence_interval(&percents);
    let by_change = |ps: &[&Pair]| {
        let mut v: Vec<Pair> = ps.iter().map(|p| (*p).clone()).collect();
        v.sort_by(|a, b| {
            (b.after - b.before)
                .abs()
                .total_cmp(&(a.after - a.before).abs())
                .then_with(|| a.name.cmp(&b.name))
        });
        v.truncate(top);
        v
    };
    MetricReport {
        metric: metric.to_string(),
        shared: pairs.len(),
        total_before: pairs.iter().map(|p| p.before).sum(),
        total_after: pairs.iter().map(|p| p.after).sum(),
        affected: affected.len(),
        affected_before: affected.iter().map(|p| p.before).sum(),
        affected_after: affected.iter().map(|p| p.after).sum(),
        helped: helped.len(),
        hurt: hurt.len(),
        helped_abs: abs(&helped),
        helped_rel: rel(&helped),
        hurt_abs: abs(&hurt),
        hurt_rel: rel(&hurt),
        value_ci,
        percent_ci,
        from_zero: affected.len() - percents.len(),
        verdict: verdict(affected.len(), value_ci, percent_ci),
        top_helped: by_change(&helped),
        top_hurt: by_change(&hurt),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(values: &[(f64, f64)]) -> Vec<Pair> {
        values
            .iter()
            .enumerate()
            .map(|(i, &(before, after))| Pair {
                name: format!("p{i}"),
                before,
                after,
            })
            .collect()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn summaries_take_the_middle_pair_for_even_lengths() {
        let s = summarize(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!((s.min, s.max, s.mean, s.median), (1.0, 4.0, 2.5, 2.5));
        assert_eq!(summarize(&[5.0, 1.0, 3.0]).unwrap().median, 3.0);
        assert_eq!(summarize(&[]), None);
    }

    #[test]
    fn confidence_interval_matches_a_hand_computation() {
        // -1 … -10: mean -5.5, s = sqrt(82.5 / 9) = 3.02765, t(0.975, 9) = 2.26216 (table),
        // half width 2.26216 × 3.02765 / sqrt(10) = 2.16585.
        let v: Vec<f64> = (1..=10).map(|i| -f64::from(i)).collect();
        let (lo, hi) = mean_confidence_interval(&v).unwrap();
        assert!(close(lo, -7.66585) && close(hi, -3.33415), "{lo} {hi}");
        assert_eq!(mean_confidence_interval(&[1.0]), None);
    }

    #[test]
    fn a_consistent_reduction_is_helped() {
        // Ten programs, each 10 % smaller: 100 → 90, 200 → 180, … (diffs -10 … -100).
        let ps = pairs(
            &(1..=10)
                .map(|i| (f64::from(i) * 100.0, f64::from(i) * 90.0))
                .collect::<Vec<_>>(),
        );
        let r = compare_metric("instructions", &ps, 2);
        assert_eq!((r.helped, r.hurt, r.affected), (10, 0, 10));
        assert_eq!((r.total_before, r.total_after), (5500.0, 4950.0));
        // The %-change is exactly -10 everywhere: a zero-width interval below zero.
        let (lo, hi) = r.percent_ci.unwrap();
        assert!(close(lo, -10.0) && close(hi, -10.0));
        assert_eq!(r.verdict, Verdict::Helped);
        let h = r.helped_abs.unwrap();
        assert_eq!((h.min, h.max, h.mean, h.median), (10.0, 100.0, 55.0, 55.0));
        assert_eq!(r.top_helped[0].name, "p9");
        assert_eq!(r.top_helped.len(), 2);
    }

    #[test]
    fn an_interval_that_includes_zero_is_inconclusive() {
        // Diffs -2, -4, +6 (mean 0): the value interval straddles zero.
        let ps = pairs(&[(10.0, 8.0), (10.0, 6.0), (10.0, 16.0), (5.0, 5.0)]);
        let r = compare_metric("cycles", &ps, 5);
        assert_eq!((r.helped, r.hurt, r.affected, r.shared), (2, 1, 3, 4));
        // mean 0, s = sqrt((4 + 16 + 36) / 2) = 5.2915, t(0.975, 2) = 4.30265:
        // half width 4.30265 × 5.2915 / sqrt(3) = 13.1448.
        let (lo, hi) = r.value_ci.unwrap();
        assert!(close(lo, -13.1448) && close(hi, 13.1448), "{lo} {hi}");
        assert_eq!(r.verdict, Verdict::ValueIncludesZero);
    }

    #[test]
    fn no_change_and_changes_from_zero() {
        let same = pairs(&[(3.0, 3.0), (4.0, 4.0)]);
        let r = compare_metric("spills", &same, 5);
        assert_eq!(
            (r.helped, r.hurt, r.verdict.clone()),
            (0, 0, Verdict::NoChange)
        );
        let from_zero = pairs(&[(0.0, 2.0), (0.0, 4.0), (1.0, 2.0)]);
        let r = compare_metric("spills", &from_zero, 5);
        assert_eq!(r.from_zero, 2);
        assert_eq!(r.verdict, Verdict::TooFewAffected);
        assert_eq!(r.hurt_rel.unwrap().max, 100.0);
    }
}
