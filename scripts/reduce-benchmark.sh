#!/usr/bin/env bash
# Reducer benchmark over the zoo: for every bug, RUNS campaign reproducers (one per seed,
# found with `campaign --zoo BUG --stop-on-failure --reduce-budget 0`) reduced with
# `eufuzz reduce` (one job: one core); prints per bug the median and 90th-percentile reduced
# size (instructions, every instruction line counted, control flow included), the median
# reduction time on that core (CPU seconds, user + system, which other work on the machine
# does not inflate) and wall-clock seconds, and how many kept their signature.
#
# usage: scripts/reduce-benchmark.sh [RUNS=10] [FIND_SECONDS=60] [BUDGET=60] [BUGS...]
# (no BUGS: every bug of corpus/zoo/; a bug runs with the `# options:` of its corpus file,
# a `stage vs` bug with vec4 programs on hsw and ivb)
# JOBS=N benchmarks N bugs at once (each reduction still runs on one core).
# KEEP=DIR keeps the reproducers and their reductions there (DIR/BUG-K/) for inspection.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-10}
FIND=${2:-60}
BUDGET=${3:-60}
shift $(($# < 3 ? $# : 3))
JOBS=${JOBS:-1}
cargo build --release -q -p triage --features zoo
OUT=${KEEP:-$(mktemp -d)}
mkdir -p "$OUT"
# A private copy: rebuilding target/ while the benchmark runs must not change it.
cp "${CARGO_TARGET_DIR:-target}/release/eufuzz" "$OUT/eufuzz"
if [ $# -gt 0 ]; then
    BUGS=("$@")
else
    BUGS=()
    for f in corpus/zoo/*.eu; do BUGS+=("$(basename "$f" .eu)"); done
fi

percentile() { # P, values on stdin
    sort -n | awk -v p="$1" '{a[NR]=$1} END {if (NR==0) {print "-"; exit}
        i=int((NR-1)*p/100)+1; print a[i]}'
}

# One table row for bug $1, written to $OUT/row-$1.
bench_bug() {
    local bug=$1 E=$OUT/eufuzz
    # The compile options the bug needs, as its corpus program says (e.g. --spill-all).
    local extra=()
    read -r -a extra <<< "$(sed -n 's/^# options: //p' "corpus/zoo/$bug.eu" | head -1)"
    # A bug of the vec4 pipeline (its program is `stage vs`) is hunted with vec4 programs on
    # the parts the stage is modelled on, as scripts/zoo-benchmark.sh does.
    local knobs=""
    if grep -q "^stage vs" "corpus/zoo/$bug.eu"; then knobs="stage=vs devices=hsw,ivb"; fi
    local sizes=() cpus=() walls=() kept=0 n=0
    for k in $(seq 0 $((RUNS - 1))); do
        local dir="$OUT/$bug-$k"
        CI=true "$E" campaign --jobs 1 --zoo "$bug" "${extra[@]}" ${knobs:+--knobs "$knobs"} --time "$FIND" --seed $((k * 1000003 + 17)) \
            --stop-on-failure --reduce-budget 0 --out "$dir" --stats-json "$dir.json" >/dev/null 2>&1 || true
        local file
        file=$(python3 -c "import json,sys; f=[x for x in json.load(open(sys.argv[1]))['failures'] if x.get('without_zoo_bug') is not True]; print(f[0]['file'] if f else '')" "$dir.json")
        [ -n "$file" ] || continue
        n=$((n + 1))
        local want got
        want=$(sed -n 's/^# signature: //p' "$file" | head -1)
        /usr/bin/time -f '%e %U %S' -o "$dir/time" \
            "$E" reduce --zoo "$bug" "${extra[@]}" --budget "$BUDGET" -o "$dir/reduced.eu" "$file" \
            >/dev/null 2>&1 || continue
        got=$(sed -n 's/^# signature: //p' "$dir/reduced.eu" | head -1)
        [ "$got" = "$want" ] && kept=$((kept + 1))
        sizes+=("$(sed -n 's/^# size: .* -> \([0-9]*\) instructions/\1/p' "$dir/reduced.eu")")
        walls+=("$(awk '{print $1}' "$dir/time")")
        cpus+=("$(awk '{print $2 + $3}' "$dir/time")")
    done
    local med p90 mc mw
    med=$(printf '%s\n' "${sizes[@]}" | percentile 50)
    p90=$(printf '%s\n' "${sizes[@]}" | percentile 90)
    mc=$(printf '%s\n' "${cpus[@]}" | percentile 50)
    mw=$(printf '%s\n' "${walls[@]}" | percentile 50)
    printf '| %s | %d/%d | %s | %s | %.1f | %.1f | %d/%d |\n' \
        "$bug" "${#sizes[@]}" "$n" "$med" "$p90" "$mc" "$mw" "$kept" "$n" > "$OUT/row-$bug"
}
export -f bench_bug percentile
export OUT RUNS FIND BUDGET

printf '%s\n' "${BUGS[@]}" | xargs -P "$JOBS" -I{} bash -c 'bench_bug "$1"' _ {}
printf '| bug | reduced | median instructions | p90 instructions | median CPU s | median wall s | signature kept |\n'
printf '| --- | --- | --- | --- | --- | --- | --- |\n'
for bug in "${BUGS[@]}"; do cat "$OUT/row-$bug"; done
[ -n "${KEEP:-}" ] || rm -rf "$OUT"
