//! The shim's framed protocol (compiler/mesa-shim/src/main.cpp): a header line with the
//! body's length, then the body, so a program's text needs no escaping.
//!
//! ```text
//! request: run PASS LEN\n  + LEN bytes of .eu
//! reply:   ok PROGRESS LEN\n + LEN bytes of .eu   (PROGRESS 0 or 1)
//!          refused LEN\n + LEN bytes: the reason
//! ```

use std::io::{self, BufRead, Write};

/// What the shim answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The pass ran; `text` is its output program.
    Ran { progress: bool, text: String },
    /// The program (or the pass's result) is outside the mapping; `reason` says where.
    Refused { reason: String },
}

/// Writes one request.
pub fn write_request(w: &mut impl Write, pass: &str, text: &str) -> io::Result<()> {
    write!(w, "run {pass} {}\n{text}", text.len())?;
    w.flush()
}

fn bad(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

/// Reads one reply. End of input before a whole reply is `UnexpectedEof` (the shim died).
pub fn read_reply(r: &mut impl BufRead) -> io::Result<Reply> {
    let mut header = String::new();
    if r.read_line(&mut header)? == 0 {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    let words: Vec<&str> = header.trim_end_matches('\n').split(' ').collect();
    let len_of = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| bad(format!("bad length in reply header {header:?}")))
    };
    let (progress, len) = match words.as_slice() {
        ["ok", p @ ("0" | "1"), len] => (Some(*p == "1"), len_of(len)?),
        ["refused", len] => (None, len_of(len)?),
        _ => return Err(bad(format!("bad reply header {header:?}"))),
    };
    let mut body = vec![0; len];
    r.read_exact(&mut body)?;
    let body = String::from_utf8(body).map_err(|_| bad("reply body is not UTF-8".into()))?;
    Ok(match progress {
        Some(progress) => Reply::Ran {
            progress,
            text: body,
        },
        None => Reply::Refused { reason: body },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_is_header_then_body() {
        let mut out = vec![];
        write_request(&mut out, "opt_cse", "eu 1\n").unwrap();
        assert_eq!(out, b"run opt_cse 5\neu 1\n");
    }

    #[test]
    fn replies_round_trip() {
        let mut input: &[u8] = b"ok 1 5\neu 1\nrefused 6\nno way";
        assert_eq!(
            read_reply(&mut input).unwrap(),
            Reply::Ran {
                progress: true,
                text: "eu 1\n".into()
            }
        );
        assert_eq!(
            read_reply(&mut input).unwrap(),
            Reply::Refused {
                reason: "no way".into()
            }
        );
        assert_eq!(
            read_reply(&mut input).unwrap_err().kind(),
            io::ErrorKind::UnexpectedEof
        );
    }

    #[test]
    fn truncated_or_garbled_replies_are_errors() {
        let mut short: &[u8] = b"ok 0 10\neu";
        assert_eq!(
            read_reply(&mut short).unwrap_err().kind(),
            io::ErrorKind::UnexpectedEof
        );
        let mut garbled: &[u8] = b"hello\n";
        assert_eq!(
            read_reply(&mut garbled).unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
    }
}
