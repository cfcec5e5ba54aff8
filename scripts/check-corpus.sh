#!/usr/bin/env bash
# Checks every .eu file under corpus/: canonical form (eufuzz fmt --check) and no validator
# violations (eufuzz validate). Usage: scripts/check-corpus.sh [EUFUZZ_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
eufuzz=${1:-target/debug/eufuzz}
[ -x "$eufuzz" ] || cargo build -q -p triage
mapfile -t files < <(find corpus -name '*.eu' | sort)
if [ ${#files[@]} -eq 0 ]; then
  echo "no .eu files under corpus/" >&2
  exit 1
fi
"$eufuzz" fmt --check "${files[@]}"
"$eufuzz" validate "${files[@]}" | tail -n 1
