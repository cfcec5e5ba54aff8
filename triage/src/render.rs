//! Human-readable rendering of emulator results (deciding happens elsewhere).

use oracle::emu::result::{
    BufferState, Outcome, RtWrite, RunResult, StrayTarget, StrayWrite, UrbWrite,
};
use std::fmt::Write;

/// A dword with undefined bytes shown as `..`, plus its float reading when fully defined
/// and plausible.
pub fn dword(value: u32, defined: u8) -> String {
    let bytes = value.to_le_bytes();
    let hex: String = (0..4)
        .rev()
        .map(|b| {
            if defined >> b & 1 != 0 {
                format!("{:02x}", bytes[b])
            } else {
                "..".to_string()
            }
        })
        .collect();
    if defined == 0xf {
        let f = f32::from_bits(value);
        let plausible = f.is_finite() && (f == 0.0 || (1e-6..1e9).contains(&f.abs()));
        if plausible {
            return format!("{hex} ({f:?})");
        }
    }
    hex
}

fn rt_write(out: &mut String, w: &RtWrite) {
    let _ = writeln!(
        out,
        "  render target {} ({} components{}):",
        w.target,
        w.components,
        if w.eot { ", EOT" } else { "" }
    );
    for ch in &w.channels {
        let comps: Vec<String> = ch
            .values
            .iter()
            .zip(&ch.defined)
            .map(|(&v, &d)| format!("{:<24}", dword(v, d)))
            .collect();
        let _ = writeln!(
            out,
            "    ch{:<3} {}",
            ch.channel,
            comps.join(" ").trim_end()
        );
    }
}

/// The two DF readings of a slot's dword pairs, where both dwords are wholly defined
/// (a dvec4 output slot holds two DFs; a 32-bit vec4 slot reads as noise, which is why the
/// dwords come first).
fn df_pairs(values: &[u32], defined: &[u8]) -> String {
    (0..values.len() / 2)
        .map(|i| match (defined[2 * i], defined[2 * i + 1]) {
            (0xf, 0xf) => {
                let bits = (values[2 * i + 1] as u64) << 32 | values[2 * i] as u64;
                format!("{:?}", f64::from_bits(bits))
            }
            _ => "..".into(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn urb_write(out: &mut String, w: &UrbWrite) {
    let _ = writeln!(
        out,
        "  output slot {}{}:",
        w.slot,
        if w.eot { " (EOT)" } else { "" }
    );
    for v in &w.vertices {
        let comps: Vec<String> = v
            .values
            .iter()
            .zip(&v.defined)
            .map(|(&x, &d)| format!("{:<24}", dword(x, d)))
            .collect();
        let _ = writeln!(
            out,
            "    vertex {} {}  | as DF: {}",
            v.channel,
            comps.join(" ").trim_end(),
            df_pairs(&v.values, &v.defined)
        );
    }
}

fn buffer(out: &mut String, surface: u8, b: &BufferState) {
    let _ = writeln!(out, "buffer {surface} ({} bytes):", b.bytes.len());
    for (row, chunk) in b.bytes.chunks(32).enumerate() {
        let mut line = format!("  {:04x}:", row * 32);
        for (i, word) in chunk.chunks(4).enumerate() {
            let base = row * 32 + i * 4;
            let def = (0..word.len()).fold(0u8, |m, k| m | ((b.defined[base + k] != 0) as u8) << k);
            let value = word.iter().rev().fold(0u32, |acc, &x| acc << 8 | x as u32);
            let text = dword(value, def | (0xf << word.len() & 0xf));
            let _ = write!(line, " {}", &text[..8]);
        }
        let _ = writeln!(out, "{line}");
    }
}

/// A write outside the memory the inputs provide.
fn stray_write(out: &mut String, w: &StrayWrite) {
    let place = match w.target {
        StrayTarget::Surface { surface } => format!("surface {surface}"),
        StrayTarget::Scratch => "scratch".to_string(),
    };
    let at = w
        .offset
        .map_or("an undefined address".to_string(), |o| format!("byte {o}"));
    let bytes: String = w
        .bytes
        .iter()
        .zip(&w.defined)
        .map(|(b, &d)| {
            if oracle::emu::is_defined(d) {
                format!("{b:02x}")
            } else {
                "..".into()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let _ = writeln!(
        out,
        "stray write by thread {} to {place} at {at}: {bytes}",
        w.thread
    );
}

/// The per-thread, per-channel table of a run, then buffers, stray writes and diagnostics.
pub fn run_table(r: &RunResult) -> String {
    let mut out = String::new();
    for (t, thread) in r.threads.iter().enumerate() {
        let _ = writeln!(
            out,
            "thread {t}: {} render-target write(s){}",
            thread.rt_writes.len(),
            if thread.eot { ", ended by EOT" } else { "" }
        );
        for w in &thread.rt_writes {
            rt_write(&mut out, w);
        }
        if !thread.urb_writes.is_empty() {
            let _ = writeln!(
                out,
                "thread {t}: {} output slot write(s)",
                thread.urb_writes.len()
            );
        }
        for w in &thread.urb_writes {
            urb_write(&mut out, w);
        }
    }
    for (s, b) in &r.buffers {
        buffer(&mut out, *s, b);
    }
    for w in &r.stray_writes {
        stray_write(&mut out, w);
    }
    for d in &r.diagnostics {
        let rule = d
            .rule
            .as_deref()
            .map(|r| format!(" [{r}]"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "diagnostic: thread {} ip {}: {:?}{rule}: {}",
            d.thread, d.ip, d.kind, d.message
        );
    }
    let outcome = outcome(&r.outcome);
    let _ = writeln!(
        out,
        "{outcome}; {} instructions, {} channel-ops",
        r.steps, r.channel_ops
    );
    out
}

/// How a run ended, in words.
pub fn outcome(o: &Outcome) -> String {
    match o {
        Outcome::Completed => "completed".to_string(),
        Outcome::OutOfFuel { steps } => format!("out of fuel after {steps} steps"),
        Outcome::WriteLimit { writes } => {
            format!("stopped at its write limit after {writes} output writes")
        }
        Outcome::Fault {
            thread,
            ip,
            message,
        } => match ip {
            Some(ip) => format!("emulator fault in thread {thread} at ip {ip}: {message}"),
            None => format!("emulator fault: {message}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undefined_bytes_are_dots() {
        assert_eq!(dword(0x3f80_0000, 0xf), "3f800000 (1.0)");
        assert_eq!(dword(0x1234_5678, 0b0011), "....5678");
        assert_eq!(dword(0x7fc0_0000, 0xf), "7fc00000");
    }
}
