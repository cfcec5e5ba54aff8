//! Canonical printing of `.eu` files (comments kept): what `eufuzz fmt` decides.

use crate::files::read_text;
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
                Err(e) => FmtOutcome::Error(e.to_string()),
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
