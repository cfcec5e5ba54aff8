//! `eufuzz bisect REPRO --good REV --bad REV`: name the commit that introduced a failure
//! (or, with `--fixed`, the one that fixed it), printing each tested revision as it is
//! decided and the answer at the end.

use std::path::PathBuf;
use std::time::Duration;
use triage::bisect::build::Recipe;
use triage::bisect::cache::Cache;
use triage::bisect::git::{Commit, short};
use triage::bisect::search::Mark;
use triage::bisect::{Bisection, Finding, Probe, Request, bisect, describe_outcome};
use triage::files::write_atomic;
use triage::{Error, Exit, Result};

#[derive(clap::Args)]
pub struct Args {
    /// The reproducer (.eu); its `# signature:` line, else a failing `# expect:`, names the
    /// failure bisected.
    repro: PathBuf,
    /// The older revision: passes (with --fixed: still fails).
    #[arg(long, visible_alias = "old")]
    good: String,
    /// The newer revision: fails (with --fixed: passes).
    #[arg(long, visible_alias = "new")]
    bad: String,
    /// Find the commit that fixed the failure: the first that passes.
    #[arg(long)]
    fixed: bool,
    /// The git repository to build (default: the current directory).
    #[arg(long, default_value = ".")]
    repo: PathBuf,
    /// The failure signature (KIND/PASS/DETAIL) when the reproducer's header has none.
    #[arg(long)]
    signature: Option<String>,
    /// Build command, run with `sh -c` in the revision's worktree, CARGO_TARGET_DIR set to
    /// the cache's shared target directory.
    #[arg(long, default_value = "cargo build --release -p triage")]
    build_cmd: String,
    /// The binary the build command makes, relative to the worktree; `{target}` is the
    /// shared target directory.
    #[arg(long, default_value = "{target}/release/eufuzz")]
    binary: String,
    /// Cache directory (default: $XDG_CACHE_HOME/eufuzz/bisect, else
    /// ~/.cache/eufuzz/bisect).
    #[arg(long)]
    cache: Option<PathBuf>,
    /// Keep the cache under this many MiB (binaries used longest ago go first, the shared
    /// target directory last).
    #[arg(long, default_value_t = 8192)]
    cache_mb: u64,
    /// Stop testing after this many seconds and name the range left.
    #[arg(long)]
    time: Option<u64>,
    /// The bucket key the JSON result names (default: the reproducer's `# bucket:` line).
    #[arg(long)]
    bucket: Option<String>,
    /// Also write the result as JSON here (what `eufuzz report --bisections` reads).
    #[arg(long)]
    json: Option<PathBuf>,
}

/// Exit 0 when one commit is named, 1 when only a range could be (untestable commits, or
/// the time ran out), 2 on bad input, a range whose ends do not behave as said, or Ctrl-C.
pub fn run(args: Args) -> Result<Exit> {
    let stop = triage::interrupt::stop_flag_on_ctrl_c("removing the worktree")?;
    let req = Request {
        repo: args.repo.clone(),
        repro: args.repro.clone(),
        good: args.good.clone(),
        bad: args.bad.clone(),
        fixed: args.fixed,
        signature: args.signature.clone(),
        recipe: Recipe {
            command: args.build_cmd.clone(),
            binary: args.binary.clone(),
        },
        cache: args.cache.clone().unwrap_or_else(Cache::default_dir),
        cache_limit: args.cache_mb.saturating_mul(1 << 20),
        time: args.time.map(Duration::from_secs),
    };
    let fixed = args.fixed;
    let mut step = 0;
    let b = bisect(&req, stop, &mut |p| {
        step += 1;
        println!("{}", probe_line(step, p, fixed));
    })?;
    let b = Bisection {
        bucket: args.bucket.clone().or(b.bucket),
        ..b
    };
    print!("{}", summary(&b));
    if let Some(p) = &args.json {
        let text = serde_json::to_string_pretty(&b)
            .map_err(|e| Error::Malformed(format!("cannot encode the result: {e}")))?;
        write_atomic(p, format!("{text}\n").as_bytes())?;
    }
    Ok(match b.finding {
        Finding::Found(_) => Exit::Ok,
        Finding::Range(_) | Finding::OutOfTime(_) => Exit::Problems,
    })
}

/// `step 2: 1a2b3c4d5e subject: built in 41.2 s, passes -> good`.
fn probe_line(step: usize, p: &Probe, fixed: bool) -> String {
    let side = match (p.mark, fixed) {
        (Mark::Old, false) => "good".to_string(),
        (Mark::New, false) => "bad".to_string(),
        (Mark::Old, true) => "not fixed yet".to_string(),
        (Mark::New, true) => "fixed".to_string(),
        (Mark::Skip, _) => format!("skipped: {}", p.skipped.as_deref().unwrap_or("no verdict")),
    };
    let how = if p.cached { "cached binary" } else { "built" };
    let verdict = match p.mark {
        Mark::Skip => String::new(),
        _ => format!("{}, ", describe_outcome(&p.outcome)),
    };
    format!(
        "step {step}: {} {}: {how}, {:.1} s, {verdict}{side}",
        short(&p.commit.hash),
        p.commit.subject,
        p.seconds
    )
}

fn commit_line(c: &Commit) -> String {
    format!("{} {} ({})", c.hash, c.subject, c.date)
}

/// The answer and the skipped revisions.
fn summary(b: &Bisection) -> String {
    let what = if b.mode == "fixed" {
        "first fixed commit"
    } else {
        "first bad commit"
    };
    let mut out = format!(
        "{} revision(s) tested for {} commit(s) in the range ({} built) in {:.1} s, signature {}\n",
        b.probes.len(),
        b.range,
        b.builds,
        b.seconds,
        b.signature
    );
    for p in b.probes.iter().filter(|p| p.mark == Mark::Skip) {
        out += &format!(
            "skipped {}: {}\n",
            short(&p.commit.hash),
            p.skipped.as_deref().unwrap_or("")
        );
    }
    match &b.finding {
        Finding::Found(c) => out += &format!("{what}: {}\n", commit_line(c)),
        Finding::Range(cs) | Finding::OutOfTime(cs) => {
            let why = match b.finding {
                Finding::OutOfTime(_) => "the time ran out",
                _ => "the commits between could not be tested",
            };
            out += &format!("{what} is one of these ({why}):\n");
            for c in cs {
                out += &format!("  {}\n", commit_line(c));
            }
        }
    }
    if !b.cleaned.is_empty() {
        out += &format!(
            "cache: removed {} old entries to stay under its limit\n",
            b.cleaned.len()
        );
    }
    out
}
