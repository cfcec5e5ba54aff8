//! Strict hardware mode: every instruction checked against the target's restriction rules —
//! those of Mesa's `elk_eu_validate.c` (Gen4–8) and `brw_eu_validate.c` (Gfx9+), as listed in
//! docs/hardware/eu-hardware.md §6 — each with a stable kebab-case name and Mesa's error text.
//!
//! The rules are data: [`table::TABLE`] lists every rule once with the parts it applies
//! to, so each row can be read against the spec's tables. Rule logic lives in one function
//! per rule, grouped by the spec's sections.

mod rules;
mod table;

use crate::emu::decode::Restriction;
use compiler::device::DeviceInfo;
use compiler::{Device, Inst};

/// One restriction rule.
pub struct RuleDef {
    /// Where the rule is defined (`module::STATIC`): a family's variant of a check shares the
    /// check's name and often its message, so only this tells two rules apart.
    pub id: &'static str,
    /// Stable kebab-case name (bucket signatures use it).
    pub name: &'static str,
    /// Mesa's error text (or ours, for checks Mesa leaves to the encoder).
    pub message: &'static str,
    /// Whether `inst` breaks the rule on this device.
    pub broken: fn(&Inst, &DeviceInfo) -> bool,
}

/// A table row: a rule and the parts it applies to.
pub struct Row {
    pub rule: &'static RuleDef,
    pub applies: fn(&DeviceInfo) -> bool,
}

/// The restrictions `inst` breaks on `device`.
pub fn check(inst: &Inst, device: Device) -> Vec<Restriction> {
    Checker::new(device).check(inst)
}

/// The rules of one device, its table rows filtered once: a program's instructions are
/// all checked against the same rows.
pub struct Checker {
    info: &'static DeviceInfo,
    rules: Vec<&'static RuleDef>,
}

/// The rules checked on `device`, in the order they are evaluated: the first one broken is
/// the one a finding is bucketed under.
pub fn rules(device: Device) -> impl Iterator<Item = &'static RuleDef> {
    let info = device.info();
    table::TABLE
        .iter()
        .filter(|row| (row.applies)(info))
        .map(|row| row.rule)
}

impl Checker {
    pub fn new(device: Device) -> Checker {
        Checker {
            info: device.info(),
            rules: rules(device).collect(),
        }
    }

    /// The restrictions `inst` breaks, in table order.
    pub fn check(&self, inst: &Inst) -> Vec<Restriction> {
        self.rules
            .iter()
            .filter(|rule| (rule.broken)(inst, self.info))
            .map(|rule| Restriction {
                rule: rule.name,
                message: rule.message,
            })
            .collect()
    }
}

/// Every rule name known to the table, for tests and documentation.
pub fn all_rule_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = table::TABLE.iter().map(|r| r.rule.name).collect();
    names.sort_unstable();
    names.dedup();
    names
}
