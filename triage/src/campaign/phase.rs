//! Where a case is: generating its program, in a compiler pass (by name) or checking. A
//! campaign's child process keeps it in a small file it maps into memory and writes
//! without a system call (twice per pass), so that after the child died — a stack
//! overflow, an abort, a kill for running over the case timeout, none of which can be
//! caught — the parent reads from the file which pass took it down. Outside a child
//! (nothing attached) marking does nothing.

use crate::error::{Error, Result};
use std::path::Path;
use std::sync::atomic::{AtomicPtr, Ordering};

/// Bytes of the phase file: a length byte, then the name (cut to fit).
pub const SIZE: usize = 64;

/// The phase while the program is generated.
pub const GENERATE: &str = "generate";
/// The phase outside the compiler's passes once the program is generated (the reference
/// and compiled runs, comparison, localisation between passes).
pub const CHECK: &str = "check";

static SLOT: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());

/// Creates (or empties) the phase file at `path`, for a child about to start.
pub fn create(path: &Path) -> Result<()> {
    std::fs::write(path, [0u8; SIZE]).map_err(|e| Error::io(path, "create", e))
}

/// Maps the phase file at `path` into this process and makes [`mark`] and the compiler's
/// pass observer write to it (once per process: a child serves one worker).
pub fn attach(path: &Path) -> Result<()> {
    use std::os::fd::AsRawFd;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| Error::io(path, "open", e))?;
    // SAFETY: a fresh shared mapping of SIZE bytes of a file that is SIZE bytes long; the
    // mapping outlives the descriptor, which may be closed after mmap.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            SIZE,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            f.as_raw_fd(),
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(Error::io(path, "map", std::io::Error::last_os_error()));
    }
    SLOT.store(p.cast(), Ordering::Release);
    compiler::pipeline::observe_passes(observe);
    Ok(())
}

fn observe(pass: Option<&'static str>) {
    mark(pass.unwrap_or(CHECK));
}

/// Records that the case is now in `phase` (nothing when no phase file is attached).
pub fn mark(phase: &str) {
    let p = SLOT.load(Ordering::Relaxed);
    if p.is_null() {
        return;
    }
    let n = phase.len().min(SIZE - 1);
    // SAFETY: `p` maps SIZE bytes for the life of the process and only this process's
    // one case thread writes them; the name goes in before its length.
    unsafe {
        std::ptr::copy_nonoverlapping(phase.as_ptr(), p.add(1), n);
        p.write_volatile(n as u8);
    }
}

/// The phase last marked in the file at `path`, if it holds one.
pub fn read(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    let n = usize::from(*bytes.first()?);
    let name = std::str::from_utf8(bytes.get(1..1 + n)?).ok()?;
    (!name.is_empty()).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_file_holds_no_phase_and_a_written_one_reads_back() {
        let path = std::env::temp_dir().join(format!("eufuzz-phase-{}", std::process::id()));
        create(&path).unwrap();
        assert_eq!(read(&path), None);
        let mut bytes = vec![0u8; SIZE];
        bytes[0] = 13;
        bytes[1..14].copy_from_slice(b"opt_algebraic");
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read(&path).as_deref(), Some("opt_algebraic"));
        std::fs::remove_file(&path).unwrap();
    }
}
