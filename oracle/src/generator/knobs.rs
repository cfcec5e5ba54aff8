//! Focus knobs: which devices, dispatch widths, opcodes and features the generator may
//! draw from. Written as one line (`devices=skl,icl dispatch=16 ops=-mad features=loop`)
//! so the same string works on the command line, in `EUFUZZ_KNOBS` and in the header of
//! every reproducer, which then replays the same way.

use compiler::{Device, Opcode, Stage};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The environment variable `eufuzz` reads knobs from (command-line knobs are added to it).
pub const KNOBS_ENV: &str = "EUFUZZ_KNOBS";

/// A program feature the swarm draws on or off per program.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Feature {
    /// Divergent IF/ELSE.
    If,
    /// Counted loops with divergent BREAK/CONTINUE.
    Loop,
    /// HALT (discard) and HALT_TARGET.
    Halt,
    /// Untyped buffer reads and writes.
    Buffer,
    /// Texture sampling.
    Texture,
    /// Scratch reads and writes (sometimes beyond the per-thread limit).
    Scratch,
    /// Render-target writes before the final EOT write.
    RtWrites,
    /// LOAD_PAYLOAD building multi-component values.
    LoadPayload,
    /// Enough live values to force spilling.
    Pressure,
    /// Instructions narrower than the dispatch width, with groups.
    Narrow,
    /// Strided and offset regions (sub-dword views, partial writes).
    Strided,
    /// NoMask instructions inside divergent control flow.
    NomaskInCf,
    /// Predicated ALU instructions.
    Predication,
    /// Source modifiers, saturation and conditional modifiers.
    Modifiers,
    /// Q/UQ values (devices that have them).
    Int64,
    /// DF values (devices that have them).
    Float64,
    /// HF values (devices that have them).
    HalfFloat,
    /// `mul acc0` + `mach` pairs and MULH.
    MulHigh,
    /// Several hardware threads.
    Threads,
    /// Dispatch masks with disabled channels.
    PartialDispatch,
    /// Flag registers read as data by an instruction whose conditional modifier rewrites them.
    FlagData,
    /// V/UV/VF vector immediates: MOV sources into aligned, misaligned or strided
    /// destinations, and src1 of ADD/MUL/SEL/CMP (docs/hardware/eu-hardware.md §3.3, §6.8).
    VectorImm,
    /// Message destinations that are not whole registers: a register offset (`v+16`), a
    /// strided slice of a live 64-bit value (`v+4<2>`).
    MessageSlice,
    /// A source aliasing the destination with a different layout (`mov v:D, v:W`, shifted
    /// narrower views) on instructions the compiler splits.
    AliasedSplit,
    /// MUL/MULH into null with a conditional modifier, and 64-bit products (Q×Q, D×D→Q)
    /// with push-constant, immediate or scalar operands.
    MulFlags,
    /// Hardware-form messages: LOAD_PAYLOAD + SEND, and the EOT write from a non-zero
    /// offset of a large VGRF.
    HwSend,
    /// Immediates in src0 of two- and three-source instructions.
    ImmSrc0,
    /// Byte-typed src1/src2 views.
    ByteSrc,
    /// Arithmetic followed by compares its conditional modifier can absorb, or not.
    CmodIdiom,
    /// `mov.sat` of a computed value.
    SatIdiom,
    /// Chains of copies, constants copied into registers, `mov.cond` copies.
    CopyChain,
    /// The same expression computed twice.
    RepeatedExpr,
    /// One constant used by several instructions, in one block, a loop or two blocks.
    SharedConst,
    /// IF/ELSE blocks that only move into the same values.
    IfMoves,
    /// Values computed and never read.
    DeadValue,
    /// FIND_LIVE_CHANNEL + BROADCAST of a value (uniform values), at the top, inside
    /// divergent control flow and after a HALT; sometimes a packed dispatch.
    LiveChannel,
    /// Post-RA-style operands: values at any dword sub-register (unevenly split,
    /// straddling two registers), and VGRFs moved to fixed GRFs, which register allocation
    /// leaves alone (some of them, or all: a program without VGRFs).
    FixedGrf,
    /// Integer multiplies of mixed widths (W×D, D×W, UW×UD …) with immediates and source
    /// modifiers.
    MixedMul,
    /// NoMask operations on scalars (exec size 1, sometimes 2 or 4) packed into shared
    /// registers and read back through scalar regions, as Mesa computes uniform values.
    Scalar,
}

pub const ALL_FEATURES: [Feature; 39] = [
    Feature::If,
    Feature::Loop,
    Feature::Halt,
    Feature::Buffer,
    Feature::Texture,
    Feature::Scratch,
    Feature::RtWrites,
    Feature::LoadPayload,
    Feature::Pressure,
    Feature::Narrow,
    Feature::Strided,
    Feature::NomaskInCf,
    Feature::Predication,
    Feature::Modifiers,
    Feature::Int64,
    Feature::Float64,
    Feature::HalfFloat,
    Feature::MulHigh,
    Feature::Threads,
    Feature::PartialDispatch,
    Feature::FlagData,
    Feature::VectorImm,
    Feature::MessageSlice,
    Feature::AliasedSplit,
    Feature::MulFlags,
    Feature::HwSend,
    Feature::ImmSrc0,
    Feature::ByteSrc,
    Feature::CmodIdiom,
    Feature::SatIdiom,
    Feature::CopyChain,
    Feature::RepeatedExpr,
    Feature::SharedConst,
    Feature::IfMoves,
    Feature::DeadValue,
    Feature::LiveChannel,
    Feature::FixedGrf,
    Feature::MixedMul,
    Feature::Scalar,
];

/// The features format 6 added (issue 24): drawn only by fuzz-profile programs, so
/// realistic programs decode as before.
pub const FORMAT6_FEATURES: [Feature; 2] = [Feature::FixedGrf, Feature::MixedMul];

/// The optimiser idioms (issue 10 item 4), drawn by one statement kind (`idioms.rs`).
pub const IDIOM_FEATURES: [Feature; 8] = [
    Feature::CmodIdiom,
    Feature::SatIdiom,
    Feature::CopyChain,
    Feature::RepeatedExpr,
    Feature::SharedConst,
    Feature::IfMoves,
    Feature::DeadValue,
    Feature::LiveChannel,
];

/// The features of shapes compiler mutants exposed (issue 9 item 10), drawn by one
/// statement kind.
pub const SHAPE_FEATURES: [Feature; 9] = [
    Feature::VectorImm,
    Feature::MessageSlice,
    Feature::AliasedSplit,
    Feature::MulFlags,
    Feature::HwSend,
    Feature::ImmSrc0,
    Feature::ByteSrc,
    Feature::FixedGrf,
    Feature::MixedMul,
];

/// Features added after format 6 that realistic programs do not draw either, so they
/// decode as before.
pub const FUZZ_ONLY_FEATURES: [Feature; 1] = [Feature::Scalar];

impl Feature {
    pub fn name(self) -> &'static str {
        match self {
            Feature::If => "if",
            Feature::Loop => "loop",
            Feature::Halt => "halt",
            Feature::Buffer => "buffer",
            Feature::Texture => "texture",
            Feature::Scratch => "scratch",
            Feature::RtWrites => "rt-writes",
            Feature::LoadPayload => "load-payload",
            Feature::Pressure => "pressure",
            Feature::Narrow => "narrow",
            Feature::Strided => "strided",
            Feature::NomaskInCf => "nomask-in-cf",
            Feature::Predication => "predication",
            Feature::Modifiers => "modifiers",
            Feature::Int64 => "int64",
            Feature::Float64 => "float64",
            Feature::HalfFloat => "half-float",
            Feature::MulHigh => "mul-high",
            Feature::Threads => "threads",
            Feature::PartialDispatch => "partial-dispatch",
            Feature::FlagData => "flag-data",
            Feature::VectorImm => "vector-imm",
            Feature::MessageSlice => "message-slice",
            Feature::AliasedSplit => "aliased-split",
            Feature::MulFlags => "mul-flags",
            Feature::HwSend => "hw-send",
            Feature::ImmSrc0 => "imm-src0",
            Feature::ByteSrc => "byte-src",
            Feature::CmodIdiom => "cmod-idiom",
            Feature::SatIdiom => "sat-idiom",
            Feature::CopyChain => "copy-chain",
            Feature::RepeatedExpr => "repeated-expr",
            Feature::SharedConst => "shared-const",
            Feature::IfMoves => "if-moves",
            Feature::DeadValue => "dead-value",
            Feature::LiveChannel => "live-channel",
            Feature::FixedGrf => "fixed-grf",
            Feature::MixedMul => "mixed-mul",
            Feature::Scalar => "scalar",
        }
    }

    pub fn from_name(s: &str) -> Option<Feature> {
        ALL_FEATURES.into_iter().find(|f| f.name() == s)
    }
}

/// What kind of programs to make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// Fuzzing: every feature and opcode, short programs, corner cases on purpose.
    #[default]
    Fuzz,
    /// Programs shaped like real shaders, for shader-db statistics: longer straight-line
    /// float arithmetic, texture and buffer loads, loops with uniform trip counts, IF/ELSE,
    /// more live values (some spill on small devices), and none of the fuzzing-only
    /// shapes (odd regions, narrow groups, flags as data, vector immediates, …).
    Realistic,
}

/// The features a realistic program draws from (when the knobs list none).
pub const REALISTIC_FEATURES: [Feature; 16] = [
    Feature::If,
    Feature::Loop,
    Feature::Halt,
    Feature::Buffer,
    Feature::Texture,
    Feature::RtWrites,
    Feature::LoadPayload,
    Feature::Pressure,
    Feature::Predication,
    Feature::Modifiers,
    Feature::CmodIdiom,
    Feature::SatIdiom,
    Feature::CopyChain,
    Feature::RepeatedExpr,
    Feature::SharedConst,
    Feature::IfMoves,
];

/// The opcodes a realistic program draws from (when the knobs list none): the float
/// arithmetic, compares, selects and bit operations NIR emits for shaders.
pub const REALISTIC_OPS: [Opcode; 24] = [
    Opcode::Mov,
    Opcode::Sel,
    Opcode::And,
    Opcode::Or,
    Opcode::Xor,
    Opcode::Shr,
    Opcode::Shl,
    Opcode::Cmp,
    Opcode::Add,
    Opcode::Mul,
    Opcode::Mad,
    Opcode::Lrp,
    Opcode::Frc,
    Opcode::Rndd,
    Opcode::Rnde,
    Opcode::Rndz,
    Opcode::Rcp,
    Opcode::Rsq,
    Opcode::Sqrt,
    Opcode::Exp2,
    Opcode::Log2,
    Opcode::Sin,
    Opcode::Cos,
    Opcode::Pow,
];

/// What the generator may draw from. Empty allow-lists mean "everything" (for the
/// realistic profile: everything of [`REALISTIC_FEATURES`] / [`REALISTIC_OPS`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Knobs {
    pub devices: Vec<Device>,
    pub dispatch: Vec<u8>,
    pub ops: Vec<Opcode>,
    pub deny_ops: Vec<Opcode>,
    pub features: Vec<Feature>,
    pub deny_features: Vec<Feature>,
    #[serde(default)]
    pub profile: Profile,
    /// The kind of program: fragment (the default) or the vec4 stage (`stage=vs`, made by
    /// `generator/vec4.rs`, on the devices that run it).
    #[serde(default)]
    pub stage: Stage,
    /// Whether the knobs name the stage (`stage=fs` too): without that, default fuzz
    /// campaigns draw vec4 programs for their share (`generator::VEC4_SHARE`).
    #[serde(default)]
    pub stage_named: bool,
}

/// A knob text the generator cannot honour: it names the offending word and, where the
/// choices are few, lists them, since knobs are typed by hand on the command line, in
/// `EUFUZZ_KNOBS` and in campaign settings.
#[derive(Debug, thiserror::Error)]
pub enum KnobError {
    #[error("knob `{0}` is not key=value")]
    NotKeyValue(String),
    #[error("unknown profile `{0}` (fuzz, realistic)")]
    UnknownProfile(String),
    #[error("unknown stage `{0}` (fs, vs)")]
    UnknownStage(String),
    #[error("unknown device `{0}`")]
    UnknownDevice(String),
    #[error("dispatch width `{0}` is not 8, 16 or 32")]
    DispatchWidth(String),
    #[error("unknown opcode `{0}`")]
    UnknownOpcode(String),
    #[error(
        "unknown feature `{}` (one of: {})",
        .0,
        ALL_FEATURES.map(Feature::name).join(" ")
    )]
    UnknownFeature(String),
    #[error("`{key}` takes no denials (`-{name}`)")]
    NoDenials { key: String, name: String },
    #[error("unknown knob `{0}` (devices, dispatch, ops, features, profile, stage)")]
    UnknownKnob(String),
    #[error("{}: {}", KNOBS_ENV, .0)]
    InEnv(Box<KnobError>),
}

impl Knobs {
    /// Parses `key=a,b,-c …` (keys `devices`, `dispatch`, `ops`, `features`, `profile`,
    /// `stage`; a leading `-` denies). Later knobs add to earlier ones.
    pub fn parse(text: &str) -> Result<Knobs, KnobError> {
        let mut k = Knobs::default();
        k.add(text)?;
        Ok(k)
    }

    /// Adds the knobs in `text` to these.
    pub fn add(&mut self, text: &str) -> Result<(), KnobError> {
        for word in text.split_whitespace() {
            let (key, list) = word
                .split_once('=')
                .ok_or_else(|| KnobError::NotKeyValue(word.into()))?;
            for item in list.split(',').filter(|s| !s.is_empty()) {
                let (deny, name) = match item.strip_prefix('-') {
                    Some(n) => (true, n),
                    None => (false, item),
                };
                match key {
                    "profile" if !deny => {
                        self.profile = match name {
                            "fuzz" => Profile::Fuzz,
                            "realistic" => Profile::Realistic,
                            _ => {
                                return Err(KnobError::UnknownProfile(name.into()));
                            }
                        }
                    }
                    "stage" if !deny => {
                        self.stage = Stage::from_name(name)
                            .ok_or_else(|| KnobError::UnknownStage(name.into()))?;
                        self.stage_named = true;
                    }
                    "devices" | "device" if !deny => self.devices.push(
                        Device::from_name(name)
                            .ok_or_else(|| KnobError::UnknownDevice(name.into()))?,
                    ),
                    "dispatch" if !deny => match name.parse::<u8>() {
                        Ok(w @ (8 | 16 | 32)) => self.dispatch.push(w),
                        _ => return Err(KnobError::DispatchWidth(name.into())),
                    },
                    "ops" => {
                        let op = Opcode::from_name(name)
                            .ok_or_else(|| KnobError::UnknownOpcode(name.into()))?;
                        if deny {
                            self.deny_ops.push(op)
                        } else {
                            self.ops.push(op)
                        }
                    }
                    "features" => {
                        let f = Feature::from_name(name)
                            .ok_or_else(|| KnobError::UnknownFeature(name.into()))?;
                        if deny {
                            self.deny_features.push(f)
                        } else {
                            self.features.push(f)
                        }
                    }
                    "devices" | "device" | "dispatch" | "profile" | "stage" => {
                        return Err(KnobError::NoDenials {
                            key: key.into(),
                            name: name.into(),
                        });
                    }
                    _ => {
                        return Err(KnobError::UnknownKnob(key.into()));
                    }
                }
            }
        }
        Ok(())
    }

    /// The knobs in `EUFUZZ_KNOBS`, if set.
    pub fn from_env() -> Result<Knobs, KnobError> {
        match std::env::var(KNOBS_ENV) {
            Ok(text) => Knobs::parse(&text).map_err(|e| KnobError::InEnv(Box::new(e))),
            Err(_) => Ok(Knobs::default()),
        }
    }

    pub fn allows_op(&self, op: Opcode) -> bool {
        let listed = if self.ops.is_empty() {
            self.profile == Profile::Fuzz || REALISTIC_OPS.contains(&op)
        } else {
            self.ops.contains(&op)
        };
        listed && !self.deny_ops.contains(&op)
    }

    pub fn allows_feature(&self, f: Feature) -> bool {
        let listed = if self.features.is_empty() {
            self.profile == Profile::Fuzz || REALISTIC_FEATURES.contains(&f)
        } else {
            self.features.contains(&f)
        };
        listed && !self.deny_features.contains(&f)
    }

    pub fn is_default(&self) -> bool {
        *self == Knobs::default()
    }
}

impl fmt::Display for Knobs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = vec![];
        let join = |items: Vec<String>| items.join(",");
        if !self.devices.is_empty() {
            parts.push(format!(
                "devices={}",
                join(self.devices.iter().map(|d| d.name().to_string()).collect())
            ));
        }
        if !self.dispatch.is_empty() {
            parts.push(format!(
                "dispatch={}",
                join(self.dispatch.iter().map(u8::to_string).collect())
            ));
        }
        let ops = allowed_and_denied(&self.ops, &self.deny_ops, |o| o.name());
        if !ops.is_empty() {
            parts.push(format!("ops={}", join(ops)));
        }
        let features = allowed_and_denied(&self.features, &self.deny_features, |x| x.name());
        if !features.is_empty() {
            parts.push(format!("features={}", join(features)));
        }
        if self.profile == Profile::Realistic {
            parts.push("profile=realistic".into());
        }
        if self.stage_named || self.stage != Stage::Fragment {
            parts.push(format!("stage={}", self.stage.name()));
        }
        write!(f, "{}", parts.join(" "))
    }
}

/// Names of the allowed items, then of the denied ones with a leading `-`.
fn allowed_and_denied<T>(allow: &[T], deny: &[T], name: fn(&T) -> &'static str) -> Vec<String> {
    let allowed = allow.iter().map(|x| name(x).to_string());
    allowed
        .chain(deny.iter().map(|x| format!("-{}", name(x))))
        .collect()
}

#[cfg(test)]
mod tests {

    /// The errors' text is what users read on the command line and in campaign logs: it
    /// stays word for word what it was when the errors were strings.
    #[test]
    fn knob_errors_say_what_they_said() {
        let features = ALL_FEATURES.map(Feature::name).join(" ");
        for (text, message) in [
            ("devices", "knob `devices` is not key=value".to_string()),
            ("profile=x", "unknown profile `x` (fuzz, realistic)".into()),
            ("stage=gs", "unknown stage `gs` (fs, vs)".into()),
            ("devices=x", "unknown device `x`".into()),
            ("dispatch=4", "dispatch width `4` is not 8, 16 or 32".into()),
            ("ops=x", "unknown opcode `x`".into()),
            (
                "features=x",
                format!("unknown feature `x` (one of: {features})"),
            ),
            ("dispatch=-8", "`dispatch` takes no denials (`-8`)".into()),
            (
                "x=y",
                "unknown knob `x` (devices, dispatch, ops, features, profile, stage)".into(),
            ),
        ] {
            let e = Knobs::parse(text).err().map(|e| e.to_string());
            assert_eq!(e.as_deref(), Some(message.as_str()), "{text}");
        }
        let inner = Knobs::parse("x=y").err().map(Box::new);
        assert_eq!(
            inner.map(|e| KnobError::InEnv(e).to_string()).as_deref(),
            Some(
                "EUFUZZ_KNOBS: unknown knob `x` (devices, dispatch, ops, features, profile, stage)"
            )
        );
    }

    use super::*;

    #[test]
    fn knobs_round_trip_through_text() {
        let k =
            Knobs::parse("devices=skl,icl dispatch=16 ops=add,-mad features=loop,-halt").unwrap();
        assert_eq!(k.devices, vec![Device::Skl, Device::Icl]);
        assert!(k.allows_op(Opcode::Add) && !k.allows_op(Opcode::Mad));
        assert!(!k.allows_op(Opcode::Mul), "an allow-list excludes the rest");
        assert!(k.allows_feature(Feature::Loop) && !k.allows_feature(Feature::Halt));
        assert_eq!(Knobs::parse(&k.to_string()).unwrap(), k);
        assert!(Knobs::parse("").unwrap().is_default());
    }

    #[test]
    fn the_realistic_profile_narrows_the_defaults_and_round_trips() {
        let k = Knobs::parse("profile=realistic devices=hsw").unwrap();
        assert_eq!(k.profile, Profile::Realistic);
        assert!(k.allows_feature(Feature::Texture) && !k.allows_feature(Feature::Strided));
        assert!(k.allows_op(Opcode::Mad) && !k.allows_op(Opcode::Bfi2));
        assert_eq!(k.to_string(), "devices=hsw profile=realistic");
        assert_eq!(Knobs::parse(&k.to_string()).unwrap(), k);
        // An explicit list wins over the profile's.
        let strided = Knobs::parse("profile=realistic features=strided").unwrap();
        assert!(strided.allows_feature(Feature::Strided));
        assert!(
            Knobs::parse("profile=odd")
                .unwrap_err()
                .to_string()
                .contains("unknown profile")
        );
    }

    #[test]
    fn the_vec4_stage_knob_round_trips() {
        let k = Knobs::parse("stage=vs devices=hsw").unwrap();
        assert_eq!(k.stage, Stage::Vertex);
        assert_eq!(k.to_string(), "devices=hsw stage=vs");
        assert_eq!(Knobs::parse(&k.to_string()).unwrap(), k);
        // `stage=fs` asks for fragment programs only: no vec4 share.
        let fs = Knobs::parse("stage=fs").unwrap();
        assert!(fs.stage == Stage::Fragment && fs.stage_named && !fs.is_default());
        assert_eq!(fs.to_string(), "stage=fs");
        assert_eq!(Knobs::parse(&fs.to_string()).unwrap(), fs);
        assert!(
            Knobs::parse("stage=gs")
                .unwrap_err()
                .to_string()
                .contains("unknown stage")
        );
        assert!(
            Knobs::parse("stage=-vs")
                .unwrap_err()
                .to_string()
                .contains("no denials")
        );
    }

    #[test]
    fn bad_knobs_are_named() {
        assert!(
            Knobs::parse("devices=pvc")
                .unwrap_err()
                .to_string()
                .contains("pvc")
        );
        assert!(
            Knobs::parse("dispatch=12")
                .unwrap_err()
                .to_string()
                .contains("12")
        );
        assert!(
            Knobs::parse("features=fp128")
                .unwrap_err()
                .to_string()
                .contains("fp128")
        );
        assert!(
            Knobs::parse("speed=fast")
                .unwrap_err()
                .to_string()
                .contains("speed")
        );
        assert!(
            Knobs::parse("loop")
                .unwrap_err()
                .to_string()
                .contains("key=value")
        );
    }
}
