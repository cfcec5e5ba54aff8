//! The shader-db comparison as text, in the wording of Mesa's shader-db reports that
//! backend engineers paste into commit messages ("total instructions in shared programs:
//! A -> B", "helped: N", "HURT: M", the confidence intervals and the verdict line). The
//! same text is valid Markdown inside a code block.

use crate::shader_runs::RunComparison;
use crate::shader_stats::{MetricReport, Summary, Verdict};
use std::fmt::Write;

/// `a -> b (±p%)`, the percentage left out when `a` is zero.
fn change(a: f64, b: f64) -> String {
    if a == 0.0 {
        format!("{} -> {}", number(a), number(b))
    } else {
        format!(
            "{} -> {} ({:+.2}%)",
            number(a),
            number(b),
            (b - a) / a * 100.0
        )
    }
}

/// Whole numbers without decimals, others with two.
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:.2}")
    }
}

fn stats_line(label: &str, s: &Summary, percent: bool) -> String {
    let unit = if percent { "%" } else { "" };
    let fmt = |x: f64| {
        if percent {
            format!("{x:.2}")
        } else {
            number(x)
        }
    };
    format!(
        "{label} min: {}{unit} max: {}{unit} x\u{304}: {:.2}{unit} x\u{303}: {}{unit}",
        fmt(s.min),
        fmt(s.max),
        s.mean,
        fmt(s.median)
    )
}

/// The verdict sentence for `metric`.
pub fn verdict_line(metric: &str, v: &Verdict) -> String {
    let mut name = metric.to_string();
    if let Some(first) = name.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    match v {
        Verdict::NoChange => "No change.".into(),
        Verdict::Helped => format!("{name} are helped."),
        Verdict::Hurt => format!("{name} are HURT."),
        Verdict::ValueIncludesZero => {
            "Inconclusive result (value mean confidence interval includes 0).".into()
        }
        Verdict::PercentIncludesZero => {
            "Inconclusive result (%-change mean confidence interval includes 0).".into()
        }
        Verdict::IntervalsDisagree => "Inconclusive result (value mean confidence interval and \
                                       %-change mean confidence interval disagree)."
            .into(),
        Verdict::TooFewAffected => {
            "Inconclusive result (fewer than two affected programs: no confidence interval).".into()
        }
    }
}

/// One metric's report.
pub fn render_metric(r: &MetricReport) -> String {
    let m = &r.metric;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "total {m} in shared programs: {}",
        change(r.total_before, r.total_after)
    );
    let _ = writeln!(
        out,
        "{m} in affected programs: {}",
        change(r.affected_before, r.affected_after)
    );
    let _ = writeln!(out, "helped: {}", r.helped);
    let _ = writeln!(out, "HURT: {}", r.hurt);
    for (label, abs, rel) in [
        ("helped", &r.helped_abs, &r.helped_rel),
        ("HURT", &r.hurt_abs, &r.hurt_rel),
    ] {
        if let Some(s) = abs {
            let _ = writeln!(
                out,
                "{}",
                stats_line(&format!("{label} stats (abs)"), s, false)
            );
        }
        if let Some(s) = rel {
            let _ = writeln!(
                out,
                "{}",
                stats_line(&format!("{label} stats (rel)"), s, true)
            );
        }
    }
    if let Some((lo, hi)) = r.value_ci {
        let _ = writeln!(
            out,
            "95% mean confidence interval for {m} value: {lo:.2} {hi:.2}"
        );
    }
    if let Some((lo, hi)) = r.percent_ci {
        let _ = writeln!(
            out,
            "95% mean confidence interval for {m} %-change: {lo:.2}% {hi:.2}%"
        );
    }
    if r.from_zero > 0 {
        let _ = writeln!(
            out,
            "({} affected programs changed from 0: not in the %-change figures)",
            r.from_zero
        );
    }
    let _ = writeln!(out, "{}", verdict_line(m, &r.verdict));
    for (label, list) in [("most helped", &r.top_helped), ("most HURT", &r.top_hurt)] {
        if !list.is_empty() {
            let _ = writeln!(out, "{label}:");
            for p in list {
                let _ = writeln!(out, "  {}: {}", p.name, change(p.before, p.after));
            }
        }
    }
    out
}

/// The rows that are not compared (only in one run, or failing in one), as lines.
fn unpaired_lines(c: &RunComparison) -> Vec<String> {
    let mut out = vec![];
    for (label, names) in [
        ("only in the first run", &c.only_before),
        ("only in the second run", &c.only_after),
    ] {
        if !names.is_empty() {
            out.push(format!("{label} ({}):", names.len()));
            out.extend(names.iter().map(|n| format!("  {n}")));
        }
    }
    for (label, failed) in [
        ("failed to compile in the first run", &c.failed_before),
        ("failed to compile in the second run", &c.failed_after),
    ] {
        if !failed.is_empty() {
            out.push(format!("{label} ({}):", failed.len()));
            out.extend(failed.iter().map(|(n, e)| format!("  {n}: {e}")));
        }
    }
    out
}

/// A whole comparison as plain text: every metric's report, then the rows not compared.
pub fn render_comparison(c: &RunComparison) -> String {
    let mut out = format!(
        "shared programs: {} (program, device pairs compiled in both runs)\n",
        c.shared
    );
    for m in &c.metrics {
        out.push('\n');
        out.push_str(&render_metric(m));
    }
    let unpaired = unpaired_lines(c);
    if !unpaired.is_empty() {
        out.push('\n');
        for line in unpaired {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

/// A whole comparison as Markdown: a summary table, then each metric's report in a code
/// block (the text people paste into commit messages), then the rows not compared.
pub fn render_comparison_markdown(c: &RunComparison) -> String {
    let mut out = String::from("## shader-db comparison\n\n");
    let _ = writeln!(
        out,
        "{} programs (program, device pairs) compiled in both runs.\n",
        c.shared
    );
    out.push_str("| metric | total | helped | HURT | verdict |\n| --- | --- | --- | --- | --- |\n");
    for m in &c.metrics {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            m.metric,
            change(m.total_before, m.total_after),
            m.helped,
            m.hurt,
            verdict_line(&m.metric, &m.verdict)
        );
    }
    for m in &c.metrics {
        let _ = write!(out, "\n### {}\n\n```\n{}```\n", m.metric, render_metric(m));
    }
    let unpaired = unpaired_lines(c);
    if !unpaired.is_empty() {
        let _ = write!(out, "\n### Not compared\n\n```\n");
        for line in unpaired {
            let _ = writeln!(out, "{line}");
        }
        out.push_str("```\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader_stats::{Pair, compare_metric};

    #[test]
    fn a_helped_metric_reads_like_a_shader_db_report() {
        let pairs: Vec<Pair> = [(10.0, 8.0), (20.0, 16.0), (30.0, 24.0), (7.0, 7.0)]
            .iter()
            .enumerate()
            .map(|(i, &(before, after))| Pair {
                name: format!("s{i}.eu"),
                before,
                after,
            })
            .collect();
        let text = render_metric(&compare_metric("instructions", &pairs, 1));
        // Diffs -2, -4, -6: mean -4, s = 2, t(0.975, 2) = 4.30265, half width 4.96829.
        // Every %-change is exactly -20.
        let expected = "\
total instructions in shared programs: 67 -> 55 (-17.91%)
instructions in affected programs: 60 -> 48 (-20.00%)
helped: 3
HURT: 0
helped stats (abs) min: 2 max: 6 x\u{304}: 4.00 x\u{303}: 4
helped stats (rel) min: 20.00% max: 20.00% x\u{304}: 20.00% x\u{303}: 20.00%
95% mean confidence interval for instructions value: -8.97 0.97
95% mean confidence interval for instructions %-change: -20.00% -20.00%
Inconclusive result (value mean confidence interval includes 0).
most helped:
  s2.eu: 30 -> 24 (-20.00%)
";
        assert_eq!(text, expected);
    }

    #[test]
    fn comparisons_list_the_rows_they_did_not_compare() {
        use crate::shader_runs::{RunRow, compare_runs};
        let row = |program: &str, instructions: u64, error: &str| RunRow {
            program: program.into(),
            device: "hsw".into(),
            instructions,
            error: error.into(),
            ..Default::default()
        };
        let before = vec![row("a.eu", 4, ""), row("b.eu", 6, ""), row("c.eu", 1, "")];
        let after = vec![row("a.eu", 4, ""), row("b.eu", 0, "out of registers")];
        let c = compare_runs(&before, &after, &["instructions"], 3).unwrap();
        let text = render_comparison(&c);
        assert!(text.starts_with("shared programs: 1 "), "{text}");
        assert!(text.contains("total instructions in shared programs: 4 -> 4 (+0.00%)\n"));
        assert!(text.contains("No change.\n"));
        assert!(
            text.contains("only in the first run (1):\n  c.eu (hsw)\n"),
            "{text}"
        );
        assert!(text.contains(
            "failed to compile in the second run (1):\n  b.eu (hsw): out of registers\n"
        ));
        let md = render_comparison_markdown(&c);
        assert!(
            md.contains("| instructions | 4 -> 4 (+0.00%) | 0 | 0 | No change. |"),
            "{md}"
        );
        assert!(md.contains("### Not compared"));
    }

    #[test]
    fn verdicts_name_the_metric() {
        assert_eq!(verdict_line("cycles", &Verdict::Hurt), "Cycles are HURT.");
        assert_eq!(verdict_line("spills", &Verdict::NoChange), "No change.");
    }
}
