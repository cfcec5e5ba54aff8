#!/usr/bin/env bash
# Gate speed: a corpus of N generated programs (each `# expect: pass`), gated with JOBS
# threads; prints the wall time of `eufuzz gate` (the median of RUNS runs).
#
# usage: scripts/gate-benchmark.sh [N=1000] [JOBS=2] [RUNS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000}
JOBS=${2:-2}
RUNS=${3:-3}
cargo build -q --release -p triage
eufuzz=${CARGO_TARGET_DIR:-target}/release/eufuzz
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for k in $(seq 1 "$N"); do
    { echo "eu 1"; echo "# expect: pass"; "$eufuzz" gen --seed "$k" | grep -v '^eu 1$'; } > "$dir/p$k.eu"
done
times=()
for _ in $(seq 1 "$RUNS"); do
    start=$(date +%s.%N)
    "$eufuzz" gate "$dir" --jobs "$JOBS" > "$dir.out" || true
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
done
tail -1 "$dir.out"
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "gate over $N files, --jobs $JOBS: median $median s over $RUNS runs"
rm -f "$dir.out"
