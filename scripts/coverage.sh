#!/usr/bin/env bash
# Source-based coverage of a default campaign: which lines and regions of the compiler's
# passes and of the strict hardware rules a campaign of SECONDS reaches. Builds an
# instrumented `eufuzz` (rustc's `-C instrument-coverage`, in its own target directory),
# runs `eufuzz campaign --time SECONDS`, merges the raw profiles with llvm-profdata and
# writes, in OUT:
#   summary.txt   llvm-cov's per-file table (lines, regions, functions) of compiler/src/
#                 and oracle/src/strict/, with totals
#   coverage.json {"lines": {...}, "files": [{file, lines, lines_covered, regions,
#                 regions_covered}, ...]}: what the nightly report shows and charts
#   html/         the line-by-line report (open html/index.html)
#   uncovered.txt every line of compiler/src/passes/ no case reached, file:line
#
#   scripts/coverage.sh [SECONDS=120] [OUT=target/coverage-report] [-- CAMPAIGN FLAGS...]
#   scripts/coverage.sh --corpus DIR [OUT=target/coverage-report] [-- VERDICTS FLAGS...]
#
# With --corpus, no campaign runs: every entry of a campaign's corpus (OUT/corpus of a
# release-build campaign, with or without feedback) is checked once (`eufuzz verdicts
# --corpus DIR`), which measures the coverage that campaign reached, as OSS-Fuzz measures
# a fuzzer's by replaying its corpus. The instrumented build runs about eight times fewer
# cases in a given time, so this is how two long campaigns are compared fairly.
#
# Needs the llvm-tools rustup component (installed here if missing: `rustup component add
# llvm-tools`). Environment: COVERAGE_SEED (default 0), COVERAGE_JOBS (default: nproc).
set -euo pipefail
cd "$(dirname "$0")/.."

corpus=
if [[ "${1:-}" == "--corpus" ]]; then
    corpus=${2:-}
    shift $(( $# < 2 ? $# : 2 ))
    seconds=0
    if [[ ! -d "$corpus" ]]; then
        echo "coverage: --corpus $corpus: not a directory" >&2
        exit 2
    fi
    corpus=$(cd "$corpus" && pwd)
else
    seconds=${1:-120}
    shift $(( $# < 1 ? $# : 1 ))
    if [[ ! "$seconds" =~ ^[0-9]+$ || "$seconds" -eq 0 ]]; then
        echo "usage: scripts/coverage.sh [SECONDS=120] [OUT=target/coverage-report] [-- CAMPAIGN FLAGS...]" >&2
        echo "       scripts/coverage.sh --corpus DIR [OUT=target/coverage-report] [-- VERDICTS FLAGS...]" >&2
        exit 2
    fi
fi
out=${1:-target/coverage-report}
shift $(( $# < 1 ? $# : 1 ))
[[ "${1:-}" == "--" ]] && shift

sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
tools="$sysroot/lib/rustlib/$host/bin"
if [[ ! -x "$tools/llvm-profdata" ]]; then
    echo "coverage: installing the llvm-tools component" >&2
    rustup component add llvm-tools >&2
fi
profdata="$tools/llvm-profdata"
llvm_cov="$tools/llvm-cov"

target=target/coverage-build
echo "coverage: building an instrumented eufuzz in $target" >&2
# Build scripts run instrumented too: their profiles go to the build directory, not here.
RUSTFLAGS="-C instrument-coverage" CARGO_TARGET_DIR=$target \
    LLVM_PROFILE_FILE="$PWD/$target/build-%p-%m.profraw" cargo build -q --release -p triage
bin="$target/release/eufuzz"

rm -rf "$out"
mkdir -p "$out/profraw"
out=$(cd "$out" && pwd)
if [[ -n "$corpus" ]]; then
    echo "coverage: replaying the $(ls "$corpus" | wc -l) entries of $corpus" >&2
    LLVM_PROFILE_FILE="$out/profraw/eufuzz-%p-%m.profraw" "$bin" verdicts \
        --corpus "$corpus" --jobs "${COVERAGE_JOBS:-$(nproc)}" "$@" > "$out/verdicts.txt"
else
    echo "coverage: ${seconds}-s default campaign" >&2
    LLVM_PROFILE_FILE="$out/profraw/eufuzz-%p-%m.profraw" CI=true "$bin" campaign \
        --time "$seconds" --seed "${COVERAGE_SEED:-0}" --jobs "${COVERAGE_JOBS:-$(nproc)}" \
        --out "$out/campaign" "$@" > "$out/campaign.log" 2>&1 || true
fi
"$profdata" merge -sparse "$out"/profraw/*.profraw -o "$out/eufuzz.profdata"
rm -rf "$out/profraw"

sources=(compiler/src oracle/src/strict)
common=(-instr-profile="$out/eufuzz.profdata" "$bin")
"$llvm_cov" report "${common[@]}" "${sources[@]}" > "$out/summary.txt"
"$llvm_cov" show "${common[@]}" -format=html -output-dir="$out/html" \
    -show-line-counts-or-regions "${sources[@]}" > /dev/null
"$llvm_cov" export "${common[@]}" -summary-only "${sources[@]}" > "$out/export.json"
# Uncovered lines of the passes: lines with a count of zero in llvm-cov's text view.
"$llvm_cov" show "${common[@]}" -format=text compiler/src/passes 2>/dev/null | python3 -c '
import re, sys
current = None
for line in sys.stdin:
    m = re.match(r"^(/\S+\.rs):$", line.rstrip())
    if m:
        current = m.group(1)
        continue
    m = re.match(r"^\s*(\d+)\|\s*0\|", line)
    if m and current:
        print(f"{current}:{m.group(1)}")
' | sed "s|$PWD/||" > "$out/uncovered.txt"

python3 - "$out" "$PWD" <<'EOF'
import json, sys
out, root = sys.argv[1], sys.argv[2] + "/"
data = json.load(open(f"{out}/export.json"))["data"][0]
files = []
for f in data["files"]:
    s = f["summary"]
    files.append({
        "file": f["filename"].replace(root, ""),
        "lines": s["lines"]["count"],
        "lines_covered": s["lines"]["covered"],
        "regions": s["regions"]["count"],
        "regions_covered": s["regions"]["covered"],
    })
files.sort(key=lambda f: f["file"])
def total(prefix):
    fs = [f for f in files if f["file"].startswith(prefix)]
    lines = sum(f["lines"] for f in fs)
    covered = sum(f["lines_covered"] for f in fs)
    return {"lines": lines, "covered": covered,
            "percent": round(100.0 * covered / lines, 2) if lines else 0.0}
summary = {
    "lines": total(""),
    "passes": total("compiler/src/passes/"),
    "strict": total("oracle/src/strict/"),
    "files": files,
}
json.dump(summary, open(f"{out}/coverage.json", "w"), indent=1)
for name in ("lines", "passes", "strict"):
    t = summary[name]
    label = {"lines": "all measured", "passes": "compiler/src/passes/",
             "strict": "oracle/src/strict/"}[name]
    print(f"coverage: {label}: {t['covered']}/{t['lines']} lines ({t['percent']} %)")
EOF
rm -f "$out/export.json"
echo "coverage: per-file table in $out/summary.txt, report in $out/html/index.html, uncovered pass lines in $out/uncovered.txt" >&2
