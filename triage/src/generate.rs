//! Generated programs: the knob flags `gen`, `import` and `campaign` share, and the header
//! lines that make a generated program replay.

use crate::error::{Error, Result};
use crate::identity::Identity;
use oracle::generator::knobs::Knobs;
use oracle::generator::{FORMAT_VERSION, Generated};

/// Focus knobs on the command line; added to those in `EUFUZZ_KNOBS`.
#[derive(clap::Args, Clone, Default)]
pub struct KnobArgs {
    /// Knobs as one string: `devices=skl,icl dispatch=16 ops=add,-mad features=loop,-halt`.
    #[arg(long)]
    pub knobs: Option<String>,
    /// Devices to generate for (comma-separated).
    #[arg(long)]
    pub devices: Option<String>,
    /// Dispatch widths (comma-separated: 8, 16, 32).
    #[arg(long)]
    pub dispatch: Option<String>,
    /// Opcodes to allow; `-name` denies (comma-separated).
    #[arg(long, allow_hyphen_values = true)]
    pub ops: Option<String>,
    /// Features to allow; `-name` denies (comma-separated).
    #[arg(long, allow_hyphen_values = true)]
    pub features: Option<String>,
}

impl KnobArgs {
    pub fn resolve(&self) -> Result<Knobs> {
        let mut k = Knobs::from_env().map_err(usage)?;
        if let Some(text) = &self.knobs {
            k.add(text).map_err(usage)?;
        }
        for (key, value) in [
            ("devices", &self.devices),
            ("dispatch", &self.dispatch),
            ("ops", &self.ops),
            ("features", &self.features),
        ] {
            if let Some(v) = value {
                k.add(&format!("{key}={v}")).map_err(usage)?;
            }
        }
        Ok(k)
    }
}

/// Header comment lines that say where a generated program came from, so it replays.
pub fn provenance(g: &Generated, seed: Option<u64>, knobs: &Knobs) -> String {
    let mut out = String::new();
    match seed {
        Some(s) => out.push_str(&format!(
            "# generated: eufuzz gen --seed {s} (format {FORMAT_VERSION})\n"
        )),
        None => out.push_str(&format!(
            "# generated from bytes (format {FORMAT_VERSION})\n"
        )),
    }
    out.push_str(&format!("# knobs: {knobs}\n"));
    let features: Vec<&str> = g.features.iter().map(|f| f.name()).collect();
    out.push_str(&format!("# features: {}\n", features.join(" ")));
    out
}

/// A knob error as a usage error.
fn usage(e: impl std::fmt::Display) -> Error {
    Error::Usage(e.to_string())
}

/// The verdict, signature and bucket header lines of a program that fails on its own
/// inputs (what the `differential` fuzz target checks), keyed as a campaign keys it.
pub fn verdict_lines(p: &compiler::Program, opts: &compiler::pipeline::CompileOptions) -> String {
    let sets: Vec<_> = p.inputs.iter().cloned().collect();
    let checked = oracle::differential::check(p, &sets, opts);
    if !checked.verdict.is_failure() {
        return format!(
            "# verdict: {}\n",
            crate::check::describe_verdict(&checked.verdict)
        );
    }
    let culprit = oracle::culprit::localise(p, &sets, opts, &checked);
    let id = Identity::of(&checked.verdict, culprit.as_ref());
    format!(
        "# verdict: {}\n# signature: {}\n# bucket: {}\n",
        crate::check::describe_verdict(&checked.verdict),
        id.signature,
        id.bucket
    )
}
