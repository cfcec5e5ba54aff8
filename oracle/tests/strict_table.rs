//! The rules strict mode evaluates on each device, in order, against the lists the two
//! per-family tables gave before they became one table (tests/data/strict_rules_per_device.txt):
//! the first rule an instruction breaks names its finding, so neither the set nor the order
//! may drift.

use compiler::device::ALL_DEVICES;
use oracle::strict;

fn evaluated() -> Vec<String> {
    ALL_DEVICES
        .into_iter()
        .flat_map(|d| {
            strict::rules(d).map(move |r| {
                let id = r.id.trim_start_matches("oracle::strict::rules::");
                format!("{} {id} {}", d.name(), r.name)
            })
        })
        .collect()
}

#[test]
fn every_device_evaluates_the_rules_it_did_in_the_same_order() {
    let expected: Vec<&str> = include_str!("data/strict_rules_per_device.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect();
    let got = evaluated();
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "row {i}");
    }
    assert_eq!(got.len(), expected.len());
}

#[test]
fn no_device_evaluates_a_rule_twice() {
    for d in ALL_DEVICES {
        let mut ids: Vec<&str> = strict::rules(d).map(|r| r.id).collect();
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n, "{}", d.name());
    }
}
