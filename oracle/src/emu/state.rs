//! Per-thread machine state: register space with a defined flag per byte, flags,
//! accumulator lanes, channel masks and the control-flow stack.

/// Bytes with a flag each: 0 undefined, [`DEFINED`], or [`FLOAT_NAN`] (defined, and part of
/// a NaN that a float operation produced). Undefined bytes hold deterministic garbage, so
/// results computed from them are reproducible but never trusted. Only bit 0 says whether a
/// byte is defined; the NaN mark rides along with raw copies (moves, payloads, memory) so
/// the comparison can tolerate NaN payload differences exactly where a float operation
/// chose the payload (see `compare.rs`).
#[derive(Clone, Debug)]
pub struct Space {
    pub bytes: Vec<u8>,
    pub def: Vec<u8>,
}

/// Flag of a defined byte.
pub const DEFINED: u8 = 1;
/// Flag of a defined byte of a NaN result of a float operation.
pub const FLOAT_NAN: u8 = 3;

/// Whether a byte flag says defined.
#[inline]
pub fn is_defined(flag: u8) -> bool {
    flag & DEFINED != 0
}

/// Deterministic garbage for undefined byte `addr`.
pub fn garbage(addr: usize) -> u8 {
    let x = (addr as u32).wrapping_mul(0x9e37_79b1) ^ 0xa5a5_a5a5;
    (x >> 13) as u8
}

/// One page of the garbage pattern, tiled over fresh spaces.
fn garbage_page() -> &'static [u8; 4096] {
    static PAGE: std::sync::OnceLock<[u8; 4096]> = std::sync::OnceLock::new();
    PAGE.get_or_init(|| std::array::from_fn(garbage))
}

impl Space {
    /// `len` undefined bytes of garbage.
    pub fn undefined(len: usize) -> Space {
        let page = garbage_page();
        let mut bytes = Vec::with_capacity(len);
        while bytes.len() < len {
            let take = (len - bytes.len()).min(page.len());
            bytes.extend_from_slice(&page[..take]);
        }
        Space {
            bytes,
            def: vec![0; len],
        }
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Little-endian value of `size` ≤ 8 bytes at `addr`, and whether all were defined.
    #[inline]
    pub fn read(&self, addr: usize, size: usize) -> (u64, bool) {
        fn word<const N: usize>(s: &Space, addr: usize) -> (u64, bool) {
            let mut buf = [0u8; 8];
            buf[..N].copy_from_slice(&s.bytes[addr..addr + N]);
            let def = s.def[addr..addr + N].iter().all(|&f| is_defined(f));
            (u64::from_le_bytes(buf), def)
        }
        match size {
            1 => word::<1>(self, addr),
            2 => word::<2>(self, addr),
            4 => word::<4>(self, addr),
            _ => word::<8>(self, addr),
        }
    }

    /// Writes a value that carries no NaN mark (defined or not).
    #[inline]
    pub fn write(&mut self, addr: usize, size: usize, bits: u64, def: bool) {
        self.write_flagged(addr, size, bits, def as u8);
    }

    /// Writes a value with `flag` on each of its bytes (0, [`DEFINED`] or [`FLOAT_NAN`]).
    #[inline]
    pub fn write_flagged(&mut self, addr: usize, size: usize, bits: u64, flag: u8) {
        fn word<const N: usize>(s: &mut Space, addr: usize, bits: u64, flag: u8) {
            s.bytes[addr..addr + N].copy_from_slice(&bits.to_le_bytes()[..N]);
            s.def[addr..addr + N].copy_from_slice(&[flag; N]);
        }
        match size {
            1 => word::<1>(self, addr, bits, flag),
            2 => word::<2>(self, addr, bits, flag),
            4 => word::<4>(self, addr, bits, flag),
            _ => word::<8>(self, addr, bits, flag),
        }
    }

    /// Copies bytes and their flags (NaN marks included).
    pub fn write_bytes(&mut self, addr: usize, bytes: &[u8], def: &[u8]) {
        self.bytes[addr..addr + bytes.len()].copy_from_slice(bytes);
        self.def[addr..addr + def.len()].copy_from_slice(def);
    }

    /// Marks a range undefined (keeping its garbage bytes).
    pub fn undefine(&mut self, addr: usize, len: usize) {
        self.def[addr..addr + len].fill(0);
    }

    /// Whether `[addr, addr + len)` lies inside the space.
    pub fn contains(&self, addr: u64, len: u64) -> bool {
        addr.checked_add(len)
            .is_some_and(|end| end <= self.bytes.len() as u64)
    }
}

/// One accumulator lane: an integer product needs ≥ 66 bits; other writes define only the
/// low 33 (integers) or 32 (floats) bits and leave the rest undefined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccLane {
    /// Sign-extended value (integers) or raw float bits.
    pub value: i128,
    /// How many low bits are defined: 0, 32, 33 or 66.
    pub defined_bits: u8,
}

/// Lanes of acc0..acc3 (8 each).
pub const ACC_LANES: usize = 32;

/// Full-precision integer product lanes keep 66 bits.
pub const ACC_FULL_BITS: u8 = 66;

/// A structured control-flow frame (the mask-stack model of docs/hardware/brw-backend.md §9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    If {
        /// Channels active at the IF, minus any that have since broken out, continued or
        /// halted: what ENDIF restores.
        restore: u32,
        /// Channels waiting for the ELSE block.
        else_mask: u32,
        else_ip: Option<usize>,
        endif_ip: usize,
        in_else: bool,
    },
    Loop {
        /// Channels active at DO (minus halted ones): what the loop exit restores.
        restore: u32,
        /// Channels that CONTINUEd this iteration; they rejoin at the WHILE.
        continued: u32,
        do_ip: usize,
        while_ip: usize,
    },
}

/// Everything one hardware thread owns.
#[derive(Clone, Debug)]
pub struct Thread {
    pub index: u32,
    pub fftid: u32,
    pub space: Space,
    /// The flag file: f0.0 = bits 0..16, f0.1 = 16..32, f1.0 = 32..48, f1.1 = 48..64.
    pub flags: u64,
    pub flags_def: u64,
    pub acc: [AccLane; ACC_LANES],
    /// The address register file `a0` (16-bit subregisters a0.0..a0.15, a defined flag per
    /// byte): the origins of register-indirect operands (docs/hardware/eu-hardware.md §1.4).
    pub address: Space,
    /// Channels currently enabled: dispatched, and not disabled by control flow.
    pub active: u32,
    /// The thread's dispatch mask (no bits at or beyond the dispatch width): which bits of
    /// `ce0`, which ignores it, the model knows (docs/hardware/eu-hardware.md §2.1).
    pub dispatched: u32,
    /// Channels parked by HALT until the HALT_TARGET.
    pub halted: u32,
    pub stack: Vec<Frame>,
    pub ip: usize,
    /// Bytes of the shared scratch buffer each thread's logical scratch accesses own: the
    /// program's whole need, even beyond what the hardware can be programmed with (a
    /// logical program's scratch is private to its thread).
    pub logical_scratch_region: u32,
}

impl Thread {
    /// Removes channels from the active set and from the masks of every frame up to (not
    /// including) the innermost loop, or of all frames when `all_frames` (HALT).
    pub fn retire(&mut self, chans: u32, all_frames: bool) {
        self.active &= !chans;
        for frame in self.stack.iter_mut().rev() {
            match frame {
                Frame::If {
                    restore, else_mask, ..
                } => {
                    *restore &= !chans;
                    *else_mask &= !chans;
                }
                Frame::Loop {
                    restore, continued, ..
                } => {
                    if !all_frames {
                        break;
                    }
                    *restore &= !chans;
                    *continued &= !chans;
                }
            }
        }
    }
}
