//! What a run produces: the observable behaviour the oracle compares, plus diagnostics.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a run ended.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    /// Every thread ran to its end (EOT or past its last instruction).
    Completed,
    /// The step limit was reached (a hang, or a loop that needs more fuel).
    OutOfFuel { steps: u64 },
    /// More output writes than the run's limit (`RunConfig::max_writes`) were recorded:
    /// a loop that writes and does not end, stopped before its records fill memory.
    WriteLimit { writes: u64 },
    /// The emulator could not execute the program (a VGRF in hardware code, an access
    /// outside the register space, unbalanced control flow...).
    Fault {
        thread: u32,
        ip: Option<usize>,
        message: String,
    },
}

/// One channel of a render-target write.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ChannelColor {
    pub channel: u32,
    /// One dword per component.
    pub values: Vec<u32>,
    /// Per component, a 4-bit mask of which bytes are defined (0xf = all).
    pub defined: Vec<u8>,
    /// Per component, a 4-bit mask of which bytes belong to a NaN that a float operation
    /// produced (its payload is the operation's choice; see `compare.rs`).
    #[serde(default)]
    pub float_nan: Vec<u8>,
}

/// A render-target write as the pixel backend would receive it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RtWrite {
    pub target: u8,
    pub components: u8,
    /// Enabled channels only, in channel order.
    pub channels: Vec<ChannelColor>,
    pub eot: bool,
}

/// One output slot of a vec4-stage URB write (`urb_write_logical` or its hardware SEND):
/// what each written vertex sent, as the vertex fetch of the next stage would receive it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct UrbWrite {
    pub slot: u8,
    /// Written vertices only, in order. `channel` is the vertex (0 or 1); `values` its
    /// four dwords: x, y, z, w of a 32-bit vec4, or for a dvec4 slot the low and high
    /// dwords of two DF components (x, y in the first slot, z, w in the second).
    pub vertices: Vec<ChannelColor>,
    pub eot: bool,
}

/// What one thread made observable.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct ThreadResult {
    pub rt_writes: Vec<RtWrite>,
    /// Vec4-stage outputs, one entry per slot written, in order.
    #[serde(default)]
    pub urb_writes: Vec<UrbWrite>,
    /// Whether the thread ended with an EOT message.
    pub eot: bool,
}

/// Final contents of a buffer (shared by all threads).
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct BufferState {
    pub bytes: Vec<u8>,
    /// One flag per byte: 0 undefined, 1 defined, 3 defined and part of a NaN that a float
    /// operation produced (bit 0 alone says defined).
    pub defined: Vec<u8>,
}

/// Memory a stray write lands in.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum StrayTarget {
    /// A surface the inputs provide no buffer for, or past the end of the buffer they provide.
    Surface { surface: u8 },
    /// Scratch outside the writing thread's own slot (or outside the scratch buffer), where
    /// another thread or the next shader could see it. Offsets are from the scratch base.
    Scratch,
}

/// A write to memory the run's inputs do not cover: kept (not dropped) so that a write one
/// program makes and the other does not is a difference.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct StrayWrite {
    pub target: StrayTarget,
    pub thread: u32,
    /// Byte offset; `None` for a write through an undefined address (it could be anywhere).
    pub offset: Option<u64>,
    pub bytes: Vec<u8>,
    /// One flag per byte, as in [`BufferState::defined`].
    pub defined: Vec<u8>,
}

/// Kinds of things worth telling the user about a run.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiagKind {
    /// An IF/WHILE/BREAK/CONTINUE/HALT decided by an undefined flag bit (treated as false).
    UndefinedBranch,
    /// A message address computed from undefined data.
    UndefinedAddress,
    /// A buffer or scratch access outside the memory (reads undefined, writes dropped).
    OutOfBounds,
    /// Strict mode: the instruction breaks a hardware restriction; its result is undefined.
    HardwareRestriction,
}

/// A diagnostic at a thread and instruction.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Diagnostic {
    pub kind: DiagKind,
    pub thread: u32,
    pub ip: usize,
    /// The restriction rule's kebab-case name, for hardware restrictions.
    pub rule: Option<String>,
    pub message: String,
}

/// Everything a run produces.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RunResult {
    pub outcome: Outcome,
    pub threads: Vec<ThreadResult>,
    pub buffers: BTreeMap<u8, BufferState>,
    /// Writes outside the memory the inputs provide, in the order they happened.
    #[serde(default)]
    pub stray_writes: Vec<StrayWrite>,
    pub diagnostics: Vec<Diagnostic>,
    /// Instructions executed, over all threads.
    pub steps: u64,
    /// Channel-operations executed (instructions × channels they ran for), for benchmarks.
    pub channel_ops: u64,
}

impl RunResult {
    /// Render-target and URB messages and stray writes recorded: what
    /// `RunConfig::max_writes` limits.
    pub fn writes(&self) -> u64 {
        let messages: usize = self
            .threads
            .iter()
            .map(|t| t.rt_writes.len() + t.urb_writes.len())
            .sum();
        (messages + self.stray_writes.len()) as u64
    }

    /// Whether a branch depended on an undefined value (the oracle discards such runs).
    pub fn branched_on_undefined(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.kind == DiagKind::UndefinedBranch)
    }
}
