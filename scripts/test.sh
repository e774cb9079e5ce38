#!/usr/bin/env bash
# Builds sluice and runs every test: the verification matrix on every device present (CUDA tests skip with
# a printed reason where there is no GPU), the API contract tests, the CLI tests, the benchmarks once each at a
# small size and the installed-package example; then the CPU side under ASan+UBSan and the libFuzzer targets for
# SLUICE_FUZZ_SECONDS each (default 60; 0 skips them).
# The main build is $BUILD_DIR (default build/), every option set (scripts/env.sh): the CUDA backend wherever nvcc
# is found (SLUICE_ENABLE_CUDA=OFF leaves it out), so that CUDA code is compiled even where no GPU runs it; the
# benchmarks are built too, so that they cannot rot. scripts/bench.sh on a GPU machine shares this folder.
# ctest fails when it finds no tests (--no-tests=error): a build that left them out cannot pass.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/setup.sh
. scripts/env.sh
case "${SLUICE_ENABLE_CUDA:-ON}" in
  ON | on | 1 | TRUE | true | YES | yes) cuda=ON ;;
  OFF | off | 0 | FALSE | false | NO | no) cuda=OFF ;;
  *) echo "test: SLUICE_ENABLE_CUDA=$SLUICE_ENABLE_CUDA: expected ON or OFF" >&2; exit 1 ;;
esac
cmake -S . -B "$BUILD_DIR" "${MAIN_OPTIONS[@]}" -DSLUICE_ENABLE_CUDA=$cuda
cmake --build "$BUILD_DIR" -j"$JOBS"
cd "$BUILD_DIR"
ctest -j"$JOBS" --no-tests=error --output-on-failure | tee ctest-output.txt
# The CPU side once more under AddressSanitizer + UndefinedBehaviorSanitizer (the CUDA side is compute-sanitizer's,
# on a GPU). Quick matrix; the installed-package test builds an uninstrumented program, so it runs only above.
if [ "${SLUICE_SANITIZERS:-1}" = 1 ]; then
  cd "$root"
  # The gl device stays out of this build: its driver (Mesa's llvmpipe, an LLVM JIT) is not ours to sanitize;
  # its tests there skip with that reason, and they run above. The benchmarks ran above.
  # sluice::dist stays out too: MPI's own allocations at exit are not ours, and LeakSanitizer would report them.
  cmake -S . -B "$BUILD_DIR-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSLUICE_ENABLE_CUDA=OFF -DSLUICE_ENABLE_GL=OFF -DSLUICE_ENABLE_DIST=OFF \
    -DSLUICE_BUILD_TOOLS=ON -DSLUICE_BUILD_TESTS=ON -DSLUICE_BUILD_BENCHMARKS=OFF -DSLUICE_BUILD_FUZZERS=OFF \
    -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" >/dev/null
  cmake --build "$BUILD_DIR-asan" -j"$JOBS"
  (cd "$BUILD_DIR-asan" && SLUICE_TEST_QUICK=1 ctest -j"$JOBS" --no-tests=error --output-on-failure -E installed_package)
  cd "$BUILD_DIR"
fi
# The libFuzzer targets, for a bounded time (clang).
[ "${SLUICE_FUZZ_SECONDS:-60}" = 0 ] || (cd "$root" && scripts/fuzz.sh "${SLUICE_FUZZ_SECONDS:-60}")
# ctest lists skipped tests without their reason: show the reasons the tests printed.
reasons=$(grep -h -A1 "Skipped$" Testing/Temporary/LastTest.log 2>/dev/null | grep -v -e "Skipped$" -e "^--" | sort | uniq -c || true)
[ -z "$reasons" ] || printf 'skipped tests, with the reason each gave:\n%s\n' "$reasons"
# The command-line tests and the benchmarks skip by exit code 2 (no GPU, no OpenGL context) and say why on
# stderr: their lines.
for t in $(sed -n 's/^[[:space:]]*[0-9]* - \(\(cli\|benchmark\)_[^ ]*\) (Skipped)$/\1/p' ctest-output.txt); do
  printf '  %s: %s\n' "$t" "$(awk -v t="$t" '$0 ~ ("Test: " t "$") {f = 1; next} f && /^Output:/ {getline; getline; print; exit}' Testing/Temporary/LastTest.log)"
done
