#!/usr/bin/env bash
# Bucketing benchmark: one `--zoo all` campaign (every historical bug injected at once),
# keeping up to PER_BUCKET reproducers per bucket, then each kept reproducer attributed to
# the bugs that make it fail on their own the way it failed in the campaign, i.e. with the
# same culprit pass (`eufuzz check --zoo BUG`: a program can also fail alone with a bug of a
# later pass that the campaign's failure, stopped earlier, does not show). Prints the
# confusion table (buckets × bugs) and whether every bug found landed in exactly one bucket
# and every bucket holds exactly one bug. Failures that need several bugs together (no bug
# alone fails that way), or that fail that way with each of several alone, are shown in the
# columns `together` and `several` and judged by neither rule.
#
# Reproducers the campaign had to file unreduced (it ended before their reduction ran) are
# reduced afterwards by `eufuzz rebucket --reduce`, the follow-up stage `scripts/nightly.sh`
# runs too; the table reads each reproducer's bucket from its file after that stage.
#
# usage: scripts/bucket-benchmark.sh [SECONDS=600] [SEED=9000000] [OUT=target/bucket-benchmark] [PER_BUCKET=40]
# KNOBS="..." passes generator knobs to the campaign: KNOBS="stage=vs devices=hsw,ivb" measures
# the bugs of the vec4 pipeline, which default programs (fragment shaders) never reach.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
seed=${2:-9000000}
out=${3:-target/bucket-benchmark}
per_bucket=${4:-40}
cargo build -q --release -p triage --features zoo
rm -rf "$out"
mkdir -p "$out"
# A private copy: rebuilding target/ while the benchmark runs must not change it.
cp "${CARGO_TARGET_DIR:-target}/release/eufuzz" "$out/eufuzz"
eufuzz=$out/eufuzz
CI=true "$eufuzz" campaign --zoo all ${KNOBS:+--knobs "$KNOBS"} --time "$seconds" --seed "$seed" --per-bucket "$per_bucket" \
    --out "$out/campaign" --stats-json "$out/stats.json" > "$out/campaign.log" 2>&1 || true
written=$(ls "$out"/campaign/*.eu | grep -vc '\.reduced\.eu$' || true)
reduced=$(ls "$out"/campaign/*.reduced.eu 2>/dev/null | wc -l)
echo "campaign: $written reproducers written, $reduced reduced by the campaign itself"
"$eufuzz" rebucket --reduce --budget 60 "$out/campaign" > "$out/rebucket.log" 2>&1
tail -1 "$out/rebucket.log"
bugs=$(ls corpus/zoo/*.eu | xargs -n1 basename | sed 's/\.eu$//')
files=$(ls "$out"/campaign/*.eu 2>/dev/null | grep -v '\.reduced\.eu$' || true)
[ -n "$files" ] || { echo "the campaign found nothing"; exit 1; }
for bug in $bugs; do
    # shellcheck disable=SC2086
    "$eufuzz" check --zoo "$bug" $files > "$out/check-$bug.txt" 2>&1 || true
done
python3 - "$out" $bugs <<'EOF'
import collections, json, re, sys
out, bugs = sys.argv[1], sys.argv[2:]
failing = collections.defaultdict(dict)  # file -> bug -> culprit pass when it fails alone
for bug in bugs:
    current = None
    for line in open(f"{out}/check-{bug}.txt"):
        m = re.match(r"(\S+\.eu): FAIL on ", line)
        if m:
            current = m.group(1)
            failing[current][bug] = None
            continue
        m = re.match(r"\s+culprit pass: (\S+)", line)
        if m and current:
            failing[current][bug] = m.group(1)
            current = None
stats = json.load(open(f"{out}/stats.json"))
def bucket_of(path):
    for line in open(path):
        if line.startswith("# bucket: "):
            return line[len("# bucket: "):].strip()
        if not line.startswith("#"):
            return None
table = collections.defaultdict(collections.Counter)  # bucket -> label -> count
for f in stats["failures"]:
    if not f.get("file") or f.get("without_zoo_bug"):
        continue
    alone = {b for b, c in failing.get(f["file"], {}).items() if c == f["culprit_pass"]}
    label = next(iter(alone)) if len(alone) == 1 else ("several" if alone else "together")
    kept = bucket_of(f["file"]) if f["file"].endswith(".eu") else None
    table[kept or f["bucket"]][label] += 1
labels = sorted({l for c in table.values() for l in c if l not in ("several", "together")})
cols = labels + ["several", "together"]
print(f"{sum(sum(c.values()) for c in table.values())} failures in {len(table)} buckets, "
      f"{len(labels)} bugs found alone\n")
print("| bucket | " + " | ".join(cols) + " |")
print("| --- |" + " --- |" * len(cols))
for b in sorted(table):
    print(f"| `{b}` | " + " | ".join(str(table[b].get(c, "")) for c in cols) + " |")
split = {l: [b for b in table if table[b].get(l)] for l in labels}
split = {l: bs for l, bs in split.items() if len(bs) > 1}
merged = {b: [l for l in labels if table[b].get(l)] for b in table}
merged = {b: ls for b, ls in merged.items() if len(ls) > 1}
print()
for l, bs in split.items():
    print(f"SPLIT: {l} in {len(bs)} buckets")
for b, ls in merged.items():
    print(f"MERGED: {b} holds {', '.join(ls)}")
if not split and not merged:
    print(f"exactly one bucket per bug: {len(labels)} bugs, {len(labels)} buckets with a single bug")
EOF
