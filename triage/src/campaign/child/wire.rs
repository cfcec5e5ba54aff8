//! The framed protocol between a campaign worker and its child process, over the child's
//! stdin and stdout. A frame is two little-endian `u32` lengths, a JSON header and raw
//! bytes (generator bytes going in, feature ids coming out: the bulk of a message, kept out
//! of JSON so that the boundary costs little per case). The parent sends a [`Start`], then
//! one [`Request`] per case; the child answers each with one [`Reply`] and exits at the end
//! of its input.

use crate::campaign::Settings;
use crate::campaign::case::{Found, Input, Tally};
use crate::campaign::intern::intern;
use crate::campaign::mutate::Mutation;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// A frame's header or payload is at most this long (a reply carries one program).
const MAX_PART: u32 = 256 << 20;

/// What a child needs to run cases: the campaign's settings, where to keep its phase and
/// its memory cap.
#[derive(Serialize, Deserialize)]
pub struct Start {
    pub settings: Settings,
    pub phase: PathBuf,
    /// Bytes of data segment and heap the child may use (`RLIMIT_DATA`).
    pub memory: u64,
}

/// One case; a mutated case's generator bytes travel as the frame's payload.
#[derive(Serialize, Deserialize)]
pub struct Request {
    pub seed: u64,
    /// The corpus entry mutated and the operators, for a mutated case.
    pub mutation: Option<(String, Vec<String>)>,
}

impl Request {
    /// The request for `input`, with its payload.
    pub fn of(input: &Input) -> (Request, &[u8]) {
        let request = Request {
            seed: input.seed,
            mutation: input.mutation.as_ref().map(|m| {
                let ops = m.ops.iter().map(|o| o.to_string()).collect();
                (m.parent.clone(), ops)
            }),
        };
        let payload = input.mutation.as_ref().map_or(&[][..], |m| &m.bytes[..]);
        (request, payload)
    }

    /// The case the request and its payload describe.
    pub fn input(self, payload: Vec<u8>) -> Input {
        Input {
            seed: self.seed,
            mutation: self.mutation.map(|(parent, ops)| {
                Arc::new(Mutation {
                    bytes: payload,
                    parent,
                    ops: ops.iter().map(|o| intern(o)).collect(),
                })
            }),
        }
    }
}

/// A case's result; its feature ids travel as the payload (little-endian `u64`s).
#[derive(Serialize, Deserialize)]
pub struct Reply {
    pub tally: Tally,
    pub found: Option<Found>,
}

impl Reply {
    /// The payload carrying the tally's features.
    pub fn payload(&self) -> Vec<u8> {
        self.tally
            .features
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect()
    }

    /// Puts back the features of `payload` and the mutation of `input` (which the parent
    /// keeps rather than receives back).
    pub fn complete(mut self, payload: &[u8], input: &Input) -> (Tally, Option<Found>) {
        self.tally.features = payload
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        if let Some(f) = &mut self.found {
            f.bytes = input.mutation.clone();
        }
        (self.tally, self.found)
    }
}

/// Writes one frame and flushes it.
pub fn write<T: Serialize>(w: &mut impl Write, header: &T, payload: &[u8]) -> io::Result<()> {
    let head = serde_json::to_vec(header).map_err(io::Error::other)?;
    w.write_all(&(head.len() as u32).to_le_bytes())?;
    w.write_all(&(payload.len() as u32).to_le_bytes())?;
    w.write_all(&head)?;
    w.write_all(payload)?;
    w.flush()
}

fn part(r: &mut impl Read, len: u32) -> io::Result<Vec<u8>> {
    if len > MAX_PART {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a frame part of {len} bytes"),
        ));
    }
    let mut buf = vec![0; len as usize];
    r.read_exact(&mut buf)?;
    Ok(buf)
}

/// Reads one frame: `Ok(None)` when the stream ends before a frame's lengths (between
/// frames, or a child cut off inside them).
pub fn read<T: DeserializeOwned>(r: &mut impl Read) -> io::Result<Option<(T, Vec<u8>)>> {
    let mut lens = [0u8; 8];
    match r.read_exact(&mut lens) {
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        other => other?,
    }
    let [a, b, c, d, e, f, g, h] = lens;
    let head = part(r, u32::from_le_bytes([a, b, c, d]))?;
    let payload = part(r, u32::from_le_bytes([e, f, g, h]))?;
    let header =
        serde_json::from_slice(&head).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    Ok(Some((header, payload)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mutated_request_and_a_reply_survive_the_trip() {
        let input = Input {
            seed: 9,
            mutation: Some(Arc::new(Mutation {
                bytes: vec![1, 2, 3, 250],
                parent: "00ff".into(),
                ops: vec!["splice", "bit-flip"],
            })),
        };
        let (request, payload) = Request::of(&input);
        let mut buf = vec![];
        write(&mut buf, &request, payload).unwrap();
        let (back, bytes): (Request, Vec<u8>) = read(&mut &buf[..]).unwrap().unwrap();
        assert_eq!(back.input(bytes), input);

        let reply = Reply {
            tally: Tally {
                outcome: "pass",
                device: Some("skl"),
                opcodes: vec!["mov", "add", "mov"],
                features: vec![7, u64::MAX],
                used: 40,
                ..Tally::default()
            },
            found: None,
        };
        let mut buf = vec![];
        write(&mut buf, &reply, &reply.payload()).unwrap();
        let mut r = &buf[..];
        let (back, payload): (Reply, Vec<u8>) = read(&mut r).unwrap().unwrap();
        let (tally, found) = back.complete(&payload, &input);
        assert_eq!(tally.features, vec![7, u64::MAX]);
        assert_eq!(
            (tally.outcome, tally.device, tally.used),
            ("pass", Some("skl"), 40)
        );
        let mut opcodes = tally.opcodes.clone();
        opcodes.sort_unstable();
        assert_eq!(opcodes, vec!["add", "mov", "mov"]);
        assert!(found.is_none());
        // A failure travels with its program.
        let g = oracle::generator::from_seed(3, &Default::default());
        let found = Found {
            seed: 3,
            kind: "mismatch".into(),
            signature: "mismatch/opt_cse/MOV".into(),
            unreduced_key: "k".into(),
            alike: "a".into(),
            culprit_pass: Some("opt_cse".into()),
            without_zoo_bug: Some(false),
            program: Some(g.program.clone()),
            head: "# eufuzz reproducer\n".into(),
            body: String::new(),
            reducible: true,
            bytes: None,
        };
        let reply = Reply {
            tally: Tally::default(),
            found: Some(found),
        };
        let mut with_program = vec![];
        write(&mut with_program, &reply, &reply.payload()).unwrap();
        let (back, payload): (Reply, Vec<u8>) = read(&mut &with_program[..]).unwrap().unwrap();
        let (_, found) = back.complete(&payload, &input);
        let found = found.unwrap();
        assert_eq!(found.program, Some(g.program));
        assert_eq!(found.bytes, input.mutation);
        // The stream ends cleanly between frames, not inside one.
        assert!(read::<Reply>(&mut r).unwrap().is_none());
        assert!(read::<Reply>(&mut &buf[..5]).unwrap().is_none());
        assert!(read::<Reply>(&mut &buf[..12]).is_err());
    }
}
