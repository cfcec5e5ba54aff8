//! `eufuzz report DIR`: write the morning report of a campaign. Exit code 1 when a bucket
//! is new and not a known issue, so a nightly job fails exactly when there is something
//! new to look at.

use reports::campaign_report as cr;
use std::path::PathBuf;
use triage::bisect::saved::{attach, read_results};
use triage::files::write_atomic;
use triage::report::{build, extended_history, summary_line};
use triage::{Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// The campaign output directory (holding stats.json and the reproducers).
    dir: PathBuf,
    /// The previous night: its campaign directory, or a history.jsonl whose last line is
    /// the previous night (all its lines make the trend).
    #[arg(long)]
    previous: Option<PathBuf>,
    /// Write the self-contained HTML report here.
    #[arg(long)]
    html: Option<PathBuf>,
    /// Write the Markdown report here (printed on stdout when no output is given).
    #[arg(long)]
    md: Option<PathBuf>,
    /// Write the report as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Append tonight to this history.jsonl (created if missing).
    #[arg(long)]
    append_history: Option<PathBuf>,
    /// Known issues (labels new buckets that are known); default:
    /// corpus/known-issues.toml when it exists.
    #[arg(long)]
    known: Option<PathBuf>,
    /// A directory of `eufuzz bisect --json` results: each bucket they name shows the
    /// commit that introduced or fixed it.
    #[arg(long)]
    bisections: Option<PathBuf>,
}

/// Exit 0, 1 when a bucket is new and not a known issue, 2 on unreadable input.
pub fn run(args: Args) -> Result<Exit> {
    let mut r = build(&args.dir, args.previous.as_deref(), args.known.as_deref())?;
    if let Some(dir) = &args.bisections {
        attach(&mut r, &read_results(dir)?);
    }
    write_outputs(&args, &r)?;
    eprintln!("{}", summary_line(&r));
    Ok(if r.summary.new_unknown > 0 {
        Exit::Problems
    } else {
        Exit::Ok
    })
}

/// Writes the outputs asked for and appends to the history (checked before anything is
/// written).
fn write_outputs(args: &Args, r: &cr::Report) -> Result<()> {
    let history = match &args.append_history {
        Some(p) => Some((p, extended_history(p, r)?)),
        None => None,
    };
    if let Some(p) = &args.html {
        write_atomic(p, reports::campaign_report_html::render(r, &[]).as_bytes())?;
    }
    let md = reports::campaign_report_md::render(r, &[]);
    if let Some(p) = &args.md {
        write_atomic(p, md.as_bytes())?;
    }
    if let Some(p) = &args.json {
        write_atomic(p, cr::render_json(r).as_bytes())?;
    }
    if args.html.is_none() && args.md.is_none() && args.json.is_none() {
        print!("{md}");
    }
    if let Some((p, text)) = history {
        write_atomic(p, text.as_bytes())?;
    }
    Ok(())
}
