//! What can go wrong in a command, and the exit code each outcome gives: the one place exit
//! codes are decided (documented in the top-level `--help`).

use std::path::{Path, PathBuf};

/// How a command ended, as the process exit code scripts and CI read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Nothing wrong found.
    Ok = 0,
    /// Problems found: a violation, a disagreement, a non-canonical file, B does not refine A.
    Problems = 1,
    /// Unreadable or malformed input, a bad flag, or nothing the command could do.
    Malformed = 2,
    /// Undecided: every input set was discarded (the reference branched on undefined
    /// values or ran out of fuel), so nothing was compared. Not a pass and not a failure.
    Undecided = 3,
    /// `equiv` refused: the two programs have different shapes (target, dispatch width,
    /// threads, attrs, uniforms), so "B refines A" has no meaning.
    Incomparable = 4,
}

impl Exit {
    /// The numeric code.
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> Self {
        std::process::ExitCode::from(e.code())
    }
}

/// An error of the eufuzz library. The variant says what kind of thing went wrong, which
/// decides the exit code ([`Error::exit`]); the text is for the user.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or directory could not be read, written or listed.
    #[error("{}: cannot {action}: {source}", path.display())]
    Io {
        path: PathBuf,
        action: &'static str,
        source: std::io::Error,
    },
    /// A file's contents are malformed: `file:line:col: message` for `.eu` text.
    #[error("{0}")]
    Malformed(String),
    /// A flag, an `# options:` word or a knob is not valid.
    #[error("{0}")]
    Usage(String),
    /// The input is well-formed but the command cannot do what was asked with it (a file
    /// that does not fail has nothing to reduce; a directory that already holds statistics
    /// cannot be merged into).
    #[error("{0}")]
    Refused(String),
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: &Path, action: &'static str, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            action,
            source,
        }
    }

    /// The exit code a command that stops with this error gives.
    pub fn exit(&self) -> Exit {
        match self {
            Error::Io { .. } | Error::Malformed(_) | Error::Usage(_) | Error::Refused(_) => {
                Exit::Malformed
            }
        }
    }

    /// The same error with `context` (usually a file name) before its text.
    pub fn context(self, context: impl std::fmt::Display) -> Self {
        match self {
            Error::Malformed(m) => Error::Malformed(format!("{context}: {m}")),
            Error::Usage(m) => Error::Usage(format!("{context}: {m}")),
            Error::Refused(m) => Error::Refused(format!("{context}: {m}")),
            io @ Error::Io { .. } => io,
        }
    }
}

/// What a library call returns.
pub type Result<T, E = Error> = std::result::Result<T, E>;
