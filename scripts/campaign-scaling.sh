#!/usr/bin/env bash
# Campaign scaling benchmark: executions per second of `eufuzz campaign` with --jobs 1 and
# --jobs 2 (same seed, same time), and what checkpointing costs per case: checkpoints never
# (--checkpoint-every 1e9) against the default (every 5 s) and a very frequent one (0.1 s).
# RUNS runs of each configuration, interleaved so that a busy spell on the machine falls on
# every configuration alike; the medians are compared. CPU% (from /usr/bin/time) shows
# whether the workers had the cores: with 2 jobs it should be near 200 %; executions per
# CPU-second show the cost of running in parallel apart from the load on the machine (equal
# for 1 and 2 jobs when workers do not slow each other down). Two seconds before each run
# ends, the CPU time of every thread is read from /proc: the collecting thread (`eufuzz`:
# filing, progress, checkpoints) against the workers (their threads and the child
# processes they run cases in) is the checkpoint cost apart from the load on the machine.
#
# Usage: scripts/campaign-scaling.sh [SECONDS=30] [RUNS=3] [OUT=target/campaign-scaling]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
[ "$seconds" -ge 5 ] || { echo "SECONDS must be at least 5" >&2; exit 2; }
runs=${2:-3}
out=${3:-target/campaign-scaling}
cargo build --release -q -p triage
eufuzz="${CARGO_TARGET_DIR:-target}/release/eufuzz"
rm -rf "$out"
mkdir -p "$out"

configs=(
  "jobs1|--jobs 1"
  "jobs2|--jobs 2"
  "jobs2-no-checkpoints|--jobs 2 --checkpoint-every 1000000000"
  "jobs2-checkpoint-0.1s|--jobs 2 --checkpoint-every 0.1"
)
for run in $(seq 1 "$runs"); do
  for c in "${configs[@]}"; do
    name=${c%%|*}
    flags=${c#*|}
    dir="$out/$name-$run"
    # shellcheck disable=SC2086 # the flags are words
    CI=true /usr/bin/time -f "%P" -o "$dir.cpu" "$eufuzz" campaign --time "$seconds" \
        --seed 424242 --reduce-budget 0 $flags --out "$dir" > "$dir.log" 2>&1 &
    timer=$!
    sleep $((seconds - 2))
    campaign=$(pgrep -P "$timer" eufuzz)
    {
      for task in /proc/"$campaign"/task/*; do
        echo "$(cat "$task/comm") $(awk '{print $14 + $15}' "$task/stat")"
      done
      # Each worker runs its cases in a child process (crash isolation): its CPU is the
      # worker's too.
      for child in $(pgrep -P "$campaign"); do
        echo "child-process-$child $(awk '{print $14 + $15}' "/proc/$child/stat")"
      done
    } > "$dir.threads"
    wait "$timer" || true
    printf '%s run %s: %s execs/s, CPU %s\n' "$name" "$run" \
        "$(jq -r '.execs_per_sec | floor' "$dir/stats.json")" "$(tail -1 "$dir.cpu")"
  done
done

python3 - "$out" "$runs" <<'PY'
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
names = ["jobs1", "jobs2", "jobs2-no-checkpoints", "jobs2-checkpoint-0.1s"]
med = {}
per_cpu = {}
print("\n| configuration | execs/s per run | median execs/s | CPU % per run | median execs per CPU-second |")
print("| --- | --- | --- | --- | --- |")
for n in names:
    rates = [json.load(open(f"{out}/{n}-{r}/stats.json"))["execs_per_sec"] for r in range(1, runs + 1)]
    cpu = [float(open(f"{out}/{n}-{r}.cpu").read().split()[-1].rstrip("%")) for r in range(1, runs + 1)]
    med[n] = statistics.median(rates)
    per_cpu[n] = statistics.median(r / (c / 100) for r, c in zip(rates, cpu) if c > 0)
    print(f"| {n} | {', '.join(f'{x:.0f}' for x in rates)} | {med[n]:.0f} | {', '.join(f'{c:.0f}' for c in cpu)} | {per_cpu[n]:.0f} |")
print(f"\nspeed-up, 2 jobs over 1: {med['jobs2'] / med['jobs1']:.2f}x")
print(f"parallel efficiency, execs per CPU-second with 2 jobs over 1: {per_cpu['jobs2'] / per_cpu['jobs1']:.2f}")
for n in ["jobs2", "jobs2-checkpoint-0.1s"]:
    base = med["jobs2-no-checkpoints"]
    # Two workers: each case costs 2/rate seconds of worker time.
    per_case_us = (2 / med[n] - 2 / base) * 1e6
    print(f"checkpointing ({n}): {100 * (base - med[n]) / base:+.1f} % execs/s, {per_case_us:+.0f} us per case against no checkpoints")

# CPU time of the collecting thread per case and against the workers' (clock ticks of 10 ms).
print("\n| configuration | collecting thread CPU / workers' CPU | collecting thread CPU per case |")
print("| --- | --- | --- |")
for n in names:
    share, per_case = [], []
    for r in range(1, runs + 1):
        ticks = dict(l.split() for l in open(f"{out}/{n}-{r}.threads") if l.strip())
        main = float(ticks.get("eufuzz", 0))
        workers = sum(float(v) for k, v in ticks.items()
                      if k.startswith("eufuzz-worker") or k.startswith("child-process-"))
        stats = json.load(open(f"{out}/{n}-{r}/stats.json"))
        # The sample was taken two seconds before the end.
        cases = stats["execs"] * max(stats["seconds"] - 2, 1) / stats["seconds"]
        share.append(main / workers if workers else 0)
        per_case.append(main * 10_000 / cases if cases else 0)
    print(f"| {n} | {100 * statistics.median(share):.2f} % | {statistics.median(per_case):.1f} us |")
PY
