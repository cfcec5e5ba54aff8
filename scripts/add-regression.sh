#!/usr/bin/env bash
# Files a found failure under corpus/regressions/: reduces it (same signature), names it,
# and records its expectation — `# expect: pass` when the current build already passes it
# (the fix is in), otherwise `# xfail: open [SIGNATURE]` until the fix lands (then
# `eufuzz gate --bless corpus/regressions/NAME.eu`, or edit the line, turns it into a pass).
#
# usage: scripts/add-regression.sh REPRO.eu NAME [eufuzz reduce options, e.g. --spill-all]
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 REPRO.eu NAME [reduce options]" >&2; exit 2; }
repro=$1
name=$2
shift 2
out=corpus/regressions/$name.eu
[ -e "$out" ] && { echo "$out exists; choose another name" >&2; exit 2; }
cargo build -q --release -p triage
eufuzz=${CARGO_TARGET_DIR:-target}/release/eufuzz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if "$eufuzz" reduce "$repro" -o "$tmp/reduced.eu" "$@"; then
    signature=$(sed -n 's/^# signature: //p' "$tmp/reduced.eu" | head -1)
    expect="# xfail: open, found $(date -u +%F) [$signature]"
else
    # Nothing to reduce: the failure no longer reproduces on this build.
    cp "$repro" "$tmp/reduced.eu"
    expect="# expect: pass"
fi
options=""
[ $# -gt 0 ] && options="# options: $*"
{
    echo "eu 1"
    echo "$expect"
    [ -n "$options" ] && echo "$options"
    echo "# Regression: $name, from $(basename "$repro")."
    grep -v '^eu 1$' "$tmp/reduced.eu" | grep -v '^# \(expect\|xfail\|options\): '
} > "$tmp/final.eu"
"$eufuzz" fmt "$tmp/final.eu"
mv "$tmp/final.eu" "$out"
"$eufuzz" gate "$out"
echo "added $out"
