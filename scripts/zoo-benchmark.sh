#!/usr/bin/env bash
# Bug-finding benchmark over the zoo: for every historical bug, RUNS campaigns (different
# seeds) of at most SECONDS each with the bug injected, stopping at the first failure the
# bug causes. Prints, per bug, the median seconds to detection, how many runs found it,
# and the culprit pass reported (with the pass that holds the bug).
# Usage: scripts/zoo-benchmark.sh [SECONDS=60] [RUNS=5] [OUT=target/zoo-benchmark]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
runs=${2:-5}
out=${3:-target/zoo-benchmark}
cargo build -q --release -p triage --features zoo
mkdir -p "$out"
# A private copy: rebuilding target/ while the benchmark runs must not change it.
cp "${CARGO_TARGET_DIR:-target}/release/eufuzz" "$out/eufuzz"
eufuzz=$out/eufuzz
holder() {
  case "$1" in
    simd-*) echo lower_simd_width ;;
    regioning-*) echo lower_regioning ;;
    imul-*) echo lower_integer_multiplication ;;
    *) echo allocate_registers ;;
  esac
}
printf '| bug | pass holding it | found | median s to detection | culprit reported |\n'
printf '| --- | --- | --- | --- | --- |\n'
for f in corpus/zoo/*.eu; do
  bug=$(basename "$f" .eu)
  times=()
  culprits=()
  for ((r = 0; r < runs; r++)); do
    log="$out/$bug-$r.txt"
    CI=true "$eufuzz" campaign --zoo "$bug" --time "$seconds" --seed $((r * 1000003)) \
      --stop-on-failure --reduce-budget 0 --out "$out/$bug-$r" > "$log" 2>&1 || true
    line=$(grep '^zoo bug detected after' "$log" || true)
    if [ -n "$line" ]; then
      times+=("$(echo "$line" | sed 's/.*after \([0-9.]*\)s.*/\1/')")
      culprits+=("$(echo "$line" | awk -F/ '{print $2}')")
    fi
  done
  found=${#times[@]}
  if [ "$found" -gt 0 ]; then
    median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    culprit=$(printf '%s\n' "${culprits[@]}" | sort | uniq -c | sort -rn | awk '{print $2 " (" $1 "/'"$found"')"}' | paste -sd ' ' -)
  else
    median="-"
    culprit="-"
  fi
  printf '| %s | %s | %d/%d | %s | %s |\n' "$bug" "$(holder "$bug")" "$found" "$runs" "$median" "$culprit"
done
