//! Exit codes every `eufuzz` subcommand shares (documented in the top-level `--help`).

/// Nothing wrong found.
pub const OK: i32 = 0;
/// Problems found: a violation, a disagreement, a non-canonical file, B does not refine A.
pub const PROBLEMS: i32 = 1;
/// Unreadable or malformed input.
pub const MALFORMED: i32 = 2;
/// Undecided: every input set was discarded (the reference branched on undefined values or
/// ran out of fuel), so nothing was compared. Not a pass and not a failure.
pub const UNDECIDED: i32 = 3;
/// `equiv` refused: the two programs have different shapes (target, dispatch width, threads,
/// attrs, uniforms), so "B refines A" has no meaning.
pub const INCOMPARABLE: i32 = 4;
