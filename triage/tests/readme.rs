//! The corpus figures the README and the docs quote match the tree: the zoo's bug counts
//! (README, docs/zoo.md) and the corpus table of docs/corpus-and-gate.md. (That every
//! `eufuzz` command they show parses is a test of the binary's command line,
//! `commands::tests` in `triage/src/commands/mod.rs`.)

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(page: &str) -> String {
    std::fs::read_to_string(root().join(page)).expect(page)
}

/// `.eu` files under `dir` (recursively), and how many of them are `stage vs` programs.
fn count(dir: &Path) -> (usize, usize) {
    let mut files = 0;
    let mut vec4 = 0;
    for e in std::fs::read_dir(dir).expect("corpus directory") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            let (f, v) = count(&p);
            files += f;
            vec4 += v;
        } else if p.extension().is_some_and(|x| x == "eu") {
            files += 1;
            let text = std::fs::read_to_string(&p).expect("readable");
            vec4 += usize::from(text.lines().any(|l| l == "stage vs"));
        }
    }
    (files, vec4)
}

/// The number written just before `marker` in `text` (`1,194` reads as 1194).
fn number_before(text: &str, marker: &str) -> usize {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("`{marker}` is not quoted"));
    let digits: String = text[..at]
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .filter(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number before `{marker}`"))
}

#[test]
fn the_zoo_counts_quoted_match_the_zoo() {
    let (bugs, vec4) = count(&root().join("corpus/zoo"));
    let readme = read("README.md");
    assert_eq!(number_before(&readme, " historical bugs ("), bugs);
    assert_eq!(number_before(&readme, " scalar, "), bugs - vec4);
    assert_eq!(number_before(&readme, " vec4) that"), vec4);
    let zoo = read("docs/zoo.md");
    assert_eq!(number_before(&zoo, " re-injectable historical bugs"), bugs);
    assert_eq!(number_before(&zoo, " in the scalar backend"), bugs - vec4);
    assert_eq!(number_before(&zoo, " in the vec4 DF pipeline"), vec4);
}

#[test]
fn the_corpus_table_matches_the_tree() {
    let page = read("docs/corpus-and-gate.md");
    let mut total = 0;
    let mut rows = 0;
    for line in page.lines() {
        let Some(rest) = line.strip_prefix("| `corpus/") else {
            continue;
        };
        let (dir, rest) = rest.split_once("/` | ").expect("a table row");
        let quoted: usize = rest
            .split(' ')
            .next()
            .and_then(|n| n.replace(',', "").parse().ok())
            .unwrap_or_else(|| panic!("no count in `{line}`"));
        let (files, _) = count(&root().join("corpus").join(dir));
        assert_eq!(quoted, files, "corpus/{dir}/ in docs/corpus-and-gate.md");
        total += files;
        rows += 1;
    }
    assert!(rows >= 5, "the corpus table has {rows} rows");
    assert_eq!(number_before(&page, " files in all)"), total);
    assert_eq!(
        count(&root().join("corpus")).0,
        total,
        "a corpus folder is not in the table"
    );
}
