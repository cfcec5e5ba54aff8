//! `eufuzz campaign-worker` (hidden): the child process a campaign worker runs its cases
//! in, speaking the framed protocol of `triage::campaign::child::wire` over stdin and
//! stdout. Not for people: a campaign starts it.

use triage::{Exit, Result};

/// What `eufuzz campaign-worker` takes: nothing (everything comes over stdin).
#[derive(clap::Args)]
pub struct Args {}

/// Serves cases until the campaign closes stdin.
pub fn run(_: Args) -> Result<Exit> {
    triage::campaign::child::serve::serve(std::io::stdin().lock(), std::io::stdout().lock())?;
    Ok(Exit::Ok)
}
