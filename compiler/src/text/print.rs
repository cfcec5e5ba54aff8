//! Canonical printing of programs in the `.eu` text form.
//!
//! Every value the IR can hold has exactly one printed form, and the parser reads it back to
//! the same value: NaN immediates print as raw hex bits, immediates with bits beyond their
//! type print as hex, a flag subregister that neither the predicate nor the conditional
//! modifier shows goes into the controls.

use crate::cfg::{Cfg, EdgeKind};
use crate::inputs::{Inputs, Value};
use crate::inst::{AccessMode, Inst, MsgDesc, MsgKind};
use crate::program::{Program, Stage};
use crate::reg::{Arf, Reg, RegKind, Region};
use crate::text::{Comments, Document};
use crate::types::{Type, vf_to_f32};
use std::fmt::Write;

/// The text-form version this printer writes.
pub const TEXT_VERSION: u32 = 1;

/// Prints a whole program, header and blocks, ending in a newline.
pub fn print_program(p: &Program) -> String {
    print_with_comments(p, &Comments::default(), None)
}

/// Prints a program with each block's cycle estimate on its START line, as Mesa's dumps do
/// (`START B1 <-B0 (40 cycles)`); the parser reads the annotation and ignores it, since it
/// is derived from the instructions.
pub fn print_program_with_cycles(p: &Program, block_cycles: &[u64]) -> String {
    print_with_comments(p, &Comments::default(), Some(block_cycles))
}

/// Prints a program with the comments of its file.
pub fn print_document(d: &Document) -> String {
    print_with_comments(&d.program, &d.comments, None)
}

fn comment_lines(out: &mut String, indent: &str, lines: Option<&Vec<String>>) {
    for line in lines.into_iter().flatten() {
        let _ = writeln!(out, "{indent}#{line}");
    }
}

fn trailing(out: &mut String, note: Option<&String>) {
    if let Some(note) = note {
        let _ = write!(out, "  #{note}");
    }
}

fn print_with_comments(p: &Program, c: &Comments, block_cycles: Option<&[u64]>) -> String {
    let mut out = String::new();
    let mut header = |key: &str, line: String| {
        comment_lines(&mut out, "", c.before_header.get(key));
        out.push_str(&line);
        trailing(&mut out, c.trailing_header.get(key));
        out.push('\n');
    };
    header("eu", format!("eu {TEXT_VERSION}"));
    header("target", format!("target {}", p.device.name()));
    if p.stage != Stage::Fragment {
        header("stage", format!("stage {}", p.stage.name()));
    }
    header("dispatch", format!("dispatch {}", p.dispatch_width));
    if p.packed_dispatch {
        header("packed_dispatch", "packed_dispatch".into());
    }
    header("threads", format!("threads {}", p.threads));
    if p.uniforms != 0 {
        header("uniforms", format!("uniforms {}", p.uniforms));
    }
    if p.scratch_size != 0 {
        header("scratch", format!("scratch {}", p.scratch_size));
    }
    for (i, size) in p.attr_sizes.iter().enumerate() {
        header(&format!("attr{i}"), format!("attr attr{i} {size}"));
    }
    for (i, size) in p.vgrf_sizes.iter().enumerate() {
        header(&format!("v{i}"), format!("vgrf v{i} {size}"));
    }
    let cfg = Cfg::build(p);
    let arrow = |kind: EdgeKind, succ: bool| match (kind, succ) {
        (EdgeKind::Logical, true) => "->",
        (EdgeKind::Physical, true) => "~>",
        (EdgeKind::Logical, false) => "<-",
        (EdgeKind::Physical, false) => "<~",
    };
    let mut ip = 0;
    for (b, block) in p.blocks.iter().enumerate() {
        out.push('\n');
        comment_lines(&mut out, "", c.before_block.get(&b));
        let _ = write!(out, "START B{b}");
        for e in &cfg.preds[b] {
            let _ = write!(out, " {}B{}", arrow(e.kind, false), e.to);
        }
        if let Some(cycles) = block_cycles.and_then(|c| c.get(b)) {
            let _ = write!(out, " ({cycles} cycles)");
        }
        trailing(&mut out, c.trailing_start.get(&b));
        out.push('\n');
        for inst in &block.insts {
            comment_lines(&mut out, "    ", c.before_inst.get(&ip));
            let _ = write!(out, "    {}", print_inst(inst));
            trailing(&mut out, c.trailing_inst.get(&ip));
            out.push('\n');
            ip += 1;
        }
        comment_lines(&mut out, "    ", c.before_end.get(&b));
        let _ = write!(out, "END B{b}");
        for e in &cfg.succs[b] {
            let _ = write!(out, " {}B{}", arrow(e.kind, true), e.to);
        }
        trailing(&mut out, c.trailing_end.get(&b));
        out.push('\n');
    }
    if let Some(inputs) = &p.inputs {
        out.push('\n');
        comment_lines(&mut out, "", c.before_inputs.as_ref());
        out.push_str(&print_inputs(inputs));
    }
    if !c.trailer.is_empty() {
        out.push('\n');
        comment_lines(&mut out, "", Some(&c.trailer));
    }
    out
}

/// Values with runs of equal values written once with a count (`0.0:F*16`).
fn print_values(values: &[Value]) -> String {
    let mut parts: Vec<String> = vec![];
    let mut i = 0;
    while i < values.len() {
        let v = values[i];
        let run = values[i..].iter().take_while(|w| **w == v).count();
        let lit = format!("{}:{}", print_imm(v.bits, v.ty), v.ty);
        parts.push(if run > 1 { format!("{lit}*{run}") } else { lit });
        i += run;
    }
    parts.join(" ")
}

/// Prints an `INPUTS` … `END INPUTS` section.
pub fn print_inputs(inputs: &Inputs) -> String {
    let mut out = String::from("INPUTS\n");
    let mut line = |head: String, values: &[Value]| {
        let _ = write!(out, "    {head}");
        if !values.is_empty() {
            let _ = write!(out, " {}", print_values(values));
        }
        out.push('\n');
    };
    if !inputs.uniforms.is_empty() {
        line("uniforms".into(), &inputs.uniforms);
    }
    for (surface, data) in &inputs.buffers {
        line(format!("buffer {surface}"), data);
    }
    for (surface, format) in &inputs.textures {
        line(format!("texture {surface} {}", format.name()), &[]);
    }
    let mut threads: Vec<u32> = inputs.dispatch_masks.keys().copied().collect();
    threads.extend(inputs.attrs.keys().map(|(t, _)| *t));
    threads.sort_unstable();
    threads.dedup();
    for t in threads {
        if let Some(mask) = inputs.dispatch_masks.get(&t) {
            line(format!("thread {t} dispatch_mask 0x{mask:x}"), &[]);
        }
        for ((_, attr), values) in inputs.attrs.range((t, 0)..=(t, u32::MAX)) {
            line(format!("thread {t} attr{attr}"), values);
        }
    }
    out.push_str("END INPUTS\n");
    out
}

fn flag_name(subreg: u8) -> String {
    format!("f{}.{}", subreg / 2, subreg % 2)
}

/// Whether the flag subregister appears in the opcode suffix (a flag-writing conditional
/// modifier without a predicate).
fn cmod_shows_flag(inst: &Inst) -> bool {
    inst.predicate.is_none() && inst.writes_flag()
}

/// The quarter-control name for a group (`2Q`, `1H`, `3N`), or `groupN` when the group is
/// not a whole multiple of a 4/8/16-wide instruction's size.
fn group_name(exec_size: u8, group: u8) -> String {
    match exec_size {
        4 | 8 | 16 if group.is_multiple_of(exec_size) => {
            let letter = match exec_size {
                4 => 'N',
                8 => 'Q',
                _ => 'H',
            };
            format!("{}{}", group / exec_size + 1, letter)
        }
        _ => format!("group{group}"),
    }
}

/// Prints one instruction (without indentation or newline).
pub fn print_inst(inst: &Inst) -> String {
    let mut s = String::new();
    if let Some(pred) = inst.predicate {
        let sign = if pred.inverse { '-' } else { '+' };
        let _ = write!(s, "({sign}{}", flag_name(inst.flag_subreg));
        if !pred.kind.suffix().is_empty() {
            let _ = write!(s, ".{}", pred.kind.suffix());
        }
        s.push_str(") ");
    }
    s.push_str(inst.op.name());
    if inst.saturate {
        s.push_str(".sat");
    }
    if let Some(c) = inst.cmod {
        let _ = write!(s, ".{}", c.name());
        if cmod_shows_flag(inst) {
            let _ = write!(s, ".{}", flag_name(inst.flag_subreg));
        }
    }
    let _ = write!(s, "({})", inst.exec_size);
    let bare = inst.dst == Reg::null(Type::UD) && inst.srcs.is_empty();
    if !bare {
        let mode = inst.access_mode;
        let _ = write!(s, " {}", print_operand(&inst.dst, Slot::Dst(mode)));
        for src in &inst.srcs {
            let _ = write!(s, ", {}", print_operand(src, Slot::Src(mode)));
        }
    }
    if let Some(d) = &inst.desc {
        let _ = write!(s, " {}", print_desc(d));
    }
    let mut controls: Vec<String> = vec![];
    if inst.group != 0 {
        controls.push(group_name(inst.exec_size, inst.group));
    }
    if inst.nomask {
        controls.push("NoMask".into());
    }
    if inst.acc_wr {
        controls.push("AccWrEnable".into());
    }
    if inst.no_dd_clear {
        controls.push("NoDDClr".into());
    }
    if inst.no_dd_check {
        controls.push("NoDDChk".into());
    }
    if inst.access_mode == AccessMode::Align16 {
        controls.push("Align16".into());
    }
    if inst.eot {
        controls.push("EOT".into());
    }
    let flag_shown = inst.predicate.is_some() || cmod_shows_flag(inst);
    if !flag_shown && inst.flag_subreg != 0 {
        controls.push(flag_name(inst.flag_subreg));
    }
    if inst.header_size != 0 {
        controls.push(format!("header={}", inst.header_size));
    }
    if !controls.is_empty() {
        let _ = write!(s, " {{ {} }}", controls.join(" "));
    }
    s
}

fn print_desc(d: &MsgDesc) -> String {
    let kind = match d.kind {
        MsgKind::RtWrite { target } => format!("rt_write target={target}"),
        MsgKind::UntypedRead { surface, comps } => {
            format!("untyped_read surface={surface} comps={comps}")
        }
        MsgKind::UntypedWrite { surface, comps } => {
            format!("untyped_write surface={surface} comps={comps}")
        }
        MsgKind::ScratchRead => "scratch_read".into(),
        MsgKind::ScratchWrite => "scratch_write".into(),
        MsgKind::Sample { surface } => format!("sample surface={surface}"),
        MsgKind::UrbWrite { slot } => format!("urb_write slot={slot}"),
    };
    let header = if d.header { " header" } else { "" };
    format!(
        "desc({kind} mlen={} ex_mlen={} rlen={}{header})",
        d.mlen, d.ex_mlen, d.rlen
    )
}

/// Where an operand is printed: its Align16 suffix means a writemask on a destination and a
/// swizzle on a source, and an Align16 fixed GRF prints its region in the short form.
#[derive(Clone, Copy)]
enum Slot {
    /// Outside an instruction: any non-default writemask or swizzle is shown.
    Alone,
    Dst(AccessMode),
    Src(AccessMode),
}

/// Prints one operand on its own: modifiers, location, region or stride, Align16 writemask
/// and swizzle when not the default, type.
pub fn print_reg(r: &Reg) -> String {
    print_operand(r, Slot::Alone)
}

/// The `.xz` / `.zwxy` suffix of an operand (empty when nothing needs showing). In Align16 a
/// source always shows its swizzle (`.xyzw` for the identity, as the brief's canonical form);
/// a destination shows its writemask only when partial (full = no suffix, as Mesa prints).
/// In Align1 a non-default value is still shown so that every IR value round-trips.
fn component_suffix(r: &Reg, slot: Slot) -> String {
    let mask = (!r.writemask.is_full()).then(|| format!(".{}", r.writemask.letters()));
    let swizzle = |always: bool| {
        (always || !r.swizzle.is_identity()).then(|| format!(".{}", r.swizzle.letters()))
    };
    let parts = match slot {
        Slot::Alone => [mask, swizzle(false)],
        Slot::Dst(_) => [mask, None],
        Slot::Src(mode) => [None, swizzle(mode == AccessMode::Align16)],
    };
    parts.into_iter().flatten().collect()
}

/// A fixed GRF's region: in Align16, `<V>` for a source with the stored Align16 region and
/// nothing for a destination with exactly `<4;4,1>`; the full `<V;W,H>` otherwise.
fn push_fixed_region(s: &mut String, region: Region, slot: Slot) {
    match slot {
        Slot::Dst(AccessMode::Align16) if region == Region::align16(4) => {}
        Slot::Src(AccessMode::Align16) if region.is_align16_form() => {
            let _ = write!(s, "<{}>", region.vstride);
        }
        _ => {
            let _ = write!(
                s,
                "<{};{},{}>",
                region.vstride, region.width, region.hstride
            );
        }
    }
}

fn print_operand(r: &Reg, slot: Slot) -> String {
    let mut s = String::new();
    if r.negate {
        s.push('-');
    }
    if r.abs {
        s.push_str("(abs)");
    }
    match r.kind {
        RegKind::Null => s.push_str("null"),
        RegKind::Vgrf { nr, offset, stride } => {
            let _ = write!(s, "v{nr}");
            push_offset_stride(&mut s, offset, Some(stride));
            s.push_str(&component_suffix(r, slot));
        }
        RegKind::Attr { nr, offset, stride } => {
            let _ = write!(s, "attr{nr}");
            push_offset_stride(&mut s, offset, Some(stride));
            s.push_str(&component_suffix(r, slot));
        }
        RegKind::Uniform { nr, offset } => {
            let _ = write!(s, "u{nr}");
            push_offset_stride(&mut s, offset, None);
            s.push_str(&component_suffix(r, slot));
        }
        RegKind::Fixed { nr, subnr, region } => {
            let _ = write!(s, "g{nr}");
            push_subnr(&mut s, subnr, r.ty, false);
            push_fixed_region(&mut s, region, slot);
            s.push_str(&component_suffix(r, slot));
        }
        RegKind::Indirect {
            addr,
            offset,
            region,
        } => {
            let _ = write!(s, "g[a0.{addr}");
            match offset {
                0 => {}
                o if o > 0 => {
                    let _ = write!(s, " + {o}");
                }
                o => {
                    let _ = write!(s, " - {}", o.unsigned_abs());
                }
            }
            s.push(']');
            push_indirect_region(&mut s, region);
        }
        RegKind::Arf {
            file,
            nr,
            subnr,
            region,
        } => {
            let _ = write!(s, "{}{nr}", file.prefix());
            push_subnr(&mut s, subnr, r.ty, file == Arf::Flag);
            let _ = write!(
                s,
                "<{};{},{}>",
                region.vstride, region.width, region.hstride
            );
            s.push_str(&component_suffix(r, slot));
        }
        RegKind::Imm(bits) => {
            let lit = print_imm(bits, r.ty);
            if r.negate && !r.abs {
                let _ = write!(s, "({lit}:{})", r.ty);
                return s;
            }
            s.push_str(&lit);
        }
    }
    let _ = write!(s, ":{}", r.ty);
    s
}

/// The region of an indirect operand: `<Vx1;W,H>` / `<VxH;1,H>` for the one-dimensional
/// VertStride (docs/hardware/eu-hardware.md §1.1 code 0xF), `<H>` for a destination-style region (vstride 0,
/// width 1, a non-zero hstride: only a destination's hstride counts, §1.2), else `<V;W,H>`.
fn push_indirect_region(s: &mut String, region: Region) {
    let Region {
        vstride,
        width,
        hstride,
    } = region;
    if region.is_one_dimensional() {
        let name = if width == 1 { "VxH" } else { "Vx1" };
        let _ = write!(s, "<{name};{width},{hstride}>");
    } else if vstride == 0 && width == 1 && hstride != 0 {
        let _ = write!(s, "<{hstride}>");
    } else {
        let _ = write!(s, "<{vstride};{width},{hstride}>");
    }
}

fn push_offset_stride(s: &mut String, offset: u32, stride: Option<u8>) {
    if offset != 0 {
        let _ = write!(s, "+{offset}");
    }
    if let Some(st) = stride
        && st != 1
    {
        let _ = write!(s, "<{st}>");
    }
}

/// Sub-register numbers print in elements of the operand type (as in Mesa's disassembly);
/// a byte offset that is not a whole element prints in bytes with a `b` suffix.
fn push_subnr(s: &mut String, subnr: u8, ty: Type, always: bool) {
    let size = ty.size() as u8;
    if subnr.is_multiple_of(size) {
        if subnr != 0 || always {
            let _ = write!(s, ".{}", subnr / size);
        }
    } else {
        let _ = write!(s, ".{subnr}b");
    }
}

/// The literal of an immediate (without type). Decimal where it reads back exactly, raw
/// `0x` bits otherwise (NaNs, stray high bits, V/UV).
pub fn print_imm(bits: u64, ty: Type) -> String {
    let hex = || format!("0x{bits:x}");
    let fits = |n: u32| n >= 64 || bits >> n == 0;
    match ty {
        Type::UB | Type::UW | Type::UD | Type::UQ if fits(ty.size() * 8) => bits.to_string(),
        Type::B if fits(8) => (bits as u8 as i8).to_string(),
        Type::W if fits(16) => (bits as u16 as i16).to_string(),
        Type::D if fits(32) => (bits as u32 as i32).to_string(),
        Type::Q => (bits as i64).to_string(),
        Type::F if fits(32) => {
            let f = f32::from_bits(bits as u32);
            if f.is_nan() { hex() } else { format!("{f:?}") }
        }
        Type::HF if fits(16) => {
            let h = half::f16::from_bits(bits as u16);
            if h.is_nan() {
                hex()
            } else {
                format!("{:?}", h.to_f32())
            }
        }
        Type::DF => {
            let d = f64::from_bits(bits);
            if d.is_nan() { hex() } else { format!("{d:?}") }
        }
        Type::VF if fits(32) => {
            let parts: Vec<String> = (0..4)
                .map(|k| format!("{:?}", vf_to_f32((bits >> (8 * k)) as u8)))
                .collect();
            format!("[{}]", parts.join(", "))
        }
        _ => hex(),
    }
}
