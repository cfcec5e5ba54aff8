//! The IR validator's violations of each file, located by source line (what `eufuzz
//! validate` reports).

use crate::error::Result;
use crate::load::load_document;
use compiler::text::print_inst;
use compiler::validate::{Violation, validate};
use std::path::{Path, PathBuf};

/// The validator's verdict on one file.
pub struct FileReport {
    pub path: PathBuf,
    pub result: Result<Vec<Located>>,
}

/// A violation with the source line and text of its instruction.
pub struct Located {
    pub violation: Violation,
    pub line: Option<usize>,
    pub inst: Option<String>,
}

/// Validates each file (no output).
pub fn validate_files(files: &[PathBuf]) -> Vec<FileReport> {
    files
        .iter()
        .map(|path| FileReport {
            path: path.clone(),
            result: validate_file(path),
        })
        .collect()
}

fn validate_file(path: &Path) -> Result<Vec<Located>> {
    let doc = load_document(path)?;
    let insts: Vec<_> = doc.program.insts().collect();
    Ok(validate(&doc.program)
        .into_iter()
        .map(|v| Located {
            line: v.ip.and_then(|ip| doc.inst_lines.get(ip).copied()),
            inst: v.ip.and_then(|ip| insts.get(ip)).map(|i| print_inst(i)),
            violation: v,
        })
        .collect())
}
