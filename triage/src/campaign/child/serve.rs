//! The child's side of crash isolation (`eufuzz campaign-worker`): read the [`Start`], cap
//! this process's memory, attach the phase file, then answer one [`Request`] per case
//! until the parent closes the pipe.
//!
//! [`Start`]: super::wire::Start
//! [`Request`]: super::wire::Request

use super::wire;
use crate::campaign::checker::Checker;
use crate::campaign::{phase, setup};
use crate::error::{Error, Result};
use std::io::{BufReader, BufWriter, Read, Write};

fn broken(e: std::io::Error) -> Error {
    Error::Refused(format!(
        "campaign worker: cannot exchange a case with the campaign: {e}"
    ))
}

/// Caps the data segment and heap of this process (`RLIMIT_DATA`, which since Linux 4.7
/// counts anonymous mappings too): an allocation past it fails, and Rust's runtime reports
/// the failure and aborts, which the parent files as `out-of-memory`.
fn limit_memory(bytes: u64) -> Result<()> {
    let limit = libc::rlimit {
        rlim_cur: bytes as libc::rlim_t,
        rlim_max: bytes as libc::rlim_t,
    };
    // SAFETY: setrlimit reads the struct it is given.
    if unsafe { libc::setrlimit(libc::RLIMIT_DATA, &limit) } != 0 {
        return Err(Error::Refused(format!(
            "campaign worker: cannot cap memory at {bytes} bytes: {}",
            std::io::Error::last_os_error()
        )));
    }
    Ok(())
}

/// Asks the kernel to kill this process when the worker thread that started it ends (a
/// campaign killed with `kill -9` closes the pipe too, but a child stuck in a case that
/// loops forever would never read it).
fn die_with_parent() {
    // SAFETY: prctl with PR_SET_PDEATHSIG takes a signal number and touches no memory.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
}

/// Serves cases from `input` to `output` until `input` ends.
pub fn serve(input: impl Read, output: impl Write) -> Result<()> {
    die_with_parent();
    let mut input = BufReader::new(input);
    let mut output = BufWriter::new(output);
    let Some((start, _)) = wire::read::<wire::Start>(&mut input).map_err(broken)? else {
        return Ok(());
    };
    limit_memory(start.memory)?;
    phase::attach(&start.phase)?;
    let setup = setup(&start.settings)?;
    let mut checker = Checker::new(&setup, &start.settings)?;
    while let Some((request, payload)) = wire::read::<wire::Request>(&mut input).map_err(broken)? {
        let case = request.input(payload);
        let (tally, found) = checker.run(&setup, &case);
        let reply = wire::Reply { tally, found };
        wire::write(&mut output, &reply, &reply.payload()).map_err(broken)?;
    }
    Ok(())
}
