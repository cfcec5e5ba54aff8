//! Bisection results as `eufuzz bisect --json` writes them, read back so the morning
//! report can say per bucket which commit introduced or fixed it (the nightly job bisects
//! first and reports after).

use super::Finding;
use crate::error::{Error, Result};
use crate::files::read_text;
use reports::campaign_report as cr;
use std::collections::BTreeMap;
use std::path::Path;

/// The part of a saved result the report needs.
#[derive(serde::Deserialize)]
struct Saved {
    mode: String,
    bucket: Option<String>,
    finding: Finding,
}

/// Every `*.json` result in `dir` that names its bucket, by bucket key (a later file name
/// wins for the same key).
pub fn read_results(dir: &Path) -> Result<BTreeMap<String, cr::Bisection>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, "list", e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = BTreeMap::new();
    for f in files {
        let saved: Saved = serde_json::from_str(&read_text(&f)?).map_err(|e| {
            Error::Malformed(format!("{}: not a bisection result: {e}", f.display()))
        })?;
        if let Some(key) = saved.bucket {
            out.insert(key, to_report(saved.mode, saved.finding));
        }
    }
    Ok(out)
}

/// Puts each result on the bucket of its key.
pub fn attach(report: &mut cr::Report, results: &BTreeMap<String, cr::Bisection>) {
    for b in &mut report.buckets {
        b.bisection = results.get(&b.key).cloned();
    }
}

fn to_report(mode: String, finding: Finding) -> cr::Bisection {
    let (commits, range_reason) = match finding {
        Finding::Found(c) => (vec![c], None),
        Finding::Range(cs) => (cs, Some("untestable commits between".to_string())),
        Finding::OutOfTime(cs) => (cs, Some("the time ran out".to_string())),
    };
    cr::Bisection {
        mode,
        commits: commits
            .into_iter()
            .map(|c| cr::CommitRef {
                hash: c.hash,
                subject: c.subject,
            })
            .collect(),
        range_reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_attach_to_their_buckets_and_bad_files_are_named() {
        let dir = std::env::temp_dir().join(format!("eufuzz-saved-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let found = r#"{"mode":"introduced","bucket":"k1","finding":{"kind":"found","commits":{"hash":"abc","subject":"s","date":"d"}},"other":1}"#;
        std::fs::write(dir.join("1.json"), found).unwrap();
        std::fs::write(
            dir.join("2.json"),
            r#"{"mode":"fixed","bucket":null,"finding":{"kind":"range","commits":[]}}"#,
        )
        .unwrap();
        let results = read_results(&dir).unwrap();
        assert_eq!(results.len(), 1);
        let mut r = cr::Report {
            buckets: vec![cr::Bucket {
                key: "k1".into(),
                ..cr::Bucket::default()
            }],
            ..cr::Report::default()
        };
        attach(&mut r, &results);
        let b = r.buckets[0].bisection.as_ref().unwrap();
        assert_eq!(b.describe(), "introduced by abc s");
        std::fs::write(dir.join("3.json"), "{").unwrap();
        let e = read_results(&dir).unwrap_err();
        assert!(matches!(e, Error::Malformed(m) if m.contains("3.json")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
