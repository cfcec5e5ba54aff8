//! Register-indirect addressing restrictions (docs/hardware/eu-hardware.md §1.4, with the validator rows of
//! §6.3, §6.5 and §6.9 and the 3-source rules of §7.3).

use super::regions::rule;
use super::{hw_src_count, is_double_precision, is_mixed_float, is_send_like};
use compiler::reg::{Reg, RegKind};
use compiler::types::Type;
use compiler::{Inst, Opcode};

fn is_indirect(r: &Reg) -> bool {
    matches!(r.kind, RegKind::Indirect { .. })
}

/// A Vx1/VxH source (VertStride code 0xF, docs/hardware/eu-hardware.md §1.1).
fn is_one_dimensional(r: &Reg) -> bool {
    matches!(r.kind, RegKind::Indirect { region, .. } if region.is_one_dimensional())
}

fn any_indirect(inst: &Inst) -> bool {
    is_indirect(&inst.dst) || inst.srcs.iter().any(is_indirect)
}

rule!(
    // docs/hardware/eu-hardware.md §1.4: "src1 of a 2-source instruction cannot be indirect (emitter
    // asserts a 'hardware restriction')". Mesa asserts rather than validates; the text is ours.
    SRC1_INDIRECT,
    "indirect-src1",
    "src1 of a 2-source instruction must use direct addressing",
    |i, _| !is_send_like(i)
        && !i.op.is_3src()
        && hw_src_count(i) == 2
        && i.srcs.get(1).is_some_and(is_indirect)
);
rule!(
    // docs/hardware/eu-hardware.md §1.4 "3-source operands are direct only", §7.3 ("all operands direct
    // GRFs" in Align16, "direct addressing only" in Align1): the 3-source encodings have no
    // addressing-mode field, for the destination either. The text is ours.
    THREE_SRC_INDIRECT,
    "indirect-3src",
    "3-source instructions must use direct addressing",
    |i, _| i.op.is_3src() && any_indirect(i)
);
rule!(
    // docs/hardware/eu-hardware.md §6.3 "non-split send with indirect src0", §1.4 "SEND src0 must be direct".
    SEND_INDIRECT,
    "send-indirect-src0",
    "send must use direct addressing",
    |i, d| i.op == Opcode::Send
        && !(i.desc.is_some_and(|desc| desc.ex_mlen > 0) || d.verx10 >= 120)
        && i.srcs.first().is_some_and(is_indirect)
);
rule!(
    // docs/hardware/eu-hardware.md §6.5 "mixed float with any indirect source", §1.4.
    MIXED_FLOAT_INDIRECT,
    "mixed-float-indirect-src",
    "Indirect addressing on source is not supported when source and destination data types are mixed float",
    |i, _| is_mixed_float(i) && i.srcs.iter().any(is_indirect)
);
rule!(
    // docs/hardware/eu-hardware.md §5.1 "No register-indirect addressing on the source or the destination"
    // and §6.9 (CHV, BXT, GLK; "double precision" includes the integer DW×DW multiply).
    LP_INDIRECT,
    "qword-lp-indirect",
    "Indirect addressing is not allowed when the execution type is 64-bit",
    |i, _| !is_send_like(i) && is_double_precision(i) && any_indirect(i)
);
rule!(
    // docs/hardware/eu-hardware.md §5.4 (Gfx12.5+, float destinations or double precision: "Vx1/VxH
    // indirect is forbidden for F/HF/DF/Q/BF data") and §6.9. The model has no BF type.
    XEHP_VX1_FLOAT,
    "xehp-vx1-vxh-float",
    "Vx1 and VxH indirect addressing for Float, Half-Float, Double-Float, Quad-Word, and Bfloat16 data must not be used",
    |i, _| !is_send_like(i)
        && !i.dst.is_null()
        && (i.dst.ty.is_float() || is_double_precision(i))
        && i.srcs.iter().any(|s| {
            is_one_dimensional(s)
                && matches!(s.ty, Type::F | Type::HF | Type::DF | Type::Q | Type::UQ)
        })
);
