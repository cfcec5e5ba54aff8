//! `eufuzz stats-compare`: the shader-db comparison of two `eufuzz stats` runs.

use reports::shader_runs::{DEFAULT_METRICS, compare_runs};
use std::path::PathBuf;
use triage::shader_db::read_csv;
use triage::{Error, Exit, Result};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The run before the change.
    before: PathBuf,
    /// The run after the change.
    after: PathBuf,
    /// Metrics to compare (repeat or separate with commas; default: all but compile_us).
    #[arg(long, value_delimiter = ',')]
    metric: Vec<String>,
    /// Print JSON.
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// Print Markdown.
    #[arg(long)]
    markdown: bool,
    /// List this many most helped and most hurt programs per metric.
    #[arg(long, default_value_t = 5)]
    top: usize,
}

/// Prints the comparison; exit 0.
pub fn run(a: Args) -> Result<Exit> {
    let metrics: Vec<&str> = if a.metric.is_empty() {
        DEFAULT_METRICS.to_vec()
    } else {
        a.metric.iter().map(String::as_str).collect()
    };
    let before = read_csv(&a.before)?;
    let after = read_csv(&a.after)?;
    let c = compare_runs(&before, &after, &metrics, a.top).map_err(Error::Usage)?;
    let out = if a.json {
        serde_json::to_string_pretty(&c).expect("a comparison serializes") + "\n"
    } else if a.markdown {
        reports::shader_stats_text::render_comparison_markdown(&c)
    } else {
        reports::shader_stats_text::render_comparison(&c)
    };
    print!("{out}");
    Ok(Exit::Ok)
}
