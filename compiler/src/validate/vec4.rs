//! Rules of the vec4 stage (`stage vs`, `program::Stage::Vertex`): the SIMD4x2 dispatch
//! model (two vertices × four components in 8 channels), the virtual vec4 operands only it
//! gives a meaning to, and the one form of its output message, `urb_write_logical`.
//!
//! Without these rules the emulator would meet the same programs as faults or guesses: an
//! exec-16 instruction has no vertex to belong to, and a swizzle on a VGRF of a fragment
//! program names components of nothing.

use super::{Report, Rule};
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::program::{Program, VEC4_COMPONENTS};
use crate::reg::{REG_SIZE, Reg, RegKind};

/// Program-level rules: the device and the dispatch width.
pub(super) fn check_program(p: &Program, r: &mut Report) {
    if !p.stage.is_vec4() {
        return;
    }
    if let Some(why) = p.stage.unsupported_on(p.device) {
        r.add(
            Rule::Vec4Stage,
            None,
            format!("`stage vs` on {}: {why}", p.device.name()),
        );
    }
    if p.dispatch_width != 8 {
        r.add(
            Rule::Vec4Stage,
            None,
            format!(
                "a vec4 (SIMD4x2) thread has 8 channels, two vertices of four components: dispatch {} is not 8",
                p.dispatch_width
            ),
        );
    }
}

/// Whether the operand is a virtual register whose Align16 reading is the vec4 layout.
fn is_virtual(reg: &Reg) -> bool {
    matches!(
        reg.kind,
        RegKind::Vgrf { .. } | RegKind::Attr { .. } | RegKind::Uniform { .. }
    )
}

pub(super) fn check(p: &Program, ip: usize, inst: &Inst, r: &mut Report) {
    if inst.op == Opcode::UrbWriteLogical {
        check_urb_write(p, ip, inst, r);
    }
    let operands = || std::iter::once(&inst.dst).chain(&inst.srcs);
    if !p.stage.is_vec4() {
        if inst.is_align16() && operands().any(is_virtual) {
            r.add(
                Rule::Vec4Stage,
                Some(ip),
                "an Align16 instruction on a VGRF/ATTR/UNIFORM operand: vec4 components of virtual registers exist only in `stage vs` programs",
            );
        }
        return;
    }
    let mut bad = |msg: String| r.add(Rule::Vec4Stage, Some(ip), msg);
    if !matches!(inst.exec_size, 4 | 8) {
        bad(format!(
            "exec size {} in the vec4 stage: instructions run one vertex (4) or both (8)",
            inst.exec_size
        ));
    }
    if matches!(inst.op, Opcode::FbWriteLogical | Opcode::TexLogical) {
        bad(format!(
            "`{}` is a fragment-stage message; a vertex program outputs with urb_write_logical",
            inst.op.name()
        ));
    }
    if !inst.is_align16() {
        return;
    }
    // Immediates only where the vec4 IR has them (docs/hardware/fp64-align16.md §6): a DF
    // one anywhere (`setup_imm_df` loads it), a 32-bit one never in src0 of a two-source
    // instruction nor in a three-source one, since no vec4 pass moves it out of there.
    let imm32 = |s: &Reg| s.is_imm() && s.ty.size() < 8;
    let misplaced = if inst.op.is_3src() {
        inst.srcs.iter().any(imm32)
    } else {
        inst.srcs.len() == 2 && imm32(&inst.srcs[0])
    };
    if misplaced {
        bad(format!(
            "a 32-bit immediate in {} of `{}`: vec4 IR keeps immediates in src1 of a two-source instruction (none in src0 or a three-source one)",
            if inst.op.is_3src() {
                "a source"
            } else {
                "src0"
            },
            inst.op.name()
        ));
    }
    // Between 64-bit and 32-bit data the vec4 IR goes only by MOV (a conversion, which
    // `lower_df_conversions` expands into Mesa's sequence) and by the dword-half
    // operations: Mesa's NIR translation makes every other instruction one width, a DF
    // compare included (into a dvec4, then PICK_LOW_32BIT; docs/hardware/fp64-align16.md
    // §5.2). `add v:F, a:DF, b:DF` has no lowering and would reach the hardware as a DF
    // operation with a packed 32-bit destination.
    let converts = matches!(
        inst.op,
        Opcode::Mov | Opcode::PickLow32 | Opcode::PickHigh32 | Opcode::SetLow32 | Opcode::SetHigh32
    ) || inst.op.is_message()
        || inst.op.is_control_flow();
    if !converts && super::types::mixes_64bit_and_narrower(inst) {
        bad(format!(
            "`{}` mixes 64-bit and 32-bit operands: the vec4 IR converts between them only with a MOV",
            inst.op.name()
        ));
    }
    for reg in operands().filter(|r| is_virtual(r)) {
        let vec4_bytes = VEC4_COMPONENTS * reg.ty.size();
        match reg.kind {
            RegKind::Vgrf { offset, stride, .. } | RegKind::Attr { offset, stride, .. }
                if stride != 1 || offset % vec4_bytes != 0 =>
            {
                r.add(
                    Rule::Vec4Stage,
                    Some(ip),
                    format!(
                        "Align16 operand `{}` must be a whole vec4: stride 1 and an offset that is a multiple of {vec4_bytes} bytes",
                        crate::text::print_reg(reg)
                    ),
                );
            }
            RegKind::Uniform { nr, offset }
                if uniform_end(reg, nr, offset) > p.uniforms as u64 * 4 =>
            {
                r.add(
                    Rule::UniformOutOfBounds,
                    Some(ip),
                    format!(
                        "the vec4 uniform `{}` reads push-constant bytes up to {} of {}",
                        crate::text::print_reg(reg),
                        uniform_end(reg, nr, offset),
                        p.uniforms as u64 * 4
                    ),
                );
            }
            _ => {}
        }
    }
}

/// The byte after the last push-constant byte a vec4 uniform reads: up to the highest
/// component its swizzle names (a `double` read `.xxxx` takes 8 bytes, a dvec4 `.xyzw` 32).
fn uniform_end(reg: &Reg, nr: u32, offset: u32) -> u64 {
    let top = reg.swizzle.comps().into_iter().max().unwrap_or(0) as u64;
    nr as u64 * 4 + offset as u64 + (top + 1) * reg.ty.size() as u64
}

/// Output slots a vertex has (Mesa's VARYING_SLOT_MAX is larger; 32 is plenty for a model).
pub(super) const URB_SLOTS: u64 = 32;

fn check_urb_write(p: &Program, ip: usize, inst: &Inst, r: &mut Report) {
    let mut bad = |msg: &str| r.add(Rule::UrbWriteForm, Some(ip), msg);
    if !p.stage.is_vec4() {
        bad("urb_write_logical outputs vertices: only `stage vs` programs have it");
    }
    if inst.exec_size != 8 || inst.group != 0 || inst.nomask {
        bad("a URB write covers both vertices: exec 8, group 0, not NoMask");
    }
    if inst.predicate.is_some() || inst.cmod.is_some() || inst.saturate {
        bad("a URB write takes no predicate, conditional modifier or saturate");
    }
    if !inst.dst.is_null() {
        bad("a URB write has no destination");
    }
    let Some(data) = inst.srcs.first() else {
        return;
    };
    let aligned =
        matches!(data.kind, RegKind::Vgrf { offset, stride: 1, .. } if offset % REG_SIZE == 0);
    if !aligned || !matches!(data.ty.size(), 4 | 8) || !data.swizzle.is_identity() {
        bad(
            "the data (source 0) must be a register-aligned stride-1 VGRF of a 32- or 64-bit type without swizzle",
        );
    }
    if data.negate || data.abs {
        bad("the data (source 0) takes no source modifiers");
    }
    let slot = inst.imm_src(1);
    let count = inst.imm_src(2);
    if slot.is_none_or(|s| s >= URB_SLOTS) {
        bad("the first output slot (source 1) must be an immediate 0..31");
    }
    if count.is_none_or(|c| !(1..=4).contains(&c)) {
        bad("the value count (source 2) must be an immediate 1..4");
    }
    let slots_per_value = if data.ty.size() == 8 { 2 } else { 1 };
    if let (Some(s), Some(c)) = (slot, count)
        && c.saturating_mul(slots_per_value).saturating_add(s) > URB_SLOTS
    {
        bad("the values run past output slot 31 (a dvec4 takes two slots)");
    }
}
