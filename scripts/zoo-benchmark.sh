#!/usr/bin/env bash
# Bug-finding benchmark over the zoo: for every historical bug, RUNS campaigns (different
# seeds) of at most SECONDS each with the bug injected, stopping at the first failure the
# bug causes. Prints, per bug, the median seconds to detection, how many runs found it,
# and the culprit pass reported (with the pass that holds the bug).
# Usage: scripts/zoo-benchmark.sh [SECONDS=60] [RUNS=5] [OUT=target/zoo-benchmark] [BUGS...]
# JOBS=N runs N campaigns at once (default 1; each campaign is one worker, so up to the
# number of cores leaves detection times comparable). EXTRA="FLAGS" adds campaign flags to
# every run (`EXTRA="--feedback off"` measures without feedback). EUFUZZ=PATH benchmarks
# that binary (built with the zoo feature) instead of building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
runs=${2:-5}
out=${3:-target/zoo-benchmark}
shift $(($# < 3 ? $# : 3))
jobs=${JOBS:-1}
mkdir -p "$out"
if [ -z "${EUFUZZ:-}" ]; then
  cargo build -q --release -p triage --features zoo
  EUFUZZ="${CARGO_TARGET_DIR:-target}/release/eufuzz"
fi
# A private copy: rebuilding target/ while the benchmark runs must not change it.
cp "$EUFUZZ" "$out/eufuzz"
eufuzz=$out/eufuzz
# The pass holding a bug is the culprit its corpus/zoo program's `# expect:` names
# (`mismatch/opt_cse/output` -> opt_cse).
holder() {
  sed -n 's/^# expect: [^/]*\/\([^/]*\)\/.*/\1/p' "corpus/zoo/$1.eu" | head -1
}
if [ $# -gt 0 ]; then
  bugs=("$@")
else
  bugs=()
  for f in corpus/zoo/*.eu; do bugs+=("$(basename "$f" .eu)"); done
fi
# Every (bug, run) campaign, JOBS at a time.
export EXTRA=${EXTRA:-}
for bug in "${bugs[@]}"; do
  for ((r = 0; r < runs; r++)); do echo "$bug $r"; done
done | xargs -P "$jobs" -L 1 sh -c '
  # A bug of the vec4 pipeline (its program is `stage vs`) is hunted with vec4 programs on
  # the parts the stage is modelled on.
  knobs=""
  if grep -q "^stage vs" "corpus/zoo/$3.eu"; then knobs="stage=vs devices=hsw,ivb"; fi
  CI=true "$0" campaign --jobs 1 --zoo "$3" --time "$1" --seed $(($4 * 1000003)) \
    ${knobs:+--knobs "$knobs"} $EXTRA \
    --stop-on-failure --reduce-budget 0 --out "$2/$3-$4" > "$2/$3-$4.txt" 2>&1 || true
' "$eufuzz" "$seconds" "$out"
printf '| bug | pass holding it | found | median s to detection | culprit reported |\n'
printf '| --- | --- | --- | --- | --- |\n'
for bug in "${bugs[@]}"; do
  times=()
  culprits=()
  for ((r = 0; r < runs; r++)); do
    line=$(grep '^zoo bug detected after' "$out/$bug-$r.txt" || true)
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
