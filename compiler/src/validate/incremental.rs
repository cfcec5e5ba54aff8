//! Validation after a pass that checks again only what the pass may have changed. The pass
//! manager validates after every pass that made progress, and most passes rewrite a few
//! instructions of many: the rest are equal to instructions of the program validated before,
//! at the same place or the same distance from the end.
//!
//! Every rule still holds for every instruction. The per-instruction rules (`check_inst`)
//! depend only on the instruction and the program's header: the device, stage, dispatch
//! width, thread count, attribute, uniform and scratch sizes and the sizes of the VGRFs the
//! instruction names — its `ip` only labels the violation, and only an EOT asks where the
//! program ends. So an instruction equal to one the previous validation found clean, under
//! the same header, is clean again. A header differing only by VGRFs appended keeps a clean
//! instruction clean: it named only declared VGRFs (else `vgrf-undeclared`), whose sizes
//! are unchanged. Anything else is checked in full, and so are the whole-program rules.

use super::{Report, Violation, check_inst, check_program, sort};
use crate::device::Device;
use crate::inst::Inst;
use crate::opcode::Opcode;
use crate::program::{Program, Stage};

/// Every header field but the VGRF sizes (compared apart) and the inputs: those the
/// per-instruction rules read, and the others too, so a rule that starts reading one stays
/// covered.
#[derive(Clone, PartialEq)]
struct Header {
    device: Device,
    stage: Stage,
    dispatch_width: u8,
    packed_dispatch: bool,
    threads: u32,
    attr_sizes: Vec<u32>,
    uniforms: u32,
    scratch_size: u32,
}

impl Header {
    fn of(p: &Program) -> Header {
        Header {
            device: p.device,
            stage: p.stage,
            dispatch_width: p.dispatch_width,
            packed_dispatch: p.packed_dispatch,
            threads: p.threads,
            attr_sizes: p.attr_sizes.clone(),
            uniforms: p.uniforms,
            scratch_size: p.scratch_size,
        }
    }
}

/// A validator that remembers the program it last validated: its header, instructions and
/// which of them broke no per-instruction rule. The pass manager keeps one per compilation.
#[derive(Default)]
pub struct Incremental {
    last: Option<Last>,
    unchanged: bool,
}

struct Last {
    header: Header,
    vgrf_sizes: Vec<u32>,
    block_lens: Vec<usize>,
    insts: Vec<Inst>,
    clean: Vec<bool>,
}

/// Whether `p`'s blocks have the instruction counts `lens`.
fn same_blocks(lens: &[usize], p: &Program) -> bool {
    lens.len() == p.blocks.len() && lens.iter().zip(&p.blocks).all(|(&n, b)| n == b.insts.len())
}

impl Last {
    /// Whether a clean instruction of this program is clean in `p` too.
    fn carries_over_to(&self, p: &Program) -> bool {
        p.vgrf_sizes.starts_with(&self.vgrf_sizes) && self.header == Header::of(p)
    }

    /// For each instruction of `insts`, the ip of an equal instruction of this program: at
    /// the same distance from the start or from the end, or, when the instructions between
    /// those equal runs are as many in both, at the same place among them (a pass that
    /// rewrote instructions in place). Hashing every instruction to find moved ones as well
    /// costs more than the checks it saves (docs/profile.md).
    fn matches(&self, insts: &[&Inst]) -> Vec<Option<usize>> {
        let (old, new) = (self.insts.len(), insts.len());
        let shorter = old.min(new);
        let prefix = (0..shorter)
            .take_while(|&i| self.insts[i] == *insts[i])
            .count();
        let suffix = (0..shorter - prefix)
            .take_while(|&i| self.insts[old - 1 - i] == *insts[new - 1 - i])
            .count();
        let in_place = old == new;
        (0..new)
            .map(|ip| {
                if ip < prefix {
                    Some(ip)
                } else if ip >= new - suffix {
                    Some(ip + old - new)
                } else {
                    (in_place && self.insts[ip] == *insts[ip]).then_some(ip)
                }
            })
            .collect()
    }
}

impl Incremental {
    /// Whether `p` differs from the program validated last, in its header, VGRFs, blocks
    /// or any instruction (`None` before the first validation). Passes never change a
    /// program's inputs, so this is `Program` equality without them.
    pub fn differs(&self, p: &Program) -> Option<bool> {
        let last = self.last.as_ref()?;
        let same = last.header == Header::of(p)
            && last.vgrf_sizes == p.vgrf_sizes
            && same_blocks(&last.block_lens, p)
            && last.insts.iter().zip(p.insts()).all(|(a, b)| a == b);
        Some(!same)
    }

    /// Whether the program of the last [`Incremental::validate`] was the one validated
    /// before it, as [`Incremental::differs`] tells (false for the first): what a pass that
    /// reported progress must not leave, known from the validator's matching for free.
    pub fn unchanged(&self) -> bool {
        self.unchanged
    }

    /// The violations of `p`, exactly as [`super::validate`] gives them; remembers `p` for
    /// the next call.
    pub fn validate(&mut self, p: &Program) -> Vec<Violation> {
        let insts: Vec<&Inst> = p.insts().collect();
        let last = self.last.take();
        let matched = match &last {
            Some(last) if last.carries_over_to(p) => last.matches(&insts),
            _ => vec![None; insts.len()],
        };
        self.unchanged = last.as_ref().is_some_and(|l| {
            l.carries_over_to(p)
                && l.vgrf_sizes.len() == p.vgrf_sizes.len()
                && l.insts.len() == insts.len()
                && matched.iter().enumerate().all(|(ip, &at)| at == Some(ip))
                && same_blocks(&l.block_lens, p)
        });
        let was_clean = |at: usize| last.as_ref().is_some_and(|l| l.clean[at]);
        let mut r = Report { violations: vec![] };
        check_program(p, &mut r);
        let mut clean = Vec::with_capacity(insts.len());
        for (ip, (&inst, at)) in insts.iter().zip(&matched).enumerate() {
            // Whether an EOT is the last instruction is not the instruction's own property.
            if at.is_some_and(was_clean) && !inst.eot {
                clean.push(true);
                continue;
            }
            let before = r.violations.len();
            check_inst(p, ip, inst, &mut r);
            clean.push(r.violations.len() == before);
        }
        // The copy of `p` to compare the next program with: matched instructions move over
        // from the previous copy (each is matched once), only the others are cloned.
        let mut previous = last.map_or(vec![], |l| l.insts);
        let copy = insts
            .iter()
            .zip(matched)
            .map(|(&inst, at)| match at {
                Some(at) => std::mem::replace(&mut previous[at], Inst::control(Opcode::Nop, 1)),
                None => inst.clone(),
            })
            .collect();
        self.last = Some(Last {
            header: Header::of(p),
            vgrf_sizes: p.vgrf_sizes.clone(),
            block_lens: p.blocks.iter().map(|b| b.insts.len()).collect(),
            insts: copy,
            clean,
        });
        sort(&mut r.violations);
        r.violations
    }
}
