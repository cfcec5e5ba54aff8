//! The subcommands, one module each: its arguments (clap derive) and a `run` that calls the
//! library and prints. Adding a command is one new file here plus one line in [`Command`]
//! and one in [`run`]. No command module uses another: what two commands share belongs to
//! the library (`scripts/check-layering.sh` checks this).

mod bisect;
mod bucket;
mod campaign;
mod campaign_worker;
mod check;
mod compile;
mod equiv;
mod fmt;
mod gate;
mod generate;
mod import;
mod merge;
mod rebucket;
mod reduce;
mod report;
mod run;
mod stats;
mod stats_compare;
mod validate;
mod verdicts;

use clap::{Parser, Subcommand};
use triage::{Exit, Result};

/// Differential fuzzing and regression harness for an Intel EU (brw/i965-style) shader
/// compiler backend.
///
/// Programs are written in the `.eu` text form (close to Mesa's printed IR). Exit codes:
/// 0 success, 1 problems found (violations, non-canonical files, a disagreement, B not
/// equivalent to A), 2 unreadable or malformed input, 3 undecided (`check`, `equiv`: every
/// input set was discarded because the reference branched on undefined values or ran out
/// of fuel, so nothing was compared), 4 incomparable (`equiv`: the two programs take
/// different inputs).
#[derive(Parser)]
#[command(name = "eufuzz", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Rewrite .eu files in canonical form, keeping comments (atomic, in place).
    ///
    /// With --check nothing is written: non-canonical files are listed with a unified diff
    /// and the exit code is 1.
    Fmt(fmt::Args),
    /// Check .eu programs against the IR validator's rules (Mesa's brw_validate invariants).
    ///
    /// Each violation names its rule (e.g. nomask-wider-than-dispatch), the file line and
    /// instruction. Exit code 1 if any program breaks a rule.
    Validate(validate::Args),
    /// Compile a program through the lowering pipeline and print the hardware IR.
    ///
    /// Validator violations after each pass, a failing or panicking pass are reported on
    /// stderr (exit code 1).
    Compile(compile::Args),
    /// Compile programs and check the compiled run (strict hardware mode) against the
    /// reference run of the input, on the file's inputs or generated ones.
    ///
    /// Exit code 0 if every file agrees: no failing pass, no validator rule broken, no
    /// hardware restriction broken, and every byte the reference defines matches. Exit code
    /// 1 if any check disagrees or a file is invalid for its own target, 2 if a file cannot
    /// be read, else 3 (undecided) if some check had every input set discarded (the
    /// reference branched on undefined values or ran out of fuel): nothing was compared
    /// there, which is neither a pass nor a failure.
    Check(check::Args),
    /// Generate a program (with its inputs) from a seed and print it as .eu.
    ///
    /// The same seed and knobs give the same program on every machine. Knobs come from
    /// EUFUZZ_KNOBS plus the flags.
    Gen(generate::Args),
    /// Are two programs equivalent: does B refine A on generated inputs?
    ///
    /// Runs A (the reference) and B on A's own INPUTS section (B's is ignored) and
    /// `--inputs K` (default 16) input sets generated for A. B refines A when every byte A
    /// defines, B produces the same (NaN payloads of float results aside); input sets on
    /// which A branches on undefined values or does not complete are discarded. Prints a
    /// distinguishing input set and the channel diff when B does not refine A.
    ///
    /// Both programs must take the same inputs: the same target, dispatch width, threads,
    /// attrs (number and sizes) and uniform count. Otherwise equiv refuses and names each
    /// difference (exit code 4); "B refines A" means nothing when B reads inputs A does not
    /// have. Registers, scratch size and the code may differ. A B in hardware IR (no VGRFs)
    /// runs in strict mode, like a compiled program.
    ///
    /// Exit codes: 0 equivalent, 1 NOT equivalent, 2 unreadable, malformed or invalid
    /// program, 3 UNDECIDED (every input set discarded: nothing was compared), 4 the
    /// programs have different shapes.
    Equiv(equiv::Args),
    /// Shrink a failing program to a small one that fails the same way.
    ///
    /// Structure-aware delta debugging (threads, control-flow regions, instructions, dispatch
    /// width, operands, modifiers, declarations, inputs) keeping the bucket signature
    /// (kind/culprit pass/detail) and a reference run no less defined than the original's.
    /// Writes a canonical .eu (default FILE.reduced.eu) whose header names the original,
    /// the signature, the culprit pass, sizes and time. The same file and options always give
    /// the same result, whatever --jobs is. Exit code 0 reduced, 2 nothing to reduce (the file
    /// does not fail, or fails with another signature than --signature) or unreadable input.
    Reduce(reduce::Args),
    /// shader-db: compile every program of a corpus and write one CSV row of figures per
    /// (program, device): instructions, sends, loops, cycles (the scheduler's static
    /// estimate), spills, fills, scratch bytes, max live registers, compile time (µs).
    ///
    /// Compile failures are rows with an `error` column. Two runs (two git revisions, or
    /// two option sets such as `--skip move_load_const`) compare with `stats-compare`.
    /// Exit code 0, or 2 if a path or file cannot be read.
    Stats(stats::Args),
    /// Compare two `eufuzz stats` runs the way shader-db reports do: per metric the totals
    /// in shared and affected programs, helped/HURT counts and stats, 95 % mean confidence
    /// intervals of the value and the %-change, and the verdict; programs only one run has,
    /// or that fail in either, are listed.
    StatsCompare(stats_compare::Args),
    /// Replay a corpus of reproducers against their in-file expectations (merge gating).
    ///
    /// Every .eu file under PATHS runs as its header directives say (`# expect:`, `# xfail:`,
    /// `# options:`, `# devices:`, `# inputs:`, `# zoo:`; see corpus/README.md), in parallel.
    /// Prints each unexpected result and `N passed, N failed, N xfail, N skipped`. An xfail
    /// that passes is an error. Exit code 0 only if every result matches its expectation, 1
    /// otherwise, 2 if a path cannot be read.
    Gate(gate::Args),
    /// Group campaign reproducers by bucket (one root cause each).
    ///
    /// Reads the `# bucket:` line campaigns write into each reproducer and lists every bucket
    /// with its count, first and last seen (file times, UTC) and the smallest reproducer (a
    /// NAME.reduced.eu beside NAME.eu counts). Buckets listed in the known-issues file are
    /// labelled, or hidden when `suppress = true`.
    Bucket(bucket::Args),
    /// Recompute the bucket key of every reproducer (after a change to the compiler or to
    /// bucketing), using the compile options in its `# options:` line; rewrites the files
    /// whose key changed (atomically). A reproducer that no longer fails gets `fixed/...`.
    ///
    /// With `--reduce`, first reduces (as a campaign would) every reproducer without a
    /// `.reduced.eu` beside it: the follow-up stage for failures a campaign filed unreduced
    /// because it ended before their reduction ran.
    Rebucket(rebucket::Args),
    /// The morning report of a campaign directory: new / still open / gone buckets since
    /// the previous night, each bucket's reduced reproducer replayed (culprit pass, IR diff,
    /// channel diff), coverage and charts, as HTML (self-contained), Markdown and JSON.
    ///
    /// Exit code 1 if a bucket is new and not a known issue, 2 if DIR/stats.json, the
    /// previous night or the history cannot be read.
    Report(report::Args),
    /// Turn generator bytes (a libFuzzer artifact, a campaign's .bytes file) into the .eu
    /// program they decode to.
    ///
    /// The header carries the program's verdict on its own inputs (what the `differential`
    /// fuzz target checks) and, when it fails, its signature and bucket key as a campaign
    /// writes them: `eufuzz import ARTIFACT > DIR/x.eu; eufuzz bucket DIR` groups crash
    /// artifacts with campaign reproducers.
    Import(import::Args),
    /// Generate programs and check each, on every core, until the time is up or Ctrl-C.
    ///
    /// Workers run disjoint seed streams, each case in the worker's child process, so a
    /// compiler that overflows its stack, aborts, runs out of memory (--case-memory) or
    /// hangs (the timeout adapts to the case time) is filed as crash/PASS/KIND or
    /// hang/PASS/cpu-time and the campaign goes on; every failure goes to OUT as NAME.eu (inputs,
    /// verdict, culprit pass, signature and bucket in its header; replay with `eufuzz
    /// check`), NAME.bytes (the generator bytes) and NAME.reduced.eu; OUT/stats.json and
    /// OUT/checkpoint.json are written every few seconds, so `--resume OUT` continues a
    /// stopped or killed campaign. Ctrl-C stops within a second (a second Ctrl-C exits at
    /// once). Exit code 1 if anything failed.
    Campaign(campaign::Args),
    /// The child process a campaign runs its cases in (started by `campaign`, not by hand).
    #[command(hide = true)]
    CampaignWorker(campaign_worker::Args),
    /// Merge campaign outputs (shards run with `--shard K/N`) into OUT: statistics added up
    /// in OUT/stats.json, every reproducer copied (renamed, never overwritten, when its name
    /// is taken), so `eufuzz bucket OUT` lists the buckets of all of them.
    Merge(merge::Args),
    /// Name the commit that introduced a failure (or, with --fixed, the one that fixed it)
    /// by building revisions between --good and --bad and replaying the reproducer with each
    /// revision's own `eufuzz check`.
    ///
    /// Revisions are built in a git worktree under the cache directory, one binary per
    /// commit kept for later runs; a revision that does not build, cannot read the file or
    /// fails with another signature is skipped, as `git bisect skip` does. Exit code 0 when
    /// one commit is named, 1 when only a range could be (skips, or --time ran out), 2 on
    /// bad input, ends that do not behave as said, or Ctrl-C (which leaves no worktree).
    Bisect(bisect::Args),
    /// Execute a program on the EU emulator and print what it made observable.
    ///
    /// Prints every render-target write per thread and channel (undefined bytes as `..`),
    /// final buffer contents and diagnostics. Inputs come from the file's INPUTS section
    /// unless --inputs or --seed is given. Exit code 1 on an emulator fault, running out of
    /// fuel, or (with --strict) a broken hardware restriction.
    Run(run::Args),
    /// One tab-separated line per (program, device): name, device, verdict kind, signature,
    /// culprit pass, bucket key and a digest of the whole verdict.
    ///
    /// For `.eu` files (run as `check` runs them) and generated seeds (`--seeds A..B`, with
    /// a campaign case's input sets), in input order whatever `--jobs` is. Two revisions
    /// that print the same lines judge these programs the same way
    /// (`scripts/verdict-equivalence.sh`). Exit code 0, or 2 if a file cannot be read.
    Verdicts(verdicts::Args),
}

/// Runs one command.
pub fn run(command: Command) -> Result<Exit> {
    match command {
        Command::Fmt(a) => fmt::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Compile(a) => compile::run(a),
        Command::Check(a) => check::run(a),
        Command::Gen(a) => generate::run(a),
        Command::Equiv(a) => equiv::run(a),
        Command::Reduce(a) => reduce::run(a),
        Command::Stats(a) => stats::run(a),
        Command::StatsCompare(a) => stats_compare::run(a),
        Command::Gate(a) => gate::run(a),
        Command::Bucket(a) => bucket::run(a),
        Command::Rebucket(a) => rebucket::run(a),
        Command::Report(a) => report::run(a),
        Command::Import(a) => import::run(a),
        Command::Campaign(a) => campaign::run(a),
        Command::CampaignWorker(a) => campaign_worker::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Run(a) => run::run(a),
        Command::Bisect(a) => bisect::run(a),
        Command::Verdicts(a) => verdicts::run(a),
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::Parser;

    /// The words of a shell command line: double quotes group, `#` starts a comment, and
    /// a redirection or pipe ends the command.
    fn words(line: &str) -> Vec<String> {
        let mut out = vec![];
        let mut word = String::new();
        let mut quoted = false;
        let mut started = false;
        for c in line.chars() {
            match c {
                '"' => {
                    quoted = !quoted;
                    started = true;
                }
                '#' if !quoted && !started => break,
                c if c.is_whitespace() && !quoted => {
                    if started {
                        out.push(std::mem::take(&mut word));
                        started = false;
                    }
                }
                c => {
                    word.push(c);
                    started = true;
                }
            }
        }
        if started {
            out.push(word);
        }
        let end = out
            .iter()
            .position(|w| matches!(w.as_str(), ">" | "|" | "&&" | "2>&1"))
            .unwrap_or(out.len());
        out.truncate(end);
        out
    }

    /// The `eufuzz` arguments of a command line shown in a `sh` block: `eufuzz ARGS`
    /// (after any `VAR=value`), or `cargo run … -p triage … -- ARGS`.
    fn eufuzz_args(line: &str) -> Option<Vec<String>> {
        let w = words(line);
        let start = w.iter().position(|x| !x.contains('='))?;
        let w = &w[start..];
        match w.first().map(String::as_str) {
            Some("eufuzz") => Some(w[1..].to_vec()),
            Some("cargo") if w.get(1).map(String::as_str) == Some("run") => {
                let dashes = w.iter().position(|x| x == "--")?;
                Some(w[dashes + 1..].to_vec())
            }
            _ => None,
        }
    }

    /// Every `eufuzz` command the README and the command cookbook show parses with this
    /// build's command line definitions, so a renamed flag cannot leave them stale.
    #[test]
    fn every_command_the_docs_show_parses() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut checked = 0;
        for page in ["README.md", "docs/commands.md"] {
            let text = std::fs::read_to_string(root.join(page)).expect(page);
            let mut in_sh = false;
            let mut pending = String::new();
            for (k, raw) in text.lines().enumerate() {
                if raw.starts_with("```") {
                    in_sh = raw == "```sh" && !in_sh;
                    continue;
                }
                // A line ending in `\` continues on the next.
                if let Some(first) = raw.strip_suffix('\\') {
                    pending.push_str(first);
                    continue;
                }
                let line = std::mem::take(&mut pending) + raw;
                let Some(args) = in_sh.then(|| eufuzz_args(&line)).flatten() else {
                    continue;
                };
                let argv = std::iter::once("eufuzz".to_string()).chain(args);
                // `--help` parses into the help text clap shows.
                if let Err(e) = Cli::try_parse_from(argv)
                    && e.kind() != clap::error::ErrorKind::DisplayHelp
                {
                    panic!("{page}:{}: `{line}` does not parse:\n{e}", k + 1);
                }
                checked += 1;
            }
        }
        assert!(checked >= 40, "only {checked} commands found in the docs");
    }

    #[test]
    fn shell_words_group_quotes_and_end_at_comments_and_redirections() {
        assert_eq!(
            eufuzz_args(
                "EUFUZZ_KNOBS=\"dispatch=32 ops=-mad\" eufuzz campaign --time 60   # knobs"
            ),
            Some(vec!["campaign".into(), "--time".into(), "60".into()])
        );
        assert_eq!(
            eufuzz_args("cargo run -p triage --features zoo -- check f.eu"),
            Some(vec!["check".into(), "f.eu".into()])
        );
        assert_eq!(
            eufuzz_args("eufuzz gen --seed 42 > p.eu"),
            Some(vec!["gen".into(), "--seed".into(), "42".into()])
        );
        assert_eq!(eufuzz_args("scripts/nightly.sh 10"), None);
    }
}
