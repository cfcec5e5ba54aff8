//! The few git commands a bisection needs, run as the `git` program (as a user would), each
//! failure turned into an error that names the command.

use crate::error::{Error, Result};
use std::path::Path;
use std::process::Command;

/// A commit of the bisected range.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Commit {
    pub hash: String,
    pub subject: String,
    /// Author date, ISO 8601.
    pub date: String,
}

/// Runs `git -C repo ARGS` and returns its standard output; a failure is `Usage` (a
/// revision that does not exist, a directory that is not a repository: what the user
/// gave) with git's own message.
pub fn git(repo: &Path, args: &[&str]) -> Result<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .output()
        .map_err(|e| Error::io(repo, "run git in", e))?;
    if !out.status.success() {
        return Err(Error::Usage(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The commits from `old` to `new`, oldest first, both included: `new`'s first-parent
/// chain back to `old`, so a merged branch is one step (its merge commit), as the nightly
/// revisions of a main branch are. `old` must be an ancestor of `new`.
pub fn range(repo: &Path, old: &str, new: &str) -> Result<Vec<Commit>> {
    let old = resolve(repo, old)?;
    let new = resolve(repo, new)?;
    if old == new {
        return Err(Error::Usage(format!(
            "--good and --bad are the same commit {}: nothing to bisect",
            short(&old)
        )));
    }
    let ancestor = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["merge-base", "--is-ancestor", &old, &new])
        .status()
        .map_err(|e| Error::io(repo, "run git in", e))?;
    if !ancestor.success() {
        return Err(Error::Usage(format!(
            "{} is not an ancestor of {}: --good must be the older revision (with --fixed too)",
            short(&old),
            short(&new)
        )));
    }
    let listed = git(
        repo,
        &[
            "log",
            "--first-parent",
            "--reverse",
            "--format=%H%x00%s%x00%aI",
            &format!("{old}..{new}"),
        ],
    )?;
    let mut commits = vec![info(repo, &old)?];
    commits.extend(listed.lines().filter_map(parse_info));
    Ok(commits)
}

/// The full hash of a revision.
fn resolve(repo: &Path, rev: &str) -> Result<String> {
    Ok(git(
        repo,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|_| Error::Usage(format!("{rev}: not a commit of {}", repo.display())))?
    .trim()
    .to_string())
}

fn info(repo: &Path, hash: &str) -> Result<Commit> {
    let line = git(repo, &["show", "-s", "--format=%H%x00%s%x00%aI", hash])?;
    parse_info(line.trim_end())
        .ok_or_else(|| Error::Malformed(format!("git show {hash}: unexpected output `{line}`")))
}

fn parse_info(line: &str) -> Option<Commit> {
    let mut parts = line.splitn(3, '\0');
    Some(Commit {
        hash: parts.next()?.to_string(),
        subject: parts.next()?.to_string(),
        date: parts.next()?.to_string(),
    })
}

/// The first 10 hex digits, as reports show a commit.
pub fn short(hash: &str) -> &str {
    &hash[..hash.len().min(10)]
}
