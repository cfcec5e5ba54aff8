#!/usr/bin/env bash
# shader-db A/B: compiles the shader corpus with two compiler variants and prints the
# comparison (`eufuzz stats-compare`).
#
# Usage: scripts/shader-db.sh REV_A REV_B [STATS_ARGS...]
#   REV_A, REV_B  git revisions (anything `git rev-parse` takes), or `.` for the working
#                 tree as it is. Each revision is built in its own worktree under
#                 target/shader-db/; the corpus is always this checkout's corpus/shaders
#                 (or CORPUS), so both variants compile the same programs.
#   STATS_ARGS    passed to both `eufuzz stats` runs (default: --all-devices).
# Environment: A_ARGS / B_ARGS add arguments to one side only, for in-tree variants:
#   B_ARGS="--skip move_load_const" scripts/shader-db.sh . .
# COMPARE_ARGS go to stats-compare (e.g. "--markdown --top 10"). OUT (default
# target/shader-db) keeps a.csv and b.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
rev_a=$1
rev_b=$2
shift 2
stats_args=("$@")
[ ${#stats_args[@]} -gt 0 ] || stats_args=(--all-devices)
corpus=${CORPUS:-corpus/shaders}
out=${OUT:-target/shader-db}
mkdir -p "$out"
root=$(pwd)

# Prints the path of an eufuzz binary built from revision $1.
build() {
  local rev=$1
  if [ "$rev" = . ]; then
    cargo build -q --release -p triage >&2
    echo "$root/${CARGO_TARGET_DIR:-target}/release/eufuzz"
    return
  fi
  local sha
  sha=$(git rev-parse --verify "$rev^{commit}") || {
    echo "shader-db: unknown revision $rev" >&2
    exit 2
  }
  local tree=$root/$out/tree-$sha
  if [ ! -d "$tree" ]; then
    git worktree add -q --detach "$tree" "$sha" >&2
  fi
  (cd "$tree" && CARGO_TARGET_DIR=$root/$out/target-$sha cargo build -q --release -p triage >&2)
  local bin=$root/$out/target-$sha/release/eufuzz
  if ! "$bin" stats --help >/dev/null 2>&1; then
    echo "shader-db: revision $rev has no \`eufuzz stats\`" >&2
    exit 2
  fi
  echo "$bin"
}

bin_a=$(build "$rev_a")
bin_b=$(build "$rev_b")
read -r -a a_args <<<"${A_ARGS:-}"
read -r -a b_args <<<"${B_ARGS:-}"
read -r -a compare_args <<<"${COMPARE_ARGS:-}"
echo "A: $rev_a ${A_ARGS:-}" >&2
"$bin_a" stats "$corpus" "${stats_args[@]}" ${a_args[@]+"${a_args[@]}"} --out "$out/a.csv"
echo "B: $rev_b ${B_ARGS:-}" >&2
"$bin_b" stats "$corpus" "${stats_args[@]}" ${b_args[@]+"${b_args[@]}"} --out "$out/b.csv"
"$bin_b" stats-compare "$out/a.csv" "$out/b.csv" ${compare_args[@]+"${compare_args[@]}"}
