//! Campaign statistics: the counters every worker keeps, the failures, the timeline, and
//! the `stats.json` file built from them (the contract the report reads: plain data, every
//! field defaulted so older or partial files still read).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One failure found by a campaign, and one sample of its progress taken at each
/// checkpoint: the report's own types, so `stats.json` has one definition.
pub use reports::campaign_report::{FailureRecord as Failure, Sample};

/// What the cases run so far add up to. Each worker keeps its own (no shared lock on the
/// hot path); the campaign's totals are their sum.
#[derive(Serialize, Deserialize, Clone, Default, Debug, PartialEq)]
#[serde(default)]
pub struct Counts {
    pub execs: u64,
    pub discarded: BTreeMap<String, u64>,
    pub outcomes: BTreeMap<String, u64>,
    pub opcode_hits: BTreeMap<String, u64>,
    pub pass_fires: BTreeMap<String, u64>,
    /// Executions per device.
    pub devices: BTreeMap<String, u64>,
    /// Validator and strict hardware rules, by name: how often a case reported each.
    pub rules_hit: BTreeMap<String, u64>,
    /// Cases by origin: `fresh` (a seed's program) or `mutated` (a corpus entry mutated).
    pub origins: BTreeMap<String, u64>,
    /// Corpus entries added, by the origin of the case that added them.
    pub corpus_added: BTreeMap<String, u64>,
    /// Features a worker reached first, by the origin of the case that reached them (each
    /// worker counts against what it knew, so the sum over workers can exceed the
    /// campaign's feature count).
    pub features_added: BTreeMap<String, u64>,
    /// Cases that finished but took over `timing::SLOW_FACTOR` × the median case time.
    pub slow: u64,
    /// Child processes started again after one died (a crash or a hang).
    pub restarts: u64,
    /// Programs the backend refused, by cause (`--backend mesa`: outside the shim's
    /// mapping). What a campaign refuses it does not test, so the causes are kept.
    pub refused: BTreeMap<String, u64>,
    /// Times a worker's Mesa shim was started again after Mesa crashed, asserted or hung.
    pub shim_restarts: u64,
}

/// Adds one to `map[key]`, allocating the key only the first time it is seen.
pub fn bump(map: &mut BTreeMap<String, u64>, key: &str) {
    add(map, key, 1);
}

/// Adds `n` to `map[key]`, allocating the key only the first time it is seen.
pub fn add(map: &mut BTreeMap<String, u64>, key: &str, n: u64) {
    match map.get_mut(key) {
        Some(x) => *x += n,
        None => {
            map.insert(key.to_string(), n);
        }
    }
}

fn add_map(into: &mut BTreeMap<String, u64>, from: &BTreeMap<String, u64>) {
    for (k, v) in from {
        match into.get_mut(k) {
            Some(n) => *n += v,
            None => {
                into.insert(k.clone(), *v);
            }
        }
    }
}

impl Counts {
    /// Adds `other` into these counts.
    pub fn add(&mut self, other: &Counts) {
        self.execs += other.execs;
        add_map(&mut self.discarded, &other.discarded);
        add_map(&mut self.outcomes, &other.outcomes);
        add_map(&mut self.opcode_hits, &other.opcode_hits);
        add_map(&mut self.pass_fires, &other.pass_fires);
        add_map(&mut self.devices, &other.devices);
        add_map(&mut self.rules_hit, &other.rules_hit);
        add_map(&mut self.origins, &other.origins);
        add_map(&mut self.corpus_added, &other.corpus_added);
        add_map(&mut self.features_added, &other.features_added);
        add_map(&mut self.refused, &other.refused);
        self.slow += other.slow;
        self.restarts += other.restarts;
        self.shim_restarts += other.shim_restarts;
    }

    /// Percentage of executions that were neither discarded nor refused.
    pub fn valid_percent(&self) -> f64 {
        let discarded: u64 =
            self.discarded.values().sum::<u64>() + self.refused.values().sum::<u64>();
        if self.execs == 0 {
            0.0
        } else {
            100.0 * (self.execs - discarded) as f64 / self.execs as f64
        }
    }
}

/// Campaign statistics (`DIR/stats.json`, and the `--stats-json` file).
#[derive(Serialize, Deserialize, Default, Debug, Clone, PartialEq)]
#[serde(default)]
pub struct Stats {
    pub seconds: f64,
    pub execs_per_sec: f64,
    #[serde(flatten)]
    pub counts: Counts,
    pub failures: Vec<Failure>,
    /// Worker threads.
    pub jobs: u32,
    /// The build's git revision (`git describe --always --dirty` at build time, or
    /// `EUFUZZ_REVISION`), so a report says what was fuzzed.
    pub revision: String,
    /// When the campaign started (seconds since the Unix epoch; kept across `--resume`).
    pub started_unix: u64,
    /// Progress over time, one sample per checkpoint.
    pub timeline: Vec<Sample>,
    /// `K/N` for a shard of a larger campaign.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// The zoo bugs injected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zoo: Option<String>,
    /// The backend under test when it is not eufuzz's pipeline (`mesa:PASS`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// Whether the campaign kept a corpus and mutated it (`--feedback on`).
    pub feedback: bool,
    /// Distinct semantic features reached (`campaign::features`; after `eufuzz merge`, the
    /// largest shard's count: a lower bound of the union).
    pub features: u64,
    /// The features by kind (`rewrite`, `inst`, `cf`, …).
    pub features_by_kind: BTreeMap<String, u64>,
    /// Corpus entries the campaign mutates: the base corpus and every worker's additions
    /// (0 without feedback, whose `OUT/corpus` is written but never mutated).
    pub corpus: u64,
    /// The seconds the campaign was asked to fuzz (`--time`, over every session): after
    /// them only the running reductions finish, which a report charts apart from the
    /// fuzzing rate (0 in statistics older than the field).
    pub time_limit: u64,
    /// Whether the campaign was stopped by Ctrl-C before its time was up: such a night is
    /// no full night, and a report says so.
    pub interrupted: bool,
    /// The slowest of the slow cases (`counts.slow` counts them all).
    pub slowest: Vec<super::timing::Slow>,
    /// Cases still running when the campaign ended (not counted; `--resume` runs them).
    pub unfinished: Vec<super::timing::Unfinished>,
    /// The median case time (seconds) the case timeout was derived from at the end.
    pub median_case_seconds: f64,
}

/// The build's revision, as the build script recorded it.
pub const REVISION: &str = env!("EUFUZZ_REVISION");

impl Stats {
    /// Distinct bucket keys among the failures.
    pub fn bucket_count(&self) -> u64 {
        let keys: std::collections::BTreeSet<&str> =
            self.failures.iter().map(|f| f.bucket.as_str()).collect();
        keys.len() as u64
    }

    /// The end-of-campaign summary.
    pub fn summary(&self) -> String {
        let c = &self.counts;
        let mut out = format!(
            "{} execs in {:.1}s ({:.0}/s, {} worker(s))\noutcomes: {:?}\ndiscarded: {:?}\nopcodes hit: {}\npasses fired: {:?}\nsemantic features: {} {:?}\nfeedback: {}, corpus {} entries, cases {:?}, new features by origin {:?}\nfailures: {} in {} bucket(s)\n",
            c.execs,
            self.seconds,
            self.execs_per_sec,
            self.jobs,
            c.outcomes,
            c.discarded,
            c.opcode_hits.len(),
            c.pass_fires,
            self.features,
            self.features_by_kind,
            if self.feedback { "on" } else { "off" },
            self.corpus,
            c.origins,
            c.features_added,
            self.failures.len(),
            self.bucket_count()
        );
        if let Some(b) = &self.backend {
            out.push_str(&backend_lines(b, self));
        }
        if c.slow > 0 || c.restarts > 0 {
            out.push_str(&format!(
                "slow cases: {} (over {}× the median case time), child processes restarted: {}\n",
                c.slow,
                super::timing::SLOW_FACTOR,
                c.restarts
            ));
        }
        for u in &self.unfinished {
            out.push_str(&format!(
                "still running at the end: seed {} (worker {}, {:.1}s, in {})\n",
                u.seed,
                u.worker,
                u.seconds,
                u.phase.as_deref().unwrap_or("-")
            ));
        }
        if let Some(f) = self
            .failures
            .iter()
            .find(|f| f.without_zoo_bug == Some(false))
        {
            out.push_str(&format!(
                "zoo bug detected after {:.1}s: {}\n",
                f.seconds, f.signature
            ));
        }
        for f in &self.failures {
            let note = if f.without_zoo_bug == Some(true) {
                "  (fails without the zoo bug too)"
            } else {
                ""
            };
            out.push_str(&format!(
                "  {:>8.1}s  {}  {}{note}\n",
                f.seconds,
                f.bucket,
                f.file.as_deref().unwrap_or("(bucket full, not written)")
            ));
        }
        out
    }
}

/// The summary lines of a campaign against another backend: judged checks per second
/// (cases that were neither discarded nor refused) and the refusals by cause, most
/// frequent first: what the campaign did not test.
fn backend_lines(backend: &str, s: &Stats) -> String {
    let c = &s.counts;
    let refused: u64 = c.refused.values().sum();
    let discarded: u64 = c.discarded.values().sum();
    let judged = c.execs.saturating_sub(refused + discarded);
    let mut out = format!(
        "backend {backend}: {judged} judged ({:.1} judged checks/s), {refused} refused, {discarded} discarded; shim restarts: {}\n",
        judged as f64 / s.seconds.max(1e-9),
        c.shim_restarts
    );
    let mut by_count: Vec<_> = c.refused.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (why, n) in by_count {
        out.push_str(&format!("  refused {n:8}  {why}\n"));
    }
    out
}

/// The timelines of campaigns run side by side, as one: at each sample time, the sum of
/// every campaign's latest sample.
fn merge_timelines(parts: &[&[Sample]]) -> Vec<Sample> {
    let mut times: Vec<f64> = parts
        .iter()
        .flat_map(|t| t.iter().map(|s| s.seconds))
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    times
        .into_iter()
        .map(|t| {
            let mut sum = Sample {
                seconds: t,
                ..Sample::default()
            };
            for part in parts {
                if let Some(s) = part.iter().rev().find(|s| s.seconds <= t) {
                    sum.execs += s.execs;
                    sum.failures += s.failures;
                    sum.buckets += s.buckets;
                    // Shards reach many of the same features: the largest is a lower bound.
                    sum.features = sum.features.max(s.features);
                    sum.corpus = sum.corpus.max(s.corpus);
                }
            }
            sum
        })
        .collect()
}

/// The statistics of campaigns run side by side (shards on several machines) as one
/// campaign: counts and failures add up, the duration is the longest, the workers add up.
/// Bucket counts in the merged timeline add the shards' (a bucket two shards found counts
/// twice there; `failures` has the exact keys).
pub fn merge(parts: &[Stats]) -> Stats {
    let mut out = Stats::default();
    for p in parts {
        out.counts.add(&p.counts);
        out.failures.extend(p.failures.iter().cloned());
        out.seconds = out.seconds.max(p.seconds);
        out.jobs += p.jobs;
        out.feedback |= p.feedback;
        out.features = out.features.max(p.features);
        out.corpus = out.corpus.max(p.corpus);
        for slow in &p.slowest {
            super::timing::keep(&mut out.slowest, slow.clone());
        }
        out.unfinished.extend(p.unfinished.iter().cloned());
        for (k, v) in &p.features_by_kind {
            let n = out.features_by_kind.entry(k.clone()).or_default();
            *n = (*n).max(*v);
        }
    }
    out.execs_per_sec = out.counts.execs as f64 / out.seconds.max(1e-9);
    out.time_limit = parts.iter().map(|p| p.time_limit).max().unwrap_or(0);
    out.interrupted = parts.iter().any(|p| p.interrupted);
    out.started_unix = parts
        .iter()
        .map(|p| p.started_unix)
        .filter(|&t| t > 0)
        .min()
        .unwrap_or(0);
    let mut revisions: Vec<&str> = parts.iter().map(|p| p.revision.as_str()).collect();
    revisions.sort();
    revisions.dedup();
    out.revision = revisions.join(",");
    let zoo: Vec<&Option<String>> = parts.iter().map(|p| &p.zoo).collect();
    if zoo.windows(2).all(|w| w[0] == w[1]) {
        out.zoo = zoo.first().and_then(|z| (*z).clone());
    }
    let backends: Vec<&Option<String>> = parts.iter().map(|p| &p.backend).collect();
    if backends.windows(2).all(|w| w[0] == w[1]) {
        out.backend = backends.first().and_then(|b| (*b).clone());
    }
    let timelines: Vec<&[Sample]> = parts.iter().map(|p| p.timeline.as_slice()).collect();
    out.timeline = merge_timelines(&timelines);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_key_by_key() {
        let mut a = Counts {
            execs: 2,
            ..Default::default()
        };
        bump(&mut a.outcomes, "pass");
        bump(&mut a.outcomes, "pass");
        let mut b = Counts {
            execs: 1,
            ..Default::default()
        };
        bump(&mut b.outcomes, "pass");
        bump(&mut b.discarded, "undefined-branch");
        a.add(&b);
        assert_eq!(a.execs, 3);
        assert_eq!(a.outcomes["pass"], 3);
        assert_eq!(a.discarded["undefined-branch"], 1);
        assert!((a.valid_percent() - 200.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn stats_json_is_flat_and_reads_back_partial_files() {
        let mut s = Stats {
            jobs: 2,
            revision: "abc".into(),
            ..Default::default()
        };
        s.counts.execs = 7;
        let json: serde_json::Value = serde_json::to_value(&s).unwrap();
        assert_eq!(json["execs"], 7);
        assert_eq!(json["jobs"], 2);
        assert!(json.get("counts").is_none());
        let back: Stats = serde_json::from_value(json).unwrap();
        assert_eq!(back, s);
        let partial: Stats = serde_json::from_str(r#"{"execs": 3}"#).unwrap();
        assert_eq!(partial.counts.execs, 3);
    }

    #[test]
    fn merged_shards_add_up() {
        let shard = |execs: u64, seconds: f64, bucket: &str| {
            let mut s = Stats {
                seconds,
                jobs: 2,
                revision: "r1".into(),
                started_unix: 100 + execs,
                zoo: Some("all".into()),
                timeline: vec![
                    Sample {
                        seconds: 1.0,
                        execs: execs / 2,
                        ..Sample::default()
                    },
                    Sample {
                        seconds,
                        execs,
                        failures: 1,
                        buckets: 1,
                        ..Sample::default()
                    },
                ],
                ..Default::default()
            };
            s.counts.execs = execs;
            bump(&mut s.counts.devices, "skl");
            s.failures.push(Failure {
                bucket: bucket.into(),
                ..Default::default()
            });
            s
        };
        let m = merge(&[shard(10, 4.0, "a"), shard(30, 5.0, "b")]);
        assert_eq!(m.counts.execs, 40);
        assert_eq!(m.counts.devices["skl"], 2);
        assert_eq!(m.jobs, 4);
        assert_eq!(m.seconds, 5.0);
        assert_eq!(m.execs_per_sec, 8.0);
        assert_eq!(m.started_unix, 110);
        assert_eq!(m.revision, "r1");
        assert_eq!(m.zoo.as_deref(), Some("all"));
        assert_eq!(m.bucket_count(), 2);
        let execs: Vec<u64> = m.timeline.iter().map(|s| s.execs).collect();
        assert_eq!(execs, [5 + 15, 10 + 15, 10 + 30]);
    }
}
