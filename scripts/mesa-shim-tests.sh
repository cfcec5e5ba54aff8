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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
