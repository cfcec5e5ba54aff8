//! The nightly report as Markdown, for a CI job summary, a chat message or an issue: the
//! same sections as the HTML page with tables instead of charts and fenced `diff` blocks
//! for the IR. Sections are functions returning strings, so other reports (the shader-db
//! statistics) append theirs through `extra` in [`render`].

use crate::campaign_report::{Bucket, Report, Status, length_notes, show_per_million, trend};
use crate::campaign_report_html::{duration, rate, thousands};
use std::collections::BTreeMap;
use std::fmt::Write;

/// A Markdown section: its `##` heading and body.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    pub title: String,
    pub body: String,
}

/// Text safe in a table cell: `|` escaped and newlines flattened.
pub fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// A fence longer than any run of backticks in `text`, so the text cannot close it.
fn fence(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

fn code_block(lang: &str, text: &str) -> String {
    let f = fence(text);
    format!("{f}{lang}\n{}\n{f}\n", text.trim_end())
}

fn status(s: Status) -> &'static str {
    match s {
        Status::New => "**NEW**",
        Status::Open => "open",
        Status::Gone => "gone",
    }
}

/// The verdict line, then the figures as a table.
pub fn summary_section(r: &Report) -> Section {
    let s = &r.summary;
    let mut body = match &s.previous {
        None => format!(
            "First night: no previous night to compare against; {} bucket(s).\n\n",
            s.new
        ),
        Some(p) if s.new == 0 => format!(
            "No new buckets since {p}; {} still open, {} gone.\n\n",
            s.open, s.gone
        ),
        Some(p) => format!(
            "**{} NEW bucket(s)** since {p}{}; {} still open, {} gone.\n\n",
            s.new,
            if s.new_unknown < s.new {
                format!(" ({} of them known issues)", s.new - s.new_unknown)
            } else {
                String::new()
            },
            s.open,
            s.gone
        ),
    };
    body.push_str("| executions | execs/s | valid | cores | duration | revision | failures |\n");
    body.push_str("| ---: | ---: | ---: | ---: | ---: | --- | ---: |\n");
    let _ = writeln!(
        body,
        "| {} | {} | {:.1} % | {} | {} | `{}` | {} |",
        thousands(s.execs),
        rate(s.execs_per_sec),
        s.valid_percent,
        s.jobs,
        duration(s.seconds),
        cell(&s.revision),
        thousands(s.failures)
    );
    for note in length_notes(s) {
        let _ = write!(body, "\n{note}");
    }
    if let Some(shard) = &s.shard {
        let _ = write!(body, "\nShard {}.", cell(shard));
    }
    if let Some(zoo) = &s.zoo {
        let _ = write!(body, "\nZoo bugs injected: `{}`.", cell(zoo));
    }
    if s.features > 0 {
        let _ = write!(
            body,
            "\nSemantic features reached: {}{}.",
            thousands(s.features),
            s.corpus
                .map(|c| format!(" (feedback on, corpus of {} entries)", thousands(c)))
                .unwrap_or_default()
        );
    }
    Section {
        title: "Summary".into(),
        body,
    }
}

fn bucket_detail(b: &Bucket) -> String {
    let mut out = format!("### {} `{}`\n\n", status(b.status), b.key);
    let _ = write!(out, "{} failure(s) tonight", b.count);
    if b.status == Status::Open {
        let _ = write!(out, ", {} the night before", b.previous_count);
    }
    if let Some(t) = b.first_seconds {
        let _ = write!(out, "; first after {}", duration(t));
    }
    if let Some(k) = &b.known {
        let _ = write!(out, "; known issue: {k}");
    }
    out.push_str(".\n");
    if !b.signatures.is_empty() {
        let sigs: Vec<String> = b.signatures.iter().map(|s| format!("`{s}`")).collect();
        let _ = writeln!(out, "Signature(s): {}.", sigs.join(", "));
    }
    let Some(rep) = &b.reproducer else {
        out.push_str("\nNo reproducer file in the campaign directory.\n");
        return out;
    };
    let _ = writeln!(
        out,
        "\nReproducer `{}` ({} instructions).",
        rep.file, rep.instructions
    );
    if let Some(e) = &rep.replay_error {
        let _ = writeln!(out, "Not replayed: {e}.");
    }
    if let Some(rp) = &rep.replay {
        let _ = writeln!(out, "Replayed today: {}.", rp.verdict);
        if rp.fails_without_zoo == Some(true) {
            out.push_str("**Fails without the zoo**: the reproducer fails with no zoo bug injected (an open bug of the compiler, not the injected one).\n");
        }
        if let Some(p) = &rp.culprit_pass {
            let _ = write!(out, "Culprit pass: `{p}`");
            if let Some(why) = &rp.culprit_basis {
                let _ = write!(out, " ({why})");
            }
            out.push_str(".\n");
        }
        if !rp.channel_diff.is_empty() {
            out.push_str("\n| where | expected | actual |\n| --- | --- | --- |\n");
            for row in &rp.channel_diff {
                let value = |v: &str| {
                    if v.is_empty() {
                        "–".to_string()
                    } else {
                        format!("`{}`", cell(v))
                    }
                };
                let _ = writeln!(
                    out,
                    "| {} | {} | {} |",
                    cell(&row.location),
                    value(&row.expected),
                    value(&row.actual)
                );
            }
            if rp.more_differences > 0 {
                let _ = writeln!(out, "\n… {} more difference(s).", rp.more_differences);
            }
        }
        if !rp.ir_diff.is_empty() {
            out.push_str("\nIR diff across the culprit:\n\n");
            out.push_str(&code_block("diff", &rp.ir_diff));
        }
    }
    out.push_str(if rep.file.ends_with(".reduced.eu") {
        "\nReduced reproducer:\n\n"
    } else {
        "\nReproducer (not reduced):\n\n"
    });
    out.push_str(&code_block("", &rep.text));
    out
}

/// The overview table, then every new and open bucket in detail.
pub fn buckets_section(r: &Report) -> Section {
    let mut body = String::new();
    if r.buckets.is_empty() {
        body.push_str("No buckets tonight or the night before.\n");
    } else {
        // The commit column only on nights the job bisected something.
        let bisected = r.buckets.iter().any(|b| b.bisection.is_some());
        let (extra_head, extra_rule) = if bisected {
            (" commit |", " --- |")
        } else {
            ("", "")
        };
        let _ = writeln!(
            body,
            "| status | bucket | failures | per M execs | previous night | per M execs | known issue |{extra_head}"
        );
        let _ = writeln!(
            body,
            "| --- | --- | ---: | ---: | ---: | ---: | --- |{extra_rule}"
        );
        for b in &r.buckets {
            let commit = match (&b.bisection, bisected) {
                (Some(x), _) => format!(" {} |", cell(&x.describe())),
                (None, true) => " |".to_string(),
                (None, false) => String::new(),
            };
            let _ = writeln!(
                body,
                "| {} | `{}` | {} | {} | {} | {} | {} |{commit}",
                status(b.status),
                cell(&b.key),
                b.count,
                show_per_million(b.per_million),
                b.previous_count,
                b.previous_per_million.map_or("–".into(), show_per_million),
                cell(b.known.as_deref().unwrap_or(""))
            );
        }
        for b in r.buckets.iter().filter(|b| b.status != Status::Gone) {
            body.push('\n');
            body.push_str(&bucket_detail(b));
        }
    }
    Section {
        title: "Buckets".into(),
        body,
    }
}

/// Buckets per night as a table (the HTML page draws it).
pub fn trend_section(r: &Report) -> Section {
    let mut body = String::from(
        "| night | revision | execs/s | buckets | new |\n| --- | --- | ---: | ---: | ---: |\n",
    );
    for (n, (date, total, new)) in r.history.iter().zip(trend(&r.history)) {
        let _ = writeln!(
            body,
            "| {} | `{}` | {} | {total} | {new} |",
            cell(&date),
            cell(&n.revision),
            rate(n.execs_per_sec)
        );
    }
    Section {
        title: "Trend".into(),
        body,
    }
}

fn counts(title: &str, m: &BTreeMap<String, u64>, execs: u64) -> String {
    if m.is_empty() {
        return format!("{title}: none recorded.\n\n");
    }
    let mut rows: Vec<(&String, &u64)> = m.iter().collect();
    rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let mut out = format!("| {title} | count | per 100 execs |\n| --- | ---: | ---: |\n");
    for (k, v) in rows {
        let _ = writeln!(
            out,
            "| `{}` | {} | {:.1} |",
            cell(k),
            thousands(*v),
            100.0 * *v as f64 / execs.max(1) as f64
        );
    }
    out.push('\n');
    out
}

/// Outcomes, opcodes, devices, pass fires and rules hit.
pub fn coverage_section(r: &Report) -> Section {
    let execs = r.summary.execs;
    let c = &r.coverage;
    let mut body = counts("outcome", &r.outcomes, execs);
    body.push_str(&counts("discarded", &r.discarded, execs));
    let mut ops: Vec<(&String, &u64)> = c.opcodes.iter().collect();
    ops.sort_by(|a, b| a.1.cmp(b.1).then(a.0.cmp(b.0)));
    let list: Vec<String> = ops.iter().map(|(k, v)| format!("`{k}` {v}")).collect();
    let _ = writeln!(
        body,
        "Opcodes generated ({} distinct, rarest first): {}\n",
        c.opcodes.len(),
        if list.is_empty() {
            "none recorded".to_string()
        } else {
            list.join(", ")
        }
    );
    body.push_str(&counts("device", &c.devices, execs));
    body.push_str(&counts("pass that made progress", &c.pass_fires, execs));
    body.push_str(&counts("rule hit", &c.rules_hit, execs));
    Section {
        title: "Coverage".into(),
        body,
    }
}

/// Source-based coverage of the passes and strict rules (when the night measured it):
/// totals, the trend of the pass lines reached, and every file, least covered first.
pub fn source_coverage_section(r: &Report) -> Option<Section> {
    let c = r.source_coverage.as_ref()?;
    let mut body = String::new();
    for (name, t) in [
        ("compiler/src/passes/", &c.passes),
        ("oracle/src/strict/", &c.strict),
        ("all measured files", &c.lines),
    ] {
        let _ = writeln!(
            body,
            "- {name}: {} of {} lines ({:.1} %)",
            thousands(t.covered),
            thousands(t.lines),
            t.percent
        );
    }
    let trend = crate::campaign_report::SourceCoverage::trend(&r.history);
    if trend.len() > 1 {
        let _ = writeln!(
            body,
            "\nPass lines reached, night by night: {}",
            trend.join(", ")
        );
    }
    let files = c.least_covered_first();
    body.push_str(
        "\n| file | lines | covered | regions | covered |\n| --- | ---: | ---: | ---: | ---: |\n",
    );
    for f in files {
        let _ = writeln!(
            body,
            "| `{}` | {} | {:.1} % | {} | {:.1} % |",
            cell(&f.file),
            f.lines,
            f.line_percent(),
            f.regions,
            f.region_percent()
        );
    }
    Some(Section {
        title: "Source coverage".into(),
        body,
    })
}

/// The sections of the campaign report, in order.
pub fn sections(r: &Report) -> Vec<Section> {
    let mut out = vec![
        summary_section(r),
        buckets_section(r),
        trend_section(r),
        coverage_section(r),
    ];
    out.extend(source_coverage_section(r));
    out
}

/// The whole document: the report's sections, then `extra` ones.
pub fn render(r: &Report, extra: &[Section]) -> String {
    let mut out = format!("# eufuzz nightly campaign {}\n", r.summary.date);
    for s in sections(r).iter().chain(extra) {
        let _ = write!(out, "\n## {}\n\n{}", s.title, s.body.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign_report::fixture::sample_report;

    #[test]
    fn markdown_lists_new_open_and_gone_buckets_with_their_diffs() {
        let md = render(&sample_report(), &[]);
        assert!(md.starts_with("# eufuzz nightly campaign 2026-11-25 02:00\n"));
        assert!(
            md.contains("**1 NEW bucket(s)** since 2026-11-24 02:00 (revision 0ld)"),
            "{md}"
        );
        assert!(md.contains(
            "| **NEW** | `rewrite/lower_regioning/accumulator-destination` | 2 | 162 | 0 | – |  |"
        ), "{md}");
        assert!(md.contains("| open | `rewrite/allocate_registers/fill` | 1 | 81.0 | 4 | – |  |"));
        assert!(
            md.contains(
                "| gone | `panic/opt_cse/index-out-of-bounds/x.rs` | 0 | 0.00 | 1 | – |  |"
            )
        );
        assert!(md.contains("```diff\n--- before\n"), "{md}");
        assert!(
            md.contains("Semantic features reached: 812 (feedback on, corpus of 104 entries)."),
            "{md}"
        );
        assert!(md.contains("| thread 0 rt0 ch3 component 0 | `3f800000` | `........` |"));
        assert!(
            md.contains("| 2026-11-25 02:00 | `abc123` | 206 | 2 | 1 |"),
            "{md}"
        );
    }

    #[test]
    fn cells_and_fences_cannot_break_out() {
        assert_eq!(cell("a|b\nc"), "a\\|b c");
        assert_eq!(code_block("", "x ``` y"), "````\nx ``` y\n````\n");
        let extra = Section {
            title: "shader-db".into(),
            body: "helped".into(),
        };
        assert!(render(&sample_report(), &[extra]).ends_with("## shader-db\n\nhelped\n"));
    }
}
