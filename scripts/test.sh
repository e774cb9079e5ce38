#!/usr/bin/env bash
# Builds sluice and runs every test: the verification matrix on every device present (CUDA tests skip with
# a printed reason where there is no GPU), the API contract tests, the CLI tests and the installed-package example;
# then the CPU side under ASan+UBSan and the libFuzzer targets for SLUICE_FUZZ_SECONDS each (default 60; 0 skips them).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/setup.sh
. scripts/env.sh
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j"$JOBS"
cd "$BUILD_DIR"
ctest -j"$JOBS" --output-on-failure | tee ctest-output.txt
# The CPU side once more under AddressSanitizer + UndefinedBehaviorSanitizer (the CUDA side is checked by
# compute-sanitizer on the GPU machine: scripts/device_check.sh). Quick matrix; the installed-package test
# builds an uninstrumented program, so it runs only above.
if [ "${SLUICE_SANITIZERS:-1}" = 1 ]; then
  cd ..
  # The gl device stays out of this build: its driver (Mesa's llvmpipe, an LLVM JIT) is not ours to sanitize;
  # its tests there skip with that reason, and they run above.
  cmake -S . -B "$BUILD_DIR-asan" -DSLUICE_ENABLE_CUDA=OFF -DSLUICE_ENABLE_GL=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" >/dev/null
  cmake --build "$BUILD_DIR-asan" -j"$JOBS"
  (cd "$BUILD_DIR-asan" && SLUICE_TEST_QUICK=1 ctest -j"$JOBS" --output-on-failure -E installed_package)
  cd "$BUILD_DIR"
fi
# The libFuzzer targets, for a bounded time (clang; issue 9).
[ "${SLUICE_FUZZ_SECONDS:-60}" = 0 ] || (cd "$root" && scripts/fuzz.sh "${SLUICE_FUZZ_SECONDS:-60}")
# ctest lists skipped tests without their reason: show the reasons the tests printed.
reasons=$(grep -h -A1 "Skipped$" Testing/Temporary/LastTest.log 2>/dev/null | grep -v -e "Skipped$" -e "^--" | sort | uniq -c || true)
[ -z "$reasons" ] || printf 'skipped tests, with the reason each gave:\n%s\n' "$reasons"
# The command-line tests skip by exit code 2 (no GPU, no OpenGL context) and say why on stderr: their lines.
for t in $(sed -n 's/^[[:space:]]*[0-9]* - \(cli_[^ ]*\) (Skipped)$/\1/p' ctest-output.txt); do
  printf '  %s: %s\n' "$t" "$(awk -v t="$t" '$0 ~ ("Test: " t "$") {f = 1; next} f && /^Output:/ {getline; getline; print; exit}' Testing/Temporary/LastTest.log)"
done
