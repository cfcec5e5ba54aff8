//! `eufuzz gen`: a generated program as `.eu`, and the knob flags shared with `campaign`.

use compiler::text::print_program;
use oracle::generator::knobs::Knobs;
use oracle::generator::{FORMAT_VERSION, Generated, from_seed};

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
    pub fn resolve(&self) -> Result<Knobs, String> {
        let mut k = Knobs::from_env().map_err(|e| e.to_string())?;
        if let Some(text) = &self.knobs {
            k.add(text).map_err(|e| e.to_string())?;
        }
        for (key, value) in [
            ("devices", &self.devices),
            ("dispatch", &self.dispatch),
            ("ops", &self.ops),
            ("features", &self.features),
        ] {
            if let Some(v) = value {
                k.add(&format!("{key}={v}")).map_err(|e| e.to_string())?;
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

pub fn run(seed: u64, args: &KnobArgs) -> i32 {
    let knobs = match args.resolve() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let g = from_seed(seed, &knobs);
    print!(
        "{}{}",
        provenance(&g, Some(seed), &knobs),
        print_program(&g.program)
    );
    0
}

/// How `eufuzz import` checks the program it decodes: the options a fuzz target or campaign
/// ran with.
#[derive(clap::Args, Clone)]
pub struct ImportCheck {
    /// Inject historical bugs by name (zoo builds only), as the campaign that found it did.
    #[arg(long)]
    pub zoo: Option<String>,
    /// Spill every spillable VGRF.
    #[arg(long)]
    pub spill_all: bool,
    /// Compare against the `-O0` compilation instead of the reference run.
    #[arg(long, value_name = "BASELINE", default_value = "reference")]
    pub baseline: crate::Baseline,
}

impl ImportCheck {
    /// The options as `# options:` words.
    fn words(&self) -> Vec<String> {
        let mut w = vec![];
        if self.spill_all {
            w.push("--spill-all".to_string());
        }
        if self.baseline == crate::Baseline::O0 {
            w.extend(["--baseline".to_string(), "o0".to_string()]);
        }
        if let Some(z) = &self.zoo {
            w.extend(["--zoo".to_string(), z.clone()]);
        }
        w
    }
}

/// The verdict, signature and bucket header lines of a program that fails on its own
/// inputs (what the `differential` fuzz target checks), keyed as a campaign keys it.
fn failure_lines(p: &compiler::Program, opts: &compiler::pipeline::CompileOptions) -> String {
    let sets: Vec<_> = p.inputs.iter().cloned().collect();
    let checked = oracle::differential::check(p, &sets, opts);
    if !checked.verdict.is_failure() {
        return format!(
            "# verdict: {}\n",
            crate::compile_cmd::describe_verdict(&checked.verdict)
        );
    }
    let culprit = oracle::culprit::localise(p, &sets, opts, &checked);
    format!(
        "# verdict: {}\n# signature: {}\n# bucket: {}\n",
        crate::compile_cmd::describe_verdict(&checked.verdict),
        crate::campaign::signature(&checked.verdict, culprit.as_ref()),
        crate::bucket::key(&checked.verdict, culprit.as_ref())
    )
}

/// `eufuzz import`: the program some generator bytes decode to, with its verdict and, when
/// it fails, its signature and bucket key in the header (so `eufuzz bucket` groups fuzz
/// crash artifacts with campaign reproducers).
pub fn import(path: &std::path::Path, args: &KnobArgs, check: &ImportCheck) -> i32 {
    let knobs = match args.resolve() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let words = check.words();
    let opts = match crate::gate::compile_options(&words, None) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return 2;
        }
    };
    let g = oracle::generator::generate(&mut arbitrary::Unstructured::new(&bytes), &knobs);
    let options = if words.is_empty() {
        String::new()
    } else {
        format!("# options: {}\n", words.join(" "))
    };
    print!(
        "# imported from {}\n{}{options}{}{}",
        path.display(),
        failure_lines(&g.program, &opts),
        provenance(&g, None, &knobs),
        print_program(&g.program)
    );
    0
}
