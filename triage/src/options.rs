//! Compile options as words: one clap definition serves the command line and the
//! `# options:` line of reproducers, and [`words`] writes options back in that form, so a
//! reproducer replays with exactly the options it was found with.

use crate::error::{Error, Result};
use clap::Parser;
use compiler::passes::schedule::Mode;
use compiler::pipeline::CompileOptions;

/// What a differential check compares the compiled program against.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum Baseline {
    /// The input program run directly in logical mode.
    #[default]
    Reference,
    /// The `-O0` compilation of the input.
    O0,
}

/// The compile flags a reproducer's `# options:` line may carry (the command line has them
/// too, see [`CompileArgs`]).
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct CompileFlags {
    /// `-O0`: mandatory lowering and register allocation only; any other level runs the
    /// optimising pipeline.
    #[arg(short = 'O', value_name = "LEVEL", default_value_t = 2)]
    pub opt_level: u8,
    /// What checks compare the compiled program against: `reference` (the input run
    /// directly) or `o0` (the `-O0` compilation, so a failure is an optimisation bug).
    #[arg(long, value_name = "BASELINE", default_value = "reference")]
    pub baseline: Baseline,
    /// Spill every spillable VGRF to scratch (like INTEL_DEBUG=spill_fs).
    #[arg(long)]
    pub spill_all: bool,
    /// Inject historical bugs by name: NAME, a,b,c or all (builds with the zoo feature
    /// only); `none` runs a file's `# zoo:` bug switched off.
    #[arg(long)]
    pub zoo: Option<String>,
    /// Allocate registers after this pre-RA scheduling mode only (`top-down`, `lifo` or
    /// `none`) instead of the first that allocates without spilling; reduced reproducers
    /// of allocation failures name the mode their original got.
    #[arg(long, value_name = "MODE", value_parser = parse_schedule_mode)]
    pub pre_ra_schedule: Option<Mode>,
}

impl Default for CompileFlags {
    fn default() -> Self {
        CompileFlags {
            opt_level: 2,
            baseline: Baseline::Reference,
            spill_all: false,
            zoo: None,
            pre_ra_schedule: None,
        }
    }
}

/// The compile flags of a campaign: what its reproducers' `# options:` lines say, and what
/// `eufuzz import` takes to check generator bytes as the campaign or fuzz target that
/// found them did.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CampaignFlags {
    /// Inject historical bugs by name (builds with the zoo feature only).
    #[arg(long)]
    pub zoo: Option<String>,
    /// Spill every spillable VGRF.
    #[arg(long)]
    pub spill_all: bool,
    /// What checks compare against: `reference` (the input run directly) or `o0` (the
    /// `-O0` compilation, so every failure is an optimisation bug).
    #[arg(long, value_name = "BASELINE", default_value = "reference")]
    pub baseline: Baseline,
}

impl CampaignFlags {
    /// As compile flags (the optimising pipeline, no pinned schedule).
    pub fn compile_flags(&self) -> CompileFlags {
        CompileFlags {
            spill_all: self.spill_all,
            baseline: self.baseline,
            zoo: self.zoo.clone(),
            ..CompileFlags::default()
        }
    }
}

/// Options shared by the commands that compile: the compile flags and a device to
/// retarget to.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CompileArgs {
    /// Compile for this device instead of the file's target.
    #[arg(long)]
    pub device: Option<String>,
    #[command(flatten)]
    pub flags: CompileFlags,
}

fn parse_schedule_mode(name: &str) -> std::result::Result<Mode, String> {
    Mode::from_name(name)
        .ok_or_else(|| format!("`{name}` is not a pre-RA scheduling mode (top-down, lifo, none)"))
}

impl CompileArgs {
    /// The device to retarget to, if one was named.
    pub fn device(&self) -> Result<Option<compiler::Device>> {
        self.device
            .as_deref()
            .map(|name| {
                compiler::Device::from_name(name)
                    .ok_or_else(|| Error::Usage(format!("unknown device `{name}`")))
            })
            .transpose()
    }
}

impl CompileFlags {
    /// The compile options these flags ask for, with `file_zoo` (a file's `# zoo:` bug, in
    /// builds that have the zoo) injected besides any `--zoo`.
    pub fn options(&self, file_zoo: Option<&str>) -> Result<CompileOptions> {
        let bugs: Vec<&str> = file_zoo.into_iter().chain(self.zoo.as_deref()).collect();
        Ok(CompileOptions {
            o0: self.opt_level == 0,
            spill_all: self.spill_all,
            baseline_o0: self.baseline == Baseline::O0,
            pre_ra_schedule: self.pre_ra_schedule,
            zoo: if bugs.is_empty() {
                compiler::zoo::Selected::default()
            } else {
                compiler::zoo::select(&bugs.join(",")).map_err(Error::Usage)?
            },
            ..Default::default()
        })
    }

    /// The flags that give `opts` back (the zoo bugs by name).
    pub fn of(opts: &CompileOptions) -> Self {
        let zoo = compiler::zoo::names(&opts.zoo);
        CompileFlags {
            opt_level: if opts.o0 { 0 } else { 2 },
            baseline: if opts.baseline_o0 {
                Baseline::O0
            } else {
                Baseline::Reference
            },
            spill_all: opts.spill_all,
            zoo: (zoo != "none").then_some(zoo),
            pre_ra_schedule: opts.pre_ra_schedule,
        }
    }
}

/// The `# options:` line as clap parses it: the compile flags and nothing else.
#[derive(Parser)]
#[command(
    name = "# options:",
    no_binary_name = true,
    disable_help_flag = true,
    disable_version_flag = true
)]
struct OptionsLine {
    #[command(flatten)]
    flags: CompileFlags,
}

/// The flags of an `# options:` line's words, parsed by the command line's own definitions.
pub fn parse_words<S: AsRef<str>>(words: &[S]) -> Result<CompileFlags> {
    OptionsLine::try_parse_from(words.iter().map(AsRef::as_ref))
        .map(|l| l.flags)
        .map_err(|e| {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default();
            Error::Usage(format!(
                "`# options:` line: {}",
                first.trim_start_matches("error: ")
            ))
        })
}

/// Compile options from an `# options:` line's words and the file's `# zoo:` bug.
pub fn compile_options<S: AsRef<str>>(
    words: &[S],
    file_zoo: Option<&str>,
) -> Result<CompileOptions> {
    parse_words(words)?.options(file_zoo)
}

/// The `# options:` words of `flags`: only what differs from the defaults, in a fixed
/// order, so equal options always give the same line.
pub fn words(flags: &CompileFlags) -> Vec<String> {
    let mut w = vec![];
    if flags.opt_level == 0 {
        w.push("-O0".to_string());
    }
    if flags.spill_all {
        w.push("--spill-all".to_string());
    }
    if flags.baseline == Baseline::O0 {
        w.extend(["--baseline".to_string(), "o0".to_string()]);
    }
    if let Some(mode) = flags.pre_ra_schedule {
        w.extend(["--pre-ra-schedule".to_string(), mode.name().to_string()]);
    }
    if let Some(zoo) = &flags.zoo {
        w.extend(["--zoo".to_string(), zoo.clone()]);
    }
    w
}

/// The `# options:` words that give `opts` back through [`compile_options`].
pub fn option_words(opts: &CompileOptions) -> Vec<String> {
    words(&CompileFlags::of(opts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_lines_parse_with_the_command_line_definitions() {
        let flags = parse_words(&["-O0", "--spill-all", "--baseline", "o0"]).unwrap();
        assert_eq!(flags.opt_level, 0);
        assert!(flags.spill_all);
        assert_eq!(flags.baseline, Baseline::O0);
        let mode = parse_words(&["--pre-ra-schedule", "lifo"]).unwrap();
        assert_eq!(mode.pre_ra_schedule, Some(Mode::Lifo));
        assert_eq!(parse_words::<&str>(&[]).unwrap(), CompileFlags::default());
    }

    #[test]
    fn bad_options_are_usage_errors_naming_the_line() {
        for bad in [
            &["--frobnicate"][..],
            &["--baseline", "sideways"],
            &["--pre-ra-schedule", "bottom-up"],
            &["--device", "skl"],
        ] {
            let e = parse_words(bad).unwrap_err();
            assert!(matches!(e, Error::Usage(_)), "{bad:?}: {e:?}");
            assert!(e.to_string().starts_with("`# options:` line: "), "{e}");
        }
    }

    #[test]
    fn words_give_the_options_back() {
        let opts = CompileOptions {
            o0: true,
            spill_all: true,
            baseline_o0: true,
            pre_ra_schedule: Some(Mode::TopDown),
            ..Default::default()
        };
        let w = option_words(&opts);
        assert_eq!(
            w,
            [
                "-O0",
                "--spill-all",
                "--baseline",
                "o0",
                "--pre-ra-schedule",
                "top-down"
            ]
        );
        let back = compile_options(&w, None).unwrap();
        assert_eq!(option_words(&back), w);
        assert!(option_words(&CompileOptions::default()).is_empty());
    }
}
