//! A fast hasher for finding repeated instructions while decoding. The derived `Hash` of an
//! instruction feeds many small fields; SipHash (the std default) pays its per-write setup
//! for each and cost more than the decoding it saves. Keys are the fuzzer's own programs,
//! so resistance to crafted collisions is not needed: a multiply-rotate mix (as in rustc's
//! FxHash) is enough.

use std::hash::{BuildHasherDefault, Hasher};

/// Multiplier of the mix (FxHash's 64-bit constant).
const K: u64 = 0xf135_7aea_2e62_a9c5;

#[derive(Default)]
pub struct InstHasher(u64);

impl InstHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(K).rotate_left(26);
    }
}

impl Hasher for InstHasher {
    fn write(&mut self, bytes: &[u8]) {
        let (chunks, rest) = bytes.as_chunks::<8>();
        for c in chunks {
            self.add(u64::from_le_bytes(*c));
        }
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(last) ^ (rest.len() as u64) << 56);
    }

    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }

    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }

    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// `HashMap` hasher builder for [`InstHasher`].
pub type BuildInstHasher = BuildHasherDefault<InstHasher>;
