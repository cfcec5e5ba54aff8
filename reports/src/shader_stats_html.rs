//! The shader-db comparison as an HTML section (a `<section>` element, no page around it),
//! so a campaign report or any other page can embed it; styling is left to the page.

use crate::markup::escape;
use crate::shader_runs::RunComparison;
use crate::shader_stats_text::{render_metric, verdict_line};
use std::fmt::Write;

fn interval(ci: Option<(f64, f64)>, unit: &str) -> String {
    ci.map_or("-".into(), |(lo, hi)| {
        format!("{lo:.2}{unit} .. {hi:.2}{unit}")
    })
}

/// The comparison as one `<section class="shader-db">`: a summary table (one row per
/// metric with its totals, helped/HURT counts, intervals and verdict) and each metric's
/// full text report in a `<pre>`.
pub fn render_comparison_section(c: &RunComparison) -> String {
    let mut out = String::from("<section class=\"shader-db\">\n<h2>shader-db comparison</h2>\n");
    let _ = writeln!(
        out,
        "<p>{} programs (program, device pairs) compiled in both runs; {} only in the first, {} only in the second, {} failing in either.</p>",
        c.shared,
        c.only_before.len(),
        c.only_after.len(),
        c.failed_before.len() + c.failed_after.len()
    );
    out.push_str(
        "<table>\n<tr><th>metric</th><th>before</th><th>after</th><th>helped</th><th>HURT</th>\
         <th>value 95% CI</th><th>%-change 95% CI</th><th>verdict</th></tr>\n",
    );
    for m in &c.metrics {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&m.metric),
            m.total_before,
            m.total_after,
            m.helped,
            m.hurt,
            interval(m.value_ci, ""),
            interval(m.percent_ci, "%"),
            escape(&verdict_line(&m.metric, &m.verdict))
        );
    }
    out.push_str("</table>\n");
    for m in &c.metrics {
        let _ = writeln!(
            out,
            "<details><summary>{}</summary><pre>{}</pre></details>",
            escape(&m.metric),
            escape(&render_metric(m))
        );
    }
    out.push_str("</section>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader_runs::{RunRow, compare_runs};

    #[test]
    fn the_section_has_one_row_per_metric_and_escapes_names() {
        let row = |program: &str, cycles: u64| RunRow {
            program: program.into(),
            device: "skl".into(),
            cycles,
            ..Default::default()
        };
        let before = vec![row("<odd>.eu", 10), row("b.eu", 10), row("c.eu", 10)];
        let after = vec![row("<odd>.eu", 9), row("b.eu", 9), row("c.eu", 9)];
        let c = compare_runs(&before, &after, &["cycles", "spills"], 1).unwrap();
        let html = render_comparison_section(&c);
        assert_eq!(html.matches("<tr><td>").count(), 2);
        // Every program lost one cycle of ten: both intervals are points below zero.
        assert!(html.contains("<td>Cycles are helped.</td>"), "{html}");
        assert!(html.contains("<td>-1.00 .. -1.00</td><td>-10.00% .. -10.00%</td>"));
        assert!(html.contains("&lt;odd&gt;.eu (skl): 10 -&gt; 9"), "{html}");
        assert!(!html.contains("<odd>"));
    }
}
