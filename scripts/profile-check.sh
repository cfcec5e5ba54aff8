#!/usr/bin/env bash
# Where one differential check's time goes, per stage: samples `cargo bench -p oracle
# --bench differential -- differential/check` with `perf record` (DWARF call graphs) and
# puts each sample in the first stage its call stack is in: generating the program and its
# inputs, validating the input, each compiler pass (register allocation split into its
# scheduling, liveness and the rest), the validator after passes, decoding and running the
# reference and the compiled program, comparing. Prints a Markdown table (share of the
# check's samples); multiply by the bench's time per check for time per stage.
#
# usage: scripts/profile-check.sh [SECONDS=10] [BENCH_BINARY]
# (BENCH_BINARY: a built differential bench, e.g. one saved from another revision; by
# default the current tree's is built.)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_=${1:-10}
bench=${2:-}
if [ -z "$bench" ]; then
    bench=$(cargo bench -p oracle --bench differential --no-run --message-format=json 2>/dev/null |
        grep -o '"executable":"[^"]*differential[^"]*"' | tail -1 | cut -d'"' -f4)
fi
data=$(mktemp)
trap 'rm -f "$data" "$data.txt"' EXIT
perf record -q -F 1000 --call-graph=dwarf,32768 -o "$data" \
    "$bench" --bench --warm-up-time 1 --measurement-time "$SECONDS_" differential/check > /dev/null 2>&1
perf script -i "$data" -F ip,sym 2> /dev/null > "$data.txt"
python3 - "$data.txt" <<'PY'
import re, sys, collections
# (stage, every pattern that must be on the stack), first match wins; stacks are read from
# the root, so "in a pass" is decided before "in the validator".
STAGES = [
    ("generate program", [r"oracle::generator::from_seed"]),
    ("generate input sets", [r"oracle::differential::input_sets"]),
    ("validate input", [r"check_with_reference_fuel", r"compiler::validate::validate"], r"compiler::pipeline::"),
    ("validator after passes", [r"compiler::pipeline::step", r"compiler::validate::validate"]),
    ("RA: pre-RA scheduling", [r"allocate_registers::run", r"passes::schedule::schedule"]),
    ("RA: liveness", [r"allocate_registers::run", r"analysis::liveness"]),
    ("RA: spilling, scratch lowering, assignment", [r"allocate_registers::run"]),
    ("post-RA scheduling", [r"schedule_post_ra::run"]),
    ("PASS", [r"compiler::passes::(?:vec4::)?([a-z0-9_]+)::run"]),
    ("pipeline bookkeeping", [r"compiler::pipeline::compile"]),
    ("decode compiled (strict rules)", [r"check_with_reference_fuel::\{\{closure\}\}", r"Prepared::new"]),
    ("decode reference", [r"Prepared::new"]),
    ("compiled runs (strict)", [r"Prepared::run_with_fuel"]),
    ("reference runs", [r"Prepared::run\b|Prepared::run_inspect"]),
    ("compare", [r"oracle::compare::"]),
    ("dropping results", [r"drop_in_place"]),
]
text = open(sys.argv[1]).read()
counts = collections.Counter()
total = 0
for s in text.split("\n\n"):
    frames = [re.sub(r"^\s*[0-9a-f]+\s+", "", l.strip()) for l in s.strip().split("\n") if l.strip()]
    if not any("check_with_reference_fuel" in f or "from_seed" in f or "input_sets" in f for f in frames):
        continue
    total += 1
    stack = "\n".join(reversed(frames))
    for stage in STAGES:
        name, pats = stage[0], stage[1]
        unless = stage[2] if len(stage) > 2 else None
        ms = [re.search(p, stack) for p in pats]
        if all(ms) and not (unless and re.search(unless, stack)):
            if name == "PASS":
                name = "pass " + ms[0].group(1)
            counts[name] += 1
            break
    else:
        counts["other (in the check)"] += 1
print(f"| stage | share of the check |\n| --- | --- |")
for name, n in counts.most_common():
    print(f"| {name} | {100 * n / total:.1f} % |")
print(f"\n{total} samples in the check")
PY
