//! What the compiler's integration tests share.

use compiler::Program;

/// Every program of `corpus/DIR/*.eu` for each of `dirs` that parses, in file-name order
/// (a directory that does not exist gives none; no program at all fails the test, so a
/// moved corpus cannot make a test pass on nothing).
pub fn corpus_programs(dirs: &[&str]) -> Vec<Program> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus");
    let mut out = vec![];
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
            continue;
        };
        let mut files: Vec<_> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "eu"))
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            if let Ok(p) = compiler::text::parse_program(&text) {
                out.push(p);
            }
        }
    }
    assert!(
        !out.is_empty(),
        "no corpus programs under {root} in {dirs:?}"
    );
    out
}
