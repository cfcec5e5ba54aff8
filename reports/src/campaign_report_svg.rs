//! Charts as inline SVG: the HTML report is one file that a browser shows offline, with no
//! script and nothing fetched, so the charts are drawn here from numbers into markup.
//! Each function returns one `<svg>` element, or a short note when there is nothing to
//! draw.

use crate::markup::escape;
use std::fmt::Write;

const WIDTH: f64 = 520.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 14.0;

/// Colours shared by the charts and the page's stylesheet.
pub const BLUE: &str = "#3b6fb6";
pub const RED: &str = "#c0392b";
pub const GREY: &str = "#8a96a3";

/// The axis top and tick step for values up to `max`: steps of 1, 2 or 5 times a power
/// of ten, four or five ticks.
pub fn axis(max: f64) -> (f64, f64) {
    if max <= 0.0 || !max.is_finite() {
        return (1.0, 0.25);
    }
    let rough = max / 4.0;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * power);
    ((max / step).ceil() * step, step)
}

/// [`axis`] for counts: whole-number ticks.
pub fn count_axis(max: f64) -> (f64, f64) {
    let (top, step) = axis(max.max(1.0));
    if step < 1.0 {
        (top.ceil(), 1.0)
    } else {
        (top, step)
    }
}

/// A number for an axis: `1.2k`, `35`, `0.5`.
fn short(x: f64) -> String {
    if x.abs() >= 10_000.0 {
        format!("{}k", trim(x / 1000.0))
    } else {
        trim(x)
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

fn note(text: &str) -> String {
    format!("<p class=\"note\">{}</p>", escape(text))
}

/// The horizontal grid lines and their labels of a value axis from 0 to `top`.
fn y_grid(out: &mut String, top: f64, step: f64, plot_h: f64) {
    let mut v = 0.0;
    while v <= top + step / 2.0 {
        let y = TOP + plot_h - v / top * plot_h;
        let _ = write!(
            out,
            "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" class=\"grid\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>",
            WIDTH - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            short(v)
        );
        v += step;
    }
}

/// A line through `points` (x, y), both axes from zero; `x_label` and `y_label` name them.
pub fn line_chart(points: &[(f64, f64)], x_label: &str, y_label: &str) -> String {
    if points.is_empty() {
        return note("nothing recorded");
    }
    let height = 220.0;
    let plot_h = height - TOP - 40.0;
    let plot_w = WIDTH - LEFT - RIGHT;
    let x_max = points.iter().map(|p| p.0).fold(0.0, f64::max).max(1e-9);
    let (top, step) = axis(points.iter().map(|p| p.1).fold(0.0, f64::max));
    let (x_top, x_step) = axis(x_max);
    let px = |x: f64| LEFT + x / x_top * plot_w;
    let py = |y: f64| TOP + plot_h - y / top * plot_h;
    let mut out = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"{}\">",
        escape(y_label)
    );
    y_grid(&mut out, top, step, plot_h);
    let mut x = 0.0;
    while x <= x_top + x_step / 2.0 {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"middle\">{}</text>",
            px(x),
            TOP + plot_h + 16.0,
            short(x)
        );
        x += x_step;
    }
    let line: Vec<String> = points
        .iter()
        .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
        .collect();
    let _ = write!(
        out,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{BLUE}\" stroke-width=\"2\"/>",
        line.join(" ")
    );
    if points.len() <= 60 {
        for &(x, y) in points {
            let _ = write!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{BLUE}\"><title>{}: {}</title></circle>",
                px(x),
                py(y),
                trim(x),
                trim(y)
            );
        }
    }
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" class=\"axis\" text-anchor=\"middle\">{}</text>\
         <text x=\"12\" y=\"{:.1}\" class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 12 {:.1})\">{}</text></svg>",
        LEFT + plot_w / 2.0,
        height - 4.0,
        escape(x_label),
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0,
        escape(y_label)
    );
    out
}

/// One horizontal bar per item with its count, coloured by `colour(label)`. `log`: bar
/// lengths on a log scale, so that a few failures show next to a million passes (the
/// counts stay exact).
pub fn bar_chart(items: &[(String, u64)], log: bool, colour: fn(&str) -> &'static str) -> String {
    if items.is_empty() {
        return note("nothing recorded");
    }
    let label_w = 170.0;
    let row = 24.0;
    let height = TOP + row * items.len() as f64 + 8.0;
    let bar_max = WIDTH - label_w - 90.0;
    let scale = |v: u64| {
        if log {
            (v as f64 + 1.0).log10()
        } else {
            v as f64
        }
    };
    let max = items
        .iter()
        .map(|i| scale(i.1))
        .fold(0.0, f64::max)
        .max(1e-9);
    let mut out = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"counts\">"
    );
    for (i, (label, v)) in items.iter().enumerate() {
        let y = TOP + row * i as f64;
        let w = (scale(*v) / max * bar_max).max(if *v > 0 { 2.0 } else { 0.0 });
        let colour = colour(label);
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>\
             <rect x=\"{label_w}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"{colour}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\">{v}</text>",
            label_w - 8.0,
            y + 14.0,
            escape(label),
            y + 3.0,
            row - 8.0,
            label_w + w + 6.0,
            y + 14.0
        );
    }
    out.push_str("</svg>");
    out
}

/// A night's axis label: `MM-DD` of its `YYYY-MM-DD HH:MM` date, with the time when two
/// nights share a day.
fn night_label(date: &str, nights: &[(String, u64, u64)]) -> String {
    let day = |d: &str| d.split(' ').next().unwrap_or(d).to_string();
    let shared = nights.iter().filter(|n| day(&n.0) == day(date)).count() > 1;
    let shown = if shared {
        date
    } else {
        date.split(' ').next().unwrap_or(date)
    };
    shown.get(5..).unwrap_or(shown).to_string()
}

/// One bar per night: buckets open that night, the part new since the night before on
/// top in red. `nights`: (date, buckets, new).
pub fn trend_chart(nights: &[(String, u64, u64)]) -> String {
    if nights.is_empty() {
        return note("no nights recorded");
    }
    let height = 230.0;
    let plot_h = height - TOP - 58.0;
    let plot_w = WIDTH - LEFT - RIGHT;
    let (top, step) = count_axis(nights.iter().map(|n| n.1 as f64).fold(0.0, f64::max));
    let slot = plot_w / nights.len() as f64;
    let bar = (slot * 0.6).min(40.0);
    let mut out = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"buckets per night\">"
    );
    y_grid(&mut out, top, step, plot_h);
    let h = |v: u64| v as f64 / top * plot_h;
    // Label every night when they fit, else about twelve of them.
    let every = nights.len().div_ceil(12);
    for (i, (date, total, new)) in nights.iter().enumerate() {
        let x = LEFT + slot * i as f64 + (slot - bar) / 2.0;
        let old = total.saturating_sub(*new);
        let base = TOP + plot_h;
        let _ = write!(
            out,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar:.1}\" height=\"{:.1}\" fill=\"{BLUE}\"><title>{}: {total} bucket(s), {new} new</title></rect>\
             <rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar:.1}\" height=\"{:.1}\" fill=\"{RED}\"/>",
            base - h(old),
            h(old),
            escape(date),
            base - h(old) - h(*new),
            h(*new)
        );
        if i.is_multiple_of(every) || i + 1 == nights.len() {
            let _ = write!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"middle\">{}</text>",
                x + bar / 2.0,
                base + 16.0,
                escape(&night_label(date, nights))
            );
        }
    }
    let legend_y = height - 14.0;
    let _ = write!(
        out,
        "<rect x=\"{LEFT}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{BLUE}\"/>\
         <text x=\"{:.1}\" y=\"{legend_y:.1}\" class=\"tick\">seen the night before</text>\
         <rect x=\"{:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{RED}\"/>\
         <text x=\"{:.1}\" y=\"{legend_y:.1}\" class=\"tick\">new that night</text></svg>",
        legend_y - 9.0,
        LEFT + 14.0,
        LEFT + 170.0,
        legend_y - 9.0,
        LEFT + 184.0
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_end_on_round_numbers_above_the_maximum() {
        assert_eq!(axis(7.0), (8.0, 2.0));
        assert_eq!(axis(355.0), (400.0, 100.0));
        assert_eq!(axis(1.0), (1.0, 0.5));
        assert_eq!(axis(0.0), (1.0, 0.25));
        assert_eq!(count_axis(1.0), (1.0, 1.0));
        assert_eq!(count_axis(3.0), (3.0, 1.0));
        assert_eq!(count_axis(40.0), (40.0, 10.0));
    }

    #[test]
    fn charts_draw_one_mark_per_value_and_escape_labels() {
        let bars = bar_chart(&[("pass".into(), 1000), ("a<b".into(), 3)], true, |_| RED);
        assert_eq!(bars.matches("<rect").count(), 2);
        assert!(bars.contains("a&lt;b") && !bars.contains("a<b"), "{bars}");
        let trend = trend_chart(&[
            ("2026-11-24 02:00".into(), 3, 1),
            ("2026-11-25 02:00".into(), 2, 0),
        ]);
        assert!(
            trend.contains("11-24") && trend.contains("11-25"),
            "{trend}"
        );
        assert!(trend.contains("3 bucket(s), 1 new"), "{trend}");
        let same_day = trend_chart(&[
            ("2026-11-25 02:00".into(), 1, 1),
            ("2026-11-25 09:30".into(), 1, 0),
        ]);
        assert!(
            same_day.contains(">11-25 02:00<") && same_day.contains(">11-25 09:30<"),
            "{same_day}"
        );
        let line = line_chart(&[(1.0, 10.0), (2.0, 20.0)], "seconds", "execs/s");
        assert_eq!(line.matches("<circle").count(), 2);
        assert!(line_chart(&[], "x", "y").contains("nothing recorded"));
    }
}
