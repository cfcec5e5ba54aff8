//! `eufuzz validate`: print the IR validator's violations of each file.

use serde_json::json;
use std::path::PathBuf;
use triage::validation::{FileReport, validate_files};
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
    /// The .eu files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// Exit 0 valid, 1 violations, 2 unreadable input.
pub fn run(args: Args) -> Result<Exit> {
    let reports = validate_files(&args.files);
    if args.json {
        print_json(&reports);
    } else {
        print_text(&reports);
    }
    Ok(if reports.iter().any(|r| r.result.is_err()) {
        Exit::Malformed
    } else if reports
        .iter()
        .any(|r| r.result.as_ref().is_ok_and(|v| !v.is_empty()))
    {
        Exit::Problems
    } else {
        Exit::Ok
    })
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
            Err(e) => json!({ "file": r.path.display().to_string(), "error": e.to_string() }),
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
