//! Reducing a reproducer file: what `eufuzz reduce FILE` decides — the original's
//! judgement, the campaign's choice sequence shrunk first when the file has one, the
//! structural reduction, and the text of the reduced file with its header.

use super::bytes::{Origin, shrink};
use super::interesting::{Judgement, judge};
use super::{Event, Reduced, Settings, candidates, reduce};
use crate::error::{Error, Result};
use crate::repro::{header_value, options_line, reduced_header};
use compiler::pipeline::CompileOptions;
use compiler::text::print_program;
use oracle::generator::knobs::Knobs;
use std::path::Path;

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

/// Why the original cannot be reduced, if it cannot.
fn refusal(original: &Judgement, wanted: Option<&str>) -> Option<String> {
    if !original.signature.contains('/') || original.signature.starts_with("discard/") {
        return Some(format!(
            "does not fail (verdict: {}); nothing to reduce",
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
    if let Some(why) = refusal(&original, req.signature) {
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
    if let Some(mode) = reduced.pre_ra_schedule {
        // The reduction fails this way only with the schedule named: the file says so, so
        // that `check` and the gate run it as it was reduced.
        let opts = CompileOptions {
            pre_ra_schedule: Some(mode),
            ..settings.opts.clone()
        };
        head.push_str(&options_line(&crate::options::option_words(&opts)));
    }
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
