#!/usr/bin/env bash
# Times the shader-db round trip of issue 14 over the whole corpus on every device: two
# `eufuzz stats --all-devices` runs (with and without move_load_const) and the comparison,
# RUNS times; prints each run's seconds and the median.
# Usage: scripts/stats-benchmark.sh [RUNS=3] [OUT=target/stats-benchmark]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
out=${2:-target/stats-benchmark}
cargo build -q --release -p triage
mkdir -p "$out"
eufuzz=${CARGO_TARGET_DIR:-target}/release/eufuzz
times=()
for ((i = 1; i <= runs; i++)); do
  start=$(date +%s.%N)
  "$eufuzz" stats corpus/shaders --all-devices --out "$out/a.csv" 2>/dev/null
  "$eufuzz" stats corpus/shaders --all-devices --skip move_load_const --out "$out/b.csv" 2>/dev/null
  "$eufuzz" stats-compare "$out/a.csv" "$out/b.csv" >"$out/report.txt"
  end=$(date +%s.%N)
  t=$(echo "$end - $start" | bc)
  times+=("$t")
  echo "run $i: ${t} s ($(wc -l <"$out/a.csv") rows per stats run, $(nproc) cores)"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "median: %.1f s\n", (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
