//! Structured control flow: IF/ELSE/ENDIF and DO/WHILE balanced and properly nested,
//! BREAK/CONTINUE inside a loop, every HALT followed by a top-level HALT_TARGET.

use super::{Report, Rule};
use crate::opcode::Opcode;
use crate::program::Program;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    If,
    Else,
    Do,
}

impl Open {
    fn name(self) -> &'static str {
        match self {
            Open::If => "IF",
            Open::Else => "ELSE",
            Open::Do => "DO",
        }
    }
}

pub(super) fn check(p: &Program, r: &mut Report) {
    let mut stack: Vec<(Open, usize)> = vec![];
    let mut pending_halts: Vec<usize> = vec![];
    for (ip, inst) in p.insts().enumerate() {
        let top = stack.last().copied();
        let mut misnested = |what: &str, closes: &str, top: Option<(Open, usize)>| {
            let msg = match top {
                Some((open, at)) => format!(
                    "{what} would close the {} at ip {at}; it needs an open {closes}",
                    open.name()
                ),
                None => format!("{what} without a matching {closes}"),
            };
            r.add(Rule::CfUnmatched, Some(ip), msg);
        };
        match inst.op {
            Opcode::If | Opcode::Do => {
                stack.push((
                    if inst.op == Opcode::If {
                        Open::If
                    } else {
                        Open::Do
                    },
                    ip,
                ));
            }
            Opcode::Else => match top {
                Some((Open::If, _)) => {
                    if let Some(t) = stack.last_mut() {
                        t.0 = Open::Else;
                    }
                }
                _ => misnested("ELSE", "IF", top),
            },
            Opcode::Endif => match top {
                Some((Open::If | Open::Else, _)) => {
                    stack.pop();
                }
                _ => misnested("ENDIF", "IF", top),
            },
            Opcode::While => match top {
                Some((Open::Do, _)) => {
                    stack.pop();
                }
                _ => misnested("WHILE", "DO", top),
            },
            Opcode::Break | Opcode::Continue if !stack.iter().any(|(o, _)| *o == Open::Do) => {
                r.add(
                    Rule::CfUnmatched,
                    Some(ip),
                    format!("{} outside a loop", inst.op.name().to_uppercase()),
                );
            }
            Opcode::Halt => pending_halts.push(ip),
            Opcode::HaltTarget => {
                if let Some((open, at)) = top {
                    r.add(
                        Rule::HaltTarget,
                        Some(ip),
                        format!(
                            "HALT_TARGET inside the {} at ip {at}; halted channels only rejoin at top level",
                            open.name()
                        ),
                    );
                }
                pending_halts.clear();
            }
            _ => {}
        }
    }
    for (open, at) in stack {
        let closer = if open == Open::Do { "WHILE" } else { "ENDIF" };
        r.add(
            Rule::CfUnmatched,
            Some(at),
            format!("{} at ip {at} is never closed by {closer}", open.name()),
        );
    }
    for ip in pending_halts {
        r.add(
            Rule::HaltTarget,
            Some(ip),
            "HALT has no HALT_TARGET after it for halted channels to rejoin",
        );
    }
}
