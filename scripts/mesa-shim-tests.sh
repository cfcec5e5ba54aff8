#!/usr/bin/env bash
# The Mesa shim's positive controls: Mesa 22.3's own pass unit tests re-expressed as `.eu`
# pairs (compiler/mesa-shim/tests/NAME.eu and NAME.expected.eu). Each input goes through
# the shim's pass (its `# mesa-pass:` line); the output must equal the expected program
# (both in canonical form, `eufuzz fmt`) and the pass must report progress as
# `# expect-progress:` says. Needs the Mesa build (scripts/mesa-build.sh); without it the
# script says so and exits 77 (skipped), so CI without Mesa is not failed by it.
#
#   scripts/mesa-shim-tests.sh [EUFUZZ_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
EUFUZZ="${1:-target/debug/eufuzz}"
SHIM="${EUFUZZ_MESA_SHIM:-${EUFUZZ_MESA_CACHE:-$HOME/.cache/eufuzz-mesa}/eufuzz-mesa-shim}"
if [ ! -x "$SHIM" ]; then
    echo "mesa-shim-tests: no shim at $SHIM; build it with scripts/mesa-build.sh (skipped)" >&2
    exit 77
fi
[ -x "$EUFUZZ" ] || { echo "mesa-shim-tests: no eufuzz binary at $EUFUZZ (cargo build -p triage)" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
for input in compiler/mesa-shim/tests/*.eu; do
    case "$input" in *.expected.eu) continue ;; esac
    name="$(basename "$input" .eu)"
    expected="${input%.eu}.expected.eu"
    mesa_pass="$(sed -n 's/^# mesa-pass: *//p' "$input")"
    want_progress="$(sed -n 's/^# expect-progress: *//p' "$input")"
    if ! "$SHIM" --pass "$mesa_pass" "$input" > "$tmp/$name.out.eu" 2> "$tmp/$name.err"; then
        echo "FAIL $name: the shim failed: $(tail -1 "$tmp/$name.err")"
        fail=$((fail + 1))
        continue
    fi
    got_progress="$(sed -n 's/^progress: *//p' "$tmp/$name.err")"
    cp "$expected" "$tmp/$name.want.eu"
    "$EUFUZZ" fmt "$tmp/$name.out.eu" "$tmp/$name.want.eu" > /dev/null
    if ! diff -u "$tmp/$name.want.eu" "$tmp/$name.out.eu" > "$tmp/$name.diff"; then
        echo "FAIL $name ($mesa_pass): output differs from $expected:"
        sed 's/^/    /' "$tmp/$name.diff"
        fail=$((fail + 1))
    elif [ "$got_progress" != "$want_progress" ]; then
        echo "FAIL $name ($mesa_pass): progress $got_progress, expected $want_progress"
        fail=$((fail + 1))
    else
        echo "ok   $name ($mesa_pass)"
        pass=$((pass + 1))
    fi
done
echo "$pass passed, $fail failed (positive controls)"

# The campaign engine against Mesa: a 20-second campaign on two workers against
# dead_code_eliminate must file the known bug (reports/mesa-22.3.md, finding 1: a removed
# `sel.cmod` kills the liveness of an unrelated flag, reports/mesa-22.3/dce-sel-cmod-flag.eu)
# in its bucket, with a reduced reproducer that replays through Mesa and passes eufuzz's own
# pipeline; its statistics count refusals by cause; `bucket` lists it; and `--resume`
# continues every worker's stream.
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
out="$tmp/campaign"
status=0
CI=1 "$EUFUZZ" campaign --backend mesa:dead_code_eliminate --time 20 --jobs 2 --seed 0 \
    --out "$out" > "$tmp/campaign.log" 2>&1 || status=$?
bucket="mismatch/mesa:dead_code_eliminate"
"$EUFUZZ" bucket "$out" > "$tmp/buckets" 2>&1 || true
if [ "$status" -eq 1 ] && grep -q " $bucket\$" "$tmp/buckets"; then
    ok "campaign: bucket $bucket filed (exit 1)"
else
    bad "campaign: exit $status, no bucket $bucket: $(tail -3 "$tmp/campaign.log")"
fi
replayed=0
for reduced in "$out"/mismatch-*.reduced.eu; do
    [ -e "$reduced" ] || continue
    grep -q "^# bucket: $bucket\$" "$reduced" || continue
    # The finding's shape: a CMP writing a flag, a SEL with a conditional modifier (the
    # dead min/max whose removal kills the flag) and a SEL predicated on the flag.
    grep -Eq '^ +cmp' "$reduced" && grep -Eq '^ +sel\.(l|le|g|ge)\(' "$reduced" \
        && grep -Eq '^ +\([+-]f[01]\.[01]\) sel' "$reduced" || continue
    "$EUFUZZ" check "$reduced" --backend mesa:dead_code_eliminate > "$tmp/replay" 2>&1 && continue
    grep -q "FAIL $bucket" "$tmp/replay" || continue
    "$EUFUZZ" check "$reduced" --backend eufuzz > /dev/null 2>&1 || continue
    replayed=$((replayed + 1))
done
if [ "$replayed" -ge 1 ]; then
    ok "campaign: $replayed reduced reproducer(s) of finding 1 replay through Mesa and pass eufuzz's pipeline"
else
    bad "campaign: no reduced reproducer of finding 1 that replays ($(ls "$out" | tr '\n' ' '))"
fi
refused="$(json "$out/stats.json" "sum(d['refused'].values())")"
judged_rate="$(grep -o '[0-9.]* judged checks/s' "$tmp/campaign.log" || true)"
if [ "$refused" -gt 0 ] && grep -q "^  refused " "$tmp/campaign.log" && [ -n "$judged_rate" ]; then
    ok "campaign: $refused refusals counted by cause, $judged_rate"
else
    bad "campaign: refusals not counted by cause in stats.json and the summary"
fi
done_before="$(json "$out/checkpoint.json" "[w['done'] for w in d['workers']]")"
execs_before="$(json "$out/stats.json" "d['execs']")"
CI=1 "$EUFUZZ" campaign --resume "$out" --time 15 > "$tmp/resume.log" 2>&1 || true
done_after="$(json "$out/checkpoint.json" "[w['done'] for w in d['workers']]")"
grew="$(python3 -c "import sys; a=eval(sys.argv[1]); b=eval(sys.argv[2]); print(int(all(y > x for x, y in zip(a, b))))" "$done_before" "$done_after")"
execs_after="$(json "$out/stats.json" "d['execs']")"
backend="$(json "$out/stats.json" "d.get('backend')")"
if [ "$grew" = 1 ] && [ "$execs_after" -gt "$execs_before" ] && [ "$backend" = "mesa:dead_code_eliminate" ]; then
    ok "resume: workers went on from $done_before to $done_after, execs $execs_before -> $execs_after, same backend"
else
    bad "resume: workers $done_before -> $done_after, execs $execs_before -> $execs_after, backend $backend"
fi

# Determinism: the same seed gives the same cases against Mesa too. Two one-worker
# campaigns of different lengths: the shorter one's corpus is where the longer one's
# starts, and a reproducer both wrote (same case) has the same signature in both.
for t in 8 14; do
    CI=1 "$EUFUZZ" campaign --backend mesa:dead_code_eliminate --time "$t" --jobs 1 --seed 7 \
        --out "$tmp/same-$t" > "$tmp/same-$t.log" 2>&1 || true
done
same="$(python3 - "$tmp/same-8" "$tmp/same-14" <<'PY'
import glob, json, os, sys
a, b = (json.load(open(os.path.join(d, "checkpoint.json")))["workers"][0]["corpus"] for d in sys.argv[1:])
n = min(len(a), len(b))
def signature(f):
    return next((l for l in open(f) if l.startswith("# signature:")), None)
shared = [os.path.basename(f) for f in glob.glob(os.path.join(sys.argv[1], "*.eu"))
          if os.path.exists(os.path.join(sys.argv[2], os.path.basename(f)))]
differ = [f for f in shared
          if signature(os.path.join(sys.argv[1], f)) != signature(os.path.join(sys.argv[2], f))]
ok = len(a) > 0 and len(b) >= len(a) and a[:n] == b[:n] and not differ
print(f"{int(ok)} corpus {len(a)} and {len(b)} entries, {len(shared)} reproducers in both, {len(differ)} with another signature")
PY
)"
if [ "${same%% *}" = 1 ]; then
    ok "determinism: same seed, same cases: ${same#* }"
else
    bad "determinism: ${same#* }"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
