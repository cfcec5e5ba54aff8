//! Per-channel semantics of the ALU and math opcodes.
//!
//! Sources arrive decoded (modifiers applied). Integer results are exact until the
//! destination type truncates or saturates them; float results are rounded to the precision
//! of the execution type, which considers the destination too (docs/hardware/eu-hardware.md §3.4: F and
//! HF mixed among src0, src1 and dst run in F, so an all-HF add into an F destination is
//! computed in F). Opcode details:
//! * shifts use the low 5 bits of the count (6 for 64-bit operands); SHR is logical on the
//!   source's width, ASR arithmetic; ROL/ROR rotate within the source width;
//! * FBH counts from the MSB to the first bit that differs from the sign (D) or the first one
//!   (UD); FBH/FBL of "nothing found" give -1; LZD of 0 is 32;
//! * BFE(width, offset, value) and BFI1(width, offset) use the low 5 bits of width/offset;
//!   BFI2(mask, insert, base) = ((insert << tz(mask)) & mask) | (base & !mask), tz = the
//!   mask's trailing zeros (see `bfi2`);
//! * Gen4/5 RNDZ/RNDE store the rounded-down value and report whether it must be
//!   incremented (the `.r` condition; see `gen4_round`);
//! * INT_QUOTIENT/INT_REMAINDER: division by zero gives all-ones / the dividend,
//!   INT_MIN / -1 wraps;
//! * MAD = src0 + src1 × src2, LRP = src0 × src1 + (1 − src0) × src2, both rounded once
//!   (the product and sum are formed in f64);
//! * math functions use `libm` (pure Rust, the same bits on every machine);
//! * CMPN: a NaN in src0 makes the condition false, else a NaN in src1 makes it true
//!   (NaN-ignoring min/max);
//! * SEL with a modifier is min/max returning the non-NaN operand when one is NaN.

use super::value::{Num, Prec, as_f64, compare, propagate_nan};
use compiler::Opcode;
use compiler::inst::CondMod;
use compiler::types::Type;

/// One decoded source of a channel.
#[derive(Clone, Copy, Debug)]
pub struct In {
    pub num: Num,
    pub ty: Type,
}

/// The float precision an operation computes in: the widest float source, raised from HF
/// to F when the destination is F (docs/hardware/eu-hardware.md §3.4: "if any pair among (src0, src1,
/// dst) is F/HF mixed → F"; a one-source HF operation takes the destination type). `None`
/// for integer execution.
fn float_prec(srcs: &[In], dst: Type) -> Option<Prec> {
    let widest = srcs
        .iter()
        .filter(|s| s.ty.is_float())
        .map(|s| Prec::of(s.ty))
        .max()?;
    Some(if widest == Prec::Half && dst == Type::F {
        Prec::Single
    } else {
        widest
    })
}

fn int(n: Num) -> i128 {
    match n {
        Num::Int(i) => i,
        Num::Float(f) => f as i64 as i128,
    }
}

/// The source's value as raw unsigned bits of its own width.
fn ubits(s: In) -> u64 {
    let v = int(s.num) as u64;
    let width = s.ty.exec_type().size() * 8;
    if width >= 64 {
        v
    } else {
        v & ((1u64 << width) - 1)
    }
}

fn width_bits(ty: Type) -> u32 {
    ty.exec_type().size() * 8
}

/// Result of evaluating one channel.
pub enum Out {
    Value(Num),
    /// CMP/CMPN: the condition (the destination gets all ones or zero).
    Condition(bool),
    /// Gen4/5 RNDZ/RNDE: the stored value and whether it must be incremented (`.r`).
    Rounded {
        value: Num,
        increment: bool,
    },
}

/// What a channel's evaluation needs besides its sources.
#[derive(Clone, Copy, Debug)]
pub struct Ctl {
    /// The destination type (it takes part in the execution type, §3.4).
    pub dst: Type,
    /// The instruction's modifier (CMP condition, SEL min/max).
    pub cmod: Option<CondMod>,
    /// The predicate bit of a predicated SEL.
    pub sel_pred: Option<bool>,
    /// The device generation (`verx10 / 10`).
    pub ver: u32,
}

/// Gen4/5 RNDZ and RNDE (docs/hardware/brw-backend.md §1.1 lists `R=7 (gen≤5 only)`, docs/hardware/eu-hardware.md §2.3
/// `.r`=7 (Gen≤5)). The documents do not define these two opcodes' results on Gen4/5; Mesa's
/// Gen4/5 sequence for trunc/round-even is `rndz.r dst, x` (resp. `rnde.r`) followed by
/// `(+f0) add dst, dst, 1.0`, which is only right if the instruction stores the value
/// rounded *down* and raises `.r` exactly when one must be added. That is the model: the
/// stored value is ⌊x⌋, and `increment` says whether trunc(x) (resp. the even-rounded x)
/// is ⌊x⌋ + 1. Any other use of `.r` leaves the flag undefined (see exec.rs).
fn gen4_round(op: Opcode, x: f64, prec: Prec) -> Out {
    let down = x.floor();
    let target = if op == Opcode::Rndz {
        x.trunc()
    } else {
        x.round_ties_even()
    };
    Out::Rounded {
        value: Num::Float(prec.round(down)),
        increment: !x.is_nan() && target != down,
    }
}

/// BFI2(mask, insert, base): the insert value is shifted left by the mask's trailing zeros
/// before it is merged under the mask. The documents give BFI2 only as Mesa's
/// bitfield-insert partner of BFI1 (docs/hardware/brw-backend.md §1.1, docs/hardware/eu-hardware.md §6.10) without a
/// formula; the shift is what the issue (item 7) and Mesa's use of BFI1 + BFI2 for
/// `bitfieldInsert(base, insert, offset, bits)` (BFI1 makes the mask `bits` wide at
/// `offset`, BFI2 takes `insert` unshifted) require. A zero mask yields `base`.
fn bfi2(mask: u32, insert: u32, base: u32) -> u32 {
    let shifted = insert.checked_shl(mask.trailing_zeros()).unwrap_or(0);
    (shifted & mask) | (base & !mask)
}

/// Evaluates `op` for one channel. A float result that is NaN takes the greatest NaN source
/// (see [`propagate_nan`]); moves and selects pass their source through.
pub fn eval(op: Opcode, srcs: &[In], ctl: &Ctl) -> Out {
    match eval_raw(op, srcs, ctl) {
        Out::Value(Num::Float(r))
            if r.is_nan()
                && float_prec(srcs, ctl.dst).is_some()
                && !matches!(op, Opcode::Mov | Opcode::Sel) =>
        {
            Out::Value(Num::Float(propagate_nan(srcs.iter().filter_map(
                |s| match s.num {
                    Num::Float(f) => Some(f),
                    Num::Int(_) => None,
                },
            ))))
        }
        out => out,
    }
}

fn eval_raw(op: Opcode, srcs: &[In], ctl: &Ctl) -> Out {
    use Opcode::*;
    let (cmod, sel_pred) = (ctl.cmod, ctl.sel_pred);
    let s = |i: usize| {
        srcs.get(i).copied().unwrap_or(In {
            num: Num::Int(0),
            ty: Type::UD,
        })
    };
    let fp = float_prec(srcs, ctl.dst);
    let fl = |i: usize| as_f64(s(i).num);
    if matches!(op, Rndz | Rnde) && ctl.ver <= 5 {
        return gen4_round(op, fl(0), fp.unwrap_or(Prec::Single));
    }
    let round = |v: f64| Num::Float(fp.unwrap_or(Prec::Single).round(v));
    Out::Value(match op {
        Mov | Dim | PickLow32 | PickHigh32 | SetLow32 | SetHigh32 => s(0).num,
        Sel => {
            let (a, b) = (s(0).num, s(1).num);
            match (sel_pred, cmod) {
                (Some(p), _) => {
                    if p {
                        a
                    } else {
                        b
                    }
                }
                (None, Some(c)) => {
                    let (fa, fb) = (as_f64(a), as_f64(b));
                    if fp.is_some() && fa.is_nan() {
                        b
                    } else if (fp.is_some() && fb.is_nan()) || compare(c, a, b) {
                        a
                    } else {
                        b
                    }
                }
                (None, None) => b,
            }
        }
        Cmp | Cmpn => {
            let c = cmod.unwrap_or(CondMod::Z);
            let (a, b) = (s(0).num, s(1).num);
            let cond = if op == Cmpn && fp.is_some() && as_f64(a).is_nan() {
                false
            } else if op == Cmpn && fp.is_some() && as_f64(b).is_nan() {
                true
            } else {
                compare(c, a, b)
            };
            return Out::Condition(cond);
        }
        Not => Num::Int(!int(s(0).num)),
        And => Num::Int(int(s(0).num) & int(s(1).num)),
        Or => Num::Int(int(s(0).num) | int(s(1).num)),
        Xor => Num::Int(int(s(0).num) ^ int(s(1).num)),
        Shl | Shr | Asr | Rol | Ror => shift(op, s(0), s(1)),
        Add => match fp {
            Some(_) => round(fl(0) + fl(1)),
            None => Num::Int(int(s(0).num) + int(s(1).num)),
        },
        Avg => Num::Int((int(s(0).num) + int(s(1).num) + 1) >> 1),
        // docs/hardware/eu-hardware.md §7.3: integer D/UD/W/UW only; the sum wraps to the destination.
        Add3 => Num::Int(int(s(0).num) + int(s(1).num) + int(s(2).num)),
        Mul => match fp {
            Some(_) => round(fl(0) * fl(1)),
            None => Num::Int(int(s(0).num).wrapping_mul(int(s(1).num))),
        },
        Mulh => {
            let p = int(s(0).num).wrapping_mul(int(s(1).num));
            Num::Int(p >> 32)
        }
        Mad => match fp {
            Some(_) => round(fl(1).mul_add(fl(2), fl(0))),
            None => Num::Int(int(s(0).num).wrapping_add(int(s(1).num).wrapping_mul(int(s(2).num)))),
        },
        Lrp => round(fl(0) * fl(1) + (1.0 - fl(0)) * fl(2)),
        Frc => round(fl(0) - fl(0).floor()),
        Rndd => round(fl(0).floor()),
        Rndu => round(fl(0).ceil()),
        Rndz => round(fl(0).trunc()),
        Rnde => round(fl(0).round_ties_even()),
        Bfrev => Num::Int((ubits(s(0)) as u32).reverse_bits() as i128),
        Cbit => Num::Int((ubits(s(0)) as u32).count_ones() as i128),
        Lzd => Num::Int((ubits(s(0)) as u32).leading_zeros() as i128),
        Fbl => {
            let v = ubits(s(0)) as u32;
            Num::Int(if v == 0 {
                -1
            } else {
                v.trailing_zeros() as i128
            })
        }
        Fbh => {
            let v = ubits(s(0)) as u32;
            let signed = s(0).ty.is_signed();
            let probe = if signed && (v as i32) < 0 { !v } else { v };
            if probe == 0 {
                Num::Int(-1)
            } else {
                Num::Int(probe.leading_zeros() as i128)
            }
        }
        Bfe => {
            let width = ubits(s(0)) as u32 & 31;
            let offset = ubits(s(1)) as u32 & 31;
            let value = ubits(s(2)) as u32;
            if width == 0 {
                Num::Int(0)
            } else {
                let shifted = value >> offset;
                let bits = width.min(32 - offset);
                let mask = if bits >= 32 {
                    u32::MAX
                } else {
                    (1u32 << bits) - 1
                };
                let field = shifted & mask;
                if s(2).ty.is_signed() && bits < 32 && field >> (bits - 1) & 1 == 1 {
                    Num::Int((field | !mask) as i32 as i128)
                } else {
                    Num::Int(field as i128)
                }
            }
        }
        Bfi1 => {
            let width = ubits(s(0)) as u32 & 31;
            let offset = ubits(s(1)) as u32 & 31;
            let mask = ((1u64 << width) - 1) as u32;
            Num::Int((mask << offset) as i128)
        }
        Bfi2 => {
            let (m, ins, base) = (ubits(s(0)), ubits(s(1)), ubits(s(2)));
            Num::Int(bfi2(m as u32, ins as u32, base as u32) as i128)
        }
        Rcp => round(1.0 / fl(0)),
        Rsq => round(1.0 / libm::sqrt(fl(0))),
        Sqrt => round(libm::sqrt(fl(0))),
        Exp2 => round(libm::exp2(fl(0))),
        Log2 => round(libm::log2(fl(0))),
        Sin => round(libm::sin(fl(0))),
        Cos => round(libm::cos(fl(0))),
        Pow => round(libm::pow(fl(0), fl(1))),
        IntQuotient | IntRemainder => divide(op, s(0), s(1)),
        // ADDC/SUBB/MACH are evaluated with the accumulator by the caller; the value here
        // is the destination part only.
        Addc => Num::Int(int(s(0).num) + int(s(1).num)),
        Subb => Num::Int(int(s(0).num) - int(s(1).num)),
        _ => Num::Int(0),
    })
}

fn shift(op: Opcode, a: In, b: In) -> Num {
    let w = width_bits(a.ty).max(32);
    let count = (ubits(b) as u32) & (if w == 64 { 63 } else { 31 });
    let raw = ubits(a);
    Num::Int(match op {
        Opcode::Shl => int(a.num) << count,
        Opcode::Shr => (raw >> count) as i128,
        Opcode::Asr => {
            let signed = match width_bits(a.ty) {
                64 => raw as i64 as i128,
                16 => raw as u16 as i16 as i128,
                8 => raw as u8 as i8 as i128,
                _ => raw as u32 as i32 as i128,
            };
            signed >> count
        }
        _ => {
            let w = width_bits(a.ty).max(16);
            let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
            let k = count % w;
            let v = raw & mask;
            let r = if k == 0 {
                v
            } else if op == Opcode::Rol {
                ((v << k) | (v >> (w - k))) & mask
            } else {
                ((v >> k) | (v << (w - k))) & mask
            };
            r as i128
        }
    })
}

fn divide(op: Opcode, a: In, b: In) -> Num {
    let (x, y) = (int(a.num), int(b.num));
    let signed = a.ty.is_signed() || b.ty.is_signed();
    let (x, y) = if signed {
        (x as i32 as i128, y as i32 as i128)
    } else {
        (x as u32 as i128, y as u32 as i128)
    };
    let quotient = op == Opcode::IntQuotient;
    Num::Int(if y == 0 {
        if quotient { -1 } else { x }
    } else if quotient {
        (x / y) as i32 as i128 // INT_MIN / -1 wraps
    } else {
        x % y
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(v: i128, ty: Type) -> In {
        In {
            num: Num::Int(v),
            ty,
        }
    }

    fn f(v: f64) -> In {
        In {
            num: Num::Float(v),
            ty: Type::F,
        }
    }

    fn val(o: Out) -> Num {
        match o {
            Out::Value(n) | Out::Rounded { value: n, .. } => n,
            Out::Condition(c) => Num::Int(c as i128),
        }
    }

    /// Evaluates on a Gen9 part into a destination of src0's type.
    fn ev(op: Opcode, srcs: &[In], cmod: Option<CondMod>, sel_pred: Option<bool>) -> Out {
        let ctl = Ctl {
            dst: srcs[0].ty,
            cmod,
            sel_pred,
            ver: 9,
        };
        eval(op, srcs, &ctl)
    }

    #[test]
    fn shifts_mask_the_count() {
        assert_eq!(
            val(ev(
                Opcode::Shl,
                &[i(1, Type::UD), i(33, Type::UD)],
                None,
                None
            )),
            Num::Int(2)
        );
        assert_eq!(
            val(ev(
                Opcode::Shr,
                &[i(-1, Type::D), i(28, Type::UD)],
                None,
                None
            )),
            Num::Int(0xf)
        );
        assert_eq!(
            val(ev(
                Opcode::Asr,
                &[i(-16, Type::D), i(2, Type::UD)],
                None,
                None
            )),
            Num::Int(-4)
        );
        assert_eq!(
            val(ev(
                Opcode::Rol,
                &[i(0x8000_0001, Type::UD), i(1, Type::UD)],
                None,
                None
            )),
            Num::Int(3)
        );
    }

    #[test]
    fn bit_ops() {
        assert_eq!(
            val(ev(Opcode::Fbh, &[i(0x0000_ffff, Type::UD)], None, None)),
            Num::Int(16)
        );
        assert_eq!(
            val(ev(Opcode::Fbh, &[i(-2, Type::D)], None, None)),
            Num::Int(31)
        );
        assert_eq!(
            val(ev(Opcode::Fbh, &[i(-1, Type::D)], None, None)),
            Num::Int(-1)
        );
        assert_eq!(
            val(ev(Opcode::Fbl, &[i(0, Type::UD)], None, None)),
            Num::Int(-1)
        );
        assert_eq!(
            val(ev(
                Opcode::Bfe,
                &[i(4, Type::D), i(4, Type::D), i(0xf0, Type::D)],
                None,
                None
            )),
            Num::Int(-1)
        );
        assert_eq!(
            val(ev(
                Opcode::Bfe,
                &[i(4, Type::UD), i(4, Type::UD), i(0xf0, Type::UD)],
                None,
                None
            )),
            Num::Int(15)
        );
    }

    #[test]
    fn min_max_and_cmpn_with_nan() {
        let nan = f(f64::NAN);
        assert_eq!(
            val(ev(Opcode::Sel, &[nan, f(2.0)], Some(CondMod::L), None)),
            Num::Float(2.0)
        );
        assert_eq!(
            val(ev(Opcode::Sel, &[f(3.0), f(2.0)], Some(CondMod::Ge), None)),
            Num::Float(3.0)
        );
        assert!(matches!(
            ev(Opcode::Cmpn, &[f(1.0), nan], Some(CondMod::L), None),
            Out::Condition(true)
        ));
        assert!(matches!(
            ev(Opcode::Cmp, &[f(1.0), nan], Some(CondMod::L), None),
            Out::Condition(false)
        ));
    }

    #[test]
    fn division_edges() {
        let q = |a, b| {
            val(ev(
                Opcode::IntQuotient,
                &[i(a, Type::D), i(b, Type::D)],
                None,
                None,
            ))
        };
        assert_eq!(q(7, -2), Num::Int(-3));
        assert_eq!(q(i32::MIN as i128, -1), Num::Int(i32::MIN as i128));
        assert_eq!(q(5, 0), Num::Int(-1));
        let r = val(ev(
            Opcode::IntRemainder,
            &[i(-7, Type::D), i(2, Type::D)],
            None,
            None,
        ));
        assert_eq!(r, Num::Int(-1));
    }
}
