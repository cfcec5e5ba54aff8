//! `eufuzz gate`: replay a corpus of reproducers against their in-file expectations.

use std::path::PathBuf;
use triage::files::write_atomic;
use triage::gate;
use triage::{Error, Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// Files or directories (default: corpus).
    paths: Vec<PathBuf>,
    /// Files checked at once (default: every core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Also write the results as JUnit XML here (for CI test views).
    #[arg(long)]
    junit: Option<PathBuf>,
    /// Print the results as JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Rewrite the `# expect:` line of files whose result changed (after a deliberate
    /// change), printing what changed; exits 0 when every disagreeing file was rewritten.
    #[arg(long)]
    bless: bool,
}

pub fn run(args: Args) -> Result<Exit> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("corpus")]
    } else {
        args.paths
    };
    let files = gate::collect(&paths)?;
    if files.is_empty() {
        return Err(Error::Refused("no .eu files to gate".into()));
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let results = gate::run(&files, jobs);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&results).expect("gate results serialize")
        );
    } else {
        print!("{}", gate::render(&results));
    }
    if let Some(path) = args.junit {
        let xml = reports::junit::render("eufuzz gate", &gate::junit_cases(&results));
        write_atomic(&path, xml.as_bytes())?;
    }
    let blessings = if args.bless {
        gate::bless(&results)?
    } else {
        vec![]
    };
    print!("{}", gate::render_blessings(&blessings));
    Ok(gate::exit(&results, &blessings))
}
