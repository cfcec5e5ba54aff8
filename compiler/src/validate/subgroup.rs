//! FIND_LIVE_CHANNEL and BROADCAST (docs/hardware/brw-backend.md §1.1): the one form this IR gives them.
//!
//! Mesa emits both through an `exec_all()` builder and reads their result as a scalar
//! (`component(dst, 0)`): they are NoMask operations over the channels of their group
//! whose destination is a single element. Here that is spelt with a stride-0 destination:
//!
//! ```text
//! find_live_channel(8) v0<0>:UD { NoMask }
//! broadcast(8) v1<0>:UD, v2:UD, v0<0>:UD { NoMask }
//! ```
//!
//! - NoMask is required, no predicate: the result must not depend on which channel the
//!   write lands in (FIND_LIVE_CHANNEL reads the execution mask instead, §9.2).
//! - No saturate, no source modifiers: BROADCAST copies bits, FIND_LIVE_CHANNEL has no
//!   source. A conditional modifier is the `CmodNotSupported` rule's (§10.3 #3: a virtual
//!   opcode cannot take one; Mesa 2dbb66997e2).
//! - FIND_LIVE_CHANNEL writes UD. BROADCAST's destination has src0's element size, and its
//!   index (src1) is one UD the same in every channel: an immediate below `exec_size`, a
//!   push constant, or a stride-0 register.
//! - The destination is a stride-0 VGRF or a fixed GRF (after register allocation).

use super::{Report, Rule};
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::reg::RegKind;
use crate::types::Type;

pub(super) fn check(ip: usize, inst: &Inst, r: &mut Report) {
    if !inst.op.is_subgroup() {
        return;
    }
    let name = inst.op.name();
    let mut bad = |msg: String| r.add(Rule::SubgroupForm, Some(ip), msg);
    if !inst.nomask {
        bad(format!("{name} must be NoMask"));
    }
    if inst.predicate.is_some() {
        bad(format!("{name} cannot be predicated"));
    }
    if inst.saturate || inst.acc_wr {
        bad(format!("{name} takes no saturate or AccWrEnable"));
    }
    match inst.dst.kind {
        RegKind::Vgrf { stride: 0, .. } | RegKind::Fixed { .. } => {}
        _ => bad(format!(
            "{name} writes one scalar: its destination is a stride-0 VGRF (`v0<0>`) or a GRF"
        )),
    }
    match inst.op {
        Opcode::FindLiveChannel => {
            if inst.dst.ty != Type::UD {
                bad("find_live_channel writes a UD channel index".into());
            }
        }
        _ => {
            let (Some(value), Some(index)) = (inst.srcs.first(), inst.srcs.get(1)) else {
                return;
            };
            if value.ty.size() != inst.dst.ty.size() || value.ty.is_vector_imm() {
                bad("broadcast copies bits: its destination has its value's element size".into());
            }
            if inst.srcs.iter().any(|s| s.negate || s.abs) {
                bad("broadcast takes no source modifiers".into());
            }
            if index.ty != Type::UD {
                bad("broadcast's channel index is UD".into());
            }
            match index.kind {
                RegKind::Imm(i) if i >= inst.exec_size as u64 => bad(format!(
                    "broadcast({}) of channel {i}: the index must be below the execution size",
                    inst.exec_size
                )),
                RegKind::Imm(_) | RegKind::Uniform { .. } => {}
                RegKind::Vgrf { stride: 0, .. } | RegKind::Attr { stride: 0, .. } => {}
                RegKind::Fixed { region, .. } if region.is_scalar() => {}
                _ => bad("broadcast's channel index must be a scalar (uniform) value".into()),
            }
        }
    }
}
