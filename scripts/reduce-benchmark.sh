#!/usr/bin/env bash
# Reducer benchmark over the zoo: for every bug, RUNS campaign reproducers (one per seed,
# found with `campaign --zoo BUG --stop-on-failure --reduce-budget 0`) reduced with
# `eufuzz reduce` on one core; prints per bug the median and 90th-percentile reduced size
# (instructions), the median reduction time and how many kept their signature.
#
# usage: scripts/reduce-benchmark.sh [RUNS=10] [FIND_SECONDS=60] [BUDGET=60]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-10}
FIND=${2:-60}
BUDGET=${3:-60}
cargo build --release -q -p triage --features zoo
OUT=$(mktemp -d)
# A private copy: rebuilding target/ while the benchmark runs must not change it.
cp "${CARGO_TARGET_DIR:-target}/release/eufuzz" "$OUT/eufuzz"
E=$OUT/eufuzz
BUGS="imul-dst-overlap imul-signed-imm-as-w imul-src1-modifier-halves ra-no-physical-loop-edges
regioning-acc-dst-rewrite regioning-no-stride-cap scratch-fftid-imm-truncated
scratch-hsw-size-encoding simd-split-eot-first simd-split-flag-alias simd-split-group-absolute
simd-split-wide-not-nomask simd-zip-ignores-predicate spill-fill-masked"

percentile() { # P, values on stdin
    sort -n | awk -v p="$1" '{a[NR]=$1} END {if (NR==0) {print "-"; exit}
        i=int((NR-1)*p/100)+1; print a[i]}'
}

printf '| bug | reduced | median instructions | p90 instructions | median s | signature kept |\n'
printf '| --- | --- | --- | --- | --- | --- |\n'
for bug in $BUGS; do
    extra=()
    [ "$bug" = spill-fill-masked ] && extra=(--spill-all)
    sizes=()
    times=()
    kept=0
    n=0
    for k in $(seq 0 $((RUNS - 1))); do
        dir="$OUT/$bug-$k"
        CI=true "$E" campaign --jobs 1 --zoo "$bug" "${extra[@]}" --time "$FIND" --seed $((k * 1000003 + 17)) \
            --stop-on-failure --reduce-budget 0 --out "$dir" --stats-json "$dir.json" >/dev/null 2>&1 || true
        file=$(python3 -c "import json,sys; f=[x for x in json.load(open(sys.argv[1]))['failures'] if x.get('without_zoo_bug') is not True]; print(f[0]['file'] if f else '')" "$dir.json")
        [ -n "$file" ] || continue
        n=$((n + 1))
        want=$(sed -n 's/^# signature: //p' "$file" | head -1)
        start=$(date +%s.%N)
        "$E" reduce --zoo "$bug" "${extra[@]}" --budget "$BUDGET" -o "$dir/reduced.eu" "$file" >/dev/null 2>&1 || continue
        end=$(date +%s.%N)
        got=$(sed -n 's/^# signature: //p' "$dir/reduced.eu" | head -1)
        [ "$got" = "$want" ] && kept=$((kept + 1))
        sizes+=("$(sed -n 's/^# size: .* -> \([0-9]*\) instructions/\1/p' "$dir/reduced.eu")")
        times+=("$(echo "$end - $start" | bc)")
    done
    med=$(printf '%s\n' "${sizes[@]}" | percentile 50)
    p90=$(printf '%s\n' "${sizes[@]}" | percentile 90)
    mt=$(printf '%s\n' "${times[@]}" | percentile 50)
    printf '| %s | %d/%d | %s | %s | %.1f | %d/%d |\n' "$bug" "${#sizes[@]}" "$n" "$med" "$p90" "$mt" "$kept" "$n"
done
rm -rf "$OUT"
