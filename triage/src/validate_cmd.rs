//! `eufuzz validate`: the IR validator's violations for each file, located by source line.

use crate::load::load_document;
use compiler::text::print_inst;
use compiler::validate::{Violation, validate};
use serde_json::json;
use std::path::{Path, PathBuf};

/// The validator's verdict on one file.
pub struct FileReport {
    pub path: PathBuf,
    pub result: Result<Vec<Located>, String>,
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

fn validate_file(path: &Path) -> Result<Vec<Located>, String> {
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

/// Runs `eufuzz validate`; returns the exit code (0 valid, 1 violations, 2 unreadable input).
pub fn run(files: &[PathBuf], as_json: bool) -> i32 {
    let reports = validate_files(files);
    if as_json {
        print_json(&reports);
    } else {
        print_text(&reports);
    }
    if reports.iter().any(|r| r.result.is_err()) {
        2
    } else if reports
        .iter()
        .any(|r| r.result.as_ref().is_ok_and(|v| !v.is_empty()))
    {
        1
    } else {
        0
    }
}

fn print_text(reports: &[FileReport]) {
    let mut total = 0;
    let mut bad_files = 0;
    for r in reports {
        let name = r.path.display();
        match &r.result {
            Err(e) => eprintln!("{e}"),
            Ok(vs) if vs.is_empty() => println!("{name}: ok"),
            Ok(vs) => {
                bad_files += 1;
                total += vs.len();
                for l in vs {
                    let at = match (l.line, l.violation.ip) {
                        (Some(line), Some(ip)) => format!("{name}:{line}: ip {ip}"),
                        _ => format!("{name}"),
                    };
                    println!("{at}: [{}] {}", l.violation.rule, l.violation.message);
                    if let Some(text) = &l.inst {
                        println!("    {text}");
                    }
                }
            }
        }
    }
    let unreadable = reports.iter().filter(|r| r.result.is_err()).count();
    println!(
        "{} file(s): {} valid, {bad_files} with {total} violation(s), {unreadable} unreadable",
        reports.len(),
        reports.len() - bad_files - unreadable
    );
}

fn print_json(reports: &[FileReport]) {
    let files: Vec<_> = reports
        .iter()
        .map(|r| match &r.result {
            Err(e) => json!({ "file": r.path.display().to_string(), "error": e }),
            Ok(vs) => json!({
                "file": r.path.display().to_string(),
                "violations": vs.iter().map(|l| json!({
                    "rule": l.violation.rule,
                    "ip": l.violation.ip,
                    "line": l.line,
                    "message": l.violation.message,
                    "instruction": l.inst,
                })).collect::<Vec<_>>(),
            }),
        })
        .collect();
    println!(
        "{}",
        serde_json::to_string_pretty(&json!({ "files": files })).unwrap_or_default()
    );
}
