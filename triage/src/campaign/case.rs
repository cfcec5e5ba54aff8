//! One campaign case: generate the seed's program (or decode a mutated corpus entry's
//! bytes), check it against the reference, record its semantic features, and on a failure
//! localise the culprit and prepare the reproducer. A panic anywhere in the
//! generator, the oracle or the emulator is caught here and becomes a failure of its own
//! kind (`harness-panic`), so a worker goes on with its next case.

use super::intern::intern;
use super::phase;
use super::stats::{Counts, bump};
use crate::generate::provenance;
use crate::identity::Identity;
use compiler::pipeline::CompileOptions;
use compiler::text::print_program;
use oracle::culprit::{Culprit, localise};
use oracle::differential::{Verdict, check, input_sets};
use oracle::generator::knobs::Knobs;
use oracle::generator::{FORMAT_VERSION, Generated, generate, seed_bytes};
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

/// Generated input sets per program, besides the program's own.
pub const EXTRA_INPUT_SETS: usize = 2;

/// The failure kind of a panic outside the compiler's passes (the generator, the oracle or
/// the emulator panicked): a bug of the harness, kept apart from the compiler's `panic`.
pub const HARNESS_PANIC: &str = "harness-panic";

/// What every case of a campaign runs with.
#[derive(Clone, Debug)]
pub struct Setup {
    pub knobs: Knobs,
    pub compile: CompileOptions,
    /// The zoo bugs injected, if any (each failure is then re-checked without them).
    pub zoo: Option<String>,
    /// The compile options as `# options:` words, written into reproducers so they replay.
    pub options: Vec<String>,
    /// Mesa's passes as the backend under test instead of eufuzz's pipeline (see
    /// [`super::checker`]).
    pub backend: Option<crate::mesa::Backend>,
}

/// What a case runs: its seed's fresh program, or a mutated corpus entry (its extra input
/// sets are drawn from the seed either way).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub seed: u64,
    pub mutation: Option<Arc<super::mutate::Mutation>>,
}

impl Input {
    /// The fresh program of `seed`.
    pub fn fresh(seed: u64) -> Input {
        Input {
            seed,
            mutation: None,
        }
    }

    /// The generator bytes of the case.
    pub fn bytes(&self) -> std::borrow::Cow<'_, [u8]> {
        match &self.mutation {
            Some(m) => std::borrow::Cow::Borrowed(&m.bytes),
            None => std::borrow::Cow::Owned(seed_bytes(self.seed)),
        }
    }

    /// Generates the program, and how many bytes decoding read.
    pub fn generate(&self, knobs: &Knobs) -> (Generated, usize) {
        let bytes = self.bytes();
        let mut u = arbitrary::Unstructured::new(&bytes);
        let g = generate(&mut u, knobs);
        let used = bytes.len() - u.len();
        (g, used)
    }
}

/// A failure, ready for bucketing: everything the campaign keeps of it, without the
/// generated program's bulk. (Serialized from a campaign's child process to its worker.)
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Found {
    pub seed: u64,
    pub kind: String,
    pub signature: String,
    /// The bucket key of the failure itself (before any reduction).
    pub unreduced_key: String,
    /// Failures alike in signature and everything the culprit did are of one kind: the
    /// first reduction of a kind names its bucket. The device is not part of it (the
    /// reducer moves programs to earlier devices anyway, and device parameters such as the
    /// scratch size encoding are rewrites of their own): with it, a `--zoo all` campaign
    /// made ten times the kinds, more than its reducers could reduce.
    pub alike: String,
    pub culprit_pass: Option<String>,
    pub without_zoo_bug: Option<bool>,
    /// The program carrying the failing inputs, for reduction (`None` when the generator
    /// itself panicked). A child sends it in the `.eu` text form, which round-trips.
    #[serde(with = "program_text")]
    pub program: Option<compiler::Program>,
    /// Reproducer header lines above the `# bucket:` line.
    pub head: String,
    /// Reproducer text below the `# bucket:` line (details, provenance, the program).
    pub body: String,
    /// Whether the reducer may work on it (harness panics cannot be judged).
    pub reducible: bool,
    /// The generator bytes of a mutated case (written as `NAME.bytes`); `None` for a
    /// fresh one, whose bytes are its seed's. (Not sent by a child: its worker has them.)
    #[serde(skip)]
    pub bytes: Option<Arc<super::mutate::Mutation>>,
}

/// A program as its `.eu` text (`parse(print(p)) == p`; the IR's own serde form has maps
/// keyed by tuples, which JSON cannot hold).
mod program_text {
    use compiler::Program;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(p: &Option<Program>, s: S) -> Result<S::Ok, S::Error> {
        p.as_ref().map(compiler::text::print_program).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Program>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|t| compiler::text::parse_program(&t).map_err(serde::de::Error::custom))
            .transpose()
    }
}

impl Found {
    /// The reproducer text, filed in `bucket`.
    pub fn reproducer(&self, bucket: &str) -> String {
        format!("{}# bucket: {bucket}\n{}", self.head, self.body)
    }
}

/// What a case contributes to the statistics (static names: no allocation per passing
/// case; read back from a child process, they are interned).
#[derive(Default, Debug, Serialize)]
pub struct Tally {
    pub outcome: &'static str,
    pub discard: Option<&'static str>,
    /// Why the backend refused the program (the Mesa shim's reason, grouped by cause).
    /// (Left out of a child's reply when absent: a pipeline case's reply is unchanged.)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<&'static str>,
    pub device: Option<&'static str>,
    /// One name per instruction (sent by a child as each name with its count).
    #[serde(serialize_with = "counted")]
    pub opcodes: Vec<&'static str>,
    pub passes: Vec<&'static str>,
    pub rules: Vec<String>,
    /// The case's semantic feature ids ([`super::features`]), sorted. (A child sends them
    /// apart from the rest, see [`super::child::wire`].)
    #[serde(skip)]
    pub features: Vec<u64>,
    /// Generator bytes the program's decoding read.
    pub used: usize,
    /// Whether the case ran a mutated corpus entry.
    pub mutated: bool,
    /// Times the backend's process (the Mesa shim) was started again in this case.
    #[serde(skip_serializing_if = "is_zero")]
    pub shim_restarts: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Serializes names as each distinct one with its count, in first-seen order: a program's
/// hundreds of instructions use a few dozen opcodes, so the reply is shorter and the
/// parent interns each name once.
fn counted<S: serde::Serializer>(names: &[&'static str], s: S) -> Result<S::Ok, S::Error> {
    let mut counts: Vec<(&str, u32)> = vec![];
    for n in names {
        match counts.iter_mut().find(|(m, _)| m == n) {
            Some((_, c)) => *c += 1,
            None => counts.push((n, 1)),
        }
    }
    serde::Serialize::serialize(&counts, s)
}

/// A [`Tally`] as read, its names not interned yet.
#[derive(Deserialize)]
struct ReadTally {
    outcome: String,
    discard: Option<String>,
    #[serde(default)]
    refused: Option<String>,
    device: Option<String>,
    opcodes: Vec<(String, u32)>,
    passes: Vec<String>,
    rules: Vec<String>,
    used: usize,
    mutated: bool,
    #[serde(default)]
    shim_restarts: u64,
}

impl<'de> Deserialize<'de> for Tally {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Tally, D::Error> {
        ReadTally::deserialize(d).map(Tally::from)
    }
}

impl From<ReadTally> for Tally {
    fn from(t: ReadTally) -> Tally {
        let all = |v: Vec<String>| v.iter().map(|s| intern(s)).collect();
        Tally {
            outcome: intern(&t.outcome),
            discard: t.discard.as_deref().map(intern),
            refused: t.refused.as_deref().map(intern),
            device: t.device.as_deref().map(intern),
            opcodes: t
                .opcodes
                .iter()
                .flat_map(|(name, n)| std::iter::repeat_n(intern(name), *n as usize))
                .collect(),
            passes: all(t.passes),
            rules: t.rules,
            features: vec![],
            used: t.used,
            mutated: t.mutated,
            shim_restarts: t.shim_restarts,
        }
    }
}

impl Tally {
    /// Adds this case to `counts`.
    pub fn apply(&self, counts: &mut Counts) {
        counts.execs += 1;
        bump(&mut counts.outcomes, self.outcome);
        if let Some(d) = self.discard {
            bump(&mut counts.discarded, d);
        }
        if let Some(r) = self.refused {
            bump(&mut counts.refused, r);
        }
        counts.shim_restarts += self.shim_restarts;
        if let Some(d) = self.device {
            bump(&mut counts.devices, d);
        }
        for o in &self.opcodes {
            bump(&mut counts.opcode_hits, o);
        }
        for p in &self.passes {
            bump(&mut counts.pass_fires, p);
        }
        for r in &self.rules {
            bump(&mut counts.rules_hit, r);
        }
        bump(
            &mut counts.origins,
            if self.mutated { "mutated" } else { "fresh" },
        );
    }
}

thread_local! {
    static IN_CASE: Cell<bool> = const { Cell::new(false) };
    static PANIC_AT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Installs (once) a panic hook that records where a case panicked. It hands every panic
/// on to the hook before it, so the compiler's own hook still records pass panics.
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_CASE.with(Cell::get) {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                PANIC_AT.with(|p| *p.borrow_mut() = at);
            }
            previous(info);
        }));
    });
}

fn panic_message(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| e.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

/// Runs `f`, turning a panic into `Err((message, location))`.
pub fn catching<T>(f: impl FnOnce() -> T) -> Result<T, (String, String)> {
    install_panic_hook();
    IN_CASE.with(|c| c.set(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    IN_CASE.with(|c| c.set(false));
    r.map_err(|e| (panic_message(&*e), PANIC_AT.with(|p| p.borrow().clone())))
}

/// The program carrying the input set it failed on.
fn failing_program(
    g: &Generated,
    sets: &[compiler::inputs::Inputs],
    v: &Verdict,
) -> compiler::Program {
    let mut p = g.program.clone();
    p.inputs = sets.get(v.input_set().unwrap_or(0)).cloned().or(p.inputs);
    p
}

/// The reproducer's header and body around its `# bucket:` line.
fn reproducer_parts(
    g: &Generated,
    input: &Input,
    p: &compiler::Program,
    v: &Verdict,
    culprit: Option<&Culprit>,
    signature: &str,
    setup: &Setup,
) -> (String, String) {
    let head = format!(
        "# eufuzz reproducer\n# verdict: {}\n# signature: {signature}\n",
        crate::check::describe_verdict(v),
    );
    let mut body = String::new();
    if let Some(d) = crate::identity::details(p, v, culprit) {
        body.push_str(&format!("# details: {d}\n"));
    }
    if let Some(cu) = culprit {
        body.push_str(&format!("# culprit pass: {} ({:?})\n", cu.pass, cu.basis));
    }
    body.push_str(&common_lines(setup));
    body.push_str(&format!(
        "# failing inputs: input set {} of the campaign (kept below)\n",
        v.input_set().unwrap_or(0)
    ));
    body.push_str(&origin(g, input, v.kind(), &setup.knobs));
    body.push_str(&print_program(p));
    (head, body)
}

/// The `# generated:` line of a mutated case: its bytes are beside the reproducer, and the
/// campaign's extra input sets come from `seed` (`reduce::file` reads it back).
pub fn mutated_line(name: &str, seed: u64, parent: &str, ops: &[&str]) -> String {
    format!(
        "# generated: mutated bytes {name}.bytes, input seed {seed}, from corpus entry {parent} by {} (format {FORMAT_VERSION})\n",
        ops.join("+")
    )
}

/// The provenance lines of the case's program (`kind` names its reproducer, `KIND-SEED`).
pub fn origin(g: &Generated, input: &Input, kind: &str, knobs: &Knobs) -> String {
    let mut out = provenance(g, Some(input.seed), knobs);
    if let Some(m) = &input.mutation {
        let first = out.find('\n').map_or(0, |n| n + 1);
        out.replace_range(
            ..first,
            &mutated_line(
                &format!("{kind}-{}", input.seed),
                input.seed,
                &m.parent,
                &m.ops,
            ),
        );
    }
    out
}

/// The `# backend:`, `# zoo bug injected:` and `# options:` lines.
pub fn common_lines(setup: &Setup) -> String {
    let mut out = String::new();
    if let Some(b) = &setup.backend {
        out.push_str(&format!("# backend: {}\n", b.flag()));
    }
    if let Some(z) = &setup.zoo {
        out.push_str(&format!("# zoo bug injected: {z}\n"));
    }
    out.push_str(&crate::repro::options_line(&setup.options));
    out
}

/// The body of a reproducer for a case that did not run to a verdict (a harness panic, a
/// hang): the common lines and, if the generator got that far, the program.
fn unrun_body(setup: &Setup, input: &Input, kind: &str, g: Option<&Generated>) -> String {
    let mut body = common_lines(setup);
    if let Some(g) = g {
        body.push_str(&origin(g, input, kind, &setup.knobs));
        body.push_str(&print_program(&g.program));
    }
    body
}

/// Runs the case of `input`: its contribution to the statistics, and the failure if any.
pub fn run(setup: &Setup, input: &Input) -> (Tally, Option<Found>) {
    phase::mark(phase::GENERATE);
    let generated = catching(|| input.generate(&setup.knobs));
    phase::mark(phase::CHECK);
    let outcome = match &generated {
        Ok((g, used)) => catching(|| {
            let (mut tally, found) = checked_case(setup, input, g);
            tally.used = *used;
            (tally, found)
        }),
        Err(e) => Err(e.clone()),
    };
    match outcome {
        Ok((mut tally, found)) => {
            tally.mutated = input.mutation.is_some();
            (tally, found)
        }
        Err((message, location)) => {
            let g = generated.ok().map(|(g, _)| g);
            let tally = Tally {
                outcome: HARNESS_PANIC,
                device: g.as_ref().map(|g| g.program.device.name()),
                mutated: input.mutation.is_some(),
                ..Tally::default()
            };
            (
                tally,
                Some(harness_panic(setup, input, g, &message, &location)),
            )
        }
    }
}

/// A panic of the harness as a failure: keyed by normalised message and source file.
pub fn harness_panic(
    setup: &Setup,
    input: &Input,
    g: Option<Generated>,
    message: &str,
    location: &str,
) -> Found {
    let file = location.split(':').next().unwrap_or(location);
    let key = format!(
        "{HARNESS_PANIC}/-/{}/{file}",
        crate::identity::normalise(message)
    );
    let signature = format!("{HARNESS_PANIC}/-/{location}");
    let head = format!(
        "# eufuzz reproducer\n# verdict: {HARNESS_PANIC}: {message} at {location}\n# signature: {signature}\n"
    );
    let body = unrun_body(setup, input, HARNESS_PANIC, g.as_ref());
    Found {
        seed: input.seed,
        kind: HARNESS_PANIC.into(),
        alike: key.clone(),
        unreduced_key: key,
        signature,
        culprit_pass: None,
        without_zoo_bug: None,
        program: g.map(|g| g.program),
        head,
        body,
        reducible: false,
        bytes: input.mutation.clone(),
    }
}

/// Bounds on what one case may ask the emulator for, so a campaign's memory stays bounded
/// whatever the generator makes: instructions, threads, and scratch bytes over all threads.
/// (Generated programs stay far below: the generator reads at most 16 KiB per program.
/// Execution itself is bounded by the emulator's fuel.)
pub const MAX_INSTRUCTIONS: usize = 1 << 16;
/// Hardware threads of one case at most (see [`MAX_INSTRUCTIONS`]).
pub const MAX_THREADS: u32 = 64;
/// Scratch bytes of one case over all its threads at most (see [`MAX_INSTRUCTIONS`]).
pub const MAX_SCRATCH_BYTES: u64 = 64 << 20;

/// Whether a program is over the bounds of one case (it is then discarded unrun).
pub fn oversized(p: &compiler::Program) -> bool {
    p.inst_count() > MAX_INSTRUCTIONS
        || p.threads > MAX_THREADS
        || u64::from(p.scratch_size) * u64::from(p.threads) > MAX_SCRATCH_BYTES
}

fn checked_case(setup: &Setup, input: &Input, g: &Generated) -> (Tally, Option<Found>) {
    let seed = input.seed;
    if oversized(&g.program) {
        let tally = Tally {
            outcome: "discard",
            discard: Some("oversized"),
            device: Some(g.program.device.name()),
            features: super::features::ids(&["discard:oversized".to_string()]),
            ..Tally::default()
        };
        return (tally, None);
    }
    let sets = input_sets(&g.program, EXTRA_INPUT_SETS, seed);
    let checked = check(&g.program, &sets, &setup.compile);
    let v = &checked.verdict;
    let mut tally = Tally {
        outcome: v.kind(),
        device: Some(g.program.device.name()),
        opcodes: g.program.insts().map(|i| i.op.name()).collect(),
        features: super::features::ids(&super::features::of(&g.program, &checked)),
        ..Tally::default()
    };
    if let Verdict::Discard { reason } = v {
        tally.discard = Some(reason.name());
    }
    if let Some(comp) = &checked.compilation {
        for r in &comp.passes {
            if r.progress {
                tally.passes.push(r.name);
            }
            tally
                .rules
                .extend(r.violations.iter().map(|x| x.rule.name().to_string()));
        }
    }
    if let Verdict::HardwareViolation { rule, .. } = v {
        tally.rules.push(rule.clone());
    }
    if !v.is_failure() {
        return (tally, None);
    }
    let culprit = localise(&g.program, &sets, &setup.compile, &checked);
    let id = Identity::of(v, culprit.as_ref());
    let alike = format!(
        "{} {}",
        id.signature,
        culprit
            .as_ref()
            .map(|cu| cu.rewrites.join("+"))
            .unwrap_or_default()
    );
    let without_zoo_bug = setup.zoo.as_ref().map(|_| {
        let clean = CompileOptions {
            zoo: Default::default(),
            ..setup.compile.clone()
        };
        check(&g.program, &sets, &clean).verdict.is_failure()
    });
    let p = failing_program(g, &sets, v);
    let (head, body) = reproducer_parts(g, input, &p, v, culprit.as_ref(), &id.signature, setup);
    let found = Found {
        seed,
        kind: v.kind().into(),
        unreduced_key: id.bucket,
        signature: id.signature,
        alike,
        culprit_pass: culprit.map(|c| c.pass),
        without_zoo_bug,
        program: Some(p),
        head,
        body,
        reducible: true,
        bytes: input.mutation.clone(),
    };
    (tally, Some(found))
}

/// How a case's child process ended without answering (see [`super::child`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Death {
    /// `hang` (killed for running over the case timeout) or `crash`.
    pub verdict: &'static str,
    /// `cpu-time` or `wall-clock` for a hang (the clock it ran over); for a crash `stack-overflow`, `out-of-memory`, `abort`,
    /// `signal-N` or `exit-N`.
    pub kind: String,
    /// The phase the child was in ([`phase`]): a pass name, `generate` or `check`.
    pub phase: Option<String>,
    /// How the process ended (`signal 6`), with the last line it wrote to stderr.
    pub how: String,
    /// The cap a hang ran over.
    pub cap: std::time::Duration,
}

impl Death {
    /// A hang on the child's CPU time: killed by a timeout the campaign adapts, which a
    /// second run confirms (`worker`).
    pub fn is_cpu_hang(&self) -> bool {
        self.verdict == "hang" && self.kind == "cpu-time"
    }

    /// The compiler pass the case was in when the process died, if any.
    pub fn pass(&self) -> Option<&str> {
        self.phase
            .as_deref()
            .filter(|p| *p != phase::GENERATE && *p != phase::CHECK)
    }

    /// Whether the program was generated before the process died: only then may the parent
    /// generate it again (a generator that kills a child would kill the campaign too).
    pub fn generated(&self) -> bool {
        self.phase.as_deref().is_some_and(|p| p != phase::GENERATE)
    }

    /// `crash/PASS/KIND` or `hang/PASS/CLOCK` (`-` outside a pass): the signature and
    /// bucket key, the same for every case that dies the same way in the same pass.
    pub fn signature(&self) -> String {
        format!(
            "{}/{}/{}",
            self.verdict,
            self.pass().unwrap_or("-"),
            self.kind
        )
    }

    fn verdict_line(&self) -> String {
        let place = self.pass().map(|p| format!(" in {p}")).unwrap_or_default();
        if self.verdict == "hang" {
            format!(
                "hang: the case ran over its {} cap of {} s{place}",
                self.kind,
                self.cap.as_secs_f64()
            )
        } else {
            format!("crash: {}{place} ({})", self.kind, self.how)
        }
    }
}

/// A case whose child process died, as a failure: its tally and its reproducer, whose
/// program is generated again here from the input (unless the child died generating it:
/// then its `.bytes` are the reproducer).
pub fn died(setup: &Setup, input: &Input, death: &Death) -> (Tally, Found) {
    let g = death
        .generated()
        .then(|| catching(|| input.generate(&setup.knobs).0).ok())
        .flatten();
    let signature = death.signature();
    let head = format!(
        "# eufuzz reproducer\n# verdict: {}\n# signature: {signature}\n",
        death.verdict_line()
    );
    let mut body = String::new();
    if let Some(pass) = death.pass() {
        body.push_str(&format!(
            "# culprit pass: {pass} (running when the process died)\n"
        ));
    }
    body.push_str(&unrun_body(setup, input, death.verdict, g.as_ref()));
    let tally = Tally {
        outcome: death.verdict,
        device: g.as_ref().map(|g| g.program.device.name()),
        mutated: input.mutation.is_some(),
        ..Tally::default()
    };
    let found = Found {
        seed: input.seed,
        kind: death.verdict.into(),
        unreduced_key: signature.clone(),
        alike: signature.clone(),
        signature,
        culprit_pass: death.pass().map(str::to_string),
        without_zoo_bug: None,
        program: g.map(|g| g.program),
        head,
        body,
        reducible: false,
        bytes: input.mutation.clone(),
    };
    (tally, found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_and_shim_restarts_cross_from_a_child_and_a_pipeline_tally_is_unchanged() {
        let mesa = Tally {
            outcome: "refused",
            refused: Some("opcode '…' is not mapped"),
            shim_restarts: 2,
            ..Tally::default()
        };
        let back: Tally = serde_json::from_str(&serde_json::to_string(&mesa).unwrap()).unwrap();
        assert_eq!(back.refused, Some("opcode '…' is not mapped"));
        assert_eq!(back.shim_restarts, 2);
        let mut counts = Counts::default();
        back.apply(&mut counts);
        assert_eq!(counts.refused["opcode '…' is not mapped"], 1);
        assert_eq!(counts.shim_restarts, 2);
        let pipeline = serde_json::to_string(&Tally::default()).unwrap();
        assert!(!pipeline.contains("refused") && !pipeline.contains("shim_restarts"));
    }

    #[test]
    fn programs_over_the_case_bounds_are_discarded_unrun() {
        let setup = Setup {
            knobs: Knobs::default(),
            compile: CompileOptions::default(),
            zoo: None,
            options: vec![],
            backend: None,
        };
        let mut g = oracle::generator::from_seed(1, &setup.knobs);
        assert!(!oversized(&g.program));
        g.program.threads = MAX_THREADS + 1;
        assert!(oversized(&g.program));
        let (tally, found) = checked_case(&setup, &Input::fresh(1), &g);
        assert_eq!(
            (tally.outcome, tally.discard),
            ("discard", Some("oversized"))
        );
        assert!(found.is_none() && tally.opcodes.is_empty());
        g.program.threads = 2;
        g.program.scratch_size = (MAX_SCRATCH_BYTES / 2 + 1) as u32;
        assert!(oversized(&g.program));
    }
}
