//! `eufuzz campaign`: the command line of a campaign, fresh or resumed, and its Ctrl-C
//! handling (the first stops the workers and writes final statistics; a second exits at
//! once).

use oracle::generator::knobs::Knobs;
use std::path::PathBuf;
use triage::campaign::{self, Settings, checkpoint, seeds::Shard};
use triage::generate::KnobArgs;
use triage::options::{Baseline, CampaignFlags};
use triage::outlock::OutLock;
use triage::{Error, Exit, Result};

/// What `eufuzz campaign` runs.
#[derive(clap::Args)]
pub struct Args {
    /// Seconds to run (with --resume: seconds more; default: what is left of the original
    /// --time).
    #[arg(long)]
    time: Option<u64>,
    /// First seed; case i of worker w (of J) in shard K/N runs seed + (i·J + w)·N + K − 1.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    jobs: Option<u32>,
    /// Run shard K of N: a disjoint slice of the seed space, for one machine of several
    /// (merge the outputs with `eufuzz merge`).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Where failures, `stats.json` and the checkpoint go.
    #[arg(long, default_value = "eufuzz-out")]
    out: PathBuf,
    /// Continue the campaign checkpointed in DIR (stopped, or killed even with `kill -9`)
    /// with its own settings; only --time and --stats-json may be given with it.
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "seed", "jobs", "shard", "out", "stop_on_failure", "reduce_budget", "per_bucket",
        "zoo", "spill_all", "baseline", "case_timeout", "case_memory", "checkpoint_every", "progress_every", "knobs",
        "devices", "dispatch", "ops", "features", "feedback", "corpus",
    ])]
    resume: Option<PathBuf>,
    /// Also write the statistics as JSON here (they are always in OUT/stats.json).
    #[arg(long)]
    stats_json: Option<PathBuf>,
    /// Stop at the first failure.
    #[arg(long)]
    stop_on_failure: bool,
    /// Seconds spent reducing each failure that is written (as NAME.reduced.eu beside
    /// NAME.eu), on as many reduction threads as workers; 0 turns reduction off. When the
    /// time is up the reductions running may finish (this long at most); what is left is
    /// written unreduced for `eufuzz rebucket --reduce`.
    #[arg(long, default_value_t = 10)]
    reduce_budget: u64,
    /// Reproducers written per bucket at most; later failures of a full bucket are only
    /// counted in the statistics.
    #[arg(long, default_value_t = 5)]
    per_bucket: usize,
    #[command(flatten)]
    flags: CampaignFlags,
    /// The longest a case may run, in seconds, before it is recorded as a hang (besides the
    /// emulator's fuel limit) and its child process killed; below it the timeout is 50 ×
    /// the median case time, at least 1 s, counted in the child's CPU time (hang/PASS/
    /// cpu-time), so a loaded machine files no hangs; this cap itself is wall-clock time
    /// (hang/PASS/wall-clock).
    #[arg(long, default_value_t = 30)]
    case_timeout: u64,
    /// Memory cap of each worker's child process in MiB (RLIMIT_DATA): a case that
    /// allocates past it is filed as crash/PASS/out-of-memory.
    #[arg(long, value_name = "MIB", default_value_t = campaign::DEFAULT_CASE_MEMORY)]
    case_memory: u64,
    /// Seconds between checkpoints of OUT/checkpoint.json and OUT/stats.json.
    #[arg(long, default_value_t = 5.0)]
    checkpoint_every: f64,
    /// Seconds between progress lines when stderr is not a terminal.
    #[arg(long, default_value_t = 10)]
    progress_every: u64,
    /// `on`: keep the generator inputs that reach new semantic features in OUT/corpus and
    /// mutate them in a share of the cases that follows what mutated and fresh cases each
    /// bring (a tenth to nine tenths, half at the start); `off`: every case runs its seed's fresh program (the
    /// features are still counted, for comparison).
    #[arg(long, value_name = "on|off", default_value = "on")]
    feedback: Switch,
    /// A corpus shared between campaigns (nights): its entries are mutated too, and new
    /// entries are written back to it (with --feedback on).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    #[command(flatten)]
    knobs: KnobArgs,
    /// Fuzz another backend instead of eufuzz's pipeline: `mesa:PASS` (or `mesa`, Mesa's
    /// optimisation loop) through the shim that scripts/mesa-build.sh builds, one long-lived
    /// shim per worker. The generator starts from knobs that avoid what the shim cannot map
    /// (the knobs given are added to them); refusals are counted by cause in stats.json.
    #[arg(long, value_name = "mesa[:PASS]", conflicts_with_all = [
        "resume", "zoo", "spill_all", "baseline",
    ])]
    backend: Option<String>,
    /// With --backend: generated input sets per program, besides its own.
    #[arg(long, default_value_t = triage::mesa::DEFAULT_INPUTS, requires = "backend")]
    inputs: usize,
}

/// The Mesa backend `backend` names, once its shim is known to run its pass (an error
/// naming scripts/mesa-build.sh when the shim is not built).
fn mesa_backend(backend: &str, inputs: usize) -> Result<triage::mesa::Backend> {
    let pass = triage::mesa::backend_pass(backend)?;
    let shim = triage::mesa::shim::Shim::open(std::time::Duration::from_secs(60))?;
    shim.ensure_pass(&pass)?;
    Ok(triage::mesa::Backend { pass, inputs })
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Switch {
    On,
    Off,
}

/// Every core, as the default number of workers.
fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

impl Args {
    fn settings(&self) -> Result<Settings> {
        if !(self.checkpoint_every.is_finite() && self.checkpoint_every > 0.0) {
            return Err(Error::Usage(format!(
                "--checkpoint-every {}: expected a positive number of seconds",
                self.checkpoint_every
            )));
        }
        if self.corpus.is_some() && self.feedback == Switch::Off {
            return Err(Error::Usage(
                "--corpus DIR: a corpus is read and written only with --feedback on".into(),
            ));
        }
        let backend = self
            .backend
            .as_deref()
            .map(|b| mesa_backend(b, self.inputs))
            .transpose()?;
        let knobs = match &backend {
            None => self.knobs.resolve()?,
            Some(_) => {
                let mut k = Knobs::parse(triage::mesa::KNOBS).expect("the Mesa knobs parse");
                k.add(&self.knobs.resolve()?.to_string())
                    .map_err(|e| Error::Usage(e.to_string()))?;
                k
            }
        };
        Ok(Settings {
            time: self.time.unwrap_or(60),
            seed: self.seed,
            jobs: self.jobs.unwrap_or_else(cores).max(1),
            shard: self
                .shard
                .as_deref()
                .map(Shard::parse)
                .transpose()
                .map_err(Error::Usage)?,
            knobs: knobs.to_string(),
            zoo: self.flags.zoo.clone(),
            spill_all: self.flags.spill_all,
            baseline_o0: self.flags.baseline == Baseline::O0,
            stop_on_failure: self.stop_on_failure,
            reduce_budget: self.reduce_budget,
            per_bucket: self.per_bucket,
            case_timeout: self.case_timeout.max(1),
            case_memory: self.case_memory.max(1),
            checkpoint_every: self.checkpoint_every.min(1e9),
            progress_every: self.progress_every,
            feedback: self.feedback == Switch::On,
            corpus: self.corpus.clone(),
            backend,
        })
    }
}

/// A child process that dies while its worker writes a case to it must be a finding, not
/// a SIGPIPE that ends the campaign (`main` restores SIGPIPE's default for `eufuzz ... |
/// head`); the write fails with an error instead, which the worker handles.
fn ignore_broken_pipes() {
    // SAFETY: changing a signal disposition; no handler runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// Runs the campaign; exit code 1 if anything failed.
pub fn run(args: Args) -> Result<Exit> {
    let (settings, out, from) = match &args.resume {
        Some(dir) => {
            let c = checkpoint::read(dir)?;
            if let Some(b) = &c.settings.backend {
                mesa_backend(&b.flag(), b.inputs)?;
            }
            let mut s = c.settings.clone();
            if let Some(t) = args.time {
                s.time = (c.elapsed.ceil() as u64).saturating_add(t);
            }
            (s, dir.clone(), Some(c))
        }
        None => (args.settings()?, args.out.clone(), None),
    };
    // Held until the campaign ends: a second writer to `out` refuses meanwhile.
    let lock = OutLock::acquire_creating(&out, "campaign")?;
    if let Some(note) = &lock.note {
        eprintln!("{note}");
    }
    let stop = triage::interrupt::stop_flag_on_ctrl_c("writing the checkpoint")?;
    ignore_broken_pipes();
    let exe = std::env::current_exe().map_err(|e| {
        Error::Refused(format!(
            "cannot find the eufuzz binary to run cases in: {e}"
        ))
    })?;
    let stats = campaign::run(&settings, &out, from, stop, &exe)?;
    drop(lock);
    print!("{}", stats.summary());
    if let Some(path) = &args.stats_json {
        let json = serde_json::to_string_pretty(&stats).expect("statistics serialize");
        triage::files::write_atomic(path, json.as_bytes())?;
    }
    Ok(if stats.failures.is_empty() {
        Exit::Ok
    } else {
        Exit::Problems
    })
}
