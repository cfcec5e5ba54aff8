//! The vec4 stage's logical semantics (`stage vs`) on the emulator: the SIMD4x2 register
//! layout of docs/hardware/fp64-align16.md §1.1, logical 64-bit swizzles and writemasks counting DF
//! components (§2, §10 item 8), vec4 uniform slots (§1.1), per-vertex dispatch, the URB
//! write output and its comparison, and a reference that ignores hardware quirks (§10
//! item 10). Every expected value below is worked out by hand from those sections.

use compiler::text::parse_program;
use compiler::{Inputs, Program};
use oracle::compare::{Difference, compare};
use oracle::differential::{Verdict, check};
use oracle::emu::result::UrbWrite;
use oracle::{Outcome, RunConfig, RunResult, run};

fn vs(decls: &str, body: &str, inputs: &str) -> Program {
    let text = format!(
        "eu 1\ntarget hsw\nstage vs\ndispatch 8\nthreads 1\n{decls}\nSTART B0\n{body}\nEND B0\n\nINPUTS\n{inputs}\nEND INPUTS\n"
    );
    let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let violations = compiler::validate::validate(&p);
    assert!(violations.is_empty(), "{violations:?}\n{text}");
    p
}

fn run_logical(p: &Program) -> RunResult {
    let r = run(p, p.inputs.as_ref().unwrap(), &RunConfig::default());
    assert_eq!(r.outcome, Outcome::Completed, "{:?}", r.diagnostics);
    r
}

fn slot(r: &RunResult, slot: u8) -> &UrbWrite {
    r.threads[0]
        .urb_writes
        .iter()
        .find(|w| w.slot == slot)
        .unwrap_or_else(|| panic!("no write of slot {slot}: {:?}", r.threads[0].urb_writes))
}

/// The four floats each written vertex sent to `slot` (`None` for an undefined one).
fn floats(r: &RunResult, s: u8) -> Vec<(u32, Vec<Option<f32>>)> {
    slot(r, s)
        .vertices
        .iter()
        .map(|v| {
            let comps = (0..4)
                .map(|k| (v.defined[k] == 0xf).then(|| f32::from_bits(v.values[k])))
                .collect();
            (v.channel, comps)
        })
        .collect()
}

/// The dvec4 each written vertex sent to slots `s` (x, y) and `s + 1` (z, w).
fn dvec4s(r: &RunResult, s: u8) -> Vec<(u32, Vec<Option<f64>>)> {
    let (lo, hi) = (slot(r, s), slot(r, s + 1));
    lo.vertices
        .iter()
        .zip(&hi.vertices)
        .map(|(a, b)| {
            assert_eq!(a.channel, b.channel);
            let df = |v: &oracle::emu::result::ChannelColor, i: usize| {
                (v.defined[2 * i] == 0xf && v.defined[2 * i + 1] == 0xf).then(|| {
                    f64::from_bits((v.values[2 * i + 1] as u64) << 32 | v.values[2 * i] as u64)
                })
            };
            (a.channel, vec![df(a, 0), df(a, 1), df(b, 0), df(b, 1)])
        })
        .collect()
}

fn some<T: Copy>(v: &[T]) -> Vec<Option<T>> {
    v.iter().copied().map(Some).collect()
}

const DVEC4_IN: &str = "    thread 0 attr0 1.0:DF 2.0:DF 3.0:DF 4.0:DF 5.0:DF 6.0:DF 7.0:DF 8.0:DF\n    \
     thread 0 attr1 10.0:DF 20.0:DF 30.0:DF 40.0:DF 50.0:DF 60.0:DF 70.0:DF 80.0:DF";

/// §1.1: a dvec4 is two GRFs, vertex 0's x..w in the first; §10 item 8 / §1.4: a logical
/// 64-bit swizzle names DF components, so `.zwxy` reads (z, w, x, y) of the same vertex.
#[test]
fn dvec4_operands_take_logical_df_swizzles() {
    let p = vs(
        "attr attr0 2\nattr attr1 2\nvgrf v0 2",
        "    add(8) v0:DF, attr0:DF, attr1.zwxy:DF { Align16 }\n    \
         urb_write_logical(8) null:UD, v0:DF, 0:UD, 1:UD { EOT }",
        DVEC4_IN,
    );
    let r = run_logical(&p);
    assert_eq!(
        dvec4s(&r, 0),
        vec![
            (0, some(&[1.0 + 30.0, 2.0 + 40.0, 3.0 + 10.0, 4.0 + 20.0])),
            (1, some(&[5.0 + 70.0, 6.0 + 80.0, 7.0 + 50.0, 8.0 + 60.0])),
        ]
    );
    assert!(r.threads[0].eot);
}

/// §1.1: a 32-bit vec4 is one GRF, vertex 0 in bytes 0–15 and vertex 1 in 16–31; the
/// swizzle picks 32-bit components within the vertex.
#[test]
fn vec4_operands_hold_both_vertices_in_one_register() {
    let p = vs(
        "attr attr0 1\nvgrf v0 1",
        "    mov(8) v0:F, attr0.wzyx:F { Align16 }\n    \
         urb_write_logical(8) null:UD, v0:F, 5:UD, 1:UD { EOT }",
        "    thread 0 attr0 1.0:F 2.0:F 3.0:F 4.0:F 5.0:F 6.0:F 7.0:F 8.0:F",
    );
    let r = run_logical(&p);
    assert_eq!(
        floats(&r, 5),
        vec![
            (0, some(&[4.0, 3.0, 2.0, 1.0])),
            (1, some(&[8.0, 7.0, 6.0, 5.0]))
        ]
    );
}

/// §2 (Mesa: DF writemasks "are 64-bit in general") and §10 item 8: in the logical IR a
/// writemask bit enables one DF component, `.xy` included — the hardware's unconfirmed
/// reading of `.xy` on DF (§12) does not apply to the logical reference.
#[test]
fn df_writemasks_enable_df_components() {
    let p = vs(
        "attr attr0 2\nattr attr1 2\nvgrf v0 2",
        "    mov(8) v0:DF, attr0:DF { Align16 }\n    \
         mov(8) v0.xy:DF, attr1:DF { Align16 }\n    \
         mov(8) v0.w:DF, attr1.xxxx:DF { Align16 }\n    \
         urb_write_logical(8) null:UD, v0:DF, 0:UD, 1:UD { EOT }",
        DVEC4_IN,
    );
    let r = run_logical(&p);
    assert_eq!(
        dvec4s(&r, 0),
        vec![
            (0, some(&[10.0, 20.0, 3.0, 10.0])),
            (1, some(&[50.0, 60.0, 7.0, 50.0])),
        ]
    );
}

/// §1.1: uniforms are vec4 slots, slot k in GRF `start + k/2` at byte `(k%2)·16` (here
/// start = g1, after the g0 header; `u<4k>` is slot k); a dvec4 uniform takes two slots.
/// Both vertices read the same uniform: no second-half register bump (§3.1 is a hardware
/// effect, §10 item 10 keeps it out of the reference).
#[test]
fn uniforms_are_vec4_slots_shared_by_both_vertices() {
    let p = vs(
        "uniforms 12\nattr attr0 2\nattr attr1 1\nvgrf v0 2\nvgrf v1 2",
        "    add(8) v0:DF, attr0:DF, u4.wzyx:DF { Align16 }\n    \
         mul(8) v1:F, attr1:F, u0.yyyy:F { Align16 }\n    \
         mov(8) v1+32:F, g1.4<0;1,0>:F\n    \
         urb_write_logical(8) null:UD, v0:DF, 0:UD, 1:UD\n    \
         urb_write_logical(8) null:UD, v1:F, 2:UD, 2:UD { EOT }",
        "    uniforms 0.5:F 3.0:F 0.25:F 0.125:F 100.0:DF 200.0:DF 300.0:DF 400.0:DF\n    \
         thread 0 attr0 1.0:DF 2.0:DF 3.0:DF 4.0:DF 5.0:DF 6.0:DF 7.0:DF 8.0:DF\n    \
         thread 0 attr1 1.0:F 2.0:F 3.0:F 4.0:F 5.0:F 6.0:F 7.0:F 8.0:F",
    );
    let r = run_logical(&p);
    assert_eq!(
        dvec4s(&r, 0),
        vec![
            (0, some(&[401.0, 302.0, 203.0, 104.0])),
            (1, some(&[405.0, 306.0, 207.0, 108.0])),
        ]
    );
    assert_eq!(
        floats(&r, 2),
        vec![
            (0, some(&[3.0, 6.0, 9.0, 12.0])),
            (1, some(&[15.0, 18.0, 21.0, 24.0]))
        ]
    );
    // Slot 1 (u4, the dvec4's first slot) lies at g1 byte 16: its first dword is the low
    // half of 100.0, read by every channel of the Align1 scalar region.
    let low = (100.0f64.to_bits() & 0xffff_ffff) as u32;
    for v in &slot(&r, 3).vertices {
        assert_eq!(v.values, vec![low; 4]);
    }
}

/// §10 item 10: a logical instruction reads all its sources before writing (no two-half
/// ordering): the exec-8 DF move into its own source's second register copies the
/// original vertex 1, where the hardware's halves would copy vertex 0 twice (§3.1).
#[test]
fn logical_instructions_do_not_run_in_halves() {
    let p = vs(
        "attr attr0 2\nvgrf v0 3",
        "    mov(8) v0:DF, attr0:DF { Align16 }\n    \
         mov(8) v0+32:DF, v0:DF { Align16 }\n    \
         urb_write_logical(8) null:UD, v0+32:DF, 0:UD, 1:UD { EOT }",
        "    thread 0 attr0 1.0:DF 2.0:DF 3.0:DF 4.0:DF 5.0:DF 6.0:DF 7.0:DF 8.0:DF",
    );
    let r = run_logical(&p);
    assert_eq!(
        dvec4s(&r, 0),
        vec![
            (0, some(&[1.0, 2.0, 3.0, 4.0])),
            (1, some(&[5.0, 6.0, 7.0, 8.0])),
        ]
    );
}

/// Channel `c` is component `c % 4` of vertex `c / 4`: an exec-4 instruction at group 4
/// (`2N`) runs vertex 1 on the register half it names; a thread dispatched with vertex 0
/// alone (mask 0x0f) neither runs it nor writes vertex 1's outputs.
#[test]
fn one_vertex_instructions_and_partial_dispatch() {
    let body = "    mov(8) v0:F, 0.0:F { Align16 }\n    \
                mov(4) v0+16:F, attr0+16.yyyy:F { Align16 2N }\n    \
                urb_write_logical(8) null:UD, v0:F, 0:UD, 1:UD { EOT }";
    let input = "    thread 0 attr0 1.0:F 2.0:F 3.0:F 4.0:F 5.0:F 6.0:F 7.0:F 8.0:F";
    let both = run_logical(&vs("attr attr0 1\nvgrf v0 1", body, input));
    assert_eq!(
        floats(&both, 0),
        vec![(0, some(&[0.0; 4])), (1, some(&[6.0; 4]))]
    );
    let masked = format!("{input}\n    thread 0 dispatch_mask 0x0f");
    let one = run_logical(&vs("attr attr0 1\nvgrf v0 1", body, &masked));
    assert_eq!(floats(&one, 0), vec![(0, some(&[0.0; 4]))]);
}

/// A vec4 thread starts with whole vertices only.
#[test]
fn a_dispatch_mask_splitting_a_vertex_is_refused() {
    let p = vs(
        "vgrf v0 1",
        "    mov(8) v0:F, 1.0:F { Align16 }\n    \
         urb_write_logical(8) null:UD, v0:F, 0:UD, 1:UD { EOT }",
        "    thread 0 dispatch_mask 0x03",
    );
    let r = run(&p, p.inputs.as_ref().unwrap(), &RunConfig::default());
    let Outcome::Fault { message, .. } = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert!(
        message.contains("vertex 0 alone (0x0f) or both vertices (0xff)"),
        "{message}"
    );
}

/// Strict (hardware) mode has no virtual registers, Align16 included.
#[test]
fn strict_mode_refuses_virtual_vec4_operands() {
    let p = vs(
        "attr attr0 2\nvgrf v0 2",
        "    mov(8) v0:DF, attr0.yxwz:DF { Align16 }",
        "    thread 0 attr0 1.0:DF",
    );
    let cfg = RunConfig {
        strict: true,
        ..RunConfig::default()
    };
    let r = run(&p, p.inputs.as_ref().unwrap(), &cfg);
    let Outcome::Fault { message, .. } = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert!(message.contains("in hardware code"), "{message}");
}

/// The hardware URB write (`MsgKind::UrbWrite`): a header, then one register per slot,
/// vertex 0 in bytes 0–15 and vertex 1 in 16–31.
#[test]
fn the_hardware_urb_write_sends_one_register_per_slot() {
    let p = vs(
        "",
        "    mov(8) g10<8;8,1>:UD, 0:UD { NoMask }\n    \
         mov(8) g11<8;8,1>:F, g2<8;8,1>:F\n    \
         mov(8) g12<8;8,1>:F, g3<8;8,1>:F\n    \
         send(8) null:UD, g10<8;8,1>:UD, null:UD desc(urb_write slot=4 mlen=3 ex_mlen=0 rlen=0 header) { EOT }",
        "",
    );
    let mut inputs = Inputs::default();
    inputs.dispatch_masks.insert(0, 0xff);
    let r = run(&p, &inputs, &RunConfig::default());
    assert_eq!(r.outcome, Outcome::Completed);
    let w = &r.threads[0].urb_writes;
    assert_eq!(
        w.iter()
            .map(|w| (w.slot, w.vertices.len(), w.eot))
            .collect::<Vec<_>>(),
        vec![(4, 2, true), (5, 2, true)]
    );
    // g2/g3 are beyond the (empty) payload: undefined, so every component is too.
    assert!(
        w.iter()
            .flat_map(|w| &w.vertices)
            .all(|v| v.defined == vec![0; 4])
    );
}

/// Outputs are compared per slot, vertex and component.
#[test]
fn outputs_are_compared_per_vertex_and_component() {
    let prog = |z1: &str| {
        vs(
            "attr attr0 1\nvgrf v0 1",
            &format!(
                "    mov(8) v0:F, attr0:F {{ Align16 }}\n    \
                 mov(4) v0+16.z:F, {z1}:F {{ Align16 2N }}\n    \
                 urb_write_logical(8) null:UD, v0:F, 7:UD, 1:UD {{ EOT }}"
            ),
            "    thread 0 attr0 1.0:F 2.0:F 3.0:F 4.0:F 5.0:F 6.0:F 7.0:F 8.0:F",
        )
    };
    let reference = run_logical(&prog("2.0"));
    assert!(compare(&reference, &run_logical(&prog("2.0"))).is_empty());
    let differences = compare(&reference, &run_logical(&prog("9.0")));
    assert_eq!(
        differences,
        vec![Difference::Output {
            thread: 0,
            slot: 7,
            vertex: 1,
            write: 0,
            component: 2,
            expected: 2.0f32.to_bits(),
            expected_defined: 0xf,
            actual: Some((9.0f32.to_bits(), 0xf)),
        }]
    );
}

/// The differential check compiles a vec4 program with the vec4 pipeline and compares
/// the URB outputs of the compiled run with the reference.
#[test]
fn the_differential_check_compiles_vec4_programs() {
    let p = vs(
        "attr attr0 2\nvgrf v0 2",
        "    mov(8) v0:DF, attr0.zwzw:DF { Align16 }\n    \
         urb_write_logical(8) null:UD, v0:DF, 0:UD, 1:UD { EOT }",
        "    thread 0 attr0 1.0:DF 2.0:DF 3.0:DF 4.0:DF 5.0:DF 6.0:DF 7.0:DF 8.0:DF",
    );
    let checked = check(
        &p,
        &[p.inputs.clone().unwrap()],
        &compiler::pass::CompileOptions::default(),
    );
    assert_eq!(checked.verdict, Verdict::Pass);
    let compiled = checked.compilation.expect("compiled");
    assert!(!compiled.program.has_vgrf_operands());
}
