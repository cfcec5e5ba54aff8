//! Running a program on the emulator with inputs from its file, another file or a seed
//! (what `eufuzz run` does).

use crate::error::{Error, Result};
use crate::load::load_document;
use compiler::inputs::Inputs;
use compiler::text::parse_inputs;
use oracle::emu::result::{DiagKind, Outcome, RunResult};
use oracle::{RunConfig, run};
use std::path::Path;

/// Where the inputs of a run come from.
pub enum InputSource<'a> {
    /// The program file's own INPUTS section (empty inputs if it has none).
    File,
    /// An `INPUTS` section in another file.
    Path(&'a Path),
    /// Generated from a seed.
    Seed(u64),
}

/// Why a program is not run: the IR validator's rules it breaks. The emulator runs what it
/// is given, so a program no compiler stage could produce (`dispatch 64`) would otherwise
/// give results that mean nothing, and exit 0.
pub fn refusal(path: &Path, p: &compiler::Program) -> Option<Error> {
    let violations = compiler::validate::validate(p);
    let first = violations.first()?;
    let mut rules: Vec<String> = violations.iter().map(|v| v.rule.to_string()).collect();
    rules.dedup();
    Some(Error::Refused(format!(
        "{}: not run: the program breaks validator rule {} ({first}); `eufuzz validate` lists every violation, `--force` runs it anyway",
        path.display(),
        rules.join(", ")
    )))
}

/// Loads, picks inputs and runs (no output); a program the validator rejects is refused
/// unless `force`. Returns the inputs used with the result.
pub fn execute(
    path: &Path,
    source: InputSource,
    cfg: &RunConfig,
    force: bool,
) -> Result<(Inputs, RunResult)> {
    let doc = load_document(path)?;
    if let Some(e) = refusal(path, &doc.program).filter(|_| !force) {
        return Err(e);
    }
    let inputs: Inputs = match source {
        InputSource::File => doc.program.inputs.clone().unwrap_or_default(),
        InputSource::Path(p) => {
            let text = crate::files::read_text(p)?;
            match parse_inputs(&text) {
                Ok(i) => i,
                Err(e) => {
                    // A whole program file works too: use its INPUTS section.
                    let other = load_document(p)
                        .map_err(|_| Error::Malformed(format!("{}:{e}", p.display())))?;
                    other.program.inputs.unwrap_or_default()
                }
            }
        }
        InputSource::Seed(seed) => oracle::inputs::generate(&doc.program, seed),
    };
    let result = run(&doc.program, &inputs, cfg);
    Ok((inputs, result))
}

/// Rewrites `path` with `inputs` as its INPUTS section, keeping everything else (atomic).
pub fn save_inputs(path: &Path, inputs: Inputs) -> Result<()> {
    let mut doc = load_document(path)?;
    doc.program.inputs = Some(inputs);
    crate::files::write_atomic(path, compiler::text::print_document(&doc).as_bytes())
}

/// Exit code of a run: Ok when it completed cleanly, Problems on a fault, running out of
/// fuel or a broken hardware restriction.
pub fn exit(r: &RunResult) -> crate::Exit {
    let restriction = r
        .diagnostics
        .iter()
        .any(|d| d.kind == DiagKind::HardwareRestriction);
    if r.outcome != Outcome::Completed || restriction {
        crate::Exit::Problems
    } else {
        crate::Exit::Ok
    }
}
