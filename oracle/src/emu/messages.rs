//! Messages to shared functions: render-target writes, untyped buffer access, scratch,
//! texture sampling and LOAD_PAYLOAD — in logical form and as hardware SENDs.
//!
//! # Hardware SEND payload formats
//! `rpc` = registers per component = ⌈exec_size × 4 / 32⌉; "component k" is `rpc` registers
//! holding one dword per channel (channel c at dword c). Payload 1 (`mlen` registers) and
//! payload 2 (`ex_mlen` registers) are concatenated; with `header`, the first register of
//! payload 1 is a header.
//!
//! | message | payload (after the header) | returns (`rlen` registers) |
//! | --- | --- | --- |
//! | `rt_write target=T` | colour components 0..n (n = data registers / rpc ≤ 4) | nothing |
//! | `untyped_read surface=S comps=C` | one address component (byte offsets) | C components |
//! | `untyped_write surface=S comps=C` | one address component, then C data components | nothing |
//! | `scratch_read` (header required) | — | `rlen` registers of scratch |
//! | `scratch_write` (header required) | the data registers | nothing |
//! | `sample surface=S` | u component, v component (F) | 4 components (F) |
//!
//! Scratch header: dword 2 = offset in OWords (16 bytes), dword 3 bits 3:0 = per-thread size
//! encoding (the device's, as in g0.3), dword 5 bits 31:10 = scratch base (as in g0.5). The
//! hardware address is `base + FFTID × size(encoding) + offset`, FFTID being the thread's own.
//! Scratch data is per-channel: dword j of the data belongs to channel j mod exec_size, so a
//! masked access only touches enabled channels' dwords; a NoMask access moves every byte.
//!
//! Buffers: addresses are byte offsets; reads outside the buffer are undefined (reported).
//! Writes to a surface the inputs provide no buffer for, or past the end of the buffer they
//! provide, are kept as stray writes in the run result (the real surface may be larger, and
//! another program sees them), and so are scratch writes outside the writing thread's own
//! slot; `compare.rs` decides what they mean. An undefined address reads undefined data, and
//! a write through one makes the whole buffer undefined (it could have landed anywhere).
//!
//! Byte flags (`Space::def`) keep their NaN mark through every copy: payload reads, buffer
//! and scratch reads and writes, render-target colours.
//!
//! Texture `S`: a 16×16 procedural texture sampled nearest with wrap-around at
//! `x = ⌊frac(u)·16⌋`, `y = ⌊frac(v)·16⌋`; non-finite coordinates give zero. Its format comes
//! from the inputs (`texture S float` in the INPUTS section; default `unorm`). Texels are a
//! function of (S, x, y) only, never of buffer contents, so the same coordinates give the
//! same bits on every run and device (the documents define no texture contents [P?]; this is
//! the test fixture's choice):
//!
//! | format | component 0 | 1 | 2 | 3 |
//! | --- | --- | --- | --- | --- |
//! | `unorm` | `((x ^ y ^ S) & 15) / 15` | `x / 15` | `y / 15` | `1.0` |
//! | `float` | `float_texel(S, x, y, 0)` | `…, 1)` | `…, 2)` | `…, 3)` |
//!
//! `float_texel` hashes (S, x, y, component): 3 in 8 texels are one of
//! [`FLOAT_TEXEL_SPECIALS`] (±0.0, ±1, ±Inf, NaN, ±denormal, ±FLT_MAX, values > 1 and < 0),
//! the rest `k / 1000` for an integer k in −4000..=4000. A unorm texel lies in [0, 1], so a
//! saturate after a sample is invisible there; a float surface is what exposes a dropped one.

use super::decode::DInst;
use super::exec::{Ctx, diag, enables, read_raw, read_raw_bytes};
use super::layout::SCRATCH_BASE;
use super::operand::{Loc, Operand};
use super::result::{ChannelColor, DiagKind, Diagnostic, RtWrite, StrayTarget, StrayWrite};
use super::state::{FLOAT_NAN, Space, Thread, is_defined};
use compiler::inputs::TextureFormat;
use compiler::inst::{MsgDesc, MsgKind};
use compiler::reg::REG_SIZE;
use compiler::{Opcode, Reg};
use std::collections::BTreeMap;

/// Memory shared by every thread of a run.
pub struct Memory {
    pub buffers: BTreeMap<u8, Space>,
    /// Per buffer byte: 0 written by no thread, t + 1 written by thread t only, `SHARED`
    /// written by several threads (a race: undefined from then on).
    pub owners: BTreeMap<u8, Vec<u8>>,
    /// The writers of a first run of the same program (empty for one thread): a byte
    /// another thread writes at any time is racy for this thread from the start.
    pub other_writers: BTreeMap<u8, Vec<u8>>,
    /// Scratch bytes from `SCRATCH_BASE` on.
    pub scratch: Space,
    /// Format of each sampled surface (absent: unorm).
    pub textures: BTreeMap<u8, TextureFormat>,
    /// Writes outside the memory the inputs provide, in order.
    pub stray: Vec<StrayWrite>,
}

/// What executing a message did to the thread's flow.
pub struct MessageEffect {
    pub channels: u32,
    pub rt_write: Option<RtWrite>,
    /// Vec4-stage output slots written (urb.rs).
    pub urb_writes: Vec<super::result::UrbWrite>,
}

/// Bytes and their defined flags.
/// Why a message-like instruction cannot run at all: the run faults at it (the verdict is
/// an emulator fault, not a wrong value), so each names what the program got wrong.
#[derive(Debug, thiserror::Error)]
pub enum MessageError {
    #[error("message reads bytes {start}..{end} outside the register space")]
    ReadOutside { start: usize, end: usize },
    #[error("{} needs register operands", .0.name())]
    NeedsRegisterOperands(Opcode),
    #[error("message operand reaches outside the register space")]
    OperandOutside,
    #[error("message destination outside the register space")]
    DestinationOutside,
    #[error("urb_write_logical needs a register operand")]
    UrbWriteNotRegister,
    #[error("{} is not a message", .0.name())]
    NotAMessage(Opcode),
    #[error("LOAD_PAYLOAD needs a register destination")]
    LoadPayloadDstNotRegister,
    #[error("LOAD_PAYLOAD writes outside the register space")]
    LoadPayloadOutside,
    #[error("SEND payload must be a register")]
    SendPayloadNotRegister,
    #[error("SEND without a message descriptor")]
    SendWithoutDescriptor,
    #[error("SEND writes back outside the register space")]
    SendWriteBackOutside,
}

type Bytes = (Vec<u8>, Vec<u8>);
/// A view of bytes and their defined flags (parts of a payload, without copying them).
type ByteView<'a> = (&'a [u8], &'a [u8]);

fn read_block(t: &Thread, addr: usize, len: usize) -> Result<Bytes, MessageError> {
    if !t.space.contains(addr as u64, len as u64) {
        return Err(MessageError::ReadOutside {
            start: addr,
            end: addr + len,
        });
    }
    Ok((
        t.space.bytes[addr..addr + len].to_vec(),
        t.space.def[addr..addr + len].to_vec(),
    ))
}

/// Which of dword `i`'s bytes are defined, as a 4-bit mask (colour outputs keep bytes).
fn dword_def_mask(b: ByteView, i: usize) -> u8 {
    b.1.get(i * 4..i * 4 + 4).map_or(0, |d| {
        d.iter()
            .enumerate()
            .fold(0, |m, (k, &x)| m | (is_defined(x) as u8) << k)
    })
}

/// The defined and float-NaN masks of colour dword `i`, both empty for a channel whose
/// result is not `known`.
fn colour_masks(b: ByteView, i: usize, known: bool) -> (u8, u8) {
    if known {
        (dword_def_mask(b, i), dword_nan_mask(b, i))
    } else {
        (0, 0)
    }
}

/// Which of dword `i`'s bytes carry the float-NaN mark, as a 4-bit mask.
fn dword_nan_mask(b: ByteView, i: usize) -> u8 {
    b.1.get(i * 4..i * 4 + 4).map_or(0, |d| {
        d.iter()
            .enumerate()
            .fold(0, |m, (k, &x)| m | ((x == FLOAT_NAN) as u8) << k)
    })
}

/// Dword `i` with its byte flags, all cleared unless every byte is defined (a message
/// moves whole dwords).
fn flagged_dword(b: ByteView, i: usize) -> (u32, [u8; 4]) {
    match (b.0.get(i * 4..i * 4 + 4), b.1.get(i * 4..i * 4 + 4)) {
        (Some(v), Some(d)) => (
            u32::from_le_bytes([v[0], v[1], v[2], v[3]]),
            whole([d[0], d[1], d[2], d[3]], true),
        ),
        _ => (0, [0; 4]),
    }
}

/// `flags` if every byte is defined and `known`, else all undefined.
fn whole(flags: [u8; 4], known: bool) -> [u8; 4] {
    if known && flags.iter().all(|&f| is_defined(f)) {
        flags
    } else {
        [0; 4]
    }
}

/// The dword at `addr` of a register space with its byte flags (see [`whole`]).
fn space_dword(s: &Space, addr: usize) -> (u32, [u8; 4]) {
    flagged_dword((&s.bytes[addr..addr + 4], &s.def[addr..addr + 4]), 0)
}

fn dword(b: ByteView, i: usize) -> (u32, bool) {
    match (b.0.get(i * 4..i * 4 + 4), b.1.get(i * 4..i * 4 + 4)) {
        (Some(v), Some(d)) => (
            u32::from_le_bytes([v[0], v[1], v[2], v[3]]),
            d.iter().all(|&x| x != 0),
        ),
        _ => (0, false),
    }
}

/// Per-channel access to component `k` of a logical message operand.
struct Components<'a> {
    offs: &'a [u32],
    comp_bytes: u32,
}

impl Components<'_> {
    fn addr(&self, c: u32, k: u32) -> usize {
        (self.offs[c as usize] + k * self.comp_bytes) as usize
    }
}

fn components<'a>(d: &'a DInst, reg: &Reg, loc: &'a Loc) -> Result<Components<'a>, MessageError> {
    match loc {
        Loc::Space(offs) => Ok(Components {
            offs,
            comp_bytes: d.inst.component_bytes(reg),
        }),
        _ => Err(MessageError::NeedsRegisterOperands(d.inst.op)),
    }
}

fn check_span(
    t: &Thread,
    comps: &Components,
    n: u32,
    k: u32,
    size: usize,
) -> Result<(), MessageError> {
    for c in 0..n {
        for kk in 0..k {
            if !t.space.contains(comps.addr(c, kk) as u64, size as u64) {
                return Err(MessageError::OperandOutside);
            }
        }
    }
    Ok(())
}

/// Owner mark of buffer bytes touched by several threads.
pub const SHARED: u8 = u8::MAX;

/// Claims buffer bytes for a write by `thread`; returns whether they were (and stay) private
/// to it. Bytes written by two threads are a race: undefined whatever the schedule.
fn claim(owners: &mut [u8], at: usize, len: usize, thread: u32) -> bool {
    let me = (thread + 1).min(SHARED as u32 - 1) as u8;
    let mut private = true;
    for o in &mut owners[at..at + len] {
        if *o == 0 || *o == me {
            *o = me;
        } else {
            *o = SHARED;
            private = false;
        }
    }
    private
}

/// Whether no thread but `thread` writes any of `len` bytes at `at` (in this run so far
/// or in the first run).
fn unshared(mem: &Memory, surface: u8, at: usize, len: usize, thread: u32) -> bool {
    let me = (thread + 1).min(SHARED as u32 - 1) as u8;
    let mine = |map: &BTreeMap<u8, Vec<u8>>| {
        map.get(&surface)
            .is_none_or(|o| o[at..at + len].iter().all(|&w| w == 0 || w == me))
    };
    mine(&mem.owners) && mine(&mem.other_writers)
}

/// Reads one dword of buffer memory for `thread`: value and byte flags (undefined if
/// another thread writes it); out of bounds is `None`.
fn buffer_read(mem: &Memory, surface: u8, addr: u64, thread: u32) -> Option<(u32, [u8; 4])> {
    let buf = mem.buffers.get(&surface)?;
    if !buf.contains(addr, 4) {
        return None;
    }
    let (v, flags) = space_dword(buf, addr as usize);
    let private = unshared(mem, surface, addr as usize, 4, thread);
    Some((v, whole(flags, private)))
}

/// The special values a float texel can hold (see the module doc table).
pub const FLOAT_TEXEL_SPECIALS: [f32; 16] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    2.0,
    -0.5,
    1.5,
    65536.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    1.0e-40,
    -1.0e-40,
    f32::MAX,
    -f32::MAX,
    0.5,
];

/// Component `k` of texel (x, y) of float surface `surface`: a fixed hash of the four
/// numbers picks a special value or a float in [−4, 4].
fn float_texel(surface: u32, x: u32, y: u32, k: u32) -> f32 {
    let mut h = surface
        .wrapping_mul(0x9e37_79b9)
        .wrapping_add(x << 16 | y << 8 | k);
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    if h % 8 < 3 {
        FLOAT_TEXEL_SPECIALS[(h >> 3) as usize % FLOAT_TEXEL_SPECIALS.len()]
    } else {
        ((h >> 3) % 8001) as f32 / 1000.0 - 4.0
    }
}

/// The texel a sample of `surface` at (u, v) returns (the module doc table).
fn texel(surface: u32, format: TextureFormat, u: f32, v: f32) -> [f32; 4] {
    if !u.is_finite() || !v.is_finite() {
        return [0.0; 4];
    }
    let wrap = |x: f32| ((x - x.floor()) * 16.0).floor().clamp(0.0, 15.0) as u32;
    let (x, y) = (wrap(u), wrap(v));
    match format {
        TextureFormat::Unorm => [
            ((x ^ y ^ surface) & 15) as f32 / 15.0,
            x as f32 / 15.0,
            y as f32 / 15.0,
            1.0,
        ],
        TextureFormat::Float => std::array::from_fn(|k| float_texel(surface, x, y, k as u32)),
    }
}

/// The format of texture `surface` in this run (`Unorm` for indices no input can name).
fn texture_format(mem: &Memory, surface: u32) -> TextureFormat {
    u8::try_from(surface)
        .ok()
        .and_then(|s| mem.textures.get(&s).copied())
        .unwrap_or_default()
}

struct Ctxt<'a, 'b> {
    t: &'a mut Thread,
    mem: &'a mut Memory,
    diags: &'a mut Vec<Diagnostic>,
    ctx: &'a Ctx<'b>,
    ip: usize,
}

impl Ctxt<'_, '_> {
    fn note(&mut self, kind: DiagKind, msg: String) {
        diag(self.diags, kind, self.t, self.ip, msg);
    }

    /// Reads `comps` dwords per channel from buffer `surface` at per-channel `addrs`.
    fn untyped_read(
        &mut self,
        surface: u8,
        addrs: &[(u32, bool)],
        comps: u32,
    ) -> Vec<Vec<(u32, [u8; 4])>> {
        let mut out = vec![];
        for &(addr, adef) in addrs {
            let mut vals = vec![];
            for k in 0..comps {
                let a = addr as u64 + 4 * k as u64;
                let v = if !adef {
                    (0, [0; 4])
                } else {
                    match buffer_read(self.mem, surface, a, self.t.index) {
                        Some(v) => v,
                        None => {
                            self.note(
                                DiagKind::OutOfBounds,
                                format!("read of buffer {surface} at byte {a} is out of bounds"),
                            );
                            (0xdead_beef, [0; 4])
                        }
                    }
                };
                vals.push(v);
            }
            if !adef {
                self.note(
                    DiagKind::UndefinedAddress,
                    "untyped read from an undefined address".into(),
                );
            }
            out.push(vals);
        }
        out
    }

    /// Records a write outside the memory the inputs provide.
    fn stray(&mut self, target: StrayTarget, offset: Option<u64>, bytes: &[u8], defined: &[u8]) {
        self.mem.stray.push(StrayWrite {
            target,
            thread: self.t.index,
            offset,
            bytes: bytes.to_vec(),
            defined: defined.to_vec(),
        });
    }

    /// Writes `data` (dwords with byte flags) to buffer `surface` at `addr`.
    fn untyped_write(&mut self, surface: u8, addr: (u32, bool), data: &[(u32, [u8; 4])]) {
        let thread = self.t.index;
        let (Some(buf), Some(owners)) = (
            self.mem.buffers.get_mut(&surface),
            self.mem.owners.get_mut(&surface),
        ) else {
            self.note(
                DiagKind::OutOfBounds,
                format!("write to surface {surface}, which has no buffer (kept as a stray write)"),
            );
            let target = StrayTarget::Surface { surface };
            for (k, (v, flags)) in data.iter().enumerate() {
                let at = addr.1.then_some(addr.0 as u64 + 4 * k as u64);
                self.stray(target, at, &v.to_le_bytes(), flags);
            }
            return;
        };
        if !addr.1 {
            let len = buf.len();
            buf.undefine(0, len);
            owners.fill(SHARED);
            self.note(
                DiagKind::UndefinedAddress,
                format!("write to buffer {surface} through an undefined address"),
            );
            return;
        }
        let me = (thread + 1).min(SHARED as u32 - 1) as u8;
        let mut beyond = vec![];
        for (k, &(v, flags)) in data.iter().enumerate() {
            let a = addr.0 as u64 + 4 * k as u64;
            if !buf.contains(a, 4) {
                beyond.push((a, v, flags));
                continue;
            }
            let private = claim(owners, a as usize, 4, thread)
                && self.mem.other_writers.get(&surface).is_none_or(|o| {
                    o[a as usize..a as usize + 4]
                        .iter()
                        .all(|&w| w == 0 || w == me)
                });
            buf.write_bytes(a as usize, &v.to_le_bytes(), &whole(flags, private));
        }
        if let Some(&(a, _, _)) = beyond.first() {
            self.note(
                DiagKind::OutOfBounds,
                format!(
                    "write to buffer {surface} at byte {a} is past its end (kept as a stray write)"
                ),
            );
        }
        for (a, v, flags) in beyond {
            let target = StrayTarget::Surface { surface };
            self.stray(target, Some(a), &v.to_le_bytes(), &flags);
        }
    }

    /// Scratch byte range for `len` bytes at hardware address `addr`, if inside scratch.
    fn scratch_range(&mut self, addr: u64, len: usize) -> Option<usize> {
        let rel = addr.checked_sub(SCRATCH_BASE as u64)?;
        if self.mem.scratch.contains(rel, len as u64) {
            Some(rel as usize)
        } else {
            self.note(
                DiagKind::OutOfBounds,
                format!("scratch access at address 0x{addr:x} is outside the scratch buffer"),
            );
            None
        }
    }

    /// `data_len` bytes of scratch from hardware address `addr` (undefined if the address
    /// is, or lies outside the scratch buffer).
    fn scratch_read(&mut self, addr: Option<u64>, data_len: usize) -> Bytes {
        let mut bytes = vec![0u8; data_len];
        let mut def = vec![0u8; data_len];
        if let Some(rel) = self.scratch_source(addr, data_len) {
            bytes.copy_from_slice(&self.mem.scratch.bytes[rel..rel + data_len]);
            def.copy_from_slice(&self.mem.scratch.def[rel..rel + data_len]);
        }
        (bytes, def)
    }

    /// Where in the scratch buffer `data_len` bytes at hardware address `addr` start, or
    /// `None` (noted) if the address is undefined or the bytes lie outside the buffer.
    fn scratch_source(&mut self, addr: Option<u64>, data_len: usize) -> Option<usize> {
        let rel = addr.and_then(|a| self.scratch_range(a, data_len));
        if addr.is_none() {
            self.note(
                DiagKind::UndefinedAddress,
                "scratch read from an undefined address".into(),
            );
        }
        rel
    }

    fn scratch_write(&mut self, addr: Option<u64>, data: ByteView, n: u32, mask: u32) {
        let Some(a) = addr else {
            let len = self.mem.scratch.len();
            self.mem.scratch.undefine(0, len);
            self.stray(StrayTarget::Scratch, None, data.0, data.1);
            self.note(
                DiagKind::UndefinedAddress,
                "scratch write through an undefined address".into(),
            );
            return;
        };
        for j in 0..data.0.len() / 4 {
            if mask >> (j as u32 % n.max(1)) & 1 != 0 {
                let span = j * 4..j * 4 + 4;
                self.scratch_store(a + j as u64 * 4, &data.0[span.clone()], &data.1[span]);
            }
        }
    }

    /// Stores bytes at hardware scratch address `addr`: into the scratch buffer where they
    /// fit, and also as a stray write where they leave the thread's own slot (the slots are
    /// `logical_scratch_region` bytes apart), since another thread could see them there.
    fn scratch_store(&mut self, addr: u64, bytes: &[u8], flags: &[u8]) {
        let len = bytes.len() as u64;
        let rel = addr.wrapping_sub(SCRATCH_BASE as u64);
        let region = self.t.logical_scratch_region as u64;
        let slot = self.t.fftid as u64 * region;
        let own = rel >= slot && rel.checked_add(len).is_some_and(|e| e <= slot + region);
        if addr >= SCRATCH_BASE as u64 && self.mem.scratch.contains(rel, len) {
            self.mem.scratch.write_bytes(rel as usize, bytes, flags);
        } else {
            self.note(
                DiagKind::OutOfBounds,
                format!("scratch write at address 0x{addr:x} is outside the scratch buffer"),
            );
        }
        if !own {
            self.stray(StrayTarget::Scratch, Some(rel), bytes, flags);
        }
    }

    /// Copies `len` bytes of per-channel scratch data from `src` (undefined zeros if `None`)
    /// into the register space at `dst_addr`, honouring the channel mask at dword
    /// granularity; a channel whose result is not `known` lands undefined.
    fn land_scratch(
        &mut self,
        dst_addr: usize,
        src: Option<usize>,
        len: usize,
        (n, mask): (u32, u32),
        known: impl Fn(u32) -> bool,
    ) -> Result<(), MessageError> {
        if !self.t.space.contains(dst_addr as u64, len as u64) {
            return Err(MessageError::DestinationOutside);
        }
        let (space, scratch) = (&mut self.t.space, &self.mem.scratch);
        for j in 0..len / 4 {
            let c = j as u32 % n.max(1);
            if mask >> c & 1 == 0 {
                continue;
            }
            let at = dst_addr + j * 4;
            match src {
                Some(rel) => {
                    let from = rel + j * 4;
                    space.bytes[at..at + 4].copy_from_slice(&scratch.bytes[from..from + 4]);
                    let k = known(c);
                    for (d, &s) in space.def[at..at + 4]
                        .iter_mut()
                        .zip(&scratch.def[from..from + 4])
                    {
                        *d = if k { s } else { 0 };
                    }
                }
                None => space.write_bytes(at, &[0; 4], &[0; 4]),
            }
        }
        Ok(())
    }

    /// Address of a logical scratch access in the thread's private region.
    fn logical_scratch_addr(&self, offset: u64) -> u64 {
        SCRATCH_BASE as u64 + self.t.fftid as u64 * self.t.logical_scratch_region as u64 + offset
    }
}

/// Executes a message-like instruction (logical sends, scratch, LOAD_PAYLOAD, SEND).
pub fn exec_message(
    t: &mut Thread,
    d: &DInst,
    ip: usize,
    ctx: &Ctx,
    mem: &mut Memory,
    diags: &mut Vec<Diagnostic>,
) -> Result<MessageEffect, MessageError> {
    let e = enables(t, d, ctx.dispatch_width);
    let violated = !d.violations.is_empty();
    let mask = e.exec;
    let n = d.inst.exec_size as u32;
    let mut cx = Ctxt {
        t,
        mem,
        diags,
        ctx,
        ip,
    };
    let mut effect = MessageEffect {
        channels: mask.count_ones(),
        rt_write: None,
        urb_writes: vec![],
    };
    let vertex_enables = super::urb::VertexEnables {
        exec: mask,
        unknown: e.unknown,
        violated,
    };
    let inst = &d.inst;
    let known = |c: u32| e.unknown >> c & 1 == 0 && !violated;
    match inst.op {
        Opcode::FbWriteLogical => {
            let comps_n = inst.message_components();
            let target = inst.imm_src(2).unwrap_or(0) as u8;
            let color = components(d, &inst.srcs[0], &d.srcs[0].loc)?;
            check_span(cx.t, &color, n, comps_n, 4)?;
            let mut channels = vec![];
            for c in 0..n {
                if mask >> c & 1 == 0 {
                    continue;
                }
                let mut values = vec![];
                let mut defined = vec![];
                let mut float_nan = vec![];
                for k in 0..comps_n {
                    let at = color.addr(c, k);
                    values.push(cx.t.space.read(at, 4).0 as u32);
                    let view = (&cx.t.space.bytes[at..at + 4], &cx.t.space.def[at..at + 4]);
                    let (d, nan) = colour_masks(view, 0, known(c));
                    defined.push(d);
                    float_nan.push(nan);
                }
                channels.push(ChannelColor {
                    channel: inst.group as u32 + c,
                    values,
                    defined,
                    float_nan,
                });
            }
            effect.rt_write = Some(RtWrite {
                target,
                components: comps_n as u8,
                channels,
                eot: inst.eot,
            });
        }
        Opcode::UrbWriteLogical => {
            let values = inst.message_components() as usize;
            let elem = inst.srcs[0].ty.size() as usize;
            let Some(base) = super::operand::first_byte(&d.srcs[0]) else {
                return Err(MessageError::UrbWriteNotRegister);
            };
            let data = read_block(cx.t, base as usize, values * 8 * elem)?;
            let slots = super::urb::logical_slots((&data.0, &data.1), values, elem);
            let first = inst.imm_src(1).unwrap_or(0) as u8;
            effect.urb_writes =
                super::urb::records((&slots.0, &slots.1), first, vertex_enables, inst.eot);
        }
        Opcode::UntypedReadLogical | Opcode::UntypedWriteLogical => {
            let read = inst.op == Opcode::UntypedReadLogical;
            let surface = inst.imm_src(if read { 1 } else { 2 }).unwrap_or(0) as u8;
            let comps_n = inst.message_components();
            let addrs: Vec<(u32, bool)> = (0..n)
                .map(|c| {
                    let (v, def) = read_raw(cx.t, &d.srcs[0], c);
                    (v as u32, def)
                })
                .collect();
            if read {
                let dst = components(d, &inst.dst, &d.dst.loc)?;
                check_span(cx.t, &dst, n, comps_n, 4)?;
                let live: Vec<(u32, bool)> = (0..n)
                    .filter(|c| mask >> c & 1 != 0)
                    .map(|c| addrs[c as usize])
                    .collect();
                let results = cx.untyped_read(surface, &live, comps_n);
                for (c, vals) in (0..n).filter(|c| mask >> c & 1 != 0).zip(results) {
                    for (k, (v, flags)) in vals.into_iter().enumerate() {
                        cx.t.space.write_bytes(
                            dst.addr(c, k as u32),
                            &v.to_le_bytes(),
                            &whole(flags, known(c)),
                        );
                    }
                }
            } else {
                let data = components(d, &inst.srcs[1], &d.srcs[1].loc)?;
                check_span(cx.t, &data, n, comps_n, 4)?;
                for c in (0..n).filter(|c| mask >> c & 1 != 0) {
                    let vals: Vec<(u32, [u8; 4])> = (0..comps_n)
                        .map(|k| {
                            let (v, flags) = space_dword(&cx.t.space, data.addr(c, k));
                            (v, whole(flags, known(c)))
                        })
                        .collect();
                    let (a, adef) = addrs[c as usize];
                    cx.untyped_write(surface, (a, adef && known(c)), &vals);
                }
            }
        }
        Opcode::ScratchRead | Opcode::ScratchWrite => {
            let read = inst.op == Opcode::ScratchRead;
            let offset = inst.imm_src(if read { 0 } else { 1 }).unwrap_or(0);
            let (reg, loc) = if read {
                (&inst.dst, &d.dst.loc)
            } else {
                (&inst.srcs[0], &d.srcs[0].loc)
            };
            let size = reg.ty.size() as usize;
            let data_len = n as usize * size;
            let addr = cx.logical_scratch_addr(offset);
            let per_channel = components(d, reg, loc)?;
            check_span(cx.t, &per_channel, n, 1, size)?;
            if read {
                let data = cx.scratch_read(Some(addr), data_len);
                for c in (0..n).filter(|c| mask >> c & 1 != 0) {
                    let at = c as usize * size;
                    let def: Vec<u8> = data.1[at..at + size]
                        .iter()
                        .map(|&x| if known(c) { x } else { 0 })
                        .collect();
                    cx.t.space
                        .write_bytes(per_channel.addr(c, 0), &data.0[at..at + size], &def);
                }
            } else {
                let mut data: Bytes = (vec![0; data_len], vec![0; data_len]);
                for c in 0..n {
                    let a = per_channel.addr(c, 0);
                    let at = c as usize * size;
                    data.0[at..at + size].copy_from_slice(&cx.t.space.bytes[a..a + size]);
                    let k = known(c);
                    for (dst, src) in data.1[at..at + size]
                        .iter_mut()
                        .zip(&cx.t.space.def[a..a + size])
                    {
                        *dst = if k { *src } else { 0 };
                    }
                }
                // Per-channel elements of `size` bytes: mask at element granularity.
                for c in (0..n).filter(|c| mask >> c & 1 != 0) {
                    let at = c as usize * size;
                    cx.scratch_store(
                        addr + at as u64,
                        &data.0[at..at + size],
                        &data.1[at..at + size],
                    );
                }
            }
        }
        Opcode::TexLogical => {
            let surface = inst.imm_src(2).unwrap_or(0) as u32;
            let dst = components(d, &inst.dst, &d.dst.loc)?;
            check_span(cx.t, &dst, n, 4, 4)?;
            for c in (0..n).filter(|c| mask >> c & 1 != 0) {
                let (u, du) = read_raw(cx.t, &d.srcs[0], c);
                let (v, dv) = read_raw(cx.t, &d.srcs[1], c);
                let format = texture_format(cx.mem, surface);
                let (u, v) = (f32::from_bits(u as u32), f32::from_bits(v as u32));
                let rgba = texel(surface, format, u, v);
                for (k, x) in rgba.iter().enumerate() {
                    cx.t.space.write(
                        dst.addr(c, k as u32),
                        4,
                        x.to_bits() as u64,
                        du && dv && known(c),
                    );
                }
            }
        }
        Opcode::LoadPayload => load_payload(&mut cx, d, mask, &e)?,
        Opcode::Send => send(&mut cx, d, mask, &e, &mut effect)?,
        _ => return Err(MessageError::NotAMessage(inst.op)),
    }
    Ok(effect)
}

/// A LOAD_PAYLOAD header register: the eight UD channels of its source (decoded that way,
/// `decode::header_sources`) under NoMask; a null source leaves an undefined register.
fn header_register(t: &Thread, src: &Operand) -> Bytes {
    let mut bytes = vec![0; REG_SIZE as usize];
    let mut def = vec![0; REG_SIZE as usize];
    if !matches!(src.loc, Loc::Null) {
        for c in 0..8 {
            let (v, d) = read_raw_bytes(t, src, c);
            let at = c as usize * 4;
            bytes[at..at + 4].copy_from_slice(&(v as u32).to_le_bytes());
            def[at..at + 4].copy_from_slice(&d[..4]);
        }
    }
    (bytes, def)
}

/// LOAD_PAYLOAD: header sources are copied as whole registers regardless of the channel
/// mask; every other source is one component copied for enabled channels.
fn load_payload(
    cx: &mut Ctxt,
    d: &DInst,
    mask: u32,
    e: &super::exec::Enables,
) -> Result<(), MessageError> {
    let inst = &d.inst;
    let n = inst.exec_size as u32;
    let Some(dst_base) = super::operand::first_byte(&d.dst) else {
        return Err(MessageError::LoadPayloadDstNotRegister);
    };
    let header = inst.header_size as usize;
    let reg = REG_SIZE as usize;
    let mut at = dst_base as usize;
    for (i, src) in d.srcs.iter().enumerate() {
        if i < header {
            let bytes = header_register(cx.t, src);
            if !cx.t.space.contains(at as u64, reg as u64) {
                return Err(MessageError::LoadPayloadOutside);
            }
            cx.t.space.write_bytes(at, &bytes.0, &bytes.1);
            at += reg;
            continue;
        }
        let size = inst.dst.ty.size() as usize;
        let comp_bytes = inst.component_bytes(&inst.dst) as usize;
        let stride_bytes = comp_bytes / n.max(1) as usize;
        if !cx.t.space.contains(at as u64, comp_bytes as u64) {
            return Err(MessageError::LoadPayloadOutside);
        }
        for c in (0..n).filter(|c| mask >> c & 1 != 0) {
            let (v, mut def) = if matches!(src.loc, Loc::Null) {
                (0, [0; 8])
            } else {
                read_raw_bytes(cx.t, src, c)
            };
            let known = e.unknown >> c & 1 == 0 && d.violations.is_empty();
            if src.ty.size() as usize != size {
                // Not a byte-for-byte copy: defined only as a whole.
                let whole = def[..src.ty.size() as usize].iter().all(|&b| b != 0);
                def = [whole as u8; 8];
            }
            if !known {
                def = [0; 8];
            }
            cx.t.space.write_bytes(
                at + c as usize * stride_bytes,
                &v.to_le_bytes()[..size],
                &def[..size],
            );
        }
        at += comp_bytes;
    }
    Ok(())
}

/// Reads a register-aligned payload of `regs` registers starting at an operand.
fn payload(cx: &Ctxt, op: &super::operand::Operand, regs: u8) -> Result<Bytes, MessageError> {
    if regs == 0 {
        return Ok((vec![], vec![]));
    }
    let Some(a) = super::operand::first_byte(op) else {
        return Err(MessageError::SendPayloadNotRegister);
    };
    read_block(cx.t, a as usize, regs as usize * REG_SIZE as usize)
}

fn send(
    cx: &mut Ctxt,
    d: &DInst,
    mask: u32,
    e: &super::exec::Enables,
    effect: &mut MessageEffect,
) -> Result<(), MessageError> {
    let inst = &d.inst;
    let Some(MsgDesc {
        kind,
        mlen,
        ex_mlen,
        rlen,
        header,
    }) = inst.desc
    else {
        return Err(MessageError::SendWithoutDescriptor);
    };
    let n = inst.exec_size as u32;
    let rpc = (n as usize * 4).div_ceil(REG_SIZE as usize).max(1);
    let mut data = payload(cx, &d.srcs[0], mlen)?;
    let p2 = payload(cx, &d.srcs[1], ex_mlen)?;
    data.0.extend(p2.0);
    data.1.extend(p2.1);
    let hdr_regs = header as usize;
    let reg = REG_SIZE as usize;
    let body: ByteView = (
        data.0.get(hdr_regs * reg..).unwrap_or(&[]),
        data.1.get(hdr_regs * reg..).unwrap_or(&[]),
    );
    let known = |c: u32| e.unknown >> c & 1 == 0 && d.violations.is_empty();
    let comp_dword = |b: ByteView, k: usize, c: u32| dword(b, k * rpc * 8 + c as usize);
    let dst_base = super::operand::first_byte(&d.dst);
    let rlen_bytes = rlen as usize * reg;
    if let Some(base) = dst_base
        && rlen > 0
        && !cx.t.space.contains(base as u64, rlen_bytes as u64)
    {
        return Err(MessageError::SendWriteBackOutside);
    }
    let write_back_flagged = |cx: &mut Ctxt, k: usize, c: u32, v: u32, flags: [u8; 4]| {
        if let Some(base) = dst_base {
            let at = base as usize + (k * rpc * 8 + c as usize) * 4;
            if at + 4 <= base as usize + rlen_bytes {
                cx.t.space
                    .write_bytes(at, &v.to_le_bytes(), &whole(flags, known(c)));
            }
        }
    };
    let write_back = |cx: &mut Ctxt, k: usize, c: u32, v: u32, def: bool| {
        write_back_flagged(cx, k, c, v, [def as u8; 4]);
    };
    match kind {
        MsgKind::UrbWrite { slot } => {
            let en = super::urb::VertexEnables {
                exec: mask,
                unknown: e.unknown,
                violated: !d.violations.is_empty(),
            };
            effect.urb_writes = super::urb::records(body, slot, en, inst.eot);
        }
        MsgKind::RtWrite { target } => {
            let comps_n = (body.0.len() / reg / rpc).min(4);
            let channels = (0..n)
                .filter(|c| mask >> c & 1 != 0)
                .map(|c| {
                    let at = |k: usize| k * rpc * 8 + c as usize;
                    let (defined, float_nan) = (0..comps_n)
                        .map(|k| colour_masks(body, at(k), known(c)))
                        .unzip();
                    ChannelColor {
                        channel: inst.group as u32 + c,
                        values: (0..comps_n).map(|k| dword(body, at(k)).0).collect(),
                        defined,
                        float_nan,
                    }
                })
                .collect();
            effect.rt_write = Some(RtWrite {
                target,
                components: comps_n as u8,
                channels,
                eot: inst.eot,
            });
        }
        MsgKind::UntypedRead { surface, comps } => {
            let live: Vec<u32> = (0..n).filter(|c| mask >> c & 1 != 0).collect();
            let addrs: Vec<(u32, bool)> = live.iter().map(|&c| comp_dword(body, 0, c)).collect();
            let results = cx.untyped_read(surface, &addrs, comps as u32);
            for (&c, vals) in live.iter().zip(results) {
                for (k, (v, flags)) in vals.into_iter().enumerate() {
                    write_back_flagged(cx, k, c, v, flags);
                }
            }
        }
        MsgKind::UntypedWrite { surface, comps } => {
            for c in (0..n).filter(|c| mask >> c & 1 != 0) {
                let (a, adef) = comp_dword(body, 0, c);
                let vals: Vec<(u32, [u8; 4])> = (0..comps as usize)
                    .map(|k| {
                        let (v, flags) = flagged_dword(body, (k + 1) * rpc * 8 + c as usize);
                        (v, whole(flags, known(c)))
                    })
                    .collect();
                cx.untyped_write(surface, (a, adef && known(c)), &vals);
            }
        }
        MsgKind::ScratchRead | MsgKind::ScratchWrite => {
            let h: ByteView = (
                data.0.get(..reg).unwrap_or(&[]),
                data.1.get(..reg).unwrap_or(&[]),
            );
            let addr = scratch_header_address(cx, h);
            if kind == MsgKind::ScratchRead {
                let src = cx.scratch_source(addr, rlen_bytes);
                if let Some(base) = dst_base {
                    cx.land_scratch(base as usize, src, rlen_bytes, (n, mask), known)?;
                }
            } else {
                cx.scratch_write(addr, body, n, mask);
            }
        }
        MsgKind::Sample { surface } => {
            for c in (0..n).filter(|c| mask >> c & 1 != 0) {
                let (u, du) = comp_dword(body, 0, c);
                let (v, dv) = comp_dword(body, 1, c);
                let format = texture_format(cx.mem, surface as u32);
                let rgba = texel(surface as u32, format, f32::from_bits(u), f32::from_bits(v));
                for (k, x) in rgba.iter().enumerate() {
                    write_back(cx, k, c, x.to_bits(), du && dv);
                }
            }
        }
    }
    Ok(())
}

/// `base + FFTID × size(encoding) + offset` from a scratch header, or `None` if any field
/// it needs is undefined.
fn scratch_header_address(cx: &Ctxt, h: ByteView) -> Option<u64> {
    let (offset, d2) = dword(h, 2);
    let (enc, d3) = dword(h, 3);
    let (base, d5) = dword(h, 5);
    if !(d2 && d3 && d5) {
        return None;
    }
    let size = cx.ctx.device.info().scratch_encoding.decode(enc & 0xf) as u64;
    Some((base & !0x3ff) as u64 + cx.t.fftid as u64 * size + offset as u64 * 16)
}
