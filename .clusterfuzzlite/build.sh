#!/bin/bash -eu
# Builds every cargo-fuzz target of fuzz/ into $OUT (run by ClusterFuzzLite inside the
# image of .clusterfuzzlite/Dockerfile; cargo-fuzz passes the sanitizer flags). The
# generator reads up to 16 KiB per program, so the byte-driven targets get max_len 16384;
# parse_roundtrip starts from the corpus's .eu files.
cd "$SRC/eufuzz"
cargo fuzz build -O --debug-assertions
release=fuzz/target/x86_64-unknown-linux-gnu/release
for src in fuzz/fuzz_targets/*.rs; do
    target=$(basename "${src%.rs}")
    cp "$release/$target" "$OUT/"
done
for target in differential compile emulator_strict; do
    printf '[libfuzzer]\nmax_len = 16384\n' > "$OUT/$target.options"
done
find corpus -name '*.eu' -print0 | xargs -0 zip -q -j "$OUT/parse_roundtrip_seed_corpus.zip"
