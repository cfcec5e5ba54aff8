//! Ctrl-C for the long-running commands (`campaign`, `bisect`): the first press asks the
//! work to stop at its next safe point, so that nothing is left half-written; the second
//! exits at once with 130, the shell's code for SIGINT.

use crate::{Error, Result};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Installs the handler and returns the flag the first Ctrl-C sets; `doing` says what the
/// stop will do (`removing the worktree`), printed with the press.
pub fn stop_flag_on_ctrl_c(doing: &'static str) -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let presses = AtomicUsize::new(0);
    ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) > 0 {
            std::process::exit(130);
        }
        eprintln!("stopping: {doing} (Ctrl-C again to exit at once)");
        flag.store(true, Ordering::SeqCst);
    })
    .map_err(|e| Error::Refused(format!("cannot handle Ctrl-C: {e}")))?;
    Ok(stop)
}
