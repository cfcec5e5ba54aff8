//! `eufuzz fmt`: canonical printing of `.eu` files (comments kept).

use crate::files::{read_text, write_atomic};
use compiler::text::{parse_document, print_document};
use std::path::PathBuf;

/// What formatting one file found.
pub enum FmtOutcome {
    Canonical,
    /// Not canonical: the original text and the canonical text.
    Changed {
        original: String,
        canonical: String,
    },
    Error(String),
}

/// Decides, for each file, whether it is canonical (no output, no writes).
pub fn check_files(files: &[PathBuf]) -> Vec<(PathBuf, FmtOutcome)> {
    files
        .iter()
        .map(|path| {
            let outcome = match read_text(path) {
                Err(e) => FmtOutcome::Error(e),
                Ok(original) => match parse_document(&original) {
                    Err(e) => FmtOutcome::Error(format!("{}:{e}", path.display())),
                    Ok(doc) => {
                        let canonical = print_document(&doc);
                        if canonical == original {
                            FmtOutcome::Canonical
                        } else {
                            FmtOutcome::Changed {
                                original,
                                canonical,
                            }
                        }
                    }
                },
            };
            (path.clone(), outcome)
        })
        .collect()
}

/// Runs `eufuzz fmt`; returns the exit code (0 ok, 1 not canonical under --check, 2 errors).
pub fn run(files: &[PathBuf], check: bool) -> i32 {
    let mut errors = 0;
    let mut changed = 0;
    for (path, outcome) in check_files(files) {
        match outcome {
            FmtOutcome::Canonical => {}
            FmtOutcome::Error(e) => {
                eprintln!("{e}");
                errors += 1;
            }
            FmtOutcome::Changed {
                original,
                canonical,
            } => {
                changed += 1;
                if check {
                    let name = path.display().to_string();
                    println!("{name}: not in canonical form");
                    let diff = similar::TextDiff::from_lines(&original, &canonical);
                    print!(
                        "{}",
                        diff.unified_diff()
                            .header(&name, &format!("{name} (canonical)"))
                    );
                } else if let Err(e) = write_atomic(&path, canonical.as_bytes()) {
                    eprintln!("{e}");
                    errors += 1;
                } else {
                    println!("formatted {}", path.display());
                }
            }
        }
    }
    if errors > 0 {
        2
    } else if check && changed > 0 {
        1
    } else {
        0
    }
}
