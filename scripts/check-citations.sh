#!/usr/bin/env bash
# Every citation of the repository's hardware notes, `docs/hardware/FILE.md §N`, names a file
# that exists and a section it has (a heading `§N`; `§11.16` may also be item 16 of §11), so
# a reader who clones the repository can follow every one. Exits 1 listing the ones that do
# not resolve.
set -u
cd "$(dirname "$0")/.."
status=0
while IFS=: read -r file line cite; do
  doc=${cite%% *}
  sec=${cite#* §}
  sec=${sec%.}
  if [ ! -f "$doc" ]; then
    echo "citations: $file:$line: $doc does not exist"; status=1; continue
  fi
  [ "$doc" = "$cite" ] && continue
  parent=${sec%.*}
  if ! grep -qE "^#+ §${sec//./\\.}( |$)" "$doc" && ! grep -qE "^#+ §${parent//./\\.}( |$)" "$doc"; then
    echo "citations: $file:$line: $doc has no §$sec"; status=1
  fi
done < <(git grep -noE 'docs/hardware/[a-z0-9-]+\.md( §[0-9]+(\.[0-9]+)*)?' -- ':!docs/hardware')
[ "$status" = 0 ] && echo "citations: ok (every docs/hardware citation resolves)"
exit "$status"
