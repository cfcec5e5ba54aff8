//! `history.jsonl`: one [`Night`] per line, oldest first, so a nightly job appends a line
//! and the next night compares against the last one. A line per night (not one JSON
//! document) keeps the file appendable and readable with `tail` and `jq`.

use crate::campaign_report::Night;

/// The nights of a history file; blank lines are skipped, a malformed line is an error
/// naming it (the history is the user's record and must not be silently dropped).
pub fn parse_history(text: &str) -> Result<Vec<Night>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// One night as a history line (with its newline).
pub fn history_line(n: &Night) -> String {
    let mut line = serde_json::to_string(n).unwrap_or_default();
    line.push('\n');
    line
}

/// `text` (a history file's contents, possibly without a final newline) with `n` appended.
pub fn append(text: &str, n: &Night) -> String {
    let mut out = text.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&history_line(n));
    out
}

/// The history without the lines of the night that started at `started_unix` (kept
/// verbatim otherwise), so re-running the report of a night compares it with the night
/// before and replaces its line instead of adding a second one.
pub fn without_night(text: &str, started_unix: u64) -> Result<String, String> {
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let n: Night = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        if n.started_unix != started_unix {
            out.push_str(line);
            out.push('\n');
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn night(date: &str, key: &str) -> Night {
        Night {
            date: date.into(),
            buckets: [(key.to_string(), 2)].into(),
            ..Night::default()
        }
    }

    #[test]
    fn appended_nights_parse_back_in_order() {
        let text = append(&append("", &night("d1", "a")), &night("d2", "b"));
        assert_eq!(text.lines().count(), 2);
        let nights = parse_history(&text).expect("valid");
        assert_eq!(nights, [night("d1", "a"), night("d2", "b")]);
        // A file someone edited by hand, without its final newline.
        let edited = append(text.trim_end(), &night("d3", "c"));
        assert_eq!(parse_history(&edited).expect("valid").len(), 3);
    }

    #[test]
    fn a_night_reported_again_replaces_its_line() {
        let mut first = night("d1", "a");
        first.started_unix = 100;
        let mut second = night("d2", "b");
        second.started_unix = 200;
        let text = append(&append("", &first), &second);
        let rest = without_night(&text, 200).expect("valid");
        assert_eq!(rest, history_line(&first));
        assert_eq!(without_night(&text, 300).expect("valid"), text);
        assert!(without_night("oops\n", 1).is_err());
    }

    #[test]
    fn a_malformed_line_is_named() {
        let text = format!("{}\nnot json\n", history_line(&night("d1", "a")).trim_end());
        let e = parse_history(&text).expect_err("malformed");
        assert!(e.starts_with("line 2:"), "{e}");
        assert_eq!(parse_history("\n\n").expect("empty"), []);
    }
}
