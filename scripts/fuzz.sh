#!/usr/bin/env bash
# The libFuzzer targets, built with clang under AddressSanitizer + UndefinedBehaviorSanitizer, each
# run for a bounded time: fuzz_api drives the CPU API with fuzzer-chosen primitives, types, sizes, ratios,
# patterns and output capacities against the serial reference (fuzz/fuzz_api.cpp); fuzz_cli drives the
# command line's parser (fuzz/fuzz_cli.cpp).
# Usage: scripts/fuzz.sh [seconds per target]   (default 60; the corpus grows in $BUILD_DIR-fuzz/corpus-*;
# fuzz/seeds-* hold the inputs of past findings, replayed first)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
seconds=${1:-60}
dir="$BUILD_DIR-fuzz"
CXX=${FUZZ_CXX:-clang++} cmake -S . -B "$dir" -DSLUICE_ENABLE_CUDA=OFF -DSLUICE_ENABLE_GL=OFF -DSLUICE_BUILD_TESTS=OFF -DSLUICE_BUILD_TOOLS=OFF \
  -DSLUICE_BUILD_BENCHMARKS=OFF -DSLUICE_BUILD_FUZZERS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" >/dev/null
cmake --build "$dir" -j"$JOBS" --target fuzz_api fuzz_cli
for t in api cli; do
  mkdir -p "$dir/corpus-$t" "fuzz/seeds-$t"
  echo "fuzz_$t: ${seconds} s"
  "$dir/fuzz_$t" -max_total_time="$seconds" -max_len=16384 -timeout=20 -artifact_prefix="$dir/" -print_final_stats=1 \
    "$dir/corpus-$t" "fuzz/seeds-$t" 2>&1 | tail -40
done
