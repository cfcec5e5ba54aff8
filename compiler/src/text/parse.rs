//! Parsing the `.eu` text form. Every error carries the line and column where the input
//! stopped making sense and says what was expected; no input makes the parser panic.

use crate::cfg::{Cfg, Edge, EdgeKind};
use crate::device::{ALL_DEVICES, Device};
use crate::inputs::{Inputs, TextureFormat, Value};
use crate::inst::{AccessMode, CMOD_NAMES, Inst, MsgDesc, MsgKind, PRED_NAMES, Predicate};
use crate::opcode::Opcode;
use crate::program::{Block, Program, Stage};
use crate::reg::{ARF_NAMES, COMPONENT_LETTERS, Reg, RegKind, Region, Swizzle, WriteMask};
use crate::text::input_sites::{self, InputSites};
use crate::text::print::TEXT_VERSION;
use crate::text::{Comments, Document};
use crate::types::{Type, f32_to_vf};
use std::fmt;

/// A parse failure at a 1-based line and column.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.msg)
    }
}

impl std::error::Error for ParseError {}

type Result<T> = std::result::Result<T, ParseError>;

/// A cursor over one line of input (comment already removed).
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str, line: usize) -> Cursor<'a> {
        Cursor { text, pos: 0, line }
    }

    fn col(&self) -> usize {
        self.text[..self.pos].chars().count() + 1
    }

    fn err<T>(&self, msg: impl Into<String>) -> Result<T> {
        Err(ParseError {
            line: self.line,
            col: self.col(),
            msg: msg.into(),
        })
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn skip_ws(&mut self) {
        let trimmed = self.rest().trim_start();
        self.pos = self.text.len() - trimmed.len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.rest().chars().next()
    }

    fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn eat_str(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Describes what is at the cursor, for error messages.
    fn found(&mut self) -> String {
        self.skip_ws();
        match self.rest().split_whitespace().next() {
            Some(tok) => format!("`{}`", tok.chars().take(24).collect::<String>()),
            None => "end of line".into(),
        }
    }

    fn expect(&mut self, c: char, what: &str) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            let found = self.found();
            self.err(format!("expected {what}, found {found}"))
        }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`, or `None` without moving.
    fn word(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let rest = self.rest();
        let mut chars = rest.char_indices();
        match chars.next() {
            Some((_, c)) if c.is_ascii_alphabetic() || c == '_' => {}
            _ => return None,
        }
        let end = chars
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            .map(|(i, _)| i)
            .unwrap_or(rest.len());
        self.pos += end;
        Some(&rest[..end])
    }

    fn expect_word(&mut self, what: &str) -> Result<&'a str> {
        match self.word() {
            Some(w) => Ok(w),
            None => {
                let found = self.found();
                self.err(format!("expected {what}, found {found}"))
            }
        }
    }

    /// A decimal number that must fit `T`.
    fn number<T: TryFrom<u64>>(&mut self, what: &str) -> Result<T> {
        self.skip_ws();
        let rest = self.rest();
        let end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if end == 0 {
            let found = self.found();
            return self.err(format!("expected {what}, found {found}"));
        }
        let value: Option<u64> = rest[..end].parse().ok();
        match value.and_then(|v| T::try_from(v).ok()) {
            Some(v) => {
                self.pos += end;
                Ok(v)
            }
            None => self.err(format!("{what} `{}` is out of range", &rest[..end])),
        }
    }

    fn expect_end(&mut self, after: &str) -> Result<()> {
        if self.at_end() {
            Ok(())
        } else {
            let found = self.found();
            self.err(format!("unexpected {found} after {after}"))
        }
    }
}

/// Splits `acc0` into (`acc`, Some(0)), `null` into (`null`, None).
fn split_name(w: &str) -> (&str, Option<&str>) {
    let idx = w.find(|c: char| c.is_ascii_digit()).unwrap_or(w.len());
    let (name, digits) = w.split_at(idx);
    (name, (!digits.is_empty()).then_some(digits))
}

fn parse_type(c: &mut Cursor) -> Result<Type> {
    c.expect(':', "`:` and a type")?;
    let col_pos = c.pos;
    let w = c.expect_word("a type (UB B UW W UD D UQ Q HF F DF UV V VF)")?;
    match Type::from_letters(w) {
        Some(t) => Ok(t),
        None => {
            c.pos = col_pos;
            c.skip_ws();
            c.err(format!(
                "unknown type `{w}`: expected one of UB B UW W UD D UQ Q HF F DF UV V VF"
            ))
        }
    }
}

fn parse_region(c: &mut Cursor) -> Result<Region> {
    const WHAT: &str = "a region `<vstride;width,hstride>`";
    c.expect('<', WHAT)?;
    let vstride = c.number("vertical stride")?;
    c.expect(';', "`;` in a region `<vstride;width,hstride>`")?;
    parse_region_tail(c, vstride)
}

/// The region of a fixed GRF after `g<nr>[.sub]`: `<V;W,H>`; the Align16 short form `<V>`
/// ([`Region::align16`]); or nothing, an Align16 destination's implied `<4;4,1>`.
fn parse_fixed_region(c: &mut Cursor) -> Result<(Region, RegionForm)> {
    c.skip_ws();
    let col = c.col();
    if !c.eat('<') {
        return Ok((Region::align16(4), RegionForm::Omitted(col)));
    }
    let vstride: u8 = c.number("vertical stride")?;
    if c.eat('>') {
        return Ok((Region::align16(vstride), RegionForm::Short(col)));
    }
    c.expect(
        ';',
        "`;` in a region `<vstride;width,hstride>`, or `>` closing an Align16 `<vstride>`",
    )?;
    let region = parse_region_tail(c, vstride)?;
    Ok((region, RegionForm::Full))
}

/// `width,hstride>` of a region whose `<vstride;` has been read.
fn parse_region_tail(c: &mut Cursor, vstride: u8) -> Result<Region> {
    let width = c.number("width")?;
    c.expect(',', "`,` in a region `<vstride;width,hstride>`")?;
    let hstride = c.number("horizontal stride")?;
    c.expect('>', "`>` closing a region")?;
    Ok(Region {
        vstride,
        width,
        hstride,
    })
}

/// `[a0.N + K]<region>` after `g`: a register-indirect operand (docs/hardware/eu-hardware.md §1.4).
fn parse_indirect(c: &mut Cursor) -> Result<RegKind> {
    c.expect('[', "`[` opening an indirect address")?;
    let at = c.pos;
    let w = c.expect_word("an address register `a0`")?;
    if w != "a0" {
        c.pos = at;
        c.skip_ws();
        return c.err(format!("expected the address register `a0`, found `{w}`"));
    }
    c.expect('.', "`.` and an address subregister (a0.0 .. a0.15)")?;
    // Any subregister number the IR can hold parses (so every program round-trips); one
    // beyond a0.15 is a run-time fault in the emulator, not a syntax error.
    let addr: u8 = c.number("address subregister")?;
    let offset = if c.eat('+') || c.peek() == Some('-') {
        let negative = c.eat('-');
        c.skip_ws();
        let number_at = c.pos;
        let magnitude: u64 = c.number("address immediate (bytes)")?;
        let signed = if negative {
            -(magnitude as i64)
        } else {
            magnitude as i64
        };
        i16::try_from(signed).or_else(|_| {
            c.pos = number_at;
            c.err(format!(
                "address immediate {signed} is out of range ({}..={})",
                i16::MIN,
                i16::MAX
            ))
        })?
    } else {
        0
    };
    c.expect(']', "`]` closing an indirect address")?;
    let region = parse_indirect_region(c)?;
    Ok(RegKind::Indirect {
        addr,
        offset,
        region,
    })
}

/// `<V;W,H>`, `<Vx1;W,H>` (W > 1), `<VxH;1,H>` or a destination's `<H>`.
fn parse_indirect_region(c: &mut Cursor) -> Result<Region> {
    const WHAT: &str = "a region `<vstride;width,hstride>`, `<Vx1;width,hstride>`, `<VxH;1,hstride>` or `<hstride>`";
    c.expect('<', WHAT)?;
    let at = c.pos;
    let one_dimensional = match c.word() {
        Some("Vx1") => Some(false),
        Some("VxH") => Some(true),
        Some(w) => {
            c.pos = at;
            c.skip_ws();
            return c.err(format!(
                "expected a vertical stride, `Vx1` or `VxH`, found `{w}`"
            ));
        }
        None => None,
    };
    let vstride = match one_dimensional {
        Some(_) => Region::ONE_DIMENSIONAL,
        None => {
            let v: u8 = c.number("vertical stride")?;
            if c.eat('>') {
                return Ok(Region::new(0, 1, v));
            }
            if v == Region::ONE_DIMENSIONAL {
                c.pos = at;
                c.skip_ws();
                return c.err(format!(
                    "vertical stride {v} is the one-dimensional code: write `Vx1` or `VxH`"
                ));
            }
            v
        }
    };
    c.expect(';', "`;` in a region `<vstride;width,hstride>`")?;
    let width_at = c.pos;
    let width: u8 = c.number("width")?;
    match one_dimensional {
        Some(true) if width != 1 => {
            c.pos = width_at;
            c.skip_ws();
            return c.err("a `VxH` region has width 1 (use `Vx1` for wider rows)");
        }
        Some(false) if width == 1 => {
            c.pos = width_at;
            c.skip_ws();
            return c.err("a `Vx1` region with width 1 is spelled `VxH`");
        }
        _ => {}
    }
    c.expect(',', "`,` in a region `<vstride;width,hstride>`")?;
    let hstride = c.number("horizontal stride")?;
    c.expect('>', "`>` closing a region")?;
    Ok(Region::new(vstride, width, hstride))
}

/// The literal text of an immediate (`-1.5e-3`, `0x7fc00000`, `inf`).
fn literal_text<'a>(c: &mut Cursor<'a>) -> &'a str {
    c.skip_ws();
    let rest = c.rest();
    let bytes = rest.as_bytes();
    let mut end = 0;
    while end < bytes.len() {
        let ch = bytes[end] as char;
        let sign_ok = (ch == '-' || ch == '+')
            && (end == 0 || matches!(bytes[end - 1], b'e' | b'E') && !rest.starts_with("0x"));
        if ch.is_ascii_alphanumeric() || ch == '.' || sign_ok {
            end += 1;
        } else {
            break;
        }
    }
    c.pos += end;
    &rest[..end]
}

/// Encodes a literal for a type: hex is raw bits, decimal is a value range-checked for
/// integer types and rounded for float types.
fn imm_bits(lit: &str, ty: Type) -> std::result::Result<u64, String> {
    if let Some(hex) = lit.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16)
            .map_err(|_| format!("bad hexadecimal immediate `{lit}`"));
    }
    let (lo, hi): (i128, i128) = match ty {
        Type::UB => (0, u8::MAX as i128),
        Type::B => (i8::MIN as i128, i8::MAX as i128),
        Type::UW | Type::UV | Type::V => (0, u16::MAX as i128),
        Type::W => (i16::MIN as i128, i16::MAX as i128),
        Type::UD => (0, u32::MAX as i128),
        Type::D => (i32::MIN as i128, i32::MAX as i128),
        Type::UQ => (0, u64::MAX as i128),
        Type::Q => (i64::MIN as i128, i64::MAX as i128),
        Type::F | Type::HF | Type::DF => {
            let exact: f64 = lit
                .parse()
                .map_err(|_| format!("bad float immediate `{lit}` for type {ty}"))?;
            // Parse at the target precision directly: printed literals are the shortest
            // decimal that reads back to the same f32, which a detour through f64 could miss.
            let single: f32 = lit.parse().unwrap_or(f32::NAN);
            let (bits, rounded) = match ty {
                Type::F => (single.to_bits() as u64, single as f64),
                Type::HF => {
                    let h = half::f16::from_f32(single);
                    (h.to_bits() as u64, h.to_f64())
                }
                _ => (exact.to_bits(), exact),
            };
            if exact.is_finite() && rounded.is_infinite() {
                return Err(format!("{lit} is too large for type {ty}"));
            }
            if exact != 0.0 && rounded == 0.0 {
                return Err(format!(
                    "{lit} is too small for type {ty} (it would round to 0)"
                ));
            }
            return Ok(bits);
        }
        Type::VF => {
            return Err("VF immediates are written `[a, b, c, d]:VF` or as 0x bits".into());
        }
    };
    let v: i128 = lit
        .parse()
        .map_err(|_| format!("bad integer immediate `{lit}` for type {ty}"))?;
    if v < lo || v > hi {
        return Err(format!("immediate {v} is out of range for type {ty}"));
    }
    let mask: u64 = if ty.size() >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * ty.size())) - 1
    };
    Ok((v as u64) & mask)
}

fn parse_imm(c: &mut Cursor) -> Result<Reg> {
    let start = c.pos;
    if c.eat('[') {
        let mut bits = 0u64;
        for k in 0..4 {
            if k > 0 {
                c.expect(',', "`,` between VF elements")?;
            }
            c.skip_ws();
            let at = c.pos;
            let lit = literal_text(c);
            let byte = lit.parse::<f32>().ok().and_then(f32_to_vf);
            match byte {
                Some(b) => bits |= (b as u64) << (8 * k),
                None => {
                    c.pos = at;
                    return c.err(format!(
                        "`{lit}` is not a VF (8-bit restricted float) value"
                    ));
                }
            }
        }
        c.expect(']', "`]` closing a VF immediate")?;
        let ty = parse_type(c)?;
        if ty != Type::VF {
            c.pos = start;
            return c.err("a `[a, b, c, d]` immediate must have type VF");
        }
        return Ok(Reg::new(RegKind::Imm(bits), Type::VF));
    }
    let lit = literal_text(c);
    if lit.is_empty() {
        let found = c.found();
        return c.err(format!("expected an operand, found {found}"));
    }
    let ty = parse_type(c)?;
    match imm_bits(lit, ty) {
        Ok(bits) => Ok(Reg::new(RegKind::Imm(bits), ty)),
        Err(msg) => {
            c.pos = start;
            c.err(msg)
        }
    }
}

/// `+offset` and `<stride>` after a virtual register.
fn parse_offset_stride(c: &mut Cursor, with_stride: bool) -> Result<(u32, u8)> {
    let offset = if c.eat('+') {
        c.number("byte offset")?
    } else {
        0
    };
    let stride = if with_stride && c.eat('<') {
        let s = c.number("stride")?;
        c.expect('>', "`>` after a stride")?;
        s
    } else {
        1
    };
    Ok((offset, stride))
}

/// `.N` (elements) or `.Nb` (bytes) after a hardware register; resolved once the type is known.
fn parse_subnr(c: &mut Cursor) -> Result<Option<(u32, bool)>> {
    let letters_follow = c
        .rest()
        .strip_prefix('.')
        .is_some_and(|r| r.starts_with(COMPONENT_LETTERS));
    if letters_follow || !c.eat('.') {
        return Ok(None);
    }
    let n: u32 = c.number("sub-register number")?;
    let bytes = c.rest().starts_with('b');
    if bytes {
        c.pos += 1;
    }
    Ok(Some((n, bytes)))
}

fn resolve_subnr(c: &Cursor, sub: Option<(u32, bool)>, ty: Type) -> Result<u8> {
    let bytes = match sub {
        None => 0,
        Some((n, true)) => n,
        Some((n, false)) => n * ty.size(),
    };
    u8::try_from(bytes)
        .or_else(|_| c.err(format!("sub-register byte offset {bytes} is out of range")))
}

fn parse_register(c: &mut Cursor) -> Result<Operand> {
    let mut form = RegionForm::Full;
    let mut letters = None;
    let start = c.pos;
    let Some(w) = c.word() else {
        let found = c.found();
        return c.err(format!("expected an operand, found {found}"));
    };
    let (name, digits) = split_name(w);
    let nr = |c: &Cursor| -> Result<u64> {
        match digits.and_then(|d| d.parse::<u64>().ok()) {
            Some(n) => Ok(n),
            None => {
                let mut c2 = Cursor::new(c.text, c.line);
                c2.pos = start;
                c2.err(format!("register number missing or out of range in `{w}`"))
            }
        }
    };
    let narrow = |c: &Cursor, n: u64, max: u64| -> Result<u64> {
        if n <= max {
            Ok(n)
        } else {
            let mut c2 = Cursor::new(c.text, c.line);
            c2.pos = start;
            c2.err(format!("register number {n} is out of range in `{w}`"))
        }
    };
    let kind_and_type = match (name, digits) {
        ("null", None) => (RegKind::Null, parse_type(c)?),
        ("v", Some(_)) | ("attr", Some(_)) => {
            let n = narrow(c, nr(c)?, u32::MAX as u64)? as u32;
            let (offset, stride) = parse_offset_stride(c, true)?;
            letters = parse_letters(c)?;
            let kind = if name == "v" {
                RegKind::Vgrf {
                    nr: n,
                    offset,
                    stride,
                }
            } else {
                RegKind::Attr {
                    nr: n,
                    offset,
                    stride,
                }
            };
            (kind, parse_type(c)?)
        }
        ("u", Some(_)) => {
            let n = narrow(c, nr(c)?, u32::MAX as u64)? as u32;
            let (offset, _) = parse_offset_stride(c, false)?;
            letters = parse_letters(c)?;
            (RegKind::Uniform { nr: n, offset }, parse_type(c)?)
        }
        ("g", None) if c.rest().starts_with('[') => {
            let kind = parse_indirect(c)?;
            (kind, parse_type(c)?)
        }
        ("g", Some(_)) => {
            let n = narrow(c, nr(c)?, u16::MAX as u64)? as u16;
            let sub = parse_subnr(c)?;
            let (region, region_form) = parse_fixed_region(c)?;
            form = region_form;
            letters = parse_letters(c)?;
            let ty = parse_type(c)?;
            let subnr = resolve_subnr(c, sub, ty)?;
            (
                RegKind::Fixed {
                    nr: n,
                    subnr,
                    region,
                },
                ty,
            )
        }
        _ => {
            let Some((file, _)) = ARF_NAMES.iter().find(|(_, p)| *p == name) else {
                c.pos = start;
                return c.err(format!(
                    "unknown register `{w}`: expected vN, gN, uN, attrN, null, an ARF (accN, fN.M, aN, ...) or an immediate"
                ));
            };
            let n = narrow(c, nr(c)?, u8::MAX as u64)? as u8;
            let sub = parse_subnr(c)?;
            let region = parse_region(c)?;
            letters = parse_letters(c)?;
            let ty = parse_type(c)?;
            let subnr = resolve_subnr(c, sub, ty)?;
            (
                RegKind::Arf {
                    file: *file,
                    nr: n,
                    subnr,
                    region,
                },
                ty,
            )
        }
    };
    Ok(Operand {
        reg: Reg::new(kind_and_type.0, kind_and_type.1),
        form,
        letters,
    })
}

fn parse_operand(c: &mut Cursor) -> Result<Operand> {
    c.skip_ws();
    let mut negate = false;
    if let Some(after) = c.rest().strip_prefix('-') {
        let is_modifier = after.starts_with('(')
            || (after.starts_with(|ch: char| ch.is_ascii_alphabetic())
                && !after.starts_with("inf"));
        if is_modifier {
            c.pos += 1;
            negate = true;
        }
    }
    let abs = c.rest().starts_with("(abs)");
    if abs {
        c.pos += "(abs)".len();
    }
    let rest = c.rest();
    let mut op = if rest.starts_with('(') {
        c.pos += 1;
        let r = parse_imm(c)?;
        c.expect(')', "`)` closing an immediate")?;
        Operand::plain(r)
    } else if rest.starts_with(|ch: char| ch.is_ascii_digit() || ch == '-' || ch == '[')
        || rest.starts_with("inf")
    {
        Operand::plain(parse_imm(c)?)
    } else {
        parse_register(c)?
    };
    op.reg.negate = negate;
    op.reg.abs = abs;
    Ok(op)
}

/// How a fixed GRF's region was written; the short and omitted forms (with the column
/// where they start, for the error) are Align16 only.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RegionForm {
    Full,
    Short(usize),
    Omitted(usize),
}

/// Component letters after an operand (`.xy`, `.zwxy`) and the column they start at: a
/// writemask on a destination, a swizzle on a source, decided once the operand's slot is known.
struct Letters {
    text: String,
    col: usize,
}

/// One parsed operand before the instruction's access mode is known.
struct Operand {
    reg: Reg,
    form: RegionForm,
    letters: Option<Letters>,
}

impl Operand {
    fn plain(reg: Reg) -> Operand {
        Operand {
            reg,
            form: RegionForm::Full,
            letters: None,
        }
    }
}

/// `.` followed by component letters, if present.
fn parse_letters(c: &mut Cursor) -> Result<Option<Letters>> {
    let follows = c
        .rest()
        .strip_prefix('.')
        .is_some_and(|r| r.starts_with(COMPONENT_LETTERS));
    if !follows {
        return Ok(None);
    }
    c.pos += 1;
    let col = c.col();
    let w = c.word().unwrap_or("");
    if w.len() > 4 || !w.chars().all(|ch| COMPONENT_LETTERS.contains(&ch)) {
        return Err(ParseError {
            line: c.line,
            col,
            msg: format!("bad swizzle or writemask `.{w}`: expected one to four of x y z w"),
        });
    }
    Ok(Some(Letters {
        text: w.to_string(),
        col,
    }))
}

fn component_index(ch: char) -> u8 {
    COMPONENT_LETTERS.iter().position(|&l| l == ch).unwrap_or(0) as u8
}

/// Applies an operand's letters and checks its region form against the access mode.
fn finish_operand(c: &Cursor, op: Operand, is_dst: bool, mode: AccessMode) -> Result<Reg> {
    let mut reg = op.reg;
    let at = |col: usize, msg: String| ParseError {
        line: c.line,
        col,
        msg,
    };
    if mode == AccessMode::Align1 {
        match op.form {
            RegionForm::Full => {}
            RegionForm::Omitted(col) | RegionForm::Short(col) => {
                return Err(at(
                    col,
                    "expected a region `<vstride;width,hstride>` (the short `<vstride>` and omitted forms need `{ Align16 }`)".into(),
                ));
            }
        }
    }
    let Some(letters) = op.letters else {
        return Ok(reg);
    };
    let comps: Vec<u8> = letters.text.chars().map(component_index).collect();
    if is_dst {
        if comps.windows(2).any(|w| w[0] >= w[1]) {
            return Err(at(
                letters.col,
                format!(
                    "bad writemask `.{}`: components must be distinct and in x y z w order",
                    letters.text
                ),
            ));
        }
        reg.writemask = WriteMask(comps.iter().fold(0, |m, &k| m | 1 << k));
    } else {
        reg.swizzle = match comps[..] {
            [k] => Swizzle::replicate(k),
            [a, b, cc, d] => Swizzle::new([a, b, cc, d]),
            _ => {
                return Err(at(
                    letters.col,
                    format!(
                        "bad swizzle `.{}`: expected one letter (`.x`) or four (`.zwxy`)",
                        letters.text
                    ),
                ));
            }
        };
    }
    Ok(reg)
}

/// `fN.M` → flag subregister index 2N+M.
fn flag_from_word(c: &mut Cursor, w: &str) -> Result<Option<u8>> {
    let (name, digits) = split_name(w);
    if name != "f" {
        return Ok(None);
    }
    let Some(n) = digits
        .and_then(|d| d.parse::<u8>().ok())
        .filter(|n| *n < 128)
    else {
        return c.err(format!("bad flag register `{w}`"));
    };
    c.expect('.', "`.` and a flag subregister (f0.0, f0.1, f1.0, ...)")?;
    let sub: u8 = c.number("flag subregister")?;
    if sub > 1 {
        return c.err("flag subregister must be .0 or .1");
    }
    Ok(Some(n * 2 + sub))
}

fn parse_desc(c: &mut Cursor) -> Result<MsgDesc> {
    c.expect('(', "`(` after desc")?;
    let kind_word = c.expect_word("a message kind")?;
    let mut fields: Vec<(&str, u64)> = vec![];
    let mut header = false;
    while !c.eat(')') {
        let w = c.expect_word("a descriptor field or `)`")?;
        if w == "header" {
            header = true;
            continue;
        }
        c.expect('=', "`=` after a descriptor field")?;
        let v: u64 = c.number("descriptor field value")?;
        fields.push((w, v));
    }
    let mut get = |key: &str| -> Result<u8> {
        match fields.iter().position(|(k, _)| *k == key) {
            Some(i) => {
                let v = fields.remove(i).1;
                u8::try_from(v)
                    .or_else(|_| c.err(format!("descriptor field {key}={v} is out of range")))
            }
            None => c.err(format!("descriptor is missing `{key}=`")),
        }
    };
    let kind = match kind_word {
        "rt_write" => MsgKind::RtWrite {
            target: get("target")?,
        },
        "untyped_read" => MsgKind::UntypedRead {
            surface: get("surface")?,
            comps: get("comps")?,
        },
        "untyped_write" => MsgKind::UntypedWrite {
            surface: get("surface")?,
            comps: get("comps")?,
        },
        "scratch_read" => MsgKind::ScratchRead,
        "scratch_write" => MsgKind::ScratchWrite,
        "sample" => MsgKind::Sample {
            surface: get("surface")?,
        },
        "urb_write" => MsgKind::UrbWrite { slot: get("slot")? },
        other => {
            return c.err(format!(
                "unknown message kind `{other}`: expected rt_write, untyped_read, untyped_write, scratch_read, scratch_write, sample or urb_write"
            ));
        }
    };
    let desc = MsgDesc {
        kind,
        mlen: get("mlen")?,
        ex_mlen: get("ex_mlen")?,
        rlen: get("rlen")?,
        header,
    };
    if let Some((k, _)) = fields.first() {
        return c.err(format!("unknown descriptor field `{k}`"));
    }
    Ok(desc)
}

fn set_flag(c: &Cursor, slot: &mut Option<u8>, value: u8) -> Result<()> {
    match *slot {
        Some(old) if old != value => c.err("conflicting flag registers in one instruction"),
        _ => {
            *slot = Some(value);
            Ok(())
        }
    }
}

fn parse_controls(c: &mut Cursor, inst: &mut Inst, flag: &mut Option<u8>) -> Result<()> {
    loop {
        c.skip_ws();
        if c.eat('}') {
            return Ok(());
        }
        let rest = c.rest();
        let len = rest
            .find(|ch: char| ch.is_whitespace() || ch == '}')
            .unwrap_or(rest.len());
        if len == 0 {
            return c.err("expected `}` closing the instruction controls");
        }
        let tok = &rest[..len];
        let parsed_group = |t: &str| -> Option<u8> {
            if let Some(n) = t.strip_prefix("group") {
                return n.parse().ok();
            }
            let unit_char = t.chars().last()?;
            let (digits, unit) = t.split_at(t.len() - unit_char.len_utf8());
            let idx: u32 = digits.parse().ok()?;
            let width = match unit {
                "N" => 4,
                "Q" => 8,
                "H" => 16,
                _ => return None,
            };
            u8::try_from(idx.checked_sub(1)? * width).ok()
        };
        match tok {
            "NoMask" => inst.nomask = true,
            "AccWrEnable" => inst.acc_wr = true,
            "NoDDClr" => inst.no_dd_clear = true,
            "NoDDChk" => inst.no_dd_check = true,
            "Align16" => inst.access_mode = AccessMode::Align16,
            "EOT" => inst.eot = true,
            _ if tok.starts_with("header=") => match tok["header=".len()..].parse() {
                Ok(n) => inst.header_size = n,
                Err(_) => return c.err(format!("bad header size in `{tok}`")),
            },
            _ if tok.starts_with('f') && tok.contains('.') => {
                let w = c.word().unwrap_or("");
                match flag_from_word(c, w)? {
                    Some(f) => set_flag(c, flag, f)?,
                    None => return c.err(format!("unknown control `{tok}`")),
                }
                continue;
            }
            _ => match parsed_group(tok) {
                Some(g) => inst.group = g,
                None => {
                    return c.err(format!(
                        "unknown control `{tok}`: expected NoMask, AccWrEnable, NoDDClr, NoDDChk, Align16, EOT, 1Q..4Q, 1H/2H, 1N..8N, groupN, fN.M or header=N"
                    ));
                }
            },
        }
        c.pos += len;
    }
}

/// Parses one instruction line.
fn parse_inst(c: &mut Cursor) -> Result<Inst> {
    let mut inst = Inst::control(Opcode::Nop, 1);
    let mut flag: Option<u8> = None;
    if c.eat('(') {
        let inverse = if c.eat('-') {
            true
        } else if c.eat('+') {
            false
        } else {
            let found = c.found();
            return c.err(format!(
                "expected `+` or `-` starting a predicate, found {found}"
            ));
        };
        let w = c.expect_word("a flag register (f0.0, f0.1, f1.0, f1.1)")?;
        match flag_from_word(c, w)? {
            Some(f) => flag = Some(f),
            None => return c.err(format!("expected a flag register, found `{w}`")),
        }
        let mut kind = PRED_NAMES[0].0;
        if c.eat('.') {
            let w = c.expect_word("a predicate kind (anyv, all8h, ...)")?;
            match PRED_NAMES.iter().find(|(_, n)| !n.is_empty() && *n == w) {
                Some((k, _)) => kind = *k,
                None => return c.err(format!("unknown predicate kind `{w}`")),
            }
        }
        c.expect(')', "`)` closing the predicate")?;
        inst.predicate = Some(Predicate { kind, inverse });
    }
    let op_start = c.pos;
    let name = c.expect_word("an opcode")?;
    inst.op = match Opcode::from_name(name) {
        Some(op) => op,
        None => {
            c.pos = op_start;
            c.skip_ws();
            return c.err(format!("unknown opcode `{name}`"));
        }
    };
    while c.rest().starts_with('.') {
        c.pos += 1;
        let w = c.expect_word("an opcode suffix (.sat, a condition, .fN.M)")?;
        if w == "sat" {
            inst.saturate = true;
        } else if let Some((cm, _)) = CMOD_NAMES.iter().find(|(_, n)| *n == w) {
            inst.cmod = Some(*cm);
        } else if let Some(f) = flag_from_word(c, w)? {
            set_flag(c, &mut flag, f)?;
        } else {
            return c.err(format!("unknown opcode suffix `.{w}`"));
        }
    }
    c.expect('(', "`(` and an execution size, as in `mov(8)`")?;
    inst.exec_size = c.number("execution size")?;
    c.expect(')', "`)` after the execution size")?;

    let mut operands = vec![];
    if !c.at_end() && c.peek() != Some('{') && !c.rest().starts_with("desc(") {
        operands.push(parse_operand(c)?);
        while c.eat(',') {
            operands.push(parse_operand(c)?);
        }
    }
    if c.eat_str("desc") {
        inst.desc = Some(parse_desc(c)?);
    }
    if c.eat('{') {
        parse_controls(c, &mut inst, &mut flag)?;
    }
    c.expect_end("the instruction")?;
    for (i, op) in operands.into_iter().enumerate() {
        let reg = finish_operand(c, op, i == 0, inst.access_mode)?;
        if i == 0 {
            inst.dst = reg;
        } else {
            inst.srcs.push(reg);
        }
    }
    inst.flag_subreg = flag.unwrap_or(0);
    Ok(inst)
}

/// `0x` hexadecimal or decimal, fitting a u32.
fn parse_u32(c: &mut Cursor, what: &str) -> Result<u32> {
    c.skip_ws();
    if c.eat_str("0x") {
        let rest = c.rest();
        let end = rest
            .find(|ch: char| !ch.is_ascii_hexdigit())
            .unwrap_or(rest.len());
        return match u32::from_str_radix(&rest[..end], 16) {
            Ok(v) => {
                c.pos += end;
                Ok(v)
            }
            Err(_) => c.err(format!(
                "expected {what} as 0x followed by up to 8 hex digits"
            )),
        };
    }
    c.number(what)
}

/// Typed values to the end of the line, each optionally repeated: `1.0:F*16 -3:D`.
fn parse_values(c: &mut Cursor) -> Result<Vec<Value>> {
    let mut values = vec![];
    while !c.at_end() {
        let reg = parse_imm(c)?;
        let bits = reg.imm_bits().unwrap_or(0);
        let count: usize = if c.rest().starts_with('*') {
            c.pos += 1;
            let n: usize = c.number("repeat count")?;
            if n > 1 << 20 {
                return c.err(format!("repeat count {n} is too large"));
            }
            n
        } else {
            1
        };
        values.extend(std::iter::repeat_n(Value::new(reg.ty, bits), count));
    }
    Ok(values)
}

/// One line of the INPUTS section, its entries' positions noted in `sites`; returns whether
/// the section is still open.
fn parse_input_line(c: &mut Cursor, inputs: &mut Inputs, sites: &mut InputSites) -> Result<bool> {
    let at = c.pos;
    c.skip_ws();
    let keyword_at = (c.line, c.col());
    let w = c.expect_word("an input line (uniforms, buffer, texture, thread) or `END INPUTS`")?;
    match w {
        "END" => {
            if c.word() != Some("INPUTS") {
                return c.err("expected `END INPUTS`");
            }
            c.expect_end("END INPUTS")?;
            return Ok(false);
        }
        "uniforms" => {
            if !inputs.uniforms.is_empty() {
                c.pos = at;
                c.skip_ws();
                return c.err("uniforms given twice");
            }
            sites.uniforms = Some(keyword_at);
            inputs.uniforms = parse_values(c)?;
        }
        "buffer" => {
            let surface: u8 = c.number("surface index")?;
            if inputs.buffers.contains_key(&surface) {
                return c.err(format!("buffer {surface} given twice"));
            }
            let values = parse_values(c)?;
            inputs.buffers.insert(surface, values);
        }
        "texture" => {
            let surface: u8 = c.number("texture index")?;
            let name = c.expect_word("a texture format (unorm or float)")?;
            let Some(format) = TextureFormat::from_name(name) else {
                return c.err(format!(
                    "unknown texture format `{name}`: expected unorm or float"
                ));
            };
            if inputs.textures.insert(surface, format).is_some() {
                return c.err(format!("texture {surface} format given twice"));
            }
            c.expect_end("the texture format")?;
        }
        "thread" => {
            c.skip_ws();
            let thread_at = (c.line, c.col());
            let t: u32 = c.number("thread index")?;
            let what_at = c.pos;
            c.skip_ws();
            let word_at = (c.line, c.col());
            let what = c.expect_word("`dispatch_mask` or `attrN`")?;
            if what == "dispatch_mask" {
                c.skip_ws();
                sites.masks.insert(t, (thread_at, (c.line, c.col())));
                let mask = parse_u32(c, "a dispatch mask")?;
                if inputs.dispatch_masks.insert(t, mask).is_some() {
                    return c.err(format!("thread {t} dispatch mask given twice"));
                }
                c.expect_end("the dispatch mask")?;
            } else if let ("attr", Some(d)) = split_name(what) {
                let Ok(attr) = d.parse::<u32>() else {
                    return c.err(format!("bad attr number in `{what}`"));
                };
                sites.attrs.insert((t, attr), (thread_at, word_at));
                let values = parse_values(c)?;
                if inputs.attrs.insert((t, attr), values).is_some() {
                    return c.err(format!("thread {t} {what} given twice"));
                }
            } else {
                c.pos = what_at;
                c.skip_ws();
                return c.err(format!(
                    "expected `dispatch_mask` or `attrN`, found `{what}`"
                ));
            }
        }
        other => {
            c.pos = at;
            c.skip_ws();
            return c.err(format!(
                "unknown input line `{other}`: expected uniforms, buffer, texture, thread or END INPUTS"
            ));
        }
    }
    Ok(true)
}

/// Parses a standalone `INPUTS` … `END INPUTS` section (comments allowed), as written in a
/// program file, so inputs can live in their own file.
pub fn parse_inputs(text: &str) -> Result<Inputs> {
    let mut inputs: Option<Inputs> = None;
    let mut open = false;
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        last_line = i + 1;
        let content = raw.split('#').next().unwrap_or("");
        let mut c = Cursor::new(content, i + 1);
        if c.at_end() {
            continue;
        }
        if open {
            open = parse_input_line(
                &mut c,
                inputs.get_or_insert_with(Inputs::default),
                &mut InputSites::default(),
            )?;
            continue;
        }
        if inputs.is_some() || c.word() != Some("INPUTS") {
            c.pos = 0;
            c.skip_ws();
            return c.err("expected `INPUTS` starting an inputs section");
        }
        c.expect_end("INPUTS")?;
        inputs = Some(Inputs::default());
        open = true;
    }
    match (inputs, open) {
        (Some(inputs), false) => Ok(inputs),
        _ => Err(ParseError {
            line: last_line + 1,
            col: 1,
            msg: "expected an `INPUTS` … `END INPUTS` section".into(),
        }),
    }
}

/// Block-edge annotations written in the file, checked against the computed CFG.
struct EdgeNote {
    line: usize,
    col: usize,
    block: usize,
    succ: bool,
    edges: Vec<Edge>,
}

fn parse_edges(c: &mut Cursor, succ: bool) -> Result<Vec<Edge>> {
    let mut edges = vec![];
    while !c.at_end() {
        if !succ && c.eat('(') {
            skip_cycles_annotation(c)?;
            continue;
        }
        let rest = c.rest();
        let (kind, arrow_ok) = match (succ, rest.get(..2)) {
            (true, Some("->")) | (false, Some("<-")) => (EdgeKind::Logical, true),
            (true, Some("~>")) | (false, Some("<~")) => (EdgeKind::Physical, true),
            _ => (EdgeKind::Logical, false),
        };
        if !arrow_ok {
            let want = if succ {
                "`->Bn` or `~>Bn`"
            } else {
                "`<-Bn` or `<~Bn`"
            };
            let found = c.found();
            return c.err(format!("expected {want}, found {found}"));
        }
        c.pos += 2;
        if !c.rest().starts_with('B') {
            return c.err("expected a block name `Bn`");
        }
        c.pos += 1;
        let to = c.number("block number")?;
        edges.push(Edge { to, kind });
    }
    Ok(edges)
}

/// The rest of a START line's `(40 cycles)` after its `(`: the scheduler's estimate that
/// dumps print (`eufuzz compile`), derived from the block, so it is read and dropped. It
/// ends the line.
fn skip_cycles_annotation(c: &mut Cursor) -> Result<()> {
    let _: u64 = c.number("a cycle count")?;
    if c.word() != Some("cycles") || !c.eat(')') {
        return c.err("expected `(N cycles)` after the block's predecessors");
    }
    if !c.at_end() {
        let found = c.found();
        return c.err(format!(
            "expected the end of the START line after `(N cycles)`, found {found}"
        ));
    }
    Ok(())
}

fn edges_text(edges: &[Edge], succ: bool) -> String {
    if edges.is_empty() {
        return "none".into();
    }
    edges
        .iter()
        .map(|e| {
            let arrow = match (succ, e.kind) {
                (true, EdgeKind::Logical) => "->",
                (true, EdgeKind::Physical) => "~>",
                (false, EdgeKind::Logical) => "<-",
                (false, EdgeKind::Physical) => "<~",
            };
            format!("{arrow}B{}", e.to)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[derive(Default)]
struct Header {
    version: Option<u32>,
    device: Option<Device>,
    stage: Option<Stage>,
    dispatch: Option<u8>,
    packed_dispatch: Option<bool>,
    threads: Option<u32>,
    uniforms: Option<u32>,
    scratch: Option<u32>,
}

fn once<T>(c: &Cursor, slot: &mut Option<T>, v: T, what: &str) -> Result<()> {
    if slot.is_some() {
        return c.err(format!("`{what}` given twice"));
    }
    *slot = Some(v);
    Ok(())
}

/// Parses one header line; returns its comment-anchor key.
fn parse_header_line(c: &mut Cursor, w: &str, h: &mut Header, p: &mut Program) -> Result<String> {
    let mut key = w.to_string();
    match w {
        "target" => {
            let at = c.pos;
            let name = c.expect_word("a device name")?;
            let Some(d) = Device::from_name(name) else {
                c.pos = at;
                c.skip_ws();
                let names: Vec<_> = ALL_DEVICES.iter().map(|d| d.name()).collect();
                return c.err(format!(
                    "unknown device `{name}`: expected one of {}",
                    names.join(" ")
                ));
            };
            once(c, &mut h.device, d, "target")?;
        }
        "stage" => {
            let at = c.pos;
            let name = c.expect_word("a stage name")?;
            let Some(stage) = Stage::from_name(name) else {
                c.pos = at;
                c.skip_ws();
                return c.err(format!("unknown stage `{name}`: expected fs or vs"));
            };
            once(c, &mut h.stage, stage, "stage")?;
        }
        "dispatch" => {
            let n = c.number("dispatch width")?;
            once(c, &mut h.dispatch, n, "dispatch")?;
        }
        "packed_dispatch" => {
            once(c, &mut h.packed_dispatch, true, "packed_dispatch")?;
        }
        "threads" => {
            let n = c.number("thread count")?;
            once(c, &mut h.threads, n, "threads")?;
        }
        "uniforms" => {
            let n = c.number("uniform count")?;
            once(c, &mut h.uniforms, n, "uniforms")?;
        }
        "scratch" => {
            let n = c.number("scratch bytes per thread")?;
            once(c, &mut h.scratch, n, "scratch")?;
        }
        "vgrf" | "attr" => {
            let (prefix, list) = if w == "vgrf" {
                ("v", &mut p.vgrf_sizes)
            } else {
                ("attr", &mut p.attr_sizes)
            };
            let at = c.pos;
            let name = c.expect_word("a register name")?;
            let expected = format!("{prefix}{}", list.len());
            if name != expected {
                c.pos = at;
                c.skip_ws();
                return c.err(format!(
                    "expected `{expected}` (registers are declared in order), found `{name}`"
                ));
            }
            list.push(c.number("size in 32-byte registers")?);
            key = expected;
        }
        other => {
            c.pos -= other.len();
            return c.err(format!(
                "unknown header line `{other}`: expected target, stage, dispatch, packed_dispatch, threads, uniforms, scratch, attr, vgrf, START or INPUTS"
            ));
        }
    }
    c.expect_end(&format!("`{w}`"))?;
    Ok(key)
}

/// Parses a whole `.eu` program, dropping its comments.
pub fn parse_program(text: &str) -> Result<Program> {
    parse_document(text).map(|d| d.program)
}

/// Parses a whole `.eu` file, keeping its comments anchored to what follows them.
pub fn parse_document(text: &str) -> Result<Document> {
    let mut comments = Comments::default();
    let mut pending: Vec<String> = vec![];
    let mut inst_lines: Vec<usize> = vec![];
    let mut ip = 0usize;
    let mut p = Program::new(Device::Skl, 8);
    let mut h = Header::default();
    let mut open: Option<(usize, Block)> = None;
    let mut notes: Vec<EdgeNote> = vec![];
    let mut inputs_open = false;
    let mut sites = InputSites::default();
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        last_line = line_no;
        let (content, comment) = match raw.split_once('#') {
            Some((code, note)) => (code, Some(note.trim_end().to_string())),
            None => (raw, None),
        };
        let mut c = Cursor::new(content, line_no);
        if c.at_end() {
            pending.extend(comment);
            continue;
        }
        if h.version.is_none() {
            if c.word() != Some("eu") {
                c.pos = 0;
                return c.err("expected the version line `eu 1` at the top of the file");
            }
            let v: u32 = c.number("text-form version")?;
            if v != TEXT_VERSION {
                return c.err(format!(
                    "text-form version {v} is not supported (this eufuzz reads version {TEXT_VERSION})"
                ));
            }
            c.expect_end("the version line")?;
            h.version = Some(v);
            comments.anchor_header("eu", &mut pending, comment);
            continue;
        }
        if inputs_open {
            let before = comments.before_inputs.get_or_insert_with(Vec::new);
            before.append(&mut pending);
            before.extend(comment);
            let inputs = p.inputs.get_or_insert_with(Inputs::default);
            inputs_open = parse_input_line(&mut c, inputs, &mut sites)?;
            continue;
        }
        if let Some((b, block)) = open.as_mut() {
            let at = c.pos;
            if c.word() == Some("END") {
                let col = c.col();
                c.skip_ws();
                let name_at = c.pos;
                if !c.eat('B') {
                    return c.err(format!("expected `B{b}` after END"));
                }
                let n: usize = c.number("block number")?;
                if n != *b {
                    c.pos = name_at;
                    return c.err(format!("`END B{n}` closes block B{b}"));
                }
                let edges = parse_edges(&mut c, true)?;
                if !edges.is_empty() {
                    notes.push(EdgeNote {
                        line: line_no,
                        col,
                        block: n,
                        succ: true,
                        edges,
                    });
                }
                if !pending.is_empty() {
                    comments.before_end.insert(n, std::mem::take(&mut pending));
                }
                comments.trailing_end.extend(comment.map(|t| (n, t)));
                p.blocks.push(std::mem::take(block));
                open = None;
                continue;
            }
            c.pos = at;
            let inst = parse_inst(&mut c)?;
            block.insts.push(inst);
            if !pending.is_empty() {
                comments
                    .before_inst
                    .insert(ip, std::mem::take(&mut pending));
            }
            comments.trailing_inst.extend(comment.map(|t| (ip, t)));
            inst_lines.push(line_no);
            ip += 1;
            continue;
        }
        let at = c.pos;
        let w = c.expect_word("a header line or `START Bn`")?;
        if w == "INPUTS" {
            if p.inputs.is_some() {
                c.pos = at;
                c.skip_ws();
                return c.err("a second INPUTS section");
            }
            c.expect_end("INPUTS")?;
            p.inputs = Some(Inputs::default());
            let before = comments.before_inputs.get_or_insert_with(Vec::new);
            before.append(&mut pending);
            before.extend(comment);
            inputs_open = true;
            continue;
        }
        if w == "START" && p.inputs.is_some() {
            c.pos = at;
            c.skip_ws();
            return c.err("blocks come before the INPUTS section");
        }
        if w == "START" {
            let col = c.col();
            let expected = p.blocks.len();
            c.skip_ws();
            let name_at = c.pos;
            if !c.eat('B') {
                return c.err(format!("expected `B{expected}` after START"));
            }
            let n: usize = c.number("block number")?;
            if n != expected {
                c.pos = name_at;
                return c.err(format!(
                    "expected block B{expected} (blocks are numbered in order), found B{n}"
                ));
            }
            let edges = parse_edges(&mut c, false)?;
            if !edges.is_empty() {
                notes.push(EdgeNote {
                    line: line_no,
                    col,
                    block: n,
                    succ: false,
                    edges,
                });
            }
            if !pending.is_empty() {
                comments
                    .before_block
                    .insert(n, std::mem::take(&mut pending));
            }
            comments.trailing_start.extend(comment.map(|t| (n, t)));
            open = Some((n, Block::default()));
            continue;
        }
        if !p.blocks.is_empty() {
            c.pos = at;
            c.skip_ws();
            return c.err(format!(
                "expected `START B{}` or end of file, found `{w}`",
                p.blocks.len()
            ));
        }
        let key = parse_header_line(&mut c, w, &mut h, &mut p)?;
        comments.anchor_header(&key, &mut pending, comment);
    }
    comments.trailer = pending;
    let eof = |msg: String| ParseError {
        line: last_line + 1,
        col: 1,
        msg,
    };
    if h.version.is_none() {
        return Err(eof("empty file: expected the version line `eu 1`".into()));
    }
    if let Some((b, _)) = open {
        return Err(eof(format!(
            "file ends inside block B{b}: expected `END B{b}` (is the file truncated?)"
        )));
    }
    p.device = h
        .device
        .ok_or_else(|| eof("missing `target DEVICE` line".into()))?;
    p.dispatch_width = h
        .dispatch
        .ok_or_else(|| eof("missing `dispatch WIDTH` line".into()))?;
    p.packed_dispatch = h.packed_dispatch.unwrap_or(false);
    p.stage = h.stage.unwrap_or_default();
    p.threads = h.threads.unwrap_or(1);
    p.uniforms = h.uniforms.unwrap_or(0);
    p.scratch_size = h.scratch.unwrap_or(0);
    if inputs_open {
        return Err(eof(
            "file ends inside INPUTS: expected `END INPUTS` (is the file truncated?)".into(),
        ));
    }
    check_edge_notes(&p, &notes)?;
    if let Some(inputs) = &p.inputs {
        input_sites::check(&p, inputs, &sites)?;
    }
    Ok(Document {
        program: p,
        comments,
        inst_lines,
    })
}

fn check_edge_notes(p: &Program, notes: &[EdgeNote]) -> Result<()> {
    if notes.is_empty() {
        return Ok(());
    }
    let cfg = Cfg::build(p);
    for note in notes {
        let actual = if note.succ {
            &cfg.succs[note.block]
        } else {
            &cfg.preds[note.block]
        };
        let mut want = actual.clone();
        let mut got = note.edges.clone();
        want.sort_by_key(|e| (e.to, e.kind == EdgeKind::Physical));
        got.sort_by_key(|e| (e.to, e.kind == EdgeKind::Physical));
        if want != got {
            let what = if note.succ {
                "successors"
            } else {
                "predecessors"
            };
            return Err(ParseError {
                line: note.line,
                col: note.col,
                msg: format!(
                    "B{} has {what} {} but the file says {} (edges follow from the control flow; fix or delete them)",
                    note.block,
                    edges_text(actual, note.succ),
                    edges_text(&note.edges, note.succ)
                ),
            });
        }
    }
    Ok(())
}
