//! One line per (program, device) naming how its check came out: the verdict kind, the
//! signature, the culprit pass, the bucket key and a digest of the whole verdict. Two
//! revisions of eufuzz print the same lines exactly when they judge the same programs the
//! same way, which is what `scripts/verdict-equivalence.sh` diffs to show that a change
//! made to go faster changed no verdict.

use crate::check::{FileCheck, check, file_check, input_sets};
use crate::error::Result;
use crate::identity::Identity;
use crate::options::{CompileArgs, CompileFlags};
use compiler::pipeline::CompileOptions;
use compiler::{Device, Program};
use oracle::generator::from_seed;
use oracle::generator::knobs::Knobs;
use std::path::Path;

/// Generated input sets per generated program besides its own: as many as a campaign's
/// case runs (`campaign::case::EXTRA_INPUT_SETS`).
const EXTRA_INPUT_SETS: usize = crate::campaign::case::EXTRA_INPUT_SETS;

/// The lines of the program `seed` generates: on its own device, and with `all_devices`
/// also retargeted to every other device it is valid for (`skipped` lines for the rest).
pub fn generated(
    seed: u64,
    knobs: &Knobs,
    all_devices: bool,
    opts: &CompileOptions,
) -> Vec<String> {
    let p = from_seed(seed, knobs).program;
    program_lines(&format!("seed-{seed}"), &p, seed, all_devices, opts)
}

/// The lines of a campaign corpus entry's program, generated from its bytes with `knobs`
/// as the campaign's mutated cases are, with the input sets of seed 0 (as a campaign runs
/// its base corpus): replaying a corpus is how the coverage a campaign reached is measured
/// (`scripts/coverage.sh --corpus`).
pub fn corpus_entry(
    e: &crate::campaign::corpus::Entry,
    knobs: &Knobs,
    all_devices: bool,
    opts: &CompileOptions,
) -> Vec<String> {
    let mut u = arbitrary::Unstructured::new(&e.bytes);
    let p = oracle::generator::generate(&mut u, knobs).program;
    program_lines(&format!("corpus-{}", e.name), &p, 0, all_devices, opts)
}

fn program_lines(
    name: &str,
    p: &Program,
    seed: u64,
    all_devices: bool,
    opts: &CompileOptions,
) -> Vec<String> {
    devices(p, all_devices)
        .into_iter()
        .map(|d| {
            let mut q = p.clone();
            q.device = d;
            line(name, &q, EXTRA_INPUT_SETS, seed, opts)
        })
        .collect()
}

/// The lines of a `.eu` file, run as `eufuzz check FILE [--all-devices] [FLAGS]` runs it.
pub fn file(f: &Path, all_devices: bool, flags: &CompileFlags) -> Result<Vec<String>> {
    let original = crate::load::load_program(f, None)?;
    let args = CompileArgs {
        device: None,
        flags: flags.clone(),
    };
    let FileCheck {
        devices,
        compile,
        inputs,
        backend: _,
    } = file_check(f, &args, all_devices, 0)?;
    let name = f.display().to_string();
    Ok(devices
        .into_iter()
        .map(|d| {
            let mut p = original.clone();
            if let Some(d) = d {
                p.device = d;
            }
            line(&name, &p, inputs, 0, &compile)
        })
        .collect())
}

/// The program's own device first, then (with `all`) every other one.
fn devices(p: &Program, all: bool) -> Vec<Device> {
    let mut out = vec![p.device];
    if all {
        out.extend(
            compiler::device::ALL_DEVICES
                .iter()
                .copied()
                .filter(|&d| d != p.device),
        );
    }
    out
}

/// `NAME DEVICE KIND SIGNATURE CULPRIT BUCKET DIGEST`, tab-separated; `skipped` with the
/// validator's first rule when the program is not valid for the device (nothing is run).
fn line(name: &str, p: &Program, extra: usize, seed: u64, opts: &CompileOptions) -> String {
    let device = p.device.name();
    if let Some(v) = compiler::validate::validate(p).first() {
        return format!("{name}\t{device}\tskipped\t{}", v.rule);
    }
    let (sets, sources) = input_sets(p, extra, seed);
    let report = check(p, &sets, sources, opts);
    let id = Identity::of(&report.verdict, report.culprit.as_ref());
    let culprit = report.culprit.as_ref().map_or("-", |c| c.pass.as_str());
    let whole = serde_json::to_string(&report.verdict).unwrap_or_default();
    format!(
        "{name}\t{device}\t{}\t{}\t{culprit}\t{}\t{:016x}",
        report.verdict.kind(),
        id.signature,
        id.bucket,
        fnv1a(whole.as_bytes())
    )
}

/// FNV-1a, 64 bits: a digest that is the same in every build and revision (std's hasher
/// is not guaranteed to be).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_one_line_per_device_and_the_same_lines_every_time() {
        let knobs = Knobs::default();
        let opts = CompileOptions::default();
        let own = generated(3, &knobs, false, &opts);
        let all = generated(3, &knobs, true, &opts);
        assert_eq!(own.len(), 1);
        assert_eq!(all.len(), compiler::device::ALL_DEVICES.len());
        assert_eq!(all[0], own[0]);
        assert_eq!(all, generated(3, &knobs, true, &opts));
        assert!(own[0].starts_with("seed-3\t"), "{}", own[0]);
        assert_eq!(own[0].split('\t').count(), 7, "{}", own[0]);
    }

    #[test]
    fn the_digest_is_fnv1a() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
