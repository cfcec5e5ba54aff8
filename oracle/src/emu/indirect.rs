//! Register-indirect operands (`g[a0.N + K]<region>`), resolved per channel when the
//! instruction runs: the address register file `a0` decides which GRF bytes a channel
//! touches (docs/hardware/eu-hardware.md §1.4).

use super::state::Thread;
use compiler::reg::{REG_SIZE, Region};
use compiler::types::Type;

/// Bytes in the address register file: `a0.0` .. `a0.15`, 16 bits each (docs/hardware/eu-hardware.md §1.4
/// calls them address subregisters `a0.x`; their width is [P?] — 16 bits as Mesa's
/// `a0.N:UW` writes assume).
pub const ADDRESS_BYTES: usize = 32;

/// Address subregisters in `a0`.
pub const ADDRESS_SUBREGISTERS: u32 = (ADDRESS_BYTES / 2) as u32;

/// An indirect operand as decoded: which address subregister, the immediate, the region
/// (a destination's already reduced to its horizontal stride) and the GRF file's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndirectLoc {
    pub addr: u8,
    pub offset: i16,
    pub region: Region,
    pub grf_bytes: u32,
}

/// Why a channel of an indirect operand has no usable address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Miss {
    /// The address subregister it needs lies beyond `a0.15`.
    NoSubregister(u32),
    /// The address subregister holds undefined bits.
    UndefinedAddress(u32),
    /// The element lies (partly) outside the GRF file.
    OutsideGrf(i64),
}

/// The origin of an indirect access: address subregister value plus immediate, where the low
/// 5 bits of the two summed give the sub-register and the upper bits summed give the
/// register; a carry out of the sub-register part is dropped, never moving to the next
/// register (docs/hardware/eu-hardware.md §1.4, the HSW PRM text quoted in Mesa's `brw_broadcast`). The
/// immediate is signed; the documents do not say how a negative one splits [P?], so the same
/// rule is applied to its two's-complement value (-4 = -32 + 28).
pub fn origin(address: u16, imm: i16) -> i64 {
    let mask = REG_SIZE as i64 - 1;
    let (a, i) = (address as i64, imm as i64);
    let sub = (a + i) & mask;
    let reg = (a & !mask) + (i & !mask);
    reg + sub
}

/// The address subregister channel `c` uses and the byte offset of its element from that
/// subregister's origin. Vx1 (`Region::ONE_DIMENSIONAL`, width > 1): one subregister per row
/// of `width` elements, a0.x, a0.x+1, ...; VxH (width 1): one per channel; any other region
/// walks from the single origin as a direct region does (docs/hardware/eu-hardware.md §1.4, §1.2).
fn subregister_and_offset(ind: &IndirectLoc, ty: Type, c: u32) -> (u32, u64) {
    let size = ty.size() as u64;
    let r = ind.region;
    if r.is_one_dimensional() {
        let w = r.width.max(1) as u32;
        let col = (c % w) as u64;
        (ind.addr as u32 + c / w, col * r.hstride as u64 * size)
    } else {
        (ind.addr as u32, r.element(c) as u64 * size)
    }
}

/// The GRF byte address of channel `c`'s element, or why it has none.
pub fn channel_address(t: &Thread, ind: &IndirectLoc, ty: Type, c: u32) -> Result<u32, Miss> {
    let (sub, within) = subregister_and_offset(ind, ty, c);
    if sub >= ADDRESS_SUBREGISTERS {
        return Err(Miss::NoSubregister(sub));
    }
    let (value, defined) = t.address.read(sub as usize * 2, 2);
    if !defined {
        return Err(Miss::UndefinedAddress(sub));
    }
    let byte = origin(value as u16, ind.offset) + within as i64;
    if byte < 0 || byte + ty.size() as i64 > ind.grf_bytes as i64 {
        return Err(Miss::OutsideGrf(byte));
    }
    Ok(byte as u32)
}

/// The first miss among channels `0..n` that `enabled` selects, for a diagnostic.
pub fn first_miss(
    t: &Thread,
    ind: &IndirectLoc,
    ty: Type,
    n: u32,
    enabled: impl Fn(u32) -> bool,
) -> Option<Miss> {
    (0..n)
        .filter(|&c| enabled(c))
        .find_map(|c| channel_address(t, ind, ty, c).err())
}

/// The diagnostic text of a miss.
pub fn describe(miss: Miss, is_dst: bool) -> String {
    let access = if is_dst {
        "indirect write"
    } else {
        "indirect read"
    };
    match miss {
        Miss::NoSubregister(sub) => {
            format!("{access} needs address subregister a0.{sub}, beyond a0.15")
        }
        Miss::UndefinedAddress(sub) if is_dst => format!(
            "{access} through undefined address subregister a0.{sub}: every GRF byte it \
             could reach is now undefined"
        ),
        Miss::UndefinedAddress(sub) => {
            format!("{access} through undefined address subregister a0.{sub}: value undefined")
        }
        Miss::OutsideGrf(byte) if is_dst => {
            format!("{access} at GRF byte {byte}, outside the register file: dropped")
        }
        Miss::OutsideGrf(byte) => {
            format!("{access} at GRF byte {byte}, outside the register file: value undefined")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::origin;

    /// docs/hardware/eu-hardware.md §1.4: the sub-register carry is dropped, the register parts add.
    #[test]
    fn origin_drops_the_sub_register_carry() {
        assert_eq!(origin(64, 16), 80);
        assert_eq!(origin(64 + 24, 16), 64 + 8); // 24 + 16 = 40: carry dropped → g2.8
        assert_eq!(origin(64, 48), 96 + 16); // upper bits of 48 (32) add a register
        // -4 = -32 + 28: sub-register 8 + 28 = 36 → 4 (carry dropped), register 64 - 32.
        assert_eq!(origin(64 + 8, -4), 32 + 4);
    }
}
