//! Whether a compiled program's run refines the reference run: where the reference defines
//! a byte, the compiled run must define the same byte; where the reference leaves it
//! undefined, anything goes.
//!
//! # NaN payloads and signed zeros
//! Comparison is bit-exact, with one tolerance: bytes the reference marks as part of a NaN
//! that a *float operation* produced (the emulator's NaN mark, carried like definedness
//! through moves, payloads and memory) may hold any other such NaN. The payload of a NaN
//! result is the hardware's choice and legal rewrites (commuting operands, folding
//! `x * 1.0`) change which source NaN propagates. So a marked F dword is refined by any
//! defined F NaN, and other marked bytes by marked bytes. Integer data whose bit pattern
//! happens to be a NaN (−1 vs −2) and float data that was merely copied (inputs, texels)
//! have no mark and are compared exactly.
//!
//! −0.0 and +0.0 differ: they are different bit patterns, the same dword may be read as an
//! integer (0x8000_0000 vs 0), and float code can tell them apart (1/x, sign tests,
//! `copysign`-style bit ops), so a rewrite that flips a zero's sign is a miscompile.
//!
//! # Side effects
//! Every write either program makes is compared. Buffers the inputs provide are compared
//! byte by byte (a buffer only one run has is a difference). Writes outside the provided
//! memory (a surface without a buffer, past a buffer's end, scratch outside the writing
//! thread's own slot) are kept as stray writes: the compiled run may stray-write only
//! where the reference stray-writes too, with refining bytes, and must make every stray
//! write the reference makes. Scratch inside the thread's own slot is private (the
//! reference's logical scratch is per thread, the compiled program's spills are its own
//! business) and not compared; a scratch write outside the own slot or beyond the scratch
//! buffer could be seen by another thread or the next shader, so it is compared like a
//! stray surface write. A stray byte written by two threads is undefined (a race).
//!
//! Render-target writes are compared per thread, render target and channel, in the order
//! each channel was written: splitting a message into SIMD pieces changes how writes are
//! grouped, not what each channel receives. Vec4-stage URB writes are compared the same
//! way per thread, output slot and vertex.

use crate::emu::result::{
    ChannelColor, Outcome, RtWrite, RunResult, StrayTarget, StrayWrite, UrbWrite,
};
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
    /// A vec4-stage output dword differs: component `component` (0..4, a dword of the
    /// slot) of `vertex` in output slot `slot`.
    Output {
        thread: u32,
        slot: u8,
        vertex: u32,
        /// Which write of this slot and vertex (0 = first).
        write: usize,
        component: usize,
        expected: u32,
        expected_defined: u8,
        actual: Option<(u32, u8)>,
    },
    /// The compiled run wrote a vertex's output slot the reference did not write (that often).
    ExtraOutput {
        thread: u32,
        slot: u8,
        vertex: u32,
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
    /// A buffer the inputs provided exists in only one run (`expected`: in the reference).
    Surface { surface: u8, expected: bool },
    /// A dword outside the provided memory (see [`StrayTarget`]) that one run wrote and the
    /// other did not, or wrote differently: `None` where a run did not write it. `offset`
    /// `None` is a write through an undefined address.
    StrayWrite {
        target: StrayTarget,
        offset: Option<u64>,
        /// Value and 4-bit defined mask.
        expected: Option<(u32, u8)>,
        actual: Option<(u32, u8)>,
    },
    /// The reference ended with EOT, the compiled run did not (or the reverse).
    Eot { thread: u32, expected: bool },
    /// The compiled run did not complete.
    Outcome { expected: Outcome, actual: Outcome },
}

/// One output dword: value, 4-bit defined mask, 4-bit float-NaN mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dword {
    pub value: u32,
    pub defined: u8,
    pub float_nan: u8,
}

impl Dword {
    /// A dword of bytes with per-byte emulator flags (see `Space::def`).
    pub fn from_flags(bytes: &[u8], flags: &[u8]) -> Dword {
        let value = bytes.iter().rev().fold(0u32, |a, &x| a << 8 | x as u32);
        let mask = |f: fn(u8) -> bool| {
            flags
                .iter()
                .enumerate()
                .fold(0u8, |m, (i, &x)| m | (f(x) as u8) << i)
        };
        Dword {
            value,
            defined: mask(crate::emu::is_defined),
            float_nan: mask(|x| x == crate::emu::FLOAT_NAN),
        }
    }
}

/// Per render target (or output slot) and channel (or vertex), each write's components
/// (borrowed values and masks).
type ChannelWrites<'a> = BTreeMap<(u8, u32), Vec<(&'a [u32], &'a [u8], &'a [u8])>>;

/// Groups writes by (target or slot, channel or vertex), keeping their order.
fn group<'a>(writes: impl Iterator<Item = (u8, &'a ChannelColor)>) -> ChannelWrites<'a> {
    let mut out: ChannelWrites = BTreeMap::new();
    for (key, ch) in writes {
        out.entry((key, ch.channel))
            .or_default()
            .push((&ch.values, &ch.defined, &ch.float_nan));
    }
    out
}

fn per_channel(writes: &[RtWrite]) -> ChannelWrites<'_> {
    group(
        writes
            .iter()
            .flat_map(|w| w.channels.iter().map(move |ch| (w.target, ch))),
    )
}

fn per_vertex(writes: &[UrbWrite]) -> ChannelWrites<'_> {
    group(
        writes
            .iter()
            .flat_map(|w| w.vertices.iter().map(move |ch| (w.slot, ch))),
    )
}

/// A key the compiled run wrote more often, and the index of its first extra write.
type ExtraWrites = ((u8, u32), usize);

/// A component that fails to refine: where (key, write, component) and the two values.
struct Miss {
    key: (u8, u32),
    write: usize,
    component: usize,
    expected: u32,
    expected_defined: u8,
    actual: Option<(u32, u8)>,
}

/// Compares grouped writes: every component the reference defines must be refined by the
/// same write of the same key. Returns the misses, then each key the compiled run wrote
/// more often, with the index of its first extra write.
fn compare_grouped(rw: &ChannelWrites, cw: &ChannelWrites) -> (Vec<Miss>, Vec<ExtraWrites>) {
    let mut misses = vec![];
    for (key, writes) in rw {
        let got = cw.get(key);
        for (i, &write) in writes.iter().enumerate() {
            for k in 0..write.0.len() {
                let Some(exp) = component(write, k) else {
                    continue;
                };
                let act = got.and_then(|g| g.get(i)).and_then(|&w| component(w, k));
                if !act.is_some_and(|a| refines(exp, a)) && exp.defined != 0 {
                    misses.push(Miss {
                        key: *key,
                        write: i,
                        component: k,
                        expected: exp.value,
                        expected_defined: exp.defined,
                        actual: act.map(|a| (a.value, a.defined)),
                    });
                }
            }
        }
    }
    let extra = cw
        .iter()
        .filter_map(|(key, writes)| {
            let expected = rw.get(key).map_or(0, Vec::len);
            (writes.len() > expected).then_some((*key, expected))
        })
        .collect();
    (misses, extra)
}

/// Component `k` of a channel's write as a [`Dword`] (no NaN mark if the run has none).
fn component((values, defined, nan): (&[u32], &[u8], &[u8]), k: usize) -> Option<Dword> {
    Some(Dword {
        value: *values.get(k)?,
        defined: *defined.get(k)?,
        float_nan: nan.get(k).copied().unwrap_or(0),
    })
}

/// Whether `actual` refines `expected` for one dword with per-byte defined masks and no
/// NaN marks: bit-exact on the bytes the reference defines.
pub fn dword_refines(expected: u32, exp_def: u8, actual: u32, act_def: u8) -> bool {
    refines(
        Dword {
            value: expected,
            defined: exp_def,
            float_nan: 0,
        },
        Dword {
            value: actual,
            defined: act_def,
            float_nan: 0,
        },
    )
}

/// Whether `actual` refines `expected` (module doc): per byte, the reference's is
/// undefined, or the actual one is defined and equal or both carry the float-NaN mark; a
/// wholly marked reference dword (an F NaN of a float operation) is refined by any defined
/// F NaN.
pub fn refines(expected: Dword, actual: Dword) -> bool {
    if expected.float_nan == 0xf && actual.defined == 0xf && f32::from_bits(actual.value).is_nan() {
        return true;
    }
    (0..4).all(|b| {
        let byte = |d: Dword| (d.value >> (8 * b)) as u8;
        let bit = |m: u8| m >> b & 1 == 1;
        !bit(expected.defined)
            || (bit(actual.defined)
                && (byte(expected) == byte(actual)
                    || (bit(expected.float_nan) && bit(actual.float_nan))))
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
        let (misses, extra) =
            compare_grouped(&per_channel(&r.rt_writes), &per_channel(&c.rt_writes));
        out.extend(misses.into_iter().map(|m| Difference::Color {
            thread: t,
            target: m.key.0,
            channel: m.key.1,
            write: m.write,
            component: m.component,
            expected: m.expected,
            expected_defined: m.expected_defined,
            actual: m.actual,
        }));
        out.extend(
            extra
                .into_iter()
                .map(|((target, channel), write)| Difference::ExtraWrite {
                    thread: t,
                    target,
                    channel,
                    write,
                }),
        );
        let (misses, extra) =
            compare_grouped(&per_vertex(&r.urb_writes), &per_vertex(&c.urb_writes));
        out.extend(misses.into_iter().map(|m| Difference::Output {
            thread: t,
            slot: m.key.0,
            vertex: m.key.1,
            write: m.write,
            component: m.component,
            expected: m.expected,
            expected_defined: m.expected_defined,
            actual: m.actual,
        }));
        out.extend(
            extra
                .into_iter()
                .map(|((slot, vertex), write)| Difference::ExtraOutput {
                    thread: t,
                    slot,
                    vertex,
                    write,
                }),
        );
    }
    compare_buffers(reference, compiled, &mut out);
    compare_stray_writes(&reference.stray_writes, &compiled.stray_writes, &mut out);
    out
}

/// Buffers byte by byte; a buffer in only one run, or bytes past the shorter one's end,
/// count as undefined in the run that lacks them.
fn compare_buffers(reference: &RunResult, compiled: &RunResult, out: &mut Vec<Difference>) {
    for s in compiled.buffers.keys() {
        if !reference.buffers.contains_key(s) {
            out.push(Difference::Surface {
                surface: *s,
                expected: false,
            });
        }
    }
    for (s, rb) in &reference.buffers {
        let Some(cb) = compiled.buffers.get(s) else {
            out.push(Difference::Surface {
                surface: *s,
                expected: true,
            });
            continue;
        };
        for off in (0..rb.bytes.len()).step_by(4) {
            let word = |b: &[u8], d: &[u8]| {
                let end = (off + 4).min(b.len());
                let start = off.min(end);
                Dword::from_flags(&b[start..end], &d[start..end])
            };
            let exp = word(&rb.bytes, &rb.defined);
            let act = word(&cb.bytes, &cb.defined);
            if !refines(exp, act) {
                out.push(Difference::Buffer {
                    surface: *s,
                    offset: off,
                    expected: exp.value,
                    expected_defined: exp.defined,
                    actual: act.value,
                    actual_defined: act.defined,
                });
            }
        }
    }
}

/// The final stray-written bytes of a run: per target and byte offset, the byte and its
/// flag (undefined if two threads wrote it), plus the targets written through an undefined
/// address (any byte of them may have changed).
struct Strays {
    bytes: BTreeMap<(StrayTarget, u64), (u8, u8, u32)>,
    anywhere: Vec<StrayTarget>,
}

fn strays(writes: &[StrayWrite]) -> Strays {
    let mut out = Strays {
        bytes: BTreeMap::new(),
        anywhere: vec![],
    };
    for w in writes {
        let Some(offset) = w.offset else {
            out.anywhere.push(w.target);
            continue;
        };
        for (i, (&b, &f)) in w.bytes.iter().zip(&w.defined).enumerate() {
            let key = (w.target, offset.wrapping_add(i as u64));
            let racy = out.bytes.get(&key).is_some_and(|&(_, _, t)| t != w.thread);
            out.bytes
                .insert(key, (b, if racy { 0 } else { f }, w.thread));
        }
    }
    out
}

/// Stray writes (module doc): each dword either run stray-wrote must agree.
fn compare_stray_writes(
    reference: &[StrayWrite],
    compiled: &[StrayWrite],
    out: &mut Vec<Difference>,
) {
    let (r, c) = (strays(reference), strays(compiled));
    for &target in &c.anywhere {
        if !r.anywhere.contains(&target) {
            out.push(Difference::StrayWrite {
                target,
                offset: None,
                expected: None,
                actual: None,
            });
        }
    }
    let dwords: std::collections::BTreeSet<(StrayTarget, u64)> = r
        .bytes
        .keys()
        .chain(c.bytes.keys())
        .map(|&(t, o)| (t, o & !3))
        .collect();
    for (target, base) in dwords {
        let word = |s: &Strays| {
            let got: Vec<Option<(u8, u8)>> = (0..4)
                .map(|i| s.bytes.get(&(target, base + i)).map(|&(b, f, _)| (b, f)))
                .collect();
            got.iter().any(Option::is_some).then(|| {
                let bytes: Vec<u8> = got.iter().map(|g| g.map_or(0, |x| x.0)).collect();
                let flags: Vec<u8> = got.iter().map(|g| g.map_or(0, |x| x.1)).collect();
                let written = got
                    .iter()
                    .enumerate()
                    .fold(0u8, |m, (i, g)| m | (g.is_some() as u8) << i);
                (Dword::from_flags(&bytes, &flags), written)
            })
        };
        let (exp, act) = (word(&r), word(&c));
        let r_anywhere = r.anywhere.contains(&target);
        let ok = match (exp, act) {
            // Written by the compiled run only: fine only if the reference may have written
            // anywhere in the target.
            (None, Some(_)) => r_anywhere,
            // Written by the reference only: the compiled run must make the write, unless
            // the reference left it undefined.
            (Some((e, _)), None) => e.defined == 0 || r_anywhere,
            (Some((e, ew)), Some((a, aw))) => r_anywhere || (aw & !ew == 0 && refines(e, a)),
            (None, None) => true,
        };
        if !ok {
            out.push(Difference::StrayWrite {
                target,
                offset: Some(base),
                expected: exp.map(|(e, _)| (e.value, e.defined)),
                actual: act.map(|(a, _)| (a.value, a.defined)),
            });
        }
    }
}

/// Narrows what `baseline` (a compiled run used as the reference, `--baseline o0`) defines
/// to what `reference` (the input program's own run) defines. A compiled program can
/// define more than its input: a read of a never-written register lands in a physical
/// register an unrelated dead write happened to fill. The oracle compares only what the
/// input defines (ARCHITECTURE.md, "Verdicts"), so those bytes are not the baseline's to
/// demand — in every output the comparison reads: render-target writes, URB writes, stray
/// writes and buffers.
pub fn restrict_defined(baseline: &mut RunResult, reference: &RunResult) {
    for (b, r) in baseline.threads.iter_mut().zip(&reference.threads) {
        restrict_writes(
            b.rt_writes.iter_mut().flat_map(|w| {
                let target = w.target;
                w.channels.iter_mut().map(move |ch| (target, ch))
            }),
            &per_channel(&r.rt_writes),
        );
        restrict_writes(
            b.urb_writes.iter_mut().flat_map(|w| {
                let slot = w.slot;
                w.vertices.iter_mut().map(move |ch| (slot, ch))
            }),
            &per_vertex(&r.urb_writes),
        );
    }
    let input_strays = strays(&reference.stray_writes);
    for w in &mut baseline.stray_writes {
        let Some(offset) = w.offset else {
            continue;
        };
        for (i, d) in w.defined.iter_mut().enumerate() {
            let key = (w.target, offset.wrapping_add(i as u64));
            if input_strays
                .bytes
                .get(&key)
                .is_none_or(|&(_, f, _)| f & 1 == 0)
            {
                *d = 0;
            }
        }
    }
    for (surface, b) in &mut baseline.buffers {
        let r = reference.buffers.get(surface);
        for (i, d) in b.defined.iter_mut().enumerate() {
            // Bit 0 says defined; the NaN mark (bit 1) means nothing without it.
            if r.and_then(|r| r.defined.get(i))
                .is_none_or(|&rd| rd & 1 == 0)
            {
                *d = 0;
            }
        }
    }
}

/// Clears the defined bytes of `writes` (render-target channels or URB vertices, with their
/// target or slot) that the same write of the same key in `defined` leaves undefined: the
/// n-th write of a key against the reference's n-th.
fn restrict_writes<'a>(
    writes: impl Iterator<Item = (u8, &'a mut ChannelColor)>,
    defined: &ChannelWrites,
) {
    let mut seen: BTreeMap<(u8, u32), usize> = BTreeMap::new();
    for (key, ch) in writes {
        let n = seen.entry((key, ch.channel)).or_default();
        let r = defined.get(&(key, ch.channel)).and_then(|v| v.get(*n));
        *n += 1;
        for (k, d) in ch.defined.iter_mut().enumerate() {
            *d &= r.and_then(|r| r.1.get(k)).copied().unwrap_or(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(channel: u32, defined: [u8; 4]) -> ChannelColor {
        ChannelColor {
            channel,
            values: vec![0; 4],
            defined: defined.to_vec(),
            float_nan: vec![0; 4],
        }
    }

    fn run_with(urb: Vec<UrbWrite>, rt: Vec<RtWrite>) -> RunResult {
        RunResult {
            outcome: Outcome::Completed,
            threads: vec![crate::emu::result::ThreadResult {
                rt_writes: rt,
                urb_writes: urb,
                eot: true,
            }],
            buffers: BTreeMap::new(),
            stray_writes: vec![],
            diagnostics: vec![],
            steps: 0,
            channel_ops: 0,
        }
    }

    /// A `--baseline o0` run defines only what the input's own run defines, in URB outputs
    /// as in render-target writes: what the -O0 program happens to leave in a register
    /// the input never wrote is not the baseline's to demand.
    #[test]
    fn the_baseline_defines_only_what_the_input_defines_in_every_output() {
        let urb = |v: ChannelColor| UrbWrite {
            slot: 0,
            vertices: vec![v],
            eot: true,
        };
        let rt = |v: ChannelColor| RtWrite {
            target: 0,
            components: 4,
            channels: vec![v],
            eot: true,
        };
        let mut baseline = run_with(
            vec![urb(vertex(1, [0xf; 4]))],
            vec![rt(vertex(3, [0xf; 4]))],
        );
        let input = run_with(
            vec![urb(vertex(1, [0xf, 0, 0x3, 0]))],
            vec![rt(vertex(3, [0, 0xf, 0, 0xc]))],
        );
        restrict_defined(&mut baseline, &input);
        let t = &baseline.threads[0];
        assert_eq!(t.urb_writes[0].vertices[0].defined, [0xf, 0, 0x3, 0]);
        assert_eq!(t.rt_writes[0].channels[0].defined, [0, 0xf, 0, 0xc]);
        // A write the input does not make at all defines nothing.
        let mut extra = run_with(vec![urb(vertex(0, [0xf; 4]))], vec![]);
        restrict_defined(&mut extra, &input);
        assert_eq!(extra.threads[0].urb_writes[0].vertices[0].defined, [0; 4]);
        // Stray writes, byte by byte.
        let stray = |defined: Vec<u8>| StrayWrite {
            target: StrayTarget::Surface { surface: 3 },
            thread: 0,
            offset: Some(64),
            bytes: vec![7; defined.len()],
            defined,
        };
        let mut baseline = run_with(vec![], vec![]);
        baseline.stray_writes = vec![stray(vec![1, 1, 1, 1])];
        let mut input = run_with(vec![], vec![]);
        // The input writes three of the four bytes: defined, undefined, defined and NaN.
        input.stray_writes = vec![stray(vec![1, 0, 3])];
        restrict_defined(&mut baseline, &input);
        assert_eq!(baseline.stray_writes[0].defined, [1, 0, 1, 0]);
    }

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
            !dword_refines(0x7fc0_0000, 0xf, 0xffc0_0001, 0xf),
            "unmarked NaN bit patterns are compared exactly"
        );
        let marked = |value| Dword {
            value,
            defined: 0xf,
            float_nan: 0xf,
        };
        let plain = |value| Dword {
            value,
            defined: 0xf,
            float_nan: 0,
        };
        assert!(refines(marked(0x7fc0_0000), marked(0xffc0_0001)));
        assert!(
            refines(marked(0x7fc0_0000), plain(0x7f80_0001)),
            "a float operation's NaN is refined by any NaN"
        );
        assert!(!refines(marked(0x7fc0_0000), plain(0x3f80_0000)));
        assert!(
            !refines(plain(0xffff_ffff), marked(0xffff_fffe)),
            "an unmarked reference is compared exactly"
        );
        assert!(!refines(plain(0x8000_0000), plain(0)), "-0.0 is not +0.0");
    }
}
