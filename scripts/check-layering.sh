#!/usr/bin/env bash
# The module layering ARCHITECTURE.md describes, checked from the source text:
#   - no command module (triage/src/commands/*.rs) uses another command module: what two
#     commands share belongs to the triage library;
#   - no pass or analysis (compiler/src/passes/, compiler/src/analysis/) uses the pipeline:
#     passes depend on the leaf module `compiler::pass`, the pipeline depends on passes;
#   - the crates depend one way: compiler <- oracle <- triage -> reports; fuzz -> oracle.
# Prints each breach with file:line and exits 1 if there is any.
set -u
cd "$(dirname "$0")/.."
status=0
breach() { echo "layering: $*"; status=1; }

commands=$(ls triage/src/commands/*.rs | xargs -n1 basename | sed 's/\.rs$//' | grep -v '^mod$')
for f in triage/src/commands/*.rs; do
  [ "$(basename "$f")" = mod.rs ] && continue
  # `super::` and `crate::` in a command module reach the binary's other modules, i.e.
  # other commands (the library is `triage::`).
  while IFS= read -r hit; do
    breach "$f:$hit: a command module uses the binary's own modules (use the triage library)"
  done < <(grep -nE '\b(super|crate)::' "$f" | cut -d: -f1)
  for c in $commands; do
    [ "triage/src/commands/$c.rs" = "$f" ] && continue
    while IFS= read -r hit; do
      breach "$f:$hit: uses command module \`$c\`"
    done < <(grep -nE "\bcommands::$c\b" "$f" | cut -d: -f1)
  done
done

for dir in compiler/src/passes compiler/src/analysis; do
  [ -d "$dir" ] || continue
  while IFS= read -r hit; do
    breach "$hit: a pass or analysis uses the pipeline (use compiler::pass)"
  done < <(grep -rnE '\bpipeline::|use crate::pipeline\b|crate::\{[^}]*\bpipeline\b' "$dir" --include=*.rs \
             | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' | cut -d: -f1,2)
done

# Crate dependencies, from each Cargo.toml's [dependencies] path entries.
deps() { sed -n '/^\[dependencies\]/,/^\[/p' "$1/Cargo.toml" | grep -oE '^(compiler|oracle|triage|reports) *=' | tr -d ' =' | sort | tr '\n' ' '; }
expect() {
  local got; got=$(deps "$1")
  [ "$got" = "$2" ] || breach "$1/Cargo.toml depends on [${got% }], expected [${2% }]"
}
expect compiler ""
expect oracle "compiler "
expect reports ""
expect triage "compiler oracle reports "
expect fuzz "compiler oracle "

if [ "$status" = 0 ]; then
  echo "layering: ok (commands independent, passes free of the pipeline, crates one way)"
fi
exit "$status"
