//! The `.eu` text form: a readable, exactly round-tripping rendering of [`Program`]s, close to
//! Mesa's printed IR. Every reproducer, corpus file and report uses it.
//!
//! ```text
//! eu 1                      # version line: lets old corpora be migrated
//! target skl
//! dispatch 16
//! threads 1
//! vgrf v0 2                 # size in 32-byte registers, declared in order
//!
//! START B0
//!     mov(16) v0:F, 1.5:F
//!     cmp.l.f0.0(16) null:F, v0:F, attr0:F
//!     (+f0.0) sel(16) v0:F, v0:F, 0.0:F
//!     mov(8) v0+32:F, g2.1<0;1,0>:F { 2Q NoMask }
//! END B0
//! ```
//!
//! [`Program`]: crate::program::Program

mod input_sites;
mod parse;
mod print;

pub use parse::{ParseError, parse_document, parse_inputs, parse_program};
pub use print::{
    TEXT_VERSION, print_document, print_imm, print_inputs, print_inst, print_program,
    print_program_with_cycles, print_reg,
};

use crate::program::Program;
use std::collections::BTreeMap;

/// Comments of a `.eu` file, anchored to what follows them so that reformatting keeps every
/// note a person wrote. Texts exclude the leading `#`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Comments {
    /// Comment lines before a header line, keyed by the line (`eu`, `target`, `dispatch`,
    /// `threads`, `uniforms`, `attrN`, `vN`).
    pub before_header: BTreeMap<String, Vec<String>>,
    /// Comment at the end of a header line.
    pub trailing_header: BTreeMap<String, String>,
    /// Comment lines before `START Bn`.
    pub before_block: BTreeMap<usize, Vec<String>>,
    /// Comment at the end of the `START Bn` line.
    pub trailing_start: BTreeMap<usize, String>,
    /// Comment lines before the instruction at this ip.
    pub before_inst: BTreeMap<usize, Vec<String>>,
    /// Comment at the end of the instruction's line.
    pub trailing_inst: BTreeMap<usize, String>,
    /// Comment lines before `END Bn`.
    pub before_end: BTreeMap<usize, Vec<String>>,
    /// Comment at the end of the `END Bn` line.
    pub trailing_end: BTreeMap<usize, String>,
    /// Comment lines before the INPUTS section.
    pub before_inputs: Option<Vec<String>>,
    /// Comment lines after the last block (or the inputs).
    pub trailer: Vec<String>,
}

impl Comments {
    fn anchor_header(&mut self, key: &str, pending: &mut Vec<String>, trailing: Option<String>) {
        if !pending.is_empty() {
            self.before_header
                .entry(key.to_string())
                .or_default()
                .append(pending);
        }
        if let Some(t) = trailing {
            self.trailing_header.insert(key.to_string(), t);
        }
    }
}

/// A program together with the comments of the file it came from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Document {
    pub program: Program,
    pub comments: Comments,
    /// The 1-based source line of each instruction, by ip (empty for built programs).
    pub inst_lines: Vec<usize>,
}
