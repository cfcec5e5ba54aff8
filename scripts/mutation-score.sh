#!/usr/bin/env bash
# Mutation score of the harness: how many small faults in the compiler's passes a fixed
# amount of generated checking catches. This is how the harness is judged from outside
# (faults it has never seen, a short default campaign), so the mutants it misses point at
# the program shapes the generator does not make or the differences the oracle does not see.
#
# Mutants come from cargo-mutants (`cargo install cargo-mutants --locked`): operator swaps,
# function bodies replaced by a default value, match arms deleted. Each is applied in a
# private worktree of HEAD, built incrementally (`--profile mutants`, tens of seconds), and
# judged by `eufuzz verdicts --seeds 0..SEEDS`: caught when any generated program's verdict
# is not `pass` or `discard`, or the run crashes or times out. A fixed seed range, not a
# timed campaign, so the score does not depend on the machine's load. A mutant that does
# not compile is "unviable" and not counted.
#
# Usage: scripts/mutation-score.sh [SEEDS=10000] [SAMPLE=100] [FILES...]
#   FILES: source files to mutate (default: compiler/src/passes/**/*.rs).
#   SAMPLE: how many mutants to try, drawn evenly over the files with a fixed seed
#   (`all` for every one). JOBS=N threads for the verdicts (default 2). OUT=DIR
#   (default target/mutation-score): results.tsv there is appended to and a rerun skips the
#   mutants already judged, so a stopped run continues. ONLY=FILE judges just the mutant ids
#   listed in FILE (one per line, as results.tsv writes them: `grep missed OLD/results.tsv |
#   cut -f1`), to judge a previous run's misses again on today's HEAD; an id whose line no
#   longer holds that mutant is reported as not found. SKIP=N starts the sample after the
#   first N mutants of the draw, so a second run judges mutants the first one did not.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-10000}
sample=${2:-100}
shift $(($# < 2 ? $# : 2))
out=${OUT:-target/mutation-score}
jobs=${JOBS:-2}
if ! cargo mutants --version > /dev/null 2>&1; then
  echo "mutation-score: cargo-mutants is not installed (cargo install cargo-mutants --locked)" >&2
  exit 2
fi
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(find compiler/src/passes -name '*.rs' | sort)
fi
mkdir -p "$out/mutants"
# Every mutant of every file, as JSON (cargo-mutants reads the files one at a time because
# the pass modules are declared by a macro it does not expand).
for f in "${files[@]}"; do
  cargo mutants --Zmutate-file "$f" --json --diff 2> /dev/null |
    python3 -c 'import json,sys; [print(json.dumps(dict(m, file=sys.argv[1]))) for m in json.load(sys.stdin)]' "$f"
done > "$out/all.jsonl"
tree=$out/tree
if [ ! -d "$tree" ]; then
  git worktree add --detach "$tree" HEAD > /dev/null
fi
git -C "$tree" checkout -q --detach "$(git rev-parse HEAD)"
git -C "$tree" checkout -q -- .
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
python3 - "$out" "$tree" "$seeds" "$sample" "$jobs" "${ONLY:-}" "${SKIP:-0}" <<'PY'
import json, os, random, subprocess, sys, time
out, tree, seeds, sample, jobs, only, skip = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6], int(sys.argv[7])
target = os.environ["CARGO_TARGET_DIR"]
eufuzz = os.path.join(target, "mutants", "eufuzz")
mutants = [json.loads(l) for l in open(os.path.join(out, "all.jsonl"))]
for i, m in enumerate(mutants):
    m["id"] = "%s:%d:%d:%s" % (m["file"], m["span"]["start"]["line"], m["span"]["start"]["column"], m["replacement"])
# An even draw over the files: round-robin over each file's shuffled mutants.
rng = random.Random(26)
by_file = {}
for m in mutants:
    by_file.setdefault(m["file"], []).append(m)
queues = [rng.sample(v, len(v)) for _, v in sorted(by_file.items())]
order = []
while any(queues):
    for q in queues:
        if q:
            order.append(q.pop())
if only:
    wanted = [l.strip() for l in open(only) if l.strip()]
    ids = {m["id"] for m in order}
    for w in wanted:
        if w not in ids:
            print("not found %s" % w, flush=True)
    order = [m for m in order if m["id"] in set(wanted)]
elif sample != "all":
    order = order[skip : skip + int(sample)]
results_path = os.path.join(out, "results.tsv")
done = set()
if os.path.exists(results_path):
    done = {l.split("\t")[0] for l in open(results_path) if l.strip()}

def build():
    r = subprocess.run(["cargo", "build", "-q", "--profile", "mutants", "-p", "triage"],
                       cwd=tree, capture_output=True, text=True)
    return r.returncode == 0

def judge(limit):
    """(verdict, first failing line, seconds): caught, missed or timeout."""
    start = time.time()
    try:
        r = subprocess.run([eufuzz, "verdicts", "--seeds", "0..%d" % seeds, "--jobs", jobs],
                           capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return "caught", "timeout (hang)", time.time() - start
    secs = time.time() - start
    for line in r.stdout.splitlines():
        f = line.split("\t")
        if len(f) > 2 and f[2] not in ("pass", "discard"):
            return "caught", "\t".join(f[:5]), secs
    if r.returncode != 0:
        return "caught", "exit %d: %s" % (r.returncode, r.stderr.strip().splitlines()[-1:] or ""), secs
    return "missed", "-", secs

def apply(m):
    path = os.path.join(tree, m["file"])
    lines = open(path, encoding="utf-8").read().split("\n")
    s, e = m["span"]["start"], m["span"]["end"]
    # cargo-mutants columns are 1-based character columns.
    head = lines[s["line"] - 1][: s["column"] - 1]
    tail = lines[e["line"] - 1][e["column"] - 1 :]
    lines[s["line"] - 1 : e["line"]] = [head + m["replacement"] + tail]
    open(path, "w", encoding="utf-8").write("\n".join(lines))

def restore(m):
    subprocess.run(["git", "checkout", "-q", "--", m["file"]], cwd=tree, check=True)

# The unmutated compiler must pass the judge, or every mutant would look caught.
if not build():
    sys.exit("mutation-score: HEAD does not build with --profile mutants")
verdict, line, base = judge(None)
if verdict != "missed":
    sys.exit("mutation-score: HEAD itself fails the judge: " + line)
print("baseline: %d seeds in %.1f s" % (seeds, base), flush=True)
limit = max(60.0, 10 * base)
with open(results_path, "a") as results:
    for m in order:
        if m["id"] in done:
            continue
        apply(m)
        try:
            if build():
                verdict, line, secs = judge(limit)
            else:
                verdict, line, secs = "unviable", "-", 0.0
        finally:
            restore(m)
        results.write("%s\t%s\t%s\t%s\t%.1f\n" % (m["id"], verdict, m["genre"], line.replace("\t", " "), secs))
        results.flush()
        with open(os.path.join(out, "mutants", m["id"].replace("/", "_") + ".diff"), "w") as d:
            d.write(m["diff"])
        print("%-9s %s" % (verdict, m["name"] if m["file"] in m["name"] else m["file"] + ": " + m["name"]), flush=True)

rows = [l.rstrip("\n").split("\t") for l in open(results_path) if l.strip()]
per_file = {}
for r in rows:
    f = r[0].split(":")[0]
    per_file.setdefault(f, [0, 0])
    if r[1] != "unviable":
        per_file[f][1] += 1
        per_file[f][0] += r[1] == "caught"
caught = sum(v[0] for v in per_file.values())
viable = sum(v[1] for v in per_file.values())
print("\n| file | caught | viable |\n| --- | ---: | ---: |")
for f, (c, v) in sorted(per_file.items()):
    print("| %s | %d | %d |" % (f, c, v))
print("\nmutation score: %d of %d viable mutants caught (%.0f %%); missed ones: grep missed %s"
      % (caught, viable, 100.0 * caught / max(viable, 1), results_path))
PY
