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
        let mut k = Knobs::from_env()?;
        if let Some(text) = &self.knobs {
            k.add(text)?;
        }
        for (key, value) in [
            ("devices", &self.devices),
            ("dispatch", &self.dispatch),
            ("ops", &self.ops),
            ("features", &self.features),
        ] {
            if let Some(v) = value {
                k.add(&format!("{key}={v}"))?;
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

/// `eufuzz import`: the program some generator bytes decode to.
pub fn import(path: &std::path::Path, args: &KnobArgs) -> i32 {
    let knobs = match args.resolve() {
        Ok(k) => k,
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
    print!(
        "# imported from {}\n{}{}",
        path.display(),
        provenance(&g, None, &knobs),
        print_program(&g.program)
    );
    0
}
