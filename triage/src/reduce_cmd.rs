//! `eufuzz reduce FILE`: load a failing reproducer, reduce it to the same signature and
//! write the result (atomically) as a canonical `.eu` file with a header saying where it
//! came from.

use crate::bucket_cmd::header_value;
use crate::files::write_atomic;
use crate::reduce::bytes::{Origin, shrink};
use crate::reduce::candidates;
use crate::reduce::interesting::{Judgement, judge};
use crate::reduce::{Event, Reduced, Settings, reduce};
use compiler::text::print_program;
use oracle::generator::knobs::Knobs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Exit code when there is nothing to reduce (the file passes, or fails differently).
pub const NOTHING_TO_REDUCE: i32 = 2;

/// What the user asked for.
pub struct ReduceArgs<'a> {
    pub file: &'a Path,
    pub out: Option<PathBuf>,
    pub signature: Option<String>,
    pub device: Option<compiler::Device>,
    pub seed: u64,
    pub settings: Settings,
}

/// `foo.eu` → `foo.reduced.eu`.
fn default_output(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "reproducer".into());
    file.with_file_name(format!("{stem}.reduced.eu"))
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

/// The header of a reduced reproducer: where it came from and what reduction did.
pub fn header(file: &Path, r: &Reduced, inputs_generated: Option<u64>) -> String {
    let culprit = r.judgement.signature.split('/').nth(1).unwrap_or("-");
    let mut h = String::from("# eufuzz reduced reproducer\n");
    h.push_str(&format!("# original: {}\n", file.display()));
    h.push_str(&format!("# signature: {}\n", r.judgement.signature));
    h.push_str(&format!("# culprit pass: {culprit}\n"));
    h.push_str(&format!(
        "# size: {} -> {} instructions\n",
        r.insts_before, r.insts_after
    ));
    h.push_str(&format!(
        "# reduction: {:.1} s, {} tests{}\n",
        r.elapsed.as_secs_f64(),
        r.tests,
        if r.out_of_budget {
            " (budget spent before a fixpoint)"
        } else {
            ""
        }
    ));
    if let Some(seed) = inputs_generated {
        h.push_str(&format!(
            "# failing inputs: generated from seed {seed} (the original carried none)\n"
        ));
    }
    h
}

fn show(e: Event) {
    match e {
        Event::Round { round } => eprint!("\rreduce: round {}            ", round + 1),
        Event::Kept { step, insts, tests } => {
            eprint!("\rreduce: {insts} instructions after {tests} tests ({step})            ")
        }
        Event::Done(r) => eprintln!(
            "\rreduce: {} -> {} instructions in {:.1} s ({} tests)            ",
            r.insts_before,
            r.insts_after,
            r.elapsed.as_secs_f64(),
            r.tests
        ),
    }
}

/// The campaign seed and knobs of a reproducer whose `.bytes` decode with this build's
/// generator (same format version), and those bytes.
fn choice_sequence(file: &Path, text: &str) -> Option<(Vec<u8>, Origin)> {
    let generated = header_value(text, "generated")?;
    let seed = generated
        .strip_prefix("eufuzz gen --seed ")?
        .split_whitespace()
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

/// Runs `eufuzz reduce`; returns the exit code.
pub fn run(args: ReduceArgs) -> Result<i32, String> {
    let text = crate::files::read_text(args.file)?;
    let mut p = crate::compile_cmd::load(args.file, args.device)?;
    let inputs_generated = p.inputs.is_none().then_some(args.seed);
    if p.inputs.is_none() {
        p.inputs = Some(oracle::inputs::generate(&p, args.seed));
    }
    let original = judge(&p, &args.settings.opts);
    if let Some(why) = refusal(&original, args.signature.as_deref()) {
        eprintln!("{}: {why}", args.file.display());
        return Ok(NOTHING_TO_REDUCE);
    }
    let terminal = std::io::stderr().is_terminal();
    let start = std::time::Instant::now();
    let mut bytes_note = None;
    if args.device.is_none()
        && let Some((bytes, origin)) = choice_sequence(args.file, &text)
    {
        let share = args.settings.budget / 3;
        if let Some((shrunk, q)) = shrink(
            &bytes,
            &origin,
            &args.settings.opts,
            &original.signature,
            share,
        ) {
            let j = judge(&q, &args.settings.opts);
            if j.keeps(&original) && candidates::size(&q) < candidates::size(&p) {
                bytes_note = Some((bytes.len(), shrunk.len(), p.inst_count()));
                p = q;
            }
        }
    }
    let settings = Settings {
        budget: args.settings.budget.saturating_sub(start.elapsed()),
        ..args.settings
    };
    let mut reduced = reduce(&p, &original, &settings, |e| {
        if terminal {
            show(e)
        }
    });
    reduced.elapsed = start.elapsed();
    if let Some((_, _, before)) = bytes_note {
        reduced.insts_before = before;
    }
    let out = args.out.unwrap_or_else(|| default_output(args.file));
    let mut head = header(args.file, &reduced, inputs_generated);
    if let Some((from, to, _)) = bytes_note {
        head.push_str(&format!("# choice sequence: {from} -> {to} bytes\n"));
    }
    if let Some(mode) = reduced.pre_ra_schedule {
        // The reduction fails this way only with the schedule named: the file says so, so
        // that `check` and the gate run it as it was reduced.
        let opts = compiler::pipeline::CompileOptions {
            pre_ra_schedule: Some(mode),
            ..settings.opts.clone()
        };
        head.push_str(&format!(
            "# options: {}\n",
            crate::gate::option_words(&opts).join(" ")
        ));
    }
    let text = format!("{head}{}", print_program(&reduced.program));
    write_atomic(&out, text.as_bytes())?;
    println!(
        "{}: {} -> {} instructions, signature {}, written to {}",
        args.file.display(),
        reduced.insts_before,
        reduced.insts_after,
        reduced.judgement.signature,
        out.display()
    );
    Ok(0)
}
