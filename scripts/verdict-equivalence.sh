#!/usr/bin/env bash
# Same verdicts: builds two revisions of eufuzz (release), runs both over the corpus and
# over N generated programs, every program on every device it is valid for, and diffs the
# `eufuzz verdicts` lines — verdict kind, signature, culprit pass, bucket key and a digest
# of the whole verdict per (program, device). Exit code 0 when there is no difference, 1
# when there is any (the first ones are printed), 2 on bad usage.
#
# A revision older than the `verdicts` command gets the commit that added it (a new
# command only, no change to checking) applied on top before it is built. Binaries are
# cached per commit under $EUFUZZ_EQUIV_CACHE (default ~/.cache/eufuzz-equiv), built in one
# shared target directory there. Both revisions run over REV_B's corpus.
#
# usage: scripts/verdict-equivalence.sh REV_A REV_B N [JOBS=2] [FIRST_SEED=0]
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 REV_A REV_B N [JOBS=2] [FIRST_SEED=0]" >&2
    exit 2
fi
cd "$(dirname "$0")/.."
N=$3
JOBS=${4:-2}
FIRST=${5:-0}
cache=${EUFUZZ_EQUIV_CACHE:-$HOME/.cache/eufuzz-equiv}
mkdir -p "$cache/bin"
work=$(mktemp -d)
trap 'rm -rf "$work"; git worktree prune' EXIT

# The commit that added the `verdicts` command, to apply to revisions without it.
adder=$(git log --diff-filter=A --format=%H --all -- triage/src/commands/verdicts.rs | tail -1)

# Prints the path of REV's eufuzz binary, building it first if it is not cached.
binary() {
    local sha bin src
    sha=$(git rev-parse --verify "$1^{commit}")
    bin="$cache/bin/eufuzz-$sha"
    if [ ! -x "$bin" ]; then
        src="$work/src-$sha"
        git worktree add --quiet --detach "$src" "$sha" >&2
        if [ ! -e "$src/triage/src/commands/verdicts.rs" ]; then
            git -C "$src" cherry-pick --no-commit "$adder" >&2
        fi
        (cd "$src" && nice -n 10 cargo build --quiet --release -p triage \
            --target-dir "$cache/target") >&2
        cp "$cache/target/release/eufuzz" "$bin.tmp"
        mv "$bin.tmp" "$bin"
        git worktree remove --force "$src" >&2
    fi
    echo "$bin"
}

a=$(binary "$1")
b=$(binary "$2")
git archive "$2" corpus | tar -x -C "$work"
files=$(cd "$work" && find corpus -name '*.eu' | sort)
for side in a b; do
    bin=${!side}
    start=$(date +%s.%N)
    {
        (cd "$work" && "$bin" verdicts --all-devices --jobs "$JOBS" $files)
        "$bin" verdicts --all-devices --jobs "$JOBS" --seeds "$FIRST..$((FIRST + N))"
    } > "$work/$side.txt"
    end=$(date +%s.%N)
    echo "$side ($(basename "$bin")): $(wc -l < "$work/$side.txt") lines in $(echo "$end - $start" | bc) s" >&2
done
differences=$(diff "$work/a.txt" "$work/b.txt" | grep -c '^<' || true)
echo "$(wc -l < "$work/a.txt") (program, device) lines over $(echo "$files" | wc -w) corpus files and $N generated programs (seeds $FIRST..$((FIRST + N))): $differences difference(s)"
if [ "$differences" -ne 0 ]; then
    diff "$work/a.txt" "$work/b.txt" | head -40
    exit 1
fi
