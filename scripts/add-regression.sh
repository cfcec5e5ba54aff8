#!/usr/bin/env bash
# Files a found failure under corpus/regressions/ with the expectation the current build
# gives it, and nothing else:
# - the file fails (`eufuzz check` exit 1): it is reduced (same signature) and filed as
#   `# xfail: open, found DATE [SIGNATURE]` until the fix lands (then
#   `eufuzz gate --bless corpus/regressions/NAME.eu`, or edit the line);
# - the file genuinely passes (exit 0): filed as `# expect: pass` (the fix is in);
# - anything else (an unreadable file, a typo in an option, every input set discarded, a
#   zoo bug this build cannot inject, a reduction or gate that fails): the script stops
#   with the reason, writes nothing and exits non-zero.
# A file that needs the zoo (`# zoo:` or `--zoo` in its options) is checked and reduced by
# the zoo build and filed with `# zoo: BUGS`, so the default-build gate expects it to pass
# and the zoo-build gate expects the failure.
#
# usage: scripts/add-regression.sh REPRO.eu NAME [eufuzz check/reduce options, e.g. --spill-all]
# EUFUZZ=PATH uses that eufuzz binary instead of building one (it must have the zoo feature
# when the file needs it); REGRESSIONS=DIR files into DIR instead of corpus/regressions.
set -euo pipefail
die() {
    echo "add-regression: $*" >&2
    exit 1
}
[ $# -ge 2 ] || { echo "usage: $0 REPRO.eu NAME [options]" >&2; exit 2; }
repro=$(realpath -- "$1") || die "$1: no such file"
name=$2
shift 2
cd "$(dirname "$0")/.."
dir=${REGRESSIONS:-corpus/regressions}
out=$dir/$name.eu
[ -r "$repro" ] || die "$repro: cannot read"
[ -e "$out" ] && die "$out exists; choose another name"
case $name in */* | .* | "") die "\`$name\` is not a file name" ;; esac

# The header's `# KEY: value` (comment lines before the program's first block).
header() { sed -n "/^START /q; s/^# $1: //p" "$repro" | head -1; }
file_options=$(header options)
zoo=$(header zoo)
needs_zoo=$zoo
case " $file_options $* " in *" --zoo "*) needs_zoo=yes ;; esac

if [ -n "${EUFUZZ:-}" ]; then
    eufuzz=$EUFUZZ
elif [ -n "$needs_zoo" ]; then
    cargo build -q --release -p triage --features zoo || die "cannot build the zoo build"
    eufuzz=${CARGO_TARGET_DIR:-target}/release/eufuzz
else
    cargo build -q --release -p triage || die "cannot build eufuzz"
    eufuzz=${CARGO_TARGET_DIR:-target}/release/eufuzz
fi

mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.add-regression.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The file's `# zoo:` bug named on the command line: a build without the zoo refuses it
# (exit 2) instead of checking the file with its bug silently off.
zoo_args=()
[ -n "$zoo" ] && zoo_args=(--zoo "$zoo")
rc=0
"$eufuzz" check "${zoo_args[@]}" "$@" "$repro" >"$tmp/check.txt" 2>&1 || rc=$?
case $rc in
0)
    expect="# expect: pass"
    cp "$repro" "$tmp/reduced.eu"
    words="$file_options $*"
    ;;
1)
    "$eufuzz" reduce "$repro" -o "$tmp/reduced.eu" "${zoo_args[@]}" "$@" >/dev/null 2>"$tmp/reduce.txt" ||
        die "$repro fails but does not reduce: $(cat "$tmp/reduce.txt")"
    signature=$(sed -n 's/^# signature: //p' "$tmp/reduced.eu" | head -1)
    [ -n "$signature" ] || die "the reduction of $repro names no signature"
    expect="# xfail: open, found $(date -u +%F) [$signature]"
    # The reduction's `# options:` line has every option it was reduced with.
    words=$(sed -n '/^START /q; s/^# options: //p' "$tmp/reduced.eu" | head -1)
    ;;
3) die "$repro is undecided (every input set discarded), not filed: $(cat "$tmp/check.txt")" ;;
*) die "cannot check $repro (exit $rc), not filed: $(cat "$tmp/check.txt")" ;;
esac

# Options without the zoo, which goes into `# zoo:` (the gate's zoo directive).
options=()
set -- $words
while [ $# -gt 0 ]; do
    if [ "$1" = --zoo ]; then
        [ $# -ge 2 ] || die "\`--zoo\` without a bug name"
        zoo=$2
        shift 2
    else
        options+=("$1")
        shift
    fi
done
[ "$zoo" = none ] && zoo=""
{
    echo "eu 1"
    echo "$expect"
    [ -n "$zoo" ] && echo "# zoo: $zoo"
    [ ${#options[@]} -gt 0 ] && echo "# options: ${options[*]}"
    echo "# Regression: $name, from $(basename "$repro")."
    sed '/^START /,$!{/^# \(expect\|xfail\|options\|zoo\): /d; /^eu 1$/d}' "$tmp/reduced.eu"
} >"$tmp/final.eu"
"$eufuzz" fmt "$tmp/final.eu" >/dev/null 2>"$tmp/fmt.txt" || die "cannot format the regression: $(cat "$tmp/fmt.txt")"
"$eufuzz" gate "$tmp/final.eu" >"$tmp/gate.txt" 2>&1 ||
    die "the gate does not accept the regression, not filed: $(cat "$tmp/gate.txt")"
# A hard link, unlike mv, never replaces a file another run filed meanwhile.
ln "$tmp/final.eu" "$out" 2>/dev/null || die "$out exists; choose another name"
echo "added $out (${expect#\# })"
