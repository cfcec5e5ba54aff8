//! Reproducer files: the header comment lines that make a `.eu` file replay on its own
//! (directives, `# options:`, `# bucket:`, where a reduction came from), read and written
//! in one place.

pub mod directives;

use crate::reduce::Reduced;
use std::path::{Path, PathBuf};

/// Header value `# KEY: value` of a reproducer.
pub fn header_value<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
        .find_map(|l| l.strip_prefix("# ")?.strip_prefix(key)?.strip_prefix(": "))
        .map(str::trim)
}

/// Whether a reproducer can be replayed inside this process: not one of a case that took a
/// campaign's child process down (`crash/…`) or was killed for running over its timeout
/// (`hang/…/cpu-time`, or `hang/…/wall-clock` as older campaigns filed every such hang),
/// which would take down or stall `rebucket` or `report` with it; nor one of another
/// backend (`# backend: mesa:PASS`), which eufuzz's pipeline does not judge (`eufuzz check
/// FILE --backend mesa:PASS` replays it).
/// `eufuzz check FILE` still replays those (and dies or hangs as the child did).
pub fn replays_in_process(text: &str) -> bool {
    if header_value(text, "backend").is_some() {
        return false;
    }
    header_value(text, "signature").is_none_or(|s| {
        let killed = s.ends_with("/cpu-time") || s.ends_with("/wall-clock");
        !(s.starts_with("crash/") || (s.starts_with("hang/") && killed))
    })
}

/// The `# options: …` header line of these words (empty when there are none).
pub fn options_line(words: &[String]) -> String {
    if words.is_empty() {
        String::new()
    } else {
        format!("# options: {}\n", words.join(" "))
    }
}

/// The text with its `# bucket:` line set to `key` (after `# signature:` when new, or else
/// right below the `eu 1` line: never above it, so a corpus file's version line stays
/// first). `rebucket` only rewrites files that have one.
pub fn with_bucket_line(text: &str, key: &str) -> String {
    let line = format!("# bucket: {key}");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if let Some(l) = lines.iter_mut().find(|l| l.starts_with("# bucket: ")) {
        *l = line;
    } else {
        let at = lines
            .iter()
            .position(|l| l.starts_with("# signature: "))
            .or_else(|| lines.iter().position(|l| l.starts_with("eu ")))
            .map_or(0, |i| i + 1);
        lines.insert(at, line);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// `foo.eu` → `foo.reduced.eu`: where a reproducer's reduction is kept.
pub fn reduced_beside(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "reproducer".into());
    file.with_file_name(format!("{stem}.reduced.eu"))
}

/// The header of a reduced reproducer: where it came from and what reduction did.
pub fn reduced_header(file: &Path, r: &Reduced, inputs_generated: Option<u64>) -> String {
    let culprit = r.judgement.signature.split('/').nth(1).unwrap_or("-");
    let mut h = String::from("# eufuzz reduced reproducer\n");
    h.push_str(&format!("# original: {}\n", file.display()));
    h.push_str(&format!("# signature: {}\n", r.judgement.signature));
    h.push_str(&format!("# culprit pass: {culprit}\n"));
    h.push_str(&format!(
        "# size: {} -> {} instructions\n",
        r.insts_before, r.insts_after
    ));
    h.push_str(&format!(
        "# reduction: {:.1} s, {} tests{}\n",
        r.elapsed.as_secs_f64(),
        r.tests,
        if r.out_of_budget {
            " (budget spent before a fixpoint)"
        } else {
            ""
        }
    ));
    if let Some(seed) = inputs_generated {
        h.push_str(&format!(
            "# failing inputs: generated from seed {seed} (the original carried none)\n"
        ));
    }
    h
}

#[cfg(test)]
mod tests {
    #[test]
    fn crashes_and_killed_hangs_are_not_replayed_in_process() {
        let with = |sig: &str| format!("# eufuzz reproducer\n# signature: {sig}\neu 1\n");
        assert!(!replays_in_process(&with(
            "crash/opt_algebraic/stack-overflow"
        )));
        assert!(!replays_in_process(&with(
            "hang/opt_copy_propagation/wall-clock"
        )));
        assert!(!replays_in_process(&with("hang/-/wall-clock")));
        assert!(!replays_in_process(&with("hang/opt_cse/cpu-time")));
        assert!(replays_in_process(&with("hang/opt_cse/fuel")));
        assert!(replays_in_process(&with("mismatch/opt_cse/MOV")));
        assert!(replays_in_process("eu 1\n"));
        let mesa = "# eufuzz reproducer\n# signature: mismatch/mesa:opt_cse\n# backend: mesa:opt_cse\neu 1\n";
        assert!(!replays_in_process(mesa));
    }

    use super::*;

    #[test]
    fn header_values_come_from_the_leading_comments() {
        let text = "# eufuzz reproducer\n# signature: a/b/c\n# bucket: a/b/mul:D/one-lane\neu 1\n# bucket: not-this\n";
        assert_eq!(header_value(text, "bucket"), Some("a/b/mul:D/one-lane"));
        assert_eq!(header_value(text, "options"), None);
    }

    #[test]
    fn bucket_lines_are_replaced_or_inserted() {
        let text = "# signature: a/b/c\neu 1\n";
        let once = with_bucket_line(text, "k1");
        assert_eq!(once, "# signature: a/b/c\n# bucket: k1\neu 1\n");
        assert_eq!(
            with_bucket_line(&once, "k2"),
            "# signature: a/b/c\n# bucket: k2\neu 1\n"
        );
        assert_eq!(
            with_bucket_line("eu 1\ntarget skl\n", "k"),
            "eu 1\n# bucket: k\ntarget skl\n"
        );
    }

    #[test]
    fn reductions_sit_beside_their_original() {
        assert_eq!(
            reduced_beside(Path::new("out/x-1.eu")),
            PathBuf::from("out/x-1.reduced.eu")
        );
    }
}
