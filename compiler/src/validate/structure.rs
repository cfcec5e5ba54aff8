//! Program-level rules: dispatch width, thread count, block structure.

use super::{Report, Rule};
use crate::program::{Program, block_sizes};

pub(super) fn check(p: &Program, r: &mut Report) {
    let info = p.device.info();
    let dw = p.dispatch_width as u32;
    if !matches!(dw, 8 | 16 | 32) || dw > info.max_dispatch_width {
        r.add(
            Rule::DispatchWidth,
            None,
            format!(
                "dispatch width {dw} is not one of 8/16/32 up to {} on {}",
                info.max_dispatch_width, info.name
            ),
        );
    }
    if p.threads == 0 {
        r.add(Rule::ThreadCount, None, "a run needs at least one thread");
    }
    for (b, block) in p.blocks.iter().enumerate() {
        if block.insts.is_empty() {
            r.add(
                Rule::EmptyBlock,
                None,
                format!("block B{b} has no instructions"),
            );
        }
    }
    let have: Vec<usize> = p
        .blocks
        .iter()
        .map(|b| b.insts.len())
        .filter(|n| *n > 0)
        .collect();
    let want = block_sizes(p.insts().map(|i| i.op));
    if have != want {
        let starts = |s: &[usize]| {
            let mut ip = 0;
            s.iter()
                .map(|n| {
                    let start = ip;
                    ip += n;
                    start.to_string()
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        r.add(
            Rule::BlockBoundary,
            None,
            format!(
                "blocks start at ips [{}] but control flow needs them at [{}]",
                starts(&have),
                starts(&want)
            ),
        );
    }
}
