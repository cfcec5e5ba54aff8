#!/usr/bin/env bash
# Regenerates the shader-db corpus corpus/shaders/ bit for bit: the hand-written examples
# (copied into corpus/shaders/examples/) and COUNT programs of the generator's realistic
# profile, corpus/shaders/realistic/sNNNN.eu = `eufuzz gen --seed NNNN --knobs
# profile=realistic` (generator format 23), seeds from 0 up. A seed is skipped when its
# program's own inputs make the reference run branch on an undefined value (`eufuzz run`
# reports UndefinedBranch; about 5 % of realistic programs): such a program has no defined
# behaviour to keep, so it is no shader and the regression gate could not replay it.
# The same COUNT gives the same files on every machine; `git status corpus/shaders` after
# running it shows nothing.
# Usage: scripts/gen-shader-corpus.sh [COUNT=1000]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
cargo build -q --release -p triage
eufuzz=${CARGO_TARGET_DIR:-target}/release/eufuzz
rm -rf corpus/shaders/examples corpus/shaders/realistic
mkdir -p corpus/shaders/examples corpus/shaders/realistic
cp corpus/examples/*.eu corpus/shaders/examples/
kept=0
skipped=0
for ((seed = 0; kept < count; seed++)); do
  file=$(printf 'corpus/shaders/realistic/s%04d.eu' "$seed")
  "$eufuzz" gen --seed "$seed" --knobs profile=realistic >"$file.tmp"
  if "$eufuzz" run "$file.tmp" | grep -q 'UndefinedBranch'; then
    rm "$file.tmp"
    skipped=$((skipped + 1))
  else
    mv "$file.tmp" "$file"
    kept=$((kept + 1))
  fi
done
echo "corpus/shaders: $(find corpus/shaders -name '*.eu' | wc -l) programs ($skipped seeds skipped)"
