//! Two shader-db runs side by side: rows of (program, device) figures from `eufuzz stats`,
//! paired by program and device, each metric compared with
//! [`compare_metric`](crate::shader_stats::compare_metric). Programs that only one run has,
//! or that failed to compile in either, are listed by name instead of silently dropped: a
//! change that breaks a shader must not look like one that shrinks the totals.

use crate::shader_stats::{MetricReport, Pair, compare_metric};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One row of a run: one program compiled for one device (the CSV columns of `eufuzz
/// stats`). Every metric is "lower is better"; `error` is empty when the program compiled.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    pub program: String,
    pub device: String,
    pub instructions: u64,
    pub sends: u64,
    pub loops: u64,
    pub cycles: u64,
    pub spills: u64,
    pub fills: u64,
    pub scratch_bytes: u64,
    pub max_live_registers: u64,
    /// Wall-clock compile time: noisy, so compared only when asked for.
    pub compile_us: u64,
    pub error: String,
}

/// Every metric a row has, in report order; the compile time comes last.
pub const ALL_METRICS: [&str; 9] = [
    "instructions",
    "sends",
    "loops",
    "cycles",
    "spills",
    "fills",
    "scratch_bytes",
    "max_live_registers",
    "compile_us",
];

/// The metrics a comparison reports by default: all but the compile time, which is
/// wall-clock noise unless asked for.
pub const DEFAULT_METRICS: &[&str] = ALL_METRICS.split_last().unwrap().1;

impl RunRow {
    /// The value of `metric` (one of [`ALL_METRICS`]).
    pub fn metric(&self, metric: &str) -> Option<f64> {
        let v = match metric {
            "instructions" => self.instructions,
            "sends" => self.sends,
            "loops" => self.loops,
            "cycles" => self.cycles,
            "spills" => self.spills,
            "fills" => self.fills,
            "scratch_bytes" => self.scratch_bytes,
            "max_live_registers" => self.max_live_registers,
            "compile_us" => self.compile_us,
            _ => return None,
        };
        Some(v as f64)
    }

    /// How reports name the row: `program (device)`.
    pub fn name(&self) -> String {
        format!("{} ({})", self.program, self.device)
    }
}

/// The comparison of two runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunComparison {
    /// Rows compiled in both runs.
    pub shared: usize,
    pub metrics: Vec<MetricReport>,
    /// Rows only the first (second) run has.
    pub only_before: Vec<String>,
    pub only_after: Vec<String>,
    /// Rows present in both runs that failed to compile in the first (second) run, with
    /// the error.
    pub failed_before: Vec<(String, String)>,
    pub failed_after: Vec<(String, String)>,
}

fn by_name(rows: &[RunRow]) -> BTreeMap<String, &RunRow> {
    rows.iter().map(|r| (r.name(), r)).collect()
}

/// Compares `metrics` between `before` and `after`; `top` bounds the most helped / most
/// hurt lists. An unknown metric name is an error.
pub fn compare_runs(
    before: &[RunRow],
    after: &[RunRow],
    metrics: &[&str],
    top: usize,
) -> Result<RunComparison, String> {
    if let Some(bad) = metrics.iter().find(|m| !ALL_METRICS.contains(m)) {
        return Err(format!(
            "unknown metric `{bad}`: expected one of {}",
            ALL_METRICS.join(", ")
        ));
    }
    let (b, a) = (by_name(before), by_name(after));
    let only_before: Vec<String> = b.keys().filter(|k| !a.contains_key(*k)).cloned().collect();
    let only_after: Vec<String> = a.keys().filter(|k| !b.contains_key(*k)).cloned().collect();
    let mut failed_before = vec![];
    let mut failed_after = vec![];
    let mut shared: Vec<(&RunRow, &RunRow)> = vec![];
    for (name, rb) in &b {
        let Some(ra) = a.get(name) else { continue };
        if !rb.error.is_empty() {
            failed_before.push((name.clone(), rb.error.clone()));
        }
        if !ra.error.is_empty() {
            failed_after.push((name.clone(), ra.error.clone()));
        }
        if rb.error.is_empty() && ra.error.is_empty() {
            shared.push((rb, ra));
        }
    }
    let reports = metrics
        .iter()
        .map(|&m| {
            let pairs: Vec<Pair> = shared
                .iter()
                .map(|(rb, ra)| Pair {
                    name: rb.name(),
                    before: rb.metric(m).unwrap_or(0.0),
                    after: ra.metric(m).unwrap_or(0.0),
                })
                .collect();
            compare_metric(&m.replace('_', " "), &pairs, top)
        })
        .collect();
    Ok(RunComparison {
        shared: shared.len(),
        metrics: reports,
        only_before,
        only_after,
        failed_before,
        failed_after,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader_stats::Verdict;

    fn row(program: &str, instructions: u64, error: &str) -> RunRow {
        RunRow {
            program: program.into(),
            device: "skl".into(),
            instructions,
            error: error.into(),
            ..Default::default()
        }
    }

    #[test]
    fn rows_pair_by_program_and_device_and_the_rest_is_listed() {
        let before = vec![
            row("a.eu", 10, ""),
            row("b.eu", 20, ""),
            row("gone.eu", 5, ""),
            row("broke.eu", 7, ""),
        ];
        let after = vec![
            row("a.eu", 8, ""),
            row("b.eu", 20, ""),
            row("new.eu", 3, ""),
            row(
                "broke.eu",
                0,
                "pass allocate_registers failed: out of registers",
            ),
        ];
        let c = compare_runs(&before, &after, &["instructions"], 5).unwrap();
        assert_eq!(c.shared, 2);
        assert_eq!(c.only_before, vec!["gone.eu (skl)"]);
        assert_eq!(c.only_after, vec!["new.eu (skl)"]);
        assert_eq!(c.failed_after.len(), 1);
        assert!(c.failed_before.is_empty());
        let m = &c.metrics[0];
        assert_eq!((m.total_before, m.total_after), (30.0, 28.0));
        assert_eq!((m.helped, m.hurt), (1, 0));
    }

    #[test]
    fn a_run_compared_with_itself_changes_nothing() {
        let run = vec![row("a.eu", 10, ""), row("b.eu", 20, "")];
        let c = compare_runs(&run, &run, DEFAULT_METRICS, 5).unwrap();
        assert_eq!(c.metrics.len(), 8);
        assert!(!DEFAULT_METRICS.contains(&"compile_us"));
        assert!(
            c.metrics
                .iter()
                .all(|m| m.helped == 0 && m.hurt == 0 && m.verdict == Verdict::NoChange)
        );
    }

    #[test]
    fn unknown_metrics_are_named() {
        let e = compare_runs(&[], &[], &["instrs"], 5).unwrap_err();
        assert!(e.contains("unknown metric `instrs`") && e.contains("max_live_registers"));
    }
}
