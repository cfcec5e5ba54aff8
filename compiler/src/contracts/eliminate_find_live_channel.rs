//! The contract of `eliminate_find_live_channel`: what it leaves in every program (`Pass::postcondition`),
//! stated apart from the pass (docs/validator.md, pass contracts).

use crate::opcode::Opcode;
use crate::program::Program;
use crate::validate::{Rule, Violation};

/// What the pass leaves ([`Rule::LiveChannelKept`]): in a program with packed dispatch, no
/// FIND_LIVE_CHANNEL of group 0 outside every IF/ELSE and DO/WHILE and before the first HALT,
/// where channel 0 is known to be live (docs/hardware/brw-backend.md §7.1 step 14, §9.2).
/// One left there computes the right value the slow way, so only this contract sees it.
pub fn postcondition(p: &Program) -> Vec<Violation> {
    if !p.packed_dispatch {
        return vec![];
    }
    let mut violations = vec![];
    let mut nesting = 0u32;
    for (ip, inst) in p.insts().enumerate() {
        match inst.op {
            Opcode::Halt => break,
            Opcode::If | Opcode::Do => nesting += 1,
            Opcode::Endif | Opcode::While => nesting = nesting.saturating_sub(1),
            Opcode::FindLiveChannel if nesting == 0 && inst.group == 0 => {
                violations.push(Violation {
                    rule: Rule::LiveChannelKept,
                    ip: Some(ip),
                    message: "FIND_LIVE_CHANNEL where channel 0 is live, yet \
                              eliminate_find_live_channel kept it"
                        .into(),
                });
            }
            _ => {}
        }
    }
    violations
}
