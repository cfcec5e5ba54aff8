//! `eufuzz fmt`: rewrite `.eu` files in canonical form, or list those that are not.

use std::path::PathBuf;
use triage::canonical::{FmtOutcome, check_files};
use triage::files::write_atomic;
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// Only report files that are not canonical.
    #[arg(long)]
    check: bool,
    /// The .eu files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// Exit 0 ok, 1 not canonical under --check, 2 errors.
pub fn run(args: Args) -> Result<Exit> {
    let mut errors = 0;
    let mut changed = 0;
    for (path, outcome) in check_files(&args.files) {
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
                if args.check {
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
    Ok(if errors > 0 {
        Exit::Malformed
    } else if args.check && changed > 0 {
        Exit::Problems
    } else {
        Exit::Ok
    })
}
