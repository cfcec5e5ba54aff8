//! Execution controls: SIMD width, group, NoMask against the dispatch width, source counts,
//! flag registers, EOT placement.

use super::{Report, Rule};
use crate::inst::Inst;
use crate::opcode::{Opcode, SrcCount};
use crate::program::Program;

pub(super) fn check(p: &Program, ip: usize, inst: &Inst, r: &mut Report) {
    let exec = inst.exec_size as u32;
    let group = inst.group as u32;
    let dispatch = p.dispatch_width as u32;
    if !matches!(exec, 1 | 2 | 4 | 8 | 16 | 32) {
        r.add(
            Rule::ExecSize,
            Some(ip),
            format!("execution size {exec} is not 1, 2, 4, 8, 16 or 32"),
        );
    } else if !group.is_multiple_of(exec) {
        r.add(
            Rule::GroupMisaligned,
            Some(ip),
            format!("group {group} is not a multiple of the execution size {exec}"),
        );
    }
    if !inst.nomask && exec > dispatch {
        r.add(
            Rule::NomaskWiderThanDispatch,
            Some(ip),
            format!(
                "masked {}({exec}) is wider than the dispatch width {dispatch}; it must be NoMask",
                inst.op.name()
            ),
        );
    } else {
        let limit = if inst.nomask { 32 } else { dispatch };
        if group + exec > limit {
            r.add(
                Rule::GroupBeyondDispatch,
                Some(ip),
                format!(
                    "channels {group}..{} run past the {limit} channels of the {}",
                    group + exec,
                    if inst.nomask {
                        "execution mask"
                    } else {
                        "dispatch"
                    }
                ),
            );
        }
    }
    let n = inst.srcs.len();
    let count_ok = match inst.op.src_count() {
        SrcCount::Exactly(k) => n == k,
        SrcCount::AtLeast(k) => n >= k,
    };
    if !count_ok {
        let want = match inst.op.src_count() {
            SrcCount::Exactly(k) => format!("{k}"),
            SrcCount::AtLeast(k) => format!("at least {k}"),
        };
        r.add(
            Rule::SourceCount,
            Some(ip),
            format!("{} takes {want} sources, has {n}", inst.op.name()),
        );
    }
    if let Some(cmod) = inst.cmod
        && !inst.op.ir_can_do_cmod()
    {
        // docs/hardware/brw-backend.md §10.3 #2 (FBL), docs/hardware/eu-hardware.md §6.10 (BFI2).
        r.add(
            Rule::CmodNotSupported,
            Some(ip),
            format!(
                "{} cannot carry a conditional modifier (.{})",
                inst.op.name(),
                cmod.name()
            ),
        );
    }
    // docs/hardware/eu-hardware.md §2.3, §6.10: "CMP (or CMPN) must have a condition.", "SEL must either be
    // predicated or have a condition modifiers".
    let condition_missing = match inst.op {
        Opcode::Cmp | Opcode::Cmpn => inst.cmod.is_none(),
        Opcode::Sel => inst.cmod.is_none() && inst.predicate.is_none(),
        _ => false,
    };
    if condition_missing {
        r.add(
            Rule::ConditionMissing,
            Some(ip),
            format!("{} has no condition to act on", inst.op.name()),
        );
    }
    let uses_flag = inst.predicate.is_some() || inst.writes_flag();
    let flag_bits = 16 * p.device.info().flag_subregs;
    let (first, count) = inst.flag_bits();
    if uses_flag && (inst.flag_subreg as u32) * 16 >= flag_bits {
        r.add(
            Rule::FlagOutOfRange,
            Some(ip),
            format!(
                "flag f{}.{} does not exist on {}",
                inst.flag_subreg / 2,
                inst.flag_subreg % 2,
                p.device
            ),
        );
    } else if uses_flag && first + count > flag_bits {
        r.add(
            Rule::FlagOutOfRange,
            Some(ip),
            format!(
                "flag bits {first}..{} run past the device's {flag_bits} flag bits",
                first + count
            ),
        );
    }
    if inst.eot {
        if !inst.op.can_eot() {
            r.add(
                Rule::EotOnNonSend,
                Some(ip),
                format!("{} cannot end the thread", inst.op.name()),
            );
        }
        if ip + 1 != p.inst_count() {
            r.add(
                Rule::EotNotLast,
                Some(ip),
                "EOT on an instruction that is not the program's last",
            );
        }
    }
}
