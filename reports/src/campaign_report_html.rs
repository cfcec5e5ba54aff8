//! The nightly report as one self-contained HTML page: inline stylesheet, inline SVG
//! charts, no script, nothing fetched, so it can be mailed, archived as a CI artifact and
//! opened offline. The page is a list of [`Section`]s, each built by its own function;
//! other reports (the shader-db statistics) add theirs through `extra` in [`render`].

use crate::campaign_report::{
    Bucket, Report, Status, features_over_time, length_notes, rate_over_time, show_per_million,
    trend,
};
use crate::campaign_report_svg::{GREY, RED, bar_chart, line_chart, trend_chart};
use crate::markup::escape;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One section of the page: a heading (also its entry in the contents line) and its body
/// as HTML.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// Anchor name, unique in the page.
    pub id: String,
    pub title: String,
    pub body: String,
}

const STYLE: &str = "
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;background:#f4f6f8;color:#1d2733}
main{max-width:1180px;margin:0 auto;padding:20px 28px 40px}
h1{font-size:22px;margin:4px 0 2px}h2{font-size:18px;margin:28px 0 10px;border-bottom:1px solid #d5dbe1;padding-bottom:4px}
h3{font-size:15px;margin:0 0 6px;font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
.sub{color:#5b6876;margin:0 0 12px}.note{color:#5b6876;font-style:italic}
nav a{margin-right:14px;color:#3b6fb6;text-decoration:none}
.banner{padding:12px 16px;border-radius:6px;font-size:16px;font-weight:600;margin:12px 0}
.banner.bad{background:#fdecea;border:1px solid #e6a49c;color:#8e2418}
.banner.good{background:#e8f5ec;border:1px solid #9ccfaa;color:#1d6a35}
.banner.first{background:#eef3fa;border:1px solid #a9bfdd;color:#24466f}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px}
.card{background:#fff;border:1px solid #d5dbe1;border-radius:6px;padding:8px 12px}
.card .k{color:#5b6876;font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card .v{font-size:20px;font-weight:600;word-break:break-all}.card .v.code{font:600 15px ui-monospace,Menlo,Consolas,monospace;padding-top:4px}
table{border-collapse:collapse;background:#fff;margin:6px 0;font-size:13px}
th,td{border:1px solid #d5dbe1;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eef1f4}td.n{text-align:right;font-variant-numeric:tabular-nums}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
pre{background:#fff;border:1px solid #d5dbe1;border-radius:4px;padding:8px;overflow-x:auto;margin:4px 0 10px;max-height:420px}
.badge{display:inline-block;border-radius:3px;padding:0 6px;font-size:11px;font-weight:700;text-transform:uppercase;color:#fff}
.badge.new{background:#c0392b}.badge.open{background:#d68910}.badge.gone{background:#1e8449}.badge.known{background:#7f8c8d}
.bucket{background:#fff;border:1px solid #d5dbe1;border-left:5px solid #d68910;border-radius:6px;padding:10px 14px;margin:12px 0}
.bucket.new{border-left-color:#c0392b}
.facts{color:#3d4955;margin:2px 0 8px}.facts b{color:#1d2733}
.add{color:#1d6a35;background:#e8f5ec;display:block}.del{color:#8e2418;background:#fdecea;display:block}.hunk{color:#6c5ce7;display:block}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:14px}
.charts figure{background:#fff;border:1px solid #d5dbe1;border-radius:6px;margin:0;padding:8px 10px}
figcaption{font-weight:600;margin-bottom:4px}
svg.chart{width:100%;height:auto}.grid{stroke:#e3e7eb}.tick{font-size:11px;fill:#4a5663}.axis{font-size:12px;fill:#1d2733}
.chips{display:flex;flex-wrap:wrap;gap:4px}.chip{background:#fff;border:1px solid #d5dbe1;border-radius:3px;padding:0 5px;font:12px ui-monospace,Menlo,monospace}
.chip.rare{border-color:#d68910;background:#fdf3e3}
.cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(330px,1fr));gap:14px}
";

/// `1h 02m`, `3m 05s`, `42s`.
pub fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, m, sec) => format!("{m}m {sec:02}s"),
        (h, m, _) => format!("{h}h {m:02}m"),
    }
}

/// Executions per second: whole numbers, one decimal below 10.
pub fn rate(x: f64) -> String {
    if x < 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

/// `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A figure in a box. `code`: an identifier (revision, bug list) in a smaller monospace
/// font, so a long one still fits.
fn card(out: &mut String, key: &str, value: &str, code: bool) {
    let class = if code { "v code" } else { "v" };
    let _ = write!(
        out,
        "<div class=\"card\"><div class=\"k\">{}</div><div class=\"{class}\">{}</div></div>",
        escape(key),
        escape(value)
    );
}

fn badge(s: Status) -> &'static str {
    match s {
        Status::New => "<span class=\"badge new\">new</span>",
        Status::Open => "<span class=\"badge open\">open</span>",
        Status::Gone => "<span class=\"badge gone\">gone</span>",
    }
}

/// The one-line verdict of the night.
fn banner(r: &Report) -> String {
    let s = &r.summary;
    let (class, text) = match (&s.previous, s.new) {
        (None, 0) => (
            "first",
            "First night: no previous night to compare against; no buckets.".to_string(),
        ),
        (None, n) => (
            "bad",
            format!("First night: {n} bucket(s), all new (no previous night to compare against)."),
        ),
        (Some(p), 0) => (
            "good",
            format!(
                "No new buckets since {p}. {} still open, {} gone.",
                s.open, s.gone
            ),
        ),
        (Some(p), n) => (
            "bad",
            format!(
                "{n} NEW bucket(s) since {p}{}. {} still open, {} gone.",
                if s.new_unknown < n {
                    format!(" ({} of them known issues)", n - s.new_unknown)
                } else {
                    String::new()
                },
                s.open,
                s.gone
            ),
        ),
    };
    format!("<div class=\"banner {class}\">{}</div>", escape(&text))
}

/// Execs, execs/s, validity, cores, duration, revision and the bucket counts.
pub fn summary_section(r: &Report) -> Section {
    let s = &r.summary;
    let mut body = banner(r);
    body.push_str("<div class=\"cards\">");
    card(&mut body, "executions", &thousands(s.execs), false);
    card(&mut body, "execs / s", &rate(s.execs_per_sec), false);
    card(
        &mut body,
        "valid",
        &format!("{:.1} %", s.valid_percent),
        false,
    );
    card(&mut body, "cores (jobs)", &s.jobs.to_string(), false);
    card(&mut body, "duration", &duration(s.seconds), false);
    card(&mut body, "revision", &s.revision, true);
    card(&mut body, "failures", &thousands(s.failures), false);
    if s.features > 0 {
        card(
            &mut body,
            "semantic features",
            &thousands(s.features),
            false,
        );
    }
    if let Some(corpus) = s.corpus {
        card(&mut body, "corpus entries", &thousands(corpus), false);
    }
    card(
        &mut body,
        "buckets new / open / gone",
        &format!("{} / {} / {}", s.new, s.open, s.gone),
        false,
    );
    if let Some(shard) = &s.shard {
        card(&mut body, "shard", shard, true);
    }
    if let Some(zoo) = &s.zoo {
        card(&mut body, "zoo bugs injected", zoo, true);
    }
    body.push_str("</div>");
    for note in length_notes(s) {
        let _ = write!(body, "<p class=\"note\">{}</p>", escape(&note));
    }
    Section {
        id: "summary".into(),
        title: "Summary".into(),
        body,
    }
}

fn bucket_table(buckets: &[Bucket]) -> String {
    // The commit column only on nights the job bisected something.
    let bisected = buckets.iter().any(|b| b.bisection.is_some());
    let mut out = String::from(
        "<table><tr><th>status</th><th>bucket</th><th>failures</th><th>per M execs</th><th>previous night</th><th>per M execs</th><th>culprit pass</th><th>known issue</th>",
    );
    if bisected {
        out.push_str("<th>commit</th>");
    }
    out.push_str("</tr>");
    for b in buckets {
        let culprit = b
            .reproducer
            .as_ref()
            .and_then(|r| r.replay.as_ref())
            .and_then(|r| r.culprit_pass.clone())
            .unwrap_or_default();
        let key = if b.status == Status::Gone {
            format!("<code>{}</code>", escape(&b.key))
        } else {
            format!(
                "<a href=\"#{}\"><code>{}</code></a>",
                anchor(&b.key),
                escape(&b.key)
            )
        };
        let commit = match (&b.bisection, bisected) {
            (Some(x), _) => format!("<td>{}</td>", escape(&x.describe())),
            (None, true) => "<td></td>".to_string(),
            (None, false) => String::new(),
        };
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{key}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td><code>{}</code></td><td>{}</td>{commit}</tr>",
            badge(b.status),
            b.count,
            show_per_million(b.per_million),
            b.previous_count,
            b.previous_per_million.map_or("–".into(), show_per_million),
            escape(&culprit),
            escape(b.known.as_deref().unwrap_or(""))
        );
    }
    out.push_str("</table>");
    out
}

/// A fragment name for a bucket key (letters, digits and `-` only).
fn anchor(key: &str) -> String {
    let mut out = String::from("b-");
    out.extend(
        key.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }),
    );
    out
}

/// A unified diff with added, removed and hunk lines coloured.
fn diff_block(diff: &str) -> String {
    let mut out = String::from("<pre>");
    for line in diff.lines() {
        let class = if line.starts_with("@@") {
            Some("hunk")
        } else if line.starts_with('+') && !line.starts_with("+++") {
            Some("add")
        } else if line.starts_with('-') && !line.starts_with("---") {
            Some("del")
        } else {
            None
        };
        match class {
            Some(c) => {
                let _ = write!(out, "<span class=\"{c}\">{}</span>", escape(line));
            }
            None => {
                let _ = writeln!(out, "{}", escape(line));
            }
        }
    }
    out.push_str("</pre>");
    out
}

/// A table value, `–` when there is none.
fn or_dash(s: &str) -> &str {
    if s.is_empty() { "–" } else { s }
}

fn bucket_detail(b: &Bucket) -> String {
    let class = if b.status == Status::New {
        "bucket new"
    } else {
        "bucket"
    };
    let mut out = format!(
        "<div class=\"{class}\" id=\"{}\"><h3>{} {}</h3>",
        anchor(&b.key),
        badge(b.status),
        escape(&b.key)
    );
    let mut facts = format!("<b>{}</b> failure(s) tonight", b.count);
    if b.status == Status::Open {
        let _ = write!(facts, ", {} the night before", b.previous_count);
    }
    if let Some(t) = b.first_seconds {
        let _ = write!(facts, "; first after {}", duration(t));
    }
    if let Some(k) = &b.known {
        let _ = write!(
            facts,
            "; <span class=\"badge known\">known</span> {}",
            escape(k)
        );
    }
    if !b.signatures.is_empty() {
        let sigs: Vec<String> = b
            .signatures
            .iter()
            .map(|s| format!("<code>{}</code>", escape(s)))
            .collect();
        let _ = write!(facts, "<br>signature(s): {}", sigs.join(", "));
    }
    let _ = write!(out, "<p class=\"facts\">{facts}</p>");
    let Some(rep) = &b.reproducer else {
        out.push_str("<p class=\"note\">no reproducer file in the campaign directory</p></div>");
        return out;
    };
    let _ = write!(
        out,
        "<p class=\"facts\">reproducer <code>{}</code> ({} instructions){}</p>",
        escape(&rep.file),
        rep.instructions,
        if b.files.len() > 1 {
            format!(", {} files in all", b.files.len())
        } else {
            String::new()
        }
    );
    if let Some(e) = &rep.replay_error {
        let _ = write!(out, "<p class=\"note\">not replayed: {}</p>", escape(e));
    }
    if let Some(rp) = &rep.replay {
        let _ = write!(
            out,
            "<p class=\"facts\">replayed today: <b>{}</b>",
            escape(&rp.verdict)
        );
        if rp.fails_without_zoo == Some(true) {
            out.push_str(
                "<br><span class=\"badge new\">fails without the zoo</span> the reproducer fails with no zoo bug injected: an open bug of the compiler, not the injected one",
            );
        }
        if let Some(p) = &rp.culprit_pass {
            let _ = write!(out, "<br>culprit pass: <b><code>{}</code></b>", escape(p));
            if let Some(why) = &rp.culprit_basis {
                let _ = write!(out, " ({})", escape(why));
            }
        }
        out.push_str("</p>");
        if !rp.channel_diff.is_empty() {
            out.push_str(
                "<div>channel diff (reference = expected, compiled = actual; <code>..</code> undefined):</div><table><tr><th>where</th><th>expected</th><th>actual</th></tr>",
            );
            for row in &rp.channel_diff {
                let _ = write!(
                    out,
                    "<tr><td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code></td></tr>",
                    escape(&row.location),
                    escape(or_dash(&row.expected)),
                    escape(or_dash(&row.actual))
                );
            }
            out.push_str("</table>");
            if rp.more_differences > 0 {
                let _ = write!(
                    out,
                    "<p class=\"note\">… {} more difference(s)</p>",
                    rp.more_differences
                );
            }
        }
        if !rp.ir_diff.is_empty() {
            let _ = write!(
                out,
                "<div>IR diff across <code>{}</code>:</div>{}",
                escape(rp.culprit_pass.as_deref().unwrap_or("the culprit")),
                diff_block(&rp.ir_diff)
            );
        }
    }
    let _ = write!(
        out,
        "<div>{}:</div><pre>{}</pre></div>",
        if rep.file.ends_with(".reduced.eu") {
            "reduced reproducer"
        } else {
            "reproducer (not reduced)"
        },
        escape(&rep.text)
    );
    out
}

/// The overview table of new, open and gone buckets.
pub fn buckets_section(r: &Report) -> Section {
    let body = if r.buckets.is_empty() {
        "<p>No buckets tonight or the night before.</p>".to_string()
    } else {
        bucket_table(&r.buckets)
    };
    Section {
        id: "buckets".into(),
        title: "Buckets".into(),
        body,
    }
}

/// Every new and open bucket in detail: reproducer, replay, culprit, diffs.
pub fn details_section(r: &Report) -> Section {
    let mut body = String::new();
    for b in r.buckets.iter().filter(|b| b.status != Status::Gone) {
        body.push_str(&bucket_detail(b));
    }
    if body.is_empty() {
        body.push_str("<p>No bucket tonight.</p>");
    }
    Section {
        id: "details".into(),
        title: "Bucket details".into(),
        body,
    }
}

/// Failures red, passes and discards grey.
fn outcome_colour(outcome: &str) -> &'static str {
    if outcome == "pass" || outcome == "discard" {
        GREY
    } else {
        RED
    }
}

fn figure(caption: &str, svg: &str) -> String {
    format!(
        "<figure><figcaption>{}</figcaption>{svg}</figure>",
        escape(caption)
    )
}

/// Execs/s over the night, outcomes, and buckets over the nights.
pub fn charts_section(r: &Report) -> Section {
    let s = &r.summary;
    let rate = rate_over_time(&r.timeline, s.seconds, s.execs_per_sec, s.deadline);
    let rate_caption = if r.timeline.is_empty() {
        "Executions per second (average only: no checkpoints recorded)"
    } else if s.tail_seconds.is_some() {
        "Executions per second up to the deadline (the reduction tail after it is left out)"
    } else {
        "Executions per second over the campaign"
    };
    let mut outcomes: Vec<(String, u64)> =
        r.outcomes.iter().map(|(k, v)| (k.clone(), *v)).collect();
    outcomes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut body = String::from("<div class=\"charts\">");
    body.push_str(&figure(
        rate_caption,
        &line_chart(&rate, "seconds", "execs/s"),
    ));
    let features = features_over_time(&r.timeline);
    if !features.is_empty() {
        body.push_str(&figure(
            "Semantic features reached over the campaign",
            &line_chart(&features, "seconds", "features"),
        ));
    }
    body.push_str(&figure(
        "Outcomes (bar length on a log scale)",
        &bar_chart(&outcomes, true, outcome_colour),
    ));
    body.push_str(&figure(
        &format!("Buckets per night ({} night(s))", r.history.len()),
        &trend_chart(&trend(&r.history)),
    ));
    if !r.discarded.is_empty() {
        let d: Vec<(String, u64)> = r.discarded.iter().map(|(k, v)| (k.clone(), *v)).collect();
        body.push_str(&figure(
            "Discarded programs, by reason",
            &bar_chart(&d, false, |_| GREY),
        ));
    }
    body.push_str("</div>");
    Section {
        id: "charts".into(),
        title: "Charts".into(),
        body,
    }
}

fn count_table(title: &str, what: &str, counts: &BTreeMap<String, u64>, execs: u64) -> String {
    let mut out = format!("<div><h4>{}</h4>", escape(title));
    if counts.is_empty() {
        out.push_str("<p class=\"note\">none recorded</p></div>");
        return out;
    }
    let _ = write!(
        out,
        "<table><tr><th>{}</th><th>count</th><th>per 100 execs</th></tr>",
        escape(what)
    );
    let mut rows: Vec<(&String, &u64)> = counts.iter().collect();
    rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (k, v) in rows {
        let _ = write!(
            out,
            "<tr><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{:.1}</td></tr>",
            escape(k),
            thousands(*v),
            100.0 * *v as f64 / execs.max(1) as f64
        );
    }
    out.push_str("</table></div>");
    out
}

/// Opcodes as chips, rarest first (the ones a generator change may have starved), each
/// with its count.
fn opcode_chips(opcodes: &BTreeMap<String, u64>) -> String {
    if opcodes.is_empty() {
        return "<p class=\"note\">none recorded</p>".into();
    }
    let mut rows: Vec<(&String, &u64)> = opcodes.iter().collect();
    rows.sort_by(|a, b| a.1.cmp(b.1).then(a.0.cmp(b.0)));
    let rare = opcodes.values().sum::<u64>() / (opcodes.len() as u64 * 100).max(1);
    let mut out = String::from("<div class=\"chips\">");
    for (k, v) in rows {
        let class = if *v <= rare { "chip rare" } else { "chip" };
        let _ = write!(
            out,
            "<span class=\"{class}\">{} {}</span>",
            escape(k),
            thousands(*v)
        );
    }
    out.push_str("</div>");
    out
}

/// Opcodes, devices, pass fires and validator/strict rules hit.
pub fn coverage_section(r: &Report) -> Section {
    let c = &r.coverage;
    let execs = r.summary.execs;
    let mut body = format!(
        "<h4>Opcodes generated: {} distinct, rarest first (highlighted: under 1 % of the average)</h4>{}",
        c.opcodes.len(),
        opcode_chips(&c.opcodes)
    );
    body.push_str("<div class=\"cols\">");
    body.push_str(&count_table("Devices", "device", &c.devices, execs));
    body.push_str(&count_table(
        "Passes that made progress",
        "pass",
        &c.pass_fires,
        execs,
    ));
    body.push_str(&count_table("Rules hit", "rule", &c.rules_hit, execs));
    body.push_str("</div>");
    Section {
        id: "coverage".into(),
        title: "Coverage".into(),
        body,
    }
}

/// Source-based coverage (when the night measured it): the Markdown section's content
/// as a table.
pub fn source_coverage_section(r: &Report) -> Option<Section> {
    let c = r.source_coverage.as_ref()?;
    let mut body = String::from("<ul>");
    for (name, t) in [
        ("compiler/src/passes/", &c.passes),
        ("oracle/src/strict/", &c.strict),
        ("all measured files", &c.lines),
    ] {
        let _ = write!(
            body,
            "<li><code>{}</code>: {} of {} lines ({:.1} %)</li>",
            escape(name),
            thousands(t.covered),
            thousands(t.lines),
            t.percent
        );
    }
    body.push_str("</ul>");
    let trend = crate::campaign_report::SourceCoverage::trend(&r.history);
    if trend.len() > 1 {
        let _ = write!(
            body,
            "<p>Pass lines reached, night by night: {}</p>",
            escape(&trend.join(", "))
        );
    }
    let files = c.least_covered_first();
    body.push_str("<table><tr><th>file</th><th>lines</th><th>covered</th><th>regions</th><th>covered</th></tr>");
    for f in files {
        let _ = write!(
            body,
            "<tr><td><code>{}</code></td><td>{}</td><td>{:.1} %</td><td>{}</td><td>{:.1} %</td></tr>",
            escape(&f.file),
            f.lines,
            f.line_percent(),
            f.regions,
            f.region_percent()
        );
    }
    body.push_str("</table>");
    Some(Section {
        id: "source-coverage".into(),
        title: "Source coverage".into(),
        body,
    })
}

/// The sections of the campaign report, in page order.
pub fn sections(r: &Report) -> Vec<Section> {
    let mut out = vec![
        summary_section(r),
        buckets_section(r),
        charts_section(r),
        details_section(r),
        coverage_section(r),
    ];
    out.extend(source_coverage_section(r));
    out
}

/// The whole page: the report's sections, then `extra` ones (e.g. shader-db statistics).
pub fn render(r: &Report, extra: &[Section]) -> String {
    let s = &r.summary;
    let all: Vec<Section> = sections(r)
        .into_iter()
        .chain(extra.iter().cloned())
        .collect();
    let title = format!("eufuzz nightly campaign {}", s.date);
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{}</title><style>{STYLE}</style></head><body><main>",
        escape(&title)
    );
    let _ = write!(
        out,
        "<h1>{}</h1><p class=\"sub\">revision <code>{}</code>{}{}</p><nav>",
        escape(&title),
        escape(&s.revision),
        s.previous
            .as_ref()
            .map(|p| format!(" · compared with the night of {}", escape(p)))
            .unwrap_or_default(),
        if r.history.len() > 1 {
            format!(" · {} nights of history", r.history.len())
        } else {
            String::new()
        }
    );
    for sec in &all {
        let _ = write!(
            out,
            "<a href=\"#{}\">{}</a>",
            escape(&sec.id),
            escape(&sec.title)
        );
    }
    out.push_str("</nav>");
    for sec in &all {
        let _ = write!(
            out,
            "<section id=\"{}\"><h2>{}</h2>{}</section>",
            escape(&sec.id),
            escape(&sec.title),
            sec.body
        );
    }
    out.push_str("</main></body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign_report::fixture::sample_report;

    #[test]
    fn the_page_fetches_nothing_and_runs_no_script() {
        let html = render(&sample_report(), &[]);
        for forbidden in ["http", "<script", "<link", "src=", "url(", "@import"] {
            assert!(!html.contains(forbidden), "page contains {forbidden}");
        }
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert_eq!(
            html.matches("<svg").count(),
            5,
            "rate, features, outcomes, trend, discards"
        );
        assert!(html.contains("Semantic features reached over the campaign"));
        assert!(html.contains("semantic features") && html.contains("812"));
    }

    #[test]
    fn ir_is_escaped() {
        let html = render(&sample_report(), &[]);
        assert!(html.contains("g2.1&lt;0;1,0&gt;:F"), "reproducer escaped");
        assert!(
            html.contains("<span class=\"add\">+    mov(8) acc0&lt;1&gt;:F, v1&lt;0&gt;:F</span>")
        );
        assert!(!html.contains("g2.1<0;1,0>"));
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn the_page_says_what_is_new_open_and_gone() {
        let html = render(&sample_report(), &[]);
        assert!(
            html.contains(
                "1 NEW bucket(s) since 2026-11-24 02:00 (revision 0ld). 1 still open, 1 gone."
            ),
            "{html}"
        );
        let table_row = |key: &str, status: &str| {
            format!("<tr><td><span class=\"badge {status}\">{status}</span></td><td>")
                + &if status == "gone" {
                    format!("<code>{key}</code>")
                } else {
                    format!("<a href=\"#{}\"><code>{key}</code></a>", anchor(key))
                }
        };
        assert!(html.contains(&table_row(
            "rewrite/lower_regioning/accumulator-destination",
            "new"
        )));
        assert!(html.contains(&table_row("rewrite/allocate_registers/fill", "open")));
        assert!(html.contains(&table_row("panic/opt_cse/index-out-of-bounds/x.rs", "gone")));
        assert!(html.contains("culprit pass: <b><code>lower_regioning</code></b>"));
        assert!(html.contains("<td><code>thread 0 rt0 ch3 component 0</code></td>"));
    }

    #[test]
    fn extra_sections_are_appended_with_a_contents_entry() {
        let extra = Section {
            id: "shader-db".into(),
            title: "shader-db".into(),
            body: "<p>instructions helped</p>".into(),
        };
        let html = render(&sample_report(), &[extra]);
        assert!(html.contains("<a href=\"#shader-db\">shader-db</a>"));
        let coverage = html.find("<section id=\"coverage\">").expect("coverage");
        let extra_at = html.find("<section id=\"shader-db\">").expect("extra");
        assert!(extra_at > coverage);
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(12), "12");
        assert_eq!(duration(42.4), "42s");
        assert_eq!(duration(185.0), "3m 05s");
        assert_eq!(duration(3_720.0), "1h 02m");
    }
}
