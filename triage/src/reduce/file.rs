//! Reducing a reproducer file: what `eufuzz reduce FILE` decides — the original's
//! judgement, the campaign's choice sequence shrunk first when the file has one, the
//! structural reduction, and the text of the reduced file with its header.

use super::bytes::{Origin, shrink};
use super::interesting::{Judgement, judge};
use super::{Event, Reduced, Settings, candidates, reduce};
use crate::error::{Error, Result};
use crate::files::{write_atomic, write_new};
use crate::repro::{header_value, options_line, reduced_beside, reduced_header};
use compiler::pipeline::CompileOptions;
use compiler::text::print_program;
use oracle::generator::knobs::Knobs;
use std::path::{Path, PathBuf};

/// What to reduce.
pub struct Request<'a> {
    pub file: &'a Path,
    /// The signature to keep (default: the one the file fails with now).
    pub signature: Option<&'a str>,
    /// Retarget to this device first.
    pub device: Option<compiler::Device>,
    /// Inputs for a file without INPUTS are generated from this seed.
    pub seed: u64,
    pub settings: Settings,
}

/// A finished reduction of a file.
pub struct FileReduction {
    pub reduced: Reduced,
    /// The reduced file's text: header and canonical program.
    pub text: String,
}

/// Where a reduction is written. The input is overwritten only when that was asked for:
/// a campaign's `NAME.reduced.eu` or a corpus file is never replaced by accident.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// `NAME.reduced.eu` beside the input, which must not exist yet.
    Beside(PathBuf),
    /// A file named with `-o` (replaced if it exists; never the input itself).
    Named(PathBuf),
    /// The input file itself (`--in-place`).
    InPlace(PathBuf),
}

impl Destination {
    /// The destination of a reduction of `file`, decided before reducing so that nothing
    /// is spent on a result that could not be written.
    pub fn choose(file: &Path, out: Option<&Path>, in_place: bool) -> Result<Destination> {
        let same = |o: &Path| {
            o == file || matches!((o.canonicalize(), file.canonicalize()), (Ok(a), Ok(b)) if a == b)
        };
        match (out, in_place) {
            (Some(_), true) => Err(Error::Usage(
                "`-o` and `--in-place` exclude each other".into(),
            )),
            (None, true) => Ok(Destination::InPlace(file.to_path_buf())),
            (Some(o), false) if same(o) => Err(Error::Refused(format!(
                "{}: `-o` names the input itself; pass `--in-place` to replace it",
                o.display()
            ))),
            (Some(o), false) => Ok(Destination::Named(o.to_path_buf())),
            (None, false) => {
                let beside = reduced_beside(file);
                if beside.exists() {
                    Err(Error::Refused(format!(
                        "{} exists and is not replaced; name the output with `-o FILE` (or replace the input with `--in-place`)",
                        beside.display()
                    )))
                } else {
                    Ok(Destination::Beside(beside))
                }
            }
        }
    }

    /// The path written.
    pub fn path(&self) -> &Path {
        match self {
            Destination::Beside(p) | Destination::Named(p) | Destination::InPlace(p) => p,
        }
    }

    /// Writes `text` atomically (beside the input: only if no file appeared there meanwhile).
    pub fn write(&self, text: &str) -> Result<()> {
        match self {
            Destination::Beside(p) => {
                if write_new(p, text.as_bytes())? {
                    Ok(())
                } else {
                    Err(Error::Refused(format!(
                        "{} appeared during the reduction and is not replaced",
                        p.display()
                    )))
                }
            }
            Destination::Named(p) | Destination::InPlace(p) => write_atomic(p, text.as_bytes()),
        }
    }
}

/// Why the original cannot be reduced, if it cannot. `zoo` is the file's `# zoo:` bug: in
/// a build without the zoo it is not injected, which is the likely reason it passes.
fn refusal(original: &Judgement, wanted: Option<&str>, zoo: Option<&str>) -> Option<String> {
    if !original.signature.contains('/') || original.signature.starts_with("discard/") {
        let hint = match zoo {
            Some(bug) if !crate::gate::ZOO_BUILD => format!(
                " (its `# zoo: {bug}` bug is injected only by a build with the zoo feature: cargo build -p triage --features zoo)"
            ),
            _ => String::new(),
        };
        return Some(format!(
            "does not fail (verdict: {}); nothing to reduce{hint}",
            original.signature
        ));
    }
    match wanted {
        Some(w) if w != original.signature => Some(format!(
            "fails as {}, not as {w}; nothing written",
            original.signature
        )),
        _ => None,
    }
}

/// The campaign seed and knobs of a reproducer whose `.bytes` decode with this build's
/// generator (same format version), and those bytes: a fresh case's (`# generated: eufuzz
/// gen --seed S …`) or a mutated case's (`# generated: mutated bytes NAME.bytes, input seed
/// S, …`, its extra input sets drawn from S).
fn choice_sequence(file: &Path, text: &str) -> Option<(Vec<u8>, Origin)> {
    let generated = header_value(text, "generated")?;
    let seed_text = match generated.strip_prefix("eufuzz gen --seed ") {
        Some(rest) => rest,
        None => {
            generated
                .strip_prefix("mutated bytes ")?
                .split_once("input seed ")?
                .1
        }
    };
    let seed = seed_text
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    let format = format!("(format {})", oracle::generator::FORMAT_VERSION);
    if !generated.ends_with(&format) {
        return None;
    }
    let knobs = Knobs::parse(header_value(text, "knobs").unwrap_or("")).ok()?;
    let bytes = std::fs::read(file.with_extension("bytes")).ok()?;
    Some((bytes, Origin { knobs, seed }))
}

/// Reduces the failing program of `req.file`, reporting progress to `on_event`. A file that
/// does not fail, or fails with another signature than asked, is refused.
pub fn reduce_file(req: Request, on_event: impl FnMut(Event)) -> Result<FileReduction> {
    let text = crate::files::read_text(req.file)?;
    let mut p = crate::load::load_program(req.file, req.device)?;
    let inputs_generated = p.inputs.is_none().then_some(req.seed);
    if p.inputs.is_none() {
        p.inputs = Some(oracle::inputs::generate(&p, req.seed));
    }
    let original = judge(&p, &req.settings.opts);
    let zoo = crate::repro::directives::parse(&text)
        .ok()
        .and_then(|d| d.zoo);
    if let Some(why) = refusal(&original, req.signature, zoo.as_deref()) {
        return Err(Error::Refused(format!("{}: {why}", req.file.display())));
    }
    let start = std::time::Instant::now();
    let mut bytes_note = None;
    if req.device.is_none()
        && let Some((bytes, origin)) = choice_sequence(req.file, &text)
    {
        let share = req.settings.budget / 3;
        if let Some((shrunk, q)) = shrink(
            &bytes,
            &origin,
            &req.settings.opts,
            &original.signature,
            share,
        ) {
            let j = judge(&q, &req.settings.opts);
            if j.keeps(&original) && candidates::size(&q) < candidates::size(&p) {
                bytes_note = Some((bytes.len(), shrunk.len(), p.inst_count()));
                p = q;
            }
        }
    }
    let settings = Settings {
        budget: req.settings.budget.saturating_sub(start.elapsed()),
        ..req.settings
    };
    let mut reduced = reduce(&p, &original, &settings, on_event);
    reduced.elapsed = start.elapsed();
    if let Some((_, _, before)) = bytes_note {
        reduced.insts_before = before;
    }
    let mut head = reduced_header(req.file, &reduced, inputs_generated);
    if let Some((from, to, _)) = bytes_note {
        head.push_str(&format!("# choice sequence: {from} -> {to} bytes\n"));
    }
    // The options it was reduced with (the file's own and the command line's, and the
    // pre-RA schedule when it fails with a named one only), so that `check` and the gate
    // replay it as it was reduced, with no flags.
    let opts = CompileOptions {
        pre_ra_schedule: reduced.pre_ra_schedule.or(settings.opts.pre_ra_schedule),
        ..settings.opts.clone()
    };
    head.push_str(&options_line(&crate::options::option_words(&opts)));
    let text = format!("{head}{}", print_program(&reduced.program));
    Ok(FileReduction { reduced, text })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_and_mutated_cases_name_their_choice_sequence() {
        let dir = std::env::temp_dir().join(format!("eufuzz-choices-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let format = oracle::generator::FORMAT_VERSION;
        let file = dir.join("mismatch-77.eu");
        std::fs::write(dir.join("mismatch-77.bytes"), [1u8, 2, 3]).unwrap();
        let mutated = crate::campaign::case::mutated_line("mismatch-77", 77, "00ab", &["splice"]);
        let fresh = format!("# generated: eufuzz gen --seed 77 (format {format})\n");
        for header in [mutated, fresh] {
            let text = format!("{header}# knobs: devices=skl\n");
            let (bytes, origin) = choice_sequence(&file, &text).expect(&header);
            assert_eq!((bytes, origin.seed), (vec![1, 2, 3], 77), "{header}");
        }
        // Another format's bytes decode to another program: no choice sequence.
        let old = "# generated: mutated bytes x.bytes, input seed 77, from corpus entry 1 by erase (format 1)\n";
        assert!(choice_sequence(&file, old).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
