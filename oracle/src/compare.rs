//! Whether a compiled program's run refines the reference run: where the reference defines
//! a byte, the compiled run must define the same byte (a NaN dword equals any NaN dword);
//! where the reference leaves it undefined, anything goes.
//!
//! Render-target writes are compared per thread, render target and channel, in the order
//! each channel was written: splitting a message into SIMD pieces changes how writes are
//! grouped, not what each channel receives.

use crate::emu::result::{Outcome, RtWrite, RunResult};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One way the compiled run fails to refine the reference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Difference {
    /// A channel's colour component differs (or is undefined where the reference's is not).
    Color {
        thread: u32,
        target: u8,
        channel: u32,
        /// Which write of this channel (0 = first).
        write: usize,
        component: usize,
        expected: u32,
        expected_defined: u8,
        actual: Option<(u32, u8)>,
    },
    /// The compiled run wrote a channel the reference did not write (that often).
    ExtraWrite {
        thread: u32,
        target: u8,
        channel: u32,
        write: usize,
    },
    /// A buffer dword differs.
    Buffer {
        surface: u8,
        offset: usize,
        expected: u32,
        expected_defined: u8,
        actual: u32,
        actual_defined: u8,
    },
    /// The reference ended with EOT, the compiled run did not (or the reverse).
    Eot { thread: u32, expected: bool },
    /// The compiled run did not complete.
    Outcome { expected: Outcome, actual: Outcome },
}

/// Per render target and channel, the values and defined masks of each write (borrowed).
type ChannelWrites<'a> = BTreeMap<(u8, u32), Vec<(&'a [u32], &'a [u8])>>;

fn per_channel(writes: &[RtWrite]) -> ChannelWrites<'_> {
    let mut out: ChannelWrites = BTreeMap::new();
    for w in writes {
        for ch in &w.channels {
            out.entry((w.target, ch.channel))
                .or_default()
                .push((&ch.values, &ch.defined));
        }
    }
    out
}

fn is_nan(v: u32) -> bool {
    f32::from_bits(v).is_nan()
}

/// Whether `actual` refines `expected` for one dword with per-byte defined masks.
pub fn dword_refines(expected: u32, exp_def: u8, actual: u32, act_def: u8) -> bool {
    if exp_def == 0xf && act_def == 0xf && is_nan(expected) && is_nan(actual) {
        return true;
    }
    (0..4).all(|b| {
        exp_def >> b & 1 == 0
            || (act_def >> b & 1 == 1 && (expected >> (8 * b)) as u8 == (actual >> (8 * b)) as u8)
    })
}

/// The differences between a reference run and a compiled run (empty: it refines).
pub fn compare(reference: &RunResult, compiled: &RunResult) -> Vec<Difference> {
    let mut out = vec![];
    if compiled.outcome != Outcome::Completed && reference.outcome == Outcome::Completed {
        out.push(Difference::Outcome {
            expected: reference.outcome.clone(),
            actual: compiled.outcome.clone(),
        });
        return out;
    }
    for (t, (r, c)) in reference.threads.iter().zip(&compiled.threads).enumerate() {
        let t = t as u32;
        if r.eot != c.eot {
            out.push(Difference::Eot {
                thread: t,
                expected: r.eot,
            });
        }
        let (rw, cw) = (per_channel(&r.rt_writes), per_channel(&c.rt_writes));
        for ((target, channel), writes) in &rw {
            let got = cw.get(&(*target, *channel));
            for (i, (vals, defs)) in writes.iter().enumerate() {
                for (k, (&v, &d)) in vals.iter().zip(defs.iter()).enumerate() {
                    let actual = got
                        .and_then(|g| g.get(i))
                        .and_then(|(vs, ds)| Some((*vs.get(k)?, *ds.get(k)?)));
                    let ok = actual.is_some_and(|(av, ad)| dword_refines(v, d, av, ad));
                    if !ok && d != 0 {
                        out.push(Difference::Color {
                            thread: t,
                            target: *target,
                            channel: *channel,
                            write: i,
                            component: k,
                            expected: v,
                            expected_defined: d,
                            actual,
                        });
                    }
                }
            }
        }
        for ((target, channel), writes) in &cw {
            let expected = rw.get(&(*target, *channel)).map_or(0, Vec::len);
            if writes.len() > expected {
                out.push(Difference::ExtraWrite {
                    thread: t,
                    target: *target,
                    channel: *channel,
                    write: expected,
                });
            }
        }
    }
    for (s, rb) in &reference.buffers {
        let Some(cb) = compiled.buffers.get(s) else {
            continue;
        };
        for off in (0..rb.bytes.len().min(cb.bytes.len())).step_by(4) {
            let word = |b: &[u8], d: &[u8]| {
                let end = (off + 4).min(b.len());
                let v = b[off..end]
                    .iter()
                    .rev()
                    .fold(0u32, |a, &x| a << 8 | x as u32);
                let m = d[off..end]
                    .iter()
                    .enumerate()
                    .fold(0u8, |m, (i, &x)| m | ((x != 0) as u8) << i);
                (v, m)
            };
            let (ev, ed) = word(&rb.bytes, &rb.defined);
            let (av, ad) = word(&cb.bytes, &cb.defined);
            if !dword_refines(ev, ed, av, ad) {
                out.push(Difference::Buffer {
                    surface: *s,
                    offset: off,
                    expected: ev,
                    expected_defined: ed,
                    actual: av,
                    actual_defined: ad,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refinement_of_dwords() {
        assert!(dword_refines(5, 0xf, 5, 0xf));
        assert!(!dword_refines(5, 0xf, 6, 0xf));
        assert!(
            !dword_refines(5, 0xf, 5, 0x7),
            "an undefined byte where the reference defines one"
        );
        assert!(
            dword_refines(5, 0x0, 99, 0x0),
            "undefined reference: anything goes"
        );
        assert!(dword_refines(0x1234_0005, 0x1, 0xffff_ff05, 0x1));
        assert!(
            dword_refines(0x7fc0_0000, 0xf, 0xffc0_0001, 0xf),
            "any NaN equals any NaN"
        );
    }
}
